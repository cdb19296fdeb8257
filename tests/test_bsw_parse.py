"""Parsing Brettspielwelt `.tch` logs (tichu_core.bsw): the real sample games, the
format's quirks, Phoenix readings, and malformed input."""

from __future__ import annotations

from pathlib import Path

import pytest

from tichu_core.errors import LogFormatError
from tichu_core.formats.bsw import (
    BswDragonGift,
    BswPass,
    BswPlay,
    BswTichu,
    BswWish,
    bsw_card,
    deal_for_round,
    parse_tch,
    phoenix_rank,
    read_tch,
)

REAL_DIR = Path(__file__).resolve().parents[2] / "shared" / "bsw"
DATA_DIR = Path(__file__).resolve().parent / "data" / "bsw"
MINIMAL = (DATA_DIR / "minimal.tch").read_text()


def real_files() -> list[Path]:
    files = sorted(REAL_DIR.glob("*.tch")) if REAL_DIR.is_dir() else []
    if not files:
        pytest.skip(f"real Brettspielwelt logs not found in {REAL_DIR}")
    return files


def edited(text: str, line: int, new: str | None) -> str:
    """`text` with 1-based line `line` replaced by `new` (None: made blank)."""
    lines = text.splitlines()
    lines[line - 1] = new or ""
    return "\n".join(lines) + "\n"


def error_of(text: str) -> LogFormatError:
    with pytest.raises(LogFormatError) as caught:
        parse_tch(text)
    return caught.value


# --------------------------------------------------------------------------- real logs


def test_real_logs_have_ten_complete_rounds() -> None:
    full_deck = {bsw_card(t) for t in ("Dr", "Ph", "Hu", "Ma")} | {
        bsw_card(suit + rank)
        for suit in "BGRS"
        for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K", "A"]
    }
    assert len(full_deck) == 56
    for path in real_files():
        game = read_tch(path)
        assert game.source == str(path)
        assert len(game.rounds) == 10, path
        for rnd in game.rounds:
            assert [len(hand) for hand in rnd.start_cards] == [14] * 4
            assert [len(hand) for hand in rnd.first_cards] == [8] * 4
            dealt = [card for hand in rnd.start_cards for card in hand]
            assert set(dealt) == full_deck and len(dealt) == 56
            for first, start in zip(rnd.first_cards, rnd.start_cards, strict=True):
                assert set(first) <= set(start)
            for giver, pushes in enumerate(rnd.pushes):
                assert sorted(pushes) == sorted({0, 1, 2, 3} - {giver})
                assert set(pushes.values()) <= set(rnd.start_cards[giver])
            assert rnd.result is not None
            assert all(name is not None for name in rnd.names)
            assert any(isinstance(event, BswPlay) for event in rnd.history)


def test_real_logs_first_round_details() -> None:
    path = REAL_DIR / "2417500.tch"
    if not path.exists():
        pytest.skip(f"real Brettspielwelt log not found: {path}")
    game = read_tch(path)
    first = game.rounds[0]
    assert first.line == 1
    assert first.names == ("evi_sea", "1David", "evdokia!!", "Lisaaaaaaa")
    assert first.first_cards[0] == ("Jp", "9s", "6j", "5s", "4t", "4p", "3j", "3s")
    assert first.grand_tichus == (1,)
    assert first.pushes[0] == {1: "7s", 2: "9s", 3: "7p"}
    assert first.pushes[1] == {2: "5t", 3: "Qs", 0: "3t"}
    assert first.result == (0, 400)
    assert first.history[:3] == (
        BswPlay(3, ("MJ",), None, 18),
        BswWish("2", 19),
        BswPlay(0, ("2t",), None, 20),
    )
    assert BswDragonGift(0, 34) in first.history
    assert game.rounds[4].result == (-5, 5)
    assert game.rounds[8].result == (240, -40)


