"""Tichu Tientsin (docs/rules.md T6-1…T6-6): six players in two teams of three.

Scenario tests stack a deal and read like a transcript of a hand. Unless a test deals
by itself, the hands listed are the hands **after the exchange**: ``start_play``
plans the pushes backwards (seat ``s`` receives the second-to-last listed card from
its partner ``s - 2`` and the last one from its partner ``s + 2``). In the first hand
seat 0 deals, so seats 0 and 1 hold 10 cards and the others 9 (T6-2). Expected
scores are worked out from docs/rules.md in the comments, never copied from a run.

Then random matches with bots: card points and the T6-6 transfers checked against
the event log of every hand, the Dog against T6-4 whenever it is played, a whole
match to 1000, and save/restore in the middle of a match.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from scenario import DECK, cards, held, kinds, of_type, pass_, passes, play, refused, wish

import tichu_core as tc
from tichu_core.frontends.bots import GreedyBot, RandomBot, decide, play_match

SEATS = 6
TEAM_0 = (0, 2, 4)  # T6-1: teams are the even and the odd seats
TEAM_1 = (1, 3, 5)

Deal = list[list[str]]
Pushes = list[dict[int, str]]


def tientsin() -> tc.Variant:
    return tc.load_variant("tientsin")


def tientsin_deal(hands: Sequence[str], dealer: int = 0) -> Deal:
    """Six hands in dealing order, together the whole deck once; the dealer and the
    seat after it hold 10 cards, the others 9 (T6-2: 56 = 6 x 9 + 2)."""
    assert len(hands) == SEATS, f"{len(hands)} hands given"
    parsed = [cards(hand) for hand in hands]
    for seat, hand in enumerate(parsed):
        size = 10 if seat in (dealer, (dealer + 1) % SEATS) else 9
        assert len(hand) == size, f"seat {seat} holds {len(hand)} cards, not {size}: {hand}"
    every = [code for hand in parsed for code in hand]
    repeated = sorted({code for code in every if every.count(code) > 1})
    assert not repeated, f"cards dealt twice: {repeated}"
    assert not DECK - set(every), f"cards not dealt: {sorted(DECK - set(every))}"
    return parsed


def exchange_plan(after: Sequence[str]) -> tuple[Deal, Pushes]:
    """The deal and the pushes (T6-3: one card to each partner) that leave each seat
    holding ``after[seat]`` once the exchange is done."""
    final = tientsin_deal(after)
    dealt: Deal = []
    pushes: Pushes = []
    for giver in range(SEATS):
        right, left = (giver + 2) % SEATS, (giver - 2) % SEATS
        gives = {right: final[right][-2], left: final[left][-1]}
        dealt.append([*final[giver][:-2], gives[right], gives[left]])
        pushes.append(gives)
    return tientsin_deal([" ".join(hand) for hand in dealt]), pushes


def start_play(after: Sequence[str], grand_tichu: Sequence[int] = (), seed: int = 1) -> tc.Game:
    """A game in the play phase whose seats hold exactly ``after``; the seats in
    ``grand_tichu`` called Grand Tichu, the others declined."""
    dealt, pushes = exchange_plan(after)
    game = tc.Game(tientsin(), seed=seed, deals=[dealt])
    for seat in range(SEATS):
        game.apply(tc.GrandTichu(seat, seat in grand_tichu))
    for seat, given in enumerate(pushes):
        game.apply(tc.Push(seat, given))
    for seat in range(SEATS):
        assert held(game, seat) == frozenset(cards(after[seat])), seat
    return game


# --- tables -------------------------------------------------------------------------

# Fifth out: seat 0 goes out first with a 10-card straight, seat 2 second by beating
# seat 1's 9-card straight, seat 3 third with a straight (the Phoenix as Q), seat 5
# fourth with steps after taking a trick with its Ace, seat 1 fifth with its King;
# seat 4, on the first out's team, is left holding cards.
FIFTH_OUT = [
    "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j",
    "2s 3p 4t 5j 6s 7p 8t 9j 10s Kj",
    "3j 4s 5p 6t 7j 8s 9p 10t Jj",
    "6p 7t 8j 9s 10p Js PH Ks Aj",
    "2p 2t 3t 4j 5s Qj Qs DR DOG",
    "Ap Jp Jt Qp Qt Kp Kt As At",
]

# Triple victory: seat 0 leads a straight and then the Dog to seat 4, which goes out
# with a straight that seat 2 beats with its last cards.
TRIPLE = [
    "MJ 2j 3s 4p 5t 6j 7s 8p 9t DOG",
    "2p 3t 4j 5s 6p Js Qj Kj Aj PH",
    "3j 4s 5p 6t 7j 8s 9p 10t Jj",
    "2t 7t 8j 10j Jp Qs Ks As DR",
    "2s 3p 4t 5j 6s 7p 8t 9j 10s",
    "9s 10p Jt Qp Qt Kp Kt Ap At",
]
TRIPLE_STRAIGHT = "MJ 2j 3s 4p 5t 6j 7s 8p 9t"

# The Dog with one and with no partner holding cards: seat 2 holds it; seat 0 goes out
# first, seat 4 (the other partner) may go out before seat 2 leads the Dog.
DOG_TABLE = [
    "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j",
    "2s 3p 4t 5j 6s 7p 8t 9j 10s 4s",
    "DOG Aj 3t 5s 6p Js Qj Kj PH",
    "2p 7t 8j 9s Jp Qs Ks As DR",
    "3j 4j 5p 6t 7j 8s 9p 10t Jj",
    "2t 10p Jt Qp Qt Kp Kt Ap At",
]
DOG_STRAIGHT_1 = "2s 3p 4t 5j 6s 7p 8t 9j 10s"


def open_with_mah_jong_straight(game: tc.Game, straight: str) -> None:
    """Seat 0 leads the Mah Jong in a straight, wishes nothing, everybody passes."""
    play(game, 0, straight)
    wish(game, 0, None)
    passes(game, 1, 2, 3, 4, 5)


# --- T6-1 ---------------------------------------------------------------------------


def test_T6_1_two_teams_of_three_on_alternating_seats() -> None:
    game = tc.Game(tientsin(), seed=5)
    assert game.seats == 6 and game.players == 6
    assert game.score_lines == ["team 0+2+4", "team 1+3+5"]
    for player in (None, *range(6)):
        assert game.observation(player).teams == [0, 1, 0, 1, 0, 1]
    assert game.scores == [0, 0]


# --- T6-2 ---------------------------------------------------------------------------


def test_T6_2_grand_tichu_after_six_cards_then_the_rest_of_the_deck() -> None:
    dealt = tientsin_deal(FIFTH_OUT)
    game = tc.Game(tientsin(), deals=[dealt])
    # Holding 6 cards every seat decides on Grand Tichu (before the seventh card).
    observation = game.observation(0)
    assert observation.phase == "grand_tichu"
    assert observation.hand_sizes == [6] * 6
    assert game.waiting_for == list(range(6))
    for seat in range(6):
        assert held(game, seat) == frozenset(dealt[seat][:6])
        assert set(game.legal_actions(seat)) == {
            tc.GrandTichu(seat, False),
            tc.GrandTichu(seat, True),
        }
    game.apply(tc.GrandTichu(3, True))
    for seat in (0, 1, 2, 4):
        game.apply(tc.GrandTichu(seat, False))
    assert game.observation(5).hand_sizes == [6] * 6  # the rest waits for seat 5
    events = game.apply(tc.GrandTichu(5, False))
    assert kinds(events).count("cards_dealt") == 6
    # The shuffler (seat 0) and the seat after it hold 10, the rest 9.
    assert game.observation(0).hand_sizes == [10, 10, 9, 9, 9, 9]
    for seat in range(6):
        assert held(game, seat) == frozenset(dealt[seat])
        first, rest = of_type(game.events_for(seat), "cards_dealt")
        assert (first.cards, rest.cards) == (dealt[seat][:6], dealt[seat][6:])
    assert game.observation(None).calls == {3: "grand_tichu"}
    refused(game, tc.GrandTichu(0, True), "S-DEAL-2")  # too late


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_T6_2_a_shuffled_deal_gives_the_whole_deck_ten_ten_nine_from_the_shuffler(
    seed: int,
) -> None:
    game = tc.Game(tientsin(), seed=seed)
    for seat in range(6):
        game.apply(tc.GrandTichu(seat, False))
    hands = [held(game, seat) for seat in range(6)]
    assert frozenset().union(*hands) == DECK and sum(len(hand) for hand in hands) == 56
    assert [len(hand) for hand in hands] == [10, 10, 9, 9, 9, 9]


# --- T6-3 ---------------------------------------------------------------------------


def test_T6_3_one_push_to_each_partner_and_one_card_from_each() -> None:
    dealt, pushes = exchange_plan(FIFTH_OUT)
    game = tc.Game(tientsin(), deals=[dealt])
    for seat in range(6):
        game.apply(tc.GrandTichu(seat, False))
    for seat in range(6):
        partners = {(seat + 2) % 6: 1, (seat + 4) % 6: 1}
        assert game.observation(seat).push_targets == {seat: partners}
        pushes_listed = [a for a in game.legal_actions(seat) if isinstance(a, tc.Push)]
        assert len(pushes_listed) == 10 * 9 if seat < 2 else 9 * 8
        assert all(set(push.cards) == set(partners) for push in pushes_listed)
    hand_0 = dealt[0]
    # Not to an opponent, not two cards to one partner, not one partner only.
    refused(game, tc.Push(0, {1: hand_0[0], 2: hand_0[1]}), "T6-3")
    refused(game, tc.Push(0, {2: f"{hand_0[0]} {hand_0[1]}"}), "T6-3")
    refused(game, tc.Push(0, {2: hand_0[0]}), "T6-3")
    refused(game, tc.Push(0, {2: hand_0[0], 4: hand_0[1], 1: hand_0[2]}), "T6-3")
    events: list[tc.Event] = []
    for seat, given in enumerate(pushes):
        events = game.apply(tc.Push(seat, given))
    # The cards move once the last seat has pushed: each seat from its two partners.
    received = {e.seat: set(e.cards) for e in of_type(events, "cards_received")}
    assert received == {seat: {(seat + 2) % 6, (seat + 4) % 6} for seat in range(6)}
    for seat in range(6):
        observation = game.observation(seat)
        assert observation.phase == "play"
        # Seat s received its second-to-last card from seat s-2, its last from s+2.
        after = cards(FIFTH_OUT[seat])
        assert observation.received == {(seat - 2) % 6: after[-2], (seat + 2) % 6: after[-1]}
        assert observation.hand_sizes == [10, 10, 9, 9, 9, 9]
        assert held(game, seat) == frozenset(after)


# --- T6-4 ---------------------------------------------------------------------------


def test_T6_4_the_dog_holder_chooses_between_two_partners_holding_cards() -> None:
    game = start_play(TRIPLE)
    open_with_mah_jong_straight(game, TRIPLE_STRAIGHT)
    pass_(game, 0)  # seat 0 collects its trick and leads again
    events = play(game, 0, "DOG")  # its last card: seat 0 is out
    assert kinds(events) == ["played", "seat_out"]
    # Partners 2 and 4 both hold cards: seat 0 decides, nobody else may act.
    assert game.waiting_for == [0] and game.turn is None
    assert game.observation(0).pending == {"kind": "give_lead", "seat": 0, "options": [2, 4]}
    assert game.observation(2).pending == {"kind": "give_lead", "seat": 0}
    assert list(game.legal_actions(0)) == [tc.GiveLead(0, 2), tc.GiveLead(0, 4)]
    refused(game, tc.GiveLead(0, 1), "T6-4")  # an opponent
    refused(game, tc.GiveLead(0, 0), "T6-4")
    refused(game, tc.Play(4, "2s"), "T6-4")  # the lead is not given yet
    events = game.apply(tc.GiveLead(0, 4))
    assert [(e.seat, e.to) for e in of_type(events, "lead_passed")] == [(0, 4)]
    assert game.turn == 4


def test_T6_4_with_one_partner_holding_cards_the_lead_goes_to_it_at_once() -> None:
    game = start_play(DOG_TABLE)
    open_with_mah_jong_straight(game, DOG_TABLE[0])  # seat 0 is out
    assert game.turn == 1
    play(game, 1, "4s")
    play(game, 2, "Aj")
    passes(game, 3, 4, 5, 1)
    pass_(game, 2)  # seat 2 collects
    # Seat 2's partners: 0 is out, 4 holds cards: no choice to make.
    events = play(game, 2, "DOG")
    assert [(e.seat, e.to) for e in of_type(events, "lead_passed")] == [(2, 4)]
    assert game.observation(2).pending is None
    assert game.turn == 4
    assert not any(isinstance(a, tc.GiveLead) for a in game.legal_actions(2))


def test_T6_4_with_no_partner_holding_cards_the_next_seat_after_the_holder_leads() -> None:
    game = start_play(DOG_TABLE)
    open_with_mah_jong_straight(game, DOG_TABLE[0])  # seat 0 is out
    play(game, 1, DOG_STRAIGHT_1)
    passes(game, 2, 3)
    play(game, 4, DOG_TABLE[4])  # seat 4 beats it with its last cards
    passes(game, 5, 1, 2, 3)  # seat 4 is out: the trick goes to it at the last pass
    assert game.observation(None).out_order == [0, 4]
    assert game.turn == 5
    play(game, 5, "2t")
    pass_(game, 1)
    play(game, 2, "Aj")
    passes(game, 3, 5, 1)
    pass_(game, 2)  # seat 2 collects
    # Both partners (0 and 4) are out: the lead goes to the next seat after seat 2 that
    # holds cards, seat 3 (not past a partner: that would be seat 5 or seat 1).
    events = play(game, 2, "DOG")
    assert [(e.seat, e.to) for e in of_type(events, "lead_passed")] == [(2, 3)]
    assert game.turn == 3


# --- T6-5, T6-6: a triple victory -------------------------------------------------------


def test_T6_5_T6_6_a_triple_victory_ends_the_hand_and_scores_300_with_calls() -> None:
    game = start_play(TRIPLE, grand_tichu=[1], seed=3)
    game.apply(tc.Tichu(0))
    game.apply(tc.Tichu(3))
    open_with_mah_jong_straight(game, TRIPLE_STRAIGHT)
    pass_(game, 0)
    play(game, 0, "DOG")  # seat 0 is out first
    game.apply(tc.GiveLead(0, 4))
    play(game, 4, "2s 3p 4t 5j 6s 7p 8t 9j 10s")  # seat 4 is out second
    # Two of a team out first and second end nothing in Tientsin (T6-5).
    assert game.observation(None).phase == "play"
    assert game.observation(None).out_order == [0, 4]
    passes(game, 5, 1)
    events = play(game, 2, "3j 4s 5p 6t 7j 8s 9p 10t Jj")  # seat 2 is out third
    # All three of team 0 out while seats 1, 3 and 5 hold cards: the hand ends at once.
    assert [e.seat for e in of_type(events, "seat_out")] == [2]
    (scored,) = of_type(events, "hand_scored")
    (result,) = game.hand_results
    # The out order, then the seats holding cards from the seat after seat 2.
    assert result.out_order == scored.out_order == [0, 4, 2, 3, 5, 1]
    assert result.double_victory and scored.double_victory
    assert result.card_points == [0, 0]  # no cards counted
    # Team 0: 300 + 100 (seat 0's Tichu, first out). Team 1: -200 (seat 1's Grand
    # Tichu) - 100 (seat 3's Tichu).
    assert result.calls == {0: "tichu", 1: "grand_tichu", 3: "tichu"}
    assert result.scores == [400, -300]
    assert game.scores == [400, -300]
    assert game.observation(None).hand_index == 1  # the next hand is dealt


# --- T6-5, T6-6: a hand played until one seat holds cards --------------------------------


def play_fifth_out_hand(game: tc.Game) -> list[tc.Event]:
    """The FIFTH_OUT hand; returns the events of its last play."""
    open_with_mah_jong_straight(game, FIFTH_OUT[0])  # seat 0 out first: 15 points
    return play_fifth_out_hand_after_the_first(game)


def play_fifth_out_hand_after_the_first(game: tc.Game) -> list[tc.Event]:
    assert game.turn == 1
    play(game, 1, "2s 3p 4t 5j 6s 7p 8t 9j 10s")
    play(game, 2, FIFTH_OUT[2])  # seat 2 out second, beating seat 1's straight
    assert game.observation(None).phase == "play"  # no double victory in Tientsin
    passes(game, 3, 4, 5, 1)  # seat 2 takes 15 + 15 points
    play(game, 3, FIFTH_OUT[3])  # seat 3 out third: 10 + 10 - 25 = -5 points
    passes(game, 4, 5, 1)
    assert game.turn == 4
    play(game, 4, "5s")
    passes(game, 5, 1)
    pass_(game, 4)  # seat 4 collects 5 points
    play(game, 4, "2p")
    play(game, 5, "Ap")
    passes(game, 1, 4)
    pass_(game, 5)  # seat 5 collects the 2 and the Ace: 0 points
    play(game, 5, "Jp Jt Qp Qt Kp Kt As At")  # seat 5 out fourth: 20 points
    passes(game, 1, 4)
    assert game.turn == 1
    return play(game, 1, "Kj")  # seat 1 out fifth, taking its King: 10 points


def test_T6_5_the_hand_ends_when_one_seat_holds_cards() -> None:
    game = start_play(FIFTH_OUT)
    events = play_fifth_out_hand(game)
    assert [e.seat for e in of_type(events, "seat_out")] == [1]
    assert [(e.seat, e.to, e.points) for e in of_type(events, "trick_won")] == [(1, 1, 10)]
    (result,) = game.hand_results
    assert result.out_order == [0, 2, 3, 5, 1, 4]
    assert not result.double_victory


def test_T6_6_last_seat_hand_and_tricks_to_opponents_fifth_outs_tricks_to_first() -> None:
    game = start_play(FIFTH_OUT, grand_tichu=[0])
    game.apply(tc.Tichu(2))
    game.apply(tc.Tichu(3))
    play_fifth_out_hand(game)
    (result,) = game.hand_results
    # Piles: seat 0 15, seat 1 10, seat 2 30, seat 3 -5, seat 4 5, seat 5 20; seat 4
    # still holds 2 3 4 Q Q DR DOG: 25 points.
    # Team 0: seat 0 15 + seat 2 30 + seat 1's 10 (fifth out's tricks to the first out)
    #   = 55; seat 4's tricks (5) and hand (25) go to team 1.
    # Team 1: seat 3 -5 + seat 5 20 + seat 4's 5 + 25 = 45.
    # (The standard S-END-2 would give 50/50: seat 4's tricks to the first out, seat 1's
    # tricks to its own team.) Team 0 went out first and second: no bonus.
    assert result.card_points == [55, 45]
    # Calls: seat 0's Grand Tichu +200 (first out), seat 2's Tichu -100, seat 3's -100.
    assert result.calls == {0: "grand_tichu", 2: "tichu", 3: "tichu"}
    assert result.scores == [55 + 200 - 100, 45 - 100]
    (scored,) = of_type(game.events_for(None), "hand_scored")
    assert scored.scores == result.scores and scored.card_points == [55, 45]
    assert scored.totals == game.scores == [155, -55]


def test_T6_6_save_and_restore_in_the_middle_of_a_stacked_hand() -> None:
    game = start_play(FIFTH_OUT, grand_tichu=[0])
    open_with_mah_jong_straight(game, FIFTH_OUT[0])
    restored = tc.Game.from_json(game.to_json())
    for copy in (game, restored):
        play_fifth_out_hand_after_the_first(copy)
    assert restored.hand_results == game.hand_results
    assert restored.hand_results[0].scores == [55 + 200, 45]
    assert restored.to_json() == game.to_json()
    for player in (None, *range(6)):
        assert restored.observation(player) == game.observation(player)


# --- random matches: T6-4, T6-6 against the event log --------------------------------------

POINTS = {"5": 5, "10": 10, "K": 10, "DR": 25, "PH": -25}


def points(codes: Sequence[str]) -> int:
    return sum(POINTS.get(code if code in ("DR", "PH") else code[:-1], 0) for code in codes)


def hand_events(game: tc.Game, index: int) -> list[tc.Event]:
    return [event for event in game.event_log if event.hand == index]


def check_hand_against_the_log(game: tc.Game, result: tc.HandResult) -> None:
    """T6-4, T6-5, T6-6 recomputed from the unredacted event log of one hand."""
    events = hand_events(game, result.index)
    out: list[int] = []
    holds: list[set[str]] = [set() for _ in range(SEATS)]
    piles = [0] * SEATS
    for event in events:
        if event.type == "cards_dealt":
            holds[event.seat] |= set(event.cards)  # type: ignore[attr-defined]
        elif event.type == "pushed" and event.cards is not None:  # type: ignore[attr-defined]
            for codes in event.cards.values():  # type: ignore[attr-defined]
                holds[event.seat] -= set(codes.split())  # type: ignore[attr-defined]
        elif event.type == "cards_received":
            for codes in event.cards.values():  # type: ignore[attr-defined]
                holds[event.seat] |= set(codes.split())  # type: ignore[attr-defined]
        elif event.type == "played":
            holds[event.seat] -= set(event.cards)  # type: ignore[attr-defined]
        elif event.type == "seat_out":
            out.append(event.seat)  # type: ignore[attr-defined]
        elif event.type == "trick_won":
            piles[event.to] += event.points  # type: ignore[attr-defined]
        elif event.type == "lead_passed":
            # T6-4: a partner holding cards, else the next seat after the holder.
            seat, to = event.seat, event.to  # type: ignore[attr-defined]
            partners = [(seat + 2) % 6, (seat + 4) % 6]
            holding = [p for p in partners if p not in out]
            following = next(s for s in ((seat + k) % 6 for k in range(1, 6)) if s not in out)
            assert (to in holding) if holding else (to == following), (seat, to, out)
    holding = [seat for seat in range(SEATS) if holds[seat]]
    assert out == result.out_order[: len(out)]
    team = {seat: seat % 2 for seat in range(SEATS)}
    triple = len(out) == 3 and len({team[seat] for seat in out}) == 1
    expected = [0, 0]
    if triple:
        # T6-5: the hand ended at once, the three opponents holding cards.
        assert result.double_victory and result.card_points == [0, 0]
        assert sorted(holding) == sorted(set(range(SEATS)) - set(out))
        expected[team[out[0]]] = 300
    else:
        assert not result.double_victory
        assert len(out) == 5 and len(holding) == 1  # T6-5
        (last,) = holding
        fifth, first = out[4], out[0]
        card_points = [0, 0]
        for seat in range(SEATS):
            if seat == last:
                card_points[1 - team[last]] += piles[seat] + points(sorted(holds[seat]))
            elif seat == fifth:
                card_points[team[first]] += piles[seat]
            else:
                card_points[team[seat]] += piles[seat]
        assert sum(card_points) == 100  # S-SCORE-1: every card counted once
        assert result.card_points == card_points
        expected = list(card_points)
    for seat, call in result.calls.items():
        value = {"tichu": 100, "grand_tichu": 200}[call]
        expected[team[seat]] += value if seat == out[0] else -value
    assert result.scores == expected, (result, expected)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_T6_6_every_hand_of_random_matches_counts_its_100_points_as_the_rules_say(
    seed: int,
) -> None:
    """Property: in random matches (calls included), every hand without a triple victory
    counts 100 card points, distributed by T6-6; T6-4 holds at every Dog."""
    game = tc.Game(tc.load_variant("tientsin", overrides={"game.target": 600}), seed=seed)
    bots = [RandomBot(seed * 10 + player, call_rate=0.05) for player in range(6)]
    play_match(game, bots)
    assert game.hand_results
    for result in game.hand_results:
        check_hand_against_the_log(game, result)
    assert [sum(column) for column in zip(*(r.scores for r in game.hand_results), strict=True)] == (
        game.scores
    )


# --- a whole match, save and restore ---------------------------------------------------


def test_T6_6_a_whole_match_to_1000_with_bots_through_the_public_api() -> None:
    game = tc.Game(tientsin(), seed=2024)
    bots: list[RandomBot | GreedyBot] = [GreedyBot(p) if p % 2 else RandomBot(p) for p in range(6)]

    def each_player_sees_its_own_hand_only(action: tc.Action, events: list[object]) -> None:
        for player in range(6):
            assert set(game.observation(player).hands) == {game.seat_of(player)}

    play_match(game, bots, on_action=each_player_sees_its_own_hand_only)
    assert game.is_over and game.outcome is not None
    assert game.outcome.termination == tc.Termination.TARGET_REACHED
    (winner,) = game.winners
    assert game.scores[winner] >= 1000 and game.scores[winner] > game.scores[1 - winner]
    results = game.hand_results
    totals = [0, 0]
    for result in results[:-1]:
        totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
        # S-GAME-1: no earlier hand left a single team at 1000 or more.
        assert max(totals) < 1000 or totals[0] == totals[1]
    for result in results:
        assert sorted(result.out_order) == list(range(6))
        check_hand_against_the_log(game, result)
    assert [sum(column) for column in zip(*(r.scores for r in results), strict=True)] == (
        game.scores
    )
    # S-DEAL-3, T6-2: the first out deals the next hand; the shuffler and the seat after
    # it receive 10 cards.
    started = of_type(game.event_log, "hand_started")
    assert len(started) == len(results)
    assert started[0].dealer == 0
    for previous, hand in zip(results, started[1:], strict=False):
        assert hand.dealer == previous.out_order[0]
    for hand in started:
        sizes = [9] * 6
        sizes[hand.dealer] = sizes[(hand.dealer + 1) % 6] = 10
        assert hand.hand_sizes == sizes
    over = of_type(game.events_for(3), "match_over")
    assert [event.winners for event in over] == [[winner]]


def test_T6_save_and_restore_mid_match_continues_identically() -> None:
    game = tc.Game(tientsin(), seed=77)
    bots = [RandomBot(p, call_rate=0.05) for p in range(6)]
    # Into the third hand, in the middle of its play.
    while len(game.hand_results) < 2 or game.observation(None).phase != "play":
        seat = game.waiting_for[0]
        game.apply(decide(bots[game.controller(seat)], game, seat))
    for _ in range(17):
        seat = game.waiting_for[0]
        game.apply(decide(bots[game.controller(seat)], game, seat))
    saved = game.to_json()
    restored = tc.Game.from_json(saved)
    assert restored.to_json() == saved
    for player in (None, *range(6)):
        assert restored.observation(player) == game.observation(player)
        assert restored.events_for(player) == game.events_for(player)
    # Both go on with identical bots to the end of the match.
    twins = [[RandomBot(100 + p) for p in range(6)] for _ in range(2)]
    for copy, copy_bots in zip((game, restored), twins, strict=True):
        play_match(copy, list(copy_bots))
    assert restored.to_json() == game.to_json()
    assert restored.scores == game.scores and restored.winners == game.winners
    assert restored.hand_results == game.hand_results
    assert restored.event_log == game.event_log
