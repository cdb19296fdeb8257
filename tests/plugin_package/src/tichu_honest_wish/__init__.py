"""House rule "honest wish": the Mah Jong may not wish for a rank its player holds.

Standard Tichu lets whoever plays the Mah Jong wish for any rank 2..A (S-WISH-1). At
this table the player may wish only for a rank it does not hold itself once the Mah
Jong is played: a wish asks the others for something. Wishing for nothing stays
allowed, and the wish binds as before (S-WISH-2).
"""

from __future__ import annotations

from tichu_core import TableView, Variant, hookimpl
from tichu_core.cardplay.cards import iter_cards


@hookimpl
def tichu_wish_ranks(variant: Variant, table: TableView, seat: int) -> list[int] | None:
    """Every rank 2..14 (Ace) but those ``seat`` holds."""
    if not variant.wish.enabled:
        return None  # no wishes at all: the standard rules say so
    held = {card.rank for card in iter_cards(table.hands[seat])}
    return [rank for rank in range(2, 15) if rank not in held]