def test_real_logs_bombe_lines_and_mid_play_tichu() -> None:
    path = REAL_DIR / "2417500.tch"
    if not path.exists():
        pytest.skip(f"real Brettspielwelt log not found: {path}")
    rounds = read_tch(path).rounds
    assert [rnd.bomb_holders for rnd in rounds[2:6]] == [(0,), (1,), (), (1, 3)]
    assert BswTichu(2, 185) in rounds[2].history
    # a Mah Jong straight with no Wunsch line wished nothing
    assert rounds[4].history[:2] == (
        BswPlay(1, ("5t", "4j", "3t", "2t", "MJ"), None, 365),
        BswWish(None, 365),
    )


def test_real_logs_phoenix_plays() -> None:
    expected = {
        ("2417500.tch", 44): "7",  # B9 R9 R8 S8 Ph S7 R6 S6: steps
        ("2417500.tch", 119): "4",  # S9 S8 G7 S6 S5 Ph R3 B2: straight gap
        ("2417500.tch", 226): "A",
        ("2417500.tch", 401): "A",
        ("2417500.tch", 471): "6",  # Ph S6 B6 G2 S2: full house 666 22
        ("2417500.tch", 556): "K",
        ("2417500.tch", 717): "Q",
        ("2417501.tch", 224): "2",  # Ph B2 R2: triple
        ("2417501.tch", 284): "4",  # G8 R7 R6 G5 Ph S3 G2 Ma: straight gap
        ("2417501.tch", 415): "7",  # G8 S8 Ph B7 S7: full house with the lower triple
        ("2417501.tch", 707): "A",
        ("2417501.tch", 878): "K",
    }
    found = {}
    for path in real_files():
        for rnd in read_tch(path).rounds:
            for event in rnd.history:
                if isinstance(event, BswPlay) and "PH" in event.cards:
                    if len(event.cards) == 1:
                        assert event.phoenix is None
                    else:
                        found[(path.name, event.line)] = event.phoenix
    assert found == expected


# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize(
    ("token", "code"),
    [
        ("B2", "2p"),
        ("G10", "10j"),
        ("RB", "Jt"),
        ("SD", "Qs"),
        ("BK", "Kp"),
        ("GA", "Aj"),
        ("Dr", "DR"),
        ("Ph", "PH"),
        ("Hu", "DOG"),
        ("Ma", "MJ"),
    ],
)
def test_card_codes(token: str, code: str) -> None:
    assert bsw_card(token) == code


@pytest.mark.parametrize("token", ["X2", "B1", "B11", "BJ", "G", "dr", "MA", "T10"])
def test_unknown_card_codes(token: str) -> None:
    with pytest.raises(LogFormatError, match="unknown card code"):
        bsw_card(token)


# --------------------------------------------------------------------------- a plain round


def test_minimal_log() -> None:
    game = parse_tch(MINIMAL, source="minimal")
    assert game.source == "minimal"
    (rnd,) = game.rounds
    assert rnd.index == 0
    assert rnd.names == ("Anna", "Bert", "Cleo", "Dora")
    assert rnd.grand_tichus == (2,)
    assert rnd.tichus_before_play == ()
    assert rnd.bomb_holders == (0, 1, 2, 3)
    assert rnd.pushes == (
        {1: "2p", 2: "3p", 3: "4p"},
        {2: "2j", 3: "3j", 0: "4j"},
        {3: "2t", 0: "3t", 1: "4t"},
        {0: "2s", 1: "3s", 2: "4s"},
    )
    assert rnd.history == (
        BswPlay(0, ("MJ",), None, 19),
        BswWish("7", 20),
        BswPlay(1, ("7j",), None, 21),
        BswPlay(2, ("At",), None, 22),
        BswPlay(3, ("DR",), None, 23),
        BswPass(0, 24),
        BswPass(1, 25),
        BswPass(2, 26),
        BswPass(3, 27),
        BswDragonGift(0, 28),
        BswPlay(3, ("6s", "5s", "4p", "3j", "2t"), None, 29),
        BswPass(0, 30),
    )
    assert rnd.result == (25, 75)


