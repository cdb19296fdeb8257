"""`make demo` installs the core alone (README, Makefile): the demo, and the commands a
newcomer tries first, must run with none of the optional extras importable."""

from __future__ import annotations

import subprocess
import sys
import textwrap

# The extras' top-level packages (pyproject.toml): ray, plots, rl, web, dev.
EXTRAS = (
    "ray",
    "matplotlib",
    "pettingzoo",
    "gymnasium",
    "numpy",
    "starlette",
    "uvicorn",
    "websockets",
    "httpx",
    "playwright",
    "pytest",
    "hypothesis",
)

BLOCKER = textwrap.dedent(
    f"""
    import importlib.abc, sys
    BLOCKED = {EXTRAS!r}
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"blocked: {{name}} (an optional extra)")
            return None
    sys.meta_path.insert(0, Block())
    from tichu_core.frontends.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER, *args], capture_output=True, text=True, timeout=300
    )


def test_the_demo_runs_on_the_core_alone() -> None:
    done = run("demo", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "Match over" in done.stdout, done.stdout[-500:]


def test_the_blocker_does_block_an_extra() -> None:
    """The check above can fail: a command that needs an extra is refused under it."""
    done = run("serve", "--port", "0")
    assert done.returncode != 0
    assert "blocked" in done.stderr + done.stdout or "web" in done.stderr + done.stdout


def test_first_commands_run_on_the_core_alone() -> None:
    for args in (["variants"], ["check", "variants/standard.toml"], ["schema"]):
        done = run(*args)
        assert done.returncode == 0, (args, done.stderr)
