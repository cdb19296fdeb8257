"""Actions: immutable, hashable values with a ``type`` field (docs/api.md, E-1).

Actions are named tuples so that bots can build and compare millions of them
cheaply; pydantic validates them only at the JSON boundary
(:func:`action_from_json`). ``type`` is the last field so that two actions of
different types never compare equal.

Every way to make an action from a value validates it: the constructors, and
``_replace`` / ``_make`` (overridden, since the named-tuple versions build the
tuple without ``__new__``). Only ``tuple.__new__`` gets past them (as the
engine's own listings do, for actions it built from checked parts), so
``Game.apply`` checks just the shape of an action object (:func:`malformed`: a
few type checks, cheap on the bots' hot path) and not its values again.
"""

from __future__ import annotations

import json
import re
import reprlib
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Final, Literal, NamedTuple, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from tichu_core.cardplay.cards import RANK_NAMES, RANK_OF_NAME, Card, card_of_code
from tichu_core.errors import CardError, InvalidAction
from tichu_core.rules.table import MAX_SEATS


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

    def __reduce__(self) -> tuple[type[PushCards], tuple[dict[int, str]]]:
        # pickle and copy would otherwise refill the mapping through __setitem__
        return (PushCards, (dict(self),))

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


class _AnotherHand(NamedTuple):
    seat: int
    more: bool
    type: Literal["another_hand"] = "another_hand"


# --- validation of untrusted values ---------------------------------------------------


class _Shown(reprlib.Repr):
    """``repr`` for messages about untrusted input: short and never failing. A plain
    ``repr`` raises ValueError on an int of more than 4,300 digits and RecursionError
    on deeply nested lists; neither may escape as anything but the error it describes."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxstring, self.maxother, self.maxlong = 3, 60, 80, 40
        self.maxtuple = self.maxlist = self.maxdict = self.maxset = self.maxfrozenset = 6

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            return f"<an int of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_SHOWN = _Shown()


def show_input(value: object) -> str:
    """A short rendering of an untrusted value for an error message; never raises."""
    try:
        return _SHOWN.repr(value)
    except Exception:  # a foreign object whose repr fails
        return f"<a {type(value).__name__}>"


# A seat field holds an int in the signed 64-bit range: wider than any table, and
# narrow enough that every message can show it and every save can hold it.
_SEAT_LIMIT = 2**63


def _seat(value: object, what: str = "seat") -> int:
    if type(value) is int and -_SEAT_LIMIT <= value < _SEAT_LIMIT:
        return value  # the common case, kept cheap: bots build actions all the time
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not -_SEAT_LIMIT <= value < _SEAT_LIMIT
    ):
        raise InvalidAction(f"{what} must be a seat number (an int), got {show_input(value)}")
    return int(value)  # an int subclass is stored as a plain int, as a save reads it back


def _rank_name(value: object) -> str:
    """Canonical rank name ("2".."10", "J", "Q", "K", "A") of a rank given as name or number."""
    if isinstance(value, int) and not isinstance(value, bool) and value in RANK_NAMES:
        return RANK_NAMES[value]
    if isinstance(value, str):
        rank = RANK_OF_NAME.get(value.strip().upper())
        if rank is not None:
            return RANK_NAMES[rank]
    raise InvalidAction(f"a rank is one of 2..10, J, Q, K, A; got {show_input(value)}")


def _check_type(cls: type[Any], given: object) -> None:
    """The ``type`` field can only be the class's own (it is what JSON reads the action by)."""
    own = cls._field_defaults["type"]
    if given != own:
        raise InvalidAction(f"a {cls.__name__} has type {own!r}, got {show_input(given)}")


def canonical_cards(cards: object) -> str:
    """Card codes as one canonical string: codes spelt as docs/api.md, highest card first."""
    if isinstance(cards, str):
        tokens = cards.replace(",", " ").split()
    elif isinstance(cards, list | tuple):
        tokens = list(cards)
    else:
        raise InvalidAction(
            f"cards must be a string of codes or a list of codes, got {show_input(cards)}"
        )
    if not tokens:
        raise InvalidAction("a play needs at least one card")
    try:
        parsed = [card_of_code(t) if isinstance(t, str) else _bad(t) for t in tokens]
    except CardError as error:
        raise InvalidAction(str(error)) from error
    # Highest card first, as the engine lists plays, so equal plays compare equal.
    return " ".join(str(card) for card in sorted(parsed, reverse=True))


def _bad(token: object) -> Card:
    raise InvalidAction(f"a card is a code string, got {show_input(token)}")


