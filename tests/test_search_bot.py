"""The search bot (docs/bots.md, "The search bot"): it plans on sampled worlds with the
variant's own rules, so it plays every bundled variant; its decisions depend only on
its seed and what its player was shown; and where the right move is clear on a stacked
deal, it finds it."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tichu_core as tc
from tichu_core.frontends.bots import SearchBot, decide, make_bot, play_match, search
from tichu_core.frontends.bots.search import (
    CALL_MARGIN,
    OPPONENT_BOMB_CARDS,
    _default_policy,
    call_pays,
    plain_push,
    sure_gain,
)

TINY = {"iterations": 2, "worlds": 1, "candidates": 2}

# The full deck's codes (S-DECK-1): the stacked small deals below keep a few of them.
SUITS = "jspt"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [rank + suit for rank in RANKS for suit in SUITS] + ["MJ", "DOG", "PH", "DR"]


def small(deal: list[list[str]], **overrides: object) -> tc.Game:
    """A standard game of short hands: the deck cut to the cards of ``deal`` (GS-2's
    ``deck.without``), no exchange and no calls, so that play starts at once."""
    cards = [code for hand in deal for code in hand]
    variant = tc.load_variant(
        "standard",
        overrides={
            "deck.without": [code for code in DECK if code not in cards],
            "deal.hand_size": len(deal[0]),
            "deal.grand_tichu_after": 0,
            "calls.grand_tichu": False,
            "calls.tichu": False,
            "exchange.targets": "none",
            **overrides,
        },
    )
    return tc.Game(variant, deals=[deal])


def short(name: str) -> tc.Variant:
    """One or two hands of a bundled variant (Grand Seigneur with 7 players: the
    election hand, then a hand with the exchange and the give-backs, GS-6)."""
    if name == "grand_seigneur":
        return tc.load_variant(name, {"players": 7, "game.hands": 2})
    if name == "threechu":  # T3-8: every player shuffles as often
        return tc.load_variant(name, {"game.hands": 3})
    return tc.load_variant(name, {"game.hands": 1})


@pytest.mark.parametrize("name", ["standard", "threechu", "tientsin", "grand_seigneur"])
def test_it_plays_a_match_of_every_bundled_variant(name: str) -> None:
    """T3-1 (the dummy), T6-4 (GiveLead), GS-6 (give-backs): every decision of player 0
    is searched or taken as the only one, and each is legal (play_match applies it)."""
    game = tc.Game(short(name), seed=3)
    bot = SearchBot(seed=1, **TINY)  # type: ignore[arg-type]
    bots = [bot if p == 0 else make_bot("heuristic", p) for p in range(game.players)]
    play_match(game, bots)
    assert game.is_over
    assert bot.searched > 0 and bot.rollouts >= bot.searched


def play_hand(seed: int) -> list[tc.Action]:
    game = small(
        [
            ["MJ", "2j", "5s", "9p", "Kt", "Qj"],
            ["3j", "6s", "10p", "Jt", "Qs", "DR"],
            ["4j", "7s", "Jp", "At", "Qp", "PH"],
            ["2s", "8s", "Kp", "Aj", "Qt", "DOG"],
        ]
    )
    bots = [SearchBot(seed + p, iterations=6, worlds=2) for p in range(4)]
    while not game.hand_results:
        seat = game.waiting_for[0]
        game.apply(decide(bots[game.controller(seat)], game, seat))
    assert sum(bot.searched for bot in bots) > 4
    return game.actions


def test_same_seed_same_decisions() -> None:
    """Budgets in iterations: a seed replays the bot's decisions exactly."""
    assert play_hand(7) == play_hand(7)


