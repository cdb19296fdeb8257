"""The front ends' parts: the bots and the event renderer.

The bots must finish matches of every table shape the engine plays (a player acting
for two seats, T3-1; the lead given after the Dog, T6-4; the Dragon trick, S-DRAGON-1;
the wish, S-WISH-1; several cards pushed to one seat, GS-6; two decks, GS-2; five to
twelve seats and reseating by rank, GS-5), choosing from what their player may know.
The shapes are played by the standard plugin's options, so that these tests do not
depend on the variant plugins. Bots are asked through the bot protocol: the
observation of the player acting for the seat, the seat's legal actions, the seat.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

import pytest
from rich.console import Console

import tichu_core as tc
from tichu_core.frontends.bots import GreedyBot, HeuristicBot, RandomBot, make_bot, play_match
from tichu_core.frontends.text.render import Transcript
from tichu_core.game.events import EVENT_TYPES

BEST_ORDER_WITH_DOG = [*tc.load_variant("standard").exchange.best_order, "DOG"]
GS_TABLE = {"plugins": ["standard"], "seating.by_rank": True}

# name -> (variant, overrides): the shapes of the variants, by standard-rules options.
SHAPES: dict[str, tuple[str, dict[str, object]]] = {
    "standard": ("standard", {"game.target": 300}),
    "dummy_seat": ("threechu", {"plugins": ["standard"], "game.hands": 3}),
    "per_player_lines": ("standard", {"scoring.per_player": True, "game.target": 300}),
    "six_seats_give_lead": (
        "standard",
        {
            "players": 6,
            "teams.size": 3,
            "deal.hand_size": 0,
            "exchange.targets": "partners",
            "dog.choose_partner": True,
            "game.target": 500,
        },
    ),
    "rank_exchange": (
        "standard",
        {
            "exchange.targets": "rank",
            "exchange.first_hand": False,
            "exchange.rank_cards": [3, 1],
            "exchange.best_order": BEST_ORDER_WITH_DOG,
            "seating.by_rank": True,
            "game.target": 300,
        },
    ),
    "five_seats": ("grand_seigneur", {**GS_TABLE, "players": 5}),
    "seven_seats_two_decks": ("grand_seigneur", GS_TABLE),
    "twelve_seats_two_decks": ("grand_seigneur", {**GS_TABLE, "players": 12}),
}
BOTS = {"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot}


def new_game(shape: str, seed: int) -> tc.Game:
    name, overrides = SHAPES[shape]
    return tc.Game(tc.load_variant(name, overrides=overrides), seed=seed)


def play_watched(game: tc.Game, bots: dict[int, Any]) -> Counter[str]:
    """Play ``game`` to its end, each bot given only its player's observation and the
    seat's legal actions (asked even where one action is listed); the action types
    applied, with ``multi_push`` for pushes giving several cards to one seat."""
    applied: Counter[str] = Counter()
    for _ in range(100_000):
        if game.is_over:
            return applied
        seat = game.waiting_for[0]
        player = game.controller(seat)
        view = game.observation(player)
        action = bots[player].choose(view, game.legal_actions(seat), seat)
        # Chosen from the listed actions (apply accepts nothing else, but say so here).
        assert action in game.legal_actions(seat)
        game.apply(action)
        applied[action.type] += 1
        if isinstance(action, tc.Push) and any(len(c.split()) > 1 for c in action.cards.values()):
            applied["multi_push"] += 1
        if game.player_at(seat) is None:
            applied["dummy_seat"] += 1
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("shape", SHAPES)
def test_bots_finish_a_match_of_every_shape_from_their_own_view(shape: str, bot: str) -> None:
    game = new_game(shape, seed=1)
    bots = {player: BOTS[bot](player) for player in range(game.players)}
    play_watched(game, bots)
    assert game.is_over and game.outcome is not None
    assert len(game.scores) == len(game.score_lines)
    assert game.hand_results


# Which shapes show which decisions; over a few seeds, each bot meets each of them.
EXPECTED = {
    "dummy_seat": ["dummy_seat", "push", "wish", "give_trick"],
    "six_seats_give_lead": ["give_lead", "push", "wish"],
    "rank_exchange": ["multi_push", "push", "wish", "give_trick"],
    "seven_seats_two_decks": ["multi_push", "wish"],
    "twelve_seats_two_decks": ["multi_push"],
}


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("shape", EXPECTED)
def test_bots_meet_every_decision_of_the_shape(shape: str, bot: str) -> None:
    """T3-1, T6-4, S-WISH-1, S-DRAGON-1, GS-6: the decisions really happen (and the
    bots take them), so the test above does not pass by avoiding them."""
    applied: Counter[str] = Counter()
    for seed in range(3):
        game = new_game(shape, seed)
        applied += play_watched(game, {p: BOTS[bot](p) for p in range(game.players)})
    for decision in EXPECTED[shape]:
        assert applied[decision], f"no {decision} in {dict(applied)}"


def test_two_decks_and_twelve_seats_are_dealt() -> None:
    """GS-2: the twelve-seat table plays with two decks (codes held twice)."""
    game = new_game("twelve_seats_two_decks", seed=2)
    sizes = game.observation(None).hand_sizes
    assert len(sizes) == 12 and sum(sizes) > 56
    dealt = [c for e in game.event_log if isinstance(e, tc.CardsDealt) for c in e.cards]
    assert any(count == 2 for count in Counter(dealt).values())


def test_play_match_gives_the_dummy_to_its_controllers_bot() -> None:
    """T3-1: the bots are per player; the shuffler's bot acts for the dummy."""
    game = new_game("dummy_seat", seed=3)
    assert game.players == 3 and game.seats == 4
    dummy_turns: list[int] = []

    class Checked(GreedyBot):
        def choose(
            self, observation: tc.Observation, actions: tc.LegalActions, seat: int
        ) -> tc.Action:
            assert observation.player == self.player and seat in observation.seats
            if observation.players[seat] is None:
                dummy_turns.append(self.player)
            return super().choose(observation, actions, seat)

        def __init__(self, player: int) -> None:
            super().__init__(player)
            self.player = player

    play_match(game, [Checked(player) for player in range(3)])
    assert game.is_over
    assert dummy_turns


