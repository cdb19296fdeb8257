"""What one player may know: the observation model and the one visibility rule.

A player sees the hands of the seats the ``tichu_visible_seats`` hook lists for
it in the current phase (its own seats, the Threechu dummy for the shuffler,
the face-up dummy for everyone after the exchange). Observations read that
answer, and events record it when they happen (:mod:`tichu_core.game.events`),
so every view follows one rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tichu_core.cardplay.cards import RANK_NAMES, codes_high_first, mask_points, play_codes
from tichu_core.game.construction import construct
from tichu_core.game.hand import OVER, PLAY, WISH, HandState

# The kind of the pending decision between two hands (GS-8), beside the hand's own kinds.
ANOTHER_HAND = "another_hand"


class Observation(BaseModel):
    """What one player (or a spectator) may know now; never another seat's hidden cards."""

    model_config = ConfigDict(frozen=True)
    player: int | None
    seats: list[int] = Field(description="the seats this player acts for")
    hand_index: int
    phase: str
    dealer: int
    hand: list[str] = Field(description="the cards of the seat the player sits at")
    hands: dict[int, list[str]] = Field(
        description="seat -> cards, for every seat whose cards this player may see"
    )
    hand_sizes: list[int]
    players: list[int | None]
    teams: list[int]
    titles: dict[int, str] = Field(
        description="seat -> the title it holds this hand (GS-5: Great Lord ... Wretch)"
    )
    turn: int | None
    waiting_for: list[int]
    trick: list[dict[str, Any]]
    top_seat: int | None
    wish: str | None
    pending: dict[str, Any] | None = Field(
        description=(
            "the decision the game waits for, if any: kind (wish, give_trick, give_lead, "
            "another_hand: GS-8, the Great Lord between two hands), seat, and for the "
            "player deciding it its options"
        )
    )
    calls: dict[int, str] = Field(
        description='seat -> "tichu", "grand_tichu" or "grand_tichu+tichu" (S-CALL-1)'
    )
    grand_tichu_decided: list[bool]
    push_targets: dict[int, dict[int, int]] = Field(
        description="own seat -> (target seat -> cards it chooses for that target)"
    )
    pushed: dict[int, str] = Field(
        description=(
            "target seat -> the codes the player's own seat (where it sits, not a dummy it "
            "acts for) gave it, forced cards included (GS-6)"
        )
    )
    received: dict[int, str] = Field(
        description="giving seat -> the codes the player's own seat received (after the exchange)"
    )
    out_order: list[int]
    won_points: list[int] = Field(
        description="card points in each seat's tricks so far (all 0 where none are counted, GS-1)"
    )
    won_cards: list[int]
    scores: list[int]
    score_lines: list[str]
    hands_played: int


def observe(
    hand: HandState,
    player: int | None,
    *,
    turn: int | None,
    waiting_for: list[int],
    scores: Sequence[int],
    score_lines: Sequence[str],
    hands_played: int,
    lord_seat: int | None = None,
) -> Observation:
    """The observation of ``player`` (None: a spectator) on the running hand; with
    ``lord_seat``, the Great Lord decides between hands whether another is played (GS-8)."""
    own = [s for s in range(hand.seats) if hand.controllers[s] == player]
    visible = sorted(hand.visibility().get(player, frozenset()))
    # The player's own seat: where it sits (a seat it only acts for, such as the Threechu
    # dummy, never comes first).
    first = None
    if player is not None:  # (a spectator's None would find the dummy's seat)
        first = hand.players.index(player) if player in hand.players else own[0] if own else None
    pushed: dict[int, str] = {}
    received: dict[int, str] = {}
    if first is not None:
        # GS-6: the cards the rules take from a seat are given by it too, chosen or not.
        given = dict(hand.forced[first])
        for target, mask in (hand.pushes[first] or {}).items():
            given[target] = given.get(target, 0) | mask
        pushed = {t: play_codes(mask) for t, mask in given.items()}
        if hand.phase in (PLAY, OVER):
            received = {g: play_codes(mask) for g, mask in hand.received[first].items()}
    pending = None
    if hand.pending is not None:
        pending = {"kind": hand.pending.kind, "seat": hand.pending.seat}
        if hand.pending.seat in own:
            options = hand.pending.options
            pending["options"] = (
                [RANK_NAMES[r] for r in options] if hand.pending.kind == WISH else list(options)
            )
    elif lord_seat is not None:
        # GS-8: the hand is over and scored; its Great Lord decides on another hand.
        pending = {"kind": ANOTHER_HAND, "seat": lord_seat}
        if lord_seat in own:
            pending["options"] = [True, False]
    # Built from values the engine made, in field order, and not validated again:
    # bots ask for an observation at every decision.
    return construct(
        Observation,
        dict(
            player=player,
            seats=own,
            hand_index=hand.hand_index,
            phase=hand.phase,
            dealer=hand.dealer,
            hand=codes_high_first(hand.hands[first]) if first is not None else [],
            hands={s: codes_high_first(hand.hands[s]) for s in visible},
            hand_sizes=[m.bit_count() for m in hand.hands],
            players=list(hand.players),
            teams=list(hand.teams),
            titles=hand.rulebook.titles(hand.view),
            turn=turn,
            waiting_for=waiting_for,
            trick=hand.trick_view(),
            top_seat=hand.top_seat,
            wish=RANK_NAMES[hand.wish] if hand.wish else None,
            pending=pending,
            calls=hand.calls(),
            grand_tichu_decided=[d is not None for d in hand.grand_tichu],
            push_targets={s: dict(hand.push_targets[s]) for s in own if hand.push_targets[s]},
            pushed=pushed,
            received=received,
            out_order=list(hand.out_order),
            won_points=[mask_points(p) if hand.rulebook.card_points else 0 for p in hand.piles],
            won_cards=[p.bit_count() for p in hand.piles],
            scores=list(scores),
            score_lines=list(score_lines),
            hands_played=hands_played,
        ),
    )
