"""What a bot is handed cannot change the game it plays in (issue 42, item 8).

A bot that plans on sampled worlds is shown the variant through ``observe``
(frontends/bots/driver.py, ``show_events``). Before, that was the game's own
``Variant``: a bot that changed a table in it (even through ``dict.__setitem__``,
past the read-only types) changed the game, whose ``to_json()`` then no longer
restored. Now each player's bots are shown a copy, made once per game and player.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

import tichu_core as tc
from tichu_core.frontends.bots import decide, play_match
from tichu_core.frontends.bots.search import SearchBot


def vandalise(thing: object, seen: set[int] | None = None) -> int:
    """Change every dict, list and model field reachable from ``thing``, by the routes
    that get past read-only types (``dict.__setitem__``, ``object.__setattr__``);
    the number of changes made."""
    seen = set() if seen is None else seen
    if id(thing) in seen:
        return 0
    seen.add(id(thing))
    changed = 0
    if isinstance(thing, BaseModel):
        for name, value in list(vars(thing).items()):
            changed += vandalise(value, seen)
            junk: Any = 99 if isinstance(value, int) and not isinstance(value, bool) else value
            if isinstance(value, str):
                junk = value + "?"
            elif isinstance(value, bool):
                junk = not value
            elif isinstance(value, tuple):
                junk = (*value, "forged")
            object.__setattr__(thing, name, junk)
            changed += 1
    elif isinstance(thing, dict):
        for value in list(thing.values()):
            changed += vandalise(value, seen)
        dict.__setitem__(thing, "forged", 1)
        for key in list(thing):
            if key != "forged":
                dict.__setitem__(thing, key, 99)
        changed += 1
    elif isinstance(thing, list):
        for value in list(thing):
            changed += vandalise(value, seen)
        list.append(thing, "forged")
        changed += 1
    elif isinstance(thing, tuple):
        for value in thing:
            changed += vandalise(value, seen)
    return changed


class Vandal:
    """A bot that wrecks the variant it is shown, then plays a random legal action."""

    name = "vandal"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.changes = 0

    def observe(self, variant: tc.Variant, player: int, events: list[tc.Event]) -> None:
        self.changes += vandalise(variant)

    def choose(self, observation: tc.Observation, actions: tc.LegalActions, seat: int) -> tc.Action:
        return actions[self.rng.randrange(len(actions))]


def test_a_bot_that_wrecks_the_variant_it_is_shown_changes_nothing_of_the_game() -> None:
    variant = tc.load_variant("grand_seigneur", {"players": 5, "game.hands": 2})
    pristine = variant.model_dump_json()
    game = tc.Game(variant, seed=3)
    bots = [Vandal(player) for player in range(variant.players)]
    play_match(game, bots)
    assert all(bot.changes > 50 for bot in bots)  # every bot changed its copy, often
    assert game.variant is variant and variant.model_dump_json() == pristine
    saved = game.to_json()
    restored = tc.Game.from_json(saved)
    assert restored.to_json() == saved
    assert restored.scores == game.scores and restored.is_over


def test_each_player_is_shown_its_own_copy_made_once_per_game() -> None:
    """A copy per game and player (the search bot keeps its sampler while the variant it
    is shown stays the same object): equal to the game's variant, never the game's."""
    from tichu_core.frontends.bots.driver import shown_variant

    game = tc.Game("standard", seed=1)
    first = shown_variant(game, 0)
    assert first == game.variant and first is not game.variant
    assert shown_variant(game, 0) is first
    assert shown_variant(game, 1) is not first
    assert shown_variant(tc.Game("standard", seed=1), 0) is not first


def test_the_search_bot_plans_on_its_copy() -> None:
    """The search bot samples its worlds from the copy it is shown: one sampler a game
    (the copy stays the same object), worlds of the copy, never of the game's variant."""
    variant = tc.load_variant("standard", {"game.hands": 1})
    game = tc.Game(variant, seed=2)
    bots = [SearchBot(player, iterations=4, worlds=2) for player in range(4)]
    samplers = [set[int]() for _ in bots]
    for _ in range(60):
        seat = game.waiting_for[0]
        player = game.controller(seat)
        game.apply(decide(bots[player], game, seat))
        if bots[player]._sampler is not None:
            samplers[player].add(id(bots[player]._sampler))
            assert bots[player]._sampler.variant is not variant
    assert all(len(kept) == 1 for kept in samplers)
    assert tc.Game.from_json(game.to_json()).to_json() == game.to_json()
