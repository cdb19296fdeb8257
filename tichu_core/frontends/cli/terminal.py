"""``tichu play``: one person against bots in the terminal.

The person is one player: it acts for every seat that player controls (the
Threechu shuffler also plays the dummy), and keeps playing as the same player
when seats change between hands (Grand Seigneur reseats by rank). Bots play
every other player. The screen shows only what the person may know: the events
of ``game.events_for(player)`` and, at each decision, ``game.observation(player)``:
the cards each seat holds, the calls, the trick, the wish, the hands the player
may see (its own seats', a dummy marked), the cards its seats received in the
exchange, the scores. Then one question, answered on one line (``help`` lists
the answers of that question):

- a card play: a numbered list (from 1) of the plays and the pass; the answer is
  a number, or the cards typed (``play 5j 5s``, ``5j 5s``, ``4j 5j 6j 7j PH=8``),
  or ``pass``;
- the Grand Tichu decision: ``1`` (or Enter) to see the rest of the cards;
- the exchange: one question per target seat, with the number of cards that
  seat gets: card codes (``2s``; ``Ap As 10t`` where a seat gets several);
- after the Mah Jong, the Dragon or the Dog: a rank to wish for (or ``none``),
  the seat to give the Dragon trick to, the partner to give the lead to.

Calls are never a numbered option, so that a habitual ``1`` never calls: they
are made by their own command, ``tichu`` or ``grand``, at any question of the
seat. ``table`` shows the table again, ``quit`` (or end of input) leaves.

Out of turn (the driver of :mod:`tichu_core.frontends.bots.driver` says when): the
moment a play lands that one of the person's seats may bomb (S-BOMB-3), one short
question, ``Bomb? 4j 4s 4p 4t · b bombs, Enter lets it stand`` (a number where
several bombs beat it), where ``tichu`` calls too (S-CALL-1). A seat without such an
option is never asked, nor is a seat after its own or its partner's play, the Dragon
excepted (tichu_core/frontends/text/bombs.py: the web table's rule too). The driver's
Tichu offer before the first lead is not put to the person as a question of its
own: ``tichu`` is typed at any question instead, and ``t`` + Enter at any moment while
the bots act (S-CALL-1: any moment before the seat's first card). Where the input is a
terminal or a pipe, what was typed is read between two bot actions without waiting
for it (``select`` on the descriptor); while one of the person's seats may still call,
each bot action waits ``bot_delay`` seconds for it (0.5 by default), so that there is a
moment to type. ``t 2`` calls for seat 2, the Threechu
dummy the person plays (T3-5). A call the rules no longer allow is refused in the
engine's words (``seat 0 has already played a card``); nothing else typed then is read
(on a terminal it is said so; a pipe's next line stays for the next question).

A bad answer is explained and the same question asked again: nothing is applied
that the game does not accept, so a typo never changes the game.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import stat
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

import tichu_core as tc
from tichu_core import (
    Action,
    CardsReceived,
    Event,
    ExchangeDone,
    Game,
    HandStarted,
    Observation,
    Pushed,
    TichuError,
    Variant,
)
from tichu_core.frontends.bots import Bot, decide, make_bot
from tichu_core.frontends.bots.driver import BOMB, CALL, Chance, Driver, ask_offer, listens_to
from tichu_core.frontends.text.bombs import bomb_may_matter
from tichu_core.frontends.text.render import (
    CALL_STYLE,
    Transcript,
    card_text,
    ordinal,
    play_text,
    printable,
)

# Observation fields this screen shows in its own words; any other one (a variant's
# titles or ranks, say) is shown as it is, so that nothing the player may know is hidden.
_SHOWN = frozenset(
    {
        "player", "seats", "hand_index", "phase", "dealer", "hand", "hands", "hand_sizes",
        "players", "teams", "titles", "turn", "waiting_for", "trick", "top_seat", "wish", "pending",
        "calls", "grand_tichu_decided", "push_targets", "pushed", "received", "out_order",
        "won_points", "won_cards", "scores", "score_lines", "hands_played",
    }
)  # fmt: skip
_CALLS = {
    "tichu": "Tichu",
    "grand_tichu": "Grand Tichu",
    "grand_tichu+tichu": "Grand Tichu + Tichu",
}
_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]

CARD_SYNTAX = (
    "cards: rank 2..10 (or T), J, Q, K, A + suit j jade, s sword, p pagoda, t star;\n"
    "       MJ Mah Jong, DOG, PH Phoenix, DR Dragon; any case, separated by spaces"
)
COMMANDS = (
    "at every question:\n"
    "  tichu        call Tichu (holding all your cards, before your first card);\n"
    "               t too, but at the wish, where t is a rank\n"
    "  grand        call Grand Tichu (while you have seen only your first cards)\n"
    "  table        show the table again\n"
    "  help         this text\n"
    "  quit         leave the match (end of input, Ctrl-D, leaves too)\n"
    "at any time, also while the bots play:\n"
    "  t + Enter    call Tichu (t 2: for seat 2, the dummy you play), before your first card"
)
# The answers of each kind of question (``help``); the commands follow each.
SYNTAX = {
    "play": (
        "answer with:\n"
        "  3              the option numbered 3 in the list (numbers start at 1)\n"
        "  play 5j 5s     these cards (or just: 5j 5s)\n"
        "  play 4j 5j 6j 7j PH=8\n"
        "                 the Phoenix standing for an 8 (without =8: its best reading)\n"
        "  pass           no card this time (taking the trick if it is yours)\n"
        "  Enter          the only option, when the list has one\n" + CARD_SYNTAX
    ),
    "grand_tichu": (
        "answer with:\n"
        "  1 (or Enter)   no Grand Tichu: take the rest of your cards\n"
        "  grand          call Grand Tichu (with only these cards seen)"
    ),
    "push": (
        "answer with the cards this seat gets, as many as asked:\n"
        "  2s             one card\n"
        "  Ap As 10t      several cards (where a seat gets more than one)\n" + CARD_SYNTAX
    ),
    "wish": (
        "answer with:\n"
        "  7              a rank to wish for: 2..10 (or T), J, Q, K, A\n"
        "  none           no wish (Enter too)"
    ),
    "give": "answer with the number of one of the seats offered, e.g. 3",
    "another_hand": "answer with:\n  yes (or Enter)  another hand\n  no             end the match",
}


class _Leave(Exception):
    """The person leaves: ``quit`` or the end of the input."""


class _Refused(Exception):
    """An answer that is not one: its message says why, the question is asked again."""


def play_in_terminal(
    variant: Variant,
    seat: int = 0,
    seed: int | None = None,
    ask: Callable[[str], str] | None = None,
    console: Console | None = None,
    bot: str = "greedy",
    bot_delay: float = 0.5,
) -> int:
    """A new match of ``variant``: the person plays the player at ``seat`` (of the first
    hand), bots named ``bot`` the others. ``ask`` puts a question and returns the answer
    (default: the terminal's input line; a terminal or a pipe is also read while the bots
    act, each bot action waiting ``bot_delay`` seconds while the person may still call
    Tichu). Returns the exit status."""
    console = console or Console(highlight=False)
    game = Game(variant, seed=seed)
    if not 0 <= seat < game.seats:
        console.print(Text(f"there is no seat {seat}: seats are 0 to {game.seats - 1}", "red"))
        return 2
    player = game.player_at(seat)
    if player is None:
        people = [s for s in range(game.seats) if game.player_at(s) is not None]
        console.print(
            Text(
                f"seat {seat} is a dummy seat, played by the dealer: choose one of seats "
                f"{', '.join(map(str, people))}",
                style="red",
            )
        )
        return 2
    keyboard = None
    if ask is None:
        keyboard = Keyboard.of_stdin()
        ask = keyboard.ask if keyboard is not None else _line_editing_input()
    console.print(
        Text.assemble(
            ("tichu play", "bold"),
            # The name comes from a variant file: no control character reaches the terminal.
            f": {printable(variant.name)} — you are player {player} at seat {seat}; "
            "type help at any question",
        )
    )
    return play_game(
        game, player, ask=ask, console=console, bot=bot, keyboard=keyboard, bot_delay=bot_delay
    )


def _line_editing_input() -> Callable[[str], str]:
    """``input``, with line editing and history where the input is a terminal."""
    if sys.stdin.isatty():
        # Not on every platform: plain input lines then.
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (importing it is what makes input() edit lines)
    return input


def play_game(
    game: Game,
    player: int,
    ask: Callable[[str], str] = input,
    console: Console | None = None,
    bot: str = "greedy",
    keyboard: Keyboard | None = None,
    bot_delay: float = 0.0,
) -> int:
    """Play ``game`` (from wherever it stands) to its end: the person is ``player``.
    ``keyboard``: the input read between bot actions as well (``t`` calls Tichu), each
    bot action waiting up to ``bot_delay`` seconds while the person may still call."""
    person = TerminalPlayer(game, player, ask, console or Console(highlight=False), bot)
    person.keyboard, person.bot_delay = keyboard, bot_delay
    return person.run()


def _is_call_line(line: str) -> bool:
    """Whether a line typed while the bots act is a Tichu call (``t``, ``tichu``, with
    a seat number or not)."""
    words = line.lower().split()
    return bool(words) and words[0] in ("t", "tichu") and len(words) <= 2


class Keyboard:
    """The person's input where it is a terminal or a pipe, whose descriptor ``select``
    can watch: the answer to a question (:meth:`ask`), and what was typed while the bots
    act, read without waiting for it (:meth:`poll`).

    A terminal is read by ``input`` (line editing) at a question, and by the line between
    two bot actions (the terminal hands over whole lines). A pipe is read here only, into
    a buffer of its own, so that a line read ahead is never lost: :meth:`poll` takes the
    next line only when it is a call, else leaves it for the next question."""

    def __init__(self, fd: int, tty: bool) -> None:
        self.fd = fd
        self.tty = tty
        self._buffer = b""  # a pipe's bytes read and not yet taken
        self._ended = False  # the pipe's end is in the buffer
        self._input = _line_editing_input() if tty else input

    @classmethod
    def of_stdin(cls) -> Keyboard | None:
        """The keyboard of the standard input, or None where it is no terminal or pipe
        (a file, a stream without a descriptor) or ``select`` cannot watch it."""
        if sys.platform == "win32":  # select watches sockets only there
            return None
        try:
            fd = sys.stdin.fileno()
            mode = os.fstat(fd).st_mode
        except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
            return None
        if os.isatty(fd):
            return cls(fd, True)
        return cls(fd, False) if stat.S_ISFIFO(mode) else None

    def ask(self, prompt: str) -> str:
        """The answer to a question (EOFError at the end of the input)."""
        if self.tty:
            return self._input(prompt)
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = self._pipe_line(wait=None)
        if line is None:
            raise EOFError
        return line

    def poll(self, wait: float, wanted: Callable[[str], bool] = _is_call_line) -> list[str]:
        """The lines typed since the last look, waiting up to ``wait`` seconds for one (a
        pipe: its next line, only if ``wanted``). EOFError where a terminal's input ended
        (Ctrl-D)."""
        if not self.tty:
            line = self._pipe_line(wait=wait, peek=True)
            if line is None or not wanted(line):
                return []
            self._pipe_line(wait=0.0)  # taken
            return [line]
        if not select.select([self.fd], [], [], wait)[0]:
            return []
        try:
            data = os.read(self.fd, 4096)
        except OSError:  # the terminal went away
            data = b""
        if not data:
            raise EOFError
        return data.decode("utf-8", "replace").splitlines()

    def _pipe_line(self, wait: float | None, peek: bool = False) -> str | None:
        """The pipe's next line (None: none within ``wait`` seconds, or the end); read
        ahead into the buffer, where ``peek`` leaves it."""
        while b"\n" not in self._buffer and not self._ended:
            if wait is not None and not select.select([self.fd], [], [], wait)[0]:
                return None
            data = os.read(self.fd, 4096)
            if data:
                self._buffer += data
            else:
                self._ended = True
        if not self._buffer:
            return None
        line, _, rest = self._buffer.partition(b"\n")
        if not peek:
            self._buffer = rest
        return line.decode("utf-8", "replace").rstrip("\r")


class TerminalPlayer:
    """One person at the table: shows their view, asks, and applies what they answer."""

    def __init__(
        self, game: Game, player: int, ask: Callable[[str], str], console: Console, bot: str
    ) -> None:
        self.game = game
        self.me = player
        self._ask = ask
        self.console = console
        rng = random.Random(game.seed)
        self.bots: dict[int, Bot] = {
            p: make_bot(bot, rng.randrange(1 << 30)) for p in range(game.players) if p != player
        }
        # The person's own stream is already redacted: the transcript may show every
        # card in it (their dealt, pushed and received cards, a hand turned face up).
        self.transcript = Transcript(
            console,
            game.score_lines,
            show_private=True,
            titles=lambda: self.game.observation(self.me).titles,
        )
        self._seen = 0
        # Seat -> (giver -> codes): what the person's seats received in this hand's
        # exchange, shown once it is done and then on the table for the whole hand.
        self.received: dict[int, dict[int, str]] = {}
        # Seat -> (target -> codes): the cards the rules took from the person's seats.
        self.forced: dict[int, dict[int, str]] = {}
        # Who is asked next: the person out of turn too, bots that answer offers.
        bots_asked = listens_to(self.bots)
        self.driver = Driver(game, lambda p: p == self.me or bots_asked(p))
        # Read between bot actions too (play_game sets them): see Keyboard.
        self.keyboard: Keyboard | None = None
        self.bot_delay = 0.0
        self._hinted = -1  # the hand whose play phase was told "t + Enter calls"

    def run(self) -> int:
        game = self.game
        self._catch_up()
        driver = self.driver
        try:
            while (chance := driver.next()) is not None:
                seat = chance.seat
                controller = game.controller(seat)
                if controller != self.me:
                    if self.keyboard is not None and self._listen():
                        continue  # a call typed and made: the question is asked afresh
                    bot = self.bots[controller]
                    if not chance.optional:
                        driver.apply(decide(bot, game, seat))
                    elif (answer := ask_offer(bot, game, chance)) is not None:
                        driver.apply(answer)
                    else:
                        driver.decline(chance)
                        continue
                else:
                    # What the transcript holds back (a deal waiting for its calls) comes
                    # before the question.
                    self.transcript.close()
                    if chance.kind == CALL:
                        # Not asked: the person calls by the `tichu` command, at every
                        # question of the seat (the exchange's, a bomb's out of turn).
                        driver.decline(chance)
                        continue
                    if chance.optional and not self._bomb_may_matter(chance.seat):
                        # Not asked after one's own or partner's play (bar the Dragon).
                        driver.decline(chance)
                        continue
                    if chance.optional:
                        self._offer(chance)
                    else:
                        self._decide(seat)
                self._catch_up()
        except _Leave:
            self.console.print("bye")
            return 0
        except KeyboardInterrupt:
            self.console.print("\nbye")
            return 130
        return 0

    # --- what is typed while the bots act --------------------------------------------------

    def _listen(self) -> bool:
        """Before a bot acts: read what the person typed meanwhile (``t`` + Enter calls
        Tichu); while one of their seats may still call, wait up to ``bot_delay`` seconds
        for it. Whether a call was made."""
        keyboard = self.keyboard
        assert keyboard is not None
        game = self.game
        wait = 0.0
        if game.turn is not None and (callers := self._callers()):
            wait = self.bot_delay
            if self._hinted != game.hand_index:  # once a hand, as the play begins
                self._hinted = game.hand_index
                self.transcript.close()
                dummy = [seat for seat in callers if game.player_at(seat) is None]
                also = f" (t {dummy[0]}: for the dummy)" if dummy else ""
                self.console.print(
                    Text(f"type t + Enter at any time to call Tichu{also}", style=CALL_STYLE)
                )
        try:
            lines = keyboard.poll(wait)
        except EOFError:
            self.console.print()
            raise _Leave from None
        called = False
        for line in lines:
            called = self._typed(line) or called
        return called

    def _callers(self) -> list[int]:
        """The person's seats that may call Tichu now."""
        game = self.game
        return [
            seat
            for seat in range(game.seats)
            if game.controller(seat) == self.me and tc.Tichu(seat) in game.legal_actions(seat)
        ]

    def _typed(self, line: str) -> bool:
        """A line typed while the bots act: whether it made a call."""
        words = line.lower().split()
        if not words:
            return False
        if words[0] in ("quit", "exit"):
            raise _Leave
        game = self.game
        if not _is_call_line(line):
            self._explain(
                f"{line.strip()[:40]!r}: while the bots play, only t + Enter (a Tichu call) "
                "is read; the rest is typed at your next question"
            )
            return False
        seat = game.seat_of(self.me)  # the person's own seat, where no seat is named
        if len(words) == 2:
            seats = [s for s in range(game.seats) if game.controller(s) == self.me]
            if not words[1].isdecimal() or int(words[1]) not in seats:
                self._explain(f"t takes a seat you play: {', '.join(map(str, seats))}")
                return False
            seat = int(words[1])
        if seat is None:
            return False
        try:
            self._apply(tc.Tichu(seat))
        except _Refused as refusal:
            self._explain(str(refusal))
            return False
        self._catch_up()
        return True

    def _catch_up(self) -> None:
        events = self.game.events_for(self.me, since=self._seen)
        self._seen += len(events)
        self.transcript.feed(events)
        self._note_exchange(events)

    def _note_exchange(self, events: Sequence[Event]) -> None:
        """After the exchange, in lines of their own: the cards the rules took from the
        person's seats (GS-6: the best cards, given without a question) and the cards
        those seats received (the transcript leaves out cards a push line shows)."""
        for event in events:
            if isinstance(event, HandStarted):
                self.received, self.forced = {}, {}
            elif isinstance(event, Pushed) and event.forced and event.cards:
                if self.game.controller(event.seat) == self.me:
                    self.forced[event.seat] = dict(event.cards)
            elif isinstance(event, CardsReceived) and self.game.controller(event.seat) == self.me:
                self.received[event.seat] = dict(event.cards)
            elif isinstance(event, ExchangeDone) and (self.received or self.forced):
                self.transcript.close()
                view = self.game.observation(self.me)
                for seat, given in sorted(self.forced.items()):
                    whose = f"{self._whose(seat, view)} had to give {self._your(seat, view)}"
                    self.console.print(
                        Text(f"{whose} best cards: ") + self._from_or_to(given, "to", view),
                        soft_wrap=True,
                    )
                for seat, got in sorted(self.received.items()):
                    self.console.print(
                        Text(f"{self._whose(seat, view)} received: ", style="bold")
                        + self._from_or_to(got, "from", view),
                        soft_wrap=True,
                    )

    def ask(self, prompt: str) -> str:
        try:
            return self._ask(prompt)
        except EOFError:
            # The input ended on the prompt's line (Ctrl-D): the farewell goes below it.
            self.console.print()
            raise _Leave from None

    def _apply(self, action: Action) -> None:
        """Apply an action; the game's refusal (the game unchanged) becomes ``_Refused``."""
        try:
            self.driver.apply(action)
        except (TichuError, ValueError) as error:
            raise _Refused(str(error)) from None

    # --- a chance out of turn ------------------------------------------------------------

    def _bomb_may_matter(self, seat: int) -> bool:
        view = self.game.observation(self.game.controller(seat))
        return bomb_may_matter(view.teams, view.trick, view.top_seat, seat)

    def _offer(self, chance: Chance) -> None:
        """One short question out of turn: a bomb on the play that just landed (Enter
        lets it stand; ``tichu`` calls, and the bomb is asked again)."""
        seat, actions = chance.seat, chance.actions
        assert actions is not None and chance.kind == BOMB
        view = self.game.observation(self.me)
        first = len(actions.fixed)
        bombs = [actions[i] for i in range(first, len(actions))]
        shown = Text(" · ").join(
            (Text(f"{n}) ") if len(bombs) > 1 else Text()) + card_text(b.cards.split())
            for n, b in enumerate(bombs, 1)
            if isinstance(b, tc.Play)
        )
        who = self.who(seat, view)
        choice = "a number bombs" if len(bombs) > 1 else "b bombs"
        self.console.print(
            Text(f"{who} may bomb out of turn: Bomb? ", style="bold")
            + shown
            + Text(f" · {choice}, Enter lets it stand"),
            soft_wrap=True,
        )
        prompt = f"{who}, bomb? > "
        while True:
            word = " ".join(self.ask(prompt).lower().split())
            try:
                if word in ("", "no", "n", "pass"):
                    self.driver.decline(chance)
                elif word in ("help", "?"):
                    bomb = "b or bomb" if len(bombs) == 1 else "the number of a bomb"
                    self.console.print(
                        f"answer with: Enter (let it stand), {bomb}; tichu calls Tichu; "
                        "table; quit",
                        markup=False,
                    )
                    continue
                elif word == "table":
                    show(self.console, self.game.observation(self.me), seat, self.received)
                    continue
                elif word in ("quit", "exit"):
                    raise _Leave
                elif word in ("tichu", "t"):
                    # A bomb still offered is asked again (the driver keeps the seat).
                    self._apply(tc.Tichu(seat))
                elif len(bombs) == 1 and word in ("b", "bomb", "y", "yes", "1"):
                    self._apply(bombs[0])
                elif word.isdecimal() and 1 <= int(word) <= len(bombs):
                    self._apply(bombs[int(word) - 1])
                else:
                    raise _Refused(f"{word!r} is no answer here (help lists them)")
            except _Refused as refusal:
                self._explain(str(refusal))
                continue
            return

    def _explain(self, message: str) -> None:
        # Text, not markup: messages hold brackets ("seats [1, 3]").
        self.console.print(Text(f"not accepted: {message}", style="red"), soft_wrap=True)

    # --- one decision of a seat the person acts for -----------------------------------

    def _decide(self, seat: int) -> None:
        """Ask until one action of ``seat`` is applied (or the person leaves)."""
        view = self.game.observation(self.me)
        actions = self.game.legal_actions(seat)
        fixed = actions.fixed
        if any(isinstance(a, tc.Wish) for a in fixed):
            question: _Question = _WishQuestion(self, seat, view)
        elif any(isinstance(a, tc.GiveTrick | tc.GiveLead) for a in fixed):
            question = _GiftQuestion(self, seat, view, fixed)
        elif any(isinstance(a, tc.AnotherHand) for a in fixed):
            question = _AnotherHandQuestion(self, seat, view)
        elif seat in view.push_targets and len(actions) > len(fixed) + len(actions.combinations):
            # Pushes are thousands: asked target by target, never listed.
            question = _PushQuestion(self, seat, view)
        else:
            question = _ListQuestion(self, seat, view, list(actions))
        show(self.console, view, seat, self.received)
        question.introduce()
        while True:
            answer = self.ask(question.prompt()).strip()
            try:
                decided = self._command(answer, seat, question)
                if decided is None:
                    decided = question.answer(answer)
            except _Refused as refusal:
                self._explain(str(refusal))
                continue
            if decided:
                return

    def _command(self, answer: str, seat: int, question: _Question) -> bool | None:
        """A command of every question: whether it made the decision; None if ``answer``
        is no command."""
        word = " ".join(answer.lower().split())
        # No one-letter shortcuts where a wish is asked: "t" and "q" are ranks there.
        if word in ("help", "?"):
            self.console.print(SYNTAX[question.kind] + "\n" + COMMANDS, markup=False)
        elif word == "table":
            show(self.console, self.game.observation(self.me), seat, self.received)
            question.introduce()
        elif word in ("quit", "exit"):
            raise _Leave
        elif word == "tichu" or (word == "t" and question.kind != "wish"):
            # The question stays: a push half answered keeps its cards.
            self._apply(tc.Tichu(seat))
            self._catch_up()
        elif word in ("grand", "grand tichu"):
            if tc.GrandTichu(seat, True) not in self.game.legal_actions(seat):
                raise _Refused(
                    "no Grand Tichu call now: it is made at the Grand Tichu question, with "
                    "only your first cards seen (S-DEAL-2)"
                )
            self._apply(tc.GrandTichu(seat, True))
            return True
        else:
            return None
        return False

    # --- the words for seats ------------------------------------------------------------

    def seat_name(self, seat: int, view: Observation) -> str:
        """``seat 3 (player 3, opponent)``: who sits there, as the person sees it."""
        player = view.players[seat]
        if player is None:
            facts = ["dummy"]
        elif player == self.me:
            facts = ["you"]
        else:
            facts = [f"player {player}"]
        if seat in view.titles:  # GS-5: Great Lord ... Wretch
            facts.append(view.titles[seat])
        if seat not in view.seats and len(set(view.teams)) < len(view.teams):
            # Partners only exist where teams hold more than one seat.
            mine = {view.teams[s] for s in view.seats}
            facts.append("partner" if view.teams[seat] in mine else "opponent")
        return f"seat {seat} ({', '.join(facts)})"

    def _whose(self, seat: int, view: Observation) -> str:
        return f"the dummy (seat {seat})" if view.players[seat] is None else "you"

    def _your(self, seat: int, view: Observation) -> str:
        return "the dummy's" if view.players[seat] is None else "your"

    def _from_or_to(self, cards: dict[int, str], word: str, view: Observation) -> Text:
        """``Aj from seat 2 (player 2, partner) · 4t from seat 1 (...)``."""
        return Text(" · ").join(
            card_text(codes.split()) + Text(f" {word} {self.seat_name(other, view)}")
            for other, codes in sorted(cards.items())
        )

    def who(self, seat: int, view: Observation) -> str:
        """How a question names the seat it is for."""
        return f"seat {seat} (dummy)" if view.players[seat] is None else f"seat {seat}"


