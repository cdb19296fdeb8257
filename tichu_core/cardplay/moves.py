"""Legal-move generation from rank bytes and precomputed tables.

A hand is read as one byte per rank (``cards`` module): the low nibble holds
the suits of the first deck, the high nibble those of the second. For every
byte value the tables below list, per size 1..4, the distinct sub-multisets of
suits as card masks (two copies of one card are the same play, so only one of
them is listed). Every kind is then built by products of these short lists
along rank windows; no card subset is ever tried. The Phoenix joins a product
at exactly one position, which is how each of its readings appears once.

Plays are listed as ``PlayTuple``s: plain tuples in ``Combination``'s field order,
equal to the Combination of the same fields. Building a tuple costs a fraction of
building a named tuple, and a seat's plays are listed at every turn while only
the one played needs to be a Combination (``as_combination``).
"""

from __future__ import annotations

from itertools import product
from typing import Any, Final, NamedTuple

from tichu_core.cardplay.cards import (
    CARD_BYTES,
    DOG_BITS,
    DRAGON_BITS,
    DRAGON_RANK,
    MAH_JONG_BITS,
    MAH_JONG_RANK,
    NORMAL_BITS,
    PHOENIX_BITS,
    RANK_BITS,
    SECOND_COPY,
)
from tichu_core.cardplay.combinations import (
    DOG,
    DOG_ID,
    FIRST_BOMB_KIND,
    FOUR_BOMB,
    FULL_HOUSE,
    FULL_HOUSE_ID,
    PAIR,
    PAIR_ID,
    PHOENIX_LED_RANK,
    SINGLE,
    SINGLE_ID,
    STEPS,
    STEPS_ID,
    STRAIGHT,
    STRAIGHT_FLUSH,
    STRAIGHT_ID,
    TRIPLE,
    TRIPLE_ID,
    Combination,
    CombinationRules,
    PlayTuple,
    as_combination,
)

# A card mask where compiled code handles many of them: typed Any, so that mypyc keeps
# it as the Python int it is. A mask of a play has up to 112 bits, beyond mypyc's
# native ints, which it converts at every step (each OR of two masks would check both
# for a native int, make the result, then try to make it native again; each store in
# a list or a tuple would make an object of it again). For the same reason the small
# fields of many plays (kind, rank, the Phoenix's rank) are boxed once, as ``Any``.
Mask = Any


class MoveRules(NamedTuple):
    """The rule options move generation reads (see the variant model for each)."""

    four_distinct_suits: bool = True  # GS-4
    second_dragon_beats_first: bool = False  # GS-4
    bomb_must_fulfil: bool = True  # S-WISH-2
    phoenix_fulfils: bool = False  # S-WISH-3
    bomb_instead: bool = False  # S-WISH-6

    @property
    def combination_rules(self) -> CombinationRules:
        return CombinationRules(self.four_distinct_suits, self.second_dragon_beats_first)


DEFAULT_MOVE_RULES: Final = MoveRules()


def _sub_multisets(byte: int, size: int) -> list[int]:
    """Distinct sub-multisets of ``size`` suits of a rank byte, as byte masks.

    A suit held in both copies may be taken once (first copy) or twice.
    """
    choices_per_suit = []
    for suit in range(4):
        first, second = 1 << suit, 1 << (suit + 4)
        options = [0]
        held = [bit for bit in (first, second) if byte & bit]
        if held:
            options.append(held[0])
        if len(held) == 2:
            options.append(first | second)
        choices_per_suit.append(options)
    found = []
    for combo in product(*choices_per_suit):
        mask = combo[0] | combo[1] | combo[2] | combo[3]
        if mask.bit_count() == size:
            found.append(mask)
    return found


def _four_distinct(byte: int) -> list[int]:
    return [m for m in _sub_multisets(byte, 4) if (m | m >> 4) & 0xF == 0xF]


def _shifted(table: list[list[int]], rank: int) -> list[list[int]]:
    shift = 8 * (rank - 1)
    return [[m << shift for m in entry] for entry in table]


