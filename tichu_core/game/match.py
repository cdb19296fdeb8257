"""The match: the public ``Game`` API of SPEC.md.

``Game`` validates each action against the running hand (never changing
anything while it checks), snapshots the hand, lets the hand change and, if
a plugin fails half-way, puts the snapshot back: ``apply`` is atomic.
A saved game is its variant, seed, stacked deals and action list; restoring
replays the actions, which the engine does deterministically.
"""

from __future__ import annotations

import functools
import json
import os
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tichu_core.cardplay.cards import (
    CARDS,
    RANK_BITS,
    RANK_NAMES,
    RANK_OF_NAME,
    SECOND_COPY,
    card_of_code,
    cards_of,
    codes_of,
    format_mask,
    mask_points,
    play_codes,
    take_cards,
)
from tichu_core.cardplay.combinations import DOG, Combination
from tichu_core.errors import CardError, DealError, IllegalAction, InvalidAction, PluginError
from tichu_core.game.actions import (
    Action,
    GiveLead,
    GiveTrick,
    GrandTichu,
    Pass,
    Play,
    Push,
    Tichu,
    Wish,
    action_from_json,
    action_to_dict,
    make_play,
)
from tichu_core.game.events import Event, HandScored, HandStarted, MatchOver, make_event
from tichu_core.game.hand import (
    EXCHANGE,
    GIVE_LEAD,
    GIVE_TRICK,
    GRAND_TICHU,
    OVER,
    PLAY,
    WISH,
    HandState,
)
from tichu_core.rules.playrules import PlayRules
from tichu_core.rules.rulebook import Hooks
from tichu_core.variants.models import Variant, load_variant

SAVE_FORMAT = "tichu-game"
SAVE_VERSION = 1


class HandResult(BaseModel):
    """What one finished hand added, and how it went."""

    model_config = ConfigDict(frozen=True)
    index: int
    scores: list[int]
    out_order: list[int]
    players: list[int | None]
    card_points: list[int]
    double_victory: bool
    calls: dict[int, str] = Field(
        description='seat -> "tichu", "grand_tichu" or "grand_tichu+tichu" (S-CALL-1)'
    )


class Observation(BaseModel):
    """What one player (or a spectator) may know now; never another seat's hidden cards."""

    model_config = ConfigDict(frozen=True)
    player: int | None
    seats: list[int]
    hand_index: int
    phase: str
    dealer: int
    hand: list[str]
    hands: dict[int, list[str]]
    hand_sizes: list[int]
    players: list[int | None]
    teams: list[int]
    turn: int | None
    waiting_for: list[int]
    trick: list[dict[str, Any]]
    top_seat: int | None
    wish: str | None
    pending: dict[str, Any] | None
    calls: dict[int, str] = Field(
        description='seat -> "tichu", "grand_tichu" or "grand_tichu+tichu" (S-CALL-1)'
    )
    grand_tichu_decided: list[bool]
    pushed: dict[int, str]
    received: dict[int, str]
    out_order: list[int]
    won_points: list[int]
    won_cards: list[int]
    scores: list[int]
    score_lines: list[str]
    hands_played: int


def _as_variant(variant: Variant | str) -> Variant:
    return load_variant(variant) if isinstance(variant, str) else variant


@functools.lru_cache(maxsize=4096)
def _arrangements(counts: tuple[int, ...], picks: int) -> int:
    """Distinct ordered picks of ``picks`` items from a multiset with these multiplicities."""
    if picks == 0:
        return 1
    total = 0
    for index, count in enumerate(counts):
        if count:
            rest = tuple(sorted((*counts[:index], count - 1, *counts[index + 1 :]), reverse=True))
            total += _arrangements(rest, picks - 1)
    return total