# --------------------------------------------------------------------------- questions


class _Question:
    """One decision of one seat: what it says first, its prompt, and how it reads an
    answer (applying the action, or raising ``_Refused``)."""

    kind = ""

    def __init__(self, person: TerminalPlayer, seat: int, view: Observation) -> None:
        self.person = person
        self.seat = seat
        self.view = view
        self.console = person.console

    def introduce(self) -> None:
        """The options and a reminder of the answers, before the first prompt."""

    def prompt(self) -> str:
        raise NotImplementedError

    def answer(self, text: str) -> bool:
        """Read an answer (``_Refused`` if it is none): whether the decision is made."""
        raise NotImplementedError

    def hint(self, text: str) -> None:
        self.console.print(Text(text, style="dim"), soft_wrap=True)

    def call_hint(self) -> None:
        """A call the seat may make now is said, not listed (a ``1`` never calls)."""
        if tc.Tichu(self.seat) in self.person.game.legal_actions(self.seat):
            who = "you" if self.view.players[self.seat] is not None else f"seat {self.seat}"
            self.console.print(
                Text(f"{who} may call Tichu now: type ", style=CALL_STYLE)
                + Text("tichu", style="bold")
            )


class _ListQuestion(_Question):
    """A card play or the Grand Tichu decision: numbered options from 1, never a call."""

    def __init__(
        self, person: TerminalPlayer, seat: int, view: Observation, actions: list[Action]
    ) -> None:
        super().__init__(person, seat, view)
        self.grand = any(isinstance(a, tc.GrandTichu) for a in actions)
        self.kind = "grand_tichu" if self.grand else "play"
        self.options = [
            a
            for a in actions
            if not isinstance(a, tc.Tichu) and not (isinstance(a, tc.GrandTichu) and a.call)
        ]

    def introduce(self) -> None:
        print_options(self.console, [describe(a, self.view) for a in self.options])
        if self.grand:
            self.console.print(
                Text("to call Grand Tichu on these cards, type ", style=CALL_STYLE)
                + Text("grand", style="bold")
            )
            self.hint("answer: 1 (or Enter) for no call; help for more")
        else:
            self.call_hint()
            self.hint(
                f"answer: a number 1..{len(self.options)}, the cards (play 5j 5s), "
                "pass; help for more"
            )

    def prompt(self) -> str:
        what = "Grand Tichu?" if self.grand else "your play"
        return f"{self.person.who(self.seat, self.view)}, {what} > "

    def answer(self, text: str) -> bool:
        self.person._apply(self.read(text))
        return True

    def read(self, text: str) -> Action:
        """The action an answer means (not yet checked by the game)."""
        count = len(self.options)
        tokens = text.replace(",", " ").split()
        if not tokens:
            if count == 1:
                return self.options[0]
            raise _Refused(f"type a number from 1 to {count}, the cards to play, or help")
        if tokens[0].lower() == "play":
            tokens = tokens[1:]
            if not tokens:
                raise _Refused("play which cards? e.g. play 5j 5s (help lists the cards)")
        if len(tokens) == 1 and _is_number(tokens[0]):
            number = int(tokens[0])
            if not 1 <= number <= count:
                raise _Refused(
                    f"there is no option {number}: the options are numbered from 1 to {count}"
                )
            return self.options[number - 1]
        if self.grand:
            if len(tokens) == 1 and tokens[0].lower() in ("no", "n", "pass"):
                return self.options[0]
            raise _Refused("answer 1 for no Grand Tichu, or grand to call it")
        if len(tokens) == 1 and tokens[0].lower() == "pass":
            return tc.Pass(self.seat)
        phoenix = None
        cards = []
        for token in tokens:
            if _is_number(token):
                raise _Refused(_number_not_card(token))
            name, sep, stands = token.partition("=")
            if sep:
                if name.upper() != "PH":
                    raise _Refused(f"{token}: only the Phoenix stands for a rank (PH=8)")
                phoenix = _rank(stands)
            cards.append(name)
        try:
            codes = [str(card) for card in tc.parse_cards(cards)]
        except TichuError as error:
            raise _Refused(f"{error} (help lists the answers)") from None
        return tc.Play(self.seat, codes, phoenix)


