"""The tables a server holds: their games, who sits where, their bots and who watches.

A :class:`Lobby` owns every table and the store behind them. A :class:`Table` holds
one match: the ``Game``, the occupant of each player's place (a person with a
secret token, or a bot), and the connections that follow it. Every change goes
through :meth:`Table.commit`: the action is applied, written to the store, and only
then acknowledged and shown to the followers, each through its own
``observation(player)`` and ``events_for(player, since)``. Nothing here knows about
WebSockets: a follower is anything with a ``player`` and a ``table_changed()``.

A table that cannot go on (a bot or plugin failing, a log that no longer replays)
is marked failed with the reason; the other tables and the server go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Iterable
from typing import Any, Protocol

import tichu_core as tc
from tichu_core.frontends.bots import Bot, bot_names, decide, make_bot, unknown_bot_message
from tichu_core.frontends.web.protocol import Limits, ProtocolError, legal_for
from tichu_core.frontends.web.store import SeatRecord, TableRecord, TableStore, token_hash

log = logging.getLogger("tichu.web")

# Table sizes tried for each variant's `players` option (SPEC: 3 to 12 people).
_TABLE_SIZES = range(2, 13)

# What each bot is, in words for the lobby; a bot another package registers (or one
# this table does not know yet) is described by its name.
_BOT_WORDS = {
    "random": "plays any legal move at random and never calls: for trying the rules",
    "greedy": "sheds its weakest cards, beats with the least it can, lets its partner's "
    "tricks stand, bombs only to stop an opponent going out",
    "heuristic": "a sensible player: plans how to get rid of its hand, keeps bombs for "
    "when they matter, calls Tichu on a strong hand, never overtakes its partner",
    "search": "plans by playing out sampled worlds: deals the cards it cannot see at "
    "random many times, plays each deal out and picks the move that scores best "
    "(the strongest bot, and the slowest)",
}


def bot_descriptions() -> dict[str, str]:
    """Every bot name (``bot_names()``) with what that bot is, for people choosing one."""
    return {
        name: _BOT_WORDS.get(name, f"a bot registered by another package ({name})")
        for name in bot_names()
    }


class Follower(Protocol):
    """A connection that follows a table: as a player, or as a spectator (None)."""

    player: int | None

    def table_changed(self) -> None: ...


def variant_catalogue() -> list[dict[str, Any]]:
    """The bundled and registered variants a table may be created with: name,
    description, default table size and every size the variant allows."""
    catalogue = []
    for name in tc.list_variants():
        try:
            variant = tc.load_variant(name)
        except tc.TichuError as error:
            log.warning("variant %s is not offered: %s", name, error)
            continue
        sizes = []
        for size in _TABLE_SIZES:
            with contextlib.suppress(tc.TichuError):
                tc.load_variant(name, overrides={"players": size})
                sizes.append(size)
        catalogue.append(
            {
                "name": name,
                # The words before the description's colon name the game ("Threechu:
                # 3 players, ..."); a house rule is named by the whole description.
                "title": _title(variant.description, name),
                "description": variant.description,
                "players": variant.players,
                "sizes": sizes,
            }
        )
    return catalogue


def _title(description: str, name: str) -> str:
    head, colon, _ = description.partition(":")
    if not colon or head.strip().lower() == "house rule" or not head.strip():
        return description.strip() or name
    return head.strip()


def hand_sheets(game: tc.Game) -> list[dict[str, Any]]:
    """Every finished hand of ``game`` as the score sheet shows it: the engine's
    ``HandResult`` and, per seat, the score line it counts for; with the variant's
    values of the calls and of a double victory, so that the page can name each part
    of a hand's score (all of it public once the hand is over)."""
    variant = game.variant
    per_player = variant.scoring.per_player
    lines = len(game.score_lines)
    sheets = []
    for result in game.hand_results:
        seat_lines = [
            (lines - 1 if player is None else player) if per_player else variant.team_of(seat)
            for seat, player in enumerate(result.players)
        ]
        sheet = result.model_dump(mode="json")
        sheet["lines"] = seat_lines
        sheets.append(sheet)
    return sheets


def scoring_values(game: tc.Game) -> dict[str, int]:
    variant = game.variant
    return {
        "tichu": variant.calls.tichu_points,
        "grand_tichu": variant.calls.grand_tichu_points,
        "double_victory": variant.scoring.double_victory,
    }


def _overrides(value: object) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > 64:
        raise ProtocolError(
            "bad_message", "'overrides' maps dotted option keys to values (at most 64)"
        )
    for key, item in value.items():
        if not isinstance(key, str) or not 0 < len(key) <= 100:
            raise ProtocolError("bad_message", "an override key is a dotted option name")
        if isinstance(item, dict):
            raise ProtocolError(
                "bad_message", f"override {key!r}: give each option by its dotted key"
            )
    return dict(value)


