"""Values nested deeper than any variant's (issue 42, item 7): a TOML array about 450
levels deep gave `tichu check` a 2,022-line RecursionError traceback, and
`load_variant(overrides=...)` a RecursionError (the `(got VALUE)` of the message was
written by recursion), which the web table's `create` answered as `internal_error`.
Now every such value is a VariantError in one line, and a web `create` is refused as a
bad variant."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from webtable import LOCAL, LOCAL_WS, Client

import tichu_core as tc
from tichu_core.frontends.cli.commands import main
from tichu_core.frontends.web.app import create_app


def nested_list(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def nested_table(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


def cycle() -> list[object]:
    looped: list[object] = []
    looped.append(looped)
    return looped


HEAD = 'extends = "standard"\nname = "deep"\n'
FILES = {
    "array 450": HEAD + "[game]\ntarget = " + "[" * 450 + "1" + "]" * 450 + "\n",
    "array 5000": HEAD + "[game]\ntarget = " + "[" * 5000 + "1" + "]" * 5000 + "\n",
    "inline table 450": HEAD + "[game]\ntarget = " + "{a = " * 450 + "1" + "}" * 450 + "\n",
    "table headers 2000": HEAD + "[deck.copies_by_players." + ".".join(["a"] * 2000) + "]\nb = 1\n",
    "array of 40 under a table of a parent": HEAD
    + "[deck]\ncopies_by_players = { '7' = "
    + "[" * 40
    + "2"
    + "]" * 40
    + " }\n",
}


@pytest.mark.parametrize("shape", sorted(FILES))
def test_check_reports_a_deeply_nested_value_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: str
) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(FILES[shape], encoding="utf-8")
    code = main(["check", str(path)])
    captured = capsys.readouterr()
    assert code != 0
    lines = (captured.out + captured.err).strip().splitlines()
    assert len(lines) == 1 and "Recursion" not in lines[0], lines[:3]
    assert str(path) in lines[0] and len(lines[0]) < 400
    with pytest.raises(tc.VariantError):
        tc.load_variant(path)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("game.target", nested_list(450)),
        ("game.target", nested_list(20_000)),
        ("game.target", nested_table(450)),
        ("game", nested_table(5000)),
        ("deck.copies_by_players", {"7": nested_list(2000)}),
        ("game.target", cycle()),
        ("plugins", [nested_list(100)]),
    ],
)
def test_a_deeply_nested_override_is_a_variant_error(key: str, value: object) -> None:
    with pytest.raises(tc.VariantError) as error:
        tc.load_variant("standard", overrides={key: value})
    assert len(str(error.value)) < 400 and key.split(".")[0] in str(error.value)


def test_nesting_as_deep_as_a_variant_needs_is_read() -> None:
    loaded = tc.load_variant("standard", overrides={"deck.copies_by_players": {"7": 2}})
    assert loaded.deck.copies_by_players["7"] == 2


def test_a_web_create_with_a_deeply_nested_override_is_refused_as_a_bad_variant(
    tmp_path: Path,
) -> None:
    app = create_app(tmp_path / "t.db")
    with TestClient(app, base_url=LOCAL) as client, client.websocket_connect(LOCAL_WS) as ws:
        me = Client(ws)
        for value in (nested_list(450), [nested_table(400)]):
            reply = me.request(type="create", variant="standard", overrides={"game.target": value})
            assert reply["type"] == "error" and reply["code"] == "bad_variant", reply
            assert len(reply["message"]) < 400
        assert me.request(type="create", variant="standard")["type"] == "created"