def test_random_bot_declines_calls_unless_told() -> None:
    game = new_game("standard", seed=4)
    seat = game.waiting_for[0]
    view, actions = game.observation(game.controller(seat)), game.legal_actions(seat)
    assert tc.GrandTichu(seat, True) in actions
    assert all(
        RandomBot(n).choose(view, actions, seat) == tc.GrandTichu(seat, False) for n in range(20)
    )
    assert tc.GrandTichu(seat, True) in {
        RandomBot(n, call_rate=1.0).choose(view, actions, seat) for n in range(20)
    }


def test_make_bot_knows_the_bots_by_name() -> None:
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("heuristic", 1), HeuristicBot)
    with pytest.raises(
        ValueError,
        match=(
            "unknown bot 'clever'; known: easy, medium, hard, expert, random, greedy, "
            "heuristic, heuristic-no-oot, search, search-strong"
        ),
    ):
        make_bot("clever")
    with pytest.raises(ValueError, match="did you mean 'greedy'"):
        make_bot("gready")


# --------------------------------------------------------------------------- renderer


def render(events: list[tc.Event], show_private: bool = True) -> str:
    output = io.StringIO()
    transcript = Transcript(
        Console(file=output, width=200, highlight=False),
        ["player 0", "player 1", "player 2", "dummy"],
        show_private=show_private,
    )
    transcript.feed(events)
    transcript.close()
    return output.getvalue()


def every_event() -> list[tc.Event]:
    """One hand of a Threechu-like table with every event type, multi-card pushes and
    the dummy turned face up."""
    return [
        tc.HandStarted(hand=0, dealer=0, players=[0, 1, 2, None], hand_sizes=[8, 8, 8, 8]),
        tc.CardsDealt(hand=0, seat=0, cards=["As", "Kj"], visible_to=[0]),
        tc.GrandTichuDecided(hand=0, seat=1, call=True),
        tc.TichuCalled(hand=0, seat=2),
        tc.PushWithdrawn(hand=0, seat=2),  # S-EX-3 (exchange.change_after_tichu)
        tc.Pushed(hand=0, seat=0, cards=None),
        tc.Pushed(hand=0, seat=0, cards={1: "Ap As 10t"}, visible_to=[0]),
        tc.CardsReceived(hand=0, seat=0, cards={1: "3j", 2: "DR PH"}, visible_to=[0]),
        tc.CardsReceived(hand=0, seat=1, cards={0: "Ap As 10t"}, visible_to=[1]),
        tc.HandShown(hand=0, seat=3, cards=["Qs", "Qj", "2p"], visible_to=[3]),
        tc.ExchangeDone(hand=0, leader=0),
        tc.Played(hand=0, seat=0, cards=["MJ"], combination="single", rank=1.0),
        tc.WishMade(hand=0, seat=0, rank="7"),
        tc.Played(hand=0, seat=1, cards=["7s"], combination="single", rank=7.0),
        tc.WishFulfilled(hand=0, seat=1, rank="7"),
        tc.Passed(hand=0, seat=2),
        tc.TrickWon(hand=0, seat=1, to=1, points=0, cards=["7s", "MJ"]),
        tc.Played(hand=0, seat=1, cards=["DOG"], combination="dog", rank=0.0),
        tc.LeadPassed(hand=0, seat=1, to=3),
        tc.Played(hand=0, seat=3, cards=["DR"], combination="single", rank=25.0),
        tc.SeatOut(hand=0, seat=3, place=1),
        tc.DragonGiven(hand=0, seat=3, to=2),
        tc.TrickWon(hand=0, seat=3, to=2, points=25, cards=["DR"]),
        tc.HandScored(
            hand=0,
            scores=[10, -20, 30, 80],
            totals=[10, -20, 30, 80],
            out_order=[3, 0, 1, 2],
            card_points=[10, 20, 30, 40],
            double_victory=False,
        ),
        tc.AnotherHandDecided(hand=0, seat=3, more=True),  # GS-8 (game.lord_decides)
        tc.MatchOver(hand=8, totals=[10, -20, 30, 80], winners=[3], termination="hands_played"),
    ]


