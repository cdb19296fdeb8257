"""tichu_core: a plugin-hooked rules engine for Tichu and its variants.

See SPEC.md for the public API; the names exported here are that API.
"""

# First: installs the finder that picks the compiled or the plain build of the hot modules.
import tichu_core.builds  # noqa: F401

# isort: split
from tichu_core.cardplay.cards import Card, format_cards, parse_cards
from tichu_core.cardplay.combinations import Combination, Kind, beats, recognize
from tichu_core.cardplay.moves import MoveRules, legal_plays
from tichu_core.errors import (
    CardError,
    DealError,
    IllegalAction,
    InvalidAction,
    LogFormatError,
    PluginError,
    TichuError,
    VariantError,
)
from tichu_core.game.actions import (
    Action,
    AnotherHand,
    GiveLead,
    GiveTrick,
    GrandTichu,
    Pass,
    Play,
    Push,
    Tichu,
    Wish,
    action_from_json,
    action_to_dict,
)
from tichu_core.game.events import Event
from tichu_core.game.legality import LegalActions
from tichu_core.game.match import Game
from tichu_core.game.results import HandResult
from tichu_core.game.views import Observation
from tichu_core.rules.answers import HandScore, Outcome, Refusal, Seating, Termination
from tichu_core.rules.hookspecs import hookimpl, hookspec
from tichu_core.rules.table import TableView
from tichu_core.variants import Variant, list_variants, load_variant, register_variant_path

__all__ = [
    "Action",
    "AnotherHand",
    "Card",
    "CardError",
    "Combination",
    "DealError",
    "Event",
    "Game",
    "GiveLead",
    "GiveTrick",
    "GrandTichu",
    "HandResult",
    "HandScore",
    "IllegalAction",
    "InvalidAction",
    "Kind",
    "LegalActions",
    "LogFormatError",
    "MoveRules",
    "Observation",
    "Outcome",
    "Pass",
    "Play",
    "PluginError",
    "Push",
    "Refusal",
    "Seating",
    "TableView",
    "Termination",
    "Tichu",
    "TichuError",
    "Variant",
    "VariantError",
    "Wish",
    "action_from_json",
    "action_to_dict",
    "beats",
    "format_cards",
    "hookimpl",
    "hookspec",
    "legal_plays",
    "list_variants",
    "load_variant",
    "parse_cards",
    "recognize",
    "register_variant_path",
]