def test_it_decides_from_what_its_player_may_know() -> None:
    """Two games that player 0 cannot tell apart (the other seats' hands swapped) give
    the same decision for the same seed: the bot reads only its player's record."""
    mine = ["MJ", "2j", "3j", "4j", "9s", "9p", "Kt"]
    others = [
        ["5j", "6j", "7j", "8j", "Jt", "Qt", "At"],
        ["5s", "6s", "7s", "8s", "Js", "Qs", "As"],
        ["5p", "6p", "7p", "8p", "Jp", "Qp", "Ap"],
    ]
    first = small([mine, *others])
    second = small([mine, others[2], others[0], others[1]])
    assert first.events_for(0) == second.events_for(0)
    assert first.observation(0) == second.observation(0)
    bots = [SearchBot(seed=4, iterations=12, worlds=3) for _ in range(2)]
    chosen = [decide(bot, game, 0) for bot, game in zip(bots, (first, second), strict=True)]
    assert chosen[0] == chosen[1]
    assert bots[0].searched == bots[1].searched == 1


def test_it_needs_its_players_events() -> None:
    """A driver that never calls ``observe`` gets a clear error, not a guess."""
    game = small([["MJ", "2j", "3j"], ["5j", "6j", "7j"], ["5s", "6s", "7s"], ["5p", "6p", "7p"]])
    with pytest.raises(ValueError, match="needs its player's events"):
        SearchBot(seed=1).choose(game.observation(0), game.legal_actions(0), 0)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="iterations must be an integer >= 1"):
        SearchBot(iterations=0)
    with pytest.raises(ValueError, match="seconds must be a positive number"):
        SearchBot(seconds=-1)
    with pytest.raises(ValueError, match="candidates must be an integer >= 2"):
        SearchBot(candidates=1)
    with pytest.raises(ValueError, match="rollout must be one of fast, heuristic"):
        SearchBot(rollout="smart")


def test_heuristic_rollouts_play_a_hand() -> None:
    """The other rollout policy: the heuristic bot plays the rollouts out."""
    game = tc.Game(short("standard"), seed=4)
    bot = SearchBot(seed=1, rollout="heuristic", **TINY)  # type: ignore[arg-type]
    play_match(game, [bot, *(make_bot("heuristic", p) for p in range(1, 4))])
    assert game.is_over and bot.rollouts > 0


def test_it_goes_out_rather_than_pass() -> None:
    """S-TRICK-1: seat 0 leads the Mah Jong (no wish), the opponent at seat 1 takes it
    with a King, partner and seat 3 pass; seat 0 holds one Ace and goes out with it."""
    game = small([["MJ", "Aj"], ["Kj", "2s"], ["3j", "4s"], ["5j", "6s"]])
    game.apply(tc.Play(0, "MJ"))
    game.apply(tc.Wish(0, None))
    game.apply(tc.Play(1, "Kj"))
    game.apply(tc.Pass(2))
    game.apply(tc.Pass(3))
    assert game.waiting_for == [0] and len(game.legal_actions(0)) == 2
    bot = SearchBot(seed=2, iterations=16)
    assert decide(bot, game, 0) == tc.Play(0, "Aj")
    assert bot.searched == 1


def test_it_leads_its_whole_hand_as_one_straight() -> None:
    """S-COMB-1: a hand that is one straight (Mah Jong to 5) goes out at once."""
    game = small(
        [
            ["MJ", "2j", "3j", "4j", "5s"],
            ["6j", "7s", "8p", "Jt", "Qj"],
            ["9j", "9s", "10p", "Kt", "Kj"],
            ["6s", "7p", "8t", "Jj", "As"],
        ]
    )
    bot = SearchBot(seed=3, iterations=24)
    action = decide(bot, game, 0)
    assert isinstance(action, tc.Play)
    assert sorted(action.cards.split()) == sorted(["MJ", "2j", "3j", "4j", "5s"])


