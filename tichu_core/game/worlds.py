"""Sampled worlds: a complete game that agrees with everything one player knows.

``sample_world(variant, player, events, rng)`` reads only what that player was shown
(``game.events_for(player)``: its own cards dealt, pushed and received, the hands
it may see, every public action) and returns a real :class:`Game` of the same
variant at the same moment, whose history is one the engine accepted: the engine
itself dealt a stacked deal for every hand and replayed the public actions, with
the hidden pushes of the other seats filled in. So the world keeps every rule of
the variant, plugins included, without this module knowing any of them.

What is drawn: in the running hand, where each card the player cannot see lies now
(a seat's hand, or, before the Grand Tichu cards are all dealt, the cards still to
come), uniformly among the placements consistent with the player's knowledge. Each
physical card is drawn (two copies of a code are two cards), as a fair shuffle
conditioned on that knowledge would. Hidden pushes that already happened are then
chosen to fit (any consistent choice: the player cannot see them); past hands are
filled the same way, and only their public record matters.

How the draw stays uniform: cards are dealt to the places they may be (hand sizes
as capacities, and cards the rules rule out for a seat kept away from it: a card
with which a seat would have had to fulfil the wish when it passed or played
something else, S-WISH-2; a card better than the best cards a seat was forced to
give, GS-6), exactly uniformly among such placements (counted, not guessed), and
every draw is then checked by replaying it: the world must show the player exactly
its own events (the same event stream: so also the same observation). A draw that
fails is thrown away and drawn again (rejection keeps the draw uniform on the
consistent placements); a wish the replay finds unfulfilled teaches the dealer
which cards to keep away from that seat for the next draws.

What it costs: the placements are counted, never listed (seats the rules treat alike
are counted as one, see ``_Counter``), so memory and time stay small at every table
size (a 12-seat Grand Seigneur hand included); a problem too large to count exactly
is drawn from a looser one and checked (COUNT_LIMIT). A record that is no record (a
seat out of range, a value of the wrong type) is a TichuError naming the event.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, NoReturn

from tichu_core.cardplay.cards import RANK_BITS, indexes_of, play_codes, take_cards
from tichu_core.errors import CardError, IllegalAction, InvalidAction, TichuError
from tichu_core.game.actions import (
    Action,
    AnotherHand,
    GiveLead,
    GiveTrick,
    GrandTichu,
    Pass,
    Play,
    Push,
    Tichu,
    Wish,
)
from tichu_core.game.dealing import stacked_deal
from tichu_core.game.events import (
    AnotherHandDecided,
    CardsDealt,
    CardsReceived,
    DragonGiven,
    Event,
    ExchangeDone,
    GrandTichuDecided,
    HandShown,
    HandStarted,
    LeadPassed,
    Passed,
    Played,
    Pushed,
    PushWithdrawn,
    TichuCalled,
    WishMade,
)
from tichu_core.game.hand import GIVE_LEAD, GRAND_TICHU, HandState
from tichu_core.game.legality import Referee
from tichu_core.game.match import Game
from tichu_core.rules.rulebook import rulebook_for
from tichu_core.variants import Variant, load_variant

__all__ = ["MAX_DRAWS", "WorldSampler", "sample_world"]

# Draws tried for one hand before giving up. Rejection needs a few draws at most in
# practice (tests/test_worlds.py measures it); a position that needs more than this
# means the events are not one player's record of one game.
MAX_DRAWS: Final = 1000
# More cards than any deck holds (two copies of 56): no hand is this large.
_MOST_CARDS: Final = 112


def sample_world(
    variant: Variant | str | Game,
    player: int,
    events: Sequence[Event] | None = None,
    rng: random.Random | int | None = None,
) -> Game:
    """A complete game, at the moment ``events`` end, that ``player`` cannot tell from
    the one it is in, with every card it cannot know drawn at random.

    ``events`` is the player's own record, ``game.events_for(player)`` (all of it,
    from the start of the match). ``variant`` is the game's variant (or its name).
    A ``Game`` may be given instead of the variant, and ``events`` left out: its
    ``events_for(player)`` is read, nothing else of it. ``rng`` is a
    ``random.Random`` (used, and advanced) or a seed; the same record and the same
    generator state give the same world. TichuError if the events are not one
    player's record of a game of this variant.
    """
    if isinstance(variant, Game):
        if events is None:
            events = variant.events_for(player)
        variant = variant.variant
    elif isinstance(variant, str):
        variant = load_variant(variant)
    if not isinstance(variant, Variant):
        raise TichuError(f"sample_world needs a Variant, a variant name or a Game, got {variant!r}")
    if events is None:
        raise TichuError("sample_world needs the player's events (game.events_for(player))")
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < variant.players:
        raise TichuError(f"player must be 0..{variant.players - 1}, got {player!r}")
    generator = rng if isinstance(rng, random.Random) else random.Random(rng)
    return _Sampler(variant, player, list(events), generator).world()


class WorldSampler:
    """Worlds for one player of one match, sampled again and again (a search bot's
    decisions), each as :func:`sample_world` draws it, at a fraction of the cost late
    in a match: the replay of the hands before the current one is kept.

    ``sample_world`` replays every hand of the match at each call, to fill in the
    hidden pushes of past hands; only their public record matters to the world's
    present. This sampler does that once per past hand: every world it returns for
    a record that starts with the same past hands continues the same replay of them
    (same hidden past, same seed for the shuffles after the record), with the
    current hand's unseen cards drawn afresh at each call, uniformly as
    ``sample_world`` draws them. A record whose past differs from the kept one (a new
    match, another player's events) starts the replay again. Deterministic: the same
    records in the same order, with the same generator, give the same worlds.
    """

    def __init__(self, variant: Variant | str, player: int) -> None:
        if isinstance(variant, str):
            variant = load_variant(variant)
        if not isinstance(variant, Variant):
            raise TichuError(f"WorldSampler needs a Variant or a variant name, got {variant!r}")
        if (
            isinstance(player, bool)
            or not isinstance(player, int)
            or not 0 <= player < variant.players
        ):
            raise TichuError(f"player must be 0..{variant.players - 1}, got {player!r}")
        self.variant = variant
        self.player = player
        # The events of the kept past hands, their records, and the world before the
        # last action of the last of them (with that action): where the next hand's
        # replay starts (see _Sampler._start).
        self._past: list[Event] = []
        self._records: list[_HandRecord] = []
        self._base: tuple[Game, Action] | None = None
        # The moment of the last sample (the record's length and its last event) and its
        # sampler: the next world of the same moment reuses that sampler's caches (what
        # the player knows, the bars the rules give), which depend on the record alone.
        self._moment: tuple[int, Event | None] | None = None
        self._last: _Sampler | None = None

    def sample(self, events: Sequence[Event], rng: random.Random | int | None = None) -> Game:
        """A world at the moment ``events`` (the player's whole record) end; as
        :func:`sample_world`."""
        events = list(events)
        generator = rng if isinstance(rng, random.Random) else random.Random(rng)
        kept = len(self._past)
        if kept and not _same_prefix(events, self._past):
            self._past, self._records, self._base = [], [], None
            kept = 0
        hands = _read(events, self.variant.seats, self._records, kept)
        sampler = _Sampler(self.variant, self.player, events, generator, hands)
        moment = (len(events), events[-1] if events else None)
        if self._last is not None and self._moment == moment and self._moment[1] is moment[1]:
            sampler.share_caches(self._last)
        self._moment, self._last = moment, sampler
        done = len(self._records)
        if len(hands) - 1 > done:  # hands finished since: replay them once, from the kept
            self._base = sampler.replay_past(self._base, done, len(hands) - 1)
            self._records = hands[:-1]
            self._past = events[: hands[-1].start]
        return sampler.present(self._base)


# --------------------------------------------------------------------------- the record


@dataclass
class _HandRecord:
    """What the player was shown of one hand, read from its events."""

    index: int
    start: int  # position of the hand's first event in the player's stream
    end: int  # position after its last event
    sizes: list[int]
    dealt: dict[int, list[str]] = field(default_factory=dict)  # seat -> codes, dealing order
    pushed: dict[int, dict[int, list[str]]] = field(default_factory=dict)  # giver -> target
    received: dict[int, dict[int, list[str]]] = field(default_factory=dict)  # target -> giver
    shown: dict[int, tuple[list[str], int]] = field(default_factory=dict)  # seat -> cards, plays
    plays: list[tuple[int, int, list[str]]] = field(default_factory=list)  # position, seat, codes
    exchange_done: bool = False
    last_action: int = -1  # position of the last event that is an action


def _is_action(event: Event) -> bool:
    if isinstance(event, Pushed):
        return event.cards is None and not event.forced
    return isinstance(
        event,
        GrandTichuDecided
        | TichuCalled
        | Played
        | Passed
        | WishMade
        | DragonGiven
        | LeadPassed
        | AnotherHandDecided,
    )


def _read(
    events: list[Event], seats: int, known: list[_HandRecord] | None = None, start: int = 0
) -> list[_HandRecord]:
    """The records of the hands of ``events`` at a table of ``seats``; ``known``: the
    records of the hands before position ``start``, read already (a WorldSampler's
    past). TichuError for an event that is no event of such a table."""
    hands: list[_HandRecord] = list(known or ())
    for position in range(start, len(events)):
        event = events[position]
        _check(event, position, seats)
        if isinstance(event, HandStarted):
            if event.hand != len(hands):
                raise TichuError(f"event {position}: hand {event.hand} starts out of order")
            hands.append(_HandRecord(event.hand, position, position, list(event.hand_sizes)))
        if not hands or event.hand != hands[-1].index:
            raise TichuError(f"event {position} ({event.type}) belongs to no hand started before")
        hand = hands[-1]
        hand.end = position + 1
        if _is_action(event):
            hand.last_action = position
        if isinstance(event, CardsDealt):
            hand.dealt.setdefault(event.seat, []).extend(event.cards)
        elif isinstance(event, Pushed) and event.cards is not None:
            given = hand.pushed.setdefault(event.seat, {})
            for target, codes in event.cards.items():
                given.setdefault(target, []).extend(codes.split())
        elif isinstance(event, PushWithdrawn):  # S-EX-3: taken back, pushed again
            hand.pushed.pop(event.seat, None)
        elif isinstance(event, CardsReceived):
            got = hand.received.setdefault(event.seat, {})
            for giver, codes in event.cards.items():
                got.setdefault(giver, []).extend(codes.split())
        elif isinstance(event, HandShown):
            before = sum(1 for _, seat, _ in hand.plays if seat == event.seat)
            hand.shown[event.seat] = (list(event.cards), before)
        elif isinstance(event, Played):
            hand.plays.append((position, event.seat, list(event.cards)))
        elif isinstance(event, ExchangeDone):
            hand.exchange_done = True
    if not hands:
        raise TichuError("the events hold no hand (give game.events_for(player) from the start)")
    return hands


# The fields of an event that name a seat.
_SEAT_FIELDS: Final = ("seat", "to", "dealer", "leader")


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check(event: object, position: int, seats: int) -> None:
    """TichuError unless ``event`` is an event whose every value the sampler reads is
    of its type and in range: seats of the table, a hand number, card codes as text, a
    hand size per seat (a record may be forged: model_copy and model_construct take
    anything)."""
    if not isinstance(event, Event):
        raise TichuError(f"event {position} is no event: {event!r:.60}")

    def refuse(field: str, value: object) -> NoReturn:
        raise TichuError(f"event {position} ({event.type}): {field} {value!r:.60} is out of range")

    values = event.__dict__
    if not _is_count(values.get("hand")):
        refuse("hand", values.get("hand"))
    for name in _SEAT_FIELDS:
        if name in values and not (_is_count(values[name]) and values[name] < seats):
            refuse(name, values[name])
    if "cards" in values:
        cards = values["cards"]
        if isinstance(event, Pushed | CardsReceived):  # giver or target -> codes
            fits = (cards is None and isinstance(event, Pushed)) or (
                isinstance(cards, dict)
                and all(
                    _is_count(seat) and seat < seats and isinstance(codes, str)
                    for seat, codes in cards.items()
                )
            )
        else:
            fits = isinstance(cards, list) and all(isinstance(code, str) for code in cards)
        if not fits:
            refuse("cards", cards)
    if isinstance(event, HandStarted):
        sizes = values.get("hand_sizes")
        if not (
            isinstance(sizes, list)
            and len(sizes) == seats
            and all(_is_count(size) and size <= _MOST_CARDS for size in sizes)
        ):
            refuse("hand_sizes", sizes)


def _same_prefix(events: list[Event], prefix: list[Event]) -> bool:
    """Whether ``events`` starts with ``prefix`` (the same objects, as a game's log gives
    them again, or equal ones)."""
    # A list comparison: identity first, in C (the events of one game's log are the
    # same objects at every call), then the events' own equality (field by field).
    return len(events) >= len(prefix) and events[: len(prefix)] == prefix


def _same_events(ours: list[Event], theirs: list[Event]) -> bool:
    """Field by field (an event read back from JSON has no audience, yet is the same)."""
    return len(ours) == len(theirs) and all(
        type(a) is type(b) and a.__dict__ == b.__dict__ for a, b in zip(ours, theirs, strict=True)
    )


# --------------------------------------------------------------------------- the sampler


@dataclass
class _Structure:
    """What the rules make of a hand whatever the hidden cards: read from a probe world."""

    first_cards: int  # cards held when Grand Tichu is decided (the first of each deal)
    all_dealt: bool  # the probe got past the Grand Tichu phase
    push_counts: list[dict[int, int]]  # seat -> target -> cards it chooses
    forced_counts: list[dict[int, int]]  # seat -> target -> cards the rules take (GS-6)
    planned: HandState | None  # the hand as its exchange was planned (for forced probes)


@dataclass
class _WishContext:
    """A moment where a hidden seat passed or played without fulfilling an open wish."""

    seat: int
    position: int
    state: HandState  # the hand then (a copy), for the referee to judge other holdings
    wish: int


class _Sampler:
    def __init__(
        self,
        variant: Variant,
        player: int,
        events: list[Event],
        rng: random.Random,
        hands: list[_HandRecord] | None = None,
    ):
        self.variant = variant
        self.player = player
        self.events = events
        self.rng = rng
        self.hands = hands if hands is not None else _read(events, variant.seats)
        self.seed = rng.getrandbits(63)  # the world's own shuffles, after the record ends
        self.draws = 0  # every draw of every hand (measured by the tests)
        self.rulebook = rulebook_for(variant)
        self.deck = self.rulebook.deck()
        # Per hand, in turn: what was learned from refused draws, and what it bars.
        self._learned: list[_WishContext] = []
        self._barred_by: list[tuple[int, int]] = []
        self._known_cache: dict[int, _Known] = {}
        self._plays_cache: dict[int, list[int]] = {}
        self._forced_cache: dict[int, list[tuple[int, int]]] = {}
        self._leader_cache: dict[int, list[tuple[int, int]]] = {}
        self._pushes: dict[int, dict[int, str]] = {}  # the hidden pushes of the last hand

    def share_caches(self, other: _Sampler) -> None:
        """Use ``other``'s caches: it sampled a world of the same record (the draws do not
        depend on them, only their cost)."""
        self._known_cache = other._known_cache
        self._plays_cache = other._plays_cache
        self._forced_cache = other._forced_cache
        self._leader_cache = other._leader_cache

    # --- building on the engine ---------------------------------------------------

    def _start(self, base: tuple[Game, Action] | None, index: int, deal: list[list[int]]) -> Game:
        """A world at the start of hand ``index`` dealt ``deal``: a new game, or a copy
        of the world before the last action of the hand before, with the deal stacked."""
        if base is None:
            return Game(self.variant, seed=self.seed, deals=[deal])
        before, last = base
        world = before.copy()
        # The deal of the next hand is stacked before the action that ends this one:
        # the game reads its stacked deals when a hand starts (core.GameCore._new_hand).
        stacked = stacked_deal(deal, index, world.seats, world._deck)
        world._stacked = [*world._stacked, stacked]
        world.apply(last)
        return world

    def _action(
        self,
        world: Game,
        position: int,
        pushes: dict[int, dict[int, str]],
    ) -> Action | None:
        """The action behind the event at ``position`` (None: the engine's own event)."""
        event = self.events[position]
        if isinstance(event, Played):
            return Play(event.seat, event.cards, event.phoenix)
        if isinstance(event, Passed):
            return Pass(event.seat)
        if isinstance(event, Pushed):
            if event.cards is not None or event.forced:
                return None
            following = self.events[position + 1] if position + 1 < len(self.events) else None
            if (
                isinstance(following, Pushed)
                and following.cards is not None
                and following.seat == event.seat
                and not following.forced
            ):
                return Push(event.seat, following.cards)
            if event.seat in pushes:
                return Push(event.seat, pushes[event.seat])
            # A push not yet carried out (the exchange is still open): any of the seat's.
            listed = world.legal_actions(event.seat)
            return listed[self.rng.randrange(len(listed.fixed), len(listed))]
        if isinstance(event, GrandTichuDecided):
            return GrandTichu(event.seat, event.call)
        if isinstance(event, TichuCalled):
            return Tichu(event.seat)
        if isinstance(event, WishMade):
            return Wish(event.seat, event.rank)
        if isinstance(event, DragonGiven):
            return GiveTrick(event.seat, event.to)
        if isinstance(event, AnotherHandDecided):
            return AnotherHand(event.seat, event.more)
        if isinstance(event, LeadPassed):
            pending = world._hand.pending
            if pending is not None and pending.kind == GIVE_LEAD:
                return GiveLead(event.seat, event.to)
        return None

    def _probe_deal(self, record: _HandRecord) -> list[list[int]]:
        """Any deal with the hand's sizes and the player's own cards where it saw them."""
        left = self.deck
        deal: list[list[int]] = []
        for seat in range(len(record.sizes)):
            seen = record.dealt.get(seat, [])
            mask = take_cards(seen, left)
            left &= ~mask
            deal.append(_in_order(seen, mask))
        for seat, size in enumerate(record.sizes):
            rest = indexes_of(left)[: size - len(deal[seat])]
            deal[seat] += rest
            for card in rest:
                left &= ~(1 << card)
        return deal

    def _structure(self, base: tuple[Game, Action] | None, record: _HandRecord) -> _Structure:
        probe = self._start(base, record.index, self._probe_deal(record))
        first = probe._hand.grand_tichu_cards
        for position in range(record.start, record.end):
            event = self.events[position]
            if isinstance(event, GrandTichuDecided):
                probe.apply(GrandTichu(event.seat, event.call))
        hand = probe._hand
        all_dealt = hand.phase != GRAND_TICHU
        return _Structure(
            first_cards=first,
            all_dealt=all_dealt,
            push_counts=[dict(t) for t in hand.push_targets],
            forced_counts=[{t: m.bit_count() for t, m in f.items()} for f in hand.forced],
            planned=hand.clone() if all_dealt else None,
        )

    # --- the match --------------------------------------------------------------------

    def world(self) -> Game:
        return self.present(self.replay_past(None, 0, len(self.hands) - 1))

    def replay_past(
        self, base: tuple[Game, Action] | None, first: int, end: int
    ) -> tuple[Game, Action] | None:
        """The past hands ``first`` .. ``end - 1`` replayed on from ``base`` (the world
        before the last action of hand ``first - 1``, with that action): the same for
        hand ``end - 1``."""
        for record in self.hands[first:end]:
            world = self._hand_world(base, record, False)
            action = self._action(world, record.last_action, self._pushes)
            if action is None:
                raise TichuError(f"hand {record.index} ends without an action")
            base = (world, action)
        return base

    def present(self, base: tuple[Game, Action] | None) -> Game:
        """The world of the current (last) hand, from the replay of the hands before."""
        return self._hand_world(base, self.hands[-1], True)

    def _hand_world(
        self, base: tuple[Game, Action] | None, record: _HandRecord, current: bool
    ) -> Game:
        """A world that shows the player its events of this hand (up to the hand's last
        action if it is over: the next hand's deal is stacked before that action)."""
        structure = self._structure(base, record)
        self._learned = []
        self._barred_by = []
        stop = record.end if current else record.last_action
        for _ in range(MAX_DRAWS):
            self.draws += 1
            drawn = self._draw(record, structure, self._learned)
            if drawn is None:
                continue
            deal, pushes = drawn
            world = self._start(base, record.index, deal)
            if not self._replay(world, record, structure, stop, pushes):
                continue
            seen = world.events_for(self.player)
            if not _same_events(seen[record.start :], self.events[record.start : stop]):
                continue
            if not current and not self._ends_alike(world, record, pushes):
                continue
            self._pushes = pushes
            return world
        raise TichuError(
            f"no world agrees with player {self.player}'s events of hand {record.index} "
            f"after {MAX_DRAWS} draws: are they this variant's events of one game?"
        )

    def _ends_alike(
        self, world: Game, record: _HandRecord, pushes: dict[int, dict[int, str]]
    ) -> bool:
        """A past hand's last action shows the player the same end (its scores)."""
        action = self._action(world, record.last_action, pushes)
        if action is None:
            return False
        nxt = self.hands[record.index + 1]
        trial = world.copy()
        stacked = stacked_deal(self._probe_deal(nxt), nxt.index, trial.seats, trial._deck)
        trial._stacked = [*trial._stacked, stacked]
        try:
            trial.apply(action)
        except (IllegalAction, InvalidAction):
            return False
        seen = trial.events_for(self.player)
        return _same_events(
            seen[record.last_action : nxt.start], self.events[record.last_action : nxt.start]
        )

    def _replay(
        self,
        world: Game,
        record: _HandRecord,
        structure: _Structure,
        stop: int,
        pushes: dict[int, dict[int, str]],
    ) -> bool:
        """Apply the hand's actions before ``stop``; False on a refusal (a wish the seat
        would have had to fulfil is learned from)."""
        for position in range(record.start, stop):
            action = self._action(world, position, pushes)
            if action is None:
                continue
            hand = world._hand
            try:
                world.apply(action)
            except IllegalAction:
                wish = hand.wish
                if (
                    isinstance(action, Pass | Play)
                    and wish is not None
                    and action.seat == hand.turn
                    and not any(
                        c.seat == action.seat and c.position == position for c in self._learned
                    )
                ):
                    context = _WishContext(action.seat, position, hand.clone(), wish)
                    self._learn(record, structure, context)
                return False
            except InvalidAction:
                return False
        return True

    # --- one draw ---------------------------------------------------------------------

    def _draw(
        self, record: _HandRecord, structure: _Structure, learned: list[_WishContext]
    ) -> tuple[list[list[int]], dict[int, dict[int, str]]] | None:
        """A deal (and the hidden pushes already made) for the hand, or None: this draw
        breaks a rule learned earlier, or no exchange fits it."""
        known = self._known(record, structure)
        seats = len(record.sizes)
        placed = _deal_uniformly(known.groups, known.caps, self.rng)
        if placed is None:
            raise TichuError(f"hand {record.index}: no placement of the unseen cards fits")
        hands = list(known.hands)
        rests = [0] * seats
        for (seat, rest), cards in zip(known.places, placed, strict=True):
            mask = 0
            for card in cards:
                mask |= 1 << card
            if rest:
                rests[seat] = mask
            else:
                hands[seat] |= mask
        # The wish contexts learned so far, checked on the whole hands.
        for context in learned:
            held = hands[context.seat] | self._played_from(record, context.seat, context.position)
            if self._obliged(context, held):
                return None
        dealt = record.dealt
        if not structure.all_dealt:  # Grand Tichu phase: the first cards, then the rest
            deal = [
                (_in_order(dealt[s], hands[s]) if s in dealt else indexes_of(hands[s]))
                + indexes_of(rests[s])
                for s in range(seats)
            ]
            return deal, {}
        if not record.exchange_done:  # the cards have not moved yet
            deal = [
                _in_order(dealt[s], hands[s]) if known.deal_known[s] else indexes_of(hands[s])
                for s in range(seats)
            ]
            return deal, {}
        exchanged = self._exchange(record, structure, known, hands)
        if exchanged is None:
            return None
        deals, pushes = exchanged
        deal = [
            _in_order(dealt[s], deals[s]) if known.deal_known[s] else indexes_of(deals[s])
            for s in range(seats)
        ]
        return deal, pushes

    def _play_masks(self, record: _HandRecord) -> list[int]:
        """The cards of each play of the hand (copies fixed once, the same every draw)."""
        left = self.deck
        masks = []
        for _, _, codes in record.plays:
            mask = _take(codes, left, record)
            left &= ~mask
            masks.append(mask)
        return masks

    def _played_from(self, record: _HandRecord, seat: int, position: int) -> int:
        """The cards ``seat`` played at or after ``position`` of the stream."""
        masks = self._cache_plays(record)
        held = 0
        for (at, who, _), mask in zip(record.plays, masks, strict=True):
            if who == seat and at >= position:
                held |= mask
        return held

    def _cache_plays(self, record: _HandRecord) -> list[int]:
        cached = self._plays_cache.get(record.index)
        if cached is None:
            cached = self._plays_cache[record.index] = self._play_masks(record)
        return cached

    def _known(self, record: _HandRecord, structure: _Structure) -> _Known:
        """Where the player knows each card is now, and where the others may be (once per
        hand: it depends on the player's record alone)."""
        cached = self._known_cache.get(record.index)
        if cached is not None and cached.learned == len(self._barred_by):
            return cached
        seats = len(record.sizes)
        plays = self._cache_plays(record)
        left = self.deck
        played = [0] * seats
        played_codes: list[Counter[str]] = [Counter() for _ in range(seats)]
        for (_, seat, codes), mask in zip(record.plays, plays, strict=True):
            played[seat] |= mask
            played_codes[seat].update(codes)
            left &= ~mask

        def take(codes: list[str]) -> int:
            nonlocal left
            mask = _take(codes, left, record)
            left &= ~mask
            return mask

        deal_known = [len(record.dealt.get(s, [])) == record.sizes[s] for s in range(seats)]
        given = [
            sum(structure.push_counts[s].values()) + sum(structure.forced_counts[s].values())
            for s in range(seats)
        ]
        got = [0] * seats
        for s in range(seats):
            for counts in (structure.push_counts[s], structure.forced_counts[s]):
                for target, count in counts.items():
                    got[target] += count
        hands = [0] * seats
        open_seats = [False] * seats
        capacity = [0] * seats  # unseen cards in each hand now
        rest_capacity = [0] * seats  # cards still to be dealt (Grand Tichu phase)
        if not structure.all_dealt:
            for s in range(seats):
                seen = record.dealt.get(s, [])
                if seen:
                    hands[s] = take(seen)
                    open_seats[s] = True
                else:
                    capacity[s] = structure.first_cards
                rest_capacity[s] = record.sizes[s] - max(len(seen), structure.first_cards)
        else:
            for s in range(seats):
                if s in record.shown:  # face up (T3-4): what was shown, less what it played
                    cards, before = record.shown[s]
                    later: Counter[str] = Counter()
                    own = [codes for _, seat, codes in record.plays if seat == s]
                    for codes in own[before:]:
                        later.update(codes)
                    hands[s] = take(list((Counter(cards) - later).elements()))
                    open_seats[s] = True
                elif deal_known[s]:  # seen from the deal on: dealt, moved, played
                    now = Counter(record.dealt[s])
                    if record.exchange_done:
                        for codes in record.pushed.get(s, {}).values():
                            now.subtract(codes)
                        for codes in record.received.get(s, {}).values():
                            now.update(codes)
                    now.subtract(played_codes[s])
                    hands[s] = take(list((+now).elements()))
                    open_seats[s] = True
            for s in range(seats):
                if open_seats[s]:
                    continue
                size = record.sizes[s] - sum(len(c) for _, seat, c in record.plays if seat == s)
                if record.exchange_done:
                    size += got[s] - given[s]
                    # Cards the player saw given to this seat that it has not played.
                    came: Counter[str] = Counter()
                    for gifts in record.pushed.values():
                        came.update(gifts.get(s, []))
                    hands[s] = take(list((came - played_codes[s]).elements()))
                capacity[s] = size - hands[s].bit_count()
        pool = indexes_of(left)
        places = [(s, False) for s in range(seats) if capacity[s] > 0]
        places += [(s, True) for s in range(seats) if rest_capacity[s] > 0]
        caps = [rest_capacity[s] if rest else capacity[s] for s, rest in places]
        if sum(caps) != len(pool) or min(capacity) < 0:
            raise TichuError(
                f"hand {record.index}: {len(pool)} cards unseen for {sum(caps)} places: the "
                "events do not add up"
            )
        barred: dict[int, int] = {}
        forced_bars = self._forced_cache.get(record.index)
        if forced_bars is None:
            forced_bars = self._forced_cache[record.index] = self._forced_bars(
                record, structure, pool
            )
        leader_bars = self._leader_cache.get(record.index)
        if leader_bars is None:
            leader_bars = self._leader_cache[record.index] = self._leader_bars(
                record, structure, pool, [hands[s] | played[s] for s in range(seats)]
            )
        for seat, mask in [*forced_bars, *leader_bars, *self._barred_by]:
            barred[seat] = barred.get(seat, 0) | mask
        groups: dict[tuple[int, ...], list[int]] = {}
        for card in pool:
            allowed = tuple(
                number
                for number, (s, rest) in enumerate(places)
                if rest or not barred.get(s, 0) >> card & 1
            )
            groups.setdefault(allowed, []).append(card)
        known = _Known(
            hands=hands,
            open_seats=open_seats,
            deal_known=deal_known,
            played=played,
            places=places,
            caps=caps,
            groups=sorted(groups.items(), key=lambda group: (len(group[1]), group[0])),
            pool=pool,
            learned=len(self._barred_by),
        )
        self._known_cache[record.index] = known
        return known

    # --- what the rules reveal ------------------------------------------------------

    def _obliged(self, context: _WishContext, held: int) -> bool:
        """S-WISH-2: whether the seat, holding ``held`` then, had to fulfil the wish (the
        referee's judgment of that moment, with those cards in the seat's hand)."""
        if not held & RANK_BITS[context.wish]:
            return False
        trial = context.state.clone()
        trial.hands = _replaced(trial.hands, context.seat, held)
        return Referee().turn_plays(trial, 0, context.seat)[1]

    def _learn(self, record: _HandRecord, structure: _Structure, context: _WishContext) -> None:
        """Keep from the seat every unseen card with which it would have had to fulfil
        the wish (given the cards it is known to have held then)."""
        known = self._known(record, structure)
        then = known.hands[context.seat] | self._played_from(record, context.seat, context.position)
        mask = 0
        for card in known.pool:
            if self._obliged(context, then | 1 << card):
                mask |= 1 << card
        self._learned.append(context)
        if mask:
            self._barred_by.append((context.seat, mask))

    def _forced(self, structure: _Structure, seat: int, held: int) -> dict[int, int]:
        """What the rules would force ``seat`` to give holding ``held`` (GS-6), asked of
        the hand as its exchange was planned."""
        planned = structure.planned
        if planned is None:
            return {}
        trial = planned.clone()
        trial.hands = _replaced(trial.hands, seat, held)
        return trial.rulebook.forced_push(trial.view, seat, held)

    def _forced_bars(
        self, record: _HandRecord, structure: _Structure, pool: list[int]
    ) -> list[tuple[int, int]]:
        """GS-6: a hidden seat that was forced to give the player its best cards holds
        no unseen card better than those."""
        if not record.exchange_done:
            return []
        unseen = 0
        for card in pool:
            unseen |= 1 << card
        bars = []
        for giver, forced in enumerate(structure.forced_counts):
            if len(forced) != 1 or len(record.dealt.get(giver, [])) == record.sizes[giver]:
                continue
            ((target, _),) = forced.items()
            codes = record.received.get(target, {}).get(giver)
            if codes is None or structure.push_counts[giver].get(target):
                continue
            best = _take(codes, self.deck & ~unseen, record)
            mask = 0
            for card in pool:
                answer = self._forced(structure, giver, best | 1 << card)
                if play_codes(answer.get(target, 0)) != play_codes(best):
                    mask |= 1 << card
            if mask:
                bars.append((giver, mask))
        return bars

    def _leader_bars(
        self, record: _HandRecord, structure: _Structure, pool: list[int], held: list[int]
    ) -> list[tuple[int, int]]:
        """S-EX-2 (GS-7, any first-leader rule): the seat that led the hand's first trick
        was the one the rules made lead. An unseen card that would by itself make another
        seat lead (the Mah Jong, under the standard rule) is kept away from that seat:
        every such draw would be refused by the replay at the first lead, and in a game of
        many hidden seats nearly every draw was (rejection stays uniform on the rest).
        ``held``: the cards each seat is known to have held when play began. A seat that
        any card would make lead (a rule that reads only whether a seat holds cards) is
        left to the replay: that is no card's doing."""
        planned = structure.planned
        if planned is None or not record.plays:
            return []
        leader = record.plays[0][1]
        trial = planned.clone()
        bars: list[tuple[int, int]] = []
        try:
            for seat in range(len(held)):
                if seat == leader:
                    continue
                mask = 0
                for card in pool:
                    trial.hands = _replaced(held, seat, held[seat] | 1 << card)
                    if trial.rulebook.first_leader(trial.view) == seat:
                        mask |= 1 << card
                if mask and mask.bit_count() < len(pool):
                    bars.append((seat, mask))
        except TichuError:  # a rule that cannot answer for a part of the hands: no bars
            return []
        return bars

    def _exchange(
        self, record: _HandRecord, structure: _Structure, known: _Known, hands: list[int]
    ) -> tuple[list[int], dict[int, dict[int, str]]] | None:
        """Each seat's deal and the hidden pushes, given where the cards are now: every
        card moved in the exchange came from the cards its receiver holds or played.
        None when no exchange fits (the rules would not have forced those cards)."""
        seats = len(hands)
        avail = [hands[s] | known.played[s] for s in range(seats)]
        moved: dict[tuple[int, int], int] = {}  # (giver, target) -> cards
        for target, givers in record.received.items():
            for giver, codes in givers.items():
                mask = _take(codes, avail[target], record)
                avail[target] &= ~mask
                moved[giver, target] = mask
        for giver, targets in record.pushed.items():
            for target, codes in targets.items():
                if (giver, target) not in moved:
                    mask = _take(codes, avail[target], record)
                    avail[target] &= ~mask
                    moved[giver, target] = mask
        # Unseen forced gifts first: the receiver's best cards (the likeliest to fit).
        for giver, forced in enumerate(structure.forced_counts):
            for target, count in forced.items():
                if (giver, target) in moved:
                    continue
                best = self._forced(structure, giver, avail[target]).get(target, 0)
                if best.bit_count() != count:
                    return None
                avail[target] &= ~best
                moved[giver, target] = best
        for giver, chosen_counts in enumerate(structure.push_counts):
            for target, count in chosen_counts.items():
                if (giver, target) in moved:
                    continue
                # A seat that is forced to give its best cards got the best it could
                # back (any other choice fits fewer hands); other pushes are any cards.
                best = 0
                if structure.forced_counts[target]:
                    for mask in self._forced(structure, target, avail[target]).values():
                        best |= mask
                if best.bit_count() != count:
                    cards = indexes_of(avail[target])
                    if len(cards) < count:
                        return None
                    best = 0
                    for card in self.rng.sample(cards, count):
                        best |= 1 << card
                avail[target] &= ~best
                moved[giver, target] = best
        deals = [hands[s] | known.played[s] for s in range(seats)]
        for (giver, target), mask in moved.items():
            deals[target] &= ~mask
            deals[giver] |= mask
        pushes: dict[int, dict[int, str]] = {}
        for giver in range(seats):
            forced = structure.forced_counts[giver]
            if forced and not known.deal_known[giver]:
                answer = self._forced(structure, giver, deals[giver])
                if sorted(answer) != sorted(forced):
                    return None
                for target in forced:
                    if not _covers(moved[giver, target], answer[target]):
                        return None
            if giver in record.pushed or not structure.push_counts[giver]:
                continue
            chosen: dict[int, str] = {}
            for target in structure.push_counts[giver]:
                mask = moved[giver, target]
                if forced.get(target):
                    # The gift holds both: the rules' part is what they force.
                    answer = self._forced(structure, giver, deals[giver])
                    mask = _without(mask, answer.get(target, 0))
                chosen[target] = play_codes(mask)
            pushes[giver] = chosen
        return deals, pushes


@dataclass
class _Known:
    """The player's knowledge of a hand's cards now (see ``_Sampler._known``)."""

    hands: list[int]  # per seat: the cards known to be in its hand now
    open_seats: list[bool]  # seats whose whole hand the player knows
    deal_known: list[bool]  # seats whose whole deal the player saw
    played: list[int]  # per seat: the cards it played this hand
    places: list[tuple[int, bool]]  # (seat, still to be dealt) where unseen cards go
    caps: list[int]  # unseen cards per place
    groups: list[tuple[tuple[int, ...], list[int]]]  # places allowed -> unseen cards
    pool: list[int]  # the unseen cards
    learned: int  # wish contexts learned when this was made


# --------------------------------------------------------------------------- helpers


def _take(codes: list[str], available: int, record: _HandRecord) -> int:
    try:
        return take_cards(codes, available)
    except CardError as error:
        raise TichuError(f"hand {record.index}: the events do not fit: {error}") from error


def _replaced(values: list[int], index: int, value: int) -> list[int]:
    changed = values[:]
    changed[index] = value
    return changed


def _by_codes(mask: int) -> Counter[str]:
    return Counter(play_codes(mask).split())


def _covers(given: int, forced: int) -> bool:
    """Whether the cards ``given`` are, code for code, the ``forced`` ones."""
    return _by_codes(given) == _by_codes(forced)


def _without(mask: int, taken: int) -> int:
    """``mask`` less the codes of ``taken`` (any copy)."""
    codes = _by_codes(mask) - _by_codes(taken)
    return take_cards(list(codes.elements()), mask) if codes else 0


def _in_order(codes: list[str], mask: int) -> list[int]:
    """The cards of ``mask`` (which holds ``codes`` first) with ``codes`` first, in their
    order: a seat the player saw dealt gets its cards in the order it saw them."""
    order: list[int] = []
    left = mask
    for code in codes:
        card = take_cards([code], left)
        left &= ~card
        order.append(card.bit_length() - 1)
    return order + indexes_of(left)


# --------------------------------------------------------------------------- the deal
#
# How many deals there are, counted without listing them. A deal puts every unseen card
# in a place it is allowed (the groups: cards with the same allowed places), each place
# getting exactly its room. Places that allow exactly the same groups are one *class*:
# the count with them merged, times the ways to share a class's cards among its places,
# is the count (any card of a class may go to any of its places). What stays is small at
# every table size: the rules bar cards from a few seats (S-WISH-2, GS-6, the first
# lead), and every seat they leave alone is in one class, however many there are. The
# merged problem is counted cell by cell (a group's cards into one class, then the
# next), its states the room left in each class: at most ``_states`` of them, each
# kept once. A problem with more states than COUNT_LIMIT is not counted: its bars are
# loosened until it is small enough, and a deal of the looser problem that breaks a bar
# is thrown away (rejection: still uniform on the deals that keep every bar).

# The most states a counting problem may have (a state and what is cached with it take
# about 650 bytes; random matches of 7 to 12 seats needed 16,720 at most).
COUNT_LIMIT: Final = 50_000
# Deals of a loosened problem tried before giving up (see _deal_uniformly).
LOOSE_DRAWS: Final = 10_000
# The most states kept by all counts together (about 130 MB); past it they are
# forgotten and counted again when asked (a long-running process, many positions).
_KEPT_LIMIT: Final = 200_000

# One counting problem: per group, the places it allows and its number of cards.
_Sizes = tuple[tuple[tuple[int, ...], int], ...]
# A merged problem: per group, the classes it allows (the largest class last) and its
# number of cards; classes are numbered from the largest room down.
_Shape = tuple[tuple[tuple[int, ...], int], ...]


def _multinomial(total: int, parts: Sequence[int]) -> int:
    ways = 1
    for part in parts:
        ways *= math.comb(total, part)
        total -= part
    return ways


def _merged(sizes: _Sizes, room: Sequence[int]) -> tuple[_Shape, tuple[int, ...], int] | None:
    """The problem with its places merged into classes: the shape, each class's room and
    the ways to share each class's cards among its places (their product). None: no
    deal fits (a group with no room in any place it allows, cards and room not equal, a
    place with room that no group allows)."""
    active: list[tuple[int, int]] = []  # per group with cards: places with room, cards
    for allowed, cards in sizes:
        if not cards:
            continue
        mask = 0
        for place in allowed:
            if room[place]:
                mask |= 1 << place
        if not mask:
            return None
        active.append((mask, cards))
    if sum(cards for _, cards in active) != sum(room):
        return None
    members: dict[int, list[int]] = {}  # the groups a place allows -> the places
    for place, space in enumerate(room):
        if not space:
            continue
        pattern = 0
        for number, (mask, _) in enumerate(active):
            if mask >> place & 1:
                pattern |= 1 << number
        if not pattern:
            return None
        members.setdefault(pattern, []).append(place)
    classes = sorted(members.items(), key=lambda item: (-sum(room[p] for p in item[1]), item[1][0]))
    caps = tuple(sum(room[place] for place in places) for _, places in classes)
    factor = 1
    for (_, places), cap in zip(classes, caps, strict=True):
        factor *= _multinomial(cap, [room[place] for place in places])
    merged: dict[tuple[int, ...], int] = {}
    for number, (_, cards) in enumerate(active):
        allowed = tuple(
            index for index in range(len(classes) - 1, -1, -1) if classes[index][0] >> number & 1
        )
        merged[allowed] = merged.get(allowed, 0) + cards
    shape = tuple(sorted(merged.items(), key=lambda item: (item[1], item[0])))
    return shape, caps, factor


def _states(shape: _Shape, caps: tuple[int, ...]) -> int:
    """A bound on the states of a merged problem's count: per cell (a group's cards into
    one of its classes), the rooms left in every class but the largest (the cards left
    fix that one)."""
    cells = sum(len(allowed) for allowed, _ in shape)
    states = cells
    for cap in caps[1:]:
        states *= cap + 1
    return states


class _Counter:
    """The deals of one merged shape, for any rooms (kept: the draws of a hand ask the
    same shapes again and again, with other rooms)."""

    kept = 0  # states kept by every counter (see _KEPT_LIMIT)

    def __init__(self, shape: _Shape) -> None:
        self.shape = shape
        self.memo: dict[tuple[int, int, tuple[int, ...]], int] = {}
        # Per group: the cards of the groups after it; the room each class may still
        # take from it and the groups after it.
        self.after = [
            sum(cards for _, cards in shape[number + 1 :]) for number in range(len(shape))
        ]
        classes = 1 + max((max(allowed) for allowed, _ in shape), default=-1)
        self.reach: list[list[int]] = []
        for number in range(len(shape)):
            reach = [0] * classes
            for allowed, cards in shape[number:]:
                for index in allowed:
                    reach[index] += cards
            self.reach.append(reach)

    def count(self, caps: tuple[int, ...]) -> int:
        return self._group(0, caps)

    def _group(self, number: int, caps: tuple[int, ...]) -> int:
        if number == len(self.shape):
            return 1  # no cards left: every room is 0 (cards and room stay equal)
        reach = self.reach[number]
        if any(cap > most for cap, most in zip(caps, reach, strict=False)):
            return 0
        return self._cell(number, 0, caps)

    def _cell(self, number: int, step: int, caps: tuple[int, ...]) -> int:
        """The deals of group ``number``'s cards left into its classes ``step`` on, then
        of the groups after it."""
        key = (number, step, caps)
        found = self.memo.get(key)
        if found is not None:
            return found
        allowed, _ = self.shape[number]
        left = sum(caps) - self.after[number]  # this group's cards not yet placed
        index = allowed[step]
        if step == len(allowed) - 1:  # the last class takes the rest
            total = 0
            if left <= caps[index]:
                total = self._group(number + 1, _less(caps, index, left))
        else:
            total = 0
            for count in range(min(left, caps[index]) + 1):
                ways = self._cell(number, step + 1, _less(caps, index, count))
                if ways:
                    total += math.comb(left, count) * ways
        self.memo[key] = total
        _Counter.kept += 1
        return total


def _less(caps: tuple[int, ...], index: int, count: int) -> tuple[int, ...]:
    return (*caps[:index], caps[index] - count, *caps[index + 1 :])


_counters: dict[_Shape, _Counter] = {}


@functools.lru_cache(maxsize=8192)
def _count(sizes: _Sizes, room: tuple[int, ...]) -> int:
    """The deals of ``sizes`` into places with ``room`` (each place filled exactly, each
    card in a place its group allows): every one counted, none listed."""
    merged = _merged(sizes, room)
    if merged is None:
        return 0
    shape, caps, factor = merged
    if _Counter.kept > _KEPT_LIMIT:
        _counters.clear()
        _Counter.kept = 0
    counter = _counters.get(shape)
    if counter is None:
        counter = _counters[shape] = _Counter(shape)
    return factor * counter.count(caps)


@functools.lru_cache(maxsize=256)
def _largest(sizes: _Sizes, room: tuple[int, ...]) -> int:
    """The most states of any count that a deal of ``sizes`` into ``room`` asks for
    (see _deal_exactly): each bounded at the start, rooms only shrink."""
    largest = 0
    for number in range(len(sizes)):
        later = sizes[number + 1 :]
        asked = [sizes[number:]]
        allowed, cards = sizes[number]
        asked += [((allowed[step + 1 :], cards), *later) for step in range(len(allowed) - 1)]
        for problem in asked:
            merged = _merged(_loose(problem), room)
            if merged is not None:
                largest = max(largest, _states(merged[0], merged[1]))
    return largest


def _loose(sizes: _Sizes) -> _Sizes:
    """Every group with one card at least (a bound: rooms do not matter to a shape's
    classes except through which places have any)."""
    return tuple((allowed, max(cards, 1)) for allowed, cards in sizes)


def _deal_uniformly(
    groups: list[tuple[tuple[int, ...], list[int]]],
    caps: list[int],
    rng: random.Random,
    limit: int = COUNT_LIMIT,
) -> list[list[int]] | None:
    """Deal every group's cards to the places it allows, each place getting exactly its
    capacity, uniformly among all such deals (None: there is none).

    Counted, not listed (see _Counter): each group in turn, how many of its cards go to
    each place is drawn with its exact weight (the ways to choose them times the deals of
    the groups after), place by place; the cards within it at random; the last group,
    the largest, fills what is left. Where the count would be too large (more than
    ``limit`` states), the bars of the seats that bar the fewest cards are lifted until
    it is not, and a deal that breaks a lifted bar is drawn again.
    """
    sizes = tuple((allowed, len(cards)) for allowed, cards in groups)
    room = tuple(caps)
    if _largest(sizes, room) <= limit:
        return _deal_exactly(groups, caps, rng)
    loose = _loosened(sizes, room, limit)
    lifted = [(tuple(sorted(set(allowed) | set(loose))), cards) for allowed, cards in groups]
    merged: dict[tuple[int, ...], list[int]] = {}
    for allowed, cards in lifted:
        merged.setdefault(allowed, []).extend(cards)
    looser = sorted(merged.items(), key=lambda group: (len(group[1]), group[0]))
    bars = {card: set(allowed) for allowed, cards in groups for card in cards}
    for _ in range(LOOSE_DRAWS):
        placed = _deal_exactly(looser, caps, rng)
        if placed is None:
            return None
        if all(place in bars[card] for place, cards in enumerate(placed) for card in cards):
            return placed
    raise TichuError(
        f"no deal of the unseen cards kept every bar in {LOOSE_DRAWS} draws of a loosened "
        "count: too many different bars to count exactly"
    )


@functools.lru_cache(maxsize=64)
def _loosened(sizes: _Sizes, room: tuple[int, ...], limit: int) -> tuple[int, ...]:
    """The places whose bars are lifted (every group allowed there) so that the counts
    stay within ``limit``: first those that bar the fewest cards."""
    places = len(room)
    barred = [
        sum(cards for allowed, cards in sizes if place not in allowed) for place in range(places)
    ]
    order = sorted((count, place) for place, count in enumerate(barred) if count)
    lifted: list[int] = []
    for _, place in order:
        lifted.append(place)
        looser = tuple(
            (tuple(sorted(set(allowed) | set(lifted))), cards) for allowed, cards in sizes
        )
        if _largest(looser, room) <= limit:
            break
    return tuple(lifted)


def _deal_exactly(
    groups: list[tuple[tuple[int, ...], list[int]]], caps: list[int], rng: random.Random
) -> list[list[int]] | None:
    """The exact draw of _deal_uniformly. Each group's share is the one a scan of its
    every share in order (by the first place's count, then the second's ...) would pick
    for the same number drawn: place by place, each count's weight the sum of the shares
    that begin with it (the number drawn, divided by the ways to choose those cards,
    goes on to the next place)."""
    sizes = tuple((allowed, len(cards)) for allowed, cards in groups)
    room = list(caps)
    total = _count(sizes, tuple(room))
    if not total:
        return None
    placed: list[list[int]] = [[] for _ in caps]
    last = len(groups) - 1
    for number, (allowed, cards) in enumerate(groups):
        later = sizes[number + 1 :]
        share: list[int] = []
        if number == last:
            share = [room[place] for place in allowed]
        else:
            pick = rng.randrange(total)
            left = len(cards)
            for step, place in enumerate(allowed):
                count = left
                if step < len(allowed) - 1:
                    rest = allowed[step + 1 :]
                    for count in range(min(left, room[place]) + 1):
                        choose = math.comb(left, count)
                        room[place] -= count
                        weight = choose * _count(((rest, left - count), *later), tuple(room))
                        if pick < weight:
                            pick //= choose
                            break
                        room[place] += count
                        pick -= weight
                else:
                    room[place] -= count
                share.append(count)
                left -= count
            total = _count(later, tuple(room))
        order = cards[:]
        rng.shuffle(order)
        offset = 0
        for place, count in zip(allowed, share, strict=True):
            placed[place] += order[offset : offset + count]
            offset += count
    return placed
