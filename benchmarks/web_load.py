"""A hostile load on `tichu serve`, run by hand (not in CI): docs/web.md section 6.

    PYTHONPATH=. .venv/bin/python benchmarks/web_load.py [--seconds 90] [--actions N]

It starts `python -m tichu_core serve` on loopback (default bot delay, a fresh
SQLite file) and gives it:

- 1,000 tables: 99 with four bots, one with a person and three bots (a match to
  5,000 points, so that a long run stays in one match), 900 waiting for people;
- 20 connections that ask for the table list as often as the rate limit lets them
  and never read a reply (each one the server drops comes back at once);
- one person playing at random whatever the server lists for it.

It reports the server's RSS (sampled every half second), the person's action
latency (``act`` sent -> ``ack`` received) as percentiles, whether every table's
stored log replays, and how long Ctrl-C (SIGINT) takes to stop the server. Targets:
RSS under 400 MB, p99 under 100 ms, every log replays, Ctrl-C under 5 s. The
figures depend on the machine: the load and the server share its cores.

    PYTHONPATH=. .venv/bin/python benchmarks/web_load.py --scenario bots [--seconds 60]
        [--tables 5] [--watchers 8] [--bot-delay 0.5]

The bots scenario (issue 42) gives a server with the default limits the most
expensive bots one client may seat: 60 `search-strong` bots at five 12-place Grand
Seigneur tables (``--tables``); with ``--watchers N``, N connections that ask to
watch a long match (``--hands``, played beforehand by greedy bots and stored) from
event 0 twenty times a second each, reading everything. Meanwhile another client
pings every 50 ms, and four people (one connection each) play a standard table at
random with a 50 ms think time. It reports the ping's and the people's act -> ack
percentiles (target: p99 under 100 ms), the bytes the watchers received, the bot
answers over their time budget and the tables that failed (from the server's log).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection, connect

import tichu_core as tc
from tichu_core.frontends.web.store import TableStore

# The person plays as the web tests' random player does (tests/webtable.py): one copy.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from webtable import random_action  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[1]
BOTS = {str(p): "greedy" for p in range(4)}
TABLES, BOT_TABLES, SILENT = 1000, 100, 20


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(port: int, db: Path, log: Any, extra: list[str]) -> subprocess.Popen[bytes]:
    """`tichu serve` on ``port`` and ``db`` with the options ``extra``, its log to ``log``
    (a file: a pipe nobody reads would stop the server once full)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "tichu_core", "serve", "--port", str(port), "--db", str(db)]
    command += extra
    return subprocess.Popen(command, env=env, stderr=log, stdout=subprocess.DEVNULL)


def wait_until_serving(server: subprocess.Popen[bytes], port: int) -> None:
    """Wait until ``server`` accepts connections on ``port``, 60 s at most."""
    deadline = time.monotonic() + 60
    while True:
        if server.poll() is not None:
            raise SystemExit("the server did not start (see server.log)")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        if time.monotonic() > deadline:
            raise SystemExit("the server did not start in 60 s")
        time.sleep(0.1)


def interrupt(server: subprocess.Popen[bytes]) -> float:
    """Ctrl-C to ``server``: the seconds it took to stop (60 at most)."""
    interrupted = time.monotonic()
    server.send_signal(signal.SIGINT)
    server.wait(timeout=60)
    return round(time.monotonic() - interrupted, 2)


def kill(server: subprocess.Popen[bytes]) -> None:
    """Stop ``server`` if it still runs (the run failed before its Ctrl-C)."""
    if server.poll() is None:
        server.kill()
        server.wait()


async def request(ws: ClientConnection, **message: Any) -> dict[str, Any]:
    await ws.send(json.dumps({**message, "id": "r"}))
    while True:
        reply: dict[str, Any] = json.loads(await ws.recv())
        if reply.get("id") == "r":
            return reply


