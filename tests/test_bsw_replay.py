"""Replaying Brettspielwelt `.tch` logs through the public `Game` API (tichu_core.replay):
every round of the real logs exactly, the format's quirks on small logs written for these
tests (tests/data/bsw), mismatch reports, malformed input, and the JSON game records."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path

import pytest
from rich.console import Console

from tichu_core import (
    Game,
    GiveTrick,
    GrandTichu,
    LogFormatError,
    Pass,
    Play,
    Tichu,
    Wish,
    load_variant,
)
from tichu_core.formats.bsw import deal_for_round
from tichu_core.formats.bsw_replay import (
    RoundReplay,
    load_records,
    replay_file,
    replay_record,
    replay_text,
)
from tichu_core.frontends.cli.replay import cli_replay, show_round
from tichu_core.game.events import TrickWon

REAL_DIR = Path(__file__).resolve().parents[2] / "shared" / "bsw"
DATA_DIR = Path(__file__).resolve().parent / "data" / "bsw"
REAL_FILES = sorted(REAL_DIR.glob("*.tch")) if REAL_DIR.is_dir() else []
REAL_ROUNDS = 10  # each sample log holds 10 rounds (tests/test_bsw_parse.py checks it)


def text_of(name: str) -> str:
    return (DATA_DIR / name).read_text(encoding="utf-8")


def line_of(text: str, content: str, occurrence: int = 1) -> int:
    """1-based number of the `occurrence`-th line whose stripped text equals `content`."""
    found = [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == content]
    return found[occurrence - 1]


def only_round(text: str, variant: str = "bsw") -> RoundReplay:
    replays = replay_text(text, "test.tch", variant)
    assert len(replays) == 1
    return replays[0]


def step_at(replay: RoundReplay, line: int) -> list[object]:
    return [step.action for step in replay.steps if step.line == line]


def printed(replay: RoundReplay) -> list[str]:
    """The lines `tichu replay` prints for a round."""
    out = io.StringIO()
    show_round(replay, Console(file=out))
    return out.getvalue().splitlines()


@cache
def real_replays(path: Path) -> list[RoundReplay]:
    return replay_file(path)


def real_cases() -> list[object]:
    if not REAL_FILES:
        skip = pytest.mark.skip(reason=f"../shared/bsw not found (looked in {REAL_DIR})")
        return [pytest.param(None, 0, marks=skip)]
    return [
        pytest.param(path, index, id=f"{path.name}-round{index + 1}")
        for path in REAL_FILES
        for index in range(REAL_ROUNDS)
    ]


def require_real() -> list[Path]:
    if not REAL_FILES:
        pytest.skip(f"../shared/bsw not found (looked in {REAL_DIR})")
    return REAL_FILES


# --------------------------------------------------------------------------- real logs


@pytest.mark.parametrize(("path", "index"), real_cases())
def test_real_round_replays_exactly(path: Path, index: int) -> None:
    replays = real_replays(path)
    assert len(replays) == REAL_ROUNDS
    replay = replays[index]
    assert replay.exact, replay.describe_mismatch()
    assert replay.logged is not None and replay.scores == replay.logged
    assert replay.game.is_over and len(replay.game.hand_results) == 1


def test_real_logs_cli_reports_every_round_exact(capsys: pytest.CaptureFixture[str]) -> None:
    for path in require_real():
        assert cli_replay(str(path), verbose=False) == 0
        output = capsys.readouterr().out.splitlines()
        assert output == [f"rounds replayed exactly: {REAL_ROUNDS}/{REAL_ROUNDS}"]


def test_real_log_json_records_load_and_keep_the_scores(tmp_path: Path) -> None:
    path = require_real()[0]
    out = tmp_path / "games.json"
    assert cli_replay(str(path), json_out=str(out), verbose=False) == 0
    records = json.loads(out.read_text(encoding="utf-8"))
    assert len(records) == REAL_ROUNDS
    for record, replay in zip(records, real_replays(path), strict=True):
        game = Game.from_json(json.dumps(record))
        assert game.variant == load_variant("bsw", overrides={"game.target": 0, "game.hands": 1})
        assert game.is_over
        assert tuple(game.hand_results[0].scores) == replay.logged


def test_real_log_prints_readably(capsys: pytest.CaptureFixture[str]) -> None:
    path = require_real()[0]
    assert cli_replay(str(path)) == 0
    output = capsys.readouterr().out
    assert output.count("\nround ") + output.startswith("round ") == REAL_ROUNDS
    assert (
        "  seat 0 (evi_sea)    was dealt  Jp 9s 6j 5s 4t 4p 3s 3j | Aj Js 7p 7s 2p 2j\n" in output
    )
    assert "  seat 1 (1David) calls Grand Tichu\n" in output
    assert "  seat 0 (evi_sea)    pushes  7s to 1, 9s to 2, 7p to 3\n" in output
    assert "1: DR -> 1 gives it to 0 (35 points)" in output
    assert "  log:    Ergebnis: 0 - 400" in output
    assert output.count("  exact\n") == REAL_ROUNDS
    assert output.endswith(f"rounds replayed exactly: {REAL_ROUNDS}/{REAL_ROUNDS}\n")


# --------------------------------------------------------------------------- the quirks


def test_winner_logs_passt_to_collect_the_trick() -> None:
    """S-TRICK-2: the top player's own "passt." is the pass that collects the trick."""
    text = text_of("collect.tch")
    replay = only_round(text)
    assert replay.exact, replay.describe_mismatch()
    assert replay.scores == (50, 50)
    collecting = line_of(text, "(2)Cleo passt.")  # after Cleo's K, everyone passed
    step = next(step for step in replay.steps if step.line == collecting)
    assert step.action == Pass(2)
    assert [e.seat for e in step.events if isinstance(e, TrickWon)] == [2]
    # Every pass by the top seat collects: one TrickWon per such pass, none for the others.
    passes = [step for step in replay.steps if isinstance(step.action, Pass)]
    collected = [step for step in passes if any(isinstance(e, TrickWon) for e in step.events)]
    assert 0 < len(collected) < len(passes)


