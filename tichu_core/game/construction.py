"""Pydantic models built from values the engine made, without validating them again.

A simulation makes an event at nearly every step and an observation at every
decision of a bot; pydantic's ``model_construct`` costs several microseconds each.
:func:`construct` fills a model's four slots directly. The engine only passes
values it knows are valid, every field in declared order (a model's field order is
that of its dump); JSON readers validate what they read. This module may be
compiled (tichu_core.builds): the commonest events have builders of their own, which
make their dict in one go.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

from pydantic import BaseModel

from tichu_core.frozen import FrozenList, frozen
from tichu_core.game.events import EVENT_TYPES, Event, Passed, Played, TrickWon

_Model = TypeVar("_Model", bound=BaseModel)


def construct(
    model: type[_Model],
    fields: dict[str, Any],
    private: dict[str, Any] | None = None,
    fields_set: set[str] | None = None,
) -> _Model:
    """A pydantic model from engine-made values, every field given in declared order,
    without validation. ``fields_set``: the names of ``fields``, when the caller has
    them already (a set shared by every model of the type: pydantic copies it before
    changing it, in ``model_copy``)."""
    made = object.__new__(model)
    object.__setattr__(made, "__dict__", fields)
    object.__setattr__(
        made, "__pydantic_fields_set__", set(fields) if fields_set is None else fields_set
    )
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", private)
    return made


# Every field per event type, in field order, with its plain default (None if required).
_DEFAULTS: Final[dict[type[Event], dict[str, Any]]] = {
    event_type: {
        name: None if info.is_required() else frozen(info.get_default(call_default_factory=True))
        for name, info in event_type.model_fields.items()
    }
    for event_type in EVENT_TYPES
}
_ALL_FIELDS: Final[dict[type[Event], set[str]]] = {
    event_type: set(event_type.model_fields) for event_type in EVENT_TYPES
}
_PLAYED_FIELDS: Final = _ALL_FIELDS[Played]
_TRICK_WON_FIELDS: Final = _ALL_FIELDS[TrickWon]
# The private part of every public event, shared like the fields-sets: an event is a
# frozen value, and the engine never sets a private attribute after making one.
_PUBLIC: Final[dict[str, Any]] = {"_audience": None}
# Their fields in declared order (the type tag and plain defaults filled in).
_PLAYED_BLANK: Final = _DEFAULTS[Played]
_TRICK_WON_BLANK: Final = _DEFAULTS[TrickWon]


def make_event(
    event_type: type[Event],
    fields: dict[str, Any],
    audience: frozenset[int | None] | None = None,
) -> Event:
    """An event of ``event_type`` from engine-made ``fields``; every field not given
    has a plain default. ``audience``: who may see a private event."""
    values = _DEFAULTS[event_type].copy()  # the defaults keep the fields in declared order
    for name, value in fields.items():
        # An event is a read-only value: its lists and dicts refuse changes (a game hands
        # the same event to every reader of its log). An event's lists hold plain values
        # (codes, seats, points); only a dict (a scoring plugin's details) may nest.
        if type(value) is list:
            value = FrozenList(value)
        elif type(value) is dict:
            value = frozen(value)
        values[name] = value
    private = _PUBLIC if audience is None else {"_audience": audience}
    return construct(event_type, values, private, _ALL_FIELDS[event_type])


def played_event(
    hand: int,
    seat: int,
    cards: list[str],
    combination: str,
    rank: float,
    phoenix: str | None,
    bomb: bool,
) -> Event:
    """A :class:`Played` event (a test holds these fields to the model's order)."""
    fields = _PLAYED_BLANK.copy()  # copying a dict of these keys beats building one
    fields["hand"] = hand
    fields["seat"] = seat
    fields["cards"] = FrozenList(cards)
    fields["combination"] = combination
    fields["rank"] = rank
    fields["phoenix"] = phoenix
    fields["bomb"] = bomb
    return construct(Played, fields, _PUBLIC, _PLAYED_FIELDS)


def trick_won_event(hand: int, seat: int, to: int, points: int, cards: list[str]) -> Event:
    """A :class:`TrickWon` event (a test holds these fields to the model's order)."""
    fields = _TRICK_WON_BLANK.copy()
    fields["hand"] = hand
    fields["seat"] = seat
    fields["to"] = to
    fields["points"] = points
    fields["cards"] = FrozenList(cards)
    return construct(TrickWon, fields, _PUBLIC, _TRICK_WON_FIELDS)


def passed_event(hand: int, seat: int) -> Event:
    """The event of ``seat`` passing in hand ``hand``: the commonest event of all, made
    once per hand and seat and then shared (an event is a frozen value)."""
    key = hand * 64 + seat  # seats < 64 (MAX_SEATS)
    event = _PASSED.get(key)
    if event is None:
        if len(_PASSED) >= _PASSED_LIMIT:
            _PASSED.clear()
        event = make_event(Passed, {"hand": hand, "seat": seat})
        _PASSED[key] = event
    return event


_PASSED: Final[dict[int, Event]] = {}
_PASSED_LIMIT: Final = 1 << 14
