"""Bots: the bot protocol, the bundled bots and the registry of bots by name.

Bots follow the bot protocol (:mod:`~tichu_core.frontends.bots.protocol`): a bot is
asked ``choose(observation, actions, seat)`` with the observation of the player
acting for ``seat`` and the seat's legal actions, and answers with one of those
actions: plays and decisions are taken from the list, never built from cards.
Pushes are the one exception: the thousands of them are not searched; a bot may
write the push it prefers and checks it with ``in`` before giving it (a listed one
otherwise). So a bot works in every variant the engine can play: a player acting
for two seats (the Threechu shuffler and the dummy), the lead given after the Dog,
several cards pushed to one seat, two decks, up to twelve seats.

The rooms: ``protocol`` (what a bot is, and how it is asked), ``simple`` (``random``,
``greedy``), ``heuristic`` (rules of thumb), ``search`` (plans on sampled worlds),
``registry`` (bots by name, and those other packages register in the entry-point
group ``tichu.bots``).
"""

from tichu_core.frontends.bots.heuristic import HeuristicBot
from tichu_core.frontends.bots.protocol import Bot, BotFactory, decide, play_match
from tichu_core.frontends.bots.registry import (
    BOTS,
    DEFAULT_BOT,
    DESCRIPTIONS,
    ENTRY_POINT_GROUP,
    LEVELS,
    bot_descriptions,
    bot_names,
    make_bot,
    unknown_bot_message,
)
from tichu_core.frontends.bots.search import SearchBot
from tichu_core.frontends.bots.simple import GreedyBot, RandomBot

__all__ = [
    "BOTS",
    "DEFAULT_BOT",
    "DESCRIPTIONS",
    "ENTRY_POINT_GROUP",
    "LEVELS",
    "Bot",
    "BotFactory",
    "GreedyBot",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "bot_descriptions",
    "bot_names",
    "decide",
    "make_bot",
    "play_match",
    "unknown_bot_message",
]