def test_dragon_trick_goes_to_the_opponent_not_about_to_go_out() -> None:
    """S-DRAGON-2, S-END-2: seat 0 wins the trick with the Dragon and goes out; seat 1
    holds one card (it goes out next and would keep the 25 points), seat 3 two (likely
    last: its tricks go to seat 0, first out). The gift goes to seat 3."""
    game = small([["MJ", "DR"], ["2j", "Aj"], ["3j", "4s"], ["7j", "8j"]])
    game.apply(tc.Play(0, "MJ"))
    game.apply(tc.Wish(0, None))
    game.apply(tc.Play(1, "2j"))
    game.apply(tc.Pass(2))
    game.apply(tc.Pass(3))
    game.apply(tc.Play(0, "DR"))
    game.apply(tc.Pass(1))
    game.apply(tc.Pass(2))
    game.apply(tc.Pass(3))
    listed = list(game.legal_actions(0))
    assert set(listed) == {tc.GiveTrick(0, 1), tc.GiveTrick(0, 3)}
    assert decide(SearchBot(seed=5, iterations=24), game, 0) == tc.GiveTrick(0, 3)


def mah_jong_led_to_four_nines() -> tc.Game:
    """Seat 0 has led the Mah Jong (no wish) and keeps three cards; seat 1 is to play;
    seat 3, an opponent of seat 0, holds four nines, its whole hand."""
    game = small(
        [
            ["MJ", "2j", "3j", "4j"],
            ["5j", "6j", "7j", "8j"],
            ["Kj", "Ks", "Kp", "Kt"],
            ["9j", "9s", "9p", "9t"],
        ]
    )
    game.apply(tc.Play(0, "MJ"))
    game.apply(tc.Wish(0, None))
    return game


def test_out_of_turn_offer_is_a_listed_bomb_or_none() -> None:
    """S-BOMB-1: seat 0 leads the Mah Jong; seat 3, whose four nines are its whole hand,
    is offered the bomb out of turn (seat 1 is to play): the search compares letting
    the trick stand with the bomb and answers with one of them (searched here: seat 0
    holds three cards, within ``opponent_bomb_cards=3``)."""
    game = mah_jong_led_to_four_nines()
    assert game.waiting_for == [1] and 3 in game.to_act
    actions = game.legal_actions(3)
    bomb = tc.Play(3, "9j 9s 9p 9t")
    assert bomb in actions
    bot = SearchBot(seed=6, iterations=12, opponent_bomb_cards=3)
    bot.observe(game.variant, 3, game.events_for(3))
    answer = bot.offer(game.observation(3), actions, 3)
    assert answer is None or answer in actions
    assert bot.searched == 1
    # Nothing to bomb with: None at once, nothing searched.
    bot.observe(game.variant, 1, game.events_for(1))
    assert bot.offer(game.observation(1), game.legal_actions(1), 1) is None
    assert bot.searched == 1


def test_a_bomb_out_of_turn_on_an_opponent_waits_until_it_is_about_to_go_out() -> None:
    """S-BOMB-1: seat 0 leads the Mah Jong and keeps three cards; seat 3 (its opponent)
    is offered its four nines out of turn. By default (``OPPONENT_BOMB_CARDS``, 2) the
    bot lets the trick stand without searching: at a table its earlier bombs lost
    points (docs/bots.md, "Bombs"). From a limit of three cards, or with none, the bomb
    is searched."""
    game = mah_jong_led_to_four_nines()
    view = game.observation(3)
    assert view.top_seat == 0 and view.hand_sizes[0] == 3 and OPPONENT_BOMB_CARDS == 2
    actions = game.legal_actions(3)
    assert tc.Play(3, "9j 9s 9p 9t") in actions
    for limit, searched in ((OPPONENT_BOMB_CARDS, 0), (3, 1), (None, 1)):
        bot = SearchBot(seed=6, iterations=12, opponent_bomb_cards=limit)
        bot.observe(game.variant, 3, game.events_for(3))
        answer = bot.offer(view, actions, 3)
        assert bot.searched == searched, limit
        assert answer is None if not searched else answer is None or answer in actions
    for wrong in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="opponent_bomb_cards"):
            SearchBot(opponent_bomb_cards=wrong)  # type: ignore[arg-type]


