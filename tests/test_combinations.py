"""recognize() and beats(): S-COMB-1..6, S-BOMB-1..3, S-DOG-1, GS-4, E-2."""

from __future__ import annotations

import pytest

from tichu_core.cardplay.cards import deck_mask, take_cards
from tichu_core.cardplay.combinations import (
    DEFAULT_RULES,
    DOG,
    FOUR_BOMB,
    FULL_HOUSE,
    PAIR,
    SINGLE,
    STEPS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPLE,
    Combination,
    CombinationRules,
    beats,
    phoenix_single,
    recognize,
    strongest,
)

TWO_DECKS = deck_mask(2)
GS = CombinationRules(four_distinct_suits=True, second_dragon_beats_first=True)
ANY_FOUR = CombinationRules(four_distinct_suits=False)
R = {"J": 11, "Q": 12, "K": 13, "A": 14}


def m(text: str) -> int:
    """The mask of ``text``; a code given twice takes both copies (two decks)."""
    return take_cards(text, TWO_DECKS)


def readings(
    text: str, rules: CombinationRules = DEFAULT_RULES, top: Combination | None = None
) -> set[tuple[int, int, float, int]]:
    return {(c.kind, c.length, c.rank, c.phoenix) for c in recognize(m(text), rules, top)}


def one(text: str, rules: CombinationRules = DEFAULT_RULES, top: Combination | None = None):
    found = recognize(m(text), rules, top)
    assert len(found) == 1, (text, found)
    assert found[0].cards == m(text)
    return found[0]


# --- recognize: every kind ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("7s", (SINGLE, 1, 7, 0)),
        ("Aj", (SINGLE, 1, 14, 0)),
        ("MJ", (SINGLE, 1, 1, 0)),
        ("DR", (SINGLE, 1, 15, 0)),
        ("PH", (SINGLE, 1, 1.5, 0)),
        ("DOG", (DOG, 1, 0, 0)),
        ("9j 9t", (PAIR, 2, 9, 0)),
        ("Qj Qs Qt", (TRIPLE, 3, 12, 0)),
        ("3j 3s 4p 4t", (STEPS, 4, 4, 0)),
        ("10j 10s Jp Jt Qj Qs", (STEPS, 6, 12, 0)),
        ("8j 8s 8p 2t 2j", (FULL_HOUSE, 5, 8, 0)),
        ("2j 2s 2p Kt Kj", (FULL_HOUSE, 5, 2, 0)),
        ("5j 6s 7p 8t 9j", (STRAIGHT, 5, 9, 0)),
        ("MJ 2j 3s 4p 5t", (STRAIGHT, 5, 5, 0)),
        ("10j Js Qp Kt Aj", (STRAIGHT, 5, 14, 0)),
        ("MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj", (STRAIGHT, 14, 14, 0)),
        ("6t 6j 6s 6p", (FOUR_BOMB, 4, 6, 0)),
        ("3p 4p 5p 6p 7p", (STRAIGHT_FLUSH, 5, 7, 0)),
        ("9t 10t Jt Qt Kt At", (STRAIGHT_FLUSH, 6, 14, 0)),
    ],
)
def test_recognize_every_kind_s_comb_1(text: str, reading: tuple[int, int, float, int]) -> None:
    """S-COMB-1, S-COMB-5/6, S-DOG-1, S-BOMB-1: each kind is recognized with its rank."""
    found = one(text)
    assert (found.kind, found.length, found.rank, found.phoenix) == reading
    assert found.is_bomb == (found.kind in (FOUR_BOMB, STRAIGHT_FLUSH))


@pytest.mark.parametrize(
    "text",
    [
        "5j 6s",  # two ranks, not a pair
        "2j 2s 3p 3t 3j 4s 4p",  # mixed run
        "3j 3s 3p 4j 4s 4p",  # consecutive triples (S-COMB-2)
        "3j 3s 3p 4j 4s 4p 5j 5s 5p",
        "5j 5s 5p 5t 5j",  # five of one rank (S-COMB-2)
        "Aj 2s 3p 4t 5j",  # Ace only high (S-COMB-1)
        "Qj Ks Ap 2t 3j",  # no wrap-around
        "5j 6s 7p 8t",  # straight too short
        "5j 6s 7p 8t 10j",  # gap
        "5j 5s 6j 6s 8j 8s",  # steps with a gap
        "DOG 2j 2s",
        "MJ 2j",  # the Mah Jong is only a single or a straight's 1
        "MJ 2j 2s",
        "MJ 3j 4s 5p 6t",  # straight through the 1 needs the 2
        "2j 2s 2p 3t 3j 3s",  # two triples
        "8j 8s 8p 2t",  # triple + single
        "8j 8s 8p 8t 2j",  # four + single
        "DR DR",
        "DR 2j",
        "DOG 2j",
        "DOG DOG",
        "PH PH",  # two Phoenixes never combine (S-COMB-4)
        "PH PH 5j",
        "PH DR",
        "PH DOG",
        "MJ PH",  # the Phoenix is never the 1
        "5j 5s 5p PH",  # no bomb with the Phoenix (S-BOMB-1)
        "5j 5s 5p 5t PH",
        "5j 6j 7j 8j 9j 10s 10s",
    ],
)
def test_non_combinations_s_comb_2(text: str) -> None:
    """S-COMB-1/2/4, S-BOMB-1: these card sets are no combination."""
    assert recognize(m(text)) == []
    assert recognize(m(text), GS) == []