def test_deal_for_round_puts_the_grand_tichu_cards_first() -> None:
    (rnd,) = parse_tch(edited(MINIMAL, 2, "(0)Anna B2 B4 B6 B8 B10 BD BA Ma")).rounds
    deal = deal_for_round(rnd)
    first_eight = ["2p", "4p", "6p", "8p", "10p", "Qp", "Ap", "MJ"]
    assert deal[0] == [*first_eight, "Kp", "Jp", "9p", "7p", "5p", "3p"]
    assert deal[2][:8] == ["PH", "At", "Kt", "Qt", "Jt", "10t", "9t", "8t"]
    assert all(len(hand) == 14 for hand in deal)
    assert sorted(deal[3]) == sorted(rnd.start_cards[3])


def test_read_tch_accepts_latin1_names(tmp_path: Path) -> None:
    path = tmp_path / "latin1.tch"
    path.write_bytes(MINIMAL.replace("Anna", "Jürgen").encode("latin-1"))
    assert read_tch(path).rounds[0].names[0] == "Jürgen"


# --------------------------------------------------------------------------- quirks


def test_missing_name_and_reordered_card_lines() -> None:
    rnd = read_tch(DATA_DIR / "quirks.tch").rounds[0]
    assert rnd.names == ("Anna", "Bert", "Cleo", "Dora")  # seat 1 named only in Startkarten
    assert rnd.first_cards[1][0] == "Aj"
    assert rnd.start_cards[2][0] == "PH"  # listed first, but seat 2
    assert rnd.start_cards[1][-1] == "DOG"


def test_card_line_without_any_name() -> None:
    (rnd,) = parse_tch(edited(MINIMAL, 3, "(1)GA GK GD GB G10 G9 G8 Hu")).rounds
    assert rnd.first_cards[1] == ("Aj", "Kj", "Qj", "Jj", "10j", "9j", "8j", "DOG")
    assert rnd.names[1] == "Bert"  # from the Startkarten line
    text = edited(MINIMAL, 3, "(1) GA GK GD GB G10 G9 G8 Hu")
    text = edited(text, 8, "(1) GA GK GD GB G10 G9 G8 G7 G6 G5 G4 G3 G2 Hu")
    (rnd,) = parse_tch(text).rounds
    assert rnd.names == ("Anna", None, "Cleo", "Dora")
    # 'Bert' is nobody now: that entry takes the seat the other names leave
    assert rnd.pushes[0] == {1: "2p", 2: "3p", 3: "4p"}
    assert rnd.pushes[2] == {3: "2t", 0: "3t", 1: "4t"}


def test_push_targets_follow_names_not_order() -> None:
    rnd = read_tch(DATA_DIR / "quirks.tch").rounds[0]
    # '(0)Anna gibt: Dora: B4 - Bert: B2 - Cleo: B3'
    assert rnd.pushes[0] == {1: "2p", 2: "3p", 3: "4p"}
    # '(1)Bert gibt: : G2 - Dora: G3 - Anna: G4': the unnamed target is the seat left over
    assert rnd.pushes[1] == {2: "2j", 3: "3j", 0: "4j"}


def test_substitute_and_swapped_seats() -> None:
    rnd = read_tch(DATA_DIR / "quirks.tch").rounds[1]
    assert rnd.names == ("Bert", "Anna", "Cleo", "Emil")
    # names of this round's card lines, not of the previous round
    assert rnd.pushes[0] == {1: "2p", 2: "DOG", 3: "2j"}
    # 'Dora' left the table: her entry gets the one seat not named
    assert rnd.pushes[1] == {2: "5p", 3: "5j", 0: "DR"}
    # no name known: giver + 1, + 2, + 3
    assert rnd.pushes[2] == {3: "8p", 0: "8j", 1: "8t"}
    # contradictory names ('Bert' twice): site order
    assert rnd.pushes[3] == {0: "Jt", 1: "Js", 2: "Qp"}


def test_duplicated_tichu_calls_count_once() -> None:
    rnd = read_tch(DATA_DIR / "quirks.tch").rounds[0]
    assert rnd.tichus_before_play == (1,)
    calls = [event for event in rnd.history if isinstance(event, BswTichu)]
    assert calls == [BswTichu(3, 20)]  # second 'Tichu: (3)' and the repeat of (1) dropped


