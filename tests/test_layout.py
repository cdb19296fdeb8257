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
    for path in sorted((PACKAGE / room).rglob("*.py")):
        wrong = imported_rooms(path) - allowed
        assert not wrong, f"{path.relative_to(PACKAGE)} imports {sorted(wrong)}"


# The front ends' rooms, lowest first: each imports only the rooms before it (and itself).
FRONT_ENDS = ["text", "bots", "sim", "rl", "web", "bench", "cli"]
FRONT_END_ROOT = PACKAGE / "frontends"
# Where a front end may still reach below the public API, and why. Everything else of
# tichu_core a front end names must be `tichu_core` itself (or `tichu_core.formats`,
# the log importer's public API, docs/bsw.md).
INTERNALS_ALLOWED = {
    # `tichu bench` times the engine's own hot paths (move generation on card masks,
    # building a rulebook), which the public API wraps and does not expose.
    "frontends/bench/figures.py": {"cardplay", "rules", "builds"},
    # `tichu plugins` reports the plugin machinery itself: where each plugin was found
    # and which hooks it implements.
    "frontends/cli/plugins.py": {"rules", "variants"},
}
PUBLIC = {"", "formats"}


def imported_modules(path: Path) -> set[str]:
    """The dotted tichu_core modules a module imports, at any depth of code."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.split(".")[0] == "tichu_core"}


def front_end_room(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["tichu_core", "frontends"] and len(parts) > 2 else None


def test_the_front_ends_are_rooms() -> None:
    """Every front-end module sits in a room (no loose module beside them)."""
    loose = {p.name for p in FRONT_END_ROOT.glob("*.py")} - {"__init__.py"}
    rooms = {p.name for p in FRONT_END_ROOT.iterdir() if (p / "__init__.py").exists()}
    assert not loose, f"front-end modules outside a room: {sorted(loose)}"
    assert rooms == set(FRONT_ENDS)


@pytest.mark.parametrize("room", FRONT_ENDS)
def test_a_front_end_imports_only_the_front_ends_below_it(room: str) -> None:
    allowed = set(FRONT_ENDS[: FRONT_ENDS.index(room) + 1])
    for path in sorted((FRONT_END_ROOT / room).rglob("*.py")):
        rooms = {front_end_room(m) for m in imported_modules(path)} - {None}
        wrong = rooms - allowed
        assert not wrong, f"{path.relative_to(PACKAGE)} imports front ends {sorted(wrong)}"


def test_front_ends_use_the_public_api() -> None:
    for path in sorted(FRONT_END_ROOT.rglob("*.py")):
        key = str(path.relative_to(PACKAGE))
        reached = {
            module.split(".")[1] if "." in module else ""
            for module in imported_modules(path)
            if front_end_room(module) is None and module != "tichu_core.frontends"
        }
        # `tichu_core.formats` as a package only, not its modules.
        modules = imported_modules(path)
        deep_formats = {m for m in modules if m.startswith("tichu_core.formats.")}
        wrong = (reached - PUBLIC - INTERNALS_ALLOWED.get(key, set())) | deep_formats
        assert not wrong, f"{key} reaches into {sorted(wrong)}"


def test_the_allow_list_is_still_needed() -> None:
    """An exception that is no longer used is taken off the list."""
    for key, rooms in INTERNALS_ALLOWED.items():
        reached = {m.split(".")[1] for m in imported_modules(PACKAGE / key) if "." in m}
        assert rooms <= reached, f"{key}: {sorted(rooms - reached)} no longer needed"


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
