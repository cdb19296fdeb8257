"""Every option of ``variants/standard.toml`` changes behaviour: one test per option.

Each test loads ``standard`` with the option set by an override, plays a short
stacked game through the public API and shows the difference against the default
(the same table without the override). Test names carry the option and the
docs/rules.md id it implements.

Unless a test deals by itself, the tables are stacked deals in dealing order (the
first 8 cards of a seat are its Grand Tichu cards). Tests about card play switch
the exchange off (``exchange.targets = "none"``, in ``PLAY``) so that the hands
listed are the hands played; expected values are worked out from docs/rules.md in the
comments, never copied from a run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import tichu_core as tc

# --- helpers -----------------------------------------------------------------------------

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("j", "s", "p", "t")
DECK = [r + s for r in RANKS for s in SUITS] + ["MJ", "DOG", "PH", "DR"]

# Card play without an exchange: the dealt hands are the hands played.
PLAY: dict[str, object] = {"exchange.targets": "none"}
# The rank exchange on a standard deck: the Dog must be ranked too (GS-6), the first
# hand, having no finishing order yet, has no exchange (GS-5), and four seats have
# room for two levels only (the last and the first, the third and the second).
BEST_ORDER_WITH_DOG = [*tc.load_variant("standard").exchange.best_order, "DOG"]
RANK_EXCHANGE: dict[str, object] = {
    "exchange.targets": "rank",
    "exchange.first_hand": False,
    "exchange.rank_cards": [3, 2],
    "exchange.best_order": BEST_ORDER_WITH_DOG,
}


def codes(text: str) -> list[str]:
    """Canonical codes of a space-separated card text."""
    return [str(card) for card in tc.parse_cards(text)]


def bag(text: str | Iterable[str]) -> Counter[str]:
    """A multiset of canonical codes (two decks may hold a code twice)."""
    items = text.split() if isinstance(text, str) else list(text)
    return Counter(codes(" ".join(items)))


def standard(overrides: Mapping[str, object] | None = None) -> tc.Variant:
    return tc.load_variant("standard", overrides=dict(overrides or {}))


def table(hands: Sequence[str], *later: Sequence[str], copies: int = 1) -> list[list[list[str]]]:
    """Stacked deals, each a list of hands; each deal must be the whole deck (``copies``
    times), exactly once."""
    deals = []
    for deal in (hands, *later):
        parsed = [codes(hand) for hand in deal]
        every = Counter(code for hand in parsed for code in hand)
        assert every == Counter(DECK * copies), every - Counter(DECK * copies)
        deals.append(parsed)
    return deals


def new_game(
    hands: Sequence[str],
    overrides: Mapping[str, object] | None = None,
    *later: Sequence[str],
    copies: int = 1,
) -> tc.Game:
    return tc.Game(standard(overrides), seed=1, deals=table(hands, *later, copies=copies))


def decline_grand_tichu(game: tc.Game) -> None:
    for seat in list(game.waiting_for):
        if tc.GrandTichu(seat, False) in game.legal_actions(seat):
            game.apply(tc.GrandTichu(seat, False))


def started(
    hands: Sequence[str],
    overrides: Mapping[str, object] | None = None,
    *later: Sequence[str],
    copies: int = 1,
) -> tc.Game:
    """A game whose first hand has every Grand Tichu declined."""
    game = new_game(hands, overrides, *later, copies=copies)
    decline_grand_tichu(game)
    return game


def play(game: tc.Game, seat: int, cards: str, phoenix: str | None = None) -> list[tc.Event]:
    return game.apply(tc.Play(seat, cards, phoenix))


def passes(game: tc.Game, *seats: int) -> list[tc.Event]:
    events: list[tc.Event] = []
    for seat in seats:
        events += game.apply(tc.Pass(seat))
    return events


def of_type(events: Iterable[tc.Event], kind: str) -> list[Any]:
    return [event for event in events if event.type == kind]


def plays(game: tc.Game, seat: int) -> list[Counter[str]]:
    """The card multisets of the listed plays of ``seat``."""
    return [bag(a.cards) for a in game.legal_actions(seat) if isinstance(a, tc.Play)]


def listed(game: tc.Game, seat: int, cards: str) -> bool:
    return bag(cards) in plays(game, seat)


def may_pass(game: tc.Game, seat: int) -> bool:
    return tc.Pass(seat) in list(game.legal_actions(seat))


def refused(game: tc.Game, action: tc.Action, rule: str) -> None:
    """The action is not listed and ``apply`` refuses it citing ``rule``."""
    assert action not in list(game.legal_actions(action.seat))
    with pytest.raises(tc.IllegalAction) as error:
        game.apply(action)
    assert error.value.rule == rule, str(error.value)


def filled(fixed: Mapping[int, str], sizes: Sequence[int], copies: int = 1) -> list[str]:
    """Hands with the ``fixed`` cards; the other cards of the deck go round the table in
    deck order (ranks low to high), which makes no bombs, to seats short of their size."""
    pool = Counter(DECK * copies)
    hands = {seat: codes(fixed.get(seat, "")) for seat in range(len(sizes))}
    for hand in hands.values():
        pool.subtract(hand)
    assert all(count >= 0 for count in pool.values()), pool
    rest = [code for code in DECK for _ in range(pool[code])]
    seat = 0
    for code in rest:
        while len(hands[seat]) >= sizes[seat]:
            seat = (seat + 1) % len(sizes)
        hands[seat].append(code)
        seat = (seat + 1) % len(sizes)
    assert [len(hands[s]) for s in range(len(sizes))] == list(sizes)
    return [" ".join(hands[s]) for s in range(len(sizes))]


# --- tables --------------------------------------------------------------------------------

# FAST: a hand over in three plays, no bombs anywhere. The straight goes out first, the
# low steps second, the high steps third; the REST seat keeps all its cards.
STRAIGHT_14 = "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj"  # 25 points
STEPS_LOW = "2p 2t 3j 3t 4j 4s 5s 5p 6p 6t 7j 7t 8j 8s"  # steps 2-8: 10 points
STEPS_HIGH = "PH 8t 9s 9p 10p 10t Jj Jt Qj Qs Ks Kp Ap At"  # steps 8-A, Phoenix as 8: 15
REST = "DOG DR 2s 3p 4t 5j 6s 7p 9j 10s Jp Qt Kj As"  # never plays: 50 points in hand
FAST = [STRAIGHT_14, STEPS_LOW, STEPS_HIGH, REST]


def rotated(layout: Sequence[str], first: int) -> list[str]:
    """``layout`` with its first hand at seat ``first``."""
    return [layout[(seat - first) % 4] for seat in range(4)]


def play_fast_hand(game: tc.Game, first: int = 0) -> list[tc.Event]:
    """Play a hand dealt as ``rotated(FAST, first)`` (in the play phase); returns the
    events of the last play.

    Out order: first, first+1, first+2. Card points (S-SCORE-1, S-END-2): the straight's
    team 25 + 15 + 50 (the REST hand goes to the opponents of its seat) = 90, the
    other team 10."""
    a, b, c, d = ((first + step) % 4 for step in range(4))
    play(game, a, STRAIGHT_14)
    game.apply(tc.Wish(a, None))
    passes(game, b, c, d)  # a is out: the trick is collected at the last pass
    play(game, b, STEPS_LOW)
    passes(game, c, d)
    return play(game, c, STEPS_HIGH)


# DOUBLE_VICTORY: seat 0 leads a 13-card straight, collects it and leads the Dog; seat 2
# (its partner) then goes out with 14-card steps.
DOUBLE_VICTORY = [
    "MJ 2p 3t 4p 5s 6j 7s 8j 9s 10j Js Qt Kp DOG",
    "2j 2s 3j 3s 4j 4s 5t 6p Qj Qs Kj Ks Aj DR",
    "5j 5p 6s 6t 7j 7p 8s 8t 9j 9p 10s 10t Jj Jp",
    "2t 3p 4t 7t 8p 9t 10p Jt Qp Kt As Ap At PH",
]
STRAIGHT_13 = "MJ 2p 3t 4p 5s 6j 7s 8j 9s 10j Js Qt Kp"
STEPS_14 = "5j 5p 6s 6t 7j 7p 8s 8t 9j 9p 10s 10t Jj Jp"


def lead_the_dog(game: tc.Game) -> list[tc.Event]:
    """DOUBLE_VICTORY: seat 0 plays its straight, collects it and leads the Dog."""
    play(game, 0, STRAIGHT_13)
    game.apply(tc.Wish(0, None))
    passes(game, 1, 2, 3, 0)  # seat 0 collects its own trick by passing once more
    return play(game, 0, "DOG")


# DRAGON: seats 0 and 1 go out at once (straight, low steps); seat 2 holds the Dragon
# and a 13-card straight 2..A; seat 3 never plays (pairs 9..A, Dog, Phoenix: 15 points).
STRAIGHT_2A = "2s 3p 4t 5j 6s 7p 8t 9j 10s Jp Qt Kj As"  # 25 points
DRAGON = [
    STRAIGHT_14,
    STEPS_LOW,
    "DR " + STRAIGHT_2A,
    "9s 9p 10p 10t Jj Jt Qj Qs Ks Kp Ap At DOG PH",
]


def dragon_to_seat_2(game: tc.Game) -> None:
    """DRAGON: seats 0 and 1 go out; the lead comes to seat 2 with seat 3 left."""
    play(game, 0, STRAIGHT_14)
    game.apply(tc.Wish(0, None))
    passes(game, 1, 2, 3)
    play(game, 1, STEPS_LOW)
    passes(game, 2, 3)
    assert game.turn == 2


# WISH: seat 0 leads with the Mah Jong; seat 1 holds the bombs 7777 and 9999 and no 6
# or 8, so no straight holds a 7 of its.
WISH = [
    "MJ 2j 3s 4p 5t 6j 8j 8s 10t Jj Qp Kt At DOG",
    "7j 7s 7p 7t 9j 9s 9p 9t 2s 2p Qj Qs Kj Ks",
    "PH DR 3j 4j 5j 6s 8p 10j Js Qt Kp Aj 2t 3p",
    "3t 4s 4t 5s 5p 6p 6t 8t 10s 10p Jp Jt As Ap",
]
SEVENS = "7j 7s 7p 7t"
NINES = "9j 9s 9p 9t"

# The hand after FAST in the rank-exchange tests: the best cards are unambiguous.
# Seat 3 (last out in FAST): DR, At, Jp; seat 2 (third): MJ, Aj.
SECOND = [
    "DOG 7j 7s 7p 7t 10j 10s Jj Js Kj Kt 2s 3j 4s",
    "PH 8t 9t 10t Jt Qt 5j 5s 6s 6p Kp Ks Ap As",
    "MJ 2j 3s 4p 5t 6j 8j 8s 9j 9s Qj Qs Qp Aj",
    "DR 2p 2t 3p 3t 4j 4t 5p 6t 8p 9p 10p Jp At",
]


def after_fast_hand(overrides: Mapping[str, object]) -> tc.Game:
    """A game whose first hand (FAST, no exchange) is over: out order 0, 1, 2, 3; the
    second hand (SECOND) is dealt and its Grand Tichu declined."""
    game = started(FAST, {**PLAY, **overrides}, SECOND)
    play_fast_hand(game)
    assert game.hand_results[0].out_order == [0, 1, 2, 3]
    decline_grand_tichu(game)
    return game


# --- players, plugins ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "sizes", "teams"),
    [
        # No partners at three; 56 = 3 x 18 + 2: the dealer and the next seat hold 19.
        ({"players": 3, "teams.size": 1}, [19, 19, 18], [0, 1, 2]),
        # Tientsin-like: two teams of three; 56 = 6 x 9 + 2 (T6-2).
        ({"players": 6, "teams.size": 3}, [10, 10, 9, 9, 9, 9], [0, 1, 0, 1, 0, 1]),
    ],
)
def test_option_players_S_DEAL_1(
    overrides: dict[str, object], sizes: list[int], teams: list[int]
) -> None:
    """`players` sets the number of seats dealt (S-DEAL-1; with the whole deck dealt)."""
    default = tc.Game(standard(), seed=3)
    assert default.seats == 4
    decline_grand_tichu(default)
    assert default.observation(0).hand_sizes == [14] * 4

    game = tc.Game(standard({**overrides, "deal.hand_size": 0}), seed=3)
    assert game.seats == len(sizes)
    assert game.observation(None).players == list(range(len(sizes)))
    assert game.observation(None).teams == teams
    decline_grand_tichu(game)
    assert game.observation(0).hand_sizes == sizes


def test_option_players_a_deal_leaving_cards_over_is_refused_at_load_S_DEAL_1() -> None:
    """Three players with 14 cards each would leave 14 of the 56 cards undealt. docs/variants.md:
    an impossible combination (players vs deck) is a VariantError at load; a variant
    that loads must deal."""
    overrides = {"players": 3, "teams.size": 1}
    try:
        variant = standard(overrides)
    except tc.VariantError as error:
        assert "hand_size" in str(error) or "players" in str(error)
        return
    game = tc.Game(variant, seed=1)  # must not fail in the standard deal hook
    decline_grand_tichu(game)
    assert sum(game.observation(None).hand_sizes) == 42


def test_option_plugins_stray_dog_sends_the_lead_to_the_next_seat_S_DOG_1() -> None:
    """`plugins` adds rule plugins: "stray_dog" answers the Dog recipient rule point."""
    default = started(DOUBLE_VICTORY, PLAY)
    (lead,) = of_type(lead_the_dog(default), "lead_passed")
    assert lead.to == 2  # S-DOG-1: to the partner
    assert default.turn == 2

    game = started(DOUBLE_VICTORY, {**PLAY, "plugins": ["standard", "stray_dog"]})
    (lead,) = of_type(lead_the_dog(game), "lead_passed")
    assert lead.to == 1  # the next seat in play order
    assert game.turn == 1


def test_option_plugins_threechu_shuffler_may_not_call_grand_tichu_T3_2() -> None:
    """The bundled "threechu" variant names the "threechu" plugin: the shuffler (player 0
    in the first hand) may call Grand Tichu neither for itself nor for the dummy (T3-2),
    which the standard rules alone would allow. Fails while that plugin is missing."""
    dummy_only = standard({"players": 3, "teams.dummy": True, "game.hands": 9})
    game = tc.Game(dummy_only, seed=2)
    assert tc.GrandTichu(0, True) in game.legal_actions(0)  # the standard rules allow it

    game = tc.Game(tc.load_variant("threechu"), seed=2)
    # T3-1: the dummy sits opposite the shuffler (seat 0), in its team.
    assert game.player_at(2) is None and game.controller(2) == 0
    refused(game, tc.GrandTichu(0, True), "T3-2")
    assert tc.GrandTichu(2, True) not in game.legal_actions(2)  # the dummy: no call either
    with pytest.raises(tc.IllegalAction):
        game.apply(tc.GrandTichu(2, True))
    assert tc.GrandTichu(1, True) in game.legal_actions(1)


# --- deck ------------------------------------------------------------------------------------


def test_option_deck_copies_S_DECK_1_GS_2() -> None:
    """`deck.copies = 2`: two 56-card decks, so a seat may hold both copies of a card."""
    hands = filled({0: "As As MJ MJ"}, [28] * 4, copies=2)
    with pytest.raises(tc.DealError):  # one deck: there is one As
        tc.Game(standard(), deals=table(hands, copies=2))
    assert len(standard().deck_codes) == 56

    variant = standard({"deck.copies": 2, "deal.hand_size": 28})
    assert len(variant.deck_codes) == 112
    game = started(hands, {"deck.copies": 2, "deal.hand_size": 28}, copies=2)
    assert game.observation(0).hand_sizes == [28] * 4
    assert bag(game.observation(0).hand)["As"] == 2


WITHOUT_TWOS = ["2j", "2s", "2p", "2t"]
# The 52 cards without the 2s, 13 a seat.
NO_TWOS = [
    "MJ 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj",
    "3j 3t 4j 4s 5s 5p 6p 6t 7j 7t 8j 8s DOG",
    "PH 8t 9s 9p 10p 10t Jj Jt Qj Qs Ks Kp Ap",
    "DR 3p 4t 5j 6s 7p 9j 10s Jp Qt Kj As At",
]


def _deal_52(overrides: Mapping[str, object]) -> tc.Game:
    deal = [codes(hand) for hand in NO_TWOS]
    return tc.Game(standard({**overrides, "deal.hand_size": 13}), seed=1, deals=[deal])


def test_option_deck_without_GS_2() -> None:
    """`deck.without` removes cards: without the four 2s a 52-card deal of 13 a seat is
    the whole deck, and a 2 is no longer a card of the game."""
    with pytest.raises(tc.DealError, match="not dealt"):  # the full deck has the 2s
        tc.Game(standard(), deals=[[codes(hand) for hand in NO_TWOS]])
    game = _deal_52({"deck.without": WITHOUT_TWOS})
    decline_grand_tichu(game)
    assert game.observation(0).hand_sizes == [13] * 4
    assert not {"2j", "2s", "2p", "2t"} & set(game.variant.deck_codes)
    with pytest.raises(tc.DealError):  # a 2 cannot be dealt
        tc.Game(game.variant, deals=table(FAST))


@pytest.mark.parametrize(
    ("overrides", "cards"),
    [
        ({"deck.copies_by_players": {"4": 2}, "deal.hand_size": 28}, 112),
        # An entry for another table size changes nothing at four.
        ({"deck.copies_by_players": {"5": 2}}, 56),
        # The entry for the table size overrides deck.copies.
        ({"deck.copies": 2, "deck.copies_by_players": {"4": 1}}, 56),
    ],
)
def test_option_deck_copies_by_players_GS_2(overrides: dict[str, object], cards: int) -> None:
    """`deck.copies_by_players`: copies per table size, overriding `deck.copies`."""
    game = tc.Game(standard(overrides), seed=5)
    decline_grand_tichu(game)
    assert sum(game.observation(None).hand_sizes) == cards
    assert len(game.variant.deck_codes) == cards


@pytest.mark.parametrize(
    ("overrides", "removed"),
    [
        ({"deck.without_by_players": {"4": WITHOUT_TWOS}}, True),
        # The entry for the table size overrides deck.without (here: removes nothing).
        ({"deck.without": ["DOG"], "deck.without_by_players": {"4": []}}, False),
    ],
)
def test_option_deck_without_by_players_GS_2(overrides: dict[str, object], removed: bool) -> None:
    """`deck.without_by_players`: cards removed per table size, overriding `deck.without`."""
    if removed:
        game = _deal_52(overrides)
        decline_grand_tichu(game)
        assert game.observation(0).hand_sizes == [13] * 4
        assert len(game.variant.deck_codes) == 52
    else:
        game = started(FAST, overrides)
        assert game.observation(0).hand_sizes == [14] * 4
        assert "DOG" in game.observation(3).hand
    # An entry for another table size changes nothing at four.
    other = standard({"deck.without_by_players": {"5": ["DOG"]}})
    assert len(other.deck_codes) == 56


# --- deal ------------------------------------------------------------------------------------


def test_option_deal_grand_tichu_after_S_DEAL_1_S_DEAL_2() -> None:
    """`deal.grand_tichu_after`: the cards held when Grand Tichu is decided (8 by default)."""
    default = new_game(FAST)
    assert default.observation(0).phase == "grand_tichu"
    assert default.observation(0).hand_sizes == [8] * 4
    assert bag(default.observation(0).hand) == bag(codes(STRAIGHT_14)[:8])

    game = new_game(FAST, {"deal.grand_tichu_after": 6})
    assert game.observation(0).phase == "grand_tichu"
    assert game.observation(0).hand_sizes == [6] * 4
    assert bag(game.observation(0).hand) == bag(codes(STRAIGHT_14)[:6])
    decline_grand_tichu(game)
    assert game.observation(0).hand_sizes == [14] * 4


@pytest.mark.parametrize(
    ("overrides", "sizes"),
    [
        # 52 cards (no 2s), 13 a seat.
        ({"deck.without": WITHOUT_TWOS, "deal.hand_size": 13}, [13] * 4),
        # 55 cards (no Dog) dealt one at a time from the dealer (seat 0): 14, 14, 14, 13.
        ({"deck.without": ["DOG"], "deal.hand_size": 0}, [14, 14, 14, 13]),
    ],
)
def test_option_deal_hand_size_S_DEAL_1_T6_2(
    overrides: dict[str, object], sizes: list[int]
) -> None:
    """`deal.hand_size`: cards per seat; 0 deals the whole deck one card at a time. The
    default 14 cannot deal these decks at all."""
    deck_only = {key: value for key, value in overrides.items() if key.startswith("deck.")}
    with pytest.raises(tc.VariantError, match=r"deal\.hand_size"):
        standard(deck_only)
    game = tc.Game(standard(overrides), seed=4)
    decline_grand_tichu(game)
    assert game.observation(0).hand_sizes == sizes


@pytest.mark.parametrize(
    ("first_receiver", "sizes"),
    [("dealer", [14, 14, 14, 13]), ("after_dealer", [13, 14, 14, 14])],
)
def test_option_deal_first_receiver_T6_2_GS_3(first_receiver: str, sizes: list[int]) -> None:
    """`deal.first_receiver`: who gets the first card of a whole-deck deal. With 55 cards
    the seat before the first receiver gets the short hand."""
    overrides = {"deck.without": ["DOG"], "deal.hand_size": 0}
    game = tc.Game(standard({**overrides, "deal.first_receiver": first_receiver}), seed=4)
    assert game.observation(None).dealer == 0
    decline_grand_tichu(game)
    assert game.observation(0).hand_sizes == sizes


# --- calls -----------------------------------------------------------------------------------


def test_option_calls_grand_tichu_S_DEAL_2() -> None:
    """`calls.grand_tichu = false`: no Grand Tichu decision; all 14 cards come at once."""
    default = new_game(FAST)
    assert default.observation(0).phase == "grand_tichu"
    assert tc.GrandTichu(0, True) in default.legal_actions(0)

    game = new_game(FAST, {"calls.grand_tichu": False})
    assert game.observation(0).phase == "exchange"
    assert game.observation(0).hand_sizes == [14] * 4
    refused(game, tc.GrandTichu(0, True), "S-DEAL-2")


def test_option_calls_tichu_S_CALL_1() -> None:
    """`calls.tichu = false`: nobody may call Tichu."""
    default = started(FAST)
    assert tc.Tichu(0) in default.legal_actions(0)
    default.apply(tc.Tichu(0))
    assert default.observation(None).calls == {0: "tichu"}

    game = started(FAST, {"calls.tichu": False})
    refused(game, tc.Tichu(0), "S-CALL-1")
    assert game.observation(None).calls == {}


def test_option_calls_tichu_and_grand_tichu_S_CALL_1() -> None:
    """`calls.tichu_and_grand_tichu = true`: a Grand Tichu caller may also call Tichu;
    going out first, seat 0 then wins both: 90 + 200 + 100."""
    for both in (False, True):
        game = new_game(FAST, {**PLAY, "calls.tichu_and_grand_tichu": both})
        game.apply(tc.GrandTichu(0, True))
        decline_grand_tichu(game)
        if both:
            game.apply(tc.Tichu(0))
            assert game.observation(None).calls == {0: "grand_tichu+tichu"}
        else:
            refused(game, tc.Tichu(0), "S-CALL-1")
            assert game.observation(None).calls == {0: "grand_tichu"}
        play_fast_hand(game)
        assert game.hand_results[0].scores == [390 if both else 290, 10]


def test_option_calls_max_per_team_S_CALL_1() -> None:
    """`calls.max_per_team = 1`: once seat 0 has called, its partner (seat 2) may not;
    the other team still may. A Grand Tichu counts as a call."""
    default = started(FAST)
    default.apply(tc.Tichu(0))
    default.apply(tc.Tichu(2))
    assert default.observation(None).calls == {0: "tichu", 2: "tichu"}

    game = started(FAST, {"calls.max_per_team": 1})
    game.apply(tc.Tichu(0))
    refused(game, tc.Tichu(2), "S-CALL-1")
    game.apply(tc.Tichu(1))
    assert game.observation(None).calls == {0: "tichu", 1: "tichu"}

    game = new_game(FAST, {"calls.max_per_team": 1})
    game.apply(tc.GrandTichu(1, True))
    refused(game, tc.GrandTichu(3, True), "S-CALL-1")


@pytest.mark.parametrize(("points", "expected"), [(None, 100), (50, 50)])
def test_option_calls_tichu_points_S_SCORE_3(points: int | None, expected: int) -> None:
    """`calls.tichu_points`: seat 0 calls Tichu and goes out first: +points to team 0."""
    overrides = dict(PLAY) if points is None else {**PLAY, "calls.tichu_points": points}
    game = started(FAST, overrides)
    game.apply(tc.Tichu(0))
    play_fast_hand(game)
    assert game.hand_results[0].scores == [90 + expected, 10]
    assert game.scores == [90 + expected, 10]


@pytest.mark.parametrize(("points", "expected"), [(None, 200), (300, 300)])
def test_option_calls_grand_tichu_points_S_SCORE_3(points: int | None, expected: int) -> None:
    """`calls.grand_tichu_points`: seat 1 calls Grand Tichu but goes out second:
    -points to team 1; seat 0 going out first is not touched."""
    overrides = dict(PLAY) if points is None else {**PLAY, "calls.grand_tichu_points": points}
    game = new_game(FAST, overrides)
    game.apply(tc.GrandTichu(1, True))
    decline_grand_tichu(game)
    play_fast_hand(game)
    assert game.hand_results[0].scores == [90, 10 - expected]
    assert game.hand_results[0].calls == {1: "grand_tichu"}


# --- exchange --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("targets", "pushes"),
    [
        ("all", {1: 1, 2: 1, 3: 1}),  # S-EX-1: one card to each other seat
        ("opponents", {1: 1, 3: 1}),  # T3-3
        ("partners", {2: 1}),  # T6-3
        ("none", {}),
    ],
)
def test_option_exchange_targets_S_EX_1_T3_3_T6_3(targets: str, pushes: dict[int, int]) -> None:
    """`exchange.targets`: whom each seat gives a card ("rank": the test below)."""
    game = started(FAST, {"exchange.targets": targets})
    observation = game.observation(0)
    if not pushes:
        assert observation.phase == "play"  # no exchange: the Mah Jong leads at once
        assert game.turn == 0 and observation.push_targets == {}
        assert bag(observation.hand) == bag(STRAIGHT_14)
        return
    assert observation.phase == "exchange"
    assert observation.push_targets == {0: pushes}
    hands = [codes(hand) for hand in FAST]
    if targets != "all":  # the standard push, one card to each other seat, is refused
        with pytest.raises(tc.IllegalAction):
            game.apply(tc.Push(0, {1: hands[0][-1], 2: hands[0][-2], 3: hands[0][-3]}))
    for seat in range(4):
        given = game.observation(seat).push_targets[seat]
        game.apply(tc.Push(seat, {t: hands[seat][-1 - n] for n, t in enumerate(given)}))
    assert game.observation(0).phase == "play"
    # Seat 0 received from the seats that push to it: its own targets, by symmetry.
    assert sorted(game.observation(0).received) == sorted(pushes)
    assert game.observation(0).hand_sizes == [14] * 4


def test_option_exchange_change_after_tichu_S_EX_3() -> None:
    """`exchange.change_after_tichu` (S-EX-3, the Czech text: "if a player calls Tichu
    before this exchange, he may change the cards he passes"). By default a push is
    final, Tichu or not; with true a Tichu call before the exchange is complete gives
    the caller its pushed cards back, and it pushes again."""
    hands = [codes(hand) for hand in FAST]

    def push_of(seat: int, skip: int = 0) -> tc.Push:
        targets = [(seat + step) % 4 for step in (1, 2, 3)]
        return tc.Push(seat, {t: hands[seat][-1 - skip - n] for n, t in enumerate(targets)})

    game = started(FAST)
    game.apply(push_of(0))
    assert [e.type for e in game.apply(tc.Tichu(0))] == ["tichu"]
    assert game.waiting_for == [1, 2, 3]
    refused(game, push_of(0, skip=3), "S-EX-3")

    game = started(FAST, {"exchange.change_after_tichu": True})
    for seat in (0, 1, 2):
        game.apply(push_of(seat))
    refused(game, push_of(0, skip=3), "S-EX-3")  # no Tichu, no second push
    # Seat 0 calls Tichu with seat 3 still to push: its cards come back.
    events = game.apply(tc.Tichu(0))
    assert [e.type for e in events] == ["tichu", "push_withdrawn"] and events[1].seat == 0
    assert game.waiting_for == [0, 3]
    assert game.observation(0).pushed == {} and game.observation(None).phase == "exchange"
    assert push_of(0, skip=3) in game.legal_actions(0)
    game.apply(push_of(0, skip=3))
    # Seat 3 calls before it pushes: nothing to take back.
    assert [e.type for e in game.apply(tc.Tichu(3))] == ["tichu"]
    restored = tc.Game.from_json(game.to_json())
    game.apply(push_of(3))
    restored.apply(push_of(3))
    assert restored.to_json() == game.to_json()
    # The exchange moved the second push of seat 0, never the first.
    assert game.observation(0).phase == "play"
    for target, card in push_of(0, skip=3).cards.items():
        assert game.observation(target).received[0] == card
    refused(game, push_of(0), "S-EX-1")  # the exchange is over


def test_option_exchange_targets_rank_GS_6() -> None:
    """`exchange.targets = "rank"`: from the second hand the last out (seat 3) gives its 3
    best cards to the first out (seat 0), forced; the third out (seat 2) its 2 best to
    the second (seat 1). The upper ranks give back as many cards of their choice; the
    lower ones choose nothing."""
    game = after_fast_hand(RANK_EXCHANGE)
    assert game.observation(0).phase == "exchange"
    assert game.observation(0).push_targets == {0: {3: 3}}
    assert game.observation(1).push_targets == {1: {2: 2}}
    assert game.observation(2).push_targets == {}
    assert game.observation(3).push_targets == {}
    assert game.waiting_for == [0, 1]
    assert not [a for a in game.legal_actions(3) if isinstance(a, tc.Push)]
    game.apply(tc.Push(0, {3: "2s 3j 4s"}))
    game.apply(tc.Push(1, {2: "5j 5s"}))
    assert game.observation(0).phase == "play"
    assert bag(game.observation(0).received[3]) == bag("DR At Jp")
    assert bag(game.observation(1).received[2]) == bag("MJ Aj")
    assert bag(game.observation(3).received[0]) == bag("2s 3j 4s")
    assert bag(game.observation(2).received[1]) == bag("5j 5s")

    # With the default targets (every seat gives one card to each other seat) the same
    # hand asks three cards of every seat, one per target, all of their choice.
    default = after_fast_hand({"exchange.targets": "all", "exchange.first_hand": False})
    assert default.observation(3).push_targets == {3: {0: 1, 1: 1, 2: 1}}


def test_option_exchange_first_hand_GS_5() -> None:
    """`exchange.first_hand = false`: the first hand has no exchange; the second has."""
    default = started(FAST)
    assert default.observation(0).phase == "exchange"

    game = started(FAST, {"exchange.first_hand": False}, SECOND)
    assert game.observation(0).phase == "play"
    assert game.observation(0).push_targets == {}
    play_fast_hand(game)
    decline_grand_tichu(game)
    assert game.observation(0).hand_index == 1
    assert game.observation(0).phase == "exchange"
    assert game.observation(0).push_targets == {0: {1: 1, 2: 1, 3: 1}}


def test_option_exchange_best_order_GS_6() -> None:
    """`exchange.best_order`: which cards the rank exchange forces. Counting the 2s as
    the best cards, seat 3 gives 2p 2t and the Dragon (not DR At Jp), seat 2 gives 2j
    and the Mah Jong (not MJ Aj)."""
    default_order = BEST_ORDER_WITH_DOG
    order = ["2", *(entry for entry in default_order if entry != "2")]  # the 2s on top
    results = {}
    for best_order in (default_order, order):
        game = after_fast_hand({**RANK_EXCHANGE, "exchange.best_order": best_order})
        game.apply(tc.Push(0, {3: "2s 3j 4s"}))
        game.apply(tc.Push(1, {2: "5j 5s"}))
        results[tuple(best_order)] = (
            bag(game.observation(0).received[3]),
            bag(game.observation(1).received[2]),
        )
    assert results[tuple(default_order)] == (bag("DR At Jp"), bag("MJ Aj"))
    assert results[tuple(order)] == (bag("2p 2t DR"), bag("2j MJ"))


@pytest.mark.parametrize(
    ("rank_cards", "targets"),
    [
        ([3, 2], {0: {3: 3}, 1: {2: 2}}),
        ([1, 1], {0: {3: 1}, 1: {2: 1}}),
        ([2], {0: {3: 2}}),  # one level: the middle ranks exchange nothing
    ],
)
def test_option_exchange_rank_cards_GS_6(
    rank_cards: list[int], targets: dict[int, dict[int, int]]
) -> None:
    """`exchange.rank_cards`: cards given at each level of the rank exchange, top first."""
    game = after_fast_hand({**RANK_EXCHANGE, "exchange.rank_cards": rank_cards})
    found = {}
    for seat in range(4):
        found.update(game.observation(seat).push_targets)
    assert found == targets


@pytest.mark.parametrize(
    ("by_players", "targets"),
    [
        ({"4": [1]}, {0: {3: 1}}),  # the entry for four players overrides rank_cards
        ({"5": [1]}, {0: {3: 3}, 1: {2: 2}}),  # another table size: rank_cards [3, 2]
    ],
)
def test_option_exchange_rank_cards_by_players_GS_6(
    by_players: dict[str, list[int]], targets: dict[int, dict[int, int]]
) -> None:
    """`exchange.rank_cards_by_players`: rank_cards per table size."""
    game = after_fast_hand({**RANK_EXCHANGE, "exchange.rank_cards_by_players": by_players})
    found = {}
    for seat in range(4):
        found.update(game.observation(seat).push_targets)
    assert found == targets


# --- wish ------------------------------------------------------------------------------------


def test_option_wish_enabled_E_4() -> None:
    """`wish.enabled = false`: the Mah Jong player makes no wish; play goes on at once."""
    default = started(WISH, PLAY)
    play(default, 0, "MJ")
    assert default.observation(None).pending == {"kind": "wish", "seat": 0}
    assert default.turn is None
    default.apply(tc.Wish(0, "7"))
    assert default.observation(None).wish == "7"

    game = started(WISH, {**PLAY, "wish.enabled": False})
    events = play(game, 0, "MJ")
    assert not of_type(events, "wish_made")
    assert game.observation(None).pending is None
    assert game.turn == 1
    refused(game, tc.Wish(0, "7"), "S-WISH-1")


def test_option_wish_bomb_must_fulfil_S_WISH_2() -> None:
    """`wish.bomb_must_fulfil`: seat 0 leads the straight MJ-5 wishing a 7; seat 1 can
    play a 7 only in its bomb 7777. By default it must bomb; with false it may pass."""
    for must in (True, False):
        game = started(WISH, {**PLAY, "wish.bomb_must_fulfil": must})
        play(game, 0, "MJ 2j 3s 4p 5t")
        game.apply(tc.Wish(0, "7"))
        assert game.turn == 1
        assert may_pass(game, 1) is not must
        if must:
            assert plays(game, 1) == [bag(SEVENS)]
            refused(game, tc.Pass(1), "S-WISH-2")
        else:
            passes(game, 1)
            assert game.observation(None).wish == "7"


def test_option_wish_phoenix_fulfils_S_WISH_3() -> None:
    """`wish.phoenix_fulfils`: seat 1 (no 7) beats the straight MJ-5 with 3-4-5-6 and the
    Phoenix as 7. By default the wish stays open; with true it is fulfilled."""
    layout = [WISH[0], WISH[2], WISH[1], WISH[3]]
    for fulfils in (False, True):
        game = started(layout, {**PLAY, "wish.phoenix_fulfils": fulfils})
        play(game, 0, "MJ 2j 3s 4p 5t")
        game.apply(tc.Wish(0, "7"))
        events = play(game, 1, "3j 4j 5j 6s PH", phoenix="7")
        assert bool(of_type(events, "wish_fulfilled")) is fulfils
        assert game.observation(None).wish == (None if fulfils else "7")


def test_option_wish_bomb_instead_S_WISH_6() -> None:
    """`wish.bomb_instead`: seat 0 leads the Mah Jong wishing a 7; seat 1 holds 7s and
    the bomb 9999. By default it must play a 7; with true the bomb 9999 is allowed too."""
    for instead in (False, True):
        game = started(WISH, {**PLAY, "wish.bomb_instead": instead})
        play(game, 0, "MJ")
        game.apply(tc.Wish(0, "7"))
        assert game.turn == 1
        assert not may_pass(game, 1)
        assert listed(game, 1, "7j")
        assert listed(game, 1, NINES) is instead
        if instead:
            events = play(game, 1, NINES)
            assert game.observation(None).wish == "7"  # a bomb without a 7 fulfils nothing
            assert not of_type(events, "wish_fulfilled")
        else:
            refused(game, tc.Play(1, NINES), "S-WISH-2")


# --- bombs -----------------------------------------------------------------------------------


def test_option_bombs_own_trick_S_BOMB_5() -> None:
    """`bombs.own_trick = false`: seat 1, on top with a 2, may not bomb its own trick."""
    for own in (True, False):
        game = started(WISH, {**PLAY, "bombs.own_trick": own})
        play(game, 0, "MJ")
        game.apply(tc.Wish(0, None))
        play(game, 1, "2s")
        assert game.turn == 2
        assert listed(game, 1, SEVENS) is own
        if own:
            events = play(game, 1, SEVENS)
            assert of_type(events, "played")[0].bomb
        else:
            refused(game, tc.Play(1, SEVENS), "S-BOMB-5")


def test_option_bombs_four_distinct_suits_GS_4() -> None:
    """`bombs.four_distinct_suits`: with two decks seat 1 holds 7j 7j 7s 7p. By default
    that is no bomb (two jade 7s); with false it is a four-of-a-kind bomb."""
    hands = filled({0: "MJ MJ 3j", 1: "7j 7j 7s 7p", 2: "7s 7t", 3: "7p 7t"}, [28] * 4, copies=2)
    for distinct in (True, False):
        overrides = {
            **PLAY,
            "deck.copies": 2,
            "deal.hand_size": 28,
            "bombs.four_distinct_suits": distinct,
        }
        game = started(hands, overrides, copies=2)
        assert game.turn == 0
        play(game, 0, "3j")
        assert listed(game, 1, "7j 7j 7s 7p") is not distinct
        if distinct:
            with pytest.raises(tc.IllegalAction):
                play(game, 1, "7j 7j 7s 7p")
        else:
            assert of_type(play(game, 1, "7j 7j 7s 7p"), "played")[0].bomb


# --- dog -------------------------------------------------------------------------------------

# DOG_TABLE: seat 2 goes out first with the 14-card straight; seat 3 leads a 2, seat 0
# takes the trick with the Ace and leads the Dog while its partner (seat 2) is out.
DOG_TABLE = [REST, STEPS_HIGH, STRAIGHT_14, STEPS_LOW]


@pytest.mark.parametrize(
    ("partner_out", "to"), [("next_after_partner", 3), ("next_after_player", 1)]
)
def test_option_dog_partner_out_S_DOG_2(partner_out: str, to: int) -> None:
    """`dog.partner_out`: the Dog's lead when the partner is out goes to the next seat
    with cards after the partner (3), or after the Dog's player (1)."""
    game = started(DOG_TABLE, {**PLAY, "dog.partner_out": partner_out})
    play(game, 2, STRAIGHT_14)
    game.apply(tc.Wish(2, None))
    passes(game, 3, 0, 1)  # seat 2 is out: the lead goes to seat 3
    play(game, 3, "2p")
    play(game, 0, "As")
    passes(game, 1, 3, 0)  # seat 0 collects
    (lead,) = of_type(play(game, 0, "DOG"), "lead_passed")
    assert lead.to == to
    assert game.turn == to


def test_option_dog_choose_partner_T6_4() -> None:
    """`dog.choose_partner`: with two partners (6 seats, teams of three: seats 0, 2, 4)
    the Dog's player chooses which partner leads (GiveLead); by default the first in
    play order (seat 2) leads."""
    sizes = [10, 10, 9, 9, 9, 9]
    hands = filled({0: "MJ DOG"}, sizes)
    six = {**PLAY, "players": 6, "teams.size": 3, "deal.hand_size": 0}
    for choose in (False, True):
        game = started(hands, {**six, "dog.choose_partner": choose})
        assert game.turn == 0
        events = play(game, 0, "DOG")
        if not choose:
            (lead,) = of_type(events, "lead_passed")
            assert lead.to == 2 and game.turn == 2
            continue
        assert not of_type(events, "lead_passed")
        assert game.observation(0).pending == {"kind": "give_lead", "seat": 0, "options": [2, 4]}
        assert tc.GiveLead(0, 4) in game.legal_actions(0)
        (lead,) = of_type(game.apply(tc.GiveLead(0, 4)), "lead_passed")
        assert lead.to == 4 and game.turn == 4


# --- dragon ----------------------------------------------------------------------------------


def test_option_dragon_gift_S_DRAGON_1() -> None:
    """`dragon.gift = false`: seat 2 wins a trick with the Dragon and keeps it."""
    for gift in (True, False):
        game = started(DRAGON, {**PLAY, "dragon.gift": gift})
        dragon_to_seat_2(game)
        play(game, 2, "DR")
        events = passes(game, 3, 2)  # seat 3 passes, seat 2 collects
        if gift:
            assert not of_type(events, "trick_won")
            assert game.observation(2).pending == {
                "kind": "give_trick",
                "seat": 2,
                "options": [1, 3],
            }
            (won,) = of_type(game.apply(tc.GiveTrick(2, 3)), "trick_won")
            assert (won.seat, won.to, won.points) == (2, 3, 25)
        else:
            (won,) = of_type(events, "trick_won")
            assert (won.seat, won.to, won.points) == (2, 2, 25)
            assert game.observation(None).pending is None
            refused(game, tc.GiveTrick(2, 3), "S-DRAGON-1")
        assert game.turn == 2


def test_option_dragon_gift_when_last_S_DRAGON_2() -> None:
    """`dragon.gift_when_last = false`: seat 2 goes out third with the Dragon; the last
    trick stays with it. Scores (S-END-2: seat 3's hand, 15, to team 0): kept, team 0
    25 + 25 + 25 + 15 = 90; given to seat 1, team 0 65 and team 1 10 + 25."""
    for when_last in (True, False):
        game = started(DRAGON, {**PLAY, "dragon.gift_when_last": when_last})
        dragon_to_seat_2(game)
        play(game, 2, STRAIGHT_2A)
        passes(game, 3, 2)  # seat 2 collects its straight
        events = play(game, 2, "DR")  # out third: the hand is over
        if when_last:
            assert game.observation(2).pending == {
                "kind": "give_trick",
                "seat": 2,
                "options": [1, 3],
            }
            assert not game.hand_results
            game.apply(tc.GiveTrick(2, 1))
            assert game.hand_results[0].scores == [65, 35]
        else:
            (won,) = of_type(events, "trick_won")
            assert (won.seat, won.to) == (2, 2)
            assert game.hand_results[0].scores == [90, 10]


def test_option_dragon_second_beats_first_GS_4() -> None:
    """`dragon.second_beats_first`: with two decks seat 0 leads a Dragon; seat 1 may play
    the second Dragon on it only with the option."""
    hands = filled({0: "MJ MJ DR", 1: "DR"}, [28] * 4, copies=2)
    for beats in (False, True):
        overrides = {
            **PLAY,
            "deck.copies": 2,
            "deal.hand_size": 28,
            "dragon.second_beats_first": beats,
        }
        game = started(hands, overrides, copies=2)
        play(game, 0, "DR")
        assert game.turn == 1
        assert listed(game, 1, "DR") is beats
        if beats:
            play(game, 1, "DR")
            assert game.observation(None).top_seat == 1
        else:
            with pytest.raises(tc.IllegalAction):
                play(game, 1, "DR")


# --- tricks, teams ---------------------------------------------------------------------------


def test_option_tricks_winner_collects_S_TRICK_2() -> None:
    """`tricks.winner_collects`: after seat 0's Mah Jong and three passes, by default the
    turn comes back to seat 0, which collects by passing once more; with false the
    trick is collected at the third pass."""
    default = started(WISH, PLAY)
    play(default, 0, "MJ")
    default.apply(tc.Wish(0, None))
    assert not of_type(passes(default, 1, 2, 3), "trick_won")
    assert default.turn == 0 and default.observation(None).trick
    assert may_pass(default, 0)
    (won,) = of_type(passes(default, 0), "trick_won")
    assert won.to == 0

    game = started(WISH, {**PLAY, "tricks.winner_collects": False})
    play(game, 0, "MJ")
    game.apply(tc.Wish(0, None))
    (won,) = of_type(passes(game, 1, 2, 3), "trick_won")
    assert won.to == 0
    assert game.turn == 0 and not game.observation(None).trick
    assert not may_pass(game, 0)  # seat 0 leads a new trick


def test_option_teams_size_T6_1_GS_1() -> None:
    """`teams.size = 1`: no partners: four teams and four score lines; the Dog's lead
    goes to the next seat, as nobody has a partner."""
    default = started(DOUBLE_VICTORY, PLAY)
    assert default.observation(None).teams == [0, 1, 0, 1]
    assert default.score_lines == ["team 0+2", "team 1+3"]

    game = started(DOUBLE_VICTORY, {**PLAY, "teams.size": 1})
    assert game.observation(None).teams == [0, 1, 2, 3]
    assert game.score_lines == ["player 0", "player 1", "player 2", "player 3"]
    (lead,) = of_type(lead_the_dog(game), "lead_passed")
    assert lead.to == 1


def test_option_teams_dummy_T3_1() -> None:
    """`teams.dummy`: three players and a dummy seat (seat 3, no player) that its partner
    (player 1 at seat 1, the same team) plays and sees."""
    default = tc.Game(standard(), seed=6)
    assert default.player_at(3) == 3 and default.controller(3) == 3

    game = tc.Game(standard({"players": 3, "teams.dummy": True, "game.hands": 9}), seed=6)
    assert game.seats == 4
    assert game.observation(None).players == [0, 1, 2, None]
    assert game.player_at(3) is None
    assert game.controller(3) == 1
    assert game.observation(None).teams == [0, 1, 0, 1]
    assert sorted(game.observation(1).hands) == [1, 3]
    assert sorted(game.observation(0).hands) == [0]
    assert game.waiting_for == [0, 1, 2, 3]
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    assert game.observation(1).push_targets == {1: {0: 1, 2: 1, 3: 1}, 3: {0: 1, 1: 1, 2: 1}}


# --- scoring ---------------------------------------------------------------------------------


def test_option_scoring_card_points_S_SCORE_1() -> None:
    """`scoring.card_points = false`: the FAST hand scores no card points (90/10 by
    default), only calls: seat 0's Tichu, made, +100."""
    for counted, scores in ((True, [190, 10]), (False, [100, 0])):
        game = started(FAST, {**PLAY, "scoring.card_points": counted})
        game.apply(tc.Tichu(0))
        play_fast_hand(game)
        assert game.hand_results[0].scores == scores


@pytest.mark.parametrize(("bonus", "expected"), [(None, 200), (300, 300)])
def test_option_scoring_double_victory_S_SCORE_2(bonus: int | None, expected: int) -> None:
    """`scoring.double_victory`: seats 0 and 2 go out first and second."""
    overrides = dict(PLAY) if bonus is None else {**PLAY, "scoring.double_victory": bonus}
    game = started(DOUBLE_VICTORY, overrides)
    lead_the_dog(game)
    play(game, 2, STEPS_14)
    result = game.hand_results[0]
    assert result.double_victory
    assert result.scores == [expected, 0]


def test_option_scoring_per_player_T3_7() -> None:
    """`scoring.per_player`: one score line per player, each with its team's score."""
    default = started(FAST, PLAY)
    play_fast_hand(default)
    assert default.score_lines == ["team 0+2", "team 1+3"]
    assert default.hand_results[0].scores == [90, 10]

    game = started(FAST, {**PLAY, "scoring.per_player": True})
    play_fast_hand(game)
    assert game.score_lines == ["player 0", "player 1", "player 2", "player 3"]
    assert game.hand_results[0].scores == [90, 10, 90, 10]
    assert game.scores == [90, 10, 90, 10]
    assert game.observation(None).scores == [90, 10, 90, 10]

    # Three players and a dummy (seat 3, REST): the dummy keeps its own line, last.
    dummy = {**PLAY, "players": 3, "teams.dummy": True, "game.hands": 9}
    game = started(FAST, {**dummy, "scoring.per_player": True})
    play_fast_hand(game)
    assert game.score_lines == ["player 0", "player 1", "player 2", "dummy"]
    assert game.hand_results[0].scores == [90, 10, 90, 10]
    without = started(FAST, dummy)
    play_fast_hand(without)
    assert without.score_lines == ["team 0+2", "team 1+3"]


def test_option_scoring_per_player_with_game_target_ends_the_match_S_GAME_1_T3_7() -> None:
    """`scoring.per_player` with a target: partners share their team's score, so two
    lines always lead together; that is no tie between teams (S-GAME-1). Team 0 reaches
    90 >= 50: the match is over, players 0 and 2 win (or the combination is refused at
    load)."""
    try:
        variant = standard({**PLAY, "scoring.per_player": True, "game.target": 50})
    except tc.VariantError as error:
        assert "per_player" in str(error) or "target" in str(error)
        return
    game = tc.Game(variant, seed=1, deals=table(FAST))
    decline_grand_tichu(game)
    play_fast_hand(game)
    assert game.scores == [90, 10, 90, 10]
    assert game.is_over
    assert game.winners == [0, 2]


# --- game ------------------------------------------------------------------------------------


def test_option_game_target_S_GAME_1() -> None:
    """`game.target = 50`: team 0 reaches 90 in the first hand: the match is over."""
    default = started(FAST, PLAY)
    play_fast_hand(default)
    assert not default.is_over and default.outcome is None
    assert default.hand_index == 1

    game = started(FAST, {**PLAY, "game.target": 50})
    events = play_fast_hand(game)
    assert game.is_over
    assert game.outcome is not None and game.outcome.termination == tc.Termination.TARGET_REACHED
    assert game.winners == [0]
    (over,) = of_type(events, "match_over")
    assert over.winners == [0] and over.termination == "target_reached"


def test_option_game_hands_T3_8_GS_8() -> None:
    """`game.hands = 1`: the match ends after one hand, whatever the scores."""
    game = started(FAST, {**PLAY, "game.hands": 1})
    events = play_fast_hand(game)
    assert game.is_over
    assert game.outcome is not None and game.outcome.termination == tc.Termination.HANDS_PLAYED
    assert game.winners == [0]
    (over,) = of_type(events, "match_over")
    assert over.termination == "hands_played"
    with pytest.raises(tc.IllegalAction):
        game.apply(tc.Pass(3))


def test_option_game_lord_decides_GS_8() -> None:
    """`game.lord_decides` (default false): the Great Lord decides on another hand (the
    play is in test_grand_seigneur.py, test_GS_8_...). It needs a Great Lord, so a table
    seated by rank; with it a match needs neither a target nor a number of hands."""
    assert tc.load_variant("standard").game.lord_decides is False
    with pytest.raises(tc.VariantError, match=r"game\.lord_decides: needs a Great Lord"):
        tc.load_variant("standard", {"game.lord_decides": True})
    with pytest.raises(tc.VariantError, match="the match would never end"):
        tc.load_variant("grand_seigneur", {"game.hands": 0})
    endless = tc.load_variant("grand_seigneur", {"game.hands": 0, "game.lord_decides": True})
    assert endless.game.hands == 0 and endless.game.target == 0


# --- seating ---------------------------------------------------------------------------------


def seats_after_rotated_fast_hand(overrides: Mapping[str, object]) -> tc.Game:
    """First hand: FAST from seat 1: out order 1, 2, 3, then 0 (players = seats)."""
    game = started(rotated(FAST, 1), {**PLAY, **overrides})
    play_fast_hand(game, first=1)
    assert game.hand_results[0].out_order == [1, 2, 3, 0]
    return game


def test_option_seating_by_rank_GS_5() -> None:
    """`seating.by_rank`: from the second hand the finishing order (players 1, 2, 3, 0)
    reseats the table: the first out (player 1) at seat 0; playing to the right, the
    last (player 0) at seat 1, dealing (GS-3: the Wretch deals). By default seats stay
    and the first out (seat 1) deals (S-DEAL-3)."""
    default = seats_after_rotated_fast_hand({})
    assert [default.player_at(seat) for seat in range(4)] == [0, 1, 2, 3]
    assert default.observation(None).dealer == 1

    game = seats_after_rotated_fast_hand({"seating.by_rank": True})
    assert [game.player_at(seat) for seat in range(4)] == [1, 0, 3, 2]
    assert game.observation(None).players == [1, 0, 3, 2]
    assert game.observation(None).dealer == 1
    assert game.seat_of(1) == 0 and game.seat_of(0) == 1


def test_option_seating_by_rank_scores_stay_with_the_players_GS_5() -> None:
    """`seating.by_rank` with one line per player (`teams.size = 1`): after the reseating
    player 1 sits at seat 0; its Tichu, made, must go to the line "player 1"."""
    overrides = {"teams.size": 1, "seating.by_rank": True, "scoring.card_points": False}
    game = started(rotated(FAST, 1), {**PLAY, **overrides}, FAST)
    play_fast_hand(game, first=1)
    assert game.score_lines == ["player 0", "player 1", "player 2", "player 3"]
    assert [game.player_at(seat) for seat in range(4)] == [1, 0, 3, 2]
    decline_grand_tichu(game)
    game.apply(tc.Tichu(0))  # seat 0: player 1
    play_fast_hand(game)  # seat 0 goes out first
    assert game.hand_results[1].players == [1, 0, 3, 2]
    assert game.hand_results[1].scores == [0, 100, 0, 0]
    assert game.scores == [0, 100, 0, 0]


@pytest.mark.parametrize(
    ("direction", "players"), [("right", [1, 0, 3, 2]), ("left", [1, 2, 3, 0])]
)
def test_option_seating_direction_GS_5(direction: str, players: list[int]) -> None:
    """`seating.direction`: with by_rank, "right" puts the Wretch (last out, player 0) at
    seat 1 and the Lord (player 2) at seat 3; "left" seats in rank order."""
    game = seats_after_rotated_fast_hand({"seating.by_rank": True, "seating.direction": direction})
    assert [game.player_at(seat) for seat in range(4)] == players
    # Without by_rank seats never move: another direction than the default is refused.
    if direction != "right":
        with pytest.raises(tc.VariantError, match=r"seating\.direction"):
            standard({"seating.direction": direction})
