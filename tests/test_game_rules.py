"""Scenario tests: every standard rule of docs/rules.md (S-*, E-1, E-3) played through ``Game``.

Each test stacks a deal (see ``scenario.py``) and reads like a transcript of a hand.
Unless a test deals by itself, the hands listed are the hands **after the exchange**:
``start_play`` declines every Grand Tichu and plans the pushes backwards. Expected
values are worked out from docs/rules.md in the comments, never copied from a run.
"""

from __future__ import annotations

import pytest
from scenario import (
    DECK,
    card_set,
    deal,
    decline_all_grand_tichu,
    exchange_plan,
    give_trick,
    grand_tichu,
    held,
    kinds,
    listed,
    may_pass,
    new_game,
    next_hand,
    of_type,
    pass_,
    passes,
    play,
    plays_of,
    push,
    push_all,
    refused,
    start_play,
    tichu,
    wish,
)

import tichu_core as tc

# --- tables ---------------------------------------------------------------------------

# A quiet table with a few tools: seat 0 holds the Mah Jong and one of every kind of
# combination; seat 1 the Dog and four 7s; seat 2 the Phoenix and the straight flush
# 8-Q of stars; seat 3 the Dragon. No other bombs.
BASE = [
    "MJ 2j 3s 4p 5t 6j 8j 8s 9j 9s Qj Qs Qp Aj",
    "DOG 7j 7s 7p 7t 10j 10s Jj Js Kj Kt 2s 3j 4s",
    "PH 8t 9t 10t Jt Qt 5j 5s 6s 6p Kp Ks Ap As",
    "DR 2p 2t 3p 3t 4j 4t 5p 6t 8p 9p 10p Jp At",
]

# Four hands that end a hand in three plays, no bombs anywhere:
STRAIGHT_14 = "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj"  # 14-card straight: 25 points
STEPS_LOW = "2p 2t 3j 3t 4j 4s 5s 5p 6p 6t 7j 7t 8j 8s"  # steps 2-8: 10 points
STEPS_HIGH = "PH 8t 9s 9p 10p 10t Jj Jt Qj Qs Ks Kp Ap At"  # steps 8-A, Phoenix as 8: 15
REST = "DOG DR 2s 3p 4t 5j 6s 7p 9j 10s Jp Qt Kj As"  # never plays: 50 points in hand
FAST = [STRAIGHT_14, STEPS_LOW, STEPS_HIGH, REST]


def rotated(layout: list[str], first: int) -> list[str]:
    """``layout`` with its first hand at seat ``first`` (and the others following)."""
    return [layout[(seat - first) % 4] for seat in range(4)]


def play_fast_hand(game: tc.Game, first: int) -> list[tc.Event]:
    """Play a hand dealt as ``rotated(FAST, first)``; returns the events of the last play.

    The straight goes out first, the low steps second, the high steps third: the hand
    ends with the REST seat holding all its cards. Card points (S-SCORE-1, S-END-2):
    the straight's team 25 + 15 + 50 (REST's hand) = 90, the other team 10."""
    a, b, c, d = ((first + step) % 4 for step in range(4))
    play(game, a, STRAIGHT_14)
    wish(game, a, None)
    passes(game, b, c, d)  # a is out: the trick is collected at the last pass
    assert game.turn == b
    play(game, b, STEPS_LOW)
    passes(game, c, d)
    assert game.turn == c
    return play(game, c, STEPS_HIGH)


# Double victory in three plays: seat 0 leads a 13-card straight and the Dog, seat 2
# (its partner) then goes out with 14-card steps.
DOUBLE_VICTORY = [
    "MJ 2p 3t 4p 5s 6j 7s 8j 9s 10j Js Qt Kp DOG",
    "2j 2s 3j 3s 4j 4s 5t 6p Qj Qs Kj Ks Aj DR",
    "5j 5p 6s 6t 7j 7p 8s 8t 9j 9p 10s 10t Jj Jp",
    "2t 3p 4t 7t 8p 9t 10p Jt Qp Kt As Ap At PH",
]
STRAIGHT_13 = "MJ 2p 3t 4p 5s 6j 7s 8j 9s 10j Js Qt Kp"
STEPS_14 = "5j 5p 6s 6t 7j 7p 8s 8t 9j 9p 10s 10t Jj Jp"


def play_double_victory(game: tc.Game, wish_rank: str | None = None) -> list[tc.Event]:
    play(game, 0, STRAIGHT_13)
    wish(game, 0, wish_rank)
    passes(game, 1, 2, 3)
    pass_(game, 0)  # seat 0 collects its trick ...
    play(game, 0, "DOG")  # ... goes out with the Dog, the lead goes to seat 2
    assert game.turn == 2
    return play(game, 2, STEPS_14)


def plays(game: tc.Game, seat: int) -> set[frozenset[str]]:
    """The card sets of the listed plays of ``seat``."""
    return {cards for cards, _ in plays_of(game, seat)}


# --- S-DECK, S-DEAL --------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 12345])
def test_S_DECK_1_a_shuffled_deal_is_the_whole_56_card_deck(seed: int) -> None:
    game = tc.Game(tc.load_variant("standard"), seed=seed)
    decline_all_grand_tichu(game)
    hands = [held(game, seat) for seat in range(4)]
    assert [len(hand) for hand in hands] == [14] * 4
    # 13 ranks in four suits plus the four specials, each once.
    assert frozenset().union(*hands) == DECK and len(DECK) == 56
    assert sorted(tc.load_variant("standard").deck_codes) == sorted(DECK)


def test_S_DECK_1_a_stacked_deal_must_be_the_whole_deck() -> None:
    good = deal(BASE)
    twice = [list(hand) for hand in good]
    twice[3][0] = "2j"  # the Dragon is missing, 2j is dealt twice
    with pytest.raises(tc.DealError):
        tc.Game(tc.load_variant("standard"), deals=[twice])
    short = [list(hand) for hand in good]
    short[0] = short[0][:13]
    with pytest.raises(tc.DealError):
        tc.Game(tc.load_variant("standard"), deals=[short])
    with pytest.raises(tc.DealError):
        tc.Game(tc.load_variant("standard"), deals=[good[:3]])


def test_S_DEAL_1_eight_cards_then_six() -> None:
    dealt = deal(BASE)
    game = new_game(dealt)
    observation = game.observation(0)
    assert observation.phase == "grand_tichu"
    assert observation.hand_sizes == [8, 8, 8, 8]
    for seat in range(4):
        assert held(game, seat) == frozenset(dealt[seat][:8])
        (first,) = of_type(game.events_for(seat), "cards_dealt")
        assert first.cards == dealt[seat][:8]
    decline_all_grand_tichu(game)
    assert game.observation(0).hand_sizes == [14, 14, 14, 14]
    for seat in range(4):
        assert held(game, seat) == frozenset(dealt[seat])
        first, second = of_type(game.events_for(seat), "cards_dealt")
        assert second.cards == dealt[seat][8:]


def test_S_DEAL_2_every_seat_decides_grand_tichu_on_its_first_eight_cards() -> None:
    game = new_game(deal(BASE))
    assert game.waiting_for == [0, 1, 2, 3]
    assert game.turn is None
    for seat in range(4):
        assert set(game.legal_actions(seat)) == {
            tc.GrandTichu(seat, False),
            tc.GrandTichu(seat, True),
        }
    # Seats decide in any order; the six more cards wait for the last decision.
    events = grand_tichu(game, 2, True)
    assert kinds(events) == ["grand_tichu"]
    assert game.observation(0).calls == {2: "grand_tichu"}
    grand_tichu(game, 0, False)
    grand_tichu(game, 3, False)
    assert game.waiting_for == [1]
    assert game.observation(3).hand_sizes == [8, 8, 8, 8]
    assert list(game.legal_actions(2)) == []  # decided, and Tichu needs 14 cards
    refused(game, tc.GrandTichu(2, False), "S-DEAL-2")  # deciding twice
    events = grand_tichu(game, 1, False)
    assert kinds(events).count("cards_dealt") == 4
    assert game.observation(1).hand_sizes == [14, 14, 14, 14]
    assert game.observation(1).phase == "exchange"
    refused(game, tc.GrandTichu(0, True), "S-DEAL-2")  # too late


def test_S_DEAL_3_the_first_out_deals_the_next_hand() -> None:
    # Hand 1: seat 1 goes out first; hand 2: seat 2 goes out first.
    first, second = rotated(FAST, 1), rotated(FAST, 2)
    game = start_play(first, later=[exchange_plan(second)[0]])
    assert game.observation(None).dealer == 0  # the first hand: seat 0
    assert of_type(game.events_for(None), "hand_started")[0].dealer == 0
    play_fast_hand(game, 1)
    # Every seat ranked: the out order, then seat 0, which still held cards.
    assert game.hand_results[0].out_order == [1, 2, 3, 0]
    assert game.observation(None).dealer == 1
    assert of_type(game.events_for(None), "hand_started")[1].dealer == 1
    next_hand(game, second)
    play_fast_hand(game, 2)
    assert game.hand_results[1].out_order == [2, 3, 0, 1]
    assert game.observation(None).dealer == 2  # the third hand, shuffled by seed
    assert of_type(game.events_for(None), "hand_started")[2].dealer == 2


