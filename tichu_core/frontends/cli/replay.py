"""`tichu replay FILE…`: replays Brettspielwelt `.tch` logs or our saved games
(`tichu_core.formats.bsw_replay`) and prints them through the event `Transcript`, one
line per trick, each `.tch` round with its verdict against the log.

A `.tch` log is replayed as a stream, round by round: each round is printed, written to
`--json` and let go, so a log of thousands of rounds takes the memory of one. The
`--json` file is checked before anything is replayed, is never one of the inputs, and
replaces an existing file only once every input has been read.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from rich.console import Console

from tichu_core import Game, HandStarted, InvalidAction, LogFormatError, MatchOver
from tichu_core.formats import (
    RecordReplay,
    RoundReplay,
    iter_records,
    iter_replay_file,
    read_log_text,
    replay_record,
    seat_label,
)
from tichu_core.frontends.text.render import Transcript, safe_text

EXACT_STYLE = "green"
WRONG_STYLE = "bold red"
INCOMPLETE_STYLE = "yellow"


def _say(console: Console, line: str, style: str = "") -> None:
    # Text, not markup, and control characters shown: names come from the log file.
    console.print(safe_text(line, style), soft_wrap=True)


def show_round(replay: RoundReplay, console: Console) -> None:
    """A replayed `.tch` round: its seats, the hand as far as it went, the log's result
    and the verdict."""
    rnd = replay.round
    seats = " · ".join(
        f"{seat} {name}" if name else str(seat) for seat, name in enumerate(rnd.names)
    )
    _say(console, f"round {rnd.index + 1} ({replay.place()}): {seats}")
    if replay.game is not None:  # None: an incomplete round with no deal
        transcript = Transcript(
            console,
            replay.game.score_lines,
            labels=[seat_label(rnd.names, seat) for seat in range(len(rnd.names))],
            by_trick=True,
        )
        # The round's line stands for the hand's heading (the log names no dealer), and
        # its one-hand game ending is no match ending.
        for events in (replay.opening, *(step.events for step in replay.steps)):
            transcript.feed(e for e in events if not isinstance(e, HandStarted | MatchOver))
        transcript.close()
    if replay.logged is not None:
        _say(console, f"  log:    Ergebnis: {replay.logged[0]} - {replay.logged[1]}")
    verdict = replay.describe_mismatch()
    if verdict is not None:
        _say(console, f"  MISMATCH {verdict}", WRONG_STYLE)
    if replay.incomplete is not None:
        _say(console, f"  INCOMPLETE {replay.describe_incomplete()}", INCOMPLETE_STYLE)
    elif verdict is None:
        _say(console, "  exact", EXACT_STYLE)


def show_record(replay: RecordReplay, source: str, console: Console) -> None:
    """One of our saved games replayed, or why it does not load."""
    head = f"game {replay.index + 1} ({source})"
    if replay.game is None:
        _say(console, f"{head}: does not load: {replay.error}", WRONG_STYLE)
        return
    game = replay.game
    _say(
        console,
        f"{head}: variant {game.variant.name}, seed {game.seed}, {len(replay.steps)} actions",
    )
    transcript = Transcript(console, game.score_lines, by_trick=True)
    transcript.feed(replay.opening)
    for step in replay.steps:
        transcript.feed(step.events)
    transcript.close()
    if not game.is_over:
        totals = " - ".join(str(score) for score in game.scores)
        waiting = ", ".join(str(seat) for seat in game.waiting_for) or "nobody"
        _say(console, f"  not over: totals {totals}; waiting for {waiting}")


class _Refused(Exception):
    """Why `--json` cannot be written, found before any replay."""


class _WriteFailed(Exception):
    """Writing `--json` failed during the replay (a full disk): not the input's fault."""


class JsonOut:
    """The `--json` file: an array of `Game.to_json()` records, one per line (as
    `records_json` writes it), added as the games are replayed.

    `open` checks everything before any replay: not a folder, not one of the inputs
    (same file by any path or link), writable. A regular file is written beside its
    target under a temporary name and moved over it by `commit`, keeping an existing
    file's permissions, so that a failed replay leaves the old file as it was; any other
    target (`/dev/stdout`, a pipe) is written directly.
    """

    def __init__(self, file: TextIO, target: Path, temporary: Path | None, mode: int) -> None:
        self._file = file
        self._target = target
        self._temporary = temporary
        self._mode = mode
        self._count = 0
        file.write("[\n")

    @classmethod
    def open(cls, path: str, inputs: Sequence[str]) -> JsonOut:
        target = Path(path)
        for given in inputs:
            if _same_file(target, given):
                raise _Refused(f"is the input {given}: it would be overwritten")
        if target.is_dir():
            raise _Refused("is a folder")
        try:
            if target.exists() and not target.is_file():
                return cls(open(target, "w", encoding="utf-8"), target, None, 0)
            if target.exists() and not os.access(target, os.W_OK):
                raise _Refused("cannot write: permission denied")
            # A link's file is replaced, not the link.
            real = Path(os.path.realpath(target))
            mode = real.stat().st_mode & 0o7777 if real.exists() else 0o666 & ~_umask()
            handle, name = tempfile.mkstemp(
                prefix=f".{real.name}.", suffix=".part", dir=real.parent
            )
        except OSError as error:
            raise _Refused(f"cannot write: {error.strerror or error}") from None
        file = os.fdopen(handle, "w", encoding="utf-8")
        return cls(file, real, Path(name), mode)

    def add(self, game: Game) -> None:
        try:
            self._file.write((",\n" if self._count else "") + game.to_json())
        except OSError as error:
            raise _WriteFailed(error.strerror or str(error)) from None
        self._count += 1

    def commit(self) -> None:
        try:
            self._file.write("\n]\n")
            self._file.close()
            if self._temporary is not None:
                os.chmod(self._temporary, self._mode)
                os.replace(self._temporary, self._target)
                self._temporary = None
        except OSError as error:
            raise _WriteFailed(error.strerror or str(error)) from None

    def discard(self) -> None:
        """Drop what was written: an existing file stays as it was."""
        self._file.close()
        if self._temporary is not None:
            self._temporary.unlink(missing_ok=True)
            self._temporary = None


