"""Tables on disk: SQLite (the standard library's ``sqlite3``) holds each table as its
variant (name and overrides), seed, seating and action log.

A table is a recipe, as a saved game is (docs/api.md section 6): the server rebuilds
it by creating the game from variant and seed and applying the logged actions again.
Each action is committed before the server acknowledges it, so a table restored after
a restart is exactly the table its players last saw. Seat tokens are stored only as
their SHA-256 hashes: the database alone does not let anyone act for a seat.

The server writes through one :class:`StoreWriter`: a thread that commits whatever has
been queued since its last commit in one transaction (group commit), so that the
event loop never waits for the disk, and a hundred tables' bots cost one ``fsync`` a
round instead of a hundred. Each write is still committed before the caller's future
is done (and so before any acknowledgement); people's writes go before bots'.

The file is marked as this store's (``PRAGMA application_id`` :data:`APPLICATION_ID`,
``user_version`` :data:`SCHEMA_VERSION`). Before anything is written or the journal
switched, the file is checked: a new or empty file becomes a store; a file of the
first version (the three tables alone, no mark) is marked and kept; anything else
(not SQLite, a directory, another application's database) is refused with a
:class:`StoreError` and left exactly as it was.

A table that expires (tables.py) is first only marked (``expired``, a time): it is no
longer restored, and its rows are deleted later (:meth:`TableStore.put_purge`).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import json
import logging
import os
import sqlite3
import stat
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

log = logging.getLogger("tichu.web")

_Result = TypeVar("_Result")

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
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    time REAL NOT NULL,
    player INTEGER NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT PRIMARY KEY,
    finished REAL NOT NULL,
    summary TEXT NOT NULL,
    game TEXT NOT NULL
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


@dataclass(frozen=True)
class ChatLine:
    """One message of a table's chat (web/chat.py)."""

    time: float
    player: int
    name: str
    text: str


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
    chat: list[ChatLine] = field(default_factory=list)  # its table chat, in order


