"""Finding the rule plugins a variant names.

Plugins named in a variant's ``plugins`` list resolve, in this order: the
built-in ``standard`` rules, the ``tichu`` entry-point group, the bundled
``plugins/`` package (``tichu_core.plugins.<name>``), and — only when the
caller allows imports — a dotted module path. Loading a TOML file therefore
runs no foreign code unless asked to. :func:`locate_plugin` also says where a
plugin came from (``tichu plugins``).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import importlib.resources
import importlib.util
import os
import sys
from dataclasses import dataclass
from types import ModuleType

from tichu_core.errors import PluginError, VariantError
from tichu_core.rules import hookspecs
from tichu_core.rules import standard as standard_rules

ENTRY_POINT_GROUP = hookspecs.PROJECT
BUNDLED_PACKAGE = "tichu_core.plugins"


def _marked_standard_rules() -> type:
    """The plugin ``standard``: the hook functions of :mod:`tichu_core.rules.standard`,
    each marked ``@hookimpl(trylast=True)`` (asked after every variant plugin).

    That module is compiled where it can be (``builds.py``), and a compiled function
    takes no attributes, so the marks go on a ``staticmethod`` of each (a class of
    them is a plugin pluggy registers like a module); the rulebook calls the
    functions themselves."""
    marked: dict[str, object] = {
        hook: hookspecs.hookimpl(trylast=True)(staticmethod(getattr(standard_rules, hook)))
        for hook in hookspecs.HOOK_NAMES
    }
    marked["__doc__"] = standard_rules.__doc__
    return type("StandardRules", (), marked)


STANDARD_PLUGIN = _marked_standard_rules()


def _bundled(name: str) -> ModuleType | None:
    module_name = f"{BUNDLED_PACKAGE}.{name}"
    try:
        if importlib.util.find_spec(module_name) is None:
            return None
    except ModuleNotFoundError:
        return None
    return importlib.import_module(module_name)


BUILT_IN = "built-in"
ENTRY_POINT = "entry point"
BUNDLED = "bundled"
MODULE = "module"


@dataclass(frozen=True)
class PluginOrigin:
    """Where a plugin named by a variant comes from.

    ``kind`` is how the name resolved, in the order names are resolved: ``"built-in"``
    (the standard rules), ``"entry point"`` (group ``tichu`` of an installed
    distribution), ``"bundled"`` (``plugins/``) or ``"module"`` (a dotted module path).
    """

    kind: str
    module: str  # the plugin's module (or class, for a plugin object)
    file: str | None = None  # the module's file, when it has one
    entry_point: str | None = None  # "name = value" of the entry point
    distribution: str | None = None  # the distribution that declares the entry point
    version: str | None = None  # its version

    def describe(self) -> str:
        """One line: ``entry point club_rules = club_rules.plugin (club-rules 1.0)``."""
        if self.kind == ENTRY_POINT:
            shipped = " ".join(part for part in (self.distribution, self.version) if part)
            return f"{ENTRY_POINT} {self.entry_point}" + (f" ({shipped})" if shipped else "")
        return f"{self.kind} {self.module}"


def _origin(
    kind: str, plugin: object, entry: importlib.metadata.EntryPoint | None = None
) -> PluginOrigin:
    if isinstance(plugin, ModuleType):
        module, file = plugin.__name__, getattr(plugin, "__file__", None)
        package = sys.modules.get(module.rpartition(".")[0])
        if file is not None and not os.path.exists(file) and package is not None:
            # A compiled module first imported by another compiled one may state a path
            # that is not there (mypyc); its file is in its package's folder.
            file = os.path.join(os.path.dirname(package.__file__ or ""), os.path.basename(file))
    else:
        module, file = f"{type(plugin).__module__}.{type(plugin).__qualname__}", None
    if entry is None:
        return PluginOrigin(kind, module, file)
    distribution = entry.dist
    return PluginOrigin(
        kind,
        module,
        file,
        entry_point=f"{entry.name} = {entry.value}",
        distribution=distribution.name if distribution is not None else None,
        version=distribution.version if distribution is not None else None,
    )


def _entry_point(name: str) -> tuple[object, importlib.metadata.EntryPoint] | None:
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name == name:
            try:
                loaded: object = entry.load()
                return loaded, entry
            except Exception as error:  # a broken installed plugin
                raise PluginError(
                    f"plugin {name!r} (entry point {entry.value}) failed to load: {error}",
                    plugin=name,
                ) from error
    return None


def resolve_plugin(name: str, allow_imports: bool) -> object:
    """The plugin object (usually a module) a variant names."""
    return locate_plugin(name, allow_imports)[0]


def locate_plugin(name: str, allow_imports: bool) -> tuple[object, PluginOrigin]:
    """The plugin object a variant names, and where it came from."""
    if name == "standard":
        return STANDARD_PLUGIN, _origin(BUILT_IN, standard_rules)
    entry_point = _entry_point(name)
    if entry_point is not None:
        plugin, entry = entry_point
        return plugin, _origin(ENTRY_POINT, plugin, entry)
    bundled = _bundled(name) if name.isidentifier() else None
    if bundled is not None:
        return bundled, _origin(BUNDLED, bundled)
    if "." in name:
        if not allow_imports:
            raise VariantError(
                f"plugins: {name!r} is a module path; importing code from a variant file "
                "needs allow_imports=True (CLI: --allow-imports)"
            )
        try:
            module = importlib.import_module(name)
        except Exception as error:
            raise PluginError(f"plugin module {name!r} failed to import: {error}", name) from error
        return module, _origin(MODULE, module)
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
