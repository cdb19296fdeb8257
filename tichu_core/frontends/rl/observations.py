"""The RL environment's observation: ``game.observation(player)`` (and the plays, which
everyone saw) as one fixed-size float32 vector, seen from the seat the agent acts for
(docs/rl.md lists its blocks)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import tichu_core as tc
from tichu_core.frontends.rl.actions import (
    ANOTHER_HAND,
    CODE_COUNT,
    CODE_INDEX,
    CODES,
    HOUSE_KIND,
    KIND_OF_NAME,
    KIND_SLOTS,
    KINDS,
    PENDING_KINDS,
    PHASES,
    RANK_NAMES,
    ActionTable,
    Draft,
    FloatArray,
    PlayDraft,
    PushDraft,
    kind_slot,
    max_hand_cards,
)

# --------------------------------------------------------------------------- observations


@dataclass
class Block:
    """A named part of the observation vector."""

    name: str
    start: int
    size: int
    low: float
    high: float
    doc: str

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)


@dataclass
class SeatRecord:
    """What the environment remembers of one hand beyond the observation: the cards each
    seat played (everyone saw them), and the pushes each seat made (its controller
    chose them)."""

    played: npt.NDArray[np.int8]
    pushes: dict[int, Mapping[int, str]] = field(default_factory=dict)


class ObservationEncoder:
    """``game.observation(player)`` as one float32 vector of fixed size per variant.

    Seats are relative to the *viewpoint* seat (0 = itself, 1 = the next seat in play
    order, ...): the seat the agent acts for now, or where it sits when it is not
    acting. Cards are 56-entry count vectors in :data:`CODES` order (2 where both
    copies of a code are meant). :attr:`blocks` lists the parts (docs/rl.md).
    """

    def __init__(self, variant: tc.Variant) -> None:
        self.variant = variant
        self.seats = n = variant.seats
        self.max_cards = max_hand_cards(variant)
        self.deck_size = len(variant.deck_codes)
        copies = float(variant.deck_copies)
        self.points_scale = 100.0 * variant.deck_copies
        hands = variant.game.hands
        if variant.scoring.card_points:
            self.score_scale = 1000.0
        else:
            self.score_scale = float(max(1, (n - 1) * max(1, hands)))
        self.hands_scale = float(hands or 20)
        self.pending_kinds = PENDING_KINDS + ((ANOTHER_HAND,) if variant.game.lord_decides else ())
        specs = [
            ("phase", 4, 0, 1, "grand_tichu, exchange, play, over"),
            ("mode", 4, 0, 1, "acting, offered a bomb out of turn, play draft, push draft"),
            ("seat", n, 0, 1, "the viewpoint's own seat number (one-hot)"),
            ("for_other", 1, 0, 1, "the agent acts for a seat it does not sit at (dummy)"),
            ("dealer", n, 0, 1, "relative seat of the dealer"),
            ("turn", n, 0, 1, "relative seat whose turn it is (none: zeros)"),
            ("hand", CODE_COUNT, 0, copies, "the viewpoint's cards"),
            ("hands", (n - 1) * CODE_COUNT, 0, copies, "cards of relative seats 1..n-1 it sees"),
            ("visible", n - 1, 0, 1, "which of relative seats 1..n-1 it sees"),
            ("played", n * CODE_COUNT, 0, copies, "cards each relative seat played this hand"),
            ("trick", CODE_COUNT, 0, copies, "every card of the open trick"),
            ("top", CODE_COUNT, 0, copies, "the cards on top of the trick"),
            ("top_seat", n, 0, 1, "relative seat of the top play"),
            ("top_kind", KIND_SLOTS, 0, 1, "kind of the top play (last: a house rule's)"),
            ("top_size", 2, 0, 2, "length / 14 and rank / 15 of the top play"),
            ("tichu", n, 0, 1, "relative seats that called Tichu"),
            ("grand_tichu", n, 0, 1, "relative seats that called Grand Tichu"),
            ("decided", n, 0, 1, "relative seats that decided on Grand Tichu"),
            ("wish", len(RANK_NAMES), 0, 1, "the open wish (none: zeros)"),
            (
                "pending",
                len(self.pending_kinds),
                0,
                1,
                "the decision pending: wish, gift, lead (and another hand, GS-8)",
            ),
            ("pending_seat", n, 0, 1, "relative seat that owes it"),
            ("hand_sizes", n, 0, 1, "cards held / most cards a seat holds"),
            ("out", n, 0, 1, "place out (1/n first, 2/n second ...; 0: still in)"),
            ("won_points", n, -1, 2, "card points in the tricks won / (100 x decks)"),
            ("won_cards", n, 0, 1, "cards in the tricks won / deck size"),
            ("scores", n, -4, 4, "the score line of each relative seat / scale, clipped"),
            ("hands_played", 1, 0, 1, "hands played / hands of the match (or 20)"),
            ("pushed", (n - 1) * CODE_COUNT, 0, copies, "cards given to relative seats"),
            ("push_room", n - 1, 0, 1, "cards still to give to relative seats / 4"),
            ("received", (n - 1) * CODE_COUNT, 0, copies, "cards received from relative seats"),
            ("draft_kind", KIND_SLOTS, 0, 1, "kind of the play being chosen"),
            ("draft_ranks", 14, 0, 1, "its real ranks (MJ, 2..A): count / 4"),
            ("draft_phoenix", len(RANK_NAMES), 0, 1, "the rank its Phoenix stands for"),
            ("draft_cards", CODE_COUNT, 0, copies, "its cards chosen so far"),
        ]
        self.blocks: dict[str, Block] = {}
        start = 0
        for name, size, low, high, doc in specs:
            self.blocks[name] = Block(name, start, size, float(low), float(high), doc)
            start += size
        self.size = start
        self.low = np.zeros(self.size, np.float32)
        self.high = np.zeros(self.size, np.float32)
        for block in self.blocks.values():
            self.low[block.slice] = block.low
            self.high[block.slice] = block.high
        self._slices = {name: block.slice for name, block in self.blocks.items()}
        self._seats = np.arange(n)

    def space(self) -> spaces.Box:
        return spaces.Box(self.low, self.high, dtype=np.float32)

    def line_of(self, observation: tc.Observation, seat: int) -> int:
        """The score line of a seat: its player's (the dummy's last) where players score
        alone, else its team's."""
        if self.variant.scoring.per_player:
            player = observation.players[seat]
            return len(observation.scores) - 1 if player is None else player
        return observation.teams[seat]

    def encode(
        self,
        observation: tc.Observation,
        seat: int,
        record: SeatRecord,
        *,
        acting: bool = False,
        offer: bool = False,
        draft: Draft | None = None,
        table: ActionTable | None = None,
    ) -> FloatArray:
        """The vector of ``observation`` seen from ``seat`` (a seat the player sits at or
        acts for); ``record`` holds the hand's plays and pushes, ``draft`` the action
        being chosen (its table needed for a play draft)."""
        n = self.seats
        vec = np.zeros(self.size, np.float32)
        s = self._slices

        def rel(other: int) -> int:
            return (other - seat) % n

        def put_cards(name: str, codes: Iterable[str], row: int = 0) -> None:
            start = s[name].start + row * CODE_COUNT
            for code in codes:
                vec[start + CODE_INDEX[code]] += 1

        o = observation
        vec[s["phase"].start + PHASES.index(o.phase)] = 1
        mode = s["mode"].start
        vec[mode : mode + 4] = (
            acting,
            offer,
            isinstance(draft, PlayDraft),
            isinstance(draft, PushDraft),
        )
        vec[s["seat"].start + seat] = 1
        own = o.players.index(o.player) if o.player in o.players else None
        vec[s["for_other"].start] = own is not None and own != seat
        vec[s["dealer"].start + rel(o.dealer)] = 1
        if o.turn is not None:
            vec[s["turn"].start + rel(o.turn)] = 1
        put_cards("hand", o.hands.get(seat, ()))
        for other, cards in o.hands.items():
            if other != seat:
                put_cards("hands", cards, rel(other) - 1)
                vec[s["visible"].start + rel(other) - 1] = 1
        played = s["played"]
        vec[played] = record.played[(self._seats + seat) % n].reshape(-1)
        for play in o.trick:
            put_cards("trick", play["cards"])
        if o.trick:
            top = o.trick[-1]
            put_cards("top", top["cards"])
            vec[s["top_seat"].start + rel(top["seat"])] = 1
            kind = KIND_OF_NAME.get(top["combination"])
            vec[s["top_kind"].start + (KINDS.index(kind) if kind else len(KINDS))] = 1
            size = s["top_size"].start
            vec[size] = len(top["cards"]) / 14
            vec[size + 1] = float(top["rank"]) / 15
        for other, call in o.calls.items():
            names = call.split("+")
            vec[s["tichu"].start + rel(other)] = "tichu" in names
            vec[s["grand_tichu"].start + rel(other)] = "grand_tichu" in names
        for other, decided in enumerate(o.grand_tichu_decided):
            vec[s["decided"].start + rel(other)] = decided
        if o.wish is not None:
            vec[s["wish"].start + RANK_NAMES.index(o.wish)] = 1
        if o.pending is not None:
            vec[s["pending"].start + self.pending_kinds.index(o.pending["kind"])] = 1
            vec[s["pending_seat"].start + rel(o.pending["seat"])] = 1
        for other in range(n):
            r = rel(other)
            vec[s["hand_sizes"].start + r] = min(1.0, o.hand_sizes[other] / self.max_cards)
            vec[s["won_points"].start + r] = o.won_points[other] / self.points_scale
            vec[s["won_cards"].start + r] = o.won_cards[other] / self.deck_size
            score = o.scores[self.line_of(o, other)] / self.score_scale
            vec[s["scores"].start + r] = min(4.0, max(-4.0, score))
        for place, other in enumerate(o.out_order, start=1):
            vec[s["out"].start + rel(other)] = place / n
        vec[s["hands_played"].start] = min(1.0, o.hands_played / self.hands_scale)
        self._exchange(vec, o, seat, own, record, draft, rel, put_cards)
        if isinstance(draft, PlayDraft) and table is not None:
            shape_kind, phoenix, ranks = table.shapes[draft.shape - table.shape]
            vec[s["draft_kind"].start + kind_slot(shape_kind)] = 1
            for rank in ranks if shape_kind != HOUSE_KIND else ():
                vec[s["draft_ranks"].start + rank - 1] += 0.25
            if phoenix:
                vec[s["draft_phoenix"].start + phoenix - 2] = 1
            put_cards("draft_cards", (CODES[c] for c in draft.chosen))
        return vec

    def _exchange(
        self,
        vec: FloatArray,
        o: tc.Observation,
        seat: int,
        own: int | None,
        record: SeatRecord,
        draft: Draft | None,
        rel: Any,
        put_cards: Any,
    ) -> None:
        """The exchange as the viewpoint seat knows it: what it gave (the observation's
        ``pushed`` at its own seat, the push its controller made for a dummy) and got."""
        s = self._slices
        given: Mapping[int, str] = o.pushed if seat == own else record.pushes.get(seat, {})
        for target, codes in given.items():
            put_cards("pushed", codes.split(), rel(target) - 1)
        if seat == own:
            for giver, codes in o.received.items():
                put_cards("received", codes.split(), rel(giver) - 1)
        room = s["push_room"].start
        if isinstance(draft, PushDraft):
            for slot, chosen in enumerate(draft.given):
                put_cards("pushed", (CODES[c] for c in chosen), slot)
            vec[room : room + self.seats - 1] = np.array(draft.room, np.float32) / 4
        elif o.phase == "exchange" and seat in o.waiting_for:
            for target, count in o.push_targets.get(seat, {}).items():
                vec[room + rel(target) - 1] = count / 4
