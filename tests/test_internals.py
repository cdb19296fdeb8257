"""Engine internals whose mistakes would not show in a rule test."""

from __future__ import annotations

import inspect

import tichu_core as tc
from tichu_core.events import EVENT_TYPES, Played, make_event
from tichu_core.hand import HandState


def test_hand_snapshot_copies_every_field() -> None:
    """apply() is atomic only if the snapshot covers every slot of the hand."""
    source = inspect.getsource(HandState.clone)
    missing = [name for name in HandState.__slots__ if f"other.{name} =" not in source]
    assert missing == []


def test_hand_snapshot_is_independent_of_the_original() -> None:
    game = tc.Game("standard", seed=3)
    before = game.hand.clone()
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    assert before.hands != game.hand.hands
    assert all(decided is None for decided in before.grand_tichu)


def test_fast_events_equal_validated_events() -> None:
    fields = {"hand": 0, "seat": 1, "cards": ["5j"], "combination": "single", "rank": 5.0}
    fast = make_event(Played, dict(fields))
    assert fast == Played(**fields)
    assert fast.model_dump() == Played(**fields).model_dump()


def test_every_event_type_has_a_distinct_type_tag() -> None:
    tags = [event_type.model_fields["type"].default for event_type in EVENT_TYPES]
    assert len(tags) == len(set(tags))
