"""Places at the web table (issue 40, seating.py), through the protocol: a person who
leaves is played by a stand-in bot after the grace time and gets the place back on
returning, with nothing lost; a table every person left is shown abandoned and waits;
the seated people replace a leaver by a bot or open the place to a newcomer; before
the start a person moves to any free place, and the places show their teams."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.testclient import TestClient
from webtable import FAST, LOCAL, LOCAL_WS, Client, my_turn, play_until, replay

from tichu_core.frontends.bots import BOTS, DEFAULT_BOT, LEVELS, GreedyBot, make_bot
from tichu_core.frontends.web.app import create_app
from tichu_core.frontends.web.seating import DEFAULT_LEVEL, LEVEL_OF, StandIns, level_name
from tichu_core.frontends.web.store import SeatRecord
from tichu_core.frontends.web.tables import Lobby, Table

GRACE = 0.3  # seconds: short, so that the tests wait little


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(tmp_path / "tables.db", limits=dataclasses.replace(FAST, away_grace=GRACE))


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, base_url=LOCAL) as test_client:
        yield test_client


def table_of(app: Any, table_id: str) -> Table:
    lobby: Lobby = app.state.lobby()
    return lobby.tables[table_id]


def seats_acted(table: Table, since: int) -> set[int]:
    """The seats that acted in the table's log from action ``since`` on."""
    return {json.loads(text)["seat"] for text in table.record.actions[since:]}


def place(state: dict[str, Any], player: int) -> dict[str, Any]:
    entry: dict[str, Any] = state["table"]["seating"][player]
    return entry


def two_people_and_two_bots(host: Client, friend: Client) -> tuple[str, str, str]:
    table_id = host.request(type="create", variant="standard")["table"]["id"]
    host_token = host.request(type="sit", table=table_id, name="Ann")["token"]
    friend_token = friend.request(type="sit", table=table_id, name="Bob")["token"]
    host.request(type="bots", table=table_id, bots={"2": "greedy", "3": "greedy"}, token=host_token)
    return table_id, host_token, friend_token


def test_a_leaver_is_played_by_a_stand_in_after_the_grace_and_gets_the_place_back(
    app: Any, client: TestClient
) -> None:
    rng = random.Random(40)
    with client.websocket_connect(LOCAL_WS) as bob_ws:
        bob = Client(bob_ws)
        with client.websocket_connect(LOCAL_WS) as ann_ws:
            ann = Client(ann_ws)
            table_id, ann_token, bob_token = two_people_and_two_bots(ann, bob)
            ann.wait(lambda s: my_turn(s) is not None)
        table = table_of(app, table_id)
        left_at = table.version
        # Ann's page is gone: her place counts down, then a bot plays it.
        state = bob.wait(lambda s: place(s, 0)["away"])
        assert place(state, 0)["online"] == 0
        assert place(state, 0)["stand_in"] or 0 < place(state, 0)["stand_in_in"] <= GRACE
        assert state["table"]["status"] == "playing"
        play_until(bob, bob_token, lambda s: 0 in seats_acted(table, left_at), rng)
        state = bob.sync()
        assert state is not None and place(state, 0)["stand_in"]
        assert place(state, 0)["kind"] == "human" and place(state, 0)["name"] == "Ann"
        # The table was filled with greedy bots: the stand-in is that level, by its name.
        assert state["table"]["stand_in_bot"] == "easy"
        assert type(table.stand_ins.bots[0]) is type(make_bot("easy"))
        # Ann comes back with her token: the place is hers again at once.
        with client.websocket_connect(LOCAL_WS) as ann_ws:
            ann = Client(ann_ws)
            assert ann.request(type="resume", table=table_id, token=ann_token)["player"] == 0
            state = ann.wait(lambda s: s["observation"] is not None)
            assert not place(state, 0)["away"] and not place(state, 0)["stand_in"]
            assert 0 not in table.bots
            back_at = table.version
            play_until(ann, ann_token, lambda s: my_turn(s) is None, rng, seconds=5)
            # Nothing lost: the stored log, replayed to the version of her latest state,
            # is the game her page shows (a state is sent once its actions are stored).
            state = ann.sync()
            assert state is not None and back_at <= state["version"]
            game = replay(table.record.variant, table.record.overrides, table.record.seed)
            for action in table.record.actions[: state["version"]]:
                game.apply(action)
            assert game.observation(0).model_dump(mode="json") == state["observation"]


