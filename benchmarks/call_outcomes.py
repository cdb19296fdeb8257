"""What the search bot's call weighings foretell: each call's gain in the rollouts
beside how the hand went at the table.

    .venv/bin/python benchmarks/call_outcomes.py [--deals 300] [--first 7000]
        [--bot search] [--workers 1] [--out FILE.jsonl]

Four search bots (``--bot``: a registry name of a search level) play ``--deals``
one-hand deals of standard Tichu (seeds ``--first`` on). Every time a bot weighs a
call (a Grand Tichu at its eight cards, a Tichu at each of its turns before its first
play), the call's mean gain over not calling in its rollouts is kept with the seat's
fate in the hand: did it call, did it go out first, was the call made. Reported by
kind and by gain: how many weighings, the share called, and the share in which the
seat went out first (with a 95% Wilson interval). The rollouts' gain of a Tichu is
200 times their chance of going out first, less 100, plus what the call changes in the
card play; a calibrated bot's calls would go out first about as often as that gain
says. ``--out`` keeps one JSON line per deal; rerunning the same command resumes it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tichu_core as tc
from tichu_core import Action, LegalActions, Observation
from tichu_core.frontends.bots import make_bot, play_match
from tichu_core.frontends.bots.search import SearchBot

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bsw_agreement import percent  # a sibling script: the 95% Wilson interval

BUCKETS = (-math.inf, -50.0, -25.0, 0.0, 10.0, 25.0, 50.0, 75.0, math.inf)


class _Recorded:
    """A search bot whose call weighings are kept: kind, gain, stake, called."""

    name = "search (its calls recorded)"

    def __init__(self, bot: SearchBot, seat: int, log: list[dict[str, Any]]) -> None:
        self.bot = bot
        self.seat = seat
        self.log = log
        self.observe = bot.observe
        self.offer = bot.offer

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        weighed = len(self.bot.call_gains)
        action: Action = self.bot.choose(observation, actions, seat)
        if len(self.bot.call_gains) > weighed:
            grand = any(isinstance(a, tc.GrandTichu) for a in actions.fixed)
            called = isinstance(action, tc.Tichu) or (
                isinstance(action, tc.GrandTichu) and action.call
            )
            self.log.append(
                {
                    "seat": seat,
                    "kind": "grand_tichu" if grand else "tichu",
                    "gain": round(self.bot.call_gains[-1], 2),
                    "stake": round(self.bot.call_stakes[-1], 2),
                    "called": called,
                }
            )
        return action


def play_deal(bot_name: str, seed: int) -> dict[str, Any]:
    """One deal played out by four bots: its weighings and each seat's fate."""
    variant = tc.load_variant("standard", overrides={"game.target": 0, "game.hands": 1})
    game = tc.Game(variant, seed=seed)
    log: list[dict[str, Any]] = []
    bots = []
    for seat in range(game.seats):
        bot = make_bot(bot_name, seed * game.seats + seat)
        if not isinstance(bot, SearchBot):
            raise SystemExit(f"{bot_name!r} is not a search bot")
        bots.append(_Recorded(bot, seat, log))
    play_match(game, bots)
    result = game.hand_results[0]
    first = result.out_order[0]
    for entry in log:
        entry["out_first"] = entry["seat"] == first
        call = result.calls.get(entry["seat"])
        entry["made"] = None if call is None else entry["seat"] == first
    return {"seed": seed, "weighings": log}


def report(rows: Sequence[dict[str, Any]], deals: int) -> None:
    print(f"{deals} deals: {len(rows)} call weighings")
    for kind in ("grand_tichu", "tichu"):
        of_kind = [r for r in rows if r["kind"] == kind]
        print(f"\n{kind}: {len(of_kind)} weighings")
        print("  gain in the rollouts   weighings  called  went out first [95%]")
        for low, high in itertools.pairwise(BUCKETS):
            inside = [r for r in of_kind if low <= r["gain"] < high]
            if not inside:
                continue
            first = sum(r["out_first"] for r in inside)
            called = sum(r["called"] for r in inside)
            label = f"[{low:+.0f}, {high:+.0f})"
            print(f"  {label:>20}   {len(inside):9d}  {called:6d}  {percent(first, len(inside))}")
        calls = [r for r in of_kind if r["called"]]
        made = sum(bool(r["made"]) for r in calls)
        if calls:
            print(f"  calls: {len(calls)}, made {made}: {percent(made, len(calls))}")


def _play(job: tuple[str, int]) -> dict[str, Any]:
    return play_deal(*job)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--first", type=int, default=7000)
    parser.add_argument("--bot", default="search")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", help="keep one JSON line a deal (and resume from it)")
    args = parser.parse_args(argv)
    done: dict[int, dict[str, Any]] = {}
    if args.out and Path(args.out).exists():
        for line in Path(args.out).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            done[record["seed"]] = record
    seeds = [s for s in range(args.first, args.first + args.deals) if s not in done]
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    jobs = [(args.bot, seed) for seed in seeds]
    with multiprocessing.Pool(args.workers) as pool:
        for record in pool.imap_unordered(_play, jobs):
            done[record["seed"]] = record
            if out is not None:
                out.write(json.dumps(record) + "\n")
                out.flush()
    wanted = [done[s] for s in range(args.first, args.first + args.deals)]
    report([w for record in wanted for w in record["weighings"]], len(wanted))


if __name__ == "__main__":
    main()
