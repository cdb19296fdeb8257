"""Tables on disk: SQLite (the standard library's ``sqlite3``) holds each table as its
variant (name and overrides), seed, seating and action log.

A table is a recipe, as a saved game is (docs/api.md section 6): the server rebuilds
it by creating the game from variant and seed and applying the logged actions again.
Each action is committed before the server acknowledges it, so a table restored after
a restart is exactly the table its players last saw. Seat tokens are stored only as
their SHA-256 hashes: the database alone does not let anyone act for a seat.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    overrides TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    name TEXT NOT NULL,
    token_hash TEXT,
    PRIMARY KEY (table_id, player)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
"""


def token_hash(token: str) -> str:
    """What the store keeps of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatRecord:
    """Who holds a player's place: a person (with the hash of its token) or a bot."""

    player: int
    kind: str  # "human" or "bot"
    name: str  # the person's display name, or the bot's name
    token_hash: str | None = None


@dataclass
class TableRecord:
    """A stored table: enough to rebuild its game exactly."""

    id: str
    variant: str
    overrides: dict[str, Any]
    seed: int
    created: float = field(default_factory=time.time)
    seats: list[SeatRecord] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)  # each action's JSON, in order


class TableStore:
    """The SQLite file of the server's tables. Every write is committed when the method
    returns; the methods may be called from any thread (one lock guards the connection)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        with self._lock:
            # WAL: readers (a second server process, a test) never block the writer;
            # synchronous=FULL: a committed action survives a power cut too.
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(sql, rows)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def add_table(self, record: TableRecord) -> None:
        self._write(
            "INSERT INTO tables (id, variant, overrides, seed, created) VALUES (?, ?, ?, ?, ?)",
            [
                (
                    record.id,
                    record.variant,
                    json.dumps(record.overrides, sort_keys=True),
                    record.seed,
                    record.created,
                )
            ],
        )

    def add_seats(self, table_id: str, seats: list[SeatRecord]) -> None:
        """Store new occupants (all or none); a place already taken is an IntegrityError."""
        self._write(
            "INSERT INTO seats (table_id, player, kind, name, token_hash) VALUES (?, ?, ?, ?, ?)",
            [(table_id, s.player, s.kind, s.name, s.token_hash) for s in seats],
        )

    def add_action(self, table_id: str, number: int, action: str) -> None:
        """Log action ``number`` (0 for the first) of a table; committed on return."""
        self._write(
            "INSERT INTO actions (table_id, number, action) VALUES (?, ?, ?)",
            [(table_id, number, action)],
        )

    def load(self) -> list[TableRecord]:
        """Every stored table with its seats and actions, oldest table first."""
        with self._lock:
            tables = self._db.execute(
                "SELECT id, variant, overrides, seed, created FROM tables ORDER BY created, id"
            ).fetchall()
            seats = self._db.execute(
                "SELECT table_id, player, kind, name, token_hash FROM seats ORDER BY player"
            ).fetchall()
            actions = self._db.execute(
                "SELECT table_id, action FROM actions ORDER BY table_id, number"
            ).fetchall()
        records = {
            row[0]: TableRecord(
                id=row[0], variant=row[1], overrides=json.loads(row[2]), seed=row[3], created=row[4]
            )
            for row in tables
        }
        for table_id, player, kind, name, hashed in seats:
            records[table_id].seats.append(SeatRecord(player, kind, name, hashed))
        for table_id, action in actions:
            records[table_id].actions.append(action)
        return list(records.values())