def test_no_bomb_on_its_own_or_its_partners_trick_unless_asked_to() -> None:
    """S-BOMB-5 (`bombs.own_trick`): seat 3 leads the Mah Jong and holds four nines.
    Offered the bomb on its own trick it lets the trick stand without searching
    (docs/bots.md: played out at a table such bombs lose points); with
    ``own_trick_bombs=True`` the bomb is searched like any other."""
    game = small(
        [
            ["5j", "6j", "7j", "8j", "10j"],
            ["Kj", "Ks", "Kp", "Kt", "Jj"],
            ["Aj", "As", "Ap", "At", "Js"],
            ["MJ", "9j", "9s", "9p", "9t"],
        ]
    )
    game.apply(tc.Play(3, "MJ"))
    game.apply(tc.Wish(3, None))
    assert game.waiting_for == [0]
    actions = game.legal_actions(3)
    assert tc.Play(3, "9j 9s 9p 9t") in actions and game.observation(3).top_seat == 3
    for own_trick_bombs, searched in ((False, 0), (True, 1)):
        bot = SearchBot(seed=6, iterations=12, own_trick_bombs=own_trick_bombs)
        bot.observe(game.variant, 3, game.events_for(3))
        answer = bot.offer(game.observation(3), actions, 3)
        assert bot.searched == searched
        assert answer is None if not own_trick_bombs else answer is None or answer in actions
    # Seat 1, the partner, holds four kings: no bomb on its partner's trick either,
    # unless asked to.
    actions = game.legal_actions(1)
    assert tc.Play(1, "Kj Ks Kp Kt") in actions
    for partner_bombs, searched in ((False, 0), (True, 1)):
        bot = SearchBot(seed=6, iterations=12, partner_bombs=partner_bombs)
        bot.observe(game.variant, 1, game.events_for(1))
        answer = bot.offer(game.observation(1), actions, 1)
        assert bot.searched == searched
        assert answer is None if not partner_bombs else answer is None or answer in actions
    # Everyone passes: seat 3 may collect its trick (the pass) or bomb it on its turn.
    for seat in (0, 1, 2):
        game.apply(tc.Pass(seat))
    assert game.waiting_for == [3] and game.observation(3).top_seat == 3
    actions = game.legal_actions(3)
    assert list(actions) == [tc.Pass(3), tc.Play(3, "9t 9p 9s 9j")]
    bot = SearchBot(seed=6, iterations=12)
    assert decide(bot, game, 3) == tc.Pass(3) and bot.searched == 0
    bot = SearchBot(seed=6, iterations=12, own_trick_bombs=True)
    assert decide(bot, game, 3) in actions and bot.searched == 1


def test_on_its_turn_too_no_bomb_on_its_partner_nor_on_an_opponent_far_from_out() -> None:
    """S-BOMB-1: seat 1 leads the Ace of Jade and keeps four cards. Seat 2, its
    opponent, may beat it on its turn only with four nines: by default
    (``OPPONENT_BOMB_CARDS``, 2) it passes without a search, where the bot that searches
    every bomb (None) throws them; played out at a table such bombs lost points
    (docs/bots.md, "Bombs"). Seat 3, the leader's partner, passes over its partner's
    trick without searching its four kings, unless ``partner_bombs``."""
    game = small(
        [
            ["Qj", "Qs", "Jp", "Jt", "2s"],
            ["Aj", "2j", "3j", "4j", "5s"],
            ["9j", "9s", "9p", "9t", "6j"],
            ["Kj", "Ks", "Kp", "Kt", "10s"],
        ]
    )
    game.apply(tc.Play(1, "Aj"))
    bomb = tc.Play(2, "9j 9s 9p 9t")
    assert game.waiting_for == [2] and list(game.legal_actions(2)) == [tc.Pass(2), bomb]
    for limit, answer, searched in ((OPPONENT_BOMB_CARDS, tc.Pass(2), 0), (None, bomb, 1)):
        bot = SearchBot(seed=3, iterations=24, opponent_bomb_cards=limit)
        assert decide(bot, game, 2) == answer and bot.searched == searched, limit
    game.apply(tc.Pass(2))
    assert tc.Play(3, "Kj Ks Kp Kt") in game.legal_actions(3)
    for partner_bombs, searched in ((False, 0), (True, 1)):
        bot = SearchBot(seed=3, iterations=24, partner_bombs=partner_bombs)
        assert decide(bot, game, 3) == tc.Pass(3) and bot.searched == searched


