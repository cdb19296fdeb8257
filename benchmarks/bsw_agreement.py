"""Agreement with people: how often each bot, in a person's seat, plays what the person
played, over the real Brettspielwelt games of a folder of `.tch` logs.

Run it by hand from the repository root with the project's virtual environment (not in
CI: the search bot thinks about 0.03 s a decision, a few minutes on a folder of logs)::

    .venv/bin/python benchmarks/bsw_agreement.py --workers 2
    .venv/bin/python benchmarks/bsw_agreement.py --bots random,heuristic --limit 1
    .venv/bin/python benchmarks/bsw_agreement.py --bots heuristic,search --target 1000

Every log of the folder (default ``../shared/bsw``, sorted by name) is replayed with the
project's importer (``tichu_core.formats.iter_replay_file``, as ``tichu replay``). Each
round is then played again from its deal, action by action, and at every *play
decision* of a person (a play or a pass by the seat the game waits for) each bot is
asked what it would do there, with exactly what the bot protocol gives it
(``tichu_core.frontends.bots.decide``: the observation of the seat's player, the
seat's legal actions, and for a bot that plans on sampled worlds the player's events).
The bot's answer is only compared, never applied: the person's logged action is applied
and the round goes on as it was played. The round's game is the importer's: a one-hand
game of the ``bsw`` variant (the match ends with the hand, at 0 - 0 before it, since a
round of the log stands alone there); ``--target 1000`` asks the bots in a match to
1,000 instead, which the hand does not end (the running score of the log is not given
to them in either).

What is counted, and why:

- A decision counts only where the person had a choice: at least two distinct options
  among the legal plays and the pass (the cards of a play as a multiset, whatever the
  Phoenix stands for, since a play is listed once per reading of its cards). Forced
  moves (the lone pass of a seat that cannot beat the trick, the collecting pass of
  the trick's winner) would only inflate everyone's agreement; they are reported as
  skipped.
- A bot agrees when it plays the same cards (as a multiset) or passes where the person
  passed. Leads (an empty trick: after a trick is won, or the Dog) and follows are
  also reported apart: a lead offers far more options.
- A Tichu call is no play: a bot that answers a play decision with a call (legal before
  its first card) is asked again on a copy of the game with its call made, and that
  answer is compared; such calls are counted apart.
- Plays out of turn (bombs) are the person's, but no bot is asked about them (the
  question the person answered there, "bomb now?", is not the question of a turn).
- Rounds that do not replay exactly (a mismatch with the log) are skipped and counted;
  a round the log ends inside (an aborted game) is used as far as it was replayed, and
  counted; a log that stops at a malformed line keeps the rounds before that line.

Reported per bot: the decisions asked, the share agreed with its 95% Wilson interval
(over decisions, which are not independent: the same people and hands recur, so the
interval is narrower than the truth), the same for leads and follows, and, over the
follows where passing was one of the options, how often the person passed and how
often the bot did. Chance is the agreement of a choice uniform over each decision's
distinct options. Then each pair of bots, asked at the same decisions: how often they
chose alike, and the difference of their agreement with a paired 95% interval (from the
decisions where only one of the two agrees).

Bots are made with ``make_bot(name, seed + i)`` for the i-th log of the sorted folder,
so the figures of a log do not depend on ``--limit`` or ``--workers``.

The module is importable (``tests/test_bsw_agreement.py`` loads it by path).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import tichu_core as tc
from tichu_core.formats import RoundReplay, iter_replay_file
from tichu_core.frontends.bots import Bot, decide, make_bot

DEFAULT_BOTS = ("random", "greedy", "heuristic", "search")
# The variant the importer replays logs with (the site's rules, docs/bsw.md).
VARIANT = "bsw"
DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "shared" / "bsw"
Z95 = 1.959964

# A play or a pass as compared: ("pass",), or ("play", its cards sorted).
Choice = tuple[str, ...]


def choice_of(action: tc.Action) -> Choice:
    """What an action chose, as compared with the person's: the cards of a play as a
    multiset (not the Phoenix reading), a pass; anything else by its type."""
    if isinstance(action, tc.Play):
        return ("play", *sorted(action.cards.split()))
    if isinstance(action, tc.Pass):
        return ("pass",)
    return (type(action).__name__,)


@dataclass(frozen=True, slots=True)
class Decision:
    """A person's play decision: the game just before it, the seat, the logged action,
    and the distinct play-or-pass options the seat had."""

    game: tc.Game
    seat: int
    logged: tc.Action
    options: frozenset[Choice]
    lead: bool


def fresh_game(replay: RoundReplay, target: int | None = None) -> tc.Game:
    """The round's game before its first action: the same variant, seed and stacked
    deal as the importer's (read back from its record, `Game.to_json`). With `target`,
    a match of the variant to that score instead of the importer's one hand: the
    importer's game ends the match with the hand, which a bot that values winning the
    match (search) takes into account, though the person's match went on."""
    assert replay.game is not None
    record = json.loads(replay.game.to_json())
    variant = replay.game.variant
    if target is not None:
        variant = tc.load_variant(VARIANT, overrides={"game.target": target})
    return tc.Game(variant, seed=record["seed"], deals=record["deals"])


