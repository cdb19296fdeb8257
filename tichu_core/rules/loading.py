"""Finding the rule plugins a variant names.

Plugins named in a variant's ``plugins`` list resolve, in this order: the
built-in ``standard`` rules, the ``tichu`` entry-point group, the bundled
``plugins/`` package (``tichu_core.plugins.<name>``), and — only when the
caller allows imports — a dotted module path. Loading a TOML file therefore
runs no foreign code unless asked to.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import importlib.resources
import importlib.util
from types import ModuleType

from tichu_core.errors import PluginError, VariantError
from tichu_core.rules import hookspecs
from tichu_core.rules import standard as standard_rules

ENTRY_POINT_GROUP = hookspecs.PROJECT
BUNDLED_PACKAGE = "tichu_core.plugins"


def _bundled(name: str) -> ModuleType | None:
    module_name = f"{BUNDLED_PACKAGE}.{name}"
    try:
        if importlib.util.find_spec(module_name) is None:
            return None
    except ModuleNotFoundError:
        return None
    return importlib.import_module(module_name)


def _entry_point(name: str) -> object | None:
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name == name:
            try:
                loaded: object = entry.load()
                return loaded
            except Exception as error:  # a broken installed plugin
                raise PluginError(
                    f"plugin {name!r} (entry point {entry.value}) failed to load: {error}",
                    plugin=name,
                ) from error
    return None


def resolve_plugin(name: str, allow_imports: bool) -> object:
    """The plugin object (usually a module) a variant names."""
    if name == "standard":
        return standard_rules
    found = _entry_point(name)
    if found is None and name.isidentifier():
        found = _bundled(name)
    if found is not None:
        return found
    if "." in name:
        if not allow_imports:
            raise VariantError(
                f"plugins: {name!r} is a module path; importing code from a variant file "
                "needs allow_imports=True (CLI: --allow-imports)"
            )
        try:
            return importlib.import_module(name)
        except Exception as error:
            raise PluginError(f"plugin module {name!r} failed to import: {error}", name) from error
    known = ["standard", *_bundled_names(), *_entry_point_names()]
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(sorted(known))}"
    raise VariantError(
        f"plugins: unknown plugin {name!r}: not an entry point of group {ENTRY_POINT_GROUP!r} "
        f"nor a bundled plugin{hint}"
    )


def _bundled_names() -> list[str]:
    """Bundled plugin names, found without importing any of them."""
    try:
        package = importlib.resources.files(BUNDLED_PACKAGE)
    except ModuleNotFoundError:
        return []
    return [
        entry.name[:-3]
        for entry in package.iterdir()
        if entry.name.endswith(".py") and not entry.name.startswith("_")
    ]


def _entry_point_names() -> list[str]:
    return [entry.name for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)]
