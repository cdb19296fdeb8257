"""Threechu (docs/rules.md T3-1 … T3-8): three players, the shuffler plays a dummy hand opposite.

The variant is variants/threechu.toml with the ``threechu`` plugin (plugins/threechu.py).
In every hand the shuffler sits at seat 0 and deals, the dummy sits opposite at
seat 2 as its partner, and the two other players sit at seats 1 and 3 (the player
after the shuffler at seat 1). Play order is seat 0, 1, 2, 3 as always.

The scenario tests stack deals and read like a transcript. Hands are listed as they
are **after the exchange**: :func:`exchange_plan` plans the deal and the pushes
backwards (T3-3: each seat gives one card to each of its two opponents), so that
seat ``s`` receives the 13th listed card from seat ``s+1`` and the 14th from seat
``s+3``. Expected values are worked out from docs/rules.md in the comments.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from scenario import (
    card_set,
    deal,
    kinds,
    listed,
    may_pass,
    of_type,
    pass_,
    passes,
    play,
    plays_of,
    refused,
    strings,
    wish,
)

import tichu_core as tc
from tichu_core.frontends.bots import RandomBot, decide, make_bot, play_match
from tichu_core.frontends.cli.commands import main as tichu_cli

SHUFFLER, LEFT, DUMMY, RIGHT = 0, 1, 2, 3  # seats of every hand: LEFT plays after the shuffler
PLAYER_LINES = 3  # score lines 0..2 are the players', line 3 the dummy's (T3-7)
DUMMY_LINE = 3

Deal = list[list[str]]
Pushes = list[dict[int, str]]


def threechu() -> tc.Variant:
    return tc.load_variant("threechu")


def shuffler_of(hand: int) -> int:
    """T3-8: the shuffle passes to the shuffler's left, the player before it in play
    order (play goes to the right): players 0, 2, 1, 0, 2, 1, ..."""
    return -hand % 3


def exchange_plan(after: Sequence[str]) -> tuple[Deal, Pushes]:
    """The deal and the pushes that leave seat ``s`` holding ``after[s]`` once the exchange
    is done: its 13th card came from seat ``s+1``, its 14th from seat ``s+3`` (T3-3)."""
    final = deal(after)
    dealt: Deal = []
    pushes: Pushes = []
    for giver in range(4):
        following, preceding = (giver + 1) % 4, (giver + 3) % 4
        # The giver is the seat before `following` (its 14th card) and the seat after
        # `preceding` (its 13th card).
        gives = {following: final[following][13], preceding: final[preceding][12]}
        dealt.append([*final[giver][:12], gives[following], gives[preceding]])
        pushes.append(gives)
    return deal([" ".join(hand) for hand in dealt]), pushes


def decide_and_push(game: tc.Game, pushes: Pushes) -> None:
    """The opponents decline Grand Tichu (the shuffler and the dummy have no decision,
    T3-2), then every seat pushes; the shuffler pushes for the dummy."""
    assert game.waiting_for == [LEFT, RIGHT]
    for seat in (LEFT, RIGHT):
        game.apply(tc.GrandTichu(seat, False))
    for seat in (LEFT, RIGHT, DUMMY, SHUFFLER):
        game.apply(tc.Push(seat, pushes[seat]))


def start_play(after: Sequence[str], hands: int = 1) -> tc.Game:
    """A Threechu game in the play phase of its first hand, seats holding ``after``;
    the next ``hands - 1`` hands are dealt the same way."""
    dealt, pushes = exchange_plan(after)
    game = tc.Game(threechu(), seed=1, deals=[dealt] * hands)
    decide_and_push(game, pushes)
    for seat in range(4):
        assert holding(game, seat) == card_set(after[seat]), seat
    return game


def holding(game: tc.Game, seat: int) -> frozenset[str]:
    """The cards of ``seat`` as the player who plays it sees them."""
    return frozenset(game.observation(game.controller(seat)).hands[seat])


def rejected(game: tc.Game, action: tc.Action) -> tc.IllegalAction:
    """Assert the action is refused as illegal and the game did not change."""
    before = game.to_json(), [game.observation(p).model_dump() for p in (0, 1, 2, None)]
    with pytest.raises(tc.IllegalAction) as refusal:
        game.apply(action)
    assert (game.to_json(), [game.observation(p).model_dump() for p in (0, 1, 2, None)]) == before
    return refusal.value


def seen_strings(game: tc.Game, viewer: int | None) -> set[str]:
    """Every string ``viewer`` can read: its observation and its events."""
    seen = set(strings(game.observation(viewer).model_dump()))
    for event in game.events_for(viewer):
        seen |= set(strings(event.model_dump()))
    return seen


# --- tables ---------------------------------------------------------------------------

# A fast hand: the dummy holds the Mah Jong in a 14-card straight (25 points) and goes
# out with its first play; seat 3 then goes out with 14-card steps 2-8 (10 points),
# the shuffler beats them with the Phoenix steps 8-A (15 points) and goes out third;
# seat 1 never plays (50 points in hand). No seat holds a bomb.
STRAIGHT_14 = "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj"
STEPS_LOW = "2p 2t 3j 3t 4j 4s 5s 5p 6p 6t 7j 7t 8j 8s"
STEPS_HIGH = "PH 8t 9s 9p 10p 10t Jj Jt Qj Qs Ks Kp Ap At"
REST = "DOG DR 2s 3p 4t 5j 6s 7p 9j 10s Jp Qt Kj As"
FAST = [STEPS_HIGH, REST, STRAIGHT_14, STEPS_LOW]


def play_fast_hand(game: tc.Game, dummy_tichu: bool = False) -> list[tc.Event]:
    """Play a FAST hand (the shuffler acting for the dummy); returns the last events.

    Card points (S-SCORE-1, S-END-2): the dummy's straight trick 25 and the steps trick
    10 + 15 taken by the shuffler, plus seat 1's hand 50 given to the opponents: the
    shuffler's partnership 100, the other 0. A Tichu for the dummy adds 100 (S-SCORE-3)."""
    assert game.turn == DUMMY  # S-EX-2: the Mah Jong holder leads: the dummy
    assert game.waiting_for == [DUMMY]
    if dummy_tichu:
        game.apply(tc.Tichu(DUMMY))
    play(game, DUMMY, STRAIGHT_14)
    wish(game, DUMMY, None)
    passes(game, RIGHT, SHUFFLER, LEFT)  # the dummy is out: collected at the last pass
    assert game.turn == RIGHT
    play(game, RIGHT, STEPS_LOW)
    return play(game, SHUFFLER, STEPS_HIGH)


