"""``tichu bench``: the performance figures of docs/performance.md.

Method: one process, one core, the same seeded inputs every run. Move
generation is timed per call with ``time.perf_counter_ns`` on hands seen for
the first time (nothing is cached between calls: the generator has no cache),
and the median is reported with the mean number of plays produced. Game speed
is whole random-bot hands played through the public API (``legal_actions``
then ``apply``), bots choosing uniformly among legal actions and declining
calls, a push drawn by index from the lazy sequence of pushes: of ``standard``,
and of every bundled variant. Play-outs (a search's rollouts) are mid-hand states of
random matches, each copied with ``copy(playout=True)`` and played to the end of its
hand by the same bots.
"""

from __future__ import annotations

import gc
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence, Sized
from dataclasses import dataclass
from typing import Any

from tichu_core import Game, GrandTichu, Tichu, list_variants, load_variant
from tichu_core.cardplay.cards import PHOENIX, deck_mask, iter_cards, mask_of, parse_cards
from tichu_core.cardplay.combinations import recognize
from tichu_core.cardplay.moves import MoveRules, forget_hands, lead_plays, plays


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


def _grand_seigneur(players: int) -> tuple[list[int], MoveRules]:
    """The deck and the move rules of a Grand Seigneur table (GS-2, GS-4), read from the
    variant so that the figures follow its options."""
    from tichu_core.rules.rulebook import Rulebook

    rulebook = Rulebook(load_variant("grand_seigneur", overrides={"players": players}))
    return list(iter_cards(rulebook.deck())), rulebook.play_rules.rules


def timed_calls(
    inputs: Sequence[Any],
    generate: Callable[[Any], Sized],
    forget: Callable[[], None] = forget_hands,
    warm_up: int = 100,
) -> tuple[list[int], list[int]]:
    """Each input timed once, cold, with the garbage collector off: the nanoseconds of
    every call and the size of every result (also the side-by-side harness's timer).
    ``forget`` runs untimed before each call: by default it empties our generator's
    per-hand cache, so that a hand timed twice is timed cold twice. The first
    ``warm_up`` inputs are generated once untimed before: that warms the interpreter's
    and the processor's caches, not our generator's, for ``forget`` still runs before
    each call (a generator that kept something in its input would be timed warm on
    those inputs: the peer's sorts a hand in place, which the harness gives it sorted)."""
    times: list[int] = []
    sizes: list[int] = []
    clock = time.perf_counter_ns
    gc.disable()
    try:
        for item in inputs[:warm_up]:
            forget()
            generate(item)
        for item in inputs:
            forget()
            start = clock()
            result = generate(item)
            times.append(clock() - start)
            sizes.append(len(result))
    finally:
        gc.enable()
    return times, sizes


def _time_each(inputs: list[int], generate: Callable[[int], Sized]) -> tuple[float, float]:
    """Median µs per call and mean result size, each input timed once (cold)."""
    times, sizes = timed_calls(inputs, generate)
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
    # GS-3: 109 cards round 7 seats give hands of 15 and 16; 55 round 5 seats, 11 each.
    seven_deck, seven_rules = _grand_seigneur(7)
    seven_hands = [mask_of(rng.sample(seven_deck, 16)) for _ in range(samples)]
    five_deck, five_rules = _grand_seigneur(5)
    five_hands = [mask_of(rng.sample(five_deck, 11)) for _ in range(samples)]

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
        (
            "lead, GS 7 players, 16-card two-deck hand",
            seven_hands,
            lambda h: lead_plays(h, seven_rules),
            None,
        ),
        ("lead, GS 5 players, 11-card hand", five_hands, lambda h: lead_plays(h, five_rules), None),
    ):
        median, size = _time_each(inputs, generate)
        figures.append(Figure(name, median, size, len(inputs), reference))
    return figures


