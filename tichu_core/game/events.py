"""Events: what happened, as pydantic models (docs/api.md).

Every event is public unless it names the seats whose cards it shows
(``visible_to``): cards dealt, pushed and received are private to their seat.
Who may see such an event is fixed when it happens, by the same visibility
rule as observations (the ``tichu_visible_seats`` hook): the engine records
that audience with the event, and ``Game.events_for(player)`` filters by it,
so redaction is a filter and never edits an event. The engine builds events without
validation (:mod:`tichu_core.game.construction`: its values are already valid); JSON
readers validate them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, TypeAdapter


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    type: str
    hand: int = Field(description="index of the hand in the match")
    visible_to: list[int] | None = Field(
        default=None, description="seats whose hidden cards this event shows; None: public"
    )
    # The players (None: spectators) who may see a private event, fixed when it happened.
    _audience: frozenset[int | None] | None = PrivateAttr(default=None)

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        # `Played(hand=0, seat=1, cards=['5j'], ...)`: the class names the type, and a
        # public event says nothing of who sees it.
        for name, value in super().__repr_args__():
            if name != "type" and not (name == "visible_to" and value is None):
                yield name, value

    def seen_by(self, player: int | None) -> bool:
        """Whether ``player`` (None: a spectator) may see this event."""
        return self.visible_to is None or (self._audience is not None and player in self._audience)


class HandStarted(Event):
    type: Literal["hand_started"] = "hand_started"
    dealer: int
    players: list[int | None] = Field(description="player at each seat (None: a dummy)")
    hand_sizes: list[int]


class CardsDealt(Event):
    type: Literal["cards_dealt"] = "cards_dealt"
    seat: int
    cards: list[str]


class GrandTichuDecided(Event):
    type: Literal["grand_tichu"] = "grand_tichu"
    seat: int
    call: bool


class TichuCalled(Event):
    type: Literal["tichu"] = "tichu"
    seat: int


class Pushed(Event):
    """A seat chose its pushes, or (``forced``) the rules took cards from it for the
    exchange (GS-6); the cards are private to the giver."""

    type: Literal["pushed"] = "pushed"
    seat: int
    cards: dict[int, str] | None = None
    forced: bool = False


class PushWithdrawn(Event):
    """S-EX-3 (``exchange.change_after_tichu``): a seat called Tichu before the exchange
    was complete and took its pushed cards back; it pushes again."""

    type: Literal["push_withdrawn"] = "push_withdrawn"
    seat: int


class CardsReceived(Event):
    type: Literal["cards_received"] = "cards_received"
    seat: int
    cards: dict[int, str] = Field(description="giver seat -> card")


class ExchangeDone(Event):
    type: Literal["exchange_done"] = "exchange_done"
    leader: int


class HandShown(Event):
    """A seat's hand became visible to more players (T3-4: the dummy turns face up);
    seen by everyone who may now see that seat."""

    type: Literal["hand_shown"] = "hand_shown"
    seat: int
    cards: list[str]


class Played(Event):
    type: Literal["played"] = "played"
    seat: int
    cards: list[str]
    combination: str
    rank: float
    phoenix: str | None = None
    bomb: bool = False


class Passed(Event):
    type: Literal["passed"] = "passed"
    seat: int


class WishMade(Event):
    type: Literal["wish_made"] = "wish_made"
    seat: int
    rank: str | None


class WishFulfilled(Event):
    type: Literal["wish_fulfilled"] = "wish_fulfilled"
    seat: int
    rank: str


class TrickWon(Event):
    type: Literal["trick_won"] = "trick_won"
    seat: int = Field(description="the seat that won the trick")
    to: int = Field(description="the seat whose pile receives it")
    points: int = Field(description="its card points (0 where none are counted, GS-1)")
    cards: list[str]


class DragonGiven(Event):
    type: Literal["dragon_given"] = "dragon_given"
    seat: int
    to: int


class LeadPassed(Event):
    """The Dog passed the lead (S-DOG-1, T6-4)."""

    type: Literal["lead_passed"] = "lead_passed"
    seat: int
    to: int


class SeatOut(Event):
    type: Literal["seat_out"] = "seat_out"
    seat: int
    place: int


class HandScored(Event):
    type: Literal["hand_scored"] = "hand_scored"
    scores: list[int]
    totals: list[int]
    out_order: list[int]
    card_points: list[int]
    double_victory: bool
    details: dict[str, Any] = Field(
        default_factory=dict, description="what the scoring plugin reported beside the scores"
    )


class MatchOver(Event):
    type: Literal["match_over"] = "match_over"
    totals: list[int]
    winners: list[int] = Field(description="the winning score lines")
    termination: str = Field(
        default="target_reached",
        description=(
            'why the match ended: "target_reached", "hands_played", "lord_decided" or '
            '"variant_rule"'
        ),
    )


class AnotherHandDecided(Event):
    """GS-8: the Great Lord decided whether another hand is played (``game.lord_decides``)."""

    type: Literal["another_hand"] = "another_hand"
    seat: int = Field(description="the Great Lord's seat in the hand just played")
    more: bool = Field(description="true: another hand is dealt; false: the match is over")


AnyEvent = Annotated[
    HandStarted
    | CardsDealt
    | GrandTichuDecided
    | TichuCalled
    | Pushed
    | PushWithdrawn
    | CardsReceived
    | ExchangeDone
    | HandShown
    | Played
    | Passed
    | WishMade
    | WishFulfilled
    | TrickWon
    | DragonGiven
    | LeadPassed
    | SeatOut
    | HandScored
    | AnotherHandDecided
    | MatchOver,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(AnyEvent)

EVENT_TYPES: list[type[Event]] = [
    HandStarted,
    CardsDealt,
    GrandTichuDecided,
    TichuCalled,
    Pushed,
    PushWithdrawn,
    CardsReceived,
    ExchangeDone,
    HandShown,
    Played,
    Passed,
    WishMade,
    WishFulfilled,
    TrickWon,
    DragonGiven,
    LeadPassed,
    SeatOut,
    HandScored,
    AnotherHandDecided,
    MatchOver,
]
