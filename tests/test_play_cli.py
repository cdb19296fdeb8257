"""`tichu play`: a person against bots, answering at the prompt.

The person's answers are scripted: either a transcript of (question, answer) pairs on a
stacked deal, or an answerer that reads the screen like a person would and answers
every question of a whole match. Rule ids: S-EX-1 and GS-6 (pushes, several cards to
one seat), S-WISH-1 (the wish), S-DRAGON-1 (the Dragon trick), T6-4 (the lead given
after the Dog), T3-1 (the shuffler plays the dummy).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from rich.console import Console
from scenario import DECK, RANKS

import tichu_core as tc
from tichu_core.frontends.cli import main
from tichu_core.frontends.terminal import play_game, play_in_terminal
from tichu_core.game.events import LeadPassed

# Standard-rules tables with the shapes of the variants (options of the standard plugin).
BEST_ORDER_WITH_DOG = [*tc.load_variant("standard").exchange.best_order, "DOG"]
RANK_EXCHANGE = {
    "exchange.targets": "rank",  # GS-6: the last gives its best cards to the first ...
    "exchange.first_hand": False,  # GS-5
    "exchange.rank_cards": [3, 1],
    "exchange.best_order": BEST_ORDER_WITH_DOG,
    "seating.by_rank": True,  # GS-5: the first out sits at seat 0
}
SIX_SEATS_DOG_CHOOSES = {
    "players": 6,
    "teams.size": 3,
    "deal.hand_size": 0,
    "exchange.targets": "partners",
    "dog.choose_partner": True,  # T6-4
}


def console(output: io.StringIO) -> Console:
    return Console(file=output, width=120)


class Transcript:
    """Answers the questions in order, checking that each is the one expected; then
    ends the input (the person leaves)."""

    def __init__(self, *steps: tuple[str, str]) -> None:
        self.steps = list(steps)
        self.asked: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.asked.append(prompt)
        if len(self.asked) > len(self.steps):
            raise EOFError
        expected, answer = self.steps[len(self.asked) - 1]
        assert expected in prompt, f"question {len(self.asked)}: {prompt!r}"
        return answer


def rest_of_deck(*hands: str, sizes: list[int]) -> list[list[str]]:
    """Hands of ``sizes`` from the cards the given hands leave, in a fixed order."""
    used = {str(card) for hand in hands for card in tc.parse_cards(hand)}
    order = {code: i for i, code in enumerate(["MJ", "DOG", "PH", "DR"] + [
        rank + suit for rank in RANKS for suit in "jspt"
    ])}  # fmt: skip
    left = sorted(DECK - used, key=order.__getitem__)
    dealt = []
    for size in sizes:
        dealt.append(left[:size])
        left = left[size:]
    assert not left
    return dealt


def test_a_rank_exchange_asks_for_several_cards_to_one_seat_GS_6() -> None:
    """Hand 1: the person goes out first with one 14-card straight and wishes (S-WISH-1).
    Hand 2 (GS-5: the first out sits at seat 0): the last gives its three best cards to
    the person, who is asked for three cards to give back to it (GS-6); wrong counts,
    unknown and missing cards are explained and asked again."""
    person = "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt Aj"
    # No bombs elsewhere: each rank three times, no five of a suit in a row.
    others = [
        "2s 3t 4s 5j 6t 7p 8j 9p 10p Jj Qt Ks As DOG",
        "2p 3j 4t 5s 6s 7t 8s 9j 10t Jp Qj Kp Ap PH",
        "2t 3p 4j 5p 6p 7j 8t 9s 10s Jt Qs Kj At DR",
    ]
    hand_1 = [person.split(), *(hand.split() for hand in others)]
    # Hand 2 in its new seating: the person (first out) at seat 0, the last at seat 1.
    hand_2 = [others[0].split(), others[1].split(), others[2].split(), person.split()]
    variant = tc.load_variant("standard", overrides=RANK_EXCHANGE)
    game = tc.Game(variant, seed=4, deals=[hand_1, hand_2])
    output = io.StringIO()
    script = Transcript(
        ("your action", "1"),  # no Grand Tichu
        ("your action", "0"),
        ("your action", person),
        ("wish for a rank", "Z"),
        ("wish for a rank", "7"),
        ("your action", "1"),  # hand 2: no Grand Tichu
        ("seat 0 pushes to seat 1 (player", "2s"),
        ("seat 0 pushes to seat 1", "2s 3t zz"),
        ("seat 0 pushes to seat 1", "2s 3t Aj"),
        ("seat 0 pushes to seat 1", "2s 3t DOG"),
    )
    assert play_game(game, 0, ask=script, console=console(output)) == 0
    text = output.getvalue()
    assert "3 cards: " in script.asked[6]
    assert "choose a number from 1 to" in text
    assert "a rank is one of 2..10, J, Q, K, A" in text
    assert "seat 1 gets 3 card(s), not 1" in text
    assert "unknown card 'zz'" in text
    assert "Aj: not in the hand" in text
    assert "0 wishes 7" in text
    assert game.hand_results[0].out_order[0] == 0
    assert game.player_at(0) == 0  # GS-5: reseated first
    # The pushes: the person's choice, and the Wretch's three best cards it received.
    view = game.observation(0)
    assert view.pushed == {1: "3t 2s DOG"}
    assert re.search(r"seat 0 +receives +PH Ap Kp from 1", text)
    assert "bye" in text


def test_the_lead_after_the_dog_is_asked_for_T6_4() -> None:
    """Six seats in teams of three: after the Dog the person chooses which partner leads."""
    person = "MJ DOG 2j 3j 4s 5s 6p 7p 8t 9t"
    deal = [person.split(), *rest_of_deck(person, sizes=[10, 9, 9, 9, 9])]
    game = tc.Game(tc.load_variant("standard", overrides=SIX_SEATS_DOG_CHOOSES), deals=[deal])
    output = io.StringIO()
    script = Transcript(
        ("your action", "1"),  # no Grand Tichu
        ("seat 0 pushes to seat 2 (player 2, partner), 1 card: ", "2j"),
        ("seat 0 pushes to seat 4 (player 4, partner), 1 card: ", "3j"),
        ("your action", "DOG"),
        ("give the lead to seat 2 (player 2, partner", "3"),
        ("give the lead to seat", "x"),
        ("give the lead to seat", "4"),
    )
    play_game(game, 0, ask=script, console=console(output))
    text = output.getvalue()
    assert "not accepted: the lead goes to one of seats [2, 4], not 3" in text
    assert "answer with a seat number: 2, 4" in text
    assert "0 gives the lead to 4" in text
    assert [(e.seat, e.to) for e in game.event_log if isinstance(e, LeadPassed)] == [(0, 4)]


def test_the_dragon_trick_is_given_at_a_prompt_S_DRAGON_1() -> None:
    person = "MJ DR 2j 3j 4j 5s 6s 7s 9p 10p Jp Qt Kt At"
    deal = [person.split(), *rest_of_deck(person, sizes=[14, 14, 14])]
    game = tc.Game(tc.load_variant("standard"), deals=[deal])
    output = io.StringIO()
    script = Transcript(
        ("your action", "1"),  # no Grand Tichu
        ("seat 0 pushes to seat 1 (player 1, opponent), 1 card: ", "2j"),
        ("seat 0 pushes to seat 2 (player 2, partner), 1 card: ", "At"),
        ("seat 0 pushes to seat 3 (player 3, opponent), 1 card: ", "3j"),
        ("your action", "DR"),
        ("your action", "pass"),  # collects the trick (S-TRICK-2)
        ("won the trick with the Dragon: give it to seat 1 (player 1, opponent", "2"),
        ("give it to seat", "3"),
    )
    play_game(game, 0, ask=script, console=console(output))
    text = output.getvalue()
    assert "pass (take the trick)" in text
    assert "not accepted: the Dragon trick goes to one of seats [1, 3], not 2" in text
    assert "-> 0 gives it to 3" in text


class ScreenReader:
    """Answers every question as a person reading the screen would: the first listed
    action, the first cards of the hand shown for a push, no wish, the first seat
    offered for a gift."""

    def __init__(self, output: io.StringIO) -> None:
        self.output = output
        self.asked: list[str] = []
        self._given: dict[tuple[int, int], list[str]] = {}

    def __call__(self, prompt: str) -> str:
        self.asked.append(prompt)
        text = self.output.getvalue()
        push = re.match(r"seat (\d+) pushes to seat \d+ .*, (\d+) cards?: $", prompt)
        if push:
            seat, count = int(push[1]), int(push[2])
            hand = re.findall(rf"^seat {seat}(?: \([^)]*\))? hand: (.*)$", text, re.M)[-1]
            # The cards already given to other targets in this push are not offered again.
            given = self._given.setdefault((seat, text.count(" to act —")), [])
            left = hand.split()
            for code in given:
                left.remove(code)
            chosen = left[:count]
            given.extend(chosen)
            return " ".join(chosen)
        if "wish for a rank" in prompt:
            return "none"
        gift = re.search(r"give (?:it|the lead) to seat (\d+)", prompt)
        return gift[1] if gift else "1"


def _short(name: str) -> dict[str, object]:
    """A short match: a low target where the variant plays to one."""
    return {"game.target": 200} if tc.load_variant(name).game.target else {}


@pytest.mark.parametrize("name", tc.list_variants())
def test_a_person_plays_a_whole_match_of_every_variant(name: str) -> None:
    """Every bundled variant (a variant that cannot be played fails here): the person
    answers every question and the match ends; they see only their own seats' hands
    and what the variant shows everyone."""
    variant = tc.load_variant(name, overrides=_short(name))
    output = io.StringIO()
    reader = ScreenReader(output)
    assert play_in_terminal(variant, seat=0, seed=3, ask=reader, console=console(output)) == 0
    text = output.getvalue()
    assert "Match over" in text
    assert "not accepted" not in text  # the reader only gives what is offered
    assert reader.asked
    you: set[str] = set()
    for line in text.splitlines():
        held = re.match(r"cards held: (.*)", line)
        if held:
            you = set(re.findall(r"(\d+) you\b", held[1]))
        shown = re.match(r"seat (\d+)( \([^)]*\))? hand: ", line)
        if shown:
            # A hand shown is the person's own seat's, or a dummy's (played by them or
            # face up for everyone).
            assert shown[1] in you or "dummy" in (shown[2] or ""), line
    if any(tc.Game(variant, seed=3).player_at(s) is None for s in range(variant.seats)):
        # T3-1: the person deals first, so plays the dummy too, and sees its hand.
        assert re.search(r"^seat \d+ \(dummy[,)].* hand: ", text, re.M)


def test_the_shuffler_plays_the_dummy_too_T3_1() -> None:
    """Threechu: player 0 shuffles first and acts for seat 0 and the dummy opposite;
    both hands are shown, the dummy's marked, and both seats are asked for."""
    variant = tc.load_variant("threechu", overrides={"game.hands": 3})
    game = tc.Game(variant, seed=5)
    dummy = next(seat for seat in range(game.seats) if game.player_at(seat) is None)
    assert game.controller(dummy) == 0
    output = io.StringIO()
    reader = ScreenReader(output)
    play_game(game, 0, ask=reader, console=console(output))
    text = output.getvalue()
    assert game.is_over
    assert re.search(rf"^seat {dummy} \(dummy\) hand: ", text, re.M)
    assert re.search(r"^seat 0 hand: ", text, re.M)
    asked_seats = {int(m[1]) for p in reader.asked for m in [re.match(r"seat (\d+)", p)] if m}
    assert {0, dummy} <= asked_seats
    assert f"— seat {dummy} (dummy) to act —" in text
    # In the first hand (seats rotate with the shuffle, T3-8) no other hand is shown.
    first_hand = text.split("Hand 2")[0]
    others = {s for s in range(game.seats) if s not in (0, dummy)}
    for seat in others:
        assert not re.search(rf"^seat {seat}\b.* hand: ", first_hand, re.M)


