"""One name per kind of combination (S-COMB-1, S-BOMB-1): events carry it, and every
place people read a kind (``Combination.describe``, the CLI, the web page's labels)
shows that name with spaces (``tc.kind_label``)."""

from __future__ import annotations

import pytest

import tichu_core as tc
from tichu_core.frontends.web.protocol import legal_for

EXAMPLES = {
    "single": "Kj",
    "pair": "5j 5s",
    "triple": "7j 7s 7p",
    "steps": "3j 3s 4p 4t",
    "full_house": "8j 8s 8p 2j 2s",
    "straight": "5j 6s 7p 8t 9j",
    "dog": "DOG",
    "four_bomb": "9j 9s 9p 9t",
    "straight_flush": "5j 6j 7j 8j 9j",
}


def mask(text: str) -> int:
    total = 0
    for card in tc.parse_cards(text):
        total |= 1 << int(card)
    return total


def test_every_standard_kind_has_an_example() -> None:
    assert {tc.Kind(k).name.lower() for k in tc.Kind} == set(EXAMPLES)


@pytest.mark.parametrize(("name", "cards"), EXAMPLES.items())
def test_describe_uses_the_events_name(name: str, cards: str) -> None:
    (combination,) = tc.recognize(mask(cards))
    assert tc.is_standard_kind(combination.kind)
    assert tc.Kind(combination.kind).name.lower() == name
    assert combination.describe().startswith(tc.kind_label(name))


def test_kind_label_is_the_name_with_spaces() -> None:
    assert tc.kind_label("four_bomb") == "four bomb"
    assert tc.kind_label("straight_flush") == "straight flush"
    assert tc.kind_label("full_house") == "full house"


def test_a_played_event_and_the_web_label_name_the_kind_alike() -> None:
    """S-BOMB-1: a four-of-a-kind bomb played as a lead: the event's name, the web
    page's label for the listed play and describe() agree."""
    bomb = ["9j", "9s", "9p", "9t", "MJ"]
    rest = [c for c in tc.load_variant("standard").deck_codes if c not in bomb]
    # Seat 0 holds the bomb and the Mah Jong (it leads, S-EX-2); the rest in deck order.
    deal = [bomb + rest[:9], rest[9:23], rest[23:37], rest[37:51]]
    game = tc.Game(tc.load_variant("standard"), deals=[deal])
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    for seat in range(4):
        given = dict.fromkeys((s for s in range(4) if s != seat), "")
        hand = game.observation(game.player_at(seat)).hand
        pushed = [c for c in hand if c not in ("9j", "9s", "9p", "9t", "MJ")][:3]
        game.apply(tc.Push(seat, dict(zip(given, pushed, strict=True))))
    seat = game.turn
    assert seat is not None
    view = game.observation(game.controller(seat))
    legal = legal_for(game, seat, view)
    bombs = [
        a
        for a in legal["actions"]
        if a["type"] == "play" and sorted(a["cards"].split()) == ["9j", "9p", "9s", "9t"]
    ]
    assert bombs and tc.kind_label("four_bomb") in bombs[0]["label"]
    events = game.apply(tc.Play(seat, "9j 9s 9p 9t"))
    (played,) = [e for e in events if isinstance(e, tc.Played)]
    assert played.combination == "four_bomb" and played.bomb
