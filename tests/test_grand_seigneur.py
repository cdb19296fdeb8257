"""Grand Seigneur (docs/rules.md GS-1 ... GS-8, E-2, E-4) played through ``Game``, 5 to 12 players.

Stacked deals name the cards that matter; :func:`stacked` fills every seat up to its
GS-3 share with the rest of the deck. Expected values are worked out from docs/rules.md in
the comments, never copied from a run. The last tests play whole matches with random
bots at 5, 6, 7 and 12 players and check every hand's seating, titles, deal and
exchange against the rules, and a save restored in the middle of a match.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping

import pytest
from scenario import cards, kinds, may_pass, of_type, pass_, play, refused, state, wish
from tichu_core.plugins.grand_seigneur import match_result, place_titles

import tichu_core as tc
from tichu_core.cardplay.cards import cards_of, deck_mask
from tichu_core.frontends.bots import RandomBot, decide
from tichu_core.game.dealing import shuffle

GS = "grand_seigneur"
TABLES = (5, 6, 7, 12)
BEST_ORDER = ["DR", "PH", "MJ", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def variant(players: int, overrides: Mapping[str, object] | None = None) -> tc.Variant:
    return tc.load_variant(GS, {"players": players, **(overrides or {})})


def shares(players: int, dealer: int = 0) -> list[int]:
    """GS-3: the whole deck one card at a time from the seat after the dealer (seat 0 in
    the first hand, the Wretch after it), so the first ``deck % players`` seats from
    there on get one card more."""
    deck = len(variant(players).deck_codes)
    extra = deck % players
    return [deck // players + ((seat - dealer - 1) % players < extra) for seat in range(players)]


def stacked(players: int, hands: Mapping[int, str]) -> list[list[str]]:
    """A deal where each listed seat holds the listed cards, every other card of the deck
    going round the table to the seats that still need cards for their GS-3 share."""
    left = Counter(variant(players).deck_codes)
    dealt = {seat: [] for seat in range(players)} | {s: cards(t) for s, t in hands.items()}
    for seat, codes in dealt.items():
        for code in codes:
            assert left[code] > 0, f"seat {seat}: {code} is not (or no longer) in the deck"
            left[code] -= 1
    rest = list(left.elements())
    need = shares(players)
    while rest:
        for seat in range(players):
            if rest and len(dealt[seat]) < need[seat]:
                dealt[seat].append(rest.pop(0))
    assert [len(dealt[seat]) for seat in range(players)] == need, "too many cards listed"
    return [dealt[seat] for seat in range(players)]


def game_of(players: int, *deals: list[list[str]], **overrides: object) -> tc.Game:
    return tc.Game(variant(players, overrides), seed=1, deals=list(deals))


def rank_of(code: str) -> int:
    """Position of a card in GS-6's best order (0 = best)."""
    return BEST_ORDER.index(code if code in ("DR", "PH", "MJ") else code[:-1])


def bag(text: str) -> Counter[str]:
    return Counter(cards(text))


def listed(game: tc.Game, seat: int, codes: str, phoenix: str | None = None) -> bool:
    """Whether the play of exactly these cards is listed; with two decks a code may be
    there twice, so plays compare as multisets (with that Phoenix rank, or any)."""
    wanted = bag(codes)
    return any(
        bag(action.cards) == wanted and (phoenix is None or action.phoenix == phoenix)
        for action in game.legal_actions(seat)
        if isinstance(action, tc.Play)
    )


# --- GS-1: no partners, no Dog, no calls, no card points, no Dragon gift --------------


@pytest.mark.parametrize("players", TABLES)
def test_GS_1_no_partners_no_calls_no_grand_tichu_phase(players: int) -> None:
    game = tc.Game(variant(players), seed=3)
    view = game.observation(None)
    assert view.phase == "play"  # no Grand Tichu decision, no exchange in the first hand
    assert view.teams == list(range(players))  # every seat its own side
    assert game.score_lines == [f"player {p}" for p in range(players)]
    for seat in range(players):
        assert not [a for a in game.legal_actions(seat) if isinstance(a, tc.Tichu)]
    refused(game, tc.Tichu(game.turn or 0), "S-CALL-1")
    refused(game, tc.GrandTichu(1, True), "S-DEAL-2")


@pytest.mark.parametrize("players", TABLES)
def test_GS_1_GS_2_there_is_no_dog_to_deal(players: int) -> None:
    deal = stacked(players, {0: "MJ"})
    deal[1][0] = "DOG"  # one card swapped for a Dog
    with pytest.raises(tc.DealError, match="DOG is not"):
        game_of(players, deal)


