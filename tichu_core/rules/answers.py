"""The values hooks answer with: seating, exchanges, refusals, hand scores, outcomes.

They live with the hook specifications, not in the state machine, so that a
plugin (and the standard rules) can build them without importing the game.
Each is checked by the rulebook where it is received (:mod:`tichu_core.rules.rulebook`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


@dataclass(frozen=True)
class Seating:
    """Who sits where for a hand, and who deals (S-DEAL-3, T3-8, GS-5).

    ``players[seat]`` is the player at that seat, None for a dummy seat. Every
    player of the table sits exactly once.
    """

    players: list[int | None]
    dealer: int


@dataclass(frozen=True)
class Refusal:
    """A "no" that says why: the rule id of docs/rules.md and a sentence for the player."""

    rule: str
    reason: str


@dataclass(frozen=True)
class HandScore:
    """What a hand adds to each score line (``scores``), and how it came about."""

    scores: list[int]
    card_points: list[int] = field(default_factory=list)
    double_victory: bool = False
    details: dict[str, Any] = field(default_factory=dict)


class Termination(StrEnum):
    """Why a match ended."""

    TARGET_REACHED = "target_reached"  # S-GAME-1: a score line reached game.target
    HANDS_PLAYED = "hands_played"  # T3-8, GS-8: game.hands hands were played
    LORD_DECIDED = "lord_decided"  # GS-8: the Great Lord played no further hand
    VARIANT_RULE = "variant_rule"  # a plugin's own end of match


@dataclass(frozen=True)
class Outcome:
    """How a match ended (like python-chess's ``Outcome``): why, and the winning lines."""

    termination: Termination
    winners: tuple[int, ...]
