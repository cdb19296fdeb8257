"""Actions: immutable, hashable values with a ``type`` field (SPEC.md, E-1).

Actions are named tuples so that bots can build and compare millions of them
cheaply; pydantic validates them only at the JSON boundary
(:func:`action_from_json`). ``type`` is the last field so that two actions of
different types never compare equal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from tichu_core.cardplay.cards import RANK_NAMES, RANK_OF_NAME, Card, card_of_code
from tichu_core.errors import CardError, InvalidAction


class _GrandTichu(NamedTuple):
    seat: int
    call: bool
    type: Literal["grand_tichu"] = "grand_tichu"


class _Tichu(NamedTuple):
    seat: int
    type: Literal["tichu"] = "tichu"


class PushCards(dict[int, str]):
    """A push's target seat -> card code mapping: read-only and hashable."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def _read_only(self, *args: object, **kwargs: object) -> None:
        raise TypeError("a Push's cards cannot be changed")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _read_only  # type: ignore[assignment]


class _Push(NamedTuple):
    seat: int
    cards: PushCards
    type: Literal["push"] = "push"


class _Play(NamedTuple):
    seat: int
    cards: str
    phoenix: str | None = None
    type: Literal["play"] = "play"


class _Pass(NamedTuple):
    seat: int
    type: Literal["pass"] = "pass"


class _Wish(NamedTuple):
    seat: int
    rank: str | None
    type: Literal["wish"] = "wish"


class _GiveTrick(NamedTuple):
    seat: int
    to: int
    type: Literal["give_trick"] = "give_trick"


class _GiveLead(NamedTuple):
    seat: int
    to: int
    type: Literal["give_lead"] = "give_lead"


def _seat(value: object, what: str = "seat") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"{what} must be a seat number (int), got {value!r}")
    return value


def _rank_name(value: object) -> str:
    """Canonical rank name ("2".."10", "J", "Q", "K", "A") of a rank given as name or number."""
    if isinstance(value, int) and not isinstance(value, bool) and value in RANK_NAMES:
        return RANK_NAMES[value]
    if isinstance(value, str):
        rank = RANK_OF_NAME.get(value.strip().upper())
        if rank is not None:
            return RANK_NAMES[rank]
    raise InvalidAction(f"a rank is one of 2..10, J, Q, K, A; got {value!r}")


def canonical_cards(cards: object) -> str:
    """Card codes as one canonical string: codes spelt as SPEC.md, highest card first."""
    if isinstance(cards, str):
        tokens = cards.replace(",", " ").split()
    elif isinstance(cards, list | tuple):
        tokens = list(cards)
    else:
        raise InvalidAction(f"cards must be a string of codes or a list of codes, got {cards!r}")
    if not tokens:
        raise InvalidAction("a play needs at least one card")
    try:
        parsed = [card_of_code(t) if isinstance(t, str) else _bad(t) for t in tokens]
    except CardError as error:
        raise InvalidAction(str(error)) from error
    # Highest card first, as the engine lists plays, so equal plays compare equal.
    return " ".join(str(card) for card in sorted(parsed, reverse=True))


def _bad(token: object) -> Card:
    raise InvalidAction(f"a card is a code string, got {token!r}")


class GrandTichu(_GrandTichu):
    """Call (``call=True``) or decline Grand Tichu (S-DEAL-2)."""

    __slots__ = ()

    def __new__(cls, seat: int, call: bool, type: str = "grand_tichu") -> GrandTichu:
        if not isinstance(call, bool):
            raise InvalidAction(f"GrandTichu.call must be true or false, got {call!r}")
        return _GrandTichu.__new__(cls, _seat(seat), call)


class Tichu(_Tichu):
    """Call Tichu (S-CALL-1)."""

    __slots__ = ()

    def __new__(cls, seat: int, type: str = "tichu") -> Tichu:
        return _Tichu.__new__(cls, _seat(seat))


class Push(_Push):
    """Give cards to target seats (S-EX-1, GS-6): ``cards`` maps target seat -> the card
    codes given to it, one code where each target gets one card, several separated
    by spaces where a variant gives more than one card to one seat."""

    __slots__ = ()

    def __new__(cls, seat: int, cards: Mapping[int, str], type: str = "push") -> Push:
        if not isinstance(cards, Mapping):
            raise InvalidAction(f"Push.cards maps target seat -> card codes, got {cards!r}")
        pairs = {}
        for target, codes in cards.items():
            if not isinstance(codes, str):
                raise InvalidAction(f"bad push {dict(cards)!r}: card codes are a string")
            try:
                pairs[_seat(target, "push target")] = canonical_cards(codes)
            except InvalidAction as error:
                raise InvalidAction(f"bad push {dict(cards)!r}: {error}") from error
        return _Push.__new__(cls, _seat(seat), PushCards(sorted(pairs.items())))


