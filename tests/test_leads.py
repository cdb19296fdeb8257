"""A lead's plays counted by kind and built when read (``tichu_core.cardplay.leads``).

The referee lists a lead of the standard kinds as a ``LeadPlays``: its length is
counted from the rank bytes without building a play, and a play is built (a kind at
a time, or read off a table) when asked for. Everything here holds it to
``moves.lead_plays``, the eager generator, which the golden and oracle tests check
against the rules (S-COMB-*, S-BOMB-1, GS-4).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tichu_core as tc
from tichu_core.cardplay import leads
from tichu_core.cardplay.cards import deck_mask, iter_cards, mask_of, parse_cards
from tichu_core.cardplay.moves import MoveRules, lead_plays
from tichu_core.rules.playrules import PlayRules

ONE_DECK = list(iter_cards(deck_mask(1)))
TWO_DECKS = list(iter_cards(deck_mask(2)))


@st.composite
def hands(draw: st.DrawFn) -> tuple[int, MoveRules]:
    """A hand of 1 to 28 cards of one or two decks, and either four-of-a-kind rule."""
    deck = draw(st.sampled_from([ONE_DECK, TWO_DECKS]))
    cards = draw(st.lists(st.sampled_from(deck), min_size=1, max_size=28, unique=True))
    distinct = draw(st.booleans())
    return mask_of(cards), MoveRules(four_distinct_suits=distinct)


def _check(hand: int, rules: MoveRules) -> None:
    expected = lead_plays(hand, rules)
    parts = [leads.lead_part(hand, rules, part) for part in range(leads.PARTS)]
    assert leads.lead_counts(hand, rules) == [len(part) for part in parts]
    assert [play for part in parts for play in part] == expected
    listing = leads.LeadPlays(hand, rules)
    assert len(listing) == len(expected)
    assert [listing[i] for i in range(len(listing))] == expected
    assert list(listing) == expected


@settings(max_examples=400, deadline=None)
@given(hands())
def test_every_count_and_every_play_is_the_generators(case: tuple[int, MoveRules]) -> None:
    _check(*case)


def test_the_hands_that_list_the_most_runs_s_comb_4() -> None:
    """Long runs with and without the Phoenix, the Mah Jong as a straight's 1, steps,
    full houses, bombs and the Dog: every part in its place."""
    for text in (
        "2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj Aj PH",  # the worst case of a lead
        "MJ 2s 3p 4t 5j 6s 7p 8t 9j Ts Jp Qt Kj PH",
        "2j 2s 3p 3t 4j 4s 5p 5t 6j 6s 7p 7t 8j PH",  # long steps, with the Phoenix
        "5j 5s 5p 9j 9s 9p 9t Kj Ks DR DOG PH MJ 2j",  # full houses beside a bomb
        "3j 3s 3p 3t 4j 4s 4p 5j 5s 6j 7j 8j 9j Tj",  # a straight flush, full houses
    ):
        _check(mask_of(parse_cards(text)), MoveRules())
    rng = random.Random(11)
    for _ in range(200):  # two decks: pairs of one card, long runs of several ways
        _check(mask_of(rng.sample(TWO_DECKS, 24)), MoveRules(four_distinct_suits=False))


def test_a_listing_behaves_as_a_read_only_sequence() -> None:
    hand = mask_of(parse_cards("2j 3s 4p 5t 6j 6s 9j 9s 9p PH DR"))
    expected = lead_plays(hand, MoveRules())
    listing = leads.LeadPlays(hand, MoveRules())
    assert listing[-1] == expected[-1]
    assert listing[3:9:2] == expected[3:9:2]
    assert listing[expected.index(expected[20])] == expected[20]
    assert expected[7] in listing
    assert listing.index(expected[7]) == 7
    with pytest.raises(IndexError):
        listing[len(expected)]
    with pytest.raises(IndexError):
        listing[-len(expected) - 1]
    twin = listing.twin()
    assert list(twin) == expected and twin is not listing


def test_the_standard_play_rules_list_a_lead_lazily_and_nothing_else() -> None:
    rules = PlayRules(MoveRules())
    hand = mask_of(parse_cards("2j 3s 4p 5t 6j 9j 9s"))
    top = tc.Combination(1, 1, 5, mask_of(parse_cards("5j")))
    assert isinstance(rules.listed_plays(hand, None), leads.LeadPlays)
    assert list(rules.listed_plays(hand, None)) == rules.plays(hand, None)
    assert rules.listed_plays(hand, top) == rules.plays(hand, top)


def test_play_rules_that_list_their_own_plays_are_asked_for_them() -> None:
    """A subclass overriding ``plays`` (tichu_play_rules) lists leads its own way."""

    class SinglesOnly(PlayRules):
        def plays(self, hand: int, top: tc.Combination | None) -> list:  # type: ignore[override]
            return [play for play in super().plays(hand, top) if play[3].bit_count() == 1]

    rules = SinglesOnly(MoveRules())
    hand = mask_of(parse_cards("2j 3s 4p 5t 6j 9j 9s"))
    listed = rules.listed_plays(hand, None)
    assert type(listed) is list and [p[3].bit_count() for p in listed] == [1] * 7


def test_a_game_lists_a_lead_the_referee_then_accepts() -> None:
    """The bot's listing and the referee's are two objects; a play read from one is
    applied as listed (S-TRICK-1), and every index reads the generator's play."""
    game = tc.Game("standard", seed=4)
    rng = random.Random(4)
    leads_seen = 0
    while not game.is_over and leads_seen < 40:
        seat = game.waiting_for[0]
        actions = game.legal_actions(seat)
        seen = game.observation(seat)
        if game.turn == seat and seen.phase == "play" and not seen.trick and seen.wish is None:
            hand = mask_of(parse_cards(" ".join(seen.hands[seat])))
            listed = [a for a in actions if isinstance(a, tc.Play)]
            assert len(listed) == len(lead_plays(hand)) == len(actions.combinations)
            leads_seen += 1
        action = actions[rng.randrange(len(actions))]
        while isinstance(action, tc.Tichu | tc.GrandTichu) and getattr(action, "call", True):
            action = actions[rng.randrange(len(actions))]
        game.apply(action)
    assert leads_seen == 40
