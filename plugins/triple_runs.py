"""House rule "triple runs": two or more triples of consecutive ranks are a combination.

Standard Tichu has runs of pairs (steps) but no runs of triples: 333 444 is no
combination (S-COMB-2). At this table a run of triples of consecutive ranks, at
least two ranks long and made of real cards only (no Phoenix, no specials), may be
led like any combination. It is followed only by a higher run of triples of the
same length (its rank is its highest triple's, S-COMB-3's rule for every kind) or
by a bomb (S-BOMB-2); it beats nothing else. Everything else is the standard game.

No option can add a kind of combination, so this is a plugin: it answers the
``tichu_combinations`` hook by adding one :class:`~tichu_core.cardplay.kinds.HouseKind`
to the kinds the variant plays with. The kind lists its own plays from the hand's
rank counts and reads cards as its kind; the standard recognition and move
generation stay as they are. variants/house_triple_runs.toml names it. (One deck:
with two decks, two copies of a card would list a run twice.)
"""

from __future__ import annotations

from itertools import combinations, product
from typing import TYPE_CHECKING

from tichu_core.cardplay.combinations import PlayTuple
from tichu_core.cardplay.kinds import HouseKind
from tichu_core.rules.hookspecs import hookimpl

if TYPE_CHECKING:
    from tichu_core.cardplay.kinds import Combinations

TRIPLE_RUN = 8  # the first id of a house kind that is not a bomb


def _rank_cards(hand: int, rank: int) -> int:
    """The cards of one rank 2..14 (a byte of the mask, shifted back into place)."""
    shift = 8 * (rank - 1)
    return ((hand >> shift) & 0xFF) << shift


def _triples(cards: int) -> list[int]:
    """Every set of three of these cards (of one rank)."""
    bits = [1 << i for i in range(cards.bit_length()) if cards >> i & 1]
    return [a | b | c for a, b, c in combinations(bits, 3)]


class TripleRuns(HouseKind):
    kind = TRIPLE_RUN
    name = "triple_run"

    def lead_plays(self, hand: int) -> list[PlayTuple]:
        # Most hands hold no two neighbouring ranks of three cards: nothing to list.
        held = [_rank_cards(hand, rank).bit_count() if rank >= 2 else 0 for rank in range(16)]
        if not any(held[r] >= 3 and held[r + 1] >= 3 for r in range(2, 14)):
            return []
        triples = [
            _triples(_rank_cards(hand, rank)) if held[rank] >= 3 else [] for rank in range(15)
        ]
        found: list[PlayTuple] = []
        for low in range(2, 14):
            # Every window low..high of ranks that each hold a triple: the product of
            # their triples (no subset of the hand is ever tried).
            for high in range(low + 1, 15):
                if not triples[high] or not all(triples[r] for r in range(low, high + 1)):
                    break
                for picks in product(*(triples[r] for r in range(low, high + 1))):
                    cards = 0
                    for triple in picks:
                        cards |= triple
                    found.append((TRIPLE_RUN, 3 * (high - low + 1), high, cards, 0))
        return found

    def recognize(self, cards: int) -> list[PlayTuple]:
        if cards & 0xFF:  # a special card (the low byte) never joins a run of triples
            return []
        counts = {rank: _rank_cards(cards, rank).bit_count() for rank in range(2, 15)}
        ranks = [rank for rank, count in counts.items() if count]
        consecutive = ranks == list(range(ranks[0], ranks[0] + len(ranks))) if ranks else False
        if len(ranks) < 2 or not consecutive or any(counts[r] != 3 for r in ranks):
            return []
        return [(TRIPLE_RUN, 3 * len(ranks), ranks[-1], cards, 0)]


@hookimpl
def tichu_combinations(combinations: Combinations) -> Combinations:
    """The variant's kinds and runs of triples."""
    return combinations.adding(TripleRuns())
