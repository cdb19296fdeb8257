"""benchmarks/oot_bombs_duel.py: the two halves of a duplicate pair see the same cards,
hand by hand (stacked deals; the seed alone shares only the first deal, S-DEAL-3)."""

from __future__ import annotations

from benchscripts import load_script

import tichu_core as tc


def _dealt(game: tc.Game) -> dict[int, list[tuple[int, list[str]]]]:
    """Hand -> the cards_dealt events of that hand (seat, cards)."""
    found: dict[int, list[tuple[int, list[str]]]] = {}
    for event in game.event_log:
        if isinstance(event, tc.CardsDealt):
            found.setdefault(event.hand, []).append((event.seat, event.cards))
    return found


def test_both_halves_of_a_pair_are_dealt_the_same_cards_hand_by_hand() -> None:
    duel = load_script("oot_bombs_duel")
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
    duel = load_script("oot_bombs_duel")
    pair = duel.play_pair(7, target=300)
    assert 0 <= pair["wins"] <= 2 and pair["hands"] >= 2
    mean, low, high = duel.interval([0.0, 1.0, 0.5, 0.5])
    assert low < mean == 0.5 < high
