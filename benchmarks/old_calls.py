"""The search bot of before issue 41 with the bomb limits of the shipped bot: a duel of
the shipped bot against it measures the calls apart from the bombs.

    git show 133d8de:tichu_core/frontends/bots/search.py > old_search_133d8de.py
    .venv/bin/python benchmarks/bot_duel.py search benchmarks/old_calls.py:OldCalls \\
        --pairs 1800 --seed 1 --workers 2 --out calls_only.jsonl

Against the search bot of before itself (``old_search_133d8de.py:SearchBot``) the
shipped bot differs in two things at once: its calls (weighed apart from the plays, on
more worlds, at the turns before its first play; rollouts that push as players do) and
its bombs (none on its own or its partner's trick, none on an opponent's holding more
than two cards: docs/bots.md, "Bombs"). ``OldCalls`` is the bot of before, its calls
and rollouts unchanged, with the shipped bot's bomb limits, out of turn and on its turn
alike; what is left between the two is the calls. The old source is read from
``old_search_133d8de.py`` in the current directory, or from the path in
``TICHU_OLD_SEARCH``.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import tichu_core as tc
from tichu_core import Action, LegalActions, Observation
from tichu_core.frontends.bots.search import SearchBot


def _old_search() -> Any:
    """The search module of 133d8de, loaded from its file once."""
    name = "tichu_old_search_133d8de"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(os.environ.get("TICHU_OLD_SEARCH", "old_search_133d8de.py"))
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: the search bot of 133d8de is read from here; make it with "
            "`git show 133d8de:tichu_core/frontends/bots/search.py > old_search_133d8de.py` "
            "(or name another file in TICHU_OLD_SEARCH)"
        )
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# The shipped bot's limits, asked of a shipped bot itself (``SearchBot._bombs_searched``
# with its defaults: no bomb on its own or its partner's trick, none on an opponent's
# holding more than ``OPPONENT_BOMB_CARDS`` cards), so that they stay one rule.
bombs_searched = SearchBot()._bombs_searched


@functools.cache
def _old_calls_class() -> Any:
    """The old bot's class with the shipped bomb limits, made once."""

    class OldCallsBot(_old_search().SearchBot):  # type: ignore[misc]
        name = "old-calls"

        def offer(
            self, observation: Observation, actions: LegalActions, seat: int
        ) -> Action | None:
            if not bombs_searched(observation, seat):
                return None
            answer: Action | None = super().offer(observation, actions, seat)
            return answer

        def _candidates(
            self, observation: Observation, actions: LegalActions, seat: int
        ) -> list[tuple[Action, ...]]:
            found: list[tuple[Action, ...]] = super()._candidates(observation, actions, seat)
            if bombs_searched(observation, seat):
                return found
            return without_bombs(found, actions)

    return OldCallsBot


def OldCalls(seed: int | None = None) -> Any:
    """The search bot of 133d8de (its calls, its rollouts) with the shipped bomb limits."""
    return _old_calls_class()(seed)


def without_bombs(
    candidates: list[tuple[Action, ...]], actions: LegalActions
) -> list[tuple[Action, ...]]:
    """The old bot's candidates less its bombs, as the shipped bot leaves them out; its
    Tichu call goes with the first candidate left, as it went with the first before.
    Where nothing but bombs is left to play (a wish can do that), they all stay."""
    fixed = len(actions.fixed)
    bombs = {actions[fixed + i] for i, play in enumerate(actions.combinations) if play.is_bomb}
    plain = [c for c in candidates if not any(a in bombs or isinstance(a, tc.Tichu) for a in c)]
    if not bombs or not plain:
        return candidates
    called = [c for c in candidates if any(isinstance(a, tc.Tichu) for a in c)]
    if called:
        plain.append((called[0][0], plain[0][0]))
    return plain
