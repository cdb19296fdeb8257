"""A slow, independent reference for legal plays (test-only).

Written from docs/rules.md, not from ``tichu_core.combinations`` or ``tichu_core.moves``:
it tries every sub-multiset of a hand's card codes (so the two copies of a card
in a two-deck game collapse into one choice), classifies each one with a
straightforward reading of S-COMB-*, S-BOMB-* and GS-4, keeps the readings that
beat the top, and applies the wish (S-WISH-*). Only ``tichu_core.cards`` is used,
for parsing codes; the engine's types appear only in the bridges at the end,
which tests use to compare the two.

A play here is an :class:`OPlay`: the sorted tuple of its card codes, the kind
name (``Kind`` member names in lower case), the number of cards, the rank it
compares by and the rank the Phoenix stands for (0: no Phoenix, or the Phoenix
alone).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from tichu_core.cardplay.cards import card_of_code, codes_of, deck_mask, take_cards
from tichu_core.cardplay.combinations import Combination, Kind, PlayTuple
from tichu_core.cardplay.moves import MoveRules

SINGLE = "single"
PAIR = "pair"
TRIPLE = "triple"
STEPS = "steps"
FULL_HOUSE = "full_house"
STRAIGHT = "straight"
DOG = "dog"
FOUR_BOMB = "four_bomb"
STRAIGHT_FLUSH = "straight_flush"
BOMBS = (FOUR_BOMB, STRAIGHT_FLUSH)

SPECIALS = ("DOG", "MJ", "PH", "DR")
RANK_OF_NAME = {str(r): r for r in range(2, 11)} | {"J": 11, "Q": 12, "K": 13, "A": 14}
NAME_OF_RANK = {r: n for n, r in RANK_OF_NAME.items()}


@dataclass(frozen=True)
class Options:
    """The rule options of the oracle (same meaning as ``moves.MoveRules``)."""

    four_distinct_suits: bool = True
    second_dragon_beats_first: bool = False
    bomb_must_fulfil: bool = True
    phoenix_fulfils: bool = False
    bomb_instead: bool = False


class OPlay(NamedTuple):
    codes: tuple[str, ...]
    kind: str
    length: int
    rank: float
    phoenix: int = 0

    @property
    def is_bomb(self) -> bool:
        return self.kind in BOMBS


class OReading(NamedTuple):
    """A reading of a card set, before it meets a top (a Phoenix single has rank None)."""

    kind: str
    length: int
    rank: float | None
    phoenix: int


def canonical(code: str) -> str:
    """The canonical code of one card token (case, ``T`` for 10)."""
    return str(card_of_code(code))


def split(text: str | Iterable[str]) -> list[str]:
    tokens = text.split() if isinstance(text, str) else list(text)
    return [canonical(t) for t in tokens]


def _order(code: str) -> int:
    return int(card_of_code(code))


def sort_codes(codes: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(codes, key=_order))


def _rank_suit(code: str) -> tuple[int, str]:
    return RANK_OF_NAME[code[:-1]], code[-1]


def _plain(cards: list[tuple[int, str | None]], mah_jong: bool, opts: Options) -> list[OReading]:
    """Readings of normal cards (rank, suit; suit None = the Phoenix) plus maybe the Mah Jong."""
    n = len(cards) + mah_jong
    ranks = sorted(r for r, _ in cards)
    if mah_jong:
        if n == 1:
            return [OReading(SINGLE, 1, 1, 0)]
        # Mah Jong: a single or the 1 of a straight (S-COMB-1), never a bomb.
        if n >= 5 and [1, *ranks] == list(range(1, n + 1)):
            return [OReading(STRAIGHT, n, n, 0)]
        return []
    if n == 1:
        return [OReading(SINGLE, 1, ranks[0], 0)]
    counts = Counter(ranks)
    suits = {s for _, s in cards}
    if len(counts) == 1:
        if n == 2:
            return [OReading(PAIR, 2, ranks[0], 0)]
        if n == 3:
            return [OReading(TRIPLE, 3, ranks[0], 0)]
        if n == 4:
            if None in suits:
                return []  # S-BOMB-1: never with the Phoenix
            if opts.four_distinct_suits and len(suits) != 4:
                return []  # GS-4
            return [OReading(FOUR_BOMB, 4, ranks[0], 0)]
        return []  # S-COMB-2: five or more of one rank
    if len(counts) == 2 and sorted(counts.values()) == [2, 3]:
        triple = next(r for r, c in counts.items() if c == 3)
        return [OReading(FULL_HOUSE, 5, triple, 0)]
    distinct = sorted(counts)
    consecutive = distinct == list(range(distinct[0], distinct[-1] + 1))
    if not consecutive:
        return []
    if n >= 5 and all(c == 1 for c in counts.values()):
        if len(suits) == 1 and None not in suits:
            return [OReading(STRAIGHT_FLUSH, n, distinct[-1], 0)]
        return [OReading(STRAIGHT, n, distinct[-1], 0)]
    if len(distinct) >= 2 and all(c == 2 for c in counts.values()):
        return [OReading(STEPS, n, distinct[-1], 0)]
    return []  # e.g. consecutive triples (S-COMB-2)


def classify(codes: Iterable[str], opts: Options = Options()) -> list[OReading]:
    """Every reading of a card multiset (canonical codes)."""
    codes = list(codes)
    if not codes:
        return []
    n = len(codes)
    if "DOG" in codes:
        return [OReading(DOG, 1, 0, 0)] if n == 1 else []
    if "DR" in codes:
        return [OReading(SINGLE, 1, 15, 0)] if n == 1 else []
    phoenixes = codes.count("PH")
    if phoenixes > 1:
        return []
    if phoenixes == 1 and n == 1:
        return [OReading(SINGLE, 1, None, 0)]
    mah_jong = codes.count("MJ")
    if mah_jong > 1:
        return []
    normal: list[tuple[int, str | None]] = [_rank_suit(c) for c in codes if c not in SPECIALS]
    if not phoenixes:
        return _plain(normal, bool(mah_jong), opts)
    # S-COMB-4: the Phoenix stands for any rank 2..A, never the 1. With other
    # cards it can only make a combination at one of their ranks or next to
    # them (a straight's gap or end), so farther ranks are not tried.
    near = [r for r, _ in normal] + ([1] if mah_jong else [])
    found = []
    for stand in range(max(2, min(near) - 1), min(14, max(near) + 1) + 1):
        for reading in _plain([*normal, (stand, None)], bool(mah_jong), opts):
            if reading.kind not in BOMBS:
                found.append(reading._replace(phoenix=stand))
    return found


def sub_multisets(codes: Iterable[str]) -> Iterator[tuple[str, ...]]:
    """Every non-empty sub-multiset of a multiset of codes."""
    counts = Counter(codes)
    subs: list[tuple[str, ...]] = [()]
    for code in sorted(counts, key=_order):
        subs = [sub + (code,) * k for sub in subs for k in range(counts[code] + 1)]
    yield from subs[1:]  # subs[0] is the empty set


def beats(play: OPlay, top: OPlay | None, opts: Options = Options()) -> bool:
    """S-COMB-3/5/6, S-BOMB-2/3/4, S-DOG-1, GS-4."""
    if top is None:
        return True
    if top.kind == DOG:
        return False  # nothing follows the Dog, no bomb either
    if play.is_bomb:
        if not top.is_bomb:
            return True
        if play.kind != top.kind:
            return play.kind == STRAIGHT_FLUSH
        if play.kind == STRAIGHT_FLUSH and play.length != top.length:
            return play.length > top.length
        return play.rank > top.rank
    if top.is_bomb or play.kind == DOG:
        return False
    if play.kind != top.kind or play.length != top.length:
        return False
    if play.kind == SINGLE:
        # S-COMB-6: the Dragon is the highest single; on a Dragon only a real
        # Dragon, with GS-4's option. (A Phoenix on a Phoenix on an Ace is worth
        # 15 by E-2, but it is no Dragon: the Dragon still beats it.)
        if top.codes == ("DR",):
            return opts.second_dragon_beats_first and play.codes == ("DR",)
        if play.codes == ("DR",):
            return True
    return play.rank > top.rank


def _with_top(codes: tuple[str, ...], reading: OReading, top: OPlay | None) -> OPlay | None:
    if reading.rank is not None:
        return OPlay(codes, reading.kind, reading.length, reading.rank, reading.phoenix)
    # The Phoenix single (S-COMB-5, E-2): half a rank above a single, 1.5 when led.
    if top is None:
        return OPlay(codes, SINGLE, 1, 1.5, 0)
    if top.kind != SINGLE:
        return None
    if top.codes == ("DR",):
        return None  # never on the Dragon (S-COMB-5)
    return OPlay(codes, SINGLE, 1, top.rank + 0.5, 0)


def plays(hand: Iterable[str], top: OPlay | None, opts: Options = Options()) -> list[OPlay]:
    """Every distinct play of ``hand`` (codes) on ``top`` (None: a lead)."""
    out = []
    for sub in sub_multisets(hand):
        for reading in classify(sub, opts):
            play = _with_top(sub, reading, top)
            if play is not None and beats(play, top, opts):
                out.append(play)
    return out


def has_real(play: OPlay, rank: int) -> bool:
    return any(c not in SPECIALS and RANK_OF_NAME[c[:-1]] == rank for c in play.codes)


def apply_wish(
    hand: Iterable[str], candidates: list[OPlay], wish: int | None, opts: Options = Options()
) -> tuple[list[OPlay], bool]:
    """S-WISH-2/3/5/6, read literally.

    A seat holding a real card of the wished rank, with a candidate containing a
    real card of it (a bomb counts only with ``bomb_must_fulfil``), must play a
    candidate that contains one (or, with ``phoenix_fulfils``, in which the
    Phoenix stands for the rank; or, with ``bomb_instead``, any bomb).
    """
    hand = list(hand)
    if wish is None or not any(c not in SPECIALS and RANK_OF_NAME[c[:-1]] == wish for c in hand):
        return candidates, False
    real = [p for p in candidates if has_real(p, wish)]
    if not any(opts.bomb_must_fulfil or not p.is_bomb for p in real):
        return candidates, False
    allowed = [
        p
        for p in candidates
        if has_real(p, wish)
        or (opts.phoenix_fulfils and p.phoenix == wish)
        or (opts.bomb_instead and p.is_bomb)
    ]
    return allowed, True


def legal_plays(
    hand: Iterable[str], top: OPlay | None, wish: int | None, opts: Options = Options()
) -> tuple[list[OPlay], bool]:
    hand = list(hand)
    return apply_wish(hand, plays(hand, top, opts), wish, opts)


def top_play(
    codes: str | Iterable[str],
    phoenix: int | None = None,
    rank: float | None = None,
    opts: Options = Options(),
) -> OPlay:
    """The top named by its codes (``phoenix``: which reading; ``rank``: a Phoenix single's)."""
    sub = sort_codes(split(codes))
    readings = classify(sub, opts)
    if phoenix is not None:
        readings = [r for r in readings if r.phoenix == phoenix]
    if len(readings) != 1:
        raise ValueError(f"top {codes!r} (phoenix={phoenix}) has readings {readings}")
    reading = readings[0]
    if reading.rank is None:
        if rank is None:
            raise ValueError("a Phoenix single top needs its rank")
        return OPlay(sub, SINGLE, 1, rank, 0)
    return OPlay(sub, reading.kind, reading.length, reading.rank, reading.phoenix)


def play_name(play: OPlay) -> str:
    """The golden-file name of a play: its codes, and ``(phoenix=R)`` when the Phoenix stands in."""
    text = " ".join(play.codes)
    return f"{text} (phoenix={NAME_OF_RANK[play.phoenix]})" if play.phoenix else text


def parse_play_name(name: str) -> tuple[tuple[str, ...], int]:
    """Inverse of :func:`play_name`: (sorted codes, phoenix rank or 0)."""
    phoenix = 0
    if "(" in name:
        name, _, rest = name.partition("(")
        key, _, value = rest.rstrip(") ").partition("=")
        if key.strip() != "phoenix":
            raise ValueError(f"bad play name {name!r}")
        value = value.strip().upper()
        phoenix = 10 if value == "T" else RANK_OF_NAME[value]
    return sort_codes(split(name)), phoenix


# --- bridges to the engine's types (for comparisons only; the oracle never uses them) ---


def engine_rules(opts: Options) -> MoveRules:
    return MoveRules(**{field: getattr(opts, field) for field in MoveRules._fields})


def from_engine(play: PlayTuple) -> OPlay:
    """An engine play (a Combination, or a listed play: a tuple of its fields) as an oracle
    play (codes, so two-deck copies compare equal)."""
    kind, length, rank, cards, phoenix = play
    codes = sort_codes(codes_of(cards))
    return OPlay(codes, Kind(kind).name.lower(), length, float(rank), phoenix)


def to_engine(play: OPlay) -> Combination:
    """An oracle play as an engine combination (copies taken from two full decks)."""
    mask = take_cards(list(play.codes), deck_mask(2))
    return Combination(Kind[play.kind.upper()], play.length, play.rank, mask, play.phoenix)