class PushChoices:
    """Every distinct push of a hand to its targets, counted and unranked without a list.

    With one deck every code is held once and a push is a partial permutation.
    With two decks a code held twice may go to two targets; the distinct
    arrangements of that multiset are counted and unranked code by code.
    """

    __slots__ = ("_codes", "_counts", "_size", "_targets")

    def __init__(self, hand: int, targets: list[int]) -> None:
        held = Counter(str(card) for card in cards_of(hand))
        self._codes = list(held)
        self._counts = [held[code] for code in self._codes]
        self._targets = targets
        self._size = self._count(self._counts, len(targets))

    @staticmethod
    def _count(counts: list[int], picks: int) -> int:
        if all(count == 1 for count in counts):
            size = 1
            for step in range(picks):
                size *= len(counts) - step
            return max(size, 0)
        return _arrangements(tuple(sorted(counts, reverse=True)), picks)

    def __len__(self) -> int:
        return self._size

    def cards(self, index: int) -> dict[int, str]:
        """The push at ``index`` (0 <= index < len): target seat -> card code."""
        codes, counts = list(self._codes), list(self._counts)
        given: dict[int, str] = {}
        for position, target in enumerate(self._targets):
            left = len(self._targets) - position - 1
            if all(count <= 1 for count in counts):
                # Partial permutation of distinct codes: a mixed-radix digit per target.
                available = [i for i, count in enumerate(counts) if count]
                index, pick = divmod(index, len(available))
                chosen = available[pick]
            else:
                for chosen, count in enumerate(counts):
                    if not count:
                        continue
                    counts[chosen] -= 1
                    block = self._count([c for c in counts if c], left)
                    counts[chosen] += 1
                    if index < block:
                        break
                    index -= block
            counts[chosen] -= 1
            given[target] = codes[chosen]
        return given

    def __contains__(self, given: object) -> bool:
        if not isinstance(given, dict) or sorted(given) != sorted(self._targets):
            return False
        wanted = Counter(given.values())
        held = dict(zip(self._codes, self._counts, strict=True))
        return all(held.get(code, 0) >= n for code, n in wanted.items())


