"""Which eight-card hands go out first: the search bot's rollouts against what the cards
alone foretell, on the Grand Tichu weighings that ``call_outcomes.py`` kept.

    .venv/bin/python benchmarks/eight_cards.py OUTCOMES.jsonl [MORE.jsonl ...]
        [--folds 5] [--seed 1] [--tops 3,5,8,12]

Each weighing's eight cards are dealt again from its deal's seed (standard Tichu, one
hand, as ``call_outcomes.py`` plays it). Two rankings of the hands are compared by
the share of their top hands that went out first at the table: the rollouts' mean gain
of the call, and a logistic regression on ten plain features of the cards (the Dragon,
the Phoenix, the Dog, the Mah Jong, aces, kings, queens, a bomb, low single cards,
pairs and triples), each hand scored by a model fitted on the other folds (k-fold
cross-validation), so no hand is judged by a model that saw it. A Grand Tichu gains
only where the caller goes out first more than half the time; if no ranking's top
hands reach that, better ranking alone cannot make the calls pay.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tichu_core as tc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bsw_agreement import percent  # a sibling script: the 95% Wilson interval

FEATURES = (
    "bias",
    "Dragon",
    "Phoenix",
    "Dog",
    "Mah Jong",
    "aces",
    "kings",
    "queens",
    "bomb",
    "low singles",
    "pairs and triples",
)
_SPECIAL = {"DR", "PH", "DOG", "MJ"}


def features(cards: Sequence[tc.Card]) -> list[float]:
    """The cards' plain features, in the order of FEATURES."""
    codes = {card.code for card in cards}
    counts: dict[int, int] = {}
    for card in cards:
        if card.code not in _SPECIAL:
            counts[card.rank] = counts.get(card.rank, 0) + 1
    return [
        1.0,
        float("DR" in codes),
        float("PH" in codes),
        float("DOG" in codes),
        float("MJ" in codes),
        float(counts.get(14, 0)),
        float(counts.get(13, 0)),
        float(counts.get(12, 0)),
        float(any(n >= 4 for n in counts.values())),
        float(sum(1 for rank, n in counts.items() if n == 1 and rank <= 9)),
        float(sum(1 for n in counts.values() if 2 <= n < 4)),
    ]


def eight_card_rows(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per Grand Tichu weighing: its features, its rollouts' gain, whether the
    seat went out first."""
    variant = tc.load_variant("standard", overrides={"game.target": 0, "game.hands": 1})
    rows = []
    for record in records:
        game = tc.Game(variant, seed=record["seed"])
        for weighing in record["weighings"]:
            if weighing["kind"] != "grand_tichu":
                continue
            seat = weighing["seat"]
            hand = game.observation(game.controller(seat)).hand
            if len(hand) != 8:
                raise ValueError(f"deal {record['seed']}: seat {seat} holds {len(hand)} cards")
            rows.append(
                {
                    "features": features(tc.parse_cards(" ".join(hand))),
                    "gain": weighing["gain"],
                    "out_first": bool(weighing["out_first"]),
                }
            )
    return rows


def fit(
    xs: Sequence[Sequence[float]],
    ys: Sequence[bool],
    steps: int = 400,
    rate: float = 0.1,
    ridge: float = 1e-3,
) -> list[float]:
    """A logistic regression's weights, by plain gradient descent (a little ridge keeps
    a feature that never varies at 0)."""
    weights = [0.0] * len(xs[0])
    for _ in range(steps):
        grad = [0.0] * len(weights)
        for x, y in zip(xs, ys, strict=True):
            z = sum(w * v for w, v in zip(weights, x, strict=True))
            error = 1.0 / (1.0 + math.exp(-z)) - float(y)
            for i, v in enumerate(x):
                grad[i] += error * v
        for i in range(len(weights)):
            weights[i] -= rate * (grad[i] / len(xs) + ridge * weights[i])
    return weights


def cross_validated(rows: Sequence[dict[str, Any]], folds: int, seed: int) -> list[float]:
    """Each row's score by a model fitted on the other folds."""
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    scores = [0.0] * len(rows)
    for fold in range(folds):
        held = set(order[fold::folds])
        train = [i for i in order if i not in held]
        weights = fit([rows[i]["features"] for i in train], [rows[i]["out_first"] for i in train])
        for i in held:
            scores[i] = sum(w * v for w, v in zip(weights, rows[i]["features"], strict=True))
    return scores


def top_share(scores: Sequence[float], firsts: Sequence[bool], share: float) -> tuple[int, int]:
    """Of the top ``share`` of hands by score (ties in the order given): how many went
    out first, of how many."""
    count = max(1, round(len(scores) * share))
    ranked = sorted(range(len(scores)), key=lambda i: -scores[i])[:count]
    return sum(firsts[i] for i in ranked), count


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outcomes", nargs="+", help="call_outcomes.py --out files")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tops", default="3,5,8,12", help="top shares, in percent")
    args = parser.parse_args(argv)
    records = [
        json.loads(line)
        for path in args.outcomes
        for line in Path(path).read_text(encoding="utf-8").splitlines()
    ]
    rows = eight_card_rows(records)
    if len(rows) < 2 * args.folds:
        raise SystemExit(f"only {len(rows)} Grand Tichu weighings: too few for {args.folds} folds")
    firsts = [row["out_first"] for row in rows]
    learned = cross_validated(rows, args.folds, args.seed)
    gains = [row["gain"] for row in rows]
    print(f"{len(rows)} eight-card hands, {sum(firsts)} went out first")
    print("  top     the rollouts' gain           the cards (logistic, cross-validated)")
    for top in (float(t) / 100 for t in args.tops.split(",")):
        by_gain = top_share(gains, firsts, top)
        by_cards = top_share(learned, firsts, top)
        print(f"  {top:>4.0%}   {percent(*by_gain):28}  {percent(*by_cards)}")
    weights = fit([row["features"] for row in rows], firsts)
    print(
        "weights fitted on all hands: "
        + ", ".join(f"{name} {weight:+.2f}" for name, weight in zip(FEATURES, weights, strict=True))
    )


if __name__ == "__main__":
    main()
