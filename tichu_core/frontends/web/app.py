"""The ASGI app of ``tichu serve``: the page, its static files and the WebSocket.

``create_app(db)`` builds a Starlette app whose tables live in the SQLite file
``db``: at start-up every stored table is rebuilt (its bots go on), and on
``/ws`` each connection speaks the protocol of docs/web.md. ``serve`` runs the app
with uvicorn.

Each connection has a reader (requests, rate-limited, answered in order) and a
writer (replies, and the ``state`` of the table it follows, built when it is sent:
a burst of bot moves becomes one message with all their events). A request that
fails gets an ``error`` reply and changes nothing; the connection goes on.

What waits for a client is counted in bytes, per connection and for the server
(:class:`OutboxBudget`): a client that does not read is dropped, not buffered.
:class:`HostCheck` refuses requests addressed to a name the server does not answer
to (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import signal
import sys
from collections import deque
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from tichu_core.frontends.bots import LEVELS, bot_descriptions, bot_names
from tichu_core.frontends.web import places, records
from tichu_core.frontends.web.protocol import (
    PROTOCOL_VERSION,
    Limits,
    ProtocolError,
    RateLimiter,
    parse_request,
    request_id_of,
    table_id,
    text_field,
    whole_number,
)
from tichu_core.frontends.web.seating import DEFAULT_LEVEL
from tichu_core.frontends.web.store import StoreLock, TableStore
from tichu_core.frontends.web.tables import Expiry, Lobby, Table

log = logging.getLogger("tichu.web")

STATIC = Path(__file__).resolve().parent / "static"
# Everything the page needs comes from this server; nothing from anywhere else.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
# The largest frame uvicorn reads at all (a larger one closes the connection); the
# protocol's own limit (Limits.max_message_bytes) is smaller and answered with an error.
WS_MAX_FRAME = 1024 * 1024
CLOSE_POLICY = 1008
CLOSE_TOO_SLOW = 1013  # "try again later": the client did not read what it was sent
# uvicorn's connections share this scope extension (HostCheck puts it there): the
# transport's abort, to drop a client that does not read at once, without the close
# handshake it would never answer. Where it is missing (a test client), a drop closes.
ABORT = "tichu.abort"

# Ctrl-C: how long connections and their tasks get to finish before they are cancelled.
SHUTDOWN_SECONDS = 2
# A connection whose handler has ended is aborted this long after if its transport has
# not closed by then (a client that does not read would keep it open for ever).
LINGER_SECONDS = 1.0

_STATE = object()  # in an outbox: "send the followed table's state now"


class OutboxBudget:
    """The bytes of every message the server holds for its clients: waiting in an
    outbox or being sent. When a new message would take the total over ``limit``, the
    connections holding the most are dropped until it fits (a client that reads never
    holds much)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self.holders: set[Connection] = set()

    def make_room(self, size: int, requester: Connection) -> bool:
        """Whether ``requester`` may add ``size`` bytes (others may be dropped for it)."""
        while self.total + size > self.limit:
            victim = max(self.holders, key=lambda c: c.held, default=None)
            if victim is None or victim is requester or victim.held <= requester.held:
                return False
            victim.drop("the server's outgoing buffer is full and this client reads slowest")
        return True


