"""`tichu compare A B` (docs/bots.md): duplicate play of two variants, the differences
with 95% intervals (normal approximation, delta method, paired by match), a PNG chart."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from tichu_core.frontends.cli.commands import main
from tichu_core.frontends.sim.compare import paired_difference

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_compare_two_bundled_variants_prints_the_differences_and_draws_a_png(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """S-GAME-1: house_short_game plays to a lower target: fewer hands per match."""
    chart = tmp_path / "chart.png"
    code = main(["compare", "standard", "house_short_game", "--games", "8", "--seed", "3",
                 "--bots", "random", "--chart", str(chart), "--quiet"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0, captured.err
    out = captured.out
    assert "house_short_game (B) against standard (A): 8 matches each" in out
    for figure in ("hands per match", "bombs per hand", "Tichu success", "score per hand"):
        assert figure in out
    assert "95% interval" in out and "delta method" in out
    row = next(line for line in out.splitlines() if "hands per match" in line)
    first, second = (float(cell) for cell in row.split("│")[2:4])
    assert second < first
    assert chart.read_bytes()[:8] == PNG_MAGIC and chart.stat().st_size > 10_000


def test_compare_without_matplotlib_says_how_to_get_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    code = main(["compare", "standard", "threechu", "--games", "2", "--chart",
                 str(tmp_path / "c.png")])  # fmt: skip
    assert code == 2
    assert "pip install 'tichu[plots]'" in capsys.readouterr().err
    assert not (tmp_path / "c.png").exists()


def test_compare_of_variants_with_other_score_lines_compares_the_common_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T3-7: Threechu scores per player: no per-line figures against standard."""
    code = main(["compare", "standard", "threechu", "--games", "2", "--seed", "1",
                 "--bots", "random", "--set", "game.target=200", "--quiet"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "hands per match" in out and "score per hand" not in out
    assert "The score lines differ" in out


def test_the_paired_interval_is_the_normal_approximation_of_the_delta_method() -> None:
    # Plain means (denominator 1): the paired t-style interval of the differences.
    first = [(x, 1.0) for x in (1.0, 2.0, 3.0, 4.0)]
    second = [(x + shift, 1.0) for x, shift in zip((1.0, 2.0, 3.0, 4.0), (1, 2, 1, 2), strict=True)]
    diff = paired_difference(first, second)
    assert diff.first == 2.5 and diff.second == 4.0 and diff.delta == 1.5
    half = 1.959964 * math.sqrt((4 * 0.25) / 3 / 4)  # sd of (1,2,1,2) is sqrt(1/3)
    assert diff.low == pytest.approx(1.5 - half) and diff.high == pytest.approx(1.5 + half)
    # The same matches under both: no difference, no width.
    same = paired_difference(first, first)
    assert same.delta == 0 and same.low == same.high == 0
    # A ratio of sums: 3 made of 4 calls against 1 of 4.
    made = paired_difference([(1, 2), (2, 2)], [(1, 2), (0, 2)])
    assert made.first == 0.75 and made.second == 0.25 and made.delta == -0.5
    assert made.low is not None and made.high is not None and made.low < -0.5 < made.high
    # No calls at all: nothing to compare.
    none = paired_difference([(0, 0), (0, 0)], [(1, 1), (0, 1)])
    assert none.first is None and none.delta is None


def test_a_chart_that_cannot_be_written_is_refused_before_the_matches(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    chart = tmp_path / "no such folder" / "c.png"
    code = main(["compare", "standard", "threechu", "--games", "2", "--chart", str(chart)])
    assert code == 2
    captured = capsys.readouterr()
    assert "cannot write --chart" in captured.err and captured.out == ""
