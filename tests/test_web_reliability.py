"""The web server's reliability (issue 42): an action is checked again at the moment it
is applied (never applied in a hand it was not meant for, nor for a seat its player
no longer controls), bots decide off the event loop, `watch` shares one state per
change, one server per store, a bounded number of connections per client, and a
store path that is not a regular file refused in one line."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from webtable import FAST, ROOT, Gate, free_port, serve_process, wait_until_up

import tichu_core as tc
from tichu_core.frontends.web.protocol import ProtocolError
from tichu_core.frontends.web.store import TableStore
from tichu_core.frontends.web.tables import Lobby, Table


def copy_of(game: tc.Game) -> tc.Game:
    return tc.Game.from_json(game.to_json())


def rest_of_the_hand(game: tc.Game, rng: random.Random) -> list[tc.Action]:
    """Random legal actions from ``game`` (a copy is played) until its hand ends."""
    scratch = copy_of(game)
    hand = scratch.hand_index
    actions: list[tc.Action] = []
    while scratch.hand_index == hand and not scratch.is_over:
        seat = rng.choice(scratch.to_act)
        action = rng.choice(list(scratch.legal_actions(seat)))
        scratch.apply(action)
        actions.append(action)
    return actions


async def stop(lobby: Lobby) -> None:
    await lobby.close()
    lobby.store.close()


def test_an_action_meant_for_an_ended_hand_never_lands_on_another_players_seat(
    tmp_path: Path,
) -> None:
    """The attack of issue 42: in Threechu the dummy's controller changes every hand. A
    player's action that ends the hand and, right behind it, a Grand Tichu call for a
    seat the same player controls in this hand wait together for the table's previous
    action to reach the store. Checked only before that wait, the call was applied in
    the next hand, on a seat that belongs to another player by then (a forced Grand
    Tichu). Checked again when applied, it is refused and nothing changes. Driven
    through the server's Lobby and Table with a real SQLite store; the writer is held at
    a gate so that both wait: no timing."""

    async def scene() -> None:
        lobby = Lobby(TableStore(tmp_path / "t.db"), limits=FAST)
        table = await lobby.create("threechu", None, None)
        tokens = {}
        for player in range(table.players):
            _, _, token = await lobby.sit(table.id, player, f"P{player}")
            tokens[player] = token
        game = table.game
        assert game is not None
        actions = rest_of_the_hand(game, random.Random(7))
        for action in actions[:-2]:
            await lobby.act(tokens[game.controller(action.seat)], tc.action_to_dict(action))
        last, ending = actions[-2:]
        after = copy_of(game)
        after.apply(last)
        after.apply(ending)
        assert after.hand_index == game.hand_index + 1
        # A seat whose controller in this hand no longer controls it in the next, and
        # where the next hand's first decision is a Grand Tichu call.
        aimed = [
            seat
            for seat in range(game.seats)
            if game.controller(seat) != after.controller(seat)
            and tc.GrandTichu(seat=seat, call=True) in list(after.legal_actions(seat))
        ]
        assert aimed, "no seat changes hands at this deal (pick another seed)"
        seat = aimed[0]
        attacker = game.controller(seat)
        gate = Gate()
        await asyncio.to_thread(gate.hold, lobby.writer)
        first = asyncio.create_task(
            lobby.act(tokens[game.controller(last.seat)], tc.action_to_dict(last))
        )
        while table._writing is None:  # `last` applied, held on its way to the store
            await asyncio.sleep(0)
        # Both wait for `last` to be stored: the hand ends while the call waits.
        second = asyncio.create_task(
            lobby.act(tokens[game.controller(ending.seat)], tc.action_to_dict(ending))
        )
        call = asyncio.create_task(
            lobby.act(tokens[attacker], {"type": "grand_tichu", "seat": seat, "call": True})
        )
        for _ in range(50):
            await asyncio.sleep(0)
        assert not call.done()
        hand = game.hand_index
        gate.open()
        await first
        await second
        with pytest.raises(ProtocolError) as refused:
            await call
        assert refused.value.code in ("hand_over", "not_your_seat")
        assert game.hand_index == hand + 1
        # Nothing was applied for the seat: the next hand's log holds no call of it.
        await table.settled()
        stored = [tc.action_from_json(json.loads(text)) for text in table.record.actions]
        assert stored == [*actions]
        with sqlite3.connect(tmp_path / "t.db") as db:
            (count,) = db.execute(
                "SELECT count(*) FROM actions WHERE table_id = ?", (table.id,)
            ).fetchone()
        assert count == len(actions)
        await stop(lobby)

    asyncio.run(scene())


def test_an_action_naming_a_past_hand_is_refused(tmp_path: Path) -> None:
    """A client may say which hand its action is meant for (`hand`, the `state`'s
    `table.hand`): one that names a hand that has ended is refused with `hand_over`,
    and the game is unchanged."""

    async def scene() -> Table:
        lobby = Lobby(TableStore(tmp_path / "t.db"), limits=FAST)
        table = await lobby.create("standard", None, None)
        tokens = {}
        for player in range(table.players):
            _, _, token = await lobby.sit(table.id, player, f"P{player}")
            tokens[player] = token
        game = table.game
        assert game is not None
        for action in rest_of_the_hand(game, random.Random(3)):
            await lobby.act(tokens[action.seat], tc.action_to_dict(action))
        assert game.hand_index == 1
        version = table.version
        raw: dict[str, Any] = {"type": "grand_tichu", "seat": 0, "call": False}
        with pytest.raises(ProtocolError) as refused:
            await lobby.act(tokens[0], raw, hand=0)
        assert refused.value.code == "hand_over"
        assert table.version == version
        _, after = await lobby.act(tokens[0], raw, hand=1)
        assert after == version + 1
        await stop(lobby)
        return table

    asyncio.run(scene())


# --------------------------------------------------------------------------- one server a store


def test_a_second_server_on_the_same_store_refuses_to_start(tmp_path: Path) -> None:
    """Before, a second `tichu serve` on the same file started, restored every table,
    failed its writes and then marked the first server's live tables expired. Now the
    first holds the store's lock for its life: the second says so in one line (exit 2)
    and leaves the store alone; once the first has stopped, a server starts again."""
    db = tmp_path / "t.db"
    first_port = free_port()
    first = serve_process(first_port, db)
    try:
        wait_until_up(first_port, first, seconds=60)
        stored = db.read_bytes()
        second = subprocess.run(
            [sys.executable, "-m", "tichu_core", "serve", "--port", "0", "--db", str(db)],
            env={**os.environ, "PYTHONPATH": str(ROOT), "TICHU_PURE_PYTHON": "1"},
            capture_output=True,
            timeout=60,
        )
        err = second.stderr.decode()
        assert second.returncode == 2, err
        assert "another tichu serve" in err and err.count("\n") == 1, err
        assert "Traceback" not in err
        assert db.read_bytes() == stored
        assert first.poll() is None  # the first goes on
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", first_port)) == 0
        first.send_signal(signal.SIGINT)
        first.wait(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    third_port = free_port()
    third = serve_process(third_port, db)
    try:
        wait_until_up(third_port, third, seconds=60)
    finally:
        third.send_signal(signal.SIGINT)
        third.wait(timeout=30)


def test_a_store_path_that_is_not_a_regular_file_is_refused_in_one_line(tmp_path: Path) -> None:
    """`--db` on a FIFO hung silently (SQLite, and the header check, waited for a
    writer); now anything but a regular file or a new path is refused at once."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "tichu_core", "serve", "--port", "0", "--db", str(fifo)],
        env={**os.environ, "PYTHONPATH": str(ROOT), "TICHU_PURE_PYTHON": "1"},
        capture_output=True,
        timeout=60,
    )
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "not a regular file" in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


