"""The search bot's speed at its default budget: rollouts per second of searching.

Two ``search`` bots (players 0 and 2) play a match against two ``heuristic`` bots
(players 1 and 3) for a few hands of a variant; every searched decision is timed by the
bot itself (``SearchBot.searched``, ``.rollouts``, ``.seconds_spent``: wall-clock time
inside its decisions, sampling the worlds included) and the CPU time of the whole match
is read with ``time.process_time``. The same seed gives the same match, so two builds
of the engine (say, before and after a change: run this file with ``PYTHONPATH``
pointing at the other checkout) search the same positions as long as their rollouts
agree; where a change alters the rollouts' random draws the matches part after a while,
and the comparison is of similar positions.

    .venv/bin/python benchmarks/search_speed.py [--variant standard] [--hands 4] [--seed 5]

Wall-clock figures move with the machine's load: compare builds in alternating runs
on a quiet machine (``uptime``), never in a unit test.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import tichu_core as tc
from tichu_core.frontends.bots import make_bot
from tichu_core.frontends.bots.protocol import play_match
from tichu_core.frontends.bots.search import SearchBot


def measure(
    variant_name: str, hands: int, seed: int, players: int | None = None
) -> dict[str, object]:
    """One match; the search bots' totals."""
    overrides: dict[str, object] = {"game.target": 0, "game.hands": hands}
    if players is not None:
        overrides["players"] = players
    variant = tc.load_variant(variant_name, overrides=overrides)
    game = tc.Game(variant, seed=seed)
    bots = [
        make_bot("search" if player % 2 == 0 else "heuristic", seed + player)
        for player in range(variant.players)
    ]
    started = time.process_time()
    play_match(game, bots)
    cpu = time.process_time() - started
    searchers = [bot for bot in bots if isinstance(bot, SearchBot)]
    searched = sum(bot.searched for bot in searchers)
    rollouts = sum(bot.rollouts for bot in searchers)
    seconds = sum(bot.seconds_spent for bot in searchers)
    return {
        "hands": len(game.hand_results),
        "searched": searched,
        "rollouts": rollouts,
        "search seconds": seconds,
        "rollouts per second": rollouts / seconds if seconds else 0.0,
        "ms per searched decision": 1000 * seconds / searched if searched else 0.0,
        "match CPU seconds": cpu,
        "scores": game.scores,  # the same match, the same scores: a check, not a speed
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    figures = measure(args.variant, args.hands, args.seed, args.players)
    print(f"tichu_core from {tc.__file__}")
    for name, value in figures.items():
        print(f"  {name}: {value:,.1f}" if isinstance(value, float) else f"  {name}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
