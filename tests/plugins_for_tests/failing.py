"""A plugin for tests/test_game_api.py whose hooks raise on demand.

A hook raises while its name is in :data:`FAILING` (tests set it, e.g. with
``monkeypatch.setattr``); otherwise it answers None and the standard rules decide.
"""

from __future__ import annotations

from typing import Any

from tichu_core.rules.hookspecs import hookimpl

FAILING: set[str] = set()


def _maybe_fail(hook: str) -> None:
    if hook in FAILING:
        raise RuntimeError(f"{hook} failed on purpose")


@hookimpl
def tichu_trick_winner(state: Any) -> None:
    _maybe_fail("tichu_trick_winner")


@hookimpl
def tichu_score_hand(state: Any) -> None:
    _maybe_fail("tichu_score_hand")


@hookimpl
def tichu_next_hand(previous: Any) -> None:
    if previous is not None:  # the first hand is seated when the game is made
        _maybe_fail("tichu_next_hand")
