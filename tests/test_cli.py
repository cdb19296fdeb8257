"""The `tichu` command line: every subcommand runs and says something useful."""

from __future__ import annotations

import json
import re

import pytest

import tichu_core as tc
from tichu_core.frontends.cli.commands import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_variants_lists_the_bundled_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants")
    assert code == 0
    for name in ("standard", "threechu", "tientsin", "grand_seigneur"):
        assert name in out


def test_check_reports_a_bad_file_and_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: pytest.TempPathFactory
) -> None:
    bad = tmp_path / "bad.toml"  # type: ignore[operator]
    bad.write_text('extends = "standard"\n[game]\ntargett = 5\n')
    code, out, err = run(capsys, "check", str(bad))
    assert code == 1
    assert "game.targett" in out + err
    assert "target" in out + err


def test_schema_is_json_with_every_section(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema")
    assert code == 0
    schema = json.loads(out)
    text = json.dumps(schema)
    for section in ("deck", "deal", "calls", "exchange", "wish", "bombs", "dog", "dragon"):
        assert section in text


def test_demo_plays_a_match_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--seed", "5", "--set", "game.target=300")
    assert code == 0
    assert "Hand 1" in out
    assert "seat 0 was dealt" in out
    assert "Match over" in out


def test_simulate_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "simulate",
        "--games",
        "3",
        "--seed",
        "1",
        "--bots",
        "random,greedy",
        "--set",
        "game.target=200",
    )
    assert code == 0
    assert "3 matches of standard" in out
    assert "hands" in out


def _short(name: str) -> list[str]:
    """A short match: a low target where the variant plays to one."""
    return ["--set", "game.target=300"] if tc.load_variant(name).game.target else []


@pytest.mark.parametrize("name", tc.list_variants())
def test_demo_plays_every_variant_to_its_end(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """Every bundled variant (one that cannot be played fails here, it is not skipped)."""
    code, out, err = run(capsys, "demo", "--variant", name, "--seed", "2", *_short(name))
    assert code == 0, err
    game = tc.Game(tc.load_variant(name), seed=2)
    assert f"{game.players} players, {game.seats} seats" in out
    assert "Hand 1" in out
    assert re.search(r"Match over after \d+ hands?: ", out)
    # The totals name the game's score lines (per player, and the dummy, in Threechu).
    totals = out.split("Match over", 1)[1]
    for line in game.score_lines:
        assert f"{line} " in totals


@pytest.mark.parametrize("name", tc.list_variants())
def test_simulate_summarises_every_variant_from_its_games(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, out, err = run(
        capsys, "simulate", "--variant", name, "--games", "2", "--seed", "3",
        "--bots", "greedy,random", *_short(name),
    )  # fmt: skip
    assert code == 0, err
    game = tc.Game(tc.load_variant(name), seed=0)
    assert f"2 matches of {game.variant.name}" in out
    for line in game.score_lines:
        assert re.search(rf"│ {re.escape(line)} +│", out), line
    ending = "all hands played" if game.variant.game.hands else "target reached"
    assert re.search(rf"matches ended: \d+ {ending}", out)


def test_players_sets_the_table_size(capsys: pytest.CaptureFixture[str]) -> None:
    """GS-1: `--players N` is the `players` override; the reseated table shows its seats."""
    args = ["--variant", "grand_seigneur", "--set", 'plugins=["standard"]', "--players", "5"]
    code, out, err = run(capsys, "demo", *args, "--set", "seating.by_rank=true", "--seed", "4")
    assert code == 0, err
    assert "5 players, 5 seats" in out
    assert "seats: 0 player" in out  # hand 2 on: reseated by rank (GS-5)
    code, out, err = run(capsys, "simulate", *args, "--games", "2", "--workers", "2")
    assert code == 0, err
    assert "player 4" in out and "player 5" not in out


def test_an_unknown_bot_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["demo", "--bot", "clever"], ["simulate", "--bots", "random,clever"]):
        code, _, err = run(capsys, *command)
        assert code == 2
        assert "unknown bot 'clever'" in err and "random, greedy" in err


def test_bench_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    # Only that the figures are produced: times are never asserted.
    code, out, _ = run(capsys, "bench", "--samples", "20", "--hands", "3")
    assert code == 0
    for label in (
        "random 14-card hand",
        "holding the Phoenix",
        "worst",
        "pair of 5s",
        "two-deck",
        "hands per second",
        "apply step",
        "play-outs per second",
        "µs per play-out step",
    ):
        assert label in out
    assert "417.0 plays" in out  # the worst case lists every reading (S-COMB-4)
    # Every bundled variant has its line: hands per second, decisions and µs per decision.
    import tichu_core as tc

    table = out.split("every variant", 1)[1]
    for name in [*tc.list_variants(), "GS, 7 players", "GS, 12 players"]:
        line = next(row for row in table.splitlines() if row.strip().startswith(name + " "))
        hands_per_second, decisions, step_us = line.split()[-5:-2]
        assert float(hands_per_second) > 0 and int(decisions) > 0 and float(step_us) > 0
    assert "modules" in out.splitlines()[0]  # which build ran


def test_an_unknown_variant_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "demo", "--variant", "no_such_variant")
    assert code == 2
    assert "no_such_variant" in err


def test_every_option_with_a_default_shows_it_in_help() -> None:
    """Issue 38 item 7: every command's --help says what an option is when not given."""
    import argparse

    from tichu_core.frontends.cli.commands import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    silent = [
        (name, action.option_strings)
        for name, sub in commands.choices.items()
        for action in sub._actions
        if action.option_strings
        and not isinstance(action, argparse._HelpAction)
        and action.default not in (None, False, argparse.SUPPRESS)
        and "default" not in (action.help or "")
    ]
    assert not silent


def test_demo_simulate_compare_and_play_share_one_default_bot() -> None:
    import argparse

    from tichu_core.frontends.bots import DEFAULT_BOT
    from tichu_core.frontends.cli.commands import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    defaults = {
        name: next(a.default for a in commands.choices[name]._actions if a.dest in ("bot", "bots"))
        for name in ("demo", "play", "simulate", "compare")
    }
    assert {str(d) for d in defaults.values()} == {DEFAULT_BOT}, defaults
