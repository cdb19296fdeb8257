"""House rule "no bonus after a failed call": no double-victory bonus after an own call failed.

Standard Tichu gives a team whose two seats go out first and second (double victory,
S-END-1) ``scoring.double_victory`` (200) points, counts no cards, and scores every
call besides: a Tichu or Grand Tichu wins its points for the caller's team if the
caller went out first and loses them otherwise (S-SCORE-2, S-SCORE-3). At this table a
team that goes out first and second although one of its own seats made a call that
failed (the partner went out first) gets no double-victory bonus: the hand still ends
at once with no cards counted, the failed call still costs its points, and the
opponents score their calls as usual. A failed call of the opponents changes nothing.
The rule's id is HOUSE-NO-BONUS.

Options can set the bonus but not make it depend on the calls, so this is a plugin: it
answers the end-of-hand scoring rule point (``tichu_score_hand``), starting from the
standard team scores (``team_scores``) and putting them on the variant's score lines as
the standard rules do (``score_per_line``). variants/house_failed_tichu_no_bonus.toml
names it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tichu_core.rules import standard as standard_rules
from tichu_core.rules.answers import HandScore
from tichu_core.rules.hookspecs import hookimpl

if TYPE_CHECKING:
    from tichu_core import TableView, Variant


def failed_call(table: TableView, team: int) -> bool:
    """Whether a seat of ``team`` called Tichu or Grand Tichu and did not go out first."""
    first = table.out_order[0] if table.out_order else None
    return any(
        (table.tichu[seat] or table.grand_tichu[seat] is True) and seat != first
        for seat in table.team_members(team)
    )


@hookimpl
def tichu_score_hand(variant: Variant, table: TableView) -> HandScore:
    """The standard scores, less the double-victory bonus of a team whose call failed."""
    score = standard_rules.team_scores(variant, table)
    winners = standard_rules.team_out_together(variant, table)
    if winners is not None and failed_call(table, winners):
        scores = list(score.scores)
        scores[winners] -= variant.scoring.double_victory
        score = replace(score, scores=scores)
    return standard_rules.score_per_line(variant, table, score)