class LegalActions(Sequence[Action]):
    """A seat's legal actions: a sequence that builds each action only when asked.

    The 2,184 pushes of a 14-card hand, or hundreds of plays, are counted and
    indexed without being built. Order: :attr:`fixed` (calls, passes,
    decisions), then the plays, then the pushes.
    """

    __slots__ = ("_fixed", "_plays", "_pushes", "_seat")

    def __init__(
        self,
        seat: int,
        fixed: list[Action],
        plays: list[Combination] | None = None,
        pushes: PushChoices | None = None,
    ) -> None:
        self._seat = seat
        self._fixed = fixed
        self._plays = plays or []
        self._pushes = pushes

    def __len__(self) -> int:
        pushes = len(self._pushes) if self._pushes is not None else 0
        return len(self._fixed) + len(self._plays) + pushes

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(f"legal action index {index} out of range ({size} actions)")
        if index < len(self._fixed):
            return self._fixed[index]
        index -= len(self._fixed)
        if index < len(self._plays):
            return play_action(self._seat, self._plays[index])
        assert self._pushes is not None
        return Push(self._seat, self._pushes.cards(index - len(self._plays)))

    def __iter__(self) -> Iterator[Action]:
        for index in range(len(self)):
            yield self[index]

    def __contains__(self, action: object) -> bool:
        if isinstance(action, Play) and action.seat == self._seat:
            # A Play without `phoenix` is listed when some reading of its cards is.
            for combination in self._plays:
                listed = play_action(self._seat, combination)
                if listed.cards == action.cards and action.phoenix in (None, listed.phoenix):
                    return True
            return False
        if isinstance(action, Push) and action.seat == self._seat and self._pushes is not None:
            return dict(action.cards) in self._pushes
        return action in self._fixed

    def __repr__(self) -> str:
        return f"<LegalActions seat={self._seat}: {len(self)} actions>"

    @property
    def combinations(self) -> list[Combination]:
        """The plays as combinations (no Play objects built); they follow :attr:`fixed`."""
        return self._plays

    @property
    def fixed(self) -> list[Action]:
        """The actions listed first: calls, passes and decisions (no plays, no pushes)."""
        return list(self._fixed)


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Fisher-Yates with rejection sampling on ``getrandbits``, in place.

    Written out rather than ``rng.shuffle`` so that a seed deals the same cards on
    every machine and Python version: only the Mersenne Twister's raw bits, which
    Python keeps stable, decide the order.
    """
    for top in range(len(cards) - 1, 0, -1):
        bound = top + 1
        bits = bound.bit_length()
        pick = rng.getrandbits(bits)
        while pick >= bound:
            pick = rng.getrandbits(bits)
        cards[top], cards[pick] = cards[pick], cards[top]


def play_action(seat: int, combination: Combination) -> Play:
    """The Play action of a listed combination."""
    return make_play(
        seat,
        play_codes(combination.cards),
        RANK_NAMES[combination.phoenix] if combination.phoenix else None,
    )


class Game:
    """A whole match of a variant (SPEC.md ``Game``)."""

    def __init__(
        self,
        variant: Variant | str,
        seed: int | None = None,
        deals: Iterable[Sequence[Sequence[str | int]]] | None = None,
    ) -> None:
        self.variant = _as_variant(variant)
        self.hooks = Hooks(self.variant.plugins, self.variant.allow_imports)
        self.rules: PlayRules = self.hooks.first("tichu_play_rules", variant=self.variant)
        self.seed = seed if seed is not None else int.from_bytes(os.urandom(6), "big")
        self._rng = random.Random(self.seed)
        self.seats: int = int(self.hooks.first("tichu_seats", variant=self.variant))
        self.players = self.variant.players
        self._deck: int = int(self.hooks.first("tichu_deck", variant=self.variant))
        self._stacked = [self._check_deal(deal, number) for number, deal in enumerate(deals or [])]
        self.score_lines: list[str] = list(
            self.hooks.first("tichu_score_lines", variant=self.variant, players=self.players)
        )
        self.scores: list[int] = [0] * len(self.score_lines)
        self.hand_results: list[HandResult] = []
        self.is_over = False
        self.winners: list[int] = []
        self._actions: list[Action] = []
        self._events: list[Event] = []
        self._controllers_by_hand: list[list[int]] = []
        self._version = 0
        self._turn_cache: tuple[int, int, list[Combination], bool] | None = None
        self.hand: HandState = self._new_hand(None)
        self._controllers_by_hand.append(list(self.hand.controllers))
        self._events.extend(self.hand.take_events())

    # --- dealing -------------------------------------------------------------------

    def _check_deal(self, deal: Sequence[Sequence[str | int]], number: int) -> list[list[int]]:
        """Cards of a stacked deal, copies assigned in order; DealError if it is not the deck."""
        if len(deal) != self.seats:
            raise DealError(f"stacked deal {number}: {len(deal)} hands for {self.seats} seats")
        left = self._deck
        hands: list[list[int]] = []
        for seat, cards in enumerate(deal):
            hand: list[int] = []
            for card in cards:
                try:
                    first = card_of_code(card) if isinstance(card, str) else CARDS[card]
                except (CardError, IndexError, TypeError) as error:
                    raise DealError(f"stacked deal {number}, seat {seat}: {error}") from error
                base = first - SECOND_COPY if (first >> 2) & 1 else int(first)
                for candidate in (base, base + SECOND_COPY):
                    if left >> candidate & 1:
                        left &= ~(1 << candidate)
                        hand.append(candidate)
                        break
                else:
                    raise DealError(
                        f"stacked deal {number}, seat {seat}: {CARDS[base]} is not (or no "
                        "longer) in the deck"
                    )
            hands.append(hand)
        if left:
            raise DealError(f"stacked deal {number}: cards not dealt: {format_mask(left)}")
        return hands

    def _new_hand(self, previous: HandState | None) -> HandState:
        index = len(self.hand_results)
        seating = self.hooks.first(
            "tichu_next_hand", variant=self.variant, previous=previous, players=self.players
        )
        if index < len(self._stacked):
            dealt = self._stacked[index]
        else:
            cards = [int(c) for c in cards_of(self._deck)]
            shuffle(cards, self._rng)
            dealt = self.hooks.first(
                "tichu_deal",
                variant=self.variant,
                cards=cards,
                dealer=seating.dealer,
                seats=self.seats,
            )
        hand = HandState(self.variant, self.hooks, self.rules, index, seating, dealt)
        hand._emit(
            HandStarted,
            dealer=seating.dealer,
            players=list(seating.players),
            hand_sizes=[len(cards) for cards in dealt],
        )
        hand.start()
        return hand

    # --- who acts --------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat whose ordinary turn it is (None outside play or while a decision is pending)."""
        hand = self.hand
        if hand.phase != PLAY or hand.pending is not None:
            return None
        return hand.turn

    @property
    def waiting_for(self) -> list[int]:
        """Seats whose decision the game needs to go on."""
        hand = self.hand
        if self.is_over:
            return []
        if hand.pending is not None:
            return [hand.pending.seat]
        if hand.phase == OVER:
            return []
        if hand.phase == GRAND_TICHU:
            return [s for s in range(hand.seats) if hand.grand_tichu[s] is None]
        if hand.phase == EXCHANGE:
            return [s for s in range(hand.seats) if hand.pushes[s] is None and hand.push_targets[s]]
        return [hand.turn] if hand.turn is not None else []

    @property
    def to_act(self) -> list[int]:
        """Seats that may act now, optional acts (calls, bombs out of turn) included."""
        if self.is_over:
            return []
        return [s for s in range(self.hand.seats) if len(self.legal_actions(s))]

    def seat_of(self, player: int) -> int | None:
        self._check_player(player)
        try:
            return self.hand.players.index(player)
        except ValueError:
            return None

    def player_at(self, seat: int) -> int | None:
        self._check_seat(seat)
        return self.hand.players[seat]

    def controller(self, seat: int) -> int:
        self._check_seat(seat)
        return self.hand.controllers[seat]

    def _check_seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise InvalidAction(f"seat must be 0..{self.seats - 1}, got {seat!r}")
        return seat

    def _check_player(self, player: object) -> int:
        if (
            isinstance(player, bool)
            or not isinstance(player, int)
            or not 0 <= player < self.players
        ):
            raise InvalidAction(f"player must be 0..{self.players - 1}, got {player!r}")
        return player

    # --- legal actions ---------------------------------------------------------------

    def _turn_plays(self, seat: int) -> tuple[list[Combination], bool]:
        """The plays of the seat on turn, the wish applied (cached until the next action)."""
        cache = self._turn_cache
        if cache is not None and cache[0] == self._version and cache[1] == seat:
            return cache[2], cache[3]
        hand = self.hand
        cards = hand.hands[seat]
        obliged = False
        if hand.collecting:
            # S-TRICK-2, S-BOMB-5: collecting its own trick, the top seat may only bomb.
            plays = self.rules.bombs(cards, hand.top) if self.variant.bombs.own_trick else []
        else:
            plays = self.rules.plays(cards, hand.top)
            wish = hand.wish
            if (
                wish is not None
                and cards & RANK_BITS[wish]
                and self.hooks.first(
                    "tichu_wish_applies", variant=self.variant, state=hand, seat=seat
                )
            ):
                plays, obliged = self.rules.apply_wish(cards, plays, wish)
        self._turn_cache = (self._version, seat, plays, obliged)
        return plays, obliged

    def legal_actions(self, seat: int) -> LegalActions:
        """Every distinct legal action of ``seat`` now (a lazy sequence)."""
        self._check_seat(seat)
        hand = self.hand
        if self.is_over or (hand.phase == OVER and hand.pending is None):
            return LegalActions(seat, [])
        fixed: list[Action] = []
        if hand.may_still_call_tichu(seat):
            fixed.append(Tichu(seat))
        phase = hand.phase
        if phase == GRAND_TICHU:
            if hand.grand_tichu[seat] is None:
                fixed.append(GrandTichu(seat, False))
                if hand.may_still_call_grand_tichu(seat):
                    fixed.append(GrandTichu(seat, True))
            return LegalActions(seat, fixed)
        if phase == EXCHANGE:
            if hand.pushes[seat] is None and hand.push_targets[seat]:
                pushes = PushChoices(hand.hands[seat], hand.push_targets[seat])
                return LegalActions(seat, fixed, None, pushes)
            return LegalActions(seat, fixed)
        pending = hand.pending
        if pending is not None:
            if pending.seat == seat:
                if pending.kind == WISH:
                    fixed += [Wish(seat, None)] + [Wish(seat, r) for r in pending.options]
                elif pending.kind == GIVE_TRICK:
                    fixed += [GiveTrick(seat, to) for to in pending.options]
                elif pending.kind == GIVE_LEAD:
                    fixed += [GiveLead(seat, to) for to in pending.options]
            return LegalActions(seat, fixed)
        if seat == hand.turn:
            plays, obliged = self._turn_plays(seat)
            if hand.top is not None and (hand.collecting or not obliged):
                fixed.append(Pass(seat))
            return LegalActions(seat, fixed, plays)
        if hand.bombing_allowed(seat):
            return LegalActions(seat, fixed, self.rules.bombs(hand.hands[seat], hand.top))
        return LegalActions(seat, fixed)

    # --- applying --------------------------------------------------------------------

    def apply(self, action: Action | dict[str, Any] | str) -> list[Event]:
        """Apply one action; returns its events. Raises InvalidAction / IllegalAction /
        PluginError and then leaves the game exactly as it was."""
        validate = _VALIDATORS.get(type(action))
        if validate is None:
            if not isinstance(action, dict | str | bytes):
                raise InvalidAction(f"not an action: {action!r}")
            action = action_from_json(action)
            validate = _VALIDATORS[type(action)]
        checked: Action = action  # type: ignore[assignment]  # one of the action classes now
        if self.is_over:
            raise IllegalAction("the match is over", "S-GAME-1")
        seat = checked.seat
        if not 0 <= seat < self.seats:
            raise InvalidAction(f"seat must be 0..{self.seats - 1}, got {seat!r}")
        change = validate(self, checked)
        before = self.hand.clone()
        scores_before = list(self.scores)
        hands_before = len(self.hand_results)
        try:
            change()
            events = self.hand.take_events()
            if self.hand.phase == OVER and self.hand.score is not None:
                events += self._end_hand()
        except Exception:
            # A failing plugin (or engine bug) must leave the game as it was.
            self.hand = before
            self.scores = scores_before
            del self.hand_results[hands_before:]
            del self._controllers_by_hand[hands_before + 1 :]
            self.is_over = False
            self.winners = []
            raise
        self._actions.append(checked)
        self._version += 1
        self._events.extend(events)
        return events

    def _end_hand(self) -> list[Event]:
        hand = self.hand
        score = hand.score
        assert score is not None
        if len(score.scores) != len(self.scores):
            raise PluginError(
                f"hook tichu_score_hand gave {len(score.scores)} scores for "
                f"{len(self.scores)} score lines ({', '.join(self.score_lines)})",
                hook="tichu_score_hand",
            )
        for line, points in enumerate(score.scores):
            self.scores[line] += points
        calls = hand.calls()
        self.hand_results.append(
            HandResult(
                index=hand.hand_index,
                scores=list(score.scores),
                out_order=list(hand.out_order),
                players=list(hand.players),
                card_points=list(score.card_points),
                double_victory=score.double_victory,
                calls=calls,
            )
        )
        events: list[Event] = [
            make_event(
                HandScored,
                {
                    "hand": hand.hand_index,
                    "scores": list(score.scores),
                    "totals": list(self.scores),
                    "out_order": list(hand.out_order),
                    "card_points": list(score.card_points),
                    "double_victory": score.double_victory,
                },
            )
        ]
        winners = self.hooks.first(
            "tichu_match_over",
            variant=self.variant,
            totals=list(self.scores),
            hands_played=len(self.hand_results),
        )
        if winners:
            self.is_over = True
            self.winners = list(winners)
            events.append(
                make_event(
                    MatchOver,
                    {
                        "hand": hand.hand_index,
                        "totals": list(self.scores),
                        "winners": list(winners),
                    },
                )
            )
            return events
        rng_state = self._rng.getstate()
        try:
            self.hand = self._new_hand(hand)
        except Exception:
            self._rng.setstate(rng_state)
            raise
        self._controllers_by_hand.append(list(self.hand.controllers))
        events += self.hand.take_events()
        return events

    # validators: check an action against the state without changing anything, and
    # return the change to make.

    def _validate_grand_tichu(self, action: GrandTichu) -> Any:
        hand, seat = self.hand, action.seat
        if hand.phase != GRAND_TICHU:
            raise IllegalAction("Grand Tichu is decided only after the first cards", "S-DEAL-2")
        if hand.grand_tichu[seat] is not None:
            raise IllegalAction(f"seat {seat} has already decided on Grand Tichu", "S-DEAL-2")
        if action.call and not hand.may_still_call_grand_tichu(seat):
            raise IllegalAction(f"seat {seat} may not call Grand Tichu", "S-CALL-1")
        return lambda: hand.do_grand_tichu(seat, action.call)

    def _validate_tichu(self, action: Tichu) -> Any:
        hand, seat = self.hand, action.seat
        if not hand.may_still_call_tichu(seat):
            if hand.phase == GRAND_TICHU:
                reason = "Tichu is called holding all 14 cards"
            elif hand.played_any[seat]:
                reason = f"seat {seat} has already played a card"
            elif hand.tichu[seat]:
                reason = f"seat {seat} has already called Tichu"
            elif hand.grand_tichu[seat]:
                reason = f"seat {seat} called Grand Tichu (one call per seat)"
            else:
                reason = f"seat {seat} may not call Tichu now"
            raise IllegalAction(reason, "S-CALL-1")
        return lambda: hand.do_tichu(seat)

    def _validate_push(self, action: Push) -> Any:
        hand, seat = self.hand, action.seat
        if hand.phase != EXCHANGE:
            raise IllegalAction("cards are pushed only in the exchange", "S-EX-1")
        if hand.pushes[seat] is not None or not hand.push_targets[seat]:
            raise IllegalAction(f"seat {seat} has no push to make", "S-EX-1")
        targets = sorted(action.cards)
        if targets != sorted(hand.push_targets[seat]):
            raise IllegalAction(
                f"seat {seat} gives exactly one card to each of seats "
                f"{sorted(hand.push_targets[seat])}, not to {targets}",
                "S-EX-1",
            )
        try:
            taken = take_cards(list(action.cards.values()), hand.hands[seat])
        except CardError as error:
            raise InvalidAction(f"push of seat {seat}: {error}") from error
        cards: dict[int, int] = {}
        used = 0
        for target, code in action.cards.items():
            card = card_of_code(code)
            for candidate in (int(card), int(card) + SECOND_COPY):
                if taken >> candidate & 1 and not used >> candidate & 1:
                    used |= 1 << candidate
                    cards[target] = candidate
                    break
        return lambda: hand.do_push(seat, cards)

    def _validate_play(self, action: Play) -> Any:
        hand, seat = self.hand, action.seat
        self._require_play_phase(seat)
        try:
            mask = take_cards(action.cards.split(), hand.hands[seat])
        except CardError as error:
            raise InvalidAction(f"seat {seat} cannot play {action.cards}: {error}") from error
        phoenix = RANK_OF_NAME[action.phoenix] if action.phoenix is not None else None
        top = hand.top
        if seat == hand.turn:
            candidates, obliged = self._turn_plays(seat)
        else:
            candidates, obliged = self._out_of_turn_bombs(seat), False
        matching = [
            c for c in candidates if c.cards == mask and (phoenix is None or c.phoenix == phoenix)
        ]
        if not matching:
            self._explain_illegal_play(seat, mask, phoenix, top, obliged)
        play = max(matching, key=lambda c: c.rank)
        return lambda: hand.do_play(seat, play)

    def _out_of_turn_bombs(self, seat: int) -> list[Combination]:
        hand = self.hand
        if not hand.bombing_allowed(seat):
            top = hand.top
            if top is None:
                raise IllegalAction(
                    f"it is seat {hand.turn}'s turn; no bomb on an empty trick", "S-BOMB-4"
                )
            if top.kind == DOG:
                raise IllegalAction("no bomb may follow the Dog", "S-DOG-1")
            raise IllegalAction(f"seat {seat} may not bomb its own trick", "S-BOMB-5")
        return self.rules.bombs(hand.hands[seat], hand.top)

    def _explain_illegal_play(
        self, seat: int, mask: int, phoenix: int | None, top: Combination | None, obliged: bool
    ) -> None:
        hand = self.hand
        text = format_mask(mask)
        readings = self.rules.recognize(mask, top)
        if not readings:
            counts = [((mask >> 8 * (r - 1)) & 0xFF).bit_count() for r in range(2, 15)]
            held = [c for c in counts if c]
            if max(counts) >= 5 or (len(held) >= 2 and all(c == 3 for c in held)):
                raise IllegalAction(
                    f"{text}: five of a rank and runs of triples are no combination", "S-COMB-2"
                )
            raise IllegalAction(f"{text} is not a combination", "S-COMB-1")
        if phoenix is not None and all(r.phoenix != phoenix for r in readings):
            raise IllegalAction(
                f"in {text} the Phoenix cannot stand for {RANK_NAMES[phoenix]}", "S-COMB-4"
            )
        fitting = [r for r in readings if self.rules.beats(r, top)]
        if seat != hand.turn and not any(r.is_bomb for r in readings):
            raise IllegalAction(
                f"it is not seat {seat}'s turn: only a bomb may be played out of turn", "S-BOMB-3"
            )
        if seat == hand.turn and hand.collecting:
            raise IllegalAction(
                f"seat {seat} leads this trick: it collects it by passing (or bombs)", "S-TRICK-2"
            )
        if readings[0].kind == DOG and top is not None:
            raise IllegalAction("the Dog may only be led", "S-DOG-1")
        if not fitting:
            if top is not None and top.is_bomb and any(r.is_bomb for r in readings):
                raise IllegalAction(f"{text} does not beat the bomb on the trick", "S-BOMB-2")
            raise IllegalAction(f"{text} does not beat the trick's top play", "S-COMB-3")
        if obliged and hand.wish is not None:
            raise IllegalAction(
                f"the wish for {RANK_NAMES[hand.wish]} binds seat {seat}: it must play a "
                "combination with that rank",
                "S-WISH-2",
            )
        raise IllegalAction(f"{text} may not be played now", "S-COMB-3")

    def _require_play_phase(self, seat: int) -> None:
        hand = self.hand
        if hand.phase != PLAY:
            rule = {GRAND_TICHU: "S-DEAL-2", EXCHANGE: "S-EX-1"}.get(hand.phase, "S-END-1")
            raise IllegalAction(f"no card play in the {hand.phase} phase", rule)
        if hand.pending is not None:
            pending = hand.pending
            rule = {WISH: "S-WISH-1", GIVE_TRICK: "S-DRAGON-1", GIVE_LEAD: "T6-4"}[pending.kind]
            raise IllegalAction(
                f"seat {pending.seat} must first decide ({pending.kind.replace('_', ' ')})", rule
            )
        if not hand.hands[seat]:
            raise IllegalAction(f"seat {seat} is out of this hand", "S-TRICK-3")

    def _validate_pass(self, action: Pass) -> Any:
        hand, seat = self.hand, action.seat
        self._require_play_phase(seat)
        if seat != hand.turn:
            raise IllegalAction(f"it is not seat {seat}'s turn (seat {hand.turn})", "S-TRICK-1")
        if hand.top is None:
            raise IllegalAction(f"seat {seat} leads and cannot pass", "S-TRICK-1")
        if not hand.collecting:
            _, obliged = self._turn_plays(seat)
            if obliged:
                raise IllegalAction(
                    f"the wish for {RANK_NAMES[hand.wish or 0]} binds seat {seat}: "
                    "it must play that rank",
                    "S-WISH-2",
                )
        return lambda: hand.do_pass(seat)

    def _pending_for(self, seat: int, kind: str, rule: str) -> list[int]:
        pending = self.hand.pending
        if pending is None or pending.kind != kind or pending.seat != seat:
            raise IllegalAction(f"seat {seat} has no {kind.replace('_', ' ')} decision", rule)
        return pending.options

    def _validate_wish(self, action: Wish) -> Any:
        hand, seat = self.hand, action.seat
        self._pending_for(seat, WISH, "S-WISH-1")
        rank = RANK_OF_NAME[action.rank] if action.rank is not None else None
        return lambda: hand.do_wish(seat, rank)

    def _validate_give_trick(self, action: GiveTrick) -> Any:
        hand, seat = self.hand, action.seat
        options = self._pending_for(seat, GIVE_TRICK, "S-DRAGON-1")
        if action.to not in options:
            raise IllegalAction(
                f"the Dragon trick goes to one of seats {options}, not {action.to}", "S-DRAGON-1"
            )
        return lambda: hand.do_give_trick(seat, action.to)

    def _validate_give_lead(self, action: GiveLead) -> Any:
        hand, seat = self.hand, action.seat
        options = self._pending_for(seat, GIVE_LEAD, "T6-4")
        if action.to not in options:
            raise IllegalAction(f"the lead goes to one of seats {options}, not {action.to}", "T6-4")
        return lambda: hand.do_give_lead(seat, action.to)

    # --- what players see --------------------------------------------------------------

    def _visible_seats(self, player: int | None) -> list[int]:
        return list(
            self.hooks.first(
                "tichu_visible_seats", variant=self.variant, state=self.hand, player=player
            )
        )

    def observation(self, player: int | None) -> Observation:
        """What ``player`` may know now (None: a spectator)."""
        if player is not None:
            self._check_player(player)
        hand = self.hand
        own = [s for s in range(hand.seats) if hand.controllers[s] == player]
        visible = sorted(set(self._visible_seats(player)))
        first = own[0] if own else None
        pushed: dict[int, str] = {}
        received: dict[int, str] = {}
        for seat in own:
            pushes = hand.pushes[seat]
            if pushes:
                pushed.update({t: str(CARDS[c]) for t, c in pushes.items()})
            if hand.phase in (PLAY, OVER):
                received.update({g: str(CARDS[c]) for g, c in hand.received[seat].items()})
        pending = None
        if hand.pending is not None:
            pending = {"kind": hand.pending.kind, "seat": hand.pending.seat}
            if hand.pending.seat in own:
                options = hand.pending.options
                pending["options"] = (
                    [RANK_NAMES[r] for r in options] if hand.pending.kind == WISH else list(options)
                )
        calls = hand.calls()
        return Observation(
            player=player,
            seats=own,
            hand_index=hand.hand_index,
            phase=hand.phase,
            dealer=hand.dealer,
            hand=codes_of(hand.hands[first])[::-1] if first is not None else [],
            hands={s: codes_of(hand.hands[s])[::-1] for s in visible},
            hand_sizes=[m.bit_count() for m in hand.hands],
            players=list(hand.players),
            teams=list(hand.teams),
            turn=self.turn,
            waiting_for=self.waiting_for,
            trick=hand.trick_view(),
            top_seat=hand.top_seat,
            wish=RANK_NAMES[hand.wish] if hand.wish else None,
            pending=pending,
            calls=calls,
            grand_tichu_decided=[d is not None for d in hand.grand_tichu],
            pushed=pushed,
            received=received,
            out_order=list(hand.out_order),
            won_points=[mask_points(p) for p in hand.piles],
            won_cards=[p.bit_count() for p in hand.piles],
            scores=list(self.scores),
            score_lines=list(self.score_lines),
            hands_played=len(self.hand_results),
        )

    def events_for(self, player: int | None, since: int = 0) -> list[Event]:
        """The events ``player`` may see (None: a spectator), from position ``since`` of
        that player's own stream."""
        if player is not None:
            self._check_player(player)
        seen = []
        for event in self._events:
            audience = event.visible_to
            if audience is None or (
                player is not None
                and any(self._controllers_by_hand[event.hand][s] == player for s in audience)
            ):
                seen.append(event)
        return seen[since:]

    @property
    def event_log(self) -> list[Event]:
        """Every event unredacted: for referees, transcripts and tests, never for a player."""
        return list(self._events)

    @property
    def actions(self) -> list[Action]:
        """Every action applied so far, in order."""
        return list(self._actions)

    # --- save and restore --------------------------------------------------------------

    def to_json(self) -> str:
        """The exact game: variant, seed, stacked deals and actions (cards as codes)."""
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "version": SAVE_VERSION,
                "variant": self.variant.model_dump(mode="json", exclude={"allow_imports"}),
                "seed": self.seed,
                "deals": [
                    [[str(CARDS[c]) for c in hand] for hand in deal] for deal in self._stacked
                ],
                "actions": [action_to_dict(a) for a in self._actions],
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str | bytes, *, allow_imports: bool = False) -> Game:
        """Restore a game saved by :meth:`to_json` (replaying its actions)."""
        try:
            data = json.loads(text)
        except ValueError as error:
            raise InvalidAction(f"a saved game is JSON: {error}") from error
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise InvalidAction(f"not a saved {SAVE_FORMAT!r} game")
        if data.get("version") != SAVE_VERSION:
            raise InvalidAction(
                f"saved game version {data.get('version')!r}; this engine reads {SAVE_VERSION}"
            )
        seed, actions, deals = data.get("seed"), data.get("actions", []), data.get("deals")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidAction(f"a saved game's seed is an int, got {seed!r}")
        if not isinstance(actions, list) or not isinstance(deals, list | None):
            raise InvalidAction("a saved game's actions and deals are lists")
        if not isinstance(data.get("variant"), dict):
            raise InvalidAction("a saved game holds its variant as an object")
        variant_data = dict(data["variant"])
        variant_data["allow_imports"] = allow_imports
        try:
            variant = Variant.model_validate(variant_data)
        except ValidationError as error:
            raise InvalidAction(f"the saved game's variant is invalid: {error}") from error
        game = cls(variant, seed=seed, deals=deals or None)
        for number, raw in enumerate(actions):
            try:
                game.apply(raw)
            except (InvalidAction, IllegalAction, PluginError) as error:
                raise InvalidAction(
                    f"saved action {number} ({raw}) does not replay: {error}"
                ) from error
        return game


# Each action class and the Game method that checks it (and returns the change to make).
_VALIDATORS: dict[type, Any] = {
    GrandTichu: Game._validate_grand_tichu,
    Tichu: Game._validate_tichu,
    Push: Game._validate_push,
    Play: Game._validate_play,
    Pass: Game._validate_pass,
    Wish: Game._validate_wish,
    GiveTrick: Game._validate_give_trick,
    GiveLead: Game._validate_give_lead,
}
