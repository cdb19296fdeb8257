"""A PettingZoo AEC environment for every variant, for reinforcement learning (docs/rl.md).

Needs the optional ``rl`` extra (``pip install tichu[rl]``: pettingzoo, gymnasium,
numpy). It drives :class:`tichu_core.Game` through the public API only.

- Agents are the players (``player_0`` ...); the agent to act is the controller of the
  seat the game waits for (``game.controller(seat)``: the Threechu shuffler acts for
  the dummy).
- :class:`ActionTable` is the variant's fixed action space: every distinct action a
  seat could ever take has an index. Plays of the kinds whose whole-deck enumeration is
  small (singles, pairs, triples, the Dog, bombs) are one index each, by card codes and
  Phoenix reading; full houses, straights and steps are a *shape* (the ranks, the
  kind and the Phoenix reading) followed by one card step per place where the seat's
  legal plays of that shape still differ; a push is one step per card and target.
- :class:`ObservationEncoder` turns ``game.observation(player)`` (and the plays, which
  everyone saw) into one fixed-size float32 vector, seen from the seat the agent acts
  for.
- :class:`TichuEnv` is the environment; :func:`env` wraps it as PettingZoo's own
  environments are wrapped.
"""

from __future__ import annotations

import argparse
import functools
import math
import operator
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

import tichu_core as tc

FloatArray: TypeAlias = npt.NDArray[np.float32]

# --------------------------------------------------------------------------- card codes

RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_OF_NAME = {name: rank for rank, name in enumerate(RANK_NAMES, start=2)}
SPECIAL_CODES = ("DOG", "MJ", "PH", "DR")
# Every card code once (two decks share codes): the specials, then rank by rank the
# suits jade, sword, pagoda, star. A card's place in this tuple is its code index.
CODES: tuple[str, ...] = SPECIAL_CODES + tuple(r + s for r in RANK_NAMES for s in "jspt")
CODE_INDEX = {code: index for index, code in enumerate(CODES)}
CODE_COUNT = len(CODES)  # 56
PHOENIX = CODE_INDEX["PH"]
# The rank a code counts as in a combination: Mah Jong 1, 2..14, Dragon 15 (Dog,
# Phoenix 0: never part of a shape's real ranks).
CODE_RANK = (0, 1, 0, 15, *(rank for rank in range(2, 15) for _ in range(4)))
KINDS = tuple(tc.Kind)  # SINGLE .. STRAIGHT_FLUSH, in their order
KIND_OF_NAME = {kind.name.lower(): kind for kind in KINDS}
STANDARD_KINDS = frozenset(int(kind) for kind in KINDS)
# A kind a house rule adds (plugins): shaped by its number of cards alone.
HOUSE_KIND = 0
KIND_SLOTS = len(KINDS) + 1  # the standard kinds, then any house kind
# Kinds whose plays are a shape and card steps (their whole-deck enumeration is large:
# 4**L straights of length L alone).
SHAPED_KINDS = frozenset({tc.Kind.FULL_HOUSE, tc.Kind.STRAIGHT, tc.Kind.STEPS})
PHASES = ("grand_tichu", "exchange", "play", "over")
PENDING_KINDS = ("wish", "give_trick", "give_lead")
# GS-8 (game.lord_decides): the Great Lord's decision between hands; its pending kind and
# its two actions are part of the spaces of those variants only (the others keep theirs).
ANOTHER_HAND = "another_hand"


def _bit_codes() -> tuple[int, ...]:
    """The code index of every card bit (the ``Card`` ints of one or two decks)."""
    codes: list[int] = []
    while True:
        try:
            code = tc.Card(len(codes)).code
        except IndexError:
            return tuple(codes)
        codes.append(CODE_INDEX[code])


BIT_CODES = _bit_codes()
# code index -> its card bits, first deck first.
CODE_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(bit for bit, code in enumerate(BIT_CODES) if code == index) for index in range(CODE_COUNT)
)


@functools.lru_cache(maxsize=1 << 16)
def codes_of_mask(mask: int) -> tuple[int, ...]:
    """The code indexes of a card mask, ascending (a code twice where both copies are in)."""
    found = []
    while mask:
        low = mask & -mask
        found.append(BIT_CODES[low.bit_length() - 1])
        mask ^= low
    return tuple(sorted(found))


def mask_of_codes(counts: Mapping[int, int]) -> int:
    """A card mask holding ``counts[code]`` copies of each code (first copies first)."""
    mask = 0
    for code, count in counts.items():
        for bit in CODE_BITS[code][:count]:
            mask |= 1 << bit
    return mask


def code_counts(codes: Iterable[str]) -> Counter[int]:
    return Counter(CODE_INDEX[code] for code in codes)


