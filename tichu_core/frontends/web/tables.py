"""The tables a server holds: their games, who sits where, their bots and who watches.

A :class:`Lobby` owns every table and the store behind them. A :class:`Table` holds
one match: the ``Game``, the occupant of each player's place (a person with a
secret token, or a bot), and the connections that follow it. Every change goes
through :meth:`Table.commit`: the action is applied, written to the store, and only
then acknowledged and shown to the followers, each through its own
``observation(player)`` and ``events_for(player, since)``. Nothing here knows about
WebSockets: a follower is anything with a ``player`` and a ``table_changed()``.

The store is written by its writer thread (store.py, :class:`StoreWriter`): the event
loop waits for no disk. A table has at most one action on its way to the disk; the
next one (a person's, or its bots') is applied only after it is committed, so that a
table's log is stored in order and nobody is shown a move that is not stored yet.

A table that cannot go on (a bot or plugin failing, a log that no longer replays)
is marked failed with the reason; the other tables and the server go on.

A server's footprint is bounded: tables that nobody follows expire (:class:`Expiry`)
when finished or idle, one client (an address) holds only so many tables and bots
(:class:`Limits`), and every bot of the server shares one pace (:class:`BotPace`), so
that bots never take the time people's requests need.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import Any

import tichu_core as tc
from tichu_core.frontends.bots import Bot, bot_names, make_bot, unknown_bot_message
from tichu_core.frontends.bots.driver import Chance, Driver, shown_variant
from tichu_core.frontends.web.bombing import BombWindow
from tichu_core.frontends.web.chat import TableChat
from tichu_core.frontends.web.deciding import Deciding
from tichu_core.frontends.web.facets import Follower
from tichu_core.frontends.web.protocol import History, Limits, ProtocolError, legal_for
from tichu_core.frontends.web.records import Recorder
from tichu_core.frontends.web.seating import StandIns, place_teams
from tichu_core.frontends.web.store import (
    SeatRecord,
    StoreWriter,
    TableRecord,
    TableStore,
    token_hash,
)

log = logging.getLogger("tichu.web")

# A close of the lobby (Ctrl-C) slower than this is logged with the time of each part.
SLOW_CLOSE_SECONDS = 1.0

# Table sizes tried for each variant's `players` option (3 to 12 people, docs/variants.md).
_TABLE_SIZES = range(2, 13)


@dataclass(frozen=True)
class Expiry:
    """When tables go. A table that nobody follows is dropped from memory (and marked
    expired in the store: it is not restored again) once ``finished`` seconds have
    passed since its last change if it is over or failed, or ``idle`` seconds if it is
    not; its rows are deleted from the store ``store`` seconds after that. The lobby
    looks every ``sweep`` seconds."""

    idle: float = 6 * 3600.0
    finished: float = 600.0
    store: float = 7 * 86400.0
    sweep: float = 30.0


class BotPace:
    """A pace shared by every bot of a server: at most ``rate`` bot actions a second
    together. A bot at a table where a person is connected goes before bots playing
    among themselves; otherwise in the order they asked. People's requests never wait
    for it."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self._waiting: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (
            deque(),
            deque(),
        )
        self._releaser: asyncio.Task[None] | None = None

    async def acquire(self, first: bool = False) -> None:
        """Wait for a slot (``first``: a person waits for this bot)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[0 if first else 1].append(future)
        if self._releaser is None or self._releaser.done():
            self._releaser = asyncio.get_running_loop().create_task(self._release())
        await future

    async def _release(self) -> None:
        while any(self._waiting):
            queue = self._waiting[0] or self._waiting[1]
            future = queue.popleft()
            if future.done():  # its bot was cancelled
                continue
            future.set_result(None)
            await asyncio.sleep(self.interval)

    def close(self) -> None:
        if self._releaser is not None:
            self._releaser.cancel()


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


class _Moved(Exception):
    """A bot's answer is for a game that has moved on since it was asked."""


def _hand_over(meant_for: int, now: int) -> ProtocolError:
    return ProtocolError(
        "hand_over",
        f"this action was meant for hand {meant_for}; the table is at hand {now}: nothing "
        "was applied",
    )


