"""``tichu compare A B``: what a rule changes, by duplicate play.

Both variants play the same matches: match ``i`` has the same seed under A and B
(so the same shuffles, hand by hand, where the decks agree, and the same bot
seeds), with the same bots. Each figure is a ratio of sums over the matches (for
example bombs per hand = all bombs / all hands), and the difference B − A comes
with a 95% confidence interval by the normal approximation, its standard error
from the paired per-match differences linearised around the two ratios (the
delta method). Pairing removes the luck of the deal that both variants share.

``--chart FILE.png`` draws the per-match distributions of A and B and the
differences with their intervals (matplotlib: ``pip install 'tichu[plots]'``).
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tichu_core import Game, Variant, load_variant, parse_overrides
from tichu_core.frontends.sim.matches import Record, RunSpec
from tichu_core.frontends.sim.runners import (
    BackendUnavailable,
    interrupted_by_sigterm,
    open_runner,
)
from tichu_core.frontends.sim.simulate import check_bots, progress_bar
from tichu_core.frontends.text.render import printable, safe_text

Z95 = 1.959964
PLOTS_HINT = "--chart needs matplotlib: pip install 'tichu[plots]'"

# A figure of a match: (numerator, denominator); the figure of a run is the ratio of
# their sums.
Part = Callable[[Record], tuple[float, float]]


@dataclass(frozen=True)
class Figure:
    name: str
    part: Part
    percent: bool = False


def _sum(values: list[list[int]], column: int) -> int:
    return sum(v[column] for v in values)


def _per_hand(key: str, line: int) -> Part:
    return lambda record: (record[key][line], record["hands"])


def _won(line: int) -> Part:
    return lambda record: (float(line in record["winners"]), 1)


def figures(lines: list[str] | None) -> list[Figure]:
    """What is compared; per score line only where both variants have the same lines."""
    found = [
        Figure("hands per match", lambda r: (r["hands"], 1)),
        Figure("actions per hand", lambda r: (r["actions"], r["hands"])),
        Figure("bombs per hand", lambda r: (sum(r["bombs"]), r["hands"])),
        Figure("bombs out of turn per hand", lambda r: (sum(r["oot_bombs"]), r["hands"])),
        Figure(
            "double victories per hand",
            lambda r: (sum(r["double_victories"]), r["hands"]),
            percent=True,
        ),
        Figure("Tichu calls per hand", lambda r: (_sum(r["tichu"], 0), r["hands"])),
        Figure("Tichu calls out of turn per hand", lambda r: (sum(r["oot_tichu"]), r["hands"])),
        Figure(
            "Tichu success",
            lambda r: (_sum(r["tichu"], 1), _sum(r["tichu"], 0)),
            percent=True,
        ),
        Figure(
            "Grand Tichu success",
            lambda r: (_sum(r["grand_tichu"], 1), _sum(r["grand_tichu"], 0)),
            percent=True,
        ),
    ]
    for line, name in enumerate(lines or []):
        found += [
            Figure(f"score per hand, {name}", _per_hand("totals", line)),
            Figure(f"card points per hand, {name}", _per_hand("card_points", line)),
            Figure(f"matches won, {name}", _won(line), percent=True),
        ]
    return found


@dataclass(frozen=True)
class Difference:
    """Figure of A and of B (None: no denominator), B − A and its 95% interval."""

    first: float | None
    second: float | None
    delta: float | None
    low: float | None
    high: float | None


def paired_difference(
    first: list[tuple[float, float]], second: list[tuple[float, float]]
) -> Difference:
    """The difference of two ratios of sums over the same matches, with the 95% normal
    interval of the delta method: per match, z = (a - R_A d_A)/mean(d_A) for each
    variant, and the standard error of R_B - R_A is sd(z_B - z_A) / sqrt(n)."""
    n = len(first)
    num_a, den_a = sum(p[0] for p in first), sum(p[1] for p in first)
    num_b, den_b = sum(p[0] for p in second), sum(p[1] for p in second)
    ratio_a = num_a / den_a if den_a else None
    ratio_b = num_b / den_b if den_b else None
    if ratio_a is None or ratio_b is None:
        return Difference(ratio_a, ratio_b, None, None, None)
    mean_a, mean_b = den_a / n, den_b / n
    z = [
        (b - ratio_b * db) / mean_b - (a - ratio_a * da) / mean_a
        for (a, da), (b, db) in zip(first, second, strict=True)
    ]
    centre = sum(z) / n
    variance = sum((v - centre) ** 2 for v in z) / (n - 1) if n > 1 else 0.0
    error = Z95 * math.sqrt(variance / n)
    delta = ratio_b - ratio_a
    return Difference(ratio_a, ratio_b, delta, delta - error, delta + error)


def show_value(value: float | None, percent: bool, signed: bool = False) -> str:
    if value is None:
        return "-"
    if percent:
        return f"{100 * value:+.1f}%" if signed else f"{100 * value:.1f}%"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def chart_problem(chart: str | Path | None) -> str | None:
    """Why ``--chart`` cannot be drawn (None: it can, or none is asked), said before any
    match is played."""
    if chart is None:
        return None
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return PLOTS_HINT
    folder = Path(chart).resolve().parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        return f"cannot write --chart {printable(str(chart))}"
    if Path(chart).exists() and not Path(chart).is_file():  # a folder, a device
        return f"cannot write --chart {printable(str(chart))}: not a regular file"
    return None


def interval_cells(diff: Difference, percent: bool) -> tuple[str, str]:
    """The table cells of a difference's 95% interval, and "*" where it leaves out 0."""
    if diff.low is None or diff.high is None:
        return "-", ""
    interval = f"[{show_value(diff.low, percent, True)}, {show_value(diff.high, percent, True)}]"
    return interval, "*" if diff.low > 0 or diff.high < 0 else ""