class _PushQuestion(_Question):
    """S-EX-1, GS-6: the cards for each target seat, asked one target at a time with the
    number of cards it gets; the push is applied once every target has its cards."""

    kind = "push"

    def __init__(self, person: TerminalPlayer, seat: int, view: Observation) -> None:
        super().__init__(person, seat, view)
        self.targets = sorted(view.push_targets[seat].items())
        self.left = Counter(view.hands.get(seat, []))
        self.given: dict[int, str] = {}

    def introduce(self) -> None:
        names = ", ".join(
            f"{self.person.seat_name(t, self.view)} {_cards(n)}" for t, n in self.targets
        )
        who = self.person.who(self.seat, self.view)
        self.console.print(Text(f"exchange: {who} gives {names}"), soft_wrap=True)
        if self.given:
            so_far = ", ".join(f"{codes} to seat {t}" for t, codes in self.given.items())
            self.console.print(Text(f"chosen so far: {so_far}"), soft_wrap=True)
        self.call_hint()
        self.hint("answer: the card codes for each seat asked (2s; Ap As 10t); help for more")

    def _target(self) -> tuple[int, int]:
        return next((t, n) for t, n in self.targets if t not in self.given)

    def prompt(self) -> str:
        target, count = self._target()
        return (
            f"{self.person.who(self.seat, self.view)}, "
            f"{_cards(count)} for {self.person.seat_name(target, self.view)} > "
        )

    def answer(self, text: str) -> bool:
        target, count = self._target()
        tokens = text.replace(",", " ").split()
        if tokens and tokens[0].lower() == "give":
            tokens = tokens[1:]
        if not tokens:
            raise _Refused(f"type {_cards(count)} for seat {target}, e.g. 2s (help for more)")
        if tokens[0].lower() == "play":
            raise _Refused(f"this is the exchange: type only the cards for seat {target}")
        for token in tokens:
            if _is_number(token):
                raise _Refused(_number_not_card(token))
        try:
            codes = [str(card) for card in tc.parse_cards(tokens)]
        except TichuError as error:
            raise _Refused(f"{error} (help lists the answers)") from None
        if len(codes) != count:
            raise _Refused(f"seat {target} gets {_cards(count)}, not {len(codes)}")
        missing = Counter(codes) - self.left
        if missing:
            held = Counter(self.view.hands.get(self.seat, []))
            code = next(iter(missing))
            if code not in held:
                raise _Refused(f"{code} is not in the hand of seat {self.seat}")
            to = next((t for t, given in self.given.items() if code in given.split()), None)
            if to is not None:
                raise _Refused(f"{code} is already given to seat {to}")
            raise _Refused(f"seat {self.seat} holds {code} only {_times(held[code])}")
        self.left -= Counter(codes)
        self.given[target] = " ".join(codes)
        if len(self.given) < len(self.targets):
            return False  # the next target is asked
        try:
            self.person._apply(tc.Push(self.seat, self.given))
        except _Refused as refusal:
            # A rule of the variant refused the whole push: it is chosen again.
            self.given, self.left = {}, Counter(self.view.hands.get(self.seat, []))
            raise _Refused(f"{refusal}; choose the cards again") from None
        return True


