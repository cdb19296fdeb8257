"""The `tichu` command line: every subcommand runs and says something useful."""

from __future__ import annotations

import json

import pytest

from tichu_core.frontends.cli import main


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
    ):
        assert label in out
    assert "417.0 plays" in out  # the worst case lists every reading (S-COMB-4)


def test_an_unknown_variant_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "demo", "--variant", "no_such_variant")
    assert code == 2
    assert "no_such_variant" in err
