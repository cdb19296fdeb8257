"""Card notation, points and deck masks (docs/api.md "Cards", S-DECK-1, S-SCORE-1, GS-2)."""

from __future__ import annotations

import random

import pytest

from tichu_core.cardplay import cards
from tichu_core.cardplay.cards import (
    CARDS,
    SECOND_COPY,
    Card,
    cards_of,
    codes_of,
    deck_mask,
    format_cards,
    format_mask,
    indexes_of,
    mask_of,
    mask_points,
    parse_cards,
    take_cards,
)
from tichu_core.errors import CardError, TichuError

NORMAL_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
ALL_CODES = [r + s for r in NORMAL_RANKS for s in "jspt"] + ["MJ", "DOG", "PH", "DR"]


def popcount(mask: int) -> int:
    return bin(mask).count("1")


# --- notation -----------------------------------------------------------------


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_canonical_code_round_trips(code: str) -> None:
    """docs/api.md, cards: str(card) is the canonical code it was parsed from."""
    (card,) = parse_cards(code)
    assert str(card) == code
    assert card.code == code


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("qp", "Qp"),
        ("QP", "Qp"),
        ("aJ", "Aj"),
        ("tj", "10j"),
        ("Tt", "10t"),
        ("10S", "10s"),
        ("mj", "MJ"),
        ("Dog", "DOG"),
        ("ph", "PH"),
        ("dR", "DR"),
        ("kT", "Kt"),
    ],
)
def test_input_is_case_insensitive_and_accepts_t_for_ten(text: str, canonical: str) -> None:
    """docs/api.md, cards: case-insensitive input, `T` accepted for 10, canonical output."""
    assert [str(c) for c in parse_cards(text)] == [canonical]


def test_parse_a_list_and_format_it_back() -> None:
    text = "2j 10t Qp As MJ DOG PH DR"
    parsed = parse_cards(text)
    assert format_cards(parsed) == text
    assert len(parsed) == 8
    assert [str(c) for c in parse_cards(text.lower())] == text.split()
    assert format_cards(parse_cards(["tj", "Jj"])) == "10j Jj"


def test_card_is_an_int_with_rank_suit_copy() -> None:
    (five,) = parse_cards("5p")
    assert isinstance(five, int) and isinstance(five, Card)
    assert (five.rank, five.suit, five.copy, five.is_special) == (5, 2, 0, False)
    twin = CARDS[five + SECOND_COPY]
    assert (twin.rank, twin.suit, twin.copy) == (5, 2, 1)
    mj, dog, ph, dr = parse_cards("MJ DOG PH DR")
    assert mj.rank == 1 and dr.rank == 15
    assert all(c.is_special and c.suit is None for c in (mj, dog, ph, dr))
    assert [c.suit for c in parse_cards("Aj As Ap At")] == [0, 1, 2, 3]


def test_both_copies_share_one_code() -> None:
    """docs/api.md, cards / GS-4: with two decks the two copies of a card share one code."""
    two_decks = deck_mask(2)
    for card in cards_of(two_decks):
        if card.copy == 1:
            first = CARDS[card - SECOND_COPY]
            assert str(card) == str(first)
            assert card != first
    assert len(set(codes_of(two_decks))) == 56
    assert repr(CARDS[parse_cards("5j")[0] + SECOND_COPY]) == "Card('5j', copy=1)"


@pytest.mark.parametrize("token", ["1j", "11j", "Xj", "2x", "PHX", "10", "j", "5jj", "DRAGON"])
def test_malformed_token_raises_card_error_naming_it(token: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(f"2j {token} 3s")
    assert token in str(info.value)
    assert info.value.token == token
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, TichuError)


def test_card_error_is_a_value_error_subclass() -> None:
    assert issubclass(CardError, ValueError)
    with pytest.raises(ValueError, match="Zz"):
        parse_cards("Zz")


def test_out_of_range_index_is_rejected() -> None:
    with pytest.raises(CardError, match="200"):
        parse_cards([200])


def test_masks_and_formatting() -> None:
    hand = parse_cards("Aj 2s PH 5t")
    mask = mask_of(hand)
    assert popcount(mask) == 4
    assert sorted(cards_of(mask)) == sorted(hand)
    # Highest first for display; lowest bit first for codes_of.
    assert format_mask(mask) == "Aj 5t 2s PH"
    assert codes_of(mask) == ["PH", "2s", "5t", "Aj"]
    assert list(cards.iter_cards(mask)) == cards_of(mask)


