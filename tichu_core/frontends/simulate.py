"""``tichu simulate``: many bot matches, optionally in worker processes, with a summary.

The summary reads everything from the games: their score lines (one per team, or
per player and the dummy in Threechu), each match's ``outcome`` (which lines won,
and why the match ended) and its hand results.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from tichu_core import Game, load_variant
from tichu_core.frontends.bots import BOTS, make_bot, play_match
from tichu_core.frontends.render import match_end_text, printable, safe_text, termination_text
from tichu_core.variants.loading import parse_overrides


@dataclass
class MatchSummary:
    seed: int
    totals: list[int]
    winners: list[int]
    termination: str
    hands: int
    actions: int


def play_one(
    variant_name: str, overrides: list[str], allow_imports: bool, bots: list[str], seed: int
) -> MatchSummary:
    """One bot match; ``bots`` are cycled over the players (a dummy is its controller's)."""
    variant = load_variant(
        variant_name, overrides=parse_overrides(overrides), allow_imports=allow_imports
    )
    game = Game(variant, seed=seed)
    players = [make_bot(bots[p % len(bots)], seed * 31 + p) for p in range(game.players)]
    play_match(game, players)
    outcome = game.outcome
    assert outcome is not None  # play_match returns an ended match
    return MatchSummary(
        seed,
        list(game.scores),
        list(outcome.winners),
        outcome.termination.value,
        len(game.hand_results),
        len(game.actions),
    )


def simulate(
    variant: str,
    games: int,
    workers: int = 1,
    seed: int | None = None,
    bots: list[str] | None = None,
    overrides: list[str] | None = None,
    allow_imports: bool = False,
    console: Console | None = None,
) -> int:
    console = console or Console()
    bots = bots or ["random"]
    overrides = overrides or []
    unknown = [name for name in bots if name not in BOTS]
    if unknown:
        # Before any work starts.
        print(
            f"tichu simulate: unknown bot {', '.join(map(repr, unknown))}; "
            f"known: {', '.join(BOTS)}",
            file=sys.stderr,
        )
        return 2
    if games < 1:
        print("tichu simulate: --games must be at least 1", file=sys.stderr)
        return 2
    if workers < 1:
        print("tichu simulate: --workers must be at least 1", file=sys.stderr)
        return 2
    base = seed if seed is not None else int(time.time())
    # Fail early (in this process) on a bad variant, override or plugin: a game is built.
    reference = load_variant(
        variant, overrides=parse_overrides(overrides), allow_imports=allow_imports
    )
    lines = Game(reference, seed=0).score_lines
    results: list[MatchSummary] = []
    start = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        # A task's description is markup: the variant's name (from a file) is escaped.
        described = escape(printable(f"{games} matches of {reference.name}"))
        task = progress.add_task(described, total=games)
        if workers <= 1:
            for number in range(games):
                results.append(play_one(variant, overrides, allow_imports, bots, base + number))
                progress.advance(task)
        else:
            # No more processes than matches: the pool forks all its workers at once.
            with ProcessPoolExecutor(max_workers=min(workers, games)) as pool:
                futures = [
                    pool.submit(play_one, variant, overrides, allow_imports, bots, base + number)
                    for number in range(games)
                ]
                for future in futures:
                    results.append(future.result())
                    progress.advance(task)
    elapsed = time.perf_counter() - start
    rules = reference.game
    title = f"{reference.name} ({match_end_text(rules.target, rules.hands)})"
    console.print(summary_table(results, lines, title, bots, base))
    endings = Counter(result.termination for result in results)
    console.print(
        Text(
            "matches ended: "
            + ", ".join(f"{count} {termination_text(why)}" for why, count in endings.most_common())
        )
    )
    hands = sum(r.hands for r in results)
    console.print(
        Text(
            f"{hands} hands ({hands / len(results):.1f} per match), "
            f"{sum(r.actions for r in results)} actions in {elapsed:.1f} s "
            f"({hands / max(elapsed, 1e-9):.0f} hands/s with {workers} worker(s))"
        )
    )
    return 0


def summary_table(
    results: list[MatchSummary], lines: list[str], name: str, bots: list[str], base: int
) -> Table:
    """Per score line: matches won (alone, or shared in a tie) and the mean final score."""
    alone: Counter[int] = Counter()
    shared: Counter[int] = Counter()
    for result in results:
        for winner in result.winners:
            (alone if len(result.winners) == 1 else shared)[winner] += 1
    games = len(results)
    # Text, not markup: the name comes from a variant file.
    table = Table(
        title=safe_text(
            f"{games} matches of {name}, bots {','.join(bots)} by player "
            f"(seeds {base}..{base + games - 1})"
        )
    )
    table.add_column("score line")
    table.add_column("wins", justify="right")
    table.add_column("shared wins", justify="right")
    table.add_column("mean final score", justify="right")
    for line, line_name in enumerate(lines):
        finals = [r.totals[line] for r in results]
        table.add_row(
            safe_text(line_name),
            str(alone[line]),
            str(shared[line]),
            f"{statistics.fmean(finals):.1f}" if finals else "-",
        )
    return table
