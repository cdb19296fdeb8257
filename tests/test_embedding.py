"""An embedder's small things (docs/api.md): the version, values read back from JSON,
one answer type for `apply` and `events_for`, readable reprs."""

from __future__ import annotations

import importlib.metadata
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import tichu_core as tc
from tichu_core.frontends.bots import GreedyBot, play_match

ROOT = Path(__file__).resolve().parents[1]


def _played(seed: int = 4) -> tc.Game:
    game = tc.Game(tc.load_variant("standard", overrides={"game.hands": 2}), seed=seed)
    play_match(game, [GreedyBot(seat) for seat in range(4)])
    return game


def test_the_version_is_the_package_metadata() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert tc.__version__ == importlib.metadata.version("tichu") == project["project"]["version"]
    done = subprocess.run(
        [sys.executable, "-m", "tichu_core", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"tichu {tc.__version__}\n"


def test_every_event_reads_back_from_json_as_itself() -> None:
    game = _played()
    log = game.event_log
    assert {event.type for event in log} >= {"hand_started", "played", "trick_won", "match_over"}
    for event in log:
        again = tc.event_from_json(event.model_dump_json())
        assert type(again) is type(event) and again.model_dump() == event.model_dump()
        assert tc.event_from_json(event.model_dump(mode="json")).model_dump() == event.model_dump()
        if event.visible_to is None:  # who may see a private event is not in its JSON
            assert again == event and again.seen_by(3)
        else:
            assert not again.seen_by(event.visible_to[0])


def test_observations_and_hand_results_read_back_from_json() -> None:
    game = tc.Game("standard", seed=8)
    rng = random.Random(8)
    while not game.hand_results:
        actions = game.legal_actions(game.waiting_for[0])
        game.apply(actions[rng.randrange(len(actions))])
        for player in (None, 0, 2):
            view = game.observation(player)
            assert tc.observation_from_json(view.model_dump_json()) == view
    (result,) = game.hand_results
    assert tc.hand_result_from_json(result.model_dump_json()) == result
    assert tc.hand_result_from_json(result.model_dump(mode="json")) == result


@pytest.mark.parametrize(
    ("reader", "data", "message"),
    [
        (tc.event_from_json, "{", "an event is not valid JSON"),
        (tc.event_from_json, "[1]", "an event is a JSON object, got [1]"),
        (tc.event_from_json, {"type": "played"}, "malformed played event: hand: Field required"),
        (tc.event_from_json, {"type": "won"}, "an event's type must be one of"),
        (tc.observation_from_json, {"player": 0}, "malformed observation: seats: Field required"),
        (tc.hand_result_from_json, 3, "a hand result is a JSON object, got 3"),
    ],
)
def test_what_does_not_read_back_says_why(reader: object, data: object, message: str) -> None:
    with pytest.raises(tc.InvalidAction) as raised:
        reader(data)  # type: ignore[operator]
    assert message in str(raised.value)


def test_apply_and_events_for_answer_the_same_type() -> None:
    game = tc.Game("standard", seed=3)
    answer = game.apply(tc.GrandTichu(0, False))
    mine = game.events_for(0)
    assert type(answer) is type(mine) is tc.Events
    assert answer == [mine[-1]] and mine[:1] == game.event_log[:1]
    assert game.events_for(0, since=len(mine)) == []


def test_reprs_read_as_what_they_are() -> None:
    game = tc.Game("standard", seed=12)
    assert repr(game) == (
        "<Game standard seed=12: hand 0, grand_tichu phase, waiting for [0, 1, 2, 3]; "
        "scores [0, 0]>"
    )
    actions = [
        tc.GrandTichu(0, False),
        tc.Tichu(1),
        tc.Push(2, {3: "2j", 0: "3j", 1: "4j"}),
        tc.Play(3, "5s 5j"),
        tc.Play(3, "5j PH", phoenix="5"),
        tc.Pass(0),
        tc.Wish(0, "7"),
        tc.GiveTrick(1, 2),
        tc.GiveLead(2, 0),
        tc.AnotherHand(0, True),
    ]
    assert [repr(action) for action in actions][:5] == [
        "GrandTichu(seat=0, call=False)",
        "Tichu(seat=1)",
        "Push(seat=2, cards={0: '3j', 1: '4j', 3: '2j'})",
        "Play(seat=3, cards='5s 5j')",
        "Play(seat=3, cards='5j PH', phoenix='5')",
    ]
    for action in actions:  # each repr is the call that makes the action
        assert eval(repr(action), vars(tc)) == action
    game.apply(actions[0])
    (hand_started, *_) = game.event_log
    assert repr(hand_started) == (
        "HandStarted(hand=0, dealer=0, players=[0, 1, 2, 3], hand_sizes=[14, 14, 14, 14])"
    )
    dealt = game.event_log[1]
    assert repr(dealt).startswith("CardsDealt(hand=0, visible_to=[0], seat=0, cards=[")
    over = _played()
    assert repr(over).startswith("<Game standard seed=4: over after 2 hands, winners [")
    assert "play-out" in repr(game.copy(playout=True))
