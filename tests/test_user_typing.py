"""Types that work where users are (README "Using the engine", docs/api.md "Types"):
after an editable install (``pip install -e .``, what ``make`` runs), ``mypy --strict``
on a user's script in another folder, with no configuration of ours (no pydantic
plugin), finds ``tichu_core``, reports no error inside it, and reports the user's own
mistakes with the engine's types.

The install goes into a new virtual environment (offline, plain Python: nothing is
compiled) that borrows this environment's packages (pydantic, mypy, setuptools, pip)
through a path file; the project is copied first, so that the repository is not touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

GOOD = """\
import tichu_core as tc

game = tc.Game(tc.load_variant("standard"), seed=7)
seat: int = game.waiting_for[0]
actions: tc.LegalActions = game.legal_actions(seat)
events = game.apply(actions[0])
totals: list[int] = game.scores
view: tc.Observation = game.observation(0)
restored: tc.Game = tc.Game.from_json(game.to_json())
print(seat, len(events), totals, view.hand, restored.seed, game.hand_results)
"""

# Two mistakes of the user's: mypy must name them, on these lines, from the engine's types.
WRONG = """\
import tichu_core as tc

game = tc.Game("standard", seed=7)
total: str = game.scores[0]
game.apply(actions=3)
"""


def _mypy(python: Path, cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    # `--config-file=`: no configuration file at all (neither ours nor the user's).
    command = [str(python), "-m", "mypy", "--strict", "--config-file=", "--no-incremental"]
    env = {key: value for key, value in os.environ.items() if key != "MYPYPATH"}
    return subprocess.run(
        [*command, *arguments],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a new environment with the project installed editable."""
    base = tmp_path_factory.mktemp("install")
    source = base / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "setup.py"):
        shutil.copy(ROOT / name, source / name)
    for folder in ("tichu_core", "plugins", "variants"):
        shutil.copytree(
            ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
    environment = base / "venv"
    venv.EnvBuilder(with_pip=False).create(environment)
    python = environment / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    command = [str(python), "-m", "pip", "install", "--no-build-isolation", "--no-deps"]
    command += ["--no-index", "--disable-pip-version-check", "--quiet", "-e", str(source)]
    done = subprocess.run(
        command,
        env={**os.environ, "TICHU_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"pip install -e failed:\n{done.stdout}\n{done.stderr}"
    return python


def test_mypy_strict_finds_the_engine_from_a_users_folder(installed: Path, tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(GOOD, encoding="utf-8")
    done = _mypy(installed, tmp_path, "good.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found in 1 source file" in done.stdout

    (tmp_path / "wrong.py").write_text(WRONG, encoding="utf-8")
    done = _mypy(installed, tmp_path, "wrong.py")
    lines = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[:2] for line in lines] == [["wrong.py", "4"], ["wrong.py", "5"]], (
        done.stdout
    )
    assert 'has type "int", variable has type "str"' in lines[0]
    assert '"actions"' in lines[1]


def test_the_package_type_checks_without_our_configuration(installed: Path, tmp_path: Path) -> None:
    """Every module, checked as source (``-p``), strict, without the pydantic plugin
    of the project's own configuration: what a user's mypy assumes of it."""
    done = _mypy(installed, tmp_path, "-p", "tichu_core")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_the_editable_install_imports_the_same_package(installed: Path, tmp_path: Path) -> None:
    """Python itself imports the package through the folder mypy follows, and the
    import hook still serves the bundled plugins and variants."""
    script = (
        "import tichu_core as tc, tichu_core.plugins.threechu as p; "
        "print(tc.list_variants()[:2], tc.Game('threechu', seed=1).seats, p.__name__)"
    )
    done = subprocess.run(
        [str(installed), "-c", script],
        cwd=tmp_path,
        env={**os.environ, "TICHU_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "['bsw',",
        "'grand_seigneur']",
        "4",
        "tichu_core.plugins.threechu",
    ]
