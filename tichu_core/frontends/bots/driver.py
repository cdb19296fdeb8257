"""The driver: who is asked next, so that every seat acts when the rules let it.

The game says which seats it *needs* (``game.waiting_for``); the rules also let
seats act when they are not needed: a bomb out of turn at any moment while a
trick has a combination on the table (S-BOMB-3), a Tichu call at any moment
before one's first card (S-CALL-1). A :class:`Driver` turns both into one
sequence of questions, the same for every front end (``play_match``, ``tichu
simulate``/``compare``, the terminal, the web table's bots):

- **Bombs out of turn.** After every play (a new top play on the table), each
  seat that may now bomb it out of turn is offered that chance once, before the
  seat on turn acts, in the order of S-BOMB-6: the seats after the top play's
  seat in turn order (the top seat itself last, where S-BOMB-5 lets it bomb its
  own trick). The seat on turn is not offered: its own question lists its bombs.
  A bomb played starts a new round about the bomb (a later seat may still beat it,
  E-3); a seat that lets it stand is not asked again until the top play changes.
- **Calls out of turn.** A Tichu call still open to a seat is listed at each of
  its own decisions, as ever; besides, once per hand, when the exchange is done and
  before the first lead, every other seat that may still call is offered it.
- **Then the seat the game waits for** (``waiting_for[0]``), whose answer is due.

:meth:`Driver.next` says who is asked (a :class:`Chance`, the same one until it is
answered); an offer is answered by an action (:meth:`Driver.apply`) or let stand
(:meth:`Driver.decline`). Actions applied to the game some other way (a person on
the web) are told to the driver with :meth:`Driver.note`.

Kept cheap, since random-bot games run it millions of times: nothing is looked at
except after a play (the events of an action say so), only seats whose player is
asked at all (``listens``: bots written before this protocol are never asked, and
cost nothing), and only seats whose cards could make a bomb at all: the driver
follows the cards through the events (dealt, pushed, received, played), works out
once a hand, after the exchange, which seats hold four cards of a rank or five of a
suit in a row, and follows only those further (cards only leave a hand in play: a
hand that could not bomb never can). A play with no such seat at the table starts no
round at all; a seat that could bomb has its listing (``legal_actions``, where the
engine lists the bombs that beat the top play) asked once per top play. Where the
events do not add up (a driver made mid-hand, a card it did not see arrive, a bomb
it did not see coming or of a kind it does not know) it stops skipping for the hand
and asks the listing every time.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import tichu_core as tc
from tichu_core import Action, Event, Events, Game, LegalActions, Variant

__all__ = ["BOMB", "CALL", "TURN", "Chance", "Driver", "shown_variant"]

# What a chance is about: a bomb out of turn, a call out of turn, the seat's own turn.
BOMB = "bomb"
CALL = "call"
TURN = "turn"


class Chance(NamedTuple):
    """One question: ``seat`` is asked; ``kind`` is :data:`TURN` where the game waits
    for the seat (an action is due), else :data:`BOMB` or :data:`CALL`: an offer out of
    turn, whose listed ``actions`` hold the option (``None`` for a turn: the front end
    lists them as it always did)."""

    seat: int
    kind: str
    actions: LegalActions | None = None

    @property
    def optional(self) -> bool:
        """Whether the seat may let it stand (an offer out of turn)."""
        return self.kind != TURN


def _everyone(player: int) -> bool:
    return True


class Driver:
    """The questions of one game, in order (see the module docstring).

    ``listens(player)`` says whether the player acting for a seat is offered chances
    out of turn at all (default: every player)."""

    def __init__(self, game: Game, listens: Callable[[int], bool] | None = None) -> None:
        self.game = game
        self.listens = listens or _everyone
        seats = game.seats
        # No player is ever asked out of turn (bots of the old protocol): nothing to
        # follow. Players are fixed for a match (seats may change hands, players not).
        self._idle = not any(self.listens(player) for player in range(game.players))
        # The chance of each seat on turn, made once (the loop asks for one per action).
        self._turns = tuple(Chance(seat, TURN) for seat in range(seats))
        self._queue: list[int] = []  # seats still to be offered, in order
        self._kind = BOMB  # what the seats of the queue are offered
        # A round is due: after a play (bombs) and once a hand before the first lead
        # (calls). A driver made mid-game offers the table as it stands.
        self._top_seat: int | None = None
        # Each seat's cards, followed through the events (None: not known this hand),
        # and the seats whose cards could make a bomb (None: to be worked out again,
        # after cards arrived).
        self._cards: list[list[str]] | None = None
        self._bombers: list[int] | None = None
        played = False  # a card played this hand already: the call round is past
        if not game.is_over:
            # The cards of the running hand so far, from the log (once).
            log = game.event_log
            start = max(i for i, e in enumerate(log) if isinstance(e, tc.HandStarted))
            cards: list[list[str]] = [[] for _ in range(seats)]
            self._cards = cards
            for event in log[start + 1 :]:
                if isinstance(event, tc.Played):
                    played = True
                    if not _remove(cards[event.seat], event.cards):
                        self._cards = None
                        break
                else:
                    self._follow(event)
            if played:  # the table as it stands (an observation costs: only mid-hand)
                self._top_seat = game.observation(None).top_seat
        self._bombs_due = self._top_seat is not None
        self._calls_due = not played and not game.is_over

    # --- the questions ----------------------------------------------------------------

    def next(self) -> Chance | None:
        """Who is asked now (the same chance until it is answered); None once the game
        is over."""
        game = self.game
        if game.is_over:
            return None
        if not self._idle and (self._queue or self._bombs_due or self._calls_due):
            offer = self._offer(game)
            if offer is not None:
                return offer
        return self._turns[game.waiting_for[0]]

    def _offer(self, game: Game) -> Chance | None:
        """The next offer out of turn that is due, if any."""
        turn = game.turn
        if turn is not None:  # ordinary play, nothing pending: chances may be due
            if self._calls_due:
                self._calls_due = False
                self._bombs_due = False  # no trick before the first lead
                self._start(CALL, turn, None)
            elif self._bombs_due:
                self._bombs_due = False
                top = self._top_seat
                if top is not None:
                    self._start(BOMB, top, self._bombers if self._cards is not None else None)
        queue = self._queue
        bombs = self._kind == BOMB
        while queue:
            seat = queue[0]
            if seat != turn and self.listens(game.controller(seat)):
                actions = game.legal_actions(seat)
                if bombs:
                    # Out of turn, the plays listed are the bombs that beat the top.
                    if len(actions) != len(actions.fixed):
                        return Chance(seat, BOMB, actions)
                elif any(isinstance(action, tc.Tichu) for action in actions.fixed):
                    return Chance(seat, CALL, actions)
            del queue[0]
        return None

    def _start(self, kind: str, after: int, among: Sequence[int] | None) -> None:
        """A round of offers to every seat in turn order after ``after`` (itself last),
        or to those of ``among`` only."""
        seats = self.game.seats
        self._kind = kind
        order = [(after + step) % seats for step in range(1, seats + 1)]
        self._queue = order if among is None else [seat for seat in order if seat in among]

    def decline(self, chance: Chance) -> None:
        """``chance``'s seat lets it stand: it is not asked again about this top play
        (or, for a call, before its own next decision)."""
        if not chance.optional:
            raise ValueError(f"seat {chance.seat} is on turn: its action is due, not optional")
        if self._queue and self._queue[0] == chance.seat:
            del self._queue[0]

    def apply(self, action: Action) -> Events:
        """Apply ``action`` to the game and note it; its events."""
        events = self.game.apply(action)
        if not self._idle:
            self.note(events)
        return events

    def note(self, events: Sequence[Event]) -> None:
        """Take note of the events of an action applied to the game (by anyone)."""
        if self._idle:
            return
        for event in events:
            kind = type(event)
            if kind not in _NOTED:  # most events (passes, tricks won, calls)
                continue
            if kind is _PLAYED:
                assert isinstance(event, tc.Played)
                self._played(event)
            elif kind is _HAND_STARTED:
                self._top_seat = None
                self._bombs_due = False
                self._calls_due = True
                self._queue = []
                self._cards = [[] for _ in range(self.game.seats)]
                self._bombers = None
            elif kind in _CARD_EVENTS and self._cards is not None:
                self._follow(event)

    def _played(self, event: tc.Played) -> None:
        """A new top play: a round of bomb offers is due where a seat could bomb it."""
        self._top_seat = seat = event.seat
        self._calls_due = False  # the first lead is made: that moment is gone
        if self._queue:
            self._queue = []
        cards = self._cards
        if cards is None:  # the cards are not known: every seat is asked the engine
            self._bombs_due = True
            return
        bombers = self._bombers
        if bombers is None:  # cards arrived since the last look (the deal, the exchange)
            bombers = self._bombers = [s for s in range(len(cards)) if _could_bomb(cards[s])]
        if seat in bombers:
            # Only a seat that could bomb is followed any further: cards only leave a
            # hand in play, so a hand that could not bomb still cannot.
            if not _remove(cards[seat], event.cards):
                self._cards = None  # a card the driver did not see arrive: stop skipping
            elif not _could_bomb(cards[seat]):
                bombers.remove(seat)
        elif event.bomb:
            self._cards = None  # a bomb the card check did not see coming: stop skipping
        if event.bomb and not _could_bomb(event.cards):
            self._cards = None  # a bomb of a kind the card check does not know
        self._bombs_due = bool(bombers) or self._cards is None

    # --- following the cards (only to skip seats that cannot bomb) -----------------------

    def _follow(self, event: Event) -> None:
        cards = self._cards
        assert cards is not None
        self._bombers = None  # cards moved before play: to be worked out again
        if isinstance(event, tc.CardsDealt):
            cards[event.seat] += event.cards
        elif isinstance(event, tc.Pushed):
            if event.cards is None:
                return  # the public line of a push; its giver's own line names the cards
            given = [c for codes in event.cards.values() for c in codes.split()]
            if not _remove(cards[event.seat], given):
                self._cards = None
        elif isinstance(event, tc.CardsReceived):
            cards[event.seat] += [c for codes in event.cards.values() for c in codes.split()]


def _remove(held: list[str], codes: Sequence[str]) -> bool:
    """Take ``codes`` out of ``held``; False where one of them is not there."""
    for code in codes:
        if code not in held:
            return False
        held.remove(code)
    return True


_CARD_EVENTS = frozenset({tc.CardsDealt, tc.Pushed, tc.CardsReceived})
_PLAYED, _HAND_STARTED = tc.Played, tc.HandStarted
_NOTED = _CARD_EVENTS | {_PLAYED, _HAND_STARTED}  # the events the driver looks at
_SPECIAL_CODES = frozenset({"MJ", "DOG", "PH", "DR"})
_RANK_ORDER = {r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10"])}
_RANK_ORDER.update({"J": 9, "Q": 10, "K": 11, "A": 12})


def _could_bomb(codes: Sequence[str]) -> bool:
    """Whether ``codes`` hold four cards of one rank or five of one suit in a row (what
    every bomb of S-BOMB-1 needs; more than the rules ask, never less)."""
    ranks: dict[str, int] = {}
    suits: dict[str, set[int]] = {}
    for code in codes:
        if code in _SPECIAL_CODES:
            continue
        rank = code[:-1]
        order = _RANK_ORDER.get(rank)
        count = ranks[rank] = ranks.get(rank, 0) + 1
        if count >= 4 or order is None:  # a card it does not know may be in a bomb
            return True
        suits.setdefault(code[-1], set()).add(order)
    for values in suits.values():
        if len(values) >= 5:
            run = 0
            for value in range(13):
                run = run + 1 if value in values else 0
                if run >= 5:
                    return True
    return False


# The variant each player's bots are shown, per game: a copy made once per game and
# player (see shown_variant), forgotten with the game.
_SHOWN: weakref.WeakKeyDictionary[Game, dict[int, Variant]] = weakref.WeakKeyDictionary()
_SHOWN_LOCK = threading.Lock()


def shown_variant(game: Game, player: int) -> Variant:
    """The variant ``player``'s bots are shown (``observe``): a deep copy of the game's,
    made once per game and player, never the game's own. A bot that changes it, even
    past its read-only tables (``dict.__setitem__``, ``object.__setattr__``), changes
    its own copy only: not the game, its save, nor another player's bots. The same
    object at every decision of the game (a bot may keep what it built on it)."""
    with _SHOWN_LOCK:
        copies = _SHOWN.get(game)
        if copies is None:
            copies = _SHOWN[game] = {}
        variant = copies.get(player)
        if variant is None:
            variant = copies[player] = game.variant.model_copy(deep=True)
        return variant


def show_events(bot: object, game: Game, player: int) -> None:
    """Give ``bot`` its player's events before it is asked, where it wants them: a bot
    that plans on sampled worlds defines ``observe(variant, player, events)``
    (:mod:`~tichu_core.frontends.bots.protocol`); others are not told. The variant is
    the player's copy (:func:`shown_variant`), never the game's own."""
    observe = getattr(bot, "observe", None)
    if observe is not None:
        observe(shown_variant(game, player), player, game.events_for(player))


def ask_offer(bot: object, game: Game, chance: Chance) -> Action | None:
    """What ``bot`` does with an offer out of turn: its ``offer(observation, actions,
    seat)`` answer (an action from ``actions``, or None to let it stand). A bot without
    an ``offer`` method (the protocol before out-of-turn chances) lets everything stand."""
    offer = getattr(bot, "offer", None)
    if offer is None or chance.actions is None:
        return None
    seat = chance.seat
    player = game.controller(seat)
    show_events(bot, game, player)
    answer: Action | None = offer(game.observation(player), chance.actions, seat)
    return answer


def listens_to(bots: Sequence[object] | Mapping[int, object]) -> Callable[[int], bool]:
    """``listens`` for a game of ``bots`` (by player): only a bot with an ``offer``
    method is asked out of turn."""
    pairs = bots.items() if isinstance(bots, Mapping) else enumerate(bots)
    asked = {player for player, bot in pairs if callable(getattr(bot, "offer", None))}
    return asked.__contains__