# --------------------------------------------------------------------------- bots off the loop


class Thinker:
    """A bot that records the thread each decision runs on, and can be held mid-thought
    (``hold``: it waits for ``go`` before it answers): no timing."""

    def __init__(self, hold: bool = False) -> None:
        self.threads: list[int] = []
        self.hold = hold
        self.thinking = threading.Event()
        self.go = threading.Event()

    def choose(self, observation: Any, actions: Any, seat: int) -> tc.Action:
        self.threads.append(threading.get_ident())
        if self.hold:
            self.thinking.set()
            assert self.go.wait(timeout=60), "the test never let the bot answer"
        answer: tc.Action = actions[-1]
        return answer


async def people_and_thinkers(
    tmp_path: Path, thinkers: dict[int, Thinker], **limits: Any
) -> tuple[Lobby, Table, dict[int, str]]:
    """A standard table: the thinkers' places taken by bots (then replaced by them), the
    other places by people; every place taken, the game dealt."""
    lobby = Lobby(TableStore(tmp_path / "t.db"), limits=replace(FAST, **limits))
    table = await lobby.create("standard", None, {str(p): "random" for p in thinkers})
    table.start_bots = lambda: None  # type: ignore[method-assign]  # started below
    for player, bot in thinkers.items():
        table.bots[player] = bot  # type: ignore[assignment]
    tokens = {}
    for player in range(4):
        if player not in thinkers:
            _, _, tokens[player] = await lobby.sit(table.id, player, f"P{player}")
    del table.start_bots
    return lobby, table, tokens