def test_a_call_is_worth_what_the_rules_make_it() -> None:
    """S-CALL-1, S-SCORE-3 with the option `calls.tichu_points`: seat 2 leads with the
    Dragon, the Mah Jong and two pairs in a six-card deal, a fair but not a sure chance
    of going out first. The search estimates that chance on the same worlds and rollouts
    whatever a Tichu is worth; where a Tichu scores 300 the chance pays for the call,
    where it scores 25 it does not (the call must gain CALL_MARGIN points in the
    rollouts), and the bot plays on without calling."""
    deal = [
        ["7p", "8j", "8s", "Ks", "Qj", "Qt"],
        ["10j", "10p", "10s", "2p", "4p", "Kp"],
        ["3p", "3s", "6j", "6s", "DR", "MJ"],
        ["4j", "5t", "8t", "9j", "Ap", "Jp"],
    ]
    called = {}
    per_point = {}
    for points in (25, 300):
        game = small(deal, **{"calls.tichu": True, "calls.tichu_points": points})
        assert game.waiting_for == [2] and tc.Tichu(2) in game.legal_actions(2)
        bot = SearchBot(seed=3, iterations=96, worlds=6)
        called[points] = decide(bot, game, 2) == tc.Tichu(2)
        # One call weighed, on 96 paired runs: the caller's chance, in points.
        assert len(bot.call_gains) == 1 and bot.rollouts >= 2 * 96
        per_point[points] = bot.call_gains[0] / points
    assert called == {25: False, 300: True}
    assert per_point[25] == pytest.approx(per_point[300])
    assert 25 * per_point[25] < CALL_MARGIN < 300 * per_point[300]


def test_the_call_margin_is_an_option_and_none_never_calls() -> None:
    """S-CALL-1: the 300-point Tichu above, weighed by bots of other margins. A margin
    of None weighs the call on the same rollouts (the same gain) and never makes it: it
    plays instead; a margin above the gain plays the same."""
    deal = [
        ["7p", "8j", "8s", "Ks", "Qj", "Qt"],
        ["10j", "10p", "10s", "2p", "4p", "Kp"],
        ["3p", "3s", "6j", "6s", "DR", "MJ"],
        ["4j", "5t", "8t", "9j", "Ap", "Jp"],
    ]
    game = small(deal, **{"calls.tichu": True, "calls.tichu_points": 300})
    default = SearchBot(seed=3, iterations=96, worlds=6)
    assert decide(default, game, 2) == tc.Tichu(2)
    never = SearchBot(seed=3, iterations=96, worlds=6, call_margin=None)
    answer = decide(never, game, 2)
    assert answer != tc.Tichu(2) and answer in game.legal_actions(2)
    assert never.call_gains == default.call_gains  # the same weighing
    high = SearchBot(seed=3, iterations=96, worlds=6, call_margin=default.call_gains[0] + 1)
    assert decide(high, game, 2) == answer
    assert not call_pays([500.0, 400.0], None)
    with pytest.raises(ValueError, match="call_margin"):
        SearchBot(call_margin="high")  # type: ignore[arg-type]


@pytest.fixture
def rollouts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tc.Game, search.Candidate]]:
    """Every rollout the search bots play in the test, as (world, candidate)."""
    played: list[tuple[tc.Game, search.Candidate]] = []
    rollout = search._Judge.rollout

    def recorded(
        judge: search._Judge, world: tc.Game, candidate: search.Candidate, seed: int
    ) -> float:
        played.append((world, candidate))
        return rollout(judge, world, candidate, seed)

    monkeypatch.setattr(search._Judge, "rollout", recorded)
    return played


