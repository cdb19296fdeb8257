"""The heuristic bot: a sensible player built on one measure of a hand.

The measure (:func:`hand_cost`) splits a hand into combinations the way a player
plans to get rid of it and adds, per combination, ``1 - 2 * s`` where ``s`` is a
rough chance that it takes a trick: a low single costs 1 (a loser: someone else
must give the lead back to play it), the Dragon or a bomb earns 1 or more (a
control: it takes the lead back). A hand that costs little goes out soon.

Every decision compares hands by that cost:

- Leading: the play that leaves the cheapest hand, i.e. its weakest combination,
  the longest first; no single when an opponent is down to one card; the Dog to a
  partner who called or holds fewer cards.
- Following an opponent: the combination that beats the trick at the least cost;
  a strong card only when the lead is worth it (points on the trick, an opponent
  close to going out, its own Tichu). Bombs are kept for when they matter: an
  opponent about to go out, an opponent's Tichu, or its own way out.
- Following a partner: it passes (never overtakes), unless its last cards go out
  and no partner's Tichu is spoiled by that.
- Out of turn (the protocol's ``offer``): it bombs an opponent's play when that
  matters: at once when the opponent who played it is down to one or two cards, or
  when the bomb is its own last cards; when no partner is on turn (a partner acts
  first, and may beat the play itself), also on an opponent's Tichu on top, a trick
  of 25 points or more, or its own way out (a rest that costs -1 or less); the bomb
  that leaves the cheapest hand. Never over a partner's play (or its own). It calls
  Tichu out of turn as on turn (``bombs_out_of_turn=False``, the bot
  ``heuristic-no-oot``, still calls but never bombs out of turn).
- Calls: Grand Tichu on very strong first cards, Tichu on a cheap hand, never when a
  partner has called.
- Exchange: its cheapest cards to opponents (two of the same rank only when it
  must), its best spare card (not the Dragon, Phoenix or a bomb's card) to a partner,
  the very best to a partner who called Grand Tichu.
- Wish: the rank of a card it pushed to an opponent (it knows who holds it), else
  the highest rank it lacks. Wishes it must fulfil are fulfilled at the least cost.
- The Dragon trick goes to the opponent furthest from going out (not a caller).

It reads only its observation and the legal actions (the bot protocol).
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections import Counter
from collections.abc import Iterable

import tichu_core as tc
from tichu_core import Action, Combination, LegalActions, Observation

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
RANK_VALUE = {name: value for value, name in enumerate(RANKS, start=2)}
SPECIALS = ("MJ", "DOG", "PH", "DR")
POINTS = {"5": 5, "10": 10, "K": 10}
SPECIAL_POINTS = {"DR": 25, "PH": -25}
ACE = 14
# The Phoenix and the Dragon as singles, and a bomb: their share of the hand's cost.
DRAGON_COST = -1.0
PHOENIX_SINGLE_COST = -0.5
BOMB_COST = -1.5
DOG_COST = 0.3


def value_of(code: str) -> int:
    """The rank value of a card: 2..14 for A, 1 for the Mah Jong, 0 for the Dog, 15 for
    the Phoenix and 16 for the Dragon (an order of how much a hand wants to keep it)."""
    if code == "MJ":
        return 1
    if code == "DOG":
        return 0
    if code == "PH":
        return 15
    if code == "DR":
        return 16
    return RANK_VALUE[code[:-1]]


def card_points(codes: Iterable[str]) -> int:
    return sum(
        POINTS.get(c[:-1], 0) if c not in SPECIALS else SPECIAL_POINTS.get(c, 0) for c in codes
    )


# --------------------------------------------------------------------------- the measure


def _clamp(value: float) -> float:
    return 0.0 if value < 0 else 1.0 if value > 1 else value


def _single(value: int) -> float:
    return 1 - 2 * _clamp((value - 9) / 6)


def _pair(value: int) -> float:
    return 1 - 2 * _clamp((value - 8) / 7)


def _triple(value: int) -> float:
    return 1 - 2 * _clamp((value - 5) / 8)


def _steps(top: int, pairs: int) -> float:
    return 1 - 2 * _clamp(0.25 + 0.12 * (pairs - 2) + (top - 8) / 16)


def _straight(top: int, length: int) -> float:
    return 1 - 2 * _clamp(0.2 + 0.12 * (length - 5) + (top - 9) / 14)


@functools.lru_cache(maxsize=1 << 17)
def _split_cost(counts: tuple[int, ...]) -> float:
    """The least total cost of playing out ``counts`` (index 0: the Mah Jong's 1, index
    13: the Ace) as singles, pairs, triples, full houses, steps, straights and bombs."""
    low = next((r for r, n in enumerate(counts) if n), None)
    if low is None:
        return 0.0
    value = low + 1
    here = counts[low]

    def without(*ranks: int) -> tuple[int, ...]:
        left = list(counts)
        for r in ranks:
            left[r] -= 1
        return tuple(left)

    best = _single(value) + _split_cost(without(low))
    if value == 1:  # the Mah Jong: a single, or the 1 of a straight
        pass
    elif here >= 2:
        best = min(best, _pair(value) + _split_cost(without(low, low)))
        if here >= 3:
            best = min(best, _triple(value) + _split_cost(without(low, low, low)))
            for other in range(1, len(counts)):
                if other != low and counts[other] >= 2:
                    best = min(
                        best,
                        _triple(value) + 0.1 + _split_cost(without(low, low, low, other, other)),
                    )
        if here >= 4:
            best = min(best, BOMB_COST + _split_cost(without(low, low, low, low)))
        for other in range(1, len(counts)):
            if other != low and counts[other] >= 3:
                best = min(
                    best,
                    _triple(other + 1) + 0.1 + _split_cost(without(low, low, other, other, other)),
                )
        # Steps: pairs at low, low+1, ...
        top = low
        while top + 1 < len(counts) and counts[top + 1] >= 2:
            top += 1
            ranks = [r for r in range(low, top + 1) for _ in (0, 1)]
            best = min(best, _steps(top + 1, top - low + 1) + _split_cost(without(*ranks)))
    # Straights: one card at low, low+1, ... (at least five).
    top = low
    while top + 1 < len(counts) and counts[top + 1] >= 1:
        top += 1
        if top - low + 1 >= 5:
            best = min(
                best, _straight(top + 1, top - low + 1) + _split_cost(without(*range(low, top + 1)))
            )
    return best


def hand_cost(codes: Iterable[str]) -> float:
    """How hard ``codes`` are to get rid of (see the module docstring): the cheapest way
    to play them out, with the Phoenix as a single or filling any rank."""
    counts = [0] * 14
    extra = 0.0
    phoenix = False
    for code in codes:
        if code == "DR":
            extra += DRAGON_COST
        elif code == "DOG":
            extra += DOG_COST
        elif code == "PH":
            phoenix = True
        else:
            counts[value_of(code) - 1] += 1
    # Five or more of one rank (two decks) is no combination: the rest are singles.
    for r, n in enumerate(counts):
        if n > 4:
            extra += (n - 4) * _single(r + 1)
            counts[r] = 4
    return extra + _with_phoenix(tuple(counts)) if phoenix else extra + _split_cost(tuple(counts))


@functools.lru_cache(maxsize=1 << 16)
def _with_phoenix(counts: tuple[int, ...]) -> float:
    """The least cost of ``counts`` and the Phoenix: as a single, or as one more card of a
    rank it joins (a pair, a triple, a run; never the Mah Jong's 1, never a four)."""
    best = PHOENIX_SINGLE_COST + _split_cost(counts)
    for r in range(1, 14):
        joins = counts[r] or (counts[r - 1] or (r < 13 and counts[r + 1]))
        if joins and counts[r] < 3:
            filled = list(counts)
            filled[r] += 1
            best = min(best, _split_cost(tuple(filled)))
    return best


def bomb_cards(codes: list[str]) -> set[str]:
    """The cards of the bombs in ``codes``: four of a rank, or five or more of a suit in
    a row (S-BOMB-1)."""
    found: set[str] = set()
    by_rank: dict[str, list[str]] = {}
    by_suit: dict[str, set[int]] = {}
    for code in codes:
        if code in SPECIALS:
            continue
        by_rank.setdefault(code[:-1], []).append(code)
        by_suit.setdefault(code[-1], set()).add(RANK_VALUE[code[:-1]])
    for cards in by_rank.values():
        if len({c[-1] for c in cards}) >= 4:
            found.update(cards)
    for suit, values in by_suit.items():
        run: list[int] = []
        for value in range(2, ACE + 2):
            if value in values:
                run.append(value)
                continue
            if len(run) >= 5:
                found.update(f"{RANKS[v - 2]}{suit}" for v in run)
            run = []
    return found


def strength_of_first_cards(codes: list[str]) -> float:
    """The Grand Tichu measure of the first cards: Dragon 2, Phoenix 1.5, Ace 1, King 0.3,
    a bomb 3."""
    ranks = Counter(code[:-1] for code in codes if code not in SPECIALS)
    score = 2.0 * ("DR" in codes) + 1.5 * ("PH" in codes) + ranks["A"] + 0.3 * ranks["K"]
    return score + 3.0 * sum(1 for n in ranks.values() if n >= 4)


# --------------------------------------------------------------------------- the bot


class HeuristicBot:
    """A sensible player (see the module docstring); deterministic for a seed."""

    name = "heuristic"
    # Thresholds of the calls, set by trial matches against random and greedy bots.
    GRAND_TICHU_STRENGTH = 5.0
    TICHU_COST = -0.5

    BIG_TRICK = 25  # points on a trick worth a bomb out of turn

    def __init__(self, seed: int | None = None, bombs_out_of_turn: bool = True) -> None:
        self.rng = random.Random(seed)
        self.bombs_out_of_turn = bombs_out_of_turn
        if not bombs_out_of_turn:
            self.name = "heuristic-no-oot"

    # --- the protocol ---------------------------------------------------------------

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        fixed = actions.fixed
        cards = observation.hands.get(seat, [])
        call = self._call(observation, fixed, seat, cards)
        if call is not None:
            return call
        return self.act(observation, actions, seat)

    def act(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        """What it does apart from calling: its choice were it not to call now (a Grand
        Tichu decision is declined). A planner that makes its own calls asks this."""
        fixed = actions.fixed
        cards = observation.hands.get(seat, [])
        grand = [a for a in fixed if isinstance(a, tc.GrandTichu) and not a.call]
        if grand:
            return grand[0]
        decision = self._decide(observation, fixed, seat, cards)
        if decision is not None:
            return decision
        plays = actions.combinations
        if len(actions) > len(fixed) + len(plays):
            return self._push(observation, actions, seat, cards)
        if plays:
            return self._play(observation, actions, seat, cards)
        others = [a for a in fixed if not _is_call(a)]
        return (others or fixed)[0]

    def offer(self, observation: Observation, actions: LegalActions, seat: int) -> Action | None:
        """Out of turn: a Tichu call by the rule of thumb of :meth:`_call`, else a bomb
        when it matters (:meth:`_bomb_out_of_turn`), else None (let it stand)."""
        fixed = actions.fixed
        cards = observation.hands.get(seat, [])
        call = self._call(observation, fixed, seat, cards)
        if call is not None:
            return call
        if self.bombs_out_of_turn and len(actions) > len(fixed):
            return self._bomb_out_of_turn(observation, actions, seat, cards)
        return None

    def _bomb_out_of_turn(
        self, view: Observation, actions: LegalActions, seat: int, cards: list[str]
    ) -> Action | None:
        top_seat = view.top_seat
        partners = _partners(view, seat)
        if top_seat is None or top_seat == seat or top_seat in partners:
            return None  # a partner's trick stands; one's own is collected
        first = len(actions.fixed)
        rests = [_minus(cards, _codes(actions, first, i)) for i in range(len(actions) - first)]
        # An opponent about to go out with the trick: no time to wait.
        urgent = 0 < view.hand_sizes[top_seat] <= 2
        # Otherwise a partner on turn acts first (it may beat the play, or bomb, itself):
        # bombing ahead of it was measured to cost (docs/bots.md, "Out of turn").
        waits = view.turn in partners
        tichu_on_top = top_seat in view.calls and view.hand_sizes[top_seat] > 0
        points = sum(card_points(play["cards"]) for play in view.trick)
        # What each bomb leaves: going out is the best there is.
        costs = [hand_cost(rest) if rest else -10.0 for rest in rests]
        if urgent or (not waits and (tichu_on_top or points >= self.BIG_TRICK)):
            candidates = list(range(len(costs)))
        elif waits:  # only its own last cards
            candidates = [i for i, rest in enumerate(rests) if not rest]
        else:  # only its own way out
            candidates = [i for i, cost in enumerate(costs) if cost <= -1.0]
        if not candidates:
            return None
        return actions[first + min(candidates, key=lambda i: (costs[i], i))]

    # --- calls ----------------------------------------------------------------------

    def _call(
        self, view: Observation, fixed: list[Action], seat: int, cards: list[str]
    ) -> Action | None:
        partner_called = any(p in view.calls for p in _partners(view, seat))
        grand = [a for a in fixed if isinstance(a, tc.GrandTichu)]
        if grand:  # deciding Grand Tichu (S-DEAL-2): call or decline
            calling = [a for a in grand if a.call]
            strong = strength_of_first_cards(cards) >= self.GRAND_TICHU_STRENGTH
            if calling and strong and not partner_called:
                return calling[0]
            return next((a for a in grand if not a.call), grand[0])
        if view.phase != "play" or seat in view.calls or partner_called:
            return None
        tichu = next((a for a in fixed if isinstance(a, tc.Tichu)), None)
        if tichu is not None and hand_cost(cards) <= self.TICHU_COST:
            return tichu
        return None

    # --- decisions a play left pending ------------------------------------------------

    def _decide(
        self, view: Observation, fixed: list[Action], seat: int, cards: list[str]
    ) -> Action | None:
        wishes = [a for a in fixed if isinstance(a, tc.Wish)]
        if wishes:
            return self._wish(view, wishes, seat, cards)
        gifts = [a for a in fixed if isinstance(a, tc.GiveTrick)]
        if gifts:
            # The opponent furthest from going out: the likeliest to end last, whose
            # tricks then go to the first out (S-END-2).
            return max(gifts, key=lambda g: (view.hand_sizes[g.to], g.to not in view.calls))
        leads = [a for a in fixed if isinstance(a, tc.GiveLead)]
        if leads:
            return min(leads, key=lambda g: (g.to not in view.calls, view.hand_sizes[g.to]))
        lordly = [a for a in fixed if isinstance(a, tc.AnotherHand)]
        if lordly:
            return another_hand(view, lordly)
        return None

    def _wish(
        self, view: Observation, wishes: list[tc.Wish], seat: int, cards: list[str]
    ) -> Action:
        held = {code[:-1] for code in cards if code not in SPECIALS}
        offered = {w.rank: w for w in wishes if w.rank is not None}
        partners = _partners(view, seat)
        # A rank pushed to an opponent: that opponent must give it up (or bomb).
        for target, codes in view.pushed.items():
            if target in partners or target == seat:
                continue
            for code in codes.split():
                rank = code[:-1] if code not in SPECIALS else None
                if rank in offered and rank not in held and view.hand_sizes[target]:
                    return offered[rank]
        lacking = [rank for rank in offered if rank not in held]
        if lacking:
            return offered[max(lacking, key=RANK_VALUE.__getitem__)]
        return next((w for w in wishes if w.rank is None), wishes[0])

    # --- the exchange -----------------------------------------------------------------

    def _push(
        self, view: Observation, actions: LegalActions, seat: int, cards: list[str]
    ) -> Action:
        targets = view.push_targets.get(seat, {})
        partners = set(_partners(view, seat))
        left = list(cards)
        bombs = bomb_cards(left)
        given: dict[int, list[str]] = {}
        # Partners first (they get the good cards), then opponents (the cheap ones).
        for target in sorted(targets, key=lambda t: t not in partners):
            wanted = targets[target]
            chosen: list[str] = []
            for _ in range(wanted):
                if target in partners:
                    code = self._gift_for_partner(view, target, left, bombs)
                else:
                    code = self._cheapest(left, bombs, avoid={c[:-1] for c in chosen})
                chosen.append(code)
                left.remove(code)
            given[target] = chosen
        with contextlib.suppress(tc.TichuError):
            push = tc.Push(seat, {t: " ".join(codes) for t, codes in given.items()})
            if push in actions:
                return push
        # Cards the rules give (GS-6) leave fewer to choose from: a listed push.
        first = len(actions.fixed) + len(actions.combinations)
        return actions[first + self.rng.randrange(len(actions) - first)]

    @staticmethod
    def _gift_for_partner(view: Observation, partner: int, left: list[str], bombs: set[str]) -> str:
        if "grand_tichu" in view.calls.get(partner, ""):
            return max(left, key=value_of)
        spare = [c for c in left if c not in ("DR", "PH") and c not in bombs] or left
        return max(spare, key=value_of)

    @staticmethod
    def _cheapest(left: list[str], bombs: set[str], avoid: set[str]) -> str:
        """The card whose loss hurts the hand least (never a bomb's, the Dragon or the
        Phoenix while others are left; not a rank already given to that seat)."""
        keep = {"DR", "PH"} | bombs
        choices = [c for c in left if c not in keep and c[:-1] not in avoid]
        choices = choices or [c for c in left if c not in keep] or left
        return min(choices, key=lambda c: (hand_cost(_minus(left, [c])), value_of(c)))

    # --- card play --------------------------------------------------------------------

    def _play(
        self, view: Observation, actions: LegalActions, seat: int, cards: list[str]
    ) -> Action:
        fixed = actions.fixed
        plays = actions.combinations
        first = len(fixed)
        passing = next((a for a in fixed if isinstance(a, tc.Pass)), None)
        partners = _partners(view, seat)
        active = [s for s, n in enumerate(view.hand_sizes) if n and s != seat]
        opponents = [s for s in active if s not in partners]
        partner_tichu = any(p in view.calls and view.hand_sizes[p] for p in partners)
        top_seat = view.top_seat
        on_partner = top_seat is not None and top_seat in partners
        if passing is not None and (on_partner or top_seat == seat):
            # A partner's trick stands; one's own is collected (S-TRICK-2).
            goes_out = [
                i for i, c in enumerate(plays) if len(_codes(actions, first, i)) == len(cards)
            ]
            if not goes_out or partner_tichu or top_seat == seat:
                return passing
            return actions[first + goes_out[0]]
        base = hand_cost(cards)
        bombs = bomb_cards(cards)
        nobody_out = not view.out_order
        leading = not view.trick
        trick_points = sum(card_points(play["cards"]) for play in view.trick)
        danger = any(view.hand_sizes[s] <= 2 for s in opponents)
        lead_value = 0.4 + (0.8 if seat in view.calls else 0.0)
        best: tuple[float, float, int, int] | None = None
        for index, combination in enumerate(plays):
            codes = _codes(actions, first, index)
            rest = _minus(cards, codes)
            if not rest:
                # Out: the best there is, unless it spoils a partner's Tichu.
                score = 5.0 if (partner_tichu and nobody_out) else -10.0
            else:
                score = hand_cost(rest) - base
                if combination.is_bomb:
                    score += self._bomb_penalty(view, top_seat, opponents, rest, danger)
                elif bombs.intersection(codes):
                    score += 1.5  # a bomb is kept whole
                if leading:
                    score += self._lead_penalty(view, combination, codes, seat, partners, opponents)
                else:
                    win = _win_chance(combination)
                    score -= lead_value * win + trick_points / 60 * win
                    if danger:
                        score -= 1.0
            key = (score, float(combination.rank), -len(codes), index)
            if best is None or key < best:
                best = key
        assert best is not None
        if passing is not None and best[0] >= 0:
            return passing
        return actions[first + best[3]]

    @staticmethod
    def _bomb_penalty(
        view: Observation, top_seat: int | None, opponents: list[int], rest: list[str], danger: bool
    ) -> float:
        """Bombs are kept for when they matter: an opponent close to going out or calling
        Tichu on top, or its own way out; else they cost more than they win."""
        if top_seat is None:
            return 3.0  # leading a bomb (only when nothing else is left: listed alone)
        if top_seat in opponents and (
            danger or top_seat in view.calls or view.hand_sizes[top_seat] <= 3
        ):
            return -1.0
        if hand_cost(rest) <= -1.0:
            return 0.0
        return 3.0

    @staticmethod
    def _lead_penalty(
        view: Observation,
        combination: Combination,
        codes: list[str],
        seat: int,
        partners: list[int],
        opponents: list[int],
    ) -> float:
        penalty = 0.0
        if codes == ["DOG"]:
            active_partners = [p for p in partners if view.hand_sizes[p]]
            if not active_partners:
                return 2.0  # the lead would go on past an empty seat, to an opponent
            best = min(view.hand_sizes[p] for p in active_partners)
            if any(p in view.calls for p in active_partners) or best < view.hand_sizes[seat]:
                penalty -= 1.0
            return penalty
        if len(codes) == 1 and any(view.hand_sizes[s] == 1 for s in opponents):
            penalty += 2.0 if combination.rank < ACE else 0.0
        # The longer combinations first: they are the hard ones to play later.
        penalty -= 0.05 * len(codes)
        return penalty


def _win_chance(combination: Combination) -> float:
    """A rough chance that a (non-bomb) play keeps the trick."""
    if combination.is_bomb:
        return 1.0
    rank = float(combination.rank)
    if combination.kind == tc.Kind.SINGLE:
        return _clamp((rank - 9) / 6)
    return _clamp((rank - 7) / 7)


def _codes(actions: LegalActions, first: int, index: int) -> list[str]:
    action = actions[first + index]
    assert isinstance(action, tc.Play)
    return action.cards.split()


def _minus(cards: list[str], codes: Iterable[str]) -> list[str]:
    left = list(cards)
    for code in codes:
        left.remove(code)
    return left


def _partners(view: Observation, seat: int) -> list[int]:
    return [s for s, team in enumerate(view.teams) if team == view.teams[seat] and s != seat]


def _is_call(action: Action) -> bool:
    return isinstance(action, tc.Tichu) or (isinstance(action, tc.GrandTichu) and action.call)


def another_hand(view: Observation, options: list[tc.AnotherHand]) -> tc.AnotherHand:
    """GS-8: the Great Lord ends the match while its own line leads alone, else plays on
    (for every bot that decides it)."""
    mine = view.scores[view.player] if view.player is not None else 0
    others = [total for line, total in enumerate(view.scores) if line != view.player]
    ahead = not others or mine > max(others)
    return next((a for a in options if a.more != ahead), options[0])