_BYTE_SUBS: Final = [[_sub_multisets(b, k) for b in range(256)] for k in range(5)]
_BYTE_FOUR_DISTINCT: Final = [_four_distinct(b) for b in range(256)]
# _SUBS[k][rank][byte]: the size-k plays of that rank byte, as hand masks.
_NONE: Final[list[int]] = []
_EMPTY: Final[list[list[int]]] = [_NONE for _ in range(256)]
_SUBS: Final = [
    [_EMPTY, _EMPTY] + [_shifted(_BYTE_SUBS[k], r) for r in range(2, 15)] for k in range(5)
]
_FOUR_DISTINCT: Final = [_EMPTY, _EMPTY] + [_shifted(_BYTE_FOUR_DISTINCT, r) for r in range(2, 15)]
# _SETS[size][rank][byte]: the ready singles, pairs, triples of that rank byte, and
# _PHOENIX_SETS[size][rank][byte] the same sizes made with the first-deck Phoenix.
# Combinations are immutable, so every hand shares these tuples (the other plays are
# listed as plain tuples of the same fields, see `PlayTuple`).
_FIRST_PHOENIX: Final = 1 << 2


def _set_table(size: int, phoenix: int) -> list[list[list[PlayTuple]]]:
    kind = (SINGLE, PAIR, TRIPLE)[size - 1]
    real = size - (1 if phoenix else 0)
    table: list[list[list[PlayTuple]]] = [[[] for _ in range(256)] for _ in range(2)]
    for rank in range(2, 15):
        table.append(
            [
                [
                    Combination(kind, size, rank, m | phoenix, rank if phoenix else 0)
                    for m in _SUBS[real][rank][byte]
                ]
                if real
                else []
                for byte in range(256)
            ]
        )
    return table


_SETS: Final[list[list[list[list[PlayTuple]]]]] = [[], *(_set_table(size, 0) for size in (1, 2, 3))]
_PHOENIX_SETS: Final[list[list[list[list[PlayTuple]]]]] = [
    [],
    [],
    *(_set_table(size, _FIRST_PHOENIX) for size in (2, 3)),
]
# Per byte: the canonical card of each suit held (0 when the suit is absent).
_SUIT_CARD: Final = [[(b & (1 << s)) or (b & (1 << (s + 4))) for s in range(4)] for b in range(256)]
# Per byte: the suits held in either copy, as a nibble (bytes: read as small ints).
_SUIT_NIBBLE: Final = bytes((b | b >> 4) & 0xF for b in range(256))
# A rank byte's suits (either copy), one bit per suit 15 bits apart (_straight_flushes).
_SUIT_LANES: Final = [
    sum(1 << 15 * s for s in range(4) if (b | b >> 4) >> s & 1) for b in range(256)
]
_POPCOUNT: Final = bytes(b.bit_count() for b in range(256))  # per byte: its cards
# _CARD_MASKS[rank][i]: the card of bit i of that rank's byte, as a hand mask.
_CARD_MASKS: Final[list[list[Mask]]] = [[], []] + [
    [1 << (8 * (r - 1) + i) for i in range(8)] for r in range(2, 15)
]
_SHIFTS: Final = [0, 0] + [8 * (r - 1) for r in range(2, 15)]


# The cards rank_bytes reads: the normal cards and the Mah Jong (its rank-1 byte).
_RANKS_AND_MAH_JONG: Final = NORMAL_BITS | MAH_JONG_BITS


def rank_bytes(hand: int) -> bytes:
    """b[r] for r in 0..14: the cards of rank r (b[1]: the Mah Jong bits, if held; b[0]: 0)."""
    # One conversion of the wide mask, shifted a byte up so that b[r] is rank r; read as
    # small ints (indexing bytes makes no objects).
    return ((hand & _RANKS_AND_MAH_JONG) << 8).to_bytes(CARD_BYTES + 1, "little")


def _first_rank_above(rank: float) -> int:
    """The lowest of the ranks 2..14 above ``rank`` (2 below that range)."""
    return int(rank) + 1 if rank >= 2 else 2


