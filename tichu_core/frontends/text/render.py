"""The one renderer of game events, `Transcript`, for `tichu demo`, `tichu play` and
`tichu replay`, and the wording they share for cards, plays and places.

On a terminal cards are coloured by suit and calls, tricks and results stand out;
elsewhere the same lines come out plain.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from rich.console import Console
from rich.text import Text

import tichu_core as tc
from tichu_core import Card, Event, parse_cards, rank_of_name

SUIT_STYLES = {"j": "green", "s": "bold", "p": "blue", "t": "red"}
SPECIAL_STYLES = {"MJ": "magenta", "DOG": "yellow", "PH": "bright_red", "DR": "bright_green"}
CALL_STYLE = "bold yellow"
TRICK_STYLE = "cyan"
RESULT_STYLE = "bold green"
# Where the Phoenix goes in a hand: above the Ace, below the Dragon.
_PHOENIX_ALONE = 14.5
# How a match ended (`MatchOver.termination`), in words.
TERMINATIONS = {
    "target_reached": "target reached",
    "hands_played": "all hands played",
    "lord_decided": "the Great Lord played no further hand",
    "variant_rule": "by a rule of the variant",
}


# Characters that act on a terminal instead of showing: C0 and C1 controls and DEL (escape
# sequences, bell, carriage return), line and paragraph separators, and the bidirectional
# overrides and isolates that reorder the text after them.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escaped(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """Untrusted text (a name or description from a variant file, a player name from a
    log) with every control character shown as its escape (`\\x1b`, `\\x07`), so that
    nothing in it reaches the terminal as a command."""
    return _CONTROL.sub(_escaped, text)


def safe_text(text: str, style: str = "") -> Text:
    """Untrusted text to print on a rich console: `printable`, and a `Text`, so that
    brackets in it are shown as written, never read as markup."""
    return Text(printable(text), style=style)


def match_end_text(target: int, hands: int) -> str:
    """How a match ends, from the options in force (`game.target`, `game.hands`):
    `to 1000 points`, `9 hands`, or both."""
    ends = [f"to {target} points"] if target else []
    if hands:
        ends.append(f"{hands} hand{'s' if hands != 1 else ''}")
    return " or ".join(ends)


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th… (places in the finishing order)."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def ordered(codes: Iterable[str], phoenix: str | None = None) -> list[str]:
    """Card codes as hands are shown, from the Dragon down to the Mah Jong and the Dog;
    with `phoenix` (the rank it stands for in a combination) the Phoenix sits beside
    that rank, after the real cards of it."""
    stands = rank_of_name(phoenix) - 0.5 if phoenix is not None else _PHOENIX_ALONE

    def order(card: Card) -> tuple[float, int]:
        return (stands if card.code == "PH" else card.rank, int(card))

    return [str(card) for card in sorted(parse_cards(list(codes)), key=order, reverse=True)]


def card_text(codes: Iterable[str], phoenix: str | None = None) -> Text:
    """Card codes in `ordered` order, coloured by suit (jade green, sword bold, pagoda
    blue, star red)."""
    text = Text()
    for index, code in enumerate(ordered(codes, phoenix)):
        if index:
            text.append(" ")
        text.append(code, style=SPECIAL_STYLES.get(code) or SUIT_STYLES.get(code[-1], ""))
    return text


def termination_text(termination: str) -> str:
    """Why a match ended, in words (an unknown reason as it is)."""
    return TERMINATIONS.get(termination, termination.replace("_", " "))


def play_text(
    seat: int, cards: Sequence[str], phoenix: str | None = None, bomb: bool = False
) -> Text:
    """One play: `3: 9t 9p 8t 8s 7s PH 6t 6s (Phoenix as 7) BOMB`."""
    text = Text(f"{seat}: ")
    text.append_text(card_text(cards, phoenix))
    if phoenix is not None:
        text.append(f" (Phoenix as {phoenix})")
    if bomb:
        text.append(" BOMB", style="bold red")
    return text


class Transcript:
    """Turns events into lines on a rich console: a heading per hand, the deal and the
    calls, the pushes, the play, the hand's result and the end of the match.

    `labels` name the seats in the lines about the whole hand (default `seat N`, a
    dummy seat `seat N (dummy)`); within the play a seat is its number, as those lines
    are dense. `show_private` shows the cards of the events that carry hidden cards
    (dealt, pushed, received, a hand turned face up): give it every event to watch
    bots or review a game, or a player's own stream (`Game.events_for(player)`, already
    redacted) for that player's screen; without it those cards are never shown.
    `by_trick` puts each trick on one line, for reading a finished game; otherwise
    every event has its own line, to follow a game live. An event type this renderer
    does not know yet (a plugin's) still gets a line with its fields. `titles`, if
    given, says the titles the seats hold in the hand just started (GS-5: Great Lord
    ... Wretch; an observation's `titles`), shown under the hand's heading.
    Call `close` at the end to show what is still open.
    """

    def __init__(
        self,
        console: Console | None = None,
        score_lines: Sequence[str] = (),
        show_private: bool = True,
        labels: Sequence[str] = (),
        by_trick: bool = False,
        titles: Callable[[], Mapping[int, str]] | None = None,
    ) -> None:
        self.console = console or Console(highlight=False, soft_wrap=True)
        # Labels (e.g. player names from a log) and score line names may come from files or
        # plugins: they are made printable once, here.
        self.score_lines = [printable(name) for name in score_lines]
        self.show_private = show_private
        self.labels = [printable(label) for label in labels]
        self.by_trick = by_trick
        self.titles = titles
        self._dealt: dict[int, list[list[str]]] = {}
        self._calls: list[Text] = []
        self._pushed: dict[int, dict[int, str]] = {}
        self._received: dict[int, dict[int, str]] = {}
        # The player at each seat in the running hand (None: a dummy), once known.
        self._players: list[int | None] = []
        self._playing = False
        self._trick: list[Text] = []
        self._tricks = 0

    def _label(self, seat: int) -> str:
        if seat < len(self.labels):
            return self.labels[seat]
        dummy = seat < len(self._players) and self._players[seat] is None
        return f"seat {seat} (dummy)" if dummy else f"seat {seat}"

    def feed(self, events: Iterable[Event]) -> None:
        for event in events:
            self._show(event)

    def close(self) -> None:
        """Show a deal not shown yet and a trick cut short (a replay that stopped)."""
        self._show_deal()
        self._cut_trick()

    # ---- how each event is shown

    def _show(self, event: Event) -> None:
        if isinstance(event, tc.HandStarted):
            self.close()
            self._dealt, self._calls, self._pushed, self._received = {}, [], {}, {}
            self._playing, self._tricks = False, 0
            self._players = list(event.players)
            heading = f"Hand {event.hand + 1} — dealer: {self._label(event.dealer)}"
            self.console.rule(Text(heading))
            # Who sits where, when it is not simply player N at seat N (a dummy seat,
            # or a table reseated by rank, GS-5).
            if self._players != list(range(len(self._players))):
                self._say(
                    "seats: "
                    + " · ".join(
                        f"{seat} {'dummy' if player is None else f'player {player}'}"
                        for seat, player in enumerate(self._players)
                    )
                )
            held = self.titles() if self.titles is not None else {}
            if held:
                self._say(
                    "titles: "
                    + " · ".join(
                        f"{seat} {printable(title)}" for seat, title in sorted(held.items())
                    )
                )
        elif isinstance(event, tc.CardsDealt):
            if self.show_private:
                self._dealt.setdefault(event.seat, []).append(event.cards)
        elif isinstance(event, tc.GrandTichuDecided):
            if event.call:
                call = Text(f"{self._label(event.seat)} calls Grand Tichu", style=CALL_STYLE)
                # The rest of the deal comes after the calls: they wait to be shown under
                # it, unless no deal is shown.
                if self._dealt:
                    self._calls.append(call)
                else:
                    self._say(call)
        else:
            self._show_deal()
            self._show_hand_event(event)

    def _show_hand_event(self, event: Event) -> None:
        if isinstance(event, tc.TichuCalled):
            if self._playing:
                self._in_play(Text(f"{event.seat} calls Tichu", style=CALL_STYLE))
            else:
                self._say(Text(f"{self._label(event.seat)} calls Tichu", style=CALL_STYLE))
        elif isinstance(event, tc.Pushed):
            if self.show_private and event.cards is not None:
                # A seat's chosen push and the cards the rules took (GS-6) add up.
                pushed = self._pushed.setdefault(event.seat, {})
                for target, codes in event.cards.items():
                    pushed[target] = f"{pushed[target]} {codes}" if target in pushed else codes
        elif isinstance(event, tc.PushWithdrawn):
            # S-EX-3: the caller pushes again; its earlier push is void.
            self._pushed.pop(event.seat, None)
            self._say(Text(f"{self._label(event.seat)} takes its pushed cards back"))
        elif isinstance(event, tc.CardsReceived):
            if self.show_private:
                self._received[event.seat] = dict(event.cards)
        elif isinstance(event, tc.HandShown):
            # T3-4: e.g. the dummy turned face up after the exchange (shown after the
            # exchange that comes before it).
            self._show_pushes()
            shown = Text(f"{self._label(event.seat)} is face up", style="bold")
            if self.show_private:
                self._say(shown, ": ", card_text(event.cards))
            else:
                self._say(shown)
        elif isinstance(event, tc.ExchangeDone):
            self._show_pushes()
            self._playing = True
            self._say(f"{self._label(event.leader)} leads")
        elif isinstance(event, tc.Played):
            self._in_play(play_text(event.seat, event.cards, event.phoenix, event.bomb))
        elif isinstance(event, tc.Passed):
            # A trick's line lists its plays; passes there would only repeat who did not play.
            if not self.by_trick:
                self._in_play(Text(f"{event.seat}: pass", style="dim"))
        elif isinstance(event, tc.WishMade):
            self._in_play(Text(f"{event.seat} wishes {event.rank or 'nothing'}"))
        elif isinstance(event, tc.WishFulfilled):
            self._in_play(Text(f"wish {event.rank} fulfilled", style="dim"))
        elif isinstance(event, tc.SeatOut):
            self._in_play(Text(f"{event.seat} out {ordinal(event.place)}", style="bold"))
        elif isinstance(event, tc.LeadPassed):
            # S-DOG-1, T6-4: the Dog gives the lead away; the trick ends with it.
            self._end_trick(
                Text(f"-> {event.seat} gives the lead to {event.to}", style=TRICK_STYLE)
            )
        elif isinstance(event, tc.DragonGiven):
            pass  # the TrickWon that follows says whom the trick goes to
        elif isinstance(event, tc.TrickWon):
            taker = "takes it" if event.to == event.seat else f"gives it to {event.to}"
            self._end_trick(
                Text(f"-> {event.seat} {taker} ({event.points} points)", style=TRICK_STYLE)
            )
        elif isinstance(event, tc.HandScored):
            self._cut_trick()
            self._say(Text(self._result(event), style=RESULT_STYLE))
        elif isinstance(event, tc.AnotherHandDecided):
            # GS-8: the Great Lord's decision between two hands.
            more = "another hand" if event.more else "no further hand"
            self._say(Text(f"the Great Lord ({self._label(event.seat)}) wants {more}"))
        elif isinstance(event, tc.MatchOver):
            names = self._line_names(event.totals)
            winners = " and ".join(names[w] for w in event.winners) or "nobody"
            hands = event.hand + 1
            self.console.rule(
                Text(
                    f"Match over after {hands} hand{'s' if hands != 1 else ''}: "
                    f"{termination_text(event.termination)}"
                )
            )
            # Not in the rule: with many score lines it would be cut short.
            self._say(
                Text(f"totals {self._per_line(event.totals)}; won by {winners}", style=RESULT_STYLE)
            )
        else:
            # A plugin's event: its fields are shown as they are, made printable.
            self._say(safe_text(self._unknown(event), style="dim"))

    def _unknown(self, event: Event) -> str:
        """A line for an event type this renderer has no words for (a plugin's own)."""
        fields = event.model_dump(exclude={"type", "hand", "visible_to"})
        if event.visible_to is not None and not self.show_private:
            return event.type.replace("_", " ")
        shown = ", ".join(f"{name} {value}" for name, value in fields.items())
        return f"{event.type.replace('_', ' ')}: {shown}" if shown else event.type

    def _result(self, event: tc.HandScored) -> str:
        out = ", ".join(str(seat) for seat in event.out_order)
        how = (
            "double victory"
            if event.double_victory
            else "card points " + ", ".join(str(points) for points in event.card_points)
        )
        result = f"result: {self._per_line(event.scores)} (out: {out}; {how})"
        # After the first hand the totals are no longer the hand's scores.
        if event.totals != event.scores:
            result += f"; totals {self._per_line(event.totals)}"
        return result

    # ---- layout

    def _say(self, *parts: str | Text) -> None:
        """A line about the whole hand."""
        text = Text("  ")
        for part in parts:
            text.append(part)
        self.console.print(text, soft_wrap=True)

    def _show_deal(self) -> None:
        width = max((len(self._label(seat)) for seat in self._dealt), default=0)
        for seat in sorted(self._dealt):
            cards = Text(" | ").join(card_text(part) for part in self._dealt[seat])
            self._say(f"{self._label(seat):<{width}} was dealt  ", cards)
        for call in self._calls:
            self._say(call)
        self._dealt, self._calls = {}, []

    def _show_pushes(self) -> None:
        """The chosen pushes, then the cards received that no push line showed: the cards
        the rules give (GS-6: a lower rank's best cards), or a push hidden from this
        screen (another player's)."""
        received = {
            target: {
                giver: codes
                for giver, codes in got.items()
                if self._pushed.get(giver, {}).get(target) != codes
            }
            for target, got in self._received.items()
        }
        received = {target: got for target, got in received.items() if got}
        seats = [*self._pushed, *received]
        width = max((len(self._label(seat)) for seat in seats), default=0)
        for seat in sorted(self._pushed):
            given = Text(", ").join(
                card_text(code.split()) + Text(f" to {target}")
                for target, code in sorted(self._pushed[seat].items())
            )
            self._say(f"{self._label(seat):<{width}} pushes  ", given)
        for seat in sorted(received):
            got = Text(", ").join(
                card_text(code.split()) + Text(f" from {giver}")
                for giver, code in sorted(received[seat].items())
            )
            self._say(f"{self._label(seat):<{width}} receives  ", got)
        self._pushed, self._received = {}, {}

    def _in_play(self, text: Text) -> None:
        """Something in the current trick: its own line, or a part of the trick's line."""
        if self.by_trick:
            self._trick.append(text)
        else:
            self.console.print(Text("    ") + text, soft_wrap=True)

    def _end_trick(self, end: Text) -> None:
        if self.by_trick:
            self._trick_line(end)
        else:
            self._in_play(end)

    def _cut_trick(self) -> None:
        """A trick's line for a trick that ends without a winner (the replay stopped)."""
        if self._trick:
            self._trick_line(Text("(unfinished)", style="dim"))

    def _trick_line(self, end: Text) -> None:
        self._tricks += 1
        line = Text(f"  {self._tricks:>3}. ") + Text(" · ").join(self._trick)
        self.console.print(line + " " + end, soft_wrap=True)
        self._trick = []

    def _line_names(self, values: Sequence[int]) -> list[str]:
        return self.score_lines or [f"line {index}" for index in range(len(values))]

    def _per_line(self, values: Sequence[int]) -> str:
        names = self._line_names(values)
        return ", ".join(f"{name} {value}" for name, value in zip(names, values, strict=True))
