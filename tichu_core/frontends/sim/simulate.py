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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
from tichu_core.frontends.sim.matches import Record, RunSpec, play_batch
from tichu_core.frontends.sim.runners import (
    MAX_BATCH,
    BackendUnavailable,
    Batch,
    interrupted_by_sigterm,
    open_runner,
)
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


class RunError(Exception):
    """What stops a run before its first match (said in one line; exit status 2)."""


def choose_run_seed(seed: int | None, path: Path | None) -> int:
    """The run seed: ``seed``; else that of the ``--out`` file being resumed (a resumed
    file keeps its own run seed); else the clock."""
    try:
        recorded = first_run_seed(path) if path is not None and seed is None else None
    except OutFileError as error:
        raise RunError(str(error)) from None
    except OSError as error:
        raise RunError(f"cannot read --out {path}: {error.strerror or error}") from None
    chosen = seed if seed is not None else recorded
    return chosen if chosen is not None else int(time.time())


@dataclass(frozen=True)
class RunOutcome:
    resumed: int  # records read from the --out file
    interrupted: bool  # by Ctrl-C or SIGTERM: the records so far were handed on
    workers: int
    elapsed: float  # seconds, for the records this invocation played


def play_run(
    spec: Any,
    games: int,
    add: Callable[[Record, bool], None],
    *,
    command: str,
    described: str,
    path: Path | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    quiet: bool = False,
    batch: Batch = play_batch,
    largest: int = MAX_BATCH,
) -> RunOutcome:
    """Play the records ``0..games-1`` of the run ``spec`` (its ``run_id`` names its
    records) with ``batch``, at most ``largest`` records a batch, handing each to
    ``add(record, fresh)`` in index order: first those of the ``--out`` file ``path``
    (``fresh`` False), then those played now, appended to the file as they come. A
    progress bar unless ``quiet``; Ctrl-C stops at once, keeping what was finished (the
    outcome says so). RunError if the file or the backend cannot be used."""
    done = Done(games)
    writer: RecordWriter | None = None
    if path is not None:
        try:
            cut = read_records(path, spec.run_id, done, lambda record: add(record, False))
            writer = RecordWriter(path)
        except OutFileError as error:
            raise RunError(str(error)) from None
        except OSError as error:
            raise RunError(f"cannot use --out {path}: {error.strerror or error}") from None
        if cut:
            print(
                f"tichu {command}: dropped a half-written last line ({cut} bytes) of {path}",
                file=sys.stderr,
            )
    resumed = done.count
    try:
        # No more local processes than records to play.
        workers = max(1, min(workers, games - resumed))
        runner = open_runner(spec, workers, backend, address, batch, largest)
    except BackendUnavailable as error:
        if writer is not None:
            writer.close()
        raise RunError(str(error)) from None
    interrupted = False
    start = time.perf_counter()
    try:
        with (
            interrupted_by_sigterm(),
            runner,
            progress_bar(Console(stderr=True), quiet) as progress,
        ):
            task = progress.add_task(escape(printable(described)), total=games, completed=resumed)

            def keep(record: Record) -> None:
                if writer is not None:
                    writer.write(record)
                add(record, True)
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
    return RunOutcome(resumed, interrupted, runner.workers, time.perf_counter() - start)


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
    summary = Summary(table.score_lines, table.players, bots)
    played_hands = 0

    def add(record: Record, fresh: bool) -> None:
        nonlocal played_hands
        summary.add(record)
        if fresh:
            played_hands += record["hands"]

    try:
        run_seed = choose_run_seed(seed, path)
        spec = RunSpec(reference, tuple(bots), run_seed)
        outcome = play_run(
            spec,
            games,
            add,
            command="simulate",
            described=f"{games} matches of {reference.name}",
            path=path,
            workers=workers,
            backend=backend,
            address=address,
            quiet=quiet,
        )
    except RunError as error:
        return _error(str(error))
    rules = reference.game
    title = (
        f"{reference.name} ({match_end_text(rules.target, rules.hands)}), bots "
        f"{','.join(bots)} by player, run seed {run_seed}"
    )
    where = f"{outcome.workers} worker(s), {backend}"
    console.print(summary.render(title, outcome.elapsed, played_hands, where))
    if outcome.resumed:
        console.print(Text(f"{outcome.resumed} of the matches were read from {path}"))
    if outcome.interrupted:
        print(interrupted_message("simulate", summary.matches, "matches", path), file=sys.stderr)
        return INTERRUPTED
    return 0


def interrupted_message(command: str, kept: int, what: str, path: Path | None) -> str:
    """What a run stopped by Ctrl-C says: where its finished records are."""
    where = f"; {kept} {what} are in {path}, rerun to play the rest" if path else ""
    return f"tichu {command}: interrupted{where}"
