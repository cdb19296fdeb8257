"""Finished matches kept (the web table): when a table's match ends, its record (the
saved game, ``Game.to_json``, and a summary for the lobby) is written to the store's
``records`` table, where it stays when the table itself expires, until more than
``Limits.max_records`` (200) are kept: then the oldest are deleted. The lobby lists the
latest ones (``records`` request); ``/record/ID`` gives the saved game as a file that
``tichu replay FILE`` replays (docs/web.md)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from functools import partial
from typing import Any

from tichu_core.frontends.web.facets import Recorded

log = logging.getLogger("tichu.web")

LISTED = 20  # finished matches the lobby lists


def summary(table: Recorded) -> dict[str, Any]:
    """What the lobby shows of a finished match: the game, the places' names, the final
    scores by line, the winning lines, the hands played."""
    game = table.game
    assert game is not None
    names = [
        (seat.name if seat.kind == "human" else f"Bot ({seat.name})")
        if (seat := table.seats.get(player)) is not None
        else "free"
        for player in range(table.players)
    ]
    view = game.observation(None)
    return {
        "variant": table.record.variant,
        "variant_title": table.lobby.titles.get(table.record.variant, table.record.variant),
        "names": names,
        "teams": [game.variant.team_of(p) for p in range(table.players)]
        if not game.variant.teams.dummy and not game.variant.scoring.per_player
        else None,
        "scores": list(view.scores),
        "winners": list(game.winners),
        "hands": len(game.hand_results),
    }


class Recorder:
    """Writes a table's record once, when its match is over (called at every change;
    a table restored over is written again, as of its last action: the same row)."""

    def __init__(self, table: Recorded) -> None:
        self.table = table
        self.done = False
        self._restored_at = len(table.record.actions)

    def note(self) -> None:
        table = self.table
        game = table.game
        if self.done or game is None or not game.is_over or table.error is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.done = True
        text = json.dumps(summary(table), separators=(",", ":"))
        restored = table.version == self._restored_at
        finished = table.record.touched if restored else time.time()
        lobby = table.lobby
        keep = lobby.limits.max_records  # the oldest records beyond go (store.py)
        job = partial(lobby.store.put_record, table.id, finished, text, game.to_json(), keep)
        task = loop.create_task(table.lobby.writer.write(job))
        task.add_done_callback(_logged)


def _logged(task: asyncio.Task[int]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a finished match's record could not be stored: %s", task.exception())