# One card of each rank per seat, suits turning with the rank (no bombs): seat 0 the
# Dog, seat 1 the Mah Jong, seat 2 (the dummy) the Dragon, seat 3 the Phoenix.
SPREAD = [
    "DOG 2p 3t 4j 5s 6p 7t 8j 9s 10p Jt Qj Ks Ap",
    "MJ 2t 3j 4s 5p 6t 7j 8s 9p 10t Jj Qs Kp At",
    "DR 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj",
    "PH 2s 3p 4t 5j 6s 7p 8t 9j 10s Jp Qt Kj As",
]


# --- T3-1 ---------------------------------------------------------------------------------


def test_T3_1_four_hands_the_shuffler_partners_the_dummy_opposite_and_plays_it() -> None:
    dealt, pushes = exchange_plan(FAST)
    game = tc.Game(threechu(), deals=[dealt])
    # Three players, four hands of 14 cards dealt 8 + 6 as in S-DEAL-1.
    assert (game.players, game.seats) == (3, 4)
    spectator = game.observation(None)
    assert spectator.hand_sizes == [8, 8, 8, 8]
    # Player 0 shuffles the first hand from seat 0; the dummy sits opposite, at seat 2,
    # in its team; the two other players keep their order (1 after 0, then 2).
    (started,) = of_type(game.events_for(None), "hand_started")
    assert started.players == [0, 1, None, 2] and started.dealer == SHUFFLER
    assert [game.player_at(seat) for seat in range(4)] == [0, 1, None, 2]
    assert spectator.teams[SHUFFLER] == spectator.teams[DUMMY] != spectator.teams[LEFT]
    assert spectator.teams[LEFT] == spectator.teams[RIGHT]
    assert game.seat_of(0) == SHUFFLER and game.seat_of(2) == RIGHT
    # The shuffler plays the dummy: it acts for seat 2 and sees it as its own.
    assert [game.controller(seat) for seat in range(4)] == [0, 1, 0, 2]
    assert game.observation(0).seats == [SHUFFLER, DUMMY]

    decide_and_push(game, pushes)
    assert game.observation(None).hand_sizes == [14, 14, 14, 14]
    # The dummy holds the Mah Jong: it leads, and the shuffler's actions for it count.
    events = play_fast_hand(game)
    assert kinds(events).index("hand_scored") < kinds(events).index("hand_started")
    assert game.hand_results[0].out_order == [DUMMY, RIGHT, SHUFFLER, LEFT]
    assert game.hand_results[0].players == [0, 1, None, 2]