def _variant(name: str, overrides: list[str], allow_imports: bool) -> Variant:
    return load_variant(name, overrides=parse_overrides(overrides), allow_imports=allow_imports)


def compare(
    first: str,
    second: str,
    games: int,
    workers: int = 1,
    seed: int | None = None,
    bots: list[str] | None = None,
    overrides: list[str] | None = None,
    allow_imports: bool = False,
    chart: str | Path | None = None,
    quiet: bool = False,
    backend: str = "local",
    address: str | None = None,
    console: Console | None = None,
) -> int:
    """Play ``games`` matches under each variant with the same seeds; print the table of
    differences (and draw ``chart``). 0, or 2 for a bad request."""
    # Off a terminal (a file, a pipe) the table is not folded to 80 columns.
    console = console or Console(width=None if sys.stdout.isatty() else 120)
    bots = bots or ["heuristic"]
    problem = check_bots(bots)
    if problem is not None:
        print(f"tichu compare: {printable(problem)}", file=sys.stderr)
        return 2
    if games < 2:
        print("tichu compare: --games must be at least 2", file=sys.stderr)
        return 2
    problem = chart_problem(chart)
    if problem is not None:
        print(f"tichu compare: {problem}", file=sys.stderr)
        return 2
    variants = [_variant(name, overrides or [], allow_imports) for name in (first, second)]
    tables = [Game(variant, seed=0) for variant in variants]
    run_seed = seed if seed is not None else int(time.time())
    parts: list[list[Record]] = []
    start = time.perf_counter()
    for variant in variants:
        spec = RunSpec(variant, tuple(bots), run_seed)
        try:
            runner = open_runner(spec, min(workers, games), backend, address)
        except BackendUnavailable as error:
            print(f"tichu compare: {printable(str(error))}", file=sys.stderr)
            return 2
        records: list[Record] = []
        bar = progress_bar(Console(stderr=True), quiet)
        with interrupted_by_sigterm(), runner, bar as progress:
            task = progress.add_task(
                escape(printable(f"{games} matches of {variant.name}")), total=games
            )
            for record in runner.records(range(games), games):
                records.append(_compact(record))
                progress.advance(task)
        parts.append(records)
    elapsed = time.perf_counter() - start
    same_lines = tables[0].score_lines == tables[1].score_lines
    chosen = figures(tables[0].score_lines if same_lines else None)
    differences = [
        paired_difference([f.part(r) for r in parts[0]], [f.part(r) for r in parts[1]])
        for f in chosen
    ]
    names = [variant.name for variant in variants]
    console.print(_table(names, chosen, differences, games, bots, run_seed))
    notes = [
        f"{games} matches each, same seeds (duplicate play), {elapsed:.1f} s; "
        "95% intervals by the normal approximation (delta method, paired by match)."
    ]
    if not same_lines:
        notes.append("The score lines differ: per-line figures are not compared.")
    failed = None
    if chart is not None:
        try:
            draw_chart(Path(chart), names, chosen, parts, differences)
            notes.append(f"chart: {chart}")
        except OSError as error:  # checked above, but a disk may still fill up
            failed = f"cannot write --chart {printable(str(chart))}: {error.strerror or error}"
    console.print(Text("\n".join(notes)))
    if failed is not None:
        print(f"tichu compare: {failed}", file=sys.stderr)
        return 1
    return 0


