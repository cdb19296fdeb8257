"""A lead's plays, counted by kind and built when read.

A seat that leads has some 40 to 400 plays; its straights, steps and full houses
(about half of a full hand's) are built by move generation one tuple (and one wide
card mask) at a time. A bot
that picks one play by its index needs only how many there are and the one it
picks. :class:`LeadPlays` is that listing: a read-only sequence in exactly the order
of :func:`~tichu_core.cardplay.moves.lead_plays`, whose length is counted from the
hand's rank bytes by arithmetic on small ints (no play built), and whose items are
built a kind at a time, when a kind is first read.

The counts mirror the generators of ``moves`` one for one (the same tables of
suit sub-multisets, the same windows, the same Phoenix positions); a test holds
every count to the length of what its generator lists, and the whole sequence to
``lead_plays``, for hands of one and two decks.

A bot's listing and the referee's are two objects that hold only the hand, the
rules and where each kind starts (nothing a bot could change in one reaches the
other). What a kind's plays are depends on the hand (and on the four-of-a-kind
option, through the bombs) alone, so the kind built last is kept (``_BUILT``): the
referee reads the play a bot picked from the kind the bot's listing built.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from typing import Any, Final, overload

from tichu_core.cardplay.cards import (
    DOG_BITS,
    DRAGON_BITS,
    DRAGON_RANK,
    MAH_JONG_RANK,
    PHOENIX_BITS,
)
from tichu_core.cardplay.combinations import (
    DOG,
    PAIR,
    PHOENIX_LED_RANK,
    SINGLE,
    STEPS,
    STRAIGHT,
    TRIPLE,
    PlayTuple,
)
from tichu_core.cardplay.moves import (
    _BYTE_SUBS,
    _FIRST_PHOENIX,
    _PHOENIX_SETS,
    _POPCOUNT,
    _SETS,
    _SUBS,
    _SUIT_NIBBLE,
    MoveRules,
    _full_houses,
    _hand_parts,
    _runs,
    _sets,
    _singles,
    lead_plays,
)

# The kinds of a lead in the order `lead_plays` lists them: each is a "part".
SINGLES: Final = 0
PAIRS: Final = 1
TRIPLES: Final = 2
FULL_HOUSES: Final = 3
STRAIGHTS: Final = 4
STEPS_PART: Final = 5
BOMBS: Final = 6
THE_DOG: Final = 7
PARTS: Final = 8

# _WAYS[k][byte]: how many distinct sub-multisets of k suits a rank byte holds (the
# length of moves' table entry for it), as bytes: read as small ints.
_WAYS: Final = [bytes(len(_BYTE_SUBS[k][b]) for b in range(256)) for k in range(4)]
_ONE: Final = _WAYS[1]
_TWO: Final = _WAYS[2]
_THREE: Final = _WAYS[3]

# The counts below keep every number a machine int (no list, no object made): a
# rank's ways to take part in a run (at most 10) are packed 4 bits a rank, ranks
# 1..14, into one int (``ways``); products of ways stay below 10**14.


def _plain_run_count(b: bytes, ways: int, lo: int, min_len: int, flushes: bool) -> int:
    """How many runs without the Phoenix ``moves._plain_runs`` lists for a lead: over
    every window of ranks that can all take part, the product of their ways (less
    the one-suit straights, which are bombs: ``flushes``)."""
    total = 0
    while lo <= 15 - min_len:
        if not ways >> 4 * lo & 15:
            lo += 1
            continue
        end = lo
        while end < 14 and ways >> 4 * (end + 1) & 15:
            end += 1
        if end - lo + 1 >= min_len:
            for start in range(lo, end - min_len + 2):
                product = 1
                # A window from rank 2 up loses one play per suit held at each of its
                # ranks (S-BOMB-1).
                common = 15 if flushes and start >= 2 else 0
                for hi in range(start, end + 1):
                    product *= ways >> 4 * hi & 15
                    if common:
                        common &= _SUIT_NIBBLE[b[hi]]
                    if hi - start + 1 >= min_len:
                        total += product - _POPCOUNT[common]
        lo = end + 1
    return total


def _phoenix_run_count(b: bytes, ways: int, steps: bool, min_len: int) -> int:
    """How many runs with the Phoenix ``moves._phoenix_runs`` lists for a lead: per
    position k of the Phoenix, the ways below k times the ways above it."""
    total = 0
    for k in range(2, 15):
        # The real cards beside the Phoenix at k: none in a straight, one of rank k in
        # steps.
        beside = _ONE[b[k]] if steps else 1
        if not beside:
            continue
        depth = 0  # how many ranks under k can all take part
        while ways >> 4 * (k - 1 - depth) & 15:
            depth += 1
        up = 0  # ... and above k
        while k + up < 14 and ways >> 4 * (k + up + 1) & 15:
            up += 1
        if depth + up + 1 < min_len:
            continue
        above = 1
        for u in range(up + 1):
            if u:
                above *= ways >> 4 * (k + u) & 15
            first = min_len - u - 1 if min_len > u + 1 else 0
            if first > depth:
                continue
            below = 1
            below_sum = 0
            for d in range(depth + 1):
                if d:
                    below *= ways >> 4 * (k - d) & 15
                if d >= first:
                    below_sum += below
            total += beside * above * below_sum
    return total


def lead_starts(hand: int, rules: MoveRules) -> tuple[int, ...]:
    """starts[p]: the index of the first play of part p (``SINGLES`` .. ``THE_DOG``) in
    ``hand``'s lead; starts[PARTS]: how many plays there are."""
    b, bombs = _hand_parts(hand, rules)
    return _starts(hand, b, len(bombs))