def test_a_table_every_person_left_waits_and_shows_abandoned(app: Any, client: TestClient) -> None:
    with client.websocket_connect(LOCAL_WS) as looker_ws:
        looker = Client(looker_ws)
        with client.websocket_connect(LOCAL_WS) as ann_ws:
            ann = Client(ann_ws)
            table_id = ann.request(type="create", variant="standard")["table"]["id"]
            token = ann.request(type="sit", table=table_id, name="Ann")["token"]
            bots = {"1": "greedy", "2": "greedy", "3": "greedy"}
            ann.request(type="bots", table=table_id, bots=bots, token=token)
            ann.wait(lambda s: my_turn(s) is not None)
        table = table_of(app, table_id)
        left_at = table.version
        looker.request(type="watch", table=table_id)
        state = looker.wait(lambda s: s["table"]["status"] == "abandoned", seconds=10)
        listed = {t["id"]: t for t in looker.request(type="tables")["tables"]}
        assert listed[table_id]["status"] == "abandoned"
        assert 0 not in seats_acted(table, left_at) and 0 not in table.bots  # no stand-in
        with client.websocket_connect(LOCAL_WS) as ann_ws:
            ann = Client(ann_ws)
            ann.request(type="resume", table=table_id, token=token)
            state = ann.wait(lambda s: s["table"]["status"] == "playing")
            assert my_turn(state) is not None


def test_the_seated_replace_a_leaver_by_a_bot_or_open_the_place(
    app: Any, client: TestClient
) -> None:
    with client.websocket_connect(LOCAL_WS) as bob_ws, client.websocket_connect(LOCAL_WS) as cid_ws:
        bob, cid = Client(bob_ws), Client(cid_ws)
        with client.websocket_connect(LOCAL_WS) as ann_ws:
            ann = Client(ann_ws)
            table_id, ann_token, bob_token = two_people_and_two_bots(ann, bob)
            ann.wait(lambda s: s["version"] > 0)  # under way
            reply = bob.request(type="replace", table=table_id, token=bob_token, player=0)
            assert (reply["type"], reply["code"]) == ("error", "not_away")  # Ann is here
            reply = bob.request(type="replace", table=table_id, token=bob_token, player=1)
            assert (reply["type"], reply["code"]) == ("error", "bad_player")  # himself
        table = table_of(app, table_id)
        bob.wait(lambda s: place(s, 0)["away"])
        # Bob opens Ann's place to a newcomer: a stand-in plays it meanwhile.
        reply = bob.request(type="replace", table=table_id, token=bob_token, player=0)
        assert reply["type"] == "replaced", reply
        state = bob.wait(lambda s: place(s, 0)["kind"] == "free" and place(s, 0)["stand_in"])
        assert state["table"]["status"] == "waiting"
        reply = cid.request(type="resume", table=table_id, token=ann_token)
        assert (reply["type"], reply["code"]) == ("error", "bad_token")  # no longer hers
        cid.request(type="watch", table=table_id)
        seated = cid.request(type="sit", table=table_id, name="Cid")
        assert seated["player"] == 0
        state = cid.wait(
            lambda s: s["observation"] is not None and s["observation"]["seats"] == [0]
        )
        assert place(state, 0)["name"] == "Cid" and not place(state, 0)["stand_in"]
        assert state["table"]["status"] == "playing" and 0 not in table.bots
        # Cid leaves too; Bob replaces him by a bot for good.
    with client.websocket_connect(LOCAL_WS) as bob_ws:
        bob = Client(bob_ws)
        bob.request(type="resume", table=table_id, token=bob_token)
        bob.wait(lambda s: place(s, 0)["away"])
        reply = bob.request(
            type="replace", table=table_id, token=bob_token, player=0, bot="no-such-bot"
        )
        assert (reply["type"], reply["code"]) == ("error", "unknown_bot")
        reply = bob.request(type="replace", table=table_id, token=bob_token, player=0, bot="greedy")
        assert reply["type"] == "replaced", reply
        state = bob.wait(lambda s: place(s, 0)["kind"] == "bot")
        assert place(state, 0)["name"] == "greedy" and not place(state, 0)["stand_in"]
        assert [s.kind for s in table.record.seats if s.player == 0] == ["bot"]


