"""Move generation: the golden positions and the plays/lead/follow/bomb/wish API.

The golden file (tests/golden/moves.json) holds counts computed by the slow
oracle (tests/golden/make_golden.py); here the fast generator must match them.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import oracle
import pytest

from tichu_core.cardplay import moves
from tichu_core.cardplay.cards import (
    PHOENIX_BITS,
    SECOND_COPY,
    cards_of,
    codes_of,
    deck_mask,
    take_cards,
)
from tichu_core.cardplay.combinations import (
    FOUR_BOMB,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    Combination,
    as_combination,
    beats,
    recognize,
)
from tichu_core.cardplay.moves import (
    DEFAULT_MOVE_RULES,
    MoveRules,
    fulfils_wish,
    legal_plays,
)


# The generator lists plays as plain tuples in Combination's field order (equal to
# their Combinations); these tests read them by field name, so they see Combinations.
def _named(listed: list[Any]) -> list[Combination]:
    return [as_combination(play) for play in listed]


def lead_plays(hand: int, rules: MoveRules = DEFAULT_MOVE_RULES) -> list[Combination]:
    return _named(moves.lead_plays(hand, rules))


def follow_plays(
    hand: int, top: Combination, rules: MoveRules = DEFAULT_MOVE_RULES
) -> list[Combination]:
    return _named(moves.follow_plays(hand, top, rules))


def bomb_plays(
    hand: int, top: Combination | None = None, rules: MoveRules = DEFAULT_MOVE_RULES
) -> list[Combination]:
    return _named(moves.bomb_plays(hand, top, rules))


def plays(
    hand: int, top: Combination | None, rules: MoveRules = DEFAULT_MOVE_RULES
) -> list[Combination]:
    return _named(moves.plays(hand, top, rules))


def apply_wish(
    hand: int,
    candidates: list[Combination],
    wish: int | None,
    rules: MoveRules = DEFAULT_MOVE_RULES,
) -> tuple[list[Combination], bool]:
    allowed, obliged = moves.apply_wish(hand, list(candidates), wish, rules)
    return _named(allowed), obliged


GOLDEN = json.loads((Path(__file__).parent / "golden" / "moves.json").read_text("utf-8"))
ONE_DECK = deck_mask(1)
TWO_DECKS = deck_mask(2, ["DOG", "DOG", "MJ"])


def hand_of(text: str, decks: int = 1) -> int:
    return take_cards(text, ONE_DECK if decks == 1 else TWO_DECKS)


def top_of(text: str, phoenix: int | None = None, rank: float | None = None) -> Combination:
    return oracle.to_engine(oracle.top_play(text, phoenix, rank))


def named(play: Combination) -> tuple[tuple[str, ...], int]:
    """A play as (sorted codes, Phoenix rank): how the golden file names plays."""
    return oracle.sort_codes(codes_of(play.cards)), play.phoenix


def check_well_formed(hand: int, found: list[Combination]) -> None:
    """No play listed twice, every play inside the hand, canonical copies (first deck)."""
    keys = [oracle.from_engine(p) for p in found]
    duplicates = [k for k, n in Counter(keys).items() if n > 1]
    assert not duplicates, duplicates
    for play in found:
        assert play.cards and play.cards & ~hand == 0, play
        assert (play.cards & PHOENIX_BITS).bit_count() <= 1, play
        for card in cards_of(play.cards):
            if card.copy == 1:
                first = 1 << (card - SECOND_COPY)
                # The second copy only when the first is in the play too or not held.
                assert play.cards & first or not hand & first, play


# --- golden positions ---------------------------------------------------------------


GOLDEN_PARAMS = [pytest.param(c, id=c["id"]) for c in GOLDEN]


@pytest.mark.parametrize("case", GOLDEN_PARAMS)
def test_golden(case: dict[str, Any]) -> None:
    """Counts from the oracle; each case lists the docs/rules.md ids it exercises in ``rules``."""
    hand = hand_of(case["hand"], case["decks"])
    top = None
    if case["top"]:
        top = top_of(case["top"], case.get("top_phoenix"), case.get("top_rank"))
    rules = MoveRules(**case["options"])
    found, obliged = legal_plays(hand, top, case["wish"], rules)
    check_well_formed(hand, found)
    names = {named(p) for p in found}
    missing = [n for n in case["includes"] if oracle.parse_play_name(n) not in names]
    extra = [n for n in case["excludes"] if oracle.parse_play_name(n) in names]
    assert not missing, f"legal per the oracle, not listed: {missing}"
    assert not extra, f"illegal per the oracle, listed: {extra}"
    assert obliged == case["obliged"]
    assert len(found) == case["count"]


def test_golden_file_is_big_and_cites_rules() -> None:
    assert len(GOLDEN) >= 40
    assert len({c["id"] for c in GOLDEN}) == len(GOLDEN)
    cited = {rule for c in GOLDEN for rule in c["rules"]}
    for rule in (
        "S-COMB-4",
        "S-COMB-5",
        "S-BOMB-2",
        "S-WISH-2",
        "S-WISH-3",
        "S-WISH-6",
        "GS-4",
        "E-2",
        "S-DOG-1",
    ):
        assert rule in cited
    assert {c["decks"] for c in GOLDEN} == {1, 2}
    assert {f for c in GOLDEN for f, v in c["options"].items() if v} >= set(MoveRules._fields)


# --- the worst case and the Phoenix (S-COMB-4) ------------------------------------------


def test_worst_case_2_to_ace_with_phoenix_s_comb_4() -> None:
    """2j..Aj + PH leads 417 plays on 381 card sets."""
    hand = hand_of("2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj PH")
    found = lead_plays(hand)
    assert len(found) == 417
    assert len({p.cards for p in found}) == 381
    check_well_formed(hand, found)
    # One suit: no plain straight without the Phoenix (S-BOMB-1).
    assert all(p.phoenix for p in found if p.kind == STRAIGHT)
    flushes = [p for p in found if p.kind == STRAIGHT_FLUSH]
    assert len(flushes) == sum(13 - n + 1 for n in range(5, 14))


def test_phoenix_readings_are_separate_plays_s_comb_4() -> None:
    found = lead_plays(hand_of("4j 5s 6p 7t PH"))
    straights = {(p.rank, p.phoenix) for p in found if p.kind == STRAIGHT}
    assert straights == {(7, 3), (8, 8)}
    houses = {(p.rank, p.phoenix) for p in lead_plays(hand_of("5j 5s 9p 9t PH")) if p.length == 5}
    assert houses == {(5, 5), (9, 9)}


def test_generated_plays_are_recognized_and_beat_the_top() -> None:
    """moves agrees with combinations: each play is a reading of its cards and beats the top."""
    for case in GOLDEN:
        hand = hand_of(case["hand"], case["decks"])
        top = (
            top_of(case["top"], case.get("top_phoenix"), case.get("top_rank"))
            if case["top"]
            else None
        )
        rules = MoveRules(**case["options"])
        for play in plays(hand, top, rules):
            readings = recognize(play.cards, rules.combination_rules, top)
            assert play in readings, (case["id"], play)
            assert beats(play, top, rules.combination_rules), (case["id"], play)


# --- plays / lead_plays / follow_plays / bomb_plays --------------------------------------


def test_plays_dispatches_on_top() -> None:
    hand = hand_of("MJ 2j 3s 4p 5t 6j 6s PH DR DOG")
    assert plays(hand, None) == lead_plays(hand)
    top = top_of("4j")
    assert plays(hand, top) == follow_plays(hand, top)
    assert {p.rank for p in follow_plays(hand, top)} == {5, 6, 15, 4.5}


def test_dog_only_leads_s_dog_1() -> None:
    hand = hand_of("DOG 5j 5s 5p 5t")
    assert any(p.codes == ("DOG",) for p in map(oracle.from_engine, lead_plays(hand)))
    assert all(named(p)[0] != ("DOG",) for p in follow_plays(hand, top_of("2j")))
    assert follow_plays(hand, top_of("DOG")) == []  # S-BOMB-4: not even a bomb


def test_no_bomb_plays_on_the_dog_s_bomb_4() -> None:
    """S-BOMB-4: no bomb on the Dog; bomb_plays must agree with follow_plays there."""
    hand = hand_of("5j 5s 5p 5t 3p 4p 6p 7p")
    assert bomb_plays(hand, top_of("DOG")) == []


def test_bomb_plays_s_bomb_2() -> None:
    hand = hand_of("7j 7s 7p 7t 3p 4p 5p 6p 8p 9p")
    everything = bomb_plays(hand)
    kinds = Counter(p.kind for p in everything)
    # The four 7s, and the pagoda flushes 3..9 (7p belongs to both).
    assert kinds[FOUR_BOMB] == 1
    assert kinds[STRAIGHT_FLUSH] == 6  # 3..7, 4..8, 5..9, 3..8, 4..9, 3..9
    assert bomb_plays(hand, top_of("Aj")) == everything  # any non-bomb top
    assert {(p.length, p.rank) for p in bomb_plays(hand, top_of("2j 3j 4j 5j 6j"))} == {
        (5, 7),
        (5, 8),
        (5, 9),
        (6, 8),
        (6, 9),
        (7, 9),
    }
    # Same length and top does not beat (strictly higher): only the longer one.
    assert {(p.length, p.rank) for p in bomb_plays(hand, top_of("4t 5t 6t 7t 8t 9t"))} == {(7, 9)}
    assert [p.rank for p in bomb_plays(hand, top_of("6j 6s 6p 6t")) if p.kind == FOUR_BOMB] == [7]
    assert [p for p in bomb_plays(hand, top_of("8j 8s 8t 8p")) if p.kind == FOUR_BOMB] == []


def test_follow_includes_bombs_s_bomb_3() -> None:
    hand = hand_of("2j 2s 2p 2t 9j")
    for top in ("Aj As", "DR", "3j 4s 5p 6t 7j", "Kj Ks Kp 3s 3p"):
        assert [p.kind for p in follow_plays(hand, top_of(top))] == [FOUR_BOMB], top


def test_second_dragon_gs_4() -> None:
    hand = hand_of("DR 9j", decks=2)
    dragon = top_of("DR")
    assert follow_plays(hand, dragon) == []
    gs = MoveRules(second_dragon_beats_first=True)
    (only,) = follow_plays(hand, dragon, gs)
    assert (only.kind, only.rank) == (SINGLE, 15)


def test_four_distinct_suits_option_gs_4() -> None:
    hand = hand_of("9j 9j 9s 9p 9t", decks=2)
    strict = [p for p in lead_plays(hand) if p.kind == FOUR_BOMB]
    loose = [
        p for p in lead_plays(hand, MoveRules(four_distinct_suits=False)) if p.kind == FOUR_BOMB
    ]
    assert len(strict) == 1
    # Four of {j, j, s, p, t}: jspt, jjsp, jjst, jjpt.
    assert len(loose) == 4


def test_two_deck_copies_are_one_play_gs_4() -> None:
    hand = hand_of("5j 5j 6s", decks=2)
    singles = [p for p in lead_plays(hand) if p.kind == SINGLE]
    assert sorted(named(p)[0] for p in singles) == [("5j",), ("6s",)]
    check_well_formed(hand, lead_plays(hand))
    # Only the second copy held: it is the one played.
    second_only = take_cards("5j 5j", TWO_DECKS) & ~take_cards("5j", TWO_DECKS)
    (single,) = lead_plays(second_only)
    assert single.cards == second_only


# --- the wish (S-WISH-*) --------------------------------------------------------------


def test_no_wish_plays_freely() -> None:
    hand = hand_of("7j 8s")
    assert legal_plays(hand, None) == (lead_plays(hand), False)
    assert legal_plays(hand, None, None) == (lead_plays(hand), False)


def test_wish_obliges_s_wish_2() -> None:
    hand = hand_of("7j 8s 8p")
    allowed, obliged = legal_plays(hand, top_of("5j"), 7)
    assert obliged
    assert [named(p) for p in allowed] == [(("7j",), 0)]
    allowed, obliged = legal_plays(hand, None, 8)
    assert obliged and {named(p)[0] for p in allowed} == {("8s",), ("8p",), ("8s", "8p")}


def test_wish_frees_seat_without_the_rank_s_wish_5() -> None:
    hand = hand_of("8s PH")
    assert legal_plays(hand, top_of("5j"), 7, MoveRules(phoenix_fulfils=True)) == (
        follow_plays(hand, top_of("5j")),
        False,
    )
    hand = hand_of("7j 8s")
    assert legal_plays(hand, top_of("9j"), 7)[1] is False


def test_fulfils_wish_s_wish_3() -> None:
    (low, high) = sorted(lead_plays(hand_of("4j 5s 6p 7t PH")), key=lambda p: p.rank)[-2:]
    assert (low.phoenix, high.phoenix) == (3, 8)
    assert fulfils_wish(low, 5) and fulfils_wish(low, 7)
    assert not fulfils_wish(low, 3)
    assert fulfils_wish(low, 3, MoveRules(phoenix_fulfils=True))
    assert not fulfils_wish(high, 3, MoveRules(phoenix_fulfils=True))


def test_apply_wish_options_s_wish_2_6() -> None:
    hand = hand_of("7j 7s 7p 7t 2j 2s 2p 2t Kj")
    candidates = follow_plays(hand, top_of("Qs"))
    # Only the four 7s contains a 7: by default it must be played.
    allowed, obliged = apply_wish(hand, candidates, 7)
    assert obliged and [p.rank for p in allowed] == [7]
    # bomb_must_fulfil=False: a bomb creates no obligation.
    allowed, obliged = apply_wish(hand, candidates, 7, MoveRules(bomb_must_fulfil=False))
    assert not obliged and allowed == candidates
    # bomb_instead: any bomb may replace the fulfilling play.
    allowed, obliged = apply_wish(hand, candidates, 7, MoveRules(bomb_instead=True))
    assert obliged and sorted(p.rank for p in allowed) == [2, 7]
    assert apply_wish(hand, candidates, None) == (candidates, False)
    assert MoveRules() == DEFAULT_MOVE_RULES


def test_move_rules_map_to_combination_rules() -> None:
    rules = MoveRules(four_distinct_suits=False, second_dragon_beats_first=True)
    assert rules.combination_rules.four_distinct_suits is False
    assert rules.combination_rules.second_dragon_beats_first is True