def _singles(
    out: list[PlayTuple],
    b: bytes,
    phoenix: int,
    dragons: int,
    top: PlayTuple | None,
    rules: MoveRules,
) -> None:
    """S-COMB-5/6, E-2, GS-4: singles above ``top`` (None: a lead), appended to ``out``.

    Every generator below appends to the caller's list: a lead lists every kind in one
    list, with no list made and copied per kind."""
    min_rank: float = top[2] if top is not None else 0
    top_is_dragon = top is not None and bool(top[3] & DRAGON_BITS)
    table = _SETS[1]
    for r in range(_first_rank_above(min_rank), 15):
        byte = b[r]
        if byte:
            out += table[r][byte]
    if b[1] and min_rank < MAH_JONG_RANK:
        out.append((SINGLE, 1, MAH_JONG_RANK, b[1] & -b[1], 0))
    if dragons and (not top_is_dragon or rules.second_dragon_beats_first):
        out.append((SINGLE, 1, DRAGON_RANK, dragons & -dragons, 0))
    if phoenix and not top_is_dragon:
        value = min_rank + 0.5 if top is not None else PHOENIX_LED_RANK
        out.append((SINGLE, 1, value, phoenix, 0))


def _sets(
    out: list[PlayTuple], b: bytes, phoenix: int, size: int, kind: int, min_rank: float
) -> None:
    """Pairs (size 2) or triples (size 3) above ``min_rank``, with Phoenix readings."""
    first = _first_rank_above(min_rank)
    table = _SETS[size]
    for r in range(first, 15):
        byte = b[r]
        if byte:
            plays = table[r][byte]
            if plays:
                out += plays
    if phoenix == _FIRST_PHOENIX:
        table = _PHOENIX_SETS[size]
        for r in range(first, 15):
            byte = b[r]
            if byte:
                plays = table[r][byte]
                if plays:
                    out += plays
    elif phoenix:  # the second deck's Phoenix alone (two decks)
        fewer = _SUBS[size - 1]
        for r in range(first, 15):
            byte = b[r]
            if byte:
                for m in fewer[r][byte]:
                    out.append((kind, size, r, m | phoenix, r))


def _full_houses(out: list[PlayTuple], b: bytes, phoenix: int, min_rank: float) -> None:
    """S-COMB-1/4: triple + pair of another rank; the Phoenix completes either one."""
    singles, pairs, triples = _SUBS[1], _SUBS[2], _SUBS[3]
    popcount = _POPCOUNT
    triple_ranks = []
    real_triple = False
    for r in range(2, 15):
        held = popcount[b[r]]
        if r > min_rank and (held >= 3 or (phoenix and held >= 2)):
            triple_ranks.append(r)
            real_triple = real_triple or held >= 3
    if not triple_ranks:
        return  # most hands: no triple, and no pair needs listing
    # With the Phoenix, the real pairs as (rank, cards) in rank order: they go beside a
    # triple the Phoenix completes.
    real_pairs: list[tuple[int, Mask]] = []
    twos: list[Mask]
    if phoenix:
        for r in range(2, 15):
            byte = b[r]
            if popcount[byte] >= 2:
                twos = pairs[r][byte]
                for m in twos:
                    real_pairs.append((r, m))
    # Beside a real triple, any pair: as (rank, cards, rank the Phoenix stands for), the
    # pairs the Phoenix completes after the real ones of each rank. (Most hands with the
    # Phoenix have no real triple, and need no list of those.)
    pair_options: list[tuple[int, Mask, Any]] = []
    if real_triple:
        no_phoenix: Any = 0
        for r in range(2, 15):
            byte = b[r]
            if not byte:
                continue
            if popcount[byte] >= 2:
                twos = pairs[r][byte]
                for m in twos:
                    pair_options.append((r, m, no_phoenix))
            if phoenix:
                r_field: Any = r
                ones: list[Mask] = singles[r][byte]
                for m in ones:
                    pair_options.append((r, m | phoenix, r_field))
    kind_field: Any = FULL_HOUSE
    length_field: Any = 5
    for t in triple_ranks:
        byte = b[t]
        t_field: Any = t
        trios: list[Mask] = triples[t][byte]
        for tm in trios:
            for p, pm, pr in pair_options:
                if p != t:
                    out.append((kind_field, length_field, t_field, tm | pm, pr))
        if phoenix:
            twos = pairs[t][byte]
            for tm in twos:
                with_phoenix: Mask = tm | phoenix
                for p, pm in real_pairs:
                    if p != t:
                        out.append((kind_field, length_field, t_field, with_phoenix | pm, t_field))


