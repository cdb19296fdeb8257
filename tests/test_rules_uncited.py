"""Scenario tests for what docs/rules.md says the engine does where no other test looked.

Every rule of docs/rules.md has its own tests (tests/test_rule_ids.py holds that); these
check the parts of three rules that the project settles beyond the printed rules: no
Dragon gift after a double victory (S-DRAGON-2), the first lead in a deck without a Mah
Jong (S-EX-2), and equal leaders on score lines per player (S-GAME-1). Each test reads
like a transcript; expected values are worked out from docs/rules.md in the comments.
"""

from __future__ import annotations

import random

from scenario import (
    decline_all_grand_tichu,
    exchange_plan,
    held,
    new_game,
    of_type,
    pass_,
    passes,
    play,
    push_all,
    random_action,
    wish,
)
from test_threechu import DUMMY_LINE, FAST, SHUFFLER, decide_and_push, play_fast_hand
from test_threechu import exchange_plan as threechu_plan

import tichu_core as tc

# Seat 0 goes out first with a 13-card straight and the Dog; the Dog hands the lead to
# seat 2, which then goes out with steps 5-10, a 2 and, last of all, the Dragon.
STRAIGHT_13 = "MJ 2p 3t 4p 5s 6j 7s 8j 9s 10j Js Qt Kp"
STEPS_12 = "5j 5p 6s 6t 7j 7p 8s 8t 9j 9p 10s 10t"
DRAGON_LAST = [
    f"{STRAIGHT_13} DOG",
    "2s 3j 3s 4j 4s Jj Jp Qj Qs Kj Ks Aj As PH",
    f"{STEPS_12} 2j DR",
    "2t 3p 4t 5t 6p 7t 8p 9t 10p Jt Qp Kt Ap At",
]


def test_S_DRAGON_2_no_gift_when_a_double_victory_ends_the_hand_on_the_dragon() -> None:
    dealt, pushes = exchange_plan(DRAGON_LAST)
    game = new_game(dealt, dealt)
    decline_all_grand_tichu(game)
    push_all(game, pushes)
    play(game, 0, STRAIGHT_13)
    wish(game, 0, None)
    passes(game, 1, 2, 3)
    pass_(game, 0)  # seat 0 collects its trick ...
    play(game, 0, "DOG")  # ... and goes out with the Dog: the lead goes to seat 2
    assert game.turn == 2
    play(game, 2, STEPS_12)
    passes(game, 3, 1)
    pass_(game, 2)  # seat 2 collects
    play(game, 2, "2j")
    passes(game, 3, 1)
    pass_(game, 2)
    assert held(game, 2) == {"DR"}
    # Seat 2 leads its last card, the Dragon: seats 0 and 2 are out first and second,
    # a double victory (S-END-1). The Dragon trick stays with seat 2: no card is
    # counted, so no gift is asked for, although dragon.gift_when_last is true.
    events = play(game, 2, "DR")
    assert of_type(events, "dragon_given") == []
    (won,) = of_type(events, "trick_won")
    assert (won.seat, won.to) == (2, 2)
    (result,) = game.hand_results
    assert result.double_victory and list(result.out_order)[:2] == [0, 2]
    # S-SCORE-2: 200 to the winners, 0 to the others, no card points.
    assert list(result.scores) == [200, 0] and list(result.card_points) == [0, 0]
    # The next hand has begun: every seat decides on Grand Tichu (S-DEAL-2).
    assert game.waiting_for == [0, 1, 2, 3]


def test_S_EX_2_without_a_mah_jong_the_seat_after_the_dealer_leads() -> None:
    # A deck without the Mah Jong (55 cards), dealt round the table one card at a time.
    variant = tc.load_variant("standard", overrides={"deck.without": ["MJ"], "deal.hand_size": 0})
    game = tc.Game(variant, seed=5)
    rng = random.Random(5)
    for hand in range(2):
        # Random Grand Tichu decisions and pushes up to the first lead of the hand.
        while game.observation(None).phase != "play":
            game.apply(random_action(game, rng))
        assert all("MJ" not in held(game, seat) for seat in range(4))
        # S-DEAL-3: seat 0 deals the first hand, the first out of a hand the next one.
        dealer = game.hand_results[-1].out_order[0] if hand else 0
        assert game.turn == (dealer + 1) % 4
        while len(game.hand_results) == hand:
            game.apply(random_action(game, rng))
    # The second hand had a dealer other than seat 0, so its first lead tells the rule
    # apart from "seat 1 leads".
    assert game.hand_results[0].out_order[0] != 0


def test_S_GAME_1_equal_leaders_on_lines_per_player_share_the_win() -> None:
    # Threechu to a target of 200: its score lines are per player (T3-7), and the
    # shuffler's line and the dummy's always score alike.
    variant = tc.load_variant("threechu", overrides={"game.target": 200, "game.hands": 0})
    dealt, pushes = threechu_plan(FAST)
    game = tc.Game(variant, seed=1, deals=[dealt])
    decide_and_push(game, pushes)
    # The dummy calls Tichu (the shuffler for it, T3-5) and goes out first: its
    # partnership takes all 100 card points and 100 for the call, on both lines.
    events = play_fast_hand(game, dummy_tichu=True)
    assert game.scores == [200, 0, 0, 200]
    # Two lines reach the target level: with lines per team that tie would play on;
    # here the match ends and both lines win.
    assert game.is_over
    assert game.outcome == tc.Outcome(tc.Termination.TARGET_REACHED, (SHUFFLER, DUMMY_LINE))
    (over,) = of_type(events, "match_over")
    assert over.winners == [SHUFFLER, DUMMY_LINE]
