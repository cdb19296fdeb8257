"""Hardening of the last open edges (issue 26, items 6 to 13, and what bots are handed).

`simulate --out` never truncates a file that is not its own, nor reads an endless
"line" of a device; forged action tuples are invalid; a bot cannot change the game
through the objects it is handed; a deep `extends` chain and a file reached through
`extends` that is not a variant are clear errors; a plugin's bad answer is blamed on
it; the chart path, `since`, seeds and descriptions are checked. Each test failed on
the code before its fix."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tichu_core.frontends.cli.commands import main
from tichu_core.frontends.sim.simulate import simulate

SECRET = "hunter2-s3cr3t"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- 6, 7: --out


@pytest.mark.parametrize(
    "text",
    [
        '{"variant": "standard", "seed": 3, "actions": []}',  # a saved game: no final newline
        "notes about a run\n",  # one whole line that is no record
        '{"run": "0123456789ab", "index": 0',  # another run's half-written line
    ],
)
@pytest.mark.parametrize("seed", [None, 5])
def test_out_never_truncates_a_file_that_is_no_simulate_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, seed: int | None
) -> None:
    """Before: the file was cut to nothing as a "half-written last line", exit 0."""
    path = write(tmp_path / "game.json", text)
    code = simulate("standard", 1, seed=seed, out=path, quiet=True)
    err = capsys.readouterr().err
    assert code == 2
    assert "line 1 is not a match record" in err and err.count("\n") == 1
    assert path.read_text(encoding="utf-8") == text


def test_out_still_drops_its_own_half_written_first_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = tmp_path / "whole.jsonl"
    assert simulate("standard", 1, seed=5, out=whole, quiet=True) == 0
    line = whole.read_text(encoding="utf-8")
    cut = write(tmp_path / "cut.jsonl", line[:30])
    capsys.readouterr()
    assert simulate("standard", 1, seed=5, out=cut, quiet=True) == 0
    assert "dropped a half-written last line (30 bytes)" in capsys.readouterr().err
    assert cut.read_text(encoding="utf-8") == line


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/full", "/dev/null"])
def test_out_refuses_a_device(
    device: str, capsys: pytest.CaptureFixture[str], seed: int | None = None
) -> None:
    """Before: /dev/zero and /dev/full were read as one endless "line" (11.6 GB in 8 s)."""
    if not os.path.exists(device):
        pytest.skip(f"no {device} on this system")
    code = simulate("standard", 1, out=device, quiet=True)
    err = capsys.readouterr().err
    assert code == 2
    assert f"--out {device} is not a regular file" in err and err.count("\n") == 1


def test_out_refuses_a_pipe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: `--out /dev/stdout` into a pipe hung (reading the pipe for a first line)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    code = simulate("standard", 1, seed=1, out=fifo, quiet=True)  # returns: never opens it
    assert code == 2
    assert "is not a regular file" in capsys.readouterr().err


def test_out_reads_lines_of_bounded_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A first "line" of 8 MB without a newline is no record: refused, not read whole."""
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"x" * (8 << 20))
    code = simulate("standard", 1, out=path, quiet=True)
    assert code == 2
    assert "line 1 is not a match record" in capsys.readouterr().err
    assert path.stat().st_size == 8 << 20


# --------------------------------------------------------------------------- 13: smaller edges


@pytest.mark.parametrize("where", ["folder", "/dev/full"])
def test_a_chart_path_that_is_no_file_is_refused_before_the_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """Before: every match ran, then saving the chart failed with a traceback."""
    chart = str(tmp_path) if where == "folder" else where
    if not os.path.exists(chart):
        pytest.skip(f"no {chart} on this system")
    code, out, err = run(capsys, "compare", "standard", "threechu", "--games", "2",
                         "--bots", "random", "--chart", chart, "--quiet")  # fmt: skip
    assert code == 2
    assert f"cannot write --chart {chart}: not a regular file" in err
    assert out == ""  # no match was played


