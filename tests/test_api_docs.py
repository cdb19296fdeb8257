"""docs/api.md stays true to the code.

It names every field of ``Observation`` and ``HandResult``, every event type with its
fields and who sees it, every action with its fields and a JSON form that the engine
reads and writes back unchanged, every error and every key of a saved game, every way
a match ends, every member of ``TableView`` and every field of the rules' answers
(``Refusal``, ``Seating``, ``HandScore``, ``Outcome``); and its python examples run.
Each check is a function returning the problems it finds, so that the last test can
show that a check does fail when the page loses a name.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

import tichu_core as tc
from tichu_core.frontends.bots import GreedyBot, play_match
from tichu_core.game.actions import ACTION_TYPES, ActionModel
from tichu_core.game.events import EVENT_TYPES

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"
TEXT = DOC.read_text()
COMMON_EVENT_FIELDS = ("type", "hand", "visible_to")

Table = tuple[list[str], dict[str, list[str]]]


# --- reading the page ------------------------------------------------------------------


def section(text: str, number: int) -> str:
    """The text of section ``## <number>. ...`` up to the next ``## `` heading."""
    match = re.search(rf"^## {number}\. .*?(?=^## |\Z)", text, flags=re.M | re.S)
    assert match, f"docs/api.md has no section '## {number}. ...'"
    return match.group(0)


def names(text: str) -> set[str]:
    """Everything written in backticks."""
    return set(re.findall(r"`([^`\n]+)`", text))


def cells(line: str) -> list[str]:
    # A '|' inside backticks (none are used in the page's tables) would split a cell.
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def tables(text: str) -> list[Table]:
    """Each markdown table: its header cells and its rows keyed by the first cell's
    backticked name (rows whose first cell is no single backticked name are skipped)."""
    found: list[Table] = []
    for block in re.findall(r"(?:^\|.*\n)+", text, flags=re.M):
        lines = block.strip().splitlines()
        rows: dict[str, list[str]] = {}
        for line in lines[2:]:
            row = cells(line)
            key = re.fullmatch(r"`([^`]+)`", row[0])
            if key:
                rows[key.group(1)] = row
        found.append((cells(lines[0]), rows))
    return found


def table(text: str, first_header: str) -> dict[str, list[str]]:
    """The rows of the one table whose first header cell is ``first_header``."""
    matching = [rows for header, rows in tables(text) if header[0] == first_header]
    assert len(matching) == 1, f"expected one table headed {first_header!r}, got {len(matching)}"
    return matching[0]


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)


def run_example(block: str, name: str) -> None:
    """Run one example on its own, as a reader would paste it."""
    exec(compile(block, f"{DOC} ({name})", "exec"), {"__name__": "api_doc"})


# --- the checks: each returns its problems ------------------------------------------------


def model_table_problems(
    text: str, number: int, first_header: str, model: type[BaseModel]
) -> list[str]:
    rows = table(section(text, number), first_header)
    fields = set(model.model_fields)
    problems = [f"{model.__name__}.{name} is not documented" for name in sorted(fields - set(rows))]
    problems += [f"{model.__name__} has no field {name}" for name in rows if name not in fields]
    return problems


def event_problems(text: str) -> list[str]:
    events = section(text, 4)
    problems = [
        f"common event field {name} is not documented"
        for name in COMMON_EVENT_FIELDS
        if name not in table(events, "Field")
    ]
    rows = table(events, "`type`")
    tags = {}
    for event_type in EVENT_TYPES:
        tag = event_type.model_fields["type"].default
        tags[tag] = event_type
        if tag not in rows:
            problems.append(f"event type {tag!r} has no row")
            continue
        row_names = names(" | ".join(rows[tag][1:]))
        for field in event_type.model_fields:
            if field not in COMMON_EVENT_FIELDS and field not in row_names:
                problems.append(f"event {tag!r}: field {field!r} is not named")
    problems += [f"row {tag!r} names no event type" for tag in rows if tag not in tags]
    return problems


def _model_fields_by_type() -> dict[str, set[str]]:
    fields = {}
    for model in typing.get_args(ActionModel):
        (tag,) = typing.get_args(model.model_fields["type"].annotation)
        fields[tag] = set(model.model_fields)
    return fields