def test_a_bad_answer_is_explained_and_asked_again() -> None:
    variant = tc.load_variant("standard", overrides={"game.target": 200})
    output = io.StringIO()
    answers = iter(["zz", "99 bottles", "99", "", "1"])

    def ask(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    play_in_terminal(variant, seat=0, seed=1, ask=ask, console=console(output))
    text = output.getvalue()
    assert "unknown card 'zz'" in text
    assert "unknown card '99'" in text
    assert "choose a number from 1 to 2" in text  # the Grand Tichu decision
    assert "answer with a number from the list" in text
    assert "bye" in text


def _stdin(monkeypatch: pytest.MonkeyPatch, lines: Iterator[str] | list[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


def test_tichu_play_reads_its_answers_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command itself, with --players and --set: answers on stdin until it ends."""
    _stdin(monkeypatch, ["1"] * 3)
    code = main(
        [
            "play",
            "--variant",
            "standard",
            "--players",
            "6",
            "--set",
            "teams.size=3",
            "--set",
            "deal.hand_size=0",
            "--set",
            "exchange.targets=partners",
            "--seed",
            "2",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "cards held: 0 you: 8 cards · 1 player 1: 8 cards" in out  # six seats
    assert "5 player 5" in out
    assert "bye" in out


def test_tichu_play_refuses_the_dummy_seat(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--variant", "threechu", "--set", 'plugins=["standard"]', "--seed", "1"]
    game = tc.Game(tc.load_variant("threechu", overrides={"plugins": ["standard"]}), seed=1)
    dummy = next(seat for seat in range(game.seats) if game.player_at(seat) is None)
    code = main(["play", *args, "--seat", str(dummy)])
    out = capsys.readouterr().out
    assert code == 2
    assert f"seat {dummy} is a dummy seat" in out
