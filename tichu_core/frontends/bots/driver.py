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
cost nothing), and a seat's listing (``legal_actions``, where the engine lists
out-of-turn bombs only for a seat holding one that beats the top play) once per
top play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import tichu_core as tc
from tichu_core import Action, Event, Game, LegalActions

__all__ = ["BOMB", "CALL", "TURN", "Chance", "Driver"]

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
        self._queue: list[int] = []  # seats still to be offered, in order
        self._kind = BOMB  # what the seats of the queue are offered
        # A round is due: after a play (bombs) and once a hand before the first lead
        # (calls). A driver made mid-game offers the table as it stands.
        self._top_seat: int | None = None
        if not game.is_over:
            self._top_seat = game.observation(None).top_seat
        self._bombs_due = self._top_seat is not None
        self._calls_due = self._top_seat is None

    # --- the questions ----------------------------------------------------------------

    def next(self) -> Chance | None:
        """Who is asked now (the same chance until it is answered); None once the game
        is over."""
        game = self.game
        if game.is_over:
            return None
        turn = game.turn
        if turn is not None:  # ordinary play, nothing pending: chances may be due
            if self._calls_due:
                self._calls_due = False
                self._bombs_due = False  # no trick before the first lead
                self._start(CALL, turn)
            elif self._bombs_due:
                self._bombs_due = False
                top = self._top_seat
                if top is not None:
                    self._start(BOMB, top)
        queue = self._queue
        while queue:
            seat = queue[0]
            if seat != turn and self.listens(game.controller(seat)):
                actions = game.legal_actions(seat)
                if self._kind == BOMB:
                    # Out of turn, the plays listed are the bombs that beat the top.
                    if len(actions) != len(actions.fixed):
                        return Chance(seat, BOMB, actions)
                elif any(isinstance(action, tc.Tichu) for action in actions.fixed):
                    return Chance(seat, CALL, actions)
            del queue[0]
        return Chance(game.waiting_for[0], TURN)

    def _start(self, kind: str, after: int) -> None:
        """A round of offers to every seat in turn order after ``after`` (itself last)."""
        seats = self.game.seats
        self._kind = kind
        self._queue = [(after + step) % seats for step in range(1, seats + 1)]

    def decline(self, chance: Chance) -> None:
        """``chance``'s seat lets it stand: it is not asked again about this top play
        (or, for a call, before its own next decision)."""
        if not chance.optional:
            raise ValueError(f"seat {chance.seat} is on turn: its action is due, not optional")
        if self._queue and self._queue[0] == chance.seat:
            del self._queue[0]

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` to the game and note it; its events."""
        events = self.game.apply(action)
        self.note(events)
        return events

    def note(self, events: Sequence[Event]) -> None:
        """Take note of the events of an action applied to the game (by anyone)."""
        for event in events:
            if isinstance(event, tc.Played):
                # A new top play: a new round of bomb offers once the play can be bombed.
                self._top_seat = event.seat
                self._bombs_due = True
                self._queue = []
            elif isinstance(event, tc.HandStarted):
                self._top_seat = None
                self._bombs_due = False
                self._calls_due = True
                self._queue = []


def ask_offer(bot: object, game: Game, chance: Chance) -> Action | None:
    """What ``bot`` does with an offer out of turn: its ``offer(observation, actions,
    seat)`` answer (an action from ``actions``, or None to let it stand). A bot without
    an ``offer`` method (the protocol before out-of-turn chances) lets everything stand."""
    offer = getattr(bot, "offer", None)
    if offer is None or chance.actions is None:
        return None
    seat = chance.seat
    answer: Action | None = offer(game.observation(game.controller(seat)), chance.actions, seat)
    return answer


def listens_to(bots: Sequence[object] | Mapping[int, object]) -> Callable[[int], bool]:
    """``listens`` for a game of ``bots`` (by player): only a bot with an ``offer``
    method is asked out of turn."""
    pairs = bots.items() if isinstance(bots, Mapping) else enumerate(bots)
    asked = {player for player, bot in pairs if callable(getattr(bot, "offer", None))}
    return asked.__contains__