class Connection:
    """One WebSocket client: the requests it sends, the table it follows, and the
    messages waiting for it (their bytes counted per connection and server-wide)."""

    def __init__(self, websocket: WebSocket, lobby: Lobby, budget: OutboxBudget) -> None:
        self.websocket = websocket
        self.lobby = lobby
        self.limits = lobby.limits
        self.budget = budget
        client = websocket.client
        self.address = client_key(client.host if client is not None else None)
        self.table: Table | None = None
        self.player: int | None = None
        self.sent = 0  # events of the player's stream already sent
        self.outbox: deque[str | object] = deque()
        self.waiting = 0  # bytes of the replies in the outbox
        self.held = 0  # bytes this connection holds: waiting, and the one being sent
        self._ready = asyncio.Event()
        self._state_queued = False
        self.rate = RateLimiter(self.limits.messages_per_second, self.limits.burst)
        self.dropped_in_a_row = 0
        self.stopped = asyncio.Event()
        self.why: str | None = None  # why the server dropped it

    # --- following a table -----------------------------------------------------------

    def table_changed(self) -> None:
        if not self._state_queued and not self.stopped.is_set():
            self._state_queued = True
            self.outbox.append(_STATE)
            self._ready.set()

    def follow(self, table: Table, player: int | None, since: int) -> None:
        self.unfollow()
        self.table, self.player, self.sent = table, player, since
        table.followers.add(self)
        self.reply(table.chat.message())  # the table's chat so far (chat.py)
        table.notify()  # the newcomer's state, and everyone sees it online

    def unfollow(self) -> None:
        if self.table is not None:
            self.table.followers.discard(self)
            self.table.notify()
            self.table = None

    def _state(self) -> str | None:
        table = self.table
        if table is None:
            return None
        text, events = table.state_text(self.player, self.sent)
        self.sent += events
        return text

    # --- what it holds ---------------------------------------------------------------

    def _hold(self, size: int) -> bool:
        if not self.budget.make_room(size, self):
            self.drop("the server's outgoing buffer is full and this client does not read")
            return False
        self.held += size
        self.budget.total += size
        self.budget.holders.add(self)
        return True

    def _release(self, size: int) -> None:
        self.held -= size
        self.budget.total -= size
        if self.held == 0:
            self.budget.holders.discard(self)

    def drop(self, why: str) -> None:
        """Stop this connection now: what it holds is freed, the transport aborted."""
        if self.stopped.is_set():
            return
        log.warning("dropping a connection from %s: %s", self.address, why)
        self.why = why
        self.stop()
        abort = self.websocket.scope.get("extensions", {}).get(ABORT)
        if abort is not None:
            abort()

    def stop(self) -> None:
        """Free everything the connection holds; it sends nothing more."""
        self.stopped.set()
        self.outbox.clear()
        self.budget.total -= self.held
        self.held = self.waiting = 0
        self.budget.holders.discard(self)
        self.unfollow()

    # --- the two loops ---------------------------------------------------------------

    def reply(self, message: dict[str, Any]) -> None:
        # ASCII (json.dumps escapes the rest): the text's length is its size in bytes.
        self.reply_text(json.dumps(message, separators=(",", ":")))

    def reply_text(self, text: str) -> None:
        """Queue a reply already in JSON (or drop the connection that holds too much)."""
        if self.stopped.is_set():
            return
        size = len(text)
        if self.waiting + size > self.limits.max_outbox_bytes:
            self.drop(
                f"more than {self.limits.max_outbox_bytes} bytes of replies wait for this "
                "client: it does not read them"
            )
            return
        if not self._hold(size):
            return
        self.waiting += size
        self.outbox.append(text)
        self._ready.set()

    async def write(self) -> None:
        while not self.stopped.is_set():
            if not self.outbox:
                self._ready.clear()
                await self._ready.wait()
                continue
            item = self.outbox.popleft()
            if item is _STATE:
                if self.table is not None:
                    # An action on its way to the disk is shown once it is there.
                    await self.table.settled()
                self._state_queued = False
                state: str | None
                try:
                    state = self._state()
                except Exception:  # the table's trouble, not the connection's
                    log.exception("state of table %s", self.table and self.table.id)
                    state = json.dumps(
                        ProtocolError(
                            "internal_error", "the table's state could not be built"
                        ).reply(),
                        separators=(",", ":"),
                    )
                if state is None:
                    continue
                text = state
                size = len(text)
                if not self._hold(size):
                    return
            else:
                assert isinstance(item, str)
                text = item
                size = len(text)
                self.waiting -= size
            try:
                await asyncio.wait_for(
                    self.websocket.send_text(text), timeout=self.limits.send_timeout
                )
            except TimeoutError:
                self.drop(f"a message waited {self.limits.send_timeout:g} s to be sent")
                return
            finally:
                if not self.stopped.is_set():
                    self._release(size)

    async def read(self) -> None:
        self.reply(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "limits": self.limits.public(),
            }
        )
        while not self.stopped.is_set():
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if not self.rate.allow():
                self.dropped_in_a_row += 1
                self.refused(
                    ProtocolError(
                        "rate_limited",
                        f"more than {self.limits.messages_per_second:g} messages a second "
                        f"(burst {self.limits.burst}); this one was dropped, wait "
                        f"{self.rate.wait():g} s",
                    ),
                    request_id_of(text),
                )
                if self.dropped_in_a_row >= self.limits.flood_close:
                    try:  # a flooder that does not read either would hold the close up
                        await asyncio.wait_for(self.websocket.close(CLOSE_POLICY, "flooding"), 1.0)
                    except TimeoutError:
                        self.drop("flooding, and not reading")
                    return
                continue
            self.dropped_in_a_row = 0
            request_id: object = None
            request: dict[str, Any] | None = None
            try:
                request = parse_request(text, self.limits)
                request_id = request.get("id")
                # Shielded: a request under way when the client goes is finished all the
                # same (its write, and what the table does then), only not answered.
                await asyncio.shield(self.handle(request))
            except ProtocolError as error:
                self.refused(error, request_id if request_id is not None else request_id_of(text))
            except Exception:
                # The request is not logged: it may hold a seat token.
                log.exception("a %r request failed", request.get("type") if request else None)
                self.refused(
                    ProtocolError("internal_error", "the server failed on this request"),
                    request_id,
                )

    def refused(self, error: ProtocolError, request_id: object) -> None:
        self.reply(error.reply(request_id))

    # --- requests --------------------------------------------------------------------

    async def handle(self, request: dict[str, Any]) -> None:
        kind = request["type"]
        lobby = self.lobby
        answer: dict[str, Any]
        if kind == "ping":
            answer = {"type": "pong"}
        elif kind == "variants":
            answer = {
                "type": "variants",
                "variants": lobby.variants,
                "bots": bot_names(),
                "levels": [name for name in LEVELS if name in bot_names()],
                "bot_descriptions": bot_descriptions(),
                "default_bot": DEFAULT_LEVEL,
            }
        elif kind == "tables":
            # The list is shared by every client asking within a moment (lobby.listing).
            tail = f',"id":{json.dumps(request["id"])}}}' if request.get("id") is not None else "}"
            self.reply_text('{"type":"tables","tables":' + lobby.listing() + tail)
            return
        elif kind == "create":
            table = await lobby.create(
                request["variant"], request.get("overrides"), request.get("bots"), self.address
            )
            answer = {"type": "created", "table": table.info()}
        elif kind == "sit":
            name = text_field(request, "name", self.limits.max_name_chars)
            player = whole_number(request, "player")
            table, player, token = await lobby.sit(table_id(request), player, name)
            answer = {"type": "seated", "table": table.id, "player": player, "token": token}
            self._answer(request, answer)
            self.follow(table, player, 0)
            return
        elif kind == "resume":
            table, player = lobby.resume(table_id(request), request["token"])
            since = whole_number(request, "since", 0) or 0
            self._history(table, player, since)
            self._answer(request, {"type": "seated", "table": table.id, "player": player})
            self.follow(table, player, since)
            return
        elif kind == "watch":
            table = lobby.table(table_id(request))
            since = whole_number(request, "since", 0) or 0
            self._history(table, None, since)
            self._answer(request, {"type": "watching", "table": table.id})
            self.follow(table, None, since)
            return
        elif kind == "bots":
            table = await lobby.add_bots(
                table_id(request), request["bots"], request["token"], self.address
            )
            answer = {"type": "bots_seated", "table": table.info()}
        elif kind == "chat":
            table, player = lobby.holder(request["token"])
            await table.chat.say(lobby, player, request["text"])
            answer = {"type": "chatted", "table": table.id}
        elif kind == "records":
            found = await asyncio.to_thread(lobby.store.records, records.LISTED)
            answer = {
                "type": "records",
                "records": [
                    {"table": table_id, "finished": finished, **json.loads(text)}
                    for table_id, finished, text in found
                ],
            }
        elif kind in ("move", "replace"):
            await self._seating(request)
            return
        else:
            assert kind == "act"
            hand = whole_number(request, "hand")
            table, version = await lobby.act(request["token"], request["action"], hand)
            answer = {"type": "ack", "table": table.id, "version": version}
        self._answer(request, answer)

    async def _seating(self, request: dict[str, Any]) -> None:
        """``move`` (to a free place before the start) and ``replace`` (a leaver, by a
        bot or by a newcomer): places.py."""
        player = whole_number(request, "player")
        assert player is not None  # a required field
        if request["type"] == "move":
            table, _ = await places.move(self.lobby, table_id(request), request["token"], player)
            self._answer(request, {"type": "moved", "table": table.id, "player": player})
            self.follow(table, player, 0)
            return
        table = await places.replace(
            self.lobby,
            table_id(request),
            request["token"],
            player,
            request.get("bot"),
            self.address,
        )
        self._answer(request, {"type": "replaced", "table": table.info()})

    def _history(self, table: Table, player: int | None, since: int) -> None:
        """Refuse a follow that would send this client more past events than its
        allowance (protocol.History): nothing changes, the connection goes on."""
        events = table.events_after(player, since)
        wait = self.lobby.history.take(self.address, events)
        if wait:
            raise ProtocolError(
                "rate_limited",
                f"{events} past events from {since} is more than this client may be sent "
                f"again now ({self.limits.history_events_per_second:g} a second); wait "
                f"{wait:g} s, or follow from a later event",
            )

    def _answer(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        if request.get("id") is not None:
            answer["id"] = request["id"]
        self.reply(answer)


def client_key(host: str | None) -> str:
    """Who a peer counts as for the per-client limits: its address, except that every
    loopback address (127.0.0.0/8, ::1) is one client, ``loopback`` (docs/web.md
    section 5: five local addresses do not hold five times the limits)."""
    if host is None:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return "loopback" if address.is_loopback else str(address)


class ConnectionGuard:
    """The connections each client holds (transports, before any HTTP is read): at most
    ``connections_per_client`` in all, WebSockets included, and at most
    ``pending_per_client`` that have not sent a whole request yet, where a newer one
    closes the oldest (a client sending its request at once is never kept out by its
    own half-sent ones). A request's headers must come within ``header_seconds``, else
    the connection is closed. Connections from a ``trusted`` proxy are not counted
    (the proxy bounds its clients; the app counts them by ``X-Forwarded-For``)."""

    def __init__(self, limits: Limits, trusted: Iterable[str] = ()) -> None:
        self.limits = limits
        self.trusted = frozenset(trusted)
        self.held: dict[str, list[Any]] = {}  # client -> its protocols, oldest first
        self.refused = 0
        self._admitted = 0

    def admit(self, protocol: Any, host: str | None) -> bool:
        """Whether a new connection may stay (else its caller aborts it)."""
        if host in self.trusted:
            return True
        self._admitted += 1
        if self._admitted % 1024 == 0:  # forget the clients that have gone
            for key in list(self.held):
                self._live(key)
        key = client_key(host)
        held = self._live(key)
        pending = [other for other in held if other.waiting_for_request()]
        if len(pending) >= self.limits.pending_per_client:
            oldest = pending[0]
            oldest.transport.abort()
            held.remove(oldest)
        elif len(held) >= self.limits.connections_per_client:
            self.refused += 1
            if self.refused % 100 == 1:
                log.warning(
                    "refused a connection from %s: it holds %d (and %d refused so far)",
                    key,
                    len(held),
                    self.refused,
                )
            return False
        held.append(protocol)
        self.held[key] = held
        return True

    def _live(self, key: str) -> list[Any]:
        held = [p for p in self.held.get(key, ()) if not p.transport.is_closing()]
        if held:
            self.held[key] = held
        else:
            self.held.pop(key, None)
        return held


def guarded_protocol(guard: ConnectionGuard) -> type[asyncio.Protocol]:
    """uvicorn's h11 HTTP protocol with :class:`ConnectionGuard`'s caps and header
    timeout (uvicorn has neither: its keep-alive timeout starts only after a response,
    so a request that never ends its headers held its socket for ever)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedProtocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not guard.admit(self, self.client[0] if self.client else None):
                transport.abort()
                return
            self._wait_for_headers()

        def waiting_for_request(self) -> bool:
            """No request's headers read yet (and not upgraded to a WebSocket)."""
            return self.cycle is None and self.transport.get_protocol() is self

        def _wait_for_headers(self) -> None:
            cycle = self.cycle
            self._timer = self.loop.call_later(
                guard.limits.header_seconds, self._headers_late, cycle
            )

        def _headers_late(self, cycle: object) -> None:
            self._timer = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or a WebSocket now (its own protocol)
            if self.cycle is cycle:  # no new request's headers since the timer began
                transport.abort()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self._timer is None:
                self._wait_for_headers()  # the next request's headers, if any

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            super().connection_lost(exc)

    return GuardedProtocol


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
ANY_HOST = "*"


def allowed_hosts_for(host: str, extra: Sequence[str] = ()) -> frozenset[str]:
    """The names a request's ``Host`` may give: the loopback names, the address the
    server listens on (unless it is a wildcard) and ``extra`` (``--allowed-host``)."""
    names = {*LOOPBACK_NAMES, *(name.lower() for name in extra)}
    if host not in ("0.0.0.0", "::", ""):
        names.add(host.lower().strip("[]"))
    return frozenset(names)


def host_name(header: str | None) -> str | None:
    """The name in a ``Host`` header, without its port (``[::1]:8000`` -> ``::1``)."""
    if not header:
        return None
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        return header[1:end] if end > 0 else None
    if header.count(":") == 1:
        header = header.split(":", 1)[0]
    return header or None


def _same_origin(websocket: WebSocket) -> bool:
    """A browser's WebSocket from a page of another site is refused (clients that are
    not browsers send no Origin)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == websocket.headers.get("host")


class HostCheck:
    """Refuses every request whose ``Host`` is not an allowed name (DNS rebinding: a
    page of evil.example whose name now points at 127.0.0.1 still says evil.example):
    HTTP gets 400, a WebSocket is closed before it is accepted (uvicorn answers 403).
    It also hands the connection's transport abort to the app (:data:`ABORT`)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        name = host_name(headers.get(b"host", b"").decode("latin-1"))
        if ANY_HOST not in self.allowed and name not in self.allowed:
            log.warning("refused a request for host %r", (name or "")[:60])
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": CLOSE_POLICY})
                return
            response = PlainTextResponse(
                "this server does not answer to that host name (see tichu serve --allowed-host)",
                status_code=400,
            )
            await response(scope, receive, send)
            return
        if scope["type"] == "websocket":
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            abort = getattr(transport, "abort", None)
            if abort is not None:
                scope = {**scope, "extensions": {**(scope.get("extensions") or {}), ABORT: abort}}
        await self.app(scope, receive, send)


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    db: str | Path,
    *,
    bot_delay: float = 0.0,
    limits: Limits | None = None,
    allowed_hosts: Iterable[str] = LOOPBACK_NAMES,
    expiry: Expiry | None = None,
    bomb_window: float = 0.0,
    bot_process: bool = False,
) -> Starlette:
    """The web table's app, its tables stored in the SQLite file ``db``; bots wait
    ``bot_delay`` seconds before each action (so that people can follow them), and
    ``bomb_window`` seconds after a play a connected person may want to bomb (bombing.py).
    Requests must name one of ``allowed_hosts`` in their ``Host`` (``"*"``: any);
    ``expiry`` says when idle and finished tables go (tables.py)."""
    state: dict[str, Any] = {}
    allowed = frozenset(name.lower() for name in allowed_hosts)

    def lobby() -> Lobby:
        current: Lobby = state["lobby"]
        return current

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = TableStore(db)
        current = Lobby(
            store,
            bot_delay=bot_delay,
            limits=limits,
            expiry=expiry,
            bomb_window=bomb_window,
            bot_process=bot_process,  # the bots think in a worker process (deciding.py)
        )
        state["lobby"] = current
        # For code on another thread (an embedding program, a test) that calls the
        # lobby's coroutines: asyncio.run_coroutine_threadsafe(..., app.state.loop).
        app.state.loop = asyncio.get_running_loop()
        state["budget"] = OutboxBudget(current.limits.max_outbox_total)
        current.restore()
        current.start()
        log.info("%d table(s) restored from %s", len(current.tables), db)
        try:
            yield
        finally:
            await current.close()
            store.close()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def record(request: Request) -> Response:
        """A finished match's saved game, for `tichu replay FILE` (records.py)."""
        wanted = request.path_params["table_id"]
        found = None
        if isinstance(wanted, str) and wanted.isalnum() and len(wanted) <= 40:
            found = await asyncio.to_thread(lobby().store.record, wanted)
        if found is None:
            return PlainTextResponse("no finished match has this id", status_code=404)
        return Response(
            found,
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="tichu-{wanted}.json"'},
        )

    async def health(request: Request) -> Response:
        tables = lobby().tables.values()
        failed = sum(1 for t in tables if t.status == "failed")
        budget: OutboxBudget = state["budget"]
        return JSONResponse(
            {
                "ok": True,
                "tables": len(tables),
                "failed": failed,
                "connections": len(state.setdefault("connections", set())),
                "outgoing_bytes": budget.total,
            }
        )

    async def websocket_endpoint(websocket: WebSocket) -> None:
        if not _same_origin(websocket):
            await websocket.close(CLOSE_POLICY, "cross-origin WebSocket refused")
            return
        await websocket.accept()
        connection = Connection(websocket, lobby(), state["budget"])
        connections: set[Connection] = state.setdefault("connections", set())
        connections.add(connection)
        tasks = [
            asyncio.create_task(connection.read()),
            asyncio.create_task(connection.write()),
            asyncio.create_task(connection.stopped.wait()),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                    await task
            reason = connection.why
            connection.stop()  # frees whatever it still holds
            abort = websocket.scope.get("extensions", {}).get(ABORT)
            if abort is not None:
                asyncio.get_running_loop().call_later(LINGER_SECONDS, abort)
            connections.discard(connection)
            if reason is not None and ABORT not in websocket.scope.get("extensions", {}):
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(websocket.close(CLOSE_TOO_SLOW, reason[:100]), 1.0)

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/health", health),
            Route("/record/{table_id}", record),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
            WebSocketRoute("/ws", websocket_endpoint),
        ],
        lifespan=lifespan,
    )
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HostCheck, allowed=allowed)
    app.state.lobby = lobby
    return app


