"""The standard rules (RULES.md S-*) as the built-in plugin every game starts with.

Each hook reads the variant's options, so most house rules are TOML values;
variants whose rules differ in kind (Threechu, Tientsin, Grand Seigneur)
answer some hooks themselves from ``plugins/`` and return None from the rest.
Values are written for any table size: teams are ``seat % team_count``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tichu_core.cardplay.cards import MAH_JONG_BITS, deck_mask, mask_points
from tichu_core.cardplay.moves import MoveRules
from tichu_core.game.hand import OVER, HandScore, HandState, Seating
from tichu_core.rules.hookspecs import hookimpl
from tichu_core.rules.playrules import PlayRules

if TYPE_CHECKING:
    from tichu_core.variants.models import Variant


@hookimpl(trylast=True)
def tichu_seats(variant: Variant) -> int:
    return variant.seats


@hookimpl(trylast=True)
def tichu_deck(variant: Variant) -> int:
    """S-DECK-1 (and GS-2 through the deck options)."""
    return deck_mask(variant.deck_copies, variant.deck_without)


@hookimpl(trylast=True)
def tichu_deal(variant: Variant, cards: list[int], dealer: int, seats: int) -> list[list[int]]:
    """S-DEAL-1: ``hand_size`` cards each in one block per seat (the order within a hand
    does not matter for fairness); hand_size 0: one card at a time round the table,
    starting with the dealer or the seat after it (T6-2, GS-3)."""
    size = variant.deal.hand_size
    hands: list[list[int]] = [[] for _ in range(seats)]
    if size:
        for seat in range(seats):
            hands[seat] = cards[seat * size : (seat + 1) * size]
        return hands
    first = dealer if variant.deal.first_receiver == "dealer" else (dealer + 1) % seats
    for index, card in enumerate(cards):
        hands[(first + index) % seats].append(card)
    return hands


@hookimpl(trylast=True)
def tichu_grand_tichu_cards(variant: Variant, state: HandState) -> int:
    """S-DEAL-2: Grand Tichu is decided holding the first 8 cards."""
    return variant.deal.grand_tichu_after if variant.calls.grand_tichu else 0


@hookimpl(trylast=True)
def tichu_layout(variant: Variant, state: HandState) -> list[int]:
    """Partners sit alternately: team of seat s is s % number of teams (T6-1)."""
    return [variant.team_of(seat) for seat in range(state.seats)]


@hookimpl(trylast=True)
def tichu_controllers(variant: Variant, state: HandState) -> list[int]:
    return [p if p is not None else state.dealer for p in state.players]


@hookimpl(trylast=True)
def tichu_push_targets(variant: Variant, state: HandState, seat: int) -> list[int]:
    """S-EX-1 (all other seats), T3-3 (opponents), T6-3 (partners)."""
    kind = variant.exchange.targets
    if kind == "none" or (state.hand_index == 0 and not variant.exchange.first_hand):
        return []
    others = [(seat + step) % state.seats for step in range(1, state.seats)]
    if kind == "opponents":
        return [s for s in others if state.teams[s] != state.teams[seat]]
    if kind == "partners":
        return [s for s in others if state.teams[s] == state.teams[seat]]
    if kind == "all":
        return others
    return []  # "rank" exchanges are a Grand Seigneur plugin's


@hookimpl(trylast=True)
def tichu_may_call(variant: Variant, state: HandState, seat: int, call: str) -> bool:
    return bool(variant.calls.grand_tichu if call == "grand_tichu" else variant.calls.tichu)


@hookimpl(trylast=True)
def tichu_play_rules(variant: Variant) -> PlayRules:
    return PlayRules(
        MoveRules(
            four_distinct_suits=variant.bombs.four_distinct_suits,
            second_dragon_beats_first=variant.dragon.second_beats_first,
            bomb_must_fulfil=variant.wish.bomb_must_fulfil,
            phoenix_fulfils=variant.wish.phoenix_fulfils,
            bomb_instead=variant.wish.bomb_instead,
        )
    )


@hookimpl(trylast=True)
def tichu_wish_applies(variant: Variant, state: HandState, seat: int) -> bool:
    return True


@hookimpl(trylast=True)
def tichu_first_leader(variant: Variant, state: HandState) -> int:
    """S-EX-2: the Mah Jong holder leads; without a Mah Jong, the seat after the dealer."""
    for seat, hand in enumerate(state.hands):
        if hand & MAH_JONG_BITS:
            return seat
    return state.next_active(state.dealer) or 0


@hookimpl(trylast=True)
def tichu_dog_recipients(variant: Variant, state: HandState, seat: int) -> list[int]:
    """S-DOG-1/2, T6-4: the lead goes to the partner (or a chosen one of the partners)."""
    n = state.seats
    partners = sorted(state.partners(seat), key=lambda p: (p - seat) % n)
    holding = [p for p in partners if state.hands[p]]
    if variant.dog.choose_partner:
        if holding:
            return holding
        after = seat
    elif len(partners) == 1 and holding:
        return holding
    elif holding:
        return holding[:1]
    else:
        # S-DOG-2: the partner is out (or there is none).
        after = (
            partners[0] if partners and variant.dog.partner_out == "next_after_partner" else seat
        )
    following = state.next_active(after)
    return [following if following is not None else seat]


@hookimpl(trylast=True)
def tichu_dragon_recipients(variant: Variant, state: HandState, seat: int) -> list[int]:
    """S-DRAGON-1/2: an opponent of the winner's choice, also on the last trick by option."""
    if not variant.dragon.gift:
        return []
    if state.phase == OVER and (
        not variant.dragon.gift_when_last or _double_victory(state) is not None
    ):
        return []
    return state.opponents(seat)