def _same_file(target: Path, given: str) -> bool:
    try:
        return os.path.samefile(target, given)
    except OSError:  # either does not exist (or cannot be looked at): not the same file
        return False


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def cli_replay(
    paths: str | Sequence[str],
    json_out: str | None = None,
    verbose: bool = True,
    *,
    allow_imports: bool = False,
) -> int:
    """`tichu replay FILE… [--json OUT] [--quiet] [--allow-imports]`: replay `.tch` logs
    (every round checked against its `Ergebnis:`) or our saved game JSON (one record or
    an array), print them (`verbose`) and end each file with a summary line; the
    mismatches are listed before it. With several files each summary names its file and
    a last line counts the files without problems. `json_out` receives the replayed
    games of all files as an array of `Game.to_json()` records; it is not written when
    a file cannot be read. `allow_imports`: saved games may import the plugin modules
    their variant names. Returns 0 when everything replays (exactly; a log's incomplete
    last round is reported and counted apart), 1 if not, 2 when `json_out` cannot be
    written (said before anything is replayed)."""
    inputs = [paths] if isinstance(paths, str) else list(paths)
    console = Console(highlight=False, soft_wrap=True)
    out = None
    if json_out is not None:
        try:
            out = JsonOut.open(json_out, inputs)
        except _Refused as refused:
            print(f"tichu replay: --json {json_out}: {refused}", file=sys.stderr)
            return 2
    unreadable = 0
    good = 0
    try:
        for path in inputs:
            prefix = f"{path}: " if len(inputs) > 1 else ""
            try:
                if _starts_like_json(path):
                    ok = _replay_records(path, out, verbose, allow_imports, console, prefix)
                else:
                    ok = _replay_log(path, out, verbose, console, prefix)
            except (OSError, LogFormatError, InvalidAction) as error:
                print(f"tichu replay: {path}: {error}", file=sys.stderr)
                unreadable += 1
                continue
            good += ok
        if len(inputs) > 1:
            _say(console, f"files replayed without problems: {good}/{len(inputs)}")
        if out is not None:
            if unreadable:
                print(
                    f"tichu replay: {json_out} not written: an input could not be read",
                    file=sys.stderr,
                )
            else:
                out.commit()
    except _WriteFailed as failed:
        print(f"tichu replay: --json {json_out}: cannot write: {failed}", file=sys.stderr)
        return 1
    finally:
        if out is not None:
            out.discard()
    return 0 if good == len(inputs) else 1


def _replay_log(
    path: str, out: JsonOut | None, verbose: bool, console: Console, prefix: str
) -> bool:
    """One `.tch` log, round by round; whether every complete round replayed exactly
    (and the part of an incomplete round the engine could replay was accepted). An
    incomplete round is reported, counted apart, and not written to `--json`."""
    mismatches: list[str] = []
    incomplete: list[str] = []
    rounds = exact = 0
    for replay in iter_replay_file(path):
        if verbose:
            show_round(replay, console)
        described = replay.describe_mismatch()
        if described is not None:
            mismatches.append(described)
        ended = replay.describe_incomplete()
        if ended is not None:
            incomplete.append(ended)
            continue
        rounds += 1
        exact += replay.exact
        if out is not None and replay.game is not None:
            out.add(replay.game)
    for mismatch in mismatches:
        _say(console, f"mismatch: {mismatch}", WRONG_STYLE)
    for ended in incomplete:
        _say(console, ended, INCOMPLETE_STYLE)
    summary = f"{prefix}rounds replayed exactly: {exact}/{rounds}"
    if incomplete:
        summary += f" ({len(incomplete)} incomplete, not counted)"
    _say(console, summary)
    return not mismatches


def _starts_like_json(path: str) -> bool:
    """Whether a file's first character (after a byte-order mark and blanks) opens JSON,
    read without reading the whole file."""
    with open(path, "rb") as file:
        head = file.read(4096).removeprefix(b"\xef\xbb\xbf")
        while head:
            text = head.lstrip(b" \t\r\n")
            if text:
                return text[:1] in (b"{", b"[")
            head = file.read(4096)
    return False


def _replay_records(
    path: str,
    out: JsonOut | None,
    verbose: bool,
    allow_imports: bool,
    console: Console,
    prefix: str,
) -> bool:
    """Our saved games, one record after the other; whether every one loaded."""
    failed = count = 0
    for index, record in enumerate(iter_records(read_log_text(path))):
        count += 1
        replay = replay_record(record, index, allow_imports=allow_imports)
        if verbose or replay.game is None:
            show_record(replay, path, console)
        if replay.game is None:
            failed += 1
        elif out is not None:
            out.add(replay.game)
    _say(console, f"{prefix}games replayed: {count - failed}/{count}")
    return not failed