def test_GS_1_the_dragon_trick_is_kept() -> None:
    """Seat 0 leads the Dragon and everybody passes: seat 0 collects the trick itself
    (no give_trick decision) and, tricks deciding only the lead, leads again. (No card
    points: see the hand scores of test_GS_8_...)"""
    game = game_of(5, stacked(5, {0: "MJ DR 5j 10j Kj"}))
    play(game, 0, "DR")
    for seat in (1, 2, 3, 4):
        pass_(game, seat)
    events = pass_(game, 0)  # S-TRICK-2: the top seat collects by passing once more
    assert kinds(events) == ["passed", "trick_won"]
    assert of_type(events, "trick_won")[0].to == 0
    assert game.observation(None).pending is None
    assert game.turn == 0


def test_GS_1_tricks_carry_no_card_points() -> None:
    """GS-1: "no one bothers about points": a trick of a King, a Ten and a Five (25
    card points in the standard game) is worth nothing, in its event and in every
    observation's `won_points`."""
    game = game_of(5, stacked(5, {0: "MJ 5j", 1: "10j", 2: "Kj"}))
    play(game, 0, "5j")
    play(game, 1, "10j")
    play(game, 2, "Kj")
    for seat in (3, 4, 0, 1):
        pass_(game, seat)
    events = pass_(game, 2)
    (won,) = of_type(events, "trick_won")
    assert (won.seat, won.to, sorted(won.cards)) == (2, 2, sorted(["5j", "10j", "Kj"]))
    assert won.points == 0
    for viewer in (None, 0, 2):
        assert game.observation(viewer).won_points == [0] * 5
        assert game.observation(viewer).won_cards == [0, 0, 3, 0, 0]


# --- GS-2, GS-3: the deck per table size, all of it dealt one card at a time ------------


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (5, [11, 11, 11, 11, 11]),  # 55 = 5 x 11
        (6, [9, 10, 9, 9, 9, 9]),  # 55 = 6 x 9 + 1: seat 1, after the dealer, gets 10
        (7, [15, 16, 16, 16, 16, 15, 15]),  # 109 = 7 x 15 + 4: seats 1..4 get 16
        (12, [9, 10, *[9] * 10]),  # 109 = 12 x 9 + 1
    ],
)
def test_GS_2_GS_3_the_whole_deck_is_dealt_from_the_seat_after_the_dealer(
    players: int, sizes: list[int]
) -> None:
    game = tc.Game(variant(players), seed=11)
    view = game.observation(None)
    assert view.dealer == 0
    assert view.hand_sizes == sizes == shares(players)
    dealt = Counter(code for p in range(players) for code in game.observation(p).hand)
    assert dealt == Counter(variant(players).deck_codes)
    assert sum(dealt.values()) == (55 if players <= 6 else 109)
    assert "DOG" not in dealt and dealt["MJ"] == 1
    assert dealt["DR"] == dealt["PH"] == (1 if players <= 6 else 2)
    # One card at a time: the deck shuffled by the game's seed (the engine's own
    # shuffle, the same on every machine), card i to seat (1 + i) % players.
    v = variant(players)
    deck = [int(card) for card in cards_of(deck_mask(v.deck_copies, v.deck_without))]
    shuffle(deck, random.Random(11))
    for seat in range(players):
        mine = deck[(seat - 1) % players :: players]
        assert Counter(game.observation(seat).hand) == Counter(str(tc.Card(c)) for c in mine)


# --- GS-4: two decks --------------------------------------------------------------------

# Seat 0 of a 7-player table (two decks) leads; it holds both copies of 7j, 6s, 3p
# and 9j, one 4j, and one card more from the rest of the deck.
TWO_DECK_LEADER = "MJ 7j 7j 7s 6s 6s 3p 3p 4j 9j 9j 9s 9p 9t"


def test_GS_4_identical_cards_form_pairs_triples_full_houses_and_runs() -> None:
    game = game_of(7, stacked(7, {0: TWO_DECK_LEADER, 1: "8s 8s 8p Kp Kp", 2: "8t 8j"}))
    assert listed(game, 0, "7j 7j")  # a pair of one card twice
    assert listed(game, 0, "7j 7s")  # and the other pair of 7s: distinct plays
    assert listed(game, 0, "7j 7j 7s")  # triple
    assert listed(game, 0, "7j 7j 7s 3p 3p")  # full house
    assert listed(game, 0, "6s 6s 7j 7j")  # steps of identical pairs
    assert listed(game, 0, "3p 3p 4j 4j") is False  # only one 4j
    events = play(game, 0, "7j 7j")
    assert of_type(events, "played")[0].combination == "pair"
    assert listed(game, 1, "8s 8s") and listed(game, 1, "8s 8p")
    play(game, 1, "8s 8s")
    assert not listed(game, 2, "8t 8j")  # equal rank: not higher (S-COMB-3)
    assert may_pass(game, 2)


def test_GS_4_four_of_a_kind_is_a_bomb_only_with_four_suits() -> None:
    game = game_of(7, stacked(7, {0: TWO_DECK_LEADER}))
    assert listed(game, 0, "9j 9s 9p 9t")  # four different suits: a bomb
    assert not listed(game, 0, "9j 9j 9s 9p")  # jade twice: no combination at all
    refused(game, tc.Play(0, "9j 9j 9s 9p"), "GS-4")
    refused(game, tc.Play(0, "9j 9j 9s 9p 9t"), {"S-COMB-2", "S-COMB-1"})  # five of a rank
    events = play(game, 0, "9j 9s 9p 9t")
    assert of_type(events, "played")[0].bomb


