"""`tichu simulate` at scale (docs/bots.md): results depend only on the seed (one
process, two local workers and a Ray instance give the same records, in match order);
bounded submission; the resumable `--out` file; Ctrl-C leaves finished matches and no
worker behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import psutil
import pytest
from interrupts import default_sigint

import tichu_core as tc
from tichu_core.frontends.cli.commands import main
from tichu_core.frontends.sim.matches import RunSpec, match_seed, play_record
from tichu_core.frontends.sim.runners import IN_FLIGHT, _Window
from tichu_core.frontends.sim.simulate import simulate

SHORT = ["game.target=300"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines()


def records_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines_of(path)]


def simulate_to(path: Path, games: int = 6, **options: Any) -> int:
    options = {"bots": ["heuristic", "random"], "overrides": SHORT, "seed": 4, **options}
    return simulate("standard", games, out=path, quiet=True, **options)


# --------------------------------------------------------------------------- seeds


def test_a_match_depends_only_on_the_run_seed_and_its_index() -> None:
    seeds = {match_seed(7, index) for index in range(1000)}
    assert len(seeds) == 1000 and all(0 <= seed < 2**62 for seed in seeds)
    assert match_seed(7, 3) == match_seed(7, 3) != match_seed(8, 3)
    # Neighbouring run seeds share no match (the old scheme was run seed + index).
    assert not {match_seed(8, index) for index in range(1000)} & seeds
    spec = RunSpec(tc.load_variant("standard", overrides={"game.target": 200}), ("random",), 7)
    assert play_record(spec, 5) == play_record(spec, 5)
    assert play_record(spec, 5)["seed"] == match_seed(7, 5)


def test_one_and_two_local_workers_give_identical_records(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert simulate_to(one, games=8, workers=1) == 0
    assert simulate_to(two, games=8, workers=2) == 0
    assert one.read_bytes() == two.read_bytes()
    assert [r["index"] for r in records_of(one)] == list(range(8))  # in match order


def test_a_local_ray_instance_gives_the_records_of_local_workers(tmp_path: Path) -> None:
    import ray  # the ray extra: `make test` installs it

    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert simulate_to(local, games=6, workers=2) == 0
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING", log_to_driver=False)
    try:
        assert simulate_to(remote, games=6, backend="ray") == 0
    finally:
        ray.shutdown()
    assert local.read_bytes() == remote.read_bytes()


def test_without_ray_the_backend_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    code, _, err = run(capsys, "simulate", "--games", "2", "--backend", "ray")
    assert code == 2
    assert "pip install 'tichu[ray]'" in err


class Counting(_Window):
    """A runner whose batches run at once, counting how many are in flight."""

    def __init__(self, workers: int) -> None:
        super().__init__()
        self.workers = workers
        self.most = 0
        self.submitted = 0

    def _submit(self, batch: list[int]) -> Any:
        self.submitted += 1
        self.most = max(self.most, len(self._window) + 1)
        return [{"index": i} for i in batch]

    def _wait(self, handle: Any) -> list[dict[str, Any]]:
        records: list[dict[str, Any]] = handle
        return records

    def _finished(self, handles: list[Any]) -> list[list[dict[str, Any]]]:
        return list(handles)


def test_matches_are_submitted_in_bounded_batches_and_streamed_in_order() -> None:
    runner = Counting(workers=3)
    stream = runner.records(range(100_000), 100_000)
    first = [next(stream)["index"] for _ in range(10)]
    # Handing on the first records needed only the first few batches.
    assert first == list(range(10)) and runner.submitted <= 3 * IN_FLIGHT + 1
    rest = [record["index"] for record in stream]
    assert rest == list(range(10, 100_000))
    assert runner.most <= 3 * IN_FLIGHT


# --------------------------------------------------------------------------- summary


def test_the_summary_has_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "simulate", "--games", "4", "--seed", "2", "--bots", "heuristic,random",
        "--set", "game.target=300", "--workers", "2",
    )  # fmt: skip
    assert code == 0, err
    for words in (
        "4 matches of standard",
        "team 0+2",
        "wins",
        "mean per hand",
        "Tichu made",
        "Grand made",
        "double",
        "bombs",
        "hands/s",
        "2 worker(s), local",
    ):
        assert words in out, words
    assert err == ""  # no progress bar off a terminal


# --------------------------------------------------------------------------- --out


def test_out_resumes_a_cut_file_and_drops_the_half_written_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    assert simulate_to(whole) == 0
    lines = lines_of(whole)
    assert len(lines) == 6
    # An interrupted run: three whole lines and half of the fourth.
    cut.write_text("\n".join(lines[:3]) + "\n" + lines[3][: len(lines[3]) // 2])
    capsys.readouterr()
    assert simulate_to(cut) == 0
    captured = capsys.readouterr()
    assert "dropped a half-written last line" in captured.err
    assert "6 matches of standard" in captured.out  # the summary covers all
    assert "3 of the matches were read from" in captured.out
    assert sorted(lines_of(cut)) == sorted(lines)
    # A rerun of a complete file plays nothing and changes nothing.
    before = cut.read_bytes()
    assert simulate_to(cut) == 0
    assert cut.read_bytes() == before


def test_out_without_seed_resumes_with_the_files_seed_and_extends_the_run(
    tmp_path: Path,
) -> None:
    path, reference = tmp_path / "run.jsonl", tmp_path / "reference.jsonl"
    assert simulate_to(path, games=3) == 0
    assert simulate_to(path, games=5, seed=None) == 0
    assert simulate_to(reference, games=5) == 0
    assert lines_of(path) == lines_of(reference)


def test_out_refuses_a_file_of_another_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.jsonl"
    assert simulate_to(path, games=2) == 0
    before = path.read_bytes()
    capsys.readouterr()
    assert simulate_to(path, games=2, bots=["random"]) == 2
    assert "is a match of another run" in capsys.readouterr().err
    assert path.read_bytes() == before  # left as it was found
    path.write_text(path.read_text() + "not json\n" + path.read_text())
    damaged = path.read_bytes()
    assert simulate_to(path, games=2) == 2
    assert "line 3 is not a match record" in capsys.readouterr().err
    assert path.read_bytes() == damaged


def _marked(marker: str) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter():
        try:
            if process.environ().get("TICHU_TEST_MARK") == marker:
                found.append(process)
        except (psutil.Error, OSError):
            continue
    return found


def start_marked_run(
    path: Path, lines: int = 3, bots: str = "random"
) -> tuple[subprocess.Popen[bytes], str]:
    """`tichu simulate --workers 2 --out PATH` in a process of its own, once it has
    recorded ``lines`` matches and its workers run; its processes carry a marker in
    their environment."""
    marker = uuid.uuid4().hex
    env = {**os.environ, "TICHU_TEST_MARK": marker}
    command = [sys.executable, "-m", "tichu_core", "simulate", "--workers", "2", "--bots",
               bots, "--games", "100000", "--seed", "9", "--out", str(path)]  # fmt: skip
    process = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=default_sigint,  # Ctrl-C works even where the suite ignores it
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
        len(_marked(marker)) < 3 or (path.read_text().count("\n") if path.exists() else 0) < lines
    ):
        if process.poll() is not None:
            raise AssertionError(process.communicate())
        time.sleep(0.1)
    assert len(_marked(marker)) >= 3  # the command and its two workers
    return process, marker


def no_process_left(marker: str, within: float = 5) -> bool:
    deadline = time.monotonic() + within
    while _marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _marked(marker) == []


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_at_once_keeps_the_finished_matches_and_no_worker(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """Ctrl-C (and SIGTERM, as a scheduler sends) stop the run as it goes."""
    path = tmp_path / "run.jsonl"
    process, marker = start_marked_run(path)
    try:
        process.send_signal(stop)
        sent = time.monotonic()
        out, err = process.communicate(timeout=20)
        stopped_after = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert stopped_after < 10
    assert b"interrupted" in err and b"Traceback" not in err
    text = path.read_text()
    assert text.endswith("\n")
    records = [json.loads(line) for line in text.splitlines()]
    assert len(records) >= 3
    assert b"matches of standard" in out  # the summary of what was finished
    assert no_process_left(marker)


def test_workers_do_not_outlive_a_killed_run(tmp_path: Path) -> None:
    """Killed outright (no chance to clean up), the run leaves no worker behind either:
    the workers are sent SIGTERM when their parent dies (Linux), at once, not when
    their batch is done (a batch of 32 heuristic matches takes seconds)."""
    process, marker = start_marked_run(tmp_path / "run.jsonl", lines=0, bots="heuristic")
    time.sleep(1)  # the workers are in their first batch
    process.kill()
    process.wait(timeout=20)  # (not communicate: orphaned workers would hold its pipes)
    assert no_process_left(marker, within=1.5)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    process.stderr.close()


def test_an_out_path_that_cannot_be_written_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert simulate_to(tmp_path, games=1) == 2  # a directory
    err = capsys.readouterr().err
    assert "cannot" in err and str(tmp_path) in err and "Traceback" not in err