def person_turns(
    replay: RoundReplay, counts: Counter[str], target: int | None = None
) -> Iterator[Decision]:
    """Walk the round's logged actions on a fresh game and yield, before applying it,
    every play or pass made by the seat the game waits for. The game yielded is the
    live one: use it before asking for the next decision."""
    game = fresh_game(replay, target)
    for step in replay.steps:
        action = step.action
        if isinstance(action, tc.Play | tc.Pass):
            if action.seat not in game.waiting_for:
                counts["out of turn"] += 1  # a bomb out of turn: no bot is asked
            else:
                counts["turns"] += 1
                options = frozenset(
                    choice_of(a)
                    for a in game.legal_actions(action.seat)
                    if isinstance(a, tc.Play | tc.Pass)
                )
                lead = not game.observation(None).trick
                yield Decision(game, action.seat, action, options, lead)
        game.apply(action)


def ask(bot: Bot, decision: Decision, counts: Counter[str]) -> Choice:
    """The bot's choice at the decision, as the bot protocol asks it; never applied."""
    answer = decide(bot, decision.game, decision.seat)
    if isinstance(answer, tc.Tichu):
        # A call before the first card: the play the bot means comes after it.
        counts["called first"] += 1
        called = decision.game.copy()
        called.apply(answer)
        answer = decide(bot, called, decision.seat)
    return choice_of(answer)


def tally_rounds(
    replays: Iterable[RoundReplay], bots: Mapping[str, Bot], target: int | None = None
) -> tuple[Counter[str], dict[str, Counter[str]]]:
    """Ask every bot at every counted decision of `replays`. Returns the counts of the
    rounds and decisions (`rounds`, `exact`, `incomplete`, `skipped`, `turns`,
    `single option`, `counted`, `leads`, `out of turn`, `chance`: the sum over counted
    decisions of 1 / options, in millionths) and, per bot, its counts (`decisions`,
    `agreed`, `leads`, `leads agreed`, `follows`, `follows agreed`, `could pass`,
    `person passed`, `bot passed`, `called first`, `microseconds`, and for each other
    bot B `same as B`: the same choice as B's, `alone against B`: it agreed, B not)."""
    counts: Counter[str] = Counter()
    per_bot: dict[str, Counter[str]] = {name: Counter() for name in bots}
    for replay in replays:
        counts["rounds"] += 1
        if replay.mismatch is not None or replay.game is None:
            counts["skipped"] += 1  # the engine and the log disagree, or there is no deal
            continue
        counts["incomplete" if replay.incomplete else "exact"] += 1
        for decision in person_turns(replay, counts, target):
            if len(decision.options) < 2:
                counts["single option"] += 1
                continue
            counts["counted"] += 1
            counts["leads"] += decision.lead
            counts["chance"] += round(1_000_000 / len(decision.options))
            logged = choice_of(decision.logged)
            could_pass = ("pass",) in decision.options
            chosen_by: dict[str, Choice] = {}
            for name, bot in bots.items():
                tally = per_bot[name]
                start = time.perf_counter()
                chosen = chosen_by[name] = ask(bot, decision, tally)
                tally["microseconds"] += round(1e6 * (time.perf_counter() - start))
                agreed = chosen == logged
                where = "leads" if decision.lead else "follows"
                tally["decisions"] += 1
                tally["agreed"] += agreed
                tally[where] += 1
                tally[f"{where} agreed"] += agreed
                if could_pass:
                    tally["could pass"] += 1
                    tally["person passed"] += logged == ("pass",)
                    tally["bot passed"] += chosen == ("pass",)
            # Paired: every bot is asked at the same decisions, so two bots are compared
            # by the decisions where only one of them agrees (tighter than two shares).
            for name, chosen in chosen_by.items():
                for other, theirs in chosen_by.items():
                    if other != name:
                        per_bot[name][f"same as {other}"] += chosen == theirs
                        per_bot[name][f"alone against {other}"] += chosen == logged != theirs
    return counts, per_bot


def tally_log(
    index: int, path: str, bot_names: Sequence[str], seed: int, target: int | None = None
) -> tuple[Counter[str], dict[str, Counter[str]]]:
    """`tally_rounds` over one log file, bots seeded `seed + index` (a worker's task). A
    malformed line ends the log there; the rounds before it count."""
    bots = {name: make_bot(name, seed + index) for name in bot_names}
    collected: list[RoundReplay] = []
    counts: Counter[str] = Counter(logs=1)
    try:
        for replay in iter_replay_file(path, VARIANT):
            collected.append(replay)
    except tc.LogFormatError as error:
        counts["logs cut by a format error"] += 1
        print(f"{path}: {error} (the rounds before it are used)", file=sys.stderr)
    except OSError as error:
        counts["logs unreadable"] += 1
        print(f"{path}: {error}", file=sys.stderr)
    found, per_bot = tally_rounds(collected, bots, target)
    return counts + found, per_bot