def _choices(b: bytes, width: int) -> list[list[int]]:
    """choices[r]: the ways rank r can fill one position of a run (empty: it cannot)."""
    table = _SUBS[width]
    choices = [_NONE] * 16  # ranks 0 and 15 stay empty: every run stops there
    for r in range(2, 15):
        byte = b[r]
        if byte:
            choices[r] = table[r][byte]
    if width == 1 and b[1]:
        choices[1] = [b[1] & -b[1]]  # the Mah Jong as the 1 of a straight
    return choices


def _products(
    choices: list[list[int]], start: int, count: int, step: int, base: Mask = 0
) -> list[list[Mask]]:
    """Running products of ``choices`` along ``count`` ranks from ``start`` by ``step``
    (1 or -1), each with the cards of ``base``: entry j covers the first j ranks."""
    acc: list[Mask] = [base]
    out = [acc]
    for j in range(count):
        ways: list[Mask] = choices[start + j * step]
        # The first rank's ways without a base are the products as they are (no list
        # here is ever changed, so the table's own list serves).
        acc = [m | c for m in acc for c in ways] if j or base else ways
        if not acc:
            break
        out.append(acc)
    return out


def _plain_runs(
    out: list[PlayTuple],
    choices: list[list[int]],
    b: bytes,
    kind: int,
    width: int,
    min_len: int,
    exact_len: int,
    min_top: float,
) -> None:
    """Straights (width 1) or steps (width 2) without the Phoenix, over every window."""
    lo = 1 if width == 1 else 2
    while lo <= 15 - min_len:
        if not choices[lo]:
            lo += 1
            continue
        end = lo
        while choices[end + 1]:
            end += 1
        # [lo, end] is a maximal segment of ranks that can all take part.
        if end - lo + 1 >= min_len:
            single_way = True
            for r in range(lo, end + 1):
                if len(choices[r]) != 1:
                    single_way = False
                    break
            if single_way:
                _single_choice_windows(
                    out, choices, b, kind, width, lo, end, min_len, exact_len, min_top
                )
            else:
                _product_windows(out, choices, b, kind, width, lo, end, min_len, exact_len, min_top)
        lo = end + 1


def _single_choice_windows(
    out: list[PlayTuple],
    choices: list[list[int]],
    b: bytes,
    kind: int,
    width: int,
    lo: int,
    end: int,
    min_len: int,
    exact_len: int,
    min_top: float,
) -> None:
    """Every window of a segment where each rank has one way to take part (one play
    each), appended to ``out``."""
    # prefix[i]: the cards of ranks lo..lo+i-1; a window is a difference of two prefixes.
    prefix: list[Mask] = [0]
    for r in range(lo, end + 1):
        prefix.append(prefix[-1] | choices[r][0])
    # same_suit[i]: how many ranks up to lo+i share that rank's single suit (flush check).
    same_suit = [0] * (end - lo + 2)
    if width == 1:
        nibble = _SUIT_NIBBLE
        for i, r in enumerate(range(lo, end + 1), start=1):
            if r == 1:
                continue
            same_suit[i] = same_suit[i - 1] + 1 if i > 1 and nibble[b[r]] == nibble[b[r - 1]] else 1
    first = max(min_len, exact_len)
    last = exact_len or (end - lo + 1)
    kind_field: Any = kind
    no_phoenix: Any = 0
    for i in range(first, end - lo + 2):
        top = lo + i - 1
        if top <= min_top:
            continue
        top_field: Any = top
        high: Mask = prefix[i]
        for length in range(first, min(last, i) + 1):
            if same_suit[i] < length:
                out.append(
                    (kind_field, length * width, top_field, high ^ prefix[i - length], no_phoenix)
                )