# --- S-CALL-1 -----------------------------------------------------------------------------


def test_S_CALL_1_tichu_at_any_moment_until_the_own_first_card() -> None:
    dealt, pushes = exchange_plan(BASE)
    game = new_game(dealt)
    # Holding 8 cards (Grand Tichu phase) no seat may call Tichu.
    assert tc.Tichu(0) not in list(game.legal_actions(0))
    refused(game, tc.Tichu(0), "S-CALL-1")
    decline_all_grand_tichu(game)
    # With 14 cards: during the exchange, also after the own push.
    push(game, 1, pushes[1])
    assert tc.Tichu(1) in list(game.legal_actions(1))
    assert kinds(tichu(game, 1)) == ["tichu"]
    refused(game, tc.Tichu(1), "S-CALL-1")  # one Tichu per seat
    for seat in (0, 2, 3):
        push(game, seat, pushes[seat])
    play(game, 0, "2j")
    # Seat 0 played its first card: too late.
    assert tc.Tichu(0) not in list(game.legal_actions(0))
    refused(game, tc.Tichu(0), "S-CALL-1")
    # Seat 1 passes and then calls; seat 2 calls after others played.
    pass_(game, 1)
    tichu(game, 2)
    play(game, 2, "Ap")
    refused(game, tc.Tichu(2), "S-CALL-1")
    pass_(game, 3)
    tichu(game, 3)
    assert game.observation(None).calls == {1: "tichu", 2: "tichu", 3: "tichu"}


@pytest.mark.parametrize("both", [False, True])
def test_S_CALL_1_tichu_after_grand_tichu_only_by_option(both: bool) -> None:
    dealt, pushes = exchange_plan(BASE)
    game = new_game(dealt, overrides={"calls.tichu_and_grand_tichu": both})
    grand_tichu(game, 0, True)
    decline_all_grand_tichu(game)
    push_all(game, pushes)
    assert (tc.Tichu(0) in list(game.legal_actions(0))) is both
    if both:
        tichu(game, 0)
    else:
        refused(game, tc.Tichu(0), "S-CALL-1")
    expected = "grand_tichu+tichu" if both else "grand_tichu"
    assert game.observation(None).calls == {0: expected}


def test_S_CALL_1_a_tichu_after_a_grand_tichu_shows_in_the_observations() -> None:
    dealt, pushes = exchange_plan(BASE)
    game = new_game(dealt, overrides={"calls.tichu_and_grand_tichu": True})
    grand_tichu(game, 0, True)
    decline_all_grand_tichu(game)
    push_all(game, pushes)
    before = [game.observation(player).calls for player in (None, 0, 1, 2, 3)]
    tichu(game, 0)  # a public call: every observation must tell it
    after = [game.observation(player).calls for player in (None, 0, 1, 2, 3)]
    assert all(b != a for b, a in zip(before, after, strict=True))
    assert after[0] == {0: "grand_tichu+tichu"}


def test_S_SCORE_3_a_grand_tichu_and_a_tichu_of_one_seat_both_count() -> None:
    dealt, pushes = exchange_plan(FAST)
    game = new_game(dealt, overrides={"calls.tichu_and_grand_tichu": True})
    grand_tichu(game, 0, True)
    decline_all_grand_tichu(game)
    push_all(game, pushes)
    tichu(game, 0)
    play_fast_hand(game, 0)
    assert game.hand_results[0].scores == [90 + 200 + 100, 10]


def test_S_CALL_1_max_calls_per_team_counts_grand_tichu() -> None:
    dealt, pushes = exchange_plan(BASE)
    game = new_game(dealt, overrides={"calls.max_per_team": 1})
    grand_tichu(game, 0, True)
    # Seat 2 is seat 0's partner: its team has made its one call.
    assert list(game.legal_actions(2)) == [tc.GrandTichu(2, False)]
    refused(game, tc.GrandTichu(2, True), "S-CALL-1")
    grand_tichu(game, 1, True)  # the other team may still call
    decline_all_grand_tichu(game)
    push_all(game, pushes)
    for seat in (2, 3):
        assert tc.Tichu(seat) not in list(game.legal_actions(seat))
        refused(game, tc.Tichu(seat), "S-CALL-1")


def test_S_CALL_1_max_calls_per_team_for_tichu() -> None:
    game = start_play(BASE, overrides={"calls.max_per_team": 1})
    tichu(game, 1)
    refused(game, tc.Tichu(3), "S-CALL-1")
    tichu(game, 0)
    refused(game, tc.Tichu(2), "S-CALL-1")
    assert game.observation(None).calls == {0: "tichu", 1: "tichu"}


def test_S_CALL_1_no_limit_by_default() -> None:
    game = start_play(BASE)
    for seat in range(4):
        tichu(game, seat)
    assert game.observation(None).calls == {s: "tichu" for s in range(4)}


# --- S-EX ------------------------------------------------------------------------------


def test_S_EX_1_one_card_to_each_other_seat_all_at_once() -> None:
    dealt = deal(BASE)
    game = new_game(dealt)
    decline_all_grand_tichu(game)
    assert game.waiting_for == [0, 1, 2, 3]
    gifts = {
        0: {1: "MJ", 2: "2j", 3: "Aj"},  # specials may be pushed
        1: {0: "DOG", 2: "2s", 3: "3j"},
        2: {0: "PH", 1: "5j", 3: "6p"},
        3: {0: "DR", 1: "2p", 2: "3p"},
    }
    for seat in (2, 0, 3):
        assert kinds(push(game, seat, gifts[seat])) == ["pushed", "pushed"]
        assert tc.Push(seat, gifts[seat]) not in game.legal_actions(seat)
    # Three seats have given; nothing has moved yet.
    assert game.waiting_for == [1]
    for seat in range(4):
        observation = game.observation(seat)
        assert observation.received == {}
        assert observation.hand_sizes == [14, 14, 14, 14]
        assert not card_set(" ".join(gifts[g][seat] for g in gifts if g != seat)) & held(game, seat)
    refused(game, tc.Push(0, {1: "3s", 2: "4p", 3: "5t"}), "S-EX-3")  # pushed: final
    events = push(game, 1, gifts[1])
    received = of_type(events, "cards_received")
    assert sorted(event.seat for event in received) == [0, 1, 2, 3]
    for seat in range(4):
        got = {giver: gifts[giver][seat] for giver in gifts if giver != seat}
        given = set(gifts[seat].values())
        assert game.observation(seat).received == got
        assert game.observation(seat).pushed == gifts[seat]
        assert held(game, seat) == (frozenset(dealt[seat]) - given) | set(got.values())
    assert game.observation(0).phase == "play"


def test_S_EX_1_exactly_one_card_to_each_other_seat() -> None:
    game = new_game(deal(BASE))
    decline_all_grand_tichu(game)
    refused(game, tc.Push(0, {1: "2j", 2: "3s"}), "S-EX-1")  # seat 3 gets nothing
    refused(game, tc.Push(0, {0: "2j", 1: "3s", 2: "4p"}), "S-EX-1")  # to itself
    refused(game, tc.Push(0, {0: "2j", 1: "3s", 2: "4p", 3: "5t"}), "S-EX-1")
    with pytest.raises(tc.InvalidAction):  # the same card twice
        game.apply(tc.Push(0, {1: "2j", 2: "2j", 3: "3s"}))
    with pytest.raises(tc.InvalidAction):  # a card seat 0 does not hold
        game.apply(tc.Push(0, {1: "7j", 2: "2j", 3: "3s"}))
    refused(game, tc.Play(0, "2j"), {"S-TRICK-1", "S-EX-1"})  # no play in the exchange
    assert game.waiting_for == [0, 1, 2, 3]


def test_S_EX_2_the_mah_jong_holder_after_the_exchange_leads_anything() -> None:
    game = new_game(deal(BASE))
    decline_all_grand_tichu(game)
    push(game, 0, {1: "MJ", 2: "2j", 3: "3s"})  # seat 0 gives the Mah Jong away
    push(game, 1, {0: "10j", 2: "10s", 3: "Jj"})
    push(game, 2, {0: "5j", 1: "5s", 3: "6s"})
    events = push(game, 3, {0: "2p", 1: "2t", 2: "3p"})
    assert of_type(events, "exchange_done")[0].leader == 1
    assert game.turn == 1 and game.waiting_for == [1]
    assert "MJ" in held(game, 1)
    play(game, 1, "2s")  # it need not lead the Mah Jong: no wish to make
    assert game.turn == 2 and game.waiting_for == [2]
    assert game.observation(None).wish is None