def _starts(hand: int, b: bytes, bombs: int) -> tuple[int, ...]:
    """`lead_starts` from the rank bytes ``b`` and the number of bombs: one pass over
    the ranks, then the runs where the ranks held allow any."""
    phoenix = bool(hand & PHOENIX_BITS)
    singles = pairs = triples = 0
    held = 0  # bit r: rank r held (bit 1: the Mah Jong)
    held2 = 0  # bit r: a pair of rank r held
    ways1 = 0  # the ways of each rank in a straight (see above), and in steps
    ways2 = 0
    triple_ranks = 0  # bit r: a full house may have its triple of rank r
    real_triple = False
    all_options = 0  # the pairs beside a real triple, and the real pairs
    all_pairs = 0
    for r in range(2, 15):
        byte = b[r]
        if byte:
            one = _ONE[byte]
            two = _TWO[byte]
            three = _THREE[byte]
            singles += one
            pairs += two
            triples += three
            held |= 1 << r
            ways1 |= one << 4 * r
            if two:
                held2 |= 1 << r
                ways2 |= two << 4 * r
                all_pairs += two
                if three:
                    real_triple = True
                    triple_ranks |= 1 << r
                elif phoenix:
                    triple_ranks |= 1 << r
            all_options += two
            if phoenix:
                pairs += one  # the Phoenix beside a single card
                triples += two  # ... or beside a pair
                all_options += one
    if b[1]:
        singles += 1  # the Mah Jong, also the 1 of a straight
        held |= 2
        ways1 |= 1 << 4
    if hand & DRAGON_BITS:
        singles += 1
    if phoenix:
        singles += 1
    # Full houses: beside a real triple any pair of another rank (the Phoenix may
    # complete a single); beside a triple the Phoenix completes, any real pair.
    full_houses = 0
    ranks = triple_ranks
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        byte = b[low.bit_length() - 1]
        two = _TWO[byte]
        if real_triple:
            own = two + (_ONE[byte] if phoenix else 0)
            full_houses += _THREE[byte] * (all_options - own)
        if phoenix:
            full_houses += two * (all_pairs - two)
    # Runs, where the ranks held allow one: five ranks in a row for a straight (four of
    # five with the Phoenix), two pairs in a row for steps (or a pair beside a single
    # card, with the Phoenix).
    straights = 0
    if held & held >> 1 & held >> 2 & held >> 3 & held >> 4:
        straights = _plain_run_count(b, ways1, 1, 5, True)
    if phoenix and held.bit_count() >= 4:
        straights += _phoenix_run_count(b, ways1, False, 5)
    steps = 0
    if held2 & held2 >> 1:
        steps = _plain_run_count(b, ways2, 2, 2, False)
    if phoenix and held & (held2 << 1 | held2 >> 1):
        steps += _phoenix_run_count(b, ways2, True, 2)
    at_pairs = singles + pairs
    at_full_houses = at_pairs + triples
    at_straights = at_full_houses + full_houses
    at_steps = at_straights + straights
    at_bombs = at_steps + steps
    at_dog = at_bombs + bombs
    return (
        0,
        singles,
        at_pairs,
        at_full_houses,
        at_straights,
        at_steps,
        at_bombs,
        at_dog,
        at_dog + (1 if hand & DOG_BITS else 0),
    )


