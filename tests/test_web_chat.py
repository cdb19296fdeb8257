"""A table's chat and the finished matches kept (issue 40, chat.py and records.py),
through the protocol: seated people chat, everyone following reads it, the text is
kept as text (cleaned of control characters, never empty, bounded, rate-limited), and
the chat comes back with the table after a restart; a finished match is listed by
``records`` and ``/record/ID`` gives a saved game that replays to the same scores."""

from __future__ import annotations

import dataclasses
import time
from functools import partial
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from webtable import FAST, LOCAL, LOCAL_WS, Client

import tichu_core as tc
from tichu_core.frontends.web.app import create_app
from tichu_core.frontends.web.chat import BURST, MAX_CHARS
from tichu_core.frontends.web.store import TableStore
from tichu_core.frontends.web.tables import Lobby

LIMITS = dataclasses.replace(FAST, away_grace=600.0)


def chats(client: Client) -> list[dict[str, Any]]:
    """Every chat line the client received, in order (a history replaces what came)."""
    lines: list[dict[str, Any]] = []
    for message in client.messages:
        if message["type"] == "chat":
            lines = list(message["messages"]) if message.get("history") else lines
            if not message.get("history"):
                lines.extend(message["messages"])
    return lines


def test_seated_people_chat_everyone_following_reads_it_and_it_is_kept(
    tmp_path: Path,
) -> None:
    db = tmp_path / "tables.db"
    app = create_app(db, limits=LIMITS)
    with (
        TestClient(app, base_url=LOCAL) as client,
        client.websocket_connect(LOCAL_WS) as ann_ws,
        client.websocket_connect(LOCAL_WS) as eve_ws,
    ):
        ann, eve = Client(ann_ws), Client(eve_ws)
        table_id = ann.request(type="create", variant="standard")["table"]["id"]
        token = ann.request(type="sit", table=table_id, name="Ann")["token"]
        eve.request(type="watch", table=table_id)
        said = ann.request(type="chat", token=token, text="  <b>hello</b>\n\tall  ")
        assert said["type"] == "chatted"
        eve.sync()
        assert [(m["name"], m["player"], m["text"]) for m in chats(eve)] == [
            ("Ann", 0, "<b>hello</b> all")  # as text: the page never parses it
        ]
        for text, code in (("  \n ", "bad_message"), ("x" * (MAX_CHARS + 1), "too_large")):
            reply = ann.request(type="chat", token=token, text=text)
            assert (reply["type"], reply["code"]) == ("error", code)
        reply = eve.request(type="chat", text="I only watch")  # no token: not seated
        assert (reply["type"], reply["code"]) == ("error", "bad_message")
        replies = [ann.request(type="chat", token=token, text=f"m{n}") for n in range(BURST)]
        assert [r["type"] for r in replies].count("error") == 1  # the burst is spent
        assert replies[-1]["code"] == "rate_limited"
        eve.sync()
        kept = [m["text"] for m in chats(eve)]
        assert kept == ["<b>hello</b> all", *[f"m{n}" for n in range(BURST - 1)]]
    # A restarted server: the chat comes back with the table, to a newcomer too.
    restarted = TestClient(create_app(db, limits=LIMITS), base_url=LOCAL)
    with restarted as client, client.websocket_connect(LOCAL_WS) as bob_ws:
        bob = Client(bob_ws)
        bob.request(type="watch", table=table_id)
        bob.sync()
        assert [m["text"] for m in chats(bob)] == kept


def test_a_finished_match_is_listed_and_its_record_replays(tmp_path: Path) -> None:
    app = create_app(tmp_path / "tables.db", limits=LIMITS)
    with TestClient(app, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        bots = {str(p): "greedy" for p in range(4)}
        created = me.request(
            type="create", variant="standard", overrides={"game.hands": 1}, bots=bots
        )
        table_id = created["table"]["id"]
        me.request(type="watch", table=table_id)
        state = me.wait(lambda s: s["table"]["status"] == "over")
        lobby: Lobby = app.state.lobby()
        table = lobby.tables[table_id]
        assert table.game is not None
        deadline = 200
        while not (listed := me.request(type="records")["records"]) and deadline:
            deadline -= 1
            me.sync()
        (record,) = listed
        assert record["table"] == table_id and record["hands"] == 1
        assert record["scores"] == state["observation"]["scores"]
        assert record["winners"] == table.game.winners
        assert record["names"] == ["Bot (greedy)"] * 4
        saved = client.get(f"/record/{table_id}")
        assert saved.status_code == 200
        assert "attachment" in saved.headers["content-disposition"]
        replayed = tc.Game.from_json(saved.text)
        assert replayed.observation(None).scores == table.game.observation(None).scores
        assert client.get("/record/nosuchtable").status_code == 404
        assert client.get("/record/..%2Fetc").status_code == 404


def test_the_store_keeps_the_newest_records_and_deletes_the_older(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "tables.db")
    # Recorded out of order: the time a match ended decides which are the newest.
    for table_id, finished in (("b", 2.0), ("d", 4.0), ("a", 1.0), ("e", 5.0), ("c", 3.0)):
        (deleted,) = store.transaction(
            [partial(store.put_record, table_id, finished, "{}", f"game {table_id}", 3)]
        )
        assert deleted == (1 if table_id in ("e", "c") else 0)  # a fourth record came
    assert [row[0] for row in store.records(10)] == ["e", "d", "c"]
    assert store.record("c") == "game c" and store.record("b") is None
    # Without a limit nothing goes; a lower limit deletes the oldest.
    store.transaction([partial(store.put_record, "f", 0.5, "{}", "game f")])
    assert [row[0] for row in store.records(10)] == ["e", "d", "c", "f"]
    assert store.prune_records(2) == 2
    assert [row[0] for row in store.records(10)] == ["e", "d"]
    store.close()


def finished_matches(app: Any, count: int) -> list[str]:
    """``count`` one-hand matches of bots played to their end, one after the other,
    each with its record written; their ids, in the order they ended."""
    ids = []
    with TestClient(app, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        bots = {str(p): "greedy" for p in range(4)}
        for _ in range(count):
            created = me.request(
                type="create", variant="standard", overrides={"game.hands": 1}, bots=bots
            )
            ids.append(created["table"]["id"])
            me.request(type="watch", table=ids[-1])
            me.wait(lambda s: s["table"]["status"] == "over")
            deadline = time.monotonic() + 30  # the record is written after the last state
            while ids[-1] not in [r["table"] for r in me.request(type="records")["records"]]:
                assert time.monotonic() < deadline, "the finished match was not recorded"
                time.sleep(0.01)
    return ids


def test_a_server_keeps_its_last_max_records_finished_matches(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    app = create_app(db, limits=dataclasses.replace(LIMITS, max_records=2))
    ids = finished_matches(app, 3)
    with TestClient(app, base_url=LOCAL) as client:
        assert client.get(f"/record/{ids[0]}").status_code == 404  # the oldest is gone
        assert client.get(f"/record/{ids[2]}").status_code == 200
    store = TableStore(db)
    assert [row[0] for row in store.records(10)] == [ids[2], ids[1]]
    store.close()
    # Started again with a lower limit, the server deletes the records beyond it.
    again = create_app(db, limits=dataclasses.replace(LIMITS, max_records=1))
    with TestClient(again, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        listed = Client(ws).request(type="records")["records"]
        assert [record["table"] for record in listed] == [ids[2]]
        assert client.get(f"/record/{ids[1]}").status_code == 404