def move_rules(variant: tc.Variant) -> tc.MoveRules:
    """The options move generation reads, as the standard rules set them."""
    return tc.MoveRules(
        four_distinct_suits=variant.bombs.four_distinct_suits,
        second_dragon_beats_first=variant.dragon.second_beats_first,
        bomb_must_fulfil=variant.wish.bomb_must_fulfil,
        phoenix_fulfils=variant.wish.phoenix_fulfils,
        bomb_instead=variant.wish.bomb_instead,
    )


def max_hand_cards(variant: tc.Variant) -> int:
    """The most cards one seat holds: the deal's hand size, or the whole deck dealt out
    (the exchange gives each seat as many cards as it takes)."""
    if variant.deal.hand_size:
        return variant.deal.hand_size
    return math.ceil(len(variant.deck_codes) / variant.seats)


# --------------------------------------------------------------------------- the action table

ShapeKey: TypeAlias = tuple[int, int, tuple[int, ...]]  # (kind, Phoenix rank or 0, real ranks)
FlatKey: TypeAlias = tuple[str, str | None]  # a Play's (cards, phoenix)


def play_shape(combination: tc.Combination) -> ShapeKey:
    """The shape of a full house, straight or steps: its kind, the rank the Phoenix
    stands for (0: none) and the ranks of its real cards; of a house rule's kind:
    ``(HOUSE_KIND, 0, (number of cards,))``."""
    codes = codes_of_mask(combination.cards)
    if combination.kind not in STANDARD_KINDS:
        return (HOUSE_KIND, 0, (len(codes),))
    real = [CODE_RANK[c] for c in codes if c != PHOENIX]
    return (int(combination.kind), int(combination.phoenix), tuple(sorted(real)))


def kind_slot(kind: int) -> int:
    """The place of a kind in the observation's kind one-hots (house kinds: the last)."""
    return KINDS.index(tc.Kind(kind)) if kind in STANDARD_KINDS else len(KINDS)


def _describe_shape(shape: ShapeKey) -> str:
    kind, phoenix, ranks = shape
    if kind == HOUSE_KIND:
        return f"a house rule's kind, {ranks[0]} cards"
    names = " ".join("MJ" if r == 1 else RANK_NAMES[r - 2] for r in ranks)
    text = f"{tc.Kind(kind).name.lower()} {names}"
    return text + (f" PH={RANK_NAMES[phoenix - 2]}" if phoenix else "")


@dataclass(frozen=True, slots=True)
class PlayDraft:
    """A play being chosen: its shape (the action index), and the code indexes of the
    cards fixed so far, ascending (the cards all the seat's candidates share included)."""

    shape: int
    chosen: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PushDraft:
    """A push being chosen card by card, per target offset 1..n-1 (index offset - 1):
    ``room`` the cards still to give, ``given`` the codes chosen; ``pool`` the copies of
    each code the seat may still give."""

    seat: int
    room: tuple[int, ...]
    pool: tuple[int, ...]
    given: tuple[tuple[int, ...], ...]


Draft: TypeAlias = PlayDraft | PushDraft
# What choosing an index does: an action for the game, a draft to go on with, or (None)
# the environment's "no bomb now".
Outcome: TypeAlias = tc.Action | PlayDraft | PushDraft | None
# Per shape index: the seat's legal plays of that shape, as (real code indexes, position
# in the LegalActions).
Groups: TypeAlias = tuple[dict[int, int], dict[int, list[tuple[tuple[int, ...], int]]]]