def lead_counts(hand: int, rules: MoveRules) -> list[int]:
    """How many plays of each part (``SINGLES`` .. ``THE_DOG``) ``hand`` may lead."""
    starts = lead_starts(hand, rules)
    return [starts[part + 1] - starts[part] for part in range(PARTS)]


def lead_part(hand: int, rules: MoveRules, part: int) -> list[PlayTuple]:
    """The plays of one part of ``hand``'s lead, as ``lead_plays`` lists them."""
    b, bombs = _hand_parts(hand, rules)
    phoenix = hand & PHOENIX_BITS
    phoenix &= -phoenix
    out: list[PlayTuple] = []
    if part == SINGLES:
        _singles(out, b, phoenix, hand & DRAGON_BITS, None, rules)
    elif part == PAIRS:
        _sets(out, b, phoenix, 2, PAIR, 0)
    elif part == TRIPLES:
        _sets(out, b, phoenix, 3, TRIPLE, 0)
    elif part == FULL_HOUSES:
        _full_houses(out, b, phoenix, 0)
    elif part == STRAIGHTS:
        _runs(out, b, phoenix, STRAIGHT, 1, 5, 0, 0)
    elif part == STEPS_PART:
        _runs(out, b, phoenix, STEPS, 2, 2, 0, 0)
    elif part == BOMBS:
        out += bombs
    elif hand & DOG_BITS:
        dog = hand & DOG_BITS
        out.append((DOG, 1, 0, dog & -dog, 0))
    return out


def _table_play(table: list[list[list[PlayTuple]]], b: bytes, index: int) -> Any:
    """The play at ``index`` of a moves table's entries for ``b``, rank by rank (as
    ``_singles`` and ``_sets`` list them), or None when there are fewer."""
    for r in range(2, 15):
        byte = b[r]
        if byte:
            plays = table[r][byte]
            if index < len(plays):
                return plays[index]
            index -= len(plays)
    return None


def _table_count(ways: bytes, b: bytes) -> int:
    """How many entries `_table_play` walks for ``b`` (``ways``: their count a byte)."""
    count = 0
    for r in range(2, 15):
        count += ways[b[r]]
    return count


def _set_play(b: bytes, phoenix: int, size: int, index: int) -> Any:
    """The play at ``index`` among the pairs (``size`` 2) or triples (3) of a lead, read
    off moves' tables as ``_sets`` lists them: ranks up, then the Phoenix's readings.
    Nothing is listed: singles, pairs and triples are most of the plays a lead picks."""
    play = _table_play(_SETS[size], b, index)
    if play is not None:
        return play
    index -= _table_count(_WAYS[size], b)
    if phoenix == _FIRST_PHOENIX:
        play = _table_play(_PHOENIX_SETS[size], b, index)
        if play is None:
            raise IndexError(index)
        return play
    fewer = _SUBS[size - 1]  # the second deck's Phoenix alone (two decks)
    kind: Any = PAIR if size == 2 else TRIPLE
    for r in range(2, 15):
        byte = b[r]
        if byte:
            masks = fewer[r][byte]
            if index < len(masks):
                return (kind, size, r, masks[index] | phoenix, r)
            index -= len(masks)
    raise IndexError(index)


def _single(hand: int, b: bytes, index: int) -> Any:
    """The single at ``index`` of a lead, as ``_singles`` lists them: the normal cards
    (ranks up), then the Mah Jong, a Dragon and the Phoenix, each if held."""
    play = _table_play(_SETS[1], b, index)
    if play is not None:
        return play
    index -= _table_count(_ONE, b)
    if b[1]:
        if not index:
            return (SINGLE, 1, MAH_JONG_RANK, b[1] & -b[1], 0)
        index -= 1
    dragons = hand & DRAGON_BITS
    if dragons:
        if not index:
            return (SINGLE, 1, DRAGON_RANK, dragons & -dragons, 0)
        index -= 1
    phoenix = hand & PHOENIX_BITS
    return (SINGLE, 1, PHOENIX_LED_RANK, phoenix & -phoenix, 0)


