"""The one source of legality: what a seat may do now, and whether an action is that.

Like python-chess's single ``is_legal`` under both its move generator and
``push``, :class:`Referee` builds a seat's options from three parts (the
fixed actions: calls, passes, decisions; the plays; the pushes) and
:meth:`Referee.judge` accepts an action only by finding it among those same
parts. Nothing can be listed that ``apply`` refuses, nor accepted that is not
listed. When an action is not found, the referee says why, citing the rule id;
explaining never accepts anything.

A listing (:class:`LegalActions`) is handed to bots, which run in the engine's
process and can write to any attribute: it holds copies, never the hand state or
the referee's tables, and :meth:`Referee.listed` (``apply``'s fast path, which
skips a second judging of an action the referee listed) checks whatever the
listing says against the referee's own copies.

Every judgment of whether a seat may act lives here, and nowhere else: the moment
of a call or a bomb and the rulebook's permission (:func:`call_refusal`,
:func:`bomb_refusal`, asked through :meth:`Referee.refusal`), which seats the first
cards give a Grand Tichu decision (:func:`grand_tichu_callers`), who the hand
waits for (:func:`waiting_seats`), passes, pushes and pending decisions. The hand
state machine (:mod:`tichu_core.game.hand`) only changes state: this module reads
it and imports it, and the hand never imports this module (no cycle between the
two compiled modules). Where a step of the hand depends on a judgment, the game
asks here and hands the answer to the hand (``HandState.deal_first``).
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final, NoReturn, cast, overload

from tichu_core.cardplay.cards import (
    FIRST_COPY_BITS,
    RANK_BITS,
    RANK_NAMES,
    RANK_OF_NAME,
    SECOND_COPY,
    SECOND_COPY_BITS,
    by_codes,
    codes_of,
    format_mask,
    indexes_of,
    play_codes,
    take_cards,
)
from tichu_core.cardplay.combinations import (
    DOG,
    FIRST_BOMB_KIND,
    Combination,
    PlayTuple,
    as_combination,
)
from tichu_core.cardplay.leads import LeadPlays
from tichu_core.errors import CardError, IllegalAction, InvalidAction, caused_by
from tichu_core.game.actions import (
    GRAND_TICHUS,
    PASSES,
    TICHUS,
    WISHES,
    Action,
    GiveLead,
    GiveTrick,
    GrandTichu,
    Pass,
    Play,
    Push,
    PushCards,
    Tichu,
    Wish,
)
from tichu_core.game.eventlog import Deferred
from tichu_core.game.events import Event
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
from tichu_core.rules.answers import Refusal

# `Referee.listed` when an action is not one this referee handed out for the state.
NOT_LISTED: Final = object()

# The action classes and the ready-made actions, as Final names: compiled, a Final is a C
# static, while a name imported from a plain-Python module (actions.py) is looked up in
# this module's dict at every use (several times a step on the hot path).
_PLAY: Final = Play
_PUSH: Final = Push
_PASS: Final = Pass
_PUSH_CARDS: Final = PushCards
_PASSES: Final = PASSES
_TICHUS: Final = TICHUS
_GRAND_TICHUS: Final = GRAND_TICHUS
# _PLAY_FIXED[seat][tichu + 2 * may_pass]: the fixed actions of a seat in ordinary play,
# the Tichu call first. Tuples, shared by every listing (a bot cannot change them).
_PLAY_FIXED: Final[tuple[tuple[tuple[Action, ...], ...], ...]] = tuple(
    ((), (TICHUS[s],), (PASSES[s],), (TICHUS[s], PASSES[s])) for s in range(len(PASSES))
)
# id(action) -> (the action, its index among the listing's plays and pushes): the plays
# and pushes a listing handed out after its first. Held by the listing, so a bot can
# write to it: the referee reads only the index from it, and checks the action against
# its own copy of the options at that index (`Referee.listed`).
Handed = dict[int, tuple[Action, int]]
# A seat's plays as the referee lists them: a list, or a lead counted and built a kind
# at a time when read (`PlayRules.listed_plays`).
Plays = list[PlayTuple] | LeadPlays


def _own_copy(plays: Plays) -> Plays:
    """A listing of ``plays`` that shares nothing a bot could change with them."""
    if isinstance(plays, LeadPlays):
        return plays.twin()
    return plays[:]


def _size_of(plays: Plays) -> int:
    # Either branch is a direct call in the compiled build (the union is not).
    if isinstance(plays, LeadPlays):
        return len(plays)
    return len(plays)


def _play_at(plays: Plays, index: int) -> Any:
    """The play at ``index`` (in range) of ``plays``, as the object listed: typed Any, so
    that the compiled build hands the tuple on rather than taking it apart and making
    it again."""
    if isinstance(plays, LeadPlays):
        return plays.play(index)
    return cast("list[Any]", plays)[index]


# Card mask -> its canonical text. The same plays are listed over and over in a
# simulation (singles and pairs above all); their text is made once.
_PLAY_TEXT: Final[dict[int, str]] = {}
_PLAY_TEXT_LIMIT: Final = 1 << 16
# Card mask -> the Play of each seat (None: not made yet) for the plays without the
# Phoenix: the same plays are listed over and over, and a Play is immutable. Each holds
# its mask's text from `_PLAY_TEXT`; both are emptied together.
_PLAY_OBJECTS: Final[dict[int, list[Play | None]]] = {}


def _play_text(cards: int) -> str:
    """The canonical text of a card mask, kept: a listed action holds this very object,
    which is how `Referee.listed` knows the text for its own."""
    text = _PLAY_TEXT.get(cards)
    if text is None:
        if len(_PLAY_TEXT) >= _PLAY_TEXT_LIMIT:
            _PLAY_TEXT.clear()
            _PLAY_OBJECTS.clear()
        text = _PLAY_TEXT[cards] = play_codes(cards)
    return text


def play_action(seat: int, play: PlayTuple) -> Play:
    """The Play action of a listed play."""
    cards = play[3]
    phoenix = play[4]
    if not phoenix:
        made = _PLAY_OBJECTS.get(cards)
        if made is not None:
            listed = made[seat]
            if listed is not None:
                return listed
    text = _PLAY_TEXT.get(cards)  # `_play_text`, inline: the commonest call of a listing
    if text is None:
        text = _play_text(cards)
    # Built from its canonical parts, in Play's field order, without validation: the
    # engine lists plays thousands of times per simulated hand (a test holds a listed
    # action equal to the validated one).
    action: Play = _new_tuple(_PLAY, (seat, text, RANK_NAMES[phoenix] if phoenix else None, "play"))
    if not phoenix:
        made = _PLAY_OBJECTS.get(cards)
        if made is None:
            made = _PLAY_OBJECTS[cards] = [None] * len(_PASSES)
        made[seat] = action
    return action


def push_action(seat: int, masks: dict[int, int]) -> Push:
    """The Push action of a listed push (target -> the cards given), as ``play_action``."""
    cards = _PUSH_CARDS(sorted((target, _play_text(mask)) for target, mask in masks.items()))
    return _new_tuple(_PUSH, (seat, cards, "push"))


_new_tuple: Final = tuple.__new__


# --------------------------------------------------------------------------- who may act


def call_refusal(hand: HandState, seat: int, call: str) -> Refusal | None:
    """Why ``seat`` may not make ``call`` now (S-CALL-1, S-DEAL-2), or None if it may.

    The moment is the engine's (Grand Tichu in its phase and undecided; Tichu
    holding all its cards, before its first card, once); whether the call is
    allowed then is the rulebook's. Listings ask it through :meth:`Referee.refusal`."""
    if call == GRAND_TICHU:
        if hand.phase != GRAND_TICHU:
            return Refusal("S-DEAL-2", "Grand Tichu is decided only after the first cards")
        if hand.grand_tichu[seat] is not None:
            # A seat the rules never let call (T3-2) hears that reason, not "decided".
            return hand.rulebook.may_call(hand.view, seat, call) or Refusal(
                "S-DEAL-2", f"seat {seat} has already decided on Grand Tichu"
            )
    elif hand.phase == GRAND_TICHU:
        return Refusal("S-CALL-1", "Tichu is called holding all the cards")
    elif hand.phase == OVER:
        return Refusal("S-CALL-1", "the hand is over")
    elif hand.played_any[seat]:
        return Refusal("S-CALL-1", f"seat {seat} has already played a card")
    elif hand.tichu[seat]:
        return Refusal("S-CALL-1", f"seat {seat} has already called Tichu")
    return hand.rulebook.may_call(hand.view, seat, call)


