"""GS-8 (`game.lord_decides`): the Great Lord's `AnotherHand` decision in every front end
that handles the other pending decisions (`GiveLead`, ...): the bots, the terminal, the
RL environment. The rule itself is tested in test_grand_seigneur.py (test_GS_8_...)."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from rich.console import Console

import tichu_core as tc
from tichu_core.frontends.bots import make_bot, play_match
from tichu_core.frontends.cli.terminal import play_game
from tichu_core.frontends.rl import ActionTable, ObservationEncoder, TichuEnv

LORDLY = {"players": 5, "game.lord_decides": True, "game.hands": 4}


def lordly() -> tc.Variant:
    return tc.load_variant("grand_seigneur", LORDLY)


def decisions(game: tc.Game) -> list[tc.AnotherHand]:
    return [a for a in game.actions if isinstance(a, tc.AnotherHand)]


@pytest.mark.parametrize("bot", ["random", "greedy", "heuristic"])
def test_GS_8_bots_decide_as_the_great_lord(bot: str) -> None:
    game = tc.Game(lordly(), seed=4)
    play_match(game, [make_bot(bot, seed=player) for player in range(5)])
    assert game.is_over and game.outcome is not None
    made = decisions(game)
    # After hand 1 (the second) at least one decision; never after the election.
    assert made and all(isinstance(a, tc.AnotherHand) for a in made)
    assert len(game.hand_results) == 2 + sum(a.more for a in made)
    if not made[-1].more:
        assert game.outcome.termination is tc.Termination.LORD_DECIDED
    else:
        assert game.outcome.termination is tc.Termination.HANDS_PLAYED


def test_GS_8_the_greedy_lord_stops_while_ahead_and_plays_on_behind() -> None:
    game = tc.Game(lordly(), seed=4)
    play_match(game, [make_bot("greedy", seed=player) for player in range(5)])
    # Replayed to each decision: the Great Lord's standing then decided it.
    replay = tc.Game(lordly(), seed=4)
    for action in game.actions:
        if isinstance(action, tc.AnotherHand):
            view = replay.observation(replay.controller(action.seat))
            mine = view.scores[view.player]
            ahead = all(t < mine for line, t in enumerate(view.scores) if line != view.player)
            assert action.more is not ahead
        replay.apply(action)


def test_GS_8_a_person_answers_the_great_lords_question() -> None:
    """The terminal asks the Great Lord "another hand?" (yes, Enter, or no)."""
    game = tc.Game(lordly(), seed=2)
    bots = [make_bot("greedy", seed=p) for p in range(5)]
    # Bots play up to the first decision; the person is the Great Lord then.
    while (game.observation(None).pending or {}).get("kind") != "another_hand":
        seat = game.waiting_for[0]
        player = game.controller(seat)
        game.apply(bots[player].choose(game.observation(player), game.legal_actions(seat), seat))
    (lord,) = game.waiting_for
    person = game.controller(lord)
    answers = iter(["maybe", "no"])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    output = io.StringIO()
    play_game(game, person, ask=ask, console=Console(file=output, width=120))
    text = output.getvalue()
    assert "is the Great Lord: another hand, or the end of the match?" in text
    assert all("another hand? >" in prompt for prompt in asked) and len(asked) == 2
    assert "not accepted: answer yes or no" in text
    assert game.is_over and game.outcome is not None
    assert game.outcome.termination is tc.Termination.LORD_DECIDED
    assert "the Great Lord played no further hand" in text


def test_GS_8_the_rl_spaces_hold_the_decision_where_the_variant_has_it() -> None:
    plain = ActionTable(tc.load_variant("grand_seigneur", {"players": 5}))
    table = ActionTable(lordly())
    assert "another_hand" not in plain.sections() or not plain.sections()["another_hand"]
    assert table.size == plain.size + 2
    assert list(table.sections()["another_hand"]) == [plain.size, plain.size + 1]
    assert table.fixed_index(tc.AnotherHand(3, True)) == plain.size
    assert table.fixed_index(tc.AnotherHand(3, False)) == plain.size + 1
    assert table.describe(plain.size + 1) == "end the match"
    with pytest.raises(ValueError):
        plain.fixed_index(tc.AnotherHand(3, True))
    assert ObservationEncoder(lordly()).size == ObservationEncoder(plain.variant).size + 1

    env = TichuEnv("grand_seigneur", overrides=LORDLY)
    env.reset(seed=3)
    rng = random.Random(3)
    seen = 0
    for _agent in env.agent_iter(20_000):
        observation, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        options = env.options()
        assert set(np.flatnonzero(observation["action_mask"])) == set(options)
        if set(options) == {table.size - 2, table.size - 1}:
            seen += 1
        env.step(rng.choice(list(options)))
    assert env.game.is_over and seen == len(decisions(env.game)) > 0
