"""A plugin for tests/test_game_api.py whose hooks raise on demand.

A hook raises while its name is in :data:`FAILING` (tests set it, e.g. with
``monkeypatch.setattr``); otherwise it answers None and the standard rules decide.
"""

from __future__ import annotations

from tichu_core.rules.hookspecs import hookimpl
from tichu_core.rules.table import TableView

FAILING: set[str] = set()


def _maybe_fail(hook: str) -> None:
    if hook in FAILING:
        raise RuntimeError(f"{hook} failed on purpose")


@hookimpl
def tichu_trick_winner(table: TableView) -> None:
    _maybe_fail("tichu_trick_winner")


@hookimpl
def tichu_score_hand(table: TableView) -> None:
    _maybe_fail("tichu_score_hand")


@hookimpl
def tichu_next_hand(previous: TableView | None) -> None:
    if previous is not None:  # the first hand is seated when the game is made
        _maybe_fail("tichu_next_hand")


@hookimpl
def tichu_layout(table: TableView) -> None:
    if table.hand_index > 0:  # asked when a hand starts, after its cards were shuffled
        _maybe_fail("tichu_layout")