def test_wunsch_line_is_the_wish_of_the_mah_jong_player() -> None:
    """S-WISH-1: "Wunsch:K" after Anna's Mah Jong is Anna's wish for a King."""
    text = text_of("collect.tch")
    replay = only_round(text)
    assert step_at(replay, line_of(text, "Wunsch:K")) == [Wish(0, "K")]


def test_mah_jong_without_wunsch_wishes_nothing() -> None:
    """S-WISH-1: no "Wunsch:" line after the Mah Jong: a Wish for nothing, derived at the
    Mah Jong's line; the next seat then plays freely."""
    text = text_of("no_wish.tch")
    replay = only_round(text)
    assert replay.exact, replay.describe_mismatch()
    assert step_at(replay, line_of(text, "(0)Anna: Ma")) == [Play(0, "MJ"), Wish(0, None)]
    assert replay.scores == (50, 50)


def test_mah_jong_inside_a_straight_without_wunsch() -> None:
    text = text_of("dragon_gift.tch")
    replay = only_round(text)
    actions = [step.action for step in replay.steps]
    mah_jong = next(i for i, a in enumerate(actions) if isinstance(a, Play) and "MJ" in a.cards)
    assert actions[mah_jong + 1] == Wish(0, None)


def test_mah_jong_ending_the_hand_owes_no_wish() -> None:
    """S-WISH-1, S-END-1: round 1, Anna goes out third with the Mah Jong alone; round 2, she
    goes out second, after her partner Cleo, with a straight from the Mah Jong to the King
    (a double victory). Either way the hand is over at once: nobody is left to wish for,
    the log has no `Wunsch:` line, and no wish is added."""
    text = text_of("mah_jong_ends_hand.tch")
    first, second = replay_text(text, "test.tch")
    for replay, logged in ((first, (70, 30)), (second, (200, 0))):
        assert replay.exact, replay.describe_mismatch()
        assert replay.scores == logged
        assert not any(isinstance(step.action, Wish) for step in replay.steps)
        last = replay.steps[-1].action
        assert isinstance(last, Play) and "MJ" in last.cards
    assert step_at(first, line_of(text, "(0)Anna: Ma")) == [Play(0, "MJ")]
    assert first.game is not None and first.game.hand_results[0].out_order == [1, 2, 0, 3]
    assert second.game is not None and second.game.hand_results[0].out_order[:2] == [2, 0]


