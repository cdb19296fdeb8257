"""`tichu play`: a person against bots, answering at the prompt (in this process).

The person's answers are scripted: either a transcript of (question, answer) pairs on a
stacked deal, or an answerer that reads the screen like a person would and answers
every question of a whole match — after trying answers that are none, each of which
must be explained while the game stays as it was. `test_play_pty.py` drives the real
program in a terminal. Rule ids: S-CALL-1 (calls only by their command), S-EX-1 and
GS-6 (pushes, several cards to one seat, the best cards taken by the rules), S-WISH-1
(the wish), S-COMB-4 (the Phoenix's rank typed), S-DRAGON-1 (the Dragon trick), T6-4
(the lead given after the Dog), T3-1 (the shuffler plays the dummy).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator

import pytest
from rich.console import Console
from scenario import DECK, RANKS

import tichu_core as tc
from tichu_core.frontends.cli.commands import main
from tichu_core.frontends.cli.terminal import play_game, play_in_terminal
from tichu_core.game.events import (
    CardsReceived,
    GrandTichuDecided,
    LeadPassed,
    Played,
    Pushed,
    TichuCalled,
)

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


def deal_for(person: str, sizes: list[int]) -> list[list[str]]:
    """A deal: seat 0 holds ``person`` (in dealing order), the other seats hands of
    ``sizes`` from the cards it leaves, in a fixed order."""
    used = {str(card) for card in tc.parse_cards(person)}
    order = {code: i for i, code in enumerate(["MJ", "DOG", "PH", "DR"] + [
        rank + suit for rank in RANKS for suit in "jspt"
    ])}  # fmt: skip
    left = sorted(DECK - used, key=order.__getitem__)
    dealt = [person.split()]
    for size in sizes:
        dealt.append(left[:size])
        left = left[size:]
    assert not left
    return dealt


def shown(game: tc.Game, ask: Callable[[str], str]) -> str:
    """What the person at seat 0 is shown, answering with ``ask``, until the match ends
    or they leave."""
    output = io.StringIO()
    play_game(game, 0, ask=ask, console=console(output))
    return output.getvalue()


def test_a_rank_exchange_asks_for_several_cards_to_one_seat_GS_6() -> None:
    """Hand 1: the person goes out first with one 14-card straight, typed, and wishes
    (S-WISH-1). Hand 2 (GS-5: the first out sits at seat 0): the last gives its three
    best cards to the person, who is asked for three cards to give back to it (GS-6);
    wrong counts, unknown and missing cards are explained and asked again."""
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
        ("Grand Tichu?", "1"),
        ("your play", "0"),
        ("your play", f"play {person.lower()}"),
        ("wish for", "Z"),
        ("wish for", "7"),
        ("Grand Tichu?", ""),  # hand 2; Enter: the only option, no call
        ("seat 0, 3 cards for seat 1 (player", "2s"),
        ("seat 0, 3 cards for seat 1", "2s 3t zz"),
        ("seat 0, 3 cards for seat 1", "2s 3t Aj"),
        ("seat 0, 3 cards for seat 1", "2s 3t DOG"),
    )
    assert play_game(game, 0, ask=script, console=console(output)) == 0
    text = output.getvalue()
    assert "there is no option 0: the options are numbered from 1 to " in text
    assert "not accepted: Z is not a rank: one of 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A" in text
    assert "not accepted: seat 1 gets 3 cards, not 1" in text
    assert "unknown card 'zz'" in text
    assert "not accepted: Aj is not in the hand of seat 0" in text
    assert "0 wishes 7" in text
    assert game.hand_results[0].out_order[0] == 0
    assert game.player_at(0) == 0  # GS-5: reseated first
    # The pushes: the person's choice, and the last's three best cards it received.
    view = game.observation(0)
    assert view.pushed == {1: "3t 2s DOG"}
    assert re.search(r"^you received: PH Ap Kp from seat 1 \(player \d\b", text, re.M)
    assert "bye" in text


def test_the_rules_take_the_best_cards_of_the_last_GS_6() -> None:
    """The person goes out last in hand 1 (weak cards, passing whenever it may); in hand
    2 it is not asked for the cards the rules take from it (GS-6): it is told which
    they were and whom they went to, and what it received back."""
    person = "DOG 2j 2s 3p 3t 4j 5s 6p 7t 8j 9s 10p Jt Qj"
    deal = deal_for(person, [14, 14, 14])
    variant = tc.load_variant("standard", overrides=RANK_EXCHANGE)
    game = tc.Game(variant, seed=2, deals=[deal])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if "Grand Tichu?" in prompt:
            return "1"
        if "your play" in prompt and game.hand_index == 1:
            raise EOFError  # hand 2's exchange is done: the person leaves
        if "your play" in prompt:
            legal = game.legal_actions(game.seat_of(0) or 0)
            if tc.Pass(game.seat_of(0) or 0) in legal:
                return "pass"
            shortest = min(
                legal, key=lambda a: len(a.cards.split()) if isinstance(a, tc.Play) else 99
            )
            assert isinstance(shortest, tc.Play)
            return shortest.cards
        if "wish for" in prompt:
            return "none"
        raise AssertionError(prompt)

    text = shown(game, ask)
    assert game.hand_results[0].out_order[-1] == 0, "the person was meant to go out last"
    seat = game.seat_of(0)
    assert seat == 1  # GS-5: the last sits at the first's right
    # The log holds each push twice: for everyone (no cards) and for its giver.
    forced = [e.cards for e in game.event_log if isinstance(e, Pushed) and e.forced and e.seat == 1]
    best = forced[1][0] if forced[1] else ""
    assert len(best.split()) == 3
    assert re.search(
        rf"^you had to give your best cards: {re.escape(best)} to seat 0 \(player \d+\b",
        text,
        re.M,
    )
    got = re.search(r"^you received: (.+) from seat 0 \(player \d+\b", text, re.M)
    assert got and len(got[1].split()) == 3
    assert [q for q in asked if "cards for seat" in q] == []  # never asked


def test_the_lead_after_the_dog_is_asked_for_T6_4() -> None:
    """Six seats in teams of three: after the Dog the person chooses which partner leads."""
    person = "MJ DOG 2j 3j 4s 5s 6p 7p 8t 9t"
    deal = deal_for(person, [10, 9, 9, 9, 9])
    game = tc.Game(tc.load_variant("standard", overrides=SIX_SEATS_DOG_CHOOSES), deals=[deal])
    script = Transcript(
        ("Grand Tichu?", "1"),
        ("seat 0, 1 card for seat 2 (player 2, partner) > ", "2j"),
        ("seat 0, 1 card for seat 4 (player 4, partner) > ", "3j"),
        ("your play", "dog"),
        ("give the lead to seat", "3"),
        ("give the lead to seat", "x"),
        ("give the lead to seat", "4"),
    )
    text = shown(game, script)
    assert "seat 0 played the Dog; the choices:" in text
    assert re.search(r"^  seat 2 \(player 2, partner\): \d+ cards left$", text, re.M)
    assert "not accepted: seat 3 is not offered: answer 2 or 4" in text
    assert "not accepted: answer with a seat number: 2 or 4" in text
    assert "0 gives the lead to 4" in text
    assert [(e.seat, e.to) for e in game.event_log if isinstance(e, LeadPassed)] == [(0, 4)]


DRAGON_HAND = "MJ DR 2j 3j 4j 5s 6s 7s 9p 10p Jp Qt Kt At"


def test_the_dragon_trick_is_given_at_a_prompt_S_DRAGON_1() -> None:
    deal = deal_for(DRAGON_HAND, [14, 14, 14])
    game = tc.Game(tc.load_variant("standard"), deals=[deal])
    script = Transcript(
        ("Grand Tichu?", "1"),
        ("seat 0, 1 card for seat 1 (player 1, opponent) > ", "2j"),
        ("seat 0, 1 card for seat 2 (player 2, partner) > ", "At"),
        ("seat 0, 1 card for seat 3 (player 3, opponent) > ", "3j"),
        ("your play", "DR"),
        ("your play", "pass"),  # collects the trick (S-TRICK-2)
        ("give the trick to seat", "2"),
        ("give the trick to seat", "3"),
    )
    text = shown(game, script)
    assert "seat 0 won the trick with the Dragon; the choices:" in text
    assert "pass (take the trick)" in text
    assert "not accepted: seat 2 is not offered: answer 1 or 3" in text
    assert "-> 0 gives it to 3" in text


def test_the_cards_received_are_shown_after_the_exchange_S_EX_1() -> None:
    deal = deal_for(DRAGON_HAND, [14, 14, 14])
    game = tc.Game(tc.load_variant("standard"), deals=[deal])
    script = Transcript(
        ("Grand Tichu?", "1"),
        ("1 card for seat 1", "2j"),
        ("1 card for seat 2", "2J"),
        ("1 card for seat 2", "play At"),
        ("1 card for seat 2", "give At"),
        ("1 card for seat 3", "3j"),
        ("your play", "table"),
    )
    text = shown(game, script)
    cards = next(e.cards for e in game.event_log if isinstance(e, CardsReceived) and e.seat == 0)
    line = (
        f"you received: {cards[1]} from seat 1 (player 1, opponent) · {cards[2]} from seat 2 "
        f"(player 2, partner) · {cards[3]} from seat 3 (player 3, opponent)"
    )
    assert line in text.splitlines()
    assert "not accepted: 2j is already given to seat 1" in text
    assert "not accepted: this is the exchange: type only the cards for seat 2" in text
    # On the table for the hand (shown twice: before the question and for `table`).
    assert text.count(f"seat 0 received: {cards[1]} from 1 · {cards[2]} from 2 · ") == 2


def test_a_call_is_made_only_by_its_command_S_CALL_1() -> None:
    """No call is a numbered option: `1` never calls. `grand` and `tichu` call; `tichu`
    in the middle of an exchange keeps the cards already chosen."""
    deal = deal_for(DRAGON_HAND, [14, 14, 14])
    game = tc.Game(tc.load_variant("standard"), deals=[deal])
    script = Transcript(
        ("Grand Tichu?", "1"),
        ("1 card for seat 1", "2j"),
        ("1 card for seat 2", "tichu"),
        ("1 card for seat 2", "At"),
        ("1 card for seat 3", "3j"),
    )
    text = shown(game, script)
    assert "to call Grand Tichu on these cards, type grand" in text
    assert "you may call Tichu now: type tichu" in text
    assert not re.search(r"\d+\. call", text)  # never listed
    assert [e.call for e in game.event_log if isinstance(e, GrandTichuDecided) and e.seat == 0] == [
        False
    ]
    assert [e.seat for e in game.event_log if isinstance(e, TichuCalled)] == [0]
    assert "seat 0 calls Tichu" in text
    assert game.observation(0).pushed == {1: "2j", 2: "At", 3: "3j"}

    # Another table: `grand` calls Grand Tichu.
    game = tc.Game(tc.load_variant("standard"), deals=[deal])
    text = shown(game, Transcript(("Grand Tichu?", "grand")))
    assert "seat 0 calls Grand Tichu" in text
    assert [e.call for e in game.event_log if isinstance(e, GrandTichuDecided) and e.seat == 0] == [
        True
    ]

    # And another: at the first play, where Tichu may still be called (S-CALL-1), `1`
    # plays the first option and calls nothing.
    game = tc.Game(tc.load_variant("standard"), deals=[deal])
    script = Transcript(
        ("Grand Tichu?", "1"),
        ("1 card for seat 1", "2j"),
        ("1 card for seat 2", "At"),
        ("1 card for seat 3", "3j"),
        ("your play", "1"),
    )
    text = shown(game, script)
    assert re.search(r"you may call Tichu now: type tichu\nanswer: a number 1\.\.", text)
    assert not re.search(r"\d+\. call", text)
    assert not any(isinstance(e, TichuCalled) for e in game.event_log)
    assert any(isinstance(e, Played) and e.seat == 0 for e in game.event_log)


def test_the_phoenix_rank_is_typed_S_COMB_4() -> None:
    """`PH=8`: the Phoenix stands for an 8 at the top of a straight, not below it."""
    person = "MJ PH 4j 5j 6s 7s 9p 10p Jp Qt Kt At 2j 3j"
    deal = deal_for(person, [14, 14, 14])
    game = tc.Game(tc.load_variant("standard"), deals=[deal])
    script = Transcript(
        ("Grand Tichu?", "1"),
        ("1 card for seat 1", "9p"),
        ("1 card for seat 2", "10p"),
        ("1 card for seat 3", "Jp"),
        ("your play", "play 4j 5j 6s 7s PH=X"),
        ("your play", "play 4j 5j 6s 7s Qt=8"),
        ("your play", "play 4j 5j 6s 7s ph=8"),
    )
    text = shown(game, script)
    assert "not accepted: X is not a rank" in text
    assert "not accepted: Qt=8: only the Phoenix stands for a rank (PH=8)" in text
    played = next(e for e in game.event_log if isinstance(e, Played) and e.seat == 0)
    assert (sorted(played.cards), played.phoenix) == (sorted(["4j", "5j", "6s", "7s", "PH"]), "8")


# ----------------------------------------------------------------- whole matches, bad answers


class ScreenReader:
    """Answers every question as a person reading the screen would: the first listed
    option, the lowest cards of the hand shown for a push, no wish, the first seat
    offered for a gift."""

    def __init__(self, output: io.StringIO) -> None:
        self.output = output
        self.asked: list[str] = []
        self._giving: list[str] = []
        self._last_push: tuple[int, int] = (-1, -1)

    def __call__(self, prompt: str) -> str:
        self.asked.append(prompt)
        text = self.output.getvalue()
        push = re.match(r"seat (\d+)(?: \(dummy\))?, (\d+) cards? for seat (\d+) ", prompt)
        if push:
            seat, count, target = int(push[1]), int(push[2]), int(push[3])
            # Targets are asked in seat order: a lower one (or another seat) starts a
            # new push, and the cards given in this one are not offered again.
            if (seat, target) <= self._last_push or seat != self._last_push[0]:
                self._giving = []
            self._last_push = (seat, target)
            hand = re.findall(rf"^seat {seat}(?: \([^)]*\))? hand: (.*)$", text, re.M)[-1]
            left = hand.split()
            for code in self._giving:
                left.remove(code)
            chosen = left[-count:]
            self._giving.extend(chosen)
            return " ".join(chosen)
        if "wish for" in prompt:
            return "none"
        if "give the" in prompt:
            offered: list[str] = re.findall(r"^  seat (\d+) \(", text, re.M)
            return offered[-1]
        return "1"


# Answers that are none, at every question of the kinds they are tried at; each is
# explained (or, for help and table, shows what it says) and changes nothing.
NOT_ANSWERS = ["0", "-1", "999", "1 2", "zz", "x" * 300, "ñ", "PH=", "play", "help", "table"]
NO_GIFT = ["-1", "999", "seat", "zz", "help", "table"]  # a number may be a seat offered


class TriesBadAnswersFirst:
    """Before answering a question as ``reader`` would, answers it with every one of
    ``NOT_ANSWERS`` (and ``grand`` where it is no call), checking after each that the
    same question comes again, explained, and that the game is exactly as it was."""

    def __init__(self, reader: ScreenReader, game: tc.Game, output: io.StringIO) -> None:
        self.reader = reader
        self.game = game
        self.output = output
        self.pending: list[str] | None = None  # bad answers still to try on `question`
        self.question = self.saved = self.last = ""
        self.mark = 0
        self.tried = 0

    def __call__(self, prompt: str) -> str:
        if self.pending is None:  # a new question
            self.question, self.saved = prompt, self.game.to_json()
            bad = NO_GIFT if "give the" in prompt else NOT_ANSWERS
            self.pending = [*bad, *([] if "Grand Tichu?" in prompt else ["grand"])]
        else:  # the same question again, after a bad answer
            said = self.output.getvalue()[self.mark :]
            assert prompt == self.question, (self.last, said)
            expected = {"help": "answer with", "table": "cards held:"}.get(self.last)
            assert (expected or "not accepted: ") in said, (self.last, said)
            assert self.game.to_json() == self.saved, f"{self.last!r} changed the game"
        self.mark = len(self.output.getvalue())
        if self.pending:
            self.last = self.pending.pop(0)
            self.tried += 1
            return self.last
        self.pending = None
        return self.reader(prompt)


def _short(name: str) -> dict[str, object]:
    """A short match: a low target where the variant plays to one."""
    return {"game.target": 200} if tc.load_variant(name).game.target else {}


TABLES = [(name, {}) for name in tc.list_variants()] + [
    ("grand_seigneur", {"players": players, "game.hands": 3}) for players in (5, 6, 12)
]


@pytest.mark.parametrize(
    ("name", "size"), TABLES, ids=[f"{n}{'-' + str(s['players']) if s else ''}" for n, s in TABLES]
)
def test_a_person_plays_a_whole_match_of_every_variant(name: str, size: dict[str, int]) -> None:
    """Every bundled variant (a variant that cannot be played fails here), and Grand
    Seigneur at 5, 6 and 12 players besides its default 7: the person answers every
    question and the match ends; they see only their own seats' hands and what the
    variant shows everyone."""
    variant = tc.load_variant(name, overrides={**_short(name), **size})
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


@pytest.mark.parametrize("name", ["standard", "threechu", "tientsin", "grand_seigneur"])
def test_every_answer_that_is_none_is_explained_and_changes_nothing(name: str) -> None:
    """At every question of a whole match: `0`, numbers out of range, unknown cards,
    calls not allowed... each is explained, the same question comes again, and the game
    is exactly as it was (its saved form); then the match goes on."""
    overrides: dict[str, object] = {**_short(name)}
    if name == "threechu":
        overrides["game.hands"] = 3
    if name == "grand_seigneur":
        overrides["game.hands"] = 2  # the second hand has the rank exchange (GS-6)
    game = tc.Game(tc.load_variant(name, overrides=overrides), seed=6)
    output = io.StringIO()
    ask = TriesBadAnswersFirst(ScreenReader(output), game, output)
    assert play_game(game, 0, ask=ask, console=console(output)) == 0
    assert game.is_over
    assert ask.tried > 100


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
    assert "you are player 0 at seat 0; type help at any question" in out
    assert "cards held: 0 you: 8 cards · 1 player 1: 8 cards" in out  # six seats
    assert "5 player 5" in out
    assert "not accepted: 1 is a number, not a card" in out  # a push asks for cards
    assert "bye" in out


def test_tichu_play_refuses_the_dummy_seat(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--variant", "threechu", "--set", 'plugins=["standard"]', "--seed", "1"]
    game = tc.Game(tc.load_variant("threechu", overrides={"plugins": ["standard"]}), seed=1)
    dummy = next(seat for seat in range(game.seats) if game.player_at(seat) is None)
    code = main(["play", *args, "--seat", str(dummy)])
    out = capsys.readouterr().out
    assert code == 2
    assert f"seat {dummy} is a dummy seat" in out


def test_tichu_play_refuses_a_seat_not_at_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seat", "4"]) == 2
    assert "there is no seat 4: seats are 0 to 3" in capsys.readouterr().out


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
    assert f"seat {dummy} (dummy), your play > " in reader.asked
    # In the first hand (seats rotate with the shuffle, T3-8) no other hand is shown.
    first_hand = text.split("Hand 2")[0]
    others = {s for s in range(game.seats) if s not in (0, dummy)}
    for seat in others:
        assert not re.search(rf"^seat {seat}\b.* hand: ", first_hand, re.M)
