"""Two bot configurations in duplicate on one-hand deals: score, calls and bombs.

    .venv/bin/python benchmarks/bot_duel.py A B [--pairs 200] [--seed 1] [--workers 1]
        [--variant standard] [--set KEY=VALUE ...] [--out FILE.jsonl]

For variants of two teams of two alternating players (standard and its house rules).

Each pair is one deal (``tc.Game(variant, seed=...)`` with ``game.hands=1``) played
twice: A at the even players and B at the odd ones, then swapped; the bots' seeds are
the same player by player. A bot is a name of the registry (``search``, ``hard``...),
``search:KEY=VALUE,...`` (a ``SearchBot`` with those options, e.g.
``search:own_trick_bombs=False``) or ``FILE.py:CLASS`` (a bot class from a file, say an
older version of the search bot: ``git show REV:tichu_core/frontends/bots/search.py``).
``tichu duel`` plays such deals too (``--set game.hands=1``); this script exists for
configurations that have no name, and reports per side what ``tichu duel`` does not:
where each bomb went (on its own trick, over its partner's, over an opponent's; on
turn or out of turn) and the calls with their success.

Reported: A's score lead per hand (A's line minus B's, the mean of the pairs' two
halves) with a 95% interval (normal approximation over the pairs), split into what
the calls' bonuses made (S-SCORE-3: each call made or failed, A's minus B's) and the
rest (the cards: card points and double victories), the share of the hands A's line
won, and each side's calls and bombs per player and hand. ``--out``
keeps one JSON line per pair; rerunning the same command resumes it.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import tichu_core as tc
from tichu_core import Action, LegalActions, Observation
from tichu_core.frontends.bots import make_bot, play_match
from tichu_core.frontends.bots.search import SearchBot

Z95 = 1.959964
BOMB_KINDS = ("own", "partner", "opponent")


def build_bot(spec: str, seed: int) -> Any:
    """The bot ``spec`` names (see the module docstring) with ``seed``."""
    if spec.startswith("search:"):
        options = {}
        for item in spec[len("search:") :].split(","):
            key, _, value = item.partition("=")
            options[key.strip()] = ast.literal_eval(value.strip())
        return SearchBot(seed, **options)
    if ".py:" in spec:
        path, _, name = spec.partition(".py:")
        module_name = "duel_bot_" + Path(path).name
        module = sys.modules.get(module_name)
        if module is None:
            loaded = importlib.util.spec_from_file_location(module_name, path + ".py")
            assert loaded is not None and loaded.loader is not None
            module = importlib.util.module_from_spec(loaded)
            sys.modules[module_name] = module
            loaded.loader.exec_module(module)
        return getattr(module, name)(seed)
    return make_bot(spec, seed)


def is_listed_bomb(action: Action, actions: LegalActions) -> bool:
    """Whether ``action`` is one of the plays of ``actions`` that are bombs."""
    if not isinstance(action, tc.Play) or not action.cards:
        return False
    fixed = len(actions.fixed)
    return any(
        play.is_bomb and actions[fixed + i] == action for i, play in enumerate(actions.combinations)
    )


class _Counted:
    """A bot whose bombs are counted: where each went (the top play's seat: its own,
    its partner's, an opponent's) and whether on turn or out of turn."""

    def __init__(self, bot: Any, bombs: Counter[str]) -> None:
        self.bot = bot
        self.bombs = bombs
        if hasattr(bot, "observe"):
            self.observe = bot.observe

    def _count(self, observation: Observation, seat: int, action: Action, how: str) -> None:
        top = observation.top_seat
        if top is None:
            return
        if top == seat:
            where = "own"
        elif observation.teams[top] == observation.teams[seat]:
            where = "partner"
        else:
            where = "opponent"
        self.bombs[f"{where} {how}"] += 1

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        action: Action = self.bot.choose(observation, actions, seat)
        if is_listed_bomb(action, actions):
            self._count(observation, seat, action, "on turn")
        return action


class _CountedOffers(_Counted):
    def offer(self, observation: Observation, actions: LegalActions, seat: int) -> Action | None:
        answer: Action | None = self.bot.offer(observation, actions, seat)
        if isinstance(answer, tc.Play):
            self._count(observation, seat, answer, "out of turn")
        return answer


def _overrides(settings: Sequence[str]) -> dict[str, object]:
    overrides: dict[str, object] = {"game.target": 0, "game.hands": 1}
    for item in settings:
        key, _, value = item.partition("=")
        try:
            overrides[key] = json.loads(value)
        except ValueError:
            overrides[key] = value
    return overrides


def play_pair(
    a: str, b: str, seed: int, variant_name: str, settings: Sequence[str]
) -> dict[str, Any]:
    """Both halves of pair ``seed``: A's score lead and each side's calls and bombs."""
    variant = tc.load_variant(variant_name, overrides=_overrides(settings))
    lead = 0.0
    call_lead = 0.0  # the part of the lead that the calls' bonuses made
    worth = {"tichu": variant.calls.tichu_points, "grand_tichu": variant.calls.grand_tichu_points}
    won = 0.0
    sides: dict[str, dict[str, Any]] = {
        side: {"seat_hands": 0, "calls": Counter(), "made": Counter(), "bombs": Counter()}
        for side in "AB"
    }
    for swapped in (False, True):
        game = tc.Game(variant, seed=seed)
        names = []
        bots = []
        for player in range(variant.players):
            side = "B" if (player % 2 == 0) == swapped else "A"
            names.append(side)
            bot = build_bot(a if side == "A" else b, seed * 31 + player)
            counter = sides[side]["bombs"]
            bots.append(
                _CountedOffers(bot, counter) if hasattr(bot, "offer") else _Counted(bot, counter)
            )
        play_match(game, bots)  # type: ignore[arg-type]
        result = game.hand_results[0]
        line_a = 1 if swapped else 0  # the team of A's players (even or odd)
        line_b = 1 - line_a
        lead += (game.scores[line_a] - game.scores[line_b]) / 2
        winners = game.winners
        if line_a in winners:
            won += 0.5 / len(winners)
        for seat, owner in enumerate(result.players):
            if owner is None:
                continue
            side = names[owner]
            sides[side]["seat_hands"] += 1
            call = result.calls.get(seat)
            if call:
                for kind in call.split("+"):
                    sides[side]["calls"][kind] += 1
                    made = result.out_order[0] == seat
                    sides[side]["made"][kind] += made
                    bonus = worth[kind] if made else -worth[kind]
                    call_lead += (bonus if side == "A" else -bonus) / 2
    return {"seed": seed, "lead": lead, "call_lead": call_lead, "won": won, "sides": sides}


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def report(a: str, b: str, pairs: list[dict[str, Any]]) -> list[str]:
    """The lines printed for ``pairs``."""
    lead, low, high = interval([p["lead"] for p in pairs])
    won, won_low, won_high = interval([p["won"] for p in pairs])
    bonus, bonus_low, bonus_high = interval([p.get("call_lead", 0.0) for p in pairs])
    play, play_low, play_high = interval([p["lead"] - p.get("call_lead", 0.0) for p in pairs])
    lines = [
        f"{a} (A) against {b} (B): {len(pairs)} deals, each played twice (one hand)",
        f"  A's score lead per hand: {lead:+.1f} [{low:+.1f}, {high:+.1f}]",
        f"    from the calls' bonuses: {bonus:+.1f} [{bonus_low:+.1f}, {bonus_high:+.1f}];"
        f" from the cards (the rest): {play:+.1f} [{play_low:+.1f}, {play_high:+.1f}]",
        f"  hands won by A's line: {100 * won:.1f}% [{100 * won_low:.1f}%, {100 * won_high:.1f}%]",
    ]
    for side, name in (("A", a), ("B", b)):
        seat_hands = sum(p["sides"][side]["seat_hands"] for p in pairs)
        calls: Counter[str] = Counter()
        made: Counter[str] = Counter()
        bombs: Counter[str] = Counter()
        for p in pairs:
            calls.update(p["sides"][side]["calls"])
            made.update(p["sides"][side]["made"])
            bombs.update(p["sides"][side]["bombs"])
        parts = []
        for kind in ("grand_tichu", "tichu"):
            count = calls[kind]
            rate = 100 * count / seat_hands if seat_hands else 0.0
            success = f", made {made[kind]} ({100 * made[kind] / count:.0f}%)" if count else ""
            parts.append(f"{kind} {count} ({rate:.1f}% of seat-hands{success})")
        lines.append(f"  {side} {name}: {seat_hands} seat-hands; " + "; ".join(parts))
        hands = seat_hands or 1
        bomb_parts = [f"{key} {bombs[key]} ({bombs[key] / hands:.3f})" for key in sorted(bombs)]
        lines.append(
            "      bombs (per seat-hand): " + (", ".join(bomb_parts) if bomb_parts else "none")
        )
    return lines


def _play_job(job: tuple[str, str, int, str, Sequence[str]]) -> dict[str, Any]:
    return play_pair(*job)


def _keep(record: dict[str, Any], done: dict[int, dict[str, Any]], out: IO[str] | None) -> None:
    done[record["seed"]] = record
    if out is not None:
        out.write(json.dumps(record) + "\n")
        out.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="pair i is played with seed + i")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    for spec in (args.a, args.b):
        build_bot(spec, 0)  # a bad name fails here, before any worker starts
    done: dict[int, dict[str, Any]] = {}
    if args.out is not None and args.out.exists():
        for line in args.out.read_text().splitlines():
            record = json.loads(line)
            done[record["seed"]] = record
    seeds = [args.seed + i for i in range(args.pairs) if args.seed + i not in done]
    started = time.perf_counter()
    jobs = [(args.a, args.b, seed, args.variant, args.set) for seed in seeds]
    out = args.out.open("a") if args.out is not None else None
    try:
        if args.workers > 1:
            # Each pair is kept as it finishes (in any order), so that a run stopped
            # part-way resumes from every pair played, as with one worker.
            with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
                for record in pool.imap_unordered(_play_job, jobs, chunksize=1):
                    _keep(record, done, out)
        else:
            for job in jobs:
                _keep(play_pair(*job), done, out)
    finally:
        if out is not None:
            out.close()
    pairs = [done[args.seed + i] for i in range(args.pairs)]
    for line in report(args.a, args.b, pairs):
        print(line)
    print(f"  {time.perf_counter() - started:.0f} s for {len(seeds)} new pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