# --- S-COMB ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "combination", "rank"),
    [
        ("Aj", "single", 14),
        ("8j 8s", "pair", 8),
        ("8j 8s 9j 9s", "steps", 9),
        ("Qj Qs Qp", "triple", 12),
        ("Qj Qs Qp 8j 8s", "full_house", 12),  # ranked by the triple
        ("MJ 2j 3s 4p 5t", "straight", 5),  # the Mah Jong as the 1
        ("2j 3s 4p 5t 6j", "straight", 6),
        ("MJ 2j 3s 4p 5t 6j", "straight", 6),
    ],
)
def test_S_COMB_1_every_kind_may_be_led(codes: str, combination: str, rank: int) -> None:
    game = start_play(BASE)
    assert listed(game, 0, codes)
    (played,) = of_type(play(game, 0, codes), "played")
    assert (played.seat, played.combination, played.rank, played.bomb) == (
        0,
        combination,
        rank,
        False,
    )
    assert set(played.cards) == card_set(codes)
    assert held(game, 0) == card_set(BASE[0]) - card_set(codes)


@pytest.mark.parametrize(
    "codes",
    [
        "Aj 2j 3s 4p 5t",  # Ace only high: A-2-3-4-5 is no straight
        "8j 9j",
        "8j 8s 9j",
        "8j 8s Qj Qs",  # pairs of ranks that do not follow each other
        "Qj Qs Qp 8j",
        "MJ 2j",
        "2j 3s 4p 5t",  # four cards are no straight
    ],
)
def test_S_COMB_1_other_card_sets_are_no_combination(codes: str) -> None:
    game = start_play(BASE)
    assert not listed(game, 0, codes)
    refused(game, tc.Play(0, codes), "S-COMB-1")


# Seat 0 holds triples of 2 and 3 and four 4s with the Phoenix; the others never act.
COMB2 = [
    "MJ 2j 2s 2p 3j 3s 3p 4j 4s 4p 4t PH Aj Ks",
    "2t 5s 6j 6t 7p 8s 9j 9t 10p Js Qj Qt Kt At",
    "3t 5p 6s 7j 7t 8p 9s 10j 10t Jp Qs Kj As DOG",
    "5j 5t 6p 7s 8j 8t 9p 10s Jj Jt Qp Kp Ap DR",
]


@pytest.mark.parametrize(
    "codes",
    [
        "2j 2s 2p 3j 3s 3p",  # consecutive triples
        "2j 2s 2p 3j 3s 3p 4j 4s 4p",
        "2j 2s 2p 3j 3s PH",  # the same with the Phoenix as a 3
        "4j 4s 4p 4t PH",  # five of one rank
    ],
)
def test_S_COMB_2_consecutive_triples_and_five_of_a_rank_are_no_combination(codes: str) -> None:
    game = start_play(COMB2)
    assert not listed(game, 0, codes)
    refused(game, tc.Play(0, codes), {"S-COMB-2", "S-COMB-1"})
    # What is a combination among those cards still is one (S-COMB-1).
    assert listed(game, 0, "2j 2s 2p 3j 3s")  # full house
    assert listed(game, 0, "2j 2s 3j 3s 4j 4s")  # steps


def test_S_COMB_3_same_kind_and_length_and_strictly_higher() -> None:
    game = start_play(BASE)
    play(game, 0, "8j 8s")  # a pair of 8s
    refused(game, tc.Play(1, "Kj"), "S-COMB-3")  # a single
    refused(game, tc.Play(1, "10j 10s Jj Js"), "S-COMB-3")  # steps
    assert plays(game, 1) >= {card_set("10j 10s"), card_set("Jj Js"), card_set("Kj Kt")}
    assert card_set("Kj") not in plays(game, 1)
    play(game, 1, "10j 10s")
    refused(game, tc.Play(2, "5j 5s"), "S-COMB-3")  # lower
    play(game, 2, "Kp Ks")
    refused(game, tc.Play(3, "2p 2t"), "S-COMB-3")
    pass_(game, 3)
    refused(game, tc.Play(0, "Qj Qs"), "S-COMB-3")
    pass_(game, 0)
    refused(game, tc.Play(1, "Kj Kt"), "S-COMB-3")  # equal is not higher
    assert not listed(game, 1, "Kj Kt")
    pass_(game, 1)
    assert game.turn == 2  # all others passed: seat 2 collects (S-TRICK-2)


def test_S_COMB_3_straights_compare_at_equal_length() -> None:
    game = start_play(BASE)
    play(game, 0, "2j 3s 4p 5t 6j")  # a straight of five to the 6
    pass_(game, 1)
    assert listed(game, 2, "9t 10t Jt Qt Kp")
    assert not listed(game, 2, "8t 9t 10t Jt Qt Kp")
    refused(game, tc.Play(2, "8t 9t 10t Jt Qt Kp"), "S-COMB-3")  # six cards on five
    pass_(game, 2)
    assert not listed(game, 3, "2p 3p 4j 5p 6t")
    refused(game, tc.Play(3, "2p 3p 4j 5p 6t"), "S-COMB-3")  # the same top rank
    pass_(game, 3)
    assert game.turn == 0


# Seat 0 holds the Phoenix beside a low straight, three 8s, two Kings and two Aces.
PHX = [
    "MJ PH 2j 3j 4j 5j 8s 8p 8t Kj Ks Aj As DOG",
    "2s 3s 4s 5s 6j 6t 7p 9j 9t 10p Js Qj Qt Ap",
    "2p 3p 4p 5p 6s 7j 7t 9s 10j 10t Jp Qs Kp At",
    "2t 3t 4t 5t 6p 7s 8j 9p 10s Jj Jt Qp Kt DR",
]


def phoenix_ranks(game: tc.Game, seat: int, codes: str) -> set[str | None]:
    wanted = card_set(codes)
    return {phoenix for cards, phoenix in plays_of(game, seat) if cards == wanted}


def test_S_COMB_4_the_phoenix_readings_are_listed_and_the_strongest_is_taken() -> None:
    game = start_play(PHX)
    # Two pairs and the Phoenix: a full house of Kings or of Aces, the player chooses.
    assert phoenix_ranks(game, 0, "Kj Ks Aj As PH") == {"K", "A"}
    assert phoenix_ranks(game, 0, "Kj Ks Aj PH") == {"A"}  # steps K-A
    assert phoenix_ranks(game, 0, "8s 8p PH") == {"8"}  # a triple
    refused(game, tc.Play(0, "Kj Ks Aj As PH", phoenix="5"), "S-COMB-4")
    # Given only as cards, the strongest reading: three Aces.
    (played,) = of_type(play(game, 0, "Kj Ks Aj As PH"), "played")
    assert (played.combination, played.rank, played.phoenix) == ("full_house", 14, "A")


def test_S_COMB_4_the_player_may_choose_the_weaker_phoenix_reading() -> None:
    game = start_play(PHX)
    (played,) = of_type(play(game, 0, "Kj Ks Aj As PH", phoenix="K"), "played")
    assert (played.combination, played.rank, played.phoenix) == ("full_house", 13, "K")


def test_S_COMB_4_the_phoenix_is_never_the_mah_jong_one_nor_in_a_bomb() -> None:
    game = start_play(PHX)
    # PH 2 3 4 5 can only be the straight 2-6: the Phoenix cannot be the 1.
    assert phoenix_ranks(game, 0, "PH 2j 3j 4j 5j") == {"6"}
    refused(game, tc.Play(0, "PH 2j 3j 4j 5j", phoenix="A"), "S-COMB-4")
    # With the Mah Jong as the 1, the Phoenix may be the 2.
    assert phoenix_ranks(game, 0, "MJ PH 3j 4j 5j") == {"2"}
    # Three 8s and the Phoenix are no four of a kind (no bomb, no combination at all).
    assert not listed(game, 0, "8s 8p 8t PH")
    refused(game, tc.Play(0, "8s 8p 8t PH"), {"S-COMB-1", "S-COMB-4", "S-BOMB-1"})
    (played,) = of_type(play(game, 0, "PH 2j 3j 4j 5j"), "played")
    assert (played.combination, played.rank, played.phoenix, played.bomb) == (
        "straight",
        6,
        "6",
        False,
    )


def test_S_COMB_4_an_explicit_phoenix_must_fit_the_cards() -> None:
    game = start_play(BASE)
    play(game, 0, "Qj Qs Qp 8j 8s")  # full house of Queens
    pass_(game, 1)
    # Seat 2: Kp Ks Ap As PH is a full house of Kings or of Aces; both beat Queens.
    assert phoenix_ranks(game, 2, "Kp Ks Ap As PH") == {"K", "A"}
    (played,) = of_type(play(game, 2, "Kp Ks Ap As PH"), "played")
    assert (played.rank, played.phoenix) == (14, "A")