def test_empty_set_is_nothing() -> None:
    assert recognize(0) == []


def test_one_suit_straight_is_a_bomb_never_a_straight_s_bomb_1() -> None:
    """S-BOMB-1: five consecutive ranks of one suit are a straight-flush bomb only."""
    assert readings("4s 5s 6s 7s 8s") == {(STRAIGHT_FLUSH, 5, 8, 0)}
    assert readings("4s 5s 6s 7s 8j") == {(STRAIGHT, 5, 8, 0)}
    # The Mah Jong and the Phoenix are never part of a bomb: plain straights.
    assert readings("MJ 2s 3s 4s 5s") == {(STRAIGHT, 5, 5, 0)}
    assert readings("4s 5s 6s 7s PH") == {(STRAIGHT, 5, 7, 3), (STRAIGHT, 5, 8, 8)}


def test_four_of_a_kind_needs_four_suits_with_two_decks_gs_4() -> None:
    """GS-4: four of a kind is a bomb only with four different suits (option)."""
    assert readings("Kj Ks Kp Kt") == {(FOUR_BOMB, 4, 13, 0)}
    assert readings("Kj Kj Ks Kp") == set()
    assert readings("Kj Kj Ks Kp", ANY_FOUR) == {(FOUR_BOMB, 4, 13, 0)}
    assert readings("Kj Kj Ks Ks", ANY_FOUR) == {(FOUR_BOMB, 4, 13, 0)}
    assert readings("Kj Kj Ks Kp Kt") == set()  # five of a kind (S-COMB-2)


def test_identical_copies_combine_gs_4() -> None:
    """GS-4: identical cards of two decks form pairs, triples, full houses and runs."""
    assert readings("7j 7j") == {(PAIR, 2, 7, 0)}
    assert readings("7j 7j 7s") == {(TRIPLE, 3, 7, 0)}
    assert readings("7j 7j 8p 8p") == {(STEPS, 4, 8, 0)}
    assert readings("7j 7j 7s 8p 8p") == {(FULL_HOUSE, 5, 7, 0)}
    assert readings("7j 7j PH") == {(TRIPLE, 3, 7, 7)}
    # A straight flush may use either copy: the second-deck copies make one too.
    second = m("3j 3j 4j 4j 5j 5j 6j 6j 7j 7j") & ~m("3j 4j 5j 6j 7j")
    (flush,) = recognize(second)
    assert (flush.kind, flush.length, flush.rank) == (STRAIGHT_FLUSH, 5, 7)


# --- the Phoenix as a wild card (S-COMB-4) ----------------------------------------------


def test_phoenix_completes_pairs_and_triples_s_comb_4() -> None:
    assert readings("9s PH") == {(PAIR, 2, 9, 9)}
    assert readings("Aj As PH") == {(TRIPLE, 3, 14, 14)}
    assert readings("2t PH") == {(PAIR, 2, 2, 2)}


def test_phoenix_in_straights_fills_a_gap_or_an_end_s_comb_4() -> None:
    """S-COMB-4: 4 5 6 7 PH is a straight to 7 (PH=3) and one to 8 (PH=8)."""
    assert readings("4j 5s 6p 7t PH") == {(STRAIGHT, 5, 7, 3), (STRAIGHT, 5, 8, 8)}
    assert readings("4j 5s 7p 8t PH") == {(STRAIGHT, 5, 8, 6)}  # the gap only
    assert readings("4j 5s 8t PH") == set()  # two gaps
    # Never below 2 nor above the Ace.
    assert readings("2j 3s 4p 5t PH") == {(STRAIGHT, 5, 6, 6)}
    assert readings("Jj Qs Kp At PH") == {(STRAIGHT, 5, 14, 10)}
    # With the Mah Jong the Phoenix may not be the 1, only a higher rank.
    assert readings("MJ 2j 3s 4p PH") == {(STRAIGHT, 5, 5, 5)}
    assert readings("MJ 2j 4p 5t PH") == {(STRAIGHT, 5, 5, 3)}
    # 2..A leaves the Phoenix no rank to stand for.
    assert readings("2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj PH") == set()
    assert readings("3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj PH") == {(STRAIGHT, 13, 14, 2)}


