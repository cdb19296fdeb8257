"""Cards as ints, hands as int bitmasks, and the text notation of docs/api.md.

Bit layout (one int bit per physical card, two decks at most):

- bits 0..3: Dog, Mah Jong, Phoenix, Dragon of the first deck; bits 4..7 the
  same of the second deck;
- a normal card of rank r (2..14), suit s (0 jade, 1 sword, 2 pagoda, 3 star)
  and copy c (0 or 1) is bit ``8 * (r - 1) + 4 * c + s``.

So the eight possible cards of one rank are one byte of the mask:
``(hand >> 8 * (rank - 1)) & 0xFF``. Move generation reads a hand as thirteen
such bytes (rank counts and suits at once) and never tries card subsets.
A card's int value is its bit index; ``Card`` is an ``int`` that prints as its
code. Both copies of a card share one code.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from mypy_extensions import mypyc_attr

from tichu_core.errors import CardError

SUITS: Final = "jspt"
SUIT_NAMES: Final = ("jade", "sword", "pagoda", "star")
RANK_NAMES: Final = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
RANK_OF_NAME: Final = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10}

# Bit indexes of the specials (first deck; add SECOND_COPY for the second).
DOG: Final = 0
MAH_JONG: Final = 1
PHOENIX: Final = 2
DRAGON: Final = 3
# Adding SECOND_COPY to a first-deck card's index gives its second-deck twin.
SECOND_COPY: Final = 4
SPECIAL_CODES: Final = {DOG: "DOG", MAH_JONG: "MJ", PHOENIX: "PH", DRAGON: "DR"}
SPECIAL_OF_CODE: Final = {code: bit for bit, code in SPECIAL_CODES.items()}

# Ranks the specials take as singles (Phoenix: 1.5 when led, see combinations).
MAH_JONG_RANK: Final = 1
DRAGON_RANK: Final = 15

# Masks of both copies of each special.
DOG_BITS: Final = 1 << DOG | 1 << (DOG + SECOND_COPY)
MAH_JONG_BITS: Final = 1 << MAH_JONG | 1 << (MAH_JONG + SECOND_COPY)
PHOENIX_BITS: Final = 1 << PHOENIX | 1 << (PHOENIX + SECOND_COPY)
DRAGON_BITS: Final = 1 << DRAGON | 1 << (DRAGON + SECOND_COPY)
SPECIAL_BITS: Final = 0xFF


def rank_shift(rank: int) -> int:
    """Bit offset of the byte holding the cards of ``rank`` (2..14)."""
    return 8 * (rank - 1)


# RANK_BITS[r]: every card of rank r (both copies); index 0 and 1 unused (0).
RANK_BITS: Final = [0, 0] + [0xFF << rank_shift(r) for r in range(2, 15)]
NORMAL_BITS: Final = sum(RANK_BITS[2:15])  # the rank bytes do not overlap
# SUIT_BITS[s]: every normal card of suit s (both copies).
SUIT_BITS: Final = [0, 0, 0, 0]
for _s in range(4):
    for _r in range(2, 15):
        SUIT_BITS[_s] |= 0x11 << (rank_shift(_r) + _s)

CARD_COUNT: Final = 8 * 14  # bit indexes 0..111
CARD_BYTES: Final = CARD_COUNT // 8  # a card mask fits in this many bytes
# Every first-deck card (the low nibble of each byte) and every second-deck card.
FIRST_COPY_BITS: Final = sum(0x0F << 8 * byte for byte in range(14))
SECOND_COPY_BITS: Final = FIRST_COPY_BITS << 4


def rank_of_name(name: str) -> int:
    """The rank a rank name stands for (``"2"`` … ``"10"`` or ``"T"``, ``"J"`` … ``"A"``,
    any case): 2 … 14 (``tc.rank_of_name``; a Phoenix's ``phoenix`` field is such a name).
    ``CardError`` for anything else."""
    rank = RANK_OF_NAME.get(name.upper())
    if rank is None:
        raise CardError(f"unknown rank name {name!r}: expected 2..10 (or T), J, Q, K or A", name)
    return rank


def by_codes(mask: int) -> int:
    """A mask with the same codes as ``mask``, first copies used first: equal for two
    masks exactly when they hold the same multiset of codes (both decks share codes)."""
    first = mask & FIRST_COPY_BITS
    second = (mask >> 4) & FIRST_COPY_BITS
    return (first | second) | ((first & second) << 4)


# An int subclass cannot be a compiled (native) class: it stays a Python class.
@mypyc_attr(native_class=False)
class Card(int):
    """One physical card: an int (its bit index) that prints as its code."""

    __slots__ = ()

    @property
    def bit(self) -> int:
        return 1 << self

    @property
    def rank(self) -> int:
        """2..14 for normal cards; 1 Mah Jong, 15 Dragon, 0 Dog and Phoenix."""
        return _RANK[self]

    @property
    def suit(self) -> int | None:
        """0..3 (jade, sword, pagoda, star) for normal cards, None for specials."""
        return None if self < 8 else self & 3

    @property
    def copy(self) -> int:
        """0 for the first deck, 1 for the second."""
        return (self >> 2) & 1

    @property
    def is_special(self) -> bool:
        return self < 8

    @property
    def points(self) -> int:
        return CARD_POINTS[self]

    @property
    def code(self) -> str:
        return _CODE[self]

    def __str__(self) -> str:
        return _CODE[self]

    def __repr__(self) -> str:
        return f"Card({_CODE[self]!r})" if self.copy == 0 else f"Card({_CODE[self]!r}, copy=1)"


def _code_of(index: int) -> str:
    if index < 8:
        return SPECIAL_CODES[index & 3]
    rank = (index >> 3) + 1
    return RANK_NAMES[rank] + SUITS[index & 3]


def _rank_of(index: int) -> int:
    if index < 8:
        return {DOG: 0, MAH_JONG: MAH_JONG_RANK, PHOENIX: 0, DRAGON: DRAGON_RANK}[index & 3]
    return (index >> 3) + 1


def _points_of(index: int) -> int:
    if index < 8:
        return {DRAGON: 25, PHOENIX: -25}.get(index & 3, 0)
    return {5: 5, 10: 10, 13: 10}.get((index >> 3) + 1, 0)


_CODE: Final = [_code_of(i) for i in range(CARD_COUNT)]
_RANK: Final = [_rank_of(i) for i in range(CARD_COUNT)]
CARD_POINTS: Final = [_points_of(i) for i in range(CARD_COUNT)]
CARDS: Final = [Card(i) for i in range(CARD_COUNT)]
# First-deck card for each canonical (upper-cased) code.
_CARD_OF_CODE: Final = {_CODE[i].upper(): CARDS[i] for i in range(CARD_COUNT) if (i >> 2) & 1 == 0}


def card_of_code(code: str) -> Card:
    """The first-deck card of a code (case-insensitive, ``T`` accepted for 10)."""
    token = code.strip().upper()
    card = _CARD_OF_CODE.get(token)
    if card is None and len(token) >= 2 and token[0] == "T":
        card = _CARD_OF_CODE.get("10" + token[1:])
    if card is None:
        raise CardError(
            f"unknown card {code!r}: expected rank 2..10/J/Q/K/A (or T) + suit j/s/p/t, "
            "or MJ, DOG, PH, DR",
            token=code,
        )
    return card


def parse_cards(text: str | Iterable[str | int]) -> list[Card]:
    """Parse space-separated card codes (or an iterable of codes or ints).

    Codes name cards, not copies: every card returned is the first-deck copy.
    Use :func:`take_cards` to pick the copies a hand actually holds.
    """
    tokens: Iterable[str | int] = text.replace(",", " ").split() if isinstance(text, str) else text
    cards: list[Card] = []
    for token in tokens:
        if isinstance(token, int):
            if not 0 <= token < CARD_COUNT:
                raise CardError(
                    f"card index {token} is out of range 0..{CARD_COUNT - 1}", str(token)
                )
            cards.append(CARDS[token])
        elif isinstance(token, str):
            cards.append(card_of_code(token))
        else:
            raise CardError(f"a card is a code string, got {token!r}", repr(token))
    return cards


def format_cards(cards: Iterable[int]) -> str:
    """Codes separated by spaces, in the given order."""
    return " ".join(_CODE[c] for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    """The mask of card numbers. Gathered in two halves that fit a machine word (compiled,
    no wide int is made per card), joined once."""
    low = high = 0
    for card in cards:
        if card < _HALF:
            low |= 1 << card
        else:
            high |= 1 << (card - _HALF)
    return low | high << _HALF


_HALF: Final = 62  # compiled, ints below 2**62 are machine words
_LOW_WORD: Final = (1 << _HALF) - 1


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest bit first (specials, then rising rank)."""
    return [CARDS[index] for index in indexes_of(mask)]


# Per byte value: the positions of its set bits, lowest first.
_BYTE_BITS: Final = [[bit for bit in range(8) if value >> bit & 1] for value in range(256)]


def indexes_of(mask: int) -> list[int]:
    """The bit indexes of a card mask, lowest first. The mask is cut once into the two
    halves of ``mask_of``, each a machine word when compiled, and each taken apart a
    bit at a time without making a wide int (a tenth of reading it a byte at a time)."""
    if mask < 0 or mask >> CARD_COUNT:
        raise OverflowError(f"not a card mask (bits 0..{CARD_COUNT - 1}): {mask}")
    indexes: list[int] = []
    word = mask & _LOW_WORD
    while word:
        bit = word & -word
        indexes.append(bit.bit_length() - 1)
        word ^= bit
    word = mask >> _HALF
    while word:
        bit = word & -word
        indexes.append(bit.bit_length() - 1 + _HALF)
        word ^= bit
    return indexes


def iter_cards(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


# The cards that count (S-SCORE-1): fives, tens and kings, the Dragon, the Phoenix.
assert set(CARD_POINTS) == {0, 5, 10, 25, -25}
assert [i for i in range(CARD_COUNT) if CARD_POINTS[i] == 5] == [8 * 4 + s for s in range(8)]
assert {i for i in range(CARD_COUNT) if CARD_POINTS[i] == 10} == {
    8 * byte + s for byte in (9, 12) for s in range(8)
}
_POPCOUNT: Final = [value.bit_count() for value in range(256)]


def mask_points(mask: int) -> int:
    """The card points of a mask: counted from its bytes (byte r - 1 holds rank r, byte 0
    the specials), not card by card."""
    b = mask.to_bytes(CARD_BYTES, "little")
    count = _POPCOUNT
    specials = b[0]
    return (
        5 * count[b[4]]
        + 10 * (count[b[9]] + count[b[12]])
        + 25 * (count[specials & DRAGON_BITS] - count[specials & PHOENIX_BITS])
    )


def format_mask(mask: int) -> str:
    """Codes of a mask from the highest card down (the usual way to show a hand)."""
    return " ".join([_CODE[c] for c in reversed(indexes_of(mask))])


def play_codes(mask: int) -> str:
    """The canonical text of a set of cards: codes from the highest card down.

    Copies are ordered as their first-deck twin, so the text depends only on the
    codes (it is what ``Play`` normalises its cards to).
    """
    if not mask & SECOND_COPY_BITS:  # one copy of each: no twins to order
        return " ".join(codes_high_first(mask))
    return " ".join(
        [_CODE[c] for c in sorted([c & ~SECOND_COPY for c in indexes_of(mask)], reverse=True)]
    )


def codes_of(mask: int) -> list[str]:
    return [_CODE[c] for c in indexes_of(mask)]


def card_codes(cards: list[int]) -> list[str]:
    """The codes of card numbers, in the order given (a deal's order)."""
    return [_CODE[c] for c in cards]


# [byte position][byte value]: the codes of those cards, the highest first. A second
# copy (bits 4..7 of a byte) is ordered as its first-deck twin (by suit), as in
# `play_codes`: the order then tells nothing of which copy a seat holds, which no
# player can see.
_CODES_DOWN: Final = [
    [
        [
            _CODE[8 * position + bit]
            for bit in sorted(_BYTE_BITS[value], key=lambda bit: (bit & 3, bit), reverse=True)
        ]
        for value in range(256)
    ]
    for position in range(CARD_BYTES)
]


def codes_high_first(mask: int) -> list[str]:
    """The codes of a mask from the highest card down (events and views show cards so)."""
    # The same few masks come back again and again (the singles and pairs played in
    # every hand): their codes are read once, kept (bounded), and copied out.
    known = _HIGH_FIRST.get(mask)
    if known is not None:
        return list(known)
    codes: list[str] = []
    top = CARD_BYTES - 1
    for offset, value in enumerate(mask.to_bytes(CARD_BYTES, "big")):
        if value:
            codes += _CODES_DOWN[top - offset][value]
    if len(_HIGH_FIRST) >= _HIGH_FIRST_LIMIT:
        _HIGH_FIRST.clear()
    _HIGH_FIRST[mask] = tuple(codes)
    return codes


_HIGH_FIRST: Final[dict[int, tuple[str, ...]]] = {}
_HIGH_FIRST_LIMIT: Final = 1 << 15


def take_cards(codes: Iterable[str | int], hand: int) -> int:
    """The mask of ``codes`` taken from ``hand``: each code takes a copy the hand holds.

    Raises CardError for an unknown code and ValueError-family CardError for a
    card the hand does not hold (naming it).
    """
    taken = 0
    for card in parse_cards(codes):
        bit = 1 << card
        if hand & bit and not taken & bit:
            taken |= bit
            continue
        other = card + SECOND_COPY
        other_bit = 1 << other
        if hand & other_bit and not taken & other_bit:
            taken |= other_bit
            continue
        raise CardError(f"card {card} is not in the hand", token=str(card))
    return taken


def deck_mask(copies: int = 1, without: Iterable[str] = ()) -> int:
    """The deck as a mask: ``copies`` full decks less the ``without`` codes.

    A code listed twice removes both copies (second copy first).
    """
    if copies not in (1, 2):
        raise ValueError(f"a deck has 1 or 2 copies, got {copies}")
    mask = 0
    for index in range(CARD_COUNT):
        if (index >> 2) & 1 < copies:
            mask |= 1 << index
    for card in parse_cards(list(without)):
        second = 1 << (card + SECOND_COPY)
        if mask & second:
            mask &= ~second
        elif mask & (1 << card):
            mask &= ~(1 << card)
        else:
            raise CardError(f"cannot remove {card}: not (or no longer) in the deck", str(card))
    return mask
