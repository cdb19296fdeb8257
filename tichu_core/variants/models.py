"""Variants: every rule option of RULES.md as a strict pydantic model, loaded from TOML.

A variant is data. Each option is a field that names the RULES.md id it implements;
behaviour a value cannot express lives in plugins, which a variant only names
(`plugins`): this module never imports them. Loading resolves `extends` chains
(deep merge, child keys win, lists replace), applies dotted-key overrides and
validates the result, reporting every problem at once as
`FILE: dotted.key: message (got VALUE)`.
"""

from __future__ import annotations

import difflib
import importlib.resources
import json
import os
import re
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import ErrorDetails

from tichu_core.errors import VariantError

__all__ = [
    "BombOptions",
    "CallOptions",
    "DealOptions",
    "DeckOptions",
    "DogOptions",
    "DragonOptions",
    "ExchangeOptions",
    "GameOptions",
    "ScoringOptions",
    "SeatingOptions",
    "TeamOptions",
    "TrickOptions",
    "Variant",
    "VariantFile",
    "WishOptions",
    "check_variant_file",
    "cli_check",
    "cli_schema",
    "cli_variants",
    "dump_schema_json",
    "list_variants",
    "load_variant",
    "parse_overrides",
    "register_variant_path",
    "variant_schema",
]

# --------------------------------------------------------------------------- card codes
# The variant model validates the card codes it names without importing the card
# module, so that a variant file can be checked on its own (`tichu check`).

SPECIAL_CODES = ("MJ", "DOG", "PH", "DR")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("j", "s", "p", "t")
MIN_PLAYERS = 3
MAX_PLAYERS = 12


def _canonical_rank(text: str) -> str | None:
    rank = text.upper()
    rank = "10" if rank == "T" else rank
    return rank if rank in RANKS else None


def _canonical_card_code(text: str) -> str:
    """`2J` -> `2j`, `tt` -> `10t`, `dog` -> `DOG`; ValueError for anything else."""
    code = text.strip()
    if code.upper() in SPECIAL_CODES:
        return code.upper()
    rank = _canonical_rank(code[:-1])
    suit = code[-1:].lower()
    if rank is None or suit not in SUITS:
        raise ValueError(
            f"unknown card code {text!r}: expected MJ, DOG, PH, DR or rank 2..10/J/Q/K/A "
            "followed by suit j, s, p or t (e.g. '10t', 'Qp')"
        )
    return rank + suit


def _canonical_order_entry(text: str) -> str:
    """An entry of `exchange.best_order`: a special card code or a rank without suit."""
    if text.strip().upper() in SPECIAL_CODES:
        return text.strip().upper()
    rank = _canonical_rank(text.strip())
    if rank is None:
        raise ValueError(
            f"unknown entry {text!r}: expected MJ, DOG, PH, DR or a rank 2..10, J, Q, K, A"
        )
    return rank


def _plugin_name(text: str) -> str:
    if not _PLUGIN_NAME.fullmatch(text):
        raise ValueError(
            f"invalid plugin name {text!r}: expected a name (e.g. 'threechu') "
            "or a dotted module path (e.g. 'my_rules.short_game')"
        )
    return text


def _distinct(entries: tuple[str, ...]) -> tuple[str, ...]:
    repeated = sorted({entry for entry in entries if entries.count(entry) > 1})
    if repeated:
        raise ValueError(f"lists {', '.join(repeated)} more than once")
    return entries


_PLUGIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
_PLAYER_COUNT_PATTERN = "^(" + "|".join(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)) + ")$"

CardCode = Annotated[StrictStr, AfterValidator(_canonical_card_code)]
OrderEntry = Annotated[StrictStr, AfterValidator(_canonical_order_entry)]
PluginName = Annotated[StrictStr, AfterValidator(_plugin_name)]
PlayerCountKey = Annotated[str, StringConstraints(pattern=_PLAYER_COUNT_PATTERN)]
DeckCopies = Annotated[StrictInt, Field(ge=1, le=2)]
CardCount = Annotated[StrictInt, Field(ge=0)]


# --------------------------------------------------------------------------- the model


class _Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DeckOptions(_Options):
    """[deck]: which cards make the deck (S-DECK-1, GS-2)."""

    copies: DeckCopies = Field(
        1, description="S-DECK-1, GS-2: number of full 56-card decks shuffled together (1 or 2)."
    )
    without: tuple[CardCode, ...] = Field(
        (),
        description=(
            "GS-2: card codes removed from the full deck(s); a code listed twice removes "
            'both copies (e.g. ["DOG", "DOG", "MJ"]).'
        ),
    )
    copies_by_players: dict[PlayerCountKey, DeckCopies] = Field(
        default_factory=dict,
        description=(
            'GS-2 (option `decks` per player count): player count (string key, "7") -> '
            "copies; overrides `copies` for that table size."
        ),
    )
    without_by_players: dict[PlayerCountKey, tuple[CardCode, ...]] = Field(
        default_factory=dict,
        description=(
            "GS-2: player count (string key) -> card codes removed; overrides `without` "
            "for that table size."
        ),
    )


