"""The plugin authors' kit, ``tichu_core.testing`` (docs/plugins.md, "Testing a plugin"):
stacked deals and drivers in card codes, ``check_variant`` and ``tichu check --play``.
The kit's checks themselves run over every bundled variant in test_random_matches.py;
here they are shown to fail when the engine breaks an invariant."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import tichu_core as tc
from tichu_core.cardplay.cards import codes_of
from tichu_core.frontends.cli.commands import main
from tichu_core.testing import (
    check_variant,
    deal,
    deal_with,
    exchange_plan,
    held,
    refused,
    start_play,
)

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
TESTING = DOC.split("## Testing a plugin", 1)[1].split("\n## ", 1)[0]
AFTER = [
    "MJ DOG 3j 4j 5j 7j 8j 9j Jj Qj Kj 10p 10s 10t",
    "Aj 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt 2s",
    "2p 2t 3p 3t 4s 4t 5p 5s 6p 6s 6t 7p 7t PH",
    "8s 8t 9p 9s Ap As At DR Jp Jt Kp Ks Qs Qt",
]


def test_the_docs_examples_of_the_kit_run() -> None:
    blocks = re.findall(r"^  ```python\n(.*?)^  ```", TESTING, flags=re.M | re.S)
    assert len(blocks) == 2 and "start_play" in blocks[1]
    for block in blocks:
        exec(compile("\n".join(line[2:] for line in block.splitlines()), "plugins.md", "exec"), {})


def test_the_docs_show_what_tichu_check_play_prints(capsys: pytest.CaptureFixture[str]) -> None:
    shown = TESTING.split("$ tichu check variants/house_stray_dog.toml --play 3\n", 1)[1]
    printed = shown.split("  ```", 1)[0]
    assert main(["check", str(ROOT / "variants" / "house_stray_dog.toml"), "--play", "3"]) == 0
    out = capsys.readouterr().out
    expected = [line.strip() for line in printed.strip().splitlines()]
    assert out.replace(str(ROOT) + "/", "").splitlines() == expected


def test_deals_are_checked_against_the_variants_deck() -> None:
    dealt = deal(AFTER)
    assert [len(hand) for hand in dealt] == [14] * 4 and dealt[0][:2] == ["MJ", "DOG"]
    with pytest.raises(tc.DealError, match=r"dealt too often \['MJ'\], not dealt \['Aj'\]"):
        deal([AFTER[0], AFTER[1].replace("Aj", "MJ"), *AFTER[2:]])
    with pytest.raises(tc.DealError, match="3 hands given for the 4 seats of standard"):
        deal(AFTER[:3])
    assert Counter(code for hand in deal_with({}, "grand_seigneur") for code in hand) == (
        Counter(tc.load_variant("grand_seigneur").deck_codes)
    )
    with pytest.raises(tc.DealError, match="more often than the deck"):
        deal_with({0: "MJ", 1: "MJ"})
    with pytest.raises(tc.DealError, match=r"seats of standard are 0\.\.3"):
        deal_with({4: "MJ"})


def test_start_play_holds_the_hands_after_the_exchange() -> None:
    dealt, pushes = exchange_plan(AFTER)
    assert [len(given) for given in pushes] == [3] * 4 and dealt != deal(AFTER)
    game = start_play(AFTER, variant="house_stray_dog")
    assert game.variant.name == "house_stray_dog" and game.turn == 0
    assert [sorted(held(game, seat)) for seat in range(4)] == [sorted(h.split()) for h in AFTER]
    refusal = refused(game, tc.Play(1, "Aj"), "S-BOMB-4")  # out of turn: a bomb only
    assert "seat 0's turn" in str(refusal)
    with pytest.raises(AssertionError, match="cites S-BOMB-4, not"):
        refused(game, tc.Play(1, "Aj"), "S-WISH-2")
    with pytest.raises(AssertionError, match="was accepted"):
        refused(game, tc.Play(0, "MJ"), "S-BOMB-4")


def test_check_variant_reports_what_it_played() -> None:
    report = check_variant("house_triple_runs", matches=2, seed=5, max_hands=2)
    assert [match.seed for match in report.matches] == [5, 6]
    assert all(match.hands == 2 and match.made_up > 0 for match in report.matches)
    assert str(report).startswith("house_triple_runs: 2 random matches, 4 hands, ")
    assert str(report).endswith("every invariant held")
    with pytest.raises(ValueError, match="matches: a whole number from 1"):
        check_variant("standard", matches=0)


def test_check_variant_finds_a_card_shown_to_the_wrong_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An engine that shows player 0 the next seat's hand in its observation breaks
    "no hidden card in any view": the check names the match and the cards."""
    observe = tc.Game.observation

    def leaky(self: tc.Game, player: int | None) -> tc.Observation:
        view = observe(self, player)
        if player != 0:
            return view
        return view.model_copy(update={"hand": [*view.hand, *codes_of(self._hand.hands[1])]})

    monkeypatch.setattr(tc.Game, "observation", leaky)
    with pytest.raises(AssertionError, match="standard, random match with seed 3: "):
        check_variant("standard", matches=1, seed=3)


def _refusing_a_listed_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that lists seat 2's pass on its turn but refuses it."""
    apply = tc.Game.apply

    def refusing(self: tc.Game, action: Any) -> tc.Events:
        if type(action) is tc.Pass and action.seat == 2 and self.turn == 2:
            raise tc.IllegalAction("a refusal of this test's", "S-TRICK-1")
        return apply(self, action)

    monkeypatch.setattr(tc.Game, "apply", refusing)


def test_check_variant_finds_a_listed_action_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that refuses an action it lists breaks "listed and accepted agree"."""
    _refusing_a_listed_pass(monkeypatch)
    with pytest.raises(AssertionError, match=r"Pass\(seat=2\) is listed but refused"):
        check_variant("standard", matches=2, seed=0)


def test_tichu_check_play_fails_on_a_broken_invariant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _refusing_a_listed_pass(monkeypatch)
    file = str(ROOT / "variants" / "standard.toml")
    assert main(["check", file, "--play", "1", "--seed", "2"]) == 1
    out = capsys.readouterr().out
    assert "OK " in out and f"{file}: an invariant broke: standard, random match with seed 2" in out
