"""The driver's cost (issue 30): N hands of standard, random bots, one way of four.

    python benchmarks/driver_cost.py MODE N

- ``old``: the loop before the driver (commit e1aa28a's ``play_match`` and
  ``decide``, copied here), the bots never asked out of turn;
- ``silent``: ``play_match`` through the driver, bots that answer offers, but the
  offers are let stand before the bot is handed anything (the driver's own work);
- ``decline``: the same, the bots handed every offer (observation, listing) and
  letting it stand: the same games as ``old``, so the difference is the offering alone;
- ``random``: the bundled random bots answering offers (bomb_rate 0.1): other games.

Measured by instruction counts, which do not depend on the machine's load: run each
mode under ``valgrind --tool=callgrind`` for N and 3N hands (pure Python build,
``TICHU_PURE_PYTHON=1``); instructions per hand = (I(3N) - I(N)) / 2N, which takes
out the start-up. docs/bots.md has the figures.
"""

from __future__ import annotations

import sys
from typing import Any

import tichu_core as tc
import tichu_core.frontends.bots.protocol as protocol
from tichu_core.frontends.bots.protocol import play_match
from tichu_core.frontends.bots.simple import RandomBot


class Declining(RandomBot):
    """A random bot that lets every offer stand (its random draws untouched)."""

    def offer(self, observation: Any, actions: Any, seat: int) -> None:
        return None


def old_decide(bot: Any, game: tc.Game, seat: int) -> tc.Action:  # e1aa28a's decide
    actions = game.legal_actions(seat)
    count = len(actions)
    if count == 1:
        return actions[0]
    if not count:
        raise ValueError(f"seat {seat} has no legal action")
    action: tc.Action = bot.choose(game.observation(game.controller(seat)), actions, seat)
    return action


def old_play_match(game: tc.Game, bots: list[Any], max_actions: int = 1_000_000) -> tc.Game:
    for _ in range(max_actions):  # e1aa28a's play_match (without on_action)
        if game.is_over:
            return game
        seat = game.waiting_for[0]
        game.apply(old_decide(bots[game.controller(seat)], game, seat))
    raise RuntimeError(f"match did not end within {max_actions} actions")


def main(mode: str, hands: int) -> None:
    variant = tc.load_variant("standard", overrides={"game.hands": 1, "game.target": 0})
    if mode == "silent":
        protocol.ask_offer = lambda bot, game, chance: None  # type: ignore[attr-defined]
    make = Declining if mode in ("decline", "silent") else RandomBot
    events = 0
    for index in range(hands):
        game = tc.Game(variant, seed=index)
        bots = [make(seed=index * 4 + player) for player in range(game.players)]
        if mode == "old":
            old_play_match(game, bots)
        else:
            play_match(game, bots)
        events += len(game.event_log)
    print(mode, hands, "hands,", events, "events")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