def test_a_logged_wish_after_the_hand_ended_is_a_mismatch() -> None:
    """Only the derived wish for nothing waits for the engine to ask: a `Wunsch:` line the
    log does have is applied, and after the hand's last card there is nothing to wish."""
    text = text_of("mah_jong_ends_hand.tch").replace("(0)Anna: Ma \n", "(0)Anna: Ma \nWunsch:7\n")
    first, second = replay_text(text, "test.tch")
    assert first.mismatch is not None and first.mismatch.line == line_of(text, "Wunsch:7")
    assert first.mismatch.reason == (
        "seat 0 (Anna) wishes 7, but our hand is already over "
        "(we score 70 - 30, out order 1, 2, 0, 3)"
    )
    assert second.exact


def test_duplicated_tichu_lines_are_one_call() -> None:
    """S-CALL-1, S-SCORE-3: Dora's call before the play and Cleo's call during it are each
    logged twice; each counts once (Dora first out +100, Cleo -100)."""
    text = text_of("double_tichu.tch")
    replay = only_round(text)
    assert replay.exact, replay.describe_mismatch()
    tichus = [step.action for step in replay.steps if isinstance(step.action, Tichu)]
    assert tichus == [Tichu(3), Tichu(2)]
    assert replay.game.hand_results[0].calls == {2: "tichu", 3: "tichu"}
    assert replay.scores == (50 - 100, 50 + 100)
    # Cleo's call comes where the log has it: after Anna's Mah Jong, before her wish.
    assert step_at(replay, line_of(text, "Tichu: (2)Cleo")) == [Tichu(2)]


def test_seat_numbers_rule_names_may_be_missing_or_substitutes() -> None:
    """A substitute (Emil) takes seat 3 after the first cards, seat 1 has no name in the
    Startkarten and in some plays, lines name the old player: only seat numbers count.
    Push targets resolve by name (old names too), unknown names take the seats left."""
    text = text_of("names.tch")
    replay = only_round(text)
    assert replay.exact, replay.describe_mismatch()
    assert replay.round.names == ("Anna", "Bert", "Cleo", "Emil")
    assert replay.round.pushes == only_round(text_of("collect.tch")).round.pushes
    assert step_at(replay, line_of(text, "(1): GD")) == [Play(1, "Qj")]
    assert step_at(replay, line_of(text, "(3)Dora passt.")) == [Pass(3)]
    assert replay.scores == (50, 50)
    assert "round 1 (test.tch:1): 0 Anna · 1 Bert · 2 Cleo · 3 Emil" in printed(replay)


def test_phoenix_full_house_takes_the_lower_triple() -> None:
    """S-COMB-4: "B8 R8 Ph G5 S5": the Phoenix listed with the fives makes three fives
    and a pair of eights, so Dora's full house of sixes beats it."""
    text = text_of("phoenix_full_house.tch")
    replay = only_round(text)
    assert replay.exact, replay.describe_mismatch()
    full_house = line_of(text, "(2)Cleo: B8 R8 Ph G5 S5")
    assert step_at(replay, full_house) == [Play(2, "8p 8t PH 5j 5s", phoenix="5")]
    assert step_at(replay, full_house + 1) == [Play(3, "6s 6p 6t 2s 2p")]
    assert replay.scores == (200, 0)


def test_phoenix_position_decides_the_reading() -> None:
    """S-COMB-4: listed with the eights, the Phoenix makes three eights: the full house of
    sixes no longer beats it, and the replay says so at Dora's line."""
    text = text_of("phoenix_full_house.tch").replace(
        "(2)Cleo: B8 R8 Ph G5 S5", "(2)Cleo: Ph B8 R8 G5 S5"
    )
    replay = only_round(text)
    mismatch = replay.mismatch
    assert mismatch is not None
    assert mismatch.line == line_of(text, "(3)Dora: S6 B6 R6 S2 B2")
    assert mismatch.action == Play(3, "6s 6p 6t 2s 2p")
    assert "does not beat the trick's top play (S-COMB-3)" in mismatch.reason


