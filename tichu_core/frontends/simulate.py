"""``tichu simulate``: many bot matches, optionally in worker processes, with a summary."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from tichu_core.frontends.bots import make_bot, play_match
from tichu_core.game.match import Game
from tichu_core.variants.loading import load_variant, parse_overrides


@dataclass
class MatchSummary:
    seed: int
    totals: list[int]
    winners: list[int]
    hands: int
    actions: int


def play_one(
    variant_name: str, overrides: list[str], allow_imports: bool, bots: list[str], seed: int
) -> MatchSummary:
    variant = load_variant(
        variant_name, overrides=parse_overrides(overrides), allow_imports=allow_imports
    )
    game = Game(variant, seed=seed)
    players = [make_bot(bots[p % len(bots)], seed * 31 + p) for p in range(variant.players)]
    play_match(game, players)
    return MatchSummary(
        seed, list(game.scores), list(game.winners), len(game.hand_results), len(game.actions)
    )


def simulate(
    variant: str,
    games: int,
    workers: int = 1,
    seed: int | None = None,
    bots: list[str] | None = None,
    overrides: list[str] | None = None,
    allow_imports: bool = False,
) -> int:
    console = Console()
    bots = bots or ["random"]
    overrides = overrides or []
    for name in bots:
        make_bot(name)  # an unknown bot name fails before any work starts
    base = seed if seed is not None else int(time.time())
    # Fail early (in this process) on a bad variant or override.
    reference = load_variant(
        variant, overrides=parse_overrides(overrides), allow_imports=allow_imports
    )
    lines = Game(reference, seed=0).score_lines
    results: list[MatchSummary] = []
    start = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{games} matches of {reference.name}", total=games)
        if workers <= 1:
            for number in range(games):
                results.append(play_one(variant, overrides, allow_imports, bots, base + number))
                progress.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = [
                    pool.submit(play_one, variant, overrides, allow_imports, bots, base + number)
                    for number in range(games)
                ]
                for future in futures:
                    results.append(future.result())
                    progress.advance(task)
    elapsed = time.perf_counter() - start
    wins: Counter[int] = Counter()
    for result in results:
        for winner in result.winners:
            wins[winner] += 1
    table = Table(
        title=f"{games} matches of {reference.name}, bots {','.join(bots)} by player "
        f"(seeds {base}..{base + games - 1})"
    )
    table.add_column("score line")
    table.add_column("wins", justify="right")
    table.add_column("mean final score", justify="right")
    for line, name in enumerate(lines):
        finals = [r.totals[line] for r in results]
        table.add_row(name, str(wins[line]), f"{statistics.fmean(finals):.1f}" if finals else "-")
    console.print(table)
    hands = sum(r.hands for r in results)
    console.print(
        f"{hands} hands, {sum(r.actions for r in results)} actions in {elapsed:.1f} s "
        f"({hands / elapsed:.0f} hands/s with {workers} worker(s))"
    )
    return 0
