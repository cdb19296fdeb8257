"""What plugin authors build on (docs/plugins.md): where a house bomb kind stands among
the bombs (its level, never its id; S-BOMB-2), a house kind's name in descriptions and
the web table's labels, the valid names when a hook function takes an argument its
hook does not pass, and, under the ``tichu`` command, the plugin's own file and line
when it fails (``--traceback``: the whole trace)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario import plugin_with

import tichu_core as tc
from tichu_core.cardplay.cards import mask_of, rank_shift
from tichu_core.cardplay.combinations import PlayTuple
from tichu_core.cardplay.kinds import (
    ABOVE_STANDARD_BOMBS,
    FOUR_BOMB_LEVEL,
    STRAIGHT_FLUSH_LEVEL,
    Combinations,
    HouseKind,
    check_house_kind,
)
from tichu_core.frontends.cli.commands import main
from tichu_core.frontends.web.protocol import legal_for
from tichu_core.rules.playrules import PlayRules
from tichu_core.testing import deal_with

RULES = tc.move_rules(tc.load_variant("standard"))


def play(kind: int, codes: str, rank: int, length: int | None = None) -> PlayTuple:
    cards = mask_of(tc.parse_cards(codes))
    return (kind, length if length is not None else cards.bit_count(), rank, cards, 0)


class TwinAces(HouseKind):
    """A house bomb for these tests: two Aces."""

    kind, name = 66, "twin_aces"

    def lead_plays(self, hand: int) -> list[PlayTuple]:
        aces = hand >> rank_shift(14) & 0x0F
        bits = [bit for bit in range(4) if aces >> bit & 1]
        shift = rank_shift(14)
        return [
            (self.kind, 2, 14, (1 << a | 1 << b) << shift, 0)
            for i, a in enumerate(bits)
            for b in bits[i + 1 :]
        ]

    def recognize(self, cards: int) -> list[PlayTuple]:
        aces = cards >> rank_shift(14) & 0x0F
        if cards == aces << rank_shift(14) and aces.bit_count() == 2:
            return [(self.kind, 2, 14, cards, 0)]
        return []


class TwinKings(TwinAces):
    kind, name = 67, "twin_kings"

    def lead_plays(self, hand: int) -> list[PlayTuple]:
        return [(self.kind, 2, 13, p[3] >> 8, 0) for p in super().lead_plays(hand << 8)]

    def recognize(self, cards: int) -> list[PlayTuple]:
        return [(self.kind, 2, 13, cards, 0) for _ in super().recognize(cards << 8)]


def rules_with(*kinds: HouseKind) -> PlayRules:
    combinations = Combinations()
    for kind in kinds:
        combinations = combinations.adding(kind)
    return PlayRules(RULES, combinations)


def placed(cls: type[HouseKind], level: int) -> HouseKind:
    kind = cls()
    kind.bomb_level = level
    return kind


FOUR_TWOS = play(tc.Kind.FOUR_BOMB, "2j 2s 2p 2t", 2, 4)
FLUSH = play(tc.Kind.STRAIGHT_FLUSH, "3p 4p 5p 6p 7p", 7, 5)
KINGS = play(tc.Kind.PAIR, "Kj Ks", 13, 2)
ACES = play(66, "Aj As", 14, 2)
TWIN_KINGS = play(67, "Kp Kt", 13, 2)


def test_S_BOMB_2_a_house_bomb_stands_above_every_standard_bomb_by_default() -> None:
    rules = rules_with(TwinAces())
    assert TwinAces.bomb_level == ABOVE_STANDARD_BOMBS > STRAIGHT_FLUSH_LEVEL > FOUR_BOMB_LEVEL
    assert rules.beats(ACES, FOUR_TWOS) and rules.beats(ACES, FLUSH) and rules.beats(ACES, KINGS)
    assert not rules.beats(FOUR_TWOS, ACES) and not rules.beats(FLUSH, ACES)
    assert not rules.beats(KINGS, ACES)


def test_S_BOMB_2_a_house_bomb_placed_between_the_standard_bombs() -> None:
    rules = rules_with(placed(TwinAces, (FOUR_BOMB_LEVEL + STRAIGHT_FLUSH_LEVEL) // 2))
    assert rules.beats(ACES, FOUR_TWOS) and not rules.beats(ACES, FLUSH)
    assert rules.beats(FLUSH, ACES) and not rules.beats(FOUR_TWOS, ACES)
    # What a hand may play on it: the straight flush, not the four of a kind.
    hand = mask_of(tc.parse_cards("2j 2s 2p 2t 3p 4p 5p 6p 7p"))
    assert {p[0] for p in rules.bombs(hand, ACES)} == {tc.Kind.STRAIGHT_FLUSH}
    # And the twin Aces on a four of a kind, not on a straight flush.
    aces = mask_of(tc.parse_cards("Aj As"))
    assert [p[0] for p in rules.bombs(aces, FOUR_TWOS)] == [66]
    assert rules.bombs(aces, FLUSH) == []


def test_S_BOMB_2_a_house_bomb_placed_below_every_standard_bomb() -> None:
    rules = rules_with(placed(TwinAces, FOUR_BOMB_LEVEL - 1))
    assert rules.beats(FOUR_TWOS, ACES) and rules.beats(FLUSH, ACES)
    assert not rules.beats(ACES, FOUR_TWOS)
    assert rules.beats(ACES, KINGS) and not rules.beats(KINGS, ACES)  # still a bomb


def test_S_BOMB_2_two_house_bombs_compare_by_level_not_by_id() -> None:
    low_id_high_level = rules_with(placed(TwinAces, 250), placed(TwinKings, 260))
    assert low_id_high_level.beats(TWIN_KINGS, ACES)  # 67 at 260 beats 66 at 250
    assert not low_id_high_level.beats(ACES, TWIN_KINGS)
    kings = mask_of(tc.parse_cards("Kp Kt"))
    assert [p[0] for p in low_id_high_level.bombs(kings, ACES)] == [67]
    swapped = rules_with(placed(TwinAces, 260), placed(TwinKings, 250))
    assert swapped.beats(ACES, TWIN_KINGS) and not swapped.beats(TWIN_KINGS, ACES)
    assert swapped.bombs(kings, ACES) == []
    equal = rules_with(placed(TwinAces, 250), placed(TwinKings, 250))
    assert equal.beats(ACES, TWIN_KINGS)  # the same level and length: the higher rank


def test_the_standard_bombs_keep_their_order() -> None:
    for rules in (PlayRules(RULES), rules_with(TwinAces())):
        assert rules.beats(FLUSH, FOUR_TWOS) and not rules.beats(FOUR_TWOS, FLUSH)


def test_a_bomb_level_that_is_no_level_is_refused() -> None:
    with pytest.raises(ValueError, match="bomb_level places it among the bombs"):
        check_house_kind(placed(TwinAces, "high"))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- names


def test_describe_and_the_web_labels_name_a_house_kind() -> None:
    assert tc.Combination(*ACES).describe().startswith("kind 66 of A: ")
    assert tc.Combination(*ACES).describe("twin_aces") == "twin aces of A: As Aj"
    # A triple run of house_triple_runs (plugins/triple_runs.py), as the web lists it.
    variant = tc.load_variant(
        "house_triple_runs", overrides={"calls.grand_tichu": False, "exchange.targets": "none"}
    )
    game = tc.Game(variant, deals=[deal_with({0: "MJ 3j 3s 3p 4j 4s 4p 9j"})])
    assert game.turn == 0
    labels = [
        a["label"] for a in legal_for(game, 0, game.observation(0))["actions"] if "label" in a
    ]
    assert "triple run of 4" in labels
    assert not any(label.startswith("kind ") for label in labels)


# --------------------------------------------------------------------------- errors


def test_a_hook_argument_the_hook_does_not_pass_is_named_with_the_valid_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    @tc.hookimpl
    def tichu_dog_recipients(tabel: object, seat: int) -> None:
        return None

    plugin_with(monkeypatch, "club.badarg", tichu_dog_recipients)
    variant = tc.load_variant(
        "standard", overrides={"plugins": ["standard", "club.badarg"]}, allow_imports=True
    )
    with pytest.raises(tc.PluginError) as raised:
        tc.Game(variant)
    assert str(raised.value) == (
        "plugin 'club.badarg': tichu_dog_recipients takes 'tabel' (did you mean 'table'?), "
        "which the hook does not pass; it passes variant, table, seat (take any of them, "
        "by name, in any order)"
    )
    assert (raised.value.plugin, raised.value.hook) == ("club.badarg", "tichu_dog_recipients")


def _failing_variant(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    @tc.hookimpl
    def tichu_dog_recipients(table: tc.TableView, seat: int) -> list[int]:
        return [seat // 0]  # the plugin's bug

    plugin_with(monkeypatch, "club.failing", tichu_dog_recipients)
    file = tmp_path / "failing.toml"
    file.write_text('extends = "standard"\nplugins = ["standard", "club.failing"]\n')
    return file


def test_a_plugins_failure_under_the_cli_names_its_file_and_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = _failing_variant(monkeypatch, tmp_path)
    assert main(["demo", "--variant", str(file), "--allow-imports", "--seed", "3"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("tichu: error: plugin 'club.failing' failed in hook ")
    line = next(
        n
        for n, text in enumerate(Path(__file__).read_text().splitlines(), 1)
        if "return [seat // 0]" in text
    )
    assert err[1] == (
        f"  at {__file__}, line {line}, in tichu_dog_recipients: "
        "return [seat // 0]  # the plugin's bug"
    )
    assert err[2] == "  (tichu --traceback ... shows the whole trace)"
    for arguments in (["--traceback", "demo"], ["demo", "--traceback"]):
        command = [*arguments, "--variant", str(file), "--allow-imports", "--seed", "3"]
        assert main(command) == 2
        err_text = capsys.readouterr().err
        assert err_text.startswith("Traceback (most recent call last):")
        assert "ZeroDivisionError" in err_text and "return [seat // 0]" in err_text
        assert err_text.rstrip().splitlines()[-1].startswith("tichu_core.errors.PluginError: ")


def test_a_plugin_module_that_does_not_import_is_shown_at_its_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = tmp_path / "club_broken"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text(
        "from tichu_core import hookimpl\n\n@hookimpl\ndef tichu_dog_recipients(table, seat)\n"
        "    return None\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    file = tmp_path / "broken.toml"
    file.write_text('extends = "standard"\nplugins = ["standard", "club_broken.rules"]\n')
    assert main(["check", str(file), "--allow-imports"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "plugin module 'club_broken.rules' failed to import" in out[0]
    assert out[1] == (f"  at {package / 'rules.py'}, line 4: def tichu_dog_recipients(table, seat)")
