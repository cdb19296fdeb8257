"""Reading values back from JSON: what a front end sent over the wire or saved.

``model_dump(mode="json")`` (or ``model_dump_json()``) writes an event, an
observation or a hand result; these functions read it back, validated, as the value
it was, field for field (an event's audience, who may see it, is not in its JSON).
Actions have :func:`tichu_core.game.actions.action_from_json`. Each takes JSON text
(str or bytes) or the parsed value, and raises
:class:`~tichu_core.errors.InvalidAction` naming what is wrong, as every reader of
untrusted input in the engine does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from tichu_core.errors import InvalidAction
from tichu_core.game.actions import check_nesting, read_json, show_input, validation_problems
from tichu_core.game.events import EVENT_TYPES, Event
from tichu_core.game.results import HandResult
from tichu_core.game.views import Observation

__all__ = ["event_from_json", "hand_result_from_json", "observation_from_json"]

_Model = TypeVar("_Model", bound=BaseModel)
# Each event class by its type tag ("played" -> Played).
_EVENT_CLASSES = {str(event.model_fields["type"].default): event for event in EVENT_TYPES}


def _object(data: object, what: str) -> dict[str, Any]:
    if isinstance(data, str | bytes | bytearray):
        raw = read_json(data, what)
    elif isinstance(data, Mapping):
        check_nesting(data, what)
        raw = dict(data)
    else:
        raise InvalidAction(f"{what} is a JSON object, got {show_input(data)}")
    if not isinstance(raw, dict):
        raise InvalidAction(f"{what} is a JSON object, got {show_input(raw)}")
    return raw


def event_from_json(data: str | bytes | Mapping[str, Any]) -> Event:
    """The event a JSON object describes (its ``type`` picks the class: ``Played``,
    ``TrickWon``, ...). An event read back knows nothing of who may see it: a private
    event (``visible_to`` set) is seen by nobody through :meth:`Event.seen_by`."""
    raw = _object(data, "an event")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in _EVENT_CLASSES:
        raise InvalidAction(
            f"an event's type must be one of {', '.join(sorted(_EVENT_CLASSES))}, "
            f"got {show_input(kind)}"
        )
    return _model(_EVENT_CLASSES[kind], raw, "a", f"{kind} event")


def _model(model: type[_Model], data: object, article: str, noun: str) -> _Model:
    raw = _object(data, f"{article} {noun}")
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        raise InvalidAction(f"malformed {noun}: {validation_problems(error)}") from None


def observation_from_json(data: str | bytes | Mapping[str, Any]) -> Observation:
    """The observation a JSON object describes (``Observation.model_dump(mode="json")``)."""
    return _model(Observation, data, "an", "observation")


def hand_result_from_json(data: str | bytes | Mapping[str, Any]) -> HandResult:
    """The hand result a JSON object describes (read-only, as the game's own)."""
    return _model(HandResult, data, "a", "hand result")
