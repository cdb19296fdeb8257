"""What ``tichu compare`` and ``tichu duel`` share: figures over pairs of matches.

Both commands play pairs (one deal under A and under B) and keep, per pair, what A's
side and B's side did: two lists of records, ``firsts[i]`` and ``seconds[i]`` the two
sides of pair ``i`` (compare: the matches under A and B; duel: bot A's and bot B's
view of the pair). From them this module reads the differences B − A of the figures
(:mod:`~tichu_core.frontends.sim.intervals`), prints their table and the small-sample
warning, and draws the chart of the headline figure's per-pair differences
(:mod:`~tichu_core.frontends.sim.chart`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from tichu_core.frontends.sim.chart import chart_problem, draw_chart
from tichu_core.frontends.sim.intervals import MIN_PAIRS, Difference, Figure, paired_difference
from tichu_core.frontends.sim.matches import Record
from tichu_core.frontends.sim.simulate import check_bots
from tichu_core.frontends.text.render import printable, safe_text


def request_problem(
    bots: list[str], chart: str | Path | None, games: int, workers: int, pair_word: str
) -> str | None:
    """What is wrong with a run of ``games`` pairs (None: nothing), said before any work
    starts: the bots, the chart's file, fewer than two pairs, no worker."""
    problem = check_bots(bots) or chart_problem(chart)
    if problem is not None:
        return problem
    if games < 2:
        return f"--games must be at least 2 (the intervals need two {pair_word})"
    if workers < 1:
        return "--workers must be at least 1"
    return None


def figure_differences(
    chosen: Sequence[Figure], firsts: Sequence[Record], seconds: Sequence[Record]
) -> list[Difference]:
    """Per figure, B − A ("second minus first") with its 95% interval, paired pair by
    pair."""
    return [
        paired_difference([f.sums(r) for r in firsts], [f.sums(r) for r in seconds], f)
        for f in chosen
    ]


def per_pair_differences(
    figure: Figure, firsts: Sequence[Record], seconds: Sequence[Record]
) -> list[float]:
    """B's figure less A's, pair by pair (in percentage points for a share); a pair where
    either side has no value (no call to succeed) is left out."""
    found = []
    for a, b in zip(firsts, seconds, strict=True):
        va, vb = figure.value(figure.sums(a)), figure.value(figure.sums(b))
        if va is not None and vb is not None:
            found.append(100 * (vb - va) if figure.percent else vb - va)
    return found


def chart_unit(figure: Figure) -> str:
    """The unit of a figure's per-pair differences, as the chart says it."""
    if figure.percent:
        return "percentage points"
    if "player-hand" in figure.name:
        return "per player-hand"
    if "match" in figure.name:
        return "per match"
    return "per hand"


def save_chart(
    chart: str | Path,
    title: str,
    chosen: Sequence[Figure],
    differences: Sequence[Difference],
    row: int,
    firsts: Sequence[Record],
    seconds: Sequence[Record],
    pair_word: str = "pairs",
) -> str | None:
    """Draw ``differences`` and the per-pair differences of figure ``row`` to ``chart``:
    None, or why the file could not be written (checked before the run, but a disk may
    still fill up meanwhile)."""
    figure = chosen[row]
    try:
        draw_chart(
            Path(chart),
            title,
            [f.name for f in chosen],
            differences,
            per_pair_differences(figure, firsts, seconds),
            figure.name,
            chart_unit(figure),
            pair_word=pair_word,
        )
    except OSError as error:
        return f"cannot write --chart {printable(str(chart))}: {error.strerror or error}"
    return None


def small_sample_warning(pairs: int) -> str:
    return (
        f"Warning: only {pairs} pairs, fewer than {MIN_PAIRS}: too few to conclude "
        "anything; the intervals rest on an approximation that needs more."
    )


# --------------------------------------------------------------------------- the table


def show_value(value: float | None, percent: bool, signed: bool = False) -> str:
    """A figure for the table: shares in percent (a difference of shares in percentage
    points, "pt"), others with 4 significant digits at most."""
    if value is None:
        return "-"
    sign = "+" if signed else ""
    if percent:
        return f"{100 * value:{sign}.1f}" + ("pt" if signed else "%")
    size = abs(value)
    decimals = 0 if size >= 1000 else 1 if size >= 100 else 2 if size >= 10 else 3
    return f"{value:{sign}.{decimals}f}"


def interval_cells(diff: Difference, percent: bool) -> tuple[str, str]:
    """The table cells of a difference's 95% interval, and "*" where it leaves out 0."""
    if not diff.seen:
        return "never seen", ""
    if diff.low is None or diff.high is None:
        return "-", ""
    # The unit "pt" is said once, in the B − A cell.
    low, high = (show_value(x, percent, True).removesuffix("pt") for x in (diff.low, diff.high))
    return f"[{low}, {high}]", "*" if diff.significant else ""


def difference_table(
    title: str,
    chosen: Sequence[Figure],
    differences: Sequence[Difference],
    columns: tuple[str, str] = ("A", "B"),
) -> Group:
    """The table of figures, A, B, B − A and its interval (readable at 80 columns)."""
    table = Table(title=safe_text(title), box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("figure")  # folded where a terminal is narrow; numbers never are
    for column in (*columns, "B − A", "95% interval", ""):
        table.add_column(safe_text(column), justify="right", no_wrap=True)
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
    # Each interval misses the truth 1 time in 20: among many figures, some stars are
    # chance (a figure alone is to be trusted, a star among twenty is not proof).
    tested = sum(1 for diff in differences if diff.low is not None and diff.high is not None)
    return Group(
        table,
        Text(
            "* the interval leaves out 0; B − A: second minus first; pt: percentage points\n"
            f"Of {tested} intervals, about {tested / 20:.1f} leave out 0 by chance alone when "
            "nothing changed: a lone * is a lead to check with more pairs, not a finding."
        ),
    )