def test_GS_4_a_straight_flush_may_use_either_copy() -> None:
    """Seat 0 holds 3j 4j 5j, both 7j and 6j once: 3j-7j is one straight flush, however
    its 7j is taken."""
    game = game_of(7, stacked(7, {0: "MJ 3j 4j 5j 6j 7j 7j"}))
    flushes = [
        a
        for a in game.legal_actions(0)
        if isinstance(a, tc.Play) and sorted(cards(a.cards)) == sorted(cards("3j 4j 5j 6j 7j"))
    ]
    assert len(flushes) == 1  # the two copies of 7j make one play, not two
    events = play(game, 0, "3j 4j 5j 6j 7j")
    assert of_type(events, "played")[0].combination == "straight_flush"
    assert game.observation(0).hand.count("7j") == 1


def test_GS_4_two_phoenixes_in_one_hand_never_combine() -> None:
    game = game_of(7, stacked(7, {0: "MJ PH PH 7j 8s"}))
    refused(game, tc.Play(0, "PH PH"), "S-COMB-1")
    refused(game, tc.Play(0, "PH PH 7j"), "S-COMB-1")
    assert listed(game, 0, "PH 7j", phoenix="7")  # one Phoenix as the pair's 7
    play(game, 0, "PH")  # led: worth 1.5 (S-COMB-5)
    assert game.observation(0).hand.count("PH") == 1


def test_E_2_a_phoenix_on_a_phoenix_is_worth_half_a_rank_more() -> None:
    """Seat 0 leads a Phoenix (1.5), seat 1 plays the other Phoenix on it (2.0): a 2 no
    longer beats it, a 3 does."""
    game = game_of(7, stacked(7, {0: "MJ PH 5p", 1: "PH 4s", 2: "2j 3j"}))
    assert of_type(play(game, 0, "PH"), "played")[0].rank == 1.5
    assert listed(game, 1, "PH")
    assert of_type(play(game, 1, "PH"), "played")[0].rank == 2.0
    assert not listed(game, 2, "2j")
    assert listed(game, 2, "3j")


def test_E_2_GS_4_phoenix_on_phoenix_on_an_ace_then_two_dragons() -> None:
    """On an Ace a Phoenix is 14.5 and the second Phoenix 15; the Dragon still beats that
    (S-COMB-6), and the second Dragon beats the first (GS-4). Nobody gives the trick away
    (GS-1): the seat of the second Dragon collects it."""
    hands = {0: "MJ Aj", 1: "PH", 2: "PH", 3: "DR", 4: "DR"}
    game = game_of(7, stacked(7, hands))
    play(game, 0, "Aj")
    assert of_type(play(game, 1, "PH"), "played")[0].rank == 14.5
    assert of_type(play(game, 2, "PH"), "played")[0].rank == 15.0
    assert listed(game, 3, "DR")
    play(game, 3, "DR")
    assert listed(game, 4, "DR")  # GS-4: dragon.second_beats_first
    play(game, 4, "DR")
    for seat in (5, 6, 0, 1, 2, 3):
        pass_(game, seat)
    events = pass_(game, 4)
    assert of_type(events, "trick_won")[0].to == 4
    assert game.observation(None).won_cards[4] == 5
    assert game.turn == 4


def test_GS_4_one_deck_tables_have_one_dragon_on_top() -> None:
    """With 5 or 6 players there is one Dragon; nothing but a bomb beats it."""
    game = game_of(6, stacked(6, {0: "MJ DR", 1: "PH Aj As"}))
    play(game, 0, "DR")
    assert not [a for a in game.legal_actions(1) if isinstance(a, tc.Play)]


# --- GS-7: the Mah Jong leads, the wish applies (E-4) -----------------------------------


@pytest.mark.parametrize("players", TABLES)
def test_GS_7_the_mah_jong_leads_and_the_wish_binds(players: int) -> None:
    holder = players - 2  # any seat: the Mah Jong, not the dealer, decides the lead
    wished = (holder + 1) % players
    game = game_of(players, stacked(players, {holder: "MJ", wished: "7j 7s Kp"}))
    assert game.turn == holder
    play(game, holder, "MJ")
    assert game.observation(None).pending == {"kind": "wish", "seat": holder}
    wish(game, holder, "7")
    assert game.observation(None).wish == "7"
    refused(game, tc.Pass(wished), "S-WISH-2")
    assert not listed(game, wished, "Kp")
    events = play(game, wished, "7s")
    assert kinds(events)[-1] == "wish_fulfilled"


# --- GS-5, GS-6, GS-8: ranks, reseating and the exchange over three hands -----------------

