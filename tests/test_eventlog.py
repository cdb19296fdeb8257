"""Events built when first read (``tichu_core.game.eventlog``): what ``apply`` answers
reads like the list of its events, an event read late is the one read at once, and
every read of an event, from any log that holds it, gets the same object."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Sequence

import pytest
from scenario import EVERY_TABLE, random_action

import tichu_core as tc

VARIANTS = EVERY_TABLE


def _dumps(events: Sequence[tc.Event]) -> list[dict[str, object]]:
    return [event.model_dump() for event in events]


@pytest.mark.parametrize(("name", "overrides"), VARIANTS)
def test_events_read_late_are_the_events_read_at_once(
    name: str, overrides: dict[str, object] | None
) -> None:
    """Two games of one seed take the same random actions; one reads each action's
    events at once, the other nothing until two hands are over. Every event, the
    players' own streams and each apply's answer agree field for field: a deferred
    event keeps what it is made of, whatever the hand does after."""
    variant = tc.load_variant(name, overrides)
    eager, lazy = tc.Game(variant, seed=11), tc.Game(variant, seed=11)
    rng_eager, rng_lazy = random.Random(5), random.Random(5)
    at_once: list[dict[str, object]] = _dumps(eager.event_log)
    answers: list[tc.Events] = []
    while len(eager.hand_results) < 2 and not eager.is_over:
        at_once += _dumps(eager.apply(random_action(eager, rng_eager)))
        answers.append(lazy.apply(random_action(lazy, rng_lazy)))
    assert lazy.actions == eager.actions
    assert _dumps(lazy.event_log) == at_once == _dumps(eager.event_log)
    start = len(at_once) - sum(len(events) for events in answers)
    assert [e for events in answers for e in _dumps(events)] == at_once[start:]
    for player in [*range(variant.players), None]:
        assert _dumps(lazy.events_for(player)) == _dumps(eager.events_for(player))


def test_apply_answers_a_read_only_sequence_that_reads_like_its_list() -> None:
    game = tc.Game("standard", seed=4)
    rng = random.Random(2)
    events = game.apply(random_action(game, rng))
    while len(events) < 2:  # an action with more than one event (the last card dealt)
        events = game.apply(random_action(game, rng))
    as_list = list(events)
    assert isinstance(events, tc.Events)
    assert isinstance(events, Sequence)
    assert all(isinstance(event, tc.Event) for event in as_list)
    assert len(events) == len(as_list) and bool(events)
    assert events == as_list and as_list == events and not events != as_list  # noqa: SIM202 (the != itself)
    assert events == tc.Events(list(as_list))
    assert events != as_list[:-1] and events != tuple(as_list)
    assert events[0] is as_list[0] and events[-1] is as_list[-1]
    assert events[1:] == as_list[1:] and type(events[1:]) is list
    assert [*events] == as_list and list(reversed(events)) == as_list[::-1]
    assert as_list[-1] in events and events.index(as_list[-1]) == len(as_list) - 1
    assert events.count(as_list[0]) == 1
    assert events + [as_list[0]] == [*as_list, as_list[0]]  # noqa: RUF005 (+ itself)
    assert [as_list[0]] + events == [as_list[0], *as_list]  # noqa: RUF005
    collected: list[tc.Event] = []
    collected += events
    assert collected == as_list
    assert repr(events) == repr(as_list)
    with pytest.raises(TypeError):
        hash(events)
    with pytest.raises(TypeError):
        events[0] = as_list[0]  # type: ignore[index]
    with pytest.raises(AttributeError):
        events.append(as_list[0])  # type: ignore[attr-defined]
    for twin in (copy.copy(events), copy.deepcopy(events), pickle.loads(pickle.dumps(events))):
        assert type(twin) is tc.Events and twin == as_list


def test_an_event_is_one_object_wherever_it_is_read() -> None:
    """Built once: the answer of apply, the log, a player's stream and a copy made
    before anything was read all hold the same object."""
    game = tc.Game("standard", seed=8)
    rng = random.Random(3)
    answers = [game.apply(random_action(game, rng)) for _ in range(40)]
    twin = game.copy()
    from_answers = [event for events in answers for event in events]
    log = game.event_log
    assert all(a is b for a, b in zip(from_answers, log[-len(from_answers) :], strict=True))
    assert all(a is b for a, b in zip(twin.event_log, log, strict=True))
    for event in game.events_for(None):
        assert any(event is logged for logged in log)


def test_a_playout_answers_no_events() -> None:
    game = tc.Game("standard", seed=8)
    rng = random.Random(3)
    for _ in range(20):
        game.apply(random_action(game, rng))
    playout = game.copy(playout=True)
    events = playout.apply(random_action(playout, rng))
    assert isinstance(events, tc.Events)
    assert len(events) == 0 and events == [] and not events
