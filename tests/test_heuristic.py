"""The heuristic bot (docs/bots.md): its rules hold at every decision of real matches,
its calls follow the strength of the hand, and it beats random bots.

The win-rate figure of the issue (at least 90% of 200 standard matches against random
bots) is a recorded `tichu simulate` run in docs/bots.md, not a test; the test here is
a smaller, deterministic sample (fixed run seed) with a looser bound."""

from __future__ import annotations

from collections import Counter

import pytest

import tichu_core as tc
from tichu_core.frontends.bots.heuristic import (
    HeuristicBot,
    bomb_cards,
    hand_cost,
    strength_of_first_cards,
    value_of,
)
from tichu_core.frontends.bots.protocol import play_match
from tichu_core.frontends.sim.matches import RunSpec, play_record


def test_the_hand_measure_prefers_controls_and_few_combinations() -> None:
    weak = ["2j", "4s", "6p", "8t", "10j", "Qs", "3p"]
    strong = ["DR", "Aj", "As", "Kp", "Kt", "Qj", "Qs"]
    assert hand_cost(strong) < 0 < hand_cost(weak)
    # A straight is one combination, not five singles (S-COMB-1).
    assert hand_cost(["3j", "4s", "5p", "6t", "7j"]) < hand_cost(["3j", "4s", "5p", "6t", "9j"])
    # The Phoenix fills the gap of a straight (S-COMB-4).
    assert hand_cost(["3j", "4s", "PH", "6t", "7j"]) < hand_cost(["3j", "4s", "DOG", "6t", "7j"])


def test_bombs_are_recognised_by_rank_and_by_suit() -> None:
    """S-BOMB-1: four of a kind; five or more of a suit in a row."""
    assert bomb_cards(["5j", "5s", "5p", "5t", "2j"]) == {"5j", "5s", "5p", "5t"}
    flush = ["9j", "10j", "Jj", "Qj", "Kj"]
    assert bomb_cards([*flush, "As", "PH"]) == set(flush)
    assert bomb_cards(["9j", "10j", "Jj", "Qj", "Ks"]) == set()


def stacked(first: list[str], seed: int = 1) -> tc.Game:
    """A standard game whose seat 0 is dealt ``first`` as its Grand Tichu cards."""
    rest = [c for c in (str(card) for card in tc.parse_cards(FULL_DECK)) if c not in first]
    hands = [first + rest[:6]] + [rest[6 + 14 * s : 20 + 14 * s] for s in range(3)]
    return tc.Game(tc.load_variant("standard"), seed=seed, deals=[hands])


FULL_DECK = " ".join(
    [f"{rank}{suit}" for rank in [*"23456789", "10", *"JQKA"] for suit in "jspt"]
    + ["MJ", "DOG", "PH", "DR"]
)


@pytest.mark.parametrize(
    ("first", "calls"),
    [
        (["DR", "PH", "Aj", "As", "Ap", "Kj", "Ks", "Qt"], True),
        (["2j", "3s", "5p", "7t", "9j", "Js", "Qp", "DOG"], False),
    ],
)
def test_grand_tichu_is_called_on_strong_first_cards_only(first: list[str], calls: bool) -> None:
    """S-DEAL-2: the first eight cards decide."""
    game = stacked(first)
    assert (strength_of_first_cards(first) >= HeuristicBot.GRAND_TICHU_STRENGTH) is calls
    view, actions = game.observation(0), game.legal_actions(0)
    assert HeuristicBot(1).choose(view, actions, 0) == tc.GrandTichu(0, calls)