# Five blocks of the one-deck (55-card) deck, no bombs anywhere: four straights of 11
# cards and the rest. A seat holding a straight goes out with one play.
MJ_TO_J = "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js"
TWO_TO_Q = "2s 3p 4t 5j 6s 7p 8t 9j 10s Jp Qp"
THREE_TO_K = "3t 4j 5s 6p 7t 8j 9s 10p Jt Qt Kt"
FOUR_TO_A = "4s 5p 6t 7j 8s 9p 10t Jj Qj Kj Aj"
JUNK = "2p 2t 3j Qs Ks Kp As Ap At PH DR"

# Hand 0, players at their own seats: seat 2 leads MJ-J; 3 passes, 4 beats with 2-Q,
# 0 with 3-K, 1 passes, 3 with 4-A. Out: 2, 4, 0, 3; seat 1 is left.
FIRST = [cards(h) for h in (THREE_TO_K, JUNK, MJ_TO_J, FOUR_TO_A, TWO_TO_Q)]

# Hands 1 and 2 as dealt by seat. The Wretch (seat 1) is dealt the Dragon and the
# Phoenix, its best two cards, and the Great Lord (seat 0) the 10j and Js the Wretch
# needs for MJ-J; the Pauper (seat 2) holds the Kt instead of the 2s, and the Lord
# (seat 4) the 2s instead of the Kt. Once the Great Lord gives back 10j Js and the
# Lord 2s, the table holds the five blocks: Great Lord JUNK, Wretch MJ-J, Pauper 2-Q,
# Squire (seat 3) 4-A, Lord 3-K.
RANKED = [
    cards(hand)
    for hand in (
        "2p 2t 3j Qs Ks Kp As Ap At 10j Js",
        "MJ 2j 3s 4p 5t 6j 7s 8p 9t PH DR",
        "Kt 3p 4t 5j 6s 7p 8t 9j 10s Jp Qp",
        FOUR_TO_A,
        "2s 3t 4j 5s 6p 7t 8j 9s 10p Jt Qt",
    )
]


def race_first_hand(game: tc.Game) -> None:
    play(game, 2, MJ_TO_J)
    wish(game, 2, None)
    pass_(game, 3)
    play(game, 4, TWO_TO_Q)
    play(game, 0, THREE_TO_K)
    pass_(game, 1)
    play(game, 3, FOUR_TO_A)


def exchange_and_race_ranked_hand(game: tc.Game) -> None:
    """The exchange of RANKED, then: the Wretch leads MJ-J, the Pauper beats with 2-Q,
    the Squire passes, the Lord beats with 3-K, the Great Lord passes, the Squire plays
    4-A. Out: seats 1, 2, 4, 3; the Great Lord (seat 0) is left."""
    game.apply(tc.Push(0, {1: "10j Js"}))
    game.apply(tc.Push(4, {2: "2s"}))
    play(game, 1, MJ_TO_J)
    wish(game, 1, None)
    play(game, 2, TWO_TO_Q)
    pass_(game, 3)
    play(game, 4, THREE_TO_K)
    pass_(game, 0)
    play(game, 3, FOUR_TO_A)


def three_hands() -> tc.Game:
    return game_of(5, FIRST, RANKED, RANKED, **{"game.hands": 3})


def test_GS_5_the_first_hand_has_no_ranks_and_no_exchange() -> None:
    game = three_hands()
    view = game.observation(None)
    assert (view.hand_index, view.phase) == (0, "play")
    assert view.players == [0, 1, 2, 3, 4]  # seats as given
    assert view.titles == {}
    assert view.push_targets == {} and game.observation(1).push_targets == {}


def test_GS_8_the_hand_ends_when_one_seat_holds_cards() -> None:
    game = three_hands()
    race_first_hand(game)
    result = game.hand_results[0]
    assert result.out_order == [2, 4, 0, 3, 1]  # seat 1 still held its 11 cards
    # E-5: the first hand (the election) scores nothing; no card points (GS-1).
    assert result.scores == [0] * 5 and game.scores == [0] * 5
    assert result.card_points == [0] * 5
    assert game.hand_index == 1


def test_GS_5_the_finishing_order_reseats_the_table_and_gives_the_titles() -> None:
    """Players out in the order 2, 4, 0, 3, 1. Play goes to the right, so in play order:
    seat 0 the Great Lord (player 2), seat 1 the Wretch (1), seat 2 the Pauper (3),
    seat 3 the Squire (0), seat 4 the Lord (4)."""
    game = three_hands()
    race_first_hand(game)
    view = game.observation(None)
    assert view.players == [2, 1, 3, 0, 4]
    assert [game.seat_of(p) for p in range(5)] == [3, 1, 0, 2, 4]
    assert view.titles == {0: "Great Lord", 1: "Wretch", 2: "Pauper", 3: "Squire", 4: "Lord"}
    assert game.observation(0).titles == view.titles  # the same for every player
    # GS-3: the Wretch (seat 1) deals; the first card goes to the seat after it, the
    # Pauper (55 cards to 5 seats: 11 each either way).
    assert view.dealer == 1 and view.hand_sizes == [11] * 5


