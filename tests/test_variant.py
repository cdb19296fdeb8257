"""Variant files: the option model, TOML loading, `extends`, overrides and error reports."""

from __future__ import annotations

import json
import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from tichu_core.errors import VariantError
from tichu_core.frontends.cli.commands import cli_check, cli_schema, cli_variants
from tichu_core.variants.loading import (
    check_variant_file,
    dump_schema_json,
    list_variants,
    load_variant,
    parse_overrides,
    register_variant_path,
    variant_schema,
)
from tichu_core.variants.models import ExchangeOptions, Variant, VariantFile

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
BUNDLED = ("standard", "threechu", "tientsin", "grand_seigneur")


def sections() -> dict[str, type[BaseModel]]:
    """Section name -> options model, read from the Variant model itself."""
    found = {}
    for key, field in Variant.model_fields.items():
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel):
            found[key] = field.annotation
    return found


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(excinfo: pytest.ExceptionInfo[VariantError]) -> list[str]:
    error = excinfo.value
    assert str(error).splitlines() == error.problems, "one problem per message line"
    return error.problems


# --------------------------------------------------------------------------- bundled files


def test_bundled_names_are_listed() -> None:
    names = list_variants()
    assert names == sorted(names)
    assert set(BUNDLED) | {"house_short_game"} <= set(names)


@pytest.mark.parametrize("name", sorted({*BUNDLED, "house_short_game", *list_variants()}))
def test_every_bundled_variant_loads(name: str) -> None:
    variant = load_variant(name)
    assert variant.name == name
    assert variant.source == name
    assert variant.description
    assert not variant.allow_imports
    assert len(variant.deck_codes) >= variant.seats


def test_every_bundled_file_checks_from_its_path() -> None:
    for path in sorted((ROOT / "variants").glob("*.toml")):
        assert check_variant_file(path).name == path.stem


