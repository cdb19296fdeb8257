"""Restarting the web table: a new app on the same SQLite file restores every table
exactly (variant, seed and action log replayed), bots go on, people resume with their
tokens; a table whose log no longer replays is marked failed and the others go on."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from starlette.testclient import TestClient
from webtable import FAST, LOCAL, LOCAL_WS, Client, lobby_of, my_turn, play_until, random_action

from tichu_core.frontends.web.app import create_app


def test_a_restarted_server_restores_every_table_and_people_resume(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    first = create_app(db, limits=FAST)
    saved: dict[str, tuple[str, str]] = {}  # table -> (its game's JSON, the state seen)
    tokens: dict[str, str] = {}
    with TestClient(first, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        for number, variant in enumerate(["standard", "threechu", "tientsin"]):
            players = 3 if variant == "threechu" else 6 if variant == "tientsin" else 4
            bots = {str(p): "greedy" for p in range(1, players)}
            reply = me.request(type="create", variant=variant, bots=bots)
            table_id = reply["table"]["id"]
            seated = me.request(type="sit", table=table_id, name=f"Ann {number}")
            tokens[table_id] = seated["token"]
            state = play_until(
                me, seated["token"], lambda s: s["version"] >= 15, random.Random(number)
            )
            # The bots have acted: the table waits for the person's seats alone.
            state = me.wait(
                lambda s: (
                    my_turn(s) is not None
                    and all(str(seat) in s["legal"] for seat in s["observation"]["waiting_for"])
                )
            )
            game = lobby_of(first).tables[table_id].game
            assert game is not None
            saved[table_id] = (game.to_json(), state["observation"])
    # The first server has stopped (its lifespan ended); a new one opens the same file.
    second = create_app(db, limits=FAST)
    with TestClient(second, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        restored = lobby_of(second).tables
        assert set(restored) == set(saved)
        me = Client(ws)
        for table_id, (game_json, observation) in saved.items():
            game = restored[table_id].game
            assert game is not None and game.to_json() == game_json
            token = tokens[table_id]
            reply = me.request(type="resume", table=table_id, token=token)
            assert reply["type"] == "seated" and reply["player"] == 0
            state = me.sync()
            assert state is not None and state["observation"] == observation
            # ... and plays on.
            state = play_until(
                me, token, lambda s, v=state["version"]: s["version"] > v + 3, random.Random(9)
            )
            assert state["table"]["status"] == "playing"


def test_bots_go_on_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    first = create_app(db, limits=FAST)
    with TestClient(first, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        table_id = me.request(type="create", variant="standard")["table"]["id"]
        token = me.request(type="sit", table=table_id, player=0)["token"]
    # Seat bots in the store only, as if the server had stopped before they could act.
    db_connection = sqlite3.connect(db)
    with db_connection:
        db_connection.executemany(
            "INSERT INTO seats (table_id, player, kind, name, token_hash) VALUES (?, ?, ?, ?, ?)",
            [(table_id, p, "bot", "random", None) for p in (1, 2, 3)],
        )
    db_connection.close()
    second = create_app(db, limits=FAST)
    with TestClient(second, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        assert me.request(type="resume", table=table_id, token=token)["type"] == "seated"
        # Every place is taken: the game starts, the bots decide their Grand Tichu at
        # once, and push once we have decided: the game waits for us.
        state = me.wait(lambda s: s["version"] == 3)
        assert state["observation"]["phase"] == "grand_tichu" and my_turn(state) == 0
        action = random_action(state, 0, random.Random(0))
        assert me.request(type="act", token=token, action=action)["type"] == "ack"
        state = me.wait(lambda s: s["version"] == 7)
        assert state["observation"]["phase"] == "exchange" and my_turn(state) == 0


def test_a_table_that_no_longer_replays_fails_alone(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    first = create_app(db, limits=FAST)
    with TestClient(first, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        ids = []
        for _ in range(2):
            table_id = me.request(type="create", variant="standard")["table"]["id"]
            token = me.request(type="sit", table=table_id)["token"]
            bots = {"1": "greedy", "2": "greedy", "3": "greedy"}
            me.request(type="bots", table=table_id, bots=bots, token=token)
            play_until(me, token, lambda s: s["version"] >= 4, random.Random(1))
            ids.append(table_id)
    broken, healthy = ids
    db_connection = sqlite3.connect(db)
    with db_connection:
        db_connection.execute(
            "UPDATE actions SET action = ? WHERE table_id = ? AND number = 0",
            ('{"type": "play", "seat": 0, "cards": "DR"}', broken),
        )
    db_connection.close()
    second = create_app(db, limits=FAST)
    with TestClient(second, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        tables = lobby_of(second).tables
        assert tables[broken].status == "failed"
        assert "could not be restored" in (tables[broken].error or "")
        assert tables[healthy].status == "playing"
        me = Client(ws)
        listed = {t["id"]: t for t in me.request(type="tables")["tables"]}
        assert listed[broken]["status"] == "failed" and listed[healthy]["status"] == "playing"
        assert me.request(type="watch", table=broken)["type"] == "watching"
        state = me.sync()
        assert state is not None and state["observation"] is None
        health = client.get("/health").json()
        assert (health["ok"], health["tables"], health["failed"]) == (True, 2, 1)


def test_a_table_whose_bot_is_gone_fails_alone(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with (
        TestClient(create_app(db, limits=FAST), base_url=LOCAL) as client,
        client.websocket_connect(LOCAL_WS) as ws,
    ):
        me = Client(ws)
        gone = me.request(type="create", variant="standard")["table"]["id"]
        kept = me.request(type="create", variant="standard", bots={"1": "random"})["table"]["id"]
    db_connection = sqlite3.connect(db)
    with db_connection:
        db_connection.execute(
            "INSERT INTO seats (table_id, player, kind, name, token_hash) VALUES (?, 1, 'bot', "
            "'uninstalled', NULL)",
            (gone,),
        )
    db_connection.close()
    second = create_app(db, limits=FAST)
    with TestClient(second, base_url=LOCAL):
        tables = lobby_of(second).tables
        assert tables[gone].status == "failed" and "uninstalled" in (tables[gone].error or "")
        assert tables[kept].status == "waiting"
