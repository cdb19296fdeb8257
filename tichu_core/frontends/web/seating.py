"""Who plays a place when its person has left (the web table).

**Levels.** People choose bots by level (the registry's ``LEVELS``: easy, medium, hard,
expert); an engine name that is a level's bot (``greedy``, ``heuristic``, ``search``)
is shown by that level's name (:func:`level_name`), the registry's ``DEFAULT_BOT``
too (:data:`DEFAULT_LEVEL`, ``medium``).

**Stand-ins.** A person's place whose every connection is gone is played by a bot
(:meth:`StandIns.bot_name`: the level the table's bots were seated as, else
:data:`DEFAULT_LEVEL`) once the person has been away ``Limits.away_grace`` seconds,
and given back the moment the person returns (any connection that resumes the place).
The stand-in is not stored: it is the table's bot for that place until the person is
back; what it plays is stored as any action. A place the seated people opened to a
newcomer (``replace``, places.py) is played by a stand-in at once, until someone sits
down there.

Stand-ins play only while at least one person is connected as a player: when every
person has left, the table waits where a person's place is to act (bots seated as bots
play up to there) and, ``away_grace`` seconds after the last one left, the lobby shows
it as ``abandoned``; it plays on when one of them returns.

The teams of the places (:func:`place_teams`) are here too. The stand-ins see of their
table only what facets.py lists (:class:`~tichu_core.frontends.web.facets.Stood`).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

from tichu_core.frontends.bots import DEFAULT_BOT, LEVELS, Bot, make_bot
from tichu_core.frontends.web.facets import Placed, Stood

# The level whose bot an engine name is (the registry's BOTS: `easy` is the greedy bot,
# `medium` the heuristic, `expert` the search bot; `hard`, the search bot on a smaller
# budget, has no engine name of its own).
LEVEL_OF = {"greedy": "easy", "heuristic": "medium", "search": "expert"}


def level_name(bot: str) -> str | None:
    """The level ``bot`` plays as (a level's own name, or an engine name a level is),
    else None."""
    return bot if bot in LEVELS else LEVEL_OF.get(bot)


# The bot people see preselected and the stand-ins' default: the registry's DEFAULT_BOT,
# by its level name.
DEFAULT_LEVEL = level_name(DEFAULT_BOT) or DEFAULT_BOT


class StandIns:
    """The stand-in bots of one table: who is away since when, and for whom a bot plays.

    :meth:`update` is called whenever the table changes (``Table.notify``): it notes who
    left and who returned, puts a stand-in in the table's ``bots`` for a place whose
    person has been away ``grace`` seconds (a timer brings that moment) and takes it out
    when the person is back."""

    def __init__(self, table: Stood, grace: float) -> None:
        self.table = table
        self.grace = grace
        self.away: dict[int, float] = {}  # player -> when its person left (time.monotonic)
        self.bots: dict[int, Bot] = {}  # player -> the stand-in playing its place now
        self.everyone_left: float | None = time.monotonic()  # no person connected since
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._abandon_timer: asyncio.TimerHandle | None = None
        self._updating = False

    # --- what the table shows ---------------------------------------------------------

    def place_info(self, player: int, now: float) -> dict[str, Any]:
        """The fields a place of ``Table.info`` gets: ``away`` (the person is not
        connected), ``stand_in`` (a bot plays the place now) and ``stand_in_in`` (the
        seconds before one does, while the person is away and the table plays on)."""
        info: dict[str, Any] = {
            "away": player in self.away,
            "stand_in": player in self.bots,
            "stand_in_in": None,
        }
        since = self.away.get(player)
        if since is not None and player not in self.bots and self._in_play():
            info["stand_in_in"] = round(max(0.0, since + self.grace - now), 1)
        return info

    @property
    def abandoned(self) -> bool:
        """Every person has left a game under way, ``grace`` seconds ago or more."""
        left = self.everyone_left
        return (
            left is not None
            and self._in_play()
            and any(seat.kind == "human" for seat in self.table.seats.values())
            and time.monotonic() - left >= self.grace
        )

    @property
    def bot_name(self) -> str:
        """The bot a stand-in is, by its level name: the level most of the table's bot
        places were filled with (at a tie, the one at the lowest place), when they were
        filled with a level or an engine name a level is; else :data:`DEFAULT_LEVEL`."""
        seats = sorted(self.table.seats.values(), key=lambda seat: seat.player)
        levels = [level_name(seat.name) for seat in seats if seat.kind == "bot"]
        counted = Counter(level for level in levels if level is not None)
        return counted.most_common(1)[0][0] if counted else DEFAULT_LEVEL

    # --- keeping up with the table ----------------------------------------------------

    def _in_play(self) -> bool:
        table = self.table
        game = table.game
        return game is not None and table.error is None and table.started and not game.is_over

    def _online(self) -> set[int]:
        return {f.player for f in self.table.followers if f.player is not None}

    def update(self) -> None:
        """Note who left and who came back; put stand-ins in or take them out."""
        if self._updating:  # the table's notify below calls this again: nothing new
            return
        self._updating = True
        try:
            if self._update():
                table = self.table
                table.lobby._generation += 1
                table.notify()
                table.start_bots()
        finally:
            self._updating = False

    def _update(self) -> bool:
        """The bookkeeping of :meth:`update`; whether a stand-in came or went."""
        table = self.table
        now = time.monotonic()
        online = self._online()
        people_here = bool(online)
        if people_here:
            self.everyone_left = None
            self._cancel(self._abandon_timer)
            self._abandon_timer = None
        elif self.everyone_left is None:
            self.everyone_left = now
            self._abandon_timer = self._later(self.grace, None)
        changed = False
        for player in range(table.players):
            seat = table.seats.get(player)
            here = player in online
            if seat is not None and seat.kind == "bot":
                wanted, waiting = False, False  # a bot of its own (seated, or replacing)
                self.away.pop(player, None)
            elif seat is None:  # a free place: opened to a newcomer during the game
                wanted, waiting = True, False
                if self._in_play():
                    self.away.setdefault(player, now)
                else:  # before the start a free place is only free
                    self.away.pop(player, None)
            elif here:
                wanted, waiting = False, False
                self.away.pop(player, None)
            else:
                since = self.away.setdefault(player, now)
                waiting = now - since < self.grace
                wanted = not waiting
                if waiting and player not in self._timers:
                    timer = self._later(since + self.grace - now, player)
                    if timer is not None:
                        self._timers[player] = timer
            if not waiting:
                self._cancel(self._timers.pop(player, None))
            wanted = wanted and people_here and self._in_play()
            if wanted and player not in self.bots:
                bot = make_bot(self.bot_name, None)
                self.bots[player] = table.bots[player] = bot
                changed = True
            elif not wanted and player in self.bots:
                bot = self.bots.pop(player)
                if table.bots.get(player) is bot:
                    del table.bots[player]
                changed = True
        return changed

    def _later(self, delay: float, player: int | None) -> asyncio.TimerHandle | None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None  # no server running (a table built outside one): nothing to time
        return loop.call_later(max(0.0, delay) + 0.01, self._due, player)

    def _due(self, player: int | None) -> None:
        if player is None:
            self._abandon_timer = None
            self.table.lobby._generation += 1
            self.table.notify()  # the lobby shows the table abandoned now
        else:
            self._timers.pop(player, None)
            self.update()

    @staticmethod
    def _cancel(timer: asyncio.TimerHandle | None) -> None:
        if timer is not None:
            timer.cancel()

    def close(self) -> None:
        for timer in [*self._timers.values(), self._abandon_timer]:
            self._cancel(timer)
        self._timers.clear()
        self._abandon_timer = None


# --- the places' teams ------------------------------------------------------------------


def place_teams(table: Placed) -> list[int | None]:
    """The team of each place when the places are fixed partnerships (standard,
    Tientsin): None for every place where partnerships change (Threechu's dummy) or
    there are none (every player for itself)."""
    game = table.game
    if game is None:
        return [None] * table.players
    variant = game.variant
    if variant.teams.dummy or variant.team_count >= variant.seats:
        return [None] * table.players
    return [variant.team_of(player) for player in range(table.players)]
