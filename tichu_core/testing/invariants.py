"""Random matches of a variant, with the engine's invariants checked after every action.

:func:`check_variant` is what a plugin author runs on a house rule (and ``tichu check
FILE --play N`` from the command line); the project's own random-match tests run it on
every bundled variant, with their checks of the bundled rules on top (``on_step``,
``on_hand``). Bots pick uniformly among a seat's legal actions, now and then call
Tichu or bomb out of turn (any seat in ``game.to_act``), and probe the engine with
plays, passes and pushes they make up themselves. After every action:

- **cards are conserved**: hands, piles, the open trick and the cards not yet dealt
  make up the deck, with no card twice; the pushes a seat chose and the cards the
  rules take from it (``forced``) wait in its hand until the exchange, each card given
  once, and then arrive, exactly, where they were sent;
- **the game never stalls**: someone is awaited until the match is over;
- **no hidden card in any view**: every player sees its own seats' hands; no
  observation, nor any event a player (or a spectator) is given, shows a card of a hand
  the rules hide from it; a private event reaches whoever acts for its seat, and nobody
  else who may not see that hand;
- **listed and accepted agree**: a made-up action is accepted exactly when it is listed
  (so every accepted play is listed), and refused without any change; a listed action
  is accepted by a restored copy;
- **exact save and restore**: at random moments ``to_json`` -> ``from_json`` gives the
  same game (the same save, observations, events and legal actions), which then goes
  on in lockstep with the original;
- **every finished hand ranks every seat** (``out_order``: the seats as they went out,
  then those still holding cards in play order from the seat after the last one out);
- **the match ends with an Outcome** whose termination fits the variant's end.

The checks read the engine's internals (the running hand): this module belongs to the
engine and moves with it. They use ``assert`` statements, as tests do: Python must run
without ``-O``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

import tichu_core as tc
from tichu_core.cardplay.cards import codes_of, mask_of
from tichu_core.game.hand import EXCHANGE, GRAND_TICHU, OVER, PLAY, HandState
from tichu_core.testing.scenario import strings

__all__ = ["MatchCheck", "VariantReport", "check_variant", "play_checked_match"]

MAX_ACTIONS = 20_000  # a guard against a match that never ends
WORD = re.compile(r"\w+")

# What ``on_step`` is given after each action: the game, the hand the action was applied
# to, the new events of the log, each player's (None: spectators) share of them, and the
# state of every hand so far by index.
StepCheck = Callable[
    [tc.Game, HandState, list[tc.Event], dict[int | None, list[tc.Event]], dict[int, HandState]],
    None,
]
HandCheck = Callable[[tc.Game, tc.HandResult], None]


# --- who may see what --------------------------------------------------------------------


def own_seats(hand: HandState, player: int | None) -> set[int]:
    """The seats ``player`` acts for (none for a spectator)."""
    if player is None:
        return set()
    return {seat for seat in range(hand.seats) if hand.controllers[seat] == player}


def recorded(hand: HandState, player: int | None) -> set[int]:
    """The seats whose hands the engine shows ``player`` in this phase: its record of
    the rules' answer (the ``tichu_visible_seats`` hook)."""
    visibility: Any = hand.visibility
    if callable(visibility):  # asked lazily, once per phase
        visibility = visibility()
    return set(visibility[player])


def check_visibility(game: tc.Game) -> None:
    """Seats and players agree both ways, and every player sees its own seats."""
    hand = game._hand
    for seat in range(hand.seats):
        assert game.controller(seat) == hand.controllers[seat]
        assert game.player_at(seat) == hand.players[seat]
    for player in range(game.players):
        assert game.seat_of(player) == hand.players.index(player)
    for player in [None, *range(game.players)]:
        visible = recorded(hand, player)
        own = own_seats(hand, player)
        assert own <= visible, f"player {player} does not see its own seats {own - visible}"


def tokens(value: Any) -> set[str]:
    """Every word of every string in a dumped model: a push shows "Ap As 10t"."""
    return {word for text in strings(value) for word in text.split()}


def shown_words(model: BaseModel) -> set[str]:
    """Every word of a model's JSON (card codes, and harmless names and numbers)."""
    return set(WORD.findall(model.model_dump_json()))


def or_all(masks: Iterable[int]) -> int:
    union = 0
    for mask in masks:
        union |= mask
    return union


