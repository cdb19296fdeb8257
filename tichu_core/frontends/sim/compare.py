"""``tichu compare A B``: what a rule changes, by duplicate play.

Pair ``i`` is one match under A and one under B, with the same bots and bot seeds
and, where the two variants deal alike (the same deck and hand sizes), the same
cards hand by hand: both take their deals from one stack
(:mod:`~tichu_core.frontends.sim.stacked`, as ``tichu duel`` does). Where they deal
differently, each variant has its own stack drawn from the pair's seed, and only the
bot seeds are paired: the output says so.

Each figure (:mod:`~tichu_core.frontends.sim.intervals`) is a function of sums over
the pairs; B − A ("second minus first") comes with a 95% interval by Student's t
over the pairs, built on a scale that keeps it inside the figure's range. Below
:data:`~tichu_core.frontends.sim.intervals.MIN_PAIRS` pairs a warning says that the
sample is too small to conclude anything.

Where the variants play the same deals, every match of B is followed by a game of A
(:mod:`~tichu_core.frontends.sim.acted`) to count how often B's rules acted.

``--chart FILE.png`` draws the differences and the per-pair differences of the
headline figure (:mod:`~tichu_core.frontends.sim.chart`; ``pip install 'tichu[plots]'``).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from tichu_core import Game, Variant, load_variant, parse_overrides
from tichu_core.frontends.sim.acted import Shadow, add_counts, rule_differences
from tichu_core.frontends.sim.chart import headline
from tichu_core.frontends.sim.intervals import MIN_PAIRS, SHARE, SIGNED, Figure, spread
from tichu_core.frontends.sim.matches import (
    Deals,
    Record,
    RunSpec,
    match_seed,
    play_record,
)
from tichu_core.frontends.sim.paired import (
    difference_table,
    figure_differences,
    request_problem,
    save_chart,
    small_sample_warning,
)
from tichu_core.frontends.sim.simulate import (
    INTERRUPTED,
    RunError,
    choose_run_seed,
    interrupted_message,
    play_run,
)
from tichu_core.frontends.sim.stacked import Dealing, dealing_of, first_stack, play_on_stack
from tichu_core.frontends.text.render import printable

# Pairs per batch at most: a pair is two matches (a strong bot's are slow).
LARGEST_BATCH = 4
# What a half keeps of its match record.
KEPT = (
    "hands", "actions", "bombs", "oot_bombs", "oot_tichu", "double_victories", "tichu",
    "grand_tichu", "totals", "card_points", "winners", "square_scores", "call_points",
)  # fmt: skip


def _sum(values: list[list[int]], column: int) -> int:
    return sum(v[column] for v in values)


def figures(lines: list[str] | None) -> list[Figure]:
    """What is compared (each over one match record); per score line only where both
    variants have the same lines."""
    found = [
        Figure("hands per match", lambda r: (r["hands"], 1)),
        Figure("actions per hand", lambda r: (r["actions"], r["hands"])),
        Figure("bombs per hand", lambda r: (sum(r["bombs"]), r["hands"])),
        Figure("bombs out of turn per hand", lambda r: (sum(r["oot_bombs"]), r["hands"])),
        Figure(
            "double victories per hand",
            lambda r: (sum(r["double_victories"]), r["hands"]),
            scale=SHARE,
        ),
        Figure("Tichu calls per hand", lambda r: (_sum(r["tichu"], 0), r["hands"])),
        Figure("Tichu calls out of turn/hand", lambda r: (sum(r["oot_tichu"]), r["hands"])),
        Figure("Tichu success", lambda r: (_sum(r["tichu"], 1), _sum(r["tichu"], 0)), scale=SHARE),
        Figure("Grand Tichu calls per hand", lambda r: (_sum(r["grand_tichu"], 0), r["hands"])),
        Figure(
            "Grand Tichu success",
            lambda r: (_sum(r["grand_tichu"], 1), _sum(r["grand_tichu"], 0)),
            scale=SHARE,
        ),
        Figure("call points won per hand", lambda r: (r["call_points"][0], r["hands"])),
        Figure("call points lost per hand", lambda r: (r["call_points"][1], r["hands"])),
    ]
    for line, name in enumerate(lines or []):
        found += [
            Figure(f"score per hand, {name}", _per_hand("totals", line), scale=SIGNED),
            Figure(f"score sd per hand, {name}", _spread(line), spread, scale=SIGNED),
            Figure(f"card points per hand, {name}", _per_hand("card_points", line), scale=SIGNED),
            Figure(f"matches won, {name}", _won(line), scale=SHARE),
        ]
    return found


def _per_hand(key: str, line: int) -> Any:
    return lambda record: (record[key][line], record["hands"])


def _spread(line: int) -> Any:
    return lambda r: (r["totals"][line], r["square_scores"][line], r["hands"])


def _won(line: int) -> Any:
    return lambda record: (float(line in record["winners"]), 1)


# --------------------------------------------------------------------------- the pairs


@dataclass(frozen=True)
class CompareSpec:
    """What every pair shares (picklable: workers and Ray tasks receive it)."""

    first: Variant  # A
    second: Variant  # B
    bots: tuple[str, ...]
    run_seed: int
    dealings: tuple[Dealing, Dealing]
    stack: int
    shadow: bool  # follow B's matches with a game of A (the rule-acted counts)

    @property
    def paired_deals(self) -> bool:
        return self.dealings[0] == self.dealings[1]

    @functools.cached_property
    def run_id(self) -> str:
        base = RunSpec(self.second, ("compare", *self.bots), self.run_seed).run_id
        return RunSpec(self.first, (base,), self.run_seed).run_id


def play_compare_pair(spec: CompareSpec, index: int) -> Record:
    """Pair ``index``: one match under A and one under B, the same seed and bots, on the
    same stacked deals where the variants deal alike; B's match followed by a game of A
    where ``spec.shadow``."""
    seed = match_seed(spec.run_seed, index)
    counts: Record = {}

    def half(variant: Variant, follow: bool) -> Any:
        def play(deals: Deals | None) -> Record:
            shadow = None
            if follow and deals is not None:
                shadow = Shadow(spec.first, seed, deals)
            record = play_record(RunSpec(variant, spec.bots, spec.run_seed), index, deals, shadow)
            counts.clear()
            if shadow is not None:
                counts.update(shadow.counts())
            return record

        return play

    players = [half(spec.first, False), half(spec.second, spec.shadow)]
    records = play_on_stack(players, spec.dealings, seed, spec.stack)
    return {
        "run": spec.run_id,
        "run_seed": spec.run_seed,
        "index": index,
        "seed": seed,
        "halves": [{key: record[key] for key in KEPT} for record in records],
        "acted": counts or None,
    }


def play_compare_batch(spec: CompareSpec, indices: Sequence[int]) -> list[Record]:
    """The records of pairs ``indices``, in that order (a worker's task)."""
    return [play_compare_pair(spec, index) for index in indices]


# --------------------------------------------------------------------------- the command


def _variant(name: str, overrides: list[str], allow_imports: bool) -> Variant:
    return load_variant(name, overrides=parse_overrides(overrides), allow_imports=allow_imports)


def _error(message: str) -> int:
    print(f"tichu compare: {printable(message)}", file=sys.stderr)
    return 2


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
    out: str | Path | None = None,
    quiet: bool = False,
    backend: str = "local",
    address: str | None = None,
    console: Console | None = None,
) -> int:
    """Play ``games`` pairs (a match under A and under B on the same deals); print the
    table of B − A, what is paired and whether the rule acted (and draw ``chart``).
    ``out``: one JSON line per pair, resumed when the same command runs again. 0; 2
    for a bad request; 130 when interrupted (the finished pairs are summed up, and
    kept in ``out``)."""
    # Off a terminal (a file, a pipe) the table is not folded to 80 columns.
    console = console or Console(width=None if sys.stdout.isatty() else 120)
    bots = bots or ["heuristic"]
    problem = request_problem(bots, chart, games, workers, "pairs")
    if problem is not None:
        return _error(problem)  # before any work starts
    variants = [_variant(name, overrides or [], allow_imports) for name in (first, second)]
    tables = [Game(variant, seed=0) for variant in variants]
    path = Path(out) if out is not None else None
    try:
        run_seed = choose_run_seed(seed, path)  # a resumed file keeps its own
    except RunError as error:
        return _error(str(error))
    dealings = (dealing_of(variants[0]), dealing_of(variants[1]))
    same_table = tables[0].players == tables[1].players and tables[0].seats == tables[1].seats
    spec = CompareSpec(
        variants[0],
        variants[1],
        tuple(bots),
        run_seed,
        dealings,
        max(first_stack(variants[0]), first_stack(variants[1])),
        shadow=dealings[0] == dealings[1] and same_table,
    )
    records: list[Record] = []
    try:
        outcome = play_run(
            spec,
            games,
            lambda record, fresh: records.append(record),
            command="compare",
            described=f"{games} pairs of {variants[0].name} and {variants[1].name}",
            path=path,
            workers=workers,
            backend=backend,
            address=address,
            quiet=quiet,
            batch=play_compare_batch,
            largest=LARGEST_BATCH,
        )
    except RunError as error:
        return _error(str(error))
    failed = None
    if len(records) >= 2:
        failed = report(console, spec, tables, records, outcome.elapsed, outcome.workers, chart)
    elif records:
        console.print(Text("1 pair finished: too few for any figure."))
    if outcome.resumed:
        console.print(Text(printable(f"{outcome.resumed} of the pairs were read from {path}")))
    if outcome.interrupted:
        print(interrupted_message("compare", len(records), "pairs", path), file=sys.stderr)
        return INTERRUPTED
    if failed is not None:
        print(f"tichu compare: {failed}", file=sys.stderr)
        return 1
    return 0


