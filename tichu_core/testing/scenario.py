"""Stacked deals and one-line drivers, so that a test reads like a transcript.

Two ways to set a table up:

- :func:`deal` turns one text of card codes per seat (each in dealing order: in
  ``standard`` the first 8 are the Grand Tichu cards) into a stacked deal, and checks
  that together they are the variant's whole deck, each card exactly once.
- :func:`start_play` takes the hands as they should be **after the exchange** of a
  four-seat, one-deck table where each seat gives one card to each other seat
  (``standard`` and its house rules) and returns a game in the play phase holding
  exactly those hands: every seat declines Grand Tichu and the pushes are planned
  backwards (:func:`exchange_plan`): seat ``s`` receives the last three cards of its
  listed hand, the 12th from seat ``s+1``, the 13th from seat ``s+2`` and the 14th
  from seat ``s+3``.

The drivers (:func:`play`, :func:`pass_`, :func:`wish`, ...) apply one action each,
written with card codes, and return its events; :func:`refused` applies one the rules
must refuse and shows the game unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import tichu_core as tc

__all__ = [
    "Deal",
    "Pushes",
    "card_set",
    "cards",
    "deal",
    "deal_with",
    "decline_all_grand_tichu",
    "exchange_plan",
    "give_trick",
    "grand_tichu",
    "held",
    "kinds",
    "listed",
    "may_pass",
    "new_game",
    "next_hand",
    "of_type",
    "pass_",
    "passes",
    "play",
    "plays_of",
    "push",
    "push_all",
    "random_action",
    "refused",
    "snapshot",
    "start_play",
    "state",
    "strings",
    "tichu",
    "wish",
]

Deal = list[list[str]]
Pushes = list[dict[int, str]]

# The table :func:`exchange_plan` and :func:`start_play` set up.
_SEATS = 4
_HAND = 14


def cards(text: str) -> list[str]:
    """Canonical codes of a space-separated card text ("tt" -> "10t", "mj" -> "MJ")."""
    return [str(card) for card in tc.parse_cards(text)]


def card_set(text: str) -> frozenset[str]:
    """The codes of a card text, as a set."""
    return frozenset(cards(text))


def _variant(
    variant: tc.Variant | str | None, overrides: Mapping[str, object] | None
) -> tc.Variant:
    if isinstance(variant, tc.Variant):
        if overrides:
            raise tc.VariantError("overrides go with a variant name, not a loaded Variant")
        return variant
    return tc.load_variant(variant or "standard", overrides=dict(overrides or {}))


def deal(hands: Sequence[str], variant: tc.Variant | str | None = None) -> Deal:
    """A stacked deal: one text of codes per seat, in dealing order. DealError unless
    the hands are one per seat of ``variant`` (default ``standard``) and together its
    whole deck, each card as many times as the deck holds it."""
    table = _variant(variant, None)
    if len(hands) != table.seats:
        raise tc.DealError(f"{len(hands)} hands given for the {table.seats} seats of {table.name}")
    parsed = [cards(hand) for hand in hands]
    dealt = Counter(code for hand in parsed for code in hand)
    deck = Counter(table.deck_codes)
    extra = sorted((dealt - deck).elements())
    missing = sorted((deck - dealt).elements())
    if extra or missing:
        raise tc.DealError(
            f"the hands are not the deck of {table.name}: "
            f"dealt too often {extra or 'none'}, not dealt {missing or 'none'}"
        )
    return parsed


def deal_with(hands: Mapping[int, str], variant: tc.Variant | str | None = None) -> Deal:
    """A stacked deal where the seats of ``hands`` are dealt those codes (in dealing
    order) and the other seats the rest of ``variant``'s deck (default ``standard``),
    in the deck's order, as evenly as it goes (the first of them one more card where it
    does not divide). DealError if a seat is not at the table or a card is dealt more
    often than the deck holds it."""
    table = _variant(variant, None)
    given = {seat: cards(text) for seat, text in hands.items()}
    if any(not 0 <= seat < table.seats for seat in given):
        raise tc.DealError(f"seats of {table.name} are 0..{table.seats - 1}, got {sorted(given)}")
    rest = Counter(table.deck_codes)
    rest.subtract(code for hand in given.values() for code in hand)
    extra = sorted(code for code, count in rest.items() if count < 0)
    if extra:
        raise tc.DealError(f"dealt more often than the deck of {table.name} holds them: {extra}")
    left: list[str] = []
    for code in table.deck_codes:  # the rest, in the deck's order
        if rest[code] > 0:
            rest[code] -= 1
            left.append(code)
    others = [seat for seat in range(table.seats) if seat not in given]
    share, over = divmod(len(left), len(others)) if others else (0, 0)
    dealt: Deal = []
    for seat in range(table.seats):
        if seat in given:
            dealt.append(given[seat])
            continue
        size = share + (others.index(seat) < over)
        dealt.append(left[:size])
        left = left[size:]
    return dealt


def exchange_plan(after: Sequence[str]) -> tuple[Deal, Pushes]:
    """The deal and the pushes that leave each of four seats holding ``after[seat]``
    (14 codes each, the standard deck) once the exchange is done: the last three listed
    cards of a seat are the ones it receives (see the module's docstring)."""
    final = deal(after)
    for seat, hand in enumerate(final):
        if len(hand) != _HAND:
            raise tc.DealError(f"seat {seat} holds {len(hand)} cards after the exchange, not 14")
    dealt: Deal = []
    pushes: Pushes = []
    for giver in range(_SEATS):
        gives = {
            (giver + step) % _SEATS: final[(giver + step) % _SEATS][10 + (_SEATS - step)]
            for step in (1, 2, 3)
        }
        dealt.append(final[giver][:11] + [gives[(giver + step) % _SEATS] for step in (1, 2, 3)])
        pushes.append(gives)
    return deal([" ".join(hand) for hand in dealt]), pushes


def new_game(
    *deals: Deal,
    overrides: Mapping[str, object] | None = None,
    seed: int = 1,
    variant: tc.Variant | str | None = None,
) -> tc.Game:
    """A game of ``variant`` (default ``standard``, with ``overrides``) whose first
    hands are ``deals``."""
    return tc.Game(_variant(variant, overrides), seed=seed, deals=list(deals))


def decline_all_grand_tichu(game: tc.Game) -> None:
    """Every seat the game waits for declines Grand Tichu."""
    for seat in range(game.seats):
        if seat in game.waiting_for:
            game.apply(tc.GrandTichu(seat, False))


def push_all(game: tc.Game, pushes: Pushes) -> None:
    """Each seat pushes ``pushes[seat]`` (target seat -> card code)."""
    for seat, given in enumerate(pushes):
        push(game, seat, given)


def start_play(
    after: Sequence[str],
    *,
    overrides: Mapping[str, object] | None = None,
    later: Iterable[Deal] = (),
    seed: int = 1,
    variant: tc.Variant | str | None = None,
) -> tc.Game:
    """A game in the play phase whose four seats hold exactly ``after`` (see the
    module's docstring); ``later`` are the stacked deals of the following hands."""
    dealt, pushes = exchange_plan(after)
    game = new_game(dealt, *later, overrides=overrides, seed=seed, variant=variant)
    decline_all_grand_tichu(game)
    push_all(game, pushes)
    for seat in range(_SEATS):
        if held(game, seat) != card_set(after[seat]):
            raise tc.DealError(
                f"seat {seat} holds {sorted(held(game, seat))} after the exchange, not "
                f"{sorted(card_set(after[seat]))}: does the variant exchange as standard does?"
            )
    return game


def next_hand(game: tc.Game, after: Sequence[str]) -> None:
    """Drive the Grand Tichu and exchange phases of the next hand, whose stacked deal
    was made with ``exchange_plan(after)``."""
    _, pushes = exchange_plan(after)
    decline_all_grand_tichu(game)
    push_all(game, pushes)


# --- one action each ---------------------------------------------------------------


def grand_tichu(game: tc.Game, seat: int, call: bool = True) -> tc.Events:
    return game.apply(tc.GrandTichu(seat, call))


def tichu(game: tc.Game, seat: int) -> tc.Events:
    return game.apply(tc.Tichu(seat))


def push(game: tc.Game, seat: int, given: Mapping[int, str]) -> tc.Events:
    return game.apply(tc.Push(seat, dict(given)))


def play(game: tc.Game, seat: int, codes: str, phoenix: str | None = None) -> tc.Events:
    return game.apply(tc.Play(seat, codes, phoenix))


def pass_(game: tc.Game, seat: int) -> tc.Events:
    return game.apply(tc.Pass(seat))


def passes(game: tc.Game, *seats: int) -> list[tc.Event]:
    """Each of ``seats`` passes in turn; every event, in order."""
    events: list[tc.Event] = []
    for seat in seats:
        events += pass_(game, seat)
    return events


def wish(game: tc.Game, seat: int, rank: str | None) -> tc.Events:
    return game.apply(tc.Wish(seat, rank))


def give_trick(game: tc.Game, seat: int, to: int) -> tc.Events:
    return game.apply(tc.GiveTrick(seat, to))


# --- reading the game ---------------------------------------------------------------


def random_action(game: tc.Game, rng: random.Random) -> tc.Action:
    """A legal action of the first seat the game waits for, drawn uniformly."""
    actions = game.legal_actions(game.waiting_for[0])
    return actions[rng.randrange(len(actions))]


def held(game: tc.Game, seat: int) -> frozenset[str]:
    """The cards ``seat`` holds, as its own observation shows them."""
    return frozenset(game.observation(game.controller(seat)).hand)


def kinds(events: Iterable[tc.Event]) -> list[str]:
    """The type of each event."""
    return [event.type for event in events]


def of_type(events: Iterable[tc.Event], kind: str) -> list[Any]:
    """The events of one type ("played", "trick_won", ...)."""
    return [event for event in events if event.type == kind]


def plays_of(game: tc.Game, seat: int) -> set[tuple[frozenset[str], str | None]]:
    """The listed plays of a seat as (card set, phoenix rank)."""
    return {
        (card_set(action.cards), action.phoenix)
        for action in game.legal_actions(seat)
        if isinstance(action, tc.Play)
    }


def listed(game: tc.Game, seat: int, codes: str, phoenix: str | None = None) -> bool:
    """Whether the play is listed (with that Phoenix rank, or any when None)."""
    wanted = card_set(codes)
    return any(
        cards_ == wanted and (phoenix is None or ph == phoenix)
        for cards_, ph in plays_of(game, seat)
    )


def may_pass(game: tc.Game, seat: int) -> bool:
    return tc.Pass(seat) in list(game.legal_actions(seat))


def state(game: tc.Game) -> tuple[str, list[Any]]:
    """The save and every observation (spectator's included)."""
    observations = [game.observation(p).model_dump() for p in range(game.players)]
    observations.append(game.observation(None).model_dump())
    return game.to_json(), observations


def snapshot(game: tc.Game) -> tuple[str, list[Any], list[Any]]:
    """Everything a caller can read: the save, every observation, every legal list."""
    legal = [list(game.legal_actions(seat)) for seat in range(game.seats)]
    return (*state(game), legal)


def refused(
    game: tc.Game, action: tc.Action | dict[str, Any], rule: str | Iterable[str]
) -> tc.IllegalAction:
    """Apply ``action``, which the rules must refuse as against ``rule`` (one id, or
    any of several): AssertionError unless it is refused so and the game is unchanged."""
    before = state(game)
    try:
        game.apply(action)
    except tc.IllegalAction as error:
        rules = {rule} if isinstance(rule, str) else set(rule)
        if error.rule not in rules:
            raise AssertionError(f"{action}: {error} cites {error.rule}, not {rules}") from error
        if state(game) != before:
            raise AssertionError(f"{action} was refused but changed the game") from error
        return error
    raise AssertionError(f"{action} was accepted; expected IllegalAction {rule}")


def strings(value: Any) -> Iterator[str]:
    """Every string inside a dumped model (keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)
