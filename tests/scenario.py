"""A small helper to stack deals and drive a ``Game`` so that tests read like a transcript.

Two ways to set a table up:

- :func:`deal` checks four hands of 14 codes (each in dealing order: the first 8 are
  the Grand Tichu cards) that together are the whole 56-card deck, exactly once.
- :func:`start_play` takes the hands as they should be **after the exchange** and
  returns a game in the play phase holding exactly those hands: every seat declines
  Grand Tichu and the pushes are planned backwards (:func:`exchange_plan`): seat
  ``s`` receives the last three cards of its listed hand, the 12th from seat
  ``s+1``, the 13th from seat ``s+2`` and the 14th from seat ``s+3``.

The drivers (:func:`play`, :func:`pass_`, :func:`wish`, ...) apply one action each
and return its events.
"""

from __future__ import annotations

import random
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import pytest

import tichu_core as tc

SEATS = 4
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("j", "s", "p", "t")
SPECIALS = ("MJ", "DOG", "PH", "DR")
DECK = frozenset([r + s for r in RANKS for s in SUITS] + list(SPECIALS))

Deal = list[list[str]]
Pushes = list[dict[int, str]]

# Every bundled variant's table, and Grand Seigneur with the Great Lord deciding
# whether another hand is played (GS-8): what tests of the engine's machinery run on.
EVERY_TABLE: list[tuple[str, dict[str, object] | None]] = [
    ("standard", None),
    ("threechu", None),
    ("tientsin", None),
    ("grand_seigneur", {"players": 7}),
    ("grand_seigneur", {"players": 5, "game.lord_decides": True}),
]


def cards(text: str) -> list[str]:
    """Canonical codes of a space-separated card text ("tt" -> "10t", "mj" -> "MJ")."""
    return [str(card) for card in tc.parse_cards(text)]


def card_set(text: str) -> frozenset[str]:
    return frozenset(cards(text))


def deal(hands: Sequence[str]) -> Deal:
    """Four hands of 14 codes in dealing order; together exactly the 56-card deck."""
    assert len(hands) == SEATS, f"{len(hands)} hands given"
    parsed = [cards(hand) for hand in hands]
    for seat, hand in enumerate(parsed):
        assert len(hand) == 14, f"seat {seat} holds {len(hand)} cards: {hand}"
    every = [code for hand in parsed for code in hand]
    repeated = sorted({code for code in every if every.count(code) > 1})
    assert not repeated, f"cards dealt twice: {repeated}"
    missing = sorted(DECK - set(every))
    assert not missing, f"cards not dealt: {missing}"
    return parsed


def exchange_plan(after: Sequence[str]) -> tuple[Deal, Pushes]:
    """The deal and the pushes that leave each seat holding ``after[seat]`` once the
    exchange is done (the last three listed cards of a seat are the ones it receives)."""
    final = deal(after)
    dealt: Deal = []
    pushes: Pushes = []
    for giver in range(SEATS):
        gives = {
            (giver + step) % SEATS: final[(giver + step) % SEATS][10 + (SEATS - step)]
            for step in (1, 2, 3)
        }
        dealt.append(final[giver][:11] + [gives[(giver + step) % SEATS] for step in (1, 2, 3)])
        pushes.append(gives)
    return deal([" ".join(hand) for hand in dealt]), pushes


def variant(overrides: Mapping[str, object] | None = None) -> tc.Variant:
    return tc.load_variant("standard", overrides=dict(overrides or {}))


def new_game(*deals: Deal, overrides: Mapping[str, object] | None = None, seed: int = 1) -> tc.Game:
    return tc.Game(variant(overrides), seed=seed, deals=list(deals))


def decline_all_grand_tichu(game: tc.Game) -> None:
    for seat in range(SEATS):
        if seat in game.waiting_for:
            game.apply(tc.GrandTichu(seat, False))


def push_all(game: tc.Game, pushes: Pushes) -> None:
    for seat, given in enumerate(pushes):
        push(game, seat, given)


def start_play(
    after: Sequence[str],
    *,
    overrides: Mapping[str, object] | None = None,
    later: Iterable[Deal] = (),
    seed: int = 1,
) -> tc.Game:
    """A game in the play phase whose seats hold exactly ``after`` (see the module doc).

    ``later`` are the stacked deals of the following hands."""
    dealt, pushes = exchange_plan(after)
    game = new_game(dealt, *later, overrides=overrides, seed=seed)
    decline_all_grand_tichu(game)
    push_all(game, pushes)
    for seat in range(SEATS):
        assert held(game, seat) == card_set(after[seat]), seat
    return game


def next_hand(game: tc.Game, after: Sequence[str]) -> None:
    """Drive the Grand Tichu and exchange phases of the next hand, whose stacked deal
    was made with ``exchange_plan(after)``."""
    _, pushes = exchange_plan(after)
    decline_all_grand_tichu(game)
    push_all(game, pushes)


# --- one action each ---------------------------------------------------------------


def grand_tichu(game: tc.Game, seat: int, call: bool = True) -> list[tc.Event]:
    return game.apply(tc.GrandTichu(seat, call))


def tichu(game: tc.Game, seat: int) -> list[tc.Event]:
    return game.apply(tc.Tichu(seat))


def push(game: tc.Game, seat: int, given: Mapping[int, str]) -> list[tc.Event]:
    return game.apply(tc.Push(seat, dict(given)))


def play(game: tc.Game, seat: int, codes: str, phoenix: str | None = None) -> list[tc.Event]:
    return game.apply(tc.Play(seat, codes, phoenix))


def pass_(game: tc.Game, seat: int) -> list[tc.Event]:
    return game.apply(tc.Pass(seat))


def passes(game: tc.Game, *seats: int) -> list[tc.Event]:
    events: list[tc.Event] = []
    for seat in seats:
        events += pass_(game, seat)
    return events


def wish(game: tc.Game, seat: int, rank: str | None) -> list[tc.Event]:
    return game.apply(tc.Wish(seat, rank))


def give_trick(game: tc.Game, seat: int, to: int) -> list[tc.Event]:
    return game.apply(tc.GiveTrick(seat, to))


# --- reading the game ---------------------------------------------------------------


def random_action(game: tc.Game, rng: random.Random) -> tc.Action:
    """A legal action of the first seat the game waits for, drawn uniformly."""
    actions = game.legal_actions(game.waiting_for[0])
    return actions[rng.randrange(len(actions))]


def held(game: tc.Game, seat: int) -> frozenset[str]:
    """The cards ``seat`` holds, as its own observation shows them (player = seat)."""
    return frozenset(game.observation(game.controller(seat)).hand)


def kinds(events: Iterable[tc.Event]) -> list[str]:
    return [event.type for event in events]


def of_type(events: Iterable[tc.Event], kind: str) -> list[Any]:
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
    """Assert the action is refused as against ``rule`` (one id, or any of several) and
    that the game did not change."""
    before = state(game)
    try:
        game.apply(action)
    except tc.IllegalAction as error:
        rules = {rule} if isinstance(rule, str) else set(rule)
        assert error.rule in rules, f"{action}: {error} cites {error.rule}, not {rules}"
        assert state(game) == before
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


def plugin_with(monkeypatch: pytest.MonkeyPatch, name: str, *impls: Callable[..., Any]) -> None:
    """Installs a plugin module ``name`` (a dotted path: a variant needs allow_imports)
    holding the given hook implementations, for this test only."""
    module = types.ModuleType(name)
    for impl in impls:
        setattr(module, impl.__name__, impl)
    monkeypatch.setitem(sys.modules, name, module)
