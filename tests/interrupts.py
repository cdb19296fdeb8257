"""Ctrl-C for the commands the tests start.

A test suite started with SIGINT ignored (in the background, under ``nohup``) hands
that to every process it starts: an ignored signal stays ignored across ``exec``, and
Python then installs no KeyboardInterrupt handler at all. A test that sends a command
SIGINT, as Ctrl-C does, starts it with :func:`default_sigint` (``preexec_fn``), so that
the command meets Ctrl-C as it does in a terminal.
"""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """In the child, between fork and exec: SIGINT back to its default action."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
