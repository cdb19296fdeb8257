"""``--out FILE.jsonl``: one JSON line per finished match, resumable.

Each line is a match record (:func:`tichu_core.frontends.sim.matches.play_record`) and
names its run (``run``: a fingerprint of the variant, the bots and the seed) and
its ``index``. Reopening the file for the same run reads the lines already there
(streamed: the file may hold millions) and the run plays only the matches it
lacks, appending their lines. A last line an interrupted run left half-written is
dropped (the file is cut back to the last whole line); a bad line anywhere else,
or a line of another run, stops with a message saying so. A file is cut only when
it is this run's: a first line that is no record of the run (a saved game, notes,
another run's half-written line) is refused, and the file left as it was. The file
must be a regular file (a device or a pipe would be read as one endless line, or
block), and a line longer than any record is refused, not read whole.
"""

from __future__ import annotations

import io
import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from tichu_core.frontends.sim.matches import Record


class OutFileError(ValueError):
    """The --out file cannot be resumed: it is damaged or belongs to another run."""


# A record is a few hundred bytes (more for many players): a longer line is no record.
MAX_LINE_BYTES = 1 << 16


def check_out_path(path: Path) -> None:
    """OutFileError unless ``path`` is absent or a regular file (symbolic links followed):
    a device (/dev/zero, /dev/full) or a pipe (/dev/stdout into one) cannot be resumed."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise OutFileError(f"cannot use --out {path}: {error.strerror or error}") from None
    if not stat.S_ISREG(mode):
        raise OutFileError(f"--out {path} is not a regular file")


def _lines(file: io.BufferedReader) -> Iterator[bytes]:
    """The lines of ``file``, each read with a bounded length (a longer line comes in
    parts, none ending with a newline but the last)."""
    return iter(lambda: file.readline(MAX_LINE_BYTES), b"")


def _begins_a_record(fragment: bytes, run_id: str) -> bool:
    """Whether ``fragment`` is how a record of run ``run_id`` begins (a record's first
    key is its run: :func:`tichu_core.frontends.sim.matches.play_record`)."""
    start = f'{{"run":"{run_id}",'.encode()
    return fragment[: len(start)] == start[: len(fragment)]


class Done:
    """Which match indices are already recorded: one bit per match."""

    def __init__(self, games: int) -> None:
        self.games = games
        self._bits = bytearray((games + 7) // 8)
        self.count = 0

    def add(self, index: int) -> bool:
        """Mark ``index`` (False if it was marked, or is beyond the run's matches)."""
        if not 0 <= index < self.games or index in self:
            return False
        self._bits[index >> 3] |= 1 << (index & 7)
        self.count += 1
        return True

    def __contains__(self, index: object) -> bool:
        if not isinstance(index, int) or not 0 <= index < self.games:
            return False
        return bool(self._bits[index >> 3] & (1 << (index & 7)))

    def missing(self) -> Iterator[int]:
        """The indices not yet recorded, in order."""
        return (i for i in range(self.games) if i not in self)


def first_run_seed(path: Path) -> int | None:
    """The run seed of the first whole record of ``path`` (None: no file, or no record)."""
    check_out_path(path)
    if not path.exists():
        return None
    with path.open("rb") as file:
        line = file.readline(MAX_LINE_BYTES)
    if not line.endswith(b"\n"):
        if line and not line.startswith(b'{"run":"'[: len(line)]):
            raise OutFileError(f"{path}: line 1 is not a match record")
        return None
    try:
        seed = json.loads(line)["run_seed"]
    except (ValueError, KeyError, TypeError):
        raise OutFileError(f"{path}: line 1 is not a match record") from None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def read_records(path: Path, run_id: str, done: Done, on_record: Callable[[Record], None]) -> int:
    """Feed the records of ``path`` of run ``run_id`` to ``on_record`` (each index once,
    those below ``done.games``), marking them in ``done``; cut off a half-written last
    line. Returns how many bytes were cut (0: none)."""
    check_out_path(path)
    if not path.exists():
        return 0
    good = 0  # the offset after the last whole line
    with path.open("rb") as file:
        for number, raw in enumerate(_lines(file), start=1):
            last = not file.peek(1)
            # Only a file of this run is ever cut: its first line must be one of its records.
            ours = good > 0 or _begins_a_record(raw, run_id)
            if not raw.endswith(b"\n"):
                if last and ours:
                    break  # the last line, half-written: dropped below
                raise OutFileError(f"{path}: line {number} is not a match record")
            try:
                record = json.loads(raw)
                index = record["index"]
                run = record["run"]
            except (ValueError, KeyError, TypeError):
                if not last or not ours:
                    raise OutFileError(f"{path}: line {number} is not a match record") from None
                break  # a damaged last line: dropped like a half-written one
            if run != run_id:
                raise OutFileError(
                    f"{path}: line {number} is a match of another run (other variant, bots, "
                    "options or seed); give another --out file, or the same command"
                )
            good += len(raw)
            if isinstance(index, int) and done.add(index):
                on_record(record)
        size = file.seek(0, os.SEEK_END)
    if size > good:
        with path.open("r+b") as file:
            file.truncate(good)
    return size - good


class RecordWriter:
    """Appends one line per record and flushes it, so that an interruption loses no
    finished match that was handed on."""

    def __init__(self, path: Path) -> None:
        self._file: IO[str] = path.open("a", encoding="utf-8")

    def write(self, record: Record) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