def test_S_COMB_5_the_phoenix_single_on_the_mah_jong_is_one_and_a_half() -> None:
    game = start_play(BASE)
    play(game, 0, "MJ")
    wish(game, 0, None)
    pass_(game, 1)
    (played,) = of_type(play(game, 2, "PH"), "played")
    assert (played.combination, played.rank) == ("single", 1.5)
    assert listed(game, 3, "2p")  # a 2 beats 1.5
    (played,) = of_type(play(game, 3, "2p"), "played")
    assert played.rank == 2


def test_S_COMB_5_the_phoenix_single_led_is_one_and_a_half() -> None:
    game = start_play(BASE)
    play(game, 0, "2j")
    pass_(game, 1)
    play(game, 2, "Ap")
    passes(game, 3, 0, 1)
    pass_(game, 2)  # seat 2 collects and leads
    (played,) = of_type(play(game, 2, "PH"), "played")
    assert played.rank == 1.5
    play(game, 3, "2p")
    # The Mah Jong (1) would not have beaten 1.5; a 3 beats the 2.
    refused(game, tc.Play(0, "MJ"), "S-COMB-3")
    play(game, 0, "3s")


def test_S_COMB_5_the_phoenix_on_an_ace_is_fourteen_and_a_half() -> None:
    game = start_play(BASE)
    play(game, 0, "Aj")
    pass_(game, 1)
    (played,) = of_type(play(game, 2, "PH"), "played")
    assert played.rank == 14.5
    refused(game, tc.Play(3, "At"), "S-COMB-3")  # an Ace is below 14.5
    assert plays(game, 3) == {card_set("DR")}  # only the Dragon beats it
    play(game, 3, "DR")


def test_S_COMB_5_the_phoenix_never_beats_the_dragon() -> None:
    game = start_play(BASE)
    play(game, 0, "Aj")
    passes(game, 1, 2)
    play(game, 3, "DR")
    passes(game, 0, 1)
    assert card_set("PH") not in plays(game, 2)
    refused(game, tc.Play(2, "PH"), {"S-COMB-3", "S-COMB-5", "S-COMB-6"})


def test_S_COMB_6_the_dragon_is_the_highest_single_and_only_a_single() -> None:
    game = start_play(BASE)
    play(game, 0, "Aj")
    passes(game, 1, 2)
    refused(game, tc.Play(3, "DR At"), "S-COMB-1")
    refused(game, tc.Play(3, "DR 2p 3p 4j 5p"), "S-COMB-1")  # no straight with the Dragon
    (played,) = of_type(play(game, 3, "DR"), "played")
    assert (played.combination, played.rank) == ("single", 15)
    pass_(game, 0)
    refused(game, tc.Play(1, "Kj"), "S-COMB-3")
    pass_(game, 1)
    refused(game, tc.Play(2, "Ap"), "S-COMB-3")
    # Only a bomb beats the Dragon: seat 2's listed plays are its straight flush.
    assert plays(game, 2) == {card_set("8t 9t 10t Jt Qt")}
    play(game, 2, "8t 9t 10t Jt Qt")


# --- S-BOMB ----------------------------------------------------------------------------


def test_S_BOMB_1_four_of_a_kind_is_a_bomb() -> None:
    game = start_play(BASE)
    play(game, 0, "Aj")
    (played,) = of_type(play(game, 1, "7j 7s 7p 7t"), "played")
    assert (played.combination, played.bomb, played.rank) == ("four_bomb", True, 7)


def test_S_BOMB_1_a_straight_flush_is_always_a_bomb() -> None:
    game = start_play(BASE)
    play(game, 0, "2j 3s 4p 5t 6j")
    pass_(game, 1)
    (played,) = of_type(play(game, 2, "8t 9t 10t Jt Qt"), "played")
    assert (played.combination, played.bomb, played.rank) == ("straight_flush", True, 12)
    # Seat 3's straight 2-6 cannot go on a bomb.
    assert list(game.legal_actions(3)) == [tc.Tichu(3), tc.Pass(3)]


def test_S_BOMB_1_the_phoenix_makes_no_bomb() -> None:
    game = start_play(BASE)
    play(game, 0, "2j 3s 4p 5t 6j")
    pass_(game, 1)
    # 8-J of stars with the Phoenix is a plain straight (the strongest: Phoenix as Q).
    (played,) = of_type(play(game, 2, "8t 9t 10t Jt PH"), "played")
    assert (played.combination, played.bomb, played.rank, played.phoenix) == (
        "straight",
        False,
        12,
        "Q",
    )


def test_S_BOMB_1_the_mah_jong_makes_no_straight_flush() -> None:
    game = start_play(PHX)
    (played,) = of_type(play(game, 0, "MJ 2j 3j 4j 5j"), "played")
    assert (played.combination, played.bomb) == ("straight", False)


# Bombs of every order: four 3s < four Aces < straight flush 4-8 < 9-K < 8-K (six).
BOMBS = [
    "MJ 2s 9s 10s Js Qs Ks 2j 4s 6t 8t 10j Qj DOG",
    "3j 3s 3p 3t 8p 9p 10p Jp Qp Kp 2p 5s 7s Kj",
    "Aj As Ap At 2t 4p 6s 7t 9j 10t Jj Qt PH DR",
    "4j 5j 6j 7j 8j 4t 5t 6p 7p 8s 9t Jt Kt 5p",
]


def test_S_BOMB_2_bomb_order() -> None:
    game = start_play(BOMBS)
    play(game, 0, "2s")
    play(game, 1, "3j 3s 3p 3t")
    play(game, 2, "Aj As Ap At")  # fours: the higher rank
    (played,) = of_type(play(game, 3, "4j 5j 6j 7j 8j"), "played")  # any straight flush
    assert (played.combination, played.rank) == ("straight_flush", 8)
    play(game, 0, "9s 10s Js Qs Ks")  # equal length: the higher top card
    assert not listed(game, 1, "8p 9p 10p Jp Qp")
    refused(game, tc.Play(1, "8p 9p 10p Jp Qp"), {"S-BOMB-2", "S-COMB-3"})
    (played,) = of_type(play(game, 1, "8p 9p 10p Jp Qp Kp"), "played")  # longer
    assert (played.combination, played.rank, played.bomb) == ("straight_flush", 13, True)
    assert game.turn == 2


def test_S_BOMB_2_a_four_never_beats_a_straight_flush() -> None:
    game = start_play(BOMBS)
    play(game, 0, "2s")
    pass_(game, 1)
    play(game, 2, "7t")
    play(game, 3, "4j 5j 6j 7j 8j")
    assert plays(game, 1) == {
        card_set("8p 9p 10p Jp Qp"),
        card_set("8p 9p 10p Jp Qp Kp"),
        card_set("9p 10p Jp Qp Kp"),
    }
    refused(game, tc.Play(1, "3j 3s 3p 3t"), {"S-BOMB-2", "S-COMB-3"})
    refused(game, tc.Play(2, "Aj As Ap At"), {"S-BOMB-2", "S-COMB-3"})


def test_S_BOMB_3_a_seat_that_passed_bombs_out_of_turn() -> None:
    game = start_play(BASE)
    play(game, 0, "8j 8s")
    passes(game, 1, 2)
    assert game.turn == 3
    # Seat 1 passed; it is seat 3's turn, yet seat 1 may bomb.
    assert listed(game, 1, "7j 7s 7p 7t")
    assert 1 in game.to_act and game.waiting_for == [3]
    play(game, 1, "7j 7s 7p 7t")
    assert game.turn == 2  # S-BOMB-6
    play(game, 2, "8t 9t 10t Jt Qt")  # seat 2 had passed too
    assert game.turn == 3


def test_S_BOMB_3_bomb_after_the_last_pass_until_the_trick_is_collected() -> None:
    game = start_play(BASE)
    play(game, 0, "Aj")
    passes(game, 1, 2, 3)
    assert game.turn == 0  # seat 0 would now collect ...
    assert listed(game, 1, "7j 7s 7p 7t")
    events = play(game, 1, "7j 7s 7p 7t")  # ... but seat 1 bombs first
    assert kinds(events) == ["played"]
    assert game.turn == 2
    passes(game, 2, 3, 0)
    events = pass_(game, 1)
    (won,) = of_type(events, "trick_won")
    assert (won.seat, won.to) == (1, 1)
    assert set(won.cards) == card_set("Aj 7j 7s 7p 7t")
    assert game.turn == 1