def _bot_choices(value: object, players: int) -> dict[int, str]:
    """``{"1": "greedy", ...}`` (player number -> bot name) read and checked."""
    if not isinstance(value, dict) or len(value) > players:
        raise ProtocolError("bad_message", "'bots' maps player numbers (as JSON keys) to bot names")
    known = bot_names()
    chosen: dict[int, str] = {}
    for key, name in value.items():
        if not (isinstance(key, str) and key.isdecimal() and str(int(key)) == key):
            raise ProtocolError("bad_message", f"'bots': {key!r:.20} is not a player number")
        player = int(key)
        if player >= players:
            raise ProtocolError(
                "bad_player", f"player {player} is not at this table (0..{players - 1})"
            )
        if not isinstance(name, str) or name not in known:
            raise ProtocolError("unknown_bot", unknown_bot_message(str(name)[:40]))
        chosen[player] = name
    return chosen


class Table:
    """One match, its seating, bots and followers."""

    def __init__(self, lobby: Lobby, record: TableRecord) -> None:
        self.lobby = lobby
        self.record = record
        self.id = record.id
        self.game: tc.Game | None = None
        self.error: str | None = None
        self.seats: dict[int, SeatRecord] = {seat.player: seat for seat in record.seats}
        self.bots: dict[int, Bot] = {}
        self.followers: set[Follower] = set()
        self._bot_task: asyncio.Task[None] | None = None
        try:
            self.game = self._replay()
        except Exception as error:  # whatever it is, this table alone stops
            self.fail(f"the table could not be restored: {error}")
        for seat in record.seats:
            if seat.kind == "bot":
                try:
                    self.add_bot(seat)
                except Exception as error:  # e.g. a registered bot no longer installed
                    self.fail(f"bot {seat.name!r} of player {seat.player}: {error}")

    # --- the game --------------------------------------------------------------------

    def _replay(self) -> tc.Game:
        """The game from its variant, seed and logged actions (docs/api.md section 6)."""
        record = self.record
        variant = tc.load_variant(record.variant, overrides=record.overrides or None)
        game = tc.Game(variant, seed=record.seed)
        for action in record.actions:
            game.apply(action)
        return game

    @property
    def version(self) -> int:
        """How many actions the table has taken (and stored)."""
        return len(self.record.actions)

    @property
    def players(self) -> int:
        return self.game.players if self.game is not None else len(self.seats)

    @property
    def status(self) -> str:
        if self.error is not None:
            return "failed"
        if self.game is not None and self.game.is_over:
            return "over"
        return "playing" if len(self.seats) == self.players else "waiting"

    def fail(self, reason: str) -> None:
        """Stop this table for good (it stays visible, with the reason)."""
        log.error("table %s failed: %s", self.id, reason)
        self.error = reason
        self.notify()

    def commit(self, action: tc.Action) -> None:
        """Apply ``action``, then log it; raises (the table unchanged) when either fails.
        The caller acknowledges only after this returns: the action is on disk."""
        game = self.game
        if game is None or self.error is not None:
            raise ProtocolError("table_failed", f"table {self.id} has stopped: {self.error}")
        game.apply(action)
        text = json.dumps(tc.action_to_dict(action), separators=(",", ":"))
        try:
            self.lobby.store.add_action(self.id, self.version, text)
        except Exception as error:
            # The game is one action ahead of its log: rebuild it from the log.
            log.exception("table %s: storing action %d failed", self.id, self.version)
            try:
                self.game = self._replay()
            except Exception as replay_error:
                self.fail(f"the table could not be rebuilt after a storage error: {replay_error}")
            raise ProtocolError(
                "storage_error", f"the action could not be saved, nothing changed ({error})"
            ) from error
        self.record.actions.append(text)
        self.notify()
        self.start_bots()

    def act(self, player: int, raw: object) -> int:
        """A person's action for one of the seats its player acts for; the new version."""
        game = self.game
        if game is None or self.error is not None:
            raise ProtocolError("table_failed", f"table {self.id} has stopped: {self.error}")
        if not self.started:
            free = self.players - len(self.seats)
            raise ProtocolError(
                "not_started", f"the game starts when every place is taken ({free} free)"
            )
        if not isinstance(raw, dict):
            raise ProtocolError("invalid_action", "'action' is an action's JSON object")
        try:
            action = tc.action_from_json(raw)
        except tc.InvalidAction as error:
            raise ProtocolError("invalid_action", str(error)) from None
        if not 0 <= action.seat < game.seats or game.controller(action.seat) != player:
            mine = [s for s in range(game.seats) if game.controller(s) == player]
            raise ProtocolError(
                "not_your_seat",
                f"player {player} acts for seat(s) {mine}, not for seat {action.seat}",
            )
        try:
            self.commit(action)
        except tc.IllegalAction as error:
            raise ProtocolError("illegal_action", str(error), rule=error.rule) from None
        except tc.InvalidAction as error:
            raise ProtocolError("invalid_action", str(error)) from None
        except tc.PluginError as error:
            raise ProtocolError("plugin_error", str(error)) from None
        return self.version

    # --- bots ------------------------------------------------------------------------

    def add_bot(self, seat: SeatRecord) -> None:
        self.bots[seat.player] = make_bot(seat.name, secrets.randbits(32))

    @property
    def started(self) -> bool:
        """Whether the game has begun: it waits until every place is taken."""
        return len(self.seats) >= self.players

    def _bot_seat(self) -> int | None:
        """A seat the game waits for whose player is a bot, if any."""
        game = self.game
        if game is None or self.error is not None or game.is_over or not self.started:
            return None
        for seat in game.waiting_for:
            if game.controller(seat) in self.bots:
                return seat
        return None

    def start_bots(self) -> None:
        """Let the bots act while the game waits for one of them (in the background, one
        action at a time, the server's bot delay between two)."""
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self._bot_seat() is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no server running: the bots start with it (Lobby.start)
        self._bot_task = loop.create_task(self._run_bots(), name=f"bots of table {self.id}")

    async def _run_bots(self) -> None:
        try:
            while True:
                await asyncio.sleep(self.lobby.bot_delay)
                seat = self._bot_seat()
                if seat is None or self.game is None:
                    return
                bot = self.bots[self.game.controller(seat)]
                self.commit(decide(bot, self.game, seat))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a failing bot stops its own table only
            self.fail(f"a bot failed: {type(error).__name__}: {error}")

    async def stop(self) -> None:
        task = self._bot_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # --- followers and what they see -----------------------------------------------

    def notify(self) -> None:
        for follower in list(self.followers):
            follower.table_changed()

    def info(self) -> dict[str, Any]:
        """What anyone may know about the table (never a seed, a token or a card)."""
        online: dict[int | None, int] = {}
        for follower in self.followers:
            online[follower.player] = online.get(follower.player, 0) + 1
        game = self.game
        seating = []
        for player in range(self.players):
            seat = self.seats.get(player)
            seating.append(
                {
                    "player": player,
                    "kind": seat.kind if seat is not None else "free",
                    "name": seat.name if seat is not None else None,
                    "online": online.get(player, 0),
                }
            )
        return {
            "id": self.id,
            "variant": self.record.variant,
            "variant_title": self.lobby.titles.get(self.record.variant, self.record.variant),
            "overrides": self.record.overrides,
            "players": self.players,
            "seats": game.seats if game is not None else None,
            "status": self.status,
            "error": self.error,
            "version": self.version,
            "hand": game.hand_index if game is not None else None,
            "seating": seating,
            "spectators": online.get(None, 0),
        }

    def state(self, player: int | None, since: int) -> dict[str, Any]:
        """The ``state`` message for ``player`` (None: a spectator): the table, the
        player's observation, its events from position ``since`` of its own stream and
        what each seat it acts for may do now."""
        message: dict[str, Any] = {
            "type": "state",
            "table": self.info(),
            "player": player,
            "version": self.version,
            "events_from": since,
            "events": [],
            "observation": None,
            "legal": {},
        }
        game = self.game
        if game is None or not self.started:
            return message  # no cards are shown before every place is taken
        observation = game.observation(player)
        message["observation"] = observation.model_dump(mode="json")
        message["events"] = [e.model_dump(mode="json") for e in game.events_for(player, since)]
        message["results"] = hand_sheets(game)
        message["scoring"] = scoring_values(game)
        message["winners"] = game.winners
        if self.error is None and player is not None:
            message["legal"] = {
                str(seat): legal_for(game, seat, observation)
                for seat in observation.seats
                if len(game.legal_actions(seat))
            }
        return message