def test_bomb_out_of_turn() -> None:
    """S-BOMB-3: Bert bombs Anna's King after everyone passed, before she collects it."""
    text = text_of("bomb_out_of_turn.tch")
    replay = only_round(text)
    assert replay.exact, replay.describe_mismatch()
    bomb_line = line_of(text, "(1)Bert: G7 S7 B7 R7")
    position = next(i for i, step in enumerate(replay.steps) if step.line == bomb_line)
    game = Game(replay.game.variant, seed=0, deals=[deal_for_round(replay.round)])
    for step in replay.steps[:position]:
        game.apply(step.action)
    assert game.turn == 0  # Anna's turn to collect: Bert bombs out of turn
    assert replay.steps[position].action == Play(1, "7j 7s 7p 7t")
    assert replay.scores == (50, 50)


def test_dragon_gift_goes_to_the_named_seat() -> None:
    """S-DRAGON-1: "Drache an: (3)Dora": Anna gives her Dragon trick to Dora, who ends
    last, so its 25 points go on to Anna, the first out (S-END-2)."""
    text = text_of("dragon_gift.tch")
    replay = only_round(text)
    assert replay.exact, replay.describe_mismatch()
    assert step_at(replay, line_of(text, "Drache an: (3)Dora")) == [GiveTrick(0, 3)]
    assert replay.scores == (50, 50)
    to_bert = only_round(text.replace("Drache an: (3)Dora", "Drache an: (1)Bert"))
    assert to_bert.scores == (25, 75)
    assert to_bert.mismatch is not None
    assert to_bert.mismatch.line == line_of(text, "Ergebnis: 50 - 50")


def test_bomb_instead_of_the_wish_is_a_site_rule() -> None:
    """S-WISH-6: wished a 9, Bert (holding three nines) bombs with sevens instead: legal
    on the site (variants/bsw.toml), refused by the standard rules (S-WISH-2). The last
    trick's Dragon is given too (S-DRAGON-2)."""
    text = text_of("bomb_instead.tch")
    replay = only_round(text)
    assert replay.exact, replay.describe_mismatch()
    assert replay.scores == (70, 30)
    standard = only_round(text, variant="standard")
    assert standard.mismatch is not None
    assert standard.mismatch.line == line_of(text, "(1)Bert: G7 S7 B7 R7")
    assert "S-WISH-2" in standard.mismatch.reason
    assert standard.scores is None


def test_bsw_variant_differs_from_standard_only_by_its_site_rules() -> None:
    bsw = load_variant("bsw")
    standard = load_variant("standard")
    assert bsw.wish.bomb_instead and not standard.wish.bomb_instead
    differences = {
        key
        for key, value in bsw.model_dump(exclude={"source"}).items()
        if value != standard.model_dump()[key]
    }
    assert differences == {"name", "description", "wish"}


def test_grand_tichu_decisions_are_derived_for_every_seat() -> None:
    path = require_real()[0]
    replay = real_replays(path)[0]  # "Grosses Tichu: (1)1David"
    decisions = [step.action for step in replay.steps[:4]]
    assert decisions == [GrandTichu(s, s == 1) for s in range(4)]
    assert [step.line for step in replay.steps[:4]] == [None, 1, None, None]


# --------------------------------------------------------------------------- mismatches


def test_wrong_ergebnis_is_reported_not_raised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = text_of("collect.tch").replace("Ergebnis: 50 - 50", "Ergebnis: 60 - 40")
    replay = only_round(text)
    assert not replay.exact and replay.scores == (50, 50) and replay.logged == (60, 40)
    assert replay.mismatch is not None
    result_line = line_of(text, "Ergebnis: 60 - 40")
    assert replay.mismatch.line == result_line
    assert replay.describe_mismatch() == (
        # The out order ranks every seat: seat 0 still held cards.
        f"test.tch:{result_line}: round 1: we score 50 - 50, out order 3, 2, 1, 0, "
        "but the log says Ergebnis: 60 - 40"
    )
    path = tmp_path / "wrong.tch"
    path.write_text(text, encoding="utf-8")
    assert cli_replay(str(path)) == 1
    output = capsys.readouterr().out.splitlines()
    assert output[-2:] == [
        f"mismatch: {path}:{result_line}: round 1: we score 50 - 50, out order 3, 2, 1, 0, "
        "but the log says Ergebnis: 60 - 40",
        "rounds replayed exactly: 0/1",
    ]
    assert f"  MISMATCH {path}:{result_line}: round 1: we score 50 - 50" in output[-3]