class ActionTable:
    """The fixed action space of a variant: an index for every distinct action.

    Layout (``n`` seats; targets are offsets from the acting seat, 1 = the next seat):

    ========================  =====================================================
    ``PASS`` 0                pass, or collect the trick
    ``TICHU`` 1               call Tichu
    ``GRAND_TICHU`` 2 / 3     call / decline Grand Tichu
    ``NO_BOMB`` 4             the environment's: no bomb now (offered out of turn)
    ``WISH`` 5..18            no wish, then wish 2 .. A
    give_trick                ``n - 1``: give the Dragon trick to offset 1..n-1
    give_lead                 ``n - 1``: give the lead after the Dog (Tientsin)
    push                      ``(n - 1) * 56``: give code c to offset k (one card)
    flat plays                every single, pair, triple, Dog and bomb of the deck,
                              by codes and Phoenix reading
    shapes                    every full house, straight and steps shape; for the
                              kinds a house rule adds, one per number of cards
    cards                     56: the next card (code) of a shaped play (for a house
                              rule's play, the last step may pick a reading)
    another_hand              2 where ``game.lord_decides`` (GS-8): another hand,
                              end the match (none otherwise)
    ========================  =====================================================
    """

    PASS = 0
    TICHU = 1
    GRAND_TICHU = 2
    NO_GRAND_TICHU = 3
    NO_BOMB = 4
    NO_WISH = 5
    WISH = 6  # + rank - 2

    def __init__(self, variant: tc.Variant) -> None:
        self.variant = variant
        self.seats = n = variant.seats
        self.give_trick = self.WISH + len(RANK_NAMES)
        self.give_lead = self.give_trick + n - 1
        self.push = self.give_lead + n - 1
        self.flat = self.push + (n - 1) * CODE_COUNT
        deck = code_counts(variant.deck_codes)
        rules = move_rules(variant)
        flat = _flat_plays(deck, rules)
        self.shape = self.flat + len(flat)
        shapes = _shapes(deck, rules, max_hand_cards(variant))
        self.card = self.shape + len(shapes)
        self.another_hand = self.card + CODE_COUNT
        self.size = self.another_hand + (2 if variant.game.lord_decides else 0)
        self.flat_plays: tuple[FlatKey, ...] = tuple(flat)
        self.flat_index = {key: self.flat + i for i, key in enumerate(flat)}
        self.shapes: tuple[ShapeKey, ...] = tuple(shapes)
        self.shape_index = {key: self.shape + i for i, key in enumerate(shapes)}
        self._groups_of: tuple[tc.LegalActions, Groups] | None = None

    @classmethod
    @functools.lru_cache(maxsize=32)
    def of(cls, variant: tc.Variant) -> ActionTable:
        """The (cached) table of a variant."""
        return cls(variant)

    def sections(self) -> dict[str, range]:
        """The index range of each part of the space."""
        return {
            "fixed": range(0, self.give_trick),
            "give_trick": range(self.give_trick, self.give_lead),
            "give_lead": range(self.give_lead, self.push),
            "push": range(self.push, self.flat),
            "flat_plays": range(self.flat, self.shape),
            "shapes": range(self.shape, self.card),
            "cards": range(self.card, self.another_hand),
            "another_hand": range(self.another_hand, self.size),
        }

    def describe(self, index: int) -> str:
        """What an index means, in words."""
        n = self.seats
        fixed = {
            self.PASS: "pass",
            self.TICHU: "tichu",
            self.GRAND_TICHU: "grand tichu",
            self.NO_GRAND_TICHU: "no grand tichu",
            self.NO_BOMB: "no bomb now",
            self.NO_WISH: "no wish",
        }
        if index in fixed:
            return fixed[index]
        if self.WISH <= index < self.give_trick:
            return f"wish {RANK_NAMES[index - self.WISH]}"
        if self.give_trick <= index < self.give_lead:
            return f"give the Dragon trick to offset {index - self.give_trick + 1}"
        if self.give_lead <= index < self.push:
            return f"give the lead to offset {index - self.give_lead + 1}"
        if self.push <= index < self.flat:
            offset, code = divmod(index - self.push, CODE_COUNT)
            return f"push {CODES[code]} to offset {offset + 1}"
        if self.flat <= index < self.shape:
            cards, phoenix = self.flat_plays[index - self.flat]
            return f"play {cards}" + (f" PH={phoenix}" if phoenix else "")
        if self.shape <= index < self.card:
            return "play " + _describe_shape(self.shapes[index - self.shape])
        if self.another_hand <= index < self.size:
            return "another hand" if index == self.another_hand else "end the match"
        if self.card <= index < self.another_hand:
            code = index - self.card
            return f"card {CODES[code]} (or reading {code} of a house rule's play)"
        raise IndexError(f"action index {index} is outside 0..{self.size - 1} ({n} seats)")

    # --- the fixed actions ---------------------------------------------------------------

    def fixed_index(self, action: tc.Action) -> int:
        """The index of a call, pass or decision of ``action.seat``."""
        seat, n = action.seat, self.seats
        if isinstance(action, tc.Pass):
            return self.PASS
        if isinstance(action, tc.Tichu):
            return self.TICHU
        if isinstance(action, tc.GrandTichu):
            return self.GRAND_TICHU if action.call else self.NO_GRAND_TICHU
        if isinstance(action, tc.Wish):
            return (
                self.NO_WISH if action.rank is None else self.WISH + RANK_NAMES.index(action.rank)
            )
        if isinstance(action, tc.GiveTrick):
            return self.give_trick + (action.to - seat) % n - 1
        if isinstance(action, tc.GiveLead):
            return self.give_lead + (action.to - seat) % n - 1
        if isinstance(action, tc.AnotherHand) and self.size > self.another_hand:
            return self.another_hand + (0 if action.more else 1)
        raise ValueError(f"{action} is not a call, pass or decision")

    # --- what a seat may choose ----------------------------------------------------------

    def groups(self, legal: tc.LegalActions) -> Groups:
        """The seat's plays: flat index -> position in ``legal``, and shape index -> the
        distinct plays of that shape (real code indexes, position). Remembered for the
        last ``legal`` asked (a draft asks again and again while the game waits)."""
        if self._groups_of is not None and self._groups_of[0] is legal:
            return self._groups_of[1]
        flat: dict[int, int] = {}
        shaped: dict[int, list[tuple[tuple[int, ...], int]]] = {}
        start = len(legal.fixed)
        house: dict[int, dict[tuple[int, ...], dict[int, int]]] = {}
        for position, combination in enumerate(legal.combinations, start):
            if combination.kind not in STANDARD_KINDS:
                shape = self.shape_index.get(play_shape(combination))
                if shape is None:
                    raise ValueError(f"{combination.describe()}: more cards than a hand holds")
                readings = house.setdefault(shape, {}).setdefault(
                    codes_of_mask(combination.cards), {}
                )
                readings.setdefault(combination.phoenix, position)
            elif combination.kind in SHAPED_KINDS:
                shape = self.shape_index.get(play_shape(combination))
                if shape is None:
                    raise ValueError(f"{combination.describe()} has no shape in the action table")
                real = tuple(c for c in codes_of_mask(combination.cards) if c != PHOENIX)
                plays = shaped.setdefault(shape, [])
                if all(seq != real for seq, _ in plays):  # two copies: one play by codes
                    plays.append((real, position))
            else:
                play = legal[position]
                assert isinstance(play, tc.Play)
                index = self.flat_index.get((play.cards, play.phoenix))
                if index is None:
                    raise ValueError(f"{play} has no index in the action table")
                flat[index] = position
        for shape, by_cards in house.items():
            # Every card (the Phoenix too), then which reading (by Phoenix rank): a
            # last step only where the same cards are read more ways than one.
            shaped[shape] = [
                ((*codes, reading), readings[phoenix])
                for codes, readings in by_cards.items()
                for reading, phoenix in enumerate(sorted(readings))
            ]
        groups = (flat, shaped)
        self._groups_of = (legal, groups)
        return groups

    def options(
        self,
        legal: tc.LegalActions,
        draft: Draft | None = None,
        *,
        offer: bool = False,
        push: PushDraft | None = None,
    ) -> dict[int, Outcome]:
        """Every index the seat of ``legal`` may choose now, with what it does.

        ``draft`` is the play or push being chosen; ``offer``: the seat is offered a
        bomb out of turn (``NO_BOMB`` declines it); ``push``: the empty draft of the
        seat's push in the exchange (see :meth:`push_draft`).
        """
        if isinstance(draft, PushDraft):
            return self._push_options(draft)
        flat, shaped = self.groups(legal)
        if isinstance(draft, PlayDraft):
            return self._card_options(legal, draft, shaped[draft.shape])
        found: dict[int, Outcome] = {self.fixed_index(a): a for a in legal.fixed}
        for index, position in flat.items():
            found[index] = legal[position]
        for shape, plays in shaped.items():
            found[shape] = self._narrow(legal, shape, (), plays)
        if offer:
            found[self.NO_BOMB] = None
        if push is not None:
            found.update(self._push_options(push))
        return found

    def _card_options(
        self,
        legal: tc.LegalActions,
        draft: PlayDraft,
        plays: list[tuple[tuple[int, ...], int]],
    ) -> dict[int, Outcome]:
        chosen = draft.chosen
        depth = len(chosen)
        following: dict[int, list[tuple[tuple[int, ...], int]]] = {}
        for play in plays:
            if play[0][:depth] == chosen:
                following.setdefault(play[0][depth], []).append(play)
        return {
            self.card + code: self._narrow(legal, draft.shape, (*chosen, code), rest)
            for code, rest in following.items()
        }

    @staticmethod
    def _narrow(
        legal: tc.LegalActions,
        shape: int,
        chosen: tuple[int, ...],
        plays: list[tuple[tuple[int, ...], int]],
    ) -> Outcome:
        """The play, when one is left; else the draft with every card the plays share
        (beyond ``chosen``) fixed too."""
        if len(plays) == 1:
            return legal[plays[0][1]]
        first = plays[0][0]
        depth = len(chosen)
        while all(seq[depth] == first[depth] for seq, _ in plays):
            depth += 1
        return PlayDraft(shape, first[:depth])

    def push_draft(self, seat: int, observation: tc.Observation) -> PushDraft | None:
        """The empty draft of the push ``seat`` makes now (None: it has none to make),
        from the observation of the player acting for it: its targets, and its cards
        less those the rules give away for it (GS-6, shown in ``pushed``)."""
        targets = observation.push_targets.get(seat)
        if not targets or observation.phase != "exchange" or seat not in observation.waiting_for:
            return None
        n = self.seats
        room = [0] * (n - 1)
        for target, count in targets.items():
            room[(target - seat) % n - 1] = count
        pool = code_counts(observation.hands[seat])
        if observation.player is not None and observation.players[seat] == observation.player:
            pool -= code_counts(c for codes in observation.pushed.values() for c in codes.split())
        return PushDraft(
            seat,
            tuple(room),
            tuple(pool.get(code, 0) for code in range(CODE_COUNT)),
            tuple(() for _ in range(n - 1)),
        )

    def _push_options(self, draft: PushDraft) -> dict[int, Outcome]:
        found: dict[int, Outcome] = {}
        last = sum(draft.room) == 1
        for slot, room in enumerate(draft.room):
            if not room:
                continue
            base = self.push + slot * CODE_COUNT
            for code, free in enumerate(draft.pool):
                if free:
                    found[base + code] = self._push_step(draft, slot, code, last)
        return found

    def _push_step(self, draft: PushDraft, slot: int, code: int, last: bool) -> Outcome:
        given = list(draft.given)
        given[slot] = tuple(sorted((*given[slot], code)))
        if last:
            seat, n = draft.seat, self.seats
            cards = {
                (seat + k + 1) % n: " ".join(CODES[c] for c in codes)
                for k, codes in enumerate(given)
                if codes
            }
            return tc.Push(seat, cards)
        room = list(draft.room)
        room[slot] -= 1
        pool = list(draft.pool)
        pool[code] -= 1
        return PushDraft(draft.seat, tuple(room), tuple(pool), tuple(given))

    def path(self, action: tc.Action, legal: tc.LegalActions) -> list[int]:
        """The indexes that choose ``action`` (one of ``legal``), in order: one for most
        actions, a shape and its card steps for a shaped play, a step per card for a
        push (targets by offset, codes ascending)."""
        if isinstance(action, tc.Push):
            n = self.seats
            steps = []
            for target, codes in sorted(
                action.cards.items(), key=lambda item: (item[0] - action.seat) % n
            ):
                base = self.push + ((target - action.seat) % n - 1) * CODE_COUNT
                steps += [base + c for c in sorted(code_counts(codes.split()).elements())]
            return steps
        if not isinstance(action, tc.Play):
            return [self.fixed_index(action)]
        index = self.flat_index.get((action.cards, action.phoenix))
        if index is not None:
            return [index]
        _, shaped = self.groups(legal)
        for shape, plays in shaped.items():
            for seq, position in plays:
                if legal[position] == action:
                    steps = [shape]
                    outcome = self._narrow(legal, shape, (), plays)
                    while isinstance(outcome, PlayDraft):
                        steps.append(self.card + seq[len(outcome.chosen)])
                        outcome = self.options(legal, outcome)[steps[-1]]
                    return steps
        raise ValueError(f"{action} is not among the legal plays")