# --- T3-2 ---------------------------------------------------------------------------------


def test_T3_2_no_grand_tichu_for_the_shuffler_nor_the_dummy() -> None:
    dealt, _ = exchange_plan(SPREAD)
    game = tc.Game(threechu(), deals=[dealt])
    # Only the two opponents decide on Grand Tichu; the shuffler's seats are declined.
    assert game.waiting_for == [LEFT, RIGHT]
    assert game.observation(1).grand_tichu_decided == [True, False, True, False]
    assert list(game.legal_actions(SHUFFLER)) == []
    assert list(game.legal_actions(DUMMY)) == []
    for seat in (SHUFFLER, DUMMY):
        assert rejected(game, tc.GrandTichu(seat, True)).rule == "T3-2"
        # The rules' own answer cites T3-2 too.
        refusal = game.rulebook.may_call(game._hand.view, seat, "grand_tichu")
        assert refusal is not None and refusal.rule == "T3-2"
    assert tc.GrandTichu(LEFT, True) in game.legal_actions(LEFT)
    game.apply(tc.GrandTichu(LEFT, True))
    assert game.observation(None).calls == {LEFT: "grand_tichu"}

    # The shuffler sees the dummy's hand from the deal on: its first 8 cards now.
    shuffler_view = game.observation(0)
    assert set(shuffler_view.hand) == set(dealt[SHUFFLER][:8])
    assert set(shuffler_view.hands) == {SHUFFLER, DUMMY}
    assert set(shuffler_view.hands[DUMMY]) == set(dealt[DUMMY][:8])
    (dummy_cards,) = [e for e in of_type(game.events_for(0), "cards_dealt") if e.seat == DUMMY]
    assert dummy_cards.cards == dealt[DUMMY][:8]
    game.apply(tc.GrandTichu(RIGHT, False))
    assert set(game.observation(0).hands[DUMMY]) == set(dealt[DUMMY])


# --- T3-3 ---------------------------------------------------------------------------------


