"""The two simple bundled bots: ``RandomBot`` picks uniformly among the legal actions
(declining calls unless told otherwise; out of turn it bombs with a small chance,
``bomb_rate``); ``GreedyBot`` sheds its weakest cards and lets
its partner's tricks stand. Both follow the bot protocol
(:mod:`tichu_core.frontends.bots.protocol`) and work in every variant the engine plays:
they take plays and decisions from the listed actions, and check a push of their own
making with ``in`` before giving it.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter

import tichu_core as tc
from tichu_core import Action, LegalActions, Observation
from tichu_core.frontends.bots.heuristic import another_hand

__all__ = ["GreedyBot", "RandomBot"]


def _is_call(action: Action) -> bool:
    return isinstance(action, tc.Tichu) or (isinstance(action, tc.GrandTichu) and action.call)


class RandomBot:
    """Uniform among legal actions; calls (Tichu, Grand Tichu) with ``call_rate``.
    Offered a chance out of turn (the bot protocol's ``offer``), it takes one of the
    bombs offered, uniformly, with probability ``bomb_rate`` (default 0.1: a random
    player that bombed every offer would bomb nearly every trick), and a call with
    ``call_rate``, as on turn."""

    name = "random"
    BOMB_RATE = 0.1

    def __init__(
        self, seed: int | None = None, call_rate: float = 0.0, bomb_rate: float = BOMB_RATE
    ) -> None:
        self.rng = random.Random(seed)
        self.call_rate = call_rate
        self.bomb_rate = bomb_rate

    def offer(self, observation: Observation, actions: LegalActions, seat: int) -> Action | None:
        fixed = len(actions.fixed)
        bombs = len(actions) - fixed
        rng = self.rng
        if bombs and rng.random() < self.bomb_rate:
            return actions[fixed + rng.randrange(bombs)]
        call = next((a for a in actions.fixed if _is_call(a)), None)
        if call is not None and self.call_rate and rng.random() < self.call_rate:
            return call
        return None

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        count = len(actions)
        if not count:
            raise ValueError(f"seat {seat} has no legal action")
        calls = sum(1 for action in actions.fixed if _is_call(action))
        rng = self.rng
        while True:
            action = actions[rng.randrange(count)]
            # A call drawn is made with `call_rate`, else drawn again (if anything else
            # is listed): uniform among the other actions when calls are declined.
            if not _is_call(action) or calls == count or rng.random() < self.call_rate:
                return action


# Values of the cards to a hand that keeps them: the Dog is the first to give away,
# the Mah Jong next, then the ranks, the Phoenix and the Dragon last.
_SPECIAL_VALUES = {"DOG": 0.0, "MJ": 1.0, "PH": 15.0, "DR": 16.0}
_RANK_VALUES = {
    name: float(value)
    for value, name in enumerate(
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"], start=2
    )
}


def _value(code: str) -> float:
    special = _SPECIAL_VALUES.get(code)
    return special if special is not None else _RANK_VALUES[code[:-1]]


def _rank(code: str) -> str | None:
    return None if code in _SPECIAL_VALUES else code[:-1]


class GreedyBot:
    """Leads its lowest combination using the most cards, beats with the least it can,
    never beats its partner, bombs only to stop an opponent going out, calls (Grand)
    Tichu on a strong hand, pushes its worst cards to opponents and a good one to a
    partner, gives the Dragon trick to the opponent furthest from going out and the
    lead to the partner closest to it. It reads only its observation and legal actions."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        if not len(actions):
            raise ValueError(f"seat {seat} has no legal action")
        view = observation
        cards = view.hands.get(seat, [])
        fixed = actions.fixed
        strong = _strength(cards) >= (5 if len(cards) <= 8 else 6)
        for action in fixed:
            if _is_call(action) and strong:
                return action
        decision = self._decide(view, seat, fixed, cards)
        if decision is not None:
            return decision
        plays = actions.combinations
        if len(actions) > len(fixed) + len(plays):
            return self._push(actions, view, seat, cards)
        others = [a for a in fixed if not _is_call(a)]
        if not plays:
            options = [a for a in others if not isinstance(a, tc.Pass)] or others or fixed
            return options[self.rng.randrange(len(options))]
        passing = [a for a in others if isinstance(a, tc.Pass)]
        top_seat = view.top_seat
        partners = _partners(view, seat)
        # Let a partner's trick stand, and collect one's own trick rather than bomb it.
        if passing and (top_seat in partners or top_seat == seat):
            return passing[0]
        normal = [i for i, c in enumerate(plays) if not c.is_bomb]
        if not view.trick:
            # Shed many low cards at once; keep high cards for taking tricks later.
            lead = normal or list(range(len(plays)))
            best = min(lead, key=lambda i: (plays[i].rank > 10, -plays[i].length, plays[i].rank))
        elif normal:
            best = min(normal, key=lambda i: (plays[i].rank, plays[i].length))
        else:
            danger = top_seat is not None and view.hand_sizes[top_seat] <= 2
            if passing and not danger:
                return passing[0]
            best = min(
                range(len(plays)), key=lambda i: (plays[i].kind, plays[i].length, plays[i].rank)
            )
        # The plays follow the fixed actions in the listing: this is the listed Play.
        return actions[len(fixed) + best]

    def _decide(
        self, view: Observation, seat: int, fixed: list[Action], cards: list[str]
    ) -> Action | None:
        """The decision a play left pending for ``seat`` (wish, Dragon trick, lead), if any."""
        wishes = [a for a in fixed if isinstance(a, tc.Wish)]
        if wishes:
            # Wish for the highest rank the seat lacks: someone else must give it up.
            held = {_rank(code) for code in cards}
            lacking = [w for w in wishes if w.rank is not None and w.rank not in held]
            if lacking:
                return max(lacking, key=lambda w: _RANK_VALUES[w.rank or "2"])
            return next((w for w in wishes if w.rank is None), wishes[0])
        gifts = [a for a in fixed if isinstance(a, tc.GiveTrick)]
        if gifts:
            return max(gifts, key=lambda g: view.hand_sizes[g.to])
        leads = [a for a in fixed if isinstance(a, tc.GiveLead)]
        if leads:
            called = [g for g in leads if g.to in view.calls]
            return min(called or leads, key=lambda g: view.hand_sizes[g.to])
        lordly = [a for a in fixed if isinstance(a, tc.AnotherHand)]
        if lordly:
            # GS-8: the Great Lord stops while its own line is ahead, else plays on.
            return another_hand(view, lordly)
        return None

    def _push(
        self, actions: LegalActions, view: Observation, seat: int, cards: list[str]
    ) -> Action:
        """Worst cards to opponents, a good card (not the Dragon or Phoenix) to a partner;
        a listed push at random where that one is not allowed (cards the rules give)."""
        targets = view.push_targets.get(seat, {})
        partners = _partners(view, seat)
        counts = Counter(_rank(code) for code in cards)
        # Cards of a four of a kind are kept (a bomb), unless nothing else is left.
        left = sorted(cards, key=lambda c: (counts[_rank(c)] >= 4, _value(c)))
        given: dict[int, str] = {}
        for target in sorted(targets, key=lambda t: t not in partners):
            wanted = targets[target]
            if target in partners:
                keep = [c for c in left if c not in ("DR", "PH")] or left
                chosen = keep[::-1][:wanted]
            else:
                chosen = left[:wanted]
            for code in chosen:
                left.remove(code)
            given[target] = " ".join(chosen)
        # Too few cards of one's own to choose from (two decks, or cards the rules give):
        # the push is malformed and falls through to a listed one.
        with contextlib.suppress(tc.TichuError):
            push = tc.Push(seat, given)
            if push in actions:
                return push
        first = len(actions.fixed) + len(actions.combinations)
        return actions[first + self.rng.randrange(len(actions) - first)]


def _partners(view: Observation, seat: int) -> list[int]:
    return [s for s, team in enumerate(view.teams) if team == view.teams[seat] and s != seat]


def _strength(cards: list[str]) -> int:
    """A rough count of trick-takers: Dragon and Phoenix 2, each Ace 1, a four of a kind 3."""
    ranks = Counter(_rank(code) for code in cards if _rank(code) is not None)
    fours = sum(1 for count in ranks.values() if count >= 4)
    return 2 * ("DR" in cards) + 2 * ("PH" in cards) + ranks["A"] + 3 * fours
