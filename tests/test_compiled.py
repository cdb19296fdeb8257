"""The compiled card modules (setup.py, mypyc) against their plain source.

`make test` runs the whole suite twice, on the compiled build and with
``TICHU_PURE_PYTHON=1``; these tests check, in one process, that both builds of
the move generator list exactly the same plays in the same order, and that the
build Python runs is the one asked for.
"""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import tichu_core.builds as builds
import tichu_core.cardplay as cardplay
from tichu_core.cardplay import moves
from tichu_core.cardplay.cards import iter_cards, mask_of, parse_cards
from tichu_core.cardplay.combinations import recognize
from tichu_core.rules.rulebook import Rulebook
from tichu_core.variants.loading import load_variant

CARDPLAY = Path(cardplay.__file__).parent


def _source_module(name: str) -> ModuleType:
    """The plain-source build of ``tichu_core.cardplay.<name>``, under another name."""
    spec = importlib.util.spec_from_file_location(f"_source_{name}", CARDPLAY / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_both_builds_list_the_same_plays_in_the_same_order() -> None:
    source = _source_module("moves")
    rng = random.Random(99)
    tops = [
        None,
        *(recognize(mask_of(parse_cards(t)))[0] for t in ("5j 5s", "9s", "3j 4s 5p 6t 7j")),
    ]
    for variant, players in (("standard", None), ("grand_seigneur", 7)):
        overrides = {"players": players} if players else {}
        rulebook = Rulebook(load_variant(variant, overrides=overrides))
        rules = rulebook.play_rules.rules
        deck = list(iter_cards(rulebook.deck()))
        for _ in range(300):
            hand = mask_of(rng.sample(deck, 14))
            for top in tops:
                assert moves.plays(hand, top, rules) == source.plays(hand, top, rules)


def test_the_build_that_runs_is_the_one_asked_for() -> None:
    pure = os.environ.get("TICHU_PURE_PYTHON", "") not in ("", "0")
    built = any(CARDPLAY.glob("moves.*.so")) or any(CARDPLAY.glob("moves.*.pyd"))
    if pure or not built:
        assert not builds.is_compiled()
        assert moves.__file__ is not None and moves.__file__.endswith(".py")
    else:
        assert builds.is_compiled()


def test_plain_python_is_used_when_asked_even_beside_a_compiled_build() -> None:
    code = "import tichu_core.builds as b; print(b.is_compiled())"
    env = {**os.environ, "TICHU_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_a_compiled_module_older_than_its_source_is_not_run(tmp_path: Path) -> None:
    """A stale build would run old code: the source runs instead, with a warning."""
    from tichu_core.builds import _stale

    source = tmp_path / "moves.py"
    source.write_text("")
    compiled = tmp_path / "moves.cpython-311-x86_64-linux-gnu.so"
    compiled.write_text("")
    os.utime(compiled, (1_000_000, 1_000_000))
    assert _stale(str(source))
    os.utime(compiled, None)
    os.utime(source, (1_000_000, 1_000_000))
    assert not _stale(str(source))


def test_a_compiled_file_left_over_for_a_plain_module_is_not_loaded(tmp_path: Path) -> None:
    """A build with another list of compiled modules may leave an extension file beside a
    module that is no longer compiled (it would fail to load): the source runs."""
    import importlib.machinery
    import shutil

    package = tmp_path / "tichu_core"
    shutil.copytree(
        CARDPLAY.parent,
        package,
        ignore=shutil.ignore_patterns("__pycache__"),
        copy_function=shutil.copy2,
    )
    stray = package / "game" / f"match{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    stray.write_bytes(b"not a shared library")
    code = "import tichu_core.game.match as m; print(m.__file__)"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == str(package / "game" / "match.py")


def test_the_makefile_rebuilds_when_a_compiled_module_changes() -> None:
    """The Makefile reads the compiled modules from builds.py with sed (one quoted path a
    line): that reading finds exactly COMPILED, so editing any of them reinstalls."""
    import re

    root = CARDPLAY.parents[1]
    makefile = (root / "Makefile").read_text(encoding="utf-8")
    assert "$(shell sed -n" in makefile and "tichu_core/builds.py)" in makefile
    lines = (root / "tichu_core" / "builds.py").read_text(encoding="utf-8").splitlines()
    found = [
        m.group(1) for line in lines if (m := re.fullmatch(r'    "(tichu_core/[^"]*\.py)",', line))
    ]
    assert found == list(builds.COMPILED)
