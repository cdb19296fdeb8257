"""The search bot's speed at its default budget: time per decision at every table size.

Search bots (the even players) play a match against ``heuristic`` bots (the odd ones)
for a few hands of a variant; every decision a search bot is asked (``choose`` and
``offer``, sampling the worlds included) is timed in CPU seconds with
``time.process_time`` (so another job on the machine's other core does not count), and
the bots' own counters say how many were searched and with how many rollouts and
play-out steps. The same seed gives the same match, so two builds of the engine (run
this file with ``PYTHONPATH`` pointing at the other checkout) search the same positions
as long as their rollouts agree.

    .venv/bin/python benchmarks/search_speed.py [--variant standard] [--players 7] \\
        [--hands 4] [--seed 5] [--bot search]
    .venv/bin/python benchmarks/search_speed.py --tables [--seed 5]  # docs/bots.md's table

Figures move with the machine's load: compare builds in alternating runs on a quiet
machine (``uptime``), never in a unit test.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections.abc import Sequence
from typing import Any

import tichu_core as tc
from tichu_core import Action, LegalActions, Observation
from tichu_core.frontends.bots import make_bot
from tichu_core.frontends.bots.protocol import play_match
from tichu_core.frontends.bots.search import SearchBot

# The tables of docs/bots.md's budget table: variant, players (None: the variant's),
# hands (Threechu's a multiple of 3, T3-8; Grand Seigneur's first is the election hand).
TABLES: tuple[tuple[str, int | None, int], ...] = (
    ("standard", None, 4),
    ("threechu", None, 3),
    ("tientsin", None, 4),
    ("grand_seigneur", 7, 3),
    ("grand_seigneur", 12, 3),
)


class _Timed:
    """A bot whose every decision is timed in CPU seconds."""

    name = "timed"

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []
        if hasattr(bot, "observe"):
            self.observe = bot.observe

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        started = time.process_time()
        try:
            action: Action = self.bot.choose(observation, actions, seat)
            return action
        finally:
            self.times.append(time.process_time() - started)


class _TimedOffers(_Timed):
    def offer(self, observation: Observation, actions: LegalActions, seat: int) -> Action | None:
        started = time.process_time()
        try:
            answer: Action | None = self.bot.offer(observation, actions, seat)
            return answer
        finally:
            self.times.append(time.process_time() - started)


def measure(
    variant_name: str, hands: int, seed: int, players: int | None = None, bot: str = "search"
) -> dict[str, object]:
    """One match; the search bots' totals and the spread of their decisions' times."""
    overrides: dict[str, object] = {"game.target": 0, "game.hands": hands}
    if players is not None:
        overrides["players"] = players
    variant = tc.load_variant(variant_name, overrides=overrides)
    game = tc.Game(variant, seed=seed)
    timed: list[_Timed] = []
    bots: list[object] = []
    for player in range(variant.players):
        made = make_bot(bot if player % 2 == 0 else "heuristic", seed + player)
        if player % 2 == 0:
            timed.append(_TimedOffers(made) if hasattr(made, "offer") else _Timed(made))
            bots.append(timed[-1])
        else:
            bots.append(made)
    started = time.process_time()
    play_match(game, bots)  # type: ignore[arg-type]
    cpu = time.process_time() - started
    searchers = [t.bot for t in timed if isinstance(t.bot, SearchBot)]
    times = sorted(t for each in timed for t in each.times)
    searched = sum(b.searched for b in searchers)
    rollouts = sum(b.rollouts for b in searchers)
    seconds = sum(b.seconds_spent for b in searchers)
    return {
        "hands": len(game.hand_results),
        "decisions asked": len(times),
        "searched": searched,
        "rollouts": rollouts,
        "play-out steps": sum(b.playout_steps for b in searchers),
        "mean ms per decision": 1000 * statistics.fmean(times) if times else 0.0,
        "p99 ms per decision": 1000 * _percentile(times, 0.99),
        "longest ms": 1000 * times[-1] if times else 0.0,
        # wall-clock time inside the searches (moves with the machine's load)
        "wall ms per searched decision": 1000 * seconds / searched if searched else 0.0,
        "match CPU seconds": cpu,
        "scores": game.scores,  # the same match, the same scores: a check, not a speed
    }


def _percentile(ordered: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of an ordered sample (0 for none)."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--bot", default="search", help="the bot at the even players (timed)")
    parser.add_argument(
        "--tables", action="store_true", help="every table of docs/bots.md, one line each"
    )
    parser.add_argument(
        "--memory-gb", type=int, default=6, help="with --tables: the process's memory limit"
    )
    args = parser.parse_args(argv)
    print(f"tichu_core from {tc.__file__}")
    if args.tables:
        print(
            "| table | hands | decisions (searched) | mean | 99th percentile | longest | "
            "rollouts a decision |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        # A table whose worlds cannot be sampled in bounded memory fails alone, and
        # the machine's other jobs are safe from it.
        resource.setrlimit(resource.RLIMIT_AS, (args.memory_gb << 30, resource.RLIM_INFINITY))
        for name, players, hands in TABLES:
            label = name + (f", {players} players" if players else "")
            try:
                f = measure(name, hands, args.seed, players, args.bot)
            except MemoryError:
                print(f"| {label} | out of memory ({args.memory_gb} GB) | | | | | |", flush=True)
                continue
            searched = int(f["searched"])  # type: ignore[call-overload]
            per = int(f["rollouts"]) / searched if searched else 0.0  # type: ignore[call-overload]
            print(
                f"| {label} | {f['hands']} | {f['decisions asked']} ({searched}) | "
                f"{f['mean ms per decision']:.1f} ms | {f['p99 ms per decision']:.1f} ms | "
                f"{f['longest ms']:.1f} ms | {per:.0f} |",
                flush=True,
            )
        return 0
    figures = measure(args.variant, args.hands, args.seed, args.players, args.bot)
    for name, value in figures.items():
        print(f"  {name}: {value:,.1f}" if isinstance(value, float) else f"  {name}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
