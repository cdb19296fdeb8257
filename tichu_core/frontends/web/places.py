"""Who may sit where (the web table): a seated person's ``move`` and ``replace``.

Before the start (while a place is free) a seated person may move to any free place
(:func:`move`), so that friends can sit as partners. Once the game has begun, a seated
person may replace a person who is away by a bot for good, or open the place to a
newcomer (:func:`replace`), whom a stand-in plays for meanwhile (seating.py).

Both change the lobby's seating as :class:`~tichu_core.frontends.web.tables.Lobby`'s
own ``sit`` and ``add_bots`` do: one change at a time (the lobby's lock), written to
the store before it takes effect.
"""

from __future__ import annotations

import contextlib
from functools import partial

from tichu_core.frontends.bots import bot_names, unknown_bot_message
from tichu_core.frontends.web.protocol import ProtocolError
from tichu_core.frontends.web.store import SeatRecord
from tichu_core.frontends.web.tables import Lobby, Table


async def move(lobby: Lobby, table_id: str, token: object, player: int) -> tuple[Table, int]:
    """A seated person moves to the free place ``player`` before the game begins; the
    table and the place it left."""
    async with lobby._changes:
        table, old = lobby.resume(table_id, token)
        if table.started:
            raise ProtocolError(
                "started", "the game has begun: places are chosen before the start only"
            )
        if player == old:
            raise ProtocolError("taken", f"you sit at place {player} already")
        lobby._free(table, [player])
        seat = table.seats[old]
        moved = SeatRecord(player, seat.kind, seat.name, seat.token_hash)
        await lobby.writer.write(
            partial(lobby.store.put_seat_moved, table.id, old, player), urgent=True
        )
        del table.seats[old]
        table.seats[player] = moved
        table.record.seats = [s for s in table.record.seats if s.player != old] + [moved]
        assert moved.token_hash is not None
        lobby._tokens[moved.token_hash] = (table, player)
        lobby._generation += 1
        table.notify()
        return table, old


async def replace(
    lobby: Lobby, table_id: str, token: object, player: int, bot: object, client: str
) -> Table:
    """A seated person replaces the person at place ``player``, who is away, by the bot
    ``bot`` for good, or (``bot`` None) opens the place to a newcomer (a stand-in plays
    it meanwhile)."""
    async with lobby._changes:
        table, mine = lobby.resume(table_id, token)
        if table.version == 0:
            raise ProtocolError(
                "not_started",
                "before the first move a free place waits for anyone: replace a person "
                "once the game is under way",
            )
        seat = table.seats.get(player)
        if not isinstance(player, int) or seat is None or seat.kind != "human":
            raise ProtocolError("bad_player", f"place {player} is not held by a person")
        if player == mine:
            raise ProtocolError("bad_player", "you cannot replace yourself")
        if any(f.player == player for f in table.followers):
            raise ProtocolError(
                "not_away", f"{seat.name} is at the table: only a leaver is replaced"
            )
        if bot is not None:
            if not isinstance(bot, str) or bot not in bot_names():
                raise ProtocolError("unknown_bot", unknown_bot_message(str(bot)[:40]))
            lobby._bots_allowed(client, 1)
        new = SeatRecord(player, "bot", bot) if isinstance(bot, str) else None
        await lobby.writer.write(
            partial(lobby.store.put_seat_replaced, table.id, player, new), urgent=True
        )
        assert seat.token_hash is not None
        lobby._tokens.pop(seat.token_hash, None)
        table.record.seats = [s for s in table.record.seats if s.player != player]
        del table.seats[player]
        stand_ins = table.stand_ins
        stand_in = stand_ins.bots.pop(player, None)
        if stand_in is not None and table.bots.get(player) is stand_in:
            del table.bots[player]
        if new is not None:
            table.seats[player] = new
            table.record.seats.append(new)
            table.add_bot(new)
            table.bots_by[client] = table.bots_by.get(client, 0) + 1
        lobby._generation += 1
        with contextlib.suppress(Exception):
            stand_ins.update()
        table.notify()
        table.start_bots()
        return table
