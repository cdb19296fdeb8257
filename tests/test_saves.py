"""Saves made by an earlier engine (tests/data/save_v1_*.json, written before issue 23
by random play): each loads and replays exactly, or is refused saying why; never is it
loaded into a different game silently."""

from __future__ import annotations

import hashlib
import json
import pickle
import random
from pathlib import Path

import pytest

import tichu_core as tc

DATA = Path(__file__).parent / "data"
REPLAYS = json.loads((DATA / "save_v1_replays.json").read_text())


def event_log_digest(game: tc.Game) -> str:
    log = json.dumps([e.model_dump(mode="json") for e in game.event_log], sort_keys=True)
    return hashlib.sha256(log.encode()).hexdigest()


@pytest.mark.parametrize("name", ["standard", "tientsin"])
def test_a_version_1_save_of_an_unchanged_variant_replays_exactly(name: str) -> None:
    text = (DATA / f"save_v1_{name}.json").read_text()
    assert json.loads(text)["version"] == 1
    game = tc.Game.from_json(text)
    expected = REPLAYS[name]
    assert game.hand_index == expected["hand_index"]
    assert game.scores == expected["scores"]
    assert len(game.event_log) == expected["events"]
    assert event_log_digest(game) == expected["event_log_sha256"]
    # Saved again, it is a save of this engine's version, and restores the same game.
    again = json.loads(game.to_json())
    assert again["version"] == 2
    assert tc.Game.from_json(game.to_json()).to_json() == game.to_json()


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("threechu", "its variant has a dummy seat (Threechu)"),
        ("grand_seigneur", "its variant seats the table by rank (Grand Seigneur)"),
    ],
)
def test_a_version_1_save_whose_rules_changed_is_refused_saying_why(name: str, why: str) -> None:
    """T3-8, GS-3, E-5 changed how these games unfold from the same seed and actions."""
    text = (DATA / f"save_v1_{name}.json").read_text()
    with pytest.raises(tc.InvalidAction) as error:
        tc.Game.from_json(text)
    message = str(error.value)
    assert "saved game version 1 cannot be replayed" in message and why in message
    assert "changed in version 2" in message


def test_a_version_1_save_seated_by_rank_is_refused() -> None:
    """GS-3: any table seated by rank is dealt by the Wretch now."""
    game = tc.Game(tc.load_variant("standard", {"seating.by_rank": True}), seed=1)
    data = json.loads(game.to_json())
    data["version"] = 1
    with pytest.raises(tc.InvalidAction, match="seats the table by rank"):
        tc.Game.from_json(json.dumps(data))


def test_an_unknown_save_version_is_refused() -> None:
    data = json.loads(tc.Game("standard", seed=1).to_json())
    for version in (0, 3):
        data["version"] = version
        with pytest.raises(tc.InvalidAction, match="this engine reads 1 to 2"):
            tc.Game.from_json(json.dumps(data))


@pytest.mark.parametrize("variant", ["standard", "threechu", "tientsin", "grand_seigneur"])
def test_legal_actions_pickle_as_the_actions_they_list(variant: str) -> None:
    """A listing travels to a bot in another process (the web server's bot worker): it
    pickles and unpickles as the same actions, its plays too, in every phase and both
    builds (a compiled class is not picklable by default: its constructor is called
    without arguments)."""
    game = tc.Game(variant, seed=3)
    rng = random.Random(3)
    for _ in range(300):
        if game.is_over:
            break
        seat = game.waiting_for[0]
        legal = game.legal_actions(seat)
        back = pickle.loads(pickle.dumps(legal))
        assert len(back) == len(legal)
        assert [back[i] for i in range(0, len(legal), 7)] == [
            legal[i] for i in range(0, len(legal), 7)
        ]
        assert list(back.combinations) == list(legal.combinations)
        game.apply(back[rng.randrange(len(back))])  # an unpickled action is accepted