def test_S_BOMB_3_a_bomb_beats_the_dragon_and_the_bomber_keeps_the_trick() -> None:
    game = start_play(BASE)
    play(game, 0, "Aj")
    passes(game, 1, 2)
    play(game, 3, "DR")
    assert game.turn == 0
    play(game, 2, "8t 9t 10t Jt Qt")  # out of turn, on the Dragon
    passes(game, 3, 0, 1)
    events = pass_(game, 2)
    assert of_type(events, "dragon_given") == []
    (won,) = of_type(events, "trick_won")
    # S-DRAGON-1: the bomber keeps the trick: Dragon 25 + the 10 of the bomb = 35.
    assert (won.seat, won.to, won.points) == (2, 2, 35)
    assert game.observation(2).pending is None
    assert game.turn == 2


def test_S_BOMB_3_a_bomb_may_be_led() -> None:
    game = start_play(BASE)
    play(game, 0, "2j")
    play(game, 1, "Kj")
    passes(game, 2, 3, 0)
    pass_(game, 1)
    assert game.turn == 1
    (played,) = of_type(play(game, 1, "7j 7s 7p 7t"), "played")
    assert played.bomb
    assert game.turn == 2


def test_S_BOMB_4_no_bomb_before_the_first_lead() -> None:
    game = start_play(BASE)
    assert list(game.legal_actions(1)) == [tc.Tichu(1)]
    assert list(game.legal_actions(2)) == [tc.Tichu(2)]
    refused(game, tc.Play(1, "7j 7s 7p 7t"), "S-BOMB-4")
    refused(game, tc.Play(2, "8t 9t 10t Jt Qt"), "S-BOMB-4")


def test_S_BOMB_4_no_bomb_on_an_empty_trick() -> None:
    game = start_play(BASE)
    play(game, 0, "Aj")
    passes(game, 1, 2, 3)
    pass_(game, 0)  # seat 0 collects: the trick is empty, seat 0 leads
    assert game.turn == 0
    assert not plays(game, 1)
    refused(game, tc.Play(1, "7j 7s 7p 7t"), "S-BOMB-4")


def test_S_BOMB_4_no_bomb_on_the_dog() -> None:
    game = start_play(BASE)
    play(game, 0, "2j")
    play(game, 1, "Kj")
    passes(game, 2, 3, 0)
    pass_(game, 1)
    play(game, 1, "DOG")
    assert game.turn == 3
    assert not plays(game, 2)
    refused(game, tc.Play(2, "8t 9t 10t Jt Qt"), {"S-BOMB-4", "S-DOG-1"})


@pytest.mark.parametrize("own_trick", [True, False])
def test_S_BOMB_5_bombing_the_own_trick_is_an_option(own_trick: bool) -> None:
    game = start_play(BASE, overrides={"bombs.own_trick": own_trick})
    play(game, 0, "2j")
    play(game, 1, "Kj")  # seat 1's trick
    assert listed(game, 1, "7j 7s 7p 7t") is own_trick
    if not own_trick:
        refused(game, tc.Play(1, "7j 7s 7p 7t"), "S-BOMB-5")
    passes(game, 2, 3, 0)
    # Back at seat 1: it collects by passing, or (by option) bombs its own trick.
    assert game.turn == 1
    expected = {tc.Pass(1)}
    if own_trick:
        expected.add(tc.Play(1, "7j 7s 7p 7t"))
    assert set(game.legal_actions(1)) == expected
    if own_trick:
        play(game, 1, "7j 7s 7p 7t")
        assert game.turn == 2
    else:
        refused(game, tc.Play(1, "7j 7s 7p 7t"), {"S-BOMB-5", "S-TRICK-2"})


def test_S_BOMB_6_play_goes_on_after_the_bomber() -> None:
    game = start_play(BASE)
    play(game, 0, "8j 8s")
    assert game.turn == 1
    play(game, 2, "8t 9t 10t Jt Qt")  # out of turn: seat 1 is skipped
    assert game.turn == 3 and game.waiting_for == [3]
    pass_(game, 3)
    assert game.turn == 0


# --- S-WISH ----------------------------------------------------------------------------


def test_S_WISH_1_the_mah_jong_single_leaves_a_wish_to_make() -> None:
    game = start_play(BASE)
    events = play(game, 0, "MJ")
    assert kinds(events) == ["played"]
    assert game.turn is None and game.waiting_for == [0]
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert list(game.legal_actions(0)) == [tc.Wish(0, None)] + [tc.Wish(0, r) for r in ranks]
    pending = game.observation(0).pending
    assert pending is not None and (pending["kind"], pending["seat"]) == ("wish", 0)
    refused(game, tc.Play(1, "Kj"), "S-WISH-1")  # nothing else happens first
    refused(game, tc.Pass(1), "S-WISH-1")
    refused(game, tc.Wish(1, "5"), "S-WISH-1")
    events = wish(game, 0, "7")
    (made,) = of_type(events, "wish_made")
    assert (made.seat, made.rank) == (0, "7")
    assert all(game.observation(p).wish == "7" for p in (0, 1, 2, 3, None))
    assert game.turn == 1
    refused(game, tc.Wish(0, "8"), "S-WISH-1")  # once


def test_S_WISH_1_the_mah_jong_in_a_straight_wishes_too() -> None:
    game = start_play(BASE)
    play(game, 0, "MJ 2j 3s 4p 5t")
    assert game.waiting_for == [0] and game.turn is None
    assert tc.Wish(0, "K") in list(game.legal_actions(0))


def test_S_WISH_1_wishing_nothing() -> None:
    game = start_play(BASE)
    play(game, 0, "MJ")
    (made,) = of_type(wish(game, 0, None), "wish_made")
    assert made.rank is None
    assert game.observation(None).wish is None
    assert may_pass(game, 1)


# Seat 3 holds the only 9 outside seat 0 (the wisher), and the Phoenix.
W1 = [
    "MJ 2j 3s 5t 6j 7s 8p 9j 9p 9t 10j Jt Qs Qj",
    "2s 3j 4j 4s 5s 6p 7j 8s 10s Js Qp Kj Kp Aj",
    "2t 3t 4t 5p 6t 7t 8t 10t Jp Ks Kt As At DOG",
    "9s PH Ap DR 2p 3p 4p 5j 6s 7p 8j 10p Jj Qt",
]


def test_S_WISH_2_the_seat_on_turn_must_play_the_wished_rank() -> None:
    game = start_play(W1)
    play(game, 0, "MJ")
    wish(game, 0, "9")
    assert may_pass(game, 1)  # S-WISH-5: no 9, free
    play(game, 1, "Kj")
    assert may_pass(game, 2)
    pass_(game, 2)
    # Seat 3 holds the 9 but nothing with it beats a King: it may pass (S-WISH-5).
    assert may_pass(game, 3)
    pass_(game, 3)
    assert may_pass(game, 0)
    pass_(game, 0)
    pass_(game, 1)  # seat 1 collects and leads
    play(game, 1, "4j 4s")
    pass_(game, 2)
    # Now a pair of 9s beats the 4s, but only with the Phoenix: seat 3 must play it.
    assert plays(game, 3) == {card_set("9s PH")}
    assert not may_pass(game, 3)
    refused(game, tc.Pass(3), "S-WISH-2")
    refused(game, tc.Play(3, "10p PH"), "S-WISH-2")
    events = play(game, 3, "9s PH")
    (fulfilled,) = of_type(events, "wish_fulfilled")  # S-WISH-5: a real 9 was played
    assert (fulfilled.seat, fulfilled.rank) == (3, "9")
    assert game.observation(None).wish is None
    assert may_pass(game, 0)  # seat 0's 9s are free again


def test_S_WISH_2_a_leading_seat_must_lead_the_wished_rank() -> None:
    game = start_play(W1)
    play(game, 0, "MJ")
    wish(game, 0, "9")
    play(game, 1, "Kj")
    pass_(game, 2)
    play(game, 3, "Ap")  # no 9 can beat the King: seat 3 plays freely (S-WISH-5)
    passes(game, 0, 1, 2)
    pass_(game, 3)  # seat 3 collects and leads, holding the 9
    assert game.turn == 3
    assert plays(game, 3)
    assert all("9s" in cards for cards in plays(game, 3))
    refused(game, tc.Play(3, "2p"), "S-WISH-2")
    refused(game, tc.Play(3, "DR"), "S-WISH-2")
    play(game, 3, "9s")
    assert game.observation(None).wish is None


@pytest.mark.parametrize("must", [True, False])
def test_S_WISH_2_a_bomb_with_the_wished_rank_fulfils_by_option(must: bool) -> None:
    game = start_play(BASE, overrides={"wish.bomb_must_fulfil": must})
    play(game, 0, "MJ 2j 3s 4p 5t")
    wish(game, 0, "7")
    # Seat 1's only play with a 7 on a straight is its four 7s.
    assert plays(game, 1) == {card_set("7j 7s 7p 7t")}
    assert may_pass(game, 1) is not must
    if must:
        refused(game, tc.Pass(1), "S-WISH-2")
        events = play(game, 1, "7j 7s 7p 7t")
        assert of_type(events, "wish_fulfilled")
    else:
        pass_(game, 1)
        assert game.observation(None).wish == "7"


