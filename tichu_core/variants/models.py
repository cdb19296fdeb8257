"""The variant model: every rule option of docs/rules.md as a strict, frozen pydantic model.

A variant is data. Each option is a field that names the docs/rules.md id it implements;
behaviour a value cannot express lives in plugins, which a variant only names
(`plugins`): this module never imports them. `VariantFile` is one TOML file as
written (every key optional, `extends` names its parent); `Variant` is the resolved
result the engine reads, whose validator runs the cross-checks of
`tichu_core.variants.checks` (which reads a `Variant` through protocols and never
imports this module). Reading files lives in `tichu_core.variants.loading`.
"""

from __future__ import annotations

import contextlib
import re
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from tichu_core.cardplay.cards import (
    CARD_COUNT,
    RANK_NAMES,
    RANK_OF_NAME,
    SPECIAL_OF_CODE,
    card_of_code,
)
from tichu_core.errors import CardError
from tichu_core.frozen import FrozenDict, frozen
from tichu_core.variants.checks import CombinationProblems, combination_problems, deck_counts

__all__ = [
    "MAX_HANDS",
    "MAX_PLAYERS",
    "MAX_POINTS",
    "MAX_SEATS",
    "MAX_TARGET",
    "MIN_PLAYERS",
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
]

MIN_PLAYERS = 3
MAX_PLAYERS = 12
MAX_SEATS = MAX_PLAYERS + 1  # a dummy seat on top (T3-1)
# Every number has an upper bound, far above any sensible rule but small enough that a
# variant is always saved and read back exactly (a save is JSON, and Python itself
# refuses to write an int of more than 4,300 digits).
MAX_POINTS = 10_000  # per call, per double victory
MAX_TARGET = 1_000_000
MAX_HANDS = 10_000

# --------------------------------------------------------------------------- field types
# Card codes and ranks are read with the notation of `cardplay.cards`, so that a
# variant file and a hand cannot disagree on what a code means; only the messages
# are the variant's own, worded for the author of a file.


def _canonical_card_code(text: str) -> str:
    """`2J` -> `2j`, `tt` -> `10t`, `dog` -> `DOG`; ValueError for anything else."""
    # Codes are ASCII: card_of_code upper-cases the text, and 'ſ'.upper() is 'S'.
    if text.strip().isascii():
        with contextlib.suppress(CardError):
            return card_of_code(text).code
    raise ValueError(
        f"unknown card code {text!r}: expected MJ, DOG, PH, DR or rank 2..10/J/Q/K/A "
        "followed by suit j, s, p or t (e.g. '10t', 'Qp')"
    )


def _canonical_order_entry(text: str) -> str:
    """An entry of `exchange.best_order`: a special card code or a rank without suit."""
    entry = text.strip().upper()
    if entry in SPECIAL_OF_CODE:
        return entry
    if entry in RANK_OF_NAME:
        return RANK_NAMES[RANK_OF_NAME[entry]]
    raise ValueError(
        f"unknown entry {text!r}: expected MJ, DOG, PH, DR or a rank 2..10, J, Q, K, A"
    )


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
CardCount = Annotated[StrictInt, Field(ge=0, le=CARD_COUNT)]  # no more than two whole decks
Points = Annotated[StrictInt, Field(ge=0, le=MAX_POINTS)]


# --------------------------------------------------------------------------- the models


class _Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DeckOptions(_Options):
    """[deck]: which cards make the deck (S-DECK-1, GS-2)."""

    copies: DeckCopies = Field(
        default=1,
        description="S-DECK-1, GS-2: number of full 56-card decks shuffled together (1 or 2).",
    )
    without: tuple[CardCode, ...] = Field(
        default=(),
        description=(
            "GS-2: card codes removed from the full deck(s); a code listed twice removes "
            'both copies (e.g. ["DOG", "DOG", "MJ"]).'
        ),
    )
    copies_by_players: Annotated[dict[PlayerCountKey, DeckCopies], AfterValidator(frozen)] = Field(
        default_factory=FrozenDict,
        description=(
            'GS-2: player count (string key, "7") -> copies; overrides `copies` for that '
            "table size."
        ),
    )
    without_by_players: Annotated[
        dict[PlayerCountKey, tuple[CardCode, ...]], AfterValidator(frozen)
    ] = Field(
        default_factory=FrozenDict,
        description=(
            "GS-2: player count (string key) -> card codes removed; overrides `without` "
            "for that table size."
        ),
    )


