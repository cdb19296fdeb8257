"""benchmarks/rule_awareness.py (docs/bots.md, the search bot's rule-awareness runs):
Tichu calls per player and hand of each bot in two duel runs, paired by deal. Checked
on a real pair of short duels and on records whose figures are known."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from benchscripts import load_script

from tichu_core.frontends.cli.commands import main


def record(index: int, calls_a: int, calls_b: int, hands: int) -> dict[str, Any]:
    """A duel pair of standard: A on players 0 and 2, then on 1 and 3; the calls of
    each side put on its first player."""

    def half(a_players: list[int]) -> dict[str, Any]:
        tichu = [[0, 0] for _ in range(4)]
        tichu[a_players[0]][0] = calls_a
        tichu[next(p for p in range(4) if p not in a_players)][0] = calls_b
        bots = ["search" if p in a_players else "heuristic" for p in range(4)]
        grand = [[0, 0] for _ in range(4)]
        return {"bots": bots, "a_players": a_players, "tichu": tichu, "grand_tichu": grand,
                "hands": hands}  # fmt: skip

    return {"index": index, "halves": [half([0, 2]), half([1, 3])]}


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_calls_are_counted_per_side_player_and_hand() -> None:
    script = load_script("rule_awareness")
    pair = record(0, calls_a=3, calls_b=1, hands=5)
    # Two halves of five hands, two players a side: 20 player-hands each.
    assert script.calls_of_side(pair, 0) == (6, 20)
    assert script.calls_of_side(pair, 1) == (2, 20)


def test_a_bot_that_calls_more_is_told_apart_from_one_that_does_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script("rule_awareness")
    base = write(tmp_path / "base.jsonl", [record(i, 1 + i % 2, 1, 4) for i in range(30)])
    more = write(tmp_path / "more.jsonl", [record(i, 3 + i % 2, 1, 4) for i in range(30)])
    assert script.main([str(base), str(more)]) == 0
    out = capsys.readouterr().out
    a_line = next(line for line in out.splitlines() if "Tichu calls" in line and "A search" in line)
    b_line = next(line for line in out.splitlines() if "B heuristic" in line)
    assert "0.188 -> 0.438, +0.250" in a_line and a_line.rstrip().endswith("* (30 deals)")
    assert "+0.000" in b_line and "*" not in b_line


def test_on_two_real_duels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two short duels of the same seed, one with Tichu worth 300 (S-SCORE-3's option):
    the script pairs their deals and reports both bots."""
    common = ["--games", "2", "--seed", "4", "--set", "game.target=200", "--quiet"]
    base, big = tmp_path / "base.jsonl", tmp_path / "big.jsonl"
    assert main(["duel", "heuristic", "greedy", *common, "--out", str(base)]) == 0
    assert main(["duel", "heuristic", "greedy", *common, "--out", str(big),
                 "--set", "calls.tichu_points=300"]) == 0  # fmt: skip
    capsys.readouterr()
    assert load_script("rule_awareness").main([str(base), str(big)]) == 0
    out = capsys.readouterr().out
    assert "A heuristic" in out and "B greedy" in out and "(2 deals)" in out
