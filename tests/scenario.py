"""The tests' own helpers, beside the kit every test of a variant may use.

The stacked deals and the one-line drivers (``deal``, ``start_play``, ``play``,
``refused``, ...) are the shipped kit, :mod:`tichu_core.testing.scenario` (read its
docstring), re-exported here for the tests that import them from this module. Only
what needs pytest or names the bundled variants stays here.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import pytest

import tichu_core as tc
from tichu_core.frontends.cli.commands import main
from tichu_core.testing.scenario import *  # noqa: F403  (re-exported for the tests)

SEATS = 4
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("j", "s", "p", "t")
SPECIALS = ("MJ", "DOG", "PH", "DR")
DECK = frozenset([r + s for r in RANKS for s in SUITS] + list(SPECIALS))

# Every bundled variant's table, and Grand Seigneur with the Great Lord deciding
# whether another hand is played (GS-8): what tests of the engine's machinery run on.
EVERY_TABLE: list[tuple[str, dict[str, object] | None]] = [
    ("standard", None),
    ("threechu", None),
    ("tientsin", None),
    ("grand_seigneur", {"players": 7}),
    ("grand_seigneur", {"players": 5, "game.lord_decides": True}),
]


def variant(overrides: Mapping[str, object] | None = None) -> tc.Variant:
    return tc.load_variant("standard", overrides=dict(overrides or {}))


def plugin_with(monkeypatch: pytest.MonkeyPatch, name: str, *impls: Callable[..., Any]) -> None:
    """Installs a plugin module ``name`` (a dotted path: a variant needs allow_imports)
    holding the given hook implementations, for this test only."""
    module = types.ModuleType(name)
    for impl in impls:
        setattr(module, impl.__name__, impl)
    monkeypatch.setitem(sys.modules, name, module)


class Recorded(tc.Game):
    """A game that keeps itself where the test can read it (monkeypatched in for the
    ``Game`` a runner builds: compare's and duel's pairs)."""

    games: ClassVar[list[tc.Game]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        Recorded.games.append(self)


def dealt(game: tc.Game) -> list[list[list[str]]]:
    """What each seat was dealt in each hand played (the cards_dealt events, in order)."""
    hands: list[list[list[str]]] = [[[] for _ in range(game.seats)] for _ in game.hand_results]
    for event in game.event_log:
        if isinstance(event, tc.CardsDealt) and event.hand < len(hands):
            hands[event.hand][event.seat] += event.cards
    return hands


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``tichu ARGV`` in this process: its exit code, what it printed, its errors."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def table_row(out: str, figure: str) -> list[str]:
    """The cells of a figure's row in the table ``tichu compare`` and ``tichu duel``
    print (columns are two spaces apart or more)."""
    line = next(line for line in out.splitlines() if line.strip().startswith(figure + "  "))
    return re.split(r"\s{2,}", line.strip())