def test_S_WISH_3_by_default_the_phoenix_as_the_wished_rank_does_not_fulfil() -> None:
    game = _phoenix_nine(phoenix_fulfils=False)
    assert game.observation(None).wish == "9"
    # Seat 2 holds a 9 and a straight 6-10 with it: it is bound to play it.
    assert not may_pass(game, 2)
    assert all("9s" in cards for cards in plays(game, 2))


def test_S_WISH_3_by_option_the_phoenix_as_the_wished_rank_fulfils() -> None:
    game = _phoenix_nine(phoenix_fulfils=True)
    assert game.observation(None).wish is None
    assert may_pass(game, 2)


# Seat 1 has no 9 but a straight 5-8 that the Phoenix can end as a 9.
PHOENIX_NINE = [
    "MJ 2j 3p 4t 5j 6p 7s 8s 9j 9t 10p Jt Ks As",
    "Aj 5s 6s 7j 8j PH 2s 3s Jj Js Qj Qs Kj 4p",
    "2p 3j 4s 5p 6j 7p 8t 9s 10j 10t Qp Kp Ap DOG",
    "2t 3t 4j 5t 6t 7t 8p 9p 10s Jp Qt Kt At DR",
]


def _phoenix_nine(phoenix_fulfils: bool) -> tc.Game:
    game = start_play(PHOENIX_NINE, overrides={"wish.phoenix_fulfils": phoenix_fulfils})
    play(game, 0, "MJ")
    wish(game, 0, "9")
    play(game, 1, "Aj")
    passes(game, 2, 3, 0)  # nobody can beat an Ace with a 9: all free
    pass_(game, 1)
    events = play(game, 1, "5s 6s 7j 8j PH", phoenix="9")
    assert bool(of_type(events, "wish_fulfilled")) is phoenix_fulfils
    return game


def test_S_WISH_4_a_bomb_out_of_turn_need_not_fulfil_but_its_lead_must() -> None:
    game = start_play(BASE)
    play(game, 0, "MJ")
    wish(game, 0, "K")
    assert game.turn == 1 and not may_pass(game, 1)  # seat 1 holds Kings: bound
    events = play(game, 2, "8t 9t 10t Jt Qt")  # seat 2 holds Kings too, bombs without
    assert of_type(events, "wish_fulfilled") == []
    assert game.observation(None).wish == "K"
    passes(game, 3, 0)
    assert may_pass(game, 1)  # no King beats a straight flush: free (S-WISH-5)
    pass_(game, 1)
    pass_(game, 2)  # the bomber collects and leads: now it is bound
    assert all(cards & {"Kp", "Ks"} for cards in plays(game, 2))
    refused(game, tc.Play(2, "5j"), "S-WISH-2")
    events = play(game, 2, "Kp")
    assert of_type(events, "wish_fulfilled")


def test_S_WISH_5_a_real_card_in_a_bomb_out_of_turn_ends_the_wish() -> None:
    game = start_play(BASE)
    play(game, 0, "MJ")
    wish(game, 0, "Q")
    events = play(game, 2, "8t 9t 10t Jt Qt")  # out of turn, with the Queen of stars
    (fulfilled,) = of_type(events, "wish_fulfilled")
    assert (fulfilled.seat, fulfilled.rank) == (2, "Q")
    assert game.observation(None).wish is None


def test_S_WISH_5_the_wish_ends_with_the_hand() -> None:
    dealt, pushes = exchange_plan(DOUBLE_VICTORY)
    game = new_game(dealt)
    decline_all_grand_tichu(game)
    push_all(game, pushes)
    play_double_victory(game, wish_rank="A")  # nobody can play an Ace in this hand
    assert len(game.hand_results) == 1
    assert of_type(game.events_for(None), "wish_fulfilled") == []
    assert game.observation(None).hand_index == 1
    assert game.observation(None).wish is None


@pytest.mark.parametrize("bomb_instead", [False, True])
def test_S_WISH_6_any_bomb_instead_of_the_wished_rank_by_option(bomb_instead: bool) -> None:
    game = start_play(BASE, overrides={"wish.bomb_instead": bomb_instead})
    play(game, 0, "MJ")
    wish(game, 0, "K")
    expected = {card_set("Kj"), card_set("Kt")}
    if bomb_instead:
        expected.add(card_set("7j 7s 7p 7t"))
    assert plays(game, 1) == expected
    assert not may_pass(game, 1)
    if bomb_instead:
        events = play(game, 1, "7j 7s 7p 7t")
        assert of_type(events, "wish_fulfilled") == []
        assert game.observation(None).wish == "K"  # the bomb did not fulfil it
    else:
        refused(game, tc.Play(1, "7j 7s 7p 7t"), "S-WISH-2")


# --- S-DOG ----------------------------------------------------------------------------


def test_S_DOG_1_the_dog_passes_the_lead_to_the_partner() -> None:
    game = start_play(BASE)
    play(game, 0, "2j")
    play(game, 1, "Kj")
    passes(game, 2, 3, 0)
    pass_(game, 1)  # seat 1 collects 2j and Kj (10 points) and leads
    events = play(game, 1, "DOG")
    assert kinds(events) == ["played", "lead_passed"]  # no trick is formed
    assert of_type(events, "played")[0].combination == "dog"
    (passed,) = of_type(events, "lead_passed")
    assert (passed.seat, passed.to) == (1, 3)
    assert game.turn == 3 and game.waiting_for == [3]
    observation = game.observation(None)
    assert observation.trick == [] and observation.top_seat is None
    # The Dog (worth 0) lies in the pile of the seat that played it.
    assert (observation.won_cards[1], observation.won_points[1]) == (3, 10)
    assert not may_pass(game, 3)  # seat 3 leads


def test_S_DOG_1_the_dog_only_as_a_lead_and_alone() -> None:
    game = start_play(BASE)
    play(game, 0, "2j")
    assert card_set("DOG") not in plays(game, 1)
    refused(game, tc.Play(1, "DOG"), "S-DOG-1")
    play(game, 1, "Kj")
    passes(game, 2, 3, 0)
    pass_(game, 1)
    refused(game, tc.Play(1, "DOG 2s"), "S-COMB-1")


DOG_PARTNER_OUT = [STRAIGHT_14, STEPS_LOW, REST, STEPS_HIGH]


@pytest.mark.parametrize(
    ("partner_out", "leader"), [(None, 1), ("next_after_partner", 1), ("next_after_player", 3)]
)
def test_S_DOG_2_the_partner_is_out(partner_out: str | None, leader: int) -> None:
    overrides = {"dog.partner_out": partner_out} if partner_out else {}
    game = start_play(DOG_PARTNER_OUT, overrides=overrides)
    play(game, 0, STRAIGHT_14)  # seat 0 goes out first
    wish(game, 0, None)
    passes(game, 1, 2, 3)
    play(game, 1, "2p")
    play(game, 2, "As")
    passes(game, 3, 1)
    pass_(game, 2)  # seat 2 collects and leads the Dog; its partner (seat 0) is out
    (passed,) = of_type(play(game, 2, "DOG"), "lead_passed")
    assert (passed.seat, passed.to) == (2, leader)
    assert game.turn == leader


# --- S-DRAGON -----------------------------------------------------------------------


def test_S_DRAGON_1_the_dragon_trick_goes_to_an_opponent_of_the_winners_choice() -> None:
    game = start_play(BASE)
    play(game, 0, "Aj")
    passes(game, 1, 2)
    play(game, 3, "DR")
    passes(game, 0, 1, 2)
    events = pass_(game, 3)  # seat 3 collects: first it must give the trick away
    assert of_type(events, "trick_won") == []
    assert game.turn is None and game.waiting_for == [3]
    assert list(game.legal_actions(3)) == [tc.GiveTrick(3, 0), tc.GiveTrick(3, 2)]
    refused(game, tc.GiveTrick(3, 1), "S-DRAGON-1")  # not to the partner
    refused(game, tc.GiveTrick(3, 3), "S-DRAGON-1")
    refused(game, tc.Play(3, "2p"), "S-DRAGON-1")
    refused(game, tc.Pass(0), "S-DRAGON-1")
    events = give_trick(game, 3, 2)
    assert kinds(events) == ["dragon_given", "trick_won"]
    (won,) = of_type(events, "trick_won")
    assert (won.seat, won.to, won.points) == (3, 2, 25)
    observation = game.observation(None)
    assert observation.won_points == [0, 0, 25, 0]
    assert game.turn == 3  # the winner leads


