"""The registry of bots by name: the bundled ones, then those other packages register.

Bots are found by name (:func:`make_bot`, ``tichu simulate --bots``): the bundled
ones, then those other packages register in the entry-point group ``tichu.bots``
(the entry point names a callable taking a seed, usually the bot class).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from importlib.metadata import EntryPoint, entry_points

from tichu_core.frontends.bots.heuristic import HeuristicBot
from tichu_core.frontends.bots.protocol import Bot, BotFactory
from tichu_core.frontends.bots.search import (
    DEFAULT_ITERATIONS,
    DEFAULT_STEPS,
    DEFAULT_WORLDS,
    SearchBot,
)
from tichu_core.frontends.bots.simple import GreedyBot, RandomBot

__all__ = [
    "BOTS",
    "DEFAULT_BOT",
    "DESCRIPTIONS",
    "ENTRY_POINT_GROUP",
    "HARD_BUDGET",
    "LEVELS",
    "bot_descriptions",
    "bot_names",
    "make_bot",
    "unknown_bot_message",
]

# The levels people choose from, weakest first (docs/bots.md, "Levels"): each a bot
# configuration below, offered by name with a word on it by the web table and `tichu
# play`. `hard` is the search bot on a third of the default budget.
LEVELS = ("easy", "medium", "hard", "expert")
HARD_BUDGET = (32, 4, 3000)  # rollouts, worlds and play-out steps per decision

# The bundled bots by name: a seed (or None) -> a bot. The levels first, then the
# engine names (which keep working).
BOTS: Mapping[str, BotFactory] = {
    "easy": lambda seed: GreedyBot(seed),
    "medium": lambda seed: HeuristicBot(seed),
    "hard": lambda seed: SearchBot(
        seed, iterations=HARD_BUDGET[0], worlds=HARD_BUDGET[1], steps=HARD_BUDGET[2]
    ),
    "expert": lambda seed: SearchBot(seed),
    "random": lambda seed: RandomBot(seed),
    "greedy": lambda seed: GreedyBot(seed),
    "heuristic": lambda seed: HeuristicBot(seed),
    # The heuristic with its bombs out of turn switched off (its calls out of turn stay):
    # what out-of-turn bombs are worth, docs/bots.md.
    "heuristic-no-oot": lambda seed: HeuristicBot(seed, bombs_out_of_turn=False),
    "search": lambda seed: SearchBot(seed),
    # Four times the default budget (rollouts and steps), twice the worlds: slower
    # (about 0.2 s a decision), stronger.
    "search-strong": lambda seed: SearchBot(
        seed,
        iterations=4 * DEFAULT_ITERATIONS,
        worlds=2 * DEFAULT_WORLDS,
        steps=4 * DEFAULT_STEPS,
    ),
}

# A word on each bundled bot, for the places people choose one (the web table).
DESCRIPTIONS: Mapping[str, str] = {
    "easy": "level 1 of 4, for learning: plays its weakest cards first, beats with the "
    "least it can, calls only on very strong cards (the greedy bot)",
    "medium": "level 2 of 4, a sensible club player: plans its hand, calls Tichu on strong "
    "cards, keeps bombs for when they matter (the heuristic bot)",
    "hard": "level 3 of 4: thinks ahead by playing out the deals it cannot see, briefly "
    "(the search bot on a third of its thought, about 0.03 s a move)",
    "expert": "level 4 of 4, the strongest: the search bot at full thought, calls Grand "
    "Tichu and Tichu by its own search (about 0.06 s a move)",
    "random": "plays any legal move at random and never calls: for trying the rules",
    "greedy": "sheds its weakest cards, beats with the least it can, lets its partner's "
    "tricks stand, bombs only to stop an opponent going out",
    "heuristic": "a sensible player: plans how to get rid of its hand, keeps bombs for "
    "when they matter, calls Tichu on a strong hand, never overtakes its partner",
    "heuristic-no-oot": "the heuristic, but it never bombs out of turn",
    "search": "plans by playing out sampled worlds: deals the cards it cannot see at "
    "random many times, plays each deal out with the variant's own rules and picks the "
    "move that scores best (the strongest bot, about 0.05 s a move)",
    "search-strong": "the search bot with four times the thought (slower)",
}

# The bot used wherever none is named (demo, simulate, compare, the web table's
# "fill the free places with" and its stand-ins for people who left): the strongest
# that keeps a table's pace.
DEFAULT_BOT = "heuristic"

ENTRY_POINT_GROUP = "tichu.bots"
_loaded: dict[str, BotFactory] = {}  # registered bots already loaded, by name


def _registered() -> dict[str, EntryPoint]:
    """The bots other packages register (entry-point group ``tichu.bots``), by name; a
    bundled name stays the bundled bot."""
    found = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return {name: ep for name, ep in sorted(found.items()) if name not in BOTS}


def bot_names() -> list[str]:
    """Every bot name: the bundled ones, then the registered ones."""
    return [*BOTS, *_registered()]


def bot_descriptions() -> dict[str, str]:
    """A word on every bot by name (a registered bot: its entry point's value)."""
    return {
        **DESCRIPTIONS,
        **{name: f"registered ({entry.value})" for name, entry in _registered().items()},
    }


def unknown_bot_message(name: str) -> str:
    """What is wrong with the bot name ``name``: the known names, and the closest one."""
    known = bot_names()
    if not name:
        return f"a bot name is empty; known: {', '.join(known)}"
    message = f"unknown bot {name!r}; known: {', '.join(known)}"
    close = difflib.get_close_matches(name, known, n=1)
    return message + (f" (did you mean {close[0]!r}?)" if close else "")


def make_bot(name: str, seed: int | None = None) -> Bot:
    """The bot called ``name`` (bundled, or registered in ``tichu.bots``) with ``seed``;
    ValueError naming the known bots for an unknown name."""
    factory: Callable[[int | None], Bot] | None = BOTS.get(name) or _loaded.get(name)
    if factory is None:
        entry = _registered().get(name)
        if entry is None:
            raise ValueError(unknown_bot_message(name))
        try:
            factory = entry.load()
        except Exception as error:  # a broken package: say which, not a traceback
            raise ValueError(f"bot {name!r} ({entry.value}) cannot be loaded: {error}") from error
        # Simulations make a bot per player and match: the entry points are read once.
        _loaded[name] = factory
    bot = factory(seed)
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"bot {name!r} ({type(bot).__name__}) has no choose method")
    return bot