def _flat_plays(deck: Counter[int], rules: tc.MoveRules) -> list[FlatKey]:
    """Every single, pair, triple, Dog, four-of-a-kind and straight flush of the deck (by
    codes, with each Phoenix reading), from the move generator run on small hands: one
    rank with the Phoenix, the specials, one suit."""
    phoenix = {PHOENIX: 1} if deck[PHOENIX] else {}
    hands = [mask_of_codes({**by_rank, **phoenix}) for by_rank in _codes_by_rank(deck)]
    hands.append(mask_of_codes({c: 1 for c in range(4) if deck[c]}))
    suits = [{c: deck[c] for c in range(4 + suit, CODE_COUNT, 4) if deck[c]} for suit in range(4)]
    found: dict[FlatKey, None] = {}
    for hand in hands + [mask_of_codes(suit) for suit in suits]:
        plays, _ = tc.legal_plays(hand, None, None, rules)
        for combination in plays:
            if combination.kind not in SHAPED_KINDS:
                play = tc.Play(
                    0,
                    [CODES[c] for c in codes_of_mask(combination.cards)],
                    combination.phoenix or None,
                )
                found[(play.cards, play.phoenix)] = None
    return sorted(found, key=_flat_order)


def _flat_order(key: FlatKey) -> tuple[int, int, tuple[int, ...], int]:
    codes = sorted(CODE_INDEX[c] for c in key[0].split())
    phoenix = RANK_OF_NAME[key[1]] if key[1] else 0
    return (len(codes), CODE_RANK[codes[-1]] if codes else 0, tuple(codes), phoenix)