def test_T3_3_pushes_go_only_to_opponents_the_dummys_chosen_by_the_shuffler() -> None:
    dealt, pushes = exchange_plan(SPREAD)
    game = tc.Game(threechu(), deals=[dealt])
    for seat in (LEFT, RIGHT):
        game.apply(tc.GrandTichu(seat, False))
    assert game.observation(None).phase == "exchange"
    assert game.waiting_for == [0, 1, 2, 3]  # the dummy's push is awaited too
    # Two cards per hand, one to each opposing seat; never to a partner.
    assert game.observation(0).push_targets == {SHUFFLER: {1: 1, 3: 1}, DUMMY: {1: 1, 3: 1}}
    assert game.observation(1).push_targets == {LEFT: {0: 1, 2: 1}}
    assert game.observation(2).push_targets == {RIGHT: {0: 1, 2: 1}}
    # The dummy chooses among all of its 14 cards: 14 x 13 ordered pushes (+ Tichu, T3-5).
    assert len(game.legal_actions(DUMMY)) == 14 * 13 + 1
    # No push to the partner, and the opponents do not push to each other.
    error = rejected(game, tc.Push(SHUFFLER, {LEFT: "Ap", DUMMY: "Ks"}))
    assert error.rule == "T3-3"
    error = rejected(game, tc.Push(LEFT, {SHUFFLER: "At", RIGHT: "Kp"}))
    assert error.rule == "T3-3"

    game.apply(tc.Push(LEFT, pushes[LEFT]))
    game.apply(tc.Push(RIGHT, pushes[RIGHT]))
    game.apply(tc.Push(DUMMY, pushes[DUMMY]))  # sent by the shuffler's front end
    assert game.waiting_for == [SHUFFLER]
    events = game.apply(tc.Push(SHUFFLER, pushes[SHUFFLER]))
    received = {e.seat: e.cards for e in of_type(game.event_log, "cards_received")}
    # Each seat received one card from each opponent: the last two listed in SPREAD.
    assert received == {
        SHUFFLER: {1: "Ks", 3: "Ap"},
        LEFT: {0: "At", 2: "Kp"},
        DUMMY: {1: "Aj", 3: "Kt"},
        RIGHT: {0: "Kj", 2: "As"},
    }
    for seat in range(4):
        assert holding(game, seat) == card_set(SPREAD[seat])
    assert "exchange_done" in kinds(events)
    # The shuffler learns what the dummy received; the opponents do not (T3-4 comes
    # after the exchange, by showing the whole hand).
    assert DUMMY in {e.seat for e in of_type(game.events_for(0), "cards_received")}
    assert DUMMY not in {e.seat for e in of_type(game.events_for(1), "cards_received")}


# --- T3-4 ---------------------------------------------------------------------------------


def test_T3_4_the_dummys_hand_is_hidden_before_the_exchange_and_face_up_after_it() -> None:
    dealt, pushes = exchange_plan(SPREAD)
    game = tc.Game(threechu(), deals=[dealt])

    def hidden(cards: list[str]) -> None:
        """No opponent nor spectator can read any of the dummy's ``cards``."""
        for viewer in (1, 2, None):
            assert DUMMY not in game.observation(viewer).hands
            assert not set(cards) & seen_strings(game, viewer), viewer
        assert set(game.observation(0).hands[DUMMY]) == set(cards)

    hidden(dealt[DUMMY][:8])  # Grand Tichu phase: 8 cards
    for seat in (LEFT, RIGHT):
        game.apply(tc.GrandTichu(seat, False))
    hidden(dealt[DUMMY])  # exchange: 14 cards
    for seat in (LEFT, RIGHT, DUMMY):
        game.apply(tc.Push(seat, pushes[seat]))
    hidden(dealt[DUMMY])  # every push but the last: nothing has moved yet
    assert of_type(game.event_log, "hand_shown") == []

    events = game.apply(tc.Push(SHUFFLER, pushes[SHUFFLER]))
    # The exchange is done: the dummy's hand, with the cards it received, is face up.
    (shown,) = of_type(events, "hand_shown")
    assert shown.seat == DUMMY and set(shown.cards) == card_set(SPREAD[DUMMY])
    assert kinds(events).index("hand_shown") < kinds(events).index("exchange_done")
    for viewer in (0, 1, 2, None):
        view = game.observation(viewer)
        assert set(view.hands[DUMMY]) == card_set(SPREAD[DUMMY])
        assert shown in game.events_for(viewer)
    # The opponents see the dummy's hand, still not each other's nor the shuffler's.
    assert set(game.observation(1).hands) == {LEFT, DUMMY}
    assert set(game.observation(2).hands) == {RIGHT, DUMMY}
    assert set(game.observation(None).hands) == {DUMMY}
    # Player 1 knows of the shuffler's cards only the one it gave it.
    assert card_set(SPREAD[SHUFFLER]) & seen_strings(game, 1) == {pushes[LEFT][SHUFFLER]}

    # The face-up hand follows the play: seat 1 leads the Mah Jong, the dummy plays 9t.
    play(game, LEFT, "MJ")
    wish(game, LEFT, None)
    play(game, DUMMY, "9t")
    assert set(game.observation(None).hands[DUMMY]) == card_set(SPREAD[DUMMY]) - {"9t"}