@hookimpl(trylast=True)
def tichu_trick_winner(variant: Variant, state: HandState) -> int:
    assert state.top_seat is not None
    return state.top_seat


def _double_victory(state: HandState) -> int | None:
    """The team whose seats all went out before any opponent (S-END-1), if any."""
    if not state.out_order:
        return None
    team = state.teams[state.out_order[0]]
    members = [s for s in range(state.seats) if state.teams[s] == team]
    if len(members) < 2 or len(state.out_order) < len(members):
        return None
    if all(state.teams[s] == team for s in state.out_order[: len(members)]):
        return team
    return None


@hookimpl(trylast=True)
def tichu_hand_over(variant: Variant, state: HandState) -> bool:
    """S-END-1: one seat holds cards, or one team went out first and second."""
    if sum(1 for hand in state.hands if hand) <= 1:
        return True
    return variant.teams.size > 1 and _double_victory(state) is not None


@hookimpl(trylast=True)
def tichu_score_hand(variant: Variant, state: HandState) -> HandScore:
    """S-END-2, S-SCORE-1/2/3: card points per team, double victory, calls."""
    teams = variant.team_count
    scores = [0] * teams
    card_points = [0] * teams
    winners = _double_victory(state) if variant.teams.size > 1 else None
    if winners is not None:
        scores[winners] += variant.scoring.double_victory
    elif variant.scoring.card_points:
        first_out = state.out_order[0] if state.out_order else None
        for seat in range(state.seats):
            pile = state.piles[seat]
            hand = state.hands[seat]
            if hand and first_out is not None:
                # S-END-2: the last seat's hand to the opponents, its tricks to the first out.
                card_points[state.teams[first_out]] += mask_points(pile)
                # With more than two teams "the opponents" are ambiguous: the next team takes them.
                opposing = (state.teams[seat] + 1) % teams
                card_points[opposing] += mask_points(hand)
            else:
                card_points[state.teams[seat]] += mask_points(pile)
        for team in range(teams):
            scores[team] += card_points[team]
    first = state.out_order[0] if state.out_order else None
    for seat in range(state.seats):
        for called, points in (
            (state.tichu[seat], variant.calls.tichu_points),
            (state.grand_tichu[seat], variant.calls.grand_tichu_points),
        ):
            if called:
                scores[state.teams[seat]] += points if seat == first else -points
    return HandScore(scores=scores, card_points=card_points, double_victory=winners is not None)


@hookimpl(trylast=True)
def tichu_score_lines(variant: Variant, players: int) -> list[str]:
    count = variant.team_count
    if count == players:
        return [f"player {p}" for p in range(players)]
    return [
        "team " + "+".join(str(s) for s in range(players) if s % count == team)
        for team in range(count)
    ]


@hookimpl(trylast=True)
def tichu_match_over(variant: Variant, totals: list[int], hands_played: int) -> list[int]:
    """S-GAME-1: after the hand in which a line reaches the target; a tie plays on."""
    target, hands = variant.game.target, variant.game.hands
    reached = (target and max(totals) >= target) or (hands and hands_played >= hands)
    if not reached:
        return []
    best = max(totals)
    leaders = [line for line, total in enumerate(totals) if total == best]
    if len(leaders) > 1 and target and not (hands and hands_played >= hands):
        return []
    return leaders


@hookimpl(trylast=True)
def tichu_next_hand(variant: Variant, previous: HandState | None, players: int) -> Seating:
    """S-DEAL-3: seats stay; the first out of the last hand deals the next."""
    if previous is None:
        return Seating(players=list(range(players)), dealer=0)
    dealer = previous.out_order[0] if previous.out_order else previous.dealer
    return Seating(players=list(previous.players), dealer=dealer)


@hookimpl(trylast=True)
def tichu_visible_seats(variant: Variant, state: HandState, player: int | None) -> list[int]:
    """A player sees the hands of the seats it acts for."""
    if player is None:
        return []
    return [seat for seat in range(state.seats) if state.controllers[seat] == player]