class Play(_Play):
    """Play cards; ``phoenix`` names the rank the Phoenix stands for (optional, S-COMB-4)."""

    __slots__ = ()

    def __new__(
        cls,
        seat: int,
        cards: str | list[str] | tuple[str, ...],
        phoenix: str | int | None = None,
        type: str = "play",
    ) -> Play:
        return _Play.__new__(
            cls,
            _seat(seat),
            canonical_cards(cards),
            None if phoenix is None else _rank_name(phoenix),
        )


class Pass(_Pass):
    """Pass on the trick, or collect it as its winner (S-TRICK-1/2)."""

    __slots__ = ()

    def __new__(cls, seat: int, type: str = "pass") -> Pass:
        return _Pass.__new__(cls, _seat(seat))


class Wish(_Wish):
    """After playing the Mah Jong: wish a rank, or nothing (S-WISH-1)."""

    __slots__ = ()

    def __new__(cls, seat: int, rank: str | int | None, type: str = "wish") -> Wish:
        return _Wish.__new__(cls, _seat(seat), None if rank is None else _rank_name(rank))


class GiveTrick(_GiveTrick):
    """Give a trick won with the Dragon to a seat (S-DRAGON-1)."""

    __slots__ = ()

    def __new__(cls, seat: int, to: int, type: str = "give_trick") -> GiveTrick:
        return _GiveTrick.__new__(cls, _seat(seat), _seat(to, "to"))


class GiveLead(_GiveLead):
    """Give the lead after the Dog to a chosen seat (T6-4)."""

    __slots__ = ()

    def __new__(cls, seat: int, to: int, type: str = "give_lead") -> GiveLead:
        return _GiveLead.__new__(cls, _seat(seat), _seat(to, "to"))


Action = GrandTichu | Tichu | Push | Play | Pass | Wish | GiveTrick | GiveLead
ACTION_TYPES: dict[str, type[Any]] = {
    "grand_tichu": GrandTichu,
    "tichu": Tichu,
    "push": Push,
    "play": Play,
    "pass": Pass,
    "wish": Wish,
    "give_trick": GiveTrick,
    "give_lead": GiveLead,
}


def make_play(seat: int, cards: str, phoenix: str | None) -> Play:
    """A Play from already canonical parts (the engine's fast path for listed plays)."""
    return tuple.__new__(Play, (seat, cards, phoenix, "play"))


# --- JSON boundary -----------------------------------------------------------------


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0)


class GrandTichuModel(_Model):
    type: Literal["grand_tichu"]
    call: bool


class TichuModel(_Model):
    type: Literal["tichu"]


class PushModel(_Model):
    type: Literal["push"]
    cards: dict[str, str]


class PlayModel(_Model):
    type: Literal["play"]
    cards: str | list[str]
    phoenix: str | None = None


class PassModel(_Model):
    type: Literal["pass"]


class WishModel(_Model):
    type: Literal["wish"]
    rank: str | None


class GiveTrickModel(_Model):
    type: Literal["give_trick"]
    to: int = Field(ge=0)


class GiveLeadModel(_Model):
    type: Literal["give_lead"]
    to: int = Field(ge=0)


ActionModel = (
    GrandTichuModel
    | TichuModel
    | PushModel
    | PlayModel
    | PassModel
    | WishModel
    | GiveTrickModel
    | GiveLeadModel
)
# Tagged by `type`, so a bad action gets the errors of its own model only.
_ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Annotated[ActionModel, Field(discriminator="type")])


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form of an action (cards as codes)."""
    data: dict[str, Any] = {"type": action.type, "seat": action.seat}
    if isinstance(action, GrandTichu):
        data["call"] = action.call
    elif isinstance(action, Push):
        data["cards"] = {str(t): c for t, c in action.cards.items()}
    elif isinstance(action, Play):
        data["cards"] = action.cards
        if action.phoenix is not None:
            data["phoenix"] = action.phoenix
    elif isinstance(action, Wish):
        data["rank"] = action.rank
    elif isinstance(action, GiveTrick | GiveLead):
        data["to"] = action.to
    return data


def action_from_json(data: str | bytes | Mapping[str, Any]) -> Action:
    """Validate a JSON action (text or parsed) and build the action; InvalidAction on error."""
    try:
        raw = json.loads(data) if isinstance(data, str | bytes) else dict(data)
        model = _ACTION_ADAPTER.validate_python(raw)
    except (ValidationError, ValueError, TypeError) as error:
        raise InvalidAction(f"malformed action {data!r}: {error}") from error
    fields = model.model_dump(exclude={"type"})
    if isinstance(model, PushModel):
        try:
            fields["cards"] = {int(t): c for t, c in model.cards.items()}
        except ValueError as error:
            raise InvalidAction(f"push targets must be seat numbers: {model.cards!r}") from error
    result: Action = ACTION_TYPES[model.type](**fields)
    return result
