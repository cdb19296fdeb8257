"""How often would the search bot call Grand Tichu, for each lift on its rollouts' chance?

    .venv/bin/python benchmarks/call_calibration.py [--deals 60] [--first 5000]
        [--out FILE.jsonl]

For each of ``--deals`` one-hand deals of standard Tichu (seeds ``--first`` on), the
search bot (its default budget) is asked every seat's Grand Tichu decision from that
seat's own record (its eight cards), and the call's mean gain over not calling in its
rollouts and the call's stake (the mean size of a gain) are kept. Reported, for lifts
on the chance of going out first that the rollouts give (a call when
``gain + 2 * lift * stake`` exceeds ``CALL_MARGIN``; the bot itself uses no lift,
docs/bots.md, "Calls"): the share of the decisions at which the bot
would call, overall and seat by seat (the seats should not differ but by chance),
beside people's 7.8% of hands on Brettspielwelt. Whether such calls pay is a question
for a duel (``benchmarks/bot_duel.py``), not for this script: it judges no call.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

import tichu_core as tc
from tichu_core.frontends.bots import SearchBot, decide
from tichu_core.frontends.bots.search import CALL_MARGIN

LIFTS = (0.0, 0.05, 0.08, 0.10, 0.12, 0.15, 0.20)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--first", type=int, default=5000)
    parser.add_argument("--out", help="also write one JSON line a decision to this file")
    args = parser.parse_args(argv)
    variant = tc.load_variant("standard", overrides={"game.target": 0, "game.hands": 1})
    rows: list[tuple[int, float, float]] = []  # seat, mean gain, stake
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    for seed in range(args.first, args.first + args.deals):
        game = tc.Game(variant, seed=seed)
        for seat in range(game.seats):
            bot = SearchBot(seed * game.seats + seat)
            decide(bot, game, seat)
            rows.append((seat, bot.call_gains[-1], bot.call_stakes[-1]))
            if out is not None:
                record = {"seed": seed, "seat": seat, "gain": rows[-1][1], "stake": rows[-1][2]}
                out.write(json.dumps(record) + "\n")
                out.flush()
    print(
        f"{args.deals} deals of standard (seeds {args.first}..{args.first + args.deals - 1}): "
        f"{len(rows)} Grand Tichu decisions of the search bot; people call at 7.8% of hands"
    )
    print("  lift   calls          by seat (the bot as it is: lift 0)")
    for lift in LIFTS:
        called = [seat for seat, gain, stake in rows if gain + 2 * lift * stake > CALL_MARGIN]
        by_seat = [called.count(seat) for seat in range(4)]
        share = 100 * len(called) / len(rows)
        print(f"  {lift:.2f}  {len(called):4d} ({share:4.1f}%)  {by_seat}")


if __name__ == "__main__":
    main()