async def create_tables(url: str) -> str:
    """Every table, 20 creates a second per connection (the rate limit) over 50 of them;
    the person's table's id."""

    # The server keeps a client's connections that have not sent their request yet to a
    # few (`Limits.pending_per_client`, the oldest closed): one client opening 50 at
    # once would lose some, so they open a few at a time.
    opening = asyncio.Semaphore(8)

    async def some(kinds: list[dict[str, str] | None]) -> list[str]:
        ids = []
        async with opening:
            ws = await connect(url, max_size=None)
        async with ws:
            await ws.recv()  # welcome
            for bots in kinds:
                # The server's cap on a match's length (docs/web.md section 5).
                overrides = {"game.target": 5000} if bots is with_person else {}
                reply = await request(
                    ws, type="create", variant="standard", bots=bots or {}, overrides=overrides
                )
                assert reply["type"] == "created", reply
                ids.append(reply["table"]["id"])
                await asyncio.sleep(0.05)
        return ids

    # The person's table (a name apart from the coroutine `person` below).
    with_person = {"1": "greedy", "2": "greedy", "3": "greedy"}
    kinds: list[dict[str, str] | None] = [with_person]
    kinds += [BOTS] * (BOT_TABLES - 1)
    kinds += [None] * (TABLES - BOT_TABLES)
    groups = [kinds[i::50] for i in range(50)]
    ids = await asyncio.gather(*(some(group) for group in groups))
    return ids[0][0]


def silent_clients(port: int, stop: threading.Event, counts: dict[str, int]) -> None:
    """SILENT connections asking for the table list 20 times a second, never reading;
    one that the server drops connects again."""
    import base64

    def opened() -> socket.socket:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(5)
        sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        sock.settimeout(0.001)
        counts["connections"] += 1
        return sock

    payload = b'{"type":"tables"}'
    mask = b"\x01\x02\x03\x04"
    frame = bytes([0x81, 0x80 | len(payload)]) + mask
    frame += bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    sockets = [opened() for _ in range(SILENT)]
    while not stop.is_set():
        for index, sock in enumerate(sockets):
            try:
                sock.sendall(frame)
                counts["requests"] += 1
            except (TimeoutError, BlockingIOError):
                pass  # our send buffer is full: the server is not reading us either
            except OSError:  # dropped by the server
                counts["dropped"] += 1
                sock.close()
                with contextlib.suppress(OSError):
                    sockets[index] = opened()
        time.sleep(0.05)
    for sock in sockets:
        sock.close()


async def next_message(ws: ClientConnection, timeout: float) -> dict[str, Any] | None:
    """The next message, or None if none comes within ``timeout`` seconds."""
    try:
        text = await asyncio.wait_for(ws.recv(), timeout=timeout)
    except TimeoutError:
        return None
    message: dict[str, Any] = json.loads(text)
    return message


def playable(state: dict[str, Any]) -> list[int]:
    """The seats of a state's player that the table waits for and that have legal
    actions listed."""
    return [s for s in state["observation"]["waiting_for"] if str(s) in state["legal"]]


async def act_at_random(
    ws: ClientConnection, token: str, state: dict[str, Any], seat: int, rng: random.Random
) -> float:
    """Send a random legal action of ``seat``; when it was sent (its act -> ack time is
    measured from there)."""
    action = random_action(state, seat, rng)
    sent = time.perf_counter()
    await ws.send(json.dumps({"type": "act", "token": token, "action": action}))
    return sent


def acknowledged(message: dict[str, Any], sent: float | None, latencies: list[float]) -> int:
    """An ack of the action sent at ``sent``: its act -> ack time recorded; the version
    it acknowledges."""
    assert sent is not None
    latencies.append(time.perf_counter() - sent)
    version: int = message["version"]
    return version


async def person(
    url: str, table_id: str, seconds: float, actions: int | None, latencies: list[float]
) -> int:
    """Play at random for ``seconds``, or until ``actions`` actions are acknowledged;
    the table's version at the end."""
    rng = random.Random(26)
    async with connect(url, max_size=None) as ws:
        await ws.recv()  # welcome
        seated = await request(ws, type="sit", table=table_id, player=0)
        token = seated["token"]
        stop = time.monotonic() + seconds
        state: dict[str, Any] | None = None
        pending: float | None = None
        version = 0
        while time.monotonic() < stop and (actions is None or len(latencies) < actions):
            message = await next_message(ws, stop - time.monotonic())
            if message is None:
                break
            if message["type"] == "ack":
                version = max(version, acknowledged(message, pending, latencies))
                pending = None
            elif message["type"] == "error":
                raise SystemExit(f"the person's action was refused: {message}")
            elif message["type"] == "state":
                state = message
                version = max(version, message["version"])
            if pending is not None or state is None or state["version"] < version:
                continue
            if state["table"]["status"] != "playing":
                break
            waiting = playable(state)
            if waiting:
                pending = await act_at_random(ws, token, state, waiting[0], rng)
        return version


def sample_rss(pid: int, stop: threading.Event, samples: list[float]) -> None:
    process = psutil.Process(pid)
    while not stop.is_set():
        with contextlib.suppress(psutil.Error):
            samples.append(process.memory_info().rss / 2**20)
        time.sleep(0.5)


