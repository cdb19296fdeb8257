"""What a finished hand and a finished match leave behind: hand results and the outcome."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tichu_core.rules.answers import Outcome, Termination

__all__ = ["HandResult", "Outcome", "Termination"]


class HandResult(BaseModel):
    """What one finished hand added, and how it went."""

    model_config = ConfigDict(frozen=True)
    index: int
    scores: list[int] = Field(description="what the hand added to each score line")
    out_order: list[int] = Field(
        description=(
            "every seat ranked: the seats in the order they went out, then those still "
            "holding cards when the hand ended, in play order from the seat after the last "
            "one out"
        )
    )
    players: list[int | None] = Field(description="the player at each seat (None: a dummy)")
    card_points: list[int]
    double_victory: bool
    calls: dict[int, str] = Field(
        description='seat -> "tichu", "grand_tichu" or "grand_tichu+tichu" (S-CALL-1)'
    )
    details: dict[str, Any] = Field(
        default_factory=dict,
        description="what the scoring plugin reported beside the scores (HandScore.details)",
    )
