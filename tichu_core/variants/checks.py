"""Cross-checks of a variant: options valid one by one but impossible together.

`combination_problems` lists every such problem of a resolved variant (players vs
deck, hand size vs deck, pushes vs seats and teams, match end, ...) as
(dotted key, message, value); the `Variant` model raises them together as one
`CombinationProblems`. The import runs one way, models -> checks: this module never
imports the model, not even for type checking. It reads a variant through the
protocols below (`CheckedVariant` and its option groups), which name exactly what
the checks read; mypy holds `Variant` to them where the model passes itself in.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Protocol

from pydantic import BaseModel

from tichu_core.cardplay.cards import RANK_NAMES, SPECIAL_OF_CODE, SUITS

__all__ = [
    "CheckedVariant",
    "CombinationProblems",
    "combination_problems",
    "deck_counts",
    "show_value",
]


# --- what the checks read of a variant (models.Variant has all of it) -------------


class _Deck(Protocol):
    @property
    def copies(self) -> int: ...
    @property
    def without(self) -> tuple[str, ...]: ...
    @property
    def copies_by_players(self) -> Mapping[str, int]: ...
    @property
    def without_by_players(self) -> Mapping[str, tuple[str, ...]]: ...


class _Deal(Protocol):
    @property
    def grand_tichu_after(self) -> int: ...
    @property
    def hand_size(self) -> int: ...


class _Calls(Protocol):
    @property
    def grand_tichu(self) -> bool: ...


class _Exchange(Protocol):
    @property
    def targets(self) -> str: ...
    @property
    def first_hand(self) -> bool: ...
    @property
    def best_order(self) -> tuple[str, ...]: ...
    @property
    def rank_cards(self) -> tuple[int, ...]: ...
    @property
    def rank_cards_by_players(self) -> Mapping[str, tuple[int, ...]]: ...


class _Teams(Protocol):
    @property
    def size(self) -> int: ...
    @property
    def dummy(self) -> bool: ...


class _Game(Protocol):
    @property
    def target(self) -> int: ...
    @property
    def hands(self) -> int: ...
    @property
    def lord_decides(self) -> bool: ...


class _Seating(Protocol):
    @property
    def by_rank(self) -> bool: ...
    @property
    def direction(self) -> str: ...


class CheckedVariant(Protocol):
    """What `combination_problems` reads of a resolved variant (`models.Variant`)."""

    @property
    def players(self) -> int: ...
    @property
    def seats(self) -> int: ...
    @property
    def deck_copies(self) -> int: ...
    @property
    def deck_without(self) -> tuple[str, ...]: ...
    @property
    def exchange_rank_cards(self) -> tuple[int, ...]: ...
    @property
    def deck(self) -> _Deck: ...
    @property
    def deal(self) -> _Deal: ...
    @property
    def calls(self) -> _Calls: ...
    @property
    def exchange(self) -> _Exchange: ...
    @property
    def teams(self) -> _Teams: ...
    @property
    def game(self) -> _Game: ...
    @property
    def seating(self) -> _Seating: ...


def show_value(value: object, limit: int = 60) -> str:
    """A value as TOML would write it, shortened (the `(got VALUE)` of every message).

    Written from the start and stopped once past ``limit``: a value nested thousands of
    levels deep, or an array of millions of items, costs no more than its first
    characters (each level writes its bracket before its items, so the depth written
    stays below ``limit``)."""
    pieces: list[str] = []
    size = 0

    def put(text: str) -> None:
        nonlocal size
        pieces.append(text)
        size += len(text)

    def write(item: object) -> None:
        if isinstance(item, bool):
            put("true" if item else "false")
        elif isinstance(item, str):
            put(json.dumps(item[: limit + 1], ensure_ascii=False))
        elif isinstance(item, list | tuple):
            put("[")
            for number, inner in enumerate(item):
                if size > limit:
                    return
                if number:
                    put(", ")
                write(inner)
            put("]")
        elif isinstance(item, Mapping):
            put("{")
            for number, (key, inner) in enumerate(item.items()):
                if size > limit:
                    return
                put(f"{', ' if number else ''}{key} = ")
                write(inner)
            put("}")
        elif isinstance(item, int):
            try:
                put(str(item))
            except ValueError:  # more decimal digits than Python writes (4,300); hex it can
                put(hex(item))
        else:
            put(str(item))

    write(value)
    text = "".join(pieces)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class CombinationProblems(ValueError):
    """Options that are valid one by one but impossible together: (dotted key, message, value)."""

    def __init__(self, problems: list[tuple[str, str, object]]) -> None:
        super().__init__(
            "\n".join(
                f"{key}: {message} (got {show_value(value)})" for key, message, value in problems
            )
        )
        self.problems = problems


def _full_deck_codes() -> list[str]:
    # Mah Jong first and the other specials last: the order of `Variant.deck_codes`.
    normal = [name + suit for name in RANK_NAMES.values() for suit in SUITS]
    return ["MJ", *normal, "DOG", "PH", "DR"]


def deck_counts(copies: int, without: Iterable[str]) -> dict[str, int]:
    """Card code -> copies in the deck; codes removed more often than present go to 0.

    Unlike `cards.deck_mask`, removing too many copies is no error here: the checks
    below must still measure a deck that `deck.without` over-removes from, to report it.
    """
    counts = {code: copies for code in _full_deck_codes()}
    for code in without:
        counts[code] = max(0, counts[code] - 1)
    return {code: count for code, count in counts.items() if count}


def _kind(code: str) -> str:
    """What `exchange.best_order` ranks a card by: its special code or its rank."""
    return code if code in SPECIAL_OF_CODE else code[:-1]


def _by_players_key(table: Mapping[str, object], players: int, key: str) -> str:
    return f"{key}_by_players.{players}" if str(players) in table else key


def _changed(options: object, name: str, value: object) -> bool:
    """Whether option ``name`` of an option group holds ``value`` other than its default
    (the groups are pydantic models, whose fields know their defaults)."""
    assert isinstance(options, BaseModel)
    default: object = type(options).model_fields[name].get_default(call_default_factory=True)
    return value != default


def combination_problems(v: CheckedVariant) -> list[tuple[str, str, object]]:
    """Every option combination that no engine could play, as (dotted key, message, value)."""
    problems: list[tuple[str, str, object]] = []
    seats, size = v.seats, v.teams.size

    if v.teams.dummy and size < 2:
        problems.append(("teams.dummy", "a dummy seat needs a partner to play it (T3-1)", True))
    if seats % size:
        problems.append(("teams.size", f"{seats} seats cannot form teams of {size}", size))
    elif size == seats:
        # One team of the whole table: every score line is the same, nobody can win.
        problems.append(
            ("teams.size", f"one team of all {seats} seats would have no opponents", size)
        )
    # An option whose value nothing would read is refused rather than silently ignored.
    if v.seating.direction != "right" and not v.seating.by_rank:
        problems.append(
            ("seating.direction", "applies only with seating.by_rank = true (GS-5)", "left")
        )
    for name in ("rank_cards", "rank_cards_by_players", "best_order"):
        value = getattr(v.exchange, name)
        if _changed(v.exchange, name, value) and v.exchange.targets != "rank":
            key = f"exchange.{name}"
            shown = list(value) if isinstance(value, tuple) else value
            problems.append((key, 'applies only with exchange.targets = "rank" (GS-6)', shown))

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

    deck = deck_counts(v.deck_copies, v.deck_without)
    deck_size = sum(deck.values())
    hand = v.deal.hand_size
    if hand:
        if seats * hand != deck_size:
            # S-DEAL-1: every card is dealt (no variant here leaves cards aside).
            problems.append(
                (
                    "players",
                    f"{seats} seats x {hand} cards (deal.hand_size) deal {seats * hand} "
                    f"cards but the deck has {deck_size}; every card is dealt (or set "
                    "deal.hand_size = 0 to deal the whole deck round the table)",
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

    if v.game.target == 0 and v.game.hands == 0 and not v.game.lord_decides:
        problems.append(
            (
                "game.target",
                "the match would never end: set game.target, game.hands or game.lord_decides",
                0,
            )
        )
    if v.game.lord_decides and not v.seating.by_rank:
        problems.append(
            (
                "game.lord_decides",
                "needs a Great Lord: the table seated by rank (seating.by_rank, GS-5, GS-8)",
                True,
            )
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
