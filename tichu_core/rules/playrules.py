"""The combination rule point: recognition, comparison and legal plays as one object.

The ``tichu_play_rules`` hook returns a :class:`PlayRules`; the engine asks it
for every play, so it is resolved once per game rather than called through
pluggy on the hot path. Which kinds of combination exist is composed by the
``tichu_combinations`` hook (:class:`~tichu_core.cardplay.kinds.Combinations`):
a house rule adds a kind, or removes one, without touching the standard
recognition and move generation, which stay the fast path. A variant that needs
more (changing the standard kinds themselves) subclasses this class and returns
its own from ``tichu_play_rules``.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from tichu_core.cardplay.combinations import (
    FIRST_BOMB_KIND,
    Combination,
    CombinationRules,
    PlayTuple,
    as_combination,
    beats,
    recognize,
)
from tichu_core.cardplay.kinds import Combinations, HouseKind, bomb_beats
from tichu_core.cardplay.leads import LeadPlays
from tichu_core.cardplay.moves import MoveRules, apply_wish, bomb_plays, fulfils_wish, plays


@mypyc_attr(allow_interpreted_subclasses=True)
class PlayRules:
    """Recognition, comparison and legal plays of one game (compiled where the build
    is: tichu_core.builds); a variant's subclass may override any method."""

    def __init__(self, rules: MoveRules, combinations: Combinations | None = None) -> None:
        self.rules = rules
        self.combination_rules = CombinationRules(
            rules.four_distinct_suits, rules.second_dragon_beats_first
        )
        self.combinations = combinations if combinations is not None else Combinations()
        # The standard path alone unless the kinds were changed (most variants).
        self._changed = not self.combinations.is_standard
        self._house: dict[int, HouseKind] = {h.kind: h for h in self.combinations.house}
        # Bomb kind -> its level among the bombs, where two house bomb kinds meet.
        self._bomb_levels = self.combinations.bomb_levels()
        self._orders = self.combinations.orders[::-1]  # the latest asked first
        self._dropped = Combinations().standard - self.combinations.standard
        self._names: dict[int, str] = {}  # kind -> its name, asked once per kind
        # A lead of the standard kinds is listed lazily (`listed_plays`), unless a
        # subclass lists plays its own way.
        self._lazy_leads = not self._changed and type(self).plays is PlayRules.plays

    def with_combinations(self, combinations: Combinations) -> PlayRules:
        """These rules with other kinds of combination (a copy of this object's class,
        for the ``tichu_combinations`` hook)."""
        cls = type(self)
        changed = cls.__new__(cls)  # not initialised: PlayRules.__init__ sets its fields
        extra = getattr(self, "__dict__", None)  # a subclass's own attributes, if any
        if extra:
            changed.__dict__.update(extra)
        PlayRules.__init__(changed, self.rules, combinations)
        return changed

    def kind_name(self, kind: int) -> str:
        """The name events give a kind of combination."""
        name = self._names.get(kind)
        if name is None:
            name = self._names[kind] = self.combinations.name(kind)
        return name

    def plays(self, hand: int, top: PlayTuple | None) -> list[PlayTuple]:
        """Every distinct play of ``hand`` on ``top`` (None: a lead), bombs included, as
        plain tuples of Combination's fields (see ``PlayTuple``)."""
        if not self._changed:
            return plays(hand, top, self.rules)
        if self._orders and top is not None:
            # An order may let any play beat the top: the standard plays on it (a Phoenix
            # single valued against it, S-COMB-5) and every other play of the hand,
            # each kept if `beats` says so.
            same = plays(hand, top, self.rules)
            listed = set(same)
            others = [p for p in self.plays(hand, None) if p not in listed and p[:2] != top[:2]]
            return [play for play in [*same, *others] if self.beats(play, top)]
        owner = self._house.get(top[0]) if top is not None else None
        if owner is not None and top is not None:
            # On a house kind only bombs of the standard kinds can follow: its owner
            # says which (its `beats`).
            found = [p for p in bomb_plays(hand, None, self.rules) if owner.beats(p, top)]
        else:
            found = plays(hand, top, self.rules)
        return self._merged(found, hand, top)

    def listed_plays(self, hand: int, top: PlayTuple | None) -> list[PlayTuple] | LeadPlays:
        """The plays of :meth:`plays`, in its order, as the referee lists them: a lead
        of the standard kinds as a :class:`~tichu_core.cardplay.leads.LeadPlays`
        (counted, and built a kind at a time when read), anything else as a list."""
        if top is None and self._lazy_leads:
            return LeadPlays(hand, self.rules)
        return self.plays(hand, top)

    def bombs(self, hand: int, top: PlayTuple | None) -> list[PlayTuple]:
        """The bombs of ``hand`` that beat ``top``."""
        if not self._changed:
            return bomb_plays(hand, top, self.rules)
        if self._orders:
            return [play for play in self.plays(hand, top) if play[0] >= FIRST_BOMB_KIND]
        owner = self._house.get(top[0]) if top is not None else None
        found = bomb_plays(hand, None if owner is not None else top, self.rules)
        if owner is not None and top is not None:
            found = [p for p in found if owner.beats(p, top)]
        return [p for p in self._merged(found, hand, top) if p[0] >= FIRST_BOMB_KIND]

    def _merged(self, found: list[PlayTuple], hand: int, top: PlayTuple | None) -> list[PlayTuple]:
        """The standard plays less the dropped kinds, and each house kind's plays."""
        if self._dropped:
            found = [p for p in found if p[0] not in self._dropped]
        other = self._house.get(top[0]) if top is not None else None
        for house in self._house.values():
            if other is not None and top is not None and self._levelled(house, other):
                # On another house bomb kind: the two levels decide (beats, below).
                found += [p for p in house.plays(hand, None) if self.beats(p, top)]
            else:
                found += house.plays(hand, top)
        return found

    @staticmethod
    def _levelled(first: HouseKind, second: HouseKind) -> bool:
        """Whether two different house bomb kinds meet, each ordered by default (its
        level): then neither alone knows the other's level."""
        return (
            first is not second
            and first.kind >= FIRST_BOMB_KIND
            and second.kind >= FIRST_BOMB_KIND
            and type(first).beats is HouseKind.beats
            and type(second).beats is HouseKind.beats
        )

    def apply_wish(
        self, hand: int, candidates: list[PlayTuple], wish: int | None
    ) -> tuple[list[PlayTuple], bool]:
        """Restrict a seat's plays by the open wish; also says whether it must play."""
        return apply_wish(hand, candidates, wish, self.rules)

    def fulfils(self, play: PlayTuple, wish: int) -> bool:
        return fulfils_wish(play, wish, self.rules)

    def recognize(self, cards: int, top: PlayTuple | None) -> list[Combination]:
        """Every reading of ``cards`` (empty: not a combination)."""
        readings = recognize(cards, self.combination_rules, top)
        if not self._changed:
            return readings
        readings = [r for r in readings if r.kind not in self._dropped]
        for house in self._house.values():
            readings += [as_combination(r) for r in house.recognize(cards)]
        return readings

    def beats(self, play: PlayTuple, top: PlayTuple | None) -> bool:
        if top is not None and self._changed:
            for order in self._orders:
                answer = order(play, top)
                if answer is not None:
                    return bool(answer)
            owner = self._house.get(play[0])
            under = self._house.get(top[0])
            if owner is not None and under is not None and self._levelled(owner, under):
                return bomb_beats(play, top, self._bomb_levels)
            owner = owner or under
            if owner is not None:
                return owner.beats(play, top)
        return beats(play, top, self.combination_rules)