def test_GS_6_the_lower_ranks_give_their_best_cards_forced() -> None:
    """Five players: the Wretch gives its best 2 to the Great Lord, the Pauper its best 1
    to the Lord, the Squire nothing (one card fewer at each level). The upper ranks
    choose as many cards to give back, from the hand they were dealt."""
    game = three_hands()
    race_first_hand(game)
    wretch, pauper, squire = game.observation(1), game.observation(3), game.observation(0)
    great_lord, lord = game.observation(2), game.observation(4)
    assert game.observation(None).phase == "exchange"
    assert game.waiting_for == [0, 4]  # only the upper ranks decide anything
    assert wretch.push_targets == {} and pauper.push_targets == {}
    assert bag(wretch.pushed[0]) == bag("DR PH") and list(wretch.pushed) == [0]
    assert bag(pauper.pushed[4]) == bag("Kt") and list(pauper.pushed) == [4]
    assert squire.pushed == {} and squire.push_targets == {}
    assert great_lord.push_targets == {0: {1: 2}} and lord.push_targets == {4: {2: 1}}
    # Chosen before receiving anything: the Great Lord does not hold the Dragon yet.
    assert "DR" not in great_lord.hand
    with pytest.raises(tc.InvalidAction):
        game.apply(tc.Push(0, {1: "DR 2p"}))
    refused(game, tc.Push(0, {1: "2p"}), "GS-6")  # two cards, not one
    refused(game, tc.Push(0, {4: "2p 2t"}), "GS-6")  # to the Wretch only
    refused(game, tc.Push(1, {0: "2j 3s"}), {"S-EX-1", "GS-6"})  # the Wretch chooses nothing

    game.apply(tc.Push(0, {1: "10j Js"}))
    assert game.observation(None).phase == "exchange"  # the Lord still chooses
    game.apply(tc.Push(4, {2: "2s"}))
    assert game.observation(None).phase == "play"
    assert bag(game.observation(2).received[1]) == bag("DR PH")
    assert bag(game.observation(1).received[0]) == bag("10j Js")
    assert bag(game.observation(4).received[2]) == bag("Kt")
    assert bag(game.observation(3).received[4]) == bag("2s")
    assert game.observation(0).received == {}
    # The Wretch's own event stream says which cards the rules took; nobody else's does.
    taken = [e for e in game.events_for(1) if e.type == "pushed" and e.forced and e.cards]
    assert [{t: bag(c) for t, c in e.cards.items()} for e in taken] == [{0: bag("DR PH")}]
    assert not [e for e in game.events_for(2) if e.type == "pushed" and e.seat == 1 and e.cards]
    assert bag(" ".join(game.observation(2).hand)) == bag(JUNK)
    assert bag(" ".join(game.observation(1).hand)) == bag(MJ_TO_J)
    assert game.turn == 1  # GS-7: the Mah Jong holder (the Wretch) leads


def test_GS_5_GS_6_GS_8_E_5_three_hands_reseat_exchange_score_and_end_the_match() -> None:
    game = three_hands()
    race_first_hand(game)
    exchange_and_race_ranked_hand(game)
    # Hand 1 went out by seats 1, 2, 4, 3, 0: players 1, 3, 4, 0, 2.
    assert game.hand_results[1].out_order == [1, 2, 4, 3, 0]
    assert game.hand_results[1].players == [2, 1, 3, 0, 4]
    view = game.observation(None)
    assert (view.hand_index, view.phase) == (2, "exchange")
    assert view.players == [1, 2, 0, 4, 3]  # Great Lord 1, Wretch 2, Pauper 0, Squire 4, Lord 3
    assert view.titles == {0: "Great Lord", 1: "Wretch", 2: "Pauper", 3: "Squire", 4: "Lord"}
    # The fallen Great Lord (player 2) now gives its Dragon and Phoenix, forced.
    assert bag(game.observation(2).pushed[0]) == bag("DR PH")
    assert game.observation(1).push_targets == {0: {1: 2}}

    exchange_and_race_ranked_hand(game)
    assert game.is_over
    assert game.outcome is not None and game.outcome.termination is tc.Termination.HANDS_PLAYED
    # Hand 2 out by seats 1, 2, 4, 3, 0: players 2, 0, 3, 4, 1.
    result = match_result(game)
    assert result.orders == [[2, 4, 0, 3, 1], [1, 3, 4, 0, 2], [2, 0, 3, 4, 1]]
    assert result.titles == ["Great Lord", "Lord", "Squire", "Pauper", "Wretch"]
    assert result.rank_counts == [
        [0, 1, 1, 1, 0],  # player 0: 3rd, 4th, 2nd
        [1, 0, 0, 0, 2],  # player 1: 5th, 1st, 5th
        [2, 0, 0, 0, 1],  # player 2: 1st, 5th, 1st
        [0, 1, 1, 1, 0],  # player 3: 4th, 2nd, 3rd
        [0, 1, 1, 1, 0],  # player 4: 2nd, 3rd, 4th
    ]
    assert result.held(2) == {"Great Lord": 2, "Wretch": 1}
    # E-5: players beaten per hand from the second (the election scores nothing):
    # 1+3, 4+0, 0+4, 3+2, 2+1.
    assert [r.scores for r in game.hand_results] == [[0] * 5, [1, 4, 0, 3, 2], [3, 0, 4, 2, 1]]
    assert game.scores == [4, 4, 4, 5, 3]
    assert game.winners == [3]


