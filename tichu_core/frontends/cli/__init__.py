"""The ``tichu`` command: argument parsing and the commands (``commands``), a person
playing in the terminal (``terminal``), ``tichu plugins`` (``plugins``) and
``tichu replay`` (``replay``)."""

from tichu_core.frontends.cli.commands import main

__all__ = ["main"]
