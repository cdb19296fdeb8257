"""The bot protocol: a bot decides from what its player may know, never from the Game.

A bot is any object with a ``name`` and a ``choose`` method::

    class MyBot:
        name = "mine"

        def choose(self, observation, actions, seat):
            return actions[0]

``observation`` is ``game.observation(game.controller(seat))``: what the player
acting for ``seat`` may know (its own hand, the Threechu dummy's for the
shuffler, hand sizes, the trick, calls, wish, scores...). ``actions`` is
``game.legal_actions(seat)``, the lazy sequence of every legal action (fixed
actions first, then the plays, then the pushes: see ``LegalActions``). The bot
answers with one of those actions, or (pushes only) a ``Push`` it wrote itself
and checked with ``in``. Only :func:`decide` holds the Game; the bot never
sees it.

The protocol's second, optional question is asked out of turn (the driver,
:mod:`tichu_core.frontends.bots.driver`, decides when)::

        def offer(self, observation, actions, seat):
            return None          # let it stand

``offer`` is asked when ``seat`` is not on turn and may act anyway: a bomb that
beats the new top play (S-BOMB-3; ``actions`` lists the bombs, and the Tichu call
if it is still open), or a Tichu call still open once the exchange is done,
before the first lead (S-CALL-1). The bot answers with one of ``actions``, or
``None`` to let the moment pass; it is not asked again about the same top play.
A bot without ``offer`` (written before it) is never asked: it never acts out of
turn, and everything else works as before.

A bot class is registered by name through the entry-point group ``tichu.bots``
(:mod:`tichu_core.frontends.bots`): the entry point names a callable taking a
seed (an int or None) and returning a bot, usually the class itself.

A bot that plans on sampled worlds needs more than the observation: the variant and
its player's events. Such a bot defines ``observe(variant, player, events)``, and
:func:`decide` calls it before each ``choose`` with ``game.variant``, the player
acting for the seat and ``game.events_for(player)`` (the player's whole record from
the start of the match: nothing another seat hides). Bots without it are asked as
before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from tichu_core import Action, Event, Game, LegalActions, Observation
from tichu_core.frontends.bots.driver import Driver, ask_offer, listens_to, show_events


class Bot(Protocol):
    """Decides for a seat from its player's observation and the seat's legal actions."""

    name: str

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action: ...


class OfferedBot(Bot, Protocol):
    """A bot that also answers offers out of turn (``None``: let it stand)."""

    def offer(
        self, observation: Observation, actions: LegalActions, seat: int
    ) -> Action | None: ...


# How a bot is made from a seed (a bot class taking ``seed`` is one).
BotFactory = Callable[[int | None], Bot]


def decide(bot: Bot, game: Game, seat: int) -> Action:
    """The action ``bot`` takes for ``seat``: it is given the observation of the player
    who controls the seat and the seat's legal actions, nothing else. A seat with a
    single legal action takes it without asking (there is nothing to decide)."""
    actions = game.legal_actions(seat)
    count = len(actions)
    if count == 1:
        return actions[0]
    if not count:
        raise ValueError(f"seat {seat} has no legal action")
    player = game.controller(seat)
    show_events(bot, game, player)  # optional: a bot that plans on sampled worlds
    return bot.choose(game.observation(player), actions, seat)


def play_match(
    game: Game,
    bots: Sequence[Bot] | Mapping[int, Bot],
    on_action: Callable[[Action, Sequence[Event]], None] | None = None,
    max_actions: int = 1_000_000,
) -> Game:
    """Drive ``game`` to its end: ``bots[player]`` acts for every seat that player
    controls (the Threechu shuffler's bot plays the dummy too), as the driver asks
    (:class:`~tichu_core.frontends.bots.driver.Driver`): each decision the game waits
    for through :func:`decide`, each chance out of turn through the bot's ``offer``
    (bots without one are never asked)."""
    driver = Driver(game, listens_to(bots))
    applied = 0
    while applied < max_actions:
        chance = driver.next()
        if chance is None:
            return game
        bot = bots[game.controller(chance.seat)]
        if chance.optional:
            answer = ask_offer(bot, game, chance)
            if answer is None:
                driver.decline(chance)
                continue
            action = answer
        else:
            action = decide(bot, game, chance.seat)
        events = driver.apply(action)
        applied += 1
        if on_action is not None:
            on_action(action, events)
    raise RuntimeError(f"match did not end within {max_actions} actions")