def _product_windows(
    out: list[PlayTuple],
    choices: list[list[int]],
    b: bytes,
    kind: int,
    width: int,
    lo: int,
    end: int,
    min_len: int,
    exact_len: int,
    min_top: float,
) -> None:
    """Every window of a segment, as products of each rank's ways to take part, appended
    to ``out``."""
    suit_card = _SUIT_CARD
    shifts = _SHIFTS
    nibble = _SUIT_NIBBLE
    kind_field: Any = kind
    no_phoenix: Any = 0
    for start in range(lo, end - min_len + 2):
        acc: list[Mask] = [0]
        # Suits held at every rank so far: only they can make one-suit
        # straights, which are bombs, never plain straights (S-BOMB-1).
        common = 0xF if width == 1 and start >= 2 else 0
        for hi in range(start, end + 1):
            ways: list[Mask] = choices[hi]
            acc = [m | c for m in acc for c in ways]
            common &= nibble[b[hi]]
            length = hi - start + 1
            if length < min_len or hi <= min_top:
                continue
            if exact_len and length != exact_len:
                if length > exact_len:
                    break
                continue
            length_field: Any = length * width
            hi_field: Any = hi
            if common:
                flushes = {
                    sum(suit_card[b[r]][s] << shifts[r] for r in range(start, hi + 1))
                    for s in range(4)
                    if common >> s & 1
                }
                for m in acc:
                    if m not in flushes:
                        out.append((kind_field, length_field, hi_field, m, no_phoenix))
            else:
                for m in acc:
                    out.append((kind_field, length_field, hi_field, m, no_phoenix))


def _phoenix_runs(
    out: list[PlayTuple],
    choices: list[list[int]],
    b: bytes,
    phoenix: int,
    kind: int,
    width: int,
    min_len: int,
    exact_len: int,
    min_top: float,
) -> None:
    """Runs in which the Phoenix fills exactly one position k (S-COMB-4).

    The play is (cards below k) x (Phoenix at k) x (cards above k); k may be a
    rank the hand lacks (a gap or an end) or one it holds. Each play with its
    reading appears once, at its own k.
    """
    stand_ins = _SUBS[width - 1]
    # Bit r of ``held``: rank r can take part; of ``several``: in more than one way.
    # Where every rank has exactly one way to take part, a run's cards are a difference
    # of prefix ORs: prefix[r] holds the single ways of ranks 1..r. ``ups`` packs, 4 bits
    # a rank, how many ranks from r upwards can all take part. (``held``, ``several`` and
    # ``ups`` are native ints: what every k reads of them costs no list access.)
    held = 0
    several = 0
    prefix: list[Mask] = [0] * 16
    singles_so_far: Mask = 0
    for r in range(1, 15):
        ways = choices[r]
        count = len(ways)
        if count:
            held |= 1 << r
            if count == 1:
                singles_so_far = singles_so_far | ways[0]
            else:
                several |= 1 << r
        prefix[r] = singles_so_far
    ups = 0
    run = 0
    for r in range(14, 0, -1):
        run = run + 1 if held >> r & 1 else 0
        ups |= run << 4 * r
    need = exact_len or min_len
    deepest = (exact_len or 15) - 1
    # The fields every play of this call shares, boxed once (see `Mask`).
    kind_field: Any = kind
    down_len = 0  # how many ranks from k - 1 downwards can all take part
    for k in range(2, 15):
        down_len = down_len + 1 if held >> (k - 1) & 1 else 0
        up_len = ups >> 4 * (k + 1) & 15
        if down_len + up_len + 1 < need or k + up_len <= min_top:
            continue
        # The real cards beside the Phoenix at k: none in a straight (the table's [0]),
        # one card of rank k in steps.
        beside: list[Mask] = stand_ins[k][b[k]]
        if not beside:
            continue
        depth = down_len if down_len <= deepest else deepest
        if up_len > deepest:
            up_len = deepest
        k_field: Any = k
        below_ranks = (1 << k) - (1 << (k - depth))  # bits k-depth .. k-1
        above_ranks = (1 << (k + up_len + 1)) - (1 << (k + 1))  # bits k+1 .. k+up_len
        below_single = not several & below_ranks
        above_single = not several & above_ranks
        swaps: list[Mask] = []
        middle: list[Mask] = []
        below: list[list[Mask]] = []
        above: list[list[Mask]] = []
        single_way = below_single and above_single
        if single_way:
            # A play's cards are prefix[top] ^ prefix[k - 1 - d] with rank k's own
            # cards (its single way, if it has one) traded for the Phoenix and the
            # cards beside it: the trade is one XOR too (``swap``), as rank k's own
            # cards are all in prefix[top] and the cards beside are some of them.
            trade: Mask = prefix[k] ^ prefix[k - 1] ^ phoenix
            swaps = [trade] if width == 1 else [trade ^ m for m in beside]
        else:
            if width != 1:
                middle = [m | phoenix for m in beside]
            # A side of single ways has one way per length, a difference of prefixes.
            if below_single:
                low: Mask = prefix[k - 1]
                below = [[low ^ prefix[k - 1 - d]] for d in range(depth + 1)]
            else:
                below = _products(choices, k - 1, depth, -1)
            # A straight's one Phoenix card joins the cards above k as they are made.
            base: Mask = phoenix if width == 1 else 0
            if above_single:
                high: Mask = prefix[k] ^ base
                above = [[prefix[k + u] ^ high] for u in range(up_len + 1)]
            else:
                above = _products(choices, k + 1, up_len, 1, base)
        for u in range(up_len + 1):
            top = k + u
            if top <= min_top:
                continue
            if exact_len:
                first = last = exact_len - u - 1
                if first < 0 or first > depth:
                    continue
            else:
                first = min_len - u - 1 if min_len > u + 1 else 0
                last = depth
                if first > last:
                    continue
            span = u + 1
            top_field: Any = top
            if single_way:
                for swap in swaps:
                    head: Mask = prefix[top] ^ swap
                    for d in range(first, last + 1):
                        out.append(
                            (
                                kind_field,
                                (d + span) * width,
                                top_field,
                                head ^ prefix[k - 1 - d],
                                k_field,
                            )
                        )
            else:
                # The Phoenix's cards with each way above k, in the order of the plays.
                ends: list[Mask] = above[u]
                if width != 1:
                    ends = [rm | mm for rm in ends for mm in middle]
                for d in range(first, last + 1):
                    length = (d + span) * width
                    if not d:  # nothing below k: each end is a play's cards
                        for end in ends:
                            out.append((kind_field, length, top_field, end, k_field))
                        continue
                    for lm in below[d]:
                        for end in ends:
                            out.append((kind_field, length, top_field, lm | end, k_field))


