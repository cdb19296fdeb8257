"""Optional compiled acceleration of the pure card modules (docs/performance.md).

pyproject.toml holds the project's metadata; this file only adds extension modules.
``tichu_core.cardplay``'s cards, combinations and moves are compiled with mypyc
when it is available (it is a build requirement) and a C compiler works. Every
extension is optional: a machine without a compiler, or ``TICHU_PURE_PYTHON=1``
at install time, gets the same modules as plain Python. At run time
``TICHU_PURE_PYTHON=1`` makes Python import the plain modules even where compiled
ones exist, so that the same tests run against both.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

COMPILED = [
    "tichu_core/cardplay/cards.py",
    "tichu_core/cardplay/combinations.py",
    "tichu_core/cardplay/moves.py",
]


def extensions() -> list[object]:
    if os.environ.get("TICHU_PURE_PYTHON", "") not in ("", "0"):
        return []
    if sys.implementation.name != "cpython":
        return []  # mypyc targets CPython's C API
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("tichu: mypyc is not available; installing plain Python modules", file=sys.stderr)
        return []
    try:
        # Only these modules are analysed: the rest of the package (and its third-party
        # imports) is not needed to compile them, nor the project's mypy settings.
        flags = ["--config-file=", "--follow-imports=skip", "--ignore-missing-imports"]
        modules = mypycify(
            [*COMPILED, *flags], opt_level="3", group_name="tichu_core.cardplay.native"
        )
    except BaseException as error:  # mypy exits on what it cannot compile: stay pure
        print(f"tichu: not compiling the card modules ({error})", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True  # no compiler: build_ext skips it and the .py stays
    return list(modules)


setup(ext_modules=extensions())
