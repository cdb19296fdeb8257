"""Hardening of the command line (items 4 and 5 of the hardening issue).

Terminals: text read from files (variant names and descriptions, `.tch` player names) is
printed as text, never as rich markup or as control codes. Arguments: every bad argument
is a clear message and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

import tichu_core as tc
from tichu_core.formats.bsw_replay import replay_text, seat_label
from tichu_core.frontends.cli.commands import main
from tichu_core.frontends.text.render import Transcript, printable, safe_text
from tichu_core.game.events import HandStarted, MatchOver
from tichu_core.variants import loading

ESCAPES = "\x1b[2J\x07"  # clear the screen, ring the bell
SHOWN = "\\x1b[2J\\x07"  # how they are printed instead

# A variant whose name is broken rich markup and whose description holds markup and
# control characters (written as TOML escapes, as a hostile file would).
EVIL_TOML = """\
extends = "standard"
name = "evil[/bold]"
description = "bad \\u001b[2J\\u0007 [red]x[/red]"
[game]
target = 100
"""
BSW_MINIMAL = Path(__file__).resolve().parent / "data" / "bsw" / "minimal.tch"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    path = tmp_path / "evil.toml"
    path.write_text(EVIL_TOML, encoding="utf-8")
    return path


def assert_no_control_characters(text: str) -> None:
    # Newlines end the lines; nothing else below a space may reach the terminal.
    assert not [char for char in text if char < " " and char != "\n"], repr(text)


# --------------------------------------------------------------------------- 4. terminals


def test_printable_shows_control_characters_as_escapes() -> None:
    assert printable(f"a{ESCAPES}b") == f"a{SHOWN}b"
    assert printable("tab\there\nline\u202eevil\x9b") == "tab\\x09here\\x0aline\\u202eevil\\x9b"
    assert printable("Dora [bold] 10♠ ü") == "Dora [bold] 10♠ ü"  # ordinary text unchanged


def test_safe_text_is_never_read_as_markup() -> None:
    out = io.StringIO()
    Console(file=out, width=200).print(safe_text(f"evil[/bold] [red]x[/red]{ESCAPES}"))
    assert out.getvalue() == f"evil[/bold] [red]x[/red]{SHOWN}\n"


def test_check_prints_names_from_the_file_as_text(
    capsys: pytest.CaptureFixture[str], evil: Path
) -> None:
    evil.write_text(EVIL_TOML.replace('"evil[/bold]"', '"evil[/bold]\\u001b[2J"'))
    code, out, _ = run(capsys, "check", str(evil))
    assert code == 0
    assert "(evil[/bold]\\x1b[2J, 4 players" in out
    assert_no_control_characters(out)


def test_check_prints_problems_quoting_the_file_as_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A misspelt key is quoted in the message: its escape sequence is shown, not run."""
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "standard"\n[game]\n"\\u001b[2Jtarget" = 5\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", str(bad))
    assert code == 1
    assert "game.\\x1b[2Jtarget: unknown key" in out
    assert_no_control_characters(out)


def test_variants_prints_descriptions_as_text(
    capsys: pytest.CaptureFixture[str], evil: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(loading._REGISTERED, "evil", evil)  # as a plugin would register it
    code, out, _ = run(capsys, "variants")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("evil "))
    assert line.endswith(f"4 players  bad {SHOWN} [red]x[/red]")
    assert_no_control_characters(out)


def test_demo_prints_a_variant_name_with_brackets_as_text(
    capsys: pytest.CaptureFixture[str], evil: Path
) -> None:
    """`evil[/bold]` passed `tichu check` and then crashed `tichu demo` (rich MarkupError)."""
    code, out, err = run(capsys, "demo", "--variant", str(evil), "--seed", "3")
    assert code == 0, err
    header = out.splitlines()[0]
    assert header.startswith(f"tichu demo: evil[/bold] — bad {SHOWN} [red]x")
    assert "Match over" in out
    assert_no_control_characters(out)


def test_simulate_prints_a_variant_name_with_brackets_as_text(
    capsys: pytest.CaptureFixture[str], evil: Path
) -> None:
    code, out, err = run(capsys, "simulate", "--variant", str(evil), "--games", "2", "--seed", "1")
    assert code == 0, err
    assert "2 matches of evil[/bold]" in out
    assert_no_control_characters(out)


def test_a_tch_player_name_reaches_the_transcript_as_text() -> None:
    """The renderer's seat labels come from the log's player names (`seat 0 (Anna)`)."""
    text = BSW_MINIMAL.read_text(encoding="utf-8").replace("Anna", f"An{ESCAPES}[bold]na")
    (replay,) = replay_text(text, "evil.tch")
    names = replay.round.names
    assert names[0] == f"An{ESCAPES}[bold]na"
    out = io.StringIO()
    transcript = Transcript(
        Console(file=out, width=200),
        replay.game.score_lines,
        labels=[seat_label(names, seat) for seat in range(len(names))],
        by_trick=True,
    )
    for events in (replay.opening, *(step.events for step in replay.steps)):
        transcript.feed(e for e in events if not isinstance(e, HandStarted | MatchOver))
    transcript.close()
    assert f"seat 0 (An{SHOWN}[bold]na) was dealt" in out.getvalue()
    assert_no_control_characters(out.getvalue())


