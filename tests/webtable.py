"""Helpers of the web table's tests (tests/test_web_*.py): a recording protocol client
over Starlette's TestClient, a random player that picks among the listed actions, the
wire check that no message shows a client more than its player may know, and a real
uvicorn server on loopback for the browser and load tests."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.websockets import WebSocketDisconnect

import tichu_core as tc
from tichu_core.frontends.web.app import WS_MAX_FRAME
from tichu_core.frontends.web.protocol import Limits
from tichu_core.frontends.web.store import StoreWriter
from tichu_core.frontends.web.tables import Lobby

# The protocol tests play quickly: no rate limit or bot pace in their way
# (test_web_protocol.py tests the limit itself with the defaults).
FAST = Limits(messages_per_second=10_000, burst=10_000, bot_actions_per_second=1e6)
ROOT = Path(__file__).resolve().parents[1]
# The address TestClient speaks to: a loopback name the server answers to (HostCheck).
LOCAL = "http://localhost"
LOCAL_WS = "ws://localhost/ws"
CARD = re.compile(r"^(?:[2-9]|10|[JQKA])[jspt]$|^(?:MJ|DOG|PH|DR)$")

_Result = TypeVar("_Result")


def on_loop(app: Starlette, coroutine: Coroutine[Any, Any, _Result]) -> _Result:
    """Run one of the lobby's coroutines (create, sit, expire, ...) on the loop the
    running ``app`` serves on (TestClient's or uvicorn's thread), and wait for it."""
    return asyncio.run_coroutine_threadsafe(coroutine, app.state.loop).result(timeout=60)


class Gate:
    """A job that holds the store's writer until ``open()``: the jobs queued meanwhile
    wait (no timing: an event)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.opened = threading.Event()

    def __call__(self) -> None:
        self.entered.set()
        assert self.opened.wait(timeout=60), "the gate was never opened"

    def hold(self, writer: StoreWriter) -> None:
        writer.submit(self)
        assert self.entered.wait(timeout=60), "the writer never reached the gate"

    def open(self) -> None:
        self.opened.set()


def lobby_of(app: Starlette) -> Lobby:
    """The running ``app``'s lobby (its tables, by id, in ``tables``)."""
    lobby: Lobby = app.state.lobby()
    return lobby


class Client:
    """One WebSocket client: every message it receives is kept in ``messages``."""

    def __init__(self, websocket: Any) -> None:
        self.ws = websocket
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self._ids = itertools.count(1)
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome

    def recv(self, seconds: float = 30.0) -> dict[str, Any]:
        """The next message; a test that waits ``seconds`` for one fails, never hangs."""
        stream = getattr(self.ws, "_send_rx", None)  # the TestClient session's inbox
        if stream is None:  # (another Starlette: no time limit)
            message: dict[str, Any] = self.ws.receive_json()
        else:

            async def receive() -> Any:
                with anyio.fail_after(seconds):
                    return await stream.receive()

            raw = self.ws.portal.call(receive)
            if raw["type"] == "websocket.close":
                raise WebSocketDisconnect(raw.get("code", 1000), raw.get("reason"))
            message = json.loads(raw["text"])
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def send(self, **message: Any) -> int:
        request_id = next(self._ids)
        self.ws.send_json({**message, "id": request_id})
        return request_id

    def request(self, **message: Any) -> dict[str, Any]:
        """Send a request and read up to its reply (states on the way are kept)."""
        request_id = self.send(**message)
        while True:
            reply = self.recv()
            if reply.get("id") == request_id:
                return reply

    def sync(self) -> dict[str, Any] | None:
        """Read everything the server has sent so far (a ping's pong comes after it)."""
        self.request(type="ping")
        return self.state

    def wait(
        self, until: Callable[[dict[str, Any]], bool], seconds: float = 60.0
    ) -> dict[str, Any]:
        """Poll until the latest state satisfies ``until`` (bots play in the background)."""
        deadline = time.monotonic() + seconds
        while True:
            state = self.sync()
            if state is not None and (until(state) or state["table"]["status"] == "failed"):
                return state
            assert time.monotonic() < deadline, f"waited {seconds} s; last state: {state}"
            time.sleep(0.002)


def my_turn(state: dict[str, Any]) -> int | None:
    """A seat of this player that the game waits for, if any."""
    view = state["observation"]
    if view is None:
        return None
    for seat in view["waiting_for"]:
        if str(seat) in state["legal"]:
            return int(seat)
    return None


