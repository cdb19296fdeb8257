"""The read-only view of a hand that hooks receive (``table``), and the phase names.

Hooks decide from the table but never change it: the view hands out tuples and
numbers, not the engine's lists, so a plugin cannot alter the game behind the
engine's back. The engine's hand state satisfies :class:`TableData`; this
module imports nothing of the game, which keeps the rule layer below it.
"""

from __future__ import annotations

from typing import Final, Protocol

from tichu_core.cardplay.combinations import Combination, PlayTuple, as_combination

# The most seats a table may have: enough for every variant (Grand Seigneur: 12), and
# a bound that lets the engine keep each seat's actions without cards ready-made.
MAX_SEATS: Final = 32

# The phases of a hand, as they appear in observations.
GRAND_TICHU: Final = "grand_tichu"
EXCHANGE: Final = "exchange"
PLAY: Final = "play"
OVER: Final = "over"


def next_holding(hands: list[int], seat: int) -> int | None:
    """The next seat after ``seat`` (in play order) whose hand is not empty."""
    n = len(hands)
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if hands[candidate]:
            return candidate
    return None


class TableData(Protocol):
    """What the view reads: the attributes of the engine's hand state."""

    seats: int
    players: list[int | None]
    dealer: int
    hand_index: int
    phase: str
    hands: list[int]
    teams: list[int]
    controllers: list[int]
    out_order: list[int]
    piles: list[int]
    tichu: list[bool]
    grand_tichu: list[bool | None]
    played_any: list[bool]
    top: PlayTuple | None  # shown as a Combination
    top_seat: int | None
    trick: list[tuple[int, PlayTuple]]
    wish: int | None
    previous_ranking: list[int | None]


class TableView:
    """One hand as hooks see it. Seats are numbered in play order (docs/rules.md)."""

    __slots__ = ("_data",)

    def __init__(self, data: TableData) -> None:
        self._data = data

    @property
    def seats(self) -> int:
        """Number of seats at the table (dummy seats included)."""
        return self._data.seats

    @property
    def players(self) -> tuple[int | None, ...]:
        """The player at each seat; None for a dummy seat."""
        return tuple(self._data.players)

    @property
    def dealer(self) -> int:
        return self._data.dealer

    @property
    def hand_index(self) -> int:
        """0 for the first hand of the match."""
        return self._data.hand_index

    @property
    def phase(self) -> str:
        """ "grand_tichu", "exchange", "play" or "over"."""
        return self._data.phase

    @property
    def hands(self) -> tuple[int, ...]:
        """The cards each seat holds, as card masks (see :mod:`tichu_core.cardplay.cards`)."""
        return tuple(self._data.hands)

    @property
    def teams(self) -> tuple[int, ...]:
        """The team of each seat (empty before the layout hook has answered)."""
        return tuple(self._data.teams)

    @property
    def controllers(self) -> tuple[int, ...]:
        """The player who acts for each seat (empty before the controllers hook answered)."""
        return tuple(self._data.controllers)

    @property
    def out_order(self) -> tuple[int, ...]:
        """The seats that went out this hand, first out first."""
        return tuple(self._data.out_order)

    @property
    def piles(self) -> tuple[int, ...]:
        """The cards of the tricks each seat has won, as card masks."""
        return tuple(self._data.piles)

    @property
    def tichu(self) -> tuple[bool, ...]:
        return tuple(self._data.tichu)

    @property
    def grand_tichu(self) -> tuple[bool | None, ...]:
        """Each seat's Grand Tichu decision; None while undecided."""
        return tuple(self._data.grand_tichu)

    @property
    def played_any(self) -> tuple[bool, ...]:
        """Whether each seat has played a card this hand."""
        return tuple(self._data.played_any)

    @property
    def top(self) -> Combination | None:
        """The combination on top of the open trick (None: the trick is empty)."""
        top = self._data.top
        return as_combination(top) if top is not None else None

    @property
    def top_seat(self) -> int | None:
        return self._data.top_seat

    @property
    def trick(self) -> tuple[tuple[int, Combination], ...]:
        """The plays of the open trick, in order: (seat, combination)."""
        return tuple((seat, as_combination(play)) for seat, play in self._data.trick)

    @property
    def wish(self) -> int | None:
        """The open wish as a rank value 2..14, or None."""
        return self._data.wish

    @property
    def previous_ranking(self) -> tuple[int | None, ...]:
        """The players of the previous hand in finishing order, those still holding
        cards last (empty in the first hand); None stands for a dummy."""
        return tuple(self._data.previous_ranking)

    def holds_cards(self, seat: int) -> bool:
        return bool(self._data.hands[seat])

    def next_active(self, seat: int) -> int | None:
        """The next seat after ``seat`` (in play order) that still holds cards."""
        return next_holding(self._data.hands, seat)

    def partners(self, seat: int) -> list[int]:
        teams = self._data.teams
        return [s for s in range(self._data.seats) if s != seat and teams[s] == teams[seat]]

    def opponents(self, seat: int) -> list[int]:
        teams = self._data.teams
        return [s for s in range(self._data.seats) if teams[s] != teams[seat]]

    def seats_of(self, player: int) -> list[int]:
        """The seats ``player`` acts for (see :attr:`controllers`)."""
        controllers = self._data.controllers
        return [seat for seat in range(len(controllers)) if controllers[seat] == player]

    def team_members(self, team: int) -> list[int]:
        return [s for s in range(self._data.seats) if self._data.teams[s] == team]

    def ranking(self) -> list[int]:
        """Every seat ranked: the seats in the order they went out, then those still
        holding cards, in play order from the seat after the last one out."""
        out = list(self._data.out_order)
        n = self._data.seats
        start = (out[-1] + 1) % n if out else self._data.dealer
        rest = [(start + step) % n for step in range(n)]
        return out + [seat for seat in rest if seat not in out]