class DealOptions(_Options):
    """[deal]: how the cards are dealt (S-DEAL-1, S-DEAL-2, T6-2, GS-3)."""

    grand_tichu_after: CardCount = Field(
        8,
        description=(
            "S-DEAL-1, S-DEAL-2, T6-2: cards each seat holds when Grand Tichu is decided "
            "(0 = no Grand Tichu decision phase)."
        ),
    )
    hand_size: CardCount = Field(
        14,
        description=(
            "S-DEAL-1, T6-2, GS-3: cards per seat; 0 = deal the whole deck one card at a "
            "time (hands may differ by one card)."
        ),
    )
    first_receiver: Literal["dealer", "after_dealer"] = Field(
        "dealer",
        description=(
            "T6-2, GS-3: who receives the first card when the whole deck is dealt: the "
            "dealer (Tientsin) or the seat after the dealer (Grand Seigneur)."
        ),
    )


class CallOptions(_Options):
    """[calls]: Tichu and Grand Tichu (S-DEAL-2, S-CALL-1, S-SCORE-3, T3-2, GS-1)."""

    grand_tichu: StrictBool = Field(True, description="S-DEAL-2, GS-1: Grand Tichu may be called.")
    tichu: StrictBool = Field(True, description="S-CALL-1, GS-1: Tichu may be called.")
    tichu_and_grand_tichu: StrictBool = Field(
        False,
        description=(
            "S-CALL-1: a seat that called Grand Tichu may also call Tichu in the same hand "
            "(false = one call per seat per hand)."
        ),
    )
    max_per_team: CardCount = Field(
        0, description="S-CALL-1: most calls one team may make in a hand (0 = no limit)."
    )
    tichu_points: CardCount = Field(
        100, description="S-SCORE-3: points won or lost for a Tichu call."
    )
    grand_tichu_points: CardCount = Field(
        200, description="S-SCORE-3: points won or lost for a Grand Tichu call."
    )


