"""The house and its rooms (README "Layout"): each room of tichu_core imports only the
rooms below it in the order cardplay < variants < rules < game < formats < testing <
frontends,
the modules inside a room import each other one way (no cycle), whether a seat may act
is judged by the referee alone (game/legality.py), and no engine module (front ends
aside) names a plugin of plugins/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tichu_core"
PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
ROOMS = ["cardplay", "variants", "rules", "game", "formats", "testing", "frontends"]
# The error family every room raises; which build (compiled or plain) of the hot modules runs;
# the read-only lists and dicts of the values rooms hand out (a variant's, a game's).
SHARED = {"errors", "builds", "frozen"}


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
    if room in ("frontends", "testing"):
        allowed.add("")  # front ends and the plugin authors' kit use the public API
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
# The public API, and two packages of it: the log importer (docs/bsw.md) and the plugin
# authors' kit (`tichu check --play` runs its check_variant; docs/plugins.md).
PUBLIC = {"", "formats", "testing"}


def tichu_imports(path: Path) -> set[str]:
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
        rooms = {front_end_room(m) for m in tichu_imports(path)} - {None}
        wrong = rooms - allowed
        assert not wrong, f"{path.relative_to(PACKAGE)} imports front ends {sorted(wrong)}"


def test_front_ends_use_the_public_api() -> None:
    for path in sorted(FRONT_END_ROOT.rglob("*.py")):
        key = str(path.relative_to(PACKAGE))
        reached = {
            module.split(".")[1] if "." in module else ""
            for module in tichu_imports(path)
            if front_end_room(module) is None and module != "tichu_core.frontends"
        }
        # `tichu_core.formats` as a package only, not its modules.
        modules = tichu_imports(path)
        deep_formats = {m for m in modules if m.startswith("tichu_core.formats.")}
        wrong = (reached - PUBLIC - INTERNALS_ALLOWED.get(key, set())) | deep_formats
        assert not wrong, f"{key} reaches into {sorted(wrong)}"


def test_the_allow_list_is_still_needed() -> None:
    """An exception that is no longer used is taken off the list."""
    for key, rooms in INTERNALS_ALLOWED.items():
        reached = {m.split(".")[1] for m in tichu_imports(PACKAGE / key) if "." in m}
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


# --- one-way imports inside a room, and legality in one room --------------------------


def module_of(path: Path) -> str:
    """The dotted name of a tichu_core module (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that a module imports by name, at any depth of code
    (under ``if TYPE_CHECKING:`` too: a cycle for the type checker is a cycle for the
    reader). ``from a.b import c`` names the module ``a.b.c`` if there is one, else
    ``a.b``; the packages a dotted import passes through are not counted."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.relative_to(PACKAGE)}: relative import"
            base = node.module or ""
            for alias in node.names:
                name = f"{base}.{alias.name}"
                found.add(name if name in known else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found & known


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the directed graph (module -> modules it imports), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done (no cycle through it)
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module)
            if cycle:
                return cycle
    return None


def test_import_cycle_finds_a_cycle() -> None:
    """The finder the next test relies on: it sees a cycle, and only a cycle."""
    assert import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert import_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


@pytest.mark.parametrize("room", ROOMS)
def test_the_modules_of_a_room_import_each_other_one_way(room: str) -> None:
    """Within each room (its subpackages included) imports form no cycle: a reader can
    read a room bottom-up (variants: models -> checks; game: legality -> hand)."""
    paths = {module_of(p): p for p in sorted((PACKAGE / room).rglob("*.py"))}
    known = set(paths)
    graph = {name: imported_modules(path, known) - {name} for name, path in paths.items()}
    cycle = import_cycle(graph)
    assert cycle is None, f"import cycle in {room}/: {' -> '.join(cycle or [])}"


GAME = PACKAGE / "game"
# The rulebook's answers to "may this seat do this now" (Rulebook methods).
PERMISSIONS = {"may_call", "may_bomb", "wish_applies"}


def called_methods(path: Path) -> set[str]:
    """Names of the attributes a module calls (``x.name(...)``)."""
    return {
        node.func.attr
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }


def test_every_permission_of_the_rulebook_is_listed() -> None:
    """PERMISSIONS holds every Rulebook method that answers with a Refusal (so that a new
    permission is held to the next test too)."""
    tree = ast.parse((PACKAGE / "rules" / "rulebook.py").read_text())
    refusing = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and not node.name.startswith("_")
        and node.returns is not None
        and "Refusal" in ast.unparse(node.returns)
    }
    assert refusing, "the rulebook answers permissions with a Refusal"
    assert refusing <= PERMISSIONS


def test_legality_lives_with_the_referee() -> None:
    """Whether a seat may act (call, bomb, pass, push, decide, be waited for) is judged in
    game/legality.py alone: no other game module asks the rulebook's permissions; the hand
    state machine names no Refusal and defines no decider; and the referee imports the
    hand, never the reverse."""
    for path in sorted(GAME.glob("*.py")):
        if path.name != "legality.py":
            asked = called_methods(path) & PERMISSIONS
            assert not asked, f"game/{path.name} asks the rulebook {sorted(asked)}"
    hand = GAME / "hand.py"
    tree = ast.parse(hand.read_text())
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert "Refusal" not in names, "game/hand.py makes refusals: that is the referee's"
    deciders = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and (node.name.endswith("_refusal") or node.name.startswith(("may_", "waiting")))
    }
    assert not deciders, f"game/hand.py decides who may act: {sorted(deciders)}"
    known = {"tichu_core.game.hand", "tichu_core.game.legality"}
    assert imported_modules(GAME / "legality.py", known) == {"tichu_core.game.hand"}
    assert imported_modules(hand, known) == set()
