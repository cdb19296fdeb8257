"""Tables on disk: SQLite (the standard library's ``sqlite3``) holds each table as its
variant (name and overrides), seed, seating and action log.

A table is a recipe, as a saved game is (docs/api.md section 6): the server rebuilds
it by creating the game from variant and seed and applying the logged actions again.
Each action is committed before the server acknowledges it, so a table restored after
a restart is exactly the table its players last saw. Seat tokens are stored only as
their SHA-256 hashes: the database alone does not let anyone act for a seat.

The file is marked as this store's (``PRAGMA application_id`` :data:`APPLICATION_ID`,
``user_version`` :data:`SCHEMA_VERSION`). Before anything is written or the journal
switched, the file is checked: a new or empty file becomes a store; a file of the
first version (the three tables alone, no mark) is marked and kept; anything else
(not SQLite, a directory, another application's database) is refused with a
:class:`StoreError` and left exactly as it was.

A table that expires (tables.py) is first only marked (``expired``, a time): it is no
longer restored, and its rows are deleted :meth:`TableStore.purge` later.
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
    created REAL NOT NULL,
    touched REAL,
    expired REAL
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


# "TchU": the mark of a tichu table store in the SQLite header (PRAGMA application_id).
APPLICATION_ID = 0x54636855
SCHEMA_VERSION = 2  # 1: the first store (unmarked; no touched/expired columns)
SQLITE_HEADER = b"SQLite format 3\x00"
_OWN_TABLES = {"tables", "seats", "actions"}


class StoreError(Exception):
    """The store's file cannot be used (one line: the file and why); nothing was changed."""


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
    touched: float = 0.0  # the last action's time (the creation's before any)
    seats: list[SeatRecord] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)  # each action's JSON, in order


class TableStore:
    """The SQLite file of the server's tables. Every write is committed when the method
    returns; the methods may be called from any thread (one lock guards the connection)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        _check_file(Path(path))
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot be opened as SQLite ({error})") from None
        try:
            with self._lock:
                upgrade = self._check_schema()
                # WAL: readers (a second server process, a test) never block the writer;
                # synchronous=FULL: a committed action survives a power cut too.
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.execute("PRAGMA foreign_keys=ON")
                self._db.execute("BEGIN IMMEDIATE")
                if not upgrade:
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                else:
                    self._db.execute("ALTER TABLE tables ADD COLUMN touched REAL")
                    self._db.execute("ALTER TABLE tables ADD COLUMN expired REAL")
                self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                self._db.execute("COMMIT")
        except sqlite3.Error as error:
            self._db.close()
            raise StoreError(f"{self.path}: cannot be used as the table store ({error})") from None
        except StoreError:
            self._db.close()
            raise

    def _check_schema(self) -> bool:
        """Whether this is a first-version store to upgrade; raises :class:`StoreError`
        for a database that is not this store's. Only reads."""
        application_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        names = {
            row[0]
            for row in self._db.execute(
                "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            )
        }
        if application_id == APPLICATION_ID:
            if version != SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: a table store of version {version}; this server reads "
                    f"version {SCHEMA_VERSION}"
                )
            return False
        if application_id == 0 and not names:
            return False  # a new database
        if application_id == 0 and version == 0 and _is_first_store(self._db, names):
            return True
        shown = ", ".join(sorted(names)[:5]) or "none"
        raise StoreError(
            f"{self.path}: another application's SQLite database (application_id "
            f"{application_id}, tables: {shown}); refused, nothing changed"
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def expire(self, table_id: str, when: float) -> None:
        """Mark a table expired: it is not restored any more; :meth:`purge` deletes it."""
        self._write("UPDATE tables SET expired = ? WHERE id = ?", [(when, table_id)])

    def purge(self, before: float) -> int:
        """Delete the tables that expired before ``before`` (a time), with their seats and
        actions, in one transaction; how many."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                ids = [
                    (row[0],)
                    for row in self._db.execute(
                        "SELECT id FROM tables WHERE expired IS NOT NULL AND expired < ?",
                        (before,),
                    )
                ]
                self._db.executemany("DELETE FROM actions WHERE table_id = ?", ids)
                self._db.executemany("DELETE FROM seats WHERE table_id = ?", ids)
                self._db.executemany("DELETE FROM tables WHERE id = ?", ids)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return len(ids)

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
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO actions (table_id, number, action) VALUES (?, ?, ?)",
                    (table_id, number, action),
                )
                self._db.execute(
                    "UPDATE tables SET touched = ? WHERE id = ?", (time.time(), table_id)
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def load(self) -> list[TableRecord]:
        """Every stored table with its seats and actions, oldest table first."""
        with self._lock:
            tables = self._db.execute(
                "SELECT id, variant, overrides, seed, created, touched FROM tables"
                " WHERE expired IS NULL ORDER BY created, id"
            ).fetchall()
            seats = self._db.execute(
                "SELECT table_id, player, kind, name, token_hash FROM seats ORDER BY player"
            ).fetchall()
            actions = self._db.execute(
                "SELECT table_id, action FROM actions ORDER BY table_id, number"
            ).fetchall()
        records = {
            row[0]: TableRecord(
                id=row[0],
                variant=row[1],
                overrides=json.loads(row[2]),
                seed=row[3],
                created=row[4],
                touched=row[5] if row[5] is not None else row[4],
            )
            for row in tables
        }
        for table_id, player, kind, name, hashed in seats:
            if table_id in records:
                records[table_id].seats.append(SeatRecord(player, kind, name, hashed))
        for table_id, action in actions:
            if table_id in records:
                records[table_id].actions.append(action)
        return list(records.values())


def _check_file(path: Path) -> None:
    """Refuse a path that cannot be a store before SQLite touches it: a directory, or a
    file that is not SQLite (an empty file is a new store)."""
    if path.is_dir():
        raise StoreError(f"{path}: is a directory, not an SQLite file")
    if not path.exists():
        return
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise StoreError(f"{path}: cannot be read ({error.strerror})") from None
    if header and header != SQLITE_HEADER:
        raise StoreError(f"{path}: not an SQLite file; refused, nothing changed")


def _is_first_store(db: sqlite3.Connection, names: set[str]) -> bool:
    """Whether the database holds exactly the first store's three tables, column for
    column (such a file was written by this server before the mark existed)."""
    if names != _OWN_TABLES:
        return False
    columns = {
        "tables": ["id", "variant", "overrides", "seed", "created"],
        "seats": ["table_id", "player", "kind", "name", "token_hash"],
        "actions": ["table_id", "number", "action"],
    }
    for name, expected in columns.items():
        found = [row[1] for row in db.execute(f"PRAGMA table_info({name})")]
        if found != expected:
            return False
    return True