class Lobby:
    """Every table of a server, the store behind them and the tokens of their seats."""

    def __init__(
        self, store: TableStore, *, bot_delay: float = 0.0, limits: Limits | None = None
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self._tokens: dict[str, tuple[Table, int]] = {}
        self.variants = variant_catalogue()
        self._variant_names = {entry["name"] for entry in self.variants}
        self.titles: dict[str, str] = {entry["name"]: entry["title"] for entry in self.variants}

    def restore(self) -> None:
        """Rebuild every stored table (a table that no longer replays is marked failed)."""
        for record in self.store.load():
            self._install(Table(self, record))

    def start(self) -> None:
        """Start the bots of every table that waits for one (needs the running loop)."""
        for table in self.tables.values():
            table.start_bots()

    async def close(self) -> None:
        for table in self.tables.values():
            await table.stop()

    def _install(self, table: Table) -> None:
        self.tables[table.id] = table
        for seat in table.seats.values():
            if seat.token_hash is not None:
                self._tokens[seat.token_hash] = (table, seat.player)

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("no_table", f"there is no table {table_id!r:.70}")
        return table

    def create(self, variant: object, overrides: object, bots: object) -> Table:
        if not isinstance(variant, str) or variant not in self._variant_names:
            known = ", ".join(sorted(self._variant_names))
            raise ProtocolError(
                "bad_variant", f"unknown variant {str(variant)[:40]!r}; known: {known}"
            )
        if len(self.tables) >= self.limits.max_tables:
            raise ProtocolError(
                "server_full", f"this server holds {self.limits.max_tables} tables already"
            )
        options = _overrides(overrides)
        try:
            # A bundled name only (never a path: a client must not read the server's files),
            # and no plugin imports by module path (allow_imports stays off).
            game = tc.Game(tc.load_variant(variant, overrides=options or None), seed=0)
        except tc.TichuError as error:
            raise ProtocolError("bad_variant", str(error)) from None
        chosen = _bot_choices(bots, game.players) if bots is not None else {}
        record = TableRecord(
            id=self._new_id(), variant=variant, overrides=options, seed=secrets.randbits(63)
        )
        record.seats = [SeatRecord(p, "bot", name) for p, name in sorted(chosen.items())]
        self.store.add_table(record)
        if record.seats:
            self.store.add_seats(record.id, record.seats)
        table = Table(self, record)
        self._install(table)
        table.start_bots()
        return table

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_hex(5)
            if table_id not in self.tables:
                return table_id

    def _free(self, table: Table, players: Iterable[int]) -> None:
        for player in players:
            if not 0 <= player < table.players:
                raise ProtocolError(
                    "bad_player", f"player {player} is not at this table (0..{table.players - 1})"
                )
            if player in table.seats:
                raise ProtocolError("taken", f"player {player}'s place is taken")

    def _seat(self, table: Table, seats: list[SeatRecord]) -> None:
        if table.error is not None:
            raise ProtocolError("table_failed", f"table {table.id} has stopped: {table.error}")
        self.store.add_seats(table.id, seats)
        for seat in seats:
            table.seats[seat.player] = seat
            table.record.seats.append(seat)
            if seat.kind == "bot":
                table.add_bot(seat)
            else:
                assert seat.token_hash is not None
                self._tokens[seat.token_hash] = (table, seat.player)
        table.notify()
        table.start_bots()

    def sit(self, table_id: str, player: int | None, name: str | None) -> tuple[Table, int, str]:
        """Take a player's place (the first free one if ``player`` is None): the table,
        the player and its secret token, which only this reply ever carries."""
        table = self.table(table_id)
        if name is not None:
            name = name.strip()
            if not name:
                raise ProtocolError("bad_name", "a name needs at least one visible character")
        if player is None:
            free = [p for p in range(table.players) if p not in table.seats]
            if not free:
                raise ProtocolError("taken", f"every place at table {table_id} is taken")
            player = free[0]
        self._free(table, [player])
        token = secrets.token_urlsafe(24)
        seat = SeatRecord(player, "human", name or f"Player {player + 1}", token_hash(token))
        self._seat(table, [seat])
        return table, player, token

    def add_bots(self, table_id: str, bots: object, token: object) -> Table:
        """Seat bots at free places, for a person seated at the table (``token``): a
        visitor who only watches cannot fill the places that friends are to take."""
        table, _ = self.resume(table_id, token)
        chosen = _bot_choices(bots, table.players)
        self._free(table, chosen)
        self._seat(table, [SeatRecord(p, "bot", name) for p, name in sorted(chosen.items())])
        return table

    def holder(self, token: object) -> tuple[Table, int]:
        """The table and player a seat token acts for."""
        if not isinstance(token, str) or not 0 < len(token) <= 100:
            raise ProtocolError("bad_token", "'token' is the seat token 'seated' gave")
        found = self._tokens.get(token_hash(token))
        if found is None:
            raise ProtocolError("bad_token", "this seat token is not valid at any table")
        return found

    def resume(self, table_id: str, token: object) -> tuple[Table, int]:
        table = self.table(table_id)
        held, player = self.holder(token)
        if held is not table:
            raise ProtocolError("bad_token", f"this seat token is not valid at table {table_id}")
        return table, player

    def act(self, token: object, action: object) -> tuple[Table, int]:
        """A person's action, checked against its token; the table and its new version."""
        table, player = self.holder(token)
        return table, table.act(player, action)
