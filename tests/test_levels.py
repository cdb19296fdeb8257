"""The levels people choose from (docs/bots.md, "Levels"): each is a bot of the registry
with a word on it, and each plays a short match of every bundled variant, so that none
can rot; `tichu play` takes them by name."""

from __future__ import annotations

import pytest

import tichu_core as tc
from tichu_core.frontends.bots import (
    LEVELS,
    GreedyBot,
    HeuristicBot,
    SearchBot,
    bot_descriptions,
    bot_names,
    make_bot,
    play_match,
)
from tichu_core.frontends.bots.registry import HARD_BUDGET
from tichu_core.frontends.cli import main


def test_the_levels_are_named_bots_with_a_word_each() -> None:
    assert LEVELS == ("easy", "medium", "hard", "expert")
    assert bot_names()[: len(LEVELS)] == list(LEVELS)
    descriptions = bot_descriptions()
    for number, level in enumerate(LEVELS, 1):
        assert f"level {number} of 4" in descriptions[level]
    assert isinstance(make_bot("easy", 1), GreedyBot)
    assert isinstance(make_bot("medium", 1), HeuristicBot)
    hard, expert = make_bot("hard", 1), make_bot("expert", 1)
    assert isinstance(hard, SearchBot) and isinstance(expert, SearchBot)
    # hard thinks less than expert, by every measure of the budget
    assert (hard.iterations, hard.worlds, hard.steps) == HARD_BUDGET
    assert hard.iterations < expert.iterations
    assert hard.worlds < expert.worlds
    assert hard.steps is not None and expert.steps is not None and hard.steps < expert.steps
    # the engine names keep working
    assert isinstance(make_bot("search", 1), SearchBot)
    assert isinstance(make_bot("heuristic", 1), HeuristicBot)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_short_match(level: str) -> None:
    """A match of one hand of standard, the level at the even players and the greedy
    bot at the odd ones (the search bot plays every bundled variant in
    tests/test_search_bot.py)."""
    variant = tc.load_variant("standard", {"game.hands": 1, "game.target": 0})
    game = tc.Game(variant, seed=11)
    bots = [make_bot(level if p % 2 == 0 else "greedy", p) for p in range(game.players)]
    play_match(game, bots)
    assert game.is_over and len(game.hand_results) == 1
    for bot in bots[::2]:
        if isinstance(bot, SearchBot):
            assert bot.searched > 0


def test_tichu_play_takes_a_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    for level in LEVELS:
        assert level in out
    assert main(["play", "--bot", "expret"]) == 2
    assert "did you mean 'expert'" in capsys.readouterr().err