def test_mah_jong_without_wunsch_wishes_nothing() -> None:
    rnd = read_tch(DATA_DIR / "quirks.tch").rounds[0]
    assert rnd.history[:3] == (
        BswPlay(0, ("6p", "5p", "4j", "3t", "2s", "MJ"), None, 18),
        BswWish(None, 18),
        BswPass(1, 19),
    )
    assert sum(isinstance(event, BswWish) for event in rnd.history) == 1


def test_wish_stays_next_to_its_mah_jong_across_a_tichu_line() -> None:
    rnd = read_tch(DATA_DIR / "quirks.tch").rounds[1]
    assert rnd.history[:3] == (BswPlay(0, ("MJ",), None, 53), BswWish("J", 55), BswTichu(2, 54))


def test_mah_jong_last_in_the_round_wishes_nothing() -> None:
    text = edited(edited(MINIMAL, 20, None), 30, "(0)Anna: Ma")
    history = parse_tch(text).rounds[0].history
    assert history[-2:] == (BswPlay(0, ("MJ",), None, 30), BswWish(None, 30))
    assert history[:2] == (BswPlay(0, ("MJ",), None, 19), BswWish(None, 19))


def test_play_and_pass_lines_without_names() -> None:
    rnd = read_tch(DATA_DIR / "quirks.tch").rounds[1]
    assert BswPlay(2, ("9t",), None, 57) in rnd.history
    assert BswPass(3, 58) in rnd.history


def test_dragon_gift() -> None:
    rounds = read_tch(DATA_DIR / "quirks.tch").rounds
    assert rounds[0].history[-1] == BswDragonGift(2, 34)
    assert not any(isinstance(event, BswDragonGift) for event in rounds[1].history)


def test_log_ending_inside_a_round_has_no_result() -> None:
    text = "\n".join(MINIMAL.splitlines()[:25]) + "\n"
    (rnd,) = parse_tch(text).rounds
    assert rnd.result is None
    assert rnd.history[-1] == BswPass(1, 25)


def test_blank_lines_crlf_and_trailing_spaces_are_ignored() -> None:
    plain = parse_tch(MINIMAL).rounds[0]
    (rnd,) = parse_tch("\r\n\r\n".join(line + "   " for line in MINIMAL.splitlines())).rounds
    assert rnd.names == plain.names
    assert rnd.start_cards == plain.start_cards
    assert rnd.pushes == plain.pushes
    assert rnd.result == plain.result
    assert [type(event) for event in rnd.history] == [type(event) for event in plain.history]
    assert [event.line for event in rnd.history] == [2 * e.line - 1 for e in plain.history]


# --------------------------------------------------------------------------- Phoenix


@pytest.mark.parametrize(
    ("play", "rank"),
    [
        ("Ph BA", "A"),  # pair, Phoenix first
        ("R3 Ph", "3"),  # pair, Phoenix last
        ("Ph B2 R2", "2"),  # triple
        ("RK Ph SK", "K"),  # triple, Phoenix inside
        ("S9 S8 G7 S6 S5 Ph R3 B2", "4"),  # straight, gap
        ("G8 R7 R6 G5 Ph S3 G2 Ma", "4"),  # straight down to the Mah Jong, gap
        ("Ph RB G10 B9 S8 R7", "Q"),  # straight, top end
        ("RB G10 B9 S8 R7 Ph", "6"),  # straight, bottom end
        ("Ph B5 S4 B3 B2 Ma", "6"),  # bottom end is the Mah Jong: top end
        ("BA RK SD GB B10 Ph", "9"),  # top end is the Ace: bottom end
        ("B9 R9 R8 S8 Ph S7 R6 S6", "7"),  # steps
        ("Ph BD RB SB", "Q"),  # steps, Phoenix at the top
        ("RK SK BK Ph G4", "4"),  # full house: triple + single
        ("Ph S6 B6 G2 S2", "6"),  # full house of two pairs: the upper triple
        ("G8 S8 Ph B7 S7", "7"),  # full house of two pairs: joins the lower pair
        ("G8 S8 B7 S7 Ph", "7"),  # ... Phoenix last: the card before it
    ],
)
def test_phoenix_readings(play: str, rank: str) -> None:
    text = edited(MINIMAL, 29, f"(3)Dora: {play}")
    event = parse_tch(text).rounds[0].history[10]
    assert isinstance(event, BswPlay)
    assert event.cards == tuple(bsw_card(token) for token in play.split())
    assert event.phoenix == rank


