"""benchmarks/call_outcomes.py: the search bot's call weighings beside the hand's end."""

from __future__ import annotations

import pytest
from benchscripts import load_script

outcomes = load_script("call_outcomes")


def test_each_weighing_is_kept_with_the_seats_fate_in_the_hand() -> None:
    """S-CALL-1: every seat weighs a Grand Tichu at its eight cards; the seat that went
    out first is the same in every weighing, and a call is made exactly when its
    caller went out first."""
    record = outcomes.play_deal("hard", 3)
    weighings = record["weighings"]
    grand = [w for w in weighings if w["kind"] == "grand_tichu"]
    assert sorted(w["seat"] for w in grand) == [0, 1, 2, 3]
    first = {w["seat"] for w in weighings if w["out_first"]}
    assert len(first) <= 1
    for w in weighings:
        assert w["stake"] >= abs(w["gain"]) - 0.01  # the mean size of a gain, rounded
        if w["called"]:
            assert w["made"] is (w["seat"] in first)
        if w["made"] is None:
            assert not any(v["called"] for v in weighings if v["seat"] == w["seat"])


def test_only_a_search_bot_can_be_asked() -> None:
    with pytest.raises(SystemExit, match="not a search bot"):
        outcomes.play_deal("medium", 3)


def test_the_report_counts_by_kind_and_gain(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [
        {"kind": "tichu", "gain": 30.0, "called": True, "out_first": True, "made": True},
        {"kind": "tichu", "gain": 35.0, "called": True, "out_first": False, "made": False},
        {"kind": "tichu", "gain": -80.0, "called": False, "out_first": False, "made": None},
        {"kind": "grand_tichu", "gain": -120.0, "called": False, "out_first": True},
    ]
    outcomes.report(rows, 1)
    shown = capsys.readouterr().out
    assert "1 deals: 4 call weighings" in shown
    assert "[+25, +50)           2       2  50.0%" in shown
    assert "[-inf, -50)           1       0  0.0%" in shown
    assert "calls: 2, made 1: 50.0%" in shown