def test_standard_is_the_model_default() -> None:
    """S-DECK-1, S-DEAL-1, S-EX-1, S-GAME-1: the defaults are the standard game."""
    standard = load_variant("standard")
    assert standard == Variant(name="standard", description=standard.description)
    assert standard.players == standard.seats == 4
    assert len(standard.deck_codes) == 56
    assert [standard.team_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert standard.deal.hand_size == 14 and standard.deal.grand_tichu_after == 8
    assert standard.game.target == 1000 and standard.game.hands == 0


def test_standard_file_states_every_option_with_its_default() -> None:
    """standard.toml documents the defaults: every option, each with the model's default."""
    raw = tomllib.loads((ROOT / "variants" / "standard.toml").read_text(encoding="utf-8"))
    expected_top = set(VariantFile.model_fields) - {"extends"}
    assert set(raw) == expected_top
    defaults = Variant(name="standard")
    for key in expected_top - set(sections()) - {"name", "description"}:
        assert VariantFile.model_validate({key: raw[key]}).model_dump()[key] == getattr(
            defaults, key
        ), key
    for section, model in sections().items():
        assert set(raw[section]) == set(model.model_fields), section
        assert model.model_validate(raw[section]) == getattr(defaults, section), section


def test_threechu_options() -> None:
    """T3-1 dummy seat, T3-3 pushes to opponents, T3-7 per-player scores, T3-8 9 hands."""
    variant = load_variant("threechu")
    assert variant.players == 3 and variant.seats == 4
    assert variant.teams.dummy and variant.teams.size == 2
    assert [variant.team_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert variant.exchange.targets == "opponents"
    assert variant.scoring.per_player
    assert (variant.game.hands, variant.game.target) == (9, 0)
    assert variant.plugins == ("standard", "threechu")


def test_tientsin_options() -> None:
    """T6-1 teams of three, T6-2 whole-deck deal and Grand Tichu after 6, T6-3, T6-4, T6-5."""
    variant = load_variant("tientsin")
    assert variant.seats == 6 and variant.team_count == 2
    assert [variant.team_of(seat) for seat in range(6)] == [0, 1, 0, 1, 0, 1]
    assert (variant.deal.hand_size, variant.deal.grand_tichu_after) == (0, 6)
    assert variant.deal.first_receiver == "dealer"
    assert variant.exchange.targets == "partners"
    assert variant.dog.choose_partner
    assert variant.scoring.double_victory == 300
    assert variant.plugins == ("standard", "tientsin")


def test_grand_seigneur_options() -> None:
    """GS-1 no partners, calls, card points or gift; GS-3 deal; GS-4; GS-5/GS-6 exchange."""
    variant = load_variant("grand_seigneur")
    assert variant.players == 7 and variant.teams.size == 1 and variant.team_count == 7
    assert not (variant.calls.tichu or variant.calls.grand_tichu)
    assert not variant.scoring.card_points and not variant.dragon.gift
    assert variant.dragon.second_beats_first and variant.bombs.four_distinct_suits
    assert variant.deal.hand_size == 0 and variant.deal.grand_tichu_after == 0
    assert variant.deal.first_receiver == "after_dealer"
    assert variant.exchange.targets == "rank" and not variant.exchange.first_hand
    assert variant.game.target == 0 and variant.game.hands > 0
    assert variant.wish.enabled  # E-4, GS-7


@pytest.mark.parametrize("players", range(5, 13))
def test_grand_seigneur_deck_per_player_count(players: int) -> None:
    """GS-2: 5-6 players one deck without the Dog (55); 7-12 two decks without both Dogs
    and the second Mah Jong (109). GS-6: 5 players exchange one card fewer per level."""
    variant = load_variant("grand_seigneur", {"players": players})
    deck = Counter(variant.deck_codes)
    assert variant.players == variant.seats == players
    assert "DOG" not in deck and deck["MJ"] == 1
    if players <= 6:
        assert variant.deck_copies == 1 and len(variant.deck_codes) == 55
        assert deck["DR"] == deck["PH"] == deck["As"] == 1
    else:
        assert variant.deck_copies == 2 and len(variant.deck_codes) == 109
        assert deck["DR"] == deck["PH"] == deck["As"] == 2
    assert variant.exchange_rank_cards == ((2, 1, 0) if players == 5 else (3, 2, 1))


def test_house_rule_example_extends_standard() -> None:
    """S-GAME-1: the house example only changes the target."""
    house, standard = load_variant("house_short_game"), load_variant("standard")
    assert house.game.target == 500
    changed = {"name", "description", "source", "game"}
    assert house.model_dump(exclude=changed) == standard.model_dump(exclude=changed)
    assert house.game.hands == standard.game.hands


# --------------------------------------------------------------------------- extends, overrides


def test_extends_merges_tables_deeply_and_replaces_lists(tmp_path: Path) -> None:
    parent = write(
        tmp_path / "rules" / "parent.toml",
        'extends = "grand_seigneur"\nname = "parent"\ndescription = "from parent"\n'
        'plugins = ["standard", "grand_seigneur", "a"]\n'
        '[deck.without_by_players]\n"9" = ["DOG", "DOG"]\n[game]\nhands = 12\n',
    )
    child = write(
        tmp_path / "child.toml",
        'extends = "rules/parent.toml"\nplugins = ["standard", "b"]\n'
        "players = 9\n[game]\ntarget = 300\n",
    )
    variant = load_variant(child)
    assert variant.name == "child"  # a name is never inherited
    assert variant.description == "from parent"
    assert variant.plugins == ("standard", "b")  # lists replace
    assert (variant.game.target, variant.game.hands) == (300, 12)  # tables merge
    assert variant.deck_without == ("DOG", "DOG")  # the parent's entry for 9 wins ...
    assert variant.deck.without_by_players["8"] == ("DOG", "DOG", "MJ")  # ... others stay
    assert variant.teams.size == 1  # from grand_seigneur, two levels up
    assert load_variant(parent).name == "parent"


def test_a_file_without_extends_takes_the_defaults(tmp_path: Path) -> None:
    variant = load_variant(write(tmp_path / "plain.toml", "[game]\ntarget = 250\n"))
    assert variant.name == "plain"
    assert variant.game.target == 250
    assert variant.model_dump(exclude={"name", "source", "game"}) == Variant(name="x").model_dump(
        exclude={"name", "source", "game"}
    )


def test_overrides_apply_after_merging() -> None:
    """S-GAME-1 and S-BOMB-5 by override; tables given whole merge like a file's."""
    variant = load_variant(
        "threechu",
        {"game.target": 500, "game.hands": 0, "bombs": {"own_trick": False}, "name": "mine"},
    )
    assert (variant.game.target, variant.game.hands) == (500, 0)
    assert not variant.bombs.own_trick and variant.bombs.four_distinct_suits
    assert variant.name == "mine"
    assert variant.teams.dummy  # untouched options keep the file's value


def test_card_codes_are_case_insensitive_and_canonical() -> None:
    """S-DECK-1 card notation: `2J` is `2j`, `T` is 10, specials in capitals."""
    variant = load_variant(
        "standard", {"deck.without": ["dog", "2J", "tt", "Qp"], "deal.hand_size": 13}
    )
    assert variant.deck_without == ("DOG", "2j", "10t", "Qp")
    assert len(variant.deck_codes) == 52 and "10t" not in variant.deck_codes
    lower = ["dr", "ph", "mj", "a", "k", "q", "j", "t", "9", "8", "7", "6", "5", "4", "3", "2"]
    order = load_variant("grand_seigneur", {"exchange.best_order": lower})
    assert order.exchange.best_order[:8] == ("DR", "PH", "MJ", "A", "K", "Q", "J", "10")


def test_variants_compare_by_rules_not_by_source() -> None:
    by_name = load_variant("standard")
    by_path = load_variant(ROOT / "variants" / "standard.toml")
    assert by_name.source != by_path.source
    assert by_name == by_path and hash(by_name) == hash(by_path)
    assert by_name != load_variant("standard", {"game.target": 999})
    assert Variant.model_validate_json(by_name.model_dump_json()) == by_name


def test_registered_variant_is_listed_and_loadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tichu_core.variants.loading._REGISTERED", {})
    path = write(tmp_path / "elsewhere.toml", 'extends = "standard"\n[game]\ntarget = 2000\n')
    register_variant_path("club_rules", path)
    register_variant_path("club_rules", path)  # registering again is harmless
    assert "club_rules" in list_variants()
    variant = load_variant("club_rules")
    assert (variant.name, variant.game.target) == ("club_rules", 2000)
    with pytest.raises(VariantError, match="bundled"):
        register_variant_path("standard", path)
    with pytest.raises(VariantError, match="already registered"):
        register_variant_path("club_rules", write(tmp_path / "other.toml", ""))
    with pytest.raises(VariantError, match="file not found"):
        register_variant_path("ghost", tmp_path / "ghost.toml")


def test_loading_names_a_dotted_plugin_but_imports_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading an untrusted file runs no foreign code, even with allow_imports=True."""
    write(tmp_path / "tichu_trap_plugin" / "__init__.py", "raise RuntimeError('imported')\n")
    write(tmp_path / "tichu_trap_plugin" / "rules.py", "raise RuntimeError('imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    path = write(
        tmp_path / "trap.toml",
        'extends = "standard"\nplugins = ["standard", "tichu_trap_plugin.rules"]\n',
    )
    before = set(sys.modules)
    variant = load_variant(path, allow_imports=True)
    imported = set(sys.modules) - before
    assert not any(name.startswith("tichu_trap_plugin") for name in imported)
    assert variant.plugins == ("standard", "tichu_trap_plugin.rules")
    assert variant.allow_imports
    assert not load_variant(path).allow_imports


def test_a_file_cannot_grant_itself_imports(tmp_path: Path) -> None:
    """Only the caller may allow imports: `allow_imports` is no key of a file."""
    path = write(tmp_path / "grant.toml", "allow_imports = true\nsource = 'x'\n")
    with pytest.raises(VariantError) as excinfo:
        load_variant(path)
    problems = problems_of(excinfo)
    assert [problem.split(": ")[1] for problem in problems] == ["allow_imports", "source"]
    assert all("unknown key" in problem for problem in problems)


# --------------------------------------------------------------------------- errors


def test_file_errors_are_all_reported_at_once() -> None:
    """Unknown key (with and without a suggestion), wrong type, out of range, bad card
    code and an impossible combination: one VariantError, one line each."""
    label = str(DATA / "bad_many.toml")
    with pytest.raises(VariantError) as excinfo:
        load_variant(DATA / "bad_many.toml")
    problems = problems_of(excinfo)
    expected = [
        "deck.copies: must be at most 2 (got 3)",
        "deck.without[1]: unknown card code 'XX'",
        "game.targt: unknown key, did you mean 'target'? (got 500)",
        'wish.enabled: expected true or false (got "yes")',
        "colour: unknown key (allowed: name, description, players, plugins",
        "teams.size: 4 seats cannot form teams of 3 (got 3)",
    ]
    for fragment in expected:
        assert any(line.startswith(f"{label}: ") and fragment in line for line in problems), (
            fragment,
            problems,
        )
    assert len(problems) == len(expected)


def test_wrong_types_are_errors_not_conversions(tmp_path: Path) -> None:
    path = write(
        tmp_path / "types.toml",
        'players = "4"\nplugins = "standard"\n[deal]\nhand_size = 14.0\n'
        "[calls]\ntichu = 1\n[teams]\nsize = true\n[game]\ntarget = [1000]\n",
    )
    with pytest.raises(VariantError) as excinfo:
        load_variant(path)
    text = str(excinfo.value)
    for line in [
        'players: expected an integer (got "4")',
        'plugins: expected an array (got "standard")',
        "deal.hand_size: expected an integer (got 14.0)",
        "calls.tichu: expected true or false (got 1)",
        "teams.size: expected an integer (got true)",
        "game.target: expected an integer (got [1000])",
    ]:
        assert f"{path}: {line}" in text


def test_bad_toml_syntax_names_file_line_and_column() -> None:
    with pytest.raises(VariantError) as excinfo:
        load_variant(DATA / "bad_syntax.toml")
    assert problems_of(excinfo) == [
        f"{DATA / 'bad_syntax.toml'}: line 5, column 10: TOML syntax error: Invalid value"
    ]


def test_unknown_variant_name_lists_the_available_ones() -> None:
    with pytest.raises(VariantError) as excinfo:
        load_variant("threechew")
    (problem,) = problems_of(excinfo)
    assert "unknown variant 'threechew', did you mean 'threechu'?" in problem
    assert all(name in problem for name in list_variants())


def test_missing_file_and_unknown_parent(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match=r"nothing\.toml: file not found"):
        load_variant(tmp_path / "nothing.toml")
    child = write(tmp_path / "child.toml", 'extends = "standart"\n[game]\ntargett = 1\n')
    with pytest.raises(VariantError) as excinfo:
        load_variant(child)
    problems = problems_of(excinfo)
    assert problems[0].startswith(f"{child}: extends: unknown variant 'standart'")
    assert "did you mean 'standard'?" in problems[0]
    assert f"{child}: game.targett: unknown key, did you mean 'target'? (got 1)" in problems


def test_extends_cycle_is_detected() -> None:
    a, b = DATA / "bad_cycle_a.toml", DATA / "bad_cycle_b.toml"
    with pytest.raises(VariantError) as excinfo:
        load_variant(a)
    assert problems_of(excinfo) == [
        f'{b}: extends: cycle {a} -> {b} -> {a} (got "bad_cycle_a.toml")'
    ]


def test_a_file_extending_itself_is_a_cycle(tmp_path: Path) -> None:
    path = write(tmp_path / "self.toml", 'extends = "self.toml"\n')
    with pytest.raises(VariantError, match="extends: cycle"):
        load_variant(path)


def test_bad_overrides_are_all_reported_with_their_keys() -> None:
    with pytest.raises(VariantError) as excinfo:
        load_variant(
            "standard",
            {
                "game.targt": 500,
                "players": 13,
                "deck.copies": "2",
                "extends": "tientsin",
                "bombs.own_trick.x": 1,
                "seating": {"direction": "up"},
            },
        )
    problems = problems_of(excinfo)
    for line in [
        "overrides: game.targt: unknown key, did you mean 'target'? (got 500)",
        "overrides: players: must be at most 12 (got 13)",
        'overrides: deck.copies: expected an integer (got "2")',
        'overrides: extends: cannot be overridden; load that variant instead (got "tientsin")',
        "overrides: bombs.own_trick: expected true or false (got {x = 1})",
        "overrides: seating.direction: expected 'right' or 'left' (got \"up\")",
    ]:
        assert any(problem.startswith(line) for problem in problems), (line, problems)
    assert len(problems) == 6


def test_file_and_override_problems_come_together(tmp_path: Path) -> None:
    path = write(tmp_path / "v.toml", 'extends = "standard"\n[dragon]\ngift = "no"\n')
    with pytest.raises(VariantError) as excinfo:
        load_variant(path, {"game.hands": -1, "players": 6})
    problems = problems_of(excinfo)
    assert f'{path}: dragon.gift: expected true or false (got "no")' in problems
    assert "overrides: game.hands: must be at least 0 (got -1)" in problems
    assert any(p.startswith("overrides: players: 6 seats x 14 cards") for p in problems)


@pytest.mark.parametrize(
    ("name", "overrides", "expected"),
    [
        # S-DEAL-1: players vs deck size
        ("standard", {"players": 6, "teams.size": 3}, "players: 6 seats x 14 cards"),
        # T6-1: seats vs team size
        ("standard", {"players": 5}, "teams.size: 5 seats cannot form teams of 2"),
        # S-EX-1 / T6-3: pushes vs seats
        (
            "standard",
            {"players": 12, "teams.size": 1, "deal.hand_size": 0},
            "exchange.targets: each seat would give 11 cards but holds only 4",
        ),
        (
            "standard",
            {"teams.size": 1, "exchange.targets": "partners"},
            "exchange.targets: 'partners' needs teams of 2 or more",
        ),
        (
            "standard",
            {"players": 4, "teams.size": 4, "exchange.targets": "opponents", "deal.hand_size": 0},
            "exchange.targets: 'opponents' needs at least two",
        ),
        # GS-5 / GS-6: the rank exchange
        ("standard", {"exchange.targets": "rank"}, "exchange.first_hand: the rank exchange"),
        (
            "standard",
            {"exchange.targets": "rank", "exchange.first_hand": False},
            "exchange.best_order: does not rank DOG",
        ),
        (
            "grand_seigneur",
            {"players": 5, "exchange.rank_cards_by_players.5": [3, 2, 1]},
            "exchange.rank_cards_by_players.5: 3 exchange levels need 6 seats but the table has 5",
        ),
        # GS-2: removing cards the deck lacks
        (
            "standard",
            {"deck.without": ["DOG", "DOG"]},
            "deck.without: removes DOG 2 times but 4 players use 1 deck",
        ),
        (
            "grand_seigneur",
            {"deck.without_by_players.6": ["MJ", "MJ"]},
            "deck.without_by_players.6: removes MJ 2 times but 6 players use 1 deck",
        ),
        # S-DEAL-2, T6-2: the Grand Tichu decision point
        ("standard", {"deal.grand_tichu_after": 0}, "calls.grand_tichu: Grand Tichu needs"),
        (
            "tientsin",
            {"deal.grand_tichu_after": 10},
            "deal.grand_tichu_after: a seat receives only 9 cards in all",
        ),
        # T3-1, T3-8
        ("threechu", {"teams.size": 1, "players": 4}, "teams.dummy: a dummy seat needs a partner"),
        ("threechu", {"game.hands": 10}, "game.hands: must be a multiple of 3"),
        # S-GAME-1, GS-8: a match that never ends
        ("standard", {"game.target": 0}, "game.target: the match would never end"),
    ],
)
def test_impossible_combinations(name: str, overrides: dict[str, object], expected: str) -> None:
    """Options valid one by one but impossible together, named by their dotted key."""
    with pytest.raises(VariantError) as excinfo:
        load_variant(name, overrides)
    problems = problems_of(excinfo)
    assert any(expected in problem for problem in problems), problems
    assert all(problem.count(": ") >= 2 for problem in problems), "FILE: key: message"


def test_unusual_but_possible_combination_is_accepted() -> None:
    """GS-3 style whole-deck deal for 12 seats without partners or exchange: 55 cards."""
    variant = load_variant(
        "standard",
        {
            "players": 12,
            "teams.size": 1,
            "deal.hand_size": 0,
            "deal.grand_tichu_after": 0,
            "calls.grand_tichu": False,
            "exchange.targets": "none",
            "deck.without": ["2j"],
        },
    )
    assert len(variant.deck_codes) == 55 and variant.team_count == 12


def test_combination_problem_of_a_file_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path / "six.toml", 'extends = "standard"\nplayers = 6\n')
    with pytest.raises(VariantError) as excinfo:
        load_variant(path)
    assert problems_of(excinfo) == [
        f"{path}: players: 6 seats x 14 cards (deal.hand_size) deal 84 cards but the deck "
        "has 56; every card is dealt (or set deal.hand_size = 0 to deal the whole deck round "
        "the table) (got 6)",
    ]


def test_direct_construction_is_validated_too() -> None:
    with pytest.raises(ValidationError, match="cannot form teams of 2"):
        Variant(name="odd", players=5)
    with pytest.raises(ValidationError):
        ExchangeOptions(best_order=("DR", "DR"))


# --------------------------------------------------------------------------- schema, CLI


def test_schema_is_json_and_describes_every_option() -> None:
    schema = json.loads(dump_schema_json())
    assert schema == variant_schema()
    assert schema["additionalProperties"] is False
    properties = schema["properties"]
    assert set(properties) == set(VariantFile.model_fields)
    assert "extends" in properties and "allow_imports" not in properties
    assert "source" not in properties
    for section, model in sections().items():
        definition = schema["$defs"][model.__name__]
        assert definition["additionalProperties"] is False
        assert set(definition["properties"]) == set(model.model_fields), section
        for key, prop in definition["properties"].items():
            assert prop.get("description"), f"{section}.{key} is undocumented"


def test_every_option_cites_a_rule_id() -> None:
    rule_ids = ("S-", "T3-", "T6-", "GS-", "E-")
    for section, model in sections().items():
        for key, field in model.model_fields.items():
            assert field.description and field.description.startswith(rule_ids), f"{section}.{key}"


def test_docs_list_every_option() -> None:
    docs = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    for key in ("name", "description", "extends", "players", "plugins"):
        assert f"`{key}`" in docs, key
    for section, model in sections().items():
        for key in model.model_fields:
            assert f"`{section}.{key}`" in docs, f"{section}.{key}"


def test_parse_overrides_reads_toml_values() -> None:
    assert parse_overrides(
        ["game.target=500", "exchange.targets=rank", "deck.without=['DOG']", "wish.enabled=false"]
    ) == {
        "game.target": 500,
        "exchange.targets": "rank",
        "deck.without": ["DOG"],
        "wish.enabled": False,
    }
    with pytest.raises(VariantError, match="expected KEY=VALUE"):
        parse_overrides(["game.target"])


def test_cli_check(capsys: pytest.CaptureFixture[str]) -> None:
    good = ROOT / "variants" / "threechu.toml"
    assert cli_check([str(good)]) == 0
    assert capsys.readouterr().out == (
        f"OK {good} (threechu, 3 players; plugins: standard, threechu)\n"
    )
    assert cli_check([str(good), str(DATA / "bad_many.toml")]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"OK {good}")
    assert "game.targt: unknown key, did you mean 'target'?" in out
    assert cli_check([str(ROOT / "variants")]) == 0
    assert capsys.readouterr().out.count("OK ") == len(list((ROOT / "variants").glob("*.toml")))


def test_cli_variants_and_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_variants() == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list_variants()
    assert any(line.split()[1:3] == ["6", "players"] for line in lines if "tientsin" in line)
    assert cli_schema() == 0
    assert json.loads(capsys.readouterr().out) == variant_schema()


def test_docs_example_checks(tmp_path: Path) -> None:
    """The house-rule example of docs/variants.md is a valid file (S-GAME-1, S-BOMB-5)."""
    docs = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    example = docs.split("```toml\n", 1)[1].split("```", 1)[0]
    variant = check_variant_file(write(tmp_path / "club.toml", example))
    assert (variant.name, variant.game.target, variant.bombs.own_trick) == ("club", 500, False)
    assert variant.wish.phoenix_fulfils