def _compact(record: Record) -> Record:
    """The fields the figures read (a record without its run fingerprint and seeds)."""
    keep = ["hands", "actions", "bombs", "oot_bombs", "oot_tichu", "double_victories"]
    keep += ["tichu", "grand_tichu"]
    return {key: record[key] for key in (*keep, "totals", "card_points", "winners")}


def _table(
    names: list[str],
    chosen: list[Figure],
    differences: list[Difference],
    games: int,
    bots: list[str],
    run_seed: int,
) -> Group:
    table = Table(
        title=safe_text(
            f"{names[1]} (B) against {names[0]} (A): {games} matches each, bots "
            f"{','.join(bots)}, run seed {run_seed}"
        )
    )
    table.add_column("figure", no_wrap=True)
    for column in ("A", "B", "B − A", "95% interval", ""):
        table.add_column(column, justify="right", no_wrap=True)
    for figure, diff in zip(chosen, differences, strict=True):
        interval, mark = interval_cells(diff, figure.percent)
        table.add_row(
            safe_text(figure.name),
            show_value(diff.first, figure.percent),
            show_value(diff.second, figure.percent),
            show_value(diff.delta, figure.percent, True),
            interval,
            mark,
        )
    return Group(table, Text("* the interval leaves out 0"))


def draw_chart(
    path: Path,
    names: list[str],
    chosen: list[Figure],
    parts: list[list[Record]],
    differences: list[Difference],
    title: str | None = None,
    difference_title: str = "B − A, % of A, with 95% intervals",
    unit: str = "per match",
) -> None:
    """Histograms of the per-record (``unit``) figures of A and B (where a record has a
    denominator), and the differences B − A with their intervals, relative to A."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [f for f in chosen if not f.name.startswith(("Tichu success", "Grand", "matches"))]
    shown = shown[:5]
    columns = 3
    rows = math.ceil((len(shown) + 1) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(5 * columns, 3.6 * rows), squeeze=False)
    cells = [ax for row in axes for ax in row]
    for ax, figure in zip(cells, shown, strict=False):
        for records, name, colour in zip(parts, names, ("tab:blue", "tab:orange"), strict=True):
            values = [n / d for n, d in map(figure.part, records) if d]
            ax.hist(values, bins=30, alpha=0.55, label=name, color=colour)
        ax.set_title(f"{figure.name} ({unit})", fontsize=10)
        ax.legend(fontsize=8)
    ax = cells[len(shown)]
    labelled = [
        (f.name, d)
        for f, d in zip(chosen, differences, strict=True)
        if d.delta is not None and d.first
    ]
    for y, (_, diff) in enumerate(labelled):
        assert diff.first is not None and diff.delta is not None
        assert diff.low is not None and diff.high is not None
        scale = 100 / abs(diff.first)
        ax.errorbar(
            diff.delta * scale,
            y,
            xerr=[[(diff.delta - diff.low) * scale], [(diff.high - diff.delta) * scale]],
            fmt="o",
            color="tab:red",
            capsize=3,
        )
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(range(len(labelled)), [name for name, _ in labelled], fontsize=7)
    ax.set_title(difference_title, fontsize=10)
    for unused in cells[len(shown) + 1 :]:
        unused.axis("off")
    fig.suptitle(title or f"{names[1]} (B) against {names[0]} (A)")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)
