"""Editors and checks: the committed JSON Schema of variant files, the ``#:schema`` line
every bundled variant file starts with, the generated option tables of
docs/variants.md, and a real (non-editable) install that ships the schema with the
bundled variants.

Each freshness test regenerates from the models and compares; on failure it prints the
command that refreshes the committed file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tichu_core.variants import docs as variant_docs
from tichu_core.variants.loading import dump_schema_json, variant_schema

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "variants"
SCHEMA = VARIANTS / "variant.schema.json"
SCHEMA_LINE = "#:schema ./variant.schema.json"
VARIANT_DOCS = ROOT / "docs" / "variants.md"
TOML_FILES = sorted(VARIANTS.glob("*.toml"))


def test_the_committed_schema_is_the_one_the_models_give() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == dump_schema_json(), (
        "variants/variant.schema.json is stale: run `tichu schema > variants/variant.schema.json`"
    )


@pytest.mark.parametrize("path", TOML_FILES, ids=lambda path: path.name)
def test_every_variant_file_names_the_schema_on_its_first_line(path: Path) -> None:
    """Taplo / Even Better TOML read the schema of a file from a ``#:schema`` comment."""
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    assert first == SCHEMA_LINE, f"{path.name} should start with {SCHEMA_LINE!r}"


def schema_keys(schema: dict[str, Any], definition: dict[str, Any]) -> dict[str, Any]:
    """Key -> its schema, for an object definition (following a ``$ref``)."""
    properties: dict[str, Any] = definition["properties"]
    resolved = {}
    for key, prop in properties.items():
        ref = prop.get("$ref")
        resolved[key] = schema["$defs"][ref.rsplit("/", 1)[1]] if ref else prop
    return resolved


@pytest.mark.parametrize("path", TOML_FILES, ids=lambda path: path.name)
def test_the_schema_knows_every_key_of_every_variant_file(path: Path) -> None:
    """An editor reading the schema flags no key of a bundled file as unknown: the schema
    forbids other keys (``additionalProperties: false``) at the top and in each section."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["additionalProperties"] is False
    top = schema_keys(schema, schema)
    for key, value in tomllib.loads(path.read_text(encoding="utf-8")).items():
        assert key in top, f"{path.name}: {key}"
        if isinstance(value, dict):
            section = top[key]
            assert section["additionalProperties"] is False
            assert set(value) <= set(section["properties"]), f"{path.name}: [{key}]"


def test_docs_option_tables_are_generated_from_the_models() -> None:
    text = VARIANT_DOCS.read_text(encoding="utf-8")
    assert variant_docs.BEGIN in text and variant_docs.END in text
    assert variant_docs.with_option_tables(text) == text, (
        f"the option tables of docs/variants.md are stale: run `{variant_docs.REFRESH}`"
    )


def test_the_generated_tables_say_type_default_and_rules_of_an_option() -> None:
    tables = variant_docs.option_tables()
    assert "| `deck.copies` | int 1..2 | `1` | S-DECK-1, GS-2 | Number of full 56-card" in tables
    assert '| `exchange.targets` | `"all"` \\| `"opponents"` \\| `"partners"`' in tables
    assert "| `deck.without_by_players` | table: player count → array of card codes | `{}` |" in (
        tables
    )
    assert "### [seating]" in tables


def test_the_tables_are_rewritten_between_the_markers(tmp_path: Path) -> None:
    page = tmp_path / "variants.md"
    stale = f"# Variants\n\n{variant_docs.BEGIN}\n| old |\n{variant_docs.END}\nAfter.\n"
    page.write_text(stale, encoding="utf-8")
    assert variant_docs.main([str(page)]) == 0
    fresh = page.read_text(encoding="utf-8")
    assert "| old |" not in fresh
    assert fresh.startswith(f"# Variants\n\n{variant_docs.BEGIN}\n\n### Top level\n")
    assert fresh.endswith(f"\n{variant_docs.END}\nAfter.\n")
    assert variant_docs.with_option_tables(fresh) == fresh
    with pytest.raises(ValueError, match="markers"):
        variant_docs.with_option_tables("no markers")


def test_pyproject_ships_the_schema_with_the_bundled_variants() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = project["tool"]["setuptools"]["package-data"]["tichu_core.variants.bundled"]
    assert "*.toml" in data and SCHEMA.name in data


def test_a_non_editable_install_has_the_bundled_variants_schema_and_plugins(
    tmp_path: Path,
) -> None:
    """``pip install .`` (into a folder, offline) ships every variant file, the schema
    beside them and every bundled plugin, and the installed package lists them. The
    optional compiled modules are not built (TICHU_PURE_PYTHON): they ship no data."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "setup.py"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, source / name)
    for folder in ("tichu_core", "plugins", "variants"):
        shutil.copytree(
            ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    site = tmp_path / "site"
    command = [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps"]
    command += ["--no-index", "--disable-pip-version-check", "--target", str(site), str(source)]
    pure = {**os.environ, "TICHU_PURE_PYTHON": "1"}
    done = subprocess.run(
        command, env=pure, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"pip install failed:\n{done.stdout}\n{done.stderr}"

    bundled = site / "tichu_core" / "variants" / "bundled"
    assert (bundled / SCHEMA.name).read_text(encoding="utf-8") == SCHEMA.read_text("utf-8")
    assert sorted(path.name for path in bundled.glob("*.toml")) == [p.name for p in TOML_FILES]
    plugins = {path.name for path in (site / "tichu_core" / "plugins").glob("*.py")}
    assert plugins == {path.name for path in (ROOT / "plugins").glob("*.py")}

    script = (
        "import json, tichu_core; "
        "print(json.dumps([tichu_core.__file__, tichu_core.list_variants()]))"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    where, names = json.loads(done.stdout)
    assert Path(where).is_relative_to(site)  # the installed copy, not the repository
    assert names == sorted(path.stem for path in TOML_FILES)


def test_tichu_schema_is_what_the_file_holds(capsys: pytest.CaptureFixture[str]) -> None:
    from tichu_core.frontends.cli.commands import main

    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == variant_schema()
    assert json.loads(SCHEMA.read_text(encoding="utf-8")) == variant_schema()
