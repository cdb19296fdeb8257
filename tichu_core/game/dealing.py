"""Dealing: seeds, the engine's own seeded shuffle, and stacked deals checked against the deck."""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, SupportsIndex

from tichu_core.cardplay.cards import CARDS, SECOND_COPY, card_of_code, format_mask
from tichu_core.errors import CardError, DealError, InvalidAction
from tichu_core.game.actions import show_input

# A seed is a signed 64-bit int: what every save (JSON, read by any language) holds
# exactly, and what seeds from NumPy and most RNG APIs are.
SEED_MIN: Final = -(2**63)
SEED_MAX: Final = 2**63 - 1


def checked_seed(seed: object) -> int:
    """``seed`` as a plain int; InvalidAction unless it is an integer (an int, or a
    NumPy-style integer with ``__index__``; never a bool) in SEED_MIN..SEED_MAX."""
    value = None
    if isinstance(seed, SupportsIndex) and not isinstance(seed, bool):
        value = operator.index(seed)
    if value is None or not SEED_MIN <= value <= SEED_MAX:
        raise InvalidAction(
            f"a seed is an int from -2**63 to 2**63-1 (or None), got {show_input(seed)}"
        )
    return value


def seeded_rng(seed: int) -> random.Random:
    """The shuffling generator of a seed.

    ``random.Random`` seeds from ``abs(seed)``, which would deal -7 like 7; the
    seed's 64-bit two's-complement pattern tells every seed apart and leaves the
    non-negative seeds (and so every deal made before) as they were.
    """
    return random.Random(seed % 2**64)


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Fisher-Yates with rejection sampling on ``getrandbits``, in place.

    Written out rather than ``rng.shuffle`` so that a seed deals the same cards on
    every machine and Python version: only the Mersenne Twister's raw bits, which
    Python keeps stable, decide the order.
    """
    draw = rng.getrandbits  # looked up once, not at every draw
    for top in range(len(cards) - 1, 0, -1):
        bound = top + 1
        bits = bound.bit_length()
        pick = draw(bits)
        while pick >= bound:
            pick = draw(bits)
        cards[top], cards[pick] = cards[pick], cards[top]


def stacked_deals(deals: object, seats: int, deck: int) -> list[list[list[int]]]:
    """The cards of every stacked deal given to ``Game`` (None: none); DealError if
    ``deals`` is no iterable of deals or a deal is not exactly the deck."""
    if deals is None:
        return []
    if isinstance(deals, str | bytes | bytearray | Mapping) or not isinstance(deals, Iterable):
        raise DealError(f"deals: a list of stacked deals, one per hand, got {show_input(deals)}")
    return [stacked_deal(deal, number, seats, deck) for number, deal in enumerate(deals)]


def stacked_deal(deal: object, number: int, seats: int, deck: int) -> list[list[int]]:
    """The cards of a stacked deal, copies assigned in order; DealError if it is not
    exactly the deck dealt to ``seats`` seats. (A user's input: declared ``object``,
    every part checked here, so that a compiled build refuses it the same way.)"""
    if isinstance(deal, str | bytes) or not isinstance(deal, Sequence):
        raise DealError(
            f"stacked deal {number}: a list of hands, one per seat, got {show_input(deal)}"
        )
    if len(deal) != seats:
        raise DealError(f"stacked deal {number}: {len(deal)} hands for {seats} seats")
    left = deck
    hands: list[list[int]] = []
    for seat, cards in enumerate(deal):
        if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
            raise DealError(
                f"stacked deal {number}, seat {seat}: a list of cards, got {show_input(cards)}"
            )
        hand: list[int] = []
        for card in cards:
            try:
                if isinstance(card, bool) or not isinstance(card, str | int):
                    raise CardError(f"a card is a code or a card number, got {show_input(card)}")
                if isinstance(card, int) and not 0 <= card < len(CARDS):
                    raise CardError(
                        f"card number {show_input(card)} is out of range 0..{len(CARDS) - 1}"
                    )
                first = card_of_code(card) if isinstance(card, str) else CARDS[card]
            except (CardError, IndexError) as error:
                raise DealError(f"stacked deal {number}, seat {seat}: {error}") from error
            base = first - SECOND_COPY if (first >> 2) & 1 else int(first)
            for candidate in (base, base + SECOND_COPY):
                if left >> candidate & 1:
                    left &= ~(1 << candidate)
                    hand.append(candidate)
                    break
            else:
                raise DealError(
                    f"stacked deal {number}, seat {seat}: {CARDS[base]} is not (or no "
                    "longer) in the deck"
                )
        hands.append(hand)
    if left:
        raise DealError(f"stacked deal {number}: cards not dealt: {format_mask(left)}")
    return hands
