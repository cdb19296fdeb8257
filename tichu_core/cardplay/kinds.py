"""Combination kinds a house rule adds, and the set of kinds a variant plays with.

The standard kinds (S-COMB-1, S-BOMB-1) are built into recognition and move
generation. A house rule adds a kind by subclassing :class:`HouseKind`: it lists
the plays of its kind in a hand and reads a set of cards as its kind; the engine
merges them with the standard plays, so nothing standard is copied. A variant's
:class:`Combinations` says which standard kinds it keeps and which house kinds it
adds; plugins change it through the ``tichu_combinations`` hook.

A play is listed as a plain tuple in ``Combination``'s field order,
``(kind, length, rank, cards, phoenix)`` (see ``PlayTuple``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tichu_core.cardplay.combinations import (
    FIRST_BOMB_KIND,
    FIRST_HOUSE_BOMB,
    FIRST_HOUSE_KIND,
    KIND_NAMES,
    LAST_KIND,
    Kind,
    PlayTuple,
)


def is_bomb(kind: int) -> bool:
    """Whether a kind id is a bomb's (every id from FIRST_BOMB_KIND up)."""
    return kind >= FIRST_BOMB_KIND


class HouseKind:
    """A kind of combination a house rule adds.

    Subclasses set ``kind`` (an id from 8 to 63, or from 66 to 127 for a bomb),
    ``name`` (as events and messages show it) and implement :meth:`lead_plays` and
    :meth:`recognize`. By default a play of the kind beats one of the same kind and
    length with a higher rank (a bomb beats every play that is not a bomb, and bombs
    among themselves by kind, length, rank: S-BOMB-2); override :meth:`beats` to
    change that, in both directions (it is asked whenever the play or the top is of
    this kind).
    """

    kind: int = 0
    name: str = ""

    def lead_plays(self, hand: int) -> list[PlayTuple]:
        """Every distinct play of this kind the hand (a card mask) holds."""
        raise NotImplementedError

    def recognize(self, cards: int) -> list[PlayTuple]:
        """The readings of exactly these cards as this kind (empty: they are not)."""
        raise NotImplementedError

    def beats(self, play: PlayTuple, top: PlayTuple) -> bool:
        """Whether ``play`` may go on ``top``, one of them being of this kind."""
        if is_bomb(play[0]) or is_bomb(top[0]):
            return is_bomb(play[0]) and (not is_bomb(top[0]) or play[:3] > top[:3])
        return play[0] == top[0] and play[1] == top[1] and play[2] > top[2]

    def plays(self, hand: int, top: PlayTuple | None) -> list[PlayTuple]:
        """The plays of this kind in ``hand`` that may go on ``top`` (None: a lead)."""
        if (
            top is not None
            and top[0] != self.kind
            and not is_bomb(self.kind)
            and type(self).beats is HouseKind.beats
        ):
            return []  # by the default order, an ordinary kind beats only its own kind
        found = self.lead_plays(hand)
        if top is None:
            return found
        return [play for play in found if self.beats(play, top)]


# A house order: whether ``play`` may go on ``top`` (True or False), or None to leave
# the question to the orders before it and, last, to the kinds' own order.
Order = Callable[[PlayTuple, PlayTuple], "bool | None"]


@dataclass(frozen=True)
class Combinations:
    """The kinds a variant plays with: the standard kinds it keeps, house kinds, and
    house orders that change what beats what.

    Immutable: :meth:`adding`, :meth:`without` and :meth:`ordering` give a changed
    copy, which is what a ``tichu_combinations`` hook answers.
    """

    standard: frozenset[int] = field(default_factory=lambda: frozenset(int(k) for k in Kind))
    house: tuple[HouseKind, ...] = ()
    orders: tuple[Order, ...] = ()

    def adding(self, kind: HouseKind) -> Combinations:
        """These kinds and a house kind (whose id no kind here has)."""
        check_house_kind(kind, self.ids())
        return Combinations(self.standard, (*self.house, kind), self.orders)

    def ordering(self, beats: Order) -> Combinations:
        """These kinds with an order asked before every other: ``beats(play, top)``
        answers whether ``play`` may go on ``top`` (S-COMB-3, S-BOMB-2 changed), or None
        to leave it to the rules. With an order the seat's plays on a trick are every
        play of its hand that the order lets beat the top, of any kind."""
        if not callable(beats):
            raise ValueError(f"an order is a function (play, top) -> bool | None, got {beats!r}")
        return Combinations(self.standard, self.house, (*self.orders, beats))

    def without(self, *kinds: int) -> Combinations:
        """These kinds less the given standard or house kind ids."""
        gone = set(kinds)
        unknown = gone - self.ids()
        if unknown:
            raise ValueError(f"no such kind to remove: {sorted(unknown)}")
        return Combinations(
            self.standard - gone, tuple(h for h in self.house if h.kind not in gone), self.orders
        )

    def ids(self) -> set[int]:
        return set(self.standard) | {h.kind for h in self.house}

    def name(self, kind: int) -> str:
        """The name events give a kind (``"single"``, ``"four_bomb"``, a house name)."""
        for house in self.house:
            if house.kind == kind:
                return house.name
        return KIND_NAMES[kind]

    @property
    def is_standard(self) -> bool:
        return not self.house and not self.orders and self.standard == Combinations().standard


def check_house_kind(kind: object, taken: Iterable[int] = ()) -> None:
    """ValueError unless ``kind`` is a usable HouseKind (id in its range, free, named)."""
    if not isinstance(kind, HouseKind):
        raise ValueError(f"a house kind is a HouseKind, got {kind!r}")
    ident = kind.kind
    ordinary = FIRST_HOUSE_KIND <= ident < FIRST_BOMB_KIND
    bomb = FIRST_HOUSE_BOMB <= ident <= LAST_KIND
    if type(ident) is not int or not (ordinary or bomb):
        raise ValueError(
            f"house kind {type(kind).__name__}: kind must be {FIRST_HOUSE_KIND}.."
            f"{FIRST_BOMB_KIND - 1} (or {FIRST_HOUSE_BOMB}..{LAST_KIND} for a bomb), got {ident!r}"
        )
    if ident in set(taken):
        raise ValueError(f"house kind {type(kind).__name__}: kind {ident} is taken")
    if not kind.name or kind.name in KIND_NAMES.values() or not isinstance(kind.name, str):
        raise ValueError(f"house kind {type(kind).__name__}: needs a name of its own")