# --- T3-5 ---------------------------------------------------------------------------------


def test_T3_5_the_shuffler_calls_tichu_for_the_dummy_before_its_first_card() -> None:
    dealt, pushes = exchange_plan(FAST)
    game = tc.Game(threechu(), deals=[dealt])
    for seat in (LEFT, RIGHT):
        game.apply(tc.GrandTichu(seat, False))
    # S-CALL-1 timing: holding 14 cards, before its first card: already in the exchange.
    assert tc.Tichu(DUMMY) in game.legal_actions(DUMMY)
    assert DUMMY in game.to_act
    for seat in (LEFT, RIGHT, DUMMY, SHUFFLER):
        game.apply(tc.Push(seat, pushes[seat]))
    # After the exchange, the dummy to lead: the shuffler calls Tichu for it.
    assert tc.Tichu(DUMMY) in game.legal_actions(DUMMY)
    play_fast_hand(game, dummy_tichu=True)
    result = game.hand_results[0]
    assert result.calls == {DUMMY: "tichu"}
    # The dummy went out first: +100 to its partnership, on both of its lines (T3-7).
    assert result.scores == [100 + 100, 0, 0, 100 + 100]


def test_T3_5_no_tichu_for_the_dummy_after_its_first_card() -> None:
    game = start_play(SPREAD)
    play(game, LEFT, "MJ")
    wish(game, LEFT, None)
    play(game, DUMMY, "9t")
    assert tc.Tichu(DUMMY) not in game.legal_actions(DUMMY)
    refused(game, tc.Tichu(DUMMY), "S-CALL-1")
    # The shuffler's own seat has not played yet: it may still call for itself.
    assert tc.Tichu(SHUFFLER) in game.legal_actions(SHUFFLER)


# --- T3-6 ---------------------------------------------------------------------------------


def test_T3_6_the_dummy_never_has_to_fulfil_the_wish() -> None:
    game = start_play(SPREAD)
    play(game, LEFT, "MJ")
    events = wish(game, LEFT, "7")
    assert of_type(events, "wish_made")[0].rank == "7"
    # The dummy holds 7s and could play it on the Mah Jong, yet it plays freely.
    assert game.turn == DUMMY and "7s" in holding(game, DUMMY)
    assert listed(game, DUMMY, "7s")
    assert may_pass(game, DUMMY)
    assert listed(game, DUMMY, "9t")
    pass_(game, DUMMY)
    # Seat 3 is a player: it holds 7p, so S-WISH-2 binds it to play it.
    assert game.turn == RIGHT
    assert not may_pass(game, RIGHT)
    assert plays_of(game, RIGHT) == {(frozenset({"7p"}), None)}
    refused(game, tc.Play(RIGHT, "9j"), "S-WISH-2")
    events = play(game, RIGHT, "7p")
    assert of_type(events, "wish_fulfilled")[0].rank == "7"


