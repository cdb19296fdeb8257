"""Random full matches of every bundled variant, with invariants checked after every action.

The engine's invariants are the plugin authors' kit, ``tichu_core.testing.check_variant``
(its module, tichu_core/testing/invariants.py, lists them: cards conserved, the game
never stalls, no hidden card in any view, made-up actions accepted exactly when listed,
exact save and restore, every finished hand ranking every seat, an Outcome at the
end). Here every bundled variant runs through it, with the checks of the bundled rules
on top, after every action and every hand:

- what a player may see is its own seats' hands, and a hand the variant makes public
  (the dummy after the exchange, T3-4), nothing else: the visibility the engine
  recorded is checked against that rule;
- ``events_for(player)`` never shows a ``cards_dealt``/``pushed``/``cards_received``
  event of a seat the player does not act for (they all happen before any hand is
  face up), nor a ``hand_shown`` of a hand it may not see, and every player who may
  see such an event gets it;
- each finished hand's card points sum to 100 (without a double victory) and its
  scores follow S-SCORE-2/3;
- the match ends when S-GAME-1 says, and the leading lines win.

The variants are exactly ``tc.list_variants()``: a bundled variant whose plugin does not
exist fails here. OTHER_TABLES adds table sizes a variant allows besides its default
(Grand Seigneur with 5 players: one deck, an exchange of 2, 1 and 0 cards).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import tichu_core as tc
from tichu_core.game.hand import OVER, PLAY, HandState
from tichu_core.testing import check_variant
from tichu_core.testing.invariants import (  # noqa: F401  (test_out_of_turn uses them)
    check_cards_conserved,
    check_out_order,
    check_someone_is_awaited,
    own_seats,
    recorded,
)
from tichu_core.testing.invariants import check_outcome as check_any_outcome

MAX_HANDS = 5  # a match is cut after this many hands (variants with a fixed hand count)
# The house rule of plugins/failed_tichu_no_bonus.py changes S-SCORE-2: no double-victory
# bonus for a team whose own call failed.
NO_BONUS_PLUGIN = "failed_tichu_no_bonus"
# Private events: cards dealt, pushed and received happen before the play, when no hand
# is face up yet (T3-4), so only the player acting for the seat sees them; a hand turned
# face up (hand_shown) is seen by everyone who may see it from then on.
BEFORE_PLAY_EVENTS = ("cards_dealt", "pushed", "cards_received")
SHOWN_EVENT = "hand_shown"


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


def public_seats(game: tc.Game, hand: HandState, phase: str) -> set[int]:
    """Seats whose hands the variant shows everyone: the dummy after the exchange (T3-4)."""
    if game.variant.teams.dummy and phase in (PLAY, OVER):
        return {seat for seat in range(hand.seats) if hand.players[seat] is None}
    return set()


def check_visibility(game: tc.Game) -> None:
    """The engine's recorded visibility: own seats, and no other hand unless public."""
    hand = game._hand
    for player in [None, *range(game.players)]:
        visible = recorded(hand, player)
        own = own_seats(hand, player)
        public = public_seats(game, hand, hand.phase)
        assert visible <= own | public, (
            f"player {player} (seats {sorted(own)}) may see the hands of "
            f"{sorted(visible - own - public)} in the {hand.phase} phase"
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


# --- results ------------------------------------------------------------------------------


def check_hand_result(game: tc.Game, result: tc.HandResult) -> None:
    """The kit's ranking check, then the bundled rules' points (check_hand_points)."""
    check_out_order(game, result)
    check_hand_points(game, result)


def check_hand_points(game: tc.Game, result: tc.HandResult) -> None:
    """S-SCORE-1: the card points sum to 100; S-SCORE-2/3 for two teams of two."""
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
    """The kit's check, and S-GAME-1: the match ends after the hand in which one line
    alone reaches the target (or after `game.hands` hands), and the leading lines win."""
    check_any_outcome(game)
    target, hands = game.variant.game.target, game.variant.game.hands
    played, totals = len(game.hand_results), game.scores
    best = max(totals)
    leaders = [line for line, total in enumerate(totals) if total == best]
    if not game.is_over:
        assert not (hands and played >= hands), f"{played} hands of {hands} and not over"
        assert not (target and best >= target and len(leaders) == 1), "target reached"
        return
    assert game.outcome is not None
    if game.outcome.termination != tc.Termination.VARIANT_RULE:
        assert list(game.outcome.winners) == leaders


# --- the matches -------------------------------------------------------------------------


def bundled_rules(
    game: tc.Game,
    before: HandState,
    fresh: list[tc.Event],
    shown: dict[int | None, list[tc.Event]],
    tables: dict[int, HandState],
) -> None:
    """The checks of the bundled rules after each action (the kit's own run first)."""
    check_visibility(game)
    check_event_audiences(game, fresh, tables)
    check_outcome(game)


def play_random_match(variant: tc.Variant, seed: int) -> None:
    report = check_variant(
        variant,
        matches=1,
        seed=seed,
        max_hands=MAX_HANDS,
        on_step=bundled_rules,
        on_hand=check_hand_points,
    )
    (match,) = report.matches
    assert match.made_up > 0 and match.hands > 0


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
