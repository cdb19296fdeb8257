"""Where an error of the ``tichu`` command came from, in one line a plugin author can use.

A plugin that fails inside a hook reaches the command line as a ``PluginError``
naming the plugin and the hook; its cause holds the plugin's own frames. The command
prints the innermost of them that is neither the engine's nor pluggy's nor Python's own
library (``at club_rules/bombs.py, line 12, in tichu_may_bomb: return table.seat[9]``),
or, for a plugin module that cannot even be imported, the line of its syntax error.
``tichu --traceback COMMAND ...`` prints the whole trace instead.
"""

from __future__ import annotations

import sys
import sysconfig
import traceback
from pathlib import Path

import pluggy

import tichu_core

# Frames of these folders are never "where it came from": the engine, the plugin
# manager and Python's own library.
_NOT_THE_PLUGIN = tuple(
    str(Path(folder).resolve())
    for folder in (
        Path(tichu_core.__file__).parent,
        Path(pluggy.__file__).parent,
        sysconfig.get_paths()["stdlib"],
        sysconfig.get_paths()["platstdlib"],
    )
)


# The bundled plugins: inside the package where it is installed, plugins all the same.
_BUNDLED = str((Path(tichu_core.__file__).parent / "plugins").resolve())


def _outside(filename: str) -> bool:
    """Whether a frame's file may be a plugin's."""
    if filename.startswith("<"):
        return False
    try:
        path = str(Path(filename).resolve())
    except (OSError, RuntimeError):
        return False
    return path.startswith(_BUNDLED) or not path.startswith(_NOT_THE_PLUGIN)


def failure_location(error: BaseException) -> str | None:
    """``at FILE, line N, in FUNCTION: SOURCE`` for the innermost frame of ``error``'s
    causes (its own frames last) that is outside the engine, pluggy and the standard
    library; a syntax error's own file and line; None when no such frame exists."""
    chain: list[BaseException] = []
    seen: BaseException | None = error
    while seen is not None and seen not in chain:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    for failure in reversed(chain):  # the deepest cause first
        if isinstance(failure, SyntaxError) and failure.filename and _outside(failure.filename):
            return f"at {failure.filename}, line {failure.lineno}: {(failure.text or '').strip()}"
        frames = [
            frame
            for frame in traceback.extract_tb(failure.__traceback__)
            if _outside(frame.filename)
        ]
        if frames:
            frame = frames[-1]
            source = f": {frame.line.strip()}" if frame.line else ""
            return f"at {frame.filename}, line {frame.lineno}, in {frame.name}{source}"
    return None


def print_trace(error: BaseException) -> None:
    """The whole trace of ``error`` and its causes, on standard error."""
    traceback.print_exception(error, file=sys.stderr)
