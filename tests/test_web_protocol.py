"""The web table's protocol (docs/web.md) through Starlette's TestClient: tables,
seats and tokens, bots, what each client is sent (checked on the wire against the
engine), bad messages refused without changing anything, floods, and a failing table
that stops alone."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webtable import (
    FAST,
    LOCAL,
    LOCAL_WS,
    ROOT,
    Client,
    check_wire,
    lobby_of,
    my_turn,
    one_hand_played,
    play_until,
    random_action,
    replay,
)

import tichu_core as tc
from tichu_core.frontends.web.app import STATIC, create_app
from tichu_core.frontends.web.protocol import Limits, RateLimiter
from tichu_core.frontends.web.tables import Table

BUNDLED = ["standard", "threechu", "tientsin", "grand_seigneur"]


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(tmp_path / "tables.db", limits=FAST)


@pytest.fixture
def client(app: Any) -> Any:
    with TestClient(app, base_url=LOCAL) as test_client:
        yield test_client


def connect(client: TestClient) -> Any:
    return client.websocket_connect(LOCAL_WS)


def create(
    me: Client, variant: str = "standard", bots: dict[str, str] | None = None, **extra: Any
) -> str:
    reply = me.request(type="create", variant=variant, bots=bots or {}, **extra)
    assert reply["type"] == "created", reply
    table_id: str = reply["table"]["id"]
    return table_id


def sit(me: Client, table_id: str, **extra: Any) -> tuple[int, str]:
    reply = me.request(type="sit", table=table_id, **extra)
    assert reply["type"] == "seated", reply
    return reply["player"], reply["token"]


def all_bots_but(players: int, *people: int) -> dict[str, str]:
    return {str(p): "greedy" for p in range(players) if p not in people}


def table_of(app: Any, table_id: str) -> Table:
    return lobby_of(app).tables[table_id]


def fresh_game(table: Table) -> tc.Game:
    return replay(table.record.variant, table.record.overrides, table.record.seed)


# --------------------------------------------------------------------------- the page


def test_the_page_and_its_files_are_served_with_nothing_from_elsewhere(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    for path in STATIC.iterdir():
        text = path.read_text()
        # No address of another site: every file comes from this server.
        assert not re.search(r"(?<![\w.])(https?:)?//[a-z0-9]", text, re.I), path.name
    health = {"ok": True, "tables": 0, "failed": 0, "connections": 0, "outgoing_bytes": 0}
    assert client.get("/health").json() == health


def test_the_static_files_are_package_data_of_the_web_package() -> None:
    """A non-editable install serves the page: pyproject.toml ships the package and
    every file of its static/ folder."""
    import tomllib

    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert {"tichu_core.frontends.web", "tichu_core.frontends.web.static"} <= set(setup["packages"])
    patterns = setup["package-data"]["tichu_core.frontends.web.static"]
    for path in STATIC.iterdir():
        assert any(path.match(pattern) for pattern in patterns), path.name
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert {"starlette", "uvicorn", "httpx", "playwright"} <= {
        re.split(r"[<>=\[ ]", requirement)[0] for requirement in extras["web"]
    }


# --------------------------------------------------------------------------- tables and seats


def test_variants_and_bots_are_offered(client: TestClient) -> None:
    with connect(client) as ws:
        me = Client(ws)
        reply = me.request(type="variants")
        offered = {v["name"]: v for v in reply["variants"]}
        assert set(BUNDLED) <= set(offered)
        assert offered["grand_seigneur"]["sizes"] == list(range(5, 13))
        assert offered["standard"]["players"] == 4
        assert {"random", "greedy", "heuristic", "search"} <= set(reply["bots"])
        # A word on each bot for the choice (docs/web.md): every offered bot has one.
        assert set(reply["bot_descriptions"]) == set(reply["bots"])
        assert "sampled" in reply["bot_descriptions"]["search"]


def test_a_table_is_created_seated_and_listed_without_secrets(app: Any, client: TestClient) -> None:
    with connect(client) as ws, connect(client) as other_ws:
        me, other = Client(ws), Client(other_ws)
        table_id = create(me, "grand_seigneur", overrides={"players": 6}, bots={"5": "random"})
        player, token = sit(me, table_id, name="Ann")
        assert player == 0 and len(token) >= 32
        assert sit(other, table_id, player=3, name="Bob")[0] == 3
        listed = me.request(type="tables")["tables"]
        (info,) = [t for t in listed if t["id"] == table_id]
        assert info["players"] == 6 and info["status"] == "waiting"
        kinds = [(s["kind"], s["name"]) for s in info["seating"]]
        assert kinds[0] == ("human", "Ann") and kinds[3] == ("human", "Bob")
        assert kinds[5] == ("bot", "random") and kinds[1] == ("free", None)
        seed = str(table_of(app, table_id).record.seed)
        everything = json.dumps(other.messages + me.messages)
        assert seed not in everything  # nobody learns the seed (it fixes every deal)
        # Bob never sees Ann's token.
        assert token not in json.dumps(other.messages)


def test_places_are_taken_once(client: TestClient) -> None:
    with connect(client) as ws:
        me = Client(ws)
        table_id = create(me, bots={"1": "greedy"})
        _, token = sit(me, table_id, player=0)
        for request, code in [
            ({"type": "sit", "table": table_id, "player": 0}, "taken"),
            ({"type": "sit", "table": table_id, "player": 1}, "taken"),
            ({"type": "sit", "table": table_id, "player": 4}, "bad_player"),
            ({"type": "sit", "table": "nope"}, "no_table"),
            ({"type": "bots", "table": table_id, "bots": {"0": "greedy"}, "token": token}, "taken"),
            (
                {"type": "bots", "table": table_id, "bots": {"2": "clever"}, "token": token},
                "unknown_bot",
            ),
            (
                {"type": "bots", "table": table_id, "bots": {"02": "greedy"}, "token": token},
                "bad_message",
            ),
            ({"type": "sit", "table": table_id, "name": "x\u0007"}, "bad_message"),
        ]:
            reply = me.request(**request)
            assert (reply["type"], reply["code"]) == ("error", code), (request, reply)
        reply = me.request(type="bots", table=table_id, bots={"2": "random"}, token=token)
        assert reply["type"] == ("bots_seated")
        assert sit(me, table_id)[0] == 3  # the first free place
        reply = me.request(type="sit", table=table_id)
        assert reply["code"] == "taken" and "every place" in reply["message"]


@pytest.mark.parametrize(
    ("variant", "overrides", "code", "words"),
    [
        ("bridge", {}, "bad_variant", "unknown variant"),
        ("/etc/passwd", {}, "bad_variant", "unknown variant"),  # never a path on the server
        ("standard", {"game.targt": 500}, "bad_variant", "game.targt"),
        ("standard", {"players": 5}, "bad_variant", "players"),
        ("standard", {"plugins": ["os.path"]}, "bad_variant", "os.path"),  # no imports
        ("standard", {"game": {"target": 5}}, "bad_message", "dotted key"),
        ("standard", [], "bad_message", "overrides"),
    ],
)
def test_a_bad_variant_or_option_is_refused_with_the_reason(
    client: TestClient, variant: str, overrides: Any, code: str, words: str
) -> None:
    with connect(client) as ws:
        reply = Client(ws).request(type="create", variant=variant, overrides=overrides)
        assert reply["type"] == "error" and reply["code"] == code, reply
        assert words in reply["message"]


def test_a_server_holds_at_most_max_tables(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.db", limits=Limits(max_tables=2))
    with TestClient(app, base_url=LOCAL) as client, connect(client) as ws:
        me = Client(ws)
        create(me)
        create(me)
        reply = me.request(type="create", variant="standard")
        assert reply["code"] == "server_full"


# --------------------------------------------------------------------------- playing


@pytest.mark.parametrize(
    ("variant", "overrides"),
    [(name, {}) for name in BUNDLED] + [("grand_seigneur", {"players": 5})],  # one deck
)
def test_a_person_plays_a_whole_hand_of_every_variant_against_bots(
    app: Any, client: TestClient, variant: str, overrides: dict[str, Any]
) -> None:
    """One client acts (at random among what it is offered, building its pushes from
    the cards offered) for player 0; bots for the others. Every state it received is
    what the engine shows player 0 at that version, and holds no hidden card."""
    players = tc.load_variant(variant, overrides=overrides or None).players
    with connect(client) as ws:
        me = Client(ws)
        table_id = create(me, variant, overrides=overrides, bots=all_bots_but(players, 0))
        player, token = sit(me, table_id)
        final = play_until(me, token, one_hand_played, random.Random(variant))
        assert final["table"]["status"] == "playing", final["table"]
        table = table_of(app, table_id)
        checked = check_wire(me.messages, player, fresh_game(table), table.record.actions)
        assert checked >= 10
        if variant == "threechu":  # player 0 shuffles the first hand and plays the dummy too
            first = next(m for m in me.messages if m["type"] == "state")
            assert first["observation"]["seats"] == [0, 2]


def test_two_people_and_a_spectator_each_see_their_own(app: Any, client: TestClient) -> None:
    with connect(client) as ws_a, connect(client) as ws_b, connect(client) as ws_c:
        ann, bob, eve = Client(ws_a), Client(ws_b), Client(ws_c)
        table_id = create(ann, "threechu", bots={"2": "greedy"})
        _, ann_token = sit(ann, table_id, player=0)
        _, bob_token = sit(bob, table_id, player=1)
        assert eve.request(type="watch", table=table_id)["type"] == "watching"
        rng = random.Random(4)
        while True:
            state = ann.sync()
            assert state is not None
            if one_hand_played(state):
                break
            for me, token in ((ann, ann_token), (bob, bob_token)):
                current = me.sync()
                assert current is not None
                seat = my_turn(current)
                if seat is not None:
                    action = random_action(current, seat, rng)
                    assert me.request(type="act", token=token, action=action)["type"] == "ack"
        eve.sync()
        table = table_of(app, table_id)
        for who, player in ((ann, 0), (bob, 1), (eve, None)):
            assert check_wire(who.messages, player, fresh_game(table), table.record.actions)
        # Each token is in its own client's `seated` reply and nowhere else.
        texts = {
            name: json.dumps(c.messages) for name, c in (("ann", ann), ("bob", bob), ("eve", eve))
        }
        assert [name for name, text in texts.items() if ann_token in text] == ["ann"]
        assert [name for name, text in texts.items() if bob_token in text] == ["bob"]
        assert all(m["legal"] == {} for m in eve.messages if m["type"] == "state")
        # Spectators see the dummy face up once the play begins (T3-4), nothing else.
        spectator_hands = {
            tuple(m["observation"]["hands"]) for m in eve.messages if m["type"] == "state"
        }
        assert spectator_hands <= {(), ("2",)}


def test_a_reconnecting_client_resumes_with_its_token(app: Any, client: TestClient) -> None:
    with connect(client) as ws:
        me = Client(ws)
        table_id = create(me, bots=all_bots_but(4, 0))
        _, token = sit(me, table_id)
        # Stopped where the table waits for the person alone: nothing changes until
        # it is back (the greedy bots never act out of turn).
        state = play_until(
            me,
            token,
            lambda s: s["version"] >= 12 and s["observation"]["waiting_for"] == [0],
            random.Random(1),
        )
        events = sum(len(m["events"]) for m in me.messages if m["type"] == "state")
    with connect(client) as ws:
        again = Client(ws)
        reply = again.request(type="resume", table=table_id, token=token, since=events)
        assert reply == {"type": "seated", "table": table_id, "player": 0, "id": 1}
        resumed = again.sync()
        assert resumed is not None and resumed["events_from"] == events
        assert resumed["observation"]["hand"] == state["observation"]["hand"]
        assert resumed["version"] == state["version"]
        assert again.request(type="resume", table=table_id, token="x" * 32)["code"] == "bad_token"


# --------------------------------------------------------------------------- refusals


def test_bad_messages_get_a_clear_error_and_change_nothing(app: Any, client: TestClient) -> None:
    with connect(client) as ws, connect(client) as other_ws:
        me, other = Client(ws), Client(other_ws)
        table_id = create(me, bots=all_bots_but(4, 0, 1))
        _, token = sit(me, table_id, player=0)
        _, other_token = sit(other, table_id, player=1)
        # Once the bots have decided the table waits for the two people alone: nothing
        # may change it while the bad messages are sent.
        state = me.wait(
            lambda s: my_turn(s) is not None and set(s["observation"]["waiting_for"]) <= {0, 1}
        )
        table = table_of(app, table_id)
        assert table.game is not None
        before = table.game.to_json()
        legal = state["legal"]["0"]["actions"]
        cases: list[tuple[Any, str, str]] = [
            ("{not json", "bad_json", "not JSON"),
            ('{"type": "ping", "type": "ping"}', "bad_json", "more than once"),
            ('{"type": "ping", "x": NaN}', "bad_json", "NaN"),
            ("[1, 2]", "bad_message", "JSON object"),
            ('{"type": "hack"}', "unknown_type", "known: act"),
            ('{"kind": "act"}', "unknown_type", "unknown message type"),
            ('{"type": "act"}', "bad_message", "action, token"),
            ('{"type": "ping", "extra": 1}', "bad_message", "no field 'extra'"),
            ('{"type": "ping", "id": [1]}', "bad_message", "'id'"),
            (json.dumps({"type": "ping", "pad": "x" * 20_000}), "too_large", "at most 16384"),
            ("[" * 5000 + "]" * 5000, "bad_json", "not JSON"),
            (
                json.dumps({"type": "act", "token": other_token, "action": legal[0]}),
                "not_your_seat",
                "not for seat 0",
            ),
            (
                json.dumps({"type": "act", "token": "guess" * 8, "action": legal[0]}),
                "bad_token",
                "not valid",
            ),
            (
                json.dumps({"type": "act", "token": token, "action": {"type": "fly", "seat": 0}}),
                "invalid_action",
                "fly",
            ),
            (
                json.dumps({"type": "act", "token": token, "action": "pass"}),
                "invalid_action",
                "JSON object",
            ),
            (
                json.dumps({"type": "act", "token": token, "action": {"type": "tichu", "seat": 7}}),
                "not_your_seat",
                "not for seat 7",
            ),
            (
                json.dumps(
                    {
                        "type": "act",
                        "token": token,
                        "action": {"type": "wish", "seat": 0, "rank": "Q"},
                    }
                ),
                "illegal_action",
                "",
            ),
        ]
        for text, code, words in cases:
            ws.send_text(text)
            reply = me.recv()
            while reply["type"] == "state":
                reply = me.recv()
            assert reply["type"] == "error" and reply["code"] == code, (text[:80], reply)
            assert words in reply["message"], reply
            assert table.game.to_json() == before
        illegal = [m for m in me.messages if m.get("code") == "illegal_action"]
        assert illegal[-1]["rule"]  # the docs/rules.md id of the refusal
        ws.send_bytes(b'{"type": "ping"}')
        assert me.recv()["code"] == "bad_message"
        reply = me.request(type="ping", id="keep")  # the id is echoed
        assert me.request(type="ping")["type"] == "pong"
        assert table.game.to_json() == before
        assert reply["type"] == "pong"


def test_a_flood_is_refused_then_closed(tmp_path: Path) -> None:
    limits = Limits(messages_per_second=5, burst=10, flood_close=30)
    app = create_app(tmp_path / "t.db", limits=limits)
    with TestClient(app, base_url=LOCAL) as client, connect(client) as ws:
        me = Client(ws)
        for number in range(25):
            ws.send_json({"type": "ping", "id": number})
        replies = [me.recv() for _ in range(25)]
        pongs = [r for r in replies if r["type"] == "pong"]
        limited = [r for r in replies if r.get("code") == "rate_limited"]
        assert 10 <= len(pongs) < 25 and len(pongs) + len(limited) == 25
        assert "wait" in limited[0]["message"] and limited[0]["id"] >= 10
        for number in range(200):
            ws.send_json({"type": "ping", "id": number})
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(400):
                me.recv()
        assert (closed.value.code, closed.value.reason) == (1008, "flooding")
        assert client.get("/health").json()["ok"]  # the server goes on


def test_the_rate_limiter_refills_with_time() -> None:
    now = [0.0]
    limiter = RateLimiter(rate=2.0, burst=3, clock=lambda: now[0])
    assert [limiter.allow() for _ in range(4)] == [True, True, True, False]
    assert limiter.wait() == 0.5
    now[0] += 0.5
    assert limiter.allow() and not limiter.allow()


# --------------------------------------------------------------------------- failures


class FailingBot:
    name = "failing"

    def choose(self, observation: tc.Observation, actions: tc.LegalActions, seat: int) -> Any:
        raise RuntimeError("this bot always fails")


def test_a_failing_table_stops_alone(app: Any, client: TestClient) -> None:
    with connect(client) as ws:
        me = Client(ws)
        broken = create(me, bots=all_bots_but(4, 0))
        healthy = create(me, bots=all_bots_but(4, 0))
        _, broken_token = sit(me, broken)
        # The bots have decided: the table waits for the person alone.
        state = me.wait(lambda s: my_turn(s) is not None and s["observation"]["waiting_for"] == [0])
        for bot in table_of(app, broken).bots:
            table_of(app, broken).bots[bot] = FailingBot()
        seat = my_turn(state)
        assert seat is not None
        action = random_action(state, seat, random.Random(0))
        assert me.request(type="act", token=broken_token, action=action)["type"] == "ack"
        state = me.wait(lambda s: s["table"]["status"] == "failed")
        assert "this bot always fails" in state["table"]["error"]
        assert state["legal"] == {}
        reply = me.request(type="act", token=broken_token, action={"type": "tichu", "seat": 0})
        assert reply["code"] == "table_failed"
        _, token = sit(me, healthy)
        state = play_until(me, token, lambda s: s["version"] >= 10, random.Random(2))
        assert state["table"]["status"] == "playing"
        health = client.get("/health").json()
        assert (health["ok"], health["tables"], health["failed"]) == (True, 2, 1)


def test_an_action_is_stored_before_it_is_acknowledged(app: Any, client: TestClient) -> None:
    import sqlite3

    with connect(client) as ws:
        me = Client(ws)
        table_id = create(me, bots=all_bots_but(4, 0))
        _, token = sit(me, table_id)
        db = sqlite3.connect(lobby_of(app).store.path)
        rng = random.Random(3)
        for _ in range(5):
            state = me.wait(lambda s: my_turn(s) is not None)
            seat = my_turn(state)
            assert seat is not None
            reply = me.request(type="act", token=token, action=random_action(state, seat, rng))
            (stored,) = db.execute(
                "SELECT count(*) FROM actions WHERE table_id = ?", (table_id,)
            ).fetchone()
            assert stored >= reply["version"]  # another connection reads it: committed
        db.close()


def test_a_storage_failure_refuses_the_action_and_changes_nothing(
    app: Any, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    with connect(client) as ws:
        me = Client(ws)
        table_id = create(me, bots=all_bots_but(4, 0))
        _, token = sit(me, table_id)
        # The bots have decided: the table waits for the person alone (a bot's write
        # failing would stop the table, which is another test's matter).
        state = me.wait(lambda s: my_turn(s) is not None and s["observation"]["waiting_for"] == [0])
        table = table_of(app, table_id)
        assert table.game is not None
        before = table.game.to_json()

        def disk_full(*args: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(lobby_of(app).store, "put_action", disk_full)
        seat = my_turn(state)
        assert seat is not None
        action = random_action(state, seat, random.Random(0))
        reply = me.request(type="act", token=token, action=action)
        assert reply["code"] == "storage_error" and "disk full" in reply["message"]
        assert table.game.to_json() == before and table.status == "playing"
        monkeypatch.undo()
        assert me.request(type="act", token=token, action=action)["type"] == "ack"


# --------------------------------------------------------------------------- the command


def test_tichu_serve_takes_host_port_db_and_bot_delay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tichu_core.frontends import cli
    from tichu_core.frontends.web import app as web_app

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(web_app, "serve", lambda *args, **kw: calls.append((*args, kw)))
    db = str(tmp_path / "t.db")
    assert cli.main(["serve", "--port", "8123", "--db", db, "--bot-delay", "0"]) == 0
    assert cli.main(["serve"]) == 0
    assert [(*call[:3], call[3]["bot_delay"]) for call in calls] == [
        ("127.0.0.1", 8123, db, 0.0),
        ("127.0.0.1", 8000, "tichu-tables.db", 0.5),
    ]
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert cli.main(["serve", "--bot-delay", "nan"]) == 2
    assert "at most 65535" in capsys.readouterr().err