class ExchangeOptions(_Options):
    """[exchange]: the push before play (S-EX-1, T3-3, T6-3, GS-5, GS-6)."""

    targets: Literal["all", "opponents", "partners", "rank", "none"] = Field(
        "all",
        description=(
            "S-EX-1, T3-3, T6-3, GS-6: who receives a card from each seat: one card to each "
            "other seat (all), to each opponent, to each partner, by finishing rank (rank), "
            "or no exchange (none)."
        ),
    )
    first_hand: StrictBool = Field(
        True, description="GS-5: the first hand of a match has an exchange."
    )
    best_order: Annotated[tuple[OrderEntry, ...], AfterValidator(_distinct)] = Field(
        ("DR", "PH", "MJ", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"),
        description=(
            "GS-6: order of the 'best' cards a rank exchange forces a seat to give, best "
            "first; special codes and ranks (suits never rank)."
        ),
    )
    rank_cards: tuple[CardCount, ...] = Field(
        (3, 2, 1),
        description=(
            "GS-6: cards given at each level of a rank exchange, from the top: the last "
            "seat out gives the first that many, the second-to-last the second, ..."
        ),
    )
    rank_cards_by_players: dict[PlayerCountKey, tuple[CardCount, ...]] = Field(
        default_factory=dict,
        description=(
            "GS-6: player count (string key) -> rank_cards for that table size "
            "(Grand Seigneur with 5 players: [2, 1, 0])."
        ),
    )


class WishOptions(_Options):
    """[wish]: the Mah Jong wish (S-WISH-1..6, GS-7, E-4)."""

    enabled: StrictBool = Field(
        True, description="S-WISH-1, GS-7, E-4: the Mah Jong player may make a wish."
    )
    bomb_must_fulfil: StrictBool = Field(
        True,
        description=(
            "S-WISH-2: a bomb containing the wished rank counts as a way to fulfil the wish."
        ),
    )
    phoenix_fulfils: StrictBool = Field(
        False,
        description="S-WISH-3: the Phoenix standing in for the wished rank fulfils the wish.",
    )
    bomb_instead: StrictBool = Field(
        False,
        description=(
            "S-WISH-6: a seat obliged by the wish may play any bomb instead (Brettspielwelt rule)."
        ),
    )


class BombOptions(_Options):
    """[bombs]: bombs (S-BOMB-5, GS-4)."""

    own_trick: StrictBool = Field(
        True, description="S-BOMB-5: a seat may bomb a trick whose top play is its own."
    )
    four_distinct_suits: StrictBool = Field(
        True,
        description=(
            "GS-4: four of a kind is a bomb only with four different suits (always true "
            "with one deck)."
        ),
    )


class DogOptions(_Options):
    """[dog]: where the Dog sends the lead (S-DOG-2, T6-4)."""

    partner_out: Literal["next_after_partner", "next_after_player"] = Field(
        "next_after_partner",
        description=(
            "S-DOG-2: if the partner is out, the lead goes to the next seat with cards after "
            "the partner, or after the Dog's player."
        ),
    )
    choose_partner: StrictBool = Field(
        False,
        description=(
            "T6-4: the Dog's player chooses which partner with cards gets the lead "
            "(a pending GiveLead decision)."
        ),
    )


class DragonOptions(_Options):
    """[dragon]: the Dragon trick (S-DRAGON-1, S-DRAGON-2, GS-1, GS-4)."""

    gift: StrictBool = Field(
        True,
        description=(
            "S-DRAGON-1, GS-1: a trick won with the Dragon is given to an opponent of the "
            "winner's choice."
        ),
    )
    gift_when_last: StrictBool = Field(
        True, description="S-DRAGON-2: the gift applies to the last trick of the hand too."
    )
    second_beats_first: StrictBool = Field(
        False, description="GS-4: a second Dragon (two decks) beats the first."
    )


class TrickOptions(_Options):
    """[tricks]: collecting tricks (S-TRICK-2)."""

    winner_collects: StrictBool = Field(
        True,
        description=(
            "S-TRICK-2: the top player collects the trick by passing once more after all "
            "others passed (false: collected at the last needed pass)."
        ),
    )


class TeamOptions(_Options):
    """[teams]: partnerships (T3-1, T6-1, GS-1)."""

    size: Annotated[StrictInt, Field(ge=1)] = Field(
        2,
        description=(
            "T6-1, GS-1: seats per team: 1 = no partners (Grand Seigneur), 2 = standard, "
            "3 = Tientsin. The team of seat s is s % (seats // size)."
        ),
    )
    dummy: StrictBool = Field(
        False,
        description=(
            "T3-1: a dummy seat, played by the shuffler, joins the table (Threechu: "
            "3 players, 4 seats)."
        ),
    )


class ScoringOptions(_Options):
    """[scoring]: end-of-hand scoring (S-SCORE-1, S-SCORE-2, T3-7, T6-5, T6-6, GS-1)."""

    card_points: StrictBool = Field(True, description="S-SCORE-1, GS-1: card points are counted.")
    double_victory: CardCount = Field(
        200,
        description=(
            "S-SCORE-2, T6-5, T6-6: score of a team whose seats all go out first (double "
            "victory; Tientsin's triple victory: 300)."
        ),
    )
    per_player: StrictBool = Field(
        False,
        description=(
            "T3-7: one score line per player (and the dummy) instead of one per team; each "
            "member gets the whole team score."
        ),
    )


class GameOptions(_Options):
    """[game]: match end (S-GAME-1, T3-8, GS-8)."""

    target: CardCount = Field(
        1000,
        description=(
            "S-GAME-1: the match ends after the hand in which a score line reaches this "
            "(0 = no target)."
        ),
    )
    hands: CardCount = Field(
        0,
        description=(
            "T3-8, GS-8: the match ends after this many hands (0 = no fixed number; "
            "Threechu: a multiple of the player count)."
        ),
    )


class SeatingOptions(_Options):
    """[seating]: reseating between hands (GS-5)."""

    direction: Literal["right", "left"] = Field(
        "right",
        description=(
            "GS-5: play goes to the right (seat order 0 Great Lord, 1 Wretch, ..., n-1 "
            "Lord) or to the left (seat order is rank order)."
        ),
    )


class _VariantFields(_Options):
    """The options shared by a variant file and a resolved variant."""

    name: StrictStr = Field(min_length=1, description="Variant name (defaults to the file name).")
    description: StrictStr = Field("", description="One line shown by `tichu variants`.")
    players: Annotated[StrictInt, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = Field(
        4,
        description=(
            "S-DEAL-1, T3-1, T6-1, GS-2: people at the table, 3..12 (a Threechu dummy seat "
            "comes on top)."
        ),
    )
    plugins: Annotated[tuple[PluginName, ...], AfterValidator(_distinct)] = Field(
        ("standard",),
        description=(
            "Rule plugins, resolved by the engine: entry-point or bundled names, or dotted "
            "module paths (imported only when allowed)."
        ),
    )
    deck: DeckOptions = Field(default_factory=DeckOptions, description="S-DECK-1, GS-2: the cards.")
    deal: DealOptions = Field(
        default_factory=DealOptions, description="S-DEAL-1, S-DEAL-2, T6-2, GS-3: dealing."
    )
    calls: CallOptions = Field(
        default_factory=CallOptions,
        description="S-CALL-1, S-SCORE-3, T3-2, GS-1: Tichu and Grand Tichu.",
    )
    exchange: ExchangeOptions = Field(
        default_factory=ExchangeOptions,
        description="S-EX-1, T3-3, T6-3, GS-5, GS-6: the exchange.",
    )
    wish: WishOptions = Field(
        default_factory=WishOptions, description="S-WISH-*, GS-7, E-4: the Mah Jong wish."
    )
    bombs: BombOptions = Field(default_factory=BombOptions, description="S-BOMB-*, GS-4: bombs.")
    dog: DogOptions = Field(default_factory=DogOptions, description="S-DOG-*, T6-4: the Dog.")
    dragon: DragonOptions = Field(
        default_factory=DragonOptions, description="S-DRAGON-*, GS-1, GS-4: the Dragon."
    )
    tricks: TrickOptions = Field(
        default_factory=TrickOptions, description="S-TRICK-2: collecting tricks."
    )
    teams: TeamOptions = Field(
        default_factory=TeamOptions, description="T3-1, T6-1, GS-1: partnerships."
    )
    scoring: ScoringOptions = Field(
        default_factory=ScoringOptions, description="S-SCORE-*, T3-7, T6-6, GS-1: scoring."
    )
    game: GameOptions = Field(
        default_factory=GameOptions, description="S-GAME-1, T3-8, GS-8: match end."
    )
    seating: SeatingOptions = Field(
        default_factory=SeatingOptions, description="GS-5: reseating between hands."
    )


class VariantFile(_VariantFields):
    """A tichu variant file (TOML): every key is optional; `extends` names the parent."""

    name: StrictStr | None = Field(  # type: ignore[assignment]
        None, min_length=1, description="Variant name (defaults to the file name)."
    )
    extends: StrictStr | None = Field(
        None,
        description=(
            "Parent variant: a bundled or registered name, or a path relative to this file. "
            "Tables merge deeply, this file's keys win, lists replace."
        ),
    )


class CombinationProblems(ValueError):
    """Options that are valid one by one but impossible together: (dotted key, message, value)."""

    def __init__(self, problems: list[tuple[str, str, object]]) -> None:
        super().__init__(
            "\n".join(f"{key}: {message} (got {_show(value)})" for key, message, value in problems)
        )
        self.problems = problems


class Variant(_VariantFields):
    """A resolved, validated variant: what the engine and the plugins read."""

    source: SkipJsonSchema[StrictStr | None] = Field(
        None, description="The name or path this variant was loaded from (not compared)."
    )
    allow_imports: SkipJsonSchema[StrictBool] = Field(
        False,
        description=(
            "Whether the engine may import dotted-module plugins named in `plugins` "
            "(a permission of the caller, never of the file)."
        ),
    )

    @model_validator(mode="after")
    def _check_combination(self) -> Variant:
        problems = _combination_problems(self)
        if problems:
            raise CombinationProblems(problems)
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Variant):
            return NotImplemented
        return self.model_dump(exclude={"source"}) == other.model_dump(exclude={"source"})

    def __hash__(self) -> int:
        return hash(self.model_dump_json(exclude={"source"}))

    @property
    def seats(self) -> int:
        """Hands at the table: the players, plus the dummy seat when `teams.dummy` (T3-1)."""
        return self.players + (1 if self.teams.dummy else 0)

    @property
    def team_count(self) -> int:
        """Number of teams (score lines of a team game): seats // teams.size."""
        return self.seats // self.teams.size

    def team_of(self, seat: int) -> int:
        """Team of a seat: teams alternate around the table (T6-1)."""
        return seat % self.team_count

    @property
    def deck_copies(self) -> int:
        """`deck.copies`, or its `deck.copies_by_players` entry for `players` (GS-2)."""
        return self.deck.copies_by_players.get(str(self.players), self.deck.copies)

    @property
    def deck_without(self) -> tuple[str, ...]:
        """`deck.without`, or its `deck.without_by_players` entry for `players` (GS-2)."""
        return self.deck.without_by_players.get(str(self.players), self.deck.without)

    @property
    def deck_codes(self) -> tuple[str, ...]:
        """Every card of the deck as a code, one entry per copy (S-DECK-1, GS-2)."""
        counts = _deck_counts(self.deck_copies, self.deck_without)
        return tuple(code for code, count in counts.items() for _ in range(count))

    @property
    def exchange_rank_cards(self) -> tuple[int, ...]:
        """`exchange.rank_cards`, or its entry for `players` (GS-6)."""
        return self.exchange.rank_cards_by_players.get(str(self.players), self.exchange.rank_cards)


# --------------------------------------------------------------------------- combinations


def _full_deck_codes() -> list[str]:
    normal = [rank + suit for rank in RANKS for suit in SUITS]
    return ["MJ", *normal, "DOG", "PH", "DR"]


def _deck_counts(copies: int, without: Iterable[str]) -> dict[str, int]:
    """Card code -> copies in the deck; codes removed more often than present go to 0."""
    counts = {code: copies for code in _full_deck_codes()}
    for code in without:
        counts[code] = max(0, counts[code] - 1)
    return {code: count for code, count in counts.items() if count}


def _kind(code: str) -> str:
    """What `exchange.best_order` ranks a card by: its special code or its rank."""
    return code if code in SPECIAL_CODES else code[:-1]


def _by_players_key(table: Mapping[str, object], players: int, key: str) -> str:
    return f"{key}_by_players.{players}" if str(players) in table else key


def _combination_problems(v: Variant) -> list[tuple[str, str, object]]:
    """Every option combination that no engine could play, as (dotted key, message, value)."""
    problems: list[tuple[str, str, object]] = []
    seats, size = v.seats, v.teams.size

    if v.teams.dummy and size < 2:
        problems.append(("teams.dummy", "a dummy seat needs a partner to play it (T3-1)", True))
    if seats % size:
        problems.append(("teams.size", f"{seats} seats cannot form teams of {size}", size))

    # Each table size the deck tables mention must remove only cards the deck has.
    counts_checked = {v.players} | {int(n) for n in v.deck.without_by_players}
    for players in sorted(counts_checked):
        copies = v.deck.copies_by_players.get(str(players), v.deck.copies)
        without = v.deck.without_by_players.get(str(players), v.deck.without)
        for code, removed in sorted(Counter(without).items()):
            if removed > copies:
                problems.append(
                    (
                        _by_players_key(v.deck.without_by_players, players, "deck.without"),
                        f"removes {code} {removed} times but {players} players use "
                        f"{copies} deck{'s' if copies > 1 else ''}",
                        list(without),
                    )
                )

    deck = _deck_counts(v.deck_copies, v.deck_without)
    deck_size = sum(deck.values())
    hand = v.deal.hand_size
    if hand:
        if seats * hand > deck_size:
            problems.append(
                (
                    "players",
                    f"{seats} seats x {hand} cards (deal.hand_size) need {seats * hand} "
                    f"cards but the deck has {deck_size}",
                    v.players,
                )
            )
        smallest_hand = hand
    else:
        if deck_size < seats:
            problems.append(
                ("players", f"{seats} seats but the deck has only {deck_size} cards", v.players)
            )
        smallest_hand = deck_size // seats

    after = v.deal.grand_tichu_after
    if after > smallest_hand:
        problems.append(
            (
                "deal.grand_tichu_after",
                f"a seat receives only {smallest_hand} cards in all (S-DEAL-1)",
                after,
            )
        )
    if v.calls.grand_tichu and after == 0:
        problems.append(
            (
                "calls.grand_tichu",
                "Grand Tichu needs a decision point: set deal.grand_tichu_after > 0 (S-DEAL-2)",
                True,
            )
        )

    targets = v.exchange.targets
    levels = v.exchange_rank_cards
    while levels and levels[-1] == 0:
        levels = levels[:-1]
    if targets == "partners" and size < 2:
        problems.append(
            ("exchange.targets", "'partners' needs teams of 2 or more (teams.size)", targets)
        )
    if targets == "opponents" and seats // size < 2:
        problems.append(("exchange.targets", "'opponents' needs at least two teams", targets))
    if targets == "rank":
        if v.exchange.first_hand:
            problems.append(
                (
                    "exchange.first_hand",
                    "the rank exchange needs the finishing order of a previous hand; "
                    "set exchange.first_hand = false (GS-5)",
                    True,
                )
            )
        if 2 * len(levels) > seats:
            problems.append(
                (
                    _by_players_key(
                        v.exchange.rank_cards_by_players, v.players, "exchange.rank_cards"
                    ),
                    f"{len(levels)} exchange levels need {2 * len(levels)} seats but the "
                    f"table has {seats} (GS-6)",
                    list(v.exchange_rank_cards),
                )
            )
        unranked = sorted({_kind(code) for code in deck} - set(v.exchange.best_order))
        if unranked:
            problems.append(
                (
                    "exchange.best_order",
                    f"does not rank {', '.join(unranked)}, which the deck holds (GS-6)",
                    list(v.exchange.best_order),
                )
            )
    given = {
        "all": seats - 1,
        "opponents": seats - size,
        "partners": size - 1,
        "rank": max(levels, default=0),
        "none": 0,
    }[targets]
    if given > smallest_hand:
        problems.append(
            (
                "exchange.targets",
                f"each seat would give {given} cards but holds only {smallest_hand}",
                targets,
            )
        )

    if v.game.target == 0 and v.game.hands == 0:
        problems.append(
            ("game.target", "the match would never end: set game.target or game.hands", 0)
        )
    if v.teams.dummy and v.game.hands % v.players:
        problems.append(
            (
                "game.hands",
                f"must be a multiple of {v.players} so that every player shuffles equally "
                "often (T3-8)",
                v.game.hands,
            )
        )
    return problems


# --------------------------------------------------------------------------- locating files

_BUNDLED_PACKAGE = "tichu_core.variants.bundled"
_REGISTERED: dict[str, Path] = {}
_VARIANT_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


def _bundled_dir() -> Traversable:
    """The bundled variants: package data when installed, else the repository's variants/."""
    try:
        bundled = importlib.resources.files(_BUNDLED_PACKAGE)
        if bundled.joinpath("standard.toml").is_file():
            return bundled
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parents[2] / "variants"


def _bundled_files() -> dict[str, Traversable]:
    directory = _bundled_dir()
    if not directory.is_dir():
        return {}
    return {
        entry.name.removesuffix(".toml"): entry
        for entry in directory.iterdir()
        if entry.name.endswith(".toml") and entry.is_file()
    }


def register_variant_path(name: str, path: str | os.PathLike[str]) -> None:
    """Make a variant file loadable by name (for plugins shipping their own variants)."""
    file = Path(path)
    if not _VARIANT_NAME.fullmatch(name):
        raise VariantError(f"cannot register variant {name!r}: use letters, digits, _ and -")
    if name in _bundled_files():
        raise VariantError(f"cannot register variant {name!r}: a bundled variant has that name")
    registered = _REGISTERED.get(name)
    if registered is not None and registered.resolve() != file.resolve():
        raise VariantError(
            f"cannot register variant {name!r} as {file}: already registered as {registered}"
        )
    if not file.is_file():
        raise VariantError(f"cannot register variant {name!r}: {file}: file not found")
    _REGISTERED[name] = file


def list_variants() -> list[str]:
    """Names `load_variant` accepts: the bundled variants and those plugins registered."""
    return sorted(set(_bundled_files()) | set(_REGISTERED))


@dataclass(frozen=True)
class _Source:
    """A variant file to read: `label` prefixes its messages, `name` is its default name."""

    resource: Traversable
    label: str
    name: str
    base: Traversable | None  # where a relative `extends` path starts

    @property
    def identity(self) -> str:
        if isinstance(self.resource, Path):
            return str(self.resource.resolve())
        return str(self.resource)


class _Problem(Exception):
    """One problem that stops loading a file; collected, never raised to callers."""


def _is_path(reference: str | os.PathLike[str]) -> bool:
    if isinstance(reference, os.PathLike):
        return True
    return reference.endswith(".toml") or "/" in reference or os.sep in reference


def _locate(reference: str | os.PathLike[str], base: Traversable | None) -> _Source:
    if _is_path(reference):
        given = os.fspath(reference)
        resource: Traversable = Path(given)
        if base is not None and not Path(given).is_absolute():
            resource = base.joinpath(given)
        label = os.path.normpath(str(resource)) if isinstance(resource, Path) else given
        if not resource.is_file():
            raise _Problem(f"{label}: file not found")
        parent = resource.parent if isinstance(resource, Path) else base
        return _Source(resource, label, Path(given).stem, parent)
    name = str(reference)
    bundled = _bundled_files()
    if name in bundled:
        return _Source(bundled[name], str(bundled[name]), name, _bundled_dir())
    if name in _REGISTERED:
        file = _REGISTERED[name]
        return _Source(file, str(file), name, file.parent)
    available = list_variants()
    close = difflib.get_close_matches(name, available, n=1)
    hint = f", did you mean {close[0]!r}?" if close else ""
    raise _Problem(f"unknown variant {name!r}{hint} (available: {', '.join(available)})")


_TOML_POSITION = re.compile(r"^(?P<what>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)$")


def _read_toml(source: _Source) -> dict[str, Any]:
    try:
        data = source.resource.read_bytes()
    except OSError as exc:
        raise _Problem(f"{source.label}: cannot read: {exc.strerror or exc}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Problem(f"{source.label}: not UTF-8 text (byte {exc.start})") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_POSITION.match(str(exc))
        where = f"line {found['line']}, column {found['column']}: " if found else ""
        what = found["what"] if found else str(exc)
        raise _Problem(f"{source.label}: {where}TOML syntax error: {what}") from exc


def _load_chain(
    source: _Source, problems: list[str], visiting: tuple[_Source, ...] = ()
) -> tuple[list[tuple[_Source, dict[str, Any]]], bool]:
    """The files of an `extends` chain, root first, and whether the whole chain loaded."""
    try:
        raw = _read_toml(source)
    except _Problem as problem:
        problems.append(str(problem))
        return [], False
    parents: list[tuple[_Source, dict[str, Any]]] = []
    complete = True
    parent_ref = raw.get("extends")
    if isinstance(parent_ref, str):
        try:
            parent = _locate(parent_ref, source.base)
        except _Problem as problem:
            problems.append(f"{source.label}: extends: {problem}")
            return [(source, raw)], False
        chain = (*visiting, source)
        if parent.identity in {member.identity for member in chain}:
            loop = " -> ".join(member.label for member in (*chain, parent))
            problems.append(f"{source.label}: extends: cycle {loop} (got {_show(parent_ref)})")
            return [(source, raw)], False
        parents, complete = _load_chain(parent, problems, chain)
    elif parent_ref is not None:
        complete = False  # the file's own validation reports the wrong type
    return [*parents, (source, raw)], complete


# --------------------------------------------------------------------------- messages


def _show(value: object, limit: int = 60) -> str:
    """A value as TOML would write it, shortened."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, list | tuple):
        text = "[" + ", ".join(_show(item, limit) for item in value) + "]"
    elif isinstance(value, Mapping):
        text = "{" + ", ".join(f"{k} = {_show(v, limit)}" for k, v in value.items()) + "}"
    else:
        text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _section_of(model: type[BaseModel], key: str) -> type[BaseModel] | None:
    """The options model of `model.key` when that key is a section table."""
    field = model.model_fields.get(key)
    annotation = field.annotation if field is not None else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _allowed_keys(loc: tuple[int | str, ...], root: type[BaseModel]) -> list[str] | None:
    model: type[BaseModel] | None = root
    for part in loc:
        model = _section_of(model, str(part)) if model is not None else None
    return list(model.model_fields) if model is not None else None


def _dotted(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        if part == "[key]":
            continue
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


_OVERRIDES = "overrides"  # the label of problems in load_variant(overrides=...)
_TYPE_MESSAGES = {
    "int_type": "expected an integer",
    "bool_type": "expected true or false",
    "string_type": "expected a string",
    "tuple_type": "expected an array",
    "list_type": "expected an array",
    "dict_type": "expected a table",
    "model_type": "expected a table",
    "model_attributes_type": "expected a table",
}


def _message(error: ErrorDetails, root: type[BaseModel], hidden: frozenset[str]) -> str:
    kind, loc = error["type"], error["loc"]
    ctx = error.get("ctx", {})
    if kind == "extra_forbidden":
        allowed = [key for key in _allowed_keys(loc[:-1], root) or [] if key not in hidden]
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        if close:
            return f"unknown key, did you mean {close[0]!r}?"
        return f"unknown key (allowed: {', '.join(allowed)})"
    if loc and loc[-1] == "[key]":
        return f"not a player count {MIN_PLAYERS}..{MAX_PLAYERS}"
    if kind in _TYPE_MESSAGES:
        return _TYPE_MESSAGES[kind]
    if kind == "literal_error":
        return f"expected {ctx['expected']}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx['ge']}"
    if kind == "less_than_equal":
        return f"must be at most {ctx['le']}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "value_error":
        return str(ctx["error"])
    return error["msg"]


def _describe(label: str, error: ErrorDetails, root: type[BaseModel]) -> str:
    where = _dotted(error["loc"]) or "(top level)"
    hidden = frozenset({"extends"} if label == _OVERRIDES else ())
    message = _message(error, root, hidden)
    return f"{label}: {where}: {message} (got {_show(error['input'])})"


# --------------------------------------------------------------------------- merging


def _merge(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge of TOML tables: `top`'s keys win, tables merge, arrays replace."""
    merged = dict(base)
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        elif isinstance(value, Mapping):
            merged[key] = _merge({}, value)
        else:
            merged[key] = value
    return merged


def _prune(raw: Mapping[str, Any], loc: tuple[int | str, ...]) -> dict[str, Any]:
    """`raw` without the option an error is about, so the remaining options can still be
    checked together: the error's key down to its option (never into a list or a table
    value such as deck.copies_by_players)."""
    pruned = dict(raw)
    head, model = str(loc[0]), _section_of(VariantFile, str(loc[0]))
    if model is not None and len(loc) > 1 and isinstance(pruned.get(head), Mapping):
        section = dict(pruned[head])
        section.pop(str(loc[1]), None)
        pruned[head] = section
    else:
        pruned.pop(head, None)
    return pruned


def _checked(label: str, raw: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    """Validate one file (or the overrides) on its own; return it without its bad options."""
    try:
        VariantFile.model_validate(raw)
    except ValidationError as exc:
        for error in exc.errors():
            problems.append(_describe(label, error, VariantFile))
            if error["loc"]:
                raw = _prune(raw, error["loc"])
    return raw


def _leaf_keys(raw: Mapping[str, Any], prefix: str = "") -> Iterable[str]:
    for key, value in raw.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from _leaf_keys(value, dotted + ".")
        else:
            yield dotted


def _overrides_table(overrides: Mapping[str, object], problems: list[str]) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for key, value in overrides.items():
        parts = key.split(".") if isinstance(key, str) else []
        if not parts or not all(parts):
            problems.append(f"overrides: {key!r}: not a dotted key such as 'game.target'")
            continue
        if parts[0] == "extends":
            problems.append(
                f"overrides: extends: cannot be overridden; load that variant instead "
                f"(got {_show(value)})"
            )
            continue
        node = table
        for depth, part in enumerate(parts[:-1]):
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                clash = ".".join(parts[: depth + 1])
                problems.append(f"overrides: {key}: clashes with the override of {clash!r}")
                break
        else:
            if isinstance(value, Mapping):
                value = _merge(node.get(parts[-1], {}), value)
            node[parts[-1]] = value
    return table


# --------------------------------------------------------------------------- loading


def load_variant(
    name_or_path: str | os.PathLike[str],
    overrides: Mapping[str, object] | None = None,
    *,
    allow_imports: bool = False,
) -> Variant:
    """Load a bundled or registered variant by name, or a `.toml` file by path.

    `extends` chains are merged, then `overrides` (dotted keys such as
    `{"game.target": 500, "players": 7}`) are applied. Raises `VariantError` listing
    every problem. `allow_imports` is only recorded: this function imports no plugin.
    """
    problems: list[str] = []
    try:
        top = _locate(name_or_path, None)
    except _Problem as problem:
        raise VariantError(str(problem), [str(problem)]) from None
    chain, complete = _load_chain(top, problems)

    merged: dict[str, Any] = {}
    for source, raw in chain:
        checked = _checked(source.label, raw, problems)
        checked.pop("extends", None)
        if source is not top:
            checked.pop("name", None)  # a variant is named by its own file
        merged = _merge(merged, checked)
    overridden: set[str] = set()
    if overrides:
        table = _checked(_OVERRIDES, _overrides_table(overrides, problems), problems)
        merged = _merge(merged, table)
        overridden.update(_leaf_keys(table))

    variant: Variant | None = None
    if complete:
        merged.setdefault("name", top.name)
        merged["source"] = os.fspath(name_or_path) if _is_path(name_or_path) else str(name_or_path)
        merged["allow_imports"] = allow_imports
        try:
            variant = Variant.model_validate(merged)
        except ValidationError as exc:
            problems.extend(_combination_messages(exc, top.label, overridden))
    if problems or variant is None:
        raise VariantError("\n".join(problems), problems)
    return variant


def _combination_messages(exc: ValidationError, label: str, overridden: set[str]) -> list[str]:
    """Messages for the resolved variant: a problem is the file's, unless an override set
    its key (or a table holding it)."""
    messages = []
    for error in exc.errors():
        found = error.get("ctx", {}).get("error")
        if not isinstance(found, CombinationProblems):
            messages.append(_describe(label, error, Variant))
            continue
        for key, message, value in found.problems:
            parts = key.split(".")
            prefixes = {".".join(parts[:n]) for n in range(1, len(parts) + 1)}
            where = _OVERRIDES if prefixes & overridden else label
            messages.append(f"{where}: {key}: {message} (got {_show(value)})")
    return messages


def check_variant_file(path: str | os.PathLike[str], *, allow_imports: bool = False) -> Variant:
    """Load one variant file (always as a path, never as a name), for `tichu check`."""
    return load_variant(Path(path), allow_imports=allow_imports)


def parse_overrides(assignments: Iterable[str]) -> dict[str, object]:
    """`["game.target=500", "exchange.targets=rank"]` -> overrides for `load_variant`.

    A value is read as TOML (`500`, `true`, `["DOG"]`); anything else is a string.
    """
    overrides: dict[str, object] = {}
    for assignment in assignments:
        key, sep, text = assignment.partition("=")
        if not sep or not key.strip():
            raise VariantError(f"overrides: {assignment!r}: expected KEY=VALUE")
        try:
            value: object = tomllib.loads(f"value = {text.strip()}")["value"]
        except tomllib.TOMLDecodeError:
            value = text.strip()
        overrides[key.strip()] = value
    return overrides


def variant_schema() -> dict[str, Any]:
    """The JSON Schema of a variant file (`extends` included), from the models."""
    schema = VariantFile.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **schema,
        "title": "tichu variant file",
    }


def dump_schema_json() -> str:
    return json.dumps(variant_schema(), indent=2) + "\n"


# --------------------------------------------------------------------------- CLI parts


def cli_variants() -> int:
    """`tichu variants`: one line per variant: name, players, description."""
    names = list_variants()
    width = max((len(name) for name in names), default=0)
    status = 0
    for name in names:
        try:
            variant = load_variant(name)
        except VariantError as exc:
            print(f"{name:<{width}}  invalid: {exc.problems[0]}")
            status = 1
            continue
        print(f"{name:<{width}}  {variant.players:>2} players  {variant.description}")
    return status


def cli_check(paths: list[str], allow_imports: bool = False) -> int:
    """`tichu check FILE…`: validate files (a directory means its `*.toml`); 1 if any fail."""
    files: list[Path] = []
    for given in map(Path, paths):
        files.extend(sorted(given.glob("*.toml")) if given.is_dir() else [given])
    if not files:
        print("no variant files given", file=sys.stderr)
        return 1
    status = 0
    for file in files:
        try:
            variant = check_variant_file(file, allow_imports=allow_imports)
        except VariantError as exc:
            print(exc)
            status = 1
            continue
        print(f"OK {file} ({variant.name}, {variant.players} players)")
    return status


def cli_schema() -> int:
    """`tichu schema`: print the JSON Schema of a variant file."""
    print(dump_schema_json(), end="")
    return 0
