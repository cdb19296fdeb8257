"""The web table's seating and the data its page reads (issue 27), through the protocol:
the game starts when every place is taken, only seated people seat bots, blank names
are refused, plays carry the labels players use, each state carries the engine's
hand results, and the lobby names variants and bots in words."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from webtable import (
    FAST,
    LOCAL,
    LOCAL_WS,
    Client,
    card_codes,
    lobby_of,
    my_turn,
    one_hand_played,
    play_until,
)

import tichu_core as tc
from tichu_core.frontends.bots import bot_names
from tichu_core.frontends.web.app import create_app
from tichu_core.frontends.web.protocol import _label


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(tmp_path / "tables.db", limits=FAST)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, base_url=LOCAL) as test_client:
        yield test_client


def test_nothing_is_dealt_or_played_before_every_place_is_taken(
    app: Any, client: TestClient
) -> None:
    with client.websocket_connect(LOCAL_WS) as ann_ws, client.websocket_connect(LOCAL_WS) as bob_ws:
        ann, bob = Client(ann_ws), Client(bob_ws)
        table_id = ann.request(type="create", variant="standard")["table"]["id"]
        token = ann.request(type="sit", table=table_id, name="Ann")["token"]
        state = ann.sync()
        assert state is not None and state["table"]["status"] == "waiting"
        assert state["observation"] is None and state["events"] == [] and state["legal"] == {}
        assert not card_codes(ann.messages)  # not one card shown
        action = {"type": "grand_tichu", "seat": 0, "call": False}
        reply = ann.request(type="act", token=token, action=action)
        assert (reply["type"], reply["code"]) == ("error", "not_started")
        assert "3 free" in reply["message"] and lobby_of(app).tables[table_id].version == 0
        # A friend takes a place from the link; a seated person seats the bots: it starts.
        bob.request(type="watch", table=table_id)
        assert bob.request(type="sit", table=table_id, name="Bob")["player"] == 1
        seated = ann.request(
            type="bots", table=table_id, bots={"2": "greedy", "3": "greedy"}, token=token
        )
        assert seated["type"] == "bots_seated"
        state = ann.wait(lambda s: my_turn(s) is not None)
        assert state["table"]["status"] == "playing" and state["observation"]["hand"]


def test_only_a_person_seated_at_the_table_seats_bots(client: TestClient) -> None:
    with client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        table_id = me.request(type="create", variant="standard")["table"]["id"]
        other = me.request(type="create", variant="standard")["table"]["id"]
        elsewhere = me.request(type="sit", table=other)["token"]
        for request, code in [
            ({"table": table_id, "bots": {"1": "greedy"}}, "bad_message"),  # no token
            ({"table": table_id, "bots": {"1": "greedy"}, "token": "x" * 32}, "bad_token"),
            ({"table": table_id, "bots": {"1": "greedy"}, "token": elsewhere}, "bad_token"),
        ]:
            reply = me.request(type="bots", **request)
            assert (reply["type"], reply["code"]) == ("error", code), reply
        listed = {t["id"]: t for t in me.request(type="tables")["tables"]}
        assert all(s["kind"] == "free" for s in listed[table_id]["seating"])


@pytest.mark.parametrize("name", [" ", "   ", "\u3000"])
def test_a_blank_name_is_refused_and_names_are_trimmed(client: TestClient, name: str) -> None:
    with client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        table_id = me.request(type="create", variant="standard")["table"]["id"]
        reply = me.request(type="sit", table=table_id, name=name)
        assert reply["type"] == "error" and reply["code"] in ("bad_name", "bad_message"), reply
        assert me.request(type="sit", table=table_id, name="  Ann ")["player"] == 0
        assert me.request(type="sit", table=table_id)["player"] == 1
        listed = {t["id"]: t for t in me.request(type="tables")["tables"]}
        names = [s["name"] for s in listed[table_id]["seating"]]
        assert names[:2] == ["Ann", "Player 2"]  # places are counted from 1 for people


def label_in(game: tc.Game, combination: tc.Combination) -> str:
    """The web label of ``combination``, its kind named by ``game``'s rules (as the
    server does: a house kind has its own name)."""
    return _label(combination, game.rulebook.play_rules.kind_name(combination.kind))


def test_plays_are_labelled_as_players_say_them() -> None:
    kind = tc.Kind
    _label = partial(label_in, tc.Game("standard", seed=0))
    assert _label(tc.Combination(kind.STRAIGHT, 5, 9, 0, 0)) == "straight 5\u20139"
    assert _label(tc.Combination(kind.STRAIGHT, 6, 6, 0, 0)) == "straight 1\u20136"  # Mah Jong
    assert _label(tc.Combination(kind.STRAIGHT, 5, 9, 0, 7)) == "straight 5\u20139, Phoenix as 7"
    assert _label(tc.Combination(kind.STEPS, 6, 9, 0, 0)) == "pairs 7\u20139"
    assert _label(tc.Combination(kind.PAIR, 2, 7, 0, 0)) == "pair of sevens"
    assert _label(tc.Combination(kind.FULL_HOUSE, 5, 12, 0, 0)) == "full house, three queens"
    assert _label(tc.Combination(kind.FOUR_BOMB, 4, 14, 0, 0)) == "four bomb of aces"
    assert _label(tc.Combination(kind.SINGLE, 1, 7.5, 0, 0)) == "Phoenix"
    assert _label(tc.Combination(kind.SINGLE, 1, 15, 0, 0)) == "Dragon"


def test_no_label_of_any_listed_play_reads_as_a_card_code() -> None:
    """A label like "pair of 7s" would name the Seven of Swords (7s): labels use words."""
    for variant, overrides in [("standard", None), ("grand_seigneur", {"players": 7})]:
        game = tc.Game(tc.load_variant(variant, overrides=overrides), seed=5)
        rng = random.Random(5)
        while not game.hand_results:
            seat = game.waiting_for[0]
            legal = game.legal_actions(seat)
            for play in legal.combinations:
                text = label_in(game, tc.Combination(*play))
                assert not card_codes(text), text
            game.apply(legal[rng.randrange(len(legal))])


def test_each_state_carries_the_engines_hand_results_and_scoring_values(
    app: Any, client: TestClient
) -> None:
    with client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        bots = {str(p): "greedy" for p in (1, 2)}
        table_id = me.request(type="create", variant="threechu", bots=bots)["table"]["id"]
        token = me.request(type="sit", table=table_id, name="Ann")["token"]
        state = play_until(me, token, one_hand_played, random.Random(3))
        state = me.wait(lambda s: len(s["results"]) >= 1)
        game = lobby_of(app).tables[table_id].game
        assert game is not None
        (result,) = state["results"][:1]
        expected = game.hand_results[0].model_dump(mode="json")
        assert {k: v for k, v in result.items() if k != "lines"} == expected
        # Threechu scores per player, the dummy's line last (T3-7).
        lines = len(game.score_lines)
        assert result["lines"] == [
            lines - 1 if player is None else player for player in expected["players"]
        ]
        assert state["scoring"] == {"tichu": 100, "grand_tichu": 200, "double_victory": 200}
        assert state["winners"] == game.winners


def test_the_lobby_names_variants_and_bots_in_words(client: TestClient) -> None:
    with client.websocket_connect(LOCAL_WS) as ws:
        reply = Client(ws).request(type="variants")
        titles = {v["name"]: v["title"] for v in reply["variants"]}
        assert titles["standard"] == "Standard Tichu" and titles["threechu"] == "Threechu"
        assert titles["house_stray_dog"].startswith("House rule: ")
        assert set(reply["bot_descriptions"]) == set(bot_names())
        assert all(len(words) > 20 for words in reply["bot_descriptions"].values())
