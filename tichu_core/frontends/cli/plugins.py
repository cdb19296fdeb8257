"""``tichu plugins [VARIANT_OR_FILE]``: the rule plugins a variant loads (like
``datasette plugins``).

For each plugin, in the order the rulebook asks them (newest first: the variant's
later-listed plugins before earlier ones, the built-in standard rules last): where it
comes from (built-in, bundled, an entry point and its distribution, a module path) and
the hooks it implements. Where several plugins implement one hook, the order they are
asked in says whose answer wins: the first that is not None. ``--json`` gives the same
as one JSON object.
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import asdict, dataclass

from tichu_core.rules.loading import PluginOrigin, locate_plugin
from tichu_core.rules.rulebook import COMPOSED_HOOKS, HOOK_NAMES, Rulebook
from tichu_core.variants.models import Variant


@dataclass(frozen=True)
class LoadedPlugin:
    """One plugin of a variant: its name in the variant, origin and hooks."""

    name: str
    origin: PluginOrigin
    hooks: list[str]


@dataclass(frozen=True)
class PluginsReport:
    """What ``tichu plugins`` shows."""

    variant: str
    source: str | None
    plugins: list[LoadedPlugin]  # in the order they are asked
    hooks: dict[str, list[str]]  # every hook -> its plugins, in the order they are asked

    def lines(self) -> list[str]:
        """The text report."""
        where = f" ({self.source})" if self.source and self.source != self.variant else ""
        count = f"{len(self.plugins)} plugin{'s' if len(self.plugins) != 1 else ''}"
        lines = [
            f"Variant {self.variant}{where}: {count}, asked in this order "
            "(the first answer that is not None wins):"
        ]
        for plugin in self.plugins:
            lines += ["", f"{plugin.name}: {plugin.origin.describe()}"]
            if plugin.origin.file:
                lines.append(f"  file: {plugin.origin.file}")
            hooks = "hooks: " + (", ".join(plugin.hooks) or "none")
            lines += textwrap.wrap(hooks, width=88, initial_indent="  ", subsequent_indent="    ")
        shared = {hook: names for hook, names in self.hooks.items() if len(names) > 1}
        lines += ["", "Hooks answered by more than one plugin, asked in this order:"]
        lines += [
            f"  {hook}: {', then '.join(names)}"
            + (" (composed: every answer counts)" if hook in COMPOSED_HOOKS else "")
            for hook, names in shared.items()
        ]
        if not shared:
            lines.append("  none")
        return lines

    def to_json(self) -> str:
        plugins = [
            {"name": plugin.name, **asdict(plugin.origin), "hooks": plugin.hooks}
            for plugin in self.plugins
        ]
        return json.dumps(
            {
                "variant": self.variant,
                "source": self.source,
                "plugins": plugins,
                "hooks": self.hooks,
            },
            indent=2,
        )


def asking_order(rulebook: Rulebook) -> dict[str, list[str]]:
    """Hook -> the plugins implementing it, in the order the rulebook asks them."""
    return {hook: rulebook.asking_order(hook) for hook in HOOK_NAMES}


def plugins_report(variant: Variant) -> PluginsReport:
    """The plugins of ``variant``, resolved and checked as a game would (so a plugin that
    cannot be loaded is the PluginError or VariantError a game would raise)."""
    rulebook = Rulebook(variant)
    implemented = rulebook.implementations()
    plugins = [
        LoadedPlugin(
            name,
            locate_plugin(name, variant.allow_imports)[1],
            sorted(implemented[name]),
        )
        for name in reversed(rulebook.plugin_names)
    ]
    return PluginsReport(variant.name, variant.source, plugins, asking_order(rulebook))
