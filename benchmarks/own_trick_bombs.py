"""Does a bomb on one's own trick pay? The search bot's choice at those moments, judged by
whole play-outs.

    .venv/bin/python benchmarks/own_trick_bombs.py [--hands 400] [--worlds 24] [--seed 1]
        [--over own|partner|opponent] [--opponent-bomb-cards N|any] [--on-turn]

Heuristic bots play one-hand matches of ``bsw`` (standard with the site's wish rule;
``bombs.own_trick`` is on, as in standard). Whenever the driver offers a seat a bomb on
its own trick (the top play is its own, S-BOMB-5), and whenever a seat may collect
its trick or bomb it on its turn (everyone passed), a search bot in that player's
place, searching such bombs as it did before (``own_trick_bombs=True``), is asked what
it would do (``offer`` or ``choose``, from the player's own record only). Where it
would bomb, both answers (its bomb, and letting the trick stand) are played out on
``--worlds`` worlds sampled from the same record (``tc.WorldSampler``) to the end of
the hand by heuristic bots **driven as at a table**: they are offered bombs out of
turn and calls, unlike the search bot's own rollouts, which never bomb out of turn.
The value of an answer is the seat's team score for the hand minus the other team's;
the two answers share the worlds and the bots' seeds (paired). Reported: how often the
moment came, how often the search bot bombed, and the mean gain of its bomb over
letting the trick stand, with a 95% interval over the moments. ``--over partner``
asks the same about a bomb out of turn on the partner's trick, ``--over opponent``
about one out of turn on an opponent's trick (the search bot's ``opponent_bomb_cards``
as shipped, or ``--opponent-bomb-cards``: ``any`` for the bot that searched every such
bomb). Where the search bot would not bomb, nothing is played out; the other side of
a comparison is the heuristic's answer at that moment, which is to let the trick
stand except for the heuristic's own few bombs out of turn on opponents.

``--on-turn`` (with ``--over partner`` or ``--over opponent``) asks instead about the
seat's own turn on such a trick, where a bomb is among its plays: the same search bot
chooses (its partner's trick searched as before the limits, an opponent's as
``--opponent-bomb-cards`` says), and where it bombs, its bomb is played out against
the heuristic's answer without a bomb (the heuristic's own play or pass, or a pass
where the heuristic would bomb too).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tichu_core as tc
from tichu_core import Action, LegalActions, Observation
from tichu_core.frontends.bots import HeuristicBot, SearchBot, make_bot, play_match
from tichu_core.frontends.bots.search import OPPONENT_BOMB_CARDS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bot_duel import is_listed_bomb  # a sibling script: the same check of a bomb

Z95 = 1.959964


def _value(world: tc.Game, answer: Action | None, seat: int, seed: int) -> float:
    """The seat's team lead for the hand when ``answer`` is applied in ``world`` and the
    hand is played out by heuristic bots at a table (offers and all)."""
    game = world.copy()
    if answer is not None:
        game.apply(answer)
    before = game.scores
    play_match(game, [make_bot("heuristic", seed + p) for p in range(game.players)])
    team = game.observation(game.controller(seat)).teams[seat]
    gained = [after - start for after, start in zip(game.scores, before, strict=True)]
    return gained[team] - sum(g for i, g in enumerate(gained) if i != team)


class _Watcher:
    """A heuristic bot that, offered a bomb on its own trick, asks a search bot too and
    judges the search bot's bomb (see the module docstring)."""

    name = "heuristic"

    def __init__(
        self,
        seed: int,
        worlds: int,
        moments: list[dict[str, Any]],
        over: str = "own",
        opponent_cards: int | None = OPPONENT_BOMB_CARDS,
        on_turn: bool = False,
    ) -> None:
        self.over = over
        self.on_turn = on_turn
        self.bot = HeuristicBot(seed)
        # The search bot as it was: searching bombs on its own side's tricks too.
        self.search = SearchBot(
            seed, own_trick_bombs=True, partner_bombs=True, opponent_bomb_cards=opponent_cards
        )
        self.worlds = worlds
        self.moments = moments
        self.rng = random.Random(seed)
        self.variant: tc.Variant | None = None
        self.player = 0
        self.events: Sequence[tc.Event] = ()

    def observe(self, variant: tc.Variant, player: int, events: Sequence[tc.Event]) -> None:
        self.variant, self.player, self.events = variant, player, events
        self.search.observe(variant, player, events)

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        if self.on_turn:
            top = observation.top_seat
            bombs = any(p.is_bomb for p in actions.combinations)
            if bombs and top is not None and top != seat and self._asked(observation, seat):
                self._judge_turn(observation, actions, seat)
            return self.bot.choose(observation, actions, seat)
        if (
            self.over == "own"
            and observation.top_seat == seat
            and any(p.is_bomb for p in actions.combinations)
        ):
            # Everyone passed on its trick: collect it (the pass) or bomb it.
            chosen = self.search.choose(observation, actions, seat)
            bomb = chosen if isinstance(chosen, tc.Play) else None
            self._judge(bomb, seat, collecting=True)
        return self.bot.choose(observation, actions, seat)

    def _judge_turn(self, observation: Observation, actions: LegalActions, seat: int) -> None:
        """On its turn: the search bot's choice; where it bombs, against the heuristic's
        answer without a bomb."""
        chosen = self.search.choose(observation, actions, seat)
        bomb = chosen if is_listed_bomb(chosen, actions) else None
        instead: Action | None = self.bot.choose(observation, actions, seat)
        if instead is not None and is_listed_bomb(instead, actions):
            instead = next((a for a in actions.fixed if isinstance(a, tc.Pass)), None)
            if instead is None:
                return  # a bomb or nothing (a wish to fulfil): no answer without a bomb
        self._judge(bomb, seat, instead=instead)

    def _judge(
        self,
        bomb: Action | None,
        seat: int,
        collecting: bool = False,
        instead: Action | None = None,
    ) -> None:
        """Where ``bomb`` is given: its value against ``instead`` (None: the heuristic's
        answer, a pass, collecting or not), on the same sampled worlds and seeds."""
        moment: dict[str, Any] = {"bombed": bomb is not None, "collecting": collecting}
        if bomb is not None:
            assert self.variant is not None
            sampler = tc.WorldSampler(self.variant, self.player)
            gains = []
            for _ in range(self.worlds):
                world = sampler.sample(self.events, self.rng)
                seed = self.rng.getrandbits(30)
                gains.append(_value(world, bomb, seat, seed) - _value(world, instead, seat, seed))
            moment["gain"] = statistics.fmean(gains)
        self.moments.append(moment)

    def _asked(self, observation: Observation, seat: int) -> bool:
        """Whether the trick's top play is of the kind ``--over`` asks about."""
        top = observation.top_seat
        assert top is not None
        own_side = observation.teams[top] == observation.teams[seat]
        return {"own": top == seat, "partner": top != seat and own_side}.get(
            self.over, not own_side
        )

    def offer(self, observation: Observation, actions: LegalActions, seat: int) -> Action | None:
        top = observation.top_seat
        if top is None or not any(p.is_bomb for p in actions.combinations):
            return self.bot.offer(observation, actions, seat)
        if not self.on_turn and self._asked(observation, seat):
            assert self.variant is not None
            self._judge(self.search.offer(observation, actions, seat), seat)
        return self.bot.offer(observation, actions, seat)