class _WishQuestion(_Question):
    """S-WISH-1: after the Mah Jong, a rank or no wish."""

    kind = "wish"

    def introduce(self) -> None:
        self.hint("answer: a rank (2..10, J, Q, K, A) or none; help for more")

    def prompt(self) -> str:
        return f"{self.person.who(self.seat, self.view)} played the Mah Jong: wish for > "

    def answer(self, text: str) -> bool:
        rank = None if text.lower() in ("", "none", "no", "-", "nothing") else _rank(text)
        self.person._apply(tc.Wish(self.seat, rank))
        return True


class _GiftQuestion(_Question):
    """S-DRAGON-1: the Dragon trick to an opponent; T6-4: the lead to a partner."""

    kind = "give"

    def __init__(
        self, person: TerminalPlayer, seat: int, view: Observation, fixed: list[Action]
    ) -> None:
        super().__init__(person, seat, view)
        self.gifts = [a for a in fixed if isinstance(a, tc.GiveTrick | tc.GiveLead)]
        self.dragon = isinstance(self.gifts[0], tc.GiveTrick)

    def introduce(self) -> None:
        who = self.person.who(self.seat, self.view)
        what = "won the trick with the Dragon" if self.dragon else "played the Dog"
        self.console.print(Text(f"{who} {what}; the choices:"))
        for gift in self.gifts:
            size = self.view.hand_sizes[gift.to]
            self.console.print(
                Text(f"  {self.person.seat_name(gift.to, self.view)}: {_cards(size)} left")
            )
        self.hint("answer: the seat number; help for more")

    def prompt(self) -> str:
        what = "give the trick to seat" if self.dragon else "give the lead to seat"
        return f"{self.person.who(self.seat, self.view)}, {what} > "

    def answer(self, text: str) -> bool:
        seats = [gift.to for gift in self.gifts]
        choices = " or ".join(map(str, seats))
        number = text.lower().removeprefix("seat").strip()
        if not _is_number(number):
            raise _Refused(f"answer with a seat number: {choices}")
        if int(number) not in seats:
            raise _Refused(f"seat {int(number)} is not offered: answer {choices}")
        self.person._apply(type(self.gifts[0])(self.seat, int(number)))
        return True