def test_a_bots_decision_does_not_run_on_the_event_loops_thread(tmp_path: Path) -> None:
    """Before, each decision ran on the event loop (a search bot's 0.2 to 1.2 s held
    every connection of the server); now on the bot thread."""

    async def scene() -> None:
        thinker = Thinker()
        lobby, table, _ = await people_and_thinkers(tmp_path, {2: thinker})
        table.start_bots()
        while not thinker.threads:
            await asyncio.sleep(0.01)
        task = table._bot_task
        assert task is not None
        await task  # the bot's Grand Tichu decision, then the game waits for people
        assert threading.get_ident() not in thinker.threads
        assert table.version == 1 and table.error is None
        await stop(lobby)

    asyncio.run(scene())


def test_a_bots_answer_to_a_game_that_moved_on_is_not_taken(tmp_path: Path) -> None:
    """While a bot thinks (off the loop), a person acts at the same table; the bot's
    answer, made for the game before that, is dropped and the bot asked again, so the
    action applied is always one made for the game as it is."""

    async def scene() -> None:
        thinker = Thinker(hold=True)
        lobby, table, tokens = await people_and_thinkers(tmp_path, {2: thinker})
        table.start_bots()
        await asyncio.to_thread(thinker.thinking.wait, 60)
        assert len(thinker.threads) == 1  # its Grand Tichu decision, held
        await lobby.act(tokens[0], {"type": "grand_tichu", "seat": 0, "call": False})
        thinker.hold = False
        thinker.go.set()
        task = table._bot_task
        assert task is not None
        await task
        assert len(thinker.threads) == 2  # asked again for the game after the person's
        assert table.version == 2 and table.error is None
        game = table.game
        assert game is not None
        decided = [tc.action_from_json(json.loads(a)) for a in table.record.actions]
        assert [a.seat for a in decided] == [0, 2]
        await stop(lobby)

    asyncio.run(scene())


def test_a_bot_over_its_time_budget_is_answered_for(tmp_path: Path) -> None:
    """A bot that does not answer within `bot_seconds` does not stop its table: the
    seat takes its first legal action, and the late answer is dropped."""

    async def scene() -> None:
        thinker = Thinker(hold=True)
        lobby, table, _ = await people_and_thinkers(tmp_path, {2: thinker}, bot_seconds=0.01)
        table.start_bots()
        task = table._bot_task
        assert task is not None
        await task
        game = table.game
        assert game is not None
        first = tc.action_from_json(json.loads(table.record.actions[0]))
        assert first == tc.GrandTichu(seat=2, call=False) and table.error is None
        assert lobby.deciding.late == 1
        thinker.go.set()
        await stop(lobby)

    asyncio.run(scene())


# --------------------------------------------------------------------------- watching


class Spectator:
    player = None

    def table_changed(self) -> None:
        pass