def test_T3_6_the_exemption_is_the_dummys_not_its_players() -> None:
    # SPREAD with seat 3's 7p swapped for seat 1's 8s: seat 3 holds no 7.
    spread = [
        SPREAD[SHUFFLER],
        SPREAD[LEFT].replace("8s", "7p"),
        SPREAD[DUMMY],
        SPREAD[RIGHT].replace("7p", "8s"),
    ]
    game = start_play(spread)
    play(game, LEFT, "MJ")
    wish(game, LEFT, "7")
    pass_(game, DUMMY)  # holding 7s, free (T3-6)
    assert not listed(game, RIGHT, "7p") and may_pass(game, RIGHT)
    pass_(game, RIGHT)  # holding no 7, free (S-WISH-5)
    # The shuffler's own seat is a player's: holding 7t, it must play it (S-WISH-2),
    # although the same player was free to ignore the wish for the dummy.
    assert game.turn == SHUFFLER
    assert not may_pass(game, SHUFFLER)
    assert plays_of(game, SHUFFLER) == {(frozenset({"7t"}), None)}
    events = play(game, SHUFFLER, "7t")
    assert of_type(events, "wish_fulfilled")[0].seat == SHUFFLER


# --- T3-7 ---------------------------------------------------------------------------------


def test_T3_7_per_player_score_lines_each_partner_gets_the_team_score() -> None:
    game = start_play(FAST, hands=2)
    assert game.score_lines == ["player 0", "player 1", "player 2", "dummy"]
    events = play_fast_hand(game)
    (scored,) = of_type(events, "hand_scored")
    # Seating [0, 1, None, 2]: the shuffler (player 0) and the dummy score 100 each,
    # players 1 and 2 the other partnership's 0; the dummy's line is last.
    assert scored.scores == [100, 0, 0, 100]
    assert scored.card_points == [100, 0, 0, 100]
    assert game.scores == [100, 0, 0, 100]
    # Hand 2: player 2 shuffles (T3-8: the shuffler's left; seating [2, 0, None, 1]);
    # the same seats score the same, so the lines of player 2 and the dummy get it.
    decide_and_push(game, exchange_plan(FAST)[1])
    play_fast_hand(game)
    assert game.hand_results[1].players == [2, 0, None, 1]
    assert game.hand_results[1].scores == [0, 0, 100, 100]
    assert game.scores == [100, 0, 100, 200]
    assert game.observation(2).scores == [100, 0, 100, 200]


# --- T3-8 ---------------------------------------------------------------------------------


def test_T3_8_the_shuffle_passes_on_nine_hands_and_the_best_player_wins() -> None:
    assert threechu().game.hands == 9
    _, pushes = exchange_plan(FAST)
    game = start_play(FAST, hands=9)
    play_fast_hand(game, dummy_tichu=True)  # player 0's dummy: 200
    for hand in range(1, 9):
        shuffler = shuffler_of(hand)
        # The shuffle passes to the left, the previous player in play order (the one
        # who sat at seat 3, RIGHT), and with it the dummy partnership.
        assert shuffler == game.hand_results[-1].players[RIGHT]
        assert [game.player_at(seat) for seat in range(4)] == [
            shuffler,
            (shuffler + 1) % 3,
            None,
            (shuffler + 2) % 3,
        ]
        assert game.controller(DUMMY) == shuffler
        # T3-2 follows the shuffle: the new shuffler has no Grand Tichu decision.
        assert game.waiting_for == [LEFT, RIGHT]
        assert game.seat_of((shuffler + 2) % 3) == RIGHT
        decide_and_push(game, pushes)
        events = play_fast_hand(game)
        assert game.is_over == (hand == 8)
    # Each player shuffled three hands worth 100 (player 0's first: 200); the dummy's
    # line got the shuffler's score in all nine: 1000, the highest total, yet the
    # dummy never wins: the highest player score does.
    assert game.scores == [400, 300, 300, 1000]
    assert game.outcome is not None
    assert game.outcome.termination == tc.Termination.HANDS_PLAYED
    assert game.winners == [0]
    (over,) = of_type(events, "match_over")
    assert over.termination == "hands_played" and over.winners == [0]
    assert over.totals == [400, 300, 300, 1000]
    assert len(game.hand_results) == 9 and game.to_act == []
    # The match ended in the "over" phase of the ninth hand: the dummy is still face up.
    assert DUMMY in game.observation(None).hands


