"""A kit for testing variants and house rules (docs/plugins.md, "Testing a house rule").

- :mod:`tichu_core.testing.scenario`: stacked deals from card codes and one-line
  drivers (a match from given hands, then actions by card codes), so that a test
  reads like a transcript;
- :func:`check_variant`: random matches of a variant with the engine's invariants
  checked after every action (cards conserved, listed and accepted actions agree, no
  hidden card in any view, exact save and restore); ``tichu check FILE --play N``
  runs it from the command line.

Nothing of ``tichu_core`` imports this package: it is for tests.
"""

from tichu_core.testing import scenario
from tichu_core.testing.invariants import (
    MatchCheck,
    VariantReport,
    check_variant,
    play_checked_match,
)
from tichu_core.testing.scenario import *  # noqa: F403  (the names of its __all__)

__all__ = ["MatchCheck", "VariantReport", "check_variant", "play_checked_match"]
__all__ += scenario.__all__
