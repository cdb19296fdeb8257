"""House rule "stray dog": the Dog gives the lead to the next player, not the partner.

Standard Tichu sends the lead across the table to the partner (S-DOG-1), or, when the
partner is out, to the next seat holding cards after the partner (S-DOG-2). At this
table the Dog runs on to the next seat in play order that still holds cards: the
opponent who plays after you, unless that opponent is out. Leading the Dog becomes a
way to get rid of it, no longer a gift to the partner. The rest of S-DOG-1 stands: the
Dog is led alone, forms no trick, and no bomb may follow it.

No variant option says "the next seat" (``dog.partner_out`` and ``dog.choose_partner``
choose on the partner's side only), so this is a plugin: it answers the Dog recipient
rule point (``tichu_dog_recipients``) and leaves every other rule to the standard
plugin. variants/house_stray_dog.toml names it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tichu_core.rules.hookspecs import hookimpl

if TYPE_CHECKING:
    from tichu_core import TableView


@hookimpl
def tichu_dog_recipients(table: TableView, seat: int) -> list[int] | None:
    """The lead goes to the first seat after ``seat`` that still holds cards."""
    following = table.next_active(seat)
    # Nobody holding cards would mean the hand is over: leave that to the standard rules.
    return None if following is None else [following]
