"""`tichu play` as a person meets it: the real installed program in a pseudo-terminal.

Each test starts `.venv/bin/tichu play …` on a pseudo-terminal of 120 columns (so
`rich` sees a terminal: colours, its width; `input` reads the terminal), reads the
screen with the colours taken out, and types answers when a question waits (a
prompt line ending in ``> ``). Python's own `pty` module is enough: no test
dependency is added.

Rule ids: S-CALL-1 (Tichu only by its command, or t + Enter while the bots play),
S-EX-1 (the exchange, the cards received), T3-1 (the Threechu shuffler plays the
dummy), T6-4 (the lead given after the Dog), GS-5 and GS-6 (titles, several cards to
one seat, the forced best cards).
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from interrupts import default_sigint

import tichu_core as tc

# The console script installed beside the interpreter running the tests (.venv/bin).
TICHU = Path(sys.executable).with_name("tichu")
# Long enough for a slow machine; a test that waits this long has failed anyway.
TIMEOUT = 30.0
# Colours and other terminal controls (CSI, OSC, two-byte escapes).
CONTROLS = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
# A question waiting for its answer: the last line of the screen, the cursor after it.
PROMPT = re.compile(r"^(seat \d+[^\n]*> )\Z", re.M)


def _take_the_terminal() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    default_sigint()  # Ctrl-C works even where the suite runs with it ignored


class Terminal:
    """`tichu play ARGS` running in a pseudo-terminal: its screen (as plain text) and
    the keyboard."""

    def __init__(self, *args: str) -> None:
        assert TICHU.exists(), f"{TICHU}: the tichu command is not installed"
        self.master, slave = pty.openpty()
        # 50 rows, 120 columns: rich reads the size from the terminal.
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color"}
        for name in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TERM_PROGRAM"):
            env.pop(name, None)
        self.process = subprocess.Popen(
            [str(TICHU), "play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            # As in a terminal window: its own session, the pseudo-terminal controlling
            # it (so that Ctrl-C interrupts it).
            preexec_fn=_take_the_terminal,
        )
        os.close(slave)
        self._raw = b""
        self.screen = ""  # everything shown so far, without colours, lines ending in \n
        self.position = 0  # what the tests have read up to
        self.before = ""  # the screen between the last two questions
        self.ended = False

    def _read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:  # EIO: the program ended and its side of the terminal closed
            data = b""
        if not data:
            self.ended = True
            return
        self._raw += data
        # Decoded whole each time: a character cut between two reads comes out right.
        text = self._raw.decode("utf-8", "replace")
        self.screen = CONTROLS.sub("", text).replace("\r", "")

    def wait_for(self, pattern: re.Pattern[str], what: str) -> re.Match[str]:
        """The first match of ``pattern`` after what was read, waiting for the program."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            found = pattern.search(self.screen, self.position)
            if found:
                return found
            if self.ended or time.monotonic() > deadline:
                ending = "the program ended" if self.ended else f"{TIMEOUT:.0f} s passed"
                pytest.fail(f"{ending} before {what}; the screen ends:\n{self.screen[-3000:]}")
            self._read(0.2)

    def expect(self, pattern: str) -> re.Match[str]:
        """The first match of ``pattern`` after what was read; reading goes on after it."""
        found = self.wait_for(re.compile(pattern, re.M), repr(pattern))
        self.position = found.end()
        return found

    def question(self) -> str:
        """The next question (a prompt waiting at the end of the screen); the screen
        before it is ``self.before``."""
        found = self.wait_for(PROMPT, "a question")
        self.before = self.screen[self.position : found.start()]
        self.position = found.end()
        return found[1]

    def answer(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def interrupt(self) -> None:
        """Ctrl-C, once the program reads its answer: the prompt is printed a moment
        before `input()` has set the terminal up, and a Ctrl-C in between can be lost
        on a busy machine."""
        time.sleep(0.5)
        os.write(self.master, b"\x03")

    def end_input(self) -> None:
        """Ctrl-D at the start of a line: the end of the input."""
        os.write(self.master, b"\x04")

    def exit_code(self) -> int:
        """Wait for the program to end (reading its last screen)."""
        deadline = time.monotonic() + TIMEOUT
        while not self.ended and time.monotonic() < deadline:
            self._read(0.2)
        return self.process.wait(timeout=TIMEOUT)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    """Started programs, ended after the test whatever happens."""
    started: list[Terminal] = []
    yield started
    for terminal in started:
        terminal.close()


Start = Callable[..., Terminal]


@pytest.fixture
def start(terminals: list[Terminal]) -> Start:
    """Start `tichu play ARGS` in a new pseudo-terminal."""

    def start(*args: str) -> Terminal:
        # The bots do not wait for a Tichu typed between their actions (S-CALL-1), but
        # where a test asks for it: the tests answer at the questions.
        if "--bot-delay" not in args:
            args = ("--bot-delay", "0", *args)
        # The sessions are scripted against the greedy bots' plays on these seeds (the
        # command's default bot is another).
        if "--bot" not in args:
            args = ("--bot", "greedy", *args)
        terminal = Terminal(*args)
        terminals.append(terminal)
        return terminal

    return start


# ------------------------------------------------------------------- reading the screen


def hand_of(screen: str, seat: int) -> list[str]:
    """The last hand shown for ``seat``: `seat 0 hand: …` or `seat 2 (dummy) hand: …`."""
    shown: list[str] = re.findall(rf"^seat {seat}(?: \([^)]*\))? hand: (.*)$", screen, re.M)
    return shown[-1].split()


def options(screen: str) -> dict[int, str]:
    """The numbered options of the last question shown (numbered down the columns)."""
    block = screen.rsplit(" to act —", 1)[-1]
    found = re.findall(r"(?:^| {2,})\s*(\d+)\. (.+?)(?= {2,}\s*\d+\. |$)", block, re.M)
    return {int(number): text.strip() for number, text in found}


def typed(option: str) -> str:
    """A listed play as a person types it: `At PH (Phoenix as A)` -> `play At PH=A`."""
    phoenix = re.search(r"\(Phoenix as (\w+)\)", option)
    cards = option.split(" (")[0].split()
    if phoenix:
        cards = [f"PH={phoenix[1]}" if code == "PH" else code for code in cards]
    return "play " + " ".join(cards)


class Person:
    """Answers every question from what the screen shows: no Grand Tichu, the lowest
    plain cards to give, no wish, the first seat offered; plays typed as cards — the play
    with the most cards (``eager``) or else the fewest (passing whenever it may)."""

    def __init__(self) -> None:
        self.eager = True
        self.questions: list[str] = []
        self._giving: list[str] = []
        self._decisions = -1

    def __call__(self, screen: str, prompt: str) -> str:
        self.questions.append(prompt)
        decisions = screen.count(" to act —")
        if decisions != self._decisions:  # a new decision: nothing given in it yet
            self._decisions, self._giving = decisions, []
        push = re.match(r"seat (\d+)(?: \(dummy\))?, (\d+) cards? for seat", prompt)
        if push:
            left = hand_of(screen, int(push[1]))
            for code in self._giving:
                left.remove(code)
            # Hands are shown from the highest card down; the specials are kept.
            plain = [code for code in left if code not in ("MJ", "DOG", "PH", "DR")]
            chosen = (plain if len(plain) >= int(push[2]) else left)[-int(push[2]) :]
            self._giving += chosen
            return " ".join(chosen)
        if "Grand Tichu?" in prompt:
            return "1"
        if "wish for" in prompt:
            return "none"
        if prompt.endswith(", bomb? > "):
            return ""  # a bomb out of turn: Enter lets it stand
        if "give the" in prompt:
            block = screen.rsplit(" to act —", 1)[-1]
            offered: list[str] = re.findall(r"^  seat (\d+) \(", block, re.M)
            return offered[0]
        assert "your play" in prompt, prompt
        listed = options(screen)
        plays = [text for text in listed.values() if not text.startswith("pass")]
        if not plays or (not self.eager and len(plays) < len(listed)):
            return "pass"
        size = [len(typed(text).split()) for text in plays]
        best = max(size) if self.eager else min(size)
        return typed(plays[size.index(best)])


def play_to_the_end(terminal: Terminal, person: Person) -> str:
    """Answer every question until the match is over; the whole screen."""
    while True:
        found = terminal.wait_for(re.compile(r"Match over|" + PROMPT.pattern, re.M), "a question")
        if found[0].startswith("Match over"):
            assert terminal.exit_code() == 0
            return terminal.screen
        prompt = terminal.question()
        # Eager in odd hands, passing in even ones: the person tends to go out first,
        # then last, so that Grand Seigneur shows both sides of its exchange (GS-6).
        hand = re.findall(r"── hand (\d+) — ", terminal.screen)
        person.eager = not hand or int(hand[-1]) % 2 == 1
        terminal.answer(person(terminal.screen[: terminal.position], prompt))


def first_question(terminal: Terminal, text: str) -> str:
    """Answer with the Person until a question containing ``text`` is asked; that one."""
    person = Person()
    while True:
        prompt = terminal.question()
        if text in prompt:
            return prompt
        terminal.answer(person(terminal.screen[: terminal.position], prompt))


# ----------------------------------------------------------------------------- the tests


def test_zero_is_refused_and_help_shows_the_syntax(start: Start) -> None:
    """Options are numbered from 1: `0` is no option (not the last one); `help` lists the
    answers of the question and the commands; the question is asked again each time."""
    table = start("--seed", "1")
    assert table.question() == "seat 0, Grand Tichu? > "
    assert "  1. no Grand Tichu: take the rest" in table.before
    table.answer("0")
    table.expect(r"^not accepted: there is no option 0: the options are numbered from 1 to 1$")
    assert table.question() == "seat 0, Grand Tichu? > "
    table.answer("")  # Enter: the only option
    prompt = first_question(table, "your play")
    table.answer("help")
    for line in (
        r"^  3 +the option numbered 3 in the list \(numbers start at 1\)$",
        r"^  play 5j 5s +these cards \(or just: 5j 5s\)$",
        r"^  pass +no card",
        r"^cards: rank 2\.\.10 \(or T\), J, Q, K, A \+ suit j jade, s sword, p pagoda, t star;$",
        r"^  tichu +call Tichu",
        r"^  quit +leave the match",
    ):
        table.expect(line)
    assert table.question() == prompt
    count = len(options(table.screen[: table.position]))
    table.answer("0")
    table.expect(
        rf"^not accepted: there is no option 0: the options are numbered from 1 to {count}$"
    )
    assert table.question() == prompt
    table.answer("quit")
    table.expect(r"^bye$")
    assert table.exit_code() == 0


def test_ctrl_c_leaves_without_a_traceback(start: Start) -> None:
    table = start("--seed", "1")
    table.question()
    table.interrupt()
    table.expect(r"^bye$")
    assert table.exit_code() == 130  # interrupted, as shells count it
    assert "Traceback" not in table.screen


def test_a_typed_card_play_is_applied(start: Start) -> None:
    """Cards in the text notation, in any case, with `play` or without; cards not held
    and numbers in place of cards are explained and asked again."""
    table = start("--seed", "4")
    prompt = first_question(table, "your play")
    listed = options(table.screen[: table.position])
    play = next(text for text in listed.values() if text != "pass" and "Phoenix" not in text)
    held = hand_of(table.screen, 0)
    missing = next(code for code in ("2j", "2s", "2p", "2t", "3j", "3s") if code not in held)
    table.answer(f"play {missing}")
    table.expect(
        rf"^not accepted: seat 0 cannot play {missing}: card {missing} is not in the hand$"
    )
    assert table.question() == prompt
    table.answer("5 5")
    table.expect(r"^not accepted: 5 is a number, not a card: a card has a suit \(5j, 5s, 5p, 5t\)$")
    assert table.question() == prompt
    table.answer(play.lower())  # no `play`, lower case
    table.expect(rf"^ +0: {re.escape(play)}$")
    # The hand shown next holds the cards no more.
    table.question()
    assert not set(play.split()) & set(hand_of(table.screen, 0))
    table.end_input()  # Ctrl-D leaves, as `quit` does
    table.expect(r"^bye$")
    assert table.exit_code() == 0


def test_a_call_happens_only_by_its_command_S_CALL_1(start: Start) -> None:
    """`1` is never a call: not at the Grand Tichu question, not at a play where Tichu
    may be called (it is said, not listed); `tichu` calls, during the exchange too,
    and the half-answered exchange goes on where it was."""
    table = start("--seed", "1")
    table.question()
    assert "to call Grand Tichu on these cards, type grand" in table.before
    table.answer("1")
    prompt = table.question()
    assert prompt == "seat 0, 1 card for seat 1 (player 1, opponent) > "
    assert "you may call Tichu now: type tichu" in table.before
    assert "call" not in "".join(options(table.before).values())
    table.answer("1")  # a number is no card: nothing is called either
    table.expect(r"^not accepted: 1 is a number, not a card")
    table.question()
    hand = hand_of(table.screen, 0)
    table.answer(hand[-1])
    assert table.question() == "seat 0, 1 card for seat 2 (player 2, partner) > "
    table.answer("tichu")
    table.expect(r"^  seat 0 calls Tichu$")
    # Still the partner's card: the card given to seat 1 is kept.
    assert table.question() == "seat 0, 1 card for seat 2 (player 2, partner) > "
    table.answer("tichu")
    table.expect(r"^not accepted: .*\(S-CALL-1\)$")  # one call per seat
    table.question()
    table.answer(hand[-2])
    table.question()
    table.answer(hand[-3])
    # Seat 1 leads a straight, which seat 0's four Aces may bomb out of turn: let it stand.
    assert table.question() == "seat 0, bomb? > "
    table.answer("")
    table.question()
    assert re.search(r"^cards held: 0 you: \d+ cards, Tichu ·", table.before, re.M)

    # Another match: at the first play `1` does not call, though Tichu may be called.
    table = start("--seed", "1")
    prompt = first_question(table, "your play")
    assert "you may call Tichu now: type tichu" in table.before
    assert all("Tichu" not in text for text in options(table.before).values())
    table.answer("1")
    table.question()
    assert "calls Tichu" not in table.screen
    assert not re.search(r"^cards held: 0 you: [^·]*Tichu", table.screen, re.M)


def test_the_cards_received_are_shown_after_the_exchange_S_EX_1(start: Start) -> None:
    table = start("--seed", "2")
    prompt = first_question(table, "your play")
    received = re.search(
        r"^you received: (\S+) from seat 1 \(player 1, opponent\) · (\S+) from seat 2 "
        r"\(player 2, partner\) · (\S+) from seat 3 \(player 3, opponent\)$",
        table.screen,
        re.M,
    )
    assert received, table.screen
    cards = list(received.groups())
    assert set(cards) <= set(hand_of(table.screen, 0))
    # The table keeps them in view for the hand.
    assert re.search(
        rf"^seat 0 received: {cards[0]} from 1 · {cards[1]} from 2 · ", table.before, re.M
    )
    assert prompt == "seat 0, your play > "


def test_a_whole_short_match_of_standard(start: Start) -> None:
    table = start("--seed", "5", "--set", "game.target=100")
    person = Person()
    screen = play_to_the_end(table, person)
    assert re.search(r"^  totals team 0\+2 -?\d+, team 1\+3 -?\d+; won by team", screen, re.M)
    assert "not accepted" not in screen  # every answer came from the screen
    assert sum("your play" in q for q in person.questions) > 5


def test_the_threechu_shuffler_plays_the_dummy_T3_1(start: Start) -> None:
    table = start("--variant", "threechu", "--seed", "3", "--set", "game.hands=3")
    person = Person()
    screen = play_to_the_end(table, person)
    dummy = re.search(r"^  seats: .*(\d) dummy", screen, re.M)
    assert dummy
    first_hand = screen.split("Hand 2 — ")[0]
    # Hand 1: the person shuffled; the dummy's hand is shown to them and it is asked for.
    assert re.search(rf"^seat {dummy[1]} \(dummy\) hand: ", first_hand, re.M)
    assert any(q.startswith(f"seat {dummy[1]} (dummy), ") for q in person.questions)
    assert "not accepted" not in screen


def test_tientsin_the_lead_after_the_dog_T6_4(start: Start) -> None:
    """Six seats; the person leads the first trick (the Mah Jong) with the Dog and is
    asked which partner gets the lead. The seed is one dealing seat 0 both."""
    variant = tc.load_variant("tientsin")
    seed = next(s for s in range(500) if {"MJ", "DOG"} <= set(_dealt(variant, s, 0)))
    table = start("--variant", "tientsin", "--seed", str(seed), "--set", "game.target=100")
    first_question(table, "your play")
    table.answer("play dog")
    prompt = table.question()
    assert prompt == "seat 0, give the lead to seat > "
    assert "seat 0 played the Dog; the choices:" in table.before
    assert re.search(r"^  seat 2 \(player 2, partner\): \d+ cards left$", table.before, re.M)
    table.answer("1")
    table.expect(r"^not accepted: seat 1 is not offered: answer 2 or 4$")
    table.question()
    table.answer("seat 4")
    table.expect(r"-> 0 gives the lead to 4")
    screen = play_to_the_end(table, Person())
    assert "Match over" in screen


def _dealt(variant: tc.Variant, seed: int, seat: int) -> list[str]:
    """The whole hand ``seat`` is dealt with ``seed`` (the deal does not depend on the
    Grand Tichu answers)."""
    game = tc.Game(variant, seed=seed)
    while game.observation(None).phase == "grand_tichu":
        waiting = game.waiting_for[0]
        game.apply(tc.GrandTichu(waiting, False))
    return game.observation(game.player_at(seat)).hand


# GS-6 with 7 players (3, 2, 1 cards): what each title gives in the exchange, and whether
# it chooses (a question per seat) or the rules take its best cards.
GIVES = {
    "Great Lord": ("chooses", 3),
    "Lord": ("chooses", 2),
    "Squire": ("chooses", 1),
    "Grand Burgher": ("nothing", 0),
    "Burgher": ("forced", 1),
    "Pauper": ("forced", 2),
    "Wretch": ("forced", 3),
}


def test_grand_seigneur_exchanges_follow_the_titles_GS_5_GS_6(start: Start) -> None:
    """Seven players, three hands: in each hand after the first the person is reseated
    by rank and, by its title, chooses several cards for one seat, or is told the best
    cards the rules took from it; and it is told what it received."""
    table = start("--variant", "grand_seigneur", "--seed", "1", "--set", "game.hands=3")
    person = Person()
    screen = play_to_the_end(table, person)
    seen = set()
    for index, hand in enumerate(screen.split("── Hand ")[2:], start=2):
        seated = re.search(r"^  seats: .*?(\d+) player 0\b", hand, re.M)
        assert seated, hand[:500]
        seat = int(seated[1])
        title = re.search(rf"^  titles: .*\b{seat} ([A-Z][a-z]+(?: [A-Z][a-z]+)?)", hand, re.M)
        assert title, hand[:500]
        kind, count = GIVES[title[1]]
        seen.add(kind)
        asked = re.findall(rf"^seat {seat}, (\d+) cards? for seat \d+ \([^)]*\) > ", hand, re.M)
        forced = re.search(r"^you had to give your best cards: (.*) to seat \d+ \(", hand, re.M)
        if kind == "chooses":
            assert asked == [str(count)], (index, title[1])
            assert not forced
        elif kind == "forced":
            assert not asked
            assert forced and len(forced[1].split()) == count, (index, title[1])
        else:
            assert not asked and not forced
        if kind != "nothing":
            assert re.search(r"^you received: ", hand, re.M)
    # The seed is one where the person both chooses and is forced in these hands.
    assert {"chooses", "forced"} <= seen, seen


def test_the_person_bombs_a_bots_play_out_of_turn_S_BOMB_3(start: Start) -> None:
    """Seat 1 (a bot) leads a straight; before seat 2 (on turn) acts, the person holding
    four Aces gets one short question, and `b` bombs: the bomb lands out of turn and the
    bots go on after it (S-BOMB-6: with seat 1, the seat after the bomber)."""
    table = start("--seed", "1", "--set", "game.target=100")
    prompt = first_question(table, "bomb?")
    assert prompt == "seat 0, bomb? > "
    assert re.search(r"^    1: 9t 8s 7p 6s 5t 4j\n", table.before, re.M)
    assert table.before.rstrip().endswith(
        "seat 0 may bomb out of turn: Bomb? At Ap As Aj · b bombs, Enter lets it stand"
    )
    # Nobody acted between the straight and the question: seat 2 had not played yet.
    assert not re.search(r"^    [23]: ", table.before.split("1: 9t 8s 7p 6s 5t 4j")[-1], re.M)
    table.answer("b")
    assert table.question() == "seat 0, your play > "
    assert re.search(
        r"^    0: At Ap As Aj BOMB\n    1: pass\n    2: pass\n    3: pass\n", table.before, re.M
    )
    assert re.search(r"^  0: At Ap As Aj$", table.before, re.M)  # on the trick, on top


def test_enter_lets_a_bomb_stand_and_a_seat_without_one_is_never_asked(start: Start) -> None:
    table = start("--seed", "1", "--set", "game.target=100")
    first_question(table, "bomb?")
    table.answer("")
    prompt = table.question()
    assert prompt != "seat 0, bomb? > "  # not asked again about the same play
    assert "0: At Ap As Aj" not in table.screen


def test_the_person_calls_tichu_while_the_bots_play_S_CALL_1(start: Start) -> None:
    """After the exchange, before the person's first card, the bots wait a moment before
    each action (--bot-delay): `t` + Enter typed then calls Tichu at once, before seat 1
    leads (S-CALL-1: at any moment before the seat's first card)."""
    table = start("--seed", "1", "--set", "game.target=100", "--bot-delay", "5")
    person = Person()
    while (prompt := table.question()) != "seat 0, 1 card for seat 3 (player 3, opponent) > ":
        table.answer(person(table.screen[: table.position], prompt))
    table.answer(person(table.screen[: table.position], prompt))  # the exchange is done
    table.expect(r"^type t \+ Enter at any time to call Tichu$")  # said once, as play begins
    assert "1: 9t 8s 7p 6s 5t 4j" not in table.screen  # the bots wait: nobody has led yet
    table.answer("t")
    assert table.question() == "seat 0, bomb? > "  # seat 1's straight: four Aces beat it
    before = table.before
    assert re.search(r"^\s*(seat )?0 calls Tichu$", before, re.M), before
    assert before.index("calls Tichu") < before.index("1: 9t 8s 7p 6s 5t 4j")
    assert "not accepted" not in before
    assert table.screen.count("type t + Enter at any time") == 1
    table.answer("")
    table.question()
    assert re.search(r"^cards held: 0 you: \d+ cards, Tichu ·", table.before, re.M)


def test_a_tichu_typed_after_the_first_card_is_refused_S_CALL_1(start: Start) -> None:
    """The bomb is the person's first card; `t` typed after their next play, while the
    bots act, is refused in the rule's words and changes nothing (S-CALL-1)."""
    table = start("--seed", "1", "--set", "game.target=100", "--bot-delay", "0.5")
    first_question(table, "bomb?")
    table.answer("b")
    assert table.question() == "seat 0, your play > "
    table.answer("pass")  # the bots let the bomb stand: the trick is the person's
    assert table.question() == "seat 0, your play > "  # and the lead
    listed = options(table.screen[: table.position]).values()
    plays = [text for text in listed if not text.startswith("pass")]
    # Typed ahead with the play: read between the bots' actions that follow it.
    table.answer(typed(plays[0]) + "\nt")
    table.question()
    assert re.search(
        r"^not accepted: seat 0 has already played a card \(S-CALL-1\)$", table.before, re.M
    ), table.before
    assert "calls Tichu" not in table.screen
    assert not re.search(r"^cards held: 0 you: [^·]*Tichu", table.screen, re.M)
    assert table.screen.count("type t + Enter at any time") == 1  # before the lead only