def bomb_refusal(hand: HandState, seat: int) -> Refusal | None:
    """Why ``seat`` may not bomb now out of turn (or on its own trick), or None."""
    if hand.phase != PLAY or hand.pending is not None or not hand.hands[seat]:
        return Refusal("S-BOMB-3", f"seat {seat} cannot bomb now")
    return hand.rulebook.may_bomb(hand.view, seat)


def grand_tichu_callers(hand: HandState) -> list[bool]:
    """Per seat, whether the first cards give it a Grand Tichu decision (S-DEAL-2):
    asked once as a hand starts, after ``HandState.start`` (``deal_first`` takes it)."""
    first = hand.grand_tichu_cards
    return [
        first > 0 and call_refusal(hand, seat, GRAND_TICHU) is None for seat in range(hand.seats)
    ]


def _owes_push(hand: HandState, seat: int) -> bool:
    """Whether ``seat`` has a push still to choose (in the exchange, S-EX-1)."""
    return hand.pushes[seat] is None and bool(hand.push_targets[seat])


def waiting_seats(hand: HandState) -> list[int]:
    """Seats whose decision the hand needs to go on (``Game.waiting_for``)."""
    pending = hand.pending
    if pending is not None:
        return [pending.seat]
    phase = hand.phase
    if phase == PLAY:
        return [hand.turn] if hand.turn is not None else []
    if phase == GRAND_TICHU:
        return [s for s in range(hand.seats) if hand.grand_tichu[s] is None]
    if phase == EXCHANGE:
        return [s for s in range(hand.seats) if _owes_push(hand, s)]
    return []


# --------------------------------------------------------------------------- pushes