def test_before_the_start_a_person_moves_to_any_free_place_and_sees_the_teams(
    app: Any, client: TestClient
) -> None:
    with client.websocket_connect(LOCAL_WS) as ann_ws, client.websocket_connect(LOCAL_WS) as bob_ws:
        ann, bob = Client(ann_ws), Client(bob_ws)
        table_id = ann.request(type="create", variant="standard")["table"]["id"]
        ann_token = ann.request(type="sit", table=table_id, name="Ann")["token"]
        bob_token = bob.request(type="sit", table=table_id, name="Bob")["token"]
        state = bob.sync()
        assert state is not None
        assert [p["team"] for p in state["table"]["seating"]] == [0, 1, 0, 1]
        assert not any(p["away"] or p["stand_in"] for p in state["table"]["seating"])
        reply = bob.request(type="move", table=table_id, token=bob_token, player=0)
        assert (reply["type"], reply["code"]) == ("error", "taken")
        reply = bob.request(type="move", table=table_id, token=bob_token, player=9)
        assert (reply["type"], reply["code"]) == ("error", "bad_player")
        # Bob moves across the table: Ann's partner.
        reply = bob.request(type="move", table=table_id, token=bob_token, player=2)
        assert (reply["type"], reply["player"]) == ("moved", 2)
        state = ann.wait(lambda s: place(s, 2)["name"] == "Bob")
        assert place(state, 1)["kind"] == "free" and place(state, 2)["online"] == 1
        assert table_of(app, table_id).seats[2].name == "Bob"
        # The token acts for the new place, also after a new connection.
        reply = bob.request(type="resume", table=table_id, token=bob_token)
        assert reply["player"] == 2
        bots = {"1": "greedy", "3": "greedy"}
        ann.request(type="bots", table=table_id, bots=bots, token=ann_token)
        bob.wait(lambda s: s["observation"] is not None)
        reply = bob.request(type="move", table=table_id, token=bob_token, player=1)
        assert (reply["type"], reply["code"]) == ("error", "started")
    # The move is stored: a restarted server seats Bob at place 2.
    stored = {s.player: s.name for s in table_of(app, table_id).record.seats}
    assert stored == {0: "Ann", 1: "greedy", 2: "Bob", 3: "greedy"}


def test_the_lobby_names_one_default_bot_from_the_registry_by_its_level(
    client: TestClient,
) -> None:
    with client.websocket_connect(LOCAL_WS) as ws:
        reply = Client(ws).request(type="variants")
    # The registry's default bot, shown by the name of the level it is ("medium").
    assert reply["default_bot"] == DEFAULT_LEVEL == level_name(DEFAULT_BOT)
    assert DEFAULT_LEVEL in LEVELS
    assert reply["levels"] == list(LEVELS)
    assert reply["bots"][: len(LEVELS)] == list(LEVELS)  # the levels first
    for name in (*LEVELS, DEFAULT_BOT):  # each with its word; the engine names still there
        assert name in reply["bots"] and reply["bot_descriptions"][name]


def configuration(name: str) -> tuple[type, dict[str, object]]:
    """A bundled bot's class and its settings (what it is, less its random state)."""
    bot = make_bot(name, 1)
    settings = {k: v for k, v in vars(bot).items() if not k.startswith("_") and k != "rng"}
    return type(bot), settings


def test_an_engine_name_is_shown_as_the_level_it_is() -> None:
    for engine, level in LEVEL_OF.items():
        assert engine in BOTS and level in LEVELS
        assert configuration(engine) == configuration(level), (engine, level)
    # The other bundled names are no level's bot.
    for engine in set(BOTS) - set(LEVELS) - set(LEVEL_OF):
        assert all(configuration(engine) != configuration(level) for level in LEVELS), engine
    assert level_name("medium") == "medium" and level_name("random") is None


def stand_in_of(*seats: tuple[int, str, str]) -> str:
    table = SimpleNamespace(seats={p: SeatRecord(p, kind, name) for p, kind, name in seats})
    return StandIns(table, 1.0).bot_name  # type: ignore[arg-type]  # only its seats


def test_a_stand_in_is_the_level_the_table_was_filled_with_else_the_default() -> None:
    assert stand_in_of((0, "human", "Ann"), (1, "human", "Bob")) == DEFAULT_LEVEL
    assert stand_in_of((0, "human", "Ann"), (1, "bot", "hard"), (2, "bot", "hard")) == "hard"
    assert stand_in_of((0, "human", "Ann"), (1, "bot", "search")) == "expert"
    assert stand_in_of((0, "human", "Ann"), (1, "bot", "greedy"), (3, "bot", "expert")) == "easy"
    expert_more = ((1, "bot", "greedy"), (2, "bot", "expert"), (3, "bot", "expert"))
    assert stand_in_of((0, "human", "Ann"), *expert_more) == "expert"
    # Bots that are no level's (random): the default level stands in.
    assert stand_in_of((0, "human", "Ann"), (1, "bot", "random")) == DEFAULT_LEVEL
    assert isinstance(make_bot(stand_in_of((0, "bot", "greedy"))), GreedyBot)