def test_weighing_a_call_leaves_the_plays_their_whole_budget(
    rollouts: list[tuple[tc.Game, search.Candidate]],
) -> None:
    """S-CALL-1: at a seat's first play, where a Tichu is weighed, the plays are searched
    on as many play-out steps as at any other decision: the call's runs are counted
    apart (they cut the plays' search by a fifth to a third when they were not)."""
    deal = [
        ["7p", "8j", "8s", "Ks", "Qj", "Qt"],
        ["10j", "10p", "10s", "2p", "4p", "Kp"],
        ["3p", "3s", "6j", "6s", "DR", "MJ"],
        ["4j", "5t", "8t", "9j", "Ap", "Jp"],
    ]
    game = small(deal, **{"calls.tichu": True})

    class Uncalled(SearchBot):  # the same search with no call to weigh
        def _candidates(self, *args: Any) -> Any:
            return super()._candidates(*args)[0], None

    challengers = {}
    for bot in (SearchBot(seed=3, steps=2000), Uncalled(seed=3, steps=2000)):
        rollouts.clear()
        decide(bot, game, 2)
        weighed = bool(bot.call_gains)
        plays = [c for _, c in rollouts if not isinstance(c[0], tc.Tichu)]
        default = max(set(plays), key=plays.count)  # it runs in every iteration
        challengers[weighed] = sum(1 for c in plays if c != default)
    # The steps bound the search (below 96 rollouts, its bound in rollouts).
    assert 0 < challengers[True] == challengers[False] < 96


def test_a_grand_tichu_is_weighed_in_worlds_of_its_own_too(
    rollouts: list[tuple[tc.Game, search.Candidate]],
) -> None:
    """S-DEAL-2: at a Grand Tichu decision, where not calling is the only other choice,
    the steps still end the call's runs on the decision's few worlds, and its other
    paired runs are each in a world of its own: six of the caller's cards are unseen,
    and the call is decided by the deal more than by the play-out."""
    game = tc.Game("standard", seed=11)
    seat = game.waiting_for[0]
    assert tc.GrandTichu(seat, call=True) in game.legal_actions(seat)
    bot = SearchBot(seed=3, worlds=6)
    decide(bot, game, seat)
    assert len(bot.call_gains) == 1
    worlds = {id(world) for world, _ in rollouts}
    # 96 paired runs: the call's steps end the first ones on the six worlds at about
    # 8,000 steps (some 40 pairs), the rest are in worlds of their own.
    assert len(worlds) > 6 + 96 // 2


def test_a_call_is_made_from_the_margin_on() -> None:
    """A call's gain in a run is plus or minus its stake; at a chance p of going out
    first its mean is stake * (2p - 1). A call is made (Grand Tichu and Tichu alike)
    once that mean exceeds CALL_MARGIN: from a lower chance the bigger the stake."""

    def runs(chance: float, stake: float, count: int = 100) -> list[float]:
        made = round(chance * count)
        return [stake] * made + [-stake] * (count - made)

    for stake in (100.0, 200.0, 400.0):
        edge = 0.5 + CALL_MARGIN / (2 * stake)  # where a call's mean gain is the margin
        assert call_pays(runs(edge + 0.02, stake))
        assert not call_pays(runs(edge - 0.02, stake))


def at_the_exchange(grand_caller: int | None = None) -> tc.Game:
    """A standard deal at its exchange, seat 0 holding the Dragon, the Phoenix, an Ace
    and four 2s; ``grand_caller`` called Grand Tichu."""
    seat0 = "DR PH Ap Kj 2j 2s 2p 2t 3j 5s 7p 9j Qs DOG"
    taken = set(seat0.split())
    # The rest of one deck (bit i is card i; the second copies are left out).
    rest = [tc.Card(i).code for i in range(112) if tc.Card(i).copy == 0]
    rest = [code for code in rest if code not in taken]
    deal = [seat0.split(), rest[0:14], rest[14:28], rest[28:42]]
    game = tc.Game("standard", deals=[deal])
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, call=seat == grand_caller))
    return game