def _codes_by_rank(deck: Counter[int]) -> list[dict[int, int]]:
    return [
        {c: deck[c] for c in range(4 + 4 * (rank - 2), 8 + 4 * (rank - 2)) if deck[c]}
        for rank in range(2, 15)
    ]


def _shapes(deck: Counter[int], rules: tc.MoveRules, max_cards: int) -> list[ShapeKey]:
    """Every full house, straight and steps shape of at most ``max_cards`` cards, from the
    move generator on hands with one (straights), two (steps) or three (full houses)
    cards of every rank, the Mah Jong and the Phoenix."""
    specials = {c: 1 for c in (CODE_INDEX["MJ"], PHOENIX) if deck[c]}
    by_rank = _codes_by_rank(deck)

    def hand(per_rank: int) -> int:
        counts = dict(specials)
        for rank, codes in enumerate(by_rank):
            suits = sorted(codes, key=lambda c: (c - rank) % 4)  # no flush of one suit
            counts.update(dict.fromkeys(suits[:per_rank], 1))
        return mask_of_codes(counts)

    found: set[ShapeKey] = set()
    kinds = [(tc.Kind.STRAIGHT, 1, range(5, 15)), (tc.Kind.STEPS, 2, range(4, 27, 2))]
    kinds.append((tc.Kind.FULL_HOUSE, 3, range(5, 6)))
    for kind, per_rank, lengths in kinds:
        cards = hand(per_rank)
        for length in lengths:
            if length > max_cards:
                continue
            top = tc.Combination(kind, length, 0, 0, 0)  # beaten by every play of its kind
            plays, _ = tc.legal_plays(cards, top, None, rules)
            found.update(play_shape(c) for c in plays if c.kind == kind)
    house = [(HOUSE_KIND, 0, (length,)) for length in range(1, max_cards + 1)]
    return sorted(found, key=lambda s: (s[0], len(s[2]), s[2], s[1])) + house


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