def test_phoenix_in_steps_s_comb_4() -> None:
    assert readings("5j 5s 6p PH") == {(STEPS, 4, 6, 6)}
    assert readings("5j 6s 6p PH") == {(STEPS, 4, 6, 5)}
    assert readings("5j 5s 6p 6t 7j PH") == {(STEPS, 6, 7, 7)}
    assert readings("5j 5s PH 7p 7t 8j 8s") == set()  # the Phoenix is one card, not a pair


def test_phoenix_in_full_houses_two_readings_s_comb_4() -> None:
    """S-COMB-4: two pairs + Phoenix: either pair may become the triple."""
    assert readings("5j 5s 9p 9t PH") == {(FULL_HOUSE, 5, 5, 5), (FULL_HOUSE, 5, 9, 9)}
    assert readings("5j 5s 5p 9t PH") == {(FULL_HOUSE, 5, 5, 9)}
    best = strongest(recognize(m("5j 5s 9p 9t PH")))
    assert best is not None and (best.rank, best.phoenix) == (9, 9)


def test_phoenix_single_value_s_comb_5() -> None:
    """S-COMB-5: led or on the Mah Jong 1.5; on a single: its value + 0.5 (Ace: 14.5)."""
    assert one("PH").rank == 1.5
    assert one("PH", top=one("Aj")).rank == 14.5
    assert one("PH", top=one("MJ")).rank == 1.5
    assert one("PH", top=one("7t")).rank == 7.5
    assert phoenix_single(m("PH"), one("9j 9s")).rank == 1.5  # not a single top


def test_phoenix_on_phoenix_e_2() -> None:
    """E-2: a Phoenix single on a Phoenix single is worth that value + 0.5."""
    first = one("PH", top=one("7t"))
    second = phoenix_single(m("PH"), first)
    assert second.rank == 8.0
    assert beats(second, first)
    assert beats(one("9s"), second)
    assert not beats(one("8s"), second)  # S-COMB-3: strictly higher than 8


# --- beats ---------------------------------------------------------------------------


def test_anything_may_be_led_s_comb_3() -> None:
    for text in ("DOG", "PH", "MJ", "DR", "5j 5s", "2j 2s 2p 2t", "3p 4p 5p 6p 7p"):
        assert beats(one(text), None)


def test_same_kind_and_length_strictly_higher_s_comb_3() -> None:
    assert beats(one("9j"), one("8s"))
    assert not beats(one("8j"), one("8s"))
    assert not beats(one("7j"), one("8s"))
    assert beats(one("Qj Qs"), one("Jj Jt"))
    assert not beats(one("Jp Js"), one("Jj Jt"))
    assert not beats(one("Qj Qs"), one("5j"))  # kind differs
    assert not beats(one("Qj Qs Qp"), one("5j 5s"))
    assert not beats(one("3j 3s 3p 2t 2j"), one("2p 2s Aj Ap At"))  # by the triple
    assert beats(one("4j 4s 4p 2t 2j"), one("3p 3s 3j Ap At"))
    assert beats(one("6j 7s 8p 9t 10j"), one("5j 6s 7p 8t 9p"))
    assert not beats(one("6j 7s 8p 9t 10j Js"), one("5j 6s 7p 8t 9p"))  # length differs
    assert not beats(one("2j 3s 4p 5t 6j 7s"), one("5j 6s 7p 8t 9p"))
    assert beats(one("4j 4s 5p 5t"), one("3j 3s 4p 4t"))
    assert not beats(one("4j 4s 5p 5t 6j 6s"), one("3j 3s 4p 4t"))
    assert not beats(one("Aj As"), one("2j 2s 3p 3t"))


def test_phoenix_reading_decides_the_comparison_s_comb_4() -> None:
    """S-COMB-4: each reading is compared by its own rank."""
    low, high = sorted(recognize(m("4j 5s 6p 7t PH")), key=lambda c: c.rank)
    top = one("3j 4s 5p 6t 7j")
    assert not beats(low, top)  # a straight to 7 on a straight to 7
    assert beats(high, top)
    fives, nines = sorted(recognize(m("5j 5s 9p 9t PH")), key=lambda c: c.rank)
    house = one("8j 8s 8p 2t 2j")
    assert beats(nines, house) and not beats(fives, house)


def test_phoenix_single_beats_and_is_beaten_s_comb_5() -> None:
    led = one("PH")
    assert beats(one("2j"), led)
    assert not beats(one("MJ"), led)
    on_ace = one("PH", top=one("As"))
    assert beats(on_ace, one("As"))
    assert beats(one("DR"), on_ace)
    assert not beats(one("Ap"), on_ace)
    on_mj = one("PH", top=one("MJ"))
    assert beats(on_mj, one("MJ"))


