"""The README's examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "README.md has no python example"
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    game = namespace["game"]
    saved = namespace["saved"]
    import tichu_core as tc

    assert isinstance(game, tc.Game)
    assert tc.Game.from_json(str(saved)).to_json() == saved


def test_readme_quick_start_is_the_two_make_commands() -> None:
    text = README.read_text()
    quick_start = text.split("## Quick start", 1)[1].split("##", 1)[0]
    commands = re.findall(r"^make (\w+)", quick_start, flags=re.M)
    assert commands == ["demo", "test"]