def action_problems(text: str) -> list[str]:
    rows = table(section(text, 2), "Class")
    problems = []
    json_keys = _model_fields_by_type()
    for tag, action_class in ACTION_TYPES.items():
        row = rows.get(action_class.__name__)
        if row is None:
            problems.append(f"action {action_class.__name__} has no row")
            continue
        _, fields, type_cell, json_cell = row
        if type_cell != f"`{tag}`":
            problems.append(f"{action_class.__name__}: type cell {type_cell!r}, not `{tag}`")
        for field in action_class._fields:
            if field != "type" and field not in re.findall(r"`(\w+)", fields):
                problems.append(f"{action_class.__name__}: field {field!r} is not named")
        shown: set[str] = set()
        for example in re.findall(r"`(\{[^`]*\})`", json_cell):
            data = json.loads(example)
            try:
                action = tc.action_from_json(data)
            except tc.InvalidAction as error:
                problems.append(f"{example} is refused: {error}")
                continue
            if not isinstance(action, action_class):
                problems.append(f"{example} is read as a {type(action).__name__}")
            if tc.action_to_dict(action) != data:
                problems.append(f"{example} is not canonical: {tc.action_to_dict(action)}")
            shown |= set(data)
        for key in sorted(json_keys[tag] - shown):
            problems.append(f"{action_class.__name__}: JSON key {key!r} is not shown")
    return problems


ANSWERS = (tc.Refusal, tc.Seating, tc.HandScore, tc.Outcome)


def table_view_problems(text: str) -> list[str]:
    rows = table(section(text, 8), "Member")
    documented = {name.split("(")[0] for name in rows}
    members = {name for name in dir(tc.TableView) if not name.startswith("_")}
    problems = [f"TableView.{name} is not documented" for name in sorted(members - documented)]
    problems += [f"TableView has no member {name}" for name in sorted(documented - members)]
    return problems


def answer_problems(text: str) -> list[str]:
    rows = table(section(text, 8), "Class")
    problems = [f"row {name} is no answer" for name in rows if name not in tc.__all__]
    for answer in ANSWERS:
        row = rows.get(answer.__name__)
        if row is None:
            problems.append(f"answer {answer.__name__} has no row")
            continue
        named = set(re.findall(r"`(\w+)", row[1]))
        for field in dataclasses.fields(answer):
            if field.name not in named:
                problems.append(f"{answer.__name__}: field {field.name!r} is not named")
    return problems


def termination_problems(text: str) -> list[str]:
    rows = table(section(text, 7), "`Termination`")
    problems = []
    for member in tc.Termination:
        row = rows.get(member.name)
        if row is None:
            problems.append(f"Termination.{member.name} has no row")
        elif row[1] != f'`"{member.value}"`':
            problems.append(f"Termination.{member.name}: value cell {row[1]!r}")
    problems += [
        f"row {name} is no Termination" for name in rows if name not in tc.Termination.__members__
    ]
    return problems


# --- tests --------------------------------------------------------------------------------


def test_every_observation_field_is_documented() -> None:
    assert model_table_problems(TEXT, 3, "Field", tc.Observation) == []


def test_every_hand_result_field_is_documented() -> None:
    assert model_table_problems(TEXT, 7, "Field", tc.HandResult) == []


def test_every_event_type_and_its_fields_are_documented() -> None:
    assert event_problems(TEXT) == []


def test_every_combination_name_of_a_played_event_is_listed() -> None:
    played = table(section(TEXT, 4), "`type`")["played"]
    listed = names(" ".join(played))
    assert {kind.name.lower() for kind in tc.Kind} <= listed


def test_who_sees_each_event_is_what_the_engine_does() -> None:
    """Rows of events seen privately say "only" (or name the seat); public ones say
    "everyone" (``pushed`` has both copies)."""
    game = tc.Game(tc.load_variant("standard", overrides={"game.target": 200}), seed=4)
    play_match(game, [GreedyBot(seat) for seat in range(4)])
    rows = table(section(TEXT, 4), "`type`")
    public = {event.type for event in game.event_log if event.visible_to is None}
    private = {event.type for event in game.event_log if event.visible_to is not None}
    assert {"cards_dealt", "pushed", "cards_received", "played", "hand_scored"} <= (
        public | private
    )
    for tag in public:
        assert "everyone" in rows[tag][-1], tag
    for tag in private:
        assert re.search(r"\bonly\b|pushing seat", rows[tag][-1]), tag
    for tag in private - public:
        assert "everyone" not in rows[tag][-1], tag