def test_a_refused_action_is_reported_with_its_line() -> None:
    text = text_of("collect.tch")
    line = line_of(text, "(1)Bert: GD")
    lines = text.splitlines()
    lines[line - 1] = "(3)Dora: RD"  # not Dora's turn, and no bomb
    replay = only_round("\n".join(lines) + "\n")
    assert replay.mismatch is not None and replay.mismatch.line == line
    assert replay.mismatch.reason.startswith("seat 3 (Dora) plays Qt: the engine refuses")
    assert "only a bomb may be played out of turn (S-BOMB-3)" in replay.mismatch.reason
    assert any(line.endswith(" (unfinished)") for line in printed(replay))


def test_log_going_on_after_the_hand_ended() -> None:
    text = text_of("collect.tch").replace("Ergebnis:", "(0)Anna passt.\nErgebnis:")
    replay = only_round(text)
    assert replay.mismatch is not None
    assert replay.mismatch.line == line_of(text, "Ergebnis: 50 - 50") - 1
    assert "but our hand is already over (we score 50 - 50" in replay.mismatch.reason


def test_log_ending_the_round_too_early() -> None:
    text = text_of("collect.tch").replace("(1)Bert: B9 \n", "")
    replay = only_round(text)
    assert replay.mismatch is not None
    assert replay.mismatch.line == line_of(text, "Ergebnis: 50 - 50")
    assert "our hand is not over: phase play" in replay.mismatch.reason
    assert "waiting for seat 1 (Bert)" in replay.mismatch.reason


# --------------------------------------------------------------------------- aborted games
# An aborted game's log ends inside its last round. The cut logs are made here, from a
# whole log written for these tests (collect.tch, then no_wish.tch cut after one of its
# lines), rather than kept as files: each case shows where it cuts, and the cut rounds
# cannot drift from the whole one they are cut from.


def aborted(after: str, occurrence: int = 1) -> tuple[str, int]:
    """collect.tch, then no_wish.tch up to its line `after`: the log and its last line."""
    head, tail = text_of("collect.tch"), text_of("no_wish.tch")
    cut = line_of(tail, after, occurrence)
    text = head + "".join(line + "\n" for line in tail.splitlines()[:cut])
    return text, len(head.splitlines()) + cut


def pending_of(replay: RoundReplay) -> object:
    assert replay.game is not None
    return replay.game.observation(None).pending


@pytest.mark.parametrize(
    ("after", "ends_after", "actions"),
    [
        # After the first cards: no deal yet, so no game.
        ("(3)Dora RK BD R6 B6 S6 R4 S4 G4", "the first 8 cards (Gr.Tichukarten)", None),
        # After all 14 cards (the aborted game of issue 31): the deal, nothing decided.
        (
            "(3)Dora RK BD R6 B6 S6 R4 S4 G4 R3 G3 R2 B2 S2 G2",
            "the 14 cards (Startkarten)",
            [],
        ),
        # Inside the exchange: the pushes are not all known, none is applied.
        (
            "(1)Bert gibt: Cleo: RA - Dora: RD - Anna: G6 -",
            "2 of the 4 push lines of the exchange",
            [],
        ),
        # Mid-trick: everything up to Cleo's King is replayed, Dora is to play.
        (
            "(2)Cleo: BK",
            "3 lines of play, the last '(2)Cleo: BK'",
            [Play(0, "MJ"), Wish(0, None), Play(1, "Qj"), Play(2, "Kp")],
        ),
        # Right after the Mah Jong: its wish is unknown (the `Wunsch:` line may be the
        # first one missing), so none is derived and the wish is still owed.
        ("(0)Anna: Ma", "1 line of play, the last '(0)Anna: Ma'", [Play(0, "MJ")]),
    ],
)
def test_a_log_ending_inside_its_last_round(
    after: str, ends_after: str, actions: list[object] | None
) -> None:
    text, last = aborted(after)
    complete, cut = replay_text(text, "aborted.tch")
    assert complete.exact, complete.describe_mismatch()
    assert complete.incomplete is None and complete.describe_incomplete() is None
    assert cut.incomplete == f"the log ends after {ends_after}"
    assert cut.describe_incomplete() == f"aborted.tch:{last}: round 2: incomplete: {cut.incomplete}"
    assert not cut.exact and cut.mismatch is None and cut.describe_mismatch() is None
    assert cut.logged is None and cut.scores is None
    if actions is None:
        assert cut.game is None and cut.steps == ()
        return
    assert cut.game is not None and not cut.game.is_over
    pre_play = 4 + 4 if actions else 0  # Grand Tichu decisions and pushes, once all known
    assert [step.action for step in cut.steps[pre_play:]] == actions
    assert len(cut.steps) == pre_play + len(actions)
    if actions[-1:] == [Play(0, "MJ")]:
        assert pending_of(cut) == {"kind": "wish", "seat": 0}
    elif actions:
        assert cut.game.turn == 3