def report(
    console: Console,
    spec: CompareSpec,
    tables: list[Game],
    records: list[Record],
    elapsed: float,
    workers: int,
    chart: str | Path | None,
) -> str | None:
    """Print the table, the notes and the rule-acted section, and draw ``chart``: None,
    or why the chart could not be written (checked before the run, but a disk may
    still fill up meanwhile)."""
    names = [spec.first.name, spec.second.name]
    same_lines = tables[0].score_lines == tables[1].score_lines
    chosen = figures(tables[0].score_lines if same_lines else None)
    halves = [[record["halves"][k] for record in records] for k in (0, 1)]
    differences = figure_differences(chosen, halves[0], halves[1])
    n = len(records)
    hands = sum(h["hands"] for record in records for h in record["halves"])
    title = (
        f"{names[1]} (B) against {names[0]} (A): {n} pairs, bots {','.join(spec.bots)}, "
        f"run seed {spec.run_seed}"
    )
    console.print(difference_table(title, chosen, differences))
    notes = [
        f"{n} pairs ({2 * n} matches, {hands} hands), {elapsed:.1f} s, {workers} worker(s). "
        "95% intervals: Student's t over the pairs, on a scale that keeps each figure in "
        "its range (docs/bots.md).",
        pairing_text(spec, tables),
    ]
    if not same_lines:
        notes.append("The score lines differ: per-line figures are not compared.")
    if n < MIN_PAIRS:
        notes.append(small_sample_warning(n))
    console.print(Text("\n".join(printable(note) for note in notes)))
    console.print(Text(acted_text(spec, records)))
    if chart is not None:
        # A spread is a figure of many hands: a pair of short matches has none.
        spreads = [k for k, f in enumerate(chosen) if f.value is spread]
        row = headline([f.name for f in chosen], differences, spreads)
        if row is None:
            console.print(Text("No figure has an interval: no chart drawn."))
            return None
        failed = save_chart(
            chart,
            f"{names[1]} (B) against {names[0]} (A): {n} pairs, bots {','.join(spec.bots)}",
            chosen,
            differences,
            row,
            halves[0],
            halves[1],
        )
        if failed is not None:
            return failed
        console.print(Text(f"chart: {printable(str(chart))}"))
    return None


