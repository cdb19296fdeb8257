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
from typing import Any

from setuptools import setup
from setuptools.command.editable_wheel import editable_wheel


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


# The folder, under build/, whose one entry is a link to the package: what the
# editable install puts on sys.path for type checkers (see _EditableWheel).
TYPING_DIR = Path("build") / "__editable_typing__"


class _TypingPath:
    """Setuptools' editable strategy, plus a ``.pth`` line naming TYPING_DIR."""

    def __init__(self, strategy: Any, project: Path, name: str) -> None:
        self._strategy = strategy
        self._project = project
        self._name = name

    def __call__(self, wheel: Any, files: list[str], mapping: dict[str, str]) -> object:
        answer = self._strategy(wheel, files, mapping)
        folder = self._project / TYPING_DIR
        folder.mkdir(parents=True, exist_ok=True)
        link = folder / "tichu_core"
        if not link.is_symlink():
            try:
                link.symlink_to(self._project / "tichu_core", target_is_directory=True)
            except OSError as error:  # no symbolic links here: only type checkers lose
                print(f"tichu: no link for type checkers ({error})", file=sys.stderr)
                return answer
        wheel.writestr(f"__editable__.{self._name}.typing.pth", f"{folder}\n")
        return answer

    def __enter__(self) -> _TypingPath:
        self._strategy.__enter__()
        return self

    def __exit__(self, *details: object) -> object:
        return self._strategy.__exit__(*details)


class _EditableWheel(editable_wheel):  # type: ignore[misc]
    """``pip install -e .`` that type checkers can follow.

    Setuptools makes this project's editable install an import hook (the package
    ``tichu_core`` maps two of its subpackages to the top-level folders ``plugins/``
    and ``variants/``), and an import hook is invisible to mypy, which reads only
    the folders of ``sys.path``. So the install also puts on ``sys.path`` a folder
    that holds one link, ``tichu_core``, to the package's source: mypy finds the
    package there (and its ``py.typed``); Python imports the same files through it
    and the hook keeps serving ``tichu_core.plugins`` and the bundled variants."""

    def _select_strategy(self, name: str, tag: str, build_lib: Any) -> Any:
        strategy = super()._select_strategy(name, tag, build_lib)
        return _TypingPath(strategy, Path(self.project_dir).resolve(), name)


setup(
    ext_modules=extensions(),
    cmdclass=(
        {"editable_wheel": _EditableWheel}
        if hasattr(editable_wheel, "_select_strategy")
        else {}  # another setuptools: its own editable install
    ),
)
