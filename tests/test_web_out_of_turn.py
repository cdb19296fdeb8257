"""The web table out of turn (S-BOMB-3, S-BOMB-6, S-CALL-1): a person's bomb button works
while another seat is on turn, and a bot's bomb out of turn is committed and shown like
any action. The table is driven without a server loop (bots act when the test asks),
on a stacked deal (``start_play``) put in place of the table's shuffled game. Each call
of the lobby's coroutines runs on a loop of its own (``asyncio.run``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from scenario import start_play
from test_out_of_turn import ACES, FLUSH, NO_BOMB, STRAIGHT, STRAIGHT_HAND

import tichu_core as tc
from tichu_core.frontends.web.store import TableStore
from tichu_core.frontends.web.tables import Lobby, Table


def table_with(
    tmp_path: Path, bots: dict[str, str], person: int, hands: list[str]
) -> tuple[Lobby, Table, str]:
    lobby = Lobby(TableStore(tmp_path / "tables.db"))
    table = asyncio.run(lobby.create("standard", None, bots))
    table.start_bots = lambda: None  # type: ignore[method-assign]  # the test asks them
    _, _, token = asyncio.run(lobby.sit(table.id, person, "Ann"))
    # The stacked deal replaces the shuffled one (the store is not replayed here).
    table.game = start_play(hands)
    return lobby, table, token


async def one_bot_action(table: Table) -> None:
    """A bot's answer (thought out on the bot thread), committed."""
    asked = await table._bot_action()
    assert asked is not None, "no bot is asked anything"
    action, unchanged = asked
    await table.commit(action, check=unchanged)


def bot_answer(table: Table) -> tc.Action:
    """The action a bot answers with now (thought out on the bot thread)."""
    asked = asyncio.run(table._bot_action())
    assert asked is not None, "no bot is asked anything"
    return asked[0]


def bots_act(table: Table, until: Any) -> None:
    """Let the bots act, one action at a time, until ``until(game)`` holds."""
    assert table.game is not None
    for _ in range(50):
        if until(table.game):
            return
        asyncio.run(one_bot_action(table))
    raise AssertionError("the bots did not get there")


def test_a_persons_bomb_works_out_of_turn(tmp_path: Path) -> None:
    # Bots at seats 0, 1 and 3; the person at seat 2 holds four Aces. As soon as a bot's
    # play lands that the Aces beat, while another seat is on turn, the person's legal
    # actions list the bomb and the server takes it.
    lobby, table, token = table_with(
        tmp_path,
        {"0": "heuristic", "1": "heuristic", "3": "heuristic"},
        2,
        [NO_BOMB, STRAIGHT_HAND, ACES, FLUSH],
    )
    game = table.game
    assert game is not None
    bots_act(
        table,
        lambda g: (
            g.turn not in (None, 2) and any(isinstance(a, tc.Play) for a in g.legal_actions(2))
        ),
    )
    assert game.turn == 0  # seat 3 led; seat 0 is on turn, not the person
    state = table.state(2, 0)
    bombs = [a for a in state["legal"]["2"]["actions"] if a.get("bomb")]
    four = next(a for a in bombs if sorted(a["cards"].split()) == sorted(["Aj", "As", "Ap", "At"]))
    clean = {key: value for key, value in four.items() if key not in ("label", "bomb")}
    asyncio.run(lobby.act(token, clean))
    played = [e for e in game.event_log if isinstance(e, tc.Played)]
    assert (played[-1].seat, played[-1].bomb) == (2, True)
    assert table.state(2, 0)["observation"]["top_seat"] == 2


def test_a_bots_bomb_out_of_turn_is_committed_and_shown(tmp_path: Path) -> None:
    # The person at seat 1 leads the Mah Jong straight, keeping two cards; the bot at
    # seat 0 (four Aces) bombs out of turn before seat 2, on turn, acts; seat 3 (the
    # person's partner, holding a straight flush) lets its partner's trick stand.
    lobby, table, token = table_with(
        tmp_path,
        {"0": "heuristic", "2": "heuristic", "3": "heuristic"},
        1,
        [ACES, STRAIGHT_HAND, NO_BOMB, FLUSH],
    )
    game = table.game
    assert game is not None
    bots_act(table, lambda g: g.waiting_for == [1] and g.turn == 1)
    asyncio.run(lobby.act(token, tc.action_to_dict(tc.Play(1, STRAIGHT))))
    asyncio.run(lobby.act(token, tc.action_to_dict(tc.Wish(1, None))))
    action = bot_answer(table)
    if action == tc.Tichu(0):  # its hand is worth a call, made out of turn (S-CALL-1) ...
        asyncio.run(table.commit(action))
        action = bot_answer(table)  # ... and the bomb is offered again
    version = table.version
    assert isinstance(action, tc.Play) and action.seat == 0
    assert game.turn == 2  # out of turn
    asyncio.run(table.commit(action))
    assert table.version == version + 1  # stored like any action
    shown = [e for e in table.state(1, 0)["events"] if e["type"] == "played"]
    assert (shown[-1]["seat"], shown[-1]["bomb"]) == (0, True)
    assert table.state(1, 0)["observation"]["top_seat"] == 0