def _runs(
    out: list[PlayTuple],
    b: bytes,
    phoenix: int,
    kind: int,
    width: int,
    min_len: int,
    exact_len: int,
    min_top: float,
) -> None:
    """Straights (width 1) or steps (width 2); ``exact_len`` counts ranks, 0 = any length."""
    choices = _choices(b, width)
    _plain_runs(out, choices, b, kind, width, min_len, exact_len, min_top)
    if phoenix:
        _phoenix_runs(out, choices, b, phoenix, kind, width, min_len, exact_len, min_top)


def _four_bombs(b: bytes, rules: MoveRules) -> list[PlayTuple]:
    """S-BOMB-1, GS-4: four of a kind (of four different suits by default)."""
    # _FOUR_DISTINCT holds no reading for a rank byte without all four suits.
    table = _FOUR_DISTINCT if rules.four_distinct_suits else _SUBS[4]
    out: list[PlayTuple] = []
    for r in range(2, 15):
        byte = b[r]
        if _POPCOUNT[byte] >= 4:
            out += [(FOUR_BOMB, 4, r, m, 0) for m in table[r][byte]]
    return out


def _straight_flushes(b: bytes, lanes: int) -> list[PlayTuple]:
    """S-BOMB-1: at least five consecutive ranks of one suit (no specials).

    ``lanes`` (as `_bombs` gathers them) holds a 15-bit lane per suit (bit r of lane s:
    a card of rank r and suit s is held, either copy), small enough for a native int;
    bit p of ``starts`` is set where the lane's next four ranks are held too. (A
    window cannot reach into the next lane: its ranks 0 and 1 are never set.)
    """
    starts = lanes & lanes >> 1 & lanes >> 2 & lanes >> 3 & lanes >> 4
    if not starts:
        return []
    out: list[PlayTuple] = []
    kind_field: Any = STRAIGHT_FLUSH
    # A start inside a longer run is also the start of its shorter windows, so every
    # window is listed once: from each start, every length the run allows.
    while starts:
        low = starts & -starts
        starts ^= low
        position = low.bit_length() - 1
        suit, first_rank = divmod(position, 15)
        mask: Mask = 0
        length = 0
        rank = first_rank
        while rank <= 14 and lanes >> (15 * suit + rank) & 1:
            # The first-deck card where held, else its second-deck twin.
            copy = suit if b[rank] >> suit & 1 else suit + SECOND_COPY
            mask = mask | _CARD_MASKS[rank][copy]
            length += 1
            if length >= 5:
                out.append((kind_field, length, rank, mask, 0))
            rank += 1
    return out


