"""How well do the search bot's Grand Tichu estimates predict a made call?

    .venv/bin/python benchmarks/call_calibration.py [--deals 80] [--first 2000]
        [--iterations 96] [--worlds 6] [--steps 8000]

For each of ``--deals`` one-hand deals of standard Tichu (seeds ``--first`` on), the
search bot is asked seat 0's Grand Tichu decision from that seat's own record (its
eight cards), and the mean gain of calling over not calling in its rollouts is kept.
Then the hand is played out twice by heuristic bots from that moment: once with seat 0
calling Grand Tichu, once without (the same bots' seeds). Reported: for thresholds on
the estimated gain, how often the bot would call, how often such a call was made
(seat 0 went out first), and the mean points the call changed for seat 0's team in
the play-outs; beside them people's figures on Brettspielwelt (7.8% of hands called,
62% made).

The play-outs by heuristic bots stand in for a table: they are not people, and a
heuristic partner helps a Grand Tichu caller only as far as its rules do.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections.abc import Sequence

import tichu_core as tc
from tichu_core import Action
from tichu_core.frontends.bots import SearchBot, make_bot, play_match

Z95 = 1.959964
ONE_HAND = tc.load_variant("standard", overrides={"game.target": 0, "game.hands": 1})


def _asked(seed: int, bot: SearchBot) -> tuple[tc.Game, float, bool]:
    """The deal at seat 0's Grand Tichu decision, the bot's estimated gain of calling,
    and whether it called."""
    game = tc.Game(ONE_HAND, seed=seed)
    events: Sequence[tc.Event] = game.events_for(0)
    bot.observe(game.variant, 0, events)
    actions = game.legal_actions(0)
    before = len(bot.call_gains)
    choice: Action = bot.choose(game.observation(0), actions, 0)
    if len(bot.call_gains) == before:
        raise RuntimeError(f"deal {seed}: the bot weighed no Grand Tichu call")
    called = isinstance(choice, tc.GrandTichu) and choice.call
    return game, bot.call_gains[-1], called


def _played(game: tc.Game, call: bool, seed: int) -> tuple[int, bool]:
    """Seat 0's team lead for the hand and whether seat 0 went out first, with seat 0's
    Grand Tichu decision ``call``; heuristic bots play the rest."""
    game = game.copy()
    game.apply(tc.GrandTichu(0, call=call))
    play_match(game, [make_bot("heuristic", seed * 7 + p) for p in range(game.players)])
    result = game.hand_results[0]
    gained = list(game.scores)
    team = 0  # seat 0 plays for team 0 in standard
    return gained[team] - gained[1 - team], result.out_order[0] == 0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=80)
    parser.add_argument("--first", type=int, default=2000)
    parser.add_argument("--iterations", type=int, default=96)
    parser.add_argument("--worlds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=8000)
    parser.add_argument("--out", help="also write one JSON line a deal to this file")
    args = parser.parse_args(argv)
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    rows: list[tuple[float, bool, bool, int]] = []
    for seed in range(args.first, args.first + args.deals):
        bot = SearchBot(seed, iterations=args.iterations, worlds=args.worlds, steps=args.steps)
        game, gain, called = _asked(seed, bot)
        with_call, made = _played(game, True, seed)
        without, _ = _played(game, False, seed)
        rows.append((gain, called, made, with_call - without))
        if out is not None:
            record = {"seed": seed, "gain": gain, "stake": bot.call_stakes[-1], "called": called}
            out.write(json.dumps(record | {"made": made, "change": with_call - without}) + "\n")
            out.flush()
    print(
        f"{len(rows)} deals of standard (seeds {args.first}..{args.first + args.deals - 1}), "
        f"seat 0's Grand Tichu decision; SearchBot(iterations={args.iterations}, "
        f"worlds={args.worlds}, steps={args.steps})"
    )
    called = [r for r in rows if r[1]]
    print(
        f"the bot called at {len(called)} ({100 * len(called) / len(rows):.1f}%), "
        f"made {sum(r[2] for r in called)}; people: 7.8% called, 62% made"
    )
    print(f"estimated gains: median {statistics.median(r[0] for r in rows):+.1f}")
    print(" threshold   would call      made   points the call changed (heuristic play-outs)")
    for threshold in (-60.0, -40.0, -20.0, -10.0, 0.0, 10.0, 20.0):
        chosen = [r for r in rows if r[0] > threshold]
        if not chosen:
            print(f"  > {threshold:+5.0f}   none")
            continue
        changes = [r[3] for r in chosen]
        mean = statistics.fmean(changes)
        half = (
            Z95 * statistics.stdev(changes) / math.sqrt(len(changes))
            if len(changes) > 1
            else math.nan
        )
        made = sum(r[2] for r in chosen)
        print(
            f"  > {threshold:+5.0f}   {len(chosen):3d} ({100 * len(chosen) / len(rows):4.1f}%)"
            f"   {made:3d} ({100 * made / len(chosen):3.0f}%)"
            f"   {mean:+7.1f} [{mean - half:+.1f}, {mean + half:+.1f}]"
        )


if __name__ == "__main__":
    main()
