"""The match's state and its steps: what :class:`~tichu_core.game.match.Game` runs.

``GameCore`` asks the referee (:mod:`tichu_core.game.legality`) whether an action
is among the seat's options, without changing anything; then it snapshots
the hand, lets the hand change and, if a plugin fails half-way, puts the
snapshot back: ``apply`` is atomic. Who may act, and who the game waits for, is
always the referee's answer; the hand (:mod:`tichu_core.game.hand`) only changes.
Rules come from the game's rulebook (:mod:`tichu_core.rules.rulebook`); views
from :mod:`tichu_core.game.views`; saves from :mod:`tichu_core.game.saving`.

This module may be compiled (tichu_core.builds). A compiled method checks the
declared type of every argument before its body runs, and would answer a bad seat
or action with a bare ``TypeError``; so the methods that take a user's input
declare it ``object`` and refuse it themselves, with ``InvalidAction`` or
``VariantError``. ``Game`` (match.py) states the types meant, for type checkers.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from typing import Final, NoReturn

from mypy_extensions import mypyc_attr

from tichu_core.cardplay.cards import indexes_of
from tichu_core.errors import (
    DealError,
    IllegalAction,
    InvalidAction,
    PluginError,
    TichuError,
    VariantError,
)
from tichu_core.frozen import FrozenDict, FrozenList
from tichu_core.game.actions import (
    ACTION_TYPES,
    Action,
    AnotherHand,
    action_from_json,
    malformed,
    show_input,
)
from tichu_core.game.construction import construct, make_event
from tichu_core.game.dealing import checked_seed, seeded_rng, shuffle, stacked_deals
from tichu_core.game.eventlog import NO_EVENTS, Deferred, Events, built
from tichu_core.game.events import AnotherHandDecided, Event, HandScored, HandStarted, MatchOver
from tichu_core.game.hand import OVER, PLAY, HandState
from tichu_core.game.legality import (
    NOT_LISTED,
    LegalActions,
    Referee,
    grand_tichu_callers,
    waiting_seats,
)
from tichu_core.game.results import HandResult, Outcome, Termination, frozen_details
from tichu_core.game.saving import dump_game, load_game
from tichu_core.game.views import Observation, observe
from tichu_core.rules.rulebook import Rulebook, rulebook_for
from tichu_core.variants import Variant, load_variant

_ACTION_CLASSES: Final = frozenset(ACTION_TYPES.values())


def _deck_cards(deck: int) -> list[int]:
    """A new list of the card numbers of ``deck`` (a mask), lowest first: taken apart
    once per deck and copied at every deal."""
    cards = _DECK_CARDS.get(deck)
    if cards is None:
        if len(_DECK_CARDS) >= 64:
            _DECK_CARDS.clear()
        cards = _DECK_CARDS[deck] = indexes_of(deck)
    return cards[:]


_DECK_CARDS: Final[dict[int, list[int]]] = {}


def _copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the state of ``rng``."""
    twin = seeded_rng(0)
    twin.setstate(rng.getstate())
    return twin