def random_action(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """A listed action of ``seat`` at random (calls declined), or a push of its cards."""
    block = state["legal"][str(seat)]
    if block["push"] is not None:
        cards = list(block["push"]["cards"])
        rng.shuffle(cards)
        given = {}
        for target, count in block["push"]["targets"].items():
            given[target] = " ".join(cards[:count])
            del cards[:count]
        return {"type": "push", "seat": seat, "cards": given}
    options = [
        a
        for a in block["actions"]
        if a["type"] != "tichu" and not (a["type"] == "grand_tichu" and a["call"])
    ]
    chosen = dict(rng.choice(options or block["actions"]))
    chosen.pop("label", None)
    chosen.pop("bomb", None)
    return chosen


def play_until(
    client: Client,
    token: str,
    done: Callable[[dict[str, Any]], bool],
    rng: random.Random,
    seconds: float = 60.0,
) -> dict[str, Any]:
    """Act at random for the client's seats whenever the game waits for one of them."""
    deadline = time.monotonic() + seconds
    while True:
        state = client.wait(lambda s: done(s) or my_turn(s) is not None)
        if done(state) or state["table"]["status"] == "failed":
            return state
        seat = my_turn(state)
        assert seat is not None
        reply = client.request(type="act", token=token, action=random_action(state, seat, rng))
        assert reply["type"] == "ack", reply
        assert time.monotonic() < deadline, "the hand took too long"


def one_hand_played(state: dict[str, Any]) -> bool:
    view = state["observation"]
    return view is not None and (view["hands_played"] >= 1 or view["phase"] == "over")


# --------------------------------------------------------------------------- the wire check


def replay(variant: str, overrides: dict[str, Any], seed: int) -> tc.Game:
    return tc.Game(tc.load_variant(variant, overrides=overrides or None), seed=seed)


def card_codes(value: Any) -> set[str]:
    """Every card code written anywhere in ``value`` (strings split at spaces)."""
    found: set[str] = set()
    if isinstance(value, str):
        found.update(token for token in value.split() if CARD.match(token))
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= card_codes(key) | card_codes(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_codes(item)
    return found


def hidden_codes(game: tc.Game, player: int | None) -> set[str]:
    """The cards of the current hand that ``player`` may not know of: those held by the
    seats it cannot see, less the cards it may know of there: those its own seats gave
    them in the exchange and, with two decks, the codes it holds or saw played itself
    (the other copy of a card shares its code)."""
    view = game.observation(player)
    hidden: set[str] = set()
    for seat in range(game.seats):
        if seat not in view.hands:
            hidden.update(game.observation(game.controller(seat)).hands[seat])
    this_hand = [
        e.model_dump(mode="json") for e in game.events_for(player) if e.hand == view.hand_index
    ]
    known = card_codes([e for e in this_hand if e["type"] in ("pushed", "played")])
    known |= card_codes(view.pushed) | card_codes(view.hands)
    return hidden - known


def check_wire(
    messages: list[dict[str, Any]], player: int | None, game: tc.Game, actions: list[str]
) -> int:
    """Check every ``state`` message a client of ``player`` received against the engine,
    replayed to the message's version from ``game`` (new) and the table's ``actions``:
    its observation is ``observation(player)``, its events ``events_for(player)``, its
    legal actions those of the player's seats; and no hidden card of another seat is
    written anywhere in the parts about the running hand. Returns the states checked."""
    states = [m for m in messages if m["type"] == "state" and m["observation"] is not None]
    applied = 0
    for message in states:
        while applied < message["version"]:
            game.apply(actions[applied])
            applied += 1
        assert message["observation"] == game.observation(player).model_dump(mode="json")
        since = message["events_from"]
        expected = game.events_for(player, since)
        assert message["events"] == [e.model_dump(mode="json") for e in expected]
        own = game.observation(player).seats
        assert {int(seat) for seat in message["legal"]} <= set(own)
        for seat, block in message["legal"].items():
            listed = game.legal_actions(int(seat))
            for entry in block["actions"]:
                action = {k: v for k, v in entry.items() if k not in ("label", "bomb")}
                assert tc.action_from_json(action) in listed
        hand = message["observation"]["hand_index"]
        current = [e for e in message["events"] if e["hand"] == hand]
        shown = card_codes([message["observation"], message["legal"], current])
        leaked = shown & hidden_codes(game, player)
        assert not leaked, f"player {player} was sent hidden cards {sorted(leaked)}"
    return len(states)


# --------------------------------------------------------------------------- a real server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def running_server(app: Starlette) -> Iterator[str]:
    """Serve ``app`` with uvicorn on loopback in a thread; yields its http:// address."""
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=WS_MAX_FRAME
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def serve_process(port: int, db: Path, *extra: str) -> subprocess.Popen[bytes]:
    """`tichu serve` on ``port`` and ``db`` in a process of its own (the plain source)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TICHU_PURE_PYTHON": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "tichu_core", "serve", "--port", str(port), "--db", str(db), *extra],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


class StderrTimeline:
    """A process's stderr, read as it comes on a thread of its own, each line with the
    time it arrived: a failing test can say when the server did what (and a chatty
    server never fills the pipe while the test waits for it)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stderr is not None
        self.lines: list[tuple[float, str]] = []
        self._stream = process.stderr
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self._stream:
            self.lines.append((time.monotonic(), line.decode(errors="replace").rstrip()))

    def text(self, wait: float = 5.0) -> str:
        """Everything the process wrote (once it has ended, every line)."""
        self._thread.join(wait)
        return "\n".join(line for _, line in self.lines)

    def since(self, start: float) -> str:
        """The lines from ``start`` on, each with its time from ``start``."""
        self._thread.join(5.0)
        return "\n".join(f"{at - start:+7.2f} s  {line}" for at, line in self.lines if at >= start)


def wait_until_up(port: int, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    """Wait until ``process`` accepts connections on ``port`` (its error if it ends)."""
    deadline = time.monotonic() + seconds
    while True:
        assert process.poll() is None, process.stderr and process.stderr.read().decode()
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)
