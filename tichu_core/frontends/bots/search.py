"""The search bot: plans on sampled worlds by playing them out with the variant's own rules.

For each decision it lists a few candidate actions, samples complete games its player
cannot tell from the one it is in (``tc.sample_world``), and plays each candidate out
in the same worlds to the end of the hand with a fast default policy. The candidate
whose rollouts score best (its player's score line minus the mean of the others', as
the variant scores them) is chosen. The rollouts are determinized ("perfect
information Monte Carlo", as bridge programs do), the values of one candidate averaged
over the worlds, every candidate judged on the same worlds and rollout seeds (paired,
so that the luck of the deal cancels out), and the budget spent by sequential halving:
the weaker half of the candidates is dropped after each round, so the budget goes to
telling the good ones apart. docs/bots.md argues this choice against ISMCTS.

Nothing here knows a variant: the candidates come from the legal actions (a pending
decision of any type is searched like the others), the worlds from the engine, the
rollouts from ``Game.apply`` and the values from ``game.scores``. So every option and
plugin reaches the bot's decisions through the rollouts.

The bot needs its player's events besides the observation: the bot protocol's driver
calls :meth:`SearchBot.observe` before asking (see ``protocol.decide``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Sequence

import tichu_core as tc
from tichu_core import Action, Card, Event, LegalActions, Observation, Variant
from tichu_core.frontends.bots.heuristic import HeuristicBot
from tichu_core.frontends.bots.simple import GreedyBot

__all__ = [
    "DEFAULT_CANDIDATES",
    "DEFAULT_ITERATIONS",
    "DEFAULT_STEPS",
    "DEFAULT_WORLDS",
    "OPPONENT_BOMB_CARDS",
    "SearchBot",
    "call_pays",
    "plain_push",
    "sure_gain",
]

# The default budget: rollouts per decision (spread over the candidates by sequential
# halving), and the worlds sampled for them. Measured in docs/bots.md.
DEFAULT_ITERATIONS = 96
DEFAULT_WORLDS = 6
# ... and the play-out steps (actions applied in rollouts) per decision: the budget ends
# with whichever runs out first. A rollout of a big table takes many more steps than
# one of the four-seat game, so counted in steps a decision's time is about the same at
# every table size (docs/bots.md, "Budget").
DEFAULT_STEPS = 8000
# At most this many candidates are searched; more plays are pruned by a cheap prior.
DEFAULT_CANDIDATES = 6
# A rollout's value beside the score: a little for finishing early (it breaks ties
# where a hand scores nothing, like the election hand of Grand Seigneur) and a lot for
# winning or losing the match when the rollout ends it.
PLACE_WEIGHT = 1.0
MATCH_WEIGHT = 100.0
# The rollout policy's randomness: how often it passes where it could beat, and how
# often it leads a random combination instead of its weakest.
ROLLOUT_PASS = 0.2
ROLLOUT_RANDOM_LEAD = 0.25
# The rollout policies: the fast one of this module, or the heuristic bot (better
# play, several times slower per rollout).
ROLLOUTS = ("fast", "heuristic")
# How many standard errors a candidate must beat the default by (see SearchBot._search).
CONFIDENCE = 1.0
# A bomb on an opponent's trick, out of turn or on the bot's turn, is searched only when
# that opponent holds at most this many cards: the rollouts never bomb out of turn, so
# they undervalue a bomb kept for later, and the search's earlier bombs lost points at
# a table (docs/bots.md, "Bombs"); where the opponent is about to go out there is no
# later.
OPPONENT_BOMB_CARDS = 2
# What a call must gain over not calling in the rollouts, in points, beyond that: the
# rollouts leave out how the table answers a call (opponents fight a caller, bombs and
# all; a partner gives up its own chances), so a call has to be clearly worth its risk.
# Being in points, it makes the bot rule-aware: where a call is worth 300 a small edge
# in the chance of going out first pays for it, where it is worth 25 only a sure one.
CALL_MARGIN = 10.0
# A call is one question, asked apart from the choice among plays (no best-of-several
# overestimate to guard against): its mean gain must exceed the margin by this many
# standard errors.
CALL_CONFIDENCE = 0.0
# A call is decided on as many paired runs as a decision has rollouts (``iterations``),
# those beyond the halving's each in a world of its own: the deal one is in decides a
# call more than the play-out does (at a Grand Tichu decision six of one's cards are
# not yet seen), and a call is worth hundreds of points against the few a play is worth.

# A candidate: the actions applied in turn (a Tichu call with the play it comes with),
# or () for "let it stand" when a bomb is offered out of turn.
Candidate = tuple[Action, ...]


def _is_call(action: Action) -> bool:
    return isinstance(action, tc.Tichu) or (isinstance(action, tc.GrandTichu) and action.call)


# Combination.is_bomb: a kind from the four of a kind's up is a bomb.
_FIRST_BOMB_KIND = int(tc.Kind.FOUR_BOMB)


def _lead_key(play: tc.Combination) -> tuple[bool, int, float]:
    """Weakest first: low combinations using many cards, high cards last (kept to win)."""
    return (play.rank > 10, -play.length, play.rank)


class SearchBot:
    """Determinized search on sampled worlds (see the module docstring).

    ``iterations``: rollouts per decision, spread over the candidates; ``steps``: the
    play-out steps per decision (the search stops at whichever of the two runs out
    first; None: no limit; a Tichu call weighed beside the plays has its own, up to
    three times ``steps`` for the decision); ``seconds``: a time budget per decision instead (not
    reproducible); ``worlds``: worlds sampled per decision (the rollouts cycle through
    them, each sampled when first needed); ``candidates``: at most this many
    actions are compared; ``own_trick_bombs``: whether a bomb on the bot's own trick
    (``bombs.own_trick``) is searched at all, ``partner_bombs`` one on its partner's
    trick, ``opponent_bomb_cards`` the most cards an opponent may hold for a bomb on
    its trick to be searched (None: any), each out of turn and on the bot's turn;
    ``call_margin``: the points a call must gain over not calling in the rollouts to be
    made (``CALL_MARGIN``; None: the calls are weighed as usual, never made, so that a
    duel against the default differs only where the default calls); ``rollout``:
    ``"fast"`` (this module's default policy) or ``"heuristic"`` (the heuristic bot
    plays the rollouts). With ``iterations`` and ``steps`` the decisions depend only on
    the seed and what the player was shown.
    """

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        steps: int | None = DEFAULT_STEPS,
        seconds: float | None = None,
        worlds: int = DEFAULT_WORLDS,
        candidates: int = DEFAULT_CANDIDATES,
        rollout: str = "fast",
        own_trick_bombs: bool = False,
        partner_bombs: bool = False,
        opponent_bomb_cards: int | None = OPPONENT_BOMB_CARDS,
        call_margin: float | None = CALL_MARGIN,
    ) -> None:
        for label, value, low in (
            ("iterations", iterations, 1),
            ("worlds", worlds, 1),
            ("candidates", candidates, 2),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"search bot: {label} must be an integer >= {low}, got {value!r}")
        for label, limit, low in (
            ("steps", steps, 1),
            ("opponent_bomb_cards", opponent_bomb_cards, 0),
        ):
            if limit is not None and (
                isinstance(limit, bool) or not isinstance(limit, int) or limit < low
            ):
                raise ValueError(
                    f"search bot: {label} must be an integer >= {low} or None, got {limit!r}"
                )
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0
        ):
            raise ValueError(f"search bot: seconds must be a positive number, got {seconds!r}")
        if call_margin is not None and (
            isinstance(call_margin, bool) or not isinstance(call_margin, int | float)
        ):
            raise ValueError(
                f"search bot: call_margin must be a number or None, got {call_margin!r}"
            )
        if rollout not in ROLLOUTS:
            raise ValueError(
                f"search bot: rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}"
            )
        self.rollout = rollout
        self.own_trick_bombs = own_trick_bombs
        self.partner_bombs = partner_bombs
        self.opponent_bomb_cards = opponent_bomb_cards
        self.call_margin = call_margin
        self.iterations = iterations
        self.steps = steps
        self.seconds = seconds
        self.worlds = worlds
        self.candidates = candidates
        self.rng = random.Random(seed)
        # Proposers of candidates (their choice is always searched), never the judges.
        self._heuristic = HeuristicBot(seed)
        self._greedy = GreedyBot(seed)
        self._variant: Variant | None = None
        self._player = 0
        self._events: Sequence[Event] = ()
        self._sampled: list[tc.Game] = []
        self._sampler: tc.WorldSampler | None = None
        # The moment the worlds were sampled for: player, events seen, the last one.
        self._sampled_at: tuple[int, int, Event | None] | None = None
        # What the bot spent: decisions searched, rollouts, their play-out steps and
        # seconds (for measurements).
        self.searched = 0
        self.rollouts = 0
        self.playout_steps = 0
        self.call_gains: list[float] = []  # a call's mean gain at each call weighed
        self.call_stakes: list[float] = []  # ... and its stake: the mean size of a gain
        self.seconds_spent = 0.0

    # --- the bot protocol ----------------------------------------------------------------

    def observe(self, variant: Variant, player: int, events: Sequence[Event]) -> None:
        """What the driver tells the bot before each decision: the variant and its
        player's events from the start of the match (``game.events_for(player)``)."""
        self._variant = variant
        self._player = player
        self._events = events

    def choose(self, observation: Observation, actions: LegalActions, seat: int) -> Action:
        if not len(actions):
            raise ValueError(f"seat {seat} has no legal action")
        candidates, call = self._candidates(observation, actions, seat)
        if len(candidates) == 1 and call is None:
            return candidates[0][0]
        return self._search(observation, seat, candidates, call)[0]

    def offer(self, observation: Observation, actions: LegalActions, seat: int) -> Action | None:
        """Out of turn: a bomb from ``actions``, or None to let the trick stand; both
        judged by the same search, where bombs are searched at all (see
        ``_bombs_searched``)."""
        if not self._bombs_searched(observation, seat):
            return None
        fixed = len(actions.fixed)
        bombs = [
            (i, play) for i, play in enumerate(actions.combinations) if play.is_bomb
        ]  # the weakest bombs first, one reading each
        bombs.sort(key=lambda item: (item[1].kind, item[1].length, item[1].rank))
        chosen: list[Candidate] = [()]
        chosen += [(actions[fixed + i],) for i, _ in bombs[: self.candidates - 1]]
        if len(chosen) == 1:
            return None
        best = self._search(observation, seat, chosen)
        return best[0] if best else None

    def _bombs_searched(self, observation: Observation, seat: int) -> bool:
        """Whether a bomb on the trick is searched, out of turn or on the bot's turn:
        none on its own trick without ``own_trick_bombs``, none on its partner's
        without ``partner_bombs``, none on an opponent's that holds more than
        ``opponent_bomb_cards`` cards. Played out at a table, each of those bombs lost
        points (docs/bots.md, "Bombs"); a lead is no trick, so any bomb may lead."""
        top = observation.top_seat
        if top is None:
            return True
        if observation.teams[top] == observation.teams[seat]:
            return self.own_trick_bombs if top == seat else self.partner_bombs
        limit = self.opponent_bomb_cards
        return limit is None or observation.hand_sizes[top] <= limit

    # --- candidates ------------------------------------------------------------------

    def _candidates(
        self, observation: Observation, actions: LegalActions, seat: int
    ) -> tuple[list[Candidate], Candidate | None]:
        """The actions worth searching (every one when few, else the proposers' choices
        and the best by a cheap prior), and the call to weigh beside them, if any: a
        Grand Tichu call, or a Tichu call together with the default action (the call
        alone decides nothing)."""
        fixed = actions.fixed
        plays = actions.combinations
        first_push = len(fixed) + len(plays)
        pushes = len(actions) - first_push
        limit = self.candidates
        chosen: list[Action] = []
        rest = [a for a in fixed if not isinstance(a, tc.Tichu)]
        # The bombs it does not search here (``_bombs_searched``), when it has anything
        # else to do but call (a wish can leave nothing but bombs).
        unsearched: list[Action] = []
        if plays and not self._bombs_searched(observation, seat):
            unsearched = [actions[len(fixed) + i] for i, p in enumerate(plays) if p.is_bomb]
            if not rest and len(unsearched) == len(plays):
                unsearched = []

        def add(action: Action) -> None:
            fresh = action not in chosen and action not in unsearched
            if fresh and not isinstance(action, tc.Tichu):
                chosen.append(action)

        # The proposers' choices without a call (the search makes its own calls, below).
        proposals = [
            self._heuristic.act(observation, actions, seat),
            self._greedy.choose(observation, actions, seat),
        ]
        for action in proposals:
            add(action)
        for action in rest:
            add(action)
        if pushes:
            # Thousands of pushes: the proposers' and a few drawn from the listing.
            for _ in range(3 * limit):
                if len(chosen) >= limit:
                    break
                add(actions[first_push + self.rng.randrange(pushes)])
        elif plays:
            if any(isinstance(a, tc.Pass) for a in fixed):  # following: the cheapest that beat
                order = sorted(
                    range(len(plays)),
                    key=lambda i: (plays[i].is_bomb, plays[i].rank, plays[i].length),
                )
            else:  # leading: the weakest combinations first
                order = sorted(
                    range(len(plays)), key=lambda i: (plays[i].is_bomb, *_lead_key(plays[i]))
                )
            for i in order:
                if len(chosen) >= limit:
                    break
                add(actions[len(fixed) + i])
        # The default never calls: a call (a Grand Tichu call is a fixed action like the
        # others) is weighed apart, against the default (see _search).
        grand = [a for a in chosen if _is_call(a)]
        result: list[Candidate] = [
            (action,) for action in [a for a in chosen if not _is_call(a)][: max(limit, len(rest))]
        ]
        if not result:
            return [(actions[0],)], None
        if grand:
            return result, (grand[0],)
        # A Tichu call is weighed where the seat has plays to choose from (each of its
        # turns before its first play: about 1.4 a seat-hand in standard Tichu), not at
        # every decision it is listed at before (the exchange, a wish): each weighing is
        # a noisy estimate, and more chances make more calls on noise.
        calls = [a for a in fixed if isinstance(a, tc.Tichu)] if len(plays) else []
        # Calling, then doing what the default does, against not calling.
        return result, ((calls[0], result[0][0]) if calls else None)

    # --- the search ------------------------------------------------------------------

    def _world(self, index: int, count: int) -> tc.Game:
        """The ``index``-th world of the current moment, of ``count`` (the worlds cycle;
        each is sampled when first needed, once per moment: an offer and the decision
        that follows it share them)."""
        if self._variant is None:
            raise ValueError(
                "the search bot needs its player's events: drive it with "
                "tichu_core.frontends.bots.decide (which calls observe) or call "
                "observe(variant, player, events) before choose"
            )
        events = self._events
        moment = (self._player, len(events), events[-1] if events else None)
        if self._sampled_at != moment:
            sampler = self._sampler
            if (
                sampler is None
                or sampler.variant is not self._variant
                or (sampler.player != self._player)
            ):
                # Keeps the replay of the match's past hands from one decision to the
                # next (tc.sample_world would replay the whole match at every call).
                sampler = self._sampler = tc.WorldSampler(self._variant, self._player)
            self._sampled = []
            self._sampled_at = moment
        index %= count
        sampled = self._sampled
        while len(sampled) <= index:
            assert self._sampler is not None
            sampled.append(self._sampler.sample(events, self.rng))
        return sampled[index]

    def _search(
        self,
        observation: Observation,
        seat: int,
        candidates: list[Candidate],
        call: Candidate | None = None,
    ) -> Candidate:
        """The best candidate by its rollouts, found by sequential halving; the first
        candidate (the proposers' choice without a call, or letting a trick stand) is
        the default, always kept, and another replaces it only when it wins the paired
        comparison by more than ``CONFIDENCE`` standard errors (the best of several
        noisy means is usually an overestimate). ``call`` is played out beside the
        default in every iteration, never dropped, and chosen when its paired mean
        gain over the default exceeds ``CALL_MARGIN`` points (see there)."""
        started = time.perf_counter()
        judge = _Judge(observation, self._player, self._variant, self.rollout)
        count = len(candidates)
        values: list[list[float]] = [[] for _ in range(count)]
        called: list[float] = []
        call_chosen = False
        alive = list(range(count))
        rounds = max(1, math.ceil(math.log2(count)))
        budget = self.seconds
        steps = self.steps if budget is None else None
        played = 0
        call_steps = 0  # the steps of the call's runs beside the default
        for round_index in range(rounds):
            # This round ends once the rounds so far have taken their share of the steps.
            step_end = math.inf if steps is None else steps * (round_index + 1) / rounds
            if budget is None:
                # Each round spends its share of the budget on the candidates still in.
                per = max(1, self.iterations // (len(alive) * rounds))
                round_end = math.inf
            else:  # until this round's share of the time is spent
                per = 1 << 30
                round_end = started + budget * (round_index + 1) / rounds
            for _ in range(per):
                world = self._world(played, self.worlds)
                seed = self.rng.getrandbits(32)
                played += 1
                for index in alive:
                    values[index].append(judge.rollout(world, candidates[index], seed))
                if call is not None:
                    before = judge.steps
                    called.append(judge.rollout(world, call, seed))
                    if count > 1:
                        call_steps += judge.steps - before
                # Where there are plays to choose among, the call's runs are the call's
                # budget (below), not the plays': counted against ``steps`` they cut the
                # plays' search by a fifth to a third at a seat's first play, the
                # decision that leads its hand. Where the default is alone (a Grand
                # Tichu decision), this loop runs for the call only, and the steps end
                # it as before, so that the call's other pairs are in worlds of their
                # own: run on the six worlds to the end, its Grand Tichu calls doubled
                # and were made at 47% (a stopped duel, 301 deal pairs).
                if judge.steps - call_steps >= step_end or time.perf_counter() >= round_end:
                    break
            if len(alive) <= 2:
                break
            # A candidate still in has run in every iteration so far, as the default:
            # rank the challengers by their mean over all of them, keep the better half.
            others = sorted(alive[1:], key=lambda i: -sum(values[i]) / len(values[i]))
            alive = [0, *others[: max(1, len(others) // 2)]]
        self.searched += 1
        if call is not None:
            # Paired with the default, which ran in every iteration too; then more
            # pairs, each in a world of its own, up to ``iterations`` (within the steps).
            gains = [c - d for c, d in zip(called, values[0], strict=True)]
            step_end = math.inf if steps is None else 3 * steps
            extra = 0
            while len(gains) < self.iterations and judge.steps < step_end:
                world = self._world(self.worlds + extra, self.worlds + self.iterations)
                extra += 1
                seed = self.rng.getrandbits(32)
                base = judge.rollout(world, candidates[0], seed)
                gains.append(judge.rollout(world, call, seed) - base)
            self.rollouts += 2 * extra
            self.call_gains.append(sum(gains) / len(gains))
            self.call_stakes.append(sum(abs(g) for g in gains) / len(gains))
            call_chosen = call_pays(gains, self.call_margin)
        self.rollouts += sum(len(v) for v in values) + len(called)
        self.playout_steps += judge.steps
        self.seconds_spent += time.perf_counter() - started
        if call is not None and call_chosen:
            return call
        if len(alive) < 2:
            return candidates[0]
        best = max(alive[1:], key=lambda i: sum(values[i]) / len(values[i]))
        # Paired: the challenger ran in the last len(values[best]) iterations, as the
        # default did (every iteration, since it is never dropped).
        default = values[0][-len(values[best]) :]
        differences = [v - d for v, d in zip(values[best], default, strict=True)]
        return candidates[best] if sure_gain(differences) else candidates[0]


def call_pays(gains: Sequence[float], margin: float | None = CALL_MARGIN) -> bool:
    """Whether a call's paired gains over not calling (one per run) make it: their mean
    exceeds ``margin`` (by ``CALL_CONFIDENCE`` standard errors); None: never. The same
    for a Grand Tichu: a lift on its rollouts' chance was tried and measured to call on
    hands that only broke even (docs/bots.md, "Issue 41", "Where it stands")."""
    if margin is None:
        return False
    return sure_gain(gains, margin, CALL_CONFIDENCE)


def sure_gain(
    differences: Sequence[float], margin: float = 0.0, confidence: float = CONFIDENCE
) -> bool:
    """Whether a challenger's paired gains over the default (one per rollout) are sure
    enough to replace it: their mean exceeds ``margin`` by ``confidence`` standard
    errors (a single run: by its sign)."""
    runs = len(differences)
    mean = sum(differences) / runs
    if runs < 2 or not confidence:
        return mean > margin
    spread = math.sqrt(sum((x - mean) ** 2 for x in differences) / (runs - 1))
    return mean > margin + confidence * spread / math.sqrt(runs)


class _Judge:
    """Plays a candidate out in a world and scores the result for the bot's player."""

    def __init__(
        self, observation: Observation, player: int, variant: Variant | None, rollout: str
    ) -> None:
        self.teams = observation.teams
        seats = [s for s, p in enumerate(observation.players) if p == player]
        self.own_seat = seats[0] if seats else observation.seats[0]
        per_player = variant is not None and variant.scoring.per_player
        self.line = player if per_player else observation.teams[self.own_seat]
        self.top = observation.top_seat
        self.policy: HeuristicBot | None = HeuristicBot(0) if rollout == "heuristic" else None
        self.steps = 0  # play-out steps taken by this judge's rollouts

    def rollout(self, world: tc.Game, candidate: Candidate, seed: int) -> float:
        # A play-out copy: no events, no logs, and it stops with the hand.
        game = world.copy(playout=True)
        before = list(game.scores)
        hand = len(game.hand_results)
        top = self.top
        for action in candidate:
            game.apply(action)
            if isinstance(action, tc.Play):
                top = action.seat
        rng = random.Random(seed)
        teams = self.teams
        policy = self.policy
        steps = 0
        while True:  # a play-out ends with its hand (or the match): nobody acts then
            seats = game.waiting_for
            if not seats:
                break
            steps += 1
            seat = seats[0]
            actions = game.legal_actions(seat)
            if policy is not None and len(actions) > 1:
                action = policy.choose(game.observation(game.controller(seat)), actions, seat)
            else:
                action = _default_policy(actions, seat, top, teams, rng, game)
            game.apply(action)
            if isinstance(action, tc.Play):
                top = seat
        self.steps += steps
        return self.value(game, before, hand)

    def value(self, game: tc.Game, before: list[int], hand: int) -> float:
        gained = [after - start for after, start in zip(game.scores, before, strict=True)]
        line = self.line
        others = [g for i, g in enumerate(gained) if i != line]
        value = gained[line] - (sum(others) / len(others) if others else 0.0)
        if len(game.hand_results) > hand:
            order = game.hand_results[hand].out_order
            if self.own_seat in order and len(order) > 1:
                place = order.index(self.own_seat)
                value += PLACE_WEIGHT * (1 - 2 * place / (len(order) - 1))
        if game.is_over:
            winners = game.winners
            if line not in winners:
                value -= MATCH_WEIGHT
            elif len(winners) < len(gained):
                value += MATCH_WEIGHT
        return value


def plain_push(
    actions: LegalActions, seat: int, teams: list[int], grand: Collection[int] = ()
) -> Action | None:
    """The push most players make: the partners get the highest cards short of the
    Dragon and the Phoenix, a partner in ``grand`` (who called Grand Tichu) the highest
    of all, the opponents the lowest (none of a four of a kind while other cards are
    left). None where the listing holds no such push (cards the rules give).

    A random push (the rollouts' policy before) gave a Grand Tichu caller a random card
    from its partner and let the opponents give away their aces: calls at eight cards
    were judged on exchanges nobody makes (docs/bots.md, "Calls"). A Grand Tichu
    caller is given the Dragon or the Phoenix as the bots at the table give it (the
    heuristic's push, the search's default): rollouts that kept them from the caller
    judged its call on less help than it gets."""
    targets = actions.push_targets
    hand = actions.hand  # a card mask: bit i set, card i held (tc.Card(i))
    cards = sorted((Card(i) for i in range(hand.bit_length()) if hand >> i & 1), key=_push_order)
    counts: dict[int, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    # The cards an opponent may get, cheapest first; the partner's come from the top.
    spare = [c for c in cards if not (counts[c.rank] >= 4 and not c.is_special)]
    given: dict[int, list[str]] = {}
    taken: set[int] = set()
    mine = teams[seat]
    # Partners first; the opponents in playing order from the seat, so that the lowest
    # card goes to the next seat whoever pushes (a fixed order, such as by seat number,
    # would give the same seats the lowest cards from everyone).
    seats = len(teams)
    for target in sorted(targets, key=lambda t: (teams[t] != mine, (t - seat) % seats)):
        codes = given[target] = []
        for _ in range(targets[target]):
            if teams[target] == mine and target in grand:
                pool = [c for c in reversed(cards) if c not in taken]
            elif teams[target] == mine:
                pool = [c for c in reversed(cards) if c not in taken and c.rank != 15]
                pool = [c for c in pool if c.code != "PH"] or pool
            else:
                pool = [c for c in spare if c not in taken]
            pool = pool or [c for c in cards if c not in taken]
            if not pool:
                return None
            taken.add(pool[0])
            codes.append(pool[0].code)
    try:
        push = tc.Push(seat, {t: " ".join(codes) for t, codes in given.items()})
    except tc.TichuError:
        return None
    return push if push in actions else None


def _push_order(card: Card) -> tuple[int, int, int]:
    # The Dog is the cheapest gift, the Phoenix the dearest below the Dragon (rank 15).
    return (15 if card.code == "PH" else card.rank, card.code == "DR", card)


def _default_policy(
    actions: LegalActions,
    seat: int,
    top: int | None,
    teams: list[int],
    rng: random.Random,
    game: tc.Game | None = None,
) -> Action:
    """The rollouts' fast player: never calls, pushes as most players do (``plain_push``;
    ``game``, the rollout's, tells who called Grand Tichu), lets a partner's trick
    stand, mostly beats an opponent with its cheapest combination (a bomb only when
    nothing else beats), leads its weakest combination, takes pending decisions at
    random."""
    count = len(actions)
    if count == 1:
        return actions[0]
    fixed = actions.fixed
    plays = actions.combinations
    first = len(fixed)
    if count > first + len(plays):  # pushes
        grand: list[int] = []
        if game is not None:  # who called Grand Tichu (a push is made once a hand)
            calls = game.observation(game.controller(seat)).calls
            grand = [s for s, call in calls.items() if "grand_tichu" in call]
        push = plain_push(actions, seat, teams, grand)
        if push is not None:
            return push
        start = first + len(plays)
        return actions[start + rng.randrange(count - start)]
    if not plays:
        options = [a for a in fixed if not _is_call(a)] or fixed
        return options[rng.randrange(len(options))]
    # The policy runs at every step of every rollout, and a lead lists some 60 plays:
    # plain loops over the plays' fields by position (a Combination is a tuple: kind,
    # length, rank, ...), no property or key function per play, and C-level min/index
    # (the first index of the smallest, as min with a key function would pick).
    passing = None
    for action in fixed:
        if isinstance(action, tc.Pass):
            passing = action
            break
    normal = [i for i, play in enumerate(plays) if play[0] < _FIRST_BOMB_KIND]
    if passing is not None:
        if top is not None and teams[top] == teams[seat]:
            return passing
        if not normal or rng.random() < ROLLOUT_PASS:
            return passing
        ranks = [plays[i][2] for i in normal]
        return actions[first + normal[ranks.index(min(ranks))]]
    lead = normal or list(range(len(plays)))
    if rng.random() < ROLLOUT_RANDOM_LEAD:
        return actions[first + lead[rng.randrange(len(lead))]]
    # _lead_key as one number, in the same order: (rank > 10, -length, rank) with ranks
    # below 100 and whole lengths maps to (rank > 10) * 1e6 + (1000 - length) * 100 + rank.
    keys = []
    for i in lead:
        play = plays[i]
        keys.append((1e6 if play[2] > 10 else 0.0) + (1000 - play[1]) * 100 + play[2])
    return actions[first + lead[keys.index(min(keys))]]