@mypyc_attr(allow_interpreted_subclasses=True)
class GameCore:
    """A whole match of a variant: everything of ``Game`` but the types stated for
    its users (see the module's docstring)."""

    def __init__(
        self,
        variant: object,
        seed: object = None,
        deals: object = None,
        *,
        trace: Callable[[str], None] | None = None,
    ) -> None:
        if isinstance(variant, str):
            variant = load_variant(variant)
        elif not isinstance(variant, Variant):
            raise VariantError(
                f"a game needs a Variant or a variant name, got {show_input(variant)}"
            )
        # What the game hands out is read-only (properties below): immutable values, or
        # copies where a list is what users compare with.
        self._variant: Variant = variant
        # Games of one variant object share its rulebook (a traced game has its own).
        rulebook = Rulebook(variant, trace=trace) if trace else rulebook_for(variant)
        self._rulebook = rulebook
        self._seed = (
            checked_seed(seed) if seed is not None else int.from_bytes(os.urandom(6), "big")
        )
        self._rng = seeded_rng(self._seed)
        # Whether another game (a copy) holds this very generator: then the first of the
        # two to shuffle takes a copy of it first (copying its 625 words costs most of
        # a `copy`, and most copies never deal another hand).
        self._rng_shared = False
        self._shuffles = 0  # deals shuffled so far: the generator's state is seed + this
        self._seats: int = rulebook.seats
        self._players: int = rulebook.players
        self._deck = rulebook.deck()
        self._stacked = stacked_deals(deals, self._seats, self._deck)
        self._score_lines: tuple[str, ...] = tuple(rulebook.score_lines)
        # Replaced at every change, never changed in place (a copy shares them).
        self._scores: tuple[int, ...] = (0,) * len(self._score_lines)
        self._hand_results: FrozenList[HandResult] = FrozenList()
        self._outcome: Outcome | None = None
        self._is_over = False  # kept beside `outcome`: bots read it millions of times
        self._actions: list[Action] = []
        # Events and deferred events (eventlog): built when somebody reads them.
        self._events: list[Event | Deferred] = []
        # Player (None: spectators) -> (how far the log was read, positions it may see):
        # `events_for` reads only the events logged since its last call. The log only
        # grows: a failed `apply` adds nothing to it.
        self._visible: dict[int | None, tuple[int, list[int]]] = {}
        self._version = 0
        self._referee = Referee()
        # GS-8 (game.lord_decides): the seat of the Great Lord while it decides, between
        # two hands, whether another is played; None otherwise.
        self._lord_seat: int | None = None
        # A play-out (copy(playout=True)): no events, no logs, and it ends with its hand.
        self._playout = False
        # A play-out's apply takes no snapshot: one that fails half-way sets this, and the
        # copy refuses to go on (see `_broken_playout`).
        self._broken = False
        self._hand: HandState = self._new_hand(None)
        self._events.extend(self._hand.take_events())

    # --- dealing -------------------------------------------------------------------

    def _new_hand(self, previous: HandState | None) -> HandState:
        index = len(self._hand_results)
        rulebook = self._rulebook
        seating = rulebook.next_hand(previous.view if previous is not None else None)
        if index < len(self._stacked):
            dealt = self._stacked[index]
        else:
            cards = _deck_cards(self._deck)
            if self._rng_shared:
                self._rng = _copy_rng(self._rng)
                self._rng_shared = False
            shuffle(cards, self._rng)
            self._shuffles += 1
            dealt = rulebook.deal(cards, seating.dealer)
        ranking: list[int | None] = []
        if previous is not None:  # the seats' ranking was just recorded in its result
            ranking = [previous.players[seat] for seat in self._hand_results[-1].out_order]
        hand = HandState(rulebook, index, seating, dealt, ranking)
        hand.quiet = self._playout
        hand._emit(
            HandStarted,
            dealer=seating.dealer,
            players=list(seating.players),
            hand_sizes=[len(cards) for cards in dealt],
        )
        hand.start()
        hand.deal_first(grand_tichu_callers(hand))  # who may call: the referee's
        return hand

    # --- the match's public state (read-only) ----------------------------------------

    def __repr__(self) -> str:
        if self._broken:
            state = "a broken play-out"
        elif self._is_over:
            state = f"over after {len(self._hand_results)} hands, winners {self.winners}"
        else:
            hand = self._hand
            state = f"hand {hand.hand_index}, {hand.phase} phase, waiting for {self.waiting_for}"
        copy = ", a play-out" if self._playout else ""
        return (
            f"<{type(self).__name__} {self._variant.name} seed={self._seed}{copy}: {state}; "
            f"scores {list(self._scores)}>"
        )

    @property
    def variant(self) -> Variant:
        """The variant played (a frozen model)."""
        return self._variant

    @property
    def rulebook(self) -> Rulebook:
        """The rules of this game: the variant's plugins, asked through one object
        (docs/plugins.md, for plugin authors' tests; front ends need none of it)."""
        return self._rulebook

    @property
    def seed(self) -> int:
        """The seed of the shuffles (saved with the game)."""
        return self._seed

    @property
    def seats(self) -> int:
        """Hands at the table (the players, plus a dummy seat where the variant has one)."""
        return self._seats

    @property
    def players(self) -> int:
        """People at the table."""
        return self._players

    @property
    def score_lines(self) -> list[str]:
        """The name of each score line (a new list at every read)."""
        return list(self._score_lines)

    @property
    def scores(self) -> list[int]:
        """The match's total of each score line (a new list at every read)."""
        return list(self._scores)

    @property
    def hand_results(self) -> Sequence[HandResult]:
        """What each finished hand added, in order: a read-only list (FrozenList) of
        read-only values, replaced whole when a hand ends."""
        return self._hand_results

    @property
    def outcome(self) -> Outcome | None:
        """How the match ended (None while it goes on)."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        """Whether the match is over."""
        return self._is_over

    # --- who acts --------------------------------------------------------------------

    @property
    def winners(self) -> list[int]:
        """The winning score lines once the match is over (empty before)."""
        return list(self._outcome.winners) if self._outcome is not None else []

    @property
    def turn(self) -> int | None:
        """The seat whose ordinary turn it is (None outside play or while a decision is pending)."""
        hand = self._hand
        if hand.phase != PLAY or hand.pending is not None:
            return None
        return hand.turn

    @property
    def waiting_for(self) -> list[int]:
        """Seats whose decision the game needs to go on."""
        if self._is_over:
            return []
        if self._broken:
            self._broken_playout()
        if self._lord_seat is not None:
            return [self._lord_seat]
        return waiting_seats(self._hand)

    @property
    def to_act(self) -> list[int]:
        """Seats that may act now, optional acts (calls, bombs out of turn) included."""
        if self._is_over:
            return []
        return [s for s in range(self._seats) if len(self.legal_actions(s))]

    @property
    def hand_index(self) -> int:
        """The index of the running (or last) hand."""
        return self._hand.hand_index

    def seat_of(self, player: object) -> int | None:
        checked = self._check_player(player)
        try:
            return self._hand.players.index(checked)
        except ValueError:
            return None

    def player_at(self, seat: object) -> int | None:
        return self._hand.players[self._check_seat(seat)]

    def controller(self, seat: object) -> int:
        return self._hand.controllers[self._check_seat(seat)]

    def _check_seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._seats:
            raise InvalidAction(f"seat must be 0..{self._seats - 1}, got {show_input(seat)}")
        return seat

    def _check_player(self, player: object) -> int:
        if (
            isinstance(player, bool)
            or not isinstance(player, int)
            or not 0 <= player < self._players
        ):
            raise InvalidAction(f"player must be 0..{self._players - 1}, got {show_input(player)}")
        return player

    # --- legal actions and applying -------------------------------------------------

    def legal_actions(self, seat: object) -> LegalActions:
        """Every distinct legal action of ``seat`` now (a lazy sequence)."""
        checked = seat if type(seat) is int and 0 <= seat < self._seats else self._check_seat(seat)
        if self._is_over:
            return LegalActions(checked, [])
        if self._broken:
            self._broken_playout()
        if self._lord_seat is not None:
            decides = checked == self._lord_seat
            return LegalActions(
                checked,
                [AnotherHand(checked, True), AnotherHand(checked, False)] if decides else [],
            )
        return self._referee.legal_actions(self._hand, self._version, checked)

    def apply(self, action: object) -> Events:
        """Apply one action; returns its events (an ``Events``, built when read). Raises
        InvalidAction / IllegalAction / PluginError and then leaves the game exactly as
        it was."""
        if type(action) not in _ACTION_CLASSES:
            if not isinstance(action, dict | str | bytes):
                raise InvalidAction(f"not an action: {show_input(action)}")
            action = action_from_json(action)
        checked: Action = action  # type: ignore[assignment]  # one of the action classes now
        if self._broken:
            self._broken_playout()
        hand = self._hand
        version = self._version
        referee = self._referee
        # An action the referee listed for this very state (one of its own objects, or a
        # play it verifies field by field) is well-formed and legal: the listing was made
        # while the match ran and no Great Lord decided, at this version. Anything else
        # is checked in full, a tuple forged past the constructors first.
        meaning = referee.listed(hand, version, checked)
        if meaning is NOT_LISTED:
            problem = malformed(checked)
            if problem is not None:
                raise InvalidAction(problem)
            if self._is_over:
                raise IllegalAction("the match is over", "S-GAME-1")
            if not 0 <= checked.seat < self._seats:  # `malformed` made it an int
                self._check_seat(checked.seat)
            if self._lord_seat is not None or type(checked) is AnotherHand:
                return self._lord_decides(checked)
            meaning = referee.judge(hand, version, checked)
        if self._playout:
            return _play_out(self, hand, checked, meaning)
        # The referee makes it happen, or leaves the hand as it was.
        before, events = referee.carry_out(hand, checked, meaning)
        # A plain pass or play came back without a snapshot (Referee.carry_out): it ends
        # no hand and leaves a seat on turn, so there is nothing to settle.
        if before is not None:
            scores_before = self._scores  # replaced, never changed in place
            results_before = self._hand_results  # the same
            lord_before: int | None = self._lord_seat
            try:
                ended = _settle(self)
                if ended is not None:
                    events += ended
            except Exception:
                # A failing plugin (or engine bug) must leave the game as it was.
                self._hand = before
                self._scores = scores_before
                self._hand_results = results_before
                self._outcome = None
                self._is_over = False
                self._lord_seat = lord_before
                raise
        self._version = version + 1
        self._actions.append(checked)  # a play-out's apply went to `_play_out`
        self._events += events
        return Events(events)

    def _broken_playout(self) -> NoReturn:
        raise TichuError(
            "this play-out copy failed half-way through an action (see the error raised "
            "then) and is not usable: play-outs keep no snapshot to put it back; copy the "
            "game again"
        )

    def _lord_decides(self, action: Action) -> Events:
        """GS-8: the Great Lord's decision, the only action while it is pending (and
        refused at any other time)."""
        lord = self._lord_seat
        if lord is None:
            raise IllegalAction(
                f"seat {action.seat} has no decision on another hand: the Great Lord "
                "decides only after a hand, where game.lord_decides",
                "GS-8",
            )
        if type(action) is not AnotherHand or action.seat != lord:
            raise IllegalAction(
                f"the Great Lord (seat {lord}) first decides whether another hand is played",
                "GS-8",
            )
        assert isinstance(action, AnotherHand)
        hand = self._hand
        events: list[Event | Deferred] = [
            make_event(
                AnotherHandDecided, {"hand": hand.hand_index, "seat": lord, "more": action.more}
            )
        ]
        if action.more:
            events += self._deal_next(hand)  # atomic: a failing deal leaves the game as it was
            self._lord_seat = None
        else:
            self._lord_seat = None
            over = self._finish_match(self._leaders(Termination.LORD_DECIDED))
            if over is not None:
                events.append(over)
        self._version += 1
        if self._playout:
            return NO_EVENTS
        self._actions.append(action)
        self._events += events
        return Events(events)

    def _leaders(self, termination: Termination) -> Outcome:
        """The match ends now: the highest totals win (ties share)."""
        best = max(self._scores)
        return Outcome(termination, tuple(i for i, t in enumerate(self._scores) if t == best))

    def _finish_match(self, outcome: Outcome) -> Event | None:
        self._outcome = outcome
        self._is_over = True
        if self._playout:
            return None
        return make_event(
            MatchOver,
            {
                "hand": self._hand.hand_index,
                "totals": list(self._scores),
                "winners": list(outcome.winners),
                "termination": outcome.termination.value,
            },
        )

    def _check_someone_acts(self) -> None:
        """A hand that is not over must wait for someone: else the rules led nowhere."""
        hand = self._hand
        # Not through `waiting_for`, which a play-out refuses while it changes.
        if self._lord_seat is not None or waiting_seats(hand):
            return
        if hand.phase == OVER and (hand.score is None or self._playout):
            return  # the hand waits for its last trick's Dragon gift, or the play-out ended
        raise self._rulebook.blame(
            "tichu_hand_over",
            f"nobody can act in hand {hand.hand_index} ({hand.phase} phase, seats holding "
            f"cards: {[s for s in range(hand.seats) if hand.hands[s]]}) although the hand "
            "is not over",
        )

    def _end_hand(self) -> list[Event | Deferred]:
        hand = self._hand
        score = hand.score
        assert score is not None
        self._scores = tuple(
            total + points for total, points in zip(self._scores, score.scores, strict=True)
        )
        ranking = hand.view.ranking()
        result = construct(  # checked where the scores were answered (Rulebook.score_hand)
            HandResult,
            {
                "index": hand.hand_index,
                "scores": FrozenList(score.scores),
                "out_order": FrozenList(ranking),
                "players": FrozenList(hand.players),
                "card_points": FrozenList(score.card_points),
                "double_victory": score.double_victory,
                "calls": FrozenDict(hand.calls()),
                "details": frozen_details(score.details),
            },
        )
        self._hand_results = FrozenList([*self._hand_results, result])
        outcome = self._rulebook.match_over(self._scores, len(self._hand_results))
        if self._playout:  # no events, and the play-out ends with its hand
            if outcome is not None:
                self._finish_match(outcome)
            return []
        events: list[Event | Deferred] = [
            make_event(
                HandScored,
                {
                    "hand": hand.hand_index,
                    "scores": list(score.scores),
                    "totals": list(self._scores),
                    "out_order": ranking,
                    "card_points": list(score.card_points),
                    "double_victory": score.double_victory,
                    "details": dict(score.details),
                },
            )
        ]
        if outcome is not None:
            over = self._finish_match(outcome)
            assert over is not None
            events.append(over)
            return events
        if self._rulebook.lord_decides and len(self._hand_results) >= 2 and hand.out_order:
            # GS-8: from the second hand on, the new Great Lord (the first out) decides
            # whether another is played; the finished hand stays on the table meanwhile.
            self._lord_seat = hand.out_order[0]
            return events
        return events + self._deal_next(hand)

    def _deal_next(self, hand: HandState) -> list[Event | Deferred]:
        """Deal the hand after ``hand``; the generator is put back if the deal fails."""
        shuffles = self._shuffles
        try:
            self._hand = self._new_hand(hand)
        except Exception:
            if self._shuffles != shuffles:  # the failed deal drew from the generator
                self._rewind(shuffles)
            raise
        hand.close()
        return self._hand.take_events()

    def _rewind(self, shuffles: int) -> None:
        """Put the shuffling generator back to where it was after ``shuffles`` deals: a
        failed deal must leave no trace. Replayed from the seed (every shuffle draws
        from the generator alone, the same deck each time), so that no hand pays for
        saving the generator's state (625 numbers) in case its deal fails."""
        rng = seeded_rng(self._seed)
        cards = _deck_cards(self._deck)
        for _ in range(shuffles):
            shuffle(cards, rng)
        self._rng = rng
        self._rng_shared = False
        self._shuffles = shuffles

    def copy(self, playout: object = False) -> GameCore:
        """An independent game in exactly this state, for search and what-ifs: actions
        applied to the copy never change this game (nor the other way round). The
        variant and its rulebook are shared (rules hold no game state); the hand is
        copied the way ``apply`` snapshots it, so a copy costs about one step.

        ``playout=True``: a copy for playing the hand out fast (a search's rollouts).
        It plays by the same rules (``legal_actions``, ``apply``, ``waiting_for``,
        ``observation``, ``scores``, ``hand_results``, ``is_over``: all as in any game),
        but builds no events (``apply`` returns an empty ``Events``), keeps no history
        (``events_for``, ``event_log``, ``actions`` and ``to_json`` refuse, with a
        TichuError) and ends with its hand: once the hand is scored (and the match
        possibly over), nobody acts any more. Its ``apply`` refuses what a game's refuses
        and leaves it unchanged then, but takes no snapshot: if a plugin fails half-way
        through an action, the play-out refuses every later use (TichuError) instead of
        being put back. Copies of a play-out are play-outs."""
        if type(playout) is not bool:
            raise TypeError(f"copy(playout=...) takes True or False, got {show_input(playout)}")
        if self._broken:
            self._broken_playout()
        quiet = playout or self._playout
        cls = type(self)
        twin = cls.__new__(cls)  # not initialised: every attribute is set below (a test
        # holds this list to the class's attributes)
        # What a user set on a Game, if anything (where the class runs as plain Python,
        # its own attributes too: each is replaced by its copy just below).
        extra = getattr(self, "__dict__", None)
        if extra:
            twin.__dict__.update(extra)
        twin._variant = self._variant
        twin._rulebook = self._rulebook
        twin._seed = self._seed
        twin._rng = self._rng  # shared until one of the two shuffles (see _new_hand)
        twin._rng_shared = True
        self._rng_shared = True
        twin._shuffles = self._shuffles
        twin._seats = self._seats
        twin._players = self._players
        twin._deck = self._deck
        twin._stacked = self._stacked
        twin._score_lines = self._score_lines
        twin._scores = self._scores  # immutable: shared
        twin._hand_results = self._hand_results
        twin._outcome = self._outcome
        twin._is_over = self._is_over
        if quiet:
            twin._actions = []
            twin._events = []
            twin._visible = {}
        else:
            twin._actions = list(self._actions)
            twin._events = list(self._events)
            twin._visible = {
                viewer: (read, seen[:]) for viewer, (read, seen) in self._visible.items()
            }
        twin._version = self._version
        twin._referee = Referee()
        twin._lord_seat = self._lord_seat
        twin._playout = quiet
        twin._broken = False
        twin._hand = self._hand.clone()
        twin._hand.quiet = quiet
        return twin

    def _no_history(self, what: str) -> None:
        if self._playout:
            raise TichuError(
                f"{what}: a play-out (copy(playout=True)) keeps no history; ask the game "
                "it was copied from"
            )

    # --- what players see --------------------------------------------------------------

    def observation(self, player: object) -> Observation:
        """What ``player`` may know now (None: a spectator)."""
        return observe(
            self._hand,
            None if player is None else self._check_player(player),
            turn=self.turn,
            waiting_for=self.waiting_for,
            scores=self._scores,
            score_lines=self._score_lines,
            hands_played=len(self._hand_results),
            lord_seat=self._lord_seat,
        )

    def events_for(self, player: object, since: object = 0) -> Events:
        """The events ``player`` may see (None: a spectator), from position ``since`` of
        that player's own stream: an ``Events``, as ``apply`` answers."""
        self._no_history("events_for")
        viewer = None if player is None else self._check_player(player)
        if type(since) is not int or since < 0:  # a negative slice would count from the end
            raise InvalidAction(
                f"since must be a position in the events (an int from 0), got {show_input(since)}"
            )
        read, positions = self._visible.get(viewer, (0, []))
        log = built(self._events, read)  # the events not read before, built now
        if read < len(log):
            positions.extend(index for index in range(read, len(log)) if log[index].seen_by(viewer))
            self._visible[viewer] = (len(log), positions)
        return Events([log[index] for index in positions[since:]])

    @property
    def event_log(self) -> list[Event]:
        """Every event unredacted: for referees, transcripts and tests, never for a player."""
        self._no_history("event_log")
        return list(built(self._events))

    @property
    def actions(self) -> list[Action]:
        """Every action applied so far, in order."""
        self._no_history("actions")
        return list(self._actions)

    # --- save and restore --------------------------------------------------------------

    def to_json(self) -> str:
        """The exact game: variant, seed, stacked deals and actions (cards as codes)."""
        self._no_history("to_json")
        return dump_game(self._variant, self._seed, self._stacked, self._actions)

    @classmethod
    def from_json(cls, text: object, *, allow_imports: bool = False) -> GameCore:
        """Restore a game saved by :meth:`to_json` (replaying its actions). InvalidAction
        for a text that is no such save or does not replay; VariantError when its
        variant's plugins cannot be resolved (or need ``allow_imports``)."""
        saved = load_game(text, allow_imports=allow_imports)
        try:
            game = cls(saved.variant, seed=saved.seed, deals=saved.deals)
        except DealError as error:
            raise InvalidAction(f"the saved game's deals are invalid: {error}") from error
        for number, raw in enumerate(saved.actions):
            try:
                game.apply(raw)
            except (InvalidAction, IllegalAction, PluginError) as error:
                raise InvalidAction(
                    f"saved action {number} ({raw}) does not replay: {error}"
                ) from error
        return game


