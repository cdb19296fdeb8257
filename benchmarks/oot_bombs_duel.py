"""What out-of-turn bombs are worth to the heuristic bot: duplicate pairs of matches.

Run it from the repository root with the project's virtual environment::

    .venv/bin/python benchmarks/oot_bombs_duel.py --pairs 300 --workers 2

Each pair is two matches of ``standard`` (to 1,000 points) on the same stacked deals,
hand by hand (``tc.Game(..., deals=...)``: the seed alone would share only the first
deal, since the next hand's dealer is whoever went out first, S-DEAL-3): in one half
the heuristic (``heuristic``, bombing out of turn) holds seats 0 and 2 and the same
heuristic with its out-of-turn bombs off (``heuristic-no-oot``) seats 1 and 3; in the
other half the seats are swapped. The bots' seeds are the same in both halves, seat
by seat. Reported: the heuristic's share of the matches won, and its mean score
lead per hand, each with a 95% interval (normal approximation over the pairs, whose
two halves share the luck of the cards).

The module is importable (``tests/test_oot_bombs_duel.py`` loads it by path).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from typing import Any

import tichu_core as tc
from tichu_core.frontends.bots import make_bot, play_match

BOT = "heuristic"
OTHER = "heuristic-no-oot"
SUITS = "jspt"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [rank + suit for rank in RANKS for suit in SUITS] + ["MJ", "DOG", "PH", "DR"]
# More deals than a match to 1,000 points ever plays (about ten hands): a match never
# falls back to seeded shuffles, which the two halves would not share.
DEALS_PER_MATCH = 80
Z95 = 1.959964


def stacked_deals(seed: int, hands: int = DEALS_PER_MATCH) -> list[list[list[str]]]:
    """``hands`` shuffled deals of the standard deck: per hand, 14 cards per seat."""
    rng = random.Random(seed)
    deals = []
    for _ in range(hands):
        deck = list(DECK)
        rng.shuffle(deck)
        deals.append([deck[seat * 14 : seat * 14 + 14] for seat in range(4)])
    return deals


def play_half(seed: int, swapped: bool, target: int = 1000) -> tuple[tc.Game, list[str]]:
    """One half of pair ``seed``: the game and the bot name of each player."""
    variant = tc.load_variant("standard", overrides={"game.target": target})
    game = tc.Game(variant, seed=seed, deals=stacked_deals(seed))
    names = [OTHER, BOT] * 2 if swapped else [BOT, OTHER] * 2
    bots = [make_bot(name, seed * 31 + player) for player, name in enumerate(names)]
    play_match(game, bots)
    return game, names


def play_pair(seed: int, target: int = 1000) -> dict[str, Any]:
    """Both halves of pair ``seed``: the heuristic's wins (0..2, a shared win counts half),
    its score lead over both halves and the hands played."""
    wins = 0.0
    lead = 0
    hands = 0
    for swapped in (False, True):
        game, _ = play_half(seed, swapped, target)
        line = 1 if swapped else 0  # the score line (team) of BOT's seats
        winners = game.winners
        if line in winners:
            wins += 1 / len(winners)
        lead += game.scores[line] - game.scores[1 - line]
        hands += len(game.hand_results)
    return {"seed": seed, "wins": wins, "lead": lead, "hands": hands}


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=30, help="pair i is played with seed + i")
    parser.add_argument("--target", type=int, default=1000)
    args = parser.parse_args(argv)
    seeds = [args.seed + i for i in range(args.pairs)]
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        pairs = pool.starmap(play_pair, [(seed, args.target) for seed in seeds], chunksize=4)
    elapsed = time.perf_counter() - start
    hands = sum(p["hands"] for p in pairs)
    win_rate, low, high = interval([p["wins"] / 2 for p in pairs])
    per_hand = [p["lead"] / p["hands"] for p in pairs]
    lead, lead_low, lead_high = interval(per_hand)
    print(
        f"{BOT} against {OTHER}: {len(pairs)} duplicate pairs ({2 * len(pairs)} matches of "
        f"standard to {args.target}, {hands} hands on stacked deals), seeds "
        f"{seeds[0]}..{seeds[-1]}, {elapsed:.0f} s on {args.workers} workers"
    )
    print(f"  matches won by {BOT}: {100 * win_rate:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%]")
    print(f"  score lead per hand: {lead:+.1f} [{lead_low:+.1f}, {lead_high:+.1f}] points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
