"""tichu_core: a plugin-hooked rules engine for Tichu and its variants.

See docs/api.md for the public API; the names exported here are that API.
The rules, with the id each ``IllegalAction.rule`` cites (``S-COMB-3``), are in
docs/rules.md; the variant options in docs/variants.md.
"""

# First: installs the finder that picks the compiled or the plain build of the hot modules.
import tichu_core.builds  # noqa: F401

# isort: split
import importlib.metadata as _metadata

from tichu_core.cardplay.cards import Card, format_cards, parse_cards, rank_of_name
from tichu_core.cardplay.combinations import (
    Combination,
    Kind,
    beats,
    is_standard_kind,
    kind_label,
    recognize,
)
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
from tichu_core.game.eventlog import Events
from tichu_core.game.events import (
    AnotherHandDecided,
    CardsDealt,
    CardsReceived,
    DragonGiven,
    Event,
    ExchangeDone,
    GrandTichuDecided,
    HandScored,
    HandShown,
    HandStarted,
    LeadPassed,
    MatchOver,
    Passed,
    Played,
    Pushed,
    PushWithdrawn,
    SeatOut,
    TichuCalled,
    TrickWon,
    WishFulfilled,
    WishMade,
)
from tichu_core.game.legality import LegalActions
from tichu_core.game.match import Game
from tichu_core.game.reading import event_from_json, hand_result_from_json, observation_from_json
from tichu_core.game.results import HandResult
from tichu_core.game.views import Observation
from tichu_core.game.worlds import WorldSampler, sample_world
from tichu_core.rules.answers import HandScore, Outcome, Refusal, Seating, Termination
from tichu_core.rules.hookspecs import hookimpl, hookspec
from tichu_core.rules.rulebook import move_rules
from tichu_core.rules.table import TableView
from tichu_core.variants import Variant, list_variants, load_variant, register_variant_path
from tichu_core.variants.loading import dump_schema_json, parse_overrides

try:  # one source: the installed package's metadata (pyproject.toml's version)
    __version__: str = _metadata.version("tichu")
except _metadata.PackageNotFoundError:  # the source tree, not installed
    __version__ = "0+unknown"

__all__ = [
    "Action",
    "AnotherHand",
    "AnotherHandDecided",
    "Card",
    "CardError",
    "CardsDealt",
    "CardsReceived",
    "Combination",
    "DealError",
    "DragonGiven",
    "Event",
    "Events",
    "ExchangeDone",
    "Game",
    "GiveLead",
    "GiveTrick",
    "GrandTichu",
    "GrandTichuDecided",
    "HandResult",
    "HandScore",
    "HandScored",
    "HandShown",
    "HandStarted",
    "IllegalAction",
    "InvalidAction",
    "Kind",
    "LeadPassed",
    "LegalActions",
    "LogFormatError",
    "MatchOver",
    "MoveRules",
    "Observation",
    "Outcome",
    "Pass",
    "Passed",
    "Play",
    "Played",
    "PluginError",
    "Push",
    "PushWithdrawn",
    "Pushed",
    "Refusal",
    "SeatOut",
    "Seating",
    "TableView",
    "Termination",
    "Tichu",
    "TichuCalled",
    "TichuError",
    "TrickWon",
    "Variant",
    "VariantError",
    "Wish",
    "WishFulfilled",
    "WishMade",
    "WorldSampler",
    "action_from_json",
    "action_to_dict",
    "beats",
    "dump_schema_json",
    "event_from_json",
    "format_cards",
    "hand_result_from_json",
    "hookimpl",
    "hookspec",
    "is_standard_kind",
    "kind_label",
    "legal_plays",
    "list_variants",
    "load_variant",
    "move_rules",
    "observation_from_json",
    "parse_cards",
    "parse_overrides",
    "rank_of_name",
    "recognize",
    "register_variant_path",
    "sample_world",
]