def serve(
    host: str,
    port: int,
    db: str | Path,
    *,
    bot_delay: float = 0.5,
    allowed_hosts: Sequence[str] = (),
    expiry: Expiry | None = None,
    limits: Limits | None = None,
    trusted_proxies: Sequence[str] = (),
    bomb_window: float = 2.0,
) -> None:
    """Run the web table with uvicorn until interrupted (Ctrl-C: connections get a
    second to close, then go; a second Ctrl-C exits at once). The store is checked
    first: a file that is not one raises ``store.StoreError``, and nothing starts.
    ``trusted_proxies``: the addresses whose ``X-Forwarded-For`` names the client
    (none by default: a client is the address it connects from)."""
    # One server per store: held until this function returns (or the process ends).
    lock = StoreLock(db)
    try:
        TableStore(db).close()
    except BaseException:
        # A file refused as a store: no server will run on it; its lock goes too.
        lock.release(remove=lock.created)
        raise
    try:
        _run(host, port, db, bot_delay, allowed_hosts, expiry, limits, trusted_proxies, bomb_window)
    finally:
        lock.release()


def _run(
    host: str,
    port: int,
    db: str | Path,
    bot_delay: float,
    allowed_hosts: Sequence[str],
    expiry: Expiry | None,
    limits: Limits | None,
    trusted_proxies: Sequence[str],
    bomb_window: float,
) -> None:
    import uvicorn

    # The store's writer thread and the event loop share the GIL, and a commit hands it
    # over a few times (each SQLite call releases it). At the default 5 ms switch
    # interval each hand-over can wait 5 ms for a busy loop, and a person's
    # acknowledgement waits for its commit; 1 ms keeps that small (docs/web.md section 4).
    sys.setswitchinterval(0.001)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(
        db,
        bot_delay=bot_delay,
        limits=limits,
        allowed_hosts=allowed_hosts_for(host, allowed_hosts),
        expiry=expiry,
        bomb_window=bomb_window,
        # The bots think in a worker process unless TICHU_BOT_THREAD=1 (deciding.py;
        # the measurement that chose it: docs/web.md section 6).
        bot_process=os.environ.get("TICHU_BOT_THREAD") != "1",
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_FRAME,
        log_level="info",
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
        # Per-client connection caps and a header timeout (ConnectionGuard).
        http=guarded_protocol(ConnectionGuard(limits or Limits(), trusted_proxies)),
        # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: any
        # local program could then claim any address. Only a named proxy is believed.
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies) or None,
    )

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.should_exit and sig == signal.SIGINT:
                # The second Ctrl-C: out now. Nothing is lost: every acknowledged action
                # is committed, and a table is rebuilt from its log at the next start.
                os.write(2, b"tichu serve: stopped at once (second Ctrl-C)\n")
                os._exit(130)
            super().handle_exit(sig, frame)

    Server(config).run()
