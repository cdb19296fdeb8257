"""Tichu Tientsin: six players in two teams of three (docs/rules.md T6-1…T6-6).

Most of Tientsin is standard options, set in variants/tientsin.toml: alternating
teams (T6-1), the whole deck dealt one card at a time from the shuffler with Grand
Tichu after six cards (T6-2), one push to each partner (T6-3), the Dog's holder
choosing among its partners (T6-4), and the hand ending when one seat holds cards
or when a whole team is out before any opponent (T6-5, the standard double victory
test applied to teams of three).

What no option expresses is the scoring of T6-6, which this plugin answers:

- the last seat's hand cards *and* tricks go to the opposing team (in the standard
  game its tricks go to the first out, S-END-2);
- the fifth out's tricks go to the first out;
- a triple victory scores ``scoring.double_victory`` (300) without counting cards;
  there is no bonus for a team going out first and second;
- calls score ±``calls.tichu_points``/±``calls.grand_tichu_points`` as in S-SCORE-3.

Every other hook is left to the standard rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tichu_core.cardplay.cards import mask_points
from tichu_core.rules.answers import HandScore
from tichu_core.rules.hookspecs import hookimpl
from tichu_core.rules.standard import call_scores, team_out_together

if TYPE_CHECKING:
    from tichu_core import TableView, Variant


def card_points(table: TableView) -> list[int]:
    """T6-6, S-SCORE-1: the card points each team takes from the hand."""
    teams = max(table.teams) + 1
    points = [0] * teams
    out = table.out_order
    holding = [seat for seat in range(table.seats) if table.hands[seat]]
    # The fifth out is the last seat to go out in a hand that ran until one seat was
    # left holding cards; its tricks are the first out's.
    fifth_out = out[-1] if len(holding) == 1 and len(out) > 1 else None
    for seat in range(table.seats):
        pile, hand = table.piles[seat], table.hands[seat]
        if hand:
            # The last seat: its hand and all its tricks to the opposing team.
            opposing = table.teams[table.opponents(seat)[0]]
            points[opposing] += mask_points(pile) + mask_points(hand)
        elif seat == fifth_out:
            points[table.teams[out[0]]] += mask_points(pile)
        else:
            points[table.teams[seat]] += mask_points(pile)
    return points


@hookimpl
def tichu_score_hand(variant: Variant, table: TableView) -> HandScore:
    """T6-6: card points with the Tientsin transfers, or the triple victory; then calls."""
    teams = max(table.teams) + 1
    winners = team_out_together(variant, table)  # T6-5: the triple victory
    if winners is not None:
        scores = [0] * teams
        scores[winners] = variant.scoring.double_victory
        counted = [0] * teams
    else:
        counted = card_points(table) if variant.scoring.card_points else [0] * teams
        scores = list(counted)
    for team, points in enumerate(call_scores(variant, table)):
        scores[team] += points  # T6-6: calls as in S-SCORE-3, triple victory or not
    return HandScore(scores=scores, card_points=counted, double_victory=winners is not None)
