"""Every seat acts when the rules let it: the driver's offers out of turn (S-BOMB-3,
S-BOMB-6, S-CALL-1, E-3) and the bundled bots' answers.

The scenarios stack the deal (``start_play``: the hands after the exchange) and play
seat 1 by script; the other seats are bots asked by the driver
(``tichu_core.frontends.bots.driver``), as ``play_match`` asks them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from scenario import card_set, start_play
from test_random_matches import (
    check_cards_conserved,
    check_hand_result,
    check_outcome,
    check_someone_is_awaited,
)

import tichu_core as tc
from tichu_core import Action, LegalActions, Observation
from tichu_core.frontends.bots import HeuristicBot, RandomBot, make_bot, play_match
from tichu_core.frontends.bots.driver import BOMB, CALL, TURN, Driver, ask_offer, listens_to
from tichu_core.frontends.bots.protocol import decide
from tichu_core.frontends.sim.matches import RunSpec, play_record

# Seat 1 holds the Mah Jong and a straight from it to the Queen: after it, two cards
# (Ks, DOG). Seat 0 holds four Aces; seat 3 (seat 1's partner) a straight flush
# 2-6 of pagodas; seat 2 no bomb.
ACES = "Aj As Ap At 2s 4s 6s 8s 10s Qs 7p 9p Jp 5t"
STRAIGHT_HAND = "MJ 2j 3s 4j 5s 6j 7s 8j 9s 10j Js Qj Ks DOG"
NO_BOMB = "2t 3t 4t 6t 7t 8p 10p 10t Jj Qp Qt Kj Kp PH"
FLUSH = "2p 3p 4p 5p 6p 8t 9t Jt Kt DR 3j 5j 7j 9j"
STRAIGHT = "MJ 2j 3s 4j 5s 6j 7s 8j 9s 10j Js Qj"


class Recorder:
    """A bot that notes every question (kind, seat, answer) and answers as ``inner``."""

    def __init__(self, inner: Any, log: list[tuple[str, int, Action | None]]) -> None:
        self.inner = inner
        self.name = inner.name
        self.log = log

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        answer: Action = self.inner.choose(observation, actions, seat)
        self.log.append((TURN, seat, answer))
        return answer

    def offer(self, observation: Observation, actions: LegalActions, seat: int) -> Action | None:
        answer: Action | None = self.inner.offer(observation, actions, seat)
        self.log.append(("offer", seat, answer))
        return answer


class Bomber:
    """Bombs whenever it may (its first listed bomb), on turn and out of turn; passes
    otherwise; never calls."""

    name = "bomber"

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        bomb = self.offer(observation, actions, seat)
        if bomb is not None:
            return bomb
        return next(a for a in actions if not isinstance(a, tc.Tichu | tc.GrandTichu))

    def offer(self, observation: Observation, actions: LegalActions, seat: int) -> Action | None:
        first = len(actions.fixed)
        for index, combination in enumerate(actions.combinations):
            if combination.is_bomb:
                return actions[first + index]
        return None


def run(game: tc.Game, bots: dict[int, Any], script: list[Action], until: int) -> list[tc.Event]:
    """Drive ``game`` with the driver: seat 1 plays ``script`` in order, the bots the
    other seats, until ``until`` plays (Played events) have happened; those events."""
    driver = Driver(game, listens_to(bots))
    played: list[tc.Event] = []
    script = list(script)
    while len(played) < until:
        chance = driver.next()
        assert chance is not None
        bot = bots.get(game.controller(chance.seat))
        if bot is None:
            assert chance.kind == TURN, chance  # seat 1 has no bomb: never offered
            action = script.pop(0)
        elif chance.optional:
            answer = ask_offer(bot, game, chance)
            if answer is None:
                driver.decline(chance)
                continue
            action = answer
        else:
            action = decide(bot, game, chance.seat)
        played += [e for e in driver.apply(action) if isinstance(e, tc.Played)]
    return played


def test_S_BOMB_3_the_heuristic_bombs_an_opponents_last_cards_out_of_turn() -> None:
    # Seat 1 leads the Mah Jong straight and keeps two cards; before seat 2 (on turn)
    # acts, seat 0 (its opponent) is offered its four Aces and bombs.
    game = start_play([ACES, STRAIGHT_HAND, NO_BOMB, FLUSH])
    log: list[tuple[str, int, Action | None]] = []
    bots = {p: Recorder(HeuristicBot(p), log) for p in (0, 2, 3)}
    script: list[Action] = [tc.Play(1, STRAIGHT), tc.Wish(1, None)]
    straight, bomb = run(game, bots, script, until=2)
    assert (straight.seat, card_set(" ".join(straight.cards))) == (1, card_set(STRAIGHT))
    assert (bomb.seat, bomb.combination, bomb.bomb) == (0, "four_bomb", True)
    # Out of turn: seat 2, whose turn it was, had not been asked anything yet.
    offers = [(kind, seat) for kind, seat, _ in log if kind == "offer"]
    assert offers[-1] == ("offer", 0)
    assert all(seat != 2 for kind, seat, _ in log if kind == TURN)


def test_S_BOMB_3_the_heuristic_lets_its_partners_trick_stand() -> None:
    # Same deal: seat 3 holds a straight flush that beats seat 1's straight, is offered
    # it first (S-BOMB-6: the first seat after the top play, seat 2 being on turn), and
    # lets its partner's trick stand.
    game = start_play([ACES, STRAIGHT_HAND, NO_BOMB, FLUSH])
    log: list[tuple[str, int, Action | None]] = []
    bots = {p: Recorder(HeuristicBot(p), log) for p in (0, 2, 3)}
    run(game, bots, [tc.Play(1, STRAIGHT), tc.Wish(1, None)], until=2)
    offered = [(seat, answer) for kind, seat, answer in log if kind == "offer"]
    # The straight's offers, in order: seat 3 declines, then seat 0 bombs.
    assert offered[-2:][0] == (3, None)
    assert offered[-1][0] == 0 and isinstance(offered[-1][1], tc.Play)


def test_heuristic_no_oot_never_bombs_out_of_turn() -> None:
    # The bot option behind docs/bots.md's figure: same deal, seat 0 lets it stand.
    game = start_play([ACES, STRAIGHT_HAND, NO_BOMB, FLUSH])
    bots = {p: make_bot("heuristic-no-oot", p) for p in (0, 2, 3)}
    driver = Driver(game, listens_to(bots))
    for action in (tc.Play(1, STRAIGHT), tc.Wish(1, None)):
        while (chance := driver.next()) is not None and chance.optional:
            answer = ask_offer(bots[chance.seat], game, chance)
            if answer is None:
                driver.decline(chance)
            else:  # its calls out of turn stay (seat 0's four Aces call Tichu)
                assert isinstance(answer, tc.Tichu)
                driver.apply(answer)
        driver.apply(action)
    asked = []
    while (chance := driver.next()) is not None and chance.optional:
        asked.append((chance.seat, chance.kind))
        assert ask_offer(bots[chance.seat], game, chance) is None
        driver.decline(chance)
    assert asked == [(3, BOMB), (0, BOMB)]
    assert chance == (2, TURN, None)


def test_S_BOMB_6_two_seats_want_to_bomb_the_same_play() -> None:
    # Seats 3 (four Aces) and 0 (a straight flush) both want to bomb seat 1's straight.
    # The first in turn order after the top play goes first (S-BOMB-6): seat 3, seat 2
    # being on turn. Seat 0 is never offered the straight; its bomb still beats the
    # four Aces (E-3: later bombs must beat the first), on its turn after the bomber.
    game = start_play([FLUSH, STRAIGHT_HAND, NO_BOMB, ACES])
    log: list[tuple[str, int, Action | None]] = []
    bots = {p: Recorder(Bomber(), log) for p in (0, 2, 3)}
    straight, four, flush = run(game, bots, [tc.Play(1, STRAIGHT), tc.Wish(1, None)], until=3)
    assert straight.seat == 1
    assert (four.seat, four.combination) == (3, "four_bomb")
    assert (flush.seat, flush.combination) == (0, "straight_flush")
    # Before the first lead, the calls were offered (and declined) in turn order.
    assert log[:3] == [("offer", 2, None), ("offer", 3, None), ("offer", 0, None)]
    assert [(kind, seat) for kind, seat, _ in log[3:]] == [("offer", 3), (TURN, 0)]


def test_S_BOMB_6_the_order_starts_after_the_top_play() -> None:
    # Both seats bomb eagerly; with the straight flush at seat 3 it bombs first, and
    # seat 0's four Aces no longer beat the top: seat 0 is not asked out of turn.
    game = start_play([ACES, STRAIGHT_HAND, NO_BOMB, FLUSH])
    log: list[tuple[str, int, Action | None]] = []
    bots = {p: Recorder(Bomber(), log) for p in (0, 2, 3)}
    _, flush = run(game, bots, [tc.Play(1, STRAIGHT), tc.Wish(1, None)], until=2)
    assert (flush.seat, flush.combination) == (3, "straight_flush")
    assert [(kind, seat) for kind, seat, _ in log[3:]] == [("offer", 3)]  # after the calls
    driver = Driver(game, listens_to(bots))
    assert driver.next() == (0, TURN, None)  # on turn after the bomber (S-BOMB-6)
    assert not [a for a in game.legal_actions(0) if isinstance(a, tc.Play)]


def test_S_CALL_1_a_call_is_offered_once_after_the_exchange_before_the_first_lead() -> None:
    game = start_play([ACES, STRAIGHT_HAND, NO_BOMB, FLUSH])
    driver = Driver(game)
    asked = []
    while (chance := driver.next()) is not None and chance.optional:
        assert chance.actions is not None and tc.Tichu(chance.seat) in chance.actions
        asked.append((chance.seat, chance.kind))
        driver.decline(chance)
    # Seat 1 leads (the Mah Jong): the others are offered the call, in turn order.
    assert asked == [(2, CALL), (3, CALL), (0, CALL)]
    assert chance == (1, TURN, None)
    assert driver.next() == (1, TURN, None)  # asked once: the same turn until it is taken


def test_a_bot_of_the_old_protocol_is_never_asked_out_of_turn() -> None:
    """A bot with ``choose`` only keeps working: it never bombs out of turn."""

    class Old:
        name = "old"

        def __init__(self) -> None:
            self.inner = HeuristicBot(0)

        def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
            return self.inner.choose(observation, actions, seat)

    game = start_play([ACES, STRAIGHT_HAND, NO_BOMB, FLUSH])
    bots = {p: Old() for p in (0, 2, 3)}
    driver = Driver(game, listens_to(bots))
    assert driver.next() == (1, TURN, None)
    driver.apply(tc.Play(1, STRAIGHT))
    driver.apply(tc.Wish(1, None))
    assert driver.next() == (2, TURN, None)


def test_declining_a_turn_is_refused() -> None:
    game = start_play([ACES, STRAIGHT_HAND, NO_BOMB, FLUSH])
    driver = Driver(game, lambda player: False)
    chance = driver.next()
    assert chance == (1, TURN, None)
    with pytest.raises(ValueError, match="on turn"):
        driver.decline(chance)


# --- random matches with actions out of turn, under the invariant checks ----------------


# Six hands a match (a multiple of three: Threechu's shuffler turns, T3-8).
OVERRIDES: dict[str, object] = {"game.target": 0, "game.hands": 6}


@pytest.mark.parametrize("name", tc.list_variants())
def test_random_matches_with_out_of_turn_actions_keep_the_invariants(name: str) -> None:
    taken: Counter[str] = Counter()
    for seed in range(4):
        variant = tc.load_variant(name, overrides=OVERRIDES)
        game = tc.Game(variant, seed=seed)
        deck = game.rulebook.deck()
        # Player 0 the heuristic, the others random bots taking every bomb offered.
        bots: list[Any] = [HeuristicBot(seed)]
        bots += [RandomBot(seed * 100 + p, 0.3, 1.0) for p in range(1, game.players)]
        driver = Driver(game, listens_to(bots))
        for _ in range(20_000):
            check_cards_conserved(game, deck)
            check_someone_is_awaited(game)
            if not variant.teams.dummy:
                # A dummy's score line may lead and not win (threechu): the check's
                # reading of the leaders does not know that (test_random_matches never
                # ends a threechu match).
                check_outcome(game)
            chance = driver.next()
            if chance is None:
                break
            bot = bots[game.controller(chance.seat)]
            if chance.optional:
                answer = ask_offer(bot, game, chance)
                if answer is None:
                    driver.decline(chance)
                    continue
                assert chance.actions is not None and answer in chance.actions
                assert chance.seat != game.turn
                taken[type(answer).__name__] += 1
                action = answer
            else:
                action = decide(bot, game, chance.seat)
            before = len(game.hand_results)
            driver.apply(action)
            for result in game.hand_results[before:]:
                check_hand_result(game, result)
        assert game.is_over
    assert taken["Play"], f"no bomb out of turn in {name}: {dict(taken)}"


def test_play_match_and_the_records_count_out_of_turn_actions() -> None:
    spec = RunSpec(tc.load_variant("standard", overrides={"game.target": 500}), ("random",), 3)
    records = [play_record(spec, index) for index in range(6)]
    assert sum(sum(r["oot_bombs"]) for r in records) > 0
    for record in records:
        assert all(o <= b for o, b in zip(record["oot_bombs"], record["bombs"], strict=True))
    # play_match asks the offers too: a random bot that takes every one bombs out of turn.
    log: list[tuple[str, int, Action | None]] = []
    for seed in range(4):
        game = tc.Game("standard", seed=seed)
        play_match(game, [Recorder(RandomBot(seed * 4 + p, bomb_rate=1.0), log) for p in range(4)])
        assert game.is_over
    assert any(kind == "offer" and isinstance(answer, tc.Play) for kind, _, answer in log)


def test_a_driver_made_mid_hand_offers_the_table_as_it_stands() -> None:
    # The web table makes its driver when the server restarts: the top play is offered
    # (S-BOMB-3), the call round before the first lead is past (S-CALL-1).
    game = start_play([ACES, STRAIGHT_HAND, NO_BOMB, FLUSH])
    game.apply(tc.Play(1, STRAIGHT))
    game.apply(tc.Wish(1, None))
    driver = Driver(game)
    chance = driver.next()
    assert chance is not None and (chance.seat, chance.kind) == (3, BOMB)
    while (chance := driver.next()) is not None and chance.optional:
        driver.decline(chance)
    for seat in (2, 3, 0):
        driver.apply(tc.Pass(seat))
    driver.apply(tc.Pass(1))  # seat 1 collects its trick and leads again
    assert Driver(game).next() == (1, TURN, None)  # nobody offered a call any more


class _ObservingBot:
    """Lets every offer stand; at each question it checks that it was just told its
    player's whole record (the test hands it the game to compare with)."""

    def __init__(self, game: tc.Game, player: int) -> None:
        self.game, self.player = game, player
        self.asked: list[str] = []
        self.seen = -1

    def observe(self, variant: tc.Variant, player: int, events: list[tc.Event]) -> None:
        assert player == self.player
        self.seen = len(events)

    def _told_afresh(self, kind: str) -> None:
        assert self.seen == len(self.game.events_for(self.player)), f"stale record at {kind}"
        self.asked.append(kind)

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        self._told_afresh("choose")
        calls = (tc.Tichu, tc.GrandTichu)
        quiet = [a for a in actions.fixed if not isinstance(a, calls)]
        declined = [a for a in actions.fixed if isinstance(a, tc.GrandTichu) and not a.call]
        return (declined or quiet or [actions[len(actions.fixed)]])[0]

    def offer(self, observation: Observation, actions: LegalActions, seat: int) -> Action | None:
        self._told_afresh("offer")
        return None


def test_a_bot_that_observes_is_told_its_events_before_an_offer_too() -> None:
    """A planning bot (the search bot) is shown its player's events before every
    question, the out-of-turn offers included, so it never plans on a stale record."""
    one_hand = {"game.hands": 1, "game.target": 0}
    game = tc.Game(tc.load_variant("standard", overrides=one_hand), seed=4)
    bots = [_ObservingBot(game, player) for player in range(4)]
    play_match(game, bots)
    assert any("offer" in bot.asked for bot in bots), "some seat was offered a chance"