def given_by(hand: HandState, giver: int) -> dict[int, int]:
    """Target -> every card ``giver`` gives it in the exchange: chosen and forced."""
    given = dict(hand.forced[giver])
    for target, mask in (hand.pushes[giver] or {}).items():
        given[target] = given.get(target, 0) | mask
    return given


def hidden_codes(game: tc.Game, hand: HandState, player: int | None, shown: set[str]) -> set[str]:
    """Codes of cards in hands ``player`` may not see, that it cannot know otherwise."""
    seen = recorded(hand, player)
    own = own_seats(hand, player)
    gave = or_all(mask for seat in own for mask in given_by(hand, seat).values())
    hidden = 0
    for seat in range(hand.seats):
        if seat not in seen:
            hidden |= hand.hands[seat]
    hidden &= ~gave  # the player's own seats gave those cards away: it knows them
    codes = set(codes_of(hidden))
    if game.variant.deck_copies > 1:
        # Two copies share a code: a code the player may see for another reason (a copy
        # it sees, gave or received, a played copy) says nothing about the hidden copy.
        legit = or_all(hand.hands[seat] for seat in seen)
        legit |= gave | hand.trick_cards | or_all(hand.piles)
        legit |= or_all(mask for seat in own for mask in hand.received[seat].values())
        codes -= set(codes_of(legit)) & shown
    return codes


def check_observation(game: tc.Game, player: int | None) -> set[str]:
    """The observation shows the seats ``player`` may see, and only its own exchange;
    returns the words it shows."""
    hand = game._hand
    observation = game.observation(player)
    own = sorted(own_seats(hand, player))
    seen = recorded(hand, player)
    assert observation.seats == own
    assert observation.players == hand.players
    assert set(observation.hands) == seen
    for seat, cards in observation.hands.items():
        assert sorted(cards) == sorted(codes_of(hand.hands[seat]))
    assert sorted(observation.hand) == (sorted(codes_of(hand.hands[own[0]])) if own else [])
    assert observation.hand_sizes == [cards.bit_count() for cards in hand.hands]
    assert observation.push_targets == {
        seat: hand.push_targets[seat] for seat in own if hand.push_targets[seat]
    }
    own_gave = or_all(mask for seat in own for mask in given_by(hand, seat).values())
    assert tokens(observation.pushed) <= set(codes_of(own_gave))
    own_received = or_all(mask for seat in own for mask in hand.received[seat].values())
    assert tokens(observation.received) <= set(codes_of(own_received))
    if hand.phase not in (PLAY, OVER):
        assert observation.received == {}
    return shown_words(observation)


class Streams:
    """The events each player (None: spectators) has been shown so far.

    ``events_for`` filters the whole log at every call, too slow to ask every player
    after every action of a long match: a step's new events are read from the
    unredacted log with the engine's own filter (``Event.seen_by``), and
    :meth:`check_events_for` compares each player's whole stream with ``events_for``
    (at random steps and at the end of the match).
    """

    def __init__(self, game: tc.Game) -> None:
        self.viewers: list[int | None] = [None, *range(game.players)]
        self.logged = 0
        self.streams: dict[int | None, list[tc.Event]] = {p: [] for p in self.viewers}

    def new(self, game: tc.Game) -> tuple[list[tc.Event], dict[int | None, list[tc.Event]]]:
        """The new events of the log, and of each player's stream."""
        log = game.event_log
        fresh, self.logged = log[self.logged :], len(log)
        shown = {p: [event for event in fresh if event.seen_by(p)] for p in self.viewers}
        for player, events in shown.items():
            self.streams[player] += events
        return fresh, shown

    def check_events_for(self, game: tc.Game, rng: random.Random) -> None:
        for player in self.viewers:
            stream = self.streams[player]
            assert game.events_for(player) == stream
            since = rng.randrange(len(stream) + 1)
            assert game.events_for(player, since=since) == stream[since:]


def check_private_events(
    game: tc.Game, fresh: list[tc.Event], tables: dict[int, HandState]
) -> None:
    """A private event shows one seat's cards: whoever acts for that seat sees it, and
    nobody else who may not see that seat's hand now."""
    for event in fresh:
        if event.visible_to is None:
            continue
        seat = event.seat  # type: ignore[attr-defined]
        assert event.visible_to == [seat], event
        hand = tables[event.hand]
        owner = hand.controllers[seat]
        assert event.seen_by(owner), f"player {owner} does not see {event.type} of its seat {seat}"
        for player in [None, *range(game.players)]:
            if player != owner and event.seen_by(player) and event.hand == game._hand.hand_index:
                assert seat in recorded(game._hand, player), (
                    f"{'a spectator' if player is None else f'player {player}'} sees "
                    f"{event.type} of seat {seat}, whose hand is hidden from it"
                )


