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
from tichu_core.game.actions import (
    Action,
    action_to_dict,
    read_json,
    show_input,
    validation_problems,
)
from tichu_core.game.dealing import checked_seed
from tichu_core.variants.models import Variant

SAVE_FORMAT = "tichu-game"
# 2: issue 23 changed how some games unfold from the same seed and actions: the
# Threechu shuffle passes the other way (T3-8), the Wretch deals Grand Seigneur and
# any table seated by rank (GS-3), and the election hand scores nothing (E-5).
SAVE_VERSION = 2
# Saves of version 1 replay exactly, unless they are of a game those changes touch:
# one with a dummy seat (Threechu's seating, T3-8) or seated by rank (the dealer, GS-3,
# and Grand Seigneur's scores, E-5). Told by the options, not by plugin names (the
# engine names none).
_OLDEST_VERSION = 1


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


_KEYS = ("format", "version", "variant", "seed", "deals", "actions")


def load_game(text: object, *, allow_imports: bool = False) -> SavedGame:
    """Read a save; InvalidAction naming what is wrong with it.

    As strict as the actions: exactly the keys `dump_game` writes, each of its type
    (a bool is no version or seed, a deal holds card codes), so that a save is read
    one way only and a game restored from it saves the same again.
    """
    data = read_json(text, "a saved game")
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise InvalidAction(f"not a saved {SAVE_FORMAT!r} game")
    version = data.get("version")
    if type(version) is not int or not _OLDEST_VERSION <= version <= SAVE_VERSION:
        raise InvalidAction(
            f"saved game version {show_input(version)}; this engine reads "
            f"{_OLDEST_VERSION} to {SAVE_VERSION}"
        )
    missing = [key for key in _KEYS if key not in data]
    unknown = [key for key in data if key not in _KEYS]
    if missing or unknown:
        raise InvalidAction(
            "a saved game has exactly the keys "
            + ", ".join(_KEYS)
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + (f"; unknown: {show_input(unknown)}" if unknown else "")
        )
    seed, deals, actions = data["seed"], data["deals"], data["actions"]
    if type(seed) is not int:
        raise InvalidAction(f"a saved game's seed is an int, got {show_input(seed)}")
    checked_seed(seed)
    if not isinstance(actions, list):
        raise InvalidAction(f"a saved game's actions are a list, got {show_input(actions)}")
    if not _is_deal_list(deals):
        raise InvalidAction(
            "a saved game's deals are a list of deals, each a list of hands, each a list "
            f"of card codes; got {show_input(deals)}"
        )
    if not isinstance(data["variant"], dict):
        raise InvalidAction("a saved game holds its variant as an object")
    variant_data = dict(data["variant"])
    variant_data["allow_imports"] = allow_imports
    try:
        variant = Variant.model_validate(variant_data)
    except ValidationError as error:
        raise InvalidAction(
            f"the saved game's variant is invalid: {validation_problems(error)}"
        ) from None
    if version == 1:
        _check_replays_as_before(variant)
    return SavedGame(variant=variant, seed=seed, deals=deals or None, actions=actions)


def _check_replays_as_before(variant: Variant) -> None:
    """A version 1 save is refused where this engine would replay it into another game
    (see SAVE_VERSION), never loaded into a different game silently."""
    if variant.teams.dummy or variant.seating.by_rank:
        why = (
            "its variant has a dummy seat (Threechu)"
            if variant.teams.dummy
            else "its variant seats the table by rank (Grand Seigneur)"
        )
        raise InvalidAction(
            f"saved game version 1 cannot be replayed: {why}, which changed in version 2 "
            "(T3-8: the Threechu shuffle passes to the left; GS-3: the Wretch deals; E-5: "
            "the first Grand Seigneur hand scores nothing), so its actions would make "
            "another game; finish it with the engine that saved it"
        )


def _is_deal_list(deals: object) -> bool:
    return isinstance(deals, list) and all(
        isinstance(deal, list)
        and all(
            isinstance(hand, list) and all(isinstance(card, str) for card in hand) for hand in deal
        )
        for deal in deals
    )
