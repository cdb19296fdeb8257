"""Play-out copies (``Game.copy(playout=True)``, the search bot's rollouts): the same
rules as any game, no events or history, and the play-out ends with its hand; and the
shuffling generator a copy shares with its original until one of them shuffles."""

from __future__ import annotations

import random

import pytest
from scenario import EVERY_TABLE, plugin_with, random_action

import tichu_core as tc
from tichu_core.rules.hookspecs import hookimpl
from tichu_core.rules.table import TableView

VARIANTS = EVERY_TABLE


def _somewhere_in_a_match(name: str, overrides: dict[str, object] | None, steps: int) -> tc.Game:
    game = tc.Game(tc.load_variant(name, overrides), seed=3)
    rng = random.Random(steps)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(random_action(game, rng))
    return game


@pytest.mark.parametrize(("name", "overrides"), VARIANTS)
@pytest.mark.parametrize("steps", [0, 37, 160, 400])
def test_a_play_out_plays_the_hand_as_a_copy_does_and_ends_with_it(
    name: str, overrides: dict[str, object] | None, steps: int
) -> None:
    """The same actions listed and the same result as an ordinary copy, every action
    of the rest of the hand (S-END-1: the hand is scored; then nobody acts in the
    play-out, while the ordinary copy deals on)."""
    game = _somewhere_in_a_match(name, overrides, steps)
    before = game.to_json()
    plain, quiet = game.copy(), game.copy(playout=True)
    hand = len(game.hand_results)
    rng = random.Random(steps + 1)
    while not plain.is_over and len(plain.hand_results) == hand:
        seat = plain.waiting_for[0]
        assert quiet.waiting_for == plain.waiting_for and quiet.turn == plain.turn
        listed, quiet_listed = plain.legal_actions(seat), quiet.legal_actions(seat)
        assert list(quiet_listed) == list(listed) or len(listed) > 500
        assert len(quiet_listed) == len(listed)
        assert quiet.observation(plain.controller(seat)) == plain.observation(
            plain.controller(seat)
        )
        index = rng.randrange(len(listed))
        plain.apply(listed[index])
        assert quiet.apply(quiet_listed[index]) == []
    assert quiet.scores == plain.scores and quiet.hand_results == plain.hand_results
    assert quiet.is_over == plain.is_over and quiet.winners == plain.winners
    assert quiet.waiting_for == [] and quiet.to_act == []
    assert game.to_json() == before  # neither copy changed the game
    if not quiet.is_over:
        with pytest.raises(tc.IllegalAction):
            quiet.apply(plain.legal_actions(plain.waiting_for[0])[0])


def test_a_play_out_keeps_no_history_and_says_so() -> None:
    game = _somewhere_in_a_match("standard", None, 50)
    quiet = game.copy(playout=True)
    for read in (
        lambda: quiet.events_for(0),
        lambda: quiet.event_log,
        lambda: quiet.actions,
        quiet.to_json,
    ):
        with pytest.raises(tc.TichuError, match="play-out"):
            read()
    twin = quiet.copy()  # a copy of a play-out is one
    with pytest.raises(tc.TichuError, match="play-out"):
        twin.events_for(None)
    assert game.events_for(0) and game.to_json()  # the original keeps its own
    with pytest.raises(TypeError, match="playout"):
        game.copy(playout="yes")  # type: ignore[arg-type]


def test_a_copy_shares_the_shuffling_generator_until_one_of_them_shuffles() -> None:
    """Same seed, same deals (docs/api.md Game): the original and its copy each deal the
    next hands as a game that was never copied, whichever of them deals first."""
    variant = tc.load_variant("standard", overrides={"game.target": 0, "game.hands": 4})

    def to_next_hand(game: tc.Game, rng: random.Random) -> None:
        hand = len(game.hand_results)
        while len(game.hand_results) == hand:
            actions = [
                a for a in game.legal_actions(game.waiting_for[0]) if type(a) is not tc.Tichu
            ]
            game.apply(actions[rng.randrange(len(actions))])

    def deal_of(game: tc.Game) -> list[list[str]]:
        return [game.observation(p).hand for p in range(4)]

    plain = tc.Game(variant, seed=9)
    game = tc.Game(variant, seed=9)
    for one in (plain, game):
        to_next_hand(one, random.Random(1))
    twin = game.copy()
    to_next_hand(twin, random.Random(2))  # the copy shuffles first, on another path
    to_next_hand(plain, random.Random(2))
    to_next_hand(game, random.Random(2))
    assert deal_of(game) == deal_of(plain) == deal_of(twin)
    for one in (plain, game):
        to_next_hand(one, random.Random(3))
    assert deal_of(game) == deal_of(plain)


def test_a_play_out_that_fails_half_way_refuses_to_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A play-out keeps no snapshot (issue 25): when a plugin fails half-way through an
    action (here when the trick is taken, S-TRICK-2), the play-out says so at every
    later use instead of going on from a half-made state; a game, and an ordinary copy,
    are put back as they were (apply is atomic)."""
    failing = {"now": False}

    @hookimpl
    def tichu_trick_winner(table: TableView) -> int | None:
        if failing["now"]:
            raise RuntimeError("the club's trick rule broke")
        return None

    plugin_with(monkeypatch, "playout_tests.failing_trick", tichu_trick_winner)
    variant = tc.load_variant(
        "standard",
        {
            "calls.grand_tichu": False,
            "exchange.targets": "none",
            "plugins": ["standard", "playout_tests.failing_trick"],
        },
        allow_imports=True,
    )
    game = tc.Game(variant, seed=7)
    leader = game.turn
    assert leader is not None
    game.apply(next(a for a in game.legal_actions(leader) if isinstance(a, tc.Play)))
    for step in (1, 2, 3):
        game.apply(tc.Pass((leader + step) % 4))
    collect = tc.Pass(leader)  # the top player collects the trick by passing once more
    plain, quiet = game.copy(), game.copy(playout=True)
    failing["now"] = True
    before = plain.to_json()
    with pytest.raises(tc.PluginError, match="broke"):
        plain.apply(collect)
    assert plain.to_json() == before  # the game's apply is atomic
    with pytest.raises(tc.PluginError, match="broke"):
        quiet.apply(collect)
    for use in (
        lambda: quiet.waiting_for,
        lambda: quiet.legal_actions(leader),
        lambda: quiet.apply(collect),
        quiet.copy,
    ):
        with pytest.raises(tc.TichuError, match="play-out copy failed half-way"):
            use()
    failing["now"] = False
    plain.apply(collect)  # the game goes on
    assert plain.turn == leader