def test_S_DRAGON_1_a_seat_out_with_the_dragon_still_gives_the_trick() -> None:
    # DOUBLE_VICTORY with the Dog and the Dragon swapped: seat 0 goes out with the Dragon.
    layout = [
        STRAIGHT_13 + " DR",
        "2j 2s 3j 3s 4j 4s 5t 6p Qj Qs Kj Ks Aj DOG",
        *DOUBLE_VICTORY[2:],
    ]
    game = start_play(layout)
    play(game, 0, STRAIGHT_13)
    wish(game, 0, None)
    passes(game, 1, 2, 3, 0)
    play(game, 0, "DR")  # seat 0 is out
    assert of_type(passes(game, 1, 2), "trick_won") == []
    events = pass_(game, 3)  # the top seat is out: the trick is collected at once ...
    assert of_type(events, "trick_won") == []
    assert game.waiting_for == [0] and game.turn is None  # ... after the gift
    assert list(game.legal_actions(0)) == [tc.GiveTrick(0, 1), tc.GiveTrick(0, 3)]
    (won,) = of_type(give_trick(game, 0, 3), "trick_won")
    assert (won.seat, won.to, won.points) == (0, 3, 25)
    assert game.turn == 1  # the next seat with cards after seat 0 leads


# Seats 0 and 1 go out; seat 2 then plays the Dragon as its last card (third out).
DRAGON_LAST = [
    STRAIGHT_14,
    STEPS_LOW,
    "DR 2s 3p 4t 5j 6s 7p 8t 9j 10s Jp Qt Kj As",
    "9s 9p 10p 10t Jj Jt Qj Qs Ks Kp Ap At DOG PH",
]


def _dragon_last(gift_when_last: bool) -> tuple[tc.Game, list[tc.Event]]:
    game = start_play(DRAGON_LAST, overrides={"dragon.gift_when_last": gift_when_last})
    play(game, 0, STRAIGHT_14)
    wish(game, 0, None)
    passes(game, 1, 2, 3)
    play(game, 1, STEPS_LOW)
    passes(game, 2, 3)
    play(game, 2, "2s 3p 4t 5j 6s 7p 8t 9j 10s Jp Qt Kj As")
    passes(game, 3, 2)
    return game, play(game, 2, "DR")  # seat 2 is out third: the hand is over


def test_S_DRAGON_2_the_gift_applies_to_the_last_trick() -> None:
    game, events = _dragon_last(gift_when_last=True)
    assert of_type(events, "trick_won") == [] and of_type(events, "hand_scored") == []
    refused(game, tc.GiveTrick(2, 0), "S-DRAGON-1")
    events = give_trick(game, 2, 1)
    assert kinds(events)[:3] == ["dragon_given", "trick_won", "hand_scored"]
    # Team 0: 25 (seat 0) + 25 (seat 2) + 15 (seat 3's hand); team 1: 10 + 25 (the gift).
    assert game.hand_results[0].card_points == [65, 35]


def test_S_DRAGON_2_the_pending_last_gift_is_listed_and_awaited() -> None:
    game, _ = _dragon_last(gift_when_last=True)
    assert game.waiting_for == [2]
    assert game.to_act == [2]
    assert list(game.legal_actions(2)) == [tc.GiveTrick(2, 1), tc.GiveTrick(2, 3)]


def test_S_DRAGON_2_by_option_the_last_dragon_trick_is_kept() -> None:
    game, events = _dragon_last(gift_when_last=False)
    assert of_type(events, "dragon_given") == []
    (won,) = of_type(events, "trick_won")
    assert (won.seat, won.to, won.points) == (2, 2, 25)
    # Team 0: 25 + 25 + 25 (the Dragon) + 15 (seat 3's hand); team 1: 10.
    assert game.hand_results[0].card_points == [90, 10]


# --- S-TRICK ------------------------------------------------------------------------


def test_S_TRICK_1_play_higher_or_pass_and_passing_never_locks_out() -> None:
    game = start_play(BASE)
    refused(game, tc.Pass(0), "S-TRICK-1")  # the leader cannot pass
    play(game, 0, "5t")
    refused(game, tc.Pass(2), "S-TRICK-1")  # not seat 2's turn
    refused(game, tc.Play(3, "6t"), {"S-TRICK-1", "S-BOMB-3"})
    assert may_pass(game, 1)
    pass_(game, 1)
    play(game, 2, "6s")
    passes(game, 3, 0)
    play(game, 1, "Kj")  # seat 1 passed before and plays now
    play(game, 2, "Ap")
    passes(game, 3, 0, 1)
    (won,) = of_type(pass_(game, 2), "trick_won")
    assert (won.seat, won.to, won.points) == (2, 2, 15)  # 5t + Kj
    assert game.turn == 2


@pytest.mark.parametrize("winner_collects", [True, False])
def test_S_TRICK_2_the_trick_is_collected(winner_collects: bool) -> None:
    game = start_play(BASE, overrides={"tricks.winner_collects": winner_collects})
    play(game, 0, "Aj")
    passes(game, 1, 2)
    events = pass_(game, 3)
    if winner_collects:
        # The turn returns to seat 0, which collects by passing once more ...
        assert of_type(events, "trick_won") == []
        assert game.turn == 0 and game.waiting_for == [0]
        assert list(game.legal_actions(0)) == [tc.Pass(0)]
        refused(game, tc.Play(0, "Qj Qs Qp"), "S-TRICK-2")  # no non-bomb on its own trick
        assert listed(game, 1, "7j 7s 7p 7t")  # ... until then any seat may bomb
        events = pass_(game, 0)
    (won,) = of_type(events, "trick_won")
    assert (won.seat, won.to) == (0, 0)
    assert game.turn == 0  # the collector leads
    assert game.observation(None).trick == []
    assert not plays(game, 1)


def test_S_TRICK_2_a_top_seat_that_is_out_collects_at_once_and_the_next_seat_leads() -> None:
    game = start_play(FAST)
    play(game, 0, STRAIGHT_14)  # seat 0 is out
    wish(game, 0, None)
    assert of_type(passes(game, 1, 2), "trick_won") == []
    (won,) = of_type(pass_(game, 3), "trick_won")
    assert (won.seat, won.to, won.points) == (0, 0, 25)
    assert game.turn == 1


def test_S_TRICK_3_a_seat_that_plays_its_last_card_is_out() -> None:
    game = start_play(END2)
    events = play(game, 0, STRAIGHT_14)
    (out,) = of_type(events, "seat_out")
    assert (out.seat, out.place) == (0, 1)
    wish(game, 0, None)
    passes(game, 1, 2, 3)
    assert list(game.legal_actions(0)) == []
    play(game, 1, "5s")
    refused(game, tc.Pass(0), "S-TRICK-3")
    pass_(game, 2)
    play(game, 3, "Kp")
    assert game.turn == 1  # seat 0 is skipped
    passes(game, 1, 2)
    assert game.turn == 3


# --- S-END, S-SCORE -----------------------------------------------------------------


# Seat 0 goes out first, seat 3 wins a trick (5s and Kp, 15 points) and stays last.
END2 = [
    STRAIGHT_14,
    "5s 2s 3p 4t 5j 6s 7p 8t 9j 10s Jp Qt Kj As",
    "6p 6t 7j 7t 8j 8s 9s 9p 10p 10t Jj Jt Qj Qs",
    "2p 2t 3j 3t 4j 4s 5p Ks Kp Ap At DOG PH DR",
]


def test_S_END_1_the_hand_ends_when_one_seat_holds_cards() -> None:
    game = start_play(FAST)
    play(game, 0, STRAIGHT_14)
    wish(game, 0, None)
    passes(game, 1, 2, 3)
    play(game, 1, STEPS_LOW)
    passes(game, 2, 3)
    assert game.observation(None).hand_sizes == [0, 0, 14, 14]
    events = play(game, 2, STEPS_HIGH)
    assert kinds(events)[:4] == ["played", "seat_out", "trick_won", "hand_scored"]
    (won,) = of_type(events, "trick_won")
    assert (won.seat, won.to) == (2, 2)  # the third out collects the last trick
    result = game.hand_results[0]
    # Seat 3, still holding cards, is ranked last.
    assert result.out_order == [0, 1, 2, 3] and not result.double_victory
    assert game.observation(None).hand_index == 1  # the next hand is dealt


def test_S_END_1_a_double_victory_ends_the_hand_at_once() -> None:
    game = start_play(DOUBLE_VICTORY)
    events = play_double_victory(game)
    assert "hand_scored" in kinds(events)
    result = game.hand_results[0]
    # Seats 1 and 3 still held 14 cards each: ranked after the two out, in play order
    # from the seat after the last one out (seat 2): 3, then 1.
    assert result.out_order == [0, 2, 3, 1]
    assert result.double_victory


