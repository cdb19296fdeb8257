"""The house and its rooms (README "Layout"): each room of tichu_core imports only the
rooms below it in the order cardplay < variants < rules < game < formats < frontends,
and no engine module (front ends aside) names a plugin of plugins/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tichu_core"
PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
ROOMS = ["cardplay", "variants", "rules", "game", "formats", "frontends"]
# The error family every room raises; which build (compiled or plain) of the hot modules runs.
SHARED = {"errors", "builds"}


def imported_rooms(path: Path) -> set[str]:
    """The tichu_core rooms (and shared modules) a module imports, at any depth of code."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "tichu_core" and len(parts) > 1:
                found.add(parts[1])
            elif parts[0] == "tichu_core":
                found.add("")  # the package's public API
    return found


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_imports_only_the_rooms_below_it(room: str) -> None:
    allowed = set(ROOMS[: ROOMS.index(room) + 1]) | SHARED
    if room == "frontends":
        allowed.add("")  # front ends use the public API
    for path in sorted((PACKAGE / room).glob("*.py")):
        wrong = imported_rooms(path) - allowed
        assert not wrong, f"{path.relative_to(PACKAGE)} imports {sorted(wrong)}"


def test_the_rooms_are_the_whole_package() -> None:
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__", "__main__"}
    rooms = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert modules == SHARED
    assert rooms == set(ROOMS)


def test_no_engine_module_names_a_bundled_plugin() -> None:
    """The engine rooms (front ends may name bundled variants, which share plugin names)."""
    plugins = {p.stem for p in PLUGINS.glob("*.py") if not p.stem.startswith("_")}
    assert plugins, "plugins/ holds the bundled plugins"
    engine = [p for p in PACKAGE.rglob("*.py") if "frontends" not in p.parts]
    for path in engine:
        tree = ast.parse(path.read_text())
        strings = {
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        }
        named = {name for name in plugins for text in strings if text == name}
        assert not named, f"{path.relative_to(PACKAGE)} names plugins {sorted(named)}"
