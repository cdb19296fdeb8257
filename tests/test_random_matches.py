"""Random full matches of every bundled variant, with invariants checked after every action.

Bots pick uniformly among a seat's legal actions, now and then call Tichu or bomb out
of turn (any seat in ``game.to_act``), and probe the engine with plays, passes and
pushes they make up themselves. After every action:

- the cards are conserved: hands, piles, the open trick and the cards not yet dealt
  make up the deck, with no card twice; the pushes a seat chose and the cards the
  rules take from it (``forced``) wait in its hand until the exchange, each card given
  once, and then arrive, exactly, where they were sent;
- the game never stalls: someone is awaited until the match is over;
- what a player may see is its own seats' hands, and a hand the variant makes public
  (the dummy after the exchange, T3-4), nothing else: the visibility the engine
  recorded is checked against that rule, and no observation, nor any event, shows a
  card of a hand hidden from that player (nor a spectator);
- ``events_for(player)`` never shows a ``cards_dealt``/``pushed``/``cards_received``
  event of a seat the player does not act for (they all happen before any hand is
  face up), nor a ``hand_shown`` of a hand it may not see, and every player who may
  see such an event gets it;
- a made-up action is accepted exactly when it is listed (so every accepted play is
  listed); a sample of listed actions is accepted by a restored copy;
- at random moments ``to_json`` -> ``from_json`` gives the same game, which then goes
  on in lockstep with the original;
- each finished hand ranks every seat (``out_order``: the seats as they went out, then
  those still holding cards in play order from the seat after the last one out), its
  card points sum to 100 (without a double victory) and its scores follow S-SCORE-2/3;
- the match ends with an ``Outcome`` whose termination fits the variant's end.

The variants are exactly ``tc.list_variants()``: a bundled variant whose plugin does not
exist fails here. OTHER_TABLES adds table sizes a variant allows besides its default
(Grand Seigneur with 5 players: one deck, an exchange of 2, 1 and 0 cards).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from pydantic import BaseModel
from scenario import strings

import tichu_core as tc
from tichu_core.cardplay.cards import codes_of, mask_of
from tichu_core.game.hand import EXCHANGE, GRAND_TICHU, OVER, PLAY, HandState

MAX_HANDS = 5  # a match is cut after this many hands (variants with a fixed hand count)
# The house rule of plugins/failed_tichu_no_bonus.py changes S-SCORE-2: no double-victory
# bonus for a team whose own call failed.
NO_BONUS_PLUGIN = "failed_tichu_no_bonus"
MAX_ACTIONS = 20_000  # a guard against a match that never ends
# Private events: cards dealt, pushed and received happen before the play, when no hand
# is face up yet (T3-4), so only the player acting for the seat sees them; a hand turned
# face up (hand_shown) is seen by everyone who may see it from then on.
BEFORE_PLAY_EVENTS = ("cards_dealt", "pushed", "cards_received")
SHOWN_EVENT = "hand_shown"
WORD = re.compile(r"\w+")


def _overrides(name: str) -> dict[str, object]:
    """Short matches: a small target where the variant plays to a target."""
    try:
        plays_to_target = bool(tc.load_variant(name).game.target)
    except tc.VariantError:
        return {}  # the test reports the broken variant
    return {"game.target": 400} if plays_to_target else {}


# Bundled variants at another table size than their default.
OTHER_TABLES: dict[str, tuple[str, dict[str, object]]] = {
    "grand_seigneur_5_players": ("grand_seigneur", {"players": 5}),
}
STANDARD_SEEDS = range(12)
OTHER_SEEDS = range(4)


def _variant_cases() -> Iterator[Any]:
    for name in tc.list_variants():
        seeds = STANDARD_SEEDS if name == "standard" else OTHER_SEEDS
        for seed in seeds:
            yield pytest.param(name, seed, id=f"{name}-{seed}")


def _table_cases() -> Iterator[Any]:
    for table in OTHER_TABLES:
        for seed in OTHER_SEEDS:
            yield pytest.param(table, seed, id=f"{table}-{seed}")


# --- who may see what --------------------------------------------------------------------


def own_seats(hand: HandState, player: int | None) -> set[int]:
    """The seats ``player`` acts for (none for a spectator)."""
    if player is None:
        return set()
    return {seat for seat in range(hand.seats) if hand.controllers[seat] == player}


def public_seats(game: tc.Game, hand: HandState, phase: str) -> set[int]:
    """Seats whose hands the variant shows everyone: the dummy after the exchange (T3-4)."""
    if game.variant.teams.dummy and phase in (PLAY, OVER):
        return {seat for seat in range(hand.seats) if hand.players[seat] is None}
    return set()


def recorded(hand: HandState, player: int | None) -> set[int]:
    """The seats whose hands the engine shows ``player`` in this phase (its own record
    of the ``tichu_visible_seats`` answers)."""
    visibility: Any = hand.visibility
    if callable(visibility):  # asked lazily, once per phase
        visibility = visibility()
    return set(visibility[player])


def may_see(game: tc.Game, hand: HandState, player: int | None) -> set[int]:
    """The seats whose hands ``player`` may see now: what the engine recorded, within
    what the rules allow (checked by :func:`check_visibility`)."""
    allowed = own_seats(hand, player) | public_seats(game, hand, hand.phase)
    return recorded(hand, player) & allowed


def check_visibility(game: tc.Game) -> None:
    """The engine's recorded visibility: own seats, and no other hand unless public."""
    hand = game._hand
    for seat in range(hand.seats):
        assert game.controller(seat) == hand.controllers[seat]
        assert game.player_at(seat) == hand.players[seat]
    for player in range(game.players):
        assert game.seat_of(player) == hand.players.index(player)
    for player in [None, *range(game.players)]:
        visible = recorded(hand, player)
        own = own_seats(hand, player)
        public = public_seats(game, hand, hand.phase)
        assert own <= visible, f"player {player} does not see its own seats {own - visible}"
        assert visible <= own | public, (
            f"player {player} (seats {sorted(own)}) may see the hands of "
            f"{sorted(visible - own - public)} in the {hand.phase} phase"
        )


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
    seen = may_see(game, hand, player)
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
    returns the codes it shows."""
    hand = game._hand
    observation = game.observation(player)
    own = sorted(own_seats(hand, player))
    seen = may_see(game, hand, player)
    assert observation.seats == own
    assert observation.players == hand.players
    assert set(observation.hands) == seen == recorded(hand, player)
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


def check_nothing_hidden_shown(
    game: tc.Game,
    before: HandState,
    shown_events: dict[int | None, list[tc.Event]],
    tables: dict[int, HandState],
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
        events = shown_events[player]
        check_private_events(game, events, player, tables)
        for event in events:
            assert event.hand in hands, event
            shown[event.hand] |= shown_words(event)
        for index, state in hands.items():
            leaked = hidden_codes(game, state, player, shown[index]) & shown[index]
            assert not leaked, (
                f"{'a spectator' if player is None else f'player {player}'} "
                f"(seats {sorted(own_seats(state, player))}) sees {sorted(leaked)} "
                f"of hidden hands in hand {index}"
            )


def audience(game: tc.Game, hand: HandState, event: tc.Event) -> set[int | None]:
    """Who may see a private event of ``hand``, by the rules alone: whoever acts for its
    seat and, for a hand turned face up, everyone when it is public (T3-4)."""
    seat: int = event.seat  # type: ignore[attr-defined]
    if event.type in BEFORE_PLAY_EVENTS:
        return {hand.controllers[seat]}
    assert event.type == SHOWN_EVENT, f"an unknown private event {event}"
    if seat in public_seats(game, hand, PLAY):  # face up once the exchange is over
        return {None, *range(game.players)}
    return {hand.controllers[seat]}


def check_private_events(
    game: tc.Game, events: list[tc.Event], player: int | None, tables: dict[int, HandState]
) -> None:
    """``events_for(player)``: the private events of the hands it may see only."""
    for event in events:
        if event.visible_to is None:
            assert not (event.type in BEFORE_PLAY_EVENTS and getattr(event, "cards", None)), (
                f"a public {event}"
            )
            assert event.type != SHOWN_EVENT, f"a public {event}"
            continue
        seat = event.seat  # type: ignore[attr-defined]
        assert event.visible_to == [seat], event
        hand = tables[event.hand]
        assert player in audience(game, hand, event), (
            f"{'a spectator' if player is None else f'player {player}'} sees {event.type} "
            f"of seat {seat}, played by player {hand.controllers[seat]} in hand {event.hand}"
        )


def check_event_audiences(
    game: tc.Game, fresh: list[tc.Event], tables: dict[int, HandState]
) -> None:
    """Every private event of the unredacted log reaches exactly the players the rules
    let see it."""
    viewers: list[int | None] = [None, *range(game.players)]
    for event in fresh:
        if event.visible_to is None:
            assert all(event.seen_by(p) for p in viewers)
            continue
        allowed = audience(game, tables[event.hand], event)
        for player in viewers:
            assert event.seen_by(player) == (player in allowed), (player, event)


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


def check_hand_result(game: tc.Game, result: tc.HandResult) -> None:
    check_out_order(game, result)
    variant = game.variant
    if variant.scoring.card_points and not result.double_victory:
        if variant.scoring.per_player:
            # T3-7: each member of a team gets the team's whole card points on its line.
            team_points: dict[int, set[int]] = {}
            for seat, player in enumerate(result.players):
                line = player if player is not None else variant.players  # the dummy's line
                team_points.setdefault(variant.team_of(seat), set()).add(result.card_points[line])
            assert all(len(points) == 1 for points in team_points.values()), result
            assert sum(points.pop() for points in team_points.values()) == 100, result
        else:
            assert sum(result.card_points) == 100, result
    if variant.players == 4 and variant.seats == 4 and not variant.scoring.per_player:
        # S-SCORE-2/3 for two teams of two.
        expected = list(result.card_points) if not result.double_victory else [0, 0]
        if result.double_victory:
            winners = result.out_order[0] % 2
            expected[winners] = variant.scoring.double_victory
            callers = {seat for seat in result.calls if seat % 2 == winners}
            if NO_BONUS_PLUGIN in variant.plugins and callers - {result.out_order[0]}:
                expected[winners] = 0  # HOUSE-NO-BONUS: the team's own call failed
        points = {
            "tichu": variant.calls.tichu_points,
            "grand_tichu": variant.calls.grand_tichu_points,
        }
        for seat, call in result.calls.items():
            first = result.out_order[0] == seat
            expected[seat % 2] += points[call] if first else -points[call]
        assert result.scores == expected, result


def check_outcome(game: tc.Game) -> None:
    """The match ends when the variant says, with an Outcome naming why and who won."""
    target, hands = game.variant.game.target, game.variant.game.hands
    played, totals = len(game.hand_results), game.scores
    best = max(totals)
    leaders = [line for line, total in enumerate(totals) if total == best]
    if not game.is_over:
        assert game.outcome is None and game.winners == []
        assert not (hands and played >= hands), f"{played} hands of {hands} and not over"
        assert not (target and best >= target and len(leaders) == 1), "target reached"
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
        assert hands and played == hands
        assert list(outcome.winners) == leaders
    elif outcome.termination == tc.Termination.TARGET_REACHED:
        assert target and best >= target and list(outcome.winners) == leaders
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
    size = rng.choice([1, 1, 2, 2, 3, 4, 5, 5, 6])
    if size > len(codes):
        size = len(codes)
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


def try_made_up(game: tc.Game, action: tc.Action) -> list[tc.Event] | None:
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
    copy.apply(action)  # raises if a listed action is refused


def restored(game: tc.Game) -> tc.Game:
    copy = tc.Game.from_json(game.to_json(), allow_imports=game.variant.allow_imports)
    assert copy.to_json() == game.to_json()
    for player in [None, *range(game.players)]:
        assert copy.observation(player) == game.observation(player)
        assert copy.events_for(player) == game.events_for(player)
    for seat in range(game.seats):
        assert list(copy.legal_actions(seat)) == list(game.legal_actions(seat))
    return copy


# --- the matches -------------------------------------------------------------------------


def play_random_match(variant: tc.Variant, seed: int) -> None:
    game = tc.Game(variant, seed=seed)
    rng = random.Random(seed * 7919 + 1)
    deck = game.rulebook.deck()
    streams = Streams(game)
    tables: dict[int, HandState] = {}  # hand index -> its state (seats, controllers)
    twin: tc.Game | None = None
    twin_steps = 0
    restore_at = rng.randrange(20, 200)  # at least one restore in every match
    made_up = 0
    before = game._hand
    for step in range(MAX_ACTIONS):
        tables[game._hand.hand_index] = game._hand
        check_cards_conserved(game, deck)
        check_someone_is_awaited(game)
        check_visibility(game)
        fresh, shown = streams.new(game)
        check_event_audiences(game, fresh, tables)
        check_nothing_hidden_shown(game, before, shown, tables)
        check_outcome(game)
        if game.is_over or len(game.hand_results) >= MAX_HANDS:
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
            action: tc.Action = probe
        if events is None:
            action = bot_action(game, rng)
            assert action in game.legal_actions(action.seat)
            events = game.apply(action)
        if twin is not None:
            assert twin.apply(action) == events
            twin_steps -= 1
            if twin_steps == 0:
                assert twin.to_json() == game.to_json()
                for player in [None, *range(game.players)]:
                    assert twin.observation(player) == game.observation(player)
                twin = None
        for result in game.hand_results[hands_before:]:
            check_hand_result(game, result)
    else:
        pytest.fail(f"the match did not end in {MAX_ACTIONS} actions")
    assert game.hand_results, "not even one hand was played"
    assert made_up > 0


@pytest.mark.parametrize(("name", "seed"), list(_variant_cases()))
def test_random_match_keeps_every_invariant(name: str, seed: int) -> None:
    play_random_match(tc.load_variant(name, overrides=_overrides(name)), seed)


@pytest.mark.parametrize(("table", "seed"), list(_table_cases()))
def test_random_match_at_another_table_size_keeps_every_invariant(table: str, seed: int) -> None:
    name, overrides = OTHER_TABLES[table]
    play_random_match(tc.load_variant(name, overrides={**_overrides(name), **overrides}), seed)


def test_every_bundled_variant_is_played() -> None:
    """The matches cover every variant of docs/api.md: none is left out as unplayable."""
    cases = {param.values[0] for param in _variant_cases()}
    assert cases == set(tc.list_variants())
    assert {"standard", "threechu", "tientsin", "grand_seigneur"} <= cases
