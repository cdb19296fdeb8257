"""The web store's writer thread (store.py, ``StoreWriter``): group commit off the event
loop. A write is committed before its future is done; people's writes go before
bots'; a failing write fails alone; closing commits whatever is still queued; a
table's actions, several on their way at once, are stored in the order they were
applied and the table comes back exactly after a restart; the event loop goes on
while a write waits for the disk.

The writer is held at a gate (a job that waits for a ``threading.Event``) wherever a
test needs writes to be queued behind one another: nothing here depends on timing."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from pathlib import Path

import pytest
from webtable import FAST, Gate

import tichu_core as tc
from tichu_core.frontends.web.store import SeatRecord, StoreWriter, TableRecord, TableStore
from tichu_core.frontends.web.tables import Lobby


def new_store(path: Path, tables: int = 1) -> TableStore:
    store = TableStore(path)
    for number in range(tables):
        store.add_table(TableRecord(id=f"t{number}", variant="standard", overrides={}, seed=1))
    return store


def stored_actions(path: Path) -> dict[str, list[str]]:
    """Each table's actions as a second connection reads them (committed ones only)."""
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT table_id, action FROM actions ORDER BY table_id, number")
        found: dict[str, list[str]] = {}
        for table_id, action in rows:
            found.setdefault(table_id, []).append(action)
    return found


def test_queued_writes_share_one_commit_and_a_persons_go_first(tmp_path: Path) -> None:
    store = new_store(tmp_path / "t.db")
    writer = StoreWriter(store)
    gate = Gate()
    gate.hold(writer)
    ran: list[str] = []

    def action(number: int, who: str) -> None:
        ran.append(who)
        store.put_action("t0", number, f'"{who}"')

    bots = [writer.submit(lambda n=n: action(n, f"bot {n}")) for n in range(10)]
    person = writer.submit(lambda: action(10, "person"), urgent=True)
    gate.open()
    person.result(timeout=60)
    for done in bots:
        done.result(timeout=60)
    # The person's write, queued last, ran first; all eleven took one transaction.
    assert ran[0] == "person" and ran[1:] == [f"bot {n}" for n in range(10)]
    assert writer.commits == 2  # the gate's, then the eleven writes'
    writer.close()
    # Stored by number, as the table applied them.
    assert stored_actions(tmp_path / "t.db")["t0"] == [
        *(f'"bot {n}"' for n in range(10)),
        '"person"',
    ]
    store.close()


def test_a_batch_holds_at_most_batch_bot_writes_and_never_keeps_a_person_waiting(
    tmp_path: Path,
) -> None:
    store = new_store(tmp_path / "t.db")
    writer = StoreWriter(store, batch=3)
    gate = Gate()
    gate.hold(writer)
    batches: list[int] = []
    bots = [writer.submit(lambda n=n: store.put_action("t0", n, "{}")) for n in range(7)]
    person = writer.submit(lambda: batches.append(writer.commits), urgent=True)
    gate.open()
    for done in [person, *bots]:
        done.result(timeout=60)
    assert batches == [1]  # in the first transaction after the gate's, before any bot's
    assert writer.commits == 1 + 3  # the gate, then 3 + 3 + 1 bot writes
    writer.close()
    store.close()


def test_a_failing_write_fails_alone_and_leaves_nothing(tmp_path: Path) -> None:
    store = new_store(tmp_path / "t.db", tables=2)
    writer = StoreWriter(store)
    gate = Gate()
    gate.hold(writer)

    def half_then_fail() -> None:
        store.put_action("t1", 0, '"half"')
        raise OSError("disk full")

    first = writer.submit(lambda: store.put_action("t0", 0, '"first"'))
    failing = writer.submit(half_then_fail)
    taken = writer.submit(  # place 0 of t0 is taken in the same transaction: refused
        lambda: store.put_seats("t0", [SeatRecord(0, "human", "A"), SeatRecord(0, "bot", "B")])
    )
    last = writer.submit(lambda: store.put_action("t0", 1, '"last"'))
    gate.open()
    first.result(timeout=60)
    last.result(timeout=60)
    with pytest.raises(OSError, match="disk full"):
        failing.result(timeout=60)
    with pytest.raises(sqlite3.IntegrityError):
        taken.result(timeout=60)
    writer.close()
    assert stored_actions(tmp_path / "t.db") == {"t0": ['"first"', '"last"']}
    assert store.load()[0].seats == []  # all of that write or none of it
    store.close()


