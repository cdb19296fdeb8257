"""Several plugins, one hook: the order rule of docs/plugins.md ("When two plugins answer
the same hook"), what ``tichu plugins`` shows of it, and unknown hook names.

The rule: the standard rules are registered first and the variant's plugins in the
order of its list; each hook asks the newest first (the later-listed plugin before the
earlier one, the standard rules last, tryfirst/trylast markers honoured); the first
answer that is not None wins. The test plugins answer ``tichu_first_leader`` (S-EX-2:
standard is the Mah Jong holder, seat 0 in these deals).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from scenario import plugin_with

import tichu_core as tc
from tichu_core.frontends.cli.commands import main as tichu
from tichu_core.frontends.cli.plugins import plugins_report
from tichu_core.rules.hookspecs import hookimpl

# No Grand Tichu phase and no exchange: the first leader is on turn at once.
QUICK: dict[str, object] = {"calls.grand_tichu": False, "exchange.targets": "none"}
DECK = tc.load_variant("standard").deck_codes
DEAL = [list(DECK[seat * 14 : seat * 14 + 14]) for seat in range(4)]
ROOT = Path(__file__).resolve().parents[1]


def leader_plugin(
    monkeypatch: pytest.MonkeyPatch, name: str, leader: int | None, **marker: bool
) -> None:
    """Installs a plugin module ``name`` whose first leader is ``leader``."""

    @hookimpl(**marker)
    def tichu_first_leader() -> int | None:
        return leader

    plugin_with(monkeypatch, name, tichu_first_leader)


def variant_with(*plugins: str) -> tc.Variant:
    return tc.load_variant("standard", {**QUICK, "plugins": list(plugins)}, allow_imports=True)


def first_leader(variant: tc.Variant) -> int:
    game = tc.Game(variant, deals=[DEAL])
    assert game.turn is not None
    return game.turn


# --------------------------------------------------------------------------- the order rule


def test_the_later_listed_plugin_wins_and_swapping_the_list_swaps_the_winner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    leader_plugin(monkeypatch, "club.leader_one", 1)
    leader_plugin(monkeypatch, "club.leader_three", 3)
    assert first_leader(variant_with("standard", "club.leader_one", "club.leader_three")) == 3
    assert first_leader(variant_with("standard", "club.leader_three", "club.leader_one")) == 1
    assert first_leader(variant_with("standard")) == 0  # S-EX-2: the Mah Jong holder


def test_tichu_plugins_shows_the_order_that_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    leader_plugin(monkeypatch, "club.leader_one", 1)
    leader_plugin(monkeypatch, "club.leader_three", 3)
    for plugins, winner in (
        (["club.leader_one", "club.leader_three"], 3),
        (["club.leader_three", "club.leader_one"], 1),
    ):
        variant = variant_with("standard", *plugins)
        report = plugins_report(variant)
        order = report.hooks["tichu_first_leader"]
        assert order == [*reversed(plugins), "standard"]
        assert [plugin.name for plugin in report.plugins] == order
        assert sys.modules[order[0]].tichu_first_leader() == winner == first_leader(variant)
        shown = f"  tichu_first_leader: {order[0]}, then {order[1]}, then standard"
        assert shown in report.lines()
        assert report.hooks["tichu_deck"] == ["standard"]  # one implementation: not shown
        assert not any(line.startswith("  tichu_deck:") for line in report.lines())


def test_a_plugin_returning_none_passes_the_question_on(monkeypatch: pytest.MonkeyPatch) -> None:
    leader_plugin(monkeypatch, "club.leader_one", 1)
    leader_plugin(monkeypatch, "club.no_opinion", None)
    assert first_leader(variant_with("standard", "club.leader_one", "club.no_opinion")) == 1


def test_tryfirst_puts_an_earlier_plugin_first_and_tichu_plugins_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pluggy's markers are part of the order: the report is the order the game asks."""
    leader_plugin(monkeypatch, "club.eager", 1, tryfirst=True)
    leader_plugin(monkeypatch, "club.leader_three", 3)
    variant = variant_with("standard", "club.eager", "club.leader_three")
    assert first_leader(variant) == 1
    order = plugins_report(variant).hooks["tichu_first_leader"]
    assert order == ["club.eager", "club.leader_three", "standard"]


def test_standard_is_asked_last_wherever_the_list_names_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    leader_plugin(monkeypatch, "club.leader_three", 3)
    variant = variant_with("club.leader_three", "standard")
    assert first_leader(variant) == 3
    assert plugins_report(variant).hooks["tichu_first_leader"] == ["club.leader_three", "standard"]


# --------------------------------------------------------------------------- unknown hooks


def test_an_unknown_hook_is_refused_with_the_plugin_the_name_and_a_suggestion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    @hookimpl
    def tichu_dog_recipient(seat: int) -> list[int]:
        return [seat]

    plugin_with(monkeypatch, "club.typo", tichu_dog_recipient)
    with pytest.raises(tc.PluginError) as caught:
        tc.Game(variant_with("standard", "club.typo"))
    error = caught.value
    assert (error.plugin, error.hook) == ("club.typo", "tichu_dog_recipient")
    assert str(error) == (
        "plugin 'club.typo' implements an unknown hook tichu_dog_recipient (did you mean "
        "tichu_dog_recipients?): no rule point has that name (the hooks: docs/plugins.md)"
    )