# --------------------------------------------------------------------------- the environment


def load(
    variant: str | tc.Variant,
    players: int | None = None,
    overrides: Mapping[str, Any] | None = None,
    allow_imports: bool = False,
) -> tc.Variant:
    """A variant by name or path (or as given), ``players`` and ``overrides`` applied."""
    changes = dict(overrides or {})
    if players is not None:
        changes["players"] = players
    if isinstance(variant, tc.Variant):
        if changes:
            raise ValueError("overrides need a variant name or path, not a loaded Variant")
        return variant
    return tc.load_variant(variant, overrides=changes or None, allow_imports=allow_imports)


class TichuEnv(AECEnv):  # type: ignore[misc]
    """A whole match of a variant as a PettingZoo AEC environment (docs/rl.md).

    ``variant``: a name, a path or a ``Variant``; ``players`` the table size (Grand
    Seigneur), ``overrides`` any option (``{"game.target": 500}``). Rewards: after each
    hand, the agent's score line minus the mean of its opponents' lines, divided by
    ``hand_reward_scale`` (default 100 where card points count, else seats - 1); at the
    end of the match ``+match_reward`` for a winning line and ``-match_reward`` for the
    others. ``reset(seed=...)`` seeds the game; ``options={"deals": [...]}`` stacks deals.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tichu_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | tc.Variant = "standard",
        *,
        players: int | None = None,
        overrides: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        hand_reward_scale: float | None = None,
        match_reward: float = 1.0,
        allow_imports: bool = False,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        self.variant = load(variant, players, overrides, allow_imports)
        self.render_mode = render_mode
        self.table = ActionTable.of(self.variant)
        self.encoder = ObservationEncoder(self.variant)
        self.seats = self.variant.seats
        if hand_reward_scale is None:
            hand_reward_scale = 100.0 if self.variant.scoring.card_points else self.seats - 1.0
        self.hand_reward_scale = float(hand_reward_scale)
        self.match_reward = float(match_reward)
        self.possible_agents = [f"player_{p}" for p in range(self.variant.players)]
        self.agents: list[str] = []
        observation_space = spaces.Dict(
            {
                "observation": self.encoder.space(),
                "action_mask": spaces.Box(0, 1, (self.table.size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {a: spaces.Discrete(self.table.size) for a in self.possible_agents}
        self._game: tc.Game | None = None
        self.agent_selection = self.possible_agents[0]

    # --- PettingZoo API ----------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> tc.Game:
        """The running match (after ``reset``)."""
        if self._game is None:
            raise RuntimeError("call reset() first")
        return self._game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        deals = (options or {}).get("deals")
        self._game = tc.Game(self.variant, seed=seed, deals=deals)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._record = self._new_record()
        self._draft: Draft | None = None
        self._offer = False
        self._offered: set[int] = set()
        self._seat: int | None = None
        self._legal: tc.LegalActions | None = None
        self._options: dict[int, Outcome] | None = None
        self._push: PushDraft | None = None
        self._advance()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        game = self.game
        player = self.possible_agents.index(agent)
        acting = agent == self.agent_selection and self._seat is not None
        seat = self._seat if acting and self._seat is not None else game.seat_of(player)
        if seat is None:  # a player without a seat this hand: its first controlled seat
            seat = next(s for s in range(self.seats) if game.controller(s) == player)
        observation = game.observation(player)
        vector = self.encoder.encode(
            observation,
            seat,
            self._record,
            acting=acting,
            offer=acting and self._offer,
            draft=self._draft if acting else None,
            table=self.table,
        )
        mask = np.zeros(self.table.size, np.int8)
        if acting:
            mask[list(self.options())] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: take an index whose action_mask entry is 1")
        index = operator.index(action)
        options = self.options()
        if index not in options:
            what = self.table.describe(index) if 0 <= index < self.table.size else "out of range"
            raise ValueError(
                f"{agent} may not take action {index} ({what}) now: take an index whose "
                "action_mask entry is 1"
            )
        outcome = options[index]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if isinstance(outcome, PlayDraft | PushDraft):
            self._draft = outcome
        elif outcome is None:
            assert self._seat is not None
            self._offered.add(self._seat)
        else:
            self._apply(outcome)
        self._options = None
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (every hand shown: for a person watching, not an agent)."""
        text = render_table(self.game, self._seat, self._draft, self.table)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._game = None

    # --- the acting seat -----------------------------------------------------------------

    @property
    def acting_seat(self) -> int | None:
        """The seat ``agent_selection`` decides for (None once the match is over)."""
        return self._seat

    @property
    def offered(self) -> bool:
        """Whether the acting seat is offered a bomb out of turn (``NO_BOMB`` declines)."""
        return self._offer

    @property
    def draft(self) -> Draft | None:
        """The play or push the acting seat is choosing step by step."""
        return self._draft

    def legal_actions(self) -> tc.LegalActions:
        """The game's legal actions of the acting seat."""
        if self._seat is None:
            raise RuntimeError("the match is over: nobody acts")
        if self._legal is None:
            self._legal = self.game.legal_actions(self._seat)
        return self._legal

    def push_start(self) -> PushDraft | None:
        """The empty push draft of the acting seat, in the exchange."""
        if self._push is None and self._seat is not None and self._draft is None:
            legal = self.legal_actions()
            if len(legal) == len(legal.fixed) + len(legal.combinations):
                return None  # no push to make
            player = self.game.controller(self._seat)
            assert player is not None
            self._push = self.table.push_draft(self._seat, self.game.observation(player))
        return self._push

    def options(self) -> dict[int, Outcome]:
        """Every index the acting agent may take now, with what it does."""
        if self._options is None:
            legal = self.legal_actions()
            push = self.push_start() if self._draft is None else None
            self._options = self.table.options(legal, self._draft, offer=self._offer, push=push)
        return self._options

    def action_path(self, action: tc.Action) -> list[int]:
        """The indexes that take ``action`` (a legal action of the acting seat)."""
        return self.table.path(action, self.legal_actions())

    # --- inside --------------------------------------------------------------------------

    def _new_record(self) -> SeatRecord:
        return SeatRecord(np.zeros((self.seats, CODE_COUNT), np.int8))

    def _apply(self, action: tc.Action) -> None:
        game = self.game
        finished = len(game.hand_results)
        game.apply(action)
        self._draft = None
        self._legal = None
        self._push = None
        if isinstance(action, tc.Play):
            row = self._record.played[action.seat]
            for code in action.cards.split():
                row[CODE_INDEX[code]] += 1
            self._offered = set()  # a new top: the other seats may bomb it
        elif isinstance(action, tc.Push):
            self._record.pushes[action.seat] = action.cards
        for result in game.hand_results[finished:]:
            self._reward_hand(result)
            self._record = self._new_record()
            self._offered = set()
        if game.is_over:
            self._reward_match()
            self.terminations = dict.fromkeys(self.agents, True)

    def _lines(self, result: tc.HandResult) -> dict[int, tuple[int, int]]:
        """player -> (its score line, its team) in a finished hand."""
        found = {}
        for seat, player in enumerate(result.players):
            if player is not None:
                team = self.variant.team_of(seat)
                found[player] = (player if self.variant.scoring.per_player else team, team)
        return found

    def _reward_hand(self, result: tc.HandResult) -> None:
        lines = self._lines(result)
        for player, (line, team) in lines.items():
            others = [result.scores[ln] for ln, tm in lines.values() if tm != team]
            margin = result.scores[line] - (sum(others) / len(others) if others else 0.0)
            self.rewards[self.possible_agents[player]] += margin / self.hand_reward_scale

    def _reward_match(self) -> None:
        game = self.game
        winners = set(game.winners)
        for player, (line, _) in self._lines(game.hand_results[-1]).items():
            won = line in winners
            self.rewards[self.possible_agents[player]] += (
                self.match_reward if won else -self.match_reward
            )

    def _advance(self) -> None:
        """Select the next seat to decide, and its agent."""
        game = self.game
        if game.is_over:
            self._seat = None
            return
        if self._draft is not None:
            return
        seat = self._next_offer()
        self._offer = seat is not None
        if seat is None:
            seat = game.waiting_for[0]
        if seat != self._seat:
            self._legal = None
            self._push = None
        self._seat = seat
        player = game.controller(seat)
        assert player is not None
        self.agent_selection = self.possible_agents[player]

    def _next_offer(self) -> int | None:
        """A seat not on turn that may bomb the open trick and was not yet asked since
        its last play (in play order after the seat on turn)."""
        game = self.game
        turn = game.turn
        if turn is None:
            return None
        to_act = game.to_act
        if len(to_act) < 2:
            return None
        waiting = game.waiting_for
        for step in range(1, self.seats):
            seat = (turn + step) % self.seats
            if (
                seat in to_act
                and seat not in waiting
                and seat not in self._offered
                and game.legal_actions(seat).combinations
            ):
                return seat
        return None