@dataclass
class GameFigure:
    table: str
    hands: int
    seconds: float
    decisions: int
    reference: tuple[float, float] | None = None  # hands per second, µs per step

    @property
    def step_label(self) -> str:
        if self.table == "standard":
            return "µs per legal_actions + apply step"
        return f"µs per step ({self.table})"

    def lines(self) -> list[str]:
        per_hand = self.decisions / self.hands
        step_us = self.seconds / self.decisions * 1e6
        hands_ref = step_ref = ""
        if self.reference:
            hands_ref = f"; reference {self.reference[0]:.0f}/s"
            step_ref = f"  (reference {self.reference[1]:.0f} µs)"
        return [
            f"{f'random-bot hands per second ({self.table})':<44} "
            f"{self.hands / self.seconds:8.1f}"
            f"  ({self.hands} hands, {per_hand:.0f} decisions a hand{hands_ref})",
            f"{self.step_label:<44} {step_us:8.1f}{step_ref}",
        ]


def game_figures(
    hands: int = 300,
    seed: int = 7,
    variant_name: str = "standard",
    players: int | None = None,
    label: str | None = None,
) -> GameFigure:
    """Random-bot hands of a variant through the public API (calls declined); ``label``
    names the table in the figures (default: the variant's name)."""
    overrides: dict[str, object] = {"game.target": 0, "game.hands": hands}
    if players is not None:
        overrides["players"] = players
    variant = load_variant(variant_name, overrides=overrides)
    draw = random.Random(seed).random
    game = Game(variant, seed=seed)
    gc.disable()
    start = time.perf_counter()
    try:
        decisions = play_randomly(game, draw)  # a match that is over waits for nobody
    finally:
        elapsed = time.perf_counter() - start
        gc.enable()
    reference = (125.0, 69.0) if variant_name == "standard" else None
    table = label or variant_name
    return GameFigure(table, len(game.hand_results), elapsed, decisions, reference)


def _random_choice(actions: Any, rng: random.Random) -> Any:
    """The bench bots' choice: uniform by index, calls declined (drawn again). The index
    is ``int(random() * count)``: uniform but for a bias of about count / 2**53, and a
    third of ``randrange``'s cost (which is Python code around ``getrandbits``)."""
    count = len(actions)
    draw = rng.random
    while True:
        action = actions[int(draw() * count)]
        # Exact types (a listing holds no subclasses): cheaper than isinstance on a miss.
        kind = type(action)
        if not (kind is Tichu or (kind is GrandTichu and action.call)):
            return action


def playout_states(count: int = 200, seed: int = 7, every: int = 23) -> list[Any]:
    """Mid-hand states of random matches of ``standard`` (the bench's bots, a match of
    300 hands from ``seed``): the game at every ``every``-th decision that is an
    ordinary turn of the play phase, copied (with the match's history up to then)."""
    variant = load_variant("standard", overrides={"game.target": 0, "game.hands": 300})
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    states: list[Any] = []
    decisions = 0
    while len(states) < count:
        if game.is_over:
            seed += 1
            game = Game(variant, seed=seed)
        if game.turn is not None:
            decisions += 1
            if decisions % every == 0:
                states.append(game.copy())
        game.apply(_random_choice(game.legal_actions(game.waiting_for[0]), rng))
    return states


def play_out(state: Any, rng: random.Random) -> int:
    """One play-out: a play-out copy of ``state`` (``Game.copy(playout=True)``) played
    by the bench's random bots to the end of its hand; the decisions it took."""
    # A play-out ends with its hand (or the match): nobody is waited for then.
    return play_randomly(state.copy(playout=True), rng.random)


def play_randomly(game: Any, draw: Callable[[], float]) -> int:
    """The bench bots play ``game`` until it waits for nobody; returns the decisions.
    Each picks as :func:`_random_choice` does, inlined (a Python call per decision
    costs a twentieth of a play-out step)."""
    steps = 0
    while True:
        seats = game.waiting_for
        if not seats:
            return steps
        actions = game.legal_actions(seats[0])
        count = len(actions)
        while True:
            action = actions[int(draw() * count)]
            kind = type(action)
            if not (kind is Tichu or (kind is GrandTichu and action.call)):
                break
        game.apply(action)
        steps += 1


