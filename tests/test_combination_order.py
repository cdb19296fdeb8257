"""A house order: what beats what changed by the ``tichu_combinations`` hook.

`Combinations.ordering(beats)` puts a function before the rules of S-COMB-3 and
S-BOMB-2; the seat's plays on a trick are then every play of its hand that the order
lets beat the top, of any kind. Here: a longer straight beats any shorter one.
"""

from __future__ import annotations

import pytest
from scenario import deal, listed, play, plugin_with, refused

import tichu_core as tc
from tichu_core.cardplay.cards import mask_of, parse_cards
from tichu_core.cardplay.combinations import PlayTuple, recognize
from tichu_core.cardplay.kinds import Combinations
from tichu_core.cardplay.moves import DEFAULT_MOVE_RULES, plays
from tichu_core.rules.hookspecs import hookimpl
from tichu_core.rules.playrules import PlayRules

QUICK: dict[str, object] = {"calls.grand_tichu": False, "exchange.targets": "none"}
HANDS = [
    "MJ 7j 8s 9p 10t Jj 2j 2s 3j 4j 5j 6j Qp Kp",
    "2p 3s 4p 5s 6p 7s 3p 4s 5p 6s 2t 3t Kt At",
    "7p 8j 8p 9j 9s 10j 10s Jp Js Qj Qs Kj Ks DOG",
    "PH DR Aj As Ap 4t 5t 6t 7t 8t 9t 10p Jt Qt",
]


def longer_straights(play: PlayTuple, top: PlayTuple) -> bool | None:
    """S-COMB-3 changed: a longer straight beats any shorter one."""
    straight = tc.Kind.STRAIGHT
    if play[0] == straight and top[0] == straight and play[1] > top[1]:
        return True
    return None  # everything else as the rules say


@pytest.fixture
def house(monkeypatch: pytest.MonkeyPatch) -> tc.Game:
    @hookimpl
    def tichu_combinations(combinations: Combinations) -> Combinations:
        return combinations.ordering(longer_straights)

    plugin_with(monkeypatch, "house_order.straights", tichu_combinations)
    variant = tc.load_variant(
        "standard", {**QUICK, "plugins": ["standard", "house_order.straights"]}, allow_imports=True
    )
    return tc.Game(variant, deals=[deal(HANDS)])


def test_a_longer_straight_beats_a_higher_shorter_one(house: tc.Game) -> None:
    """S-COMB-3 (standard): 2..7 (six cards) cannot go on 7..J (five). With the order it
    may, and the five-card straight 3..7 still cannot (shorter, and not higher)."""
    standard = tc.Game(tc.load_variant("standard", QUICK), deals=[deal(HANDS)])
    for game in (standard, house):
        play(game, 0, "7j 8s 9p 10t Jj")
    assert not listed(standard, 1, "2p 3s 4p 5s 6p 7s")
    refused(standard, tc.Play(1, "2p 3s 4p 5s 6p 7s"), "S-COMB-3")
    assert listed(house, 1, "2p 3s 4p 5s 6p 7s")
    assert not listed(house, 1, "3p 4s 5p 6s 7s")
    play(house, 1, "2p 3s 4p 5s 6p 7s")
    (top,) = [entry for entry in house.observation(None).trick if entry["seat"] == 1]
    assert top["combination"] == "straight"


def test_with_an_order_the_plays_are_every_play_the_order_lets_beat_the_top() -> None:
    rules = PlayRules(DEFAULT_MOVE_RULES, Combinations().ordering(longer_straights))
    hand = mask_of(parse_cards("2p 3s 4p 5s 6p 7s 9j 9s PH Kt"))
    top = recognize(mask_of(parse_cards("7j 8s 9p 10t Jj")))[0]
    found = rules.plays(hand, top)
    assert len(found) == len(set(found))
    assert {p for p in found if p[0] == tc.Kind.STRAIGHT} == {
        p for p in plays(hand, None) if p[0] == tc.Kind.STRAIGHT and p[1] > 5
    } | {p for p in plays(hand, top) if p[0] == tc.Kind.STRAIGHT}
    assert all(rules.beats(p, top) for p in found)
    # Other kinds keep their order: on a single, the Phoenix is valued against it (S-COMB-5).
    single = recognize(mask_of(parse_cards("Kj")))[0]
    assert rules.plays(hand, single) == plays(hand, single)