def test_a_log_ending_just_before_the_result() -> None:
    """The whole play is logged, only `Ergebnis:` is missing: our hand is over and
    scored, but with nothing to compare it with the round is incomplete, not exact."""
    text, _ = aborted("(1)Bert: B9")
    _, cut = replay_text(text, "aborted.tch")
    assert cut.game is not None and cut.game.is_over and cut.scores == (50, 50)
    assert cut.incomplete == "the log ends after 74 lines of play, the last '(1)Bert: B9'"
    assert not cut.exact and cut.mismatch is None


def test_a_refused_action_in_an_incomplete_round_is_still_a_mismatch() -> None:
    text, _ = aborted("(2)Cleo: BK")
    text = text.replace("(1)Bert: GD", "(3)Dora: RD", 2)  # in both rounds: both refused
    complete, cut = replay_text(text, "aborted.tch")
    assert complete.mismatch is not None
    assert cut.mismatch is not None and cut.incomplete is not None
    assert "only a bomb may be played out of turn (S-BOMB-3)" in cut.mismatch.reason


def test_cli_replays_the_complete_rounds_and_reports_the_incomplete_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, last = aborted("(3)Dora RK BD R6 B6 S6 R4 S4 G4 R3 G3 R2 B2 S2 G2")
    path = tmp_path / "aborted.tch"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "games.json"
    assert cli_replay(str(path), json_out=str(out), verbose=False) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{path}:{last}: round 2: incomplete: the log ends after the 14 cards (Startkarten)",
        "rounds replayed exactly: 1/1 (1 incomplete, not counted)",
    ]
    records = load_records(out.read_text(encoding="utf-8"))  # complete rounds only
    assert [tuple(Game.from_json(r).hand_results[0].scores) for r in records] == [(50, 50)]
    assert cli_replay(str(path)) == 0
    output = capsys.readouterr().out.splitlines()
    start = last - 9  # the cut round's first line
    assert f"round 2 ({path}:{start}): 0 Anna · 1 Bert · 2 Cleo · 3 Dora" in output
    # The deal is known; no Grand Tichu decision is, so only the first 8 cards are dealt.
    assert "  seat 0 (Anna) was dealt  DR Kj Jt Jp Js Jj 10j 9t" in output
    assert output[-3:] == [
        f"  INCOMPLETE {path}:{last}: round 2: incomplete: the log ends after the 14 cards "
        "(Startkarten)",
        f"{path}:{last}: round 2: incomplete: the log ends after the 14 cards (Startkarten)",
        "rounds replayed exactly: 1/1 (1 incomplete, not counted)",
    ]


def test_cli_fails_on_a_refused_action_even_in_the_incomplete_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, last = aborted("(2)Cleo: BK")
    lines = text.splitlines()
    bad = len(lines) - 1  # the cut round's "(1)Bert: GD"
    assert lines[bad - 1].rstrip() == "(1)Bert: GD"
    lines[bad - 1] = "(3)Dora: RD"
    path = tmp_path / "aborted.tch"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli_replay(str(path), verbose=False) == 1
    output = capsys.readouterr().out.splitlines()
    assert output[0].startswith(f"mismatch: {path}:{bad}: round 2: seat 3 (Dora) plays Qt")
    assert output[1:] == [
        f"{path}:{last}: round 2: incomplete: the log ends after 3 lines of play, "
        "the last '(2)Cleo: BK'",
        "rounds replayed exactly: 1/1 (1 incomplete, not counted)",
    ]


