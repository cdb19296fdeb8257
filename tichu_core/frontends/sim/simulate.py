"""``tichu simulate``: many bot matches, in this process, local workers or on Ray.

The results depend only on the run's seed: match ``i`` is played with a seed
derived from the run seed and ``i`` (:mod:`tichu_core.frontends.sim.matches`), and
the records come back in match order whichever runner plays them
(:mod:`tichu_core.frontends.sim.runners`). They stream into the summary
(:mod:`tichu_core.frontends.sim.summary`) and, with ``--out``, into a JSON-lines
file that a rerun of the same command resumes (:mod:`tichu_core.frontends.sim.jsonl`).
Ctrl-C stops the run at once: the matches finished so far stay in the file,
the summary covers them, and no worker process is left behind.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from tichu_core import Game, load_variant, parse_overrides
from tichu_core.frontends.bots import bot_names, make_bot, unknown_bot_message
from tichu_core.frontends.sim.jsonl import (
    Done,
    OutFileError,
    RecordWriter,
    first_run_seed,
    read_records,
)
from tichu_core.frontends.sim.matches import Record, RunSpec
from tichu_core.frontends.sim.runners import BackendUnavailable, interrupted_by_sigterm, open_runner
from tichu_core.frontends.sim.summary import Summary
from tichu_core.frontends.text.render import match_end_text, printable

INTERRUPTED = 130


def _error(message: str) -> int:
    print(f"tichu simulate: {printable(message)}", file=sys.stderr)
    return 2


def check_bots(bots: list[str]) -> str | None:
    """What is wrong with the bots (None: all known, and each can be made), said here
    before any worker starts."""
    known = set(bot_names())
    unknown = [name for name in bots if name not in known]
    if unknown:
        return unknown_bot_message(unknown[0])
    for name in dict.fromkeys(bots):
        try:
            make_bot(name, 0)
        except ValueError as error:
            return str(error)
    return None


def progress_bar(console: Console, quiet: bool) -> Progress:
    """The progress bar on ``console`` (stderr): off with --quiet or off a terminal."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=quiet or not console.is_terminal,
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
    out: str | Path | None = None,
    quiet: bool = False,
    backend: str = "local",
    address: str | None = None,
) -> int:
    """Play ``games`` matches and print their summary; 0, or 130 when interrupted."""
    console = console or Console()
    bots = bots or ["random"]
    problem = check_bots(bots)
    if problem is not None:
        return _error(problem)  # before any work starts
    if games < 1:
        return _error("--games must be at least 1")
    if workers < 1:
        return _error("--workers must be at least 1")
    # A bad variant, override or plugin fails here, in this process: a game is built.
    reference = load_variant(
        variant, overrides=parse_overrides(overrides or []), allow_imports=allow_imports
    )
    table = Game(reference, seed=0)
    path = Path(out) if out is not None else None
    try:
        recorded_seed = first_run_seed(path) if path is not None and seed is None else None
    except OutFileError as error:
        return _error(str(error))
    except OSError as error:
        return _error(f"cannot read --out {path}: {error.strerror or error}")
    # Without --seed a resumed file keeps its own run seed.
    run_seed = seed if seed is not None else recorded_seed
    if run_seed is None:
        run_seed = int(time.time())
    spec = RunSpec(reference, tuple(bots), run_seed)
    summary = Summary(table.score_lines, table.players, bots)
    done = Done(games)
    writer: RecordWriter | None = None
    if path is not None:
        try:
            cut = read_records(path, spec.run_id, done, summary.add)
            writer = RecordWriter(path)
        except OutFileError as error:
            return _error(str(error))
        except OSError as error:
            return _error(f"cannot use --out {path}: {error.strerror or error}")
        if cut:
            print(
                f"tichu simulate: dropped a half-written last line ({cut} bytes) of {path}",
                file=sys.stderr,
            )
    resumed = done.count
    try:
        # No more local processes than matches to play.
        runner = open_runner(spec, max(1, min(workers, games - resumed)), backend, address)
    except BackendUnavailable as error:
        if writer is not None:
            writer.close()
        return _error(str(error))
    interrupted = False
    played_hands = 0
    start = time.perf_counter()
    try:
        with (
            interrupted_by_sigterm(),
            runner,
            progress_bar(Console(stderr=True), quiet) as progress,
        ):
            described = escape(printable(f"{games} matches of {reference.name}"))
            task = progress.add_task(described, total=games, completed=resumed)

            def keep(record: Record) -> None:
                nonlocal played_hands
                if writer is not None:
                    writer.write(record)
                summary.add(record)
                played_hands += record["hands"]
                progress.advance(task)

            try:
                for record in runner.records(done.missing(), games - resumed):
                    keep(record)
            except KeyboardInterrupt:
                interrupted = True
                for record in runner.salvage():
                    keep(record)
                raise
    except KeyboardInterrupt:
        if not interrupted:
            raise
    finally:
        if writer is not None:
            writer.close()
    elapsed = time.perf_counter() - start
    rules = reference.game
    title = (
        f"{reference.name} ({match_end_text(rules.target, rules.hands)}), bots "
        f"{','.join(bots)} by player, run seed {run_seed}"
    )
    where = f"{runner.workers} worker(s), {backend}"
    console.print(summary.render(title, elapsed, played_hands, where))
    if resumed:
        console.print(Text(f"{resumed} of the matches were read from {path}"))
    if interrupted:
        kept = f"; {summary.matches} matches are in {path}, rerun to play the rest" if path else ""
        print(f"tichu simulate: interrupted{kept}", file=sys.stderr)
        return INTERRUPTED
    return 0
