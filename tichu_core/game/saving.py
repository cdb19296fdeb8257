"""Saving games: a game is its variant, seed, stacked deals and actions.

Restoring replays the actions, which the engine does deterministically, so a
save holds no state of its own that could disagree with the rules. This
module reads and writes the JSON; :meth:`tichu_core.Game.from_json` replays it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from tichu_core.cardplay.cards import CARDS
from tichu_core.errors import InvalidAction
from tichu_core.game.actions import Action, action_to_dict
from tichu_core.variants.models import Variant

SAVE_FORMAT = "tichu-game"
SAVE_VERSION = 1


@dataclass(frozen=True)
class SavedGame:
    """A save read back: everything needed to replay the game."""

    variant: Variant
    seed: int
    deals: list[Any] | None
    actions: list[Any]


def dump_game(
    variant: Variant, seed: int, deals: Sequence[list[list[int]]], actions: Sequence[Action]
) -> str:
    """The save of a game (cards as codes), as compact JSON."""
    return json.dumps(
        {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "variant": variant.model_dump(mode="json", exclude={"allow_imports"}),
            "seed": seed,
            "deals": [[[str(CARDS[c]) for c in hand] for hand in deal] for deal in deals],
            "actions": [action_to_dict(a) for a in actions],
        },
        separators=(",", ":"),
    )


def load_game(text: str | bytes, *, allow_imports: bool = False) -> SavedGame:
    """Read a save; InvalidAction naming what is wrong with it."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise InvalidAction(f"a saved game is JSON: {error}") from error
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise InvalidAction(f"not a saved {SAVE_FORMAT!r} game")
    if data.get("version") != SAVE_VERSION:
        raise InvalidAction(
            f"saved game version {data.get('version')!r}; this engine reads {SAVE_VERSION}"
        )
    seed, actions, deals = data.get("seed"), data.get("actions", []), data.get("deals")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidAction(f"a saved game's seed is an int, got {seed!r}")
    if not isinstance(actions, list) or not isinstance(deals, list | None):
        raise InvalidAction("a saved game's actions and deals are lists")
    if not isinstance(data.get("variant"), dict):
        raise InvalidAction("a saved game holds its variant as an object")
    variant_data = dict(data["variant"])
    variant_data["allow_imports"] = allow_imports
    try:
        variant = Variant.model_validate(variant_data)
    except ValidationError as error:
        raise InvalidAction(f"the saved game's variant is invalid: {error}") from error
    return SavedGame(variant=variant, seed=seed, deals=deals or None, actions=actions)
