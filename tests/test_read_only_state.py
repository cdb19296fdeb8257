"""What a ``Game`` hands out cannot change the game (docs/api.md, "Read-only state"):
every property is read-only, lists handed out are copies or read-only lists, and the
values a game keeps (hand results, events, the variant) refuse changes. Each test
tries one kind of change and shows the game exactly as it was."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

import tichu_core as tc
from tichu_core.frozen import FrozenDict, FrozenList


def _finished_hand_game() -> tc.Game:
    """A standard game after its first hand (random play, seeded), in the second."""
    game = tc.Game("standard", seed=21)
    rng = random.Random(21)
    while not game.hand_results:
        actions = game.legal_actions(game.waiting_for[0])
        game.apply(actions[rng.randrange(len(actions))])
    return game


def _state(game: tc.Game) -> dict[str, Any]:
    """Everything a game tells, as plain data."""
    return {
        "json": game.to_json(),
        "scores": list(game.scores),
        "score_lines": list(game.score_lines),
        "results": [r.model_dump_json() for r in game.hand_results],
        "events": [e.model_dump_json() for e in game.event_log],
        "mine": [e.model_dump_json() for e in game.events_for(0)],
        "views": [game.observation(p).model_dump_json() for p in (None, 0, 1, 2, 3)],
        "seed": game.seed,
        "variant": game.variant.model_dump_json(),
        "seats": (game.seats, game.players, game.hand_index, game.turn),
        "who": (game.waiting_for, game.to_act, game.winners, game.is_over, game.outcome),
        "legal": [list(game.legal_actions(s)) for s in range(game.seats)],
    }


@pytest.fixture
def game() -> tc.Game:
    return _finished_hand_game()


@pytest.mark.parametrize(
    "name",
    [
        "variant",
        "rulebook",
        "seed",
        "seats",
        "players",
        "score_lines",
        "scores",
        "hand_results",
        "outcome",
        "is_over",
        "winners",
        "turn",
        "waiting_for",
        "to_act",
        "hand_index",
        "event_log",
        "actions",
    ],
)
def test_no_property_of_a_game_can_be_set(game: tc.Game, name: str) -> None:
    before = _state(game)
    with pytest.raises(AttributeError):
        setattr(game, name, getattr(game, name))
    with pytest.raises(AttributeError):
        delattr(game, name)
    assert _state(game) == before


LIST_CHANGES: list[tuple[str, Callable[[list[Any]], object]]] = [
    ("set an item", lambda values: values.__setitem__(0, 990)),
    ("append", lambda values: values.append(990)),
    ("clear", lambda values: values.clear()),
    ("reverse", lambda values: values.reverse()),
]


@pytest.mark.parametrize("name", ["scores", "score_lines", "winners", "waiting_for", "to_act"])
@pytest.mark.parametrize(("what", "change"), LIST_CHANGES, ids=[w for w, _ in LIST_CHANGES])
def test_a_list_a_game_hands_out_is_a_copy(
    game: tc.Game, name: str, what: str, change: Callable[[list[Any]], object]
) -> None:
    """`s = game.scores; s[0] = 990` changes `s` only."""
    before = _state(game)
    values = getattr(game, name)
    values.append(0)  # never empty, so that every change changes something
    change(values)
    assert _state(game) == before, what


def test_the_action_and_event_lists_are_copies(game: tc.Game) -> None:
    before = _state(game)
    for values in (game.actions, game.event_log):
        values.clear()
    for events in (game.events_for(1), game.events_for(None)):  # as apply's answer
        assert isinstance(events, tc.Events)
        with pytest.raises(AttributeError):
            events.clear()  # type: ignore[attr-defined]
        with pytest.raises(TypeError):
            events[0] = events[1]  # type: ignore[index]
    assert _state(game) == before


def test_hand_results_refuse_every_change(game: tc.Game) -> None:
    before = _state(game)
    results = game.hand_results
    assert isinstance(results, FrozenList) and len(results) == 1
    for change in (
        lambda: results.append(results[0]),
        lambda: results.__setitem__(0, results[0]),
        lambda: results.__delitem__(0),
        lambda: results.clear(),
        lambda: results.extend(results),
    ):
        with pytest.raises(TypeError, match="read-only"):
            change()
    result = results[0]
    for values in (result.scores, result.out_order, result.players, result.card_points):
        with pytest.raises(TypeError, match="read-only"):
            values[0] = 990  # type: ignore[index]
        with pytest.raises(TypeError, match="read-only"):
            values.append(990)  # type: ignore[attr-defined]
    for mapping in (result.calls, result.details):
        with pytest.raises(TypeError, match="read-only"):
            mapping[0] = "tichu"  # type: ignore[index]
        with pytest.raises(TypeError, match="read-only"):
            mapping.clear()  # type: ignore[attr-defined]
    with pytest.raises(ValidationError):  # a frozen model
        result.scores = [990, 0]  # type: ignore[misc]
    assert _state(game) == before


def test_a_hand_result_reads_like_plain_lists_and_dicts(game: tc.Game) -> None:
    """Read-only, yet equal to the plain values; copies change freely; it pickles,
    copies and reads back from JSON as the same value (read-only again)."""
    result = game.hand_results[0]
    assert result.scores == list(result.scores) and sum(result.card_points) == 100
    mine = list(result.scores)
    mine[0] = 990
    assert result.scores != mine
    assert pickle.loads(pickle.dumps(result)) == result == copy.deepcopy(result)
    again = tc.HandResult.model_validate_json(result.model_dump_json())
    assert again == result and isinstance(again.scores, FrozenList)
    assert isinstance(again.calls, FrozenDict)
    assert result.model_dump()["scores"] == list(result.scores)


def test_events_of_the_log_refuse_changes(game: tc.Game) -> None:
    """An event is shared by every reader of the log (event_log, events_for, apply's
    answer): its lists and dicts refuse changes."""
    before = _state(game)
    changed = 0
    for event in game.event_log:
        for value in event.__dict__.values():
            if isinstance(value, list):
                with pytest.raises(TypeError, match="read-only"):
                    value.append("2j")
                changed += 1
            elif isinstance(value, dict):
                with pytest.raises(TypeError, match="read-only"):
                    value[9] = "2j"
                changed += 1
    assert changed > 50
    assert _state(game) == before


def test_observations_are_the_callers_own(game: tc.Game) -> None:
    before = _state(game)
    view = game.observation(0)
    view.scores[0] = 990
    view.hand.clear()
    view.score_lines.clear()
    assert _state(game) == before


def test_the_variant_is_frozen_all_the_way_down() -> None:
    game = tc.Game(tc.load_variant("grand_seigneur", overrides={"players": 7}), seed=3)
    before = _state(game)
    variant = game.variant
    with pytest.raises(ValidationError):
        variant.players = 4  # type: ignore[misc]
    with pytest.raises(ValidationError):
        variant.deck.copies = 1  # type: ignore[misc]
    assert variant.deck.copies_by_players  # GS-2: two decks from 7 players
    for table in (
        variant.deck.copies_by_players,
        variant.deck.without_by_players,
        variant.exchange.rank_cards_by_players,
    ):
        with pytest.raises(TypeError, match="read-only"):
            table["7"] = 1  # type: ignore[assignment]
    assert _state(game) == before
