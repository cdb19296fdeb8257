"""The project's error family: every error the engine raises on bad input."""

from __future__ import annotations

from typing import TypeVar


class TichuError(Exception):
    """Base of every error raised by tichu_core."""


class CardError(TichuError, ValueError):
    """Malformed card text: names the bad token."""

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class VariantError(TichuError, ValueError):
    """A variant file or override is invalid; lists every problem at once."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]


class InvalidAction(TichuError, ValueError):
    """A malformed action: unknown card, card not held, seat not at the table, bad shape."""


class IllegalAction(TichuError):
    """A well-formed action the rules forbid now; `rule` is the docs/rules.md id it breaks."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule


class PluginError(TichuError):
    """A plugin failed inside a hook; names the plugin and the hook."""

    def __init__(self, message: str, plugin: str | None = None, hook: str | None = None) -> None:
        super().__init__(message)
        self.plugin = plugin
        self.hook = hook


class LogFormatError(TichuError, ValueError):
    """A malformed game log (e.g. a Brettspielwelt .tch file); names the line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line


class DealError(TichuError, ValueError):
    """A stacked deal that does not fit the variant's deck or table."""


_Error = TypeVar("_Error", bound=BaseException)


def caused_by(error: _Error, cause: BaseException) -> _Error:
    """``error`` with ``cause`` as its cause, for ``raise caused_by(E(...), cause) from
    cause`` in the modules that may run compiled: mypyc drops the ``from`` clause."""
    error.__cause__ = cause
    return error