# --- points (S-SCORE-1) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "points"),
    [("5j", 5), ("5t", 5), ("10p", 10), ("Ks", 10), ("DR", 25), ("PH", -25)]
    + [(c, 0) for c in ("2j", "4s", "6p", "9t", "Jj", "Qs", "Ap", "MJ", "DOG")],
)
def test_card_points_s_score_1(code: str, points: int) -> None:
    """S-SCORE-1: 5 → 5, 10 and K → 10, Dragon +25, Phoenix −25, the rest 0."""
    (card,) = parse_cards(code)
    assert card.points == points
    assert mask_points(mask_of([card])) == points


def test_the_points_of_any_mask_are_the_sum_of_its_cards_s_score_1() -> None:
    """S-SCORE-1: mask_points (read byte by byte) adds up each card's points, for any
    set of cards of two decks."""
    import random

    from tichu_core.cardplay.cards import CARD_COUNT, CARD_POINTS

    rng = random.Random(12)
    for _ in range(2000):
        mask = rng.getrandbits(CARD_COUNT)
        assert mask_points(mask) == sum(CARD_POINTS[i] for i in range(CARD_COUNT) if mask >> i & 1)


def test_a_deck_is_worth_100_s_score_1() -> None:
    """S-SCORE-1: 100 points in all per hand (each deck)."""
    assert mask_points(deck_mask()) == 100
    assert mask_points(deck_mask(2)) == 200
    assert mask_points(deck_mask(2, ["DOG", "DOG", "MJ"])) == 200


# --- decks (S-DECK-1, GS-2) ------------------------------------------------------


def test_one_deck_has_56_cards_s_deck_1() -> None:
    deck = deck_mask()
    assert popcount(deck) == 56
    assert sorted(codes_of(deck)) == sorted(ALL_CODES)
    assert all(card.copy == 0 for card in cards_of(deck))


def test_two_decks_without_dogs_and_second_mah_jong_gs_2() -> None:
    """GS-2: two decks without both Dogs and the second Mah Jong: 109 cards."""
    deck = deck_mask(2, ["DOG", "DOG", "MJ"])
    assert popcount(deck) == 109
    codes = codes_of(deck)
    assert "DOG" not in codes
    assert codes.count("MJ") == 1
    assert codes.count("PH") == codes.count("DR") == codes.count("7s") == 2
    assert popcount(deck_mask(2)) == 112
    assert popcount(deck_mask(1, ["DOG"])) == 55


def test_deck_mask_rejects_bad_requests() -> None:
    with pytest.raises(ValueError):
        deck_mask(3)
    with pytest.raises(CardError, match="DOG"):
        deck_mask(1, ["DOG", "DOG"])


# --- take_cards ------------------------------------------------------------------


def test_take_cards_takes_a_held_copy() -> None:
    (five,) = parse_cards("5j")
    first, second = 1 << five, 1 << (five + SECOND_COPY)
    both = first | second | mask_of(parse_cards("6s"))
    assert take_cards("5j", both) == first
    assert take_cards("5j 5J", both) == first | second
    assert take_cards(["5j", "6s"], both) == first | mask_of(parse_cards("6s"))
    # Only the second copy held: that is the one taken.
    assert take_cards("5j", second) == second


def test_take_cards_rejects_cards_not_held() -> None:
    (five,) = parse_cards("5j")
    first = 1 << five
    with pytest.raises(CardError, match="5j"):
        take_cards("5j 5j", first)
    with pytest.raises(CardError, match="6s"):
        take_cards("6s", first)
    with pytest.raises(CardError, match="Zq"):
        take_cards("Zq", first)


@pytest.mark.parametrize("seed", range(5))
def test_mask_of_sets_the_bit_of_every_card_number_across_the_word_boundary(seed: int) -> None:
    """mask_of gathers card numbers below and above bit 62 apart (machine words when
    compiled): every number, either side, in any order, is its own bit; a negative one
    is refused as a negative shift is."""
    rng = random.Random(seed)
    for size in (0, 1, 2, 14, 56, 112):
        numbers = rng.sample(range(cards.CARD_COUNT), size)
        assert mask_of(numbers) == sum(1 << n for n in numbers)
    assert mask_of([61, 62, 63, 111]) == (1 << 61) | (1 << 62) | (1 << 63) | (1 << 111)
    with pytest.raises(ValueError):
        mask_of([-1])


@pytest.mark.parametrize("seed", range(5))
def test_indexes_of_takes_a_mask_apart_lowest_first_across_the_word_boundary(seed: int) -> None:
    rng = random.Random(seed)
    for size in (0, 1, 2, 14, 56, 112):
        numbers = rng.sample(range(cards.CARD_COUNT), size)
        assert indexes_of(sum(1 << n for n in numbers)) == sorted(numbers)
    assert indexes_of((1 << 61) | (1 << 62) | (1 << 111)) == [61, 62, 111]
    for wider in (-1, 1 << cards.CARD_COUNT):
        with pytest.raises(OverflowError):
            indexes_of(wider)