def test_S_END_2_the_last_seat_gives_hand_to_opponents_and_tricks_to_the_first_out() -> None:
    game = start_play(END2)
    play(game, 0, STRAIGHT_14)  # seat 0 out first, wins 25
    wish(game, 0, None)
    passes(game, 1, 2, 3)
    play(game, 1, "5s")
    pass_(game, 2)
    play(game, 3, "Kp")
    passes(game, 1, 2)
    pass_(game, 3)  # seat 3 wins 5s + Kp = 15
    play(game, 3, "DOG")  # seat 3 leads the Dog to seat 1
    play(game, 1, "2s 3p 4t 5j 6s 7p 8t 9j 10s Jp Qt Kj As")  # out second, wins 25
    passes(game, 2, 3)
    play(game, 2, "6p 6t 7j 7t 8j 8s 9s 9p 10p 10t Jj Jt Qj Qs")  # out third, wins 20
    result = game.hand_results[0]
    assert result.out_order == [0, 1, 2, 3]
    # Seat 3 is last: its hand (5p Ks PH DR = 15) goes to team 0, its tricks (15) to
    # seat 0 (team 0). Team 0: 25 + 20 + 15 + 15 = 75; team 1: 25.
    assert result.card_points == [75, 25]
    assert result.scores == [75, 25]


@pytest.mark.parametrize(("first", "points"), [(0, [90, 10]), (3, [10, 90])])
def test_S_SCORE_1_card_points_sum_to_100(first: int, points: list[int]) -> None:
    game = start_play(rotated(FAST, first))
    events = play_fast_hand(game, first)
    (scored,) = of_type(events, "hand_scored")
    # The straight's team: 25 (5, 10, K) + 15 (steps: 10, 10, K, K, Phoenix) + 50 (the
    # last hand: 5, 10, K, Dragon); the other team: 10 (the two 5s of the low steps).
    assert scored.card_points == points and sum(scored.card_points) == 100
    assert scored.scores == points and scored.totals == points
    assert game.scores == points
    assert game.hand_results[0].card_points == points


@pytest.mark.parametrize(("value", "expected"), [(None, 200), (300, 300)])
def test_S_SCORE_2_double_victory(value: int | None, expected: int) -> None:
    overrides = {"scoring.double_victory": value} if value else {}
    game = start_play(DOUBLE_VICTORY, overrides=overrides)
    events = play_double_victory(game)
    (scored,) = of_type(events, "hand_scored")
    assert scored.double_victory
    assert scored.scores == [expected, 0]  # no cards counted
    assert game.scores == [expected, 0]


def test_S_SCORE_3_calls_count_also_with_a_double_victory() -> None:
    dealt, pushes = exchange_plan(DOUBLE_VICTORY)
    game = new_game(dealt)
    grand_tichu(game, 2, True)
    decline_all_grand_tichu(game)
    push_all(game, pushes)
    tichu(game, 0)
    tichu(game, 1)
    play_double_victory(game)
    # Team 0: 200 + 100 (seat 0 out first) - 200 (seat 2's Grand Tichu, out second);
    # team 1: - 100 (seat 1's Tichu).
    assert game.hand_results[0].scores == [100, -100]
    assert game.hand_results[0].calls == {0: "tichu", 1: "tichu", 2: "grand_tichu"}


def test_S_SCORE_3_calls_without_a_double_victory() -> None:
    dealt, pushes = exchange_plan(FAST)
    game = new_game(dealt)
    grand_tichu(game, 0, True)
    decline_all_grand_tichu(game)
    push_all(game, pushes)
    tichu(game, 1)
    tichu(game, 3)
    play_fast_hand(game, 0)
    # Card points 90 / 10; seat 0 went out first: +200; seats 1 and 3 did not: -100 each.
    assert game.hand_results[0].scores == [290, -190]


# --- S-GAME-1 -----------------------------------------------------------------------


def test_S_GAME_1_the_match_ends_after_the_hand_in_which_a_team_reaches_the_target() -> None:
    game = start_play(FAST, overrides={"game.target": 50})
    play(game, 0, STRAIGHT_14)
    wish(game, 0, None)
    passes(game, 1, 2, 3)
    assert not game.is_over and game.outcome is None
    play(game, 1, STEPS_LOW)
    passes(game, 2, 3)
    events = play(game, 2, STEPS_HIGH)
    assert game.is_over and game.scores == [90, 10]
    (over,) = of_type(events, "match_over")
    assert (over.winners, over.totals) == ([0], [90, 10])
    assert over.termination == "target_reached"
    assert game.outcome == tc.Outcome(tc.Termination.TARGET_REACHED, (0,))
    assert game.to_act == [] and game.waiting_for == []
    assert all(list(game.legal_actions(seat)) == [] for seat in range(4))
    refused(game, tc.Pass(3), "S-GAME-1")


def test_S_GAME_1_when_both_teams_reach_the_target_the_higher_total_wins() -> None:
    game = start_play(rotated(FAST, 1), overrides={"game.target": 10})
    events = play_fast_hand(game, 1)
    assert game.scores == [10, 90]
    assert game.is_over
    assert of_type(events, "match_over")[0].winners == [1]
    assert game.outcome == tc.Outcome(tc.Termination.TARGET_REACHED, (1,))


def test_S_GAME_1_a_tie_plays_on() -> None:
    # Seat 3 calls Tichu and goes out third: 90 - 80 = 10 for team 1, 10 for team 0.
    second = exchange_plan(FAST)[0]
    game = start_play(
        rotated(FAST, 1),
        overrides={"game.target": 10, "calls.tichu_points": 80},
        later=[second],
    )
    tichu(game, 3)
    events = play_fast_hand(game, 1)
    assert game.scores == [10, 10]
    assert not game.is_over and of_type(events, "match_over") == []
    assert game.outcome is None and game.winners == []
    assert game.observation(None).hand_index == 1
    next_hand(game, FAST)
    events = play_fast_hand(game, 0)
    assert game.scores == [100, 20]
    assert game.is_over and of_type(events, "match_over")[0].winners == [0]
    assert game.outcome == tc.Outcome(tc.Termination.TARGET_REACHED, (0,))


# --- E-1, E-3 ------------------------------------------------------------------------


def test_E_1_every_choice_is_an_explicit_action() -> None:
    dealt, pushes = exchange_plan(BASE)
    game = new_game(dealt)
    assert game.waiting_for == [0, 1, 2, 3]  # Grand Tichu decisions, never implied
    for seat in range(3):
        grand_tichu(game, seat, False)
    assert game.waiting_for == [3] and game.observation(0).hand_sizes == [8, 8, 8, 8]
    grand_tichu(game, 3, False)
    for seat in range(3):
        push(game, seat, pushes[seat])
    assert game.waiting_for == [3] and game.observation(0).phase == "exchange"
    push(game, 3, pushes[3])
    play(game, 0, "MJ")
    assert game.waiting_for == [0] and game.turn is None  # the wish
    wish(game, 0, None)
    play(game, 1, "Kj")
    passes(game, 2, 3, 0)
    assert game.waiting_for == [1]  # collecting is a pass, too
    pass_(game, 1)
    play(game, 1, "2s")
    pass_(game, 2)
    play(game, 3, "DR")
    passes(game, 0, 1, 2, 3)
    assert game.waiting_for == [3] and game.turn is None  # the Dragon gift
    give_trick(game, 3, 0)
    assert game.waiting_for == [3] and game.turn == 3


def test_E_3_simultaneous_decisions_in_any_order() -> None:
    dealt, pushes = exchange_plan(BASE)
    one = new_game(dealt)
    other = new_game(dealt)
    for seat in (0, 1, 2, 3):
        grand_tichu(one, seat, seat == 1)
    for seat in (3, 1, 0, 2):
        grand_tichu(other, seat, seat == 1)
    tichu(other, 2)
    for seat in (0, 1, 2, 3):
        push(one, seat, pushes[seat])
    tichu(one, 2)
    for seat in (2, 0, 3, 1):
        push(other, seat, pushes[seat])
    for player in (0, 1, 2, 3, None):
        assert one.observation(player) == other.observation(player)
    for seat in range(4):
        assert list(one.legal_actions(seat)) == list(other.legal_actions(seat))


def test_E_3_the_first_accepted_bomb_stands_and_later_ones_must_beat_it() -> None:
    game = start_play(BASE)
    play(game, 0, "8j 8s")
    play(game, 2, "8t 9t 10t Jt Qt")
    refused(game, tc.Play(1, "7j 7s 7p 7t"), {"S-BOMB-2", "S-COMB-3"})
    other = start_play(BASE)
    play(other, 0, "8j 8s")
    play(other, 1, "7j 7s 7p 7t")
    play(other, 2, "8t 9t 10t Jt Qt")  # the straight flush beats the four
    assert other.turn == 3