def check_nothing_hidden_shown(
    game: tc.Game, before: HandState, shown_events: dict[int | None, list[tc.Event]]
) -> None:
    """No observation, nor any new event, shows a card of a hand hidden from its reader.

    ``before`` is the hand the last action was applied to: the events that finished it
    are checked against its final state, those of a new hand against the new hand.
    """
    hand = game._hand
    hands = {before.hand_index: before, hand.hand_index: hand}
    for player in [None, *range(game.players)]:
        shown = {index: set[str]() for index in hands}
        shown[hand.hand_index] |= check_observation(game, player)
        for event in shown_events[player]:
            assert event.hand in hands, event
            shown[event.hand] |= shown_words(event)
        for index, state in hands.items():
            leaked = hidden_codes(game, state, player, shown[index]) & shown[index]
            assert not leaked, (
                f"{'a spectator' if player is None else f'player {player}'} "
                f"(seats {sorted(own_seats(state, player))}) sees {sorted(leaked)} "
                f"of hidden hands in hand {index}"
            )


# --- cards ---------------------------------------------------------------------------------


def check_cards_conserved(game: tc.Game, deck: int) -> None:
    hand = game._hand
    n = hand.seats
    dealt = [mask_of(cards) for cards in hand.dealt]
    assert sum(len(cards) for cards in hand.dealt) == deck.bit_count()
    assert or_all(dealt) == deck, "the deal is not the deck"
    parts = [*hand.hands, *hand.piles, hand.trick_cards]
    if hand.phase == GRAND_TICHU:  # the cards dealt after the Grand Tichu decision
        first = hand.grand_tichu_cards
        parts += [mask_of(cards[first:]) for cards in hand.dealt]
        for seat in range(n):
            assert hand.hands[seat] == mask_of(hand.dealt[seat][:first])
    union = 0
    for part in parts:
        assert not union & part, f"card twice: {codes_of(union & part)}"
        union |= part
    assert union == deck, f"cards lost: {codes_of(deck & ~union)}, extra: {codes_of(union & ~deck)}"
    assert hand.trick_cards == or_all(play.cards for _, play in hand.view.trick)
    check_exchange(hand, dealt)


def check_exchange(hand: HandState, dealt: list[int]) -> None:
    """Chosen and forced pushes: from the giver's hand, each card once, the counts the
    rules asked for; after the exchange every card is where it was sent."""
    n = hand.seats
    exchanged = hand.phase in (PLAY, OVER)
    for giver in range(n):
        targets, chosen = hand.push_targets[giver], hand.pushes[giver]
        assert all(0 <= t < n and t != giver for t in targets)
        if hand.phase == GRAND_TICHU:
            assert chosen is None and not hand.forced[giver]
        if chosen is not None:
            assert sorted(chosen) == sorted(targets)
            assert all(chosen[t].bit_count() == count for t, count in targets.items())
        elif exchanged:
            assert not targets, f"seat {giver} never pushed to {targets}"
        masks = [*hand.forced[giver].values(), *(chosen or {}).values()]
        assert all(0 <= t < n and t != giver for t in [*hand.forced[giver], *(chosen or {})])
        assert all(masks), "an empty push"
        given = 0
        for mask in masks:
            assert not mask & given, f"seat {giver} gives {codes_of(mask & given)} twice"
            given |= mask
        assert not given & ~dealt[giver], f"seat {giver} gives cards it was not dealt"
        if hand.phase == EXCHANGE:
            # Given cards wait in the giver's hand until every push is made.
            assert hand.hands[giver] == dealt[giver]
        if not exchanged:
            assert hand.received[giver] == {}
    if not exchanged:
        return
    for target in range(n):
        expected = {g: given_by(hand, g)[target] for g in range(n) if target in given_by(hand, g)}
        assert hand.received[target] == expected
        kept = dealt[target] & ~or_all(given_by(hand, target).values())
        came = or_all(expected.values())
        assert not hand.hands[target] & ~(kept | came), f"seat {target} holds cards it never got"


