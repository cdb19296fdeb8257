"""A table's chat (the web table): short messages from the people seated at it, kept
with the table in the store and shown to everyone who follows it.

A message is plain text: at most :data:`MAX_CHARS` characters, its control characters
dropped, never empty; the page shows it as text, never as HTML. One seated person may
send :data:`RATE` messages a second, :data:`BURST` at once (more are refused with
``rate_limited``); a table keeps its last :data:`KEPT` messages.
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import asdict
from functools import partial
from typing import Any

from tichu_core.frontends.web.facets import Chatted, StoreHolder
from tichu_core.frontends.web.protocol import ProtocolError, RateLimiter
from tichu_core.frontends.web.store import ChatLine

MAX_CHARS = 300
RATE = 1.0  # messages a second per seated person ...
BURST = 5  # ... with this many at once
KEPT = 200  # messages a table keeps (and sends to a newcomer)


def clean(text: object) -> str:
    """The message's text: control characters (line breaks too) become spaces, runs of
    spaces one, the ends trimmed; a ``bad_message`` error for anything that is not
    text, is empty then, or is longer than :data:`MAX_CHARS`."""
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "'text' is the message, as a string")
    shown = "".join(" " if unicodedata.category(c).startswith("C") else c for c in text)
    shown = " ".join(shown.split())
    if not shown:
        raise ProtocolError("bad_message", "a chat message needs at least one visible character")
    if len(shown) > MAX_CHARS:
        raise ProtocolError(
            "too_large", f"a chat message has at most {MAX_CHARS} characters (got {len(shown)})"
        )
    return shown


def line_json(line: ChatLine) -> dict[str, Any]:
    return asdict(line)


class TableChat:
    """The chat of one table: its messages and each person's rate."""

    def __init__(self, table: Chatted, lines: list[ChatLine]) -> None:
        self.table = table
        self.lines = lines[-KEPT:]
        self.count = len(lines)  # messages ever stored (the next one's number)
        self._rates: dict[int, RateLimiter] = {}

    def message(self) -> dict[str, Any]:
        """The ``chat`` message a follower gets on following: the kept messages."""
        return {
            "type": "chat",
            "table": self.table.id,
            "history": True,
            "messages": [line_json(line) for line in self.lines],
        }

    async def say(self, lobby: StoreHolder, player: int, text: object) -> ChatLine:
        """Store ``player``'s message and send it to everyone following the table."""
        shown = clean(text)
        rate = self._rates.setdefault(player, RateLimiter(RATE, BURST))
        if not rate.allow():
            raise ProtocolError(
                "rate_limited",
                f"at most {RATE:g} chat message a second ({BURST} at once); wait {rate.wait():g} s",
            )
        table = self.table
        seat = table.seats.get(player)
        line = ChatLine(time.time(), player, seat.name if seat is not None else "?", shown)
        number = self.count
        self.count += 1
        await lobby.writer.write(partial(lobby.store.put_chat, table.id, number, line))
        self.lines.append(line)
        del self.lines[:-KEPT]
        said = {"type": "chat", "table": table.id, "messages": [line_json(line)]}
        for follower in list(table.followers):
            reply = getattr(follower, "reply", None)
            if reply is not None:
                reply(said)
        return line