class TableStore:
    """The SQLite file of the server's tables. Every public write is committed when the
    method returns; the methods may be called from any thread (one lock guards the
    connection). The server writes through a :class:`StoreWriter` instead."""

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
                if upgrade:
                    self._db.execute("ALTER TABLE tables ADD COLUMN touched REAL")
                    self._db.execute("ALTER TABLE tables ADD COLUMN expired REAL")
                # Every table IF NOT EXISTS: a store of an earlier release gains the
                # chat and records tables (web/chat.py, web/records.py) here.
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
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

    # --- writing ----------------------------------------------------------------------
    #
    # Each `put_*` method runs its statements inside a transaction the caller holds
    # (`transaction`, or the writer's batch); `add_table` runs one in a transaction of
    # its own, committed on return.

    def transaction(self, jobs: list[Callable[[], Any]]) -> list[Any]:
        """Run ``jobs`` (``put_*`` calls) in one transaction and commit once: each job's
        answer, or the exception it raised. A job that fails fails alone: the
        transaction is then undone and each job run again in one of its own (the rare
        path; the common one pays no savepoints, each a few more hand-overs of the GIL
        between this thread and the event loop). A failed commit fails them all."""
        with self._lock:
            try:
                return self._all_or_none(jobs)
            except _JobFailed:
                return [self._alone(job) for job in jobs]

    def _all_or_none(self, jobs: list[Callable[[], Any]]) -> list[Any]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            results = []
            for job in jobs:
                try:
                    results.append(job())
                except Exception as error:
                    raise _JobFailed from error
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        return results

    def _alone(self, job: Callable[[], Any]) -> Any:
        try:
            return self._all_or_none([job])[0]
        except _JobFailed as failed:
            return failed.__cause__
        except sqlite3.Error as error:  # its commit
            return error

    def _one(self, job: Callable[[], _Result]) -> _Result:
        (result,) = self.transaction([job])
        if isinstance(result, Exception):
            raise result
        answer: _Result = result
        return answer

    def put_table(self, record: TableRecord) -> None:
        self._db.execute(
            "INSERT INTO tables (id, variant, overrides, seed, created) VALUES (?, ?, ?, ?, ?)",
            (
                record.id,
                record.variant,
                json.dumps(record.overrides, sort_keys=True),
                record.seed,
                record.created,
            ),
        )

    def put_seats(self, table_id: str, seats: list[SeatRecord]) -> None:
        """New occupants (all or none); a place already taken is an IntegrityError."""
        self._db.executemany(
            "INSERT INTO seats (table_id, player, kind, name, token_hash) VALUES (?, ?, ?, ?, ?)",
            [(table_id, s.player, s.kind, s.name, s.token_hash) for s in seats],
        )

    def put_seat_moved(self, table_id: str, old: int, new: int) -> None:
        """The occupant of place ``old`` moves to the free place ``new`` (places.py)."""
        self._db.execute(
            "UPDATE seats SET player = ? WHERE table_id = ? AND player = ?", (new, table_id, old)
        )

    def put_seat_replaced(self, table_id: str, player: int, new: SeatRecord | None) -> None:
        """The occupant of ``player``'s place leaves it: to ``new`` (a bot), or (None) the
        place is free for a newcomer (places.py)."""
        self._db.execute("DELETE FROM seats WHERE table_id = ? AND player = ?", (table_id, player))
        if new is not None:
            self.put_seats(table_id, [new])

    def put_action(self, table_id: str, number: int, action: str) -> None:
        """Action ``number`` (0 for the first) of a table, and the table's last change."""
        self._db.execute(
            "INSERT INTO actions (table_id, number, action) VALUES (?, ?, ?)",
            (table_id, number, action),
        )
        self._db.execute("UPDATE tables SET touched = ? WHERE id = ?", (time.time(), table_id))

    def put_expired(self, table_ids: list[str], when: float) -> None:
        """Mark tables expired: they are not restored any more; :meth:`put_purge` deletes them."""
        self._db.executemany(
            "UPDATE tables SET expired = ? WHERE id = ?", [(when, i) for i in table_ids]
        )

    def put_purge(self, before: float) -> int:
        """Delete the tables that expired before ``before`` (a time), with their seats and
        actions; how many."""
        ids = [
            (row[0],)
            for row in self._db.execute(
                "SELECT id FROM tables WHERE expired IS NOT NULL AND expired < ?", (before,)
            )
        ]
        self._db.executemany("DELETE FROM actions WHERE table_id = ?", ids)
        self._db.executemany("DELETE FROM chat WHERE table_id = ?", ids)
        self._db.executemany("DELETE FROM seats WHERE table_id = ?", ids)
        self._db.executemany("DELETE FROM tables WHERE id = ?", ids)
        return len(ids)

    def put_chat(self, table_id: str, number: int, line: ChatLine) -> None:
        """Message ``number`` (0 for the first) of a table's chat."""
        self._db.execute(
            "INSERT INTO chat (table_id, number, time, player, name, text)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, number, line.time, line.player, line.name, line.text),
        )

    def put_record(
        self, table_id: str, finished: float, summary: str, game: str, keep: int | None = None
    ) -> int:
        """A finished match's record: kept when the table expires (web/records.py). With
        ``keep``, only the newest ``keep`` records stay (:meth:`put_prune_records`): how
        many older ones were deleted."""
        self._db.execute(
            "INSERT OR REPLACE INTO records (table_id, finished, summary, game)"
            " VALUES (?, ?, ?, ?)",
            (table_id, finished, summary, game),
        )
        return 0 if keep is None else self.put_prune_records(keep)

    def put_prune_records(self, keep: int) -> int:
        """Delete every finished match's record but the newest ``keep`` (by the time the
        match ended; at the same time, the later table id stays); how many."""
        cursor = self._db.execute(
            "DELETE FROM records WHERE table_id IN (SELECT table_id FROM records"
            " ORDER BY finished DESC, table_id DESC LIMIT -1 OFFSET ?)",
            (max(0, keep),),
        )
        return cursor.rowcount

    def prune_records(self, keep: int) -> int:
        """:meth:`put_prune_records` in a transaction of its own."""
        return self._one(lambda: self.put_prune_records(keep))

    def records(self, limit: int) -> list[tuple[str, float, str]]:
        """The latest ``limit`` finished matches: (table id, when, summary JSON)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT table_id, finished, summary FROM records ORDER BY finished DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [(row[0], row[1], row[2]) for row in rows]

    def record(self, table_id: str) -> str | None:
        """A finished match's saved game (``Game.to_json``), if there is one."""
        with self._lock:
            row = self._db.execute(
                "SELECT game FROM records WHERE table_id = ?", (table_id,)
            ).fetchone()
        return None if row is None else str(row[0])

    def add_table(self, record: TableRecord) -> None:
        self._one(lambda: self.put_table(record))

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
            chat = self._db.execute(
                "SELECT table_id, time, player, name, text FROM chat ORDER BY table_id, number"
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
        for table_id, *line in chat:
            if table_id in records:
                records[table_id].chat.append(ChatLine(*line))
        return list(records.values())


class StoreLock:
    """One server per store: an exclusive ``flock`` on the file ``<db>.lock`` beside the
    store, held for the server's life (the kernel lets it go when the process ends,
    however it ends). A second server on the same store gets a :class:`StoreError`
    naming the first's process id, before it reads or writes the store. The path is
    checked first (:func:`_check_file`): no lock file is made beside a path refused."""

    def __init__(self, db: str | Path) -> None:
        _check_file(Path(db))
        self.path = Path(f"{db}.lock")
        self.created = False
        flags = os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
        try:
            try:
                self._fd = os.open(self.path, flags | os.O_CREAT | os.O_EXCL, 0o644)
                self.created = True
            except FileExistsError:
                self._fd = os.open(self.path, flags)
        except OSError as error:
            raise StoreError(
                f"{self.path}: the store's lock cannot be opened ({error.strerror})"
            ) from None
        try:
            if not stat.S_ISREG(os.fstat(self._fd).st_mode):
                raise StoreError(f"{self.path}: the store's lock is not a regular file; refused")
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(self._fd, 32, 0).decode("ascii", "replace").strip()
                raise StoreError(
                    f"{db}: another tichu serve (process {holder or 'unknown'}) is using this "
                    f"store (it holds {self.path}); refused, nothing changed"
                ) from None
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)
        except BaseException:
            os.close(self._fd)
            raise

    def release(self, remove: bool = False) -> None:
        """Let the lock go (``remove``: delete the lock file first, while still held)."""
        if self._fd < 0:
            return
        if remove:
            with contextlib.suppress(OSError):
                self.path.unlink()
        os.close(self._fd)
        self._fd = -1


