"""benchmarks/old_calls.py: the search bot of before with the shipped bot's bomb limits
(the calls duel apart from the bombs, docs/bots.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchscripts import load_script
from test_search_bot import small

import tichu_core as tc

old_calls = load_script("old_calls")


def at_partners_trick() -> tc.Game:
    """Seat 0 leads the 5j, seat 1 passes: seat 2, seat 0's partner, may bomb it."""
    game = small(
        [
            ["MJ", "5j", "Kj", "Ks", "3p"],
            ["6s", "7s", "Qs", "Qp", "4t"],
            ["9j", "9s", "9p", "9t", "3s"],
            ["10j", "Jj", "Jp", "Kp", "2t"],
        ]
    )
    game.apply(tc.Play(0, "5j"))
    game.apply(tc.Pass(1))
    return game


def test_no_bomb_on_a_partners_trick_and_the_call_goes_with_the_first_left() -> None:
    """S-BOMB-3, S-CALL-1: as the shipped bot, the old bot searches no bomb on its
    partner's trick; its Tichu call, which went with the bomb, goes with the pass."""
    game = at_partners_trick()
    seat = 2
    actions = game.legal_actions(seat)
    view = game.observation(game.controller(seat))
    assert not old_calls.bombs_searched(view, seat)
    bomb = tc.Play(seat, "9j 9s 9p 9t")
    passing = tc.Pass(seat)
    assert bomb in actions and passing in actions
    call = tc.Tichu(seat)
    kept = old_calls.without_bombs([(bomb,), (passing,), (call, bomb)], actions)
    assert kept == [(passing,), (call, passing)]
    # Nothing but bombs to play: they stay, as the shipped bot keeps them then.
    assert old_calls.without_bombs([(bomb,)], actions) == [(bomb,)]


def test_an_opponents_trick_may_be_bombed_only_when_it_is_about_to_go_out() -> None:
    """S-BOMB-3: over an opponent holding more than OPPONENT_BOMB_CARDS cards, no bomb;
    a lead is no trick, so any bomb may lead."""
    game = small(
        [
            ["MJ", "5j", "Kj", "Ks", "3p"],
            ["9j", "9s", "9p", "9t", "3s"],
            ["6s", "7s", "Qs", "Qp", "4t"],
            ["10j", "Jj", "Jp", "Kp", "2t"],
        ]
    )
    lead = game.observation(game.controller(0))
    assert old_calls.bombs_searched(lead, 0)
    game.apply(tc.Play(0, "5j"))  # seat 0 holds four cards now
    view = game.observation(game.controller(1))
    assert not old_calls.bombs_searched(view, 1)


def test_the_old_source_is_asked_for_by_the_command_that_makes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TICHU_OLD_SEARCH", str(tmp_path / "missing.py"))
    with pytest.raises(FileNotFoundError, match="git show 133d8de"):
        old_calls.OldCalls(1)