class _Validated(tuple[Any, ...]):
    """``_replace`` and ``_make`` through the validating constructor.

    The named-tuple versions build the tuple directly, so ``GrandTichu(0, False)
    ._replace(call="yes")`` or ``._replace(seat=True)`` would slip past every check
    into ``apply``, and into a save that cannot be read back.
    """

    __slots__ = ()

    def _replace(self, **changes: Any) -> Self:
        fields: tuple[str, ...] = getattr(self, "_fields")  # noqa: B009  (the named tuple's)
        unknown = sorted(set(changes) - set(fields))
        if unknown:
            raise InvalidAction(f"{type(self).__name__} has no field {', '.join(unknown)}")
        return type(self)(**{**dict(zip(fields, self, strict=True)), **changes})

    __replace__ = _replace  # copy.replace (Python 3.13)

    def __repr__(self) -> str:
        # As the action is written: `Play(seat=0, cards='5j 5s')`, without the type tag
        # (the class says it) or an unset Phoenix rank.
        fields: tuple[str, ...] = getattr(self, "_fields")  # noqa: B009
        shown = ", ".join(
            f"{name}={value!r}"
            for name, value in zip(fields, self, strict=True)
            if name != "type" and not (name == "phoenix" and value is None)
        )
        return f"{type(self).__name__}({shown})"

    @classmethod
    def _validated_make(cls, iterable: Iterable[Any]) -> Self:
        return cls(*iterable)

    # Declared Any: each named tuple types `_make` with its own fields, which no base can.
    _make: Any = _validated_make


class GrandTichu(_Validated, _GrandTichu):
    """Call (``call=True``) or decline Grand Tichu (S-DEAL-2)."""

    __slots__ = ()

    def __new__(cls, seat: int, call: bool, type: str = "grand_tichu") -> GrandTichu:
        if type != "grand_tichu":
            _check_type(cls, type)
        if not isinstance(call, bool):
            raise InvalidAction(f"GrandTichu.call must be true or false, got {show_input(call)}")
        return _GrandTichu.__new__(cls, _seat(seat), call)


class Tichu(_Validated, _Tichu):
    """Call Tichu (S-CALL-1)."""

    __slots__ = ()

    def __new__(cls, seat: int, type: str = "tichu") -> Tichu:
        if type != "tichu":
            _check_type(cls, type)
        return _Tichu.__new__(cls, _seat(seat))


class Push(_Validated, _Push):
    """Give cards to target seats (S-EX-1, GS-6): ``cards`` maps target seat -> the card
    codes given to it, one code where each target gets one card, several separated
    by spaces where a variant gives more than one card to one seat."""

    __slots__ = ()

    def __new__(cls, seat: int, cards: Mapping[int, str], type: str = "push") -> Push:
        if type != "push":
            _check_type(cls, type)
        if not isinstance(cards, Mapping):
            raise InvalidAction(
                f"Push.cards maps target seat -> card codes, got {show_input(cards)}"
            )
        pairs = {}
        for target, codes in cards.items():
            if not isinstance(codes, str):
                raise InvalidAction(f"bad push {show_input(cards)}: card codes are a string")
            try:
                pairs[_seat(target, "push target")] = canonical_cards(codes)
            except InvalidAction as error:
                raise InvalidAction(f"bad push {show_input(cards)}: {error}") from error
        return _Push.__new__(cls, _seat(seat), PushCards(sorted(pairs.items())))


class Play(_Validated, _Play):
    """Play cards; ``phoenix`` names the rank the Phoenix stands for (optional, S-COMB-4)."""

    __slots__ = ()

    def __new__(
        cls,
        seat: int,
        cards: str | list[str] | tuple[str, ...],
        phoenix: str | int | None = None,
        type: str = "play",
    ) -> Play:
        if type != "play":
            _check_type(cls, type)
        return _Play.__new__(
            cls,
            _seat(seat),
            canonical_cards(cards),
            None if phoenix is None else _rank_name(phoenix),
        )


class Pass(_Validated, _Pass):
    """Pass on the trick, or collect it as its winner (S-TRICK-1/2)."""

    __slots__ = ()

    def __new__(cls, seat: int, type: str = "pass") -> Pass:
        if type != "pass":
            _check_type(cls, type)
        return _Pass.__new__(cls, _seat(seat))


class Wish(_Validated, _Wish):
    """After playing the Mah Jong: wish a rank, or nothing (S-WISH-1)."""

    __slots__ = ()

    def __new__(cls, seat: int, rank: str | int | None, type: str = "wish") -> Wish:
        if type != "wish":
            _check_type(cls, type)
        return _Wish.__new__(cls, _seat(seat), None if rank is None else _rank_name(rank))


class GiveTrick(_Validated, _GiveTrick):
    """Give a trick won with the Dragon to a seat (S-DRAGON-1)."""

    __slots__ = ()

    def __new__(cls, seat: int, to: int, type: str = "give_trick") -> GiveTrick:
        if type != "give_trick":
            _check_type(cls, type)
        return _GiveTrick.__new__(cls, _seat(seat), _seat(to, "to"))