def _distributions(available: int, room: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Ways to hand out at most ``available`` copies of one code to targets with ``room``."""
    if not room:
        return [()]
    found = []
    for first in range(min(available, room[0]) + 1):
        for rest in _distributions(available - first, room[1:]):
            found.append((first, *rest))
    return found


@functools.lru_cache(maxsize=65536)
def _ways(counts: tuple[int, ...], room: tuple[int, ...]) -> int:
    """Distinct pushes filling ``room`` (cards still wanted per target) from codes held
    ``counts`` times each."""
    if not any(room):
        return 1
    if sum(counts) < sum(room):
        return 0
    rest = counts[1:]
    return sum(
        _ways(rest, tuple(r - d for r, d in zip(room, dist, strict=True)))
        for dist in _distributions(counts[0], room)
    )


class PushChoices:
    """Every distinct push of a hand to its targets, counted and unranked without a list.

    With one card per target and one deck a push is a partial permutation (a
    mixed-radix number). Otherwise (several cards to one target, GS-6, or codes
    held twice with two decks) the distinct assignments of the held codes are
    counted code by code and unranked the same way. Nothing is counted until
    asked: judging a push only needs :meth:`__contains__`.
    """

    __slots__ = (
        "_cards",
        "_codes",
        "_counts",
        "_hand",
        "_simple",
        "_size",
        "_targets",
        "_wanted",
    )

    def __init__(self, hand: int, targets: dict[int, int]) -> None:
        self._hand = hand
        self._targets = sorted(targets)
        self._wanted = tuple(targets[t] for t in self._targets)
        self._size = -1
        self._codes: list[str] = []
        self._cards: list[int] = []
        self._counts: tuple[int, ...] = ()
        self._simple = False

    def __reduce__(self) -> tuple[type[PushChoices], tuple[int, dict[int, int]]]:
        # A compiled class is rebuilt through its constructor (mypyc's default pickling
        # calls it without arguments): what a bot in another process is sent.
        return PushChoices, (self._hand, self.targets())

    def _count(self) -> int:
        if self._size < 0:
            hand = self._hand
            self._cards = indexes_of(hand)
            # Every code held once and one card to each target (most variants): the
            # simple case unranks over the cards themselves, with no codes counted.
            held_twice = hand & hand >> SECOND_COPY & FIRST_COPY_BITS
            self._simple = not held_twice and all(w == 1 for w in self._wanted)
            if self._simple:
                size = 1
                for step in range(len(self._targets)):
                    size *= len(self._cards) - step
                self._size = max(size, 0)
            else:
                held = Counter(codes_of(hand))
                self._codes = list(held)
                self._counts = tuple(held[code] for code in self._codes)
                self._size = _ways(self._counts, self._wanted)
        return self._size

    def __len__(self) -> int:
        return self._count()

    def targets(self) -> dict[int, int]:
        """Target seat -> how many cards it is given."""
        return dict(zip(self._targets, self._wanted, strict=True))

    def masks(self, index: int) -> dict[int, int]:
        """The push at ``index`` (0 <= index < len): target seat -> the cards taken
        from the hand (each copy once)."""
        self._count()
        if self._simple:
            available = self._cards[:]
            simple: dict[int, int] = {}
            for target in self._targets:
                index, pick = divmod(index, len(available))
                simple[target] = 1 << available.pop(pick)
            return simple
        return _push_masks(self.cards(index), self._hand)

    def cards(self, index: int) -> dict[int, str]:
        """The push at ``index`` (0 <= index < len): target seat -> card codes."""
        self._count()
        if self._simple:
            return {t: play_codes(m) for t, m in self.masks(index).items()}
        given: dict[int, list[str]] = {t: [] for t in self._targets}
        room = self._wanted
        for position, code in enumerate(self._codes):
            rest = self._counts[position + 1 :]
            for dist in _distributions(self._counts[position], room):
                after = tuple(r - d for r, d in zip(room, dist, strict=True))
                block = _ways(rest, after)
                if index < block:
                    break
                index -= block
            for target, copies in zip(self._targets, dist, strict=True):
                given[target] += [code] * copies
            room = after
        return {t: " ".join(codes) for t, codes in given.items()}

    def __contains__(self, given: object) -> bool:
        if not isinstance(given, dict) or sorted(given) != self._targets:
            return False
        codes: list[str] = []
        for target, needed in zip(self._targets, self._wanted, strict=True):
            cards = str(given[target]).split()
            if len(cards) != needed:
                return False
            codes += cards
        try:
            take_cards(codes, self._hand)  # the hand holds every code as often as given
        except CardError:
            return False
        return True


# --------------------------------------------------------------------------- the listing


class LegalActions(Sequence[Action]):
    """A seat's legal actions: a sequence that builds each action only when asked.

    The 2,184 pushes of a 14-card hand, or hundreds of plays, are counted and
    indexed without being built. Order: :attr:`fixed` (calls, passes,
    decisions), then the plays, then the pushes.

    A listing is handed to bots, so it holds nothing of the game: its lists are its
    own copies, its hand a number, and what it records of the plays it handed out is
    only a hint that the referee checks against its own copy of the options.
    """

    __slots__ = (
        "_combinations",
        "_first",
        "_first_index",
        "_fixed",
        "_hand",
        "_handed",
        "_plays",
        "_pushes",
        "_seat",
        "_size",
        "_tracked",
    )

    def __init__(
        self,
        seat: int,
        fixed: tuple[Action, ...] | list[Action],
        plays: Plays | None = None,
        pushes: PushChoices | None = None,
        hand: int = 0,
        tracked: bool = False,
    ) -> None:
        self._seat = seat
        self._hand = hand
        # A tuple: the referee keeps the very same one (nothing in it can change).
        self._fixed: tuple[Action, ...] = fixed if isinstance(fixed, tuple) else tuple(fixed)
        if plays is None:
            plays = []
        self._plays: Plays = plays
        self._pushes = pushes
        # Pushes are counted only when first asked (there may be thousands).
        self._size = -1 if pushes is not None else len(fixed) + _size_of(plays)
        # Every play or push handed out is remembered with its index, so that `apply` of
        # that very object need not judge it again: the first one here (most bots take one
        # action from a listing), the others in `_handed`. Referee.listed reads both, of
        # each seat's latest listing only (an action of an earlier one is judged again).
        self._tracked = tracked
        self._first: Action | None = None
        self._first_index = -1
        self._handed: Handed | None = None
        self._combinations: list[Combination] | None = None  # made when first asked

    def __reduce__(
        self,
    ) -> tuple[
        type[LegalActions],
        tuple[int, tuple[Action, ...], Plays, PushChoices | None, int, bool],
    ]:
        # Rebuilt through the constructor (a compiled class cannot be pickled otherwise):
        # the web server's bots think in a worker process. The copy is not tracked: what
        # it hands out is judged again by the referee like any action from outside.
        return LegalActions, (self._seat, self._fixed, self._plays, self._pushes, self._hand, False)

    def __len__(self) -> int:
        if self._size < 0:
            pushes = len(self._pushes) if self._pushes is not None else 0
            self._size = len(self._fixed) + _size_of(self._plays) + pushes
        return self._size

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if type(index) is not int:
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(len(self)))]
            index = operator.index(index)
        size = self._size if self._size >= 0 else len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(f"legal action index {index} out of range ({size} actions)")
        fixed = self._fixed
        if index < len(fixed):
            return fixed[index]  # the referee finds these among its own copy of them
        index -= len(fixed)
        plays = self._plays
        listed = _size_of(plays)
        if index < listed:
            action: Action = play_action(self._seat, _play_at(plays, index))
        else:
            assert self._pushes is not None
            action = push_action(self._seat, self._pushes.masks(index - listed))
        if self._tracked:
            if self._first is None:
                self._first = action
                self._first_index = index
            else:
                if self._handed is None:
                    self._handed = {}
                self._handed[id(action)] = (action, index)
        return action

    def __iter__(self) -> Iterator[Action]:
        for index in range(len(self)):
            yield self[index]

    def __contains__(self, action: object) -> bool:
        if isinstance(action, Play):
            if action.seat != self._seat or not self._plays:
                return False
            try:
                mask = take_cards(action.cards.split(), self._hand)
            except CardError:
                return False
            return _find_play(self._plays, mask, action.phoenix, self._hand) is not None
        if isinstance(action, Push):
            return (
                action.seat == self._seat
                and self._pushes is not None
                and dict(action.cards) in self._pushes
            )
        return action in self._fixed

    def __repr__(self) -> str:
        return f"<LegalActions seat={self._seat}: {len(self)} actions>"

    @property
    def combinations(self) -> list[Combination]:
        """The plays as combinations (no Play objects built); they follow :attr:`fixed`."""
        if self._combinations is None:
            self._combinations = [as_combination(play) for play in self._plays]
        return list(self._combinations)

    @property
    def fixed(self) -> list[Action]:
        """The actions listed first: calls, passes and decisions (no plays, no pushes)."""
        return list(self._fixed)

    @property
    def hand(self) -> int:
        """The acting seat's hand as a card mask (``tichu_core.cardplay.cards``): what a
        bot building its own push (see :attr:`push_targets`) chooses from."""
        return self._hand

    @property
    def push_targets(self) -> dict[int, int]:
        """Where the listed pushes give cards: target seat -> how many cards (empty when
        no push is listed). A push built to it is legal if it is ``in`` the listing."""
        pushes = self._pushes
        if pushes is None:
            return {}
        return pushes.targets()


def _find_play(plays: Plays, mask: int, phoenix: str | None, hand: int) -> PlayTuple | None:
    """The listed reading of the cards ``mask`` (taken from ``hand``): with the Phoenix as
    ``phoenix`` if given, else the strongest reading listed (S-COMB-4)."""
    rank = RANK_OF_NAME[phoenix] if phoenix is not None else None
    best: PlayTuple | None = None
    for play in plays:
        if (
            play[3] == mask
            and (rank is None or play[4] == rank)
            and (best is None or play[2] > best[2])
        ):
            best = play
    if best is None and hand & SECOND_COPY_BITS:
        # Two decks: codes name cards, not copies; compare the multisets of codes.
        wanted = by_codes(mask)
        for play in plays:
            if (
                by_codes(play[3]) == wanted
                and (rank is None or play[4] == rank)
                and (best is None or play[2] > best[2])
            ):
                best = play
    return best


# --------------------------------------------------------------------------- the referee


class _Issued:
    """A listing the referee handed out, with its own copies of what it lists (its fixed
    actions, plays and pushes) and the hand state it was made for: what `listed` trusts.
    A class rather than a tuple: compiled, its fields are read without unboxing a tuple.
    One per seat, renewed with each listing of the seat (the older is then trusted for
    nothing)."""

    __slots__ = ("fixed", "hand", "listing", "plays", "pushes", "version")

    listing: LegalActions
    fixed: tuple[Action, ...]
    plays: Plays
    pushes: PushChoices | None
    hand: HandState
    version: int

    def renew(
        self,
        listing: LegalActions,
        fixed: tuple[Action, ...],
        plays: Plays,
        pushes: PushChoices | None,
        hand: HandState,
        version: int,
    ) -> None:
        self.listing = listing
        self.fixed = fixed
        self.plays = plays
        self.pushes = pushes
        self.hand = hand
        self.version = version


class Referee:
    """What each seat may do on the running hand, and the judge of every action."""

    __slots__ = (
        "_listings",
        "_refusals",
        "_refusals_version",
        "_turn_cache",
    )

    def __init__(self) -> None:
        # Seat -> its latest listing (one per seat: front ends poll), with the referee's
        # own copies of its fixed actions, plays and pushes, and the hand state and game
        # version it was made for: what `listed` trusts (the listing is the bot's). An
        # entry of an earlier version is trusted for nothing (and replaced, not cleared:
        # emptying the dict at every version cost more than the check).
        self._listings: list[_Issued | None] = [None] * len(_PASSES)
        self._turn_cache: tuple[int, int, Plays, bool] | None = None
        # (seat, "grand_tichu" | "tichu" | "bomb") -> the rulebook's answer, for one version.
        self._refusals: dict[tuple[int, str], Refusal | None] = {}
        self._refusals_version = -1

    def refusal(self, hand: HandState, version: int, seat: int, what: str) -> Refusal | None:
        """Why ``seat`` may not call (``what`` = "grand_tichu"/"tichu") or bomb ("bomb")
        now, or None; asked once per game version, since front ends list actions of
        every seat between two actions."""
        if version != self._refusals_version:
            self._refusals.clear()
            self._refusals_version = version
        key = (seat, what)
        if key not in self._refusals:
            self._refusals[key] = (
                bomb_refusal(hand, seat) if what == "bomb" else call_refusal(hand, seat, what)
            )
        return self._refusals[key]

    # --- the parts of a seat's options ----------------------------------------------

    def turn_plays(self, hand: HandState, version: int, seat: int) -> tuple[Plays, bool]:
        """The plays of the seat on turn, the wish applied, and whether it must play
        (cached for one game version)."""
        cache = self._turn_cache
        if cache is not None and cache[0] == version and cache[1] == seat:
            return cache[2], cache[3]
        cards = hand.hands[seat]
        obliged = False
        rules = hand.rules
        plays: Plays
        if hand.collecting:
            # S-TRICK-2, S-BOMB-5: collecting its own trick, the top seat may only bomb.
            plays = rules.bombs(cards, hand.top)
            if plays and self.refusal(hand, version, seat, "bomb") is not None:
                plays = []
        else:
            plays = rules.listed_plays(cards, hand.top)
            wish = hand.wish
            if (
                wish is not None
                and cards & RANK_BITS[wish]
                and hand.rulebook.wish_applies(hand.view, seat)
            ):
                plays, obliged = rules.apply_wish(cards, list(plays), wish)
        self._turn_cache = (version, seat, plays, obliged)
        return plays, obliged

    def plays(self, hand: HandState, version: int, seat: int) -> Plays:
        """Every play ``seat`` may make now: on its turn, or bombs out of turn."""
        if hand.phase != PLAY or hand.pending is not None or not hand.hands[seat]:
            return []
        if seat == hand.turn:
            return self.turn_plays(hand, version, seat)[0]
        return self._bombs_out_of_turn(hand, version, seat)

    def _bombs_out_of_turn(self, hand: HandState, version: int, seat: int) -> list[PlayTuple]:
        """S-BOMB-3: a bomb may be played out of turn (if the rulebook allows it)."""
        # The rulebook is asked only for a seat that holds a bomb to play.
        bombs = hand.rules.bombs(hand.hands[seat], hand.top)
        if bombs and self.refusal(hand, version, seat, "bomb") is None:
            return bombs
        return []

    @staticmethod
    def _may_pass_on_turn(hand: HandState, obliged: bool) -> bool:
        """S-TRICK-1/2, S-WISH-2: the seat on turn may pass on a trick (collecting it,
        or not bound by the wish to play)."""
        return hand.top is not None and (hand.collecting or not obliged)

    def calls(self, hand: HandState, version: int, seat: int) -> list[Action]:
        """The Grand Tichu decision or the Tichu call ``seat`` may make now."""
        if hand.phase == GRAND_TICHU:
            if hand.grand_tichu[seat] is not None:
                return []
            if self.refusal(hand, version, seat, GRAND_TICHU) is None:
                return list(_GRAND_TICHUS[seat])
            return [_GRAND_TICHUS[seat][0]]
        if self._may_call_tichu(hand, version, seat):
            return [_TICHUS[seat]]
        return []

    def _may_call_tichu(self, hand: HandState, version: int, seat: int) -> bool:
        """Whether ``seat`` may call Tichu now (outside the Grand Tichu phase)."""
        if hand.played_any[seat] or hand.tichu[seat]:
            return False  # S-CALL-1: too late (the rulebook need not be asked)
        return self.refusal(hand, version, seat, "tichu") is None

    @staticmethod
    def decisions(hand: HandState, seat: int) -> list[Action]:
        """The choices of a decision pending for ``seat`` (E-1)."""
        pending = hand.pending
        if pending is None or pending.seat != seat:
            return []
        if pending.kind == WISH:
            wishes = WISHES[seat]
            return [wishes[None], *[wishes[rank] for rank in pending.options]]
        if pending.kind == GIVE_TRICK:
            return [GiveTrick(seat, to) for to in pending.options]
        return [GiveLead(seat, to) for to in pending.options]

    def may_pass(self, hand: HandState, version: int, seat: int) -> bool:
        """S-TRICK-1/2, S-WISH-2: on its turn, on a trick, unless the wish obliges a play."""
        return (
            hand.phase == PLAY
            and hand.pending is None
            and seat == hand.turn
            and self._may_pass_on_turn(hand, self.turn_plays(hand, version, seat)[1])
        )

    def fixed(self, hand: HandState, version: int, seat: int) -> list[Action]:
        """Calls and pending decisions ``seat`` may take now, outside ordinary play
        (where :meth:`legal_actions` adds the pass to the calls itself)."""
        if hand.phase == OVER and hand.pending is None:
            return []
        fixed = self.calls(hand, version, seat)
        if hand.pending is not None:
            return fixed + self.decisions(hand, seat)
        return fixed

    def pushes(self, hand: HandState, seat: int) -> PushChoices | None:
        """The pushes ``seat`` may choose now (None: it has none to make)."""
        if hand.phase != EXCHANGE or not _owes_push(hand, seat):
            return None
        return PushChoices(hand.chosen_push_hand(seat), hand.push_targets[seat])

    def legal_actions(self, hand: HandState, version: int, seat: int) -> LegalActions:
        """Every option of ``seat``: exactly the parts :meth:`judge` accepts from."""
        cards = hand.hands[seat]
        if hand.phase == PLAY and hand.pending is None:
            # Ordinary play, most calls: the calls, the pass (S-TRICK-1/2, as `may_pass`
            # judges it) and the plays, taken in one go.
            which = 1 if self._may_call_tichu(hand, version, seat) else 0
            if not cards:
                plays: Plays = []
            elif seat == hand.turn:
                plays, obliged = self.turn_plays(hand, version, seat)
                if self._may_pass_on_turn(hand, obliged):
                    which += 2
            else:
                plays = self._bombs_out_of_turn(hand, version, seat)
            fixed = _PLAY_FIXED[seat][which]
            pushes = None
            handed_pushes = None
        else:
            fixed = tuple(self.fixed(hand, version, seat))
            plays = self.plays(hand, version, seat)
            pushes = self.pushes(hand, seat) if hand.phase == EXCHANGE else None
            handed_pushes = self.pushes(hand, seat) if pushes is not None else None
        # The bot gets copies of the plays (they may be the turn cache `judge` reads); the
        # fixed actions are a tuple.
        listing = LegalActions(seat, fixed, _own_copy(plays), handed_pushes, cards, True)
        issued = self._listings[seat]
        if issued is None:
            issued = self._listings[seat] = _Issued()
        issued.renew(listing, fixed, plays, pushes, hand, version)
        return listing

    def listed(self, hand: HandState, version: int, action: Action) -> object:
        """What ``action`` means (see :meth:`perform`) if this referee listed it for this
        state (so it is legal: it was found among the options), else ``NOT_LISTED``.

        ``apply``'s fast path, asked before any other check: ``action`` is any object of
        an action class, possibly a tuple forged past the constructors, and whatever a
        listing records may have been written by a bot. So only the referee's own
        objects are trusted: a fixed action must be one of its own (the very object:
        equal is not enough, since ``True == 1``), a play must be, field by field, the
        Play of the play its own list holds at the index the listing recorded for that
        object (the same text and Phoenix objects ``play_action`` made it of, an int
        seat, four fields), a push likewise against its own pushes. What passes is
        well-formed and legal here; an equal object built elsewhere is judged in full."""
        fields = cast("tuple[object, ...]", action)
        if not fields:
            return NOT_LISTED
        seat = fields[0]
        if type(seat) is not int or not 0 <= seat < len(self._listings):
            return NOT_LISTED
        issued = self._listings[seat]
        if issued is None or issued.version != version or issued.hand is not hand:
            return NOT_LISTED
        listing = issued.listing
        kind = type(action)
        if kind is not _PLAY and kind is not _PUSH:
            for own in issued.fixed:
                if own is action:
                    return None
            return NOT_LISTED
        if listing._first is action:
            index: object = listing._first_index
        else:
            handed = listing._handed
            record = handed.get(id(action)) if type(handed) is dict else None
            if type(record) is not tuple or len(record) != 2 or record[0] is not action:
                return NOT_LISTED
            index = record[1]
        if type(index) is not int or index < 0:
            return NOT_LISTED
        tag = fields[-1]
        plays = issued.plays
        listed = _size_of(plays)
        if kind is _PLAY:
            if index >= listed or len(fields) != 4 or type(tag) is not str or tag != "play":
                return NOT_LISTED
            play = _play_at(plays, index)
            text = _PLAY_TEXT.get(play[3])
            phoenix = play[4]
            if (
                text is not None
                and fields[1] is text
                and fields[2] is (RANK_NAMES[phoenix] if phoenix else None)
            ):
                return play
            return NOT_LISTED
        index -= listed
        pushes = issued.pushes
        given = fields[1]
        if (
            pushes is None
            or not 0 <= index < len(pushes)
            or len(fields) != 3
            or type(tag) is not str
            or tag != "push"
            or type(given) is not _PUSH_CARDS
        ):
            return NOT_LISTED
        cards = cast("dict[object, object]", given)  # a PushCards: a dict
        masks = pushes.masks(index)
        if len(cards) != len(masks):
            return NOT_LISTED
        for target, codes in cards.items():
            if type(target) is not int or target not in masks:
                return NOT_LISTED
            canonical = _PLAY_TEXT.get(masks[target])
            if canonical is None or codes is not canonical:
                return NOT_LISTED
        return masks

    def carry_out(
        self, hand: HandState, action: Action, meaning: object
    ) -> tuple[HandState | None, list[Event | Deferred]]:
        """Make ``action`` happen, legal with ``meaning`` (as :meth:`listed` or
        :meth:`judge` found it): returns the snapshot of ``hand`` taken before, and the
        events. Atomic: if a rule fails half-way, ``hand`` is left exactly as it was and
        the error raised.

        A plain pass or play (``HandState.plain_pass``/``plain_play``: most steps of
        play) asks no rule: nothing in it can fail, so no snapshot is taken (None)."""
        kind = type(action)
        if kind is _PASS or kind is _PLAY:
            # The seat by position: the action types are plain Python (read as Any here).
            seat = cast(int, cast("tuple[object, ...]", action)[0])
            if kind is _PASS:
                if hand.plain_pass(seat):
                    hand.do_pass(seat)
                    return None, hand.take_events()
            else:
                if hand.plain_play(seat, meaning):  # the play, as the object listed
                    hand.do_play(seat, meaning)
                    return None, hand.take_events()
        before = hand.clone()
        try:
            self.perform(hand, action, meaning)
        except BaseException:
            hand.restore(before)
            raise
        return before, hand.take_events()

    @staticmethod
    def perform(hand: HandState, action: Action, meaning: object) -> None:
        """Make a legal ``action`` happen; ``meaning`` is its combination (a play) or its
        card masks (a push), as :meth:`judge` or :meth:`listed` found it."""
        # Exact types, commonest first: only the action classes reach here (Game.apply).
        seat = action.seat
        if type(action) is _PASS:
            hand.do_pass(seat)
        elif type(action) is _PLAY:
            hand.do_play(seat, meaning)  # the play (a PlayTuple), as the object it is
        elif type(action) is _PUSH:
            hand.do_push(seat, cast("dict[int, int]", meaning))
        elif type(action) is GrandTichu:
            hand.do_grand_tichu(seat, action.call)
        elif type(action) is Tichu:
            hand.do_tichu(seat)
        elif type(action) is Wish:
            rank = action.rank
            hand.do_wish(seat, RANK_OF_NAME[rank] if rank is not None else None)
        elif type(action) is GiveTrick:
            hand.do_give_trick(seat, action.to)
        else:
            assert type(action) is GiveLead
            hand.do_give_lead(seat, action.to)

    def judge(self, hand: HandState, version: int, action: Action) -> object:
        """What ``action`` means (see :meth:`perform`) if it is among the seat's options;
        else InvalidAction (malformed for this hand) or IllegalAction (against a rule)."""
        seat = action.seat
        if isinstance(action, Play):
            try:
                mask = take_cards(action.cards.split(), hand.hands[seat])
            except CardError as error:
                raise caused_by(
                    InvalidAction(f"seat {seat} cannot play {action.cards}: {error}"), error
                ) from error
            listed = self.plays(hand, version, seat)
            play = _find_play(listed, mask, action.phoenix, hand.hands[seat])
            if play is None:
                self._explain_play(hand, version, action)
            return play
        if isinstance(action, Pass):
            if not self.may_pass(hand, version, seat):
                self._explain_fixed(hand, version, action)
            return None
        if isinstance(action, Push):
            choices = self.pushes(hand, seat)
            if choices is None or dict(action.cards) not in choices:
                self._explain_push(hand, action)
            return _push_masks(action.cards, hand.chosen_push_hand(seat))
        if isinstance(action, GrandTichu | Tichu):
            if hand.phase == OVER or action not in self.calls(hand, version, seat):
                self._explain_fixed(hand, version, action)
        elif action not in self.decisions(hand, seat):
            self._explain_fixed(hand, version, action)
        return None

    # --- why not ----------------------------------------------------------------------

    @staticmethod
    def _require_play_phase(hand: HandState, seat: int) -> None:
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

    def _explain_play(self, hand: HandState, version: int, action: Play) -> NoReturn:
        seat = action.seat
        self._require_play_phase(hand, seat)
        mask = take_cards(action.cards.split(), hand.hands[seat])
        phoenix = RANK_OF_NAME[action.phoenix] if action.phoenix is not None else None
        top = hand.top
        text = format_mask(mask)
        rules = hand.rules
        if seat != hand.turn:
            refusal = bomb_refusal(hand, seat)
            if refusal is not None:
                if top is None or not any(r.is_bomb for r in rules.recognize(mask, top)):
                    raise IllegalAction(
                        f"it is seat {hand.turn}'s turn: only a bomb may be played out of turn",
                        "S-BOMB-3" if top is not None else refusal.rule,
                    )
                raise IllegalAction(refusal.reason, refusal.rule)
        readings = rules.recognize(mask, top)
        if not readings:
            counts = [((mask >> 8 * (r - 1)) & 0xFF).bit_count() for r in range(2, 15)]
            held = [c for c in counts if c]
            if max(counts) >= 5 or (len(held) >= 2 and all(c == 3 for c in held)):
                raise IllegalAction(
                    f"{text}: five of a rank and runs of triples are no combination", "S-COMB-2"
                )
            codes = codes_of(mask)
            if held == [4] and len(codes) == 4 and len(set(codes)) < 4:
                # Two decks: four of a rank with a suit twice is no bomb, nor anything else.
                raise IllegalAction(
                    f"{text}: four of a kind is a bomb only with four different suits", "GS-4"
                )
            raise IllegalAction(f"{text} is not a combination", "S-COMB-1")
        if phoenix is not None and all(r.phoenix != phoenix for r in readings):
            raise IllegalAction(
                f"in {text} the Phoenix cannot stand for {RANK_NAMES[phoenix]}", "S-COMB-4"
            )
        if seat != hand.turn and not any(r.is_bomb for r in readings):
            raise IllegalAction(
                f"it is not seat {seat}'s turn: only a bomb may be played out of turn", "S-BOMB-3"
            )
        if seat == hand.turn and hand.collecting:
            refusal = bomb_refusal(hand, seat)
            if refusal is not None and any(r.is_bomb for r in readings):
                raise IllegalAction(refusal.reason, refusal.rule)
            raise IllegalAction(
                f"seat {seat} leads this trick: it collects it by passing (or bombs)", "S-TRICK-2"
            )
        if readings[0].kind == DOG and top is not None:
            raise IllegalAction("the Dog may only be led", "S-DOG-1")
        fitting = [r for r in readings if rules.beats(r, top)]
        if not fitting:
            if top is not None and top[0] >= FIRST_BOMB_KIND and any(r.is_bomb for r in readings):
                raise IllegalAction(f"{text} does not beat the bomb on the trick", "S-BOMB-2")
            raise IllegalAction(f"{text} does not beat the trick's top play", "S-COMB-3")
        if seat == hand.turn and self.turn_plays(hand, version, seat)[1] and hand.wish is not None:
            raise IllegalAction(
                f"the wish for {RANK_NAMES[hand.wish]} binds seat {seat}: it must play a "
                "combination with that rank",
                "S-WISH-2",
            )
        raise IllegalAction(f"{text} may not be played now", "S-COMB-3")

    @staticmethod
    def _explain_push(hand: HandState, action: Push) -> NoReturn:
        seat = action.seat
        if hand.phase != EXCHANGE:
            raise IllegalAction("cards are pushed only in the exchange", "S-EX-1")
        targets = hand.push_targets[seat]
        if hand.pushes[seat] is not None:
            again = (
                "it pushes again only after calling Tichu"
                if hand.rulebook.change_after_tichu
                else "a push is final (exchange.change_after_tichu = false)"
            )
            raise IllegalAction(f"seat {seat} has pushed already: {again}", "S-EX-3")
        if not targets:
            raise IllegalAction(f"seat {seat} has no push to make", "S-EX-1")
        given = {t: str(codes).split() for t, codes in action.cards.items()}
        if sorted(given) != sorted(targets) or any(
            len(given[t]) != count for t, count in targets.items()
        ):
            wanted = ", ".join(f"{count} to seat {t}" for t, count in sorted(targets.items()))
            shown = ", ".join(f"{len(c)} to seat {t}" for t, c in sorted(given.items()))
            raise IllegalAction(
                f"seat {seat} gives {wanted}, not {shown or 'nothing'}",
                _PUSH_RULES.get(hand.rulebook.variant.exchange.targets, "S-EX-1"),
            )
        codes = [code for cards in given.values() for code in cards]
        try:
            take_cards(codes, hand.chosen_push_hand(seat))
        except CardError as error:
            if hand.chosen_push_hand(seat) != hand.hands[seat]:
                raise caused_by(
                    IllegalAction(
                        f"push of seat {seat}: {error} (among the cards it chooses from; "
                        "its best cards are given by the rules)",
                        "GS-6",
                    ),
                    error,
                ) from error
            raise caused_by(InvalidAction(f"push of seat {seat}: {error}"), error) from error
        raise InvalidAction(f"push of seat {seat} is not one of its pushes")

    def _explain_fixed(self, hand: HandState, version: int, action: Action) -> NoReturn:
        seat = action.seat
        if isinstance(action, GrandTichu):
            refusal = call_refusal(hand, seat, GRAND_TICHU)
            if refusal is not None and (action.call or hand.phase != GRAND_TICHU):
                raise IllegalAction(refusal.reason, refusal.rule)
            if hand.phase != GRAND_TICHU or hand.grand_tichu[seat] is not None:
                raise IllegalAction(f"seat {seat} has no Grand Tichu decision now", "S-DEAL-2")
        if isinstance(action, Tichu):
            refusal = call_refusal(hand, seat, "tichu")
            if refusal is not None:
                raise IllegalAction(refusal.reason, refusal.rule)
        if isinstance(action, GrandTichu | Tichu):
            raise IllegalAction(f"seat {seat} may not call now", "S-CALL-1")
        if isinstance(action, Pass):
            self._require_play_phase(hand, seat)
            if seat != hand.turn:
                raise IllegalAction(f"it is not seat {seat}'s turn (seat {hand.turn})", "S-TRICK-1")
            if hand.top is None:
                raise IllegalAction(f"seat {seat} leads and cannot pass", "S-TRICK-1")
            raise IllegalAction(
                f"the wish for {RANK_NAMES[hand.wish or 0]} binds seat {seat}: "
                "it must play that rank",
                "S-WISH-2",
            )
        if isinstance(action, Wish):
            kind, rule = WISH, "S-WISH-1"
        elif isinstance(action, GiveTrick):
            kind, rule = GIVE_TRICK, "S-DRAGON-1"
        else:
            kind, rule = GIVE_LEAD, "T6-4"
        pending = hand.pending
        if pending is None or pending.kind != kind or pending.seat != seat:
            raise IllegalAction(f"seat {seat} has no {kind.replace('_', ' ')} decision", rule)
        if isinstance(action, Wish):
            raise IllegalAction(f"seat {seat} may not wish for {action.rank}", rule)
        options = pending.options
        to = action.to if isinstance(action, GiveTrick | GiveLead) else None
        what = "the Dragon trick" if kind == GIVE_TRICK else "the lead"
        raise IllegalAction(f"{what} goes to one of seats {options}, not {to}", rule)


# Which rule a push to the wrong seats breaks, by `exchange.targets`: the variant's own.
_PUSH_RULES: Final = {
    "all": "S-EX-1",
    "opponents": "T3-3",
    "partners": "T6-3",
    "rank": "GS-6",
}


def _push_masks(given: Mapping[int, str], hand: int) -> dict[int, int]:
    """Target -> the copies of the pushed codes (target -> codes) taken from ``hand``,
    each copy once."""
    masks: dict[int, int] = {}
    left = hand
    for target, codes in given.items():
        taken = take_cards(str(codes).split(), left)
        left &= ~taken
        masks[target] = taken
    return masks
