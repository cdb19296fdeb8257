"""benchmarks/own_trick_bombs.py: the search bot's bombs judged by play-outs at a table."""

from __future__ import annotations

import pytest
from benchscripts import load_script

bombs = load_script("own_trick_bombs")


def test_on_its_turn_only_moments_with_a_bomb_over_an_opponent_are_asked() -> None:
    """S-BOMB-1: each moment is a turn on an opponent's trick with a bomb among the
    plays; a bomb the search bot plays there is judged by a gain, no other is."""
    moments = bombs.run(6, 2, 1, over="opponent", on_turn=True)
    assert moments, "six hands of bsw bring at least one such turn"
    for moment in moments:
        assert not moment["collecting"]
        assert ("gain" in moment) is moment["bombed"]


def test_a_bomb_on_its_own_turn_over_its_own_trick_is_not_a_question(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        bombs.main(["--on-turn", "--over", "own", "--hands", "1"])
    assert "--on-turn asks about a bomb over the partner's" in capsys.readouterr().err
