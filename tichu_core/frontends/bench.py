"""``tichu bench``: the performance figures of docs/performance.md.

Method: one process, one core, the same seeded inputs every run. Move
generation is timed per call with ``time.perf_counter_ns`` on hands seen for
the first time (nothing is cached between calls: the generator has no cache),
and the median is reported with the mean number of plays produced. Game speed
is whole random-bot hands played through the public API (``legal_actions``
then ``apply``), bots choosing uniformly among legal actions and declining
calls, a push drawn by index from the lazy sequence of pushes.
"""

from __future__ import annotations

import gc
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tichu_core.cardplay.cards import PHOENIX, deck_mask, iter_cards, mask_of, parse_cards
from tichu_core.cardplay.combinations import recognize
from tichu_core.cardplay.moves import lead_plays, plays


@dataclass
class Figure:
    name: str
    median_us: float
    plays: float
    samples: int
    reference_us: float | None = None

    def line(self) -> str:
        ref = ""
        if self.reference_us:
            speedup = self.reference_us / self.median_us
            ref = f"  (reference {self.reference_us:,.0f} µs: {speedup:4.1f}x)"
        return (
            f"{self.name:<44} {self.median_us:8.1f} µs  {self.plays:7.1f} plays  "
            f"n={self.samples}{ref}"
        )


def _one_deck() -> list[int]:
    return list(iter_cards(deck_mask(1)))


def _time_each(
    inputs: list[int], generate: Callable[[int], Sequence[object]]
) -> tuple[float, float]:
    """Median µs per call and mean result size, each input timed once (cold)."""
    times: list[int] = []
    sizes: list[int] = []
    clock = time.perf_counter_ns
    gc.disable()
    try:
        for hand in inputs:
            start = clock()
            result = generate(hand)
            times.append(clock() - start)
            sizes.append(len(result))
    finally:
        gc.enable()
    return statistics.median(times) / 1000, statistics.fmean(sizes)


def move_generation_figures(samples: int = 2000, seed: int = 2024) -> list[Figure]:
    rng = random.Random(seed)
    deck = _one_deck()
    phoenix = next(c for c in deck if c == PHOENIX)
    random_hands = [mask_of(rng.sample(deck, 14)) for _ in range(samples)]
    without_phoenix = [c for c in deck if c != phoenix]
    phoenix_hands = [mask_of([phoenix, *rng.sample(without_phoenix, 13)]) for _ in range(samples)]
    worst = mask_of(parse_cards("2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj PH"))
    pair_of_fives = recognize(mask_of(parse_cards("5j 5s")))[0]
    rest = [c for c in deck if c not in parse_cards("5j 5s")]
    follow_hands = [mask_of(rng.sample(rest, 14)) for _ in range(samples)]
    two_decks = list(iter_cards(deck_mask(2, ["DOG", "DOG", "MJ"])))
    two_deck_hands = [mask_of(rng.sample(two_decks, 16)) for _ in range(samples)]

    figures = []
    for name, inputs, generate, reference in (
        ("lead, random 14-card hand", random_hands, lead_plays, 157.0),
        ("lead, 14-card hand holding the Phoenix", phoenix_hands, lead_plays, 463.0),
        ("lead, 2..A of one suit + Phoenix (worst)", [worst] * samples, lead_plays, 1242.0),
        (
            "follow a pair of 5s, random 14-card hand",
            follow_hands,
            lambda h: plays(h, pair_of_fives),
            210.0,
        ),
        ("lead, random 16-card two-deck hand", two_deck_hands, lead_plays, None),
    ):
        median, size = _time_each(inputs, generate)
        figures.append(Figure(name, median, size, len(inputs), reference))
    return figures


@dataclass
class GameFigure:
    hands: int
    seconds: float
    decisions: int

    def lines(self) -> list[str]:
        per_hand = self.decisions / self.hands
        return [
            f"{'random-bot hands per second (standard)':<44} {self.hands / self.seconds:8.1f}"
            f"  ({self.hands} hands, {per_hand:.0f} decisions a hand; reference 125/s)",
            f"{'µs per legal_actions + apply step':<44} "
            f"{self.seconds / self.decisions * 1e6:8.1f}  (reference 69 µs)",
        ]


def game_figures(hands: int = 300, seed: int = 7) -> GameFigure:
    """Random-bot hands of ``standard`` through the public API."""
    from tichu_core.game.actions import GrandTichu, Tichu
    from tichu_core.game.match import Game
    from tichu_core.variants.loading import load_variant

    variant = load_variant("standard", overrides={"game.target": 0, "game.hands": hands})
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    decisions = 0
    gc.disable()
    start = time.perf_counter()
    try:
        while not game.is_over:
            seat = game.waiting_for[0]
            actions = game.legal_actions(seat)
            count = len(actions)
            while True:
                action = actions[rng.randrange(count)]
                if not (
                    isinstance(action, Tichu) or (isinstance(action, GrandTichu) and action.call)
                ):
                    break
            game.apply(action)
            decisions += 1
    finally:
        elapsed = time.perf_counter() - start
        gc.enable()
    return GameFigure(len(game.hand_results), elapsed, decisions)


def main(samples: int = 2000, hands: int = 300) -> int:
    print(
        f"tichu bench — Python {platform.python_version()} ({sys.implementation.name}), "
        f"{platform.machine()}, one core"
    )
    print("move generation (median per call, cold, same seeded hands each run):")
    for figure in move_generation_figures(samples):
        print("  " + figure.line())
    print("full game (standard, random bots, calls declined):")
    for line in game_figures(hands).lines():
        print("  " + line)
    return 0
