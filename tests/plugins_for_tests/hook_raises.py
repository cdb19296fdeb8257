"""A broken house rule for tests/test_plugins.py: it fails whenever a trick is collected."""

from tichu_core.rules.hookspecs import hookimpl


@hookimpl
def tichu_trick_winner(table):
    raise RuntimeError(f"no winner for a trick of {len(table.trick)} plays")