class DealOptions(_Options):
    """[deal]: how the cards are dealt (S-DEAL-1, S-DEAL-2, T6-2, GS-3)."""

    grand_tichu_after: CardCount = Field(
        default=8,
        description=(
            "S-DEAL-1, S-DEAL-2, T6-2: cards each seat holds when Grand Tichu is decided "
            "(0 = no Grand Tichu decision phase; at most 112)."
        ),
    )
    hand_size: CardCount = Field(
        default=14,
        description=(
            "S-DEAL-1, T6-2, GS-3: cards per seat; 0 = deal the whole deck one card at a "
            "time (hands may differ by one card); at most 112."
        ),
    )
    first_receiver: Literal["dealer", "after_dealer"] = Field(
        default="dealer",
        description=(
            "T6-2, GS-3: who receives the first card when the whole deck is dealt: the "
            "dealer (Tientsin) or the seat after the dealer (Grand Seigneur)."
        ),
    )


class CallOptions(_Options):
    """[calls]: Tichu and Grand Tichu (S-DEAL-2, S-CALL-1, S-SCORE-3, T3-2, GS-1)."""

    grand_tichu: StrictBool = Field(
        default=True, description="S-DEAL-2, GS-1: Grand Tichu may be called."
    )
    tichu: StrictBool = Field(default=True, description="S-CALL-1, GS-1: Tichu may be called.")
    tichu_and_grand_tichu: StrictBool = Field(
        default=False,
        description=(
            "S-CALL-1: a seat that called Grand Tichu may also call Tichu in the same hand "
            "(false = one call per seat per hand)."
        ),
    )
    max_per_team: Annotated[StrictInt, Field(ge=0, le=2 * MAX_SEATS)] = Field(
        default=0,
        description=(
            "S-CALL-1: most calls one team may make in a hand (0 = no limit; at most 26, "
            "both calls of each of 13 seats)."
        ),
    )
    tichu_points: Points = Field(
        default=100, description="S-SCORE-3: points won or lost for a Tichu call (at most 10000)."
    )
    grand_tichu_points: Points = Field(
        default=200,
        description="S-SCORE-3: points won or lost for a Grand Tichu call (at most 10000).",
    )


class ExchangeOptions(_Options):
    """[exchange]: the push before play (S-EX-1, T3-3, T6-3, GS-5, GS-6)."""

    targets: Literal["all", "opponents", "partners", "rank", "none"] = Field(
        default="all",
        description=(
            "S-EX-1, T3-3, T6-3, GS-6: who receives a card from each seat: one card to each "
            "other seat (all), to each opponent, to each partner, by finishing rank (rank), "
            "or no exchange (none)."
        ),
    )
    first_hand: StrictBool = Field(
        default=True, description="GS-5: the first hand of a match has an exchange."
    )
    change_after_tichu: StrictBool = Field(
        default=False,
        description=(
            "S-EX-3: a seat that calls Tichu before the exchange is complete takes back the "
            "cards it pushed and pushes again (pushes stay hidden until every seat has "
            "pushed); false: a push is final."
        ),
    )
    best_order: Annotated[tuple[OrderEntry, ...], AfterValidator(_distinct)] = Field(
        default=(
            "DR",
            "PH",
            "MJ",
            "A",
            "K",
            "Q",
            "J",
            "10",
            "9",
            "8",
            "7",
            "6",
            "5",
            "4",
            "3",
            "2",
        ),
        description=(
            "GS-6: order of the 'best' cards a rank exchange forces a seat to give, best "
            "first; special codes and ranks (suits never rank)."
        ),
    )
    rank_cards: tuple[CardCount, ...] = Field(
        default=(3, 2, 1),
        description=(
            "GS-6: cards given at each level of a rank exchange, from the top: the last "
            "seat out gives the first that many, the second-to-last the second, ... "
            "(each at most 112)"
        ),
    )
    rank_cards_by_players: Annotated[
        dict[PlayerCountKey, tuple[CardCount, ...]], AfterValidator(frozen)
    ] = Field(
        default_factory=FrozenDict,
        description=(
            "GS-6: player count (string key) -> rank_cards for that table size "
            "(Grand Seigneur with 5 players: [2, 1, 0])."
        ),
    )


