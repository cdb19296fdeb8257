"""(Re)generate tests/golden/moves.json from the slow oracle (tests/oracle.py).

Run from the repository root:  python tests/golden/make_golden.py

Each position below gives a hand, a top, a wish, rule options, some named plays
that must be legal (``includes``) and some that must not (``excludes``). The
script asks the ORACLE, never the fast generator, for the number of legal plays
and whether the seat is obliged to play, checks every named play against the
oracle, and writes the file. tests/test_moves.py::test_golden then checks the
fast generator against it. The tests never run this script.

A position may carry ``xfail``: the reason the fast generator is known to
disagree with the oracle there (test_golden then expects the failure).

Named plays are ``"codes"`` or ``"codes (phoenix=R)"`` (R: the rank the Phoenix
stands for). A top is its codes, with ``top_phoenix`` when it has several
readings and ``top_rank`` for a Phoenix single (its value, e.g. 7.5).
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent))

import oracle  # noqa: E402

from tichu_core.cardplay.cards import deck_mask, take_cards  # noqa: E402

OUT = HERE / "moves.json"
TWO_DECKS_WITHOUT = ["DOG", "DOG", "MJ"]
ONE_SUIT = "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj"

POSITIONS: list[dict[str, Any]] = [
    # --- the Phoenix as a wild card (S-COMB-4) ---
    dict(
        id="phoenix-worst-case-2-to-A",
        hand=ONE_SUIT + " PH",
        includes=[
            "4j 5j 6j 7j PH (phoenix=3)",
            "4j 5j 6j 7j PH (phoenix=8)",
            "3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj PH (phoenix=2)",
            "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj PH (phoenix=A)",
            "2j 3j 4j 5j 6j",
            "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj",
            "Aj PH (phoenix=A)",
            "PH",
        ],
        excludes=[
            "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj PH (phoenix=A)",
            "2j 3j 4j 5j PH (phoenix=A)",
            "Jj Qj Kj Aj PH (phoenix=2)",
            "2j 3j",
        ],
        rules=["S-COMB-1", "S-COMB-4", "S-COMB-5", "S-BOMB-1"],
        note="the worst case: 417 plays on 381 card sets",
    ),
    dict(
        id="phoenix-straight-both-ends-on-straight",
        hand="4j 5s 6p 7t PH 9j",
        top="3j 4s 5p 6t 7j",
        includes=["4j 5s 6p 7t PH (phoenix=8)", "5s 6p 7t PH 9j (phoenix=8)"],
        excludes=["4j 5s 6p 7t PH (phoenix=3)", "4j 5s 6p 7t PH 9j (phoenix=8)"],
        rules=["S-COMB-3", "S-COMB-4"],
    ),
    dict(
        id="phoenix-straight-lead-readings",
        hand="4j 5s 6p 7t PH",
        includes=["4j 5s 6p 7t PH (phoenix=3)", "4j 5s 6p 7t PH (phoenix=8)"],
        excludes=["4j 5s 6p 7t PH (phoenix=5)", "4j 5s 6p 7t"],
        rules=["S-COMB-1", "S-COMB-4"],
    ),
    dict(
        id="phoenix-fills-gap",
        hand="9j 10s Qp Kt PH 2j",
        includes=["9j 10s Qp Kt PH (phoenix=J)", "Qp PH (phoenix=Q)"],
        excludes=["9j 10s Qp Kt PH (phoenix=8)", "9j 10s Qp Kt PH (phoenix=A)"],
        rules=["S-COMB-4"],
    ),
    dict(
        id="phoenix-top-end-is-ace",
        hand="10s Jp Qt Kj PH",
        top="9j 10j Jt Qs Ks",
        includes=["10s Jp Qt Kj PH (phoenix=A)"],
        excludes=["10s Jp Qt Kj PH (phoenix=9)"],
        rules=["S-COMB-3", "S-COMB-4"],
    ),
    dict(
        id="phoenix-straight-on-straight-with-phoenix-top",
        decks=2,
        hand="6s 7p 8t 9j PH Js",
        top="5j 6j 7t 8p PH",
        top_phoenix=9,
        includes=["6s 7p 8t 9j PH (phoenix=10)", "7p 8t 9j PH Js (phoenix=10)"],
        excludes=["6s 7p 8t 9j PH (phoenix=5)"],
        rules=["S-COMB-3", "S-COMB-4"],
    ),
    dict(
        id="phoenix-mah-jong-straight",
        hand="MJ 2j 3s 4p PH 6t",
        includes=[
            "MJ 2j 3s 4p PH (phoenix=5)",
            "MJ 2j 3s 4p PH 6t (phoenix=5)",
            "2j 3s 4p PH 6t (phoenix=5)",
            "MJ",
        ],
        excludes=["MJ PH (phoenix=2)", "MJ 2j 3s 4p 6t"],
        rules=["S-COMB-1", "S-COMB-4"],
    ),
    dict(
        id="phoenix-pairs-on-pair",
        hand="10j PH 9p 5s",
        top="9j 9s",
        includes=["10j PH (phoenix=10)"],
        excludes=["9p PH (phoenix=9)", "5s PH (phoenix=5)", "PH"],
        rules=["S-COMB-3", "S-COMB-4"],
    ),
    dict(
        id="phoenix-triples-on-triple",
        hand="8j 8s PH 7p 2j 2s",
        top="7j 7s 7t",
        includes=["8j 8s PH (phoenix=8)"],
        excludes=["7p PH (phoenix=7)", "2j 2s PH (phoenix=2)", "8j 8s"],
        rules=["S-COMB-3", "S-COMB-4"],
    ),
    dict(
        id="phoenix-steps-on-steps",
        hand="6j 7s 7p PH 8j 8s 3j",
        top="5j 5s 6p 6t",
        includes=[
            "7s 7p 8j 8s",
            "6j 7s 7p PH (phoenix=6)",
            "7s 7p 8j PH (phoenix=8)",
            "7s PH 8j 8s (phoenix=7)",
        ],
        excludes=["6j PH 7s 7p 8j 8s (phoenix=6)", "3j PH (phoenix=3)"],
        rules=["S-COMB-1", "S-COMB-3", "S-COMB-4"],
    ),
    dict(
        id="phoenix-long-steps-exact-length",
        hand="6j 6s 7p PH 8j 8s 9t 9p 10j",
        top="2j 2s 3p 3t 4j 4s",
        includes=["6j 6s 7p PH 8j 8s (phoenix=7)", "7p PH 8j 8s 9t 9p (phoenix=7)"],
        excludes=["6j 6s 7p PH 8j 8s 9t 9p (phoenix=7)", "8j 8s 9t 9p"],
        rules=["S-COMB-3", "S-COMB-4"],
    ),
    dict(
        id="phoenix-full-house-two-readings-on-house",
        hand="5j 5s 9p 9t PH",
        top="8j 8s 8p 2t 2j",
        includes=["5j 5s 9p 9t PH (phoenix=9)"],
        excludes=["5j 5s 9p 9t PH (phoenix=5)"],
        rules=["S-COMB-3", "S-COMB-4"],
    ),
    dict(
        id="phoenix-full-house-lead",
        hand="5j 5s 9p 9t PH 3j 3s 3p",
        includes=[
            "5j 5s 9p 9t PH (phoenix=5)",
            "5j 5s 9p 9t PH (phoenix=9)",
            "3j 3s 3p 9p PH (phoenix=9)",
            "3j 3s 5j 5s PH (phoenix=3)",
            "3j 3s 3p 5j 5s",
        ],
        excludes=["3j 3s 3p PH (phoenix=3)", "3j 3s 3p 9p 9t PH (phoenix=9)"],
        rules=["S-COMB-1", "S-COMB-4", "S-BOMB-1"],
    ),
    dict(
        id="phoenix-never-in-a-bomb",
        hand="7j 7s 7p PH 3t 4t 5t 6t",
        includes=["7j 7s 7p PH 3t (phoenix=3)", "3t 4t 5t 6t 7j", "3t 4t 5t 6t PH (phoenix=7)"],
        excludes=["7j 7s 7p PH (phoenix=7)", "3t 4t 5t 6t 7j 7s"],
        rules=["S-COMB-4", "S-BOMB-1"],
    ),
    # --- the Phoenix single (S-COMB-5, E-2) ---
    dict(
        id="phoenix-single-on-ace",
        hand="PH 2j Kp",
        top="As",
        includes=["PH"],
        excludes=["2j", "Kp"],
        rules=["S-COMB-5"],
    ),
    dict(
        id="phoenix-single-not-on-dragon",
        hand="PH 5j 5s 5p 5t Aj",
        top="DR",
        includes=["5j 5s 5p 5t"],
        excludes=["PH", "Aj"],
        rules=["S-COMB-5", "S-COMB-6", "S-BOMB-3"],
    ),
    dict(
        id="phoenix-single-on-mah-jong",
        hand="PH 2s DOG",
        top="MJ",
        includes=["PH", "2s"],
        excludes=["DOG"],
        rules=["S-COMB-5", "S-DOG-1"],
    ),
    dict(
        id="single-on-led-phoenix",
        hand="MJ 2j DR",
        top="PH",
        top_rank=1.5,
        includes=["2j", "DR"],
        excludes=["MJ"],
        rules=["S-COMB-5", "S-COMB-6"],
    ),
    dict(
        id="phoenix-on-phoenix-two-decks",
        decks=2,
        hand="PH 8j 7s 7s",
        top="PH",
        top_rank=7.5,
        includes=["PH", "8j"],
        excludes=["7s", "7s PH (phoenix=7)"],
        rules=["E-2", "S-COMB-5", "GS-4"],
    ),
    dict(
        id="single-on-phoenix-on-phoenix",
        decks=2,
        hand="8j 9s PH",
        top="PH",
        top_rank=8.0,
        includes=["9s", "PH"],
        excludes=["8j"],
        rules=["E-2", "S-COMB-3"],
        note="a Phoenix on a Phoenix worth 7.5 is worth 8: a real 8 is not higher",
    ),
    # --- Dragon, Mah Jong, Dog (S-COMB-6, S-DOG-1, GS-4) ---
    dict(
        id="dragon-on-phoenix-worth-15",
        decks=2,
        hand="DR 5j",
        top="PH",
        top_rank=15.0,
        includes=["DR"],
        excludes=["5j"],
        rules=["S-COMB-6", "S-COMB-5", "E-2"],
        note="Ace, then a Phoenix (14.5), then the other Phoenix (15 by E-2): the Dragon "
        "is still the highest single and beats it",
    ),
    dict(
        id="second-dragon-on-phoenix-worth-15-gs",
        decks=2,
        hand="DR 5j",
        top="PH",
        top_rank=15.0,
        options={"second_dragon_beats_first": True},
        includes=["DR"],
        excludes=["5j"],
        rules=["S-COMB-6", "E-2", "GS-4"],
    ),
    dict(
        id="dragon-and-phoenix-on-ace",
        hand="DR PH Aj 3s",
        top="Ap",
        includes=["DR", "PH"],
        excludes=["Aj", "3s"],
        rules=["S-COMB-5", "S-COMB-6"],
    ),
    dict(
        id="second-dragon-beats-first-gs",
        decks=2,
        hand="DR 5j 5s 5p 5t",
        top="DR",
        options={"second_dragon_beats_first": True},
        includes=["DR", "5j 5s 5p 5t"],
        excludes=["5j"],
        rules=["GS-4", "S-COMB-6"],
    ),
    dict(
        id="second-dragon-without-option",
        decks=2,
        hand="DR PH Aj",
        top="DR",
        includes=[],
        excludes=["DR", "PH", "Aj"],
        rules=["GS-4", "S-COMB-5", "S-COMB-6"],
    ),
    dict(
        id="dog-lead",
        hand="DOG 2j 3s DR",
        includes=["DOG", "2j", "DR"],
        excludes=["DOG 2j", "DOG DR"],
        rules=["S-DOG-1", "S-COMB-6"],
    ),
    dict(
        id="nothing-on-the-dog",
        hand="2j 3s 9j 9s 9p 9t 4t 5t 6t 7t 8t",
        top="DOG",
        includes=[],
        excludes=["9j 9s 9p 9t", "4t 5t 6t 7t 8t", "2j"],
        rules=["S-DOG-1", "S-BOMB-4"],
    ),
    dict(
        id="dog-never-follows",
        hand="DOG 4j",
        top="3j",
        includes=["4j"],
        excludes=["DOG"],
        rules=["S-DOG-1"],
    ),
    dict(
        id="mah-jong-straights",
        hand="MJ 2j 3s 4p 5t 6j 7s",
        includes=["MJ 2j 3s 4p 5t", "MJ 2j 3s 4p 5t 6j 7s", "2j 3s 4p 5t 6j", "MJ"],
        excludes=["MJ 3s 4p 5t 6j", "MJ 2j"],
        rules=["S-COMB-1"],
    ),
    dict(
        id="mah-jong-with-one-suit-is-straight",
        hand="MJ 2j 3j 4j 5j 6j",
        top="2s 3p 4t 5s 6p",
        includes=["2j 3j 4j 5j 6j"],
        excludes=["MJ 2j 3j 4j 5j"],
        rules=["S-COMB-1", "S-BOMB-1", "S-BOMB-3"],
        note="MJ 2j..5j is a plain straight to 5 (no bomb), not higher than the top",
    ),
    dict(
        id="on-mah-jong-straight",
        hand="2j 3j 4j 5j 6j 7s",
        top="MJ 2s 3p 4t 5s",
        includes=["2j 3j 4j 5j 6j", "3j 4j 5j 6j 7s"],
        excludes=["2j 3j 4j 5j 6j 7s"],
        rules=["S-COMB-1", "S-COMB-3", "S-BOMB-3"],
    ),
    # --- bombs (S-BOMB-1/2/3) ---
    dict(
        id="four-on-dragon",
        hand="4j 4s 4p 4t 9j",
        top="DR",
        includes=["4j 4s 4p 4t"],
        excludes=["9j"],
        rules=["S-BOMB-3", "S-COMB-6"],
    ),
    dict(
        id="straight-flushes-of-several-lengths",
        hand="3p 4p 5p 6p 7p 8p 9p Kj",
        includes=["3p 4p 5p 6p 7p", "3p 4p 5p 6p 7p 8p", "3p 4p 5p 6p 7p 8p 9p"],
        excludes=["3p 4p 5p 6p"],
        rules=["S-BOMB-1"],
        note="one suit: every run of 5+ is a bomb and none is a plain straight",
    ),
    dict(
        id="straight-flush-over-four",
        hand="2s 3s 4s 5s 6s 9j 9s 9p 9t",
        top="Aj As Ap At",
        includes=["2s 3s 4s 5s 6s"],
        excludes=["9j 9s 9p 9t"],
        rules=["S-BOMB-2"],
    ),
    dict(
        id="four-over-four",
        hand="9j 9s 9p 9t 7j 7s 7p 7t",
        top="8j 8s 8p 8t",
        includes=["9j 9s 9p 9t"],
        excludes=["7j 7s 7p 7t"],
        rules=["S-BOMB-2"],
    ),
    dict(
        id="longer-straight-flush-over-shorter",
        hand="2p 3p 4p 5p 6p 7p 3s 4s 5s 6s 7s",
        top="9j 10j Jj Qj Kj",
        includes=["2p 3p 4p 5p 6p 7p"],
        excludes=["3s 4s 5s 6s 7s", "2p 3p 4p 5p 6p", "3p 4p 5p 6p 7p"],
        rules=["S-BOMB-2"],
    ),
    dict(
        id="equal-length-straight-flush-higher-top",
        hand="3j 4j 5j 6j 7j 2p 3p 4p 5p 6p",
        top="2s 3s 4s 5s 6s",
        includes=["3j 4j 5j 6j 7j"],
        excludes=["2p 3p 4p 5p 6p"],
        rules=["S-BOMB-2"],
    ),
    dict(
        id="no-four-on-straight-flush",
        hand="Aj As Ap At 3j 4j 5j 6j 7j 8j",
        top="2s 3s 4s 5s 6s 7s",
        includes=["3j 4j 5j 6j 7j 8j"],
        excludes=["Aj As Ap At", "4j 5j 6j 7j 8j"],
        rules=["S-BOMB-2"],
    ),
    dict(
        id="bombs-and-straights-on-straight",
        hand="4j 5j 6j 7j 8j 9s 10s",
        top="3s 4p 5t 6s 7p",
        includes=["4j 5j 6j 7j 8j", "5j 6j 7j 8j 9s", "6j 7j 8j 9s 10s"],
        excludes=["4j 5j 6j 7j 8j 9s"],
        rules=["S-COMB-3", "S-BOMB-1", "S-BOMB-3"],
    ),
    # --- the wish (S-WISH-*) ---
    dict(
        id="wish-obliges-lead",
        hand="7j 7s 9p 3t PH",
        wish=7,
        includes=["7j", "7j 7s", "7j 7s PH (phoenix=7)", "7s PH (phoenix=7)"],
        excludes=["9p", "3t PH (phoenix=3)", "PH"],
        rules=["S-WISH-2"],
    ),
    dict(
        id="wish-without-the-rank",
        hand="8j 9s PH",
        top="5j",
        wish=7,
        includes=["8j", "9s", "PH"],
        rules=["S-WISH-5"],
    ),
    dict(
        id="wish-held-but-not-playable",
        hand="7j Kj",
        top="9s",
        wish=7,
        includes=["Kj"],
        excludes=["7j"],
        rules=["S-WISH-5"],
    ),
    dict(
        id="wish-only-by-bomb-must-fulfil",
        hand="7j 7s 7p 7t 2j Kj",
        top="Qs",
        wish=7,
        includes=["7j 7s 7p 7t"],
        excludes=["Kj"],
        rules=["S-WISH-2", "S-BOMB-3"],
    ),
    dict(
        id="wish-only-by-bomb-not-obliged",
        hand="7j 7s 7p 7t 2j Kj",
        top="Qs",
        wish=7,
        options={"bomb_must_fulfil": False},
        includes=["7j 7s 7p 7t", "Kj"],
        rules=["S-WISH-2"],
    ),
    dict(
        id="wish-bomb-not-needed-still-fulfils",
        hand="7j 7s 7p 7t 2j Kj",
        top="5s",
        wish=7,
        options={"bomb_must_fulfil": False},
        includes=["7j", "7j 7s 7p 7t"],
        excludes=["Kj"],
        rules=["S-WISH-2"],
    ),
    dict(
        id="wish-phoenix-does-not-fulfil",
        hand="7j 8s 9p 10t Jj PH",
        top="2j 3s 4p 5t 6s",
        wish=7,
        includes=["7j 8s 9p 10t Jj", "7j 8s 9p 10t PH (phoenix=J)"],
        excludes=["8s 9p 10t Jj PH (phoenix=7)", "8s 9p 10t Jj PH (phoenix=Q)"],
        rules=["S-WISH-2", "S-WISH-3"],
    ),
    dict(
        id="wish-phoenix-fulfils-option",
        hand="7j 8s 9p 10t Jj PH",
        top="2j 3s 4p 5t 6s",
        wish=7,
        options={"phoenix_fulfils": True},
        includes=["7j 8s 9p 10t Jj", "8s 9p 10t Jj PH (phoenix=7)"],
        excludes=["8s 9p 10t Jj PH (phoenix=Q)"],
        rules=["S-WISH-3"],
    ),
    dict(
        id="wish-phoenix-needed",
        hand="7j PH 3s",
        top="6j 6s",
        wish=7,
        includes=["7j PH (phoenix=7)"],
        excludes=["3s PH (phoenix=3)"],
        rules=["S-WISH-2"],
        note="the seat must use the Phoenix when that is the only way to play the 7",
    ),
    dict(
        id="wish-bomb-instead-off",
        hand="7j 2s 2p 2t 2j Kp",
        top="5s",
        wish=7,
        includes=["7j"],
        excludes=["2s 2p 2t 2j", "Kp"],
        rules=["S-WISH-2", "S-WISH-6"],
    ),
    dict(
        id="wish-bomb-instead-on",
        hand="7j 2s 2p 2t 2j Kp",
        top="5s",
        wish=7,
        options={"bomb_instead": True},
        includes=["7j", "2s 2p 2t 2j"],
        excludes=["Kp"],
        rules=["S-WISH-6"],
    ),
    dict(
        id="wish-bomb-instead-not-obliged",
        hand="7j 2s 2p 2t 2j Kp",
        top="Qs",
        wish=7,
        options={"bomb_instead": True},
        includes=["2s 2p 2t 2j", "Kp"],
        rules=["S-WISH-5", "S-WISH-6"],
    ),
    dict(
        id="wish-in-straight-flush-and-straight",
        hand="5j 6j 7j 8j 9j 9s Kp",
        top="2s 3p 4t 5s 6p",
        wish=7,
        includes=["5j 6j 7j 8j 9j", "5j 6j 7j 8j 9s"],
        excludes=["Kp"],
        rules=["S-WISH-2", "S-BOMB-1"],
    ),
    dict(
        id="wish-two-decks-pair",
        decks=2,
        hand="7j 7j 3s 3s Kp",
        top="5j 5s",
        wish=7,
        includes=["7j 7j"],
        excludes=["Kp"],
        rules=["S-WISH-2", "GS-4", "GS-7"],
    ),
    # --- two decks (GS-2, GS-4) ---
    dict(
        id="two-decks-identical-copies",
        decks=2,
        hand="5j 5j 5s 6p 6p PH",
        includes=[
            "5j 5j",
            "5j 5j 6p 6p",
            "5j 5j 5s 6p 6p",
            "5j 5j 5s PH 6p (phoenix=6)",
            "5j 5j PH 6p 6p (phoenix=5)",
            "5j 5j 5s",
        ],
        excludes=["5j 5j 5s PH (phoenix=5)"],
        rules=["GS-4", "S-COMB-4"],
    ),
    dict(
        id="two-decks-full-house-on-house",
        decks=2,
        hand="9j 9j 9s 4p 4p Kt Kt",
        top="8j 8s 8p 2t 2j",
        includes=["9j 9j 9s 4p 4p", "9j 9j 9s Kt Kt"],
        excludes=["9j 9j Kt Kt"],
        rules=["GS-4", "S-COMB-3"],
    ),
    dict(
        id="two-decks-four-needs-distinct-suits",
        decks=2,
        hand="9j 9j 9s 9p 9t",
        includes=["9j 9s 9p 9t", "9j 9j 9s"],
        excludes=["9j 9j 9s 9p", "9j 9j 9s 9p 9t"],
        rules=["GS-4", "S-COMB-2"],
    ),
    dict(
        id="two-decks-four-any-suits-option",
        decks=2,
        hand="9j 9j 9s 9p 9t",
        options={"four_distinct_suits": False},
        includes=["9j 9s 9p 9t", "9j 9j 9s 9p", "9j 9j 9p 9t"],
        excludes=["9j 9j 9s 9p 9t"],
        rules=["GS-4", "S-COMB-2"],
    ),
    dict(
        id="two-decks-same-four-does-not-beat",
        decks=2,
        hand="9j 9s 9p 9t 10j 10s 10p 10t",
        top="9j 9s 9p 9t",
        includes=["10j 10s 10p 10t"],
        excludes=["9j 9s 9p 9t"],
        rules=["S-BOMB-2", "GS-4"],
    ),
    dict(
        id="two-decks-two-phoenixes",
        decks=2,
        hand="PH PH 5j 6s",
        includes=["PH", "5j PH (phoenix=5)"],
        excludes=["PH PH", "5j PH PH (phoenix=5)"],
        rules=["S-COMB-4", "GS-4"],
    ),
    dict(
        id="two-decks-straight-flush-either-copy",
        decks=2,
        hand="3j 3j 4j 5j 6j 7j 7s",
        includes=["3j 4j 5j 6j 7j", "3j 3j"],
        excludes=["3j 3j 4j 5j 6j 7j"],
        rules=["GS-4", "S-BOMB-1"],
    ),
    dict(
        id="two-decks-steps-of-copies",
        decks=2,
        hand="Jj Jj Qs Qs Kp Kp Ap",
        top="4j 4s 5p 5t 6j 6s",
        includes=["Jj Jj Qs Qs Kp Kp"],
        excludes=["Qs Qs Kp Kp"],
        rules=["GS-4", "S-COMB-3"],
    ),
    dict(
        id="two-decks-sixteen-cards",
        decks=2,
        hand="MJ 2j 2j 3s 4p 5t 6j 6j 7s 8p 9t 9t PH DR DR Kj",
        includes=[
            "MJ 2j 3s 4p 5t",
            "2j 2j PH (phoenix=2)",
            "6j 6j 7s PH (phoenix=7)",
            "MJ 2j 3s 4p 5t 6j 7s 8p 9t PH (phoenix=10)",
            "DR",
        ],
        excludes=["DR DR", "2j 2j 3s 3s", "MJ 2j 2j 3s 4p 5t"],
        rules=["GS-2", "GS-4", "S-COMB-4"],
    ),
    dict(
        id="two-decks-sixteen-cards-wish",
        decks=2,
        hand="MJ 2j 2j 3s 4p 5t 6j 6j 7s 8p 9t 9t PH DR DR Kj",
        top="4j 5s 6p 7t 8j",
        wish=9,
        options={"phoenix_fulfils": True, "bomb_instead": True},
        includes=["5t 6j 7s 8p 9t", "6j 7s 8p 9t PH (phoenix=10)"],
        excludes=["4p 5t 6j 7s 8p"],
        rules=["S-WISH-2", "S-WISH-3", "GS-7"],
    ),
    # --- full hands ---
    dict(
        id="full-hand-lead",
        hand="MJ 2s 3s 5j 5p 6t 7j 8s 9p 10t Jj Jp PH DR",
        includes=["MJ 2s 3s PH 5j (phoenix=4)", "5j 5p PH (phoenix=5)", "Jj Jp"],
        excludes=["MJ 2s 3s 5j 6t"],
        rules=["S-COMB-1", "S-COMB-4"],
    ),
    dict(
        id="full-hand-wish-lead",
        hand="MJ 2s 3s 5j 5p 6t 7j 8s 9p 10t Jj Jp PH DR",
        wish=10,
        includes=["10t", "10t PH (phoenix=10)", "6t 7j 8s 9p 10t"],
        excludes=["Jj Jp", "DR"],
        rules=["S-WISH-2"],
    ),
    dict(
        id="full-hand-on-pair",
        hand="2j 2s 4p 4t 6j 6s 6p 8t 9j 10s Qp Kt At PH",
        top="5j 5s",
        includes=["6j 6s", "Qp PH (phoenix=Q)", "At PH (phoenix=A)"],
        excludes=["4p 4t", "2j PH (phoenix=2)"],
        rules=["S-COMB-3", "S-COMB-4"],
    ),
]

DEFAULT_OPTIONS = asdict(oracle.Options())


def deck(decks: int) -> int:
    return deck_mask(1) if decks == 1 else deck_mask(2, TWO_DECKS_WITHOUT)


def evaluate(position: dict[str, Any]) -> dict[str, Any]:
    """The oracle's answer for one position, with every named play checked."""
    decks = position.get("decks", 1)
    options = DEFAULT_OPTIONS | position.get("options", {})
    opts = oracle.Options(**options)
    hand = oracle.split(position["hand"])
    take_cards(hand, deck(decks))  # the hand must exist in that deck
    top = None
    if position.get("top"):
        # Hand and top together must fit in the deck (no card in both).
        take_cards(hand + oracle.split(position["top"]), deck(decks))
        top = oracle.top_play(
            position["top"], position.get("top_phoenix"), position.get("top_rank"), opts
        )
    plays, obliged = oracle.legal_plays(hand, top, position.get("wish"), opts)
    keys = {(p.codes, p.phoenix) for p in plays}
    if len(plays) != len(set(plays)):
        raise AssertionError(f"{position['id']}: the oracle listed a play twice")
    for name in position.get("includes", []):
        if oracle.parse_play_name(name) not in keys:
            raise AssertionError(f"{position['id']}: {name!r} is not legal per the oracle")
    for name in position.get("excludes", []):
        if oracle.parse_play_name(name) in keys:
            raise AssertionError(f"{position['id']}: {name!r} is legal per the oracle")
    out: dict[str, Any] = {"id": position["id"], "decks": decks, "hand": position["hand"]}
    out["top"] = position.get("top")
    for key in ("top_phoenix", "top_rank"):
        if position.get(key) is not None:
            out[key] = position[key]
    out["wish"] = position.get("wish")
    out["options"] = options
    out["count"] = len(plays)
    out["obliged"] = obliged
    out["includes"] = position.get("includes", [])
    out["excludes"] = position.get("excludes", [])
    out["rules"] = position["rules"]
    for key in ("note", "xfail"):
        if position.get(key):
            out[key] = position[key]
    return out


def main() -> None:
    ids = [p["id"] for p in POSITIONS]
    if len(ids) != len(set(ids)):
        raise SystemExit("duplicate position ids")
    results = [evaluate(p) for p in POSITIONS]
    OUT.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(results)} positions to {OUT}")


if __name__ == "__main__":
    main()
