"""When a person is offered a bomb out of turn (tichu_core/frontends/text/bombs.py, issue 40):
on an opponent's play or on the Dragon, never on one's own or partner's other plays
(S-BOMB-3, S-BOMB-5, S-DRAGON-1); and the web table's bots pause after a play a
connected person may want to bomb, whatever anyone holds (bombing.py)."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace
from typing import Any

from rich.console import Console
from scenario import start_play

import tichu_core as tc
from tichu_core.frontends.cli.terminal import play_game
from tichu_core.frontends.text.bombs import bomb_may_matter
from tichu_core.frontends.web.bombing import BombWindow

TEAMS = [0, 1, 0, 1]


def play(seat: int, cards: str) -> list[dict[str, Any]]:
    return [{"seat": seat, "cards": cards}]


def test_a_bomb_matters_on_an_opponents_play_or_the_dragon_S_BOMB_3() -> None:
    assert bomb_may_matter(TEAMS, play(1, "9t"), 1, 0)  # an opponent's
    assert bomb_may_matter(TEAMS, play(3, "9t 9s"), 3, 2)
    assert not bomb_may_matter(TEAMS, play(2, "9t"), 2, 0)  # the partner's
    assert not bomb_may_matter(TEAMS, play(0, "9t"), 0, 0)  # one's own (S-BOMB-5)
    # The Dragon, whoever played it: a bombed Dragon trick is not given away (S-DRAGON-1).
    assert bomb_may_matter(TEAMS, play(2, "DR"), 2, 0)
    assert bomb_may_matter(TEAMS, play(0, "DR"), 0, 0)
    assert not bomb_may_matter(TEAMS, [], None, 0)  # nothing on the table


# Seat 1 holds the Mah Jong and leads; seat 0 holds two bombs (four Aces, four 2s).
HANDS = [
    "Aj As Ap At 2j 2s 2p 2t 3j 3s 4j 4s 5j 5s",
    "MJ 3p 4t 6j 6t 7p 8s 9j 9t 10p Js Qj Qt Kp",
    "DOG 3t 5p 6s 7j 7t 8p 9s 10j 10t Jp Qs Kj Kt",
    "PH DR 4p 5t 6p 7s 8j 8t 9p 10s Jj Jt Qp Ks",
]


class FakeTable(SimpleNamespace):
    @property
    def version(self) -> int:
        return len(self.record.actions)


def table_playing(game: tc.Game, person: int | None) -> Any:
    followers = [SimpleNamespace(player=person)] if person is not None else []
    return FakeTable(game=game, error=None, followers=followers, record=SimpleNamespace(actions=[]))


def apply(table: Any, action: tc.Action) -> None:
    table.game.apply(action)
    table.record.actions.append(json.dumps(tc.action_to_dict(action)))


def first_play(game: tc.Game, seat: int) -> tc.Action:
    return next(a for a in game.legal_actions(seat) if isinstance(a, tc.Play))


def test_the_bots_pause_after_a_play_a_connected_person_may_want_to_bomb() -> None:
    game = start_play(HANDS)
    table = table_playing(game, person=0)
    window = BombWindow(table, 2.0)
    apply(table, first_play(game, 1))  # an opponent of the person leads
    window.note()
    assert window.until > 0
    # The partner's play: the person would not bomb it; nobody else is connected.
    window.until = 0.0
    apply(table, first_play(game, 2))
    window.note()
    assert window.until == 0.0


def test_no_pause_without_a_person_connected_or_with_the_window_off() -> None:
    for person, seconds in ((None, 2.0), (0, 0.0)):
        game = start_play(HANDS)
        table = table_playing(game, person)
        window = BombWindow(table, seconds)
        apply(table, first_play(game, 1))
        window.note()
        assert window.until == 0.0


def test_the_terminal_asks_bomb_only_where_a_bomb_may_matter() -> None:
    """`tichu play`: the person (seat 0, two bombs) lets every bomb stand and passes
    where it may. "Bomb?" is asked after opponents' plays, never after the partner's
    (seat 2's) ones, although the engine lets seat 0 bomb those too."""
    game = start_play(HANDS)
    tops: list[int | None] = []
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 60:
            raise EOFError  # the person leaves: enough seen
        view = game.observation(0)
        if "bomb?" in prompt:
            tops.append(view.top_seat)
            assert view.trick[-1]["cards"] == ["DR"] or view.top_seat in (1, 3), prompt
            return ""
        if "your play" in prompt and any(isinstance(a, tc.Pass) for a in game.legal_actions(0)):
            return "pass"
        return "1"

    play_game(game, 0, ask=ask, console=Console(file=io.StringIO(), highlight=False))
    assert tops, "never asked: the deal no longer gives an opponent a play to bomb"
    # The partner played on top while seat 0 could bomb it: not asked then.
    replay = tc.Game.from_json(game.to_json())
    fresh = start_play(HANDS)
    partner_moments = 0
    for action in replay.actions[len(fresh.actions) :]:
        fresh.apply(action)
        view = fresh.observation(0)
        if view.top_seat == 2 and view.trick and view.trick[-1]["cards"] != ["DR"]:
            partner_moments += any(c.is_bomb for c in fresh.legal_actions(0).combinations)
    assert partner_moments, "the partner never played on top while seat 0 could bomb"