def test_its_rollouts_push_as_players_do() -> None:
    """S-EX-1: in its rollouts every seat pushes as most players do: the partner gets the
    highest card short of the Dragon and the Phoenix, the opponents the lowest (the Dog
    first), and no card of a four of a kind while others are left."""
    game = at_the_exchange()
    actions = game.legal_actions(0)
    assert actions.push_targets == {1: 1, 2: 1, 3: 1}
    push = plain_push(actions, 0, [0, 1, 0, 1])
    assert push == tc.Push(0, {1: "DOG", 2: "Ap", 3: "3j"})
    assert push in actions
    # Whoever pushes, the next seat gets the lowest card: no seat is given everyone's
    # lowest (by seat number, seats 0 and 1 got both opponents' lowest and went out
    # first in 39% of the rollouts of random deals against 61% for seats 2 and 3).
    for seat in range(4):
        listing = game.legal_actions(seat)
        given = dict(plain_push(listing, seat, [0, 1, 0, 1]).cards)  # type: ignore[union-attr]
        left, right = (seat + 1) % 4, (seat + 3) % 4
        assert tc.parse_cards(given[left])[0].rank <= tc.parse_cards(given[right])[0].rank


def test_its_rollouts_give_a_grand_tichu_caller_the_dragon() -> None:
    """S-EX-1, S-CALL-1: a partner who called Grand Tichu gets the highest card, the
    Dragon too, in the rollouts as from the bots at the table (the heuristic's push):
    a rollout that kept it from the caller judged the call on less help than it gets."""
    game = at_the_exchange(grand_caller=2)  # seat 0's partner calls
    actions = game.legal_actions(0)
    assert plain_push(actions, 0, [0, 1, 0, 1], grand=[2]) == tc.Push(
        0, {1: "DOG", 2: "DR", 3: "3j"}
    )
    # The rollouts' player reads the call from the game itself.
    rng = random.Random(0)
    pushed = _default_policy(actions, 0, None, [0, 1, 0, 1], rng, game)
    assert pushed == tc.Push(0, {1: "DOG", 2: "DR", 3: "3j"})
    # An opponent's call changes nothing: seat 2 still gets the Ace.
    assert plain_push(actions, 0, [0, 1, 0, 1], grand=[1]) == tc.Push(
        0, {1: "DOG", 2: "Ap", 3: "3j"}
    )


@pytest.mark.parametrize(
    ("differences", "margin", "sure"),
    [
        ([4.0, -4.0, 4.0, -4.0, 4.0], 0.0, False),  # a mean gain well inside its noise
        ([6.0, 5.0, 7.0, 6.0], 0.0, True),  # small but steady
        ([6.0, 5.0, 7.0, 6.0], 10.0, False),  # a call must gain its margin too
        ([16.0, 15.0, 17.0, 16.0], 10.0, True),
        ([-1.0], 0.0, False),
        ([1.0], 0.0, True),  # one run: its sign
    ],
)
def test_a_challenger_replaces_the_default_only_when_sure(
    differences: list[float], margin: float, sure: bool
) -> None:
    assert sure_gain(differences, margin) is sure


def test_registered_by_name() -> None:
    assert isinstance(make_bot("search", 1), SearchBot)
    strong = make_bot("search-strong", 1)
    assert isinstance(strong, SearchBot) and strong.iterations > SearchBot().iterations


def test_the_command_line_finds_it() -> None:
    """`tichu simulate --bots search,...` and `tichu play --bot search` take its name."""
    from tichu_core.frontends.cli.commands import build_parser

    parser = build_parser()
    assert parser.parse_args(["simulate", "--bots", "search,heuristic"]).bots == [
        "search",
        "heuristic",
    ]
    assert parser.parse_args(["play", "--bot", "search-strong"]).bot == "search-strong"
