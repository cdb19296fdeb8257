"""When a person is offered a bomb out of turn (the web table and the terminal).

The engine lets a seat bomb any play on the table, its own and its partner's too
(S-BOMB-3, S-BOMB-5). A person is asked, or shown a Bomb button, only where a bomb can
matter: the play on the table is an opponent's, or it is the Dragon, whoever played
it (a bombed Dragon trick belongs to the bomb, so its 25 points are not given to an
opponent: docs/rules.md S-DRAGON-1). Bombing one's own or one's partner's other plays
only takes a trick the team is winning anyway. (Where a variant has no Dragon gift,
the Dragon is offered all the same: one rule for every variant, the same on the page.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

DRAGON = "DR"


def bomb_may_matter(
    teams: Sequence[int], trick: Sequence[dict[str, Any]], top_seat: int | None, seat: int
) -> bool:
    """Whether a bomb from ``seat`` could matter on the play on the table (``teams``,
    ``trick`` and ``top_seat`` as in an observation)."""
    if top_seat is None or not trick:
        return False
    if trick[-1]["cards"] == DRAGON:
        return True
    return teams[top_seat] != teams[seat]
