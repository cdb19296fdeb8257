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
    FOUR_BOMB,
    KIND_NAMES,
    LAST_KIND,
    STRAIGHT_FLUSH,
    Kind,
    PlayTuple,
)


def is_bomb(kind: int) -> bool:
    """Whether a kind id is a bomb's (every id from FIRST_BOMB_KIND up)."""
    return kind >= FIRST_BOMB_KIND


# Where bombs stand among themselves (S-BOMB-2): a bomb of a higher level beats every
# bomb of a lower one; within a level the longer bomb wins, then the higher rank. The
# standard bombs' levels (a straight flush beats every four of a kind), and where a
# house bomb kind stands unless it says otherwise (HouseKind.bomb_level): above them.
# A kind's id places nothing: 66 and 67 are names, the levels are the order.
FOUR_BOMB_LEVEL = 100
STRAIGHT_FLUSH_LEVEL = 200
ABOVE_STANDARD_BOMBS = 300
_STANDARD_LEVELS: dict[int, int] = {
    int(FOUR_BOMB): FOUR_BOMB_LEVEL,
    int(STRAIGHT_FLUSH): STRAIGHT_FLUSH_LEVEL,
}


def bomb_beats(play: PlayTuple, top: PlayTuple, levels: dict[int, int]) -> bool:
    """Whether bomb ``play`` beats bomb ``top``, each kind's level read from ``levels``
    (kind id -> level): by level, then length, then rank."""
    return (levels[play[0]], play[1], play[2]) > (levels[top[0]], top[1], top[2])


class HouseKind:
    """A kind of combination a house rule adds.

    Subclasses set ``kind`` (an id from 8 to 63, or from 66 to 127 for a bomb),
    ``name`` (as events and messages show it) and implement :meth:`lead_plays` and
    :meth:`recognize`. By default a play of the kind beats one of the same kind and
    length with a higher rank. A bomb kind beats every play that is not a bomb, and
    stands among the bombs at its ``bomb_level`` (S-BOMB-2; see FOUR_BOMB_LEVEL and
    STRAIGHT_FLUSH_LEVEL): bombs compare by level, then length, then rank, whatever
    their ids. Override :meth:`beats` to change any of that, in both directions (it is
    asked whenever the play or the top is of this kind).
    """

    kind: int = 0
    name: str = ""
    # A bomb kind's place among the bombs (ignored for other kinds): above every
    # standard bomb by default; FOUR_BOMB_LEVEL + 50 puts it between the four of a kind
    # and the straight flushes, FOUR_BOMB_LEVEL - 50 below every standard bomb.
    bomb_level: int = ABOVE_STANDARD_BOMBS

    def lead_plays(self, hand: int) -> list[PlayTuple]:
        """Every distinct play of this kind the hand (a card mask) holds."""
        raise NotImplementedError

    def recognize(self, cards: int) -> list[PlayTuple]:
        """The readings of exactly these cards as this kind (empty: they are not)."""
        raise NotImplementedError

    def beats(self, play: PlayTuple, top: PlayTuple) -> bool:
        """Whether ``play`` may go on ``top``, one of them being of this kind."""
        if is_bomb(play[0]) or is_bomb(top[0]):
            if not is_bomb(play[0]):
                return False
            if not is_bomb(top[0]):
                return True
            # Another house bomb kind than this one: PlayRules compares the two by their
            # levels before asking either (it knows both); here it counts as the default.
            levels = dict(_STANDARD_LEVELS)
            levels.setdefault(play[0], ABOVE_STANDARD_BOMBS)
            levels.setdefault(top[0], ABOVE_STANDARD_BOMBS)
            levels[self.kind] = self.bomb_level
            return bomb_beats(play, top, levels)
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

    def bomb_levels(self) -> dict[int, int]:
        """Every bomb kind here -> its level among the bombs (see FOUR_BOMB_LEVEL)."""
        levels = {k: level for k, level in _STANDARD_LEVELS.items() if k in self.standard}
        for house in self.house:
            if is_bomb(house.kind):
                levels[house.kind] = house.bomb_level
        return levels

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
    if bomb and (type(kind.bomb_level) is not int or kind.bomb_level < 0):
        raise ValueError(
            f"house kind {type(kind).__name__}: bomb_level places it among the bombs, an "
            f"int from 0 (four of a kind: {FOUR_BOMB_LEVEL}, straight flushes: "
            f"{STRAIGHT_FLUSH_LEVEL}), got {kind.bomb_level!r}"
        )
    if not kind.name or kind.name in KIND_NAMES.values() or not isinstance(kind.name, str):
        raise ValueError(f"house kind {type(kind).__name__}: needs a name of its own")