def env(**kwargs: Any) -> Any:
    """A :class:`TichuEnv` in PettingZoo's order-enforcing wrapper (``kwargs`` as for it)."""
    return wrappers.OrderEnforcingWrapper(TichuEnv(**kwargs))


# --------------------------------------------------------------------------- render


def render_table(game: tc.Game, acting: int | None, draft: Draft | None, table: ActionTable) -> str:
    """The table as text: every seat's cards, calls and place, the trick and the scores."""
    public = game.observation(None)
    lines = [
        f"{game.variant.name}: hand {public.hand_index + 1}, {public.phase}"
        + (f", wish {public.wish}" if public.wish else "")
        + "  scores "
        + ", ".join(
            f"{name} {score}" for name, score in zip(game.score_lines, public.scores, strict=True)
        )
    ]
    for seat in range(game.seats):
        player = public.players[seat]
        controller = game.controller(seat)
        view = game.observation(controller) if controller is not None else public
        cards = " ".join(view.hands.get(seat, ()))
        marks = [
            "to act" if seat == acting else "",
            public.calls.get(seat, ""),
            f"out {public.out_order.index(seat) + 1}" if seat in public.out_order else "",
            "dealer" if seat == public.dealer else "",
        ]
        who = "dummy" if player is None else f"player_{player}"
        lines.append(
            f"  seat {seat} {who:<9} [{public.hand_sizes[seat]:>2}] {cards}"
            + "".join(f"  ({m})" for m in marks if m)
        )
    if public.trick:
        plays = "  ".join(f"{p['seat']}: {' '.join(p['cards'])}" for p in public.trick)
        lines.append(f"  trick  {plays}")
    if public.pending is not None:
        lines.append(f"  pending {public.pending['kind']} of seat {public.pending['seat']}")
    if isinstance(draft, PlayDraft):
        chosen = " ".join(CODES[c] for c in draft.chosen)
        lines.append(f"  choosing {table.describe(draft.shape)}: {chosen}")
    elif isinstance(draft, PushDraft):
        given = {k + 1: " ".join(CODES[c] for c in codes) for k, codes in enumerate(draft.given)}
        lines.append(f"  pushing (by offset) {given}")
    if game.is_over:
        lines.append(f"  match over: winners {[game.score_lines[w] for w in game.winners]}")
    return "\n".join(lines)


