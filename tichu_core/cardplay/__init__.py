"""Pure cards and moves: cards as ints, hands as bitmasks, combinations, legal plays.

These modules may be compiled with mypyc at install time (setup.py); the plain
source stays beside them. Python loads the source instead of a compiled module
when ``TICHU_PURE_PYTHON=1`` is set (so the same tests run against both builds),
and when the source was edited after the module was compiled (a stale build
would otherwise run old code; ``make`` rebuilds it).
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

PURE_PYTHON = os.environ.get("TICHU_PURE_PYTHON", "") not in ("", "0")


def _stale(source: str) -> bool:
    """Whether a compiled build of ``source`` exists and is older than it.

    The compiled modules are one group that imports itself natively: when any of
    them is stale, every one of them runs from source (`_any_stale`)."""
    stem = source[: -len(".py")]
    for suffix in EXTENSION_SUFFIXES:
        try:
            if os.path.getmtime(stem + suffix) < os.path.getmtime(source):
                return True
        except OSError:
            continue
    return False


class _SourceWhereNeeded:
    """A finder for this package's modules: the .py source when the pure build is
    asked for or the compiled module is stale; otherwise it leaves the choice to
    Python's own finders (which prefer a compiled module)."""

    @staticmethod
    def find_spec(
        fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith(f"{__name__}."):
            return None
        finder = FileFinder(__path__[0], (SourceFileLoader, SOURCE_SUFFIXES))
        spec = finder.find_spec(fullname)
        if spec is None or spec.origin is None or PURE_PYTHON:
            return spec
        if _any_stale():
            warnings.warn(
                f"{fullname}: a compiled card module is older than its source; running the "
                "source (rebuild with `make` or `pip install -e .`)",
                stacklevel=2,
            )
            return spec
        return None


@functools.cache
def _any_stale() -> bool:
    """Whether any module of this package has a compiled build older than its source
    (looked at once: every module of the package is imported at start-up)."""
    folder = __path__[0]
    return any(
        _stale(os.path.join(folder, name)) for name in os.listdir(folder) if name.endswith(".py")
    )


sys.meta_path.insert(0, _SourceWhereNeeded)


def is_compiled() -> bool:
    """Whether the move generator running here is the compiled build."""
    from tichu_core.cardplay import moves

    return not (moves.__file__ or "").endswith(".py")