def run(
    hands: int,
    worlds: int,
    seed: int,
    over: str = "own",
    opponent_cards: int | None = OPPONENT_BOMB_CARDS,
    on_turn: bool = False,
) -> list[dict[str, Any]]:
    """The moments of ``hands`` one-hand matches (seeds ``seed``...)."""
    variant = tc.load_variant("bsw", overrides={"game.hands": 1, "game.target": 0})
    moments: list[dict[str, Any]] = []
    for index in range(hands):
        game = tc.Game(variant, seed=seed + index)
        bots = [
            _Watcher(seed * 97 + index * 4 + p, worlds, moments, over, opponent_cards, on_turn)
            for p in range(4)
        ]
        play_match(game, bots)
    return moments


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--worlds", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--over", choices=("own", "partner", "opponent"), default="own")
    parser.add_argument(
        "--opponent-bomb-cards",
        default=str(OPPONENT_BOMB_CARDS),
        help="the search bot's opponent_bomb_cards: a number, or 'any' for no limit",
    )
    parser.add_argument(
        "--on-turn",
        action="store_true",
        help="its bombs on its own turn over the partner's or an opponent's trick",
    )
    args = parser.parse_args(argv)
    if args.on_turn and args.over == "own":
        parser.error("--on-turn asks about a bomb over the partner's or an opponent's trick")
    limit = args.opponent_bomb_cards
    if limit != "any" and not limit.isdigit():
        parser.error(f"--opponent-bomb-cards: a number or 'any', got {limit!r}")
    opponent_cards = None if limit == "any" else int(limit)
    moments = run(args.hands, args.worlds, args.seed, args.over, opponent_cards, args.on_turn)
    whose = {"own": "one's own trick", "partner": "the partner's trick"}.get(
        args.over, "an opponent's trick"
    )
    for collecting in (False, True) if args.over == "own" else (False,):
        chances = [m for m in moments if m["collecting"] == collecting]
        what = "turns to collect" if collecting else "offers of a bomb out of turn on"
        if args.on_turn:
            what = "turns with a bomb among the plays on"
        _say(args, chances, f"{what} {whose}")
    return 0


def _say(args: argparse.Namespace, moments: list[dict[str, Any]], what: str) -> None:
    bombed = [m["gain"] for m in moments if m["bombed"]]
    against = "the heuristic without a bomb" if args.on_turn else "letting the trick stand"
    print(
        f"{args.hands} hands of bsw (heuristic bots): {len(moments)} {what}; "
        f"the search bot would bomb at {len(bombed)}"
    )
    if len(bombed) > 1:
        mean = statistics.fmean(bombed)
        half = Z95 * statistics.stdev(bombed) / math.sqrt(len(bombed))
        print(
            f"  its bomb against {against}, played out at a table "
            f"({args.worlds} worlds each): {mean:+.1f} points a moment "
            f"[{mean - half:+.1f}, {mean + half:+.1f}]"
        )


if __name__ == "__main__":
    sys.exit(main())