def test_GS_8_the_great_lord_decides_whether_another_hand_is_played() -> None:
    """GS-8, `game.lord_decides = true`: the Great Lord enjoys "the desire to continue
    this lordly game for another round". After the election the second hand follows at
    once; after it, and after every later hand, the new Great Lord decides."""
    game = game_of(5, FIRST, RANKED, RANKED, **{"game.hands": 0, "game.lord_decides": True})
    race_first_hand(game)
    # The election (hand 0) is followed by the second hand without a decision.
    assert game.observation(None).phase == "exchange" and game.hand_index == 1
    exchange_and_race_ranked_hand(game)
    # Hand 1 went out by seats 1, 2, 4, 3, 0: the new Great Lord sits at seat 1 of the
    # hand just played (player 1), which stays on the table until it decides.
    assert game.hand_results[1].out_order[0] == 1 and game.controller(1) == 1
    assert game.hand_index == 1 and game.turn is None
    assert game.waiting_for == [1] and game.to_act == [1]
    assert list(game.legal_actions(1)) == [tc.AnotherHand(1, True), tc.AnotherHand(1, False)]
    assert all(not game.legal_actions(seat) for seat in (0, 2, 3, 4))
    view = game.observation(None)
    assert view.phase == "over" and view.pending == {"kind": "another_hand", "seat": 1}
    assert view.waiting_for == [1]
    lord = game.observation(1)
    assert lord.pending == {"kind": "another_hand", "seat": 1, "options": [True, False]}
    # Nobody else decides, and nothing else happens before the decision.
    refused(game, tc.AnotherHand(0, False), "GS-8")
    refused(game, tc.Pass(1), "GS-8")
    refused(game, {"type": "another_hand", "seat": 2, "more": True}, "GS-8")
    # The decision is an action like any other: JSON, save and restore.
    text = '{"type": "another_hand", "seat": 1, "more": true}'
    assert tc.action_from_json(text) == tc.AnotherHand(1, True)
    assert tc.action_to_dict(tc.AnotherHand(1, True)) == json.loads(text)
    restored = tc.Game.from_json(game.to_json())
    assert state(restored) == state(game) and restored.waiting_for == [1]

    # Another hand, my lord.
    events = game.apply(tc.AnotherHand(1, True))
    assert kinds(events)[:2] == ["another_hand", "hand_started"]
    assert (events[0].seat, events[0].more) == (1, True)
    assert game.hand_index == 2 and game.observation(None).pending is None
    assert game.observation(None).players == [1, 2, 0, 4, 3]  # player 1 Great Lord
    exchange_and_race_ranked_hand(game)
    # Out by seats 1, 2, 4, 3, 0: player 2 is the Great Lord now, and has had enough.
    assert game.waiting_for == [1] and game.controller(1) == 2
    events = game.apply(tc.AnotherHand(1, False))
    assert kinds(events) == ["another_hand", "match_over"]
    assert game.is_over and game.waiting_for == [] and game.to_act == []
    assert game.outcome is not None
    assert game.outcome.termination is tc.Termination.LORD_DECIDED
    # E-5: 1 + 3, 4 + 0, 0 + 4, 3 + 2, 2 + 1 (the election scores nothing).
    assert game.scores == [4, 4, 4, 5, 3] and game.winners == [3]
    assert events[1].termination == "lord_decided" and events[1].winners == [3]
    refused(game, tc.AnotherHand(1, True), "S-GAME-1")  # the match is over
    assert tc.Game.from_json(game.to_json()).outcome == game.outcome


def test_GS_8_game_hands_still_caps_a_match_the_lord_decides() -> None:
    game = game_of(5, FIRST, RANKED, RANKED, **{"game.hands": 3, "game.lord_decides": True})
    race_first_hand(game)
    exchange_and_race_ranked_hand(game)
    game.apply(tc.AnotherHand(1, True))
    exchange_and_race_ranked_hand(game)
    # The third hand was the last: no decision is asked, the match is over.
    assert game.is_over and game.outcome is not None
    assert game.outcome.termination is tc.Termination.HANDS_PLAYED
    assert [a.type for a in game.actions].count("another_hand") == 1


