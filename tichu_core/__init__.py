"""tichu_core: a plugin-hooked rules engine for Tichu and its variants."""

from .cards import Card, format_cards, parse_cards
from .combinations import Combination, Kind, beats, recognize
from .errors import (
    CardError,
    IllegalAction,
    InvalidAction,
    LogFormatError,
    PluginError,
    TichuError,
    VariantError,
)
from .moves import MoveRules, legal_plays

__all__ = [
    "Card",
    "CardError",
    "Combination",
    "IllegalAction",
    "InvalidAction",
    "Kind",
    "LogFormatError",
    "MoveRules",
    "PluginError",
    "TichuError",
    "VariantError",
    "beats",
    "format_cards",
    "legal_plays",
    "parse_cards",
    "recognize",
]