def unclocked(state: dict[str, Any]) -> dict[str, Any]:
    """A state without the seconds before a stand-in (counted down as it is built)."""
    for place in state["table"]["seating"]:
        place.pop("stand_in_in", None)
    return state


def test_watchers_of_one_moment_share_one_state_build(tmp_path: Path) -> None:
    """Before, every `watch` from event 0 rebuilt the table's whole history on the event
    loop (96 ms and 2.3 MB for a 76-hand match), for each connection. Now the game's
    part of a state is built once per change of the game for each (player, since) and
    shared; the table info (which changes with every follower) is added to it. What a
    watcher is sent equals the state built afresh."""

    async def scene() -> None:
        lobby = Lobby(TableStore(tmp_path / "t.db"), limits=FAST)
        table = await lobby.create("standard", None, None)
        tokens = {}
        for player in range(4):
            _, _, tokens[player] = await lobby.sit(table.id, player, f"P{player}")
        game = table.game
        assert game is not None
        for action in rest_of_the_hand(game, random.Random(5)):
            await lobby.act(tokens[action.seat], tc.action_to_dict(action))
        builds: list[tuple[int | None, int]] = []
        build = table._game_state

        def counted(player: int | None, since: int, events: bool = True) -> dict[str, Any]:
            builds.append((player, since))
            return build(player, since, events)

        table._game_state = counted  # type: ignore[method-assign]
        sent = []
        for _ in range(8):  # eight watchers come, each sent the table from event 0
            table.followers.add(Spectator())
            table.notify()
            text, events = table.state_text(None, 0)
            assert unclocked(json.loads(text)) == unclocked(table.state(None, 0))
            assert events == len(json.loads(text)["events"]) > 100
            sent.append(text)
        assert builds.count((None, 0)) == 1 + 8  # one shared build; state() builds anew
        assert json.loads(sent[-1])["table"]["spectators"] == 8  # the info is current
        await lobby.act(tokens[1], {"type": "grand_tichu", "seat": 1, "call": False})
        after, _ = table.state_text(None, 0)  # the game changed: built again
        assert builds.count((None, 0)) == 1 + 8 + 1
        assert unclocked(json.loads(after)) == unclocked(table.state(None, 0))
        await stop(lobby)

    asyncio.run(scene())


# --------------------------------------------------------------------------- connections


def low_fd_limit() -> None:
    """In the server's process: as few file descriptors as the issue's machine had."""
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


def health_of(port: int, source: str = "127.0.0.1") -> int:
    """The status of GET /health on a fresh connection from ``source`` (0: no answer)."""
    with socket.create_connection(("127.0.0.1", port), timeout=20, source_address=(source, 0)) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        try:
            head = s.recv(64)
        except OSError:
            return 0
    return int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else 0


