"""What a finished hand and a finished match leave behind: hand results and the outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from tichu_core.frozen import FrozenDict, FrozenList, frozen
from tichu_core.rules.answers import Outcome, Termination

__all__ = ["HandResult", "Outcome", "Termination"]

_Value = TypeVar("_Value")


def frozen_details(details: Mapping[str, Any]) -> FrozenDict[str, Any]:
    """A scoring plugin's details as a hand result keeps them (read-only all the way down)."""
    return FrozenDict({key: frozen(value) for key, value in details.items()})


def frozen_list(values: Sequence[_Value]) -> FrozenList[_Value]:
    """``values`` as a read-only list."""
    return FrozenList(values)


def _freeze_calls(calls: Mapping[int, str]) -> Mapping[int, str]:
    return FrozenDict(calls)


class HandResult(BaseModel):
    """What one finished hand added, and how it went: a read-only value (its lists
    and dicts refuse changes, see :class:`FrozenList`)."""

    model_config = ConfigDict(frozen=True)
    index: int
    scores: Annotated[Sequence[int], AfterValidator(frozen_list)] = Field(
        description="what the hand added to each score line"
    )
    out_order: Annotated[Sequence[int], AfterValidator(frozen_list)] = Field(
        description=(
            "every seat ranked: the seats in the order they went out, then those still "
            "holding cards when the hand ended, in play order from the seat after the last "
            "one out"
        )
    )
    players: Annotated[Sequence[int | None], AfterValidator(frozen_list)] = Field(
        description="the player at each seat (None: a dummy)"
    )
    card_points: Annotated[Sequence[int], AfterValidator(frozen_list)]
    double_victory: bool
    calls: Annotated[Mapping[int, str], AfterValidator(_freeze_calls)] = Field(
        description='seat -> "tichu", "grand_tichu" or "grand_tichu+tichu" (S-CALL-1)'
    )
    details: Annotated[Mapping[str, Any], AfterValidator(frozen_details)] = Field(
        default_factory=FrozenDict,
        description="what the scoring plugin reported beside the scores (HandScore.details)",
    )
