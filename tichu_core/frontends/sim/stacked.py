"""Stacked deals: the same cards, hand by hand, in matches that play differently.

``tichu duel`` (two bots, sides swapped) and ``tichu compare`` (two variants) both
play one deal more than once. The same seed is not enough: after the first hand,
who deals depends on play (the first out deals, S-DEAL-3; Tientsin deals one card
at a time from the dealer, T6-2), so two matches of one seed deal different cards
from hand 2 on. So the matches of one index take their deals from a stack
(``Game(variant, deals=...)``): the deal of hand ``h`` is the deck shuffled by a
generator of the index's seed and ``h`` alone, split into the hand sizes of the
variant's first deal. The stack replaces the variant's own shuffle and deal: where
the hand sizes depend on the dealer (Tientsin: the two seats after the dealer get
10 cards), they stay those of the first hand's dealer.

A match longer than its stack is played again, every match of the index, with a
longer one (the deal of a hand does not depend on the stack's length), so a
record never depends on the first guess.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tichu_core import Game, HandStarted, Variant
from tichu_core.frontends.sim.matches import Deals, Record

# Deals stacked at first where the match has no fixed number of hands (longer matches
# are played again with more): bot matches to 1000 rarely last 25 hands.
STACK = 32


@dataclass(frozen=True)
class Dealing:
    """How a variant deals: its deck (card codes) and the hand size of each seat in
    its first deal. Two variants with equal dealings can play the same stacked deals."""

    deck: tuple[str, ...]
    sizes: tuple[int, ...]

    def deals(self, seed: int, hands: int) -> Deals:
        return stacked_deals(self.deck, self.sizes, seed, hands)


def dealing_of(variant: Variant) -> Dealing:
    """The deck and first-deal hand sizes of ``variant`` (read from a game of it)."""
    game = Game(variant, seed=0)
    started = next(event for event in game.event_log if isinstance(event, HandStarted))
    return Dealing(tuple(variant.deck_codes), tuple(started.hand_sizes))


def first_stack(variant: Variant) -> int:
    """Deals to stack at first: the match's fixed number of hands, else :data:`STACK`."""
    rules = variant.game
    return rules.hands if rules.hands and not rules.target else STACK


def stacked_deals(deck: Sequence[str], sizes: Sequence[int], seed: int, hands: int) -> Deals:
    """The deals of hands ``0..hands-1`` of the index of ``seed``: hand ``h`` is the deck
    shuffled by a generator of the seed and ``h`` alone, split into ``sizes``. (A string
    seed and ``shuffle`` give the same order on every CPython 3 and machine.)"""
    deals: Deals = []
    for hand in range(hands):
        cards = list(deck)
        random.Random(f"tichu-duel-deal:{seed}:{hand}").shuffle(cards)
        deal, start = [], 0
        for size in sizes:
            deal.append(cards[start : start + size])
            start += size
        deals.append(deal)
    return deals


# One match of an index on the given stacked deals (None: the variant's own dealing).
Player = Callable[[Deals | None], Record]


def play_on_stack(
    players: Sequence[Player], dealings: Sequence[Dealing | None], seed: int, stack: int
) -> list[Record]:
    """Play every match of one index, match ``k`` by ``players[k]`` on the stack of
    ``dealings[k]`` (None: not stacked), all stacks drawn from ``seed``. Matches with
    equal dealings get the same deals hand by hand. Played again, all of them, with a
    longer stack while one outlasts it."""
    while True:
        stacks = {dealing: dealing.deals(seed, stack) for dealing in set(dealings) if dealing}
        records = [
            player(stacks[dealing] if dealing else None)
            for player, dealing in zip(players, dealings, strict=True)
        ]
        longest = max(
            (record["hands"] for record, dealing in zip(records, dealings, strict=True) if dealing),
            default=0,
        )
        if longest <= stack:
            return records
        stack = max(2 * stack, longest)  # every hand played must be a stacked one