def replays(db: Path) -> tuple[int, int, int]:
    """(tables whose stored log replays, tables, actions) in the store."""
    store = TableStore(db)
    try:
        records = store.load()
    finally:
        store.close()
    good = 0
    for record in records:
        try:
            variant = tc.load_variant(record.variant, overrides=record.overrides or None)
            game = tc.Game(variant, seed=record.seed)
            for action in record.actions:
                game.apply(action)
        except tc.TichuError as error:
            print(f"table {record.id} does not replay: {error}", file=sys.stderr)
            continue
        good += 1
    return good, len(records), sum(len(record.actions) for record in records)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# --------------------------------------------------------------------------- issue 42

EXPENSIVE = "search-strong"  # the slowest bundled bot


class _Enough(Exception):
    pass


def long_match(db: Path, hands: int) -> str:
    """A standard match of greedy bots played for ``hands`` hands, written into the
    (new) store ``db`` as a table the server restores: its id."""
    from tichu_core.frontends.bots import make_bot
    from tichu_core.frontends.bots.protocol import play_match
    from tichu_core.frontends.web.store import SeatRecord, TableRecord

    overrides = {"game.target": 5000}
    game = tc.Game(tc.load_variant("standard", overrides=overrides), seed=42)
    actions: list[str] = []

    def record(action: tc.Action, _: Any) -> None:
        actions.append(json.dumps(tc.action_to_dict(action), separators=(",", ":")))
        if game.hand_index >= hands:
            raise _Enough

    with contextlib.suppress(_Enough):
        play_match(game, [make_bot("greedy", p) for p in range(4)], on_action=record)
    store = TableStore(db)
    try:
        record_ = TableRecord(id="longmatch", variant="standard", overrides=overrides, seed=42)
        record_.seats = [SeatRecord(p, "bot", "greedy") for p in range(4)]
        store.add_table(record_)
        store.transaction([lambda: store.put_seats(record_.id, record_.seats)])
        store.transaction(
            [functools.partial(store.put_action, record_.id, i, a) for i, a in enumerate(actions)]
        )
    finally:
        store.close()
    return record_.id


async def expensive_bots(url: str, tables: int, size: int) -> list[str]:
    """``tables`` Grand Seigneur tables of ``size`` places, every place a search-strong
    bot, created by one client (the per-client limits allow 60 bots: 5 x 12)."""
    ids = []
    async with connect(url, max_size=None) as ws:
        await ws.recv()  # welcome
        for _ in range(tables):
            reply = await request(
                ws,
                type="create",
                variant="grand_seigneur",
                overrides={"players": size},
                bots={str(p): EXPENSIVE for p in range(size)},
            )
            assert reply["type"] == "created", reply
            ids.append(reply["table"]["id"])
    return ids


async def pinger(url: str, stop: float, latencies: list[float]) -> None:
    """Another client: a ping every 50 ms, its round trip recorded."""
    async with connect(url, max_size=None) as ws:
        await ws.recv()
        while time.monotonic() < stop:
            sent = time.perf_counter()
            await request(ws, type="ping")
            latencies.append(time.perf_counter() - sent)
            await asyncio.sleep(0.05)


async def people(url: str, stop: float, latencies: list[float]) -> int:
    """A standard table of four people (this client at every place, one connection
    each, so that every state is read), acting at random after a 50 ms think time:
    each action's act -> ack time recorded. The table's version at the end."""
    rng = random.Random(42)
    async with connect(url, max_size=None) as first:
        await first.recv()
        created = await request(first, type="create", variant="standard")
        table_id = created["table"]["id"]
    sockets = []
    tokens = []
    for player in range(4):
        ws = await connect(url, max_size=None)
        await ws.recv()
        seated = await request(ws, type="sit", table=table_id, player=player)
        sockets.append(ws)
        tokens.append(seated["token"])
    version = 0

    async def player_loop(player: int) -> None:
        nonlocal version
        ws, token = sockets[player], tokens[player]
        state: dict[str, Any] | None = None
        pending: float | None = None
        while time.monotonic() < stop:
            message = await next_message(ws, max(0.01, stop - time.monotonic()))
            if message is None:
                return
            if message["type"] == "ack":
                version = max(version, acknowledged(message, pending, latencies))
                pending = None
            elif message["type"] == "error":
                if message["code"] in ("illegal_action", "hand_over"):
                    pending = None  # another place's action went first: wait for the state
                    continue
                raise SystemExit(f"a person's action was refused: {message}")
            elif message["type"] == "state":
                state = message
            if pending is not None or state is None or state["version"] < version:
                continue
            if state["table"]["status"] == "waiting":
                continue  # the other places are being taken
            if state["table"]["status"] != "playing":
                return
            waiting = playable(state)
            if waiting:
                await asyncio.sleep(0.05)
                pending = await act_at_random(ws, token, state, waiting[0], rng)
                state = None  # the next action waits for the state after this one

    try:
        await asyncio.gather(*(player_loop(p) for p in range(4)))
    finally:
        for ws in sockets:
            await ws.close()
    return version


