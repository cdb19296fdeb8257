"""Does a bot notice a rule change? Tichu calls per player and hand, paired by deal.

Reads the ``--out`` files of two ``tichu duel`` runs with the same bots, seed and
deals, one under the standard rules and one with an option changed (issue 24's
rule-awareness test: ``--set calls.tichu_points=300`` or ``=25``), and prints, for
bot A and for bot B, the Tichu calls per player and hand in each run, the difference
and its 95% interval. The duel stacks the same deals hand by hand in both runs
(``tichu duel`` with the same ``--seed``), so a deal index is the same cards in both:
the pair of matches of deal ``i`` is the unit, and the interval comes from the
per-deal differences by the delta method (as ``tichu compare``).

    tichu duel search heuristic --games 100 --seed 1 --out standard.jsonl
    tichu duel search heuristic --games 40 --seed 1 --set calls.tichu_points=300 --out big.jsonl
    python benchmarks/rule_awareness.py standard.jsonl big.jsonl

Only the deals both files hold are compared.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tichu_core.frontends.sim.intervals import Difference, paired_difference


def read_pairs(path: Path) -> dict[int, dict[str, Any]]:
    """The duel records of a ``--out`` file by deal index."""
    pairs: dict[int, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                record = json.loads(line)
                pairs[record["index"]] = record
    return pairs


def calls_of_side(record: dict[str, Any], side: int, grand: bool = False) -> tuple[float, float]:
    """Tichu calls of bot A (side 0) or B (side 1) over a pair of matches, and the
    player-hands it played (hands times its players), for a ratio of sums."""
    key = "grand_tichu" if grand else "tichu"
    calls = 0.0
    player_hands = 0.0
    for half in record["halves"]:
        a_players = set(half["a_players"])
        mine = [p for p in range(len(half[key])) if (p in a_players) == (side == 0)]
        calls += sum(half[key][p][0] for p in mine)
        player_hands += half["hands"] * len(mine)
    return calls, player_hands


def compare_calls(
    base: dict[int, dict[str, Any]], changed: dict[int, dict[str, Any]], side: int, grand: bool
) -> tuple[int, Difference]:
    shared = sorted(set(base) & set(changed))
    first = [calls_of_side(base[i], side, grand) for i in shared]
    second = [calls_of_side(changed[i], side, grand) for i in shared]
    return len(shared), paired_difference(first, second)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="duel --out file under the standard rules")
    parser.add_argument("changed", type=Path, help="duel --out file with the option changed")
    args = parser.parse_args(argv)
    base, changed = read_pairs(args.base), read_pairs(args.changed)
    some = next(iter(base.values()), None)
    if some is None or not changed:
        print("rule_awareness: a file holds no duel record", file=sys.stderr)
        return 2
    bots = some["halves"][0]["bots"]
    names = [bots[some["halves"][0]["a_players"][0]], None]
    names[1] = next(b for p, b in enumerate(bots) if p not in some["halves"][0]["a_players"])
    for grand in (False, True):
        label = "Grand Tichu" if grand else "Tichu"
        for side, name in enumerate(names):
            deals, diff = compare_calls(base, changed, side, grand)
            if diff.delta is None or diff.low is None or diff.high is None:
                continue
            sure = "*" if diff.low > 0 or diff.high < 0 else " "
            print(
                f"{label} calls per player and hand, {'AB'[side]} {name}: "
                f"{diff.first:.3f} -> {diff.second:.3f}, {diff.delta:+.3f} "
                f"[{diff.low:+.3f}, {diff.high:+.3f}] {sure} ({deals} deals)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