def test_closing_commits_every_write_still_queued(tmp_path: Path) -> None:
    store = new_store(tmp_path / "t.db")
    writer = StoreWriter(store, batch=16)
    gate = Gate()
    gate.hold(writer)
    queued = [writer.submit(lambda n=n: store.put_action("t0", n, str(n))) for n in range(100)]
    closing = threading.Thread(target=writer.close)
    closing.start()  # close() waits for the queue, held at the gate
    gate.open()
    closing.join(timeout=60)
    assert not closing.is_alive()
    assert all(done.done() and done.exception() is None for done in queued)
    store.close()
    assert stored_actions(tmp_path / "t.db")["t0"] == [str(n) for n in range(100)]
    with pytest.raises(RuntimeError, match="closed"):
        writer.submit(lambda: None)


def test_a_tables_actions_on_their_way_at_once_are_stored_in_order_and_restored(
    tmp_path: Path,
) -> None:
    """S-DEAL-2: the four Grand Tichu decisions are taken in any order, so the two
    people's and the two bots' are all on their way together. Each is stored under the
    number it was applied as (two at once under one number would be refused by the
    store's key, and that person would get `storage_error`), and a lobby started afresh
    on the file has exactly the game the first one played."""
    db = tmp_path / "t.db"

    async def play() -> tuple[str, list[int], list[str], str]:
        lobby = Lobby(TableStore(db), limits=FAST)
        table = await lobby.create("standard", None, {"2": "greedy", "3": "greedy"})
        people = [await lobby.sit(table.id, player, f"P{player}") for player in (0, 1)]
        decisions = [
            lobby.act(token, {"type": "grand_tichu", "seat": player, "call": False})
            for _, player, token in people
        ]
        acks = [version for _, version in await asyncio.gather(*decisions)]
        for _ in range(10_000):  # the bots play on until the game waits for a person
            task = table._bot_task
            if (task is None or task.done()) and table._writing is None:
                break
            await asyncio.sleep(0.001)
        assert stored_actions(db)[table.id] == table.record.actions
        await lobby.close()
        lobby.store.close()
        assert table.game is not None
        return table.id, acks, list(table.record.actions), table.game.to_json()

    table_id, acks, actions, played = asyncio.run(play())
    assert len(set(acks)) == 2 and all(1 <= version <= 4 for version in acks)
    decided = [tc.action_from_json(json.loads(action)) for action in actions[:4]]
    assert sorted(action.seat for action in decided) == [0, 1, 2, 3]
    restarted = Lobby(TableStore(db))
    restarted.restore()
    again = restarted.tables[table_id]
    assert again.record.actions == actions
    assert again.game is not None and again.game.to_json() == played
    restarted.store.close()


class Watcher:
    """A follower that counts the times it is told the table changed."""

    player = None

    def __init__(self) -> None:
        self.told = 0

    def table_changed(self) -> None:
        self.told += 1


def test_the_event_loop_goes_on_while_an_action_waits_for_the_disk(tmp_path: Path) -> None:
    """Before, the commit ran on the event loop: nothing else ran until the disk had
    answered. Now a person's action waits for its commit while the loop serves others,
    and is acknowledged, and shown to the table's followers, only once it is stored."""

    async def scene() -> None:
        lobby = Lobby(TableStore(tmp_path / "t.db"), limits=FAST)
        table = await lobby.create("standard", None, {"1": "greedy", "2": "greedy"})
        table.start_bots = lambda: None  # type: ignore[method-assign]  # no bots running
        _, _, token = await lobby.sit(table.id, 3, "Pat")
        await lobby.sit(table.id, 0, "Ann")
        watcher = Watcher()
        table.followers.add(watcher)
        gate = Gate()
        await asyncio.to_thread(gate.hold, lobby.writer)
        acting = asyncio.create_task(
            lobby.act(token, {"type": "grand_tichu", "seat": 3, "call": False})
        )
        while table._writing is None:  # the action is applied and on its way ...
            await asyncio.sleep(0)
        for _ in range(100):  # ... and the loop goes on while the disk keeps it waiting
            await asyncio.sleep(0)
        assert not acting.done() and table.version == 0 and watcher.told == 0
        gate.open()
        _, version = await acting
        assert version == 1 and table.version == 1 and watcher.told == 1
        assert stored_actions(tmp_path / "t.db")[table.id] == table.record.actions
        await lobby.close()
        lobby.store.close()

    asyncio.run(scene())
