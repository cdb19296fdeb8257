"""One bot match as a record: what ``tichu simulate`` and ``tichu compare`` count.

A run is a :class:`RunSpec` (the resolved variant, the bots cycled over the
players, the run's seed) and a number of matches. Match ``i`` is played with
the seed :func:`match_seed` derives from the run seed and ``i`` alone, so a
match's record depends on nothing else: not on which worker, process or
machine plays it, nor on how many there are, nor on the matches around it.

:func:`play_batch` is the function the workers run (locally or as a Ray task);
it returns plain records (JSON-ready dicts, one per match, see :func:`play_record`).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import tichu_core as tc
from tichu_core import Game, Variant
from tichu_core.frontends.bots import make_bot
from tichu_core.frontends.bots.driver import Chance, Driver, ask_offer, listens_to
from tichu_core.frontends.bots.protocol import decide

Record = dict[str, Any]
# Stacked deals for `Game`: per hand, per seat, the card codes in dealing order.
Deals = list[list[list[str]]]
SEED_BITS = 62
# 2: the bots are offered bombs and calls out of turn (frontends/bots/driver.py).
DRIVER_VERSION = 2


@dataclass(frozen=True)
class RunSpec:
    """What every match of a run shares (picklable: workers and Ray tasks receive it)."""

    variant: Variant
    bots: tuple[str, ...]
    run_seed: int

    @functools.cached_property
    def run_id(self) -> str:
        """A fingerprint of the run: the variant's every option, the bots and the seed.
        Records carry it, so that a file of another run is never resumed."""
        # The driver's version: records of matches played before bots were offered
        # chances out of turn (no "oot_bombs") are another run, never resumed into this.
        text = json.dumps(
            [
                self.variant.model_dump(mode="json", exclude={"source"}),
                self.bots,
                self.run_seed,
                DRIVER_VERSION,
            ],
            sort_keys=True,
        )
        return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def match_seed(run_seed: int, index: int) -> int:
    """The seed of match ``index`` of a run: a hash of both numbers, the same on every
    machine (neighbouring run seeds give unrelated matches)."""
    digest = hashlib.blake2b(f"tichu-match:{run_seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def bot_seed(seed: int, player: int) -> int:
    """The seed of player ``player``'s bot in the match of ``seed``."""
    return seed * 31 + player


class Witness(Protocol):
    """Watches a match as it is played (``tichu compare``'s count of what a rule did):
    told of the match's start, of every question before it is answered, and of every
    action applied."""

    def watch(self, game: Game, listens: Callable[[int], bool]) -> None: ...

    def before(self, game: Game, chance: Chance) -> None: ...

    def after(self, action: tc.Action, events: tc.Events) -> None: ...


def play_record(
    spec: RunSpec,
    index: int,
    deals: Deals | None = None,
    witness: Witness | None = None,
    seed: int | None = None,
) -> Record:
    """Play match ``index`` of the run to its end and return its record; ``deals``: the
    stacked deals of its hands (``tichu duel`` plays one set of deals twice); ``witness``
    sees every question and action; ``seed``: the match's seed (default: the run's
    seed of ``index``, :func:`match_seed`).

    Per score line: ``totals`` (final scores), ``card_points`` (won over the match);
    ``winners`` (score lines), ``termination``, ``hands``, ``actions``; per player
    (a dummy's figures go to the player acting for it): ``tichu`` and
    ``grand_tichu`` ([calls, calls made good: the caller went out first]),
    ``bombs`` played (``oot_bombs``: of them, out of turn), ``oot_tichu`` (Tichu calls
    made out of turn, at an offer of the driver), ``first_out`` (hands it went out first) and
    ``double_victories`` (hands its team went out first and second, S-SCORE-2).
    Per score line, ``square_scores``: the sum of the squares of its hand scores (the
    spread of the score per hand); ``call_points``: [points won, points lost] by
    Tichu and Grand Tichu calls over the match, at the variant's worth of a call."""
    seed = match_seed(spec.run_seed, index) if seed is None else seed
    game = Game(spec.variant, seed=seed, deals=deals)
    players = game.players
    names = spec.bots
    bots = [make_bot(names[p % len(names)], bot_seed(seed, p)) for p in range(players)]
    calls: list[tuple[int, int, int, str]] = []  # hand, seat, player, kind
    bombs = [0] * players
    oot_bombs = [0] * players
    oot_tichu = [0] * players
    dummies: dict[tuple[int, int], int] = {}  # (hand, seat without a player) -> controller
    steps = 0
    listens = listens_to(bots)
    driver = Driver(game, listens)
    if witness is not None:
        witness.watch(game, listens)
    while (chance := driver.next()) is not None:
        seat = chance.seat
        player = game.controller(seat)
        if witness is not None:
            witness.before(game, chance)
        if chance.optional:
            answer = ask_offer(bots[player], game, chance)
            if answer is None:
                driver.decline(chance)
                continue
            action = answer
        else:
            action = decide(bots[player], game, seat)
        hand = game.hand_index
        if game.player_at(seat) is None:
            dummies[hand, seat] = player
        events = driver.apply(action)
        if witness is not None:
            witness.after(action, events)
        steps += 1
        if isinstance(action, tc.Tichu):
            calls.append((hand, seat, player, "tichu"))
            oot_tichu[player] += chance.optional
        elif isinstance(action, tc.GrandTichu) and action.call:
            calls.append((hand, seat, player, "grand_tichu"))
        elif isinstance(action, tc.Play) and any(getattr(e, "bomb", False) for e in events):
            bombs[player] += 1
            oot_bombs[player] += chance.optional
    results = game.hand_results
    tichu = [[0, 0] for _ in range(players)]
    grand = [[0, 0] for _ in range(players)]
    call_points = [0, 0]
    worth = {"tichu": spec.variant.calls.tichu_points}
    worth["grand_tichu"] = spec.variant.calls.grand_tichu_points
    for hand, seat, player, kind in calls:
        made = int(results[hand].out_order[0] == seat)
        tally = tichu if kind == "tichu" else grand
        tally[player][0] += 1
        tally[player][1] += made
        call_points[1 - made] += worth[kind]
    first_out = [0] * players
    doubles = [0] * players
    card_points = [0] * len(game.score_lines)
    square_scores = [0] * len(game.score_lines)
    for result in results:
        square_scores = [a + b * b for a, b in zip(square_scores, result.scores, strict=True)]
        first = result.out_order[0]
        owner = result.players[first]
        if owner is None:
            owner = dummies.get((result.index, first))
        if owner is not None:
            first_out[owner] += 1
            doubles[owner] += int(result.double_victory)
        card_points = [a + b for a, b in zip(card_points, result.card_points, strict=True)]
    outcome = game.outcome
    assert outcome is not None  # the loop ends with the match
    return {
        "run": spec.run_id,
        "run_seed": spec.run_seed,
        "index": index,
        "seed": seed,
        "totals": list(game.scores),
        "winners": list(outcome.winners),
        "termination": outcome.termination.value,
        "hands": len(results),
        "actions": steps,
        "card_points": card_points,
        "tichu": tichu,
        "grand_tichu": grand,
        "bombs": bombs,
        "oot_bombs": oot_bombs,
        "oot_tichu": oot_tichu,
        "first_out": first_out,
        "double_victories": doubles,
        "square_scores": square_scores,
        "call_points": call_points,
    }


def play_batch(spec: RunSpec, indices: Sequence[int]) -> list[Record]:
    """The records of matches ``indices`` of the run, in that order (a worker's task)."""
    return [play_record(spec, index) for index in indices]