def test_GS_8_without_lord_decides_nobody_is_asked() -> None:
    """By default (`game.lord_decides = false`) hands follow each other until game.hands."""
    assert variant(5).game.lord_decides is False
    game = three_hands()
    race_first_hand(game)
    exchange_and_race_ranked_hand(game)
    assert game.hand_index == 2 and game.waiting_for == [0, 4]  # the exchange of hand 2
    refused(game, tc.AnotherHand(0, True), "GS-8")


def test_GS_5_direction_left_seats_in_rank_order() -> None:
    """`seating.direction = "left"`: play order is rank order, Wretch last (and dealing,
    GS-3)."""
    game = game_of(5, FIRST, RANKED, **{"seating.direction": "left"})
    race_first_hand(game)
    view = game.observation(None)
    assert view.players == [2, 4, 0, 3, 1]
    assert view.titles == {0: "Great Lord", 1: "Lord", 2: "Squire", 3: "Pauper", 4: "Wretch"}
    assert view.dealer == 4


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (6, [9, 9, 10, 9, 9, 9]),  # 55 = 6 x 9 + 1: the Pauper, after the Wretch, gets 10
        (7, [15, 15, 16, 16, 16, 16, 15]),  # 109 = 7 x 15 + 4: seats 2..5 after seat 1
        (12, [9, 9, 10, *[9] * 9]),  # 109 = 12 x 9 + 1
    ],
)
def test_GS_3_from_the_second_hand_the_wretch_deals(players: int, sizes: list[int]) -> None:
    """GS-3: "collecting the tricks, shuffling, giving out the cards ... is the duty of
    ... the Wretch". After the election the Wretch sits at seat 1 (GS-5, play to the
    right) and deals one card at a time from the seat after it: the odd cards go to
    seats 2, 3, ... (in the first hand, dealt by seat 0, to seats 1, 2, ...)."""
    game = tc.Game(variant(players), seed=3)
    bot = RandomBot(3)
    assert game.observation(None).dealer == 0
    while not game.hand_results:
        game.apply(decide(bot, game, game.waiting_for[0]))
    view = game.observation(None)
    assert view.titles[1] == "Wretch" and view.dealer == 1
    assert view.hand_sizes == sizes == shares(players, dealer=1)
    # Card i of the shuffled deck to seat (2 + i) % players: each seat's cards are the
    # engine's second shuffle of the deck, dealt from the seat after the Wretch.
    v = variant(players)
    deck = [int(card) for card in cards_of(deck_mask(v.deck_copies, v.deck_without))]
    rng = random.Random(3)
    shuffle(list(deck), rng)  # the first hand's shuffle
    shuffle(deck, rng)
    for seat in range(players):
        mine = deck[(seat - 2) % players :: players]
        dealt = Counter(str(tc.Card(c)) for c in mine)
        player = game.observation(game.player_at(seat))
        # The exchange (GS-6) has not moved anything yet: forced cards only leave later.
        assert Counter(player.hand) == dealt, seat


def test_GS_5_titles_for_every_table_size() -> None:
    assert place_titles(5) == ("Great Lord", "Lord", "Squire", "Pauper", "Wretch")
    assert place_titles(6) == ("Great Lord", "Lord", "Squire", "Burgher", "Pauper", "Wretch")
    for players in range(5, 13):
        titles = place_titles(players)
        assert len(titles) == players
        assert titles[:3] == ("Great Lord", "Lord", "Squire")
        assert titles[-2:] == ("Pauper", "Wretch")


def test_GS_2_a_table_of_four_is_refused_by_the_plugin() -> None:
    """The loader already refuses 3 or 4 players with the Grand Seigneur exchange; with
    options bent to fit, the plugin still says the variant is for 5 to 12 players."""
    four = tc.load_variant(
        GS, {"players": 4, "deck.without": ["DOG"], "exchange.rank_cards": [1, 1]}
    )
    with pytest.raises(tc.PluginError, match=r"grand_seigneur.*5 to 12 players") as error:
        tc.Game(four)
    assert error.value.hook == "tichu_seats"


# --- whole matches at 5, 6, 7 and 12 players -------------------------------------------


def expected_seating(previous: tc.HandResult) -> list[int]:
    """GS-5, play to the right: Great Lord, Wretch, Pauper, ..., Lord."""
    ranking = [previous.players[seat] for seat in previous.out_order]
    return [p for p in [ranking[0], *ranking[:0:-1]] if p is not None]