class WishOptions(_Options):
    """[wish]: the Mah Jong wish (S-WISH-1..6, GS-7, E-4)."""

    enabled: StrictBool = Field(
        default=True, description="S-WISH-1, GS-7, E-4: the Mah Jong player may make a wish."
    )
    bomb_must_fulfil: StrictBool = Field(
        default=True,
        description=(
            "S-WISH-2: a bomb containing the wished rank counts as a way to fulfil the wish."
        ),
    )
    phoenix_fulfils: StrictBool = Field(
        default=False,
        description="S-WISH-3: the Phoenix standing in for the wished rank fulfils the wish.",
    )
    bomb_instead: StrictBool = Field(
        default=False,
        description=(
            "S-WISH-6: a seat obliged by the wish may play any bomb instead (Brettspielwelt rule)."
        ),
    )


class BombOptions(_Options):
    """[bombs]: bombs (S-BOMB-5, GS-4)."""

    own_trick: StrictBool = Field(
        default=True, description="S-BOMB-5: a seat may bomb a trick whose top play is its own."
    )
    four_distinct_suits: StrictBool = Field(
        default=True,
        description=(
            "GS-4: four of a kind is a bomb only with four different suits (always true "
            "with one deck)."
        ),
    )


class DogOptions(_Options):
    """[dog]: where the Dog sends the lead (S-DOG-2, T6-4)."""

    partner_out: Literal["next_after_partner", "next_after_player"] = Field(
        default="next_after_partner",
        description=(
            "S-DOG-2: if the partner is out, the lead goes to the next seat with cards after "
            "the partner, or after the Dog's player."
        ),
    )
    choose_partner: StrictBool = Field(
        default=False,
        description=(
            "T6-4: the Dog's player chooses which partner with cards gets the lead "
            "(a pending GiveLead decision)."
        ),
    )


class DragonOptions(_Options):
    """[dragon]: the Dragon trick (S-DRAGON-1, S-DRAGON-2, GS-1, GS-4)."""

    gift: StrictBool = Field(
        default=True,
        description=(
            "S-DRAGON-1, GS-1: a trick won with the Dragon is given to an opponent of the "
            "winner's choice."
        ),
    )
    gift_when_last: StrictBool = Field(
        default=True, description="S-DRAGON-2: the gift applies to the last trick of the hand too."
    )
    second_beats_first: StrictBool = Field(
        default=False, description="GS-4: a second Dragon (two decks) beats the first."
    )


class TrickOptions(_Options):
    """[tricks]: collecting tricks (S-TRICK-2)."""

    winner_collects: StrictBool = Field(
        default=True,
        description=(
            "S-TRICK-2: the top player collects the trick by passing once more after all "
            "others passed (false: collected at the last needed pass)."
        ),
    )


class TeamOptions(_Options):
    """[teams]: partnerships (T3-1, T6-1, GS-1)."""

    size: Annotated[StrictInt, Field(ge=1, le=MAX_SEATS)] = Field(
        default=2,
        description=(
            "T6-1, GS-1: seats per team: 1 = no partners (Grand Seigneur), 2 = standard, "
            "3 = Tientsin; at most 13. The team of seat s is s % (seats // size)."
        ),
    )
    dummy: StrictBool = Field(
        default=False,
        description=(
            "T3-1: a dummy seat, played by the shuffler, joins the table (Threechu: "
            "3 players, 4 seats)."
        ),
    )


