"""Simple bots that drive a Game through its public API only.

``RandomBot`` picks uniformly among the legal actions (declining calls unless
told otherwise); ``GreedyBot`` sheds its weakest cards and lets its partner's
tricks stand. Both are for simulations, tests and demos, not strong play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from tichu_core.cardplay.combinations import Combination
from tichu_core.game.actions import Action, GrandTichu, Pass, Play, Tichu
from tichu_core.game.legality import play_action
from tichu_core.game.match import Game


def _is_call(action: Action) -> bool:
    return isinstance(action, Tichu) or (isinstance(action, GrandTichu) and action.call)


class RandomBot:
    """Uniform among legal actions; calls (Tichu, Grand Tichu) with ``call_rate``."""

    name = "random"

    def __init__(self, seed: int | None = None, call_rate: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.call_rate = call_rate

    def choose(self, game: Game, seat: int) -> Action:
        actions = game.legal_actions(seat)
        count = len(actions)
        if not count:
            raise ValueError(f"seat {seat} has no legal action")
        rng = self.rng
        while True:
            action = actions[rng.randrange(count)]
            if not _is_call(action) or rng.random() < self.call_rate:
                return action
            if count == 1:
                return action


class GreedyBot:
    """Leads its lowest combination using the most cards, beats with the least it can,
    never beats its partner, bombs only to stop an opponent going out, and calls
    (Grand) Tichu on a strong hand. It reads only its observation and legal actions."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Action:
        actions = game.legal_actions(seat)
        view = game.observation(game.controller(seat))
        cards = view.hands.get(seat, view.hand)
        strong = _strength(cards) >= (5 if len(cards) <= 8 else 6)
        for action in actions.fixed:
            if _is_call(action) and strong:
                return action
        fixed = [a for a in actions.fixed if not _is_call(a)]
        plays = actions.combinations
        if not plays:
            if len(actions) > len(actions.fixed):  # pushes: any is as good as another here
                return actions[
                    len(actions.fixed) + self.rng.randrange(len(actions) - len(actions.fixed))
                ]
            options = [a for a in fixed if not isinstance(a, Pass)] or fixed
            return options[self.rng.randrange(len(options))]
        top_seat = view.top_seat
        partners = [
            s for s, team in enumerate(view.teams) if team == view.teams[seat] and s != seat
        ]
        can_pass = any(isinstance(a, Pass) for a in fixed)
        if can_pass and top_seat in partners:
            return Pass(seat)
        normal = [c for c in plays if not c.is_bomb]
        if not view.trick:
            # Shed many low cards at once; keep high cards for taking tricks later.
            best = min(normal or plays, key=lambda c: (c.rank > 10, -c.length, c.rank))
        elif normal:
            best = min(normal, key=lambda c: (c.rank, c.length))
        else:
            danger = top_seat is not None and view.hand_sizes[top_seat] <= 2
            if can_pass and not danger:
                return Pass(seat)
            best = min(plays, key=lambda c: (c.kind, c.length, c.rank))
        return _play_of(seat, best)


def _strength(cards: list[str]) -> int:
    """A rough count of trick-takers: Dragon and Phoenix 2, each Ace 1, a four of a kind 3."""
    ranks = [code[:-1] for code in cards if code not in ("MJ", "DOG", "PH", "DR")]
    fours = sum(1 for rank in set(ranks) if ranks.count(rank) == 4)
    return 2 * ("DR" in cards) + 2 * ("PH" in cards) + ranks.count("A") + 3 * fours


def _play_of(seat: int, combination: Combination) -> Play:
    return play_action(seat, combination)


BOTS: Mapping[str, Callable[[int | None], RandomBot | GreedyBot]] = {
    "random": lambda seed: RandomBot(seed),
    "greedy": lambda seed: GreedyBot(seed),
}


def make_bot(name: str, seed: int | None = None) -> RandomBot | GreedyBot:
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None


def play_match(
    game: Game,
    bots: list[RandomBot | GreedyBot],
    on_action: Callable[[Action, list[object]], None] | None = None,
    max_actions: int = 1_000_000,
) -> Game:
    """Drive ``game`` to its end: each waiting seat's controller's bot acts in turn."""
    for _ in range(max_actions):
        if game.is_over:
            return game
        seat = game.waiting_for[0]
        action = bots[game.controller(seat)].choose(game, seat)
        events = game.apply(action)
        if on_action is not None:
            on_action(action, list(events))
    raise RuntimeError(f"match did not end within {max_actions} actions")
