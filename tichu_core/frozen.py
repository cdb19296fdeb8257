"""Read-only lists and dicts: what the engine hands out of a game's state.

A finished hand's result, an event of the log and a variant's tables are values
that every reader of a game shares; their lists and dicts refuse changes, so that
nobody changes a game from outside. They are lists and dicts all the same: equal to
the plain ones they hold, printed, pickled and serialised (JSON, pydantic) as those;
``list(...)`` and ``dict(...)`` make changeable copies.
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

__all__ = ["FrozenDict", "FrozenList", "frozen"]

_Key = TypeVar("_Key")
_Value = TypeVar("_Value")


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(f"{type(self).__name__} is read-only: take a copy (list(...), dict(...))")


class FrozenList(list[_Value]):
    """A list that refuses every change (TypeError): what a game hands out of its
    finished hands, so that nobody changes them from outside. It equals, prints,
    pickles and serialises as the list it holds; ``list(frozen)`` is a changeable copy."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[type[FrozenList[_Value]], tuple[list[_Value]]]:
        return (type(self), (list(self),))

    def __repr__(self) -> str:
        return list.__repr__(self)


class FrozenDict(dict[_Key, _Value]):
    """A dict that refuses every change (TypeError), as :class:`FrozenList`;
    ``dict(frozen)`` is a changeable copy."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type[FrozenDict[_Key, _Value]], tuple[dict[_Key, _Value]]]:
        return (type(self), (dict(self),))

    def __repr__(self) -> str:
        return dict.__repr__(self)


def frozen(value: Any) -> Any:
    """``value`` with every list and dict read-only, all the way down."""
    if isinstance(value, dict):
        return FrozenDict({key: frozen(item) for key, item in value.items()})
    if isinstance(value, list):
        return FrozenList([frozen(item) for item in value])
    return value