def test_every_unknown_hook_of_a_plugin_is_named_and_only_close_names_are_suggested(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    @hookimpl
    def tichu_wish_rank() -> list[int]:
        return [2]

    @hookimpl
    def tichu_weather() -> str:
        return "rain"

    @hookimpl
    def tichu_deck() -> None:  # a real hook: not reported
        return None

    plugin_with(monkeypatch, "club.typos", tichu_wish_rank, tichu_weather, tichu_deck)
    with pytest.raises(tc.PluginError) as caught:
        tc.Game(variant_with("standard", "club.typos"))
    message = str(caught.value)
    assert "implements unknown hooks tichu_weather, tichu_wish_rank (did you mean" in message
    assert "tichu_wish_rank (did you mean tichu_wish_ranks?)" in message
    assert "tichu_weather (did you mean" not in message
    assert "tichu_deck" not in message
    assert caught.value.hook == "tichu_weather"


def test_a_plain_function_with_a_hook_like_name_is_no_implementation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only ``@hookimpl`` functions are registered: a helper may have any name."""

    def tichu_helper() -> int:
        return 1

    plugin_with(monkeypatch, "club.helper", tichu_helper)
    rulebook = tc.Game(variant_with("standard", "club.helper")).rulebook
    assert rulebook.implementations()["club.helper"] == []


def test_a_hook_not_marked_hookimpl_is_refused_not_ignored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A function with a hook's exact name but no ``@hookimpl`` would never be asked:
    the author forgot the mark, and hears so (a helper of any other name is fine)."""

    def tichu_dog_recipients(seat: int) -> list[int]:
        return [seat]

    plugin_with(monkeypatch, "club.unmarked", tichu_dog_recipients)
    with pytest.raises(tc.PluginError) as caught:
        tc.Game(variant_with("standard", "club.unmarked"))
    assert (caught.value.plugin, caught.value.hook) == ("club.unmarked", "tichu_dog_recipients")
    assert "not marked @hookimpl" in str(caught.value)


# --------------------------------------------------------------------------- tichu plugins


def test_tichu_plugins_lists_the_standard_game_by_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert tichu(["plugins"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Variant standard: 1 plugin, asked in this order")
    assert "standard: built-in tichu_core.rules.standard" in out
    assert out[-2:] == ["Hooks answered by more than one plugin, asked in this order:", "  none"]


def test_tichu_plugins_json_of_a_bundled_house_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert tichu(["plugins", "house_stray_dog", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["variant"] == "house_stray_dog"
    stray, standard = report["plugins"]
    assert stray == {
        "name": "stray_dog",
        "kind": "bundled",
        "module": "tichu_core.plugins.stray_dog",
        "file": stray["file"],
        "entry_point": None,
        "distribution": None,
        "version": None,
        "hooks": ["tichu_dog_recipients"],
    }
    assert Path(stray["file"]).name == "stray_dog.py"
    assert standard["kind"] == "built-in" and len(standard["hooks"]) == len(report["hooks"])
    assert report["hooks"]["tichu_dog_recipients"] == ["stray_dog", "standard"]


def test_tichu_plugins_of_a_file_with_a_module_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dotted module path is imported only with --allow-imports (docs/api.md), here too."""
    leader_plugin(monkeypatch, "club.leader_three", 3)
    path = tmp_path / "club.toml"
    path.write_text('extends = "standard"\nplugins = ["standard", "club.leader_three"]\n')
    assert tichu(["plugins", str(path)]) == 2
    assert "--allow-imports" in capsys.readouterr().err
    assert tichu(["plugins", str(path), "--allow-imports"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"Variant club ({path}): 2 plugins")
    assert "club.leader_three: module club.leader_three" in out
    assert "  tichu_first_leader: club.leader_three, then standard" in out


def test_tichu_plugins_names_an_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry point of group ``tichu`` (its distribution: see test_plugin_package.py,
    which installs a real one)."""
    import importlib.metadata

    leader_plugin(monkeypatch, "club_rules.leader", 3)
    entry = importlib.metadata.EntryPoint("club_leader", "club_rules.leader", "tichu")
    installed = importlib.metadata.entry_points

    def entry_points(**selection: Any) -> Any:
        found = installed(**selection)
        if selection.get("group") == "tichu":
            return importlib.metadata.EntryPoints([*found, entry])
        return found

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    variant = tc.load_variant("standard", {"plugins": ["standard", "club_leader"]})
    (club, _) = plugins_report(variant).plugins
    assert club.origin.kind == "entry point"
    assert club.origin.entry_point == "club_leader = club_rules.leader"
    assert club.origin.describe() == "entry point club_leader = club_rules.leader"


def test_tichu_plugins_reports_a_plugin_that_cannot_load(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert tichu(["plugins", str(ROOT / "tests" / "data" / "bad_many.toml")]) == 2
    assert "tichu: error:" in capsys.readouterr().err
    assert tichu(["plugins", "no_such_variant"]) == 2
    assert "no_such_variant" in capsys.readouterr().err