# --------------------------------------------------------------------------- 5. arguments


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["simulate", "--bots", "bogus"], "argument --bots: unknown bot 'bogus'"),
        (["simulate", "--bots", "random,"], "argument --bots: a bot name is empty"),
        (["demo", "--bot", "bogus"], "argument --bot: unknown bot 'bogus'"),
        (["play", "--bot", "bogus"], "argument --bot: unknown bot 'bogus'"),
        (["simulate", "--games", "-5"], "argument --games: must be at least 1 (got -5)"),
        (["simulate", "--games", "0"], "argument --games: must be at least 1 (got 0)"),
        (["simulate", "--games", "many"], "argument --games: expected a whole number"),
        (["simulate", "--workers", "0"], "argument --workers: must be at least 1 (got 0)"),
        (["simulate", "--workers", "-1"], "argument --workers: must be at least 1 (got -1)"),
        (["simulate", "--workers", "100000"], "argument --workers: must be at most"),
        (["bench", "--samples", "0"], "argument --samples: must be at least 1 (got 0)"),
        (["bench", "--hands", "0"], "argument --hands: must be at least 1 (got 0)"),
        (["play", "--seat", "-1"], "argument --seat: must be at least 0 (got -1)"),
        (["demo", "--seed", "1" + "0" * 5000], "argument --seed: too large a number"),
        (["demo", "--players", "five"], "argument --players: expected a whole number"),
    ],
)
def test_a_bad_argument_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    """Checked before anything runs: argparse's message and status 2, no traceback."""
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert said in err
    assert "Traceback" not in err and out == ""


def test_simulate_itself_refuses_no_workers(capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate()` called directly (no parser) ran with --workers 0 and said "0 worker(s)"."""
    from tichu_core.frontends.sim.simulate import simulate

    assert simulate("standard", games=1, workers=0) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err


def test_bench_itself_refuses_no_samples(capsys: pytest.CaptureFixture[str]) -> None:
    """`bench.main(samples=0)` crashed taking the median of no timings."""
    from tichu_core.frontends.bench.figures import main as bench_main

    assert bench_main(samples=0) == 2
    captured = capsys.readouterr()
    assert "--samples must be at least 1 (got 0)" in captured.err and captured.out == ""


@pytest.mark.parametrize("command", ["demo", "simulate"])
def test_a_huge_target_is_a_clear_error(capsys: pytest.CaptureFixture[str], command: str) -> None:
    """An integer of more digits than Python converts crashed in tomllib (ValueError)."""
    code, _, err = run(capsys, command, "--set", "game.target=1" + "0" * 5000)
    assert code == 2
    assert "overrides: game.target: too large a number (5001 digits)" in err


def test_a_huge_hex_target_is_shown_shortened(capsys: pytest.CaptureFixture[str]) -> None:
    """Hex has no digit limit: the value is read, refused, and shown without crashing
    (its decimal form has more digits than Python writes)."""
    code, _, err = run(capsys, "demo", "--set", "game.target=0x" + "f" * 5000)
    assert code == 2
    assert "overrides: game.target: must be at most" in err
    assert "(got 0xfffff" in err and "...)" in err and len(err) < 300


def test_problems_the_overrides_cause_name_the_overrides(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--players 5` on standard breaks teams.size, which no override named: the problem
    is the override's, not standard.toml's."""
    code, _, err = run(capsys, "demo", "--players", "5")
    assert code == 2
    assert "overrides: teams.size: 5 seats cannot form teams of 2" in err
    assert "standard.toml" not in err


def test_a_files_own_problem_still_names_the_file(tmp_path: Path) -> None:
    """The file's problem stays the file's when overrides are given too."""
    six = tmp_path / "six.toml"
    six.write_text('extends = "standard"\nplayers = 6\n', encoding="utf-8")
    with pytest.raises(tc.VariantError) as excinfo:
        tc.load_variant(six, overrides={"game.target": 0})
    problems = excinfo.value.problems
    assert any(p.startswith(f"{six}: players: 6 seats x 14 cards") for p in problems), problems
    assert any(p.startswith("overrides: game.target: the match") for p in problems), problems


@pytest.mark.parametrize(
    ("argv", "end"),
    [
        (["--set", "game.target=300"], "to 300 points"),
        (["--variant", "threechu"], "9 hands"),
        (["--set", "game.target=200", "--set", "game.hands=2"], "to 200 points or 2 hands"),
    ],
)
def test_demo_header_shows_the_match_end_in_force(
    capsys: pytest.CaptureFixture[str], argv: list[str], end: str
) -> None:
    """Standard's description says "game to 1000"; the header says what the game plays
    to, read from the variant after the overrides."""
    code, out, err = run(capsys, "demo", "--seed", "1", *argv)
    assert code == 0, err
    header = out.splitlines()[0]
    assert f"seats; {end}; seed 1;" in header, header


@pytest.mark.parametrize(
    ("name", "overrides"),
    [
        ("standard", {"teams.size": 4}),
        ("threechu", {"teams.size": 4}),  # 3 players and the dummy: four seats
        ("grand_seigneur", {"players": 5, "teams.size": 5}),
    ],
)
def test_one_team_of_the_whole_table_is_refused(name: str, overrides: dict[str, object]) -> None:
    """teams.size equal to the seats: one team, no opponents, a match nobody can lose."""
    with pytest.raises(tc.VariantError) as excinfo:
        tc.load_variant(name, overrides=overrides)
    seats = 5 if name == "grand_seigneur" else 4
    expected = f"overrides: teams.size: one team of all {seats} seats would have no opponents"
    assert any(p.startswith(expected) for p in excinfo.value.problems), excinfo.value.problems


def test_one_team_in_a_file_is_refused_by_check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one = tmp_path / "one_team.toml"
    one.write_text('extends = "standard"\n[teams]\nsize = 4\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", str(one))
    assert code == 1
    assert f"{one}: teams.size: one team of all 4 seats would have no opponents (got 4)" in out
