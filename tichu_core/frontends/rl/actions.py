"""The RL environment's fixed action space: every distinct action a seat of a variant
could ever take has an index (docs/rl.md). Plays of the kinds whose whole-deck
enumeration is small (singles, pairs, triples, the Dog, bombs) are one index each, by
card codes and Phoenix reading; full houses, straights and steps are a *shape* (the
ranks, the kind and the Phoenix reading) followed by one card step per place where the
seat's legal plays of that shape still differ; a push is one step per card and target.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

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
    if not tc.is_standard_kind(combination.kind):
        return (HOUSE_KIND, 0, (len(codes),))
    real = [CODE_RANK[c] for c in codes if c != PHOENIX]
    return (int(combination.kind), int(combination.phoenix), tuple(sorted(real)))


def kind_slot(kind: int) -> int:
    """The place of a kind in the observation's kind one-hots (house kinds: the last)."""
    return KINDS.index(tc.Kind(kind)) if tc.is_standard_kind(kind) else len(KINDS)


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
        rules = tc.move_rules(variant)  # the variant's own, plugins included
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
            if not tc.is_standard_kind(combination.kind):
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
