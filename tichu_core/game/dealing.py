"""Dealing: the engine's own seeded shuffle, and stacked deals checked against the deck."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tichu_core.cardplay.cards import CARDS, SECOND_COPY, card_of_code, format_mask
from tichu_core.errors import CardError, DealError


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Fisher-Yates with rejection sampling on ``getrandbits``, in place.

    Written out rather than ``rng.shuffle`` so that a seed deals the same cards on
    every machine and Python version: only the Mersenne Twister's raw bits, which
    Python keeps stable, decide the order.
    """
    for top in range(len(cards) - 1, 0, -1):
        bound = top + 1
        bits = bound.bit_length()
        pick = rng.getrandbits(bits)
        while pick >= bound:
            pick = rng.getrandbits(bits)
        cards[top], cards[pick] = cards[pick], cards[top]


def stacked_deal(
    deal: Sequence[Sequence[str | int]], number: int, seats: int, deck: int
) -> list[list[int]]:
    """The cards of a stacked deal, copies assigned in order; DealError if it is not
    exactly the deck dealt to ``seats`` seats."""
    if isinstance(deal, str | bytes) or not isinstance(deal, Sequence):
        raise DealError(f"stacked deal {number}: a list of hands, one per seat, got {deal!r}")
    if len(deal) != seats:
        raise DealError(f"stacked deal {number}: {len(deal)} hands for {seats} seats")
    left = deck
    hands: list[list[int]] = []
    for seat, cards in enumerate(deal):
        if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
            raise DealError(f"stacked deal {number}, seat {seat}: a list of cards, got {cards!r}")
        hand: list[int] = []
        for card in cards:
            try:
                if isinstance(card, bool) or not isinstance(card, str | int):
                    raise CardError(f"a card is a code or a card number, got {card!r}")
                if isinstance(card, int) and not 0 <= card < len(CARDS):
                    raise CardError(f"card number {card} is out of range 0..{len(CARDS) - 1}")
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
