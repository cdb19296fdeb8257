"""benchmarks/oot_bombs_duel.py: the two halves of a duplicate pair see the same cards,
hand by hand (stacked deals; the seed alone shares only the first deal, S-DEAL-3)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import tichu_core as tc

HARNESS = Path(__file__).resolve().parents[1] / "benchmarks" / "oot_bombs_duel.py"


def _load() -> ModuleType:
    # benchmarks/ is not a package: load the script from its file.
    spec = importlib.util.spec_from_file_location("oot_bombs_duel", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _dealt(game: tc.Game) -> dict[int, list[tuple[int, list[str]]]]:
    """Hand -> the cards_dealt events of that hand (seat, cards)."""
    found: dict[int, list[tuple[int, list[str]]]] = {}
    for event in game.event_log:
        if isinstance(event, tc.CardsDealt):
            found.setdefault(event.hand, []).append((event.seat, event.cards))
    return found


def test_both_halves_of_a_pair_are_dealt_the_same_cards_hand_by_hand() -> None:
    duel = _load()
    first, names = duel.play_half(5, swapped=False, target=500)
    second, swapped = duel.play_half(5, swapped=True, target=500)
    assert names == ["heuristic", "heuristic-no-oot"] * 2
    assert swapped == ["heuristic-no-oot", "heuristic"] * 2
    a, b = _dealt(first), _dealt(second)
    common = sorted(set(a) & set(b))
    assert len(common) >= 2  # more than the first deal, which the seed alone would share
    for hand in common:
        assert a[hand] == b[hand], hand


def test_a_pair_reports_wins_lead_and_hands() -> None:
    duel = _load()
    pair = duel.play_pair(7, target=300)
    assert 0 <= pair["wins"] <= 2 and pair["hands"] >= 2
    mean, low, high = duel.interval([0.0, 1.0, 0.5, 0.5])
    assert low < mean == 0.5 < high
