"""A house rule shipped as its own package, from the walkthrough of docs/plugins.md.

tests/plugin_package is the author's project "tichu-honest-wish": a pyproject.toml
declaring the entry point ``honest_wish`` in group ``tichu``, the plugin module (one
hook, ``tichu_wish_ranks``: no wish for a rank the player holds, S-WISH-1 changed), a
variant file naming it, and a test with a stacked deal. Here it is installed with a
real ``pip install`` (offline: ``--no-build-isolation --no-deps --no-index``, built by
the environment's setuptools) into a temporary folder, and used by fresh interpreters
that have that folder on ``PYTHONPATH``: ``importlib.metadata`` finds the entry point,
the variant file loads without ``allow_imports``, bots play a match to its end,
``tichu plugins`` names the distribution, and the package's own test passes. The
walkthrough's code blocks are the package's files, byte for byte.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS / "plugin_package"
DOC = TESTS.parent / "docs" / "plugins.md"
WALKTHROUGH = "From an empty folder to a published package"
VARIANT_FILE = "house_honest_wish.toml"


@dataclass(frozen=True)
class Installed:
    source: Path  # a copy of tests/plugin_package (building writes into it)
    site: Path  # the folder pip installed into


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("plugin_package")
    source = root / "tichu-honest-wish"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("__pycache__"))
    site = root / "site"
    command = [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps"]
    command += ["--no-index", "--disable-pip-version-check", "--target", str(site), str(source)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"pip install failed:\n{done.stdout}\n{done.stderr}"
    return Installed(source, site)


def run(installed: Installed, *arguments: str) -> str:
    """Runs ``python ARGUMENTS`` in the package's folder with the install on the path;
    returns its standard output."""
    env = {**os.environ, "PYTHONPATH": str(installed.site)}
    done = subprocess.run(
        [sys.executable, *arguments],
        cwd=installed.source,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"python {' '.join(arguments)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def run_script(installed: Installed, script: str) -> Any:
    """Runs a Python script in a fresh interpreter; returns the JSON it prints last."""
    output = run(installed, "-c", textwrap.dedent(script))
    return json.loads(output.splitlines()[-1])


def test_the_package_is_not_importable_without_the_install() -> None:
    """So whatever the fresh interpreters find, they find in the install."""
    assert importlib.util.find_spec("tichu_honest_wish") is None


def test_the_entry_point_is_discovered_by_importlib_metadata(installed: Installed) -> None:
    found = run_script(
        installed,
        """
        import importlib.metadata, json
        entries = importlib.metadata.entry_points(group="tichu")
        print(json.dumps([[e.name, e.value, e.dist.name, e.dist.version] for e in entries]))
        """,
    )
    assert ["honest_wish", "tichu_honest_wish", "tichu-honest-wish", "1.0.0"] in found


def test_a_variant_file_naming_the_plugin_plays_a_match_to_the_end(installed: Installed) -> None:
    """Bots play a whole match of the variant file; every time a seat is to wish after
    the Mah Jong, no rank it holds is offered (S-WISH-1 as the plugin changes it)."""
    result = run_script(
        installed,
        f"""
        import json
        import tichu_core as tc
        from tichu_core.frontends.bots import make_bot, play_match

        variant = tc.load_variant("{VARIANT_FILE}", overrides={{"game.target": 300}})
        game = tc.Game(variant, seed=5)
        wishes = []

        def check_wish(action, events):
            for seat in game.waiting_for:
                legal = game.legal_actions(seat)
                if all(action.type == "wish" for action in legal):
                    hand = game.observation(game.controller(seat)).hands[seat]
                    held = {{code[:-1] for code in hand if code[-1] in "jspt"}}
                    offered = {{action.rank for action in legal}} - {{None}}
                    assert offered and not offered & held, (offered, held)
                    wishes.append(sorted(offered))

        bots = [make_bot("greedy" if player % 2 else "random", seed=player) for player in range(4)]
        play_match(game, bots, on_action=check_wish)
        print(json.dumps({{
            "allow_imports": variant.allow_imports,
            "plugins": game.rulebook.plugin_names,
            "over": game.is_over,
            "termination": game.outcome.termination.value,
            "wishes": len(wishes),
        }}))
        """,
    )
    assert result["allow_imports"] is False  # an entry point name needs no permission
    assert result["plugins"] == ["standard", "honest_wish"]
    assert result["over"] is True
    assert result["termination"] == "target_reached"
    assert result["wishes"] > 0


def test_the_package_own_test_passes_against_the_install(installed: Installed) -> None:
    output = run(installed, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
    assert re.search(r"\b3 passed\b", output), output  # the last: check_variant


def test_tichu_plugins_names_the_entry_point_and_its_distribution(installed: Installed) -> None:
    report = json.loads(run(installed, "-m", "tichu_core", "plugins", VARIANT_FILE, "--json"))
    first = report["plugins"][0]
    assert first["name"] == "honest_wish"
    assert first["kind"] == "entry point"
    assert first["entry_point"] == "honest_wish = tichu_honest_wish"
    assert (first["distribution"], first["version"]) == ("tichu-honest-wish", "1.0.0")
    assert Path(first["file"]).is_relative_to(installed.site)
    assert first["hooks"] == ["tichu_wish_ranks"]
    assert report["hooks"]["tichu_wish_ranks"] == ["honest_wish", "standard"]
    text = run(installed, "-m", "tichu_core", "plugins", VARIANT_FILE)
    shown = "honest_wish: entry point honest_wish = tichu_honest_wish (tichu-honest-wish 1.0.0)"
    assert shown in text.splitlines()
    assert shown in walkthrough()  # the docs show the same line


# --------------------------------------------------------------------------- the walkthrough


def walkthrough() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n## {WALKTHROUGH}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def package_files() -> list[Path]:
    return sorted(
        path.relative_to(PACKAGE)
        for path in PACKAGE.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


LANGUAGES = {".py": "python", ".toml": "toml"}


@pytest.mark.parametrize("file", package_files(), ids=str)
def test_the_walkthrough_shows_each_package_file_as_it_is(file: Path) -> None:
    section = walkthrough()
    text = (PACKAGE / file).read_text(encoding="utf-8")
    block = f"`{file.as_posix()}`:\n\n```{LANGUAGES[file.suffix]}\n{text}```"
    assert block in section, f"docs/plugins.md does not show {file} as it is in {PACKAGE}"


def test_the_walkthrough_layout_lists_exactly_the_package_files() -> None:
    layout = re.search(r"```\ntichu-honest-wish/\n(.*?)```", walkthrough(), re.DOTALL)
    assert layout is not None, "the walkthrough has no folder layout"
    names = set(re.findall(r"[\w.-]+\.(?:py|toml)", layout.group(1)))
    assert names == {file.name for file in package_files()}