def test_phoenix_single_and_no_phoenix_have_no_reading() -> None:
    assert phoenix_rank(["PH"]) is None
    assert phoenix_rank(["Kp", "Ks"]) is None
    assert phoenix_rank(["PH", "DR"]) is None


# --------------------------------------------------------------------------- malformed


@pytest.mark.parametrize(
    ("line", "new", "error_line", "message"),
    [
        (7, "(0)Anna BA BK BD BB B10 B9 B8 B7 B6 B5 B4 B3 BX Ma", 7, "unknown card code 'BX'"),
        (8, "(1)Bert GA GK GD GB G10 G9 G8 G7 G6 G5 G4 G3 Hu", 8, "expected 14 cards, found 13"),
        (2, "(0)Anna BA BK BD BB B10 B9 B8 B7 Ma", 2, "expected 8 cards, found 9"),
        (6, None, 7, "missing section"),
        (6, "---------------Startkarte------------------", 6, "missing section"),
        (1, "(0)Anna BA", 1, "missing section"),
        (18, None, 19, "unknown line before the play history"),
        (22, "Cleo spielt RA", 22, "unknown line in the play history"),
        (22, "(2)Cleo RA", 22, "expected a play"),
        (31, "Ergebnis: 25 : 75", 31, "bad result line"),
        (31, "Ergebnis: 25 - ", 31, "bad result line"),
        (31, "Ergebnis: zwei - drei", 31, "bad result line"),
        (21, "(4)Bert: G7", 21, "seat 4 out of range"),
        (4, "(3)Cleo Ph RA RK RD RB R10 R9 R8", 5, "seat 3 listed twice"),
        (10, "(3)Dora Dr SA SK SD SB S10 S9 S8 S7 S6 S5 S4 S3 R2", 10, "card 2t dealt twice"),
        (5, "(3)Dora Dr SA SK SD SB S10 S9 R2", 5, "not among them: 2t"),
        (5, "(3)Dora Dr SA SK SD SB S10 S9 S9", 5, "not 8 distinct cards of its 14 on line 10"),
        (13, "(0)Anna gibt: Bert: B2 - Cleo: B3 - ", 13, "expected 3 pushes, found 2"),
        (13, "(0)Anna gibt: Bert: B2 - Cleo: B3 - Dora: G4 - ", 13, "pushes 4j, not one"),
        (14, "(1)Bert gibt Cleo: G2 - Dora: G3 - Anna: G4 - ", 14, "expected a push line"),
        (15, "(1)Cleo gibt: Dora: R2 - Anna: R3 - Bert: R4 - ", 15, "seat 1 pushes twice"),
        (12, None, 13, "unknown line before the play history"),
        (20, "Wunsch:X", 20, "bad wish 'X'"),
        (20, "Wunsch:", 20, "bad wish ''"),
        (21, "Wunsch:7", 21, "'Wunsch:' without a Mah Jong"),
        (28, "Drache an: (0)Anna (1)Bert", 28, "exactly one seat"),
        (28, "Drache an: Anna", 28, "expected (seat)name"),
        (11, "Grosses Tichu: Cleo", 11, "expected (seat)"),
        (17, "Bombe: (0)Anna", 17, "unknown line before the play history"),
    ],
)
def test_malformed_lines(line: int, new: str | None, error_line: int, message: str) -> None:
    error = error_of(edited(MINIMAL, line, new))
    assert error.line == error_line
    assert message in str(error)
    assert str(error).startswith(f"line {error_line}: ")


def test_missing_schupfen_section() -> None:
    text = MINIMAL
    for line in range(12, 17):
        text = edited(text, line, None)
    error = error_of(text)
    assert error.line == 18
    assert "missing section: expected 'Schupfen:'" in str(error)


def test_missing_result_before_the_next_round() -> None:
    text = edited(MINIMAL, 31, None) + MINIMAL
    error = error_of(text)
    assert error.line == 32
    assert "expected 'Ergebnis: A - B' before the next round" in str(error)


