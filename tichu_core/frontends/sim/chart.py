"""The chart of ``tichu compare`` and ``tichu duel`` (``--chart FILE.png``, matplotlib).

Left, a forest plot: one row a figure, its paired difference B − A with the 95%
interval, in percent of A (so that bombs per hand and a score per hand share one
axis); a filled dot where the interval leaves out 0, an open one where it does not.
Right, the per-pair differences of the headline figure (B's figure of the pair less
A's), a histogram whose bars count pairs, with the overall difference marked.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tichu_core.frontends.sim.intervals import Difference
from tichu_core.frontends.text.render import printable

PLOTS_HINT = "--chart needs matplotlib: pip install 'tichu[plots]'"


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


def headline(
    names: Sequence[str], differences: Sequence[Difference], skip: Sequence[int] = ()
) -> int | None:
    """The row of the figure whose difference stands out most from its noise (the
    largest |B − A| over its interval's half-width), rows ``skip`` left out (a figure
    with no meaning per pair); None if no figure has one."""
    best, index = -1.0, None
    for row, diff in enumerate(differences):
        if row in skip or diff.delta is None or diff.low is None or diff.high is None:
            continue
        width = (diff.high - diff.low) / 2
        score = abs(diff.delta) / width if width > 0 else 0.0
        if score > best:
            best, index = score, row
    return index


def draw_chart(
    path: Path,
    title: str,
    names: Sequence[str],
    differences: Sequence[Difference],
    pairs: Sequence[float],
    headline_name: str,
    unit: str,
    pair_word: str = "pairs",
) -> None:
    """Draw the forest plot of ``differences`` (one row per name) and the histogram of
    ``pairs`` (the per-pair differences of ``headline_name``, in ``unit``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    rows = [
        (name, diff.relative(), diff.significant)
        for name, diff in zip(names, differences, strict=True)
        if diff.relative() is not None
    ]
    height = max(3.2, 0.36 * len(rows) + 1.4)
    fig, (forest, spread) = plt.subplots(
        1, 2, figsize=(11, height), gridspec_kw={"width_ratios": [1.45, 1]}
    )
    for y, (_, rel, significant) in enumerate(rows):
        assert rel is not None
        centre, low, high = rel
        colour = "tab:red" if significant else "tab:blue"
        forest.plot([low, high], [y, y], color=colour, linewidth=2)
        forest.plot(
            [centre],
            [y],
            marker="o",
            markersize=6,
            color=colour,
            markerfacecolor=colour if significant else "white",
        )
    forest.axvline(0, color="grey", linewidth=0.8)
    forest.set_yticks(range(len(rows)), [name for name, _, _ in rows], fontsize=8)
    forest.invert_yaxis()
    forest.set_xlabel("B − A, in % of A's figure (95% interval)")
    forest.set_title("Paired differences (filled red: interval leaves out 0)", fontsize=10)
    forest.grid(axis="x", alpha=0.3)
    if pairs:
        bins = min(20, max(5, len(pairs) // 3))
        spread.hist(pairs, bins=bins, color="tab:grey", edgecolor="white")
        mean = sum(pairs) / len(pairs)
        spread.axvline(0, color="black", linewidth=0.8)
        spread.axvline(mean, color="tab:red", linewidth=1.5, label=f"mean {mean:+.3g}")
        spread.legend(fontsize=8)
    spread.yaxis.set_major_locator(MaxNLocator(integer=True))
    spread.set_xlabel(f"B − A per {pair_word.rstrip('s')} ({unit})")
    spread.set_ylabel(f"{pair_word} (of {len(pairs)})")
    spread.set_title(f"Per pair: {headline_name}", fontsize=10)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)