def test_half_sent_requests_neither_fill_the_server_nor_stay(tmp_path: Path) -> None:
    """Before, 260 half-sent requests made the server unreachable for everyone (`Too
    many open files`) until the client let go: no header timeout, no cap. Now a client
    holds only a few connections that have not sent a whole request (the oldest goes
    for a newer one) and every request's headers must come within `header_seconds`:
    300 half-sent requests on loopback, against a server allowed 256 file descriptors,
    and a fresh request is still answered; every half-sent one is closed by the server
    (waited for with a bound, no timing asserted)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1024:  # this process holds 300 sockets and the usual files
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    port = free_port()
    db = tmp_path / "t.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TICHU_PURE_PYTHON": "1"}
    log = (tmp_path / "server.log").open("wb")  # a file: a full pipe would stop the server
    server = subprocess.Popen(
        [sys.executable, "-m", "tichu_core", "serve", "--port", str(port), "--db", str(db)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        preexec_fn=low_fd_limit,
    )
    half: list[socket.socket] = []
    try:
        wait_until_up(port, server, seconds=60)
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0")  # and nothing more
            half.append(s)
        assert health_of(port) == 200, (tmp_path / "server.log").read_text()[-3000:]
        for s in half:  # each is closed by the server: EOF or a reset, never a hang
            s.settimeout(60)
            with contextlib.suppress(ConnectionResetError):
                assert s.recv(4096) == b""
        assert health_of(port) == 200
        assert server.poll() is None
    finally:
        for s in half:
            s.close()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
        log.close()
    # (asyncio may log a passing "Too many open files" while it accepts the burst at
    # once, beyond 256; it accepts again a second later, as the answers above show.)


def websocket_from(port: int, source: str, headers: dict[str, str] | None = None) -> Any:
    from websockets.sync.client import connect

    sock = socket.create_connection(("127.0.0.1", port), timeout=20, source_address=(source, 0))
    return connect(
        f"ws://127.0.0.1:{port}/ws", sock=sock, additional_headers=headers, open_timeout=20
    )


def test_a_client_holds_a_bounded_number_of_connections(tmp_path: Path) -> None:
    """`--connections-per-client 5`: five WebSockets of one client are served, a sixth
    is refused (closed before any answer), and the server goes on serving them."""
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage

    port = free_port()
    server = serve_process(port, tmp_path / "t.db", "--connections-per-client", "5")
    try:
        wait_until_up(port, server, seconds=60)
        with contextlib.ExitStack() as held:
            sockets = [held.enter_context(websocket_from(port, "127.0.0.1")) for _ in range(5)]
            for ws in sockets:
                assert json.loads(ws.recv(timeout=20))["type"] == "welcome"
            with (
                pytest.raises((ConnectionClosed, InvalidHandshake, InvalidMessage, OSError)),
                websocket_from(port, "127.0.0.1") as refused,
            ):
                refused.recv(timeout=20)
            sockets[0].send(json.dumps({"type": "ping"}))
            assert json.loads(sockets[0].recv(timeout=20))["type"] == "pong"
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


def test_every_loopback_address_is_one_client_and_forwarded_for_is_not_trusted(
    tmp_path: Path,
) -> None:
    """Before, each 127.0.0.x address was a client of its own (five addresses held five
    times the limits), and uvicorn believed `X-Forwarded-For` from 127.0.0.1 by default
    (any local program could claim any address). Now every loopback address is one
    client, and `X-Forwarded-For` counts only from a `--trusted-proxy`."""
    port = free_port()
    server = serve_process(port, tmp_path / "t.db", "--tables-per-client", "1")
    try:
        wait_until_up(port, server, seconds=60)
        create = json.dumps({"type": "create", "variant": "standard"})
        for source, headers, answer in (
            ("127.0.0.2", None, "created"),
            ("127.0.0.3", None, "too_many_tables"),
            ("127.0.0.1", {"X-Forwarded-For": "203.0.113.9"}, "too_many_tables"),
        ):
            with websocket_from(port, source, headers) as ws:
                ws.recv(timeout=20)  # welcome
                ws.send(create)
                reply = json.loads(ws.recv(timeout=20))
                assert reply.get("code", reply["type"]) == answer, (source, reply)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


class PidBot:
    """A bot that writes the process it decides in to a file (a worker process cannot
    hand anything else back but its answer), and may ask for more memory than there is."""

    def __init__(self, path: Path, hungry: bool = False) -> None:
        self.path = path
        self.hungry = hungry

    def choose(self, observation: Any, actions: Any, seat: int) -> tc.Action:
        self.path.write_text(str(os.getpid()))
        if self.hungry:
            self.path.write_bytes(bytes(8 * 2**30))  # 8 GiB: over the worker's cap
        answer: tc.Action = actions[0]
        return answer


def test_in_the_worker_process_a_bot_decides_outside_the_server_and_its_memory_is_bounded(
    tmp_path: Path,
) -> None:
    """`tichu serve`'s bots think in a worker process: the server's GIL is never held by
    a decision. A bot that asks for more memory than the worker may have fails its own
    table (MemoryError, in the worker); the server, and the other tables, go on."""

    async def scene() -> None:
        lobby = Lobby(TableStore(tmp_path / "t.db"), limits=FAST, bot_process=True)
        tables = []
        for hungry in (False, True):
            table = await lobby.create("standard", None, {"2": "random"})
            table.start_bots = lambda: None  # type: ignore[method-assign]
            table.bots[2] = PidBot(tmp_path / f"pid-{hungry}", hungry)  # type: ignore[assignment]
            for player in (0, 1, 3):
                await lobby.sit(table.id, player, f"P{player}")
            del table.start_bots
            tables.append(table)
        calm, hungry = tables
        calm.start_bots()
        assert calm._bot_task is not None
        await calm._bot_task
        assert calm.version == 1 and calm.error is None
        assert int((tmp_path / "pid-False").read_text()) != os.getpid()
        hungry.start_bots()
        assert hungry._bot_task is not None
        await hungry._bot_task
        assert hungry.error is not None and "MemoryError" in hungry.error
        assert hungry.version == 0 and calm.error is None
        await stop(lobby)

    asyncio.run(scene())


class SleepyBot:
    """A bot that never answers in time (it sleeps ten minutes)."""

    def choose(self, observation: Any, actions: Any, seat: int) -> tc.Action:
        time.sleep(600)
        answer: tc.Action = actions[-1]
        return answer


def test_in_the_worker_process_a_bot_over_its_budget_is_stopped(tmp_path: Path) -> None:
    """A bot that overruns `bot_seconds` in the worker process is stopped (the worker is
    restarted) and answered for; the next bot's question is answered by the new worker."""

    async def scene() -> None:
        lobby = Lobby(
            TableStore(tmp_path / "t.db"), limits=replace(FAST, bot_seconds=8.0), bot_process=True
        )
        table = await lobby.create("standard", None, {"2": "random", "3": "random"})
        table.start_bots = lambda: None  # type: ignore[method-assign]
        table.bots[2] = SleepyBot()  # type: ignore[assignment]
        table.bots[3] = PidBot(tmp_path / "pid")  # type: ignore[assignment]
        for player in (0, 1):
            await lobby.sit(table.id, player, f"P{player}")
        del table.start_bots
        table.start_bots()
        while table.version < 2:
            await asyncio.sleep(0.05)
        assert lobby.deciding.late == 1 and table.error is None
        process = lobby.deciding.process
        assert process is not None and process.restarts == 1
        decided = [tc.action_from_json(json.loads(a)) for a in table.record.actions]
        assert tc.GrandTichu(seat=2, call=False) in decided  # answered for the sleeper
        assert int((tmp_path / "pid").read_text()) != os.getpid()
        await stop(lobby)

    asyncio.run(scene())


