"""One hand: deal, Grand Tichu, exchange, tricks, end — the state machine of a hand.

:class:`HandState` holds the data hooks read (through its read-only
:class:`~tichu_core.rules.table.TableView`, ``view``); its ``do_*`` methods
change it and record events. They are called only after
:mod:`tichu_core.game.legality` found the action legal, and the game snapshots
the state first, so a failing hook never leaves half a step behind. Nothing
here assumes four seats, two teams or one deck, and no rule option is read
here: seats, teams, targets, recipients and every rule decision come from the
rulebook.

The hand never judges whether a seat may act (call, bomb, pass, push, decide,
or must be waited for): that is the referee's alone, in
:mod:`tichu_core.game.legality`, which imports this module and never the other
way round. Where a step of the hand depends on such a judgment (which seats the
first cards give a Grand Tichu decision), the game asks the referee and hands
the answer in (:meth:`HandState.deal_first`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

from tichu_core.cardplay.cards import (
    DRAGON_BITS,
    DRAGON_RANK,
    MAH_JONG_BITS,
    RANK_NAMES,
    card_codes,
    codes_high_first,
    mask_of,
    mask_points,
    play_codes,
)
from tichu_core.cardplay.combinations import (
    DOG_ID,
    FIRST_BOMB_KIND,
    SINGLE,
    PlayTuple,
)
from tichu_core.game.construction import make_event, passed_event, played_event, trick_won_event
from tichu_core.game.eventlog import Deferred
from tichu_core.game.events import (
    CardsDealt,
    CardsReceived,
    DragonGiven,
    Event,
    ExchangeDone,
    GrandTichuDecided,
    HandShown,
    LeadPassed,
    Pushed,
    PushWithdrawn,
    SeatOut,
    TichuCalled,
    WishFulfilled,
    WishMade,
)
from tichu_core.rules.answers import HandScore, Seating
from tichu_core.rules.table import EXCHANGE, GRAND_TICHU, OVER, PLAY, TableView, next_holding

if TYPE_CHECKING:
    from tichu_core.rules.rulebook import Rulebook

__all__ = ["EXCHANGE", "GRAND_TICHU", "OVER", "PLAY", "HandState", "Pending"]

_T = TypeVar("_T")

WISH: Final = "wish"
GIVE_TRICK: Final = "give_trick"
GIVE_LEAD: Final = "give_lead"

# Every attribute of a HandState, as `clone` copies them (a test holds the two together).
STATE_FIELDS: Final = (
    "rulebook",
    "rules",
    "hand_index",
    "seats",
    "players",
    "dealer",
    "dealt",
    "previous_ranking",
    "phase",
    "grand_tichu",
    "tichu",
    "played_any",
    "push_targets",
    "forced",
    "pushes",
    "received",
    "piles",
    "out_order",
    "trick",
    "trick_cards",
    "top",
    "top_seat",
    "passed",
    "active",
    "turn",
    "collecting",
    "pending",
    "wish",
    "score",
    "teams",
    "controllers",
    "grand_tichu_cards",
    "_visibility",
    "hands",
    "_events",
    "_view",
    "quiet",
)


def _replaced(values: list[_T], index: int, value: _T) -> list[_T]:
    """A copy of ``values`` with one entry changed: state lists are replaced, never
    changed in place, so that the snapshot taken before each action can share them."""
    changed = values[:]
    changed[index] = value
    return changed


@dataclass
class Pending:
    """A decision a play left for one seat before anything else happens (E-1)."""

    kind: str  # WISH, GIVE_TRICK, GIVE_LEAD
    seat: int
    options: list[int]


class HandState:
    """The state of one hand. Hooks read it through :attr:`view`; only the engine changes it."""

    # The class may be compiled (tichu_core.builds): a native class, whose attributes
    # are fixed slots; `clone` copies them one by one (STATE_FIELDS lists them).

    def __init__(
        self,
        rulebook: Rulebook | None = None,
        hand_index: int = 0,
        seating: Seating | None = None,
        dealt: list[list[int]] | None = None,
        previous_ranking: list[int | None] | None = None,
    ) -> None:
        if rulebook is None or seating is None or dealt is None or previous_ranking is None:
            return  # a blank for `clone` to fill (a compiled class has no other way)
        self.rulebook = rulebook
        self.rules = rulebook.play_rules
        self._view: TableView | None = None
        self.hand_index = hand_index
        self.seats = len(seating.players)
        self.players = list(seating.players)
        self.dealer = seating.dealer
        self.dealt = [list(cards) for cards in dealt]  # per seat, in dealing order
        self.previous_ranking = list(previous_ranking)
        n = self.seats
        self.hands = [0] * n
        self.phase = GRAND_TICHU
        self.grand_tichu: list[bool | None] = [None] * n
        self.tichu = [False] * n
        self.played_any = [False] * n
        # Exchange: what each seat chooses (target -> cards) and what is forced from it.
        self.push_targets: list[dict[int, int]] = [{} for _ in range(n)]
        self.forced: list[dict[int, int]] = [{} for _ in range(n)]
        self.pushes: list[dict[int, int] | None] = [None] * n  # target -> card mask
        self.received: list[dict[int, int]] = [{} for _ in range(n)]  # giver -> card mask
        self.piles = [0] * n
        self.out_order: list[int] = []
        # The trick's plays as plain tuples (the view shows them as Combinations): each
        # (seat, PlayTuple), the play typed Any so that the compiled build keeps the
        # object it is given rather than taking it apart and making it again.
        self.trick: list[tuple[int, Any]] = []
        self.trick_cards = 0
        self.top: PlayTuple | None = None
        self.top_seat: int | None = None
        self.passed = 0  # bitmask of seats that passed since the top play
        self.active = 0  # bitmask of seats holding cards, from the start of play
        self.turn: int | None = None
        self.collecting = False  # the turn is back at the top seat (S-TRICK-2)
        self.pending: Pending | None = None
        self.wish: int | None = None
        self.score: HandScore | None = None
        # The hand's events since the game last took them; most are built when read.
        self._events: list[Event | Deferred] = []
        # A play-out's hand (GameCore.copy(playout=True)) builds no events: nobody reads
        # them, and they are most of what a step makes besides the state.
        self.quiet = False
        # Filled from the rulebook by start():
        self.teams: list[int] = []
        self.controllers: list[int] = []
        self.grand_tichu_cards = 0
        # Player (None: spectators) -> seats whose hands it sees, asked at each phase.
        # Player (None: spectators) -> seats whose hands it sees; asked once per phase,
        # when first needed (see `visibility`).
        self._visibility: dict[int | None, frozenset[int]] | None = None

    # --- reading -------------------------------------------------------------------

    @property
    def view(self) -> TableView:
        """The read-only view hooks receive (made when first asked: most snapshots of
        the state are never read by a hook)."""
        if self._view is None:
            self._view = TableView(self)
        return self._view

    def clone(self) -> HandState:
        """A copy deep enough that changing the copy never changes this state.

        Only ``hands`` and ``_events`` change in place; every other list or dict is
        replaced when it changes (see `_replaced`), so the copy may share it. That keeps
        the snapshot taken before every action to copying references (STATE_FIELDS).
        """
        other = HandState()
        other.rulebook = self.rulebook
        other.rules = self.rules
        other.hand_index = self.hand_index
        other.seats = self.seats
        other.players = self.players
        other.dealer = self.dealer
        other.dealt = self.dealt
        other.previous_ranking = self.previous_ranking
        other.phase = self.phase
        other.grand_tichu = self.grand_tichu
        other.tichu = self.tichu
        other.played_any = self.played_any
        other.push_targets = self.push_targets
        other.forced = self.forced
        other.pushes = self.pushes
        other.received = self.received
        other.piles = self.piles
        other.out_order = self.out_order
        other.trick = self.trick
        other.trick_cards = self.trick_cards
        other.top = self.top
        other.top_seat = self.top_seat
        other.passed = self.passed
        other.active = self.active
        other.turn = self.turn
        other.collecting = self.collecting
        other.pending = self.pending
        other.wish = self.wish
        other.score = self.score
        other.teams = self.teams
        other.controllers = self.controllers
        other.grand_tichu_cards = self.grand_tichu_cards
        other._visibility = self._visibility
        other.hands = self.hands[:]
        other._events = self._events[:]
        other._view = None
        other.quiet = self.quiet
        return other

    def close(self) -> None:
        """The hand is over and replaced: drop its view, which refers back to it, so that
        the two are freed at once instead of waiting for the cycle collector (which a
        simulation may switch off)."""
        self._view = None

    def restore(self, before: HandState) -> None:
        """Put back the state ``before`` (a clone of this one) in place."""
        self.rulebook = before.rulebook
        self.rules = before.rules
        self.hand_index = before.hand_index
        self.seats = before.seats
        self.players = before.players
        self.dealer = before.dealer
        self.dealt = before.dealt
        self.previous_ranking = before.previous_ranking
        self.phase = before.phase
        self.grand_tichu = before.grand_tichu
        self.tichu = before.tichu
        self.played_any = before.played_any
        self.push_targets = before.push_targets
        self.forced = before.forced
        self.pushes = before.pushes
        self.received = before.received
        self.piles = before.piles
        self.out_order = before.out_order
        self.trick = before.trick
        self.trick_cards = before.trick_cards
        self.top = before.top
        self.top_seat = before.top_seat
        self.passed = before.passed
        self.active = before.active
        self.turn = before.turn
        self.collecting = before.collecting
        self.pending = before.pending
        self.wish = before.wish
        self.score = before.score
        self.teams = before.teams
        self.controllers = before.controllers
        self.grand_tichu_cards = before.grand_tichu_cards
        self._visibility = before._visibility
        self.hands = before.hands
        self._events = before._events
        self._view = before._view
        self.quiet = before.quiet

    def next_active(self, seat: int) -> int | None:
        """The next seat after ``seat`` (in play order) that still holds cards."""
        return next_holding(self.hands, seat)

    def calls(self) -> dict[int, str]:
        """The calls made: seat -> "tichu", "grand_tichu", or "grand_tichu+tichu" where
        the rules let one seat make both (S-CALL-1)."""
        made = {}
        for seat in range(self.seats):
            names = [
                name
                for name, called in (
                    ("grand_tichu", self.grand_tichu[seat]),
                    ("tichu", self.tichu[seat]),
                )
                if called
            ]
            if names:
                made[seat] = "+".join(names)
        return made

    def chosen_push_hand(self, seat: int) -> int:
        """The cards ``seat`` may choose its pushes from: its hand without forced cards."""
        forced = 0
        for mask in self.forced[seat].values():
            forced |= mask
        return self.hands[seat] & ~forced

    # --- events ------------------------------------------------------------------------

    def _emit(
        self, event_type: type[Event], masks: dict[int, int] | None = None, **fields: Any
    ) -> None:
        """Log an event of ``event_type`` with ``fields``, built when read (eventlog).
        ``masks``: its ``cards`` as target (or giver) -> card mask, made codes then too.
        A private event (``visible_to``) is seen by the players who may see one of
        those seats in this phase: the phase's visibility is kept with it (a phase
        replaces that dict, never changes it)."""
        if self.quiet:
            return
        fields["hand"] = self.hand_index
        visibility = self.visibility() if "visible_to" in fields else None
        self._events.append(Deferred(_EVENT, (event_type, fields, masks, visibility)))

    def _enter(self, phase: str) -> None:
        """Start a phase and ask again what each player may see (T3-4: the dummy's hand
        turns face up after the exchange); a hand newly shown is an event."""
        self.phase = phase
        before = self._visibility
        self._visibility = None
        if self.quiet:
            return  # asked when first needed (an observation), and no HandShown to emit
        after = self.visibility()
        if before is None:
            return
        for seat in range(self.seats):
            if any(seat in seen and seat not in before.get(v, ()) for v, seen in after.items()):
                self._emit(
                    HandShown,
                    seat=seat,
                    cards=codes_high_first(self.hands[seat]),
                    visible_to=[seat],
                )

    def visibility(self) -> dict[int | None, frozenset[int]]:
        """Player (None: a spectator) -> the seats whose hands it may see in this phase."""
        if self._visibility is None:
            rulebook, view = self.rulebook, self.view
            viewers: list[int | None] = [*range(rulebook.players), None]
            self._visibility = {
                viewer: frozenset(rulebook.visible_seats(view, viewer)) for viewer in viewers
            }
        return self._visibility

    def take_events(self) -> list[Event | Deferred]:
        events, self._events = self._events, []
        return events

    # --- starting ---------------------------------------------------------------------

    def start(self) -> None:
        """Ask the layout and how many cards come before Grand Tichu (S-DEAL-1/2).

        Which seats those first cards give a Grand Tichu decision is the referee's
        answer (``legality.grand_tichu_callers``); the game hands it to `deal_first`."""
        rulebook, view = self.rulebook, self.view
        self.teams = rulebook.layout(view)
        self.controllers = rulebook.controllers(view)
        self._enter(GRAND_TICHU)
        smallest = min(len(cards) for cards in self.dealt)
        self.grand_tichu_cards = rulebook.grand_tichu_cards(view, smallest)

    def deal_first(self, may_call: list[bool]) -> None:
        """Deal the first cards to decide Grand Tichu on, ``may_call`` saying per seat
        whether it may call (a seat that may not has decided: no). If no seat may, the
        phase is skipped: every card is dealt at once (S-DEAL-2)."""
        first = self.grand_tichu_cards
        if any(may_call):
            for seat in range(self.seats):
                self._give(seat, self.dealt[seat][:first])
                if not may_call[seat]:
                    self.grand_tichu = _replaced(self.grand_tichu, seat, False)
        else:
            self.grand_tichu = [False] * self.seats
            self._deal_rest(0)

    def _give(self, seat: int, cards: list[int]) -> None:
        self.hands[seat] |= mask_of(cards)
        self._emit(CardsDealt, seat=seat, cards=card_codes(cards), visible_to=[seat])

    def _deal_rest(self, already: int) -> None:
        for seat in range(self.seats):
            rest = self.dealt[seat][already:]
            if rest:
                self._give(seat, rest)
        # S-EX-1, GS-6: the exchange is planned once every seat holds all its cards.
        self._enter(EXCHANGE)
        rulebook, view = self.rulebook, self.view
        self.push_targets = [rulebook.push_targets(view, s) for s in range(self.seats)]
        self.forced = [rulebook.forced_push(view, s, self.hands[s]) for s in range(self.seats)]
        for seat in range(self.seats):
            wanted = sum(self.push_targets[seat].values())
            if wanted > self.chosen_push_hand(seat).bit_count():
                raise rulebook.blame(
                    "tichu_push_targets",
                    f"seat {seat} would give {wanted} cards but has only "
                    f"{self.chosen_push_hand(seat).bit_count()} to choose from",
                )
        if any(self.push_targets):
            return
        if any(self.forced):
            self._exchange()
        else:
            self._begin_play()

    # --- Grand Tichu, Tichu, exchange -------------------------------------------------

    def do_grand_tichu(self, seat: int, call: bool) -> None:
        self.grand_tichu = _replaced(self.grand_tichu, seat, call)
        self._emit(GrandTichuDecided, seat=seat, call=call)
        if all(decided is not None for decided in self.grand_tichu):
            self._deal_rest(self.grand_tichu_cards)

    def do_tichu(self, seat: int) -> None:
        self.tichu = _replaced(self.tichu, seat, True)
        self._emit(TichuCalled, seat=seat)
        if (
            self.phase == EXCHANGE
            and self.pushes[seat] is not None
            and self.rulebook.change_after_tichu
        ):
            # S-EX-3: nothing has moved yet (the exchange waits for every seat), so the
            # caller takes its cards back and pushes again.
            self.pushes = _replaced(self.pushes, seat, None)
            self._emit(PushWithdrawn, seat=seat)

    def do_push(self, seat: int, cards: dict[int, int]) -> None:
        self.pushes = _replaced(self.pushes, seat, cards)
        self._emit(Pushed, seat=seat, cards=None)
        self._emit(Pushed, cards, seat=seat, visible_to=[seat])
        if all(self.pushes[s] is not None or not self.push_targets[s] for s in range(self.seats)):
            self._exchange()

    def _exchange(self) -> None:
        """S-EX-1, GS-6: all pushes, chosen and forced, move at once."""
        # `received` is replaced, never changed in place, so snapshots may share it.
        received: list[dict[int, int]] = [{} for _ in range(self.seats)]
        for giver, forced in enumerate(self.forced):
            if forced:  # GS-6: the giver learns which of its cards the rules took
                self._emit(Pushed, seat=giver, cards=None, forced=True)
                self._emit(Pushed, forced, seat=giver, forced=True, visible_to=[giver])
        for giver in range(self.seats):
            given = dict(self.forced[giver])
            for target, mask in (self.pushes[giver] or {}).items():
                given[target] = given.get(target, 0) | mask
            for target, mask in given.items():
                self.hands[giver] &= ~mask
                received[target][giver] = received[target].get(giver, 0) | mask
        self.received = received
        for target, got in enumerate(self.received):
            for mask in got.values():
                self.hands[target] |= mask
            if got:
                self._emit(CardsReceived, got, seat=target, visible_to=[target])
        self._begin_play()

    def _begin_play(self) -> None:
        self._enter(PLAY)
        # Cards only leave hands from now on: a seat leaves `active` when it goes out.
        self.active = sum(1 << seat for seat, cards in enumerate(self.hands) if cards)
        leader = self.rulebook.first_leader(self.view)
        self.turn = leader
        self._emit(ExchangeDone, leader=leader)

    # --- play -----------------------------------------------------------------------

    def plain_play(self, seat: int, listed: Any) -> bool:
        """Whether ``do_play(seat, listed)`` asks no rule: no wish is open, the seat keeps
        cards, and it is neither the Dog nor the Mah Jong. Such a play (most plays) only
        changes the trick and moves the turn on; nothing in it can fail, so the game
        takes no snapshot of the hand for it (GameCore.apply). Keep this in step with
        ``do_play``. ``listed`` is the play (a PlayTuple) as the object it is: a PlayTuple
        parameter would be taken apart, and made again wherever it is stored, by the
        compiled build."""
        cards: int = listed[3]
        return (
            self.wish is None
            and listed[0] != DOG_ID
            and not cards & MAH_JONG_BITS
            and self.hands[seat] & ~cards != 0
        )

    def do_play(self, seat: int, listed: Any) -> None:
        """A play found legal (on turn, or a bomb out of turn): a PlayTuple, as the object
        it is (see ``plain_play``)."""
        kind: int = listed[0]
        cards: int = listed[3]
        # The play rules' name of the kind is asked before anything changes (they may be
        # a plugin's); the event itself is built when read.
        name = None if self.quiet else self.rules.kind_name(kind)
        self.hands[seat] &= ~cards
        if not self.played_any[seat]:
            self.played_any = _replaced(self.played_any, seat, True)
        self.trick = [*self.trick, (seat, listed)]
        self.trick_cards |= cards
        self.top = listed
        self.top_seat = seat
        self.passed = 0
        self.collecting = False
        if name is not None:
            self._events.append(Deferred(_PLAYED, (self.hand_index, seat, listed, name)))
        wish = self.wish
        if wish is not None and self.rules.fulfils(listed, wish):
            self.wish = None
            self._emit(WishFulfilled, seat=seat, rank=RANK_NAMES[wish])
        if not self.hands[seat]:
            self.active &= ~(1 << seat)
            self.out_order = [*self.out_order, seat]
            self._emit(SeatOut, seat=seat, place=len(self.out_order))
            if self.rulebook.hand_over(self.view):
                self._finish()
                return
        if kind == DOG_ID:
            self._dog(seat)
            return
        self.turn = self.next_active(seat)
        if cards & MAH_JONG_BITS:
            ranks = self.rulebook.wish_ranks(self.view, seat)
            if ranks:
                self.pending = Pending(WISH, seat, ranks)

    def do_wish(self, seat: int, rank: int | None) -> None:
        self.pending = None
        self.wish = rank
        self._emit(WishMade, seat=seat, rank=RANK_NAMES[rank] if rank else None)

    def _dog(self, seat: int) -> None:
        """S-DOG-1/2, T6-4: the lead passes at once; the Dog stays with its player."""
        self.piles = _replaced(self.piles, seat, self.piles[seat] | self.trick_cards)
        self._clear_trick()
        recipients = self.rulebook.dog_recipients(self.view, seat)
        if len(recipients) == 1:
            self._lead_to(seat, recipients[0])
        else:
            self.turn = None
            self.pending = Pending(GIVE_LEAD, seat, recipients)

    def do_give_lead(self, seat: int, to: int) -> None:
        self.pending = None
        self._lead_to(seat, to)

    def _lead_to(self, seat: int, to: int) -> None:
        self._emit(LeadPassed, seat=seat, to=to)
        self.turn = to

    def plain_pass(self, seat: int) -> bool:
        """Whether ``do_pass(seat)`` asks no rule: the trick stays open (a seat other than
        the top seat still answers), so the pass only moves the turn on, and the game
        takes no snapshot for it (see ``plain_play``). Keep this in step with
        ``do_pass``."""
        top_seat = self.top_seat
        return (
            not self.collecting
            and top_seat is not None
            and self.active & ~self.passed & ~(1 << seat) & ~(1 << top_seat) != 0
        )

    def do_pass(self, seat: int) -> None:
        # The commonest event of all: made once per hand and seat (a public event).
        if not self.quiet:
            self._events.append(Deferred(_PASSED, (self.hand_index, seat)))
        if self.collecting:
            self._collect()
            return
        self.passed |= 1 << seat
        top_seat = self.top_seat
        assert top_seat is not None
        waiting = self.active & ~self.passed & ~(1 << top_seat)
        if waiting:
            self.turn = self.next_active(seat)
            # The top seat's own turn comes only once everyone else passed.
            while self.turn == top_seat:
                self.turn = self.next_active(top_seat)
            return
        # S-TRICK-2: a top seat that is out cannot collect by passing.
        if self.hands[top_seat] and not self.rulebook.collect_at_once(self.view):
            self.turn = top_seat
            self.collecting = True
        else:
            self._collect()

    def _collect(self) -> None:
        """S-TRICK-2, S-DRAGON-1: the trick goes to its winner, or is given away."""
        winner = self.rulebook.trick_winner(self.view)
        top = self.top
        assert top is not None
        self.collecting = False
        if top[0] == SINGLE and top[2] == DRAGON_RANK and top[3] & DRAGON_BITS:
            recipients = self.rulebook.dragon_recipients(self.view, winner)
            if recipients:
                self.turn = None
                self.pending = Pending(GIVE_TRICK, winner, recipients)
                return
        self._trick_to(winner, winner)

    def do_give_trick(self, seat: int, to: int) -> None:
        self.pending = None
        self._emit(DragonGiven, seat=seat, to=to)
        self._trick_to(seat, to)

    def _trick_to(self, winner: int, to: int) -> None:
        cards = self.trick_cards
        self.piles = _replaced(self.piles, to, self.piles[to] | cards)
        if not self.quiet:
            self._events.append(
                Deferred(
                    _TRICK_WON,
                    (self.hand_index, winner, to, cards, self.rulebook.card_points),
                )
            )
        self._clear_trick()
        if self.phase == OVER:
            self._score()
            return
        self.turn = winner if self.hands[winner] else self.next_active(winner)

    def _clear_trick(self) -> None:
        self.trick = []
        self.trick_cards = 0
        self.top = None
        self.top_seat = None
        self.passed = 0
        self.collecting = False

    # --- end of hand ------------------------------------------------------------------

    def _finish(self) -> None:
        """S-END-1: the hand is over; the open trick still goes to its winner."""
        self._enter(OVER)
        self.turn = None
        if self.trick:
            self._collect()  # scores once the trick (and any Dragon gift) is settled
        else:
            self._score()

    def _score(self) -> None:
        if self.phase != OVER:
            self._enter(OVER)
        self.turn = None
        self.wish = None  # S-WISH-5: the wish ends with the hand
        self.score = self.rulebook.score_hand(self.view)

    # --- for observations and transcripts ------------------------------------------

    def trick_view(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat,
                "cards": codes_high_first(play[3]),
                "combination": self.rules.kind_name(play[0]),
                "rank": float(play[2]),
                "phoenix": RANK_NAMES[play[4]] if play[4] else None,
            }
            for seat, play in self.trick
        ]


# Builders of deferred events (see eventlog): their arguments are the hand's own ints,
# tuples and dicts, which never change once made.


def _event(
    event_type: type[Event],
    fields: dict[str, Any],
    masks: dict[int, int] | None,
    visibility: dict[int | None, frozenset[int]] | None,
) -> Event:
    """An event logged by ``HandState._emit``."""
    if masks is not None:
        fields["cards"] = {seat: play_codes(mask) for seat, mask in masks.items()}
    audience = None
    if visibility is not None:
        seats: list[int] = fields["visible_to"]
        # Membership tests, not isdisjoint: a method call per viewer costs more.
        audience = frozenset(
            viewer
            for viewer, visible in visibility.items()
            if any(seat in visible for seat in seats)
        )
    return make_event(event_type, fields, audience)


def _played(hand: int, seat: int, listed: PlayTuple, kind_name: str) -> Event:
    kind, _, rank, cards, phoenix = listed
    return played_event(
        hand,
        seat,
        codes_high_first(cards),
        kind_name,
        float(rank),
        RANK_NAMES[phoenix] if phoenix else None,
        kind >= FIRST_BOMB_KIND,
    )


def _trick_won(hand: int, seat: int, to: int, cards: int, card_points: bool) -> Event:
    return trick_won_event(
        hand, seat, to, mask_points(cards) if card_points else 0, codes_high_first(cards)
    )


# The event builders as module constants: compiled, a function named as a value is
# looked up in the module's dict at every use; a Final one is not.
_EVENT: Final = _event
_PLAYED: Final = _played
_TRICK_WON: Final = _trick_won
_PASSED: Final = passed_event
