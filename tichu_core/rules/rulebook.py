"""Loading rule plugins and calling hooks with failures named.

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
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import pluggy

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


class Hooks:
    """The plugin manager of one game, and the one way the engine calls a hook.

    Calls go through :meth:`first`, which asks each implementation itself
    (newest first, as pluggy orders them) so that an exception names the plugin
    and the hook it came from.
    """

    def __init__(self, plugin_names: Sequence[str], allow_imports: bool = False) -> None:
        self.manager = pluggy.PluginManager(hookspecs.PROJECT)
        self.manager.add_hookspecs(hookspecs)
        self.names: list[str] = []
        for name in ["standard", *[n for n in plugin_names if n != "standard"]]:
            plugin = resolve_plugin(name, allow_imports)
            if self.manager.is_registered(plugin):
                continue
            try:
                self.manager.register(plugin, name=name)
            except Exception as error:
                raise PluginError(f"plugin {name!r} cannot be registered: {error}", name) from error
            self.names.append(name)
        try:
            self.manager.check_pending()
        except pluggy.PluginValidationError as error:
            raise PluginError(f"a plugin implements an unknown hook: {error}") from error
        self._impls: dict[str, list[tuple[str, Callable[..., Any], list[str]]]] = {}
        for hook_name in dir(hookspecs):
            if hook_name.startswith("tichu_"):
                caller = getattr(self.manager.hook, hook_name)
                for impl in caller.get_hookimpls():
                    if impl.hookwrapper or impl.wrapper:
                        # Rule points are answers, not around-advice: a wrapper's
                        # generator would be taken for the answer.
                        raise PluginError(
                            f"plugin {impl.plugin_name!r} wraps hook {hook_name}: hook "
                            "wrappers are not supported; answer the hook or return None",
                            plugin=impl.plugin_name,
                            hook=hook_name,
                        )
                self._impls[hook_name] = [
                    (impl.plugin_name, impl.function, list(impl.argnames))
                    for impl in reversed(caller.get_hookimpls())
                ]

    def seats(self, hook: str, seats: int, **kwargs: Any) -> list[int]:
        """The answer to a hook that names seats, checked: a non-empty list of seats."""
        answer = self.first(hook, **kwargs)
        checked = list(answer) if isinstance(answer, list | tuple) else None
        if not checked or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats for s in checked
        ):
            raise PluginError(
                f"hook {hook} answered {answer!r}: expected a non-empty list of seats "
                f"0..{seats - 1}",
                hook=hook,
            )
        return checked

    def first(self, hook: str, **kwargs: Any) -> Any:
        """The first non-None answer to ``hook``; PluginError if an implementation raises."""
        for plugin, function, argnames in self._impls[hook]:
            try:
                result = function(**{name: kwargs[name] for name in argnames})
            except PluginError:
                raise
            except Exception as error:
                raise PluginError(
                    f"plugin {plugin!r} failed in hook {hook}: {type(error).__name__}: {error}",
                    plugin=plugin,
                    hook=hook,
                ) from error
            if result is not None:
                return result
        raise PluginError(f"no plugin answered hook {hook}", hook=hook)