# Hand mask -> (its rank bytes, every bomb in it), one table per four-of-a-kind rule:
# a seat is asked for its plays with the same hand again and again (at every play of a
# trick, and for bombs out of turn), and these depend on the hand alone. Never changed
# by a caller; emptied when full.
_PER_HAND: Final[dict[bool, dict[int, tuple[bytes, list[PlayTuple]]]]] = {
    True: {},
    False: {},
}
_PER_HAND_LIMIT: Final = 1 << 14


def forget_hands() -> None:
    """Empty the per-hand cache (``_PER_HAND``): for timing cold calls."""
    for table in _PER_HAND.values():
        table.clear()


_DISTINCT_HANDS: Final = _PER_HAND[True]
_ANY_SUIT_HANDS: Final = _PER_HAND[False]


def _hand_parts(hand: int, rules: MoveRules) -> tuple[bytes, list[PlayTuple]]:
    """The rank bytes of ``hand`` and all its bombs (cached, see ``_PER_HAND``)."""
    table = _DISTINCT_HANDS if rules[0] else _ANY_SUIT_HANDS  # four_distinct_suits
    parts = table.get(hand)
    if parts is None:
        if len(table) >= _PER_HAND_LIMIT:
            table.clear()
        b = rank_bytes(hand)
        parts = table[hand] = (b, _bombs(b, rules))
    return parts


def _bombs(b: bytes, rules: MoveRules) -> list[PlayTuple]:
    """Every bomb of the rank bytes ``b``: one pass over the ranks says whether any rank
    is held four times and whether any suit runs five ranks (most hands: neither)."""
    lanes = 0  # a 15-bit lane per suit: see `_straight_flushes`
    fours = False
    popcount = _POPCOUNT
    suit_lanes = _SUIT_LANES
    for r in range(2, 15):
        byte = b[r]
        if byte:
            lanes |= suit_lanes[byte] << r
            if popcount[byte] >= 4:
                fours = True
    found = _four_bombs(b, rules) if fours else []
    if lanes & lanes >> 1 & lanes >> 2 & lanes >> 3 & lanes >> 4:
        found += _straight_flushes(b, lanes)
    return found


def bomb_plays(
    hand: int, top: PlayTuple | None = None, rules: MoveRules = DEFAULT_MOVE_RULES
) -> list[PlayTuple]:
    """Every bomb in ``hand`` that beats ``top`` (all bombs when ``top`` is None)."""
    if top is not None and top[0] == DOG:
        return []  # S-BOMB-4, S-DOG-1: nothing follows the Dog
    bombs = _hand_parts(hand, rules)[1]
    if top is not None and top[0] >= FIRST_BOMB_KIND:
        key = top[:3]  # (kind, length, rank): S-BOMB-2's order
        return [c for c in bombs if c[:3] > key]
    return bombs[:]


def lead_plays(hand: int, rules: MoveRules = DEFAULT_MOVE_RULES) -> list[PlayTuple]:
    """Every distinct combination ``hand`` may lead (bombs and the Dog included)."""
    b, bombs = _hand_parts(hand, rules)
    phoenix = hand & PHOENIX_BITS
    phoenix &= -phoenix
    dragons = hand & DRAGON_BITS
    out: list[PlayTuple] = []
    _singles(out, b, phoenix, dragons, None, rules)
    _sets(out, b, phoenix, 2, PAIR, 0)
    _sets(out, b, phoenix, 3, TRIPLE, 0)
    _full_houses(out, b, phoenix, 0)
    _runs(out, b, phoenix, STRAIGHT, 1, 5, 0, 0)
    _runs(out, b, phoenix, STEPS, 2, 2, 0, 0)
    out += bombs
    if hand & DOG_BITS:
        dog = hand & DOG_BITS
        out.append((DOG, 1, 0, dog & -dog, 0))
    return out


