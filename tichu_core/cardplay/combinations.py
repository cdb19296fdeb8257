"""Combinations: what a set of cards is, and what beats what (S-COMB-*, S-BOMB-1/2, GS-4).

A :class:`Combination` is a plain named tuple ``(kind, length, rank, cards,
phoenix)``: ``length`` is the number of cards, ``rank`` the value it is
compared by (top rank of a straight or run of pairs, the triple of a full
house; a Phoenix single is worth half a rank more than what it is played on),
``cards`` the card mask and ``phoenix`` the rank the Phoenix stands for (0 when
it is not in the play, or is played alone). Recognition works on the rank
bytes of the mask (see :mod:`tichu_core.cards`), never on card subsets.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Final, NamedTuple

from tichu_core.cardplay.cards import (
    DOG_BITS,
    DRAGON_BITS,
    DRAGON_RANK,
    MAH_JONG_BITS,
    MAH_JONG_RANK,
    PHOENIX_BITS,
    RANK_NAMES,
    SUIT_BITS,
    format_mask,
    rank_shift,
)

# The standard kinds' numbers as plain ints, for the hot paths: the Kind members are enum
# objects, and compiled, each comparison with one is a Python call (literals: the
# compiled build uses them as machine ints wherever they are imported).
SINGLE_ID: Final = 1
PAIR_ID: Final = 2
TRIPLE_ID: Final = 3
STEPS_ID: Final = 4
FULL_HOUSE_ID: Final = 5
STRAIGHT_ID: Final = 6
DOG_ID: Final = 7


class Kind(IntEnum):
    SINGLE = SINGLE_ID
    PAIR = PAIR_ID
    TRIPLE = TRIPLE_ID
    STEPS = STEPS_ID  # run of at least two pairs of consecutive ranks
    FULL_HOUSE = FULL_HOUSE_ID
    STRAIGHT = STRAIGHT_ID
    DOG = DOG_ID
    FOUR_BOMB = 64
    STRAIGHT_FLUSH = 65


SINGLE: Final = Kind.SINGLE
PAIR: Final = Kind.PAIR
TRIPLE: Final = Kind.TRIPLE
STEPS: Final = Kind.STEPS
FULL_HOUSE: Final = Kind.FULL_HOUSE
STRAIGHT: Final = Kind.STRAIGHT
DOG: Final = Kind.DOG
FOUR_BOMB: Final = Kind.FOUR_BOMB
STRAIGHT_FLUSH: Final = Kind.STRAIGHT_FLUSH
# Kind ids: 1..7 the standard kinds; 8..63 the kinds a house rule adds
# (`tichu_core.cardplay.kinds`); 64 and up the bombs: 64 and 65 the standard ones,
# 66..127 a house rule's. Every kind from FIRST_BOMB_KIND up is a bomb, and bombs are
# ordered by (kind, length, rank) (S-BOMB-2).
FIRST_HOUSE_KIND: Final = 8
FIRST_BOMB_KIND: Final = FOUR_BOMB
FIRST_HOUSE_BOMB: Final = 66
LAST_KIND: Final = 127

# One name per kind, everywhere: events carry it (``Played.combination``), house kinds
# give their own, and the words people read are this name with spaces
# (:func:`kind_label`: "full house", "four bomb", "straight flush").
KIND_NAMES: Final[dict[int, str]] = {
    SINGLE: "single",
    PAIR: "pair",
    TRIPLE: "triple",
    STEPS: "steps",
    FULL_HOUSE: "full_house",
    STRAIGHT: "straight",
    DOG: "dog",
    FOUR_BOMB: "four_bomb",
    STRAIGHT_FLUSH: "straight_flush",
}


def kind_label(name: str) -> str:
    """The words for a kind's name (``tc.kind_label``): ``"four_bomb"`` -> ``"four bomb"``.
    The CLI, the web page and ``Combination.describe`` all show kinds this way."""
    return name.replace("_", " ")


def is_standard_kind(kind: int) -> bool:
    """Whether ``kind`` is one of the standard kinds of ``Kind`` (``tc.is_standard_kind``);
    otherwise a house rule added it (``tichu_combinations``) and it names itself."""
    return SINGLE <= kind <= DOG or kind in (FOUR_BOMB, STRAIGHT_FLUSH)


PHOENIX_LED_RANK: Final = 1.5  # S-COMB-5: led, or on the Mah Jong


class Combination(NamedTuple):
    kind: int
    length: int
    rank: float
    cards: int
    phoenix: int = 0

    @property
    def is_bomb(self) -> bool:
        return self.kind >= FIRST_BOMB_KIND

    def describe(self, name: str | None = None) -> str:
        """Human text, e.g. ``straight of 5 to 9: 9t 8t 7p 6s 5j``. ``name``: the kind's
        name where a house rule added it (the game's rules know it:
        ``game.rulebook.play_rules.kind_name(kind)``); without it a house kind shows as
        ``kind 66``."""
        if name is None:
            name = KIND_NAMES.get(self.kind, f"kind {self.kind}")
        name = kind_label(name)
        if self.kind == DOG:
            head = name
        elif self.kind == SINGLE:
            head = f"{name} {rank_label(self.rank)}"
        elif self.kind in (STRAIGHT, STEPS, STRAIGHT_FLUSH):
            head = f"{name} of {self.length} to {rank_label(self.rank)}"
        else:
            head = f"{name} of {rank_label(self.rank)}"
        if self.phoenix:
            head += f", Phoenix as {RANK_NAMES[self.phoenix]}"
        return f"{head}: {format_mask(self.cards)}"


# A play as move generation lists it: a plain tuple in Combination's field order,
# (kind, length, rank, cards, phoenix). It compares and hashes like the Combination of
# the same fields (which is one too); the engine makes Combinations only of the plays
# that are played or shown. The rank is an int, or a float for a Phoenix single
# (typed Any: the compiled build would otherwise store every rank as a float).
PlayTuple = tuple[int, int, Any, int, int]


def as_combination(play: PlayTuple) -> Combination:
    """The Combination of a listed play (the play itself when it is one already)."""
    if type(play) is Combination:
        return play
    return _new_tuple(Combination, play)


_new_tuple: Final = tuple.__new__


def rank_label(rank: float) -> str:
    if rank == MAH_JONG_RANK:
        return "Mah Jong"
    if rank == DRAGON_RANK:
        return "Dragon"
    if rank != int(rank):
        return f"Phoenix ({rank})"
    return RANK_NAMES[int(rank)]


class CombinationRules(NamedTuple):
    """The rule options that change what a combination is or beats."""

    four_distinct_suits: bool = True  # GS-4
    second_dragon_beats_first: bool = False  # GS-4


DEFAULT_RULES: Final = CombinationRules()


def beats(play: PlayTuple, top: PlayTuple | None, rules: CombinationRules = DEFAULT_RULES) -> bool:
    """Whether ``play`` may be played on ``top`` (None: an empty trick, i.e. a lead).

    S-COMB-3 (same kind and length, strictly higher), S-COMB-5/6 (Phoenix,
    Dragon), S-BOMB-2/3 (bomb order), GS-4 (second Dragon), S-DOG-1.
    """
    if top is None:
        return True
    kind, length, rank, cards, _ = play
    top_kind = top[0]
    if top_kind == DOG:
        return False  # S-DOG-1: nothing follows the Dog, not even a bomb
    if kind >= FIRST_BOMB_KIND:
        if top_kind < FIRST_BOMB_KIND:
            return True
        return (kind, length, rank) > top[:3]
    if top_kind >= FIRST_BOMB_KIND or kind == DOG:
        return False
    if kind != top_kind or length != top[1]:
        return False
    if kind == SINGLE:
        if top[3] & DRAGON_BITS:
            # Only a real Dragon may go on a Dragon, and only where GS-4 allows it.
            return rules.second_dragon_beats_first and bool(cards & DRAGON_BITS)
        if cards & DRAGON_BITS:
            return True  # S-COMB-6: the highest single (also above a Phoenix worth 15, E-2)
    return bool(rank > top[2])


def phoenix_single(cards: int, top: PlayTuple | None) -> Combination:
    """The Phoenix played alone on ``top`` (S-COMB-5, E-2)."""
    if top is None or top[0] != SINGLE:
        return Combination(SINGLE, 1, PHOENIX_LED_RANK, cards, 0)
    return Combination(SINGLE, 1, top[2] + 0.5, cards, 0)


def _rank_counts(cards: int) -> list[int]:
    """counts[r] for r in 0..14; counts[1] is the Mah Jong."""
    counts = [0, (cards & MAH_JONG_BITS).bit_count()]
    for rank in range(2, 15):
        counts.append(((cards >> rank_shift(rank)) & 0xFF).bit_count())
    return counts


def _suits_of_rank(cards: int, rank: int) -> int:
    byte = (cards >> rank_shift(rank)) & 0xFF
    return (byte | byte >> 4) & 0xF


def _classify_counts(
    counts: list[int], cards: int, real_cards: int, rules: CombinationRules, phoenix: int
) -> Combination | None:
    """The combination of rank counts (Phoenix already counted at ``phoenix``)."""
    present = [r for r in range(1, 15) if counts[r]]
    total = sum(counts)
    if not present:
        return None
    lo, hi = present[0], present[-1]
    if len(present) == 1:
        rank = lo
        if rank == MAH_JONG_RANK:
            return Combination(SINGLE, 1, MAH_JONG_RANK, cards, 0) if total == 1 else None
        if total == 1:
            return Combination(SINGLE, 1, rank, cards, phoenix)
        if total == 2:
            return Combination(PAIR, 2, rank, cards, phoenix)
        if total == 3:
            return Combination(TRIPLE, 3, rank, cards, phoenix)
        if total == 4 and not phoenix:
            if rules.four_distinct_suits and _suits_of_rank(real_cards, rank) != 0xF:
                return None
            return Combination(FOUR_BOMB, 4, rank, cards, 0)
        return None  # S-COMB-2: five or more of one rank
    consecutive = hi - lo + 1 == len(present)
    if len(present) == 2 and total == 5 and lo != MAH_JONG_RANK:
        if counts[lo] == 3 and counts[hi] == 2:
            return Combination(FULL_HOUSE, 5, lo, cards, phoenix)
        if counts[hi] == 3 and counts[lo] == 2:
            return Combination(FULL_HOUSE, 5, hi, cards, phoenix)
    if not consecutive:
        return None
    if all(counts[r] == 1 for r in present) and total >= 5:
        if not phoenix and lo >= 2:
            for suit_bits in SUIT_BITS:
                if real_cards & ~suit_bits == 0:
                    return Combination(STRAIGHT_FLUSH, total, hi, cards, 0)
        return Combination(STRAIGHT, total, hi, cards, phoenix)
    if lo >= 2 and len(present) >= 2 and all(counts[r] == 2 for r in present):
        return Combination(STEPS, total, hi, cards, phoenix)
    return None  # S-COMB-2: e.g. consecutive triples


def recognize(
    cards: int, rules: CombinationRules = DEFAULT_RULES, top: PlayTuple | None = None
) -> list[Combination]:
    """Every reading of a card mask as a combination (empty: not a combination).

    Readings differ only by the rank the Phoenix stands for (S-COMB-4); a
    Phoenix single is valued against ``top`` (S-COMB-5). A play holds at most
    one Phoenix (two decks: two Phoenixes never combine).
    """
    if not cards:
        return []
    phoenixes = cards & PHOENIX_BITS
    real = cards & ~PHOENIX_BITS
    if cards & DOG_BITS:
        return [Combination(DOG, 1, 0, cards, 0)] if cards.bit_count() == 1 else []
    if cards & DRAGON_BITS:
        return [Combination(SINGLE, 1, DRAGON_RANK, cards, 0)] if cards.bit_count() == 1 else []
    if not phoenixes:
        found = _classify_counts(_rank_counts(cards), cards, real, rules, 0)
        return [found] if found else []
    if phoenixes.bit_count() > 1:
        return []
    if not real:
        return [phoenix_single(cards, top)]
    counts = _rank_counts(real)
    readings: list[Combination] = []
    seen: set[tuple[int, int, float]] = set()
    for rank in range(2, 15):
        counts[rank] += 1
        found = _classify_counts(counts, cards, real, rules, rank)
        counts[rank] -= 1
        if found and not found.is_bomb:
            key = (found.kind, found.length, found.rank)
            if key not in seen:
                seen.add(key)
                readings.append(found)
    return readings


def strongest(readings: list[Combination]) -> Combination | None:
    return max(readings, key=lambda c: (c.kind, c.rank)) if readings else None