@dataclass
class PlayoutFigure:
    playouts: int
    steps: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.playouts / self.seconds

    @property
    def step_us(self) -> float:
        return self.seconds / self.steps * 1e6

    def lines(self) -> list[str]:
        return [
            f"{'play-outs per second (copy + random play)':<44} {self.per_second:8.1f}"
            f"  ({self.playouts} play-outs, {self.steps / self.playouts:.0f} decisions each)",
            f"{'µs per play-out step (copy included)':<44} {self.step_us:8.1f}",
        ]


def playout_figure(states: int = 200, rounds: int = 5, seed: int = 3) -> PlayoutFigure:
    """Each of ``states`` mid-hand states played out ``rounds`` times (gc off)."""
    chosen = playout_states(states)
    rng = random.Random(seed)
    steps = 0
    gc.disable()
    start = time.perf_counter()
    try:
        for _ in range(rounds):
            for state in chosen:
                steps += play_out(state, rng)
    finally:
        elapsed = time.perf_counter() - start
        gc.enable()
    return PlayoutFigure(states * rounds, steps, elapsed)


def variant_tables() -> list[tuple[str, int | None, str]]:
    """(variant, players or None, label) of every bundled variant's table, and Grand
    Seigneur also at 7 players (two decks, GS-2) and at 12 (the largest table)."""
    tables: list[tuple[str, int | None, str]] = [(name, None, name) for name in list_variants()]
    tables += [("grand_seigneur", 7, "GS, 7 players"), ("grand_seigneur", 12, "GS, 12 players")]
    return tables


def main(samples: int = 2000, hands: int = 300) -> int:
    # Checked before any figure: no median of no samples, no match of no hands.
    for name, value in (("samples", samples), ("hands", hands)):
        if value < 1:
            print(f"tichu bench: --{name} must be at least 1 (got {value})", file=sys.stderr)
            return 2
    from tichu_core.builds import is_compiled

    build = "compiled hot modules (mypyc)" if is_compiled() else "plain-Python modules"
    print(
        f"tichu bench — Python {platform.python_version()} ({sys.implementation.name}), "
        f"{platform.machine()}, one core, {build}"
    )
    print("move generation (median per call, cold, same seeded hands each run):")
    for figure in move_generation_figures(samples):
        print("  " + figure.line())
    print("full game (random bots, calls declined):")
    standard = game_figures(hands)
    for line in standard.lines():
        print("  " + line)
    print("play-outs (a search's rollouts: mid-hand states of random matches, each")
    print("copied with copy(playout=True) and played to the end of its hand by random bots):")
    for line in playout_figure(max(1, samples // 10)).lines():
        print("  " + line)
    # Every bundled variant, a third as many hands each (a Grand Seigneur hand takes
    # about three standard hands' decisions at 7 players).
    print("every variant (random bots, calls declined):")
    print(f"  {'table':<30} {'hands/s':>9} {'decisions/hand':>15} {'µs/decision':>12}")
    # A multiple of 3 hands: Threechu's shuffler changes every hand (T3-8).
    each = max(3, hands // 9 * 3)
    played = [
        game_figures(each, variant_name=name, players=players, label=label)
        for name, players, label in variant_tables()
    ]
    # Compared with standard's figure of the same run (same hands, same conditions).
    step = next(f.seconds / f.decisions for f in played if f.table == "standard")
    for table in played:
        per_step = table.seconds / table.decisions
        print(
            f"  {table.table:<30} {table.hands / table.seconds:9.1f} "
            f"{table.decisions / table.hands:15.0f} {per_step * 1e6:12.1f}"
            f"  ({per_step / step:4.2f}× standard's)"
        )
    return 0