def follow_plays(
    hand: int, top: PlayTuple, rules: MoveRules = DEFAULT_MOVE_RULES
) -> list[PlayTuple]:
    """Every distinct combination of ``hand`` that beats ``top`` (S-COMB-3, S-BOMB-2)."""
    # The top as the object it is (a PlayTuple parameter is taken apart and made again
    # by the compiled build whenever it is passed on).
    played: Any = top
    b, bombs = _hand_parts(hand, rules)
    phoenix = hand & PHOENIX_BITS
    phoenix &= -phoenix
    kind: int = played[0]  # compared with the kinds' plain ints (combinations.SINGLE_ID...)
    out: list[PlayTuple] = []
    if kind == SINGLE_ID:
        _singles(out, b, phoenix, hand & DRAGON_BITS, played, rules)
    elif kind in (PAIR_ID, TRIPLE_ID):
        _sets(out, b, phoenix, played[1], played[0], played[2])
    elif kind == FULL_HOUSE_ID:
        _full_houses(out, b, phoenix, played[2])
    elif kind == STRAIGHT_ID:
        _runs(out, b, phoenix, STRAIGHT, 1, 5, played[1], played[2])
    elif kind == STEPS_ID:
        _runs(out, b, phoenix, STEPS, 2, 2, played[1] // 2, played[2])
    else:  # a bomb (or the Dog, which nothing follows)
        return bomb_plays(hand, played, rules) if kind != DOG_ID else []
    out += bombs
    return out


def plays(
    hand: int, top: PlayTuple | None, rules: MoveRules = DEFAULT_MOVE_RULES
) -> list[PlayTuple]:
    """Every distinct combination of ``hand`` playable on ``top`` (None: a lead)."""
    return lead_plays(hand, rules) if top is None else follow_plays(hand, top, rules)


def fulfils_wish(play: PlayTuple, wish: int, rules: MoveRules = DEFAULT_MOVE_RULES) -> bool:
    """S-WISH-3/5: a real card of the wished rank (or, by option, the Phoenix standing for it)."""
    if play[3] & RANK_BITS[wish]:
        return True
    return rules.phoenix_fulfils and play[4] == wish


def apply_wish(
    hand: int,
    candidates: list[PlayTuple],
    wish: int | None,
    rules: MoveRules = DEFAULT_MOVE_RULES,
) -> tuple[list[PlayTuple], bool]:
    """S-WISH-2/5/6: restrict ``candidates`` (a seat's plays on its ordinary turn) by the wish.

    Returns the allowed plays and whether the seat is obliged to play (it may
    not pass). A seat without a real card of the wished rank plays freely.
    """
    if not wish or not hand & RANK_BITS[wish]:
        return candidates, False
    fulfilling = [c for c in candidates if fulfils_wish(c, wish, rules)]
    if rules.bomb_must_fulfil:
        obliged = bool(fulfilling)
    else:
        obliged = any(c[0] < FIRST_BOMB_KIND for c in fulfilling)
    if not obliged:
        return candidates, False
    if rules.bomb_instead:
        fulfilling += [
            c for c in candidates if c[0] >= FIRST_BOMB_KIND and not fulfils_wish(c, wish, rules)
        ]
    return fulfilling, True


def legal_plays(
    hand: int,
    top: PlayTuple | None,
    wish: int | None = None,
    rules: MoveRules = DEFAULT_MOVE_RULES,
) -> tuple[list[Combination], bool]:
    """The plays a seat may make on its ordinary turn, and whether it must play.

    ``top`` is the trick's top combination (None: the seat leads); ``wish`` the
    open wish rank (2..14) or None.
    """
    allowed, obliged = apply_wish(hand, plays(hand, top, rules), wish, rules)
    return [as_combination(play) for play in allowed], obliged
