"""Threechu: three players, and the shuffler plays a dummy hand opposite (docs/rules.md T3).

Most of Threechu is variant options the standard rules already read
(variants/threechu.toml): a fourth seat for the dummy (``teams.dummy``), played by
its partner, the shuffler (the standard controllers), pushes only to opponents
(``exchange.targets``, T3-3), one score line per player and the dummy's last, each
getting its partnership's whole score (``scoring.per_player``, T3-7), and nine
hands (``game.hands``, T3-8) after which the highest *player* score wins (the
standard match end lets a dummy's line win only a match played to ``game.target``,
where the seed says it is likely to). Calling Tichu for the dummy before its first card
(T3-5) is the standard S-CALL-1 timing, made by the shuffler for the dummy's seat.

What no option says lives here:

- T3-1, T3-8: who sits where. The shuffle passes to the shuffler's left each hand:
  play goes to the right, so that is the *previous* player in play order. The
  shuffler sits at seat 0 and deals, the other two players follow in their fixed
  cyclic order, and the dummy is seated opposite the shuffler, as its partner.
- T3-2: neither the shuffler nor the dummy may call Grand Tichu.
- T3-4: once the exchange is done the dummy's hand is face up for everyone,
  spectators included (the engine announces it with a ``HandShown`` event).
- T3-6: the Mah Jong wish never binds the dummy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tichu_core.rules.answers import Refusal, Seating
from tichu_core.rules.hookspecs import hookimpl
from tichu_core.rules.table import GRAND_TICHU, OVER, PLAY

if TYPE_CHECKING:
    from tichu_core import TableView, Variant


def dummy_seat(variant: Variant) -> int:
    """The dummy's seat: the shuffler's partner seat opposite seat 0.

    The standard layout alternates teams (team of a seat = seat % team_count), so the
    first seat after seat 0 in its team is ``team_count``: seat 2 of Threechu's four.
    """
    return variant.team_count


@hookimpl
def tichu_next_hand(variant: Variant, previous: TableView | None, players: int) -> Seating:
    """T3-1, T3-8: player 0 shuffles the first hand, and each hand the shuffle passes to
    the shuffler's left, the player before it in play order (hand h: player -h %
    players); the shuffler sits at seat 0 and deals, the dummy opposite it."""
    # Play order among the players is 0, 1, 2, ... cyclically (see below), and play
    # goes to the right: the player on the shuffler's left is the one before it.
    shuffler = 0 if previous is None else -(previous.hand_index + 1) % players
    # The players keep one cyclic play order (shuffler, next, next, ...); the dummy is
    # slotted into it at the shuffler's partner seat.
    order: list[int | None] = [(shuffler + step) % players for step in range(players)]
    order.insert(dummy_seat(variant), None)
    return Seating(players=order, dealer=0)


def _plays_for_shuffler(table: TableView, seat: int) -> bool:
    """Whether ``seat`` is the shuffler's own seat or the dummy it plays."""
    return seat == table.dealer or table.players[seat] is None


@hookimpl
def tichu_may_call(variant: Variant, table: TableView, seat: int, call: str) -> Refusal | None:
    """T3-2: no Grand Tichu for the shuffler nor the dummy; Tichu (T3-5) and everyone
    else's calls are the standard rules'."""
    if call == GRAND_TICHU and _plays_for_shuffler(table, seat):
        who = "the dummy" if table.players[seat] is None else "the shuffler"
        return Refusal("T3-2", f"seat {seat} is {who}: the shuffler may not call Grand Tichu")
    return None


@hookimpl
def tichu_visible_seats(variant: Variant, table: TableView, player: int | None) -> list[int] | None:
    """T3-4: after the exchange the dummy's hand is face up, for every player and for
    spectators. Before it the standard rule stands: the shuffler sees the dummy's
    hand because it plays that seat (T3-2), nobody else does."""
    if table.phase not in (PLAY, OVER):
        return None
    seats = {seat for seat, who in enumerate(table.players) if who is None}
    if player is not None:
        seats.update(seat for seat, who in enumerate(table.controllers) if who == player)
    return sorted(seats)


@hookimpl
def tichu_wish_applies(variant: Variant, table: TableView, seat: int) -> bool | None:
    """T3-6: the dummy never has to fulfil the wish; other seats as standard (S-WISH-2)."""
    return False if table.players[seat] is None else None