async def watchers(url: str, table_id: str, count: int, stop: float, sent: list[int]) -> None:
    """``count`` connections each asking to watch ``table_id`` from event 0 as often as
    the rate limit lets them (20 a second) and reading every byte sent."""

    async def one() -> None:
        async with connect(url, max_size=None) as ws:
            await ws.recv()
            watch = json.dumps({"type": "watch", "table": table_id, "since": 0})

            async def reader() -> None:
                async for text in ws:
                    sent[0] += len(text)

            reading = asyncio.create_task(reader())
            while time.monotonic() < stop:
                await ws.send(watch)
                await asyncio.sleep(0.05)
            reading.cancel()

    await asyncio.gather(*(one() for _ in range(count)))


def ms_figures(values: list[float]) -> dict[str, float]:
    ms = [1000 * x for x in values]
    if not ms:
        return {}
    return {
        "n": len(ms),
        "p50": round(statistics.median(ms), 1),
        "p90": round(percentile(ms, 0.90), 1),
        "p99": round(percentile(ms, 0.99), 1),
        "max": round(max(ms), 1),
    }


def bots_scenario(args: argparse.Namespace) -> int:
    """Issue 42 items 3 and 4: the most expensive bots one client may seat (60
    search-strong bots at five 12-place Grand Seigneur tables) and ``--watchers``
    connections re-watching a long match from event 0, while another client pings and
    four people play a standard table: the ping's and the people's act -> ack times."""
    work = Path(tempfile.mkdtemp(prefix="tichu-web-load-"))
    db = work / "tables.db"
    port = free_port()
    url = f"ws://127.0.0.1:{port}/ws"
    long_id = long_match(db, args.hands) if args.watchers else None
    log = (work / "server.log").open("wb")
    server = start_server(port, db, log, ["--bot-delay", str(args.bot_delay)])
    figures: dict[str, Any] = {
        "scenario": "bots",
        "seconds": args.seconds,
        "bot_delay": args.bot_delay,
        "expensive_tables": args.tables,
        "watchers": args.watchers,
        "work": str(work),
        "load_before": [round(x, 2) for x in os.getloadavg()],
    }
    stop_sampling = threading.Event()
    rss: list[float] = []
    try:
        wait_until_serving(server, port)
        threading.Thread(
            target=sample_rss, args=(server.pid, stop_sampling, rss), daemon=True
        ).start()
        pings: list[float] = []
        acts: list[float] = []
        watched = [0]

        async def run() -> int:
            if args.tables:
                await expensive_bots(url, args.tables, 12)
            stop = time.monotonic() + args.seconds
            jobs: list[Any] = [pinger(url, stop, pings), people(url, stop, acts)]
            if long_id is not None:
                jobs.append(watchers(url, long_id, args.watchers, stop, watched))
            results = await asyncio.gather(*jobs)
            version: int = results[1]
            return version

        figures["people_table_version"] = asyncio.run(run())
        figures["load_after"] = [round(x, 2) for x in os.getloadavg()]
        figures["ping_ms"] = ms_figures(pings)
        figures["act_ms"] = ms_figures(acts)
        figures["watch_bytes_received"] = watched[0]
        figures["rss_max_mb"] = round(max(rss), 1) if rss else None
        figures["ctrl_c_seconds"] = interrupt(server)
    finally:
        stop_sampling.set()
        kill(server)
    log.close()
    text = (work / "server.log").read_text(errors="replace")
    figures["bot_answers_over_budget"] = text.count("answered for it")
    figures["tables_failed"] = text.count("failed:")
    good, total, actions = replays(db)
    figures["tables_replaying"] = f"{good} of {total}"
    figures["actions_stored"] = actions
    print(json.dumps(figures, indent=2))
    met = figures["ping_ms"].get("p99", 1e9) < 100 and figures["act_ms"].get("p99", 1e9) < 100
    print("every target met" if met else "a target was missed", file=sys.stderr)
    return 0 if met else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=90.0, help="how long the person plays")
    parser.add_argument(
        "--actions",
        type=int,
        default=None,
        help="stop once the person has this many actions acknowledged (--seconds still "
        "bounds the run; the person acts about once in 1.5 s at the default bot delay)",
    )
    parser.add_argument(
        "--bot-rate", default=None, help="the server's --bot-rate (default: the server's default)"
    )
    parser.add_argument(
        "--scenario",
        choices=("hostile", "bots"),
        default="hostile",
        help="hostile: 1,000 tables and silent clients (issue 26); bots: 60 search-strong "
        "bots and re-watching clients against pings and four people (issue 42)",
    )
    parser.add_argument(
        "--tables", type=int, default=5, help="bots: 12-place tables of search-strong bots"
    )
    parser.add_argument(
        "--watchers", type=int, default=0, help="bots: connections re-watching a long match"
    )
    parser.add_argument("--hands", type=int, default=76, help="bots: the long match's hands")
    parser.add_argument(
        "--bot-delay", type=float, default=0.5, help="bots: the server's --bot-delay"
    )
    args = parser.parse_args()
    if args.scenario == "bots":
        return bots_scenario(args)
    work = Path(tempfile.mkdtemp(prefix="tichu-web-load-"))
    db = work / "tables.db"
    port = free_port()
    url = f"ws://127.0.0.1:{port}/ws"
    log = (work / "server.log").open("wb")
    extra = ["--bot-rate", args.bot_rate] if args.bot_rate else []
    # One client (this script, on loopback) creates every table and seats every bot.
    limits = ["--max-tables", "1000", "--tables-per-client", "1000", "--bots-per-client", "1000"]
    server = start_server(port, db, log, [*limits, *extra])
    wait_until_serving(server, port)
    stop = threading.Event()
    rss: list[float] = []
    sampler = threading.Thread(target=sample_rss, args=(server.pid, stop, rss), daemon=True)
    sampler.start()
    figures: dict[str, Any] = {
        "seconds": args.seconds,
        "actions": args.actions,
        "work": str(work),
        "server": extra,
        # The machine's load (1, 5, 15 min) before and after: the server shares its cores.
        "load_before": [round(x, 2) for x in os.getloadavg()],
    }
    try:
        started = time.monotonic()
        table_id = asyncio.run(create_tables(url))
        figures["create_seconds"] = round(time.monotonic() - started, 1)
        figures["rss_after_create_mb"] = round(rss[-1], 1) if rss else None
        counts = {"connections": 0, "requests": 0, "dropped": 0}
        silent = threading.Thread(target=silent_clients, args=(port, stop, counts), daemon=True)
        silent.start()
        latencies: list[float] = []
        played = time.monotonic()
        version = asyncio.run(person(url, table_id, args.seconds, args.actions, latencies))
        figures["person_seconds"] = round(time.monotonic() - played, 1)
        figures["load_after_play"] = [round(x, 2) for x in os.getloadavg()]
        stop.set()
        silent.join()
        figures["silent_clients"] = counts
        figures["person_actions"] = len(latencies)
        figures["person_table_version"] = version
        if latencies:
            ms = [1000 * x for x in latencies]
            figures["ack_ms"] = {
                "p50": round(statistics.median(ms), 1),
                "p90": round(percentile(ms, 0.90), 1),
                "p99": round(percentile(ms, 0.99), 1),
                "max": round(max(ms), 1),
            }
        figures["rss_max_mb"] = round(max(rss), 1)
        time.sleep(3)
        figures["rss_after_silent_gone_mb"] = round(
            psutil.Process(server.pid).memory_info().rss / 2**20, 1
        )
        figures["served_seconds"] = round(time.monotonic() - started, 1)
        figures["ctrl_c_seconds"] = interrupt(server)
    finally:
        stop.set()
        kill(server)
    log.close()
    good, total, actions = replays(db)
    figures["tables_stored"] = total
    figures["tables_replaying"] = good
    # Every table's actions, the bots' nearly all: how fast the bots went in fact.
    figures["actions_stored"] = actions
    if "served_seconds" in figures:
        figures["actions_per_second"] = round(actions / figures["served_seconds"], 1)
    print(json.dumps(figures, indent=2))
    met = (
        figures["rss_max_mb"] < 400
        and figures.get("ack_ms", {}).get("p99", 1e9) < 100
        and good == total == TABLES
        and figures["ctrl_c_seconds"] < 5
    )
    print("every target met" if met else "a target was missed", file=sys.stderr)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