def test_two_rounds_and_garbage_between_them() -> None:
    game = parse_tch(MINIMAL + "\n" + MINIMAL)
    assert [rnd.index for rnd in game.rounds] == [0, 1]
    assert [rnd.line for rnd in game.rounds] == [1, 33]
    error = error_of(MINIMAL + "Spiel beendet\n" + MINIMAL)
    assert error.line == 32
    assert "Gr.Tichukarten" in str(error)


def test_an_empty_log_is_refused() -> None:
    error = error_of("\n\n")
    assert error.line == 1
    assert "empty log" in str(error)


@pytest.mark.parametrize(
    ("cut", "ends_after", "kept"),
    [
        (1, "the round's heading '---------------Gr.Tichukarten------------------'", ""),
        (3, "the first 8 cards of 2 of the 4 seats", ""),
        (5, "the first 8 cards (Gr.Tichukarten)", "first"),
        (9, "the 14 cards of 3 of the 4 seats", "first"),
        (10, "the 14 cards (Startkarten)", "first start"),
        (11, "the call 'Grosses Tichu: (2)Cleo', before the exchange", "first start"),
        (12, "'Schupfen:', before the push lines of the exchange", "first start"),
        (14, "2 of the 4 push lines of the exchange", "first start"),
        (16, "the exchange (4 push lines)", "first start pushes"),
        (17, "the line 'BOMBE: (0)Anna (1)Bert (2)Cleo (3)Dora', after the exchange", "all"),
        (
            18,
            "the heading '---------------Rundenverlauf------------------', before any play",
            "all",
        ),
        (22, "4 lines of play, the last '(2)Cleo: RA'", "all"),
    ],
)
def test_a_log_ending_inside_a_round_yields_it_incomplete(
    cut: int, ends_after: str, kept: str
) -> None:
    """An aborted game: the round the log ends in is a round, marked incomplete, with the
    sections the log completed; a section cut short is empty, never partial."""
    text = MINIMAL + "".join(line + "\n" for line in MINIMAL.splitlines()[:cut])
    first, rnd = parse_tch(text).rounds
    assert first.incomplete is None and first.last_line == 31 and first.result == (25, 75)
    assert rnd.incomplete == f"the log ends after {ends_after}"
    assert rnd.result is None and rnd.result_line is None
    assert rnd.last_line == 31 + cut and rnd.line == 32
    complete = parse_tch(MINIMAL + MINIMAL).rounds[1]
    kept_all = kept == "all"
    assert rnd.first_cards == (complete.first_cards if "first" in kept or kept_all else ())
    assert rnd.start_cards == (complete.start_cards if "start" in kept or kept_all else ())
    assert rnd.pushes == (complete.pushes if "pushes" in kept or kept_all else ())
    assert rnd.bomb_holders == (complete.bomb_holders if kept_all and cut >= 17 else ())
    assert rnd.history == tuple(e for e in complete.history if e.line <= 31 + cut)
    assert len(rnd.history) == max(cut - 18, 0)


def test_a_mah_jong_the_log_ends_on_gets_no_wish() -> None:
    """Its `Wunsch:` line may be the first line missing: no wish is derived for it."""
    text = "\n".join(MINIMAL.splitlines()[:19]) + "\n"
    (rnd,) = parse_tch(text).rounds
    assert rnd.history == (BswPlay(0, ("MJ",), None, 19),)
    assert rnd.incomplete == "the log ends after 1 line of play, the last '(0)Anna: Ma'"


def test_substitute_between_the_two_card_sections() -> None:
    text = edited(MINIMAL, 10, "(3)Emil Dr SA SK SD SB S10 S9 S8 S7 S6 S5 S4 S3 S2")
    text = edited(text, 14, "(1)Bert gibt: Cleo: G2 - Emil: G3 - Anna: G4 - ")
    (rnd,) = parse_tch(text).rounds
    assert rnd.names[3] == "Emil"  # the later section names who holds the seat now
    assert rnd.pushes[0] == {1: "2p", 2: "3p", 3: "4p"}  # 'Dora' still resolves to seat 3
    assert rnd.pushes[1] == {2: "2j", 3: "3j", 0: "4j"}