# --- flow and results ---------------------------------------------------------------------


def check_someone_is_awaited(game: tc.Game) -> None:
    if game.is_over:
        assert game.to_act == [] and game.waiting_for == []
        return
    waiting = game.waiting_for
    assert waiting, "nobody is awaited but the match is not over"
    to_act = game.to_act
    assert set(waiting) <= set(to_act)
    if game.turn is not None:
        assert waiting == [game.turn]


def check_out_order(game: tc.Game, result: tc.HandResult) -> None:
    """The full ranking: the seats as they went out, then the others in play order from
    the seat after the last one out (docs/api.md); the same in the hand_scored event."""
    events = [event for event in game.event_log if event.hand == result.index]
    (started,) = [e for e in events if e.type == "hand_started"]
    (scored,) = [e for e in events if e.type == "hand_scored"]
    n = len(started.players)  # type: ignore[attr-defined]
    outs = [e for e in events if e.type == "seat_out"]
    assert [e.place for e in outs] == list(range(1, len(outs) + 1))  # type: ignore[attr-defined]
    went_out = [e.seat for e in outs]  # type: ignore[attr-defined]
    assert went_out, "a hand ended with nobody out"
    rest = [(went_out[-1] + step) % n for step in range(1, n + 1)]
    assert result.out_order == went_out + [seat for seat in rest if seat not in went_out]
    assert sorted(result.out_order) == list(range(n))
    assert scored.out_order == result.out_order  # type: ignore[attr-defined]
    assert result.players == started.players  # type: ignore[attr-defined]
    assert scored.scores == result.scores  # type: ignore[attr-defined]


def check_outcome(game: tc.Game) -> None:
    """An ended match has an Outcome that names why and who won, as its match_over
    event does; a running one has none. When a match ends, and who wins, are the
    variant's rules (the project's tests check the bundled ones)."""
    target, hands = game.variant.game.target, game.variant.game.hands
    played, totals = len(game.hand_results), game.scores
    if not game.is_over:
        assert game.outcome is None and game.winners == []
        return
    outcome = game.outcome
    assert isinstance(outcome, tc.Outcome)
    assert game.winners == list(outcome.winners)
    assert outcome.winners and all(0 <= w < len(totals) for w in outcome.winners)
    (over,) = [e for e in game.event_log if e.type == "match_over"]
    assert over.termination == outcome.termination.value  # type: ignore[attr-defined]
    assert over.winners == list(outcome.winners)  # type: ignore[attr-defined]
    assert over.totals == totals  # type: ignore[attr-defined]
    if outcome.termination == tc.Termination.HANDS_PLAYED:
        assert hands and played == hands, f"ended after {played} hands; game.hands is {hands}"
    elif outcome.termination == tc.Termination.TARGET_REACHED:
        assert target and max(totals) >= target, f"totals {totals}; game.target is {target}"
    elif outcome.termination == tc.Termination.LORD_DECIDED:
        assert game.variant.game.lord_decides
    else:
        assert outcome.termination == tc.Termination.VARIANT_RULE


# --- bots and probes ------------------------------------------------------------------


def bot_action(game: tc.Game, rng: random.Random) -> tc.Action:
    """A random legal action: mostly of an awaited seat, sometimes a call or a bomb."""
    roll = rng.random()
    to_act = game.to_act
    if roll < 0.03:
        callers = [seat for seat in to_act if tc.Tichu(seat) in game.legal_actions(seat)]
        if callers:
            return tc.Tichu(rng.choice(callers))
    if roll < 0.15:
        bombs = [
            action
            for seat in to_act
            if seat not in game.waiting_for
            for action in game.legal_actions(seat)
            if isinstance(action, tc.Play)
        ]
        if bombs:
            return rng.choice(bombs)
    seat = rng.choice(game.waiting_for)
    legal = game.legal_actions(seat)
    if len(legal) > 200:  # the pushes: pick by index, without building them all
        return legal[rng.randrange(len(legal))]
    choices = [
        action
        for action in legal
        if not isinstance(action, tc.Tichu)
        and not (isinstance(action, tc.GrandTichu) and action.call and rng.random() < 0.9)
    ]
    return rng.choice(choices or list(legal))