def test_T3_8_a_tie_between_players_is_shared_and_the_dummy_line_never_counts() -> None:
    game = start_play(FAST, hands=9)
    _, pushes = exchange_plan(FAST)
    play_fast_hand(game)
    for _ in range(8):
        decide_and_push(game, pushes)
        play_fast_hand(game)
    assert game.scores == [300, 300, 300, 900]
    assert game.winners == [0, 1, 2]


def test_T3_8_to_a_points_target_the_dummys_line_is_a_line_like_any_other() -> None:
    """T3-8: "we do not recommend a game to 1000 points, as the dummy player is likely
    to win such a game": played to a target, the dummy's line can reach it and win."""
    variant = tc.load_variant("threechu", overrides={"game.target": 300, "game.hands": 0})
    dealt, pushes = exchange_plan(FAST)
    game = tc.Game(variant, seed=1, deals=[dealt] * 3)
    decide_and_push(game, pushes)
    # Hand 0: player 0 shuffles and calls Tichu for its dummy, which goes out first:
    # 100 card points + 100 for the call to player 0 and the dummy.
    play_fast_hand(game, dummy_tichu=True)
    assert game.scores == [200, 0, 0, 200] and not game.is_over
    # Hand 1: the shuffle passes to the left, to player 2, who partners the dummy now.
    assert [game.player_at(seat) for seat in range(4)] == [2, 0, None, 1]
    decide_and_push(game, pushes)
    events = play_fast_hand(game)
    # The dummy's line alone reaches the target (300): it ends the match, and wins it.
    assert game.scores == [200, 0, 100, 300]
    assert game.is_over and game.winners == [DUMMY_LINE]
    assert game.outcome is not None and game.outcome.termination == tc.Termination.TARGET_REACHED
    (over,) = of_type(events, "match_over")
    assert over.winners == [DUMMY_LINE] and over.termination == "target_reached"


# --- whole matches through the public API ----------------------------------------------


def check_hand_results(game: tc.Game) -> None:
    """T3-1, T3-7, T3-8 on every finished hand."""
    for index, result in enumerate(game.hand_results):
        shuffler = shuffler_of(index)
        assert result.players == [shuffler, (shuffler + 1) % 3, None, (shuffler + 2) % 3]
        # Each member of a partnership gets the whole team score.
        assert result.scores[shuffler] == result.scores[DUMMY_LINE]
        assert result.scores[(shuffler + 1) % 3] == result.scores[(shuffler + 2) % 3]
        # T3-2: never a Grand Tichu from the shuffler's seats.
        for seat in (SHUFFLER, DUMMY):
            assert "grand_tichu" not in result.calls.get(seat, "")
    totals = [sum(r.scores[line] for r in game.hand_results) for line in range(4)]
    assert totals == game.scores


@pytest.mark.parametrize("seed", [3, 8])
def test_a_nine_hand_match_of_random_bots_ends_with_the_best_player(seed: int) -> None:
    game = tc.Game(threechu(), seed=seed)
    play_match(game, [make_bot("random", seed=seed * 10 + player) for player in range(3)])
    assert game.is_over and len(game.hand_results) == 9
    assert game.outcome is not None and game.outcome.termination == "hands_played"
    check_hand_results(game)
    best = max(game.scores[:PLAYER_LINES])
    assert game.winners == [p for p in range(PLAYER_LINES) if game.scores[p] == best]
    assert DUMMY_LINE not in game.winners


def test_random_calls_keep_t3_2_and_score_on_both_partner_lines() -> None:
    """Bots that call often: the shuffler's seats never call Grand Tichu, Tichu for the
    dummy counts for its partnership (T3-5, T3-7)."""
    game = tc.Game(threechu(), seed=21)
    bots = [RandomBot(seed=player, call_rate=0.3) for player in range(3)]
    play_match(game, bots)
    check_hand_results(game)
    calls = [seat for result in game.hand_results for seat in result.calls]
    assert DUMMY in calls  # the dummy called Tichu in some hand