class _AnotherHandQuestion(_Question):
    """GS-8 (game.lord_decides): the Great Lord decides whether another hand is played."""

    kind = "another_hand"

    def introduce(self) -> None:
        who = self.person.who(self.seat, self.view)
        self.console.print(Text(f"{who} is the Great Lord: another hand, or the end of the match?"))
        self.hint("answer: yes (or Enter) or no; help for more")

    def prompt(self) -> str:
        return f"{self.person.who(self.seat, self.view)}, another hand? > "

    def answer(self, text: str) -> bool:
        word = text.strip().lower()
        if word not in ("", "y", "yes", "n", "no"):
            raise _Refused("answer yes or no")
        self.person._apply(tc.AnotherHand(self.seat, word in ("", "y", "yes")))
        return True


def _is_number(token: str) -> bool:
    return token.lstrip("+-").isdigit()


def _number_not_card(token: str) -> str:
    if token.isdigit() and token in _RANKS:
        suits = ", ".join(f"{token}{suit}" for suit in "jspt")
        return f"{token} is a number, not a card: a card has a suit ({suits})"
    return f"{token} is a number, not a card: cards are like 5j, 10t, Qp, PH (help for more)"


def _rank(text: str) -> str:
    """A rank name from an answer (``t`` and ``10``, ``q`` and ``Q``...), or ``_Refused``."""
    name = text.strip().upper()
    name = "10" if name == "T" else name
    if name not in _RANKS:
        raise _Refused(f"{text.strip() or 'nothing'} is not a rank: one of {', '.join(_RANKS)}")
    return name


