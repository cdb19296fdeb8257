"""A readable transcript of a match from its events (used by ``tichu demo`` and replay).

The transcript is omniscient by default (it shows dealt and pushed cards): it
is for watching bots or reviewing a game, not for a player's screen.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from tichu_core.cardplay.cards import parse_cards
from tichu_core.game.events import (
    CardsDealt,
    DragonGiven,
    Event,
    ExchangeDone,
    GrandTichuDecided,
    HandScored,
    HandStarted,
    LeadPassed,
    MatchOver,
    Passed,
    Played,
    Pushed,
    SeatOut,
    TichuCalled,
    TrickWon,
    WishFulfilled,
    WishMade,
)

SUIT_STYLES = {"j": "green", "s": "bold", "p": "blue", "t": "red"}
SPECIAL_STYLES = {"MJ": "magenta", "DOG": "yellow", "PH": "bright_red", "DR": "bright_green"}


def card_text(codes: Iterable[str]) -> Text:
    """Card codes coloured by suit (jade green, sword bold, pagoda blue, star red)."""
    text = Text()
    for index, code in enumerate(codes):
        if index:
            text.append(" ")
        style = SPECIAL_STYLES.get(code) or SUIT_STYLES.get(code[-1], "")
        text.append(code, style=style)
    return text


class Transcript:
    """Turns events into lines on a rich console."""

    def __init__(
        self,
        console: Console | None = None,
        score_lines: list[str] | None = None,
        show_private: bool = True,
    ) -> None:
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.score_lines = score_lines or []
        self.show_private = show_private
        self._dealt: dict[int, list[str]] = {}
        self._pushed: dict[int, dict[int, str]] = {}

    def _line(self, *parts: str | Text) -> None:
        text = Text()
        for part in parts:
            text.append(part)
        self.console.print(text)

    def feed(self, events: Iterable[Event]) -> None:
        for event in events:
            self._show(event)

    def _show(self, event: Event) -> None:
        say = self._line
        if isinstance(event, HandStarted):
            self._dealt = {}
            self.console.rule(f"Hand {event.hand + 1} — dealer: seat {event.dealer}")
        elif isinstance(event, CardsDealt):
            if self.show_private:
                self._dealt.setdefault(event.seat, []).extend(event.cards)
        elif isinstance(event, GrandTichuDecided):
            if event.call:
                say(Text(f"seat {event.seat} calls GRAND TICHU", style="bold yellow"))
        elif isinstance(event, TichuCalled):
            say(Text(f"seat {event.seat} calls TICHU", style="bold yellow"))
        elif isinstance(event, Pushed):
            if self.show_private and event.cards is not None:
                self._pushed[event.seat] = dict(event.cards)
        elif isinstance(event, ExchangeDone):
            if self.show_private:
                for seat in sorted(self._dealt):
                    dealt = sorted(parse_cards(self._dealt[seat]), reverse=True)
                    say(f"seat {seat} was dealt  ", card_text(str(c) for c in dealt))
                for seat in sorted(self._pushed):
                    given = self._pushed[seat]
                    parts: list[str | Text] = [f"seat {seat} pushes    "]
                    for target, code in sorted(given.items()):
                        parts += [f"→{target} ", card_text([code]), "  "]
                    say(*parts)
            self._pushed = {}
            say(f"seat {event.leader} leads")
        elif isinstance(event, Played):
            label = " BOMB" if event.bomb else ""
            phoenix = f" (Phoenix as {event.phoenix})" if event.phoenix else ""
            say(
                f"  seat {event.seat}: ",
                card_text(event.cards),
                Text(f"  {event.combination.replace('_', ' ')}{label}{phoenix}", style="dim"),
            )
        elif isinstance(event, Passed):
            say(Text(f"  seat {event.seat}: pass", style="dim"))
        elif isinstance(event, WishMade):
            say(f"  seat {event.seat} wishes {event.rank or 'nothing'}")
        elif isinstance(event, WishFulfilled):
            say(Text(f"  wish for {event.rank} fulfilled", style="dim"))
        elif isinstance(event, LeadPassed):
            say(f"  the Dog passes the lead to seat {event.to}")
        elif isinstance(event, DragonGiven):
            say(f"  seat {event.seat} gives the Dragon trick to seat {event.to}")
        elif isinstance(event, TrickWon):
            taker = "" if event.to == event.seat else f" (to seat {event.to})"
            say(Text(f"  — trick to seat {event.seat}{taker}: {event.points} points", style="cyan"))
        elif isinstance(event, SeatOut):
            say(Text(f"  seat {event.seat} is out ({ordinal(event.place)})", style="bold"))
        elif isinstance(event, HandScored):
            names = self.score_lines or [f"line {i}" for i in range(len(event.scores))]
            won = ", ".join(f"{n}: {s:+d}" for n, s in zip(names, event.scores, strict=False))
            totals = ", ".join(f"{n}: {t}" for n, t in zip(names, event.totals, strict=False))
            extra = " (double victory)" if event.double_victory else ""
            say(Text(f"hand scores {won}{extra}; totals {totals}", style="bold green"))
        elif isinstance(event, MatchOver):
            names = self.score_lines or [f"line {i}" for i in range(len(event.totals))]
            winners = " and ".join(names[w] for w in event.winners)
            self.console.rule(f"Match over — {winners} wins with {max(event.totals)}")


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th… (places in the finishing order)."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