def test_visibility_through_a_random_match() -> None:
    """After every action of a match: before the exchange only the shuffler sees the
    dummy's hand; from the exchange on everyone, spectators included (T3-2, T3-4).
    Every event showing the dummy's cards to a player other than the shuffler (or to
    a spectator) is the HandShown event."""
    game = tc.Game(threechu(), seed=5)
    bots = [make_bot("random", seed=player) for player in range(3)]
    while not game.is_over:
        spectator = game.observation(None)
        face_up = spectator.phase in ("play", "over")
        for viewer in (0, 1, 2, None):
            view = game.observation(viewer)
            own = {
                seat for seat in range(4) if viewer is not None and game.controller(seat) == viewer
            }
            assert set(view.hands) == own | ({DUMMY} if face_up else set())
        seat = game.waiting_for[0]
        game.apply(decide(bots[game.controller(seat)], game, seat))
    shufflers = {result.index: result.players[SHUFFLER] for result in game.hand_results}
    for viewer in (0, 1, 2, None):
        for event in game.events_for(viewer):
            if event.visible_to == [DUMMY] and viewer != shufflers[event.hand]:
                assert event.type == "hand_shown", event
    shown = of_type(game.event_log, "hand_shown")
    assert [event.hand for event in shown] == list(range(9))


def test_save_and_restore_mid_match_continues_identically() -> None:
    game = tc.Game(threechu(), seed=13)
    bots = [make_bot("random", seed=player) for player in range(3)]
    # Into the fifth hand, a few plays after its exchange.
    while len(game.hand_results) < 4 or game.observation(None).phase != "play":
        seat = game.waiting_for[0]
        game.apply(decide(bots[game.controller(seat)], game, seat))
    for _ in range(5):
        seat = game.waiting_for[0]
        game.apply(decide(bots[game.controller(seat)], game, seat))
    restored = tc.Game.from_json(game.to_json())

    def everything(match: tc.Game) -> list[Any]:
        views = [match.observation(p).model_dump() for p in (0, 1, 2, None)]
        events = [[e.model_dump() for e in match.events_for(p)] for p in (0, 1, 2, None)]
        legal = [list(match.legal_actions(seat)) for seat in range(4)]
        controllers = [match.controller(seat) for seat in range(4)]
        return [match.to_json(), match.scores, views, events, legal, controllers]

    assert everything(restored) == everything(game)
    assert restored.player_at(SHUFFLER) == shuffler_of(4)  # the fifth hand's shuffler
    for match in (game, restored):
        play_match(match, [make_bot("random", seed=100 + player) for player in range(3)])
    assert everything(restored) == everything(game)
    assert restored.outcome == game.outcome and restored.hand_results == game.hand_results


# --- the variant file and the command line -------------------------------------------


def test_tichu_check_and_variants_accept_threechu(capsys: pytest.CaptureFixture[str]) -> None:
    assert tichu_cli(["check", "variants/threechu.toml"]) == 0
    assert capsys.readouterr().out.startswith("OK variants/threechu.toml (threechu, 3 players")
    assert tichu_cli(["variants"]) == 0
    (line,) = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("threechu ")]
    assert "3 players" in line and "not playable" not in line


def test_the_docs_example_plays_a_match() -> None:
    """The bot loop of the Threechu section of docs/variants.md runs to a T3-8 end."""
    docs = (Path(__file__).resolve().parents[1] / "docs" / "variants.md").read_text()
    section = docs.split("## Threechu\n", 1)[1].split("\n## ", 1)[0]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {"print": lambda *args: None}
    exec(example, namespace)
    game = namespace["game"]
    assert game.is_over and len(game.hand_results) == 9
    assert game.winners and DUMMY_LINE not in game.winners