def describe_spaces(variants: Sequence[tc.Variant]) -> list[tuple[str, int, int, dict[str, int]]]:
    """(name, seats, action space size, sizes of its sections) of each variant (docs)."""
    rows = []
    for variant in variants:
        table = ActionTable.of(variant)
        sections = {name: len(part) for name, part in table.sections().items()}
        rows.append((variant.name, variant.seats, table.size, sections))
    return rows


# --------------------------------------------------------------------------- speed


def steps_per_second(
    variant: str | tc.Variant = "standard",
    *,
    seconds: float = 5.0,
    players: int | None = None,
    seed: int = 0,
) -> float:
    """Decisions per second of random legal play, each an ``env.last()`` (an observation
    encoded, a mask built) and an ``env.step()``; a new match when one ends."""
    env = TichuEnv(variant, players=players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            if not env.agents:
                seed += 1
                env.reset(seed=seed)
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m tichu_core.frontends.rl [VARIANT[:PLAYERS] ...]``: each variant's
    action space and observation sizes, and the steps per second of random play."""
    parser = argparse.ArgumentParser(description="Sizes and speed of the RL environment.")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per variant")
    parser.add_argument(
        "variants",
        nargs="*",
        default=["standard", "threechu", "tientsin", "grand_seigneur:7", "grand_seigneur:12"],
        help="variant names, with :PLAYERS for the table size",
    )
    args = parser.parse_args(argv)
    for spec in args.variants:
        name, _, players = spec.partition(":")
        variant = load(name, int(players) if players else None)
        rate = steps_per_second(variant, seconds=args.seconds)
        print(
            f"{variant.name:<16} {variant.players:>2} players  "
            f"{ActionTable.of(variant).size:>5} actions  "
            f"{ObservationEncoder(variant).size:>5} observation floats  {rate:>7,.0f} steps/s"
        )


if __name__ == "__main__":
    main()
