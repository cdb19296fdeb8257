"""First contact: the package installs without deprecation warnings and the README
says how to run the installed command."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_license_is_an_spdx_expression_for_current_setuptools() -> None:
    """A TOML table for `project.license` is deprecated by setuptools (it warned on every
    install); an SPDX string needs setuptools 77 or newer to build."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    requires = project["build-system"]["requires"]
    setuptools = next(r for r in requires if r.startswith("setuptools"))
    assert re.fullmatch(r"setuptools>=(\d+)", setuptools)
    assert int(setuptools.split(">=")[1]) >= 77


def test_the_readme_says_how_to_run_tichu_after_the_quick_start() -> None:
    readme = (ROOT / "README.md").read_text()
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert ".venv/bin/tichu" in quick_start
    assert "source .venv/bin/activate" in quick_start


def test_the_plugin_docs_say_where_a_plugin_module_must_live() -> None:
    plugins = (ROOT / "docs" / "plugins.md").read_text()
    assert "Where the module must live" in plugins
    assert "PYTHONPATH" in plugins