class ScoringOptions(_Options):
    """[scoring]: end-of-hand scoring (S-SCORE-1, S-SCORE-2, T3-7, T6-5, T6-6, GS-1)."""

    card_points: StrictBool = Field(
        default=True, description="S-SCORE-1, GS-1: card points are counted."
    )
    double_victory: Points = Field(
        default=200,
        description=(
            "S-SCORE-2, T6-5, T6-6: score of a team whose seats all go out first (double "
            "victory; Tientsin's triple victory: 300); at most 10000."
        ),
    )
    per_player: StrictBool = Field(
        default=False,
        description=(
            "T3-7: one score line per player (and the dummy) instead of one per team; each "
            "member gets the whole team score."
        ),
    )


class GameOptions(_Options):
    """[game]: match end (S-GAME-1, T3-8, GS-8)."""

    target: Annotated[StrictInt, Field(ge=0, le=MAX_TARGET)] = Field(
        default=1000,
        description=(
            "S-GAME-1: the match ends after the hand in which a score line reaches this "
            "(0 = no target; at most 1000000)."
        ),
    )
    hands: Annotated[StrictInt, Field(ge=0, le=MAX_HANDS)] = Field(
        default=0,
        description=(
            "T3-8, GS-8: the match ends after this many hands (0 = no fixed number; "
            "Threechu: a multiple of the player count; at most 10000)."
        ),
    )
    lord_decides: StrictBool = Field(
        default=False,
        description=(
            "GS-8: after each hand from the second the Great Lord (the first out) decides, "
            "as a pending decision (AnotherHand), whether another hand is played; "
            "game.hands still caps the match. Needs seating.by_rank."
        ),
    )


class SeatingOptions(_Options):
    """[seating]: reseating between hands (GS-5)."""

    by_rank: StrictBool = Field(
        default=False,
        description=(
            "GS-5: from the second hand the finishing order reseats the table (the first "
            "out at seat 0; the last out deals, GS-3); false: seats stay and the first out "
            "deals (S-DEAL-3)."
        ),
    )
    direction: Literal["right", "left"] = Field(
        default="right",
        description=(
            "GS-5: with by_rank, play goes to the right (seat order 0 Great Lord, 1 Wretch, "
            "..., n-1 Lord) or to the left (seat order is rank order)."
        ),
    )


class _VariantFields(_Options):
    """The options shared by a variant file and a resolved variant."""

    name: StrictStr = Field(min_length=1, description="Variant name (defaults to the file name).")
    description: StrictStr = Field(default="", description="One line shown by `tichu variants`.")
    players: Annotated[StrictInt, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = Field(
        default=4,
        description=(
            "S-DEAL-1, T3-1, T6-1, GS-2: people at the table, 3..12 (a Threechu dummy seat "
            "comes on top)."
        ),
    )
    plugins: Annotated[tuple[PluginName, ...], AfterValidator(_distinct)] = Field(
        default=("standard",),
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
        default=None, min_length=1, description="Variant name (defaults to the file name)."
    )
    extends: StrictStr | None = Field(
        default=None,
        description=(
            "Parent variant: a bundled or registered name, or a path relative to this file. "
            "Tables merge deeply, this file's keys win, lists replace."
        ),
    )


class Variant(_VariantFields):
    """A resolved, validated variant: what the engine and the plugins read."""

    source: SkipJsonSchema[StrictStr | None] = Field(
        default=None, description="The name or path this variant was loaded from (not compared)."
    )
    allow_imports: SkipJsonSchema[StrictBool] = Field(
        default=False,
        description=(
            "Whether the engine may import dotted-module plugins named in `plugins` "
            "(a permission of the caller, never of the file)."
        ),
    )

    @model_validator(mode="after")
    def _check_combination(self) -> Variant:
        problems = combination_problems(self)
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
        counts = deck_counts(self.deck_copies, self.deck_without)
        return tuple(code for code, count in counts.items() for _ in range(count))

    @property
    def exchange_rank_cards(self) -> tuple[int, ...]:
        """`exchange.rank_cards`, or its entry for `players` (GS-6)."""
        return self.exchange.rank_cards_by_players.get(str(self.players), self.exchange.rank_cards)