def test_several_rounds_in_one_log_are_independent_hands() -> None:
    """Each round is its own one-hand Game: the second round's Mah Jong holder leads,
    whoever went out first in the round before."""
    first, second = text_of("collect.tch"), text_of("dragon_gift.tch")
    replays = replay_text(first + "\n" + second, "two.tch")
    assert [r.exact for r in replays] == [True, True]
    offset = len(first.splitlines()) + 1
    assert replays[1].round.line == offset + 1
    assert replays[1].result_line == offset + line_of(second, "Ergebnis: 50 - 50")
    assert [r.game._hand.dealer for r in replays] == [0, 0]


def test_double_victory_ending_on_the_dragon() -> None:
    """S-END-1, S-SCORE-2, S-DRAGON-2: Anna goes out second with the Dragon, a double victory
    of seats 0+2: the hand ends there and then, no gift, 200 - 0."""
    replay = only_round(text_of("double_victory_dragon.tch"))
    assert replay.exact, replay.describe_mismatch()


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("(1)Bert: GD", "(1)Bert: XY", "unknown card code 'XY'"),
        ("Ergebnis: 50 - 50", "Ergebnis: fifty", "bad result line"),
        ("Wunsch:K", "Wunsch:Z", "bad wish 'Z'"),
        ("Schupfen:", "Schupfen", "unknown line before the play history"),
    ],
)
def test_malformed_log_raises_log_format_error_with_the_line(
    old: str, new: str, message: str
) -> None:
    text = text_of("collect.tch")
    line = line_of(text, old)
    with pytest.raises(LogFormatError, match=message) as caught:
        replay_text(text.replace(old, new, 1), "bad.tch")
    assert caught.value.line == line


def test_cli_names_the_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = text_of("collect.tch")
    path = tmp_path / "bad.tch"
    path.write_text(text.replace("(1)Bert: GD", "(1)Bert: XY"), encoding="utf-8")
    assert cli_replay(str(path)) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    line = line_of(text, "(1)Bert: GD")
    assert captured.err.startswith(f"tichu replay: {path}: line {line}: unknown card code 'XY'")


def test_cli_reports_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_replay(str(tmp_path / "nothing.tch")) == 1
    assert "No such file" in capsys.readouterr().err


# --------------------------------------------------------------------------- JSON records


def test_json_records_reproduce_every_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["collect.tch", "double_tichu.tch", "dragon_gift.tch", "bomb_instead.tch"]
    log = tmp_path / "four.tch"
    log.write_text("\n".join(text_of(name) for name in names), encoding="utf-8")
    out = tmp_path / "four.json"
    assert cli_replay(str(log), json_out=str(out), verbose=False) == 0
    assert capsys.readouterr().out == "rounds replayed exactly: 4/4\n"
    records = load_records(out.read_text(encoding="utf-8"))
    scores = [tuple(Game.from_json(r).hand_results[0].scores) for r in records]
    assert scores == [(50, 50), (-50, 150), (50, 50), (70, 30)]
    # Our own format replays and prints too, and can be written again unchanged.
    again = tmp_path / "again.json"
    assert cli_replay(str(out), json_out=str(again)) == 0
    output = capsys.readouterr().out
    assert output.endswith("games replayed: 4/4\n")
    assert f"game 2 ({out}): variant bsw, seed 0" in output
    assert "result: team 0+2 -50, team 1+3 150" in output
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")


def test_replay_of_a_single_saved_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(load_variant("standard"), seed=11)
    while game.hand_results == [] and len(game.actions) < 40:
        seat = game.waiting_for[0]
        game.apply(game.legal_actions(seat)[0])
    path = tmp_path / "game.json"
    path.write_text(game.to_json(), encoding="utf-8")
    record = replay_record(game.to_json())
    assert record.game is not None and record.game.actions == game.actions
    assert cli_replay(str(path)) == 0
    output = capsys.readouterr().out
    assert "game 1" in output and "variant standard, seed 11, 40 actions" in output
    assert "Hand 1 — dealer: seat 0" in output and "not over" in output


def test_bad_saved_games_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('[{"format": "something else"}]', encoding="utf-8")
    assert cli_replay(str(path)) == 1
    output = capsys.readouterr().out
    assert "game 1" in output and "does not load" in output
    assert output.endswith("games replayed: 0/1\n")
    path.write_text("[", encoding="utf-8")
    assert cli_replay(str(path)) == 1
    assert "invalid JSON" in capsys.readouterr().err
