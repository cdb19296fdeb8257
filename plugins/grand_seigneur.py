"""Grand Seigneur (docs/rules.md GS-*): 5 to 12 players, no partners, a ladder of ranks.

Almost all of Grand Seigneur is options of the standard rules, set in
variants/grand_seigneur.toml: the deck per table size (GS-2), the whole deck dealt
one card at a time from the seat after the dealer (GS-3), no calls, no card
points and no Dragon gift (GS-1), the second Dragon over the first and fours of
four suits only (GS-4), reseating by the finishing order (GS-5), the forced
exchange of the best cards from the second hand (GS-6), the Mah Jong lead and
wish (GS-7), the hand ending when one seat holds cards and ``game.hands`` hands
(GS-8). This plugin adds what a value cannot say:

- **titles** (GS-5): from the second hand each seat holds the title its player
  earned in the previous hand, shown in every observation (``titles``);
- **scores** (GS-8, E-5): the rules count no points, only the order of going out.
  So that a match still has a winner, each hand from the second adds to each
  player's line the number of players who went out after it (Great Lord ``n - 1``
  ... Wretch 0); the first hand, the election, scores nothing. After
  ``game.hands`` hands the highest total wins, ties share (the standard match
  end). The score is the finishing order summed, nothing else;
- **the match result** (GS-8): :func:`match_result` gives each hand's finishing
  order and, per player, how many times it finished in each place, i.e. held
  each rank (the last hand's places count too, though no hand is played under them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from tichu_core.rules.answers import HandScore
from tichu_core.rules.hookspecs import hookimpl

if TYPE_CHECKING:
    from tichu_core.game.match import Game
    from tichu_core.rules.table import TableView
    from tichu_core.variants.models import Variant

__all__ = ["MIN_PLAYERS", "GrandSeigneurResult", "match_result", "place_titles"]

MIN_PLAYERS = 5
_TOP = ("Great Lord", "Lord", "Squire")
_BOTTOM = ("Pauper", "Wretch")


def place_titles(players: int) -> tuple[str, ...]:
    """The title of each finishing place, first out first (GS-5).

    Great Lord, Lord, Squire at the top, Pauper and Wretch at the bottom; the places
    between are Burghers. The source asks for "obscure forms such as Grand Burgher or
    Petty Pauper" when more places are needed, so with two middle places the upper one
    is the Grand Burgher, and with three or more the lowest is the Petty Pauper; any
    further places are plain Burghers (their seats still tell them apart, GS-5).

    >>> place_titles(7)
    ('Great Lord', 'Lord', 'Squire', 'Grand Burgher', 'Burgher', 'Pauper', 'Wretch')
    """
    if players < MIN_PLAYERS:
        raise ValueError(f"Grand Seigneur titles need {MIN_PLAYERS} or more players, got {players}")
    middle = players - len(_TOP) - len(_BOTTOM)
    if middle < 2:
        between: tuple[str, ...] = ("Burgher",) * middle
    elif middle == 2:
        between = ("Grand Burgher", "Burgher")
    else:
        between = ("Grand Burgher", *("Burgher",) * (middle - 2), "Petty Pauper")
    return (*_TOP, *between, *_BOTTOM)


@hookimpl
def tichu_seats(variant: Variant) -> int | None:
    """GS-2: the deck options and the titles are made for 5 to 12 players; a smaller
    table (which ``players`` alone would allow) is refused when the game is built."""
    if variant.players < MIN_PLAYERS:
        raise ValueError(
            f"Grand Seigneur is for {MIN_PLAYERS} to 12 players, got players = {variant.players}"
        )
    return None  # the standard rules count the seats


@hookimpl
def tichu_titles(variant: Variant, table: TableView) -> dict[int, str]:
    """GS-5: each seat holds the title of its player's place in the previous hand; the
    first hand has no ranks yet."""
    ranking = table.previous_ranking
    if not ranking:
        return {}
    names = place_titles(len(ranking))
    seat_of = {player: seat for seat, player in enumerate(table.players) if player is not None}
    return {
        seat_of[player]: names[place]
        for place, player in enumerate(ranking)
        if player is not None  # a dummy seat (none in Grand Seigneur) holds no title
    }


@hookimpl
def tichu_score_hand(variant: Variant, table: TableView) -> HandScore:
    """GS-8, E-5: one line per player (not per seat: players change seats every hand),
    the number of players who went out after it; nothing for the first hand, which
    only elects the first Great Lord (GS-5)."""
    ranking = table.ranking()
    scores = [0] * variant.players
    if table.hand_index == 0:
        return HandScore(scores=scores, card_points=[0] * variant.players)
    for place, seat in enumerate(ranking):
        player = table.players[seat]
        if player is not None:
            scores[player] = len(ranking) - 1 - place
    return HandScore(scores=scores, card_points=[0] * variant.players)


class GrandSeigneurResult(BaseModel):
    """What a Grand Seigneur match leaves behind (GS-8)."""

    model_config = ConfigDict(frozen=True)
    titles: list[str] = Field(description="the title of each place, first out first")
    orders: list[list[int]] = Field(
        description="per finished hand, its players in finishing order (Great Lord first)"
    )
    rank_counts: list[list[int]] = Field(
        description="rank_counts[player][place]: how often that player finished in that place"
    )

    def held(self, player: int) -> dict[str, int]:
        """Title -> how often ``player`` held it (titles it never held left out; plain
        Burghers of several places add up)."""
        counts: dict[str, int] = {}
        for title, count in zip(self.titles, self.rank_counts[player], strict=True):
            if count:
                counts[title] = counts.get(title, 0) + count
        return counts


def match_result(game: Game) -> GrandSeigneurResult:
    """GS-8: each finished hand's finishing order and each player's count of every place,
    read from ``game.hand_results`` (also in the middle of a match)."""
    players = game.players
    orders = [
        [player for seat in result.out_order if (player := result.players[seat]) is not None]
        for result in game.hand_results
    ]
    counts = [[0] * players for _ in range(players)]
    for order in orders:
        for place, player in enumerate(order):
            counts[player][place] += 1
    return GrandSeigneurResult(
        titles=list(place_titles(players)), orders=orders, rank_counts=counts
    )
