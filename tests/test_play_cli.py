"""`tichu play`: a person against bots, answering at the prompt."""

from __future__ import annotations

import io
import re

from rich.console import Console

import tichu_core as tc
from tichu_core.frontends.terminal import play_in_terminal


def test_a_person_plays_a_whole_short_match_by_numbers() -> None:
    """Answering "1" (the first listed action) at every prompt ends the match."""
    variant = tc.load_variant("standard", overrides={"game.target": 200})
    output = io.StringIO()
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("push"):
            # Three codes from the hand shown last: the prompt names the targets.
            hand = re.findall(r"seat 0 hand: (.*)", output.getvalue())[-1].split()
            return " ".join(hand[:3])
        return "1"

    code = play_in_terminal(variant, seat=0, seed=3, ask=ask, console=Console(file=output))
    assert code == 0
    text = output.getvalue()
    assert "Match over" in text
    assert any(p.startswith("push") for p in prompts)
    # Player 0 never sees another seat's dealt cards: only its own hand is listed.
    assert not re.search(r"seat [123] hand:", text)


def test_a_bad_answer_is_explained_and_asked_again() -> None:
    variant = tc.load_variant("standard", overrides={"game.target": 200})
    output = io.StringIO()
    answers = iter(["zz", "99 bottles", "1"])

    def ask(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    play_in_terminal(variant, seat=0, seed=1, ask=ask, console=Console(file=output))
    text = output.getvalue()
    assert "unknown card 'zz'" in text
    assert "bye" in text
