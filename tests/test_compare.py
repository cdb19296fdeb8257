"""`tichu compare A B` (docs/bots.md): duplicate play of two variants on the same stacked
deals, B − A with 95% intervals by Student's t over the pairs (inside each figure's
range), whether the rule acted, a PNG chart."""

from __future__ import annotations

import io
import json
import math
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from scenario import Recorded, dealt, run, table_row

import tichu_core as tc
from tichu_core.frontends.cli.commands import main
from tichu_core.frontends.sim import matches
from tichu_core.frontends.sim.compare import (
    CompareSpec,
    compare,
    figures,
    play_compare_pair,
)
from tichu_core.frontends.sim.intervals import (
    COUNT,
    SHARE,
    SIGNED,
    Z975,
    Figure,
    paired_difference,
    t975,
)
from tichu_core.frontends.sim.matches import RunSpec, play_record
from tichu_core.frontends.sim.stacked import dealing_of

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def variant(name: str, *overrides: str) -> tc.Variant:
    return tc.load_variant(name, overrides=tc.parse_overrides(list(overrides)))


# --------------------------------------------------------------------------- the command


def test_compare_two_bundled_variants_prints_b_minus_a_and_draws_a_png(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """S-GAME-1: house_short_game plays to a lower target: fewer hands per match."""
    chart = tmp_path / "chart.png"
    code, out, err = run(
        capsys, "compare", "standard", "house_short_game", "--games", "6", "--seed", "3",
        "--bots", "random", "--chart", str(chart), "--quiet",
    )  # fmt: skip
    assert code == 0, err
    flat = " ".join(out.split())
    assert "house_short_game (B) against standard (A): 6 pairs" in flat
    for figure in ("hands per match", "bombs per hand", "Tichu success", "score per hand",
                   "call points won per hand", "call points lost per hand",
                   "Grand Tichu calls per hand", "score sd per hand, team 0+2"):  # fmt: skip
        assert figure in out
    first, second, delta = (float(cell) for cell in table_row(out, "hands per match")[1:4])
    assert second < first and delta == pytest.approx(second - first, abs=0.01)  # B − A
    assert "Student's t over the pairs" in flat
    assert "Paired: the same cards hand by hand (stacked deals) and the same bot seeds" in flat
    assert "Warning: only 6 pairs, fewer than 20: too few to conclude anything" in flat
    assert "B differs from A in: game.target: 1000 -> 500" in flat
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


def test_variants_that_deal_differently_say_what_is_paired(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T6-1, T6-2: Tientsin deals two decks to six seats: no per-line figures (other
    teams), only the bot seeds paired, no rule-acted counts. T3-1: Threechu deals the
    standard hands to four seats for three players (a dummy): the cards are paired, the
    players are not."""
    code, out, err = run(
        capsys, "compare", "standard", "tientsin", "--games", "2", "--seed", "1",
        "--bots", "random", "--set", "game.target=200", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    flat = " ".join(out.split())
    assert "hands per match" in out and "score per hand" not in out
    assert "The score lines differ" in flat
    assert (
        "Not paired: the deals; A and B differ in hand sizes (14/14/14/14 and 10/10/9/9/9/9)"
        in flat
    )
    assert "players (4 and 6)" in flat and "Paired: only the bot seeds" in flat
    assert "Not counted: a game of A can follow B's matches only on the same deals" in flat
    code, out, err = run(
        capsys, "compare", "standard", "threechu", "--games", "2", "--seed", "1",
        "--bots", "random", "--set", "game.target=200", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert "but A seats 4 players and B 3" in " ".join(out.split())


def test_a_chart_that_cannot_be_written_is_refused_before_the_matches(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    chart = tmp_path / "no such folder" / "c.png"
    code = main(["compare", "standard", "threechu", "--games", "2", "--chart", str(chart)])
    assert code == 2
    captured = capsys.readouterr()
    assert "cannot write --chart" in captured.err and captured.out == ""


def test_the_table_fits_80_columns_without_cutting_a_cell(tmp_path: Path) -> None:
    """Tientsin's team names are the longest: the figure column folds, no cell is cut."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None)
    code = compare("tientsin", "tientsin", 3, seed=2, bots=["random"], quiet=True,
                   overrides=["game.target=200", "calls.tichu_points=300"],
                   console=console)  # fmt: skip
    assert code == 0
    out = buffer.getvalue()
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "card points per hand" in out and "[" in out


def test_help_shows_every_default_and_the_same_default_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command in ("demo", "simulate", "compare", "duel"):
        code, out, _ = run(capsys, command, "--help")
        text = " ".join(out.split())
        assert code == 0 and "default: from the clock" in text, command
        assert ("default: 100" if command == "duel" else "default: heuristic") in text, command


# --------------------------------------------------------------------------- the pairs


def test_a_and_b_deal_every_seat_the_same_cards_in_every_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """S-DEAL-3: the first out deals the next hand, so the same seed alone deals A and B
    alike only in hand 1. On the stack, every hand of both matches of a pair deals every
    seat the same cards, though the matches go differently (a Tichu worth 300 ends the
    match sooner). A stack of 2 is too short: the pair is played again with more."""
    monkeypatch.setattr(matches, "Game", Recorded)
    first = variant("standard", "game.target=600")
    second = variant("standard", "game.target=600", "calls.tichu_points=300")
    dealing = dealing_of(first)
    spec = CompareSpec(first, second, ("heuristic",), 5, (dealing, dealing), 2, shadow=False)
    differed = False
    for index in range(3):
        Recorded.games.clear()
        record = play_compare_pair(spec, index)
        a, b = Recorded.games[-2:]  # the last, long enough stack
        assert len(Recorded.games) > 2
        both = min(len(a.hand_results), len(b.hand_results))
        assert both > 1
        assert dealt(a)[:both] == dealt(b)[:both]
        assert [len(dealt(g)) for g in (a, b)] == [h["hands"] for h in record["halves"]]
        differed |= a.scores != b.scores
    assert differed  # else equal deals would prove nothing


# --------------------------------------------------------------------------- intervals


def test_the_t_quantile_matches_the_table_and_tends_to_the_normal() -> None:
    assert t975(1) == pytest.approx(12.7062) and t975(4) == pytest.approx(2.7764)
    assert t975(30) == pytest.approx(2.0423, abs=1e-4)
    assert t975(31) == pytest.approx(2.0395, abs=1e-4)  # the series beyond the table
    assert t975(120) == pytest.approx(1.9799, abs=1e-4)
    assert t975(10**6) == pytest.approx(Z975, abs=1e-5)
    with pytest.raises(ValueError):
        t975(0)


def test_a_signed_figure_of_plain_means_is_the_paired_t_interval() -> None:
    first = [(x, 1.0) for x in (1.0, 2.0, 3.0, 4.0)]
    second = [(x + shift, 1.0) for x, shift in zip((1.0, 2.0, 3.0, 4.0), (1, 2, 1, 2), strict=True)]
    diff = paired_difference(first, second, Figure("x", lambda r: r, scale=SIGNED))
    assert diff.first == 2.5 and diff.second == 4.0 and diff.delta == 1.5
    half = 3.1824 * math.sqrt(1 / 3 / 4)  # t(3) · sd of (1, 2, 1, 2) / sqrt(4)
    assert diff.low == pytest.approx(1.5 - half, rel=1e-5)
    assert diff.high == pytest.approx(1.5 + half, rel=1e-5)
    same = paired_difference(first, first, Figure("x", lambda r: r, scale=SIGNED))
    assert same.delta == 0 and same.low == same.high == 0 and not same.significant
    none = paired_difference([(0, 0), (0, 0)], [(1, 1), (0, 1)])
    assert none.first is None and none.delta is None
    never = paired_difference([(0, 3), (0, 4)], [(0, 3), (0, 5)])
    assert never.delta == 0 and not never.seen and never.low is None


def synthetic_coverage(scale: str, pairs: int, runs: int, rng: random.Random) -> float:
    """Share of runs whose 95% interval holds the true difference 0, for A and B drawn
    alike: a count (Poisson-like calls per hand) or a share (calls made of calls)."""
    covered = 0
    for _ in range(runs):
        parts: list[list[tuple[float, float]]] = [[], []]
        for _ in range(pairs):
            hands = rng.randint(4, 10)
            common = rng.random()  # the deal's luck, shared by A and B
            for side in parts:
                if scale == SHARE:
                    calls = rng.randint(2, 6)
                    made = sum(rng.random() < 0.3 + 0.4 * common for _ in range(calls))
                    side.append((made, calls))
                else:
                    side.append((sum(rng.random() < 0.2 + common / 2 for _ in range(hands)), hands))
        diff = paired_difference(parts[0], parts[1], Figure("x", lambda r: r, scale=scale))
        assert diff.low is not None and diff.high is not None
        covered += diff.low <= 0 <= diff.high
    return covered / runs


@pytest.mark.parametrize("scale", [COUNT, SHARE])
def test_intervals_of_a_against_a_cover_zero_95_percent_of_the_time_even_at_8_pairs(
    scale: str,
) -> None:
    """Synthetic pairs with a shared deal effect: Student's t keeps its 95% where the
    normal quantile (1.96) would cover about 91% at 8 pairs."""
    coverage = synthetic_coverage(scale, 8, 1500, random.Random(7))
    assert 0.93 <= coverage <= 0.975, coverage


def test_a_share_interval_never_leaves_its_range() -> None:
    """Extreme shares at few pairs (every call made in A, none in B; one call in all):
    the interval stays inside (−A, 1 − A), within ±100 points."""
    rng = random.Random(3)
    share = Figure("s", lambda r: r, scale=SHARE)
    for _ in range(3000):
        n = rng.randint(2, 6)
        p, q = rng.choice([0.0, 0.02, 0.5, 0.98, 1.0]), rng.choice([0.0, 0.1, 0.9, 1.0])
        first, second = [], []
        for _ in range(n):
            calls_a, calls_b = rng.randint(1, 3), rng.randint(1, 3)
            first.append((sum(rng.random() < p for _ in range(calls_a)), calls_a))
            second.append((sum(rng.random() < q for _ in range(calls_b)), calls_b))
        diff = paired_difference(first, second, share)
        if diff.low is None or diff.high is None:
            assert not diff.seen
            continue
        assert diff.first is not None and diff.delta is not None
        assert -1 <= diff.low <= diff.delta <= diff.high <= 1
        relative = diff.relative()
        assert relative is None or relative[1] >= -100 - 1e-9  # B is never below 0


def test_a_count_interval_never_puts_b_below_zero() -> None:
    count = Figure("c", lambda r: r, scale=COUNT)
    rng = random.Random(5)
    for _ in range(1000):
        n = rng.randint(2, 5)
        first = [(rng.choice([0, 0, 1, 5]), rng.randint(1, 9)) for _ in range(n)]
        second = [(rng.choice([0, 0, 0, 1]), rng.randint(1, 9)) for _ in range(n)]
        diff = paired_difference(first, second, count)
        if diff.first and diff.low is not None:
            assert diff.low >= -diff.first - 1e-12


def test_a_against_a_on_real_matches_covers_zero_about_95_percent_of_the_time() -> None:
    """The same variant twice on the same stacked deals, the bots' seeds differing
    (random bots, one-hand matches): the true difference of every figure is 0."""
    standard = variant("standard", "game.hands=1")
    dealing = dealing_of(standard)
    chosen = [f for f in figures(["team 0+2", "team 1+3"]) if f.name in {
        "actions per hand", "card points per hand, team 0+2", "score per hand, team 0+2",
        "card points per hand, team 1+3", "matches won, team 0+2",
    }]  # fmt: skip
    runs, pairs = 60, 12
    covered = {f.name: 0 for f in chosen}
    for run_index in range(runs):
        halves: list[list[Any]] = [[], []]
        for pair in range(pairs):
            index = run_index * pairs + pair
            deals = dealing.deals(index, 1)
            for side, seed in enumerate((1, 2)):
                halves[side].append(play_record(RunSpec(standard, ("random",), seed), index, deals))
        for figure in chosen:
            diff = paired_difference([figure.sums(r) for r in halves[0]],
                                     [figure.sums(r) for r in halves[1]], figure)  # fmt: skip
            assert diff.low is not None and diff.high is not None, figure.name
            covered[figure.name] += diff.low <= 0 <= diff.high
            if figure.percent:
                assert -1 <= diff.low <= diff.high <= 1
    shares = {name: count / runs for name, count in covered.items()}
    assert all(share >= 0.85 for share in shares.values()), shares
    assert 0.9 <= sum(shares.values()) / len(shares) <= 0.995, shares


# --------------------------------------------------------------------------- the rule acted


def test_a_rule_that_never_applied_says_so_in_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """S-SCORE-3: a Grand Tichu worth 300 acts only where one is called; greedy bots never
    call one, and the section says the rule never acted (not "no effect")."""
    path = tmp_path / "big_grand.toml"
    path.write_text('extends = "standard"\nname = "big_grand"\n[calls]\ngrand_tichu_points = 300\n')
    code, out, err = run(
        capsys, "compare", "standard", str(path), "--games", "3", "--seed", "4",
        "--bots", "greedy", "--set", "game.target=300", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    flat = " ".join(out.split())
    assert "B differs from A in: calls.grand_tichu_points: 200 -> 300" in flat
    assert "The rule never acted in 3 matches" in flat and "try --bots search" in flat
    assert table_row(out, "Grand Tichu calls per hand")[4] == "never seen"


def test_a_rule_that_acted_is_counted(capsys: pytest.CaptureFixture[str]) -> None:
    """S-SCORE-3 (a Tichu worth 300: hands scored otherwise) and the stray Dog (its lead
    goes elsewhere: an action with another outcome)."""
    code, out, _ = run(
        capsys, "compare", "standard", "standard", "--games", "3", "--seed", "4",
        "--set", "game.target=300", "--quiet",
    )  # fmt: skip
    assert code == 0 and "has the same rules as standard: nothing to act" in " ".join(out.split())
    spec_a = variant("standard", "game.target=300")
    spec_b = variant("standard", "game.target=300", "calls.tichu_points=300")
    dealing = dealing_of(spec_a)
    spec = CompareSpec(spec_a, spec_b, ("heuristic",), 4, (dealing, dealing), 32, shadow=True)
    counts = [play_compare_pair(spec, index)["acted"] for index in range(3)]
    assert sum(c["scored"] for c in counts) > 0
    assert all(c["followed"] > 0 and c["questions"] > 0 for c in counts)
    stray = variant("house_stray_dog", "game.target=300")
    spec = CompareSpec(spec_a, stray, ("random",), 4, (dealing, dealing), 32, shadow=True)
    counts = [play_compare_pair(spec, index)["acted"] for index in range(3)]
    assert sum(sum(c["outcome"].values()) for c in counts) > 0


def test_a_rule_that_refused_options_the_bots_never_took_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """S-BOMB-3 changed (house_no_early_bombs): A's rules offer bombs out of turn that B's
    refuse; the heuristic lets them stand in A too, so nothing played goes otherwise."""
    code, out, err = run(
        capsys, "compare", "standard", "house_no_early_bombs", "--games", "4", "--seed", "1",
        "--set", "game.target=300", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    flat = " ".join(out.split())
    assert "B differs from A in: plugin no_early_bombs." in flat
    assert re.search(r"Options: in \d+ of 4 matches, \d+ questions? listed otherwise", flat)
    assert "(what the questions refused: bomb in" in flat
    assert "the rule only changed what the bots could choose" in flat
    assert table_row(out, "bombs per hand")[3] == "+0.000"


# --------------------------------------------------------------------------- --out


def compare_to(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> tuple[int, str, str]:
    return run(
        capsys, "compare", "standard", "house_short_game", "--games", "4", "--bots", "random",
        "--set", "game.target=300", "--out", str(path), "--quiet", *extra,
    )  # fmt: skip


def test_out_keeps_every_pair_and_a_cut_run_resumes_to_the_same_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """S-GAME-1 (house_short_game: a lower target). A compare stopped halfway (Ctrl-C,
    a time-out) loses no finished pair: rerun, it reads them from --out, plays the rest,
    and reports what one whole run reports, the rule-acted counts included."""
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    code, report, err = compare_to(capsys, whole, "--seed", "8")
    assert code == 0, err
    lines = whole.read_text().splitlines()
    assert sorted(json.loads(line)["index"] for line in lines) == [0, 1, 2, 3]
    cut.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])  # as Ctrl-C left it
    code, out, err = compare_to(capsys, cut)  # no --seed: the file's own
    assert code == 0, err
    assert "dropped a half-written last line" in err
    assert "1 of the pairs were read from" in out
    assert sorted(cut.read_text().splitlines()) == sorted(lines)

    def figures_of(text: str) -> str:  # the report without its times and file notes
        kept = [line for line in text.splitlines() if " s, " not in line and ".jsonl" not in line]
        return re.sub(r"\d+\.\d+ s", "", "\n".join(kept))

    assert figures_of(out) == figures_of(report)


def test_out_refuses_a_file_of_another_run_and_leaves_it_as_it_was(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    assert compare_to(capsys, path, "--seed", "1")[0] == 0
    before = path.read_bytes()
    code, out, err = compare_to(capsys, path, "--seed", "2")
    assert code == 2 and out == ""
    assert "another run" in err and err.startswith("tichu compare: ")
    assert path.read_bytes() == before


def test_out_refuses_a_device_before_any_match(capsys: pytest.CaptureFixture[str]) -> None:
    """A device would be read as one endless line (or block): refused in one line."""
    code, out, err = compare_to(capsys, Path("/dev/zero"), "--seed", "1")
    assert code == 2 and out == ""
    assert err == "tichu compare: --out /dev/zero is not a regular file\n"
