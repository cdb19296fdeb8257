"""benchmarks/side_by_side.py without the peer: its notation conversion, our half of
every figure and its error messages. With TICHU_PEER pointing to a checkout of
frohlfing/tichu, one more test runs the whole comparison with --quick."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tichu_core.cardplay.cards import deck_mask, iter_cards, mask_of, parse_cards
from tichu_core.cardplay.moves import lead_plays

HARNESS = Path(__file__).resolve().parents[1] / "benchmarks" / "side_by_side.py"


def _load() -> ModuleType:
    # benchmarks/ is not a package: load the harness from its file.
    spec = importlib.util.spec_from_file_location("side_by_side", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["side_by_side"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


sbs = _load()


def test_every_card_converts_to_the_peer_notation_and_back() -> None:
    codes = [str(card) for card in iter_cards(deck_mask(1))]
    peer_cards = [sbs.peer_card_of_code(code) for code in codes]
    assert len(set(peer_cards)) == 56
    assert [sbs.code_of_peer_card(card) for card in peer_cards] == codes
    assert {v for v, _ in peer_cards} == set(range(17))


@pytest.mark.parametrize(
    ("code", "peer"),
    [
        ("5j", (5, 3)),
        ("Ks", (13, 1)),
        ("10p", (10, 2)),
        ("At", (14, 4)),
        ("2t", (2, 4)),
        ("DOG", (0, 0)),
        ("MJ", (1, 0)),
        ("DR", (15, 0)),
        ("PH", (16, 0)),
    ],
)
def test_the_peer_notation_of_single_cards(code: str, peer: tuple[int, int]) -> None:
    assert sbs.peer_card_of_code(code) == peer
    assert sbs.code_of_peer_card(peer) == code


def test_a_hand_converts_sorted_high_to_low_and_through_the_lookup() -> None:
    mask = mask_of(parse_cards("2j PH 5s DOG Ks"))
    assert sbs.peer_cards_of_mask(mask) == [(16, 0), (13, 1), (5, 1), (2, 3), (0, 0)]
    lookup = {card: ("peer", card) for card in map(sbs.peer_card_of_code, ["2j", "PH"])}
    assert sbs.peer_cards_of_mask(mask_of(parse_cards("2j PH")), lookup) == [
        ("peer", (16, 0)),
        ("peer", (2, 3)),
    ]


def test_card_sets_merge_phoenix_readings_and_drop_the_pass_entry() -> None:
    found = lead_plays(mask_of(parse_cards("4j 5s 6p 7t PH")))
    straights = [play for play in found if play[1] == 5]  # (kind, length, rank, cards, phoenix)
    assert len(straights) == 2  # a straight to 7 and one to 8, one card set
    ours = sbs.our_card_sets(found)
    assert frozenset({"4j", "5s", "6p", "7t", "PH"}) in ours
    assert len(ours) == len(found) - 1
    peer_space = [([], (0, 0, 0))] + [
        (sbs.peer_cards_of_mask(cards), (0, length, 0)) for _, length, _, cards, _ in found
    ]
    assert sbs.peer_card_sets(peer_space) == ours
    assert sbs.first_difference(ours, sbs.peer_card_sets(peer_space)) is None


def test_the_first_difference_names_what_one_engine_lists_alone() -> None:
    ours = {frozenset({"5j"}), frozenset({"5j", "5s"})}
    peer = {frozenset({"5j"}), frozenset({"PH"})}
    difference = sbs.first_difference(ours, peer)
    assert difference is not None
    assert "only ours (1): ['5j 5s']" in difference
    assert "only the peer (1): ['PH']" in difference


def test_seeded_hands_are_the_bench_hands_and_repeat() -> None:
    hands = sbs.seeded_hands(20)
    assert list(hands) == [sbs.LEAD_RANDOM, sbs.LEAD_PHOENIX, sbs.LEAD_WORST, sbs.FOLLOW_FIVES]
    assert hands == sbs.seeded_hands(20)
    assert all(mask.bit_count() == 14 for masks in hands.values() for mask in masks)
    phoenix = mask_of(parse_cards("PH"))
    assert all(mask & phoenix for mask in hands[sbs.LEAD_PHOENIX])
    assert set(hands[sbs.LEAD_WORST]) == {mask_of(parse_cards(sbs.WORST_HAND))}
    fives = mask_of(parse_cards(sbs.PAIR_OF_FIVES))
    assert not any(mask & fives for mask in hands[sbs.FOLLOW_FIVES])


def test_our_move_figures() -> None:
    figures = sbs.our_move_figures(sbs.seeded_hands(10))
    assert list(figures) == [sbs.LEAD_RANDOM, sbs.LEAD_PHOENIX, sbs.LEAD_WORST, sbs.FOLLOW_FIVES]
    for timing in figures.values():
        assert timing.samples == 10
        assert 0 < timing.median_us <= timing.p90_us
    assert figures[sbs.LEAD_WORST].plays == 417  # docs/performance.md "Counting"


def test_time_each_with_one_sample() -> None:
    timing = sbs.time_each([3], lambda n: [0] * n)
    assert (timing.samples, timing.plays) == (1, 3)
    assert timing.p90_us == timing.median_us


def test_time_each_reports_the_round_with_the_lowest_median() -> None:
    """A burst of noise in one round (here: the first, slowed by a sleep) does not
    reach the figure: the round with the lowest median is reported."""
    import time

    calls = [0]

    def slow_at_first(n: int) -> list[int]:
        calls[0] += 1
        if calls[0] <= 6:  # the warm-up of the 3 inputs, then the first round
            time.sleep(0.003)
        return [0] * n

    timing = sbs.time_each([1, 2, 3], slow_at_first, rounds=3)
    assert calls[0] == 3 * 6  # every round warms up and times each input once
    assert timing.median_us < 3000
    assert timing.samples == 3


def test_rounds_go_round_the_jobs() -> None:
    """Every job's first round, then every job's second: a slow spell of the machine
    during the first rounds (here: all of job "a"'s first round and job "b"'s) leaves
    both a clean round to report."""
    import time

    order: list[str] = []

    def job(name: str) -> Any:
        def generate(n: int) -> list[int]:
            order.append(name)
            if len(order) <= 8:  # the first round of both jobs (warm-up and timed calls)
                time.sleep(0.003)
            return [0] * n

        return generate

    timed = sbs.best_of_rounds({"a": ([1, 2], job("a")), "b": ([3, 4], job("b"))}, rounds=2)
    assert order == ["a"] * 4 + ["b"] * 4 + ["a"] * 4 + ["b"] * 4
    assert timed["a"].median_us < 3000 and timed["b"].median_us < 3000
    assert (timed["a"].plays, timed["b"].plays) == (1.5, 3.5)


def test_our_random_play_counts_finished_hands_only() -> None:
    play = sbs.OurPlay()
    play.run(0.2)
    first = (play.hands, play.decisions)
    assert play.seconds >= 0.2
    assert play.decisions > 0
    assert play.hands * 100 < play.decisions  # about 127 decisions a hand
    play.run(0.2)  # the match goes on where the last slice left it
    assert play.hands >= first[0] and play.decisions > first[1]
    assert play.game is not None and not play.game.is_over


def test_our_playouts_play_each_state_to_the_end_of_its_hand() -> None:
    play = sbs.OurPlayouts(states=5)
    assert len(play.states) == 5
    assert all(state.turn is not None for state in play.states)  # mid-hand, a turn
    before = [state.to_json() for state in play.states]
    play.run(0.2)
    assert play.seconds >= 0.2 and play.playouts > 0
    assert play.steps > play.playouts  # a play-out takes many decisions
    assert [state.to_json() for state in play.states] == before  # copies, played
    figure = sbs.PlayoutFigure("ours", play.playouts, play.steps, play.seconds)
    assert figure.per_second > 0 and figure.step_us > 0


def test_deep_size_counts_each_object_once_and_leaves_out_shared_ones() -> None:
    leaf = [1, 2, 3]
    tree = [leaf, leaf, "x"]
    whole = sbs.deep_size([tree])
    assert whole == sum(sys.getsizeof(o) for o in (tree, leaf, 1, 2, 3, "x"))
    assert sbs.deep_size([tree], sbs.reachable_ids([leaf])) == sum(
        sys.getsizeof(o) for o in (tree, "x")
    )
    assert sbs.deep_size([sbs.Timing]) == 0  # classes are code, not state


def test_our_state_figure_and_copy() -> None:
    figure = sbs.our_state_figure(copies=5)
    assert figure.copies == 5
    assert 0 < figure.copy_bytes < figure.total_bytes
    assert figure.copy_median_us > 0
    assert sbs.check_our_copy() is None


def test_better_says_who_and_by_how_much() -> None:
    assert sbs.better(10.0, 30.0) == "ours better by 3.0×"
    assert sbs.better(30.0, 10.0) == "peer better by 3.0×"
    assert sbs.better(400.0, 100.0, higher_is_better=True) == "ours better by 4.0×"
    assert sbs.better(0.0, 1.0) == "n/a"


def test_a_missing_peer_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(sbs.PeerError) as error:
        sbs.load_peer(tmp_path / "nowhere")
    assert "git clone" in str(error.value)
    assert "83e71b0" in str(error.value)


def test_main_without_a_peer_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TICHU_PEER", raising=False)
    assert sbs.main([]) == 2
    assert "--peer PATH" in capsys.readouterr().err


@pytest.mark.skipif(not os.environ.get("TICHU_PEER"), reason="TICHU_PEER names no checkout")
def test_quick_comparison_against_the_peer(tmp_path: Path) -> None:
    # A process of its own: the harness pins it to one core and imports the peer's 'src'.
    out = tmp_path / "figures.json"
    run = subprocess.run(
        [sys.executable, str(HARNESS), "--quick", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(out.read_text())
    assert report["mismatches"] == []
    assert [f["check"] for f in report["move_generation"]] == ["OK"] * 4
    assert {f["engine"] for f in report["random_play"]} == {"ours", "peer"}
    assert all(f["hands"] > 0 and f["decisions"] > 0 for f in report["random_play"])
    assert report["state"]["peer"]["copy_bytes"] > 0
    assert {f["engine"] for f in report["playouts"]} == {"ours", "peer"}
    assert all(f["playouts"] > 0 and f["steps"] > f["playouts"] for f in report["playouts"])
    assert "ours better by" in run.stdout or "peer better by" in run.stdout