def made_up_action(game: tc.Game, rng: random.Random) -> tc.Action | None:
    """A play, pass or push a bot makes up, listed or not."""
    hand = game._hand
    if hand.phase == EXCHANGE:
        return made_up_push(game, rng)
    if hand.phase != PLAY:
        return None
    seats = [seat for seat in range(game.seats) if hand.hands[seat]]
    if not seats:
        return None
    seat = game.turn if game.turn is not None and rng.random() < 0.6 else rng.choice(seats)
    if rng.random() < 0.2:
        return tc.Pass(seat)
    codes = codes_of(hand.hands[seat])
    legal = [a for a in game.legal_actions(seat) if isinstance(a, tc.Play)]
    if legal and rng.random() < 0.3:
        # A listed play with the Phoenix rank dropped or replaced.
        base = rng.choice(legal)
        if "PH" in base.cards.split():
            rank = rng.choice([None, "2", "5", "9", "J", "A"])
            return tc.Play(seat, base.cards, phoenix=rank)
        return tc.Play(seat, base.cards)
    if not codes:
        return None
    size = min(rng.choice([1, 1, 2, 2, 3, 4, 5, 5, 6]), len(codes))
    return tc.Play(seat, rng.sample(codes, size))


def made_up_push(game: tc.Game, rng: random.Random) -> tc.Action | None:
    """Cards of the seat's hand to its targets; now and then the wrong targets or
    counts, a seat that has pushed, or cards the rules give themselves (GS-6)."""
    hand = game._hand
    n = hand.seats
    awaited = game.waiting_for
    seat = rng.choice(awaited) if awaited and rng.random() < 0.8 else rng.randrange(n)
    targets = dict(hand.push_targets[seat]) or {(seat + 1) % n: 1}
    if rng.random() < 0.3:
        target = rng.randrange(n)  # possibly the seat itself
        if target in targets and rng.random() < 0.5 and len(targets) > 1:
            del targets[target]
        else:
            targets[target] = rng.choice([1, 1, 2, 3])
    codes = codes_of(hand.hands[seat])
    if sum(targets.values()) > len(codes):
        return None
    picked = rng.sample(codes, sum(targets.values()))
    cards = {}
    for target, count in targets.items():
        cards[target], picked = " ".join(picked[:count]), picked[count:]
    return tc.Push(seat, cards)


def try_made_up(game: tc.Game, action: tc.Action) -> tc.Events | None:
    """Apply a made-up action: accepted exactly when listed; unchanged when refused."""
    listed = action in game.legal_actions(action.seat)
    before = game.to_json()
    try:
        events = game.apply(action)
    except tc.IllegalAction as error:
        assert not listed, f"{action} is listed but refused: {error}"
        assert game.to_json() == before
        return None
    assert listed, f"{action} is accepted but not listed"
    return events


def check_listed_accepted_on_a_copy(game: tc.Game, rng: random.Random) -> None:
    seat = rng.choice(game.to_act)
    legal = game.legal_actions(seat)
    action = legal[rng.randrange(len(legal))]
    copy = tc.Game.from_json(game.to_json(), allow_imports=game.variant.allow_imports)
    apply_listed(copy, action)


def apply_listed(game: tc.Game, action: tc.Action) -> tc.Events:
    """Apply an action the game listed: AssertionError if it is refused."""
    try:
        return game.apply(action)
    except tc.IllegalAction as error:
        raise AssertionError(f"{action} is listed but refused: {error}") from error


def restored(game: tc.Game) -> tc.Game:
    """``game`` saved and restored: the same save, observations, events and listings."""
    copy = tc.Game.from_json(game.to_json(), allow_imports=game.variant.allow_imports)
    assert copy.to_json() == game.to_json()
    for player in [None, *range(game.players)]:
        assert copy.observation(player) == game.observation(player)
        assert copy.events_for(player) == game.events_for(player)
    for seat in range(game.seats):
        assert list(copy.legal_actions(seat)) == list(game.legal_actions(seat))
    return copy


# --- the matches -------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchCheck:
    """One checked match: its seed, and what it played."""

    seed: int
    hands: int
    actions: int
    made_up: int
    refused: int
    over: bool