class Checked(HeuristicBot):
    """The heuristic bot, its every decision checked against its rules."""

    seen: Counter[str]

    def choose(self, observation: tc.Observation, actions: tc.LegalActions, seat: int) -> tc.Action:
        action = super().choose(observation, actions, seat)
        assert action in actions
        view = observation
        teams = view.teams
        partners = [s for s, t in enumerate(teams) if t == teams[seat] and s != seat]
        cards = view.hands[seat]
        if view.players[seat] is None:
            self.seen["dummy"] += 1  # T3-1: the shuffler's bot plays the dummy
        if isinstance(action, tc.Tichu | tc.GrandTichu) and getattr(action, "call", True):
            # S-CALL-1: one call per team is enough.
            assert not any(p in view.calls for p in partners)
            self.seen["call"] += 1
        top = view.top_seat
        if top in partners and tc.Pass(seat) in actions.fixed:
            # A partner's trick stands, unless the bot's last cards go out on it.
            self.seen["partner_trick"] += 1
            if isinstance(action, tc.Play):
                assert len(action.cards.split()) == len(cards)
                assert not any(p in view.calls and view.hand_sizes[p] for p in partners)
        if isinstance(action, tc.GiveTrick):
            # S-DRAGON-1: to the opponent furthest from going out.
            options = [a.to for a in actions.fixed if isinstance(a, tc.GiveTrick)]
            assert view.hand_sizes[action.to] == max(view.hand_sizes[o] for o in options)
            self.seen["dragon"] += 1
        if isinstance(action, tc.Wish):
            # S-WISH-1: a rank the bot lacks, when one is offered.
            held = {c[:-1] for c in cards if c not in ("MJ", "DOG", "PH", "DR")}
            offered = [a.rank for a in actions.fixed if isinstance(a, tc.Wish) and a.rank]
            if any(rank not in held for rank in offered):
                assert action.rank is not None and action.rank not in held
            self.seen["wish"] += 1
        if isinstance(action, tc.GiveLead):
            # T6-4: to a partner who called, or the one with the fewest cards.
            self.seen["give_lead"] += 1
            options = [a.to for a in actions.fixed if isinstance(a, tc.GiveLead)]
            if not any(o in view.calls for o in options):
                assert view.hand_sizes[action.to] == min(view.hand_sizes[o] for o in options)
        if isinstance(action, tc.Push) and partners:
            # S-EX-1: partners get the best spare cards, not the Dragon or Phoenix nor a
            # bomb's (unless one called Grand Tichu).
            given = {t: codes.split() for t, codes in action.cards.items()}
            to_partners = [c for p in partners if p in given for c in given[p]]
            spare = [c for c in cards if c not in ("DR", "PH") and c not in bomb_cards(cards)]
            grand = any("grand_tichu" in view.calls.get(p, "") for p in partners)
            if to_partners and len(spare) >= len(to_partners) and not grand:
                best = sorted(map(value_of, spare), reverse=True)[: len(to_partners)]
                assert sorted(map(value_of, to_partners), reverse=True) == best
                self.seen["push_partner"] += 1
        return action


@pytest.mark.parametrize(
    ("variant", "overrides", "expected"),
    [
        ("standard", {"game.target": 1000}, ["call", "partner_trick", "dragon", "push_partner"]),
        ("tientsin", {"game.target": 500}, ["partner_trick", "wish", "give_lead", "push_partner"]),
        ("threechu", {"game.hands": 3}, ["partner_trick", "wish", "dummy"]),
    ],
)
def test_the_heuristic_rules_hold_at_every_decision(
    variant: str, overrides: dict[str, object], expected: list[str]
) -> None:
    """S-TRICK-1 (a partner's trick stands), S-DRAGON-1, S-WISH-1, S-CALL-1, T6-4, S-EX-1,
    T3-1; each rule is met in these matches (the counts), so none passes by absence."""
    seen: Counter[str] = Counter()
    for seed in range(2):
        game = tc.Game(tc.load_variant(variant, overrides=overrides), seed=seed)
        bots = []
        for player in range(game.players):
            bot = Checked(player)
            bot.seen = seen
            bots.append(bot)
        play_match(game, bots)
        assert game.is_over
    for rule in expected:
        assert seen[rule], f"no {rule} decision in {dict(seen)}"


def test_heuristic_bots_beat_random_bots() -> None:
    """At least 70% of 30 standard matches (heuristic at seats 0 and 2): a deterministic
    sample (fixed run seed 2024); docs/bots.md records the 200-match run."""
    spec = RunSpec(tc.load_variant("standard"), ("heuristic", "random"), 2024)
    records = [play_record(spec, index) for index in range(30)]
    won = sum(1 for record in records if record["winners"] == [0])
    assert won >= 21, won
