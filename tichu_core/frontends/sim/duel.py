"""``tichu duel A B``: two bots in duplicate play.

The table's players are split into two sides, and every deal is played twice: first
with bot A for the players of side 0 and bot B for side 1, then with the sides
swapped. Over the pair, each player's place at the table (its seat, its cards, its
partners) is held once by A and once by B, so that the luck of the deal cancels out.

- Sides. Where teams score (standard, Tientsin), a player's side is its team's number
  modulo 2: the teams themselves in a two-team game. Where players score on their
  own (Threechu, Grand Seigneur: one score line per player), it is the player's
  number modulo 2: Grand Seigneur with 7 players puts A on players 0, 2, 4, 6 and B
  on 1, 3, 5, then B on the even players and A on the odd ones. Players keep their
  number while seats change (Threechu rotates the shuffler, Grand Seigneur reseats by
  rank), so a side follows the players, not the seats. Unequal sides (4 against 3)
  are fair in the pair: each side has the larger group once.
- Deals. The same seed does not give the same deals in two matches once the first
  hand is over (the dealer of the next hand depends on play), so a pair stacks its
  deals (``Game(variant, deals=...)``): the deal of hand ``h`` is the variant's deck
  shuffled by a generator seeded with the pair's seed and ``h``, split into the hand
  sizes of the variant's first deal, so both matches of a pair give every seat the
  same cards hand by hand. The stack replaces the variant's own shuffle and deal:
  where the hand sizes depend on the dealer (Tientsin, T6-2: the two seats after the
  dealer get 10 cards), they stay those of the first hand's dealer (each team still
  gets one 10-card hand). A match longer than its stack is played again, both halves,
  with a longer one (the deal of a hand does not depend on the stack's length).
- Figures (per side, ratios of sums over the pairs): the score per hand (the mean of
  the side's score lines; Grand Seigneur's lines are its E-5 finishing-place
  points), matches won (a match whose winners are on both sides counts half), and
  per player and hand the calls, first places and bombs. Each difference A − B comes
  with a 95% interval by the normal approximation, paired by deal: the pair of
  matches is the unit (the delta method of :mod:`~tichu_core.frontends.sim.compare`).

One pair is one record of the run (its index is the deal's number): the runners, the
resumable ``--out`` file and Ctrl-C work as in ``tichu simulate``.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.text import Text

from tichu_core import Game, HandStarted, Variant, load_variant, parse_overrides
from tichu_core.frontends.sim.chart import headline
from tichu_core.frontends.sim.intervals import MIN_PAIRS, SHARE, SIGNED, Difference, Figure
from tichu_core.frontends.sim.matches import Record, RunSpec, match_seed, play_record
from tichu_core.frontends.sim.paired import (
    difference_table,
    figure_differences,
    request_problem,
    save_chart,
    small_sample_warning,
)
from tichu_core.frontends.sim.simulate import (
    INTERRUPTED,
    RunError,
    choose_run_seed,
    interrupted_message,
    play_run,
)
from tichu_core.frontends.sim.stacked import (
    STACK,
    Dealing,
    first_stack,
    play_on_stack,
    stacked_deals,
)
from tichu_core.frontends.text.render import printable, safe_text

__all__ = ["STACK", "duel", "play_pair", "stacked_deals"]
# Pairs per batch at most: a pair is two matches, and a strong bot's matches are slow;
# Ctrl-C keeps only whole batches.
LARGEST_BATCH = 4
# What a half keeps of its match record (`play_record`).
KEPT = (
    "totals",
    "card_points",
    "winners",
    "termination",
    "hands",
    "actions",
    "tichu",
    "grand_tichu",
    "bombs",
    "first_out",
    "double_victories",
)


def _error(message: str) -> int:
    print(f"tichu duel: {printable(message)}", file=sys.stderr)
    return 2


# --------------------------------------------------------------------------- the table


def line_players(variant: Variant, game: Game) -> list[tuple[int, ...]]:
    """The players of each score line of ``game`` (its first hand): one line per player
    where players score (a dummy's line has none), else one per team."""
    lines = len(game.score_lines)
    if variant.scoring.per_player or variant.teams.size == 1:
        return [(line,) if line < game.players else () for line in range(lines)]
    seats = [game.seat_of(player) for player in range(game.players)]
    return [
        tuple(p for p, seat in enumerate(seats) if seat is not None and variant.team_of(seat) == t)
        for t in range(lines)
    ]


def player_sides(lines: Sequence[tuple[int, ...]], players: int) -> tuple[int, ...]:
    """Each player's side (0 or 1): the number of its score line, modulo 2."""
    sides = [0] * players
    for line, members in enumerate(lines):
        for player in members:
            sides[player] = line % 2
    return tuple(sides)


@dataclass(frozen=True)
class DuelSpec:
    """What every pair of a duel shares (picklable: workers and Ray tasks receive it)."""

    variant: Variant
    first: str  # bot A
    second: str  # bot B
    run_seed: int
    sides: tuple[int, ...]  # per player
    sizes: tuple[int, ...]  # cards per seat of a deal
    stack: int  # deals stacked at first (the records do not depend on it)

    @functools.cached_property
    def run_id(self) -> str:
        """The run's fingerprint: the variant, both bots and the seed (never a simulate
        run's: the bots are named as a duel)."""
        return RunSpec(self.variant, ("duel", self.first, self.second), self.run_seed).run_id

    def a_players(self, half: int) -> list[int]:
        """The players bot A plays in half 0 or 1 (side 0, then side 1)."""
        return [player for player, side in enumerate(self.sides) if side == half]

    def lineup(self, half: int) -> tuple[str, ...]:
        """The bot of each player in half 0 or 1."""
        return tuple(self.first if side == half else self.second for side in self.sides)


def duel_spec(
    variant: Variant, first: str, second: str, run_seed: int, stack: int | None = None
) -> tuple[DuelSpec, Game]:
    """The spec of a duel of ``variant``, and a game of it (its first hand: the score
    lines, the players and the hand sizes are read from it)."""
    game = Game(variant, seed=0)
    started = next(event for event in game.event_log if isinstance(event, HandStarted))
    lines = line_players(variant, game)
    # A match of a fixed number of hands never needs more deals.
    default = first_stack(variant)
    spec = DuelSpec(
        variant,
        first,
        second,
        run_seed,
        player_sides(lines, game.players),
        tuple(started.hand_sizes),
        stack or default,
    )
    return spec, game


def play_pair(spec: DuelSpec, index: int) -> Record:
    """Play deal ``index`` of the duel twice (A on side 0, then on side 1) on the same
    stacked deals; the pair's record holds both halves."""
    seed = match_seed(spec.run_seed, index)
    dealing = Dealing(tuple(spec.variant.deck_codes), spec.sizes)

    def half(number: int) -> Any:
        run = RunSpec(spec.variant, spec.lineup(number), spec.run_seed)
        return lambda deals: play_record(run, index, deals)

    halves = play_on_stack([half(0), half(1)], [dealing, dealing], seed, spec.stack)
    return {
        "run": spec.run_id,
        "run_seed": spec.run_seed,
        "index": index,
        "seed": seed,
        "halves": [
            {"bots": list(spec.lineup(half)), "a_players": spec.a_players(half)}
            | {key: record[key] for key in KEPT}
            for half, record in enumerate(halves)
        ],
    }


def play_duel_batch(spec: DuelSpec, indices: Sequence[int]) -> list[Record]:
    """The records of pairs ``indices``, in that order (a worker's task)."""
    return [play_pair(spec, index) for index in indices]


# --------------------------------------------------------------------------- figures


def side_view(record: Record, side: int, lines: Sequence[tuple[int, ...]]) -> Record:
    """What bot A (``side`` 0) or B (1) did over both matches of a pair: sums over the
    halves of the figures' numerators and denominators."""
    view: Record = {
        "score": 0.0,
        "card_points": 0.0,
        "hands": 0,
        "player_hands": 0,
        "won": 0.0,
        "matches": 0,
        "tichu": [0, 0],
        "grand_tichu": [0, 0],
        "first_out": 0,
        "bombs": 0,
    }
    for half in record["halves"]:
        a_players = set(half["a_players"])
        mine = a_players if side == 0 else set(range(len(half["bombs"]))) - a_players
        own = side_lines(lines, half, side)
        view["score"] += sum(half["totals"][line] for line in own) / len(own)
        view["card_points"] += sum(half["card_points"][line] for line in own) / len(own)
        view["hands"] += half["hands"]
        view["player_hands"] += half["hands"] * len(mine)
        view["won"] += match_share(lines, half, side)
        view["matches"] += 1
        for player in mine:
            for key in ("tichu", "grand_tichu"):
                view[key][0] += half[key][player][0]
                view[key][1] += half[key][player][1]
            view["first_out"] += half["first_out"][player]
            view["bombs"] += half["bombs"][player]
    return view


def side_lines(lines: Sequence[tuple[int, ...]], half: Record, side: int) -> list[int]:
    """The score lines of bot A's (``side`` 0) or B's (1) players in a half (a line of
    no player, as a dummy's, is no side's)."""
    a_players = set(half["a_players"])
    return [
        line
        for line, members in enumerate(lines)
        if members and (set(members) <= a_players) == (side == 0)
    ]


def match_share(lines: Sequence[tuple[int, ...]], half: Record, side: int) -> float:
    """A side's share of a match: 1 if only its lines won, half if both sides' did."""
    winners = set(half["winners"])
    own = bool(winners.intersection(side_lines(lines, half, side)))
    other = bool(winners.intersection(side_lines(lines, half, 1 - side)))
    return (0.5 if other else 1.0) if own else 0.0


def figures(variant: Variant) -> list[Figure]:
    """What the duel reports, per side (a view of :func:`side_view`)."""
    score = "place score per hand (E-5)" if variant.seating.by_rank else "score per hand"
    per = "per player-hand"

    def ratio(key: str, over: str) -> Any:
        return lambda view: (view[key], view[over])

    return [
        Figure(score, ratio("score", "hands"), scale=SIGNED),
        Figure("matches won", ratio("won", "matches"), scale=SHARE),
        Figure("card points per hand", ratio("card_points", "hands"), scale=SIGNED),
        Figure(f"first out {per}", ratio("first_out", "player_hands"), scale=SHARE),
        Figure(f"Tichu calls {per}", lambda v: (v["tichu"][0], v["player_hands"])),
        Figure("Tichu success", lambda v: (v["tichu"][1], v["tichu"][0]), scale=SHARE),
        Figure("Grand Tichu calls/player-hand", lambda v: (v["grand_tichu"][0], v["player_hands"])),
        Figure(
            "Grand Tichu success",
            lambda v: (v["grand_tichu"][1], v["grand_tichu"][0]),
            scale=SHARE,
        ),
        Figure(f"bombs {per}", ratio("bombs", "player_hands")),
    ]


@dataclass
class DuelTally:
    """The pairs added so far: each side's view of each pair, and the match counts."""

    lines: list[tuple[int, ...]]
    views: tuple[list[Record], list[Record]] = field(default_factory=lambda: ([], []))
    wins: list[int] = field(default_factory=lambda: [0, 0, 0])  # A, B, shared
    pairs: list[int] = field(default_factory=lambda: [0, 0, 0])  # A both, B both, split
    hands: int = 0

    @property
    def count(self) -> int:
        return len(self.views[0])

    def add(self, record: Record) -> None:
        a_view, b_view = (side_view(record, side, self.lines) for side in (0, 1))
        self.views[0].append(a_view)
        self.views[1].append(b_view)
        self.hands += a_view["hands"]
        shares = [match_share(self.lines, half, 0) for half in record["halves"]]
        for share in shares:
            self.wins[0 if share == 1 else 1 if share == 0 else 2] += 1
        self.pairs[0 if shares == [1, 1] else 1 if shares == [0, 0] else 2] += 1

    def differences(self, chosen: list[Figure]) -> list[Difference]:
        """Per figure, B − A ("second minus first") with its 95% interval, paired by
        deal."""
        return figure_differences(chosen, self.views[0], self.views[1])


# --------------------------------------------------------------------------- the command


def duel(
    first: str,
    second: str,
    games: int,
    variant: str = "standard",
    workers: int = 1,
    seed: int | None = None,
    overrides: list[str] | None = None,
    allow_imports: bool = False,
    chart: str | Path | None = None,
    out: str | Path | None = None,
    quiet: bool = False,
    backend: str = "local",
    address: str | None = None,
    console: Console | None = None,
) -> int:
    """Play ``games`` deals twice each, bot ``first`` (A) against ``second`` (B) with the
    sides swapped; print the table of B − A (and draw ``chart``). 0; 2 for a bad
    request; 130 when interrupted (the finished pairs are summed up and kept)."""
    # Off a terminal (a file, a pipe) the table is not folded to 80 columns.
    console = console or Console(width=None if sys.stdout.isatty() else 120)
    problem = request_problem([first, second], chart, games, workers, "deals")
    if problem is not None:
        return _error(problem)  # before any work starts
    # A bad variant, override or plugin fails here, in this process: a game is built.
    reference = load_variant(
        variant, overrides=parse_overrides(overrides or []), allow_imports=allow_imports
    )
    path = Path(out) if out is not None else None
    try:
        run_seed = choose_run_seed(seed, path)
    except RunError as error:
        return _error(str(error))
    spec, table = duel_spec(reference, first, second, run_seed)
    tally = DuelTally(line_players(reference, table))
    try:
        outcome = play_run(
            spec,
            games,
            lambda record, fresh: tally.add(record),
            command="duel",
            described=f"{games} deals of {reference.name}, each played twice",
            path=path,
            workers=workers,
            backend=backend,
            address=address,
            quiet=quiet,
            batch=play_duel_batch,
            largest=LARGEST_BATCH,
        )
    except RunError as error:
        return _error(str(error))
    failed = None
    if tally.count:
        chosen = figures(reference)
        differences = tally.differences(chosen) if tally.count >= 2 else []
        if differences:
            console.print(_table(spec, table, tally, chosen, differences))
        notes = [
            f"{tally.count} deals, each played twice ({2 * tally.count} matches, "
            f"{tally.hands} hands); {outcome.elapsed:.1f} s, {outcome.workers} worker(s), "
            f"{backend}. 95% intervals: Student's t over the deals (the pair of matches is "
            "the unit), on a scale that keeps each figure in its range (docs/bots.md)."
        ]
        if tally.count < MIN_PAIRS:
            notes.append(small_sample_warning(tally.count))
        if outcome.resumed:
            notes.append(f"{outcome.resumed} of the pairs were read from {path}")
        row = headline([f.name for f in chosen], differences) if differences else None
        if chart is not None and row is not None:
            failed = save_chart(
                chart,
                f"{first} (A) against {second} (B) in duplicate, {reference.name}: "
                f"{tally.count} deals",
                chosen,
                differences,
                row,
                tally.views[0],
                tally.views[1],
                pair_word="deals",
            )
            if failed is None:
                notes.append(f"chart: {chart}")
        console.print(Text("\n".join(printable(note) for note in notes)))
    if outcome.interrupted:
        print(interrupted_message("duel", tally.count, "pairs", path), file=sys.stderr)
        return INTERRUPTED
    if failed is not None:
        print(f"tichu duel: {failed}", file=sys.stderr)
        return 1
    return 0


def sides_text(spec: DuelSpec, table: Game, lines: Sequence[tuple[int, ...]]) -> str:
    """Who plays whom: the score lines of each side in the first match."""
    names = [
        ", ".join(table.score_lines[line] for line, m in enumerate(lines) if m and m[0] in group)
        for group in (spec.a_players(0), spec.a_players(1))
    ]
    return f"first A on {names[0]} and B on {names[1]}, then swapped"


def _table(
    spec: DuelSpec,
    table: Game,
    tally: DuelTally,
    chosen: list[Figure],
    differences: list[Difference],
) -> Group:
    a, b = spec.first, spec.second
    title = (
        f"{a} (A) against {b} (B) in duplicate: {tally.count} deals of "
        f"{spec.variant.name}, run seed {spec.run_seed}"
    )
    grid = difference_table(title, chosen, differences)
    won, lost, shared = tally.wins
    both, none, split = tally.pairs
    counts = Text(
        safe_text(sides_text(spec, table, tally.lines)).plain
        + f"\nmatches: A won {won}, B won {lost}, shared {shared}; deals: A won both "
        f"matches {both}, B both {none}, split {split}"
    )
    return Group(grid, counts)
