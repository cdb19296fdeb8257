"""One hand: deal, Grand Tichu, exchange, tricks, end — the state machine of a hand.

:class:`HandState` holds the data hooks read; its ``do_*`` methods change it
and return events. They are called only after the action was validated by
:class:`tichu_core.game.Game`, which also snapshots the state first, so a
failing hook never leaves half a step behind. Nothing here assumes four
seats, two teams or one deck: seats, teams, targets and recipients all come
from hooks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tichu_core.cardplay.cards import (
    DRAGON_BITS,
    DRAGON_RANK,
    MAH_JONG_BITS,
    RANK_NAMES,
    codes_of,
    mask_of,
    mask_points,
)
from tichu_core.cardplay.combinations import DOG, SINGLE, Combination, Kind
from tichu_core.errors import PluginError
from tichu_core.game.events import (
    CardsDealt,
    CardsReceived,
    DragonGiven,
    Event,
    ExchangeDone,
    GrandTichuDecided,
    LeadPassed,
    Passed,
    Played,
    Pushed,
    SeatOut,
    TichuCalled,
    TrickWon,
    WishFulfilled,
    WishMade,
    make_event,
)

if TYPE_CHECKING:
    from tichu_core.rules.playrules import PlayRules
    from tichu_core.rules.rulebook import Hooks
    from tichu_core.variants.models import Variant

GRAND_TICHU = "grand_tichu"
EXCHANGE = "exchange"
PLAY = "play"
OVER = "over"

WISH = "wish"
GIVE_TRICK = "give_trick"
GIVE_LEAD = "give_lead"


@dataclass
class Seating:
    """Who sits where for a hand, and who deals (S-DEAL-3, T3-8, GS-5)."""

    players: list[int | None]  # player at each seat; None for a dummy seat
    dealer: int


@dataclass
class HandScore:
    """What a hand adds to each score line (``scores``), and how it came about."""

    scores: list[int]
    card_points: list[int] = field(default_factory=list)
    double_victory: bool = False
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Pending:
    """A decision a play left for one seat before anything else happens (E-1)."""

    kind: str  # WISH, GIVE_TRICK, GIVE_LEAD
    seat: int
    options: list[int]


class HandState:
    """The state of one hand. Hooks read it; only the engine changes it."""

    __slots__ = (
        "_events",
        "collecting",
        "controllers",
        "dealer",
        "dealt",
        "grand_tichu",
        "grand_tichu_cards",
        "hand_index",
        "hands",
        "hooks",
        "may_call",
        "out_order",
        "passed",
        "pending",
        "phase",
        "piles",
        "played_any",
        "players",
        "push_targets",
        "pushes",
        "received",
        "rules",
        "score",
        "seats",
        "teams",
        "tichu",
        "top",
        "top_seat",
        "trick",
        "trick_cards",
        "turn",
        "variant",
        "wish",
    )

    def __init__(
        self,
        variant: Variant,
        hooks: Hooks,
        rules: PlayRules,
        hand_index: int,
        seating: Seating,
        dealt: list[list[int]],
    ) -> None:
        self.variant = variant
        self.hooks = hooks
        self.rules = rules
        self.hand_index = hand_index
        self.seats = len(seating.players)
        self.players = list(seating.players)
        self.dealer = seating.dealer
        self.dealt = [list(cards) for cards in dealt]  # per seat, in dealing order
        n = self.seats
        self.hands = [0] * n
        self.phase = GRAND_TICHU
        self.grand_tichu: list[bool | None] = [None] * n
        self.tichu = [False] * n
        self.played_any = [False] * n
        self.pushes: list[dict[int, int] | None] = [None] * n
        self.received: list[dict[int, int]] = [{} for _ in range(n)]
        self.piles = [0] * n
        self.out_order: list[int] = []
        self.trick: list[tuple[int, Combination]] = []
        self.trick_cards = 0
        self.top: Combination | None = None
        self.top_seat: int | None = None
        self.passed = 0  # bitmask of seats that passed since the top play
        self.turn: int | None = None
        self.collecting = False  # the turn is back at the top seat (S-TRICK-2)
        self.pending: Pending | None = None
        self.wish: int | None = None
        self.score: HandScore | None = None
        self._events: list[Event] = []
        # Filled from hooks by start():
        self.teams: list[int] = []
        self.controllers: list[int] = []
        self.push_targets: list[list[int]] = []
        self.may_call: dict[str, list[bool]] = {}
        self.grand_tichu_cards = 0

    # --- reading -------------------------------------------------------------------

    def clone(self) -> HandState:
        """A copy deep enough that changing the copy never changes this state.

        Lists the engine changes in place are copied; everything else is only ever
        replaced, so sharing it is safe (and keeps the snapshot taken before every
        action cheap).
        """
        other = HandState.__new__(HandState)
        other.variant = self.variant
        other.hooks = self.hooks
        other.rules = self.rules
        other.hand_index = self.hand_index
        other.seats = self.seats
        other.players = self.players
        other.dealer = self.dealer
        other.dealt = self.dealt
        other.phase = self.phase
        other.trick_cards = self.trick_cards
        other.top = self.top
        other.top_seat = self.top_seat
        other.passed = self.passed
        other.turn = self.turn
        other.collecting = self.collecting
        other.pending = self.pending
        other.wish = self.wish
        other.score = self.score
        other.teams = self.teams
        other.controllers = self.controllers
        other.push_targets = self.push_targets
        other.may_call = self.may_call
        other.grand_tichu_cards = self.grand_tichu_cards
        other.hands = self.hands[:]
        other.grand_tichu = self.grand_tichu[:]
        other.tichu = self.tichu[:]
        other.played_any = self.played_any[:]
        other.pushes = self.pushes[:]
        other.received = [dict(r) for r in self.received]
        other.piles = self.piles[:]
        other.out_order = self.out_order[:]
        other.trick = self.trick[:]
        other._events = self._events[:]
        return other

    def active_mask(self) -> int:
        mask = 0
        for seat, hand in enumerate(self.hands):
            if hand:
                mask |= 1 << seat
        return mask

    def next_active(self, seat: int) -> int | None:
        """The next seat after ``seat`` (in play order) that still holds cards."""
        n = self.seats
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.hands[candidate]:
                return candidate
        return None

    def partners(self, seat: int) -> list[int]:
        team = self.teams[seat]
        return [s for s in range(self.seats) if s != seat and self.teams[s] == team]

    def opponents(self, seat: int) -> list[int]:
        team = self.teams[seat]
        return [s for s in range(self.seats) if self.teams[s] != team]

    def may_still_call_tichu(self, seat: int) -> bool:
        """S-CALL-1: a seat holding all its cards that has not played, nor called."""
        if self.phase not in (EXCHANGE, PLAY) or self.played_any[seat] or self.tichu[seat]:
            return False
        if not self.may_call["tichu"][seat]:
            return False
        calls = self.variant.calls
        if self.grand_tichu[seat] and not calls.tichu_and_grand_tichu:
            return False
        if calls.max_per_team:
            team = self.teams[seat]
            made = sum(
                1
                for s in range(self.seats)
                if self.teams[s] == team and (self.tichu[s] or self.grand_tichu[s])
            )
            if made >= calls.max_per_team:
                return False
        return True

    def may_still_call_grand_tichu(self, seat: int) -> bool:
        if self.phase != GRAND_TICHU or self.grand_tichu[seat] is not None:
            return False
        if not self.may_call[GRAND_TICHU][seat]:
            return False
        calls = self.variant.calls
        if calls.max_per_team:
            team = self.teams[seat]
            made = sum(
                1 for s in range(self.seats) if self.teams[s] == team and self.grand_tichu[s]
            )
            if made >= calls.max_per_team:
                return False
        return True

    def calls(self) -> dict[int, str]:
        """The calls made: seat -> "tichu", "grand_tichu", or "grand_tichu+tichu" where
        calls.tichu_and_grand_tichu lets one seat make both (S-CALL-1)."""
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

    def bombing_allowed(self, seat: int) -> bool:
        """S-BOMB-3/4/5: out of turn, while a trick has a combination on the table."""
        if self.phase != PLAY or self.pending is not None or not self.hands[seat]:
            return False
        top = self.top
        if top is None or top.kind == DOG:
            return False
        return not (seat == self.top_seat and not self.variant.bombs.own_trick)

    # --- events ------------------------------------------------------------------------

    def _emit(self, event_type: type[Event], **fields: Any) -> None:
        fields["hand"] = self.hand_index
        self._events.append(make_event(event_type, fields))

    def take_events(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    # --- starting ---------------------------------------------------------------------

    def start(self) -> None:
        """Ask the layout hooks, then deal the first cards (S-DEAL-1/2)."""
        hooks, variant = self.hooks, self.variant
        self.teams = list(hooks.first("tichu_layout", variant=variant, state=self))
        self.controllers = list(hooks.first("tichu_controllers", variant=variant, state=self))
        self.may_call = {
            call: [
                bool(hooks.first("tichu_may_call", variant=variant, state=self, seat=s, call=call))
                for s in range(self.seats)
            ]
            for call in (GRAND_TICHU, "tichu")
        }
        self.push_targets = [
            list(hooks.first("tichu_push_targets", variant=variant, state=self, seat=s))
            for s in range(self.seats)
        ]
        first = int(hooks.first("tichu_grand_tichu_cards", variant=variant, state=self))
        self.grand_tichu_cards = first
        if first and any(self.may_call[GRAND_TICHU]):
            for seat in range(self.seats):
                self._give(seat, self.dealt[seat][:first])
                if not self.may_call[GRAND_TICHU][seat]:
                    self.grand_tichu[seat] = False
            self.phase = GRAND_TICHU
        else:
            self.grand_tichu = [False] * self.seats
            self._deal_rest(0)

    def _give(self, seat: int, cards: list[int]) -> None:
        self.hands[seat] |= mask_of(cards)
        self._emit(
            CardsDealt, seat=seat, cards=[codes_of(1 << c)[0] for c in cards], visible_to=[seat]
        )

    def _deal_rest(self, already: int) -> None:
        for seat in range(self.seats):
            rest = self.dealt[seat][already:]
            if rest:
                self._give(seat, rest)
        if any(self.push_targets):
            self.phase = EXCHANGE
        else:
            self._begin_play()

    # --- Grand Tichu, Tichu, exchange -------------------------------------------------

    def do_grand_tichu(self, seat: int, call: bool) -> None:
        self.grand_tichu[seat] = call
        self._emit(GrandTichuDecided, seat=seat, call=call)
        if all(decided is not None for decided in self.grand_tichu):
            self._deal_rest(self.grand_tichu_cards)

    def do_tichu(self, seat: int) -> None:
        self.tichu[seat] = True
        self._emit(TichuCalled, seat=seat)

    def do_push(self, seat: int, cards: dict[int, int]) -> None:
        self.pushes[seat] = cards
        self._emit(Pushed, seat=seat, cards=None)
        self._emit(
            Pushed,
            seat=seat,
            cards={t: codes_of(1 << c)[0] for t, c in cards.items()},
            visible_to=[seat],
        )
        if all(self.pushes[s] is not None or not self.push_targets[s] for s in range(self.seats)):
            self._exchange()

    def _exchange(self) -> None:
        """S-EX-1: all pushes move at once."""
        for giver, pushes in enumerate(self.pushes):
            for target, card in (pushes or {}).items():
                self.hands[giver] &= ~(1 << card)
                self.received[target][giver] = card
        for target, got in enumerate(self.received):
            for card in got.values():
                self.hands[target] |= 1 << card
            if got:
                self._emit(
                    CardsReceived,
                    seat=target,
                    cards={g: codes_of(1 << c)[0] for g, c in got.items()},
                    visible_to=[target],
                )
        self._begin_play()

    def _begin_play(self) -> None:
        self.phase = PLAY
        leader = int(self.hooks.first("tichu_first_leader", variant=self.variant, state=self))
        self.turn = leader
        self._emit(ExchangeDone, leader=leader)

    # --- play -----------------------------------------------------------------------

    def do_play(self, seat: int, play: Combination) -> None:
        """A validated play (on turn, or a bomb out of turn)."""
        cards = play.cards
        self.hands[seat] &= ~cards
        self.played_any[seat] = True
        self.trick.append((seat, play))
        self.trick_cards |= cards
        self.top = play
        self.top_seat = seat
        self.passed = 0
        self.collecting = False
        self._emit(
            Played,
            seat=seat,
            cards=codes_of(cards)[::-1],
            combination=Kind(play.kind).name.lower(),
            rank=float(play.rank),
            phoenix=RANK_NAMES[play.phoenix] if play.phoenix else None,
            bomb=play.is_bomb,
        )
        wish = self.wish
        if wish is not None and self.rules.fulfils(play, wish):
            self.wish = None
            self._emit(WishFulfilled, seat=seat, rank=RANK_NAMES[wish])
        if not self.hands[seat]:
            self.out_order.append(seat)
            self._emit(SeatOut, seat=seat, place=len(self.out_order))
            if self._hand_over():
                self._finish()
                return
        if play.kind == DOG:
            self._dog(seat)
            return
        self.turn = self.next_active(seat)
        if cards & MAH_JONG_BITS and self.variant.wish.enabled:
            self.pending = Pending(WISH, seat, list(RANK_NAMES))

    def do_wish(self, seat: int, rank: int | None) -> None:
        self.pending = None
        self.wish = rank
        self._emit(WishMade, seat=seat, rank=RANK_NAMES[rank] if rank else None)

    def _dog(self, seat: int) -> None:
        """S-DOG-1/2, T6-4: the lead passes at once; the Dog stays with its player."""
        self.piles[seat] |= self.trick_cards
        self._clear_trick()
        recipients = self.hooks.seats(
            "tichu_dog_recipients", self.seats, variant=self.variant, state=self, seat=seat
        )
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

    def do_pass(self, seat: int) -> None:
        if self.collecting:
            self._emit(Passed, seat=seat)
            self._collect()
            return
        self.passed |= 1 << seat
        self._emit(Passed, seat=seat)
        top_seat = self.top_seat
        assert top_seat is not None
        waiting = self.active_mask() & ~self.passed & ~(1 << top_seat)
        if waiting:
            self.turn = self.next_active(seat)
            # The top seat's own turn comes only once everyone else passed.
            while self.turn == top_seat:
                self.turn = self.next_active(top_seat)
            return
        if self.hands[top_seat] and self.variant.tricks.winner_collects:
            self.turn = top_seat
            self.collecting = True
        else:
            self._collect()

    def _collect(self) -> None:
        """S-TRICK-2, S-DRAGON-1: the trick goes to its winner, or is given away."""
        winner = int(self.hooks.first("tichu_trick_winner", variant=self.variant, state=self))
        top = self.top
        assert top is not None
        self.collecting = False
        if top.kind == SINGLE and top.rank == DRAGON_RANK and top.cards & DRAGON_BITS:
            recipients = list(
                self.hooks.first(
                    "tichu_dragon_recipients", variant=self.variant, state=self, seat=winner
                )
            )
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
        self.piles[to] |= cards
        self._emit(
            TrickWon, seat=winner, to=to, points=mask_points(cards), cards=codes_of(cards)[::-1]
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

    def _hand_over(self) -> bool:
        return bool(self.hooks.first("tichu_hand_over", variant=self.variant, state=self))

    def _finish(self) -> None:
        """S-END-1: the hand is over; the open trick still goes to its winner."""
        self.phase = OVER
        self.turn = None
        if self.trick:
            self._collect()  # scores once the trick (and any Dragon gift) is settled
        else:
            self._score()

    def _score(self) -> None:
        self.phase = OVER
        self.turn = None
        self.wish = None  # S-WISH-5: the wish ends with the hand
        score = self.hooks.first("tichu_score_hand", variant=self.variant, state=self)
        if not isinstance(score, HandScore):
            raise PluginError(
                f"hook tichu_score_hand answered {score!r}: expected a HandScore",
                hook="tichu_score_hand",
            )
        self.score = score

    # --- for observations and transcripts ------------------------------------------

    def trick_view(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat,
                "cards": codes_of(play.cards)[::-1],
                "combination": Kind(play.kind).name.lower(),
                "rank": float(play.rank),
                "phoenix": RANK_NAMES[play.phoenix] if play.phoenix else None,
            }
            for seat, play in self.trick
        ]
