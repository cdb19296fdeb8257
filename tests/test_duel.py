"""`tichu duel A B` (docs/bots.md): two bots in duplicate play. Every deal is played
twice with the sides swapped, on stacked deals, so that both matches of a pair deal
every seat the same cards hand by hand; B − A ("second minus first") with 95%
intervals by Student's t over the deals."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from interrupts import default_sigint
from scenario import Recorded, dealt, run, table_row

import tichu_core as tc
from tichu_core.frontends.sim import matches
from tichu_core.frontends.sim.duel import (
    LARGEST_BATCH,
    DuelTally,
    duel_spec,
    figures,
    line_players,
    play_pair,
    stacked_deals,
)
from tichu_core.frontends.sim.runners import MAX_BATCH, _Window

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# Short matches of the four kinds of table, for fast bots.
SHORT = {
    "standard": ["--set", "game.target=300"],
    "threechu": ["--set", "game.hands=3"],
    "tientsin": ["--set", "game.target=300"],
    "grand_seigneur": ["--players", "7", "--set", "game.hands=3"],
}


def variant_of(name: str) -> tc.Variant:
    argv = SHORT[name]
    overrides = [argv[i + 1] for i, arg in enumerate(argv) if arg == "--set"]
    if "--players" in argv:
        overrides.append(f"players={argv[argv.index('--players') + 1]}")
    return tc.load_variant(name, overrides=tc.parse_overrides(overrides))


# --------------------------------------------------------------------------- the command


@pytest.mark.parametrize(
    ("variant", "score", "sides"),
    [
        ("standard", "score per hand", "first A on team 0+2 and B on team 1+3, then swapped"),
        ("threechu", "score per hand", "first A on player 0, player 2 and B on player 1"),
        ("tientsin", "score per hand", "first A on team 0+2+4 and B on team 1+3+5"),
        ("grand_seigneur", "place score per hand (E-5)", "first A on player 0, player 2, player"),
    ],
)
def test_a_short_duel_of_each_kind_of_table_reports_the_figures(
    capsys: pytest.CaptureFixture[str], variant: str, score: str, sides: str
) -> None:
    """S-SCORE-1 (teams), T3-7 (Threechu's players score on their own), GS-1 and E-5
    (Grand Seigneur: finishing-place points)."""
    code, out, err = run(
        capsys, "duel", "greedy", "random", "--variant", variant, *SHORT[variant],
        "--games", "3", "--seed", "5", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert f"greedy (A) against random (B) in duplicate: 3 deals of {variant}" in out
    assert sides in " ".join(out.split())  # the caption may be folded
    cells = table_row(out, score)
    a, b, delta = (float(cell) for cell in cells[1:4])
    assert delta == pytest.approx(b - a, abs=0.1)  # B − A, second minus first
    assert cells[4].startswith("[")  # the interval
    assert "matches won" in out and "matches: A won" in out
    flat = " ".join(out.split())
    assert "3 deals, each played twice (6 matches" in flat
    assert "Student's t over the deals" in flat
    assert "Warning: only 3 pairs, fewer than 20: too few to conclude anything" in flat


def test_a_short_duel_of_the_search_bot_against_the_heuristic(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The duel that docs/bots.md records for the search bot, cut to two deals of one hand
    (the default budget: the bot by its registered name), so that the command cannot
    rot; the long runs are made by hand."""
    code, out, err = run(
        capsys, "duel", "search", "heuristic", "--set", "game.hands=1", "--games", "2",
        "--seed", "3", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert "search (A) against heuristic (B) in duplicate: 2 deals of standard" in out
    a, b, delta = (float(cell) for cell in table_row(out, "score per hand")[1:4])
    assert delta == pytest.approx(b - a, abs=0.1)
    assert "2 deals, each played twice (4 matches, 4 hands)" in " ".join(out.split())


def test_a_duel_draws_a_png_chart(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    chart = tmp_path / "duel.png"
    code, out, err = run(
        capsys, "duel", "greedy", "random", *SHORT["standard"], "--games", "3", "--seed", "2",
        "--chart", str(chart), "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert f"chart: {chart}" in " ".join(out.split())
    assert chart.read_bytes()[:8] == PNG_MAGIC and chart.stat().st_size > 10_000


# --------------------------------------------------------------------------- sides and deals


def test_the_sides_are_the_teams_or_the_players_by_parity() -> None:
    """T6-1: Tientsin's teams are the even and the odd seats; T3-1 and GS-1: where
    players score on their own, A takes the even players first, then the odd ones."""
    expected = {
        "standard": ((0, 1, 0, 1), [(0, 2), (1, 3)]),
        "threechu": ((0, 1, 0), [(0,), (1,), (2,), ()]),  # the dummy's line is no side's
        "tientsin": ((0, 1, 0, 1, 0, 1), [(0, 2, 4), (1, 3, 5)]),
        "grand_seigneur": ((0, 1, 0, 1, 0, 1, 0), [(p,) for p in range(7)]),
    }
    for name, (sides, lines) in expected.items():
        variant = variant_of(name)
        spec, game = duel_spec(variant, "greedy", "random", 1)
        assert line_players(variant, game) == lines, name
        assert spec.sides == sides, name
        first, second = spec.lineup(0), spec.lineup(1)
        # Each player is played by A in one match of the pair and by B in the other.
        assert all({a, b} == {"greedy", "random"} for a, b in zip(first, second, strict=True))
        assert spec.a_players(0) == [p for p, side in enumerate(sides) if side == 0]


def test_stacked_deals_depend_only_on_the_seed_and_the_hand() -> None:
    deck = tc.load_variant("standard").deck_codes
    short, long = (stacked_deals(deck, (14,) * 4, 99, hands) for hands in (2, 5))
    assert long[:2] == short and long[2] != long[3]
    assert sorted(card for hand in long[4] for card in hand) == sorted(deck)
    assert stacked_deals(deck, (14,) * 4, 98, 1) != short[:1]


@pytest.mark.parametrize("name", list(SHORT))
def test_both_matches_of_a_pair_deal_every_seat_the_same_cards_hand_by_hand(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """S-DEAL-3: the first out deals the next hand (T3-8: the shuffler rotates; GS-5:
    the table is reseated by rank), so play decides who deals; the stacked deals keep
    every seat's cards the same in both matches all the same. A stack of 2 deals is
    too short for every match here: the pair is played again with a longer one."""
    monkeypatch.setattr(matches, "Game", Recorded)
    variant = tc.load_variant(name)  # whole matches: to 1000, or 9 and 5 hands
    spec, _ = duel_spec(variant, "greedy", "random", 11, stack=2)
    for index in range(2):
        Recorded.games.clear()
        record = play_pair(spec, index)
        first, second = Recorded.games[-2:]  # the last, long enough stack
        assert len(first.hand_results) > 2 and len(Recorded.games) > 2
        # The two matches went differently (else equal deals would prove nothing) ...
        orders = [[r.out_order for r in game.hand_results] for game in (first, second)]
        assert orders[0] != orders[1]
        # ... and dealt every seat the same cards in every hand both played.
        both = min(len(first.hand_results), len(second.hand_results))
        assert dealt(first)[:both] == dealt(second)[:both]
        # Every hand of both was dealt from the stack, none by seeded shuffling.
        for game in (first, second):
            deals = stacked_deals(variant.deck_codes, spec.sizes, record["seed"], len(dealt(game)))
            assert dealt(game) == deals
        # The players A played in the first match, B played in the second.
        assert [h["a_players"] for h in record["halves"]] == [spec.a_players(0), spec.a_players(1)]
        # How many deals were stacked at first changes nothing.
        full, _ = duel_spec(variant, "greedy", "random", 11)
        assert play_pair(full, index) == record


def test_seeds_alone_would_not_give_the_same_deals_after_the_first_hand() -> None:
    """T6-2, S-DEAL-3: why a pair stacks its deals. Tientsin deals one card at a time
    from the dealer, and the first out deals the next hand: the same seed with the bots
    swapped deals the first hand alike, then the dealers differ and so do the hands."""
    variant = tc.load_variant("tientsin")
    games = [tc.Game(variant, seed=3) for _ in range(2)]
    for game, names in zip(games, (("greedy", "random"), ("random", "greedy")), strict=True):
        play_with(game, [tc_bot(names[p % 2], p) for p in range(game.players)])
    first, second = (dealt(game) for game in games)
    assert first[0] == second[0]
    assert first[1] != second[1]


def tc_bot(name: str, seed: int) -> Any:
    from tichu_core.frontends.bots import make_bot

    return make_bot(name, seed)


def play_with(game: tc.Game, bots: list[Any]) -> None:
    from tichu_core.frontends.bots import play_match

    play_match(game, bots)


# --------------------------------------------------------------------------- intervals


def half(a_players: list[int], totals: list[int], winners: list[int]) -> dict[str, Any]:
    """A standard match of 10 hands (nothing else happened in it)."""
    return {
        "a_players": a_players,
        "totals": totals,
        "card_points": [0, 0],
        "winners": winners,
        "hands": 10,
        "tichu": [[0, 0]] * 4,
        "grand_tichu": [[0, 0]] * 4,
        "bombs": [0] * 4,
        "first_out": [0] * 4,
    }


def test_the_intervals_are_paired_by_deal_on_known_inputs() -> None:
    """Per pair (20 hands) B − A scores −40, 20, −60, 0: −1.0 per hand; the delta
    method's z = (D + 1.0 · 20) / 20 = −1, 2, −2, 1, sd sqrt(10/3), so the half-width
    is Student's t with 3 degrees of freedom (3.1824) times sqrt(10/3 / 4). Match
    shares of A per pair 1, 0.5, 0.75, 0 against B's 0, 0.5, 0.25, 1: a share, its
    interval on the log-odds scale stays inside ±100 points."""
    even, odd = [0, 2], [1, 3]
    pairs = [
        # In the second half A plays team 1+3: its score is line 1's.
        [half(even, [100, 80], [0]), half(odd, [70, 90], [1])],  # A: 190 B: 150, A wins both
        [half(even, [60, 100], [1]), half(odd, [60, 80], [1])],  # A: 140 B: 160, split
        [half(even, [150, 90], [0]), half(odd, [50, 50], [0, 1])],  # A: 200 B: 140, A and shared
        [half(even, [50, 50], [1]), half(odd, [70, 70], [0])],  # A: 120 B: 120, B wins both
    ]
    tally = DuelTally([(0, 2), (1, 3)])
    for index, halves in enumerate(pairs):
        tally.add({"index": index, "halves": halves})
    chosen = figures(tc.load_variant("standard"))
    by_name = dict(zip((f.name for f in chosen), tally.differences(chosen), strict=True))
    score = by_name["score per hand"]
    assert score.first == pytest.approx(650 / 80) and score.second == pytest.approx(570 / 80)
    width = 3.1824 * math.sqrt(10 / 3 / 4)
    assert score.delta == pytest.approx(-1.0)
    assert score.low == pytest.approx(-1.0 - width, rel=1e-5)
    assert score.high == pytest.approx(-1.0 + width, rel=1e-5)
    won = by_name["matches won"]
    assert won.first == pytest.approx(2.25 / 4) and won.second == pytest.approx(1.75 / 4)
    assert won.delta == pytest.approx(-0.125)
    assert won.low is not None and won.high is not None
    # By hand: per pair B's minus A's linearised share (z = (won − R·2)/2), over
    # R(1 − R) = 0.24609375 (the slope of the log odds, the same for both here).
    z_a, z_b = (0.4375, -0.0625, 0.1875, -0.5625), (-0.4375, 0.0625, -0.1875, 0.5625)
    w = [(zb - za) / 0.24609375 for za, zb in zip(z_a, z_b, strict=True)]
    mean = sum(w) / 4
    half_width = 3.1824 * math.sqrt(sum((x - mean) ** 2 for x in w) / 3 / 4)
    shift = math.log(0.4375 / 0.5625) - math.log(0.5625 / 0.4375)  # logit B − logit A
    ends = [math.log(0.5625 / 0.4375) + shift + d for d in (-half_width, half_width)]
    low, high = (1 / (1 + math.exp(-end)) - 0.5625 for end in ends)
    assert won.low == pytest.approx(low, abs=1e-5) and won.high == pytest.approx(high, abs=1e-5)
    # Four pairs that disagree this much: a wide interval, inside the share's range.
    assert -won.first < won.low < -0.125 < won.high < 1 - won.first
    assert tally.wins == [4, 3, 1] and tally.pairs == [1, 1, 2]
    # Nothing called: no figure, no interval.
    assert by_name["Tichu success"].delta is None


# --------------------------------------------------------------------------- runs


def duel_to(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> tuple[int, str, str]:
    return run(
        capsys, "duel", "greedy", "random", *SHORT["standard"], "--games", "4",
        "--out", str(path), "--quiet", *extra,
    )  # fmt: skip


def test_out_resumes_a_cut_file_and_two_workers_give_the_same_pairs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    whole, cut, pooled = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl", tmp_path / "two.jsonl"
    assert duel_to(capsys, whole, "--seed", "8")[0] == 0
    lines = whole.read_text().splitlines()
    assert [json.loads(line)["index"] for line in lines] == [0, 1, 2, 3]
    # An interrupted run: one whole line and half of the next.
    cut.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])
    code, out, err = duel_to(capsys, cut)  # no --seed: the file's own
    assert code == 0, err
    assert "dropped a half-written last line" in err
    assert "1 of the pairs were read from" in out and "4 deals, each played twice" in out
    assert cut.read_text().splitlines() == lines
    assert duel_to(capsys, pooled, "--seed", "8", "--workers", "2")[0] == 0
    assert pooled.read_text().splitlines() == lines


def test_out_refuses_a_file_of_another_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    code, _, err = run(capsys, "simulate", *SHORT["standard"], "--games", "2", "--seed", "1",
                       "--bots", "greedy,random", "--out", str(path), "--quiet")  # fmt: skip
    assert code == 0, err
    before = path.read_bytes()
    code, out, err = duel_to(capsys, path, "--seed", "1")
    assert code == 2 and out == ""
    assert "is a match of another run" in err
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["duel", "greedy", "nobot"], "argument B: unknown bot 'nobot'"),
        (["duel", "greedy", "random", "--games", "1"], "--games: must be at least 2 (got 1)"),
        (["duel", "greedy", "random", "--workers", "0"], "--workers: must be at least 1"),
        (["duel", "greedy", "random", "--backend", "spark"], "argument --backend: invalid choice"),
        (["duel", "greedy", "random", "--set", "game.nothing=1"], "game.nothing"),
        (["duel", "greedy", "random", "--variant", "no_such_variant"], "no_such_variant"),
        (["duel", "greedy", "random", "--chart", "/no/such/dir/c.png"], "cannot write --chart"),
        (["duel", "greedy"], "the following arguments are required: B"),
    ],
)
def test_bad_arguments_are_a_one_line_error_and_exit_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    last = err.strip().splitlines()[-1]  # argparse shows the usage above it
    assert said in last and last.startswith(("tichu duel: ", "tichu: error: "))
    assert "Traceback" not in err


class Counting(_Window):
    """A window that plays nothing: it records the batches it is given."""

    def __init__(self, largest: int) -> None:
        super().__init__(largest)
        self.workers = 2
        self.sizes: list[int] = []

    def _submit(self, batch: list[int]) -> Any:
        self.sizes.append(len(batch))
        return [{"index": i} for i in batch]

    def _wait(self, handle: Any) -> list[dict[str, Any]]:
        records: list[dict[str, Any]] = handle
        return records


def test_a_duel_sends_a_few_pairs_a_batch() -> None:
    """A pair is two matches, and a strong bot's are slow: Ctrl-C keeps whole batches."""
    runner = Counting(LARGEST_BATCH)
    assert [r["index"] for r in runner.records(range(1000), 1000)] == list(range(1000))
    assert max(runner.sizes) == LARGEST_BATCH < MAX_BATCH


def test_ctrl_c_stops_a_duel_keeps_the_finished_pairs_and_sums_them_up(tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    command = [sys.executable, "-m", "tichu_core", "duel", "greedy", "random", "--workers",
               "2", "--games", "100000", "--seed", "9", "--out", str(path)]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_sigint
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            not path.exists() or path.read_text().count("\n") < 2
        ):
            assert process.poll() is None, process.communicate()
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert b"tichu duel: interrupted" in err and b"Traceback" not in err
    kept = path.read_text()
    assert kept.endswith("\n") and kept.count("\n") >= 2
    assert f"{kept.count(chr(10))} deals, each played twice".encode() in out