class StoreWriter:
    """The one thread that writes a :class:`TableStore` for the server.

    :meth:`submit` queues a job (a ``put_*`` call) and returns a future that is done
    once the job is committed (or failed: then with its exception, its writes undone).
    The thread takes every job queued since its last commit, people's (``urgent``)
    before the rest, at most ``batch`` of the rest at a time, and commits them in one
    transaction: the event loop never waits for the disk, and many tables' writes
    share one ``fsync``. Jobs commit in the order they were queued within each lane,
    so a table whose writes are queued one after another (tables.py does) is stored in
    order. :meth:`close` commits everything still queued, then stops the thread."""

    def __init__(self, store: TableStore, batch: int = 256) -> None:
        self.store = store
        self.batch = batch
        self._ready = threading.Condition()
        self._lanes: tuple[deque[_Job], deque[_Job]] = (deque(), deque())  # urgent, rest
        self._closing = False
        self._thread: threading.Thread | None = None
        self.commits = 0  # batches committed (for tests and figures)

    def submit(self, job: Callable[[], _Result], *, urgent: bool = False) -> Future[_Result]:
        done: Future[_Result] = Future()
        with self._ready:
            if self._closing:
                raise RuntimeError("the store's writer is closed")
            self._lanes[0 if urgent else 1].append((job, done))
            if self._thread is None:
                # Daemon: a lobby that is never closed (a test) does not hold up the
                # interpreter's exit; the server closes it, which commits the queue.
                self._thread = threading.Thread(target=self._run, name="store writer", daemon=True)
                self._thread.start()
            self._ready.notify()
        return done

    async def write(self, job: Callable[[], _Result], *, urgent: bool = False) -> _Result:
        """Queue ``job`` and wait, without holding up the event loop, until it is
        committed; its answer, or its exception raised here."""
        return await asyncio.wrap_future(self.submit(job, urgent=urgent))

    def close(self) -> None:
        """Commit every job still queued and stop the thread (blocks until then)."""
        with self._ready:
            self._closing = True
            self._ready.notify()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _take(self) -> list[_Job] | None:
        with self._ready:
            while not any(self._lanes) and not self._closing:
                self._ready.wait()
            urgent, rest = self._lanes
            if not urgent and not rest:
                return None  # closing, and nothing left
            taken = list(urgent)
            urgent.clear()
            for _ in range(min(self.batch, len(rest))):
                taken.append(rest.popleft())
            return taken

    def _run(self) -> None:
        while (taken := self._take()) is not None:
            # A job whose caller gave up before it ran (a cancelled future) is skipped.
            jobs = [(job, done) for job, done in taken if done.set_running_or_notify_cancel()]
            if not jobs:
                continue
            try:
                results = self.store.transaction([job for job, _ in jobs])
            except Exception as error:  # the commit (or the database) failed: all of them
                log.exception("committing %d write(s) to the table store failed", len(jobs))
                results = [error] * len(jobs)
            else:
                self.commits += 1
            for (_, done), result in zip(jobs, results, strict=True):
                if isinstance(result, Exception):
                    done.set_exception(result)
                else:
                    done.set_result(result)


_Job = tuple[Callable[[], Any], "Future[Any]"]


class _JobFailed(Exception):
    """A job of a transaction raised (its exception is the cause)."""


def _check_file(path: Path) -> None:
    """Refuse a path that cannot be a store before SQLite touches it: a directory,
    anything else that is not a regular file (a FIFO would hang the reader), or a file
    that is not SQLite (an empty file is a new store)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise StoreError(f"{path}: cannot be read ({error.strerror})") from None
    if stat.S_ISDIR(mode):
        raise StoreError(f"{path}: is a directory, not an SQLite file")
    if not stat.S_ISREG(mode):
        raise StoreError(
            f"{path}: not a regular file (a FIFO, socket or device); refused, nothing changed"
        )
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