class _Built:
    """The part built last: the bot's listing builds the part of the play it reads, and
    the referee reads that play again from its own listing when it is applied."""

    __slots__ = ("entry",)

    def __init__(self) -> None:
        # (hand, rules, part, its plays), replaced whole (one assignment: a thread that
        # reads it sees one part or the other, never a mix). The plays are typed Any: a
        # play read from here is handed on as the tuple it is (a PlayTuple would be
        # taken apart and made again by the compiled build).
        self.entry: tuple[Any, MoveRules | None, int, tuple[Any, ...]] = (-1, None, -1, ())


# Never handed out: a part is a pure function of the hand, the rules and the part's
# number, so whatever listing asks, what is kept here is exact for its key.
_BUILT: Final = _Built()


def _play_of_part(hand: int, b: bytes, rules: MoveRules, part: int, index: int) -> Any:
    """The play at ``index`` of one part of ``hand``'s lead (``b``: its rank bytes)."""
    if part <= TRIPLES:
        if part == SINGLES:
            return _single(hand, b, index)
        phoenix = hand & PHOENIX_BITS
        return _set_play(b, phoenix & -phoenix, 2 if part == PAIRS else 3, index)
    entry = _BUILT.entry
    if entry[2] != part or entry[1] is not rules or entry[0] != hand:
        entry = (hand, rules, part, tuple(lead_part(hand, rules, part)))
        _BUILT.entry = entry
    return entry[3][index]


class LeadPlays(Sequence[PlayTuple]):
    """Every play ``hand`` may lead, as ``lead_plays`` lists them: counted without
    building any, and built a kind at a time when read (see the module)."""

    __slots__ = ("_b", "_hand", "_rules", "_starts")

    def __init__(
        self,
        hand: int,
        rules: MoveRules,
        starts: tuple[int, ...] | None = None,
        b: bytes | None = None,
    ) -> None:
        self._hand = hand
        self._rules = rules
        # The rank bytes and where each part starts: immutable, so the bot's and the
        # referee's listings share them (``twin``).
        if starts is None or b is None:
            b, bombs = _hand_parts(hand, rules)
            starts = _starts(hand, b, len(bombs))
        self._b = b
        self._starts = starts

    def __reduce__(
        self,
    ) -> tuple[type[LeadPlays], tuple[int, MoveRules, tuple[int, ...], bytes]]:
        # Rebuilt through the constructor (a compiled class cannot be pickled otherwise).
        return LeadPlays, (self._hand, self._rules, self._starts, self._b)

    def twin(self) -> LeadPlays:
        """Another listing of the same lead (one for the bot, one for the referee)."""
        return LeadPlays(self._hand, self._rules, self._starts, self._b)

    def __len__(self) -> int:
        return self._starts[PARTS]

    def play(self, index: int) -> Any:
        """The play at ``index``, 0 <= index < len(self) (the referee's fast path)."""
        starts = self._starts
        part = 0
        while starts[part + 1] <= index:
            part += 1
        return _play_of_part(self._hand, self._b, self._rules, part, index - starts[part])

    @overload
    def __getitem__(self, index: int) -> PlayTuple: ...

    @overload
    def __getitem__(self, index: slice) -> list[PlayTuple]: ...

    def __getitem__(self, index: int | slice) -> PlayTuple | list[PlayTuple]:
        if type(index) is not int:
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(len(self)))]
            index = operator.index(index)
        starts = self._starts
        size = starts[PARTS]
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(f"lead play index {index} out of range ({size} plays)")
        # Handed on as the object it is (typed Any; see `_Built.plays`).
        return self.play(index)  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[PlayTuple]:
        return iter(lead_plays(self._hand, self._rules))

    def __repr__(self) -> str:
        return f"<LeadPlays: {len(self)} plays of {self._hand:#x}>"