class GiveLead(_Validated, _GiveLead):
    """Give the lead after the Dog to a chosen seat (T6-4)."""

    __slots__ = ()

    def __new__(cls, seat: int, to: int, type: str = "give_lead") -> GiveLead:
        if type != "give_lead":
            _check_type(cls, type)
        return _GiveLead.__new__(cls, _seat(seat), _seat(to, "to"))


class AnotherHand(_Validated, _AnotherHand):
    """The Great Lord's decision after a hand: another hand (``more=True``) or the end
    of the match (GS-8, option ``game.lord_decides``)."""

    __slots__ = ()

    def __new__(cls, seat: int, more: bool, type: str = "another_hand") -> AnotherHand:
        if type != "another_hand":
            _check_type(cls, type)
        if not isinstance(more, bool):
            raise InvalidAction(f"AnotherHand.more must be true or false, got {show_input(more)}")
        return _AnotherHand.__new__(cls, _seat(seat), more)


Action = GrandTichu | Tichu | Push | Play | Pass | Wish | GiveTrick | GiveLead | AnotherHand
ACTION_TYPES: dict[str, type[Any]] = {
    "grand_tichu": GrandTichu,
    "tichu": Tichu,
    "push": Push,
    "play": Play,
    "pass": Pass,
    "wish": Wish,
    "give_trick": GiveTrick,
    "give_lead": GiveLead,
    "another_hand": AnotherHand,
}


# --- shape of an action object ------------------------------------------------------

# The fields each class has; `tuple.__new__(Tichu, (True, "tichu"))` builds an object of
# the class past every constructor check, which :func:`malformed` finds.
_FIELD_COUNT: Final[dict[type[Any], int]] = {
    GrandTichu: 3,
    Tichu: 2,
    Push: 3,
    Play: 4,
    Pass: 2,
    Wish: 3,
    GiveTrick: 3,
    GiveLead: 3,
    AnotherHand: 3,
}
_TYPE_NAME: Final[dict[type[Any], str]] = {cls: name for name, cls in ACTION_TYPES.items()}
_RANKS: Final = frozenset(RANK_NAMES.values())


def malformed(action: tuple[object, ...]) -> str | None:
    """Why ``action`` (of one of the action classes) is no action its constructor could
    have built, or None. Cheap (a few type checks): ``Game.apply`` asks it of every
    action, since a forged tuple reaches it as easily as a built one."""
    kind = type(action)
    count = _FIELD_COUNT.get(kind)
    if count is None:
        return None  # a plugin's own action type: its constructor is its check
    if len(action) == count and action[-1] == _TYPE_NAME[kind] and type(action[0]) is int:
        if kind is Pass or kind is Tichu:
            return None
        value = action[1]
        if kind is Play:
            phoenix = action[2]
            if type(value) is str and (phoenix is None or phoenix in _RANKS):
                return None
        elif kind is GrandTichu or kind is AnotherHand:
            if type(value) is bool:
                return None
        elif kind is Wish:
            if value is None or value in _RANKS:
                return None
        elif kind is Push:
            if type(value) is PushCards and all(
                type(target) is int and type(codes) is str for target, codes in value.items()
            ):
                return None
        elif type(value) is int:  # GiveTrick, GiveLead
            return None
    return f"not a well-formed {kind.__name__}: {show_input(tuple(action))}"


_A = TypeVar("_A", bound=tuple[object, ...])


def _listed(kind: type[_A], *fields: object) -> _A:
    return tuple.__new__(kind, fields)


# The actions without cards are immutable and few: the engine lists the same objects
# every time (a seat's options are built thousands of times per simulated hand).
PASSES: tuple[Pass, ...] = tuple(_listed(Pass, s, "pass") for s in range(MAX_SEATS))
TICHUS: tuple[Tichu, ...] = tuple(_listed(Tichu, s, "tichu") for s in range(MAX_SEATS))
GRAND_TICHUS: tuple[tuple[GrandTichu, GrandTichu], ...] = tuple(
    (_listed(GrandTichu, s, False, "grand_tichu"), _listed(GrandTichu, s, True, "grand_tichu"))
    for s in range(MAX_SEATS)
)


# Seat -> wished rank (None: no wish) -> its Wish, made once (S-WISH-1).
WISHES: tuple[dict[int | None, Wish], ...] = tuple(
    {
        rank: _listed(Wish, s, RANK_NAMES[rank] if rank else None, "wish")
        for rank in (None, *range(2, 15))
    }
    for s in range(MAX_SEATS)
)


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


class AnotherHandModel(_Model):
    type: Literal["another_hand"]
    more: bool


