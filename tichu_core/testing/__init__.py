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

from tichu_core.testing.invariants import (
    MatchCheck,
    VariantReport,
    check_variant,
    play_checked_match,
)
from tichu_core.testing.scenario import (
    Deal,
    Pushes,
    card_set,
    cards,
    deal,
    deal_with,
    decline_all_grand_tichu,
    exchange_plan,
    give_trick,
    grand_tichu,
    held,
    kinds,
    listed,
    may_pass,
    new_game,
    next_hand,
    of_type,
    pass_,
    passes,
    play,
    plays_of,
    push,
    push_all,
    random_action,
    refused,
    snapshot,
    start_play,
    state,
    strings,
    tichu,
    wish,
)

__all__ = [
    "Deal",
    "MatchCheck",
    "Pushes",
    "VariantReport",
    "card_set",
    "cards",
    "check_variant",
    "deal",
    "deal_with",
    "decline_all_grand_tichu",
    "exchange_plan",
    "give_trick",
    "grand_tichu",
    "held",
    "kinds",
    "listed",
    "may_pass",
    "new_game",
    "next_hand",
    "of_type",
    "pass_",
    "passes",
    "play",
    "play_checked_match",
    "plays_of",
    "push",
    "push_all",
    "random_action",
    "refused",
    "snapshot",
    "start_play",
    "state",
    "strings",
    "tichu",
    "wish",
]
