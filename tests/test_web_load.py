"""A bounded load test of the web table on loopback: 50 WebSocket clients (40 players
acting at random with a short think time, 10 spectators) on 10 standard tables for
LOAD_SECONDS (10 s, at most 30 s), against uvicorn in this process. It reports the
latency of the actions (request sent -> ``ack`` received) as percentiles, and checks
that every table's stored log replays to exactly the live game, that nothing was
refused, and that spectators never got a private event or a legal action.

The clients and the server share this process (and its GIL), so the figures are an
upper bound of what the server alone would show.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from webtable import my_turn, random_action, running_server

import tichu_core as tc
from tichu_core.frontends.web.app import create_app
from tichu_core.frontends.web.store import TableStore
from tichu_core.frontends.web.tables import Lobby

TABLES = 10
PLAYERS = 4
LOAD_SECONDS = 10.0
THINK = 0.05  # seconds a player client waits before acting: under the 20 messages/s limit
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

assert LOAD_SECONDS <= 30


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.refusals: list[dict[str, Any]] = []
        self.messages = 0
        self.spectator_problems: list[str] = []


async def request(ws: ClientConnection, stats: Stats, **message: Any) -> dict[str, Any]:
    await ws.send(json.dumps({**message, "id": "setup"}))
    while True:
        reply: dict[str, Any] = json.loads(await ws.recv())
        stats.messages += 1
        if reply.get("id") == "setup":
            return reply


async def received(
    ws: ClientConnection, stop: float, stats: Stats
) -> AsyncIterator[dict[str, Any]]:
    """The messages a client receives until ``stop`` (a monotonic time), each counted."""
    while time.monotonic() < stop:
        try:
            text = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
        except TimeoutError:
            return
        stats.messages += 1
        yield json.loads(text)


async def player(url: str, table_id: str, seat: int, stop: float, stats: Stats) -> None:
    rng = random.Random(f"{table_id}-{seat}")
    async with connect(url) as ws:
        seated = await request(ws, stats, type="sit", table=table_id, player=seat)
        token = seated["token"]
        state: dict[str, Any] | None = None
        sent_at: float | None = None
        number = 0
        async for message in received(ws, stop, stats):
            if message["type"] == "state":
                state = message
            elif message["type"] == "ack" and sent_at is not None:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            elif message["type"] == "error":
                stats.refusals.append(message)
                sent_at = None
            if state is None or sent_at is not None or my_turn(state) is None:
                continue
            if state["table"]["status"] != "playing":
                continue
            await asyncio.sleep(THINK)
            acting = my_turn(state)
            assert acting is not None
            number += 1
            action = random_action(state, acting, rng)
            sent_at = time.perf_counter()
            await ws.send(
                json.dumps({"type": "act", "token": token, "action": action, "id": number})
            )
            state = None  # act on the state that follows this action, not on this one


async def spectator(url: str, table_id: str, stop: float, stats: Stats) -> None:
    async with connect(url) as ws:
        await request(ws, stats, type="watch", table=table_id)
        async for message in received(ws, stop, stats):
            if message["type"] != "state":
                continue
            if message["legal"] or any(e["visible_to"] is not None for e in message["events"]):
                if any(e["type"] != "hand_shown" for e in message["events"] if e["visible_to"]):
                    stats.spectator_problems.append(f"{table_id}: {message['events']}")
                if message["legal"]:
                    stats.spectator_problems.append(f"{table_id}: legal {message['legal']}")


async def load(url: str, stats: Stats) -> list[str]:
    async with connect(url) as ws:
        await ws.recv()  # welcome
        ids = []
        for _ in range(TABLES):
            reply = await request(ws, stats, type="create", variant="standard")
            ids.append(reply["table"]["id"])
    stop = time.monotonic() + LOAD_SECONDS
    clients = [player(url, t, seat, stop, stats) for t in ids for seat in range(PLAYERS)]
    clients += [spectator(url, t, stop, stats) for t in ids]
    assert len(clients) == 50
    await asyncio.gather(*clients)
    return ids


def test_fifty_clients_on_ten_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "tables.db"
    app = create_app(db)  # the default limits
    stats = Stats()
    with running_server(app) as address:
        url = address.replace("http://", "ws://") + "/ws"
        started = time.monotonic()
        ids = asyncio.run(load(url, stats))
        elapsed = time.monotonic() - started
        lobby: Lobby = app.state.lobby()
        live = {table_id: lobby.tables[table_id] for table_id in ids}
        # Every table's stored log, replayed by a store opened afresh, is the live game:
        # compared once the tables are quiet (the actions the clients sent last may
        # still be on their way to the store when the clients stop: half a second with
        # no action taken).
        deadline = time.monotonic() + 10
        seen = [len(t.record.actions) for t in live.values()]
        while True:
            time.sleep(0.5)
            now = [len(t.record.actions) for t in live.values()]
            if now == seen:
                break
            assert time.monotonic() < deadline, "the tables never came to rest"
            seen = now
        store = TableStore(db)
        records = {record.id: record for record in store.load()}
        store.close()
        for table_id, table in live.items():
            assert table.game is not None and table.status == "playing", table.info()
            record = records[table_id]
            assert record.actions == table.record.actions and len(record.actions) > 20
            game = tc.Game(tc.load_variant(record.variant), seed=record.seed)
            for action in record.actions:
                game.apply(action)
            assert game.to_json() == table.game.to_json()
            restored = tc.Game.from_json(table.game.to_json())
            for who in [*range(PLAYERS), None]:
                assert restored.observation(who) == table.game.observation(who)
                assert game.observation(who) == table.game.observation(who)
        actions = sum(len(t.record.actions) for t in live.values())
        hands = sum(len(t.game.hand_results) for t in live.values() if t.game is not None)
    assert not stats.refusals, stats.refusals[:3]
    assert not stats.spectator_problems, stats.spectator_problems[:3]
    latencies = sorted(stats.latencies)
    assert len(latencies) > 200
    cuts = statistics.quantiles(latencies, n=100)
    report = {
        "clients": 50,
        "tables": TABLES,
        "seconds": round(elapsed, 1),
        "actions": actions,
        "actions_per_second": round(actions / LOAD_SECONDS, 1),
        "hands_finished": hands,
        "messages_received": stats.messages,
        "latency_ms": {
            "p50": round(cuts[49] * 1000, 2),
            "p90": round(cuts[89] * 1000, 2),
            "p99": round(cuts[98] * 1000, 2),
            "max": round(latencies[-1] * 1000, 2),
        },
    }
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "web_load.json").write_text(json.dumps(report, indent=2) + "\n")
    with capsys.disabled():
        print(f"\nweb table load test: {json.dumps(report)}")
    assert report["latency_ms"]["p50"] < 500  # a sanity bound, not a speed claim