def test_every_action_its_fields_and_its_json_form_are_documented() -> None:
    assert action_problems(TEXT) == []


def test_every_error_of_the_family_is_documented() -> None:
    rows = table(section(TEXT, 5), "Error")
    errors = {
        name
        for name in tc.__all__
        if isinstance(getattr(tc, name), type)
        and issubclass(getattr(tc, name), tc.TichuError)
        and name != "TichuError"
    }
    assert errors == set(rows)
    assert "`.rule`" in rows["IllegalAction"][1]


def test_every_key_of_a_saved_game_is_documented() -> None:
    saved = json.loads(tc.Game("standard", seed=1).to_json())
    assert list(table(section(TEXT, 6), "Key")) == list(saved)


def test_every_way_a_match_ends_is_documented() -> None:
    assert termination_problems(TEXT) == []
    end = section(TEXT, 7)
    assert {"game.outcome", "Outcome", "Termination"} <= names(end)
    assert "termination" in names(table(section(TEXT, 4), "`type`")["match_over"][1])


def test_the_table_view_and_the_answers_of_the_rules_are_documented() -> None:
    assert table_view_problems(TEXT) == []
    assert answer_problems(TEXT) == []
    assert {"TableView", "Refusal", "Seating", "HandScore", "Outcome", "Termination"} <= set(
        tc.__all__
    )


def test_the_page_has_python_examples() -> None:
    assert len(python_blocks(TEXT)) >= 5


@pytest.mark.parametrize("number", range(len(python_blocks(TEXT))))
def test_the_python_examples_run(number: int) -> None:
    run_example(python_blocks(TEXT)[number], f"python example {number + 1}")


def test_the_checks_fail_when_the_page_loses_a_name() -> None:
    without_row = re.sub(r"^\| `won_cards` \|.*\n", "", TEXT, flags=re.M)
    assert model_table_problems(without_row, 3, "Field", tc.Observation) == [
        "Observation.won_cards is not documented"
    ]
    renamed = TEXT.replace("| `double_victory` | whether", "| `double victory` | whether")
    assert model_table_problems(renamed, 7, "Field", tc.HandResult) == [
        "HandResult.double_victory is not documented",
        "HandResult has no field double victory",
    ]
    without_place = TEXT.replace("`place` (1 for the first out)", "the place")
    assert event_problems(without_place) == ["event 'seat_out': field 'place' is not named"]
    wrong_json = TEXT.replace('"to": 2}` |\n| `GiveLead`', '"to": "2"}` |\n| `GiveLead`')
    refused, *unshown = action_problems(wrong_json)
    assert refused.startswith('{"type": "give_trick", "seat": 1, "to": "2"} is refused')
    assert unshown == [
        f"GiveTrick: JSON key {key!r} is not shown" for key in ("seat", "to", "type")
    ]
    unsorted = TEXT.replace('"cards": "5s 5j"}', '"cards": "5j 5s"}')
    assert action_problems(unsorted) == [
        '{"type": "play", "seat": 0, "cards": "5j 5s"} is not canonical: '
        "{'type': 'play', 'seat': 0, 'cards': '5s 5j'}"
    ]
    no_phoenix = TEXT.replace(
        ' or `{"type": "play", "seat": 0, "cards": "Ap As PH", "phoenix": "A"}`', ""
    )
    assert action_problems(no_phoenix) == ["Play: JSON key 'phoenix' is not shown"]
    wrong_claim = TEXT.replace('assert play.cards == "4p 3s 2j PH MJ"', 'assert play.cards == "MJ"')
    failing = [block for block in python_blocks(wrong_claim) if block not in python_blocks(TEXT)]
    assert len(failing) == 1
    with pytest.raises(AssertionError):
        run_example(failing[0], "a broken example")
    without_member = re.sub(r"^\| `ranking\(\)` \|.*\n", "", TEXT, flags=re.M)
    assert table_view_problems(without_member) == ["TableView.ranking is not documented"]
    without_field = TEXT.replace("`rule`, `reason` |", "`rule`, the reason |")
    assert answer_problems(without_field) == ["Refusal: field 'reason' is not named"]
    wrong_value = TEXT.replace(
        '| `HANDS_PLAYED` | `"hands_played"` |', '| `HANDS_PLAYED` | `"hands"` |'
    )
    assert termination_problems(wrong_value) == [
        "Termination.HANDS_PLAYED: value cell '`\"hands\"`'"
    ]
