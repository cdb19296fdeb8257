"""The ASGI app of ``tichu serve``: the page, its static files and the WebSocket.

``create_app(db)`` builds a Starlette app whose tables live in the SQLite file
``db``: at start-up every stored table is rebuilt (its bots go on), and on
``/ws`` each connection speaks the protocol of docs/web.md. ``serve`` runs the app
with uvicorn.

Each connection has a reader (requests, rate-limited, answered in order) and a
writer (replies, and the ``state`` of the table it follows, built when it is sent:
a burst of bot moves becomes one message with all their events). A request that
fails gets an ``error`` reply and changes nothing; the connection goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from tichu_core.frontends.bots import bot_names
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
from tichu_core.frontends.web.store import TableStore
from tichu_core.frontends.web.tables import Lobby, Table, bot_descriptions

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
# Replies waiting for a client that does not read them; more closes the connection.
MAX_OUTBOX = 256
CLOSE_POLICY = 1008

_STATE = object()  # in an outbox: "send the followed table's state now"


class Connection:
    """One WebSocket client: the requests it sends, the table it follows."""

    def __init__(self, websocket: WebSocket, lobby: Lobby) -> None:
        self.websocket = websocket
        self.lobby = lobby
        self.limits = lobby.limits
        self.table: Table | None = None
        self.player: int | None = None
        self.sent = 0  # events of the player's stream already sent
        self.outbox: asyncio.Queue[object] = asyncio.Queue()
        self._state_queued = False
        self.rate = RateLimiter(self.limits.messages_per_second, self.limits.burst)
        self.dropped_in_a_row = 0

    # --- following a table -----------------------------------------------------------

    def table_changed(self) -> None:
        if not self._state_queued:
            self._state_queued = True
            self.outbox.put_nowait(_STATE)

    def follow(self, table: Table, player: int | None, since: int) -> None:
        self.unfollow()
        self.table, self.player, self.sent = table, player, since
        table.followers.add(self)
        table.notify()  # the newcomer's state, and everyone sees it online

    def unfollow(self) -> None:
        if self.table is not None:
            self.table.followers.discard(self)
            self.table.notify()
            self.table = None

    def _state(self) -> dict[str, Any] | None:
        table = self.table
        if table is None:
            return None
        message = table.state(self.player, self.sent)
        self.sent += len(message["events"])
        return message

    # --- the two loops ---------------------------------------------------------------

    def reply(self, message: dict[str, Any]) -> None:
        if self.outbox.qsize() >= MAX_OUTBOX:
            raise ConnectionAbortedError("the client does not read its replies")
        self.outbox.put_nowait(message)

    async def write(self) -> None:
        while True:
            item = await self.outbox.get()
            if item is _STATE:
                self._state_queued = False
                try:
                    message = self._state()
                except Exception:  # the table's trouble, not the connection's
                    log.exception("state of table %s", self.table and self.table.id)
                    message = ProtocolError(
                        "internal_error", "the table's state could not be built"
                    ).reply()
                if message is None:
                    continue
            else:
                assert isinstance(item, dict)
                message = item
            await self.websocket.send_text(json.dumps(message, separators=(",", ":")))

    async def read(self) -> None:
        self.reply(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "limits": self.limits.public(),
            }
        )
        while True:
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
                    await self.websocket.close(CLOSE_POLICY, "flooding")
                    return
                continue
            self.dropped_in_a_row = 0
            request_id: object = None
            request: dict[str, Any] | None = None
            try:
                request = parse_request(text, self.limits)
                request_id = request.get("id")
                self.handle(request)
            except ProtocolError as error:
                self.refused(error, request_id if request_id is not None else request_id_of(text))
            except ConnectionAbortedError:
                raise
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

    def handle(self, request: dict[str, Any]) -> None:
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
                "bot_descriptions": bot_descriptions(),
            }
        elif kind == "tables":
            answer = {"type": "tables", "tables": [t.info() for t in lobby.tables.values()]}
        elif kind == "create":
            table = lobby.create(request["variant"], request.get("overrides"), request.get("bots"))
            answer = {"type": "created", "table": table.info()}
        elif kind == "sit":
            name = text_field(request, "name", self.limits.max_name_chars)
            player = whole_number(request, "player")
            table, player, token = lobby.sit(table_id(request), player, name)
            answer = {"type": "seated", "table": table.id, "player": player, "token": token}
            self._answer(request, answer)
            self.follow(table, player, 0)
            return
        elif kind == "resume":
            table, player = lobby.resume(table_id(request), request["token"])
            since = whole_number(request, "since", 0) or 0
            self._answer(request, {"type": "seated", "table": table.id, "player": player})
            self.follow(table, player, since)
            return
        elif kind == "watch":
            table = lobby.table(table_id(request))
            since = whole_number(request, "since", 0) or 0
            self._answer(request, {"type": "watching", "table": table.id})
            self.follow(table, None, since)
            return
        elif kind == "bots":
            table = lobby.add_bots(table_id(request), request["bots"], request["token"])
            answer = {"type": "bots_seated", "table": table.info()}
        else:
            assert kind == "act"
            table, version = lobby.act(request["token"], request["action"])
            answer = {"type": "ack", "table": table.id, "version": version}
        self._answer(request, answer)

    def _answer(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        if request.get("id") is not None:
            answer["id"] = request["id"]
        self.reply(answer)


def _same_origin(websocket: WebSocket) -> bool:
    """A browser's WebSocket from a page of another site is refused (clients that are
    not browsers send no Origin)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == websocket.headers.get("host")


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
    db: str | Path, *, bot_delay: float = 0.0, limits: Limits | None = None
) -> Starlette:
    """The web table's app, its tables stored in the SQLite file ``db``; bots wait
    ``bot_delay`` seconds before each action (so that people can follow them)."""
    state: dict[str, Lobby] = {}

    def lobby() -> Lobby:
        return state["lobby"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = TableStore(db)
        state["lobby"] = current = Lobby(store, bot_delay=bot_delay, limits=limits)
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

    async def health(request: Request) -> Response:
        tables = lobby().tables.values()
        failed = sum(1 for t in tables if t.status == "failed")
        return JSONResponse({"ok": True, "tables": len(tables), "failed": failed})

    async def websocket_endpoint(websocket: WebSocket) -> None:
        if not _same_origin(websocket):
            await websocket.close(CLOSE_POLICY, "cross-origin WebSocket refused")
            return
        await websocket.accept()
        connection = Connection(websocket, lobby())
        writer = asyncio.create_task(connection.write())
        try:
            await connection.read()
        except ConnectionAbortedError as stop:
            with contextlib.suppress(Exception):
                await websocket.close(CLOSE_POLICY, str(stop)[:100])
        except (WebSocketDisconnect, RuntimeError):
            pass  # the client went away
        finally:
            connection.unfollow()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/health", health),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
            WebSocketRoute("/ws", websocket_endpoint),
        ],
        lifespan=lifespan,
    )
    app.add_middleware(SecurityHeaders)
    app.state.lobby = lobby
    return app


def serve(host: str, port: int, db: str | Path, *, bot_delay: float = 0.5) -> None:
    """Run the web table with uvicorn until interrupted."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(db, bot_delay=bot_delay)
    uvicorn.run(app, host=host, port=port, ws_max_size=WS_MAX_FRAME, log_level="info")
