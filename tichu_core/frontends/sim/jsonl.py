"""``--out FILE.jsonl``: one JSON line per finished match, resumable.

Each line is a match record (:func:`tichu_core.frontends.sim.matches.play_record`) and
names its run (``run``: a fingerprint of the variant, the bots and the seed) and
its ``index``. Reopening the file for the same run reads the lines already there
(streamed: the file may hold millions) and the run plays only the matches it
lacks, appending their lines. A last line an interrupted run left half-written is
dropped (the file is cut back to the last whole line); a bad line anywhere else,
or a line of another run, stops with a message saying so.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from tichu_core.frontends.sim.matches import Record


class OutFileError(ValueError):
    """The --out file cannot be resumed: it is damaged or belongs to another run."""


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
    if not path.exists():
        return None
    with path.open("rb") as file:
        line = file.readline()
    if not line.endswith(b"\n"):
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
    if not path.exists():
        return 0
    good = 0  # the offset after the last whole line
    with path.open("rb") as file:
        for number, raw in enumerate(file, start=1):
            if not raw.endswith(b"\n"):
                break  # the last line, half-written: dropped below
            try:
                record = json.loads(raw)
                index = record["index"]
                run = record["run"]
            except (ValueError, KeyError, TypeError):
                if file.read(1):
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