def check_hand_start(game: tc.Game) -> dict[int, tuple[int, Counter[str]]]:
    """GS-2/3/5/6 at the start of a hand; returns the forced gifts: low seat -> (high
    seat, cards)."""
    players = game.players
    view = game.observation(None)
    # GS-3: seat 0 deals the first hand; later the Wretch, at seat 1 (play to the right).
    dealer = 1 if game.hand_results else 0
    assert view.dealer == dealer and view.hand_sizes == shares(players, dealer)
    if not game.hand_results:
        assert view.players == list(range(players)) and view.titles == {}
        assert view.phase == "play"
        return {}
    previous = game.hand_results[-1]
    assert view.players == expected_seating(previous)
    titles = place_titles(players)
    assert view.titles == {0: titles[0], 1: titles[-1], players - 1: titles[1]} | {
        seat: titles[players - seat] for seat in range(2, players - 1)
    }
    assert view.phase == "exchange"
    levels = [2, 1] if players == 5 else [3, 2, 1]
    # Seat of the k-th from the top: 0, n-1, n-2...; of the k-th from the bottom: 1, 2, 3.
    tops = [0, players - 1, players - 2][: len(levels)]
    bottoms = [1, 2, 3][: len(levels)]
    assert game.waiting_for == sorted(tops)
    forced: dict[int, tuple[int, Counter[str]]] = {}
    for count, high, low in zip(levels, tops, bottoms, strict=True):
        low_view = game.observation(game.player_at(low))
        assert list(low_view.pushed) == [high] and low_view.push_targets == {}
        given = cards(low_view.pushed[high])
        assert len(given) == count
        kept = Counter(low_view.hand) - Counter(given)
        # GS-6: nothing kept is better than anything given.
        assert max(rank_of(c) for c in given) <= min(rank_of(c) for c in kept.elements())
        high_view = game.observation(game.player_at(high))
        assert high_view.push_targets == {high: {low: count}}
        forced[low] = (high, Counter(given))
    for seat in range(players):
        if seat not in tops and seat not in bottoms:
            middle = game.observation(game.player_at(seat))
            assert middle.pushed == {} and middle.push_targets == {}
    return forced


def check_exchange_done(
    game: tc.Game, forced: dict[int, tuple[int, Counter[str]]], chosen: dict[int, str]
) -> None:
    for low, (high, given) in forced.items():
        assert Counter(cards(game.observation(game.player_at(high)).received[low])) == given
        got = game.observation(game.player_at(low)).received[high]
        assert Counter(cards(got)) == Counter(cards(chosen[high]))


def play_checked_match(players: int, seed: int) -> tc.Game:
    game = tc.Game(variant(players), seed=seed)
    bot = RandomBot(seed)
    forced: dict[int, tuple[int, Counter[str]]] = {}
    chosen: dict[int, str] = {}
    started = -1
    while not game.is_over:
        if game.hand_index != started:
            started = game.hand_index
            forced, chosen = check_hand_start(game), {}
        seat = game.waiting_for[0]
        action = decide(bot, game, seat)
        assert not isinstance(action, tc.Tichu | tc.GrandTichu)  # GS-1: none is listed
        game.apply(action)
        if isinstance(action, tc.Push):
            chosen[action.seat] = " ".join(action.cards.values())
            if game.observation(None).phase == "play":
                check_exchange_done(game, forced, chosen)
    return game


@pytest.mark.parametrize("players", TABLES)
@pytest.mark.parametrize("seed", [1, 2])
def test_GS_random_match_follows_the_ranks(players: int, seed: int) -> None:
    game = play_checked_match(players, seed)
    hands = variant(players).game.hands
    assert len(game.hand_results) == hands == 5
    events = game.event_log
    assert not {"tichu", "grand_tichu", "dragon_given", "lead_passed"} & set(kinds(events))
    for result in game.hand_results:
        assert sorted(result.out_order) == list(range(players))
        assert result.card_points == [0] * players
        # GS-8: the hand ends when one seat holds cards: all others went out.
        out = [e for e in events if e.type == "seat_out" and e.hand == result.index]
        assert [e.seat for e in out] == result.out_order[:-1]
    result = match_result(game)
    assert all(sum(counts) == hands for counts in result.rank_counts)
    assert [sum(column) for column in zip(*result.rank_counts, strict=True)] == [hands] * players
    # E-5: each hand from the second scores the players beaten; the election nothing.
    totals = [0] * players
    for order in result.orders[1:]:
        for place, player in enumerate(order):
            totals[player] += players - 1 - place
    assert game.scores == totals
    assert game.winners == [p for p in range(players) if totals[p] == max(totals)]


@pytest.mark.parametrize("players", [7, 12])
def test_GS_a_match_saved_mid_hand_continues_identically(players: int) -> None:
    game = tc.Game(variant(players), seed=5)
    bot = RandomBot(5)
    while game.hand_index < 2 or len(game.observation(None).trick) < 2:
        game.apply(decide(bot, game, game.waiting_for[0]))
    copy = tc.Game.from_json(game.to_json())
    assert state(copy) == state(game)
    assert copy.hand_results == game.hand_results
    first, second = RandomBot(9), RandomBot(9)
    while not game.is_over:
        action = decide(first, game, game.waiting_for[0])
        assert decide(second, copy, copy.waiting_for[0]) == action
        game.apply(action)
        copy.apply(action)
    assert copy.is_over and copy.to_json() == game.to_json()
    assert copy.hand_results == game.hand_results and copy.scores == game.scores
    assert match_result(copy) == match_result(game)