def test_a_chart_that_fails_to_save_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk that fills up while the chart is saved: one line, the table still printed."""
    from tichu_core.frontends.sim import compare

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(compare, "draw_chart", full)
    code, out, err = run(capsys, "compare", "standard", "threechu", "--games", "2",
                         "--bots", "random", "--chart", str(tmp_path / "c.png"), "--quiet")  # fmt: skip
    assert code == 1
    assert "B − A" in out or "threechu" in out
    assert err == f"tichu compare: cannot write --chart {tmp_path / 'c.png'}: No space left on device\n"


@pytest.mark.parametrize("since", [-1, -100, 1.5, "1", True, None])
def test_events_for_refuses_a_since_that_is_no_position(since: object) -> None:
    """Before: since=-1 gave the last event (a slice from the end), 1.5 a TypeError."""
    import tichu_core as tc

    game = tc.Game("standard", seed=1)
    with pytest.raises(tc.InvalidAction, match="since must be a position"):
        game.events_for(0, since=since)  # type: ignore[arg-type]
    assert game.events_for(0, since=1) == game.events_for(0)[1:]
    assert game.events_for(0, since=10**6) == []


@pytest.mark.parametrize("command", ["simulate", "demo", "compare"])
@pytest.mark.parametrize("seed", [str(2**63), str(-(2**63) - 1)])
def test_every_command_takes_the_seeds_a_game_takes(
    capsys: pytest.CaptureFixture[str], command: str, seed: str
) -> None:
    """Before: `simulate --seed 2**63` ran (match seeds are derived), `demo` refused it."""
    variants = ["standard", "threechu"] if command == "compare" else []
    code, out, err = run(capsys, command, *variants, "--games", "2", "--seed", seed)[:3] if (
        command != "demo"
    ) else run(capsys, command, "--seed", seed)
    assert code == 2 and out == ""
    assert "--seed: must be" in err and "Traceback" not in err


def test_a_seed_at_the_edge_of_the_range_is_taken_by_simulate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "1", "--quiet", "--seed", str(2**63 - 1))
    assert code == 0 and f"run seed {2**63 - 1}" in " ".join(out.split())


def test_a_description_with_a_newline_stays_on_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a registered variant's description "x\\nstandard  4 players  forged"
    printed a second, forged line in `tichu variants`."""
    from tichu_core.variants import loading

    forged = write(tmp_path / "forged.toml",
                   'extends = "standard"\nname = "forged"\n'
                   'description = "x\\nstandard   4 players  forged"\n')  # fmt: skip
    monkeypatch.setitem(loading._REGISTERED, "forged", forged)
    code, out, _ = run(capsys, "variants")
    assert code == 0
    assert "standard   4 players  forged" not in out.splitlines()
    line = next(line for line in out.splitlines() if line.startswith("forged "))
    assert line.endswith("x\\x0astandard   4 players  forged")


# --------------------------------------------------------------------------- 8: forged actions


def _forged(kind: type, *fields: object) -> object:
    return tuple.__new__(kind, fields)  # past every constructor check, as a bot could


def forged_actions() -> list[object]:
    import tichu_core as tc
    from tichu_core.game.actions import PushCards

    return [
        _forged(tc.Tichu, True, "tichu"),  # accepted before: an event for seat 1
        _forged(tc.Tichu, 0),
        _forged(tc.Tichu, 0, "tichu", "extra"),
        _forged(tc.Tichu, "0", "tichu"),
        _forged(tc.Pass, 0, "play"),
        _forged(tc.Pass),
        _forged(tc.GrandTichu, 0, "yes", "grand_tichu"),
        _forged(tc.GrandTichu, 0, 1, "grand_tichu"),
        _forged(tc.Play, 0),
        _forged(tc.Play, 0, 5, None, "play"),
        _forged(tc.Play, 0, "R5", "Z", "play"),
        _forged(tc.Play, 0, "R5", 5, "play"),
        _forged(tc.Play, 0.0, "R5", None, "play"),
        _forged(tc.Wish, 0, 5, "wish"),
        _forged(tc.GiveTrick, 0, "1", "give_trick"),
        _forged(tc.GiveLead, 0, None, "give_lead"),
        _forged(tc.Push, 0, {1: "R5"}, "push"),
        _forged(tc.Push, 0, PushCards({"1": "R5"}), "push"),
        _forged(tc.Push, 0, PushCards({1: 5}), "push"),
    ]


@pytest.mark.parametrize("action", forged_actions(), ids=lambda a: f"{type(a).__name__}{tuple(a)}")
def test_a_forged_action_tuple_is_invalid_and_changes_nothing(action: object) -> None:
    """Before: `tuple.__new__(Tichu, (True, "tichu"))` was applied (and the save then failed
    to load); other shapes raised TypeError or IndexError from inside the engine."""
    import tichu_core as tc

    game = tc.Game("standard", seed=3)
    for _ in range(4):  # every seat declines Grand Tichu: the exchange, calls allowed
        game.apply(tc.GrandTichu(game.waiting_for[0], False))
    before = game.to_json()
    with pytest.raises(tc.InvalidAction, match="not a well-formed"):
        game.apply(action)
    assert game.to_json() == before
    assert tc.Game.from_json(before).to_json() == before
