"""The honest wish in play (S-WISH-1 changed), with a stacked deal; random matches of
the variant keep the engine's invariants."""

from __future__ import annotations

from pathlib import Path

import pytest

import tichu_core as tc
from tichu_core.testing import check_variant, deal_with

VARIANT = Path(__file__).resolve().parents[1] / "house_honest_wish.toml"
# No Grand Tichu decisions and no exchange: the hands are as dealt and play starts at once.
QUICK = {"calls.grand_tichu": False, "exchange.targets": "none"}
HAND_0 = "MJ DOG PH DR 2j 2s 3j 3s 7j 7s 7p 9j 9s Ks"


def test_the_plugin_is_found_by_its_entry_point() -> None:
    game = tc.Game(tc.load_variant(VARIANT))
    assert game.rulebook.implementations()["honest_wish"] == ["tichu_wish_ranks"]


def test_no_wish_for_a_rank_the_player_holds() -> None:
    # Seat 0 is dealt HAND_0; the rest of the deck goes to seats 1, 2 and 3.
    game = tc.Game(tc.load_variant(VARIANT, overrides=QUICK), deals=[deal_with({0: HAND_0})])
    assert game.turn == 0  # seat 0 holds the Mah Jong and leads (S-EX-2)
    game.apply(tc.Play(0, "MJ"))  # seat 0 still holds 2s, 3s, 7s, 9s and a King
    wishes = [action.rank for action in game.legal_actions(0)]
    assert wishes == [None, "4", "5", "6", "8", "10", "J", "Q", "A"]
    with pytest.raises(tc.IllegalAction, match="may not wish for 7"):
        game.apply(tc.Wish(0, "7"))
    game.apply(tc.Wish(0, "8"))
    assert game.observation(None).wish == "8"


def test_random_matches_keep_the_engine_invariants() -> None:
    report = check_variant(tc.load_variant(VARIANT), matches=2, seed=1)
    assert report.hands >= 2
