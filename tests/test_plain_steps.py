"""Plain steps (``HandState.plain_pass``/``plain_play``): a pass that leaves the trick
open, or a play with no wish open that keeps cards and is neither the Dog nor the Mah
Jong, asks no rule, so the game applies it without the hand's snapshot. These tests
hold the claim to what the rulebook is asked, in random matches of every variant. (A
failing rule on any other step leaves the game as it was: tests/test_playout.py and
the hardening tests hold apply's atomicity.)"""

from __future__ import annotations

import random

import pytest

import tichu_core as tc
from tichu_core.game.legality import NOT_LISTED

VARIANTS = [
    ("standard", None),
    ("threechu", None),
    ("tientsin", None),
    ("grand_seigneur", {"players": 7}),
    ("standard", {"bombs.own_trick": True, "tricks.winner_collects": False}),
]


def _plain(game: tc.Game, action: tc.Action) -> bool:
    hand = game._hand
    if isinstance(action, tc.Pass):
        return hand.plain_pass(action.seat)
    if isinstance(action, tc.Play):
        meaning = game._referee.listed(hand, game._version, action)
        assert meaning is not NOT_LISTED
        return hand.plain_play(action.seat, meaning)
    return False


@pytest.mark.parametrize(("name", "overrides"), VARIANTS)
def test_a_plain_step_asks_no_rule_and_others_do(
    name: str, overrides: dict[str, object] | None
) -> None:
    asked: list[str] = []
    game = tc.Game(tc.load_variant(name, overrides), seed=21, trace=asked.append)
    rng = random.Random(9)
    plain = other = 0
    while len(game.hand_results) < 3 and not game.is_over:
        seat = game.waiting_for[0]
        actions = game.legal_actions(seat)
        action = actions[rng.randrange(len(actions))]
        is_plain = _plain(game, action)
        del asked[:]
        game.apply(action)
        if is_plain:
            plain += 1
            assert asked == [], f"{action} was taken for plain but asked: {asked}"
        elif isinstance(action, tc.Pass | tc.Play):
            other += 1
    assert plain > 100 and other > 10  # both kinds were met