def test_on_the_wire_an_act_names_its_hand(tmp_path: Path) -> None:
    """`act` takes an optional `hand`: one that is not the running hand is refused with
    `hand_over` (nothing applied); the running one is taken; a bad one is a bad message."""
    from starlette.testclient import TestClient
    from webtable import LOCAL, LOCAL_WS, Client

    from tichu_core.frontends.web.app import create_app

    app = create_app(tmp_path / "t.db", limits=FAST)
    with TestClient(app, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        reply = me.request(type="create", variant="standard", bots={"1": "greedy", "2": "greedy"})
        table_id = reply["table"]["id"]
        tokens = [me.request(type="sit", table=table_id, player=p)["token"] for p in (0, 3)]
        grand = {"type": "grand_tichu", "seat": 0, "call": False}
        for hand, answer in ((1, "hand_over"), (-1, "bad_message"), (0, "ack")):
            reply = me.request(type="act", token=tokens[0], action=grand, hand=hand)
            assert reply.get("code", reply["type"]) == answer, reply


def test_a_client_is_sent_a_long_history_again_only_so_often(tmp_path: Path) -> None:
    """`watch` from event 0 of a long match, repeated: the past events a client is sent
    again come out of an allowance (here 1 a second, 50 at once; up to 20 free), so
    the second re-watch from 0 is refused with `rate_limited` (nothing changes, the
    connection goes on), while following from a recent event is not."""
    from starlette.testclient import TestClient
    from webtable import LOCAL, LOCAL_WS, Client

    from tichu_core.frontends.web.app import create_app

    limits = replace(FAST, history_events_per_second=1.0, history_burst=50, history_free=20)
    app = create_app(tmp_path / "t.db", limits=limits)
    with TestClient(app, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        bots = {str(p): "greedy" for p in range(4)}
        table_id = me.request(type="create", variant="standard", bots=bots)["table"]["id"]
        table = app.state.lobby().tables[table_id]
        while table.events_after(None, 0) < 100:  # the bots play on
            me.request(type="ping")
        first = me.request(type="watch", table=table_id, since=0)
        assert first["type"] == "watching", first
        again = me.request(type="watch", table=table_id, since=0)
        assert again["type"] == "error" and again["code"] == "rate_limited", again
        recent = max(0, table.events_after(None, 0) - 10)
        near = me.request(type="watch", table=table_id, since=recent)
        assert near["type"] == "watching", near


class Echo:
    """A bot that answers with the events it was shown (BotProcess hands back any
    answer: this one shows what reached the worker)."""

    def __init__(self) -> None:
        self.events: Any = ()

    def observe(self, variant: Any, player: int, events: Any) -> None:
        self.events = events

    def choose(self, observation: Any, actions: Any, seat: int) -> Any:
        return (list(self.events), type(self.events).__name__)


class Spy:
    """The pipe to the worker, recording what is sent."""

    def __init__(self, conn: Any) -> None:
        self.conn, self.sent = conn, []  # type: ignore[var-annotated]

    def send(self, item: Any) -> None:
        self.sent.append(item)
        self.conn.send(item)

    def poll(self, seconds: float) -> bool:
        return bool(self.conn.poll(seconds))

    def recv(self) -> Any:
        return self.conn.recv()

    def close(self) -> None:
        self.conn.close()


def test_the_worker_is_sent_each_event_of_a_bots_stream_once() -> None:
    """A search bot is shown its player's events from the start of the match at every
    decision; the worker process keeps them and is sent only the new ones (the whole
    stream again when it is not the one it holds), and the bot gets its own copy."""
    from tichu_core.frontends.web.deciding import BotProcess

    process = BotProcess()
    bot = Echo()
    try:
        assert process.ask(bot, (0, False, None, None, ("v", 0, [1, 2, 3])), 60) == (
            [1, 2, 3],
            "tuple",
        )
        spy = Spy(process._conn)
        process._conn = spy  # type: ignore[assignment]
        longer = process.ask(bot, (0, False, None, None, ("v", 0, [1, 2, 3, 4, 5])), 60)
        assert longer[0] == [1, 2, 3, 4, 5]
        _, sent_bot, (_, _, _, _, told) = spy.sent[-1]
        assert sent_bot is None and told == (None, 0, 3, [4, 5])  # the new events only
        assert process.ask(bot, (0, False, None, None, ("v", 0, [9])), 60)[0] == [9]
        assert spy.sent[-1][2][4] == ("v", 0, 0, [9])  # another stream: all of it
    finally:
        process.close()


def test_a_web_bot_that_wrecks_the_variant_it_is_shown_changes_nothing_of_the_game(
    tmp_path: Path,
) -> None:
    """Issue 42, item 8, at the web table (bots on the thread, as when embedded): a bot
    that plans on what ``observe`` hands it is given its own copy of the variant; when
    it wrecks that copy, the table's game and its save are untouched."""
    from test_hardening_bots import Vandal

    async def scene() -> None:
        lobby = Lobby(TableStore(tmp_path / "t.db"), limits=FAST)
        table = await lobby.create(
            "standard", {"game.hands": 1}, {str(p): "random" for p in range(4)}
        )
        pristine = table.game.variant.model_dump_json()
        vandals = [Vandal(player) for player in range(4)]
        table.bots.update(dict(enumerate(vandals)))  # type: ignore[arg-type]
        table.start_bots()
        while not table.game.is_over:
            task = table._bot_task
            assert task is not None and table.error is None
            await asyncio.sleep(0.01)
        assert all(vandal.changes > 0 for vandal in vandals)
        assert table.game.variant.model_dump_json() == pristine
        saved = table.game.to_json()
        assert tc.Game.from_json(saved).to_json() == saved
        await stop(lobby)

    asyncio.run(scene())