def _times(count: int) -> str:
    return "once" if count == 1 else "twice" if count == 2 else f"{count} times"


def _cards(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


# --------------------------------------------------------------------------- the screen


def show(
    console: Console,
    view: Observation,
    acting: int,
    received: dict[int, dict[int, str]] | None = None,
) -> None:
    """The table as ``view``'s player sees it, before ``acting`` decides; ``received``:
    seat -> (giver -> codes) that the person's seats got in this hand's exchange."""
    console.rule(f"hand {view.hand_index + 1} — {view.phase.replace('_', ' ')}")
    seats = []
    for seat, size in enumerate(view.hand_sizes):
        player = view.players[seat]
        name = "dummy" if player is None else "you" if player == view.player else f"player {player}"
        if seat in view.titles:  # GS-5: Great Lord ... Wretch
            name += f" ({view.titles[seat]})"
        facts = [_cards(size)]
        if seat in view.calls:
            facts.append(_CALLS.get(view.calls[seat], view.calls[seat]))
        if seat in view.out_order:
            facts.append(f"out {ordinal(view.out_order.index(seat) + 1)}")
        seats.append(f"{seat} {name}: {', '.join(facts)}")
    console.print(Text("cards held: " + " · ".join(seats)), soft_wrap=True)
    if view.trick:
        console.print("trick:")
        for play in view.trick:
            console.print(Text("  ") + play_text(play["seat"], play["cards"], play["phoenix"]))
    if view.wish:
        console.print(Text(f"open wish: {view.wish}", style="yellow"))
    for seat, cards in sorted(view.hands.items()):
        if not cards:
            continue  # out of the hand
        marks = []
        if view.players[seat] is None:
            marks.append("dummy")
        if seat not in view.seats:
            marks.append("face up")
        label = f"seat {seat}" + (f" ({', '.join(marks)})" if marks else "")
        console.print(Text(f"{label} hand: ") + card_text(cards), soft_wrap=True)
    for target, codes in sorted(view.pushed.items() if view.phase == "exchange" else ()):
        # GS-6: includes the cards the rules take from this seat for the target.
        console.print(Text(f"given to seat {target}: ") + card_text(codes.split()))
    if view.phase == "play":
        for seat, got in sorted((received or {}).items()):
            line = Text(f"seat {seat} received: ")
            line += Text(" · ").join(
                card_text(codes.split()) + Text(f" from {giver}")
                for giver, codes in sorted(got.items())
            )
            console.print(line, soft_wrap=True)
    scores = ", ".join(f"{n} {s}" for n, s in zip(view.score_lines, view.scores, strict=True))
    console.print(Text(f"scores: {scores}"))
    for name, value in view.model_dump(exclude=set(_SHOWN)).items():
        if value not in (None, [], {}):
            console.print(Text(f"{name.replace('_', ' ')}: {value}"))
    who = f"seat {acting}" + (" (dummy)" if view.players[acting] is None else "")
    console.print(Text(f"— {who} to act —", style="bold"))


def print_options(console: Console, options: Sequence[Text]) -> None:
    """Numbered options from 1, in as many columns as the width holds, numbered down
    each column (a lead with 14 cards has a hundred plays)."""
    cells = [Text(f"{number:>3}. ") + text for number, text in enumerate(options, start=1)]
    width = max((cell.cell_len for cell in cells), default=0) + 2
    columns = max(1, min(len(cells), (console.width - 1) // max(width, 1)))
    rows = -(-len(cells) // columns)
    for row in range(rows):
        line = Text()
        for column in range(columns):
            index = column * rows + row
            if index < len(cells):
                cell = cells[index].copy()
                if column < columns - 1 and index + rows < len(cells):
                    cell.pad_right(width - cell.cell_len)
                line += cell
        console.print(line, soft_wrap=True)


def describe(action: Action, view: Observation) -> Text:
    """A listed action in words (plays as coloured cards). Listed are plays, the pass,
    declining Grand Tichu, and any decision a plugin adds; calls, pushes, wishes and
    gifts have questions of their own."""
    if isinstance(action, tc.Play):
        return card_text(action.cards.split(), action.phoenix) + (
            Text(f" (Phoenix as {action.phoenix})") if action.phoenix else Text()
        )
    if isinstance(action, tc.GrandTichu):
        return Text("call Grand Tichu" if action.call else "no Grand Tichu: take the rest")
    if isinstance(action, tc.Pass):
        return Text("pass (take the trick)" if view.top_seat == action.seat else "pass")
    # An action type a plugin added: its name and fields in words.
    fields: dict[str, Any] = {
        k: v for k, v in action._asdict().items() if k not in ("type", "seat")
    }
    words = " ".join(f"{name.replace('_', ' ')} {value}" for name, value in fields.items())
    return Text(f"{action.type.replace('_', ' ')} {words}".strip())
