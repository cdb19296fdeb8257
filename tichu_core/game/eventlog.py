"""Events built when they are first read.

A step of a game makes one or two events (a play, a pass, a trick won), and making
a pydantic event with its card codes costs more than the rest of the step's change
to the hand. A random-play simulation, a bot match or a search reads few of them,
or none. So the hand logs a :class:`Deferred` entry, the builder of an event and
its arguments, wherever the arguments are cheap to keep (plain ints and tuples,
nothing that changes later), and the event is built when somebody reads it:
``apply``'s answer (:class:`Events`), ``events_for``, ``event_log``.

An event is built once: every later read, from any log that shares the entry (a
copy of the game, the snapshot of an atomic ``apply``), gets the same object. What
was built and when is invisible from outside: the events are the ones an eager
engine makes, field for field (a test holds the two together).

This module may be compiled (tichu_core.builds).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, cast, final, overload

from tichu_core.game.events import Event


@final
class Deferred:
    """An event not built yet: ``build(*args)`` makes it, at the first read."""

    def __init__(self, build: Callable[..., Event], args: tuple[Any, ...]) -> None:
        self._build = build
        self._args = args
        self._event: Event | None = None

    def event(self) -> Event:
        """The event (built now if it was not yet; the same object at every read)."""
        event = self._event
        if event is None:
            event = self._build(*self._args)
            self._event = event
            self._args = ()  # nothing else needs them
        return event


def built(entries: list[Event | Deferred], start: int = 0) -> list[Event]:
    """``entries`` with every deferred entry from ``start`` on replaced, in place, by
    its event: the same list, now of events from ``start`` on."""
    for index in range(start, len(entries)):
        entry = entries[index]
        if type(entry) is Deferred:
            entries[index] = entry.event()
    return cast("list[Event]", entries)


@final
class Events(Sequence[Event]):
    """The events of one ``apply``: a read-only sequence, built when first read.

    It reads like the list it stands for: length, indexing and slices (a slice is a
    list), iteration, ``in``, ``index``/``count``, ``==`` with a list or another
    ``Events``, ``+`` with a list (a list); it copies and pickles as its events.
    ``list(events)`` is a plain list."""

    def __init__(self, entries: list[Event | Deferred]) -> None:
        self._entries = entries  # not shared: the game hands over a list of its own
        self._built = False

    def _events(self) -> list[Event]:
        if not self._built:
            built(self._entries)
            self._built = True
        return cast("list[Event]", self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __bool__(self) -> bool:
        return len(self._entries) > 0

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        return self._events()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events())

    def __reversed__(self) -> Iterator[Event]:
        return reversed(self._events())

    def __contains__(self, item: object) -> bool:
        return item in self._events()

    def index(self, item: Event, start: int = 0, stop: int = sys.maxsize) -> int:
        return self._events().index(item, start, stop)

    def count(self, item: Event) -> int:
        return self._events().count(item)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Events):
            return self._events() == other._events()
        if isinstance(other, list):
            return self._events() == other
        return NotImplemented

    def __hash__(self) -> int:
        raise TypeError("unhashable type: 'Events' (it compares equal to lists)")

    def __add__(self, other: Sequence[Event]) -> list[Event]:
        return self._events() + list(other)

    def __radd__(self, other: Sequence[Event]) -> list[Event]:
        return list(other) + self._events()

    def __repr__(self) -> str:
        return repr(self._events())

    def __reduce__(self) -> tuple[type[Events], tuple[list[Event | Deferred]]]:
        # copy, deepcopy and pickle (a list of events could be sent between processes):
        # the events themselves, built.
        return Events, (list(self._events()),)


# What a play-out's apply answers: it builds no events. Shared: an Events never changes.
NO_EVENTS: Final = Events([])
