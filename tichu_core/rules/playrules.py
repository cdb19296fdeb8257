"""The combination rule point: recognition, comparison and legal plays as one object.

The ``tichu_play_rules`` hook returns a :class:`PlayRules`; the engine asks it
for every play, so it is resolved once per game rather than called through
pluggy on the hot path. A variant that changes what combinations exist or
beat each other subclasses it and returns its own from the hook.
"""

from __future__ import annotations

from tichu_core.cardplay.combinations import (
    Combination,
    CombinationRules,
    PlayTuple,
    beats,
    recognize,
)
from tichu_core.cardplay.moves import MoveRules, apply_wish, bomb_plays, fulfils_wish, plays


class PlayRules:
    def __init__(self, rules: MoveRules) -> None:
        self.rules = rules
        self.combination_rules = CombinationRules(
            rules.four_distinct_suits, rules.second_dragon_beats_first
        )

    def plays(self, hand: int, top: PlayTuple | None) -> list[PlayTuple]:
        """Every distinct play of ``hand`` on ``top`` (None: a lead), bombs included, as
        plain tuples of Combination's fields (see ``PlayTuple``)."""
        return plays(hand, top, self.rules)

    def bombs(self, hand: int, top: PlayTuple | None) -> list[PlayTuple]:
        """The bombs of ``hand`` that beat ``top``."""
        return bomb_plays(hand, top, self.rules)

    def apply_wish(
        self, hand: int, candidates: list[PlayTuple], wish: int | None
    ) -> tuple[list[PlayTuple], bool]:
        """Restrict a seat's plays by the open wish; also says whether it must play."""
        return apply_wish(hand, candidates, wish, self.rules)

    def fulfils(self, play: PlayTuple, wish: int) -> bool:
        return fulfils_wish(play, wish, self.rules)

    def recognize(self, cards: int, top: PlayTuple | None) -> list[Combination]:
        """Every reading of ``cards`` (empty: not a combination)."""
        return recognize(cards, self.combination_rules, top)

    def beats(self, play: PlayTuple, top: PlayTuple | None) -> bool:
        return beats(play, top, self.combination_rules)
