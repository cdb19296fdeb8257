"""benchmarks/eight_cards.py: rankings of eight-card hands judged by who went out first."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from benchscripts import load_script

import tichu_core as tc

eight = load_script("eight_cards")


def test_the_features_of_a_hand() -> None:
    """S-DECK-1, S-BOMB-1: the specials by name, aces to queens counted, a four of a kind
    is a bomb; 2s to 9s held once are the low singles; pairs and triples by rank."""
    cards = tc.parse_cards("DR MJ Aj As 9j 9s 9p 9t")
    named = dict(zip(eight.FEATURES, eight.features(cards), strict=True))
    assert named["Dragon"] == 1 and named["Phoenix"] == 0 and named["Mah Jong"] == 1
    assert named["aces"] == 2 and named["bomb"] == 1
    assert named["pairs and triples"] == 1  # the aces; the 9s are a bomb
    assert eight.features(tc.parse_cards("2j 3s 5p 7t Kj Ks Qp PH"))[-2:] == [4.0, 1.0]


def test_each_weighing_is_judged_on_the_cards_its_seat_was_dealt(tmp_path: Path) -> None:
    """The eight cards come again from the deal's seed, as call_outcomes.py dealt them
    (S-DEAL-2: eight first, before a Grand Tichu)."""
    record = {
        "seed": 7001,
        "weighings": [
            {"seat": 2, "kind": "grand_tichu", "gain": -20.0, "out_first": True},
            {"seat": 2, "kind": "tichu", "gain": 15.0, "out_first": True},
        ],
    }
    rows = eight.eight_card_rows([record])
    assert len(rows) == 1  # the Tichu weighing is not of eight cards
    variant = tc.load_variant("standard", overrides={"game.target": 0, "game.hands": 1})
    game = tc.Game(variant, seed=7001)
    dealt = tc.parse_cards(" ".join(game.observation(2).hand))
    assert rows[0] == {"features": eight.features(dealt), "gain": -20.0, "out_first": True}
    path = tmp_path / "outcomes.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="too few"):
        eight.main([str(path)])


def test_a_feature_that_decides_is_found_on_held_out_hands() -> None:
    """Where one feature decides who goes out first, the cross-validated scores rank
    every such hand first; where none does, the top hands go out at the base rate."""
    rng = random.Random(4)
    rows = []
    for _ in range(200):
        x = [1.0, float(rng.random() < 0.2), float(rng.randrange(3))]
        rows.append({"features": x, "gain": 0.0, "out_first": x[1] == 1.0})
    scores = eight.cross_validated(rows, 5, 1)
    firsts = [r["out_first"] for r in rows]
    deciding = sum(firsts)
    assert eight.top_share(scores, firsts, deciding / len(rows)) == (deciding, deciding)
    weights = eight.fit([r["features"] for r in rows], firsts)
    assert weights[1] > 1.0 > abs(weights[2])


def test_the_top_share_counts_the_best_scored() -> None:
    scores = [0.9, 0.1, 0.5, 0.7]
    firsts = [True, True, False, True]
    assert eight.top_share(scores, firsts, 0.5) == (2, 2)  # 0.9 and 0.7
    assert eight.top_share(scores, firsts, 0.75) == (2, 3)  # and 0.5
    assert eight.top_share(scores, firsts, 0.01) == (1, 1)  # at least one