def pairing_text(spec: CompareSpec, tables: list[Game]) -> str:
    """What is paired between A's and B's matches of a pair, and what is not."""
    a, b = spec.dealings
    players = [table.players for table in tables]
    if spec.paired_deals:
        if players[0] == players[1]:
            return "Paired: the same cards hand by hand (stacked deals) and the same bot seeds."
        return (
            "Paired: every seat's cards hand by hand (stacked deals) and the bot seeds; but A "
            f"seats {players[0]} players and B {players[1]}, so a seat's cards may be played "
            "by another player or a dummy."
        )
    differ = []
    if sorted(a.deck) != sorted(b.deck):
        differ.append(f"decks ({len(a.deck)} and {len(b.deck)} cards)")
    if a.sizes != b.sizes:
        differ.append(
            f"hand sizes ({'/'.join(map(str, a.sizes))} and {'/'.join(map(str, b.sizes))})"
        )
    if players[0] != players[1]:
        differ.append(f"players ({players[0]} and {players[1]})")
    return (
        f"Not paired: the deals; A and B differ in {', '.join(differ)}. Paired: only the "
        "bot seeds (each variant's deals come from the same pair seed)."
    )


# --------------------------------------------------------------------------- the output


def acted_text(spec: CompareSpec, records: list[Record]) -> str:
    """The "the rule acted" section: what B changes against A, and how often it acted."""
    changes = rule_differences(spec.first, spec.second)
    a, b = spec.first.name, spec.second.name
    lines = ["", f"The rule acted ({b} against {a}):"]
    if not changes:
        lines.append(f"  {b} has the same rules as {a}: nothing to act.")
        return "\n".join(lines)
    lines.append("  B differs from A in: " + "; ".join(changes) + ".")
    counted = [record["acted"] for record in records if record.get("acted") is not None]
    if not counted:
        lines.append(
            "  Not counted: a game of A can follow B's matches only on the same deals at a "
            "table of the same size."
        )
        return "\n".join(lines)
    total: Record = {}
    for counts in counted:
        add_counts(total, counts)
    matches = len(counted)
    options = sum(1 for c in counted if c["listed"])
    play = sum(1 for c in counted if c["forbidden"] or c["outcome"] or c["scored"])
    hands = sum(record["halves"][1]["hands"] for record in records)
    lines.append(
        f"  Followed B's {matches} matches with a game of A: {total['followed']} of "
        f"{hands} hands, {total['questions']} questions (see docs/bots.md)."
    )
    if not options and not play:
        lines.append(
            f"  The rule never acted in {matches} matches: no question was listed otherwise "
            "under A, no action had another outcome, no hand scored otherwise. The bots "
            "never reached a position where the rules differ; try --bots search (it plays "
            "each variant's rules) or more --games."
        )
        return "\n".join(lines)
    if options:
        lines.append(
            f"  Options: in {options} of {matches} matches, {_plural(total['listed'], 'question')} "
            f"listed otherwise than under A (what the questions refused: "
            f"{_kinds(total['refused'])}; added: {_kinds(total['added'])})."
        )
    else:
        lines.append("  Options: no question was listed otherwise than under A.")
    if play:
        lines.append(f"  Play: in {play} of {matches} matches, something went otherwise:")
        if total["forbidden"]:
            lines.append(f"  - actions A's rules forbid, played: {_kinds(total['forbidden'])}")
        if total["outcome"]:
            lines.append(f"  - actions with another outcome under A: {_kinds(total['outcome'])}")
        lines.append(
            f"  - hands scored otherwise: {total['scored']} of {total['followed']} followed"
        )
    else:
        lines.append(
            "  Play: nothing played in B's matches goes otherwise under A (no action A's "
            "rules forbid, no other outcome, no hand scored otherwise): the rule only "
            "changed what the bots could choose. Where the figures agree too, the bots never "
            "chose what it took away; try --bots search (it plays each variant's rules)."
        )
    return "\n".join(lines)


def _plural(number: int, word: str) -> str:
    return f"{number} {word}" + ("" if number == 1 else "s")


def _kinds(counts: dict[str, int]) -> str:
    """Counts by kind: "bomb in 94, call in 2" (questions), "lead_passed in 29" (events)."""
    if not counts:
        return "none"
    return ", ".join(f"{name} in {number}" for name, number in sorted(counts.items()))