ActionModel = (
    GrandTichuModel
    | TichuModel
    | PushModel
    | PlayModel
    | PassModel
    | WishModel
    | GiveTrickModel
    | GiveLeadModel
    | AnotherHandModel
)
# Tagged by `type`, so a bad action gets the errors of its own model only.
_ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Annotated[ActionModel, Field(discriminator="type")])


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form of an action (cards as codes)."""
    data: dict[str, Any] = {"type": action.type, "seat": action.seat}
    if isinstance(action, GrandTichu):
        data["call"] = action.call
    elif isinstance(action, AnotherHand):
        data["more"] = action.more
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


# --- reading JSON -------------------------------------------------------------------
# One strict reader for every JSON the engine takes in (actions and saves): the
# json module alone lets a repeated key win silently ({"seat": 0, "seat": 1} is
# seat 1), reads NaN and Infinity, and fails with RecursionError on deep nesting.

# Deeper than any action (3 levels) or save (7) can be; checked before anything
# walks the value recursively (validation, error messages).
MAX_JSON_DEPTH = 32
# A Python value given as an action may share containers (a list holding itself a
# thousand times), so its walk is bounded by size too; a real action is tiny.
_MAX_ACTION_NODES = 10_000


class _DuplicateKey(ValueError):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) < len(pairs):
        keys = [key for key, _ in pairs]
        repeated = next(key for key in data if keys.count(key) > 1)
        raise _DuplicateKey(f"the key {show_input(repeated)} appears more than once")
    return data


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON value")


def check_nesting(value: object, what: str, max_nodes: int | None = None) -> None:
    """InvalidAction if ``value`` nests deeper than MAX_JSON_DEPTH (or has more than
    ``max_nodes`` containers and items); walked without recursion."""
    stack: list[tuple[object, int]] = [(value, 0)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            raise InvalidAction(f"{what} is too large (more than {max_nodes} values)")
        if isinstance(item, Mapping):
            children: Iterable[object] = list(item.values())
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth >= MAX_JSON_DEPTH:
            raise InvalidAction(f"{what} nests deeper than {MAX_JSON_DEPTH} levels")
        stack.extend((child, depth + 1) for child in children)


def read_json(text: object, what: str) -> Any:
    """Parse JSON text strictly; InvalidAction naming ``what`` for anything but plain,
    unambiguous JSON: not text, a syntax error, a repeated key, NaN or Infinity, an
    int of more than 4,300 digits, or nesting deeper than MAX_JSON_DEPTH."""
    if not isinstance(text, str | bytes | bytearray):
        raise InvalidAction(f"{what} is JSON text (str or bytes), got {show_input(text)}")
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_not_json)
    except RecursionError:
        raise InvalidAction(f"{what} nests deeper than {MAX_JSON_DEPTH} levels") from None
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, _DuplicateKey, ...
        raise InvalidAction(f"{what} is not valid JSON: {error}") from None
    check_nesting(value, what)
    return value


def validation_problems(error: ValidationError) -> str:
    """A pydantic error as `where: message` lines, without the inputs: those are
    untrusted and may not even be printable."""
    return "; ".join(
        f"{'.'.join(str(part) for part in problem['loc']) or '(top level)'}: {problem['msg']}"
        for problem in error.errors(include_url=False, include_input=False)
    )


_PUSH_TARGET = re.compile(r"0|[1-9][0-9]{0,18}")  # a seat number as a JSON key, one spelling


def action_from_json(data: str | bytes | Mapping[str, Any]) -> Action:
    """Validate a JSON action (text or parsed) and build the action; InvalidAction on error."""
    if isinstance(data, str | bytes | bytearray):
        raw = read_json(data, "an action")
    elif isinstance(data, Mapping):
        check_nesting(data, "an action", _MAX_ACTION_NODES)
        raw = dict(data)
    else:
        raise InvalidAction(f"an action is a JSON object, got {show_input(data)}")
    if not isinstance(raw, dict):
        raise InvalidAction(f"an action is a JSON object, got {show_input(raw)}")
    # The tag first, so that the model's messages are those of the action's own type.
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise InvalidAction(
            f"malformed action {show_input(raw)}: type must be one of "
            f"{', '.join(ACTION_TYPES)}, got {show_input(kind)}"
        )
    try:
        model = _ACTION_ADAPTER.validate_python(raw)
    except ValidationError as error:
        raise InvalidAction(
            f"malformed action {show_input(raw)}: {validation_problems(error)}"
        ) from None
    fields = model.model_dump(exclude={"type"})
    if isinstance(model, PushModel):
        # "01" or " 1" would name seat 1 too, and two spellings of one target would
        # collide silently, like a repeated key.
        bad = [t for t in model.cards if not _PUSH_TARGET.fullmatch(t)]
        if bad:
            raise InvalidAction(
                f"push targets are seat numbers written plainly ('1'), got {show_input(bad)}"
            )
        fields["cards"] = {int(t): c for t, c in model.cards.items()}
    result: Action = ACTION_TYPES[model.type](**fields)
    return result