def test_phoenix_never_beats_the_dragon_s_comb_5() -> None:
    dragon = one("DR")
    assert not beats(phoenix_single(m("PH"), dragon), dragon)
    assert not beats(phoenix_single(m("PH"), dragon), dragon, GS)


def test_dragon_is_the_highest_single_s_comb_6() -> None:
    dragon = one("DR")
    assert beats(dragon, one("Aj"))
    assert beats(dragon, one("PH", top=one("Aj")))
    assert beats(dragon, one("MJ"))
    assert not beats(one("Aj"), dragon)
    assert not beats(dragon, one("Aj As"))  # a single only
    assert beats(one("2j 2s 2p 2t"), dragon)  # only a bomb beats it


def test_second_dragon_beats_first_gs_4() -> None:
    """GS-4: a second Dragon beats the first, only with the option."""
    first = recognize(m("DR"))[0]
    second = recognize(m("DR DR") & ~m("DR"))[0]
    assert second.rank == 15
    assert beats(second, first, GS)
    assert not beats(second, first)
    assert not beats(second, first, ANY_FOUR)


def test_dog_is_lead_only_s_dog_1() -> None:
    dog = one("DOG")
    assert beats(dog, None)
    assert not beats(dog, one("2j"))
    assert not beats(dog, one("MJ"))
    assert not beats(one("2j"), dog)
    assert not beats(one("PH"), dog)


def test_no_bomb_on_the_dog_s_bomb_4() -> None:
    """S-BOMB-4 / S-DOG-1: no bomb may follow the Dog."""
    dog = one("DOG")
    assert not beats(one("5j 5s 5p 5t"), dog)
    assert not beats(one("3p 4p 5p 6p 7p"), dog)


def test_two_mah_jongs_are_no_combination() -> None:
    """S-COMB-1: the Mah Jong is a single card; two of them (full two decks) are nothing."""
    assert recognize(m("MJ MJ")) == []
    assert recognize(m("MJ MJ 2j 3s 4p 5t")) == []


def test_bombs_beat_every_non_bomb_s_bomb_3() -> None:
    four = one("2j 2s 2p 2t")
    flush = one("2p 3p 4p 5p 6p")
    for text in (
        "Aj",
        "DR",
        "PH",
        "MJ",
        "Aj As",
        "Kj Ks Kp",
        "Aj As Ap Kt Kj",
        "10j Js Qp Kt Aj",
        "9j 9s 10p 10t Jj Js Qp Qt Kj Ks Aj As",
    ):
        top = one(text)
        assert beats(four, top) and beats(flush, top), text
        assert not beats(top, four) and not beats(top, flush), text


def test_straight_flush_beats_any_four_s_bomb_2() -> None:
    assert beats(one("2p 3p 4p 5p 6p"), one("Aj As Ap At"))
    assert not beats(one("Aj As Ap At"), one("2p 3p 4p 5p 6p"))


def test_longer_straight_flush_beats_shorter_s_bomb_2() -> None:
    assert beats(one("2p 3p 4p 5p 6p 7p"), one("9j 10j Jj Qj Kj"))
    assert not beats(one("9j 10j Jj Qj Kj"), one("2p 3p 4p 5p 6p 7p"))


def test_equal_length_straight_flush_by_top_card_s_bomb_2() -> None:
    assert beats(one("3s 4s 5s 6s 7s"), one("2p 3p 4p 5p 6p"))
    assert not beats(one("2s 3s 4s 5s 6s"), one("2p 3p 4p 5p 6p"))
    assert not beats(one("2s 3s 4s 5s 6s"), one("3p 4p 5p 6p 7p"))


def test_fours_by_rank_s_bomb_2() -> None:
    assert beats(one("9j 9s 9p 9t"), one("8j 8s 8p 8t"))
    assert not beats(one("8j 8s 8p 8t"), one("9j 9s 9p 9t"))
    # Two decks: the same rank again does not beat it (strictly higher).
    assert not beats(one("9j 9s 9p 9t"), one("9j 9s 9p 9t"))


def test_non_bomb_never_beats_a_bomb_s_bomb_3() -> None:
    four = one("3j 3s 3p 3t")
    assert not beats(one("DR"), four)
    assert not beats(one("Aj As"), four)
    assert not beats(one("4j 4s 4p Aj As"), four)


def test_describe_names_kind_and_phoenix() -> None:
    first = recognize(m("5j 6s 7p 8t PH"))[0]
    assert "straight" in first.describe() and "Phoenix" in first.describe()
    assert "Dragon" in one("DR").describe()