class Table:
    """One match, its seating, bots and followers."""

    def __init__(self, lobby: Lobby, record: TableRecord, creator: str | None = None) -> None:
        self.lobby = lobby
        self.record = record
        self.id = record.id
        self.creator = creator  # the address that created it (None once restored)
        self.bots_by: dict[str, int] = {}  # address -> bots it seated here
        self.touched = max(record.created, record.touched)  # the last change (time.time)
        self._info_json: str | None = None  # info() as JSON, until the next change
        # state_text's shared parts, for the game as it was at _states_stamp.
        self._states: dict[tuple[int | None, int], tuple[str, int]] = {}
        self._states_stamp: tuple[object, ...] = ()
        self._texts: dict[int | None, list[str]] = {}  # _event_texts, for _texts_game
        self._texts_game: tc.Game | None = None
        self._sheets: tuple[tc.Game | None, int, list[dict[str, Any]]] = (None, 0, [])
        self.game: tc.Game | None = None
        self.error: str | None = None
        self.seats: dict[int, SeatRecord] = {seat.player: seat for seat in record.seats}
        self.bots: dict[int, Bot] = {}
        self.followers: set[Follower] = set()
        self._bot_task: asyncio.Task[None] | None = None
        # The action on its way to the store (done once committed or refused), if any.
        self._writing: asyncio.Future[None] | None = None
        # Actions applied to the game (and games rebuilt): a bot's answer, thought out
        # off the loop, is taken only if this has not changed since it was asked.
        self._moves = 0
        # Who is asked next (bots only: people act through their buttons, out of turn
        # too, whenever the game lists an action for their seat); made for each game.
        self._driver: Driver | None = None
        # Bots playing for people who left, until they return (seating.py).
        self.stand_ins = StandIns(self, lobby.limits.away_grace)
        # The bots' pause after a play a person may want to bomb (bombing.py).
        self.bomb_window = BombWindow(self, lobby.bomb_window)
        self.chat = TableChat(self, record.chat)  # chat.py
        self.recorder = Recorder(self)  # records.py
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
        if self.stand_ins.abandoned:
            return "abandoned"
        return "playing" if len(self.seats) == self.players else "waiting"

    def fail(self, reason: str) -> None:
        """Stop this table for good (it stays visible, with the reason)."""
        log.error("table %s failed: %s", self.id, reason)
        self.error = reason
        self.notify()

    async def settled(self) -> None:
        """Wait until no action of this table is on its way to the store (at once, with
        no pause, when none is)."""
        while self._writing is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._writing)

    async def commit(
        self,
        action: tc.Action,
        *,
        urgent: bool = False,
        check: Callable[[tc.Game], None] | None = None,
    ) -> int:
        """Apply ``action`` and store it; the table's version after it. Raises (the table
        unchanged) when either fails. Returns once the action is committed: the caller
        may acknowledge it then. ``urgent``: a person waits for it (its write goes
        before those of bots playing among themselves). ``check(game)`` runs at the
        moment of applying, after any wait for the store, with nothing between it and
        the apply: it raises to refuse an action the game has moved past meanwhile. A
        caller that is cancelled meanwhile cancels nothing: the write and what follows
        it (the log, the followers told, the bots) go on."""
        await self.settled()  # the table's previous action is stored first
        game = self.game
        if game is None or self.error is not None:
            raise ProtocolError("table_failed", f"table {self.id} has stopped: {self.error}")
        if check is not None:
            check(game)
        events = game.apply(action)
        self._moves += 1
        if self._driver is not None and self._driver.game is game:
            self._driver.note(events)
        text = json.dumps(tc.action_to_dict(action), separators=(",", ":"))
        number = self.version
        loop = asyncio.get_running_loop()
        written = self._writing = loop.create_future()
        # Read by nobody when the caller was cancelled: no "never retrieved" warning then.
        written.add_done_callback(lambda f: f.cancelled() or f.exception())
        store = self.lobby.store
        done = self.lobby.writer.submit(
            partial(store.put_action, self.id, number, text), urgent=urgent
        )

        def back_on_the_loop(_: Future[None]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(self._written, done, written, text)

        done.add_done_callback(back_on_the_loop)
        await asyncio.shield(written)
        return number + 1

    def _written(self, done: Future[None], written: asyncio.Future[None], text: str) -> None:
        """The store's answer for the action on its way (on the event loop)."""
        self._writing = None
        error = done.exception()
        if error is None:
            self.record.actions.append(text)
            written.set_result(None)
        else:
            # The game is one action ahead of its log: rebuild it from the log.
            log.error("table %s: storing action %d failed: %s", self.id, self.version, error)
            self._moves += 1
            try:
                self.game = self._replay()
            except Exception as replay_error:
                self.fail(f"the table could not be rebuilt after a storage error: {replay_error}")
            written.set_exception(
                ProtocolError(
                    "storage_error", f"the action could not be saved, nothing changed ({error})"
                )
            )
        self.notify()  # also what changed while the action was on its way
        if error is None:
            self.start_bots()

    async def act(self, player: int, raw: object, hand: int | None = None) -> int:
        """A person's action for one of the seats its player acts for; the new version.
        ``hand``: the hand the client meant it for (the current one if None). The seat's
        controller and the hand are checked when the request comes and again at the
        moment the action is applied (an action may wait there for the table's previous
        one to be stored, during which a hand may end and the seats change hands)."""
        game = self.game
        if game is None or self.error is not None:
            raise ProtocolError("table_failed", f"table {self.id} has stopped: {self.error}")
        meant_for = game.hand_index if hand is None else hand
        if meant_for != game.hand_index:
            raise _hand_over(meant_for, game.hand_index)
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

        def still_yours(game: tc.Game) -> None:
            if game.hand_index != meant_for:
                raise _hand_over(meant_for, game.hand_index)
            if not 0 <= action.seat < game.seats or game.controller(action.seat) != player:
                mine = [s for s in range(game.seats) if game.controller(s) == player]
                raise ProtocolError(
                    "not_your_seat",
                    f"player {player} acts for seat(s) {mine}, not for seat {action.seat}",
                )

        still_yours(game)
        try:
            return await self.commit(action, urgent=True, check=still_yours)
        except tc.IllegalAction as error:
            raise ProtocolError("illegal_action", str(error), rule=error.rule) from None
        except tc.InvalidAction as error:
            raise ProtocolError("invalid_action", str(error)) from None
        except tc.PluginError as error:
            raise ProtocolError("plugin_error", str(error)) from None

    # --- bots ------------------------------------------------------------------------

    def add_bot(self, seat: SeatRecord) -> None:
        self.bots[seat.player] = make_bot(seat.name, secrets.randbits(32))

    @property
    def started(self) -> bool:
        """Whether the game has begun: it waits until every place is taken (a place
        opened to a newcomer later does not stop it: places.py)."""
        return len(self.seats) >= self.players or self.version > 0

    def _listens(self, player: int) -> bool:
        bot = self.bots.get(player)
        return bot is not None and callable(getattr(bot, "offer", None))

    def _bot_chance(self) -> Chance | None:
        """What a bot is asked now, if anything: an offer out of turn (a bomb on the play
        just made, a Tichu call before the first lead), or a seat the game waits for
        whose player is a bot (the driver's order, frontends/bots/driver.py)."""
        game = self.game
        if game is None or self.error is not None or game.is_over or not self.started:
            return None
        driver = self._driver
        if driver is None or driver.game is not game:  # a new or rebuilt game
            driver = self._driver = Driver(game, self._listens)
        chance = driver.next()
        if chance is None:
            return None
        if chance.optional or game.controller(chance.seat) in self.bots:
            return chance
        for seat in game.waiting_for:  # several seats awaited at once (calls, pushes)
            if game.controller(seat) in self.bots:
                return Chance(seat, chance.kind)
        return None

    async def _bot_action(self) -> tuple[tc.Action, Callable[[tc.Game], None]] | None:
        """The next action of a bot, if a bot is asked anything, and the check to run
        when it is applied (the game has not moved meanwhile, the seat is still that
        bot's). The bot thinks on the server's bot thread (deciding.py), given what
        ``decide`` and ``ask_offer`` give it, gathered here on the loop; the loop serves
        people meanwhile. Offers let stand cost no delay, the next question follows at
        once. A question whose game moved on while the bot thought is asked again; one
        that takes longer than ``Limits.bot_seconds`` is answered for: an offer is let
        stand, a decision takes the seat's first legal action (fixed actions, passes
        and calls, come first: frontends/bots/protocol.py)."""
        while (chance := self._bot_chance()) is not None:
            game, driver, moves = self.game, self._driver, self._moves
            assert game is not None and driver is not None
            seat = chance.seat
            player = game.controller(seat)
            bot = self.bots[player]

            def unchanged(
                current: tc.Game, bot: Bot = bot, moves: int = moves, seat: int = seat
            ) -> None:
                if self._moves != moves or self.bots.get(current.controller(seat)) is not bot:
                    raise _Moved

            if chance.optional:
                actions = chance.actions
                if actions is None or not callable(getattr(bot, "offer", None)):
                    driver.decline(chance)
                    continue
            else:
                actions = game.legal_actions(seat)
                if len(actions) == 1:  # nothing to decide: not asked (as `decide`)
                    return actions[0], unchanged
                if not len(actions):
                    raise ValueError(f"seat {seat} has no legal action")
            observe = getattr(bot, "observe", None)
            question = (
                seat,
                chance.optional,
                game.observation(player),
                actions,
                # Its player's events, for a bot that plans on sampled worlds, and its
                # own copy of the variant: a bot cannot change the game it plays in.
                (shown_variant(game, player), player, game.events_for(player)) if observe else None,
            )
            answered, answer = await self.lobby.deciding.ask(
                bot, question, self.lobby.limits.bot_seconds
            )
            if self._moves != moves or self.game is not game:
                continue  # the game moved on while the bot thought: ask again
            if not answered:
                log.warning(
                    "table %s: the bot of player %d took over %g s; answered for it",
                    self.id,
                    player,
                    self.lobby.limits.bot_seconds,
                )
                answer = None if chance.optional else actions[0]
            if answer is None:
                driver.decline(chance)
                continue
            return answer, unchanged
        return None

    def start_bots(self) -> None:
        """Let the bots act while the game waits for one of them (in the background, one
        action at a time, the server's bot delay between two)."""
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self._bot_chance() is None:
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
                await self.bomb_window.wait()
                await self.lobby.bot_pace.acquire(self.has_people())
                await self.settled()  # a person's action on its way: the bot sees it stored
                asked = await self._bot_action()
                if asked is None:
                    return
                action, unchanged = asked
                # A bomb or a call out of turn is committed and shown as any action; with
                # a person at the table, its write goes first as the person's would.
                with contextlib.suppress(_Moved):  # then the bots are asked again
                    await self.commit(action, urgent=self.has_people(), check=unchanged)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a failing bot stops its own table only
            self.fail(f"a bot failed: {type(error).__name__}: {error}")

    def has_people(self) -> bool:
        """Whether a person is connected as a player (its bots then go first)."""
        return any(follower.player is not None for follower in self.followers)

    def expired(self, now: float, expiry: Expiry) -> bool:
        """Whether the table may go: nobody follows it and it has been over or failed for
        ``expiry.finished`` seconds, or unchanged for ``expiry.idle``."""
        if self.followers:
            return False
        wait = expiry.finished if self.status in ("over", "failed") else expiry.idle
        return now - self.touched >= wait

    async def stop(self) -> None:
        task = self._bot_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # --- followers and what they see -----------------------------------------------

    def notify(self) -> None:
        self.touched = time.time()
        self.stand_ins.update()  # who left or came back (seating.py)
        self.bomb_window.note()  # a play a person may want to bomb (bombing.py)
        self.recorder.note()  # the match's record, once it is over (records.py)
        if self._writing is not None:
            # The game holds an action not yet stored: the info and the followers' states
            # wait for it (`_written` notifies).
            return
        self._info_json = None
        if not self.followers:  # nobody to send states to: their parts are let go
            self._states, self._texts, self._texts_game = {}, {}, None
        for follower in list(self.followers):
            follower.table_changed()

    def info(self) -> dict[str, Any]:
        """What anyone may know about the table (never a seed, a token or a card)."""
        online: dict[int | None, int] = {}
        for follower in self.followers:
            online[follower.player] = online.get(follower.player, 0) + 1
        game = self.game
        seating = []
        now = time.monotonic()
        teams = place_teams(self)
        for player in range(self.players):
            seat = self.seats.get(player)
            seating.append(
                {
                    "player": player,
                    "kind": seat.kind if seat is not None else "free",
                    "name": seat.name if seat is not None else None,
                    "online": online.get(player, 0),
                    "team": teams[player],
                    **self.stand_ins.place_info(player, now),
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
            "stand_in_bot": self.stand_ins.bot_name,
            "spectators": online.get(None, 0),
        }

    def info_json(self) -> str:
        """:meth:`info` as JSON, kept until the table changes (every change notifies)."""
        if self._info_json is None:
            self._info_json = json.dumps(self.info(), separators=(",", ":"))
        return self._info_json

    def state(self, player: int | None, since: int) -> dict[str, Any]:
        """The ``state`` message for ``player`` (None: a spectator): the table, the
        player's observation, its events from position ``since`` of its own stream and
        what each seat it acts for may do now."""
        return {"type": "state", "table": self.info(), **self._game_state(player, since)}

    def state_text(self, player: int | None, since: int) -> tuple[str, int]:
        """:meth:`state` as JSON text, and how many events it holds. What depends on the
        game (observation, events, results, legal actions: nearly all of it, 2 MB for a
        spectator from event 0 of a long match) is built once per change of the game
        for each ``(player, since)`` and shared by every connection that asks for it
        (watchers re-watching from 0 cost one build between two changes, not one
        each); the table info, which changes with every follower, is added to it. Each
        event's JSON is made once (``_event_texts``), and the finished hands' sheets
        once per hand: a change costs the new events and the observation, not the
        whole history again."""
        stamp = (self.game, self._moves, self.version, self.error, self.started)
        if self._states_stamp != stamp or len(self._states) >= 64:
            self._states, self._states_stamp = {}, stamp
        built = self._states.get((player, since))
        if built is None:
            part = self._game_state(player, since, events=False)
            texts = self._event_texts(player)[since:] if part["observation"] is not None else []
            body = json.dumps(part, separators=(",", ":"))
            events = ',"events":[' + ",".join(texts) + "]}"
            built = self._states[(player, since)] = (body[1:-1] + events, len(texts))
        return '{"type":"state","table":' + self.info_json() + "," + built[0], built[1]

    def events_after(self, player: int | None, since: int) -> int:
        """How many events of ``player``'s stream come after position ``since``."""
        if self.game is None or not self.started:
            return 0
        return max(0, len(self._event_texts(player)) - since)

    def _event_texts(self, player: int | None) -> list[str]:
        """Every event of ``player``'s stream as JSON, each made once (a stream only
        grows; a rebuilt game starts the lists again). Dropped when nobody follows."""
        game = self.game
        if game is None:
            return []
        if self._texts_game is not game:
            self._texts, self._texts_game = {}, game
        texts = self._texts.setdefault(player, [])
        texts.extend(
            json.dumps(event.model_dump(mode="json"), separators=(",", ":"))
            for event in game.events_for(player, len(texts))
        )
        return texts

    def _game_state(self, player: int | None, since: int, events: bool = True) -> dict[str, Any]:
        message: dict[str, Any] = {
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
        if events:
            message["events"] = [e.model_dump(mode="json") for e in game.events_for(player, since)]
        else:
            del message["events"]  # state_text adds them
        hands = len(game.hand_results)
        if self._sheets[0] is not game or self._sheets[1] != hands:
            self._sheets = (game, hands, hand_sheets(game))
        message["results"] = self._sheets[2]
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
        self,
        store: TableStore,
        *,
        bot_delay: float = 0.0,
        limits: Limits | None = None,
        expiry: Expiry | None = None,
        bomb_window: float = 0.0,
        bot_process: bool = False,
    ) -> None:
        self.store = store
        self.writer = StoreWriter(store)
        # Seating changes (create, sit, bots) one at a time: each checks the free places
        # and the limits, waits for its write, then takes effect, with nothing between.
        self._changes = asyncio.Lock()
        self.bot_delay = bot_delay
        self.bomb_window = bomb_window  # bombing.py
        self.limits = limits or Limits()
        self.expiry = expiry or Expiry()
        self.bot_pace = BotPace(self.limits.bot_actions_per_second)
        self.history = History(self.limits)  # past events sent again, per client
        # Where the bots think: a worker process, or a thread (deciding.py).
        self.deciding = Deciding(process=bot_process)
        self._sweeper: asyncio.Task[None] | None = None
        self._listing: tuple[float, int, str] | None = None  # (time, generation, JSON)
        self._generation = 0  # tables added or removed
        self.tables: dict[str, Table] = {}
        self._tokens: dict[str, tuple[Table, int]] = {}
        self.variants = variant_catalogue()
        self._variant_names = {entry["name"] for entry in self.variants}
        self.titles: dict[str, str] = {entry["name"]: entry["title"] for entry in self.variants}

    def restore(self) -> None:
        """Rebuild every stored table (a table that no longer replays is marked failed),
        and keep the newest ``limits.max_records`` finished matches' records."""
        pruned = self.store.prune_records(self.limits.max_records)
        if pruned:
            log.info(
                "%d finished match record(s) over the %d kept deleted",
                pruned,
                self.limits.max_records,
            )
        for record in self.store.load():
            self._install(Table(self, record))

    def start(self) -> None:
        """Start the bots of every table that waits for one, and the sweeper that expires
        tables (needs the running loop)."""
        for table in self.tables.values():
            table.start_bots()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="expiry")

    async def close(self) -> None:
        """Stop the sweeper and the bots, then commit every write still queued (a bot's
        action stopped on its way is stored: its log stays whole)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.bot_pace.close()
        started = time.monotonic()
        await asyncio.gather(*(table.stop() for table in self.tables.values()))
        stopped = time.monotonic()
        self.deciding.close()
        await asyncio.to_thread(self.writer.close)
        committed = time.monotonic()
        # Ctrl-C is meant to take a second or two: a slow one says which part held it
        # up (a stop under load once took 25 s, not seen again).
        if committed - started > SLOW_CLOSE_SECONDS:
            log.warning(
                "closing took %.1f s: stopping %d table(s)' bots %.1f s, "
                "committing the queued writes %.1f s",
                committed - started,
                len(self.tables),
                stopped - started,
                committed - stopped,
            )

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.expiry.sweep)
            try:
                await self.expire(time.time())
            except Exception:  # the store failing: try again at the next sweep
                log.exception("expiring tables failed")

    async def expire(self, now: float) -> list[str]:
        """Drop the tables that may go (:meth:`Table.expired`), mark them expired in the
        store and delete from it those that expired ``expiry.store`` seconds ago (one
        write); the ids dropped now. Should the write fail, the tables dropped come
        back at the next start, and expire again."""
        gone = [t for t in self.tables.values() if t.expired(now, self.expiry)]
        for table in gone:
            self._uninstall(table)
        ids = [table.id for table in gone]
        store = self.store

        def mark_and_purge() -> int:
            store.put_expired(ids, now)
            return store.put_purge(now - self.expiry.store)

        purged = await self.writer.write(mark_and_purge)
        if gone or purged:
            log.info("%d table(s) expired, %d deleted from the store", len(gone), purged)
        return [table.id for table in gone]

    def _uninstall(self, table: Table) -> None:
        task = table._bot_task
        if task is not None:
            task.cancel()
        table.stand_ins.close()
        del self.tables[table.id]
        for seat in table.seats.values():
            if seat.token_hash is not None:
                self._tokens.pop(seat.token_hash, None)
        self._generation += 1

    def listing(self) -> str:
        """The JSON list of every table's info; rebuilt when a table comes or goes, else
        at most every half second (a client asking 20 times a second costs nothing)."""
        now = time.monotonic()
        cached = self._listing
        if cached is None or cached[1] != self._generation or now - cached[0] >= 0.5:
            text = "[" + ",".join(t.info_json() for t in self.tables.values()) + "]"
            cached = self._listing = (now, self._generation, text)
        return cached[2]

    def _install(self, table: Table) -> None:
        self._generation += 1
        self.tables[table.id] = table
        for seat in table.seats.values():
            if seat.token_hash is not None:
                self._tokens[seat.token_hash] = (table, seat.player)

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("no_table", f"there is no table {table_id!r:.70}")
        return table

    def _held_by(self, client: str) -> tuple[int, int]:
        """The tables and the bots ``client`` has created or seated that are still held."""
        tables = bots = 0
        for table in self.tables.values():
            tables += table.creator == client
            bots += table.bots_by.get(client, 0)
        return tables, bots

    def _bots_allowed(self, client: str, more: int) -> None:
        _, bots = self._held_by(client)
        if more and bots + more > self.limits.bots_per_client:
            raise ProtocolError(
                "too_many_bots",
                f"one client may seat {self.limits.bots_per_client} bots at the tables the "
                f"server holds; this one has {bots}",
            )

    def _game_size(self, variant: tc.Variant, options: dict[str, Any]) -> None:
        """Overrides may not make a match longer than the server's bounds."""
        for key, value, most in (
            ("game.target", variant.game.target, self.limits.max_target),
            ("game.hands", variant.game.hands, self.limits.max_hands),
        ):
            if key in options and value > most:
                raise ProtocolError(
                    "too_large", f"override {key!r}: at most {most} on this server (got {value})"
                )

    async def create(
        self, variant: object, overrides: object, bots: object, client: str = "local"
    ) -> Table:
        async with self._changes:
            return await self._create(variant, overrides, bots, client)

    async def _create(self, variant: object, overrides: object, bots: object, client: str) -> Table:
        if not isinstance(variant, str) or variant not in self._variant_names:
            known = ", ".join(sorted(self._variant_names))
            raise ProtocolError(
                "bad_variant", f"unknown variant {str(variant)[:40]!r}; known: {known}"
            )
        if len(self.tables) >= self.limits.max_tables:
            raise ProtocolError(
                "server_full",
                f"this server holds {self.limits.max_tables} tables already; unused ones "
                "expire (try again later)",
            )
        if self._held_by(client)[0] >= self.limits.tables_per_client:
            raise ProtocolError(
                "too_many_tables",
                f"one client may hold {self.limits.tables_per_client} tables on this server; "
                "they expire when finished or idle",
            )
        options = _overrides(overrides)
        try:
            # A bundled name only (never a path: a client must not read the server's files),
            # and no plugin imports by module path (allow_imports stays off).
            loaded = tc.load_variant(variant, overrides=options or None)
            self._game_size(loaded, options)
            game = tc.Game(loaded, seed=0)
        except tc.TichuError as error:
            raise ProtocolError("bad_variant", str(error)) from None
        chosen = _bot_choices(bots, game.players) if bots is not None else {}
        self._bots_allowed(client, len(chosen))
        record = TableRecord(
            id=self._new_id(), variant=variant, overrides=options, seed=secrets.randbits(63)
        )
        record.seats = [SeatRecord(p, "bot", name) for p, name in sorted(chosen.items())]
        store = self.store

        def add_table() -> None:  # the table with its bots, or nothing
            store.put_table(record)
            if record.seats:
                store.put_seats(record.id, record.seats)

        await self.writer.write(add_table, urgent=True)
        table = Table(self, record, creator=client)
        if chosen:
            table.bots_by[client] = len(chosen)
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

    async def _seat(self, table: Table, seats: list[SeatRecord]) -> None:
        if table.error is not None:
            raise ProtocolError("table_failed", f"table {table.id} has stopped: {table.error}")
        await self.writer.write(partial(self.store.put_seats, table.id, seats), urgent=True)
        for seat in seats:
            table.seats[seat.player] = seat
            table.record.seats.append(seat)
            if seat.kind == "bot":
                table.add_bot(seat)
            else:
                assert seat.token_hash is not None
                self._tokens[seat.token_hash] = (table, seat.player)
        self._generation += 1  # the listing shows the new occupants at once
        table.notify()
        table.start_bots()

    async def sit(
        self, table_id: str, player: int | None, name: str | None
    ) -> tuple[Table, int, str]:
        """Take a player's place (the first free one if ``player`` is None): the table,
        the player and its secret token, which only this reply ever carries."""
        async with self._changes:
            return await self._sit(table_id, player, name)

    async def _sit(
        self, table_id: str, player: int | None, name: str | None
    ) -> tuple[Table, int, str]:
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
        await self._seat(table, [seat])
        return table, player, token

    async def add_bots(
        self, table_id: str, bots: object, token: object, client: str = "local"
    ) -> Table:
        """Seat bots at free places, for a person seated at the table (``token``): a
        visitor who only watches cannot fill the places that friends are to take. At
        most ``bots_per_client`` bots per client (``client``: its address)."""
        async with self._changes:
            table, _ = self.resume(table_id, token)
            chosen = _bot_choices(bots, table.players)
            self._free(table, chosen)
            self._bots_allowed(client, len(chosen))
            seats = [SeatRecord(p, "bot", name) for p, name in sorted(chosen.items())]
            await self._seat(table, seats)
            table.bots_by[client] = table.bots_by.get(client, 0) + len(chosen)
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

    async def act(
        self, token: object, action: object, hand: int | None = None
    ) -> tuple[Table, int]:
        """A person's action, checked against its token (and, if given, the hand it is
        meant for); the table and its new version (once the action is committed)."""
        table, player = self.holder(token)
        return table, await table.act(player, action, hand)
