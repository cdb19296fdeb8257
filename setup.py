"""Optional compiled acceleration of the hot modules (docs/performance.md).

pyproject.toml holds the project's metadata; this file only adds extension modules.
The modules listed in ``tichu_core/builds.py`` (``COMPILED``: cards and moves, the
match and the hand state machine, the referee, dealing, event building, the
rulebook, the play rules, the table view) are compiled with mypyc when it is
available (it is a build requirement) and a C compiler works.
Every extension is optional: a machine without a compiler, or ``TICHU_PURE_PYTHON=1``
at install time, gets the same modules as plain Python. At run time
``TICHU_PURE_PYTHON=1`` makes Python import the plain modules even where compiled
ones exist, so that the same tests run against both.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

from setuptools import setup


def _builds_constants() -> dict[str, object]:
    """``COMPILED`` and ``GROUP`` of tichu_core/builds.py, read without importing the
    package (its dependencies need not be installed to build it)."""
    tree = ast.parse((Path(__file__).parent / "tichu_core" / "builds.py").read_text())
    return {
        target.id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id in ("COMPILED", "GROUP")
    }


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
    constants = _builds_constants()
    try:
        # Only these modules are analysed: the rest of the package (and its third-party
        # imports) is not needed to compile them, nor the project's mypy settings.
        flags = ["--config-file=", "--follow-imports=skip", "--ignore-missing-imports"]
        modules = mypycify(
            [*constants["COMPILED"], *flags],  # type: ignore[misc]
            opt_level="3",
            group_name=str(constants["GROUP"]),
        )
    except BaseException as error:  # mypy exits on what it cannot compile: stay pure
        print(f"tichu: not compiling the hot modules ({error})", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True  # no compiler: build_ext skips it and the .py stays
    return list(modules)


setup(ext_modules=extensions())
