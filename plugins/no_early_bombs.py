"""House rule "no early bombs": a seat bombs out of turn only after its first play.

Standard Tichu lets any seat bomb out of turn at any moment while a trick has a
combination on the table (S-BOMB-3), even before it has played a single card. At
this table a seat may not bomb out of turn until it has played at least one card
this hand: whoever has not yet shown a card waits for its turn, where a bomb is an
ordinary play and may even be its first. Everything else about bombs stays as the
variant says (S-BOMB-4, S-BOMB-5, S-DOG-1). A refused bomb cites HOUSE-EARLY-BOMB.

No variant option can say "not before your first play", so this is a plugin: it
answers the bomb permission rule point (``tichu_may_bomb``, asked only for a bomb
out of turn or on the seat's own trick) from ``table.played_any``, and returns None
to leave every other case to the standard rules. variants/house_no_early_bombs.toml
names it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tichu_core.rules.answers import Refusal
from tichu_core.rules.hookspecs import hookimpl

if TYPE_CHECKING:
    from tichu_core import TableView

RULE = "HOUSE-EARLY-BOMB"


@hookimpl
def tichu_may_bomb(table: TableView, seat: int) -> Refusal | None:
    """Refused until ``seat`` has played a card this hand; afterwards, the standard rule."""
    if table.played_any[seat]:
        return None
    return Refusal(RULE, f"seat {seat} may not bomb out of turn before its first play")