def wilson(agreed: int, total: int) -> tuple[float, float]:
    """The 95% Wilson interval of the share `agreed / total`."""
    if total == 0:
        return 0.0, 1.0
    share = agreed / total
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * total)) / (1 + z2 / total)
    half = Z95 * math.sqrt(share * (1 - share) / total + z2 / (4 * total * total))
    return centre - half / (1 + z2 / total), centre + half / (1 + z2 / total)


def percent(part: int, total: int) -> str:
    """`41.2% [37.0%, 45.5%]` (the share with its 95% Wilson interval), `-` for nothing."""
    if total == 0:
        return "-"
    low, high = wilson(part, total)
    return f"{100 * part / total:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%]"


def report(counts: Counter[str], per_bot: Mapping[str, Counter[str]]) -> list[str]:
    """The figures, one line each."""
    counted = counts["counted"]
    lines = [
        f"logs: {counts['logs']} ({counts['logs cut by a format error']} cut by a format "
        f"error, {counts['logs unreadable']} unreadable); rounds: {counts['rounds']} "
        f"({counts['exact']} exact, {counts['incomplete']} incomplete and used as far as "
        f"logged, {counts['skipped']} skipped: mismatch or no deal)",
        f"a person's plays and passes on turn: {counts['turns']}; with a single option "
        f"(not counted): {counts['single option']}; counted: {counted} "
        f"({counts['leads']} leads, {counted - counts['leads']} follows); bombs out of "
        f"turn (not asked): {counts['out of turn']}",
        f"chance (uniform over each decision's options): "
        f"{counts['chance'] / 1e4 / max(counted, 1):.1f}%",
    ]
    for name, tally in per_bot.items():
        decisions = tally["decisions"]
        mean_ms = tally["microseconds"] / 1000 / max(decisions, 1)
        lines += [
            f"{name}: agrees {percent(tally['agreed'], decisions)} of {decisions}",
            f"  leads   {percent(tally['leads agreed'], tally['leads'])} of {tally['leads']}",
            f"  follows {percent(tally['follows agreed'], tally['follows'])} of {tally['follows']}",
            f"  where passing was an option ({tally['could pass']}): the person passed "
            f"{percent(tally['person passed'], tally['could pass'])}, {name} "
            f"{percent(tally['bot passed'], tally['could pass'])}",
            f"  called Tichu before answering: {tally['called first']}; "
            f"{mean_ms:.1f} ms a decision",
        ]
    names = list(per_bot)
    for i, name in enumerate(names):
        for other in names[i + 1 :]:
            lines.append(paired(name, other, per_bot, counts["counted"]))
    return lines


def paired(name: str, other: str, per_bot: Mapping[str, Counter[str]], counted: int) -> str:
    """Two bots at the same decisions: how often they chose alike, and the difference of
    their agreement with its 95% interval from the decisions where only one agreed
    (normal approximation of the paired difference)."""
    alone = per_bot[name][f"alone against {other}"]
    theirs = per_bot[other][f"alone against {name}"]
    same = per_bot[name][f"same as {other}"]
    if counted == 0:
        return f"{name} and {other}: no decision"
    diff = (alone - theirs) / counted
    spread = math.sqrt(max(alone + theirs - counted * diff * diff, 0.0)) / counted
    return (
        f"{name} and {other}: the same choice at {100 * same / counted:.1f}%; only "
        f"{name} agrees at {alone}, only {other} at {theirs}: {name} "
        f"{100 * diff:+.1f} points [{100 * (diff - Z95 * spread):+.1f}, "
        f"{100 * (diff + Z95 * spread):+.1f}]"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS), help="comma-separated bot names")
    parser.add_argument("--limit", type=int, default=None, help="the first N logs only")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1, help="the bots of log i: seed + i")
    parser.add_argument(
        "--target",
        type=int,
        default=None,
        help="ask the bots in a match to this score, not in the importer's one-hand game",
    )
    args = parser.parse_args(argv)
    bot_names = [name.strip() for name in args.bots.split(",") if name.strip()]
    for name in bot_names:
        make_bot(name, 0)  # an unknown name stops here, naming the known ones
    logs = sorted(args.folder.glob("*.tch"))[: args.limit]
    if not logs:
        print(f"no .tch log in {args.folder}", file=sys.stderr)
        return 2
    tasks = [(i, str(path), bot_names, args.seed, args.target) for i, path in enumerate(logs)]
    start = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            results = pool.starmap(tally_log, tasks, chunksize=1)
    else:
        results = [tally_log(*task) for task in tasks]
    elapsed = time.perf_counter() - start
    counts: Counter[str] = Counter()
    per_bot: dict[str, Counter[str]] = {name: Counter() for name in bot_names}
    for found, bots in results:
        counts.update(found)
        for name, tally in bots.items():
            per_bot[name].update(tally)
    print(
        f"agreement with people: {len(logs)} logs of {args.folder}, bots "
        f"{', '.join(bot_names)}, seed {args.seed}, "
        f"{'one-hand games' if args.target is None else f'matches to {args.target}'}, "
        f"{args.workers} workers, {elapsed:.0f} s"
    )
    for line in report(counts, per_bot):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
