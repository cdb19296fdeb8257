"""Which build of the hot modules runs: compiled (mypyc) or the plain source.

The modules of :data:`COMPILED` (cards and moves, the match and the hand state
machine, the referee, dealing, event building, the rulebook, the play rules, the
standard rules, the table view) may be compiled with mypyc at install time
(setup.py reads the list from here); the plain source always stays beside them.
Python loads the source instead of a compiled module when ``TICHU_PURE_PYTHON=1``
is set (so the same tests run against both builds), and when any source was edited
after its module was compiled: a stale build would run old code, and the compiled
modules are one group that call each other natively, so then every one of them
runs from source (``make`` rebuilds them). This module must not import any of them:
``tichu_core/__init__.py`` imports it first, to install the finder.
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import (
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    ModuleSpec,
    SourceFileLoader,
)
from types import ModuleType

# The compiled modules, as paths from the project root (setup.py reads this literal).
COMPILED = (
    "tichu_core/cardplay/cards.py",
    "tichu_core/cardplay/combinations.py",
    "tichu_core/cardplay/moves.py",
    "tichu_core/cardplay/leads.py",
    "tichu_core/rules/table.py",
    "tichu_core/rules/rulebook.py",
    "tichu_core/rules/playrules.py",
    "tichu_core/rules/standard.py",
    "tichu_core/game/dealing.py",
    "tichu_core/game/hand.py",
    "tichu_core/game/legality.py",
    "tichu_core/game/construction.py",
    "tichu_core/game/eventlog.py",
    "tichu_core/game/core.py",
)
# The name of the mypyc group (its shared library sits beside this module).
GROUP = "tichu_core.native"

PURE_PYTHON = os.environ.get("TICHU_PURE_PYTHON", "") not in ("", "0")
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_MODULES = {path[: -len(".py")].replace("/", "."): path for path in COMPILED}


def _stale(source: str) -> bool:
    """Whether a compiled build of ``source`` exists and is older than it."""
    stem = source[: -len(".py")]
    for suffix in EXTENSION_SUFFIXES:
        try:
            if os.path.getmtime(stem + suffix) < os.path.getmtime(source):
                return True
        except OSError:
            continue
    return False


@functools.cache
def _any_stale() -> bool:
    """Whether any compiled module is older than its source (looked at once per process:
    the package imports all of them at start-up)."""
    return any(_stale(os.path.join(_ROOT, path)) for path in COMPILED)


class _SourceWhereNeeded:
    """A finder for the package's modules: a module of COMPILED runs compiled unless the
    pure build is asked for or a compiled module is stale (then from source); every
    other module always runs from source."""

    @staticmethod
    def find_spec(
        fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not path or not fullname.startswith("tichu_core."):
            return None
        if fullname in _MODULES and not PURE_PYTHON and not _any_stale():
            return None  # the compiled build, if there is one
        # Every other module of the package is plain source, even where a compiled file
        # of it is left over from a build with another list (it would fail to load).
        spec = FileFinder(path[0], (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(fullname)
        if spec is None or spec.loader is None:
            return None  # not a plain module or package here: Python's finders decide
        if fullname not in _MODULES:
            return spec
        if spec is not None and not PURE_PYTHON:
            _warn_stale()
        return spec


@functools.cache
def _warn_stale() -> None:
    """Said once per process, whichever compiled module is imported first."""
    warnings.warn(
        "a compiled module of tichu_core is older than its source; running the plain "
        "source of every compiled module (rebuild with `make` or `pip install -e .`)",
        stacklevel=4,
    )


if _SourceWhereNeeded not in sys.meta_path:
    sys.meta_path.insert(0, _SourceWhereNeeded)


def is_compiled() -> bool:
    """Whether the compiled build runs here (every module of :data:`COMPILED` does, or
    none: they are one group)."""
    from tichu_core.cardplay import moves

    return not (moves.__file__ or "").endswith(".py")