def play_checked_match(
    variant: tc.Variant,
    seed: int,
    *,
    max_hands: int = 5,
    on_step: StepCheck | None = None,
    on_hand: HandCheck | None = None,
) -> MatchCheck:
    """One random match of ``variant`` from ``seed`` (cut after ``max_hands`` hands),
    every invariant checked after every action (AssertionError on the first broken);
    ``on_step`` and ``on_hand`` add checks of the variant's own rules."""
    game = tc.Game(variant, seed=seed)
    rng = random.Random(seed * 7919 + 1)
    deck = game.rulebook.deck()
    streams = Streams(game)
    tables: dict[int, HandState] = {}  # hand index -> its state (seats, controllers)
    twin: tc.Game | None = None
    twin_steps = 0
    restore_at = rng.randrange(20, 200)  # at least one restore in every match
    made_up = refused = 0
    before = game._hand
    for step in range(MAX_ACTIONS):
        tables[game._hand.hand_index] = game._hand
        check_cards_conserved(game, deck)
        check_someone_is_awaited(game)
        check_visibility(game)
        fresh, shown = streams.new(game)
        check_private_events(game, fresh, tables)
        check_nothing_hidden_shown(game, before, shown)
        check_outcome(game)
        if on_step is not None:
            on_step(game, before, fresh, shown, tables)
        if game.is_over or len(game.hand_results) >= max_hands:
            streams.check_events_for(game, rng)
            break
        if rng.random() < 0.03:
            streams.check_events_for(game, rng)
        if rng.random() < 0.04:
            check_listed_accepted_on_a_copy(game, rng)
        if twin is None and (step == restore_at or rng.random() < 0.01):
            twin, twin_steps = restored(game), rng.randrange(10, 60)
        hands_before = len(game.hand_results)
        before = game._hand
        events = None
        probe = made_up_action(game, rng) if rng.random() < 0.25 else None
        if probe is not None:
            made_up += 1
            events = try_made_up(game, probe)
            refused += events is None
            action: tc.Action = probe
        if events is None:
            action = bot_action(game, rng)
            assert action in game.legal_actions(action.seat)
            events = apply_listed(game, action)
        if twin is not None:
            assert twin.apply(action) == events
            twin_steps -= 1
            if twin_steps == 0:
                assert twin.to_json() == game.to_json()
                for player in [None, *range(game.players)]:
                    assert twin.observation(player) == game.observation(player)
                twin = None
        for result in game.hand_results[hands_before:]:
            check_out_order(game, result)
            if on_hand is not None:
                on_hand(game, result)
    else:
        raise AssertionError(f"the match did not end in {MAX_ACTIONS} actions")
    assert game.hand_results, "not even one hand was played"
    return MatchCheck(
        seed, len(game.hand_results), len(game.actions), made_up, refused, game.is_over
    )


@dataclass(frozen=True)
class VariantReport:
    """What :func:`check_variant` played: one entry per match."""

    variant: str
    matches: tuple[MatchCheck, ...]

    @property
    def hands(self) -> int:
        return sum(match.hands for match in self.matches)

    @property
    def actions(self) -> int:
        return sum(match.actions for match in self.matches)

    def __str__(self) -> str:
        probes = sum(match.made_up for match in self.matches)
        refused = sum(match.refused for match in self.matches)
        return (
            f"{self.variant}: {len(self.matches)} random matches, {self.hands} hands, "
            f"{self.actions} actions, {probes} made-up actions ({refused} refused): "
            "every invariant held"
        )


def check_variant(
    variant: tc.Variant | str,
    matches: int = 10,
    seed: int = 0,
    *,
    max_hands: int = 5,
    on_step: StepCheck | None = None,
    on_hand: HandCheck | None = None,
) -> VariantReport:
    """Play ``matches`` random matches of ``variant`` (seeds ``seed``, ``seed + 1``, ...;
    each cut after ``max_hands`` hands) with every invariant of the module's docstring
    checked after every action. Raises AssertionError naming the variant, the match's
    seed and what broke; returns what was played."""
    if not __debug__:
        raise RuntimeError("check_variant checks with assert statements: run Python without -O")
    if isinstance(variant, str):
        variant = tc.load_variant(variant)
    if type(matches) is not int or matches < 1:
        raise ValueError(f"matches: a whole number from 1, got {matches!r}")
    played: list[MatchCheck] = []
    for number in range(matches):
        try:
            played.append(
                play_checked_match(
                    variant, seed + number, max_hands=max_hands, on_step=on_step, on_hand=on_hand
                )
            )
        except AssertionError as error:
            raise AssertionError(
                f"{variant.name}, random match with seed {seed + number}: {error}"
            ) from error
    return VariantReport(variant.name, tuple(played))