def _play_out(game: GameCore, hand: HandState, action: Action, meaning: object) -> Events:
    """``apply`` in a play-out, legal ``action`` with its ``meaning``: the same change,
    without the snapshot that makes a game's ``apply`` atomic (making and freeing it was
    about a twentieth of a play-out step). A rollout is thrown away, so a play-out that
    fails half-way (a failing plugin) is not put back: it refuses every later use
    instead, so nothing is read from a half-made state. A function, as ``_settle``."""
    game._broken = True
    game._referee.perform(hand, action, meaning)
    _settle(game)  # a play-out's end of hand: no events, no next hand
    game._broken = False
    game._version += 1
    return NO_EVENTS


def _settle(game: GameCore) -> list[Event | Deferred] | None:
    """What follows an action's change in ``game``: a hand that ended is scored (and, in
    a game, the next one dealt: its events; None when no hand ended, so that the
    commonest step makes no list), and a hand that goes on must wait for someone. A
    function, not a method: compiled, a method of this class (which plain Python
    subclasses) is looked up on the object's type at every call."""
    hand = game._hand
    events = game._end_hand() if hand.phase == OVER and hand.score is not None else None
    hand = game._hand
    if hand.turn is None and hand.pending is None and not game.is_over:
        game._check_someone_acts()
    return events