def test_the_renderer_has_words_for_every_event_type() -> None:
    events = every_event()
    assert {type(event) for event in events} == set(EVENT_TYPES)
    text = render(events)
    lines = [
        "seats: 0 player 0 · 1 player 1 · 2 player 2 · 3 dummy",
        "seat 0 was dealt  As Kj",
        "seat 1 calls Grand Tichu",
        "seat 2 calls Tichu",
        "seat 2 takes its pushed cards back",
        "seat 0 pushes  Ap As 10t to 1",  # several cards to one seat (GS-6)
        "seat 0 receives  3j from 1, DR PH from 2",  # cards no push line showed
        "seat 3 (dummy) is face up: Qs Qj 2p",  # T3-4
        "seat 0 leads",
        "0: MJ",
        "0 wishes 7",
        "wish 7 fulfilled",
        "2: pass",
        "-> 1 takes it (0 points)",
        "-> 1 gives the lead to 3",  # the Dog (S-DOG-1, T6-4)
        "3 out 1st",
        "-> 3 gives it to 2 (25 points)",  # the Dragon gift (S-DRAGON-1)
        "result: player 0 10, player 1 -20, player 2 30, dummy 80 (out: 3, 0, 1, 2",
        "the Great Lord (seat 3 (dummy)) wants another hand",
        "Match over after 9 hands: all hands played",
        "totals player 0 10, player 1 -20, player 2 30, dummy 80; won by dummy",
    ]
    for line in lines:
        assert line in text, line
    # What seat 1 received is the push line of seat 0: not shown twice.
    assert "seat 1 receives" not in text
    # The face-up line follows the exchange it comes after.
    assert text.index("seat 0 receives") < text.index("is face up") < text.index("leads")


def test_the_renderer_shows_no_hidden_card_without_show_private() -> None:
    text = render(every_event(), show_private=False)
    assert "was dealt" not in text and "pushes" not in text and "receives" not in text
    assert "seat 3 (dummy) is face up" in text
    for code in ("Kj", "Ap", "10t", "3j", "Qs"):
        assert code not in text


class TitlesGiven(tc.Event):
    """An event type a plugin might add, which the renderer has no words for."""

    type: str = "titles_given"
    titles: dict[int, str]


def test_an_unknown_event_type_still_gets_a_line() -> None:
    text = render([TitlesGiven(hand=0, titles={0: "Great Lord", 4: "Wretch"})])
    assert "titles given: titles {0: 'Great Lord', 4: 'Wretch'}" in text


@pytest.mark.parametrize(
    ("termination", "words"),
    [
        ("target_reached", "target reached"),
        ("hands_played", "all hands played"),
        ("variant_rule", "by a rule of the variant"),
    ],
)
def test_match_over_says_why_the_match_ended(termination: str, words: str) -> None:
    text = render([tc.MatchOver(hand=0, totals=[5, 7, 0, 0], winners=[1], termination=termination)])
    assert f"Match over after 1 hand: {words}" in text


def test_titles_the_seats_hold_are_shown_under_the_heading() -> None:
    """GS-5: titles come from the observation (asked as each hand starts)."""
    output = io.StringIO()
    transcript = Transcript(
        Console(file=output, width=200), titles=lambda: {0: "Great Lord", 2: "Wretch"}
    )
    transcript.feed([tc.HandStarted(hand=1, dealer=0, players=[2, 0, 1], hand_sizes=[18, 18, 19])])
    text = output.getvalue()
    assert "seats: 0 player 2 · 1 player 0 · 2 player 1" in text
    assert "titles: 0 Great Lord · 2 Wretch" in text
