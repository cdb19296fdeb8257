"""A fair moment to bomb at the web table (docs/web.md, "Bombs").

After a play that a connected person may want to bomb (by
:func:`~tichu_core.frontends.text.bombs.bomb_may_matter`: an opponent's play, or the
Dragon), the table's bots wait ``bomb_window`` seconds (``create_app``'s, ``tichu serve
--bomb-window``) before their next action,
so that the person has the time to see the play and tap Bomb. The pause follows from
public facts alone (who made the play, who is connected, the play's cards), never
from anyone's hand: every player sees the same pause whether or not anybody holds a
bomb, so the pause tells nothing. People are never held: a person acts when they like.
"""

from __future__ import annotations

import asyncio
import json
import time

from tichu_core.frontends.text.bombs import bomb_may_matter
from tichu_core.frontends.web.facets import Bombed


class BombWindow:
    """The pause of one table's bots after a play a connected person may want to bomb."""

    def __init__(self, table: Bombed, seconds: float) -> None:
        self.table = table
        self.seconds = seconds
        self.until = 0.0  # time.monotonic() before which the bots wait
        self._seen = -1  # the table's version last looked at

    def note(self) -> None:
        """Look at the table's last action (called at every change): a play a
        connected person may want to bomb opens the window."""
        table = self.table
        version = table.version
        if version == self._seen:
            return
        self._seen = version
        game = table.game
        if self.seconds <= 0 or not version or game is None or table.error is not None:
            return
        if json.loads(table.record.actions[-1]).get("type") != "play":
            return
        people = {f.player for f in table.followers if f.player is not None}
        if not people or game.is_over:
            return
        view = game.observation(None)
        for seat in range(game.seats):
            if game.controller(seat) in people and bomb_may_matter(
                view.teams, view.trick, view.top_seat, seat
            ):
                self.until = time.monotonic() + self.seconds
                return

    async def wait(self) -> None:
        """Wait until the window is over (at once when none is open)."""
        while (remaining := self.until - time.monotonic()) > 0:
            await asyncio.sleep(remaining)
