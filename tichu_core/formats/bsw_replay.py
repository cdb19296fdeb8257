"""Replaying games through the public `Game` API: Brettspielwelt `.tch` logs and our own
saved games (`tichu replay FILE`).

A `.tch` round is an independent hand (seat 0 need not deal nor hold the Mah Jong), so
each round becomes its own `Game` of the `bsw` variant, ended after that one hand, with
the round's cards as a stacked deal. Every logged line is applied as one of our actions
by the seat that logged it; the decisions the log leaves implicit are derived:

- Grand Tichu: `GrandTichu(seat, True)` for each `Grosses Tichu:` seat, and
  `GrandTichu(seat, False)` for the others; then the `Tichu:` calls logged before the
  play (the engine takes them in the exchange), then the four pushes.
- `(s)name: CARDS` -> `Play(s, cards, phoenix=...)`, the Phoenix reading taken from
  its position (`tichu_core.bsw.phoenix_rank`); out of turn it must be a bomb.
- `(s)name passt.` -> `Pass(s)`; for the trick's top player it is the pass that
  collects the trick (RULES.md S-TRICK-2).
- `Wunsch:R` -> `Wish(s, R)` by the seat that played the Mah Jong; a Mah Jong play
  without one -> `Wish(s, None)`.
- `Drache an: (t)` -> `GiveTrick(s, t)` by the seat that played the Dragon.
- `Tichu: (s)` during play -> `Tichu(s)` at that point (a repeated call is one call).

A round is exact when the engine accepts every action, the hand ends exactly at the
log's `Ergebnis:` line, and our hand score, [seats 0+2, seats 1+3], equals it.
Otherwise the round's `Mismatch` names the log line and the reason.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tichu_core.cardplay.cards import PHOENIX, RANK_OF_NAME, Card, parse_cards
from tichu_core.errors import InvalidAction, LogFormatError, TichuError
from tichu_core.formats.bsw import (
    BswDragonGift,
    BswGame,
    BswPass,
    BswPlay,
    BswRound,
    BswTichu,
    BswWish,
    deal_for_round,
    parse_tch,
)
from tichu_core.frontends.render import ordinal
from tichu_core.game.actions import (
    Action,
    GiveTrick,
    GrandTichu,
    Pass,
    Play,
    Push,
    Tichu,
    Wish,
    action_to_dict,
)
from tichu_core.game.events import (
    CardsDealt,
    Event,
    ExchangeDone,
    GrandTichuDecided,
    HandScored,
    HandStarted,
    LeadPassed,
    MatchOver,
    Played,
    Pushed,
    SeatOut,
    TichuCalled,
    TrickWon,
    WishFulfilled,
    WishMade,
)
from tichu_core.game.match import Game
from tichu_core.variants.models import Variant, load_variant

__all__ = [
    "BSW_VARIANT",
    "ONE_HAND",
    "Mismatch",
    "RecordReplay",
    "RoundReplay",
    "Step",
    "cli_replay",
    "format_record",
    "format_round",
    "load_records",
    "read_log_text",
    "records_json",
    "replay_file",
    "replay_game",
    "replay_record",
    "replay_round",
    "replay_text",
]

BSW_VARIANT = "bsw"
# One `.tch` round is one hand: the game ends after it, whatever the scores.
ONE_HAND: dict[str, object] = {"game.target": 0, "game.hands": 1}
# Stacked deals leave nothing to chance; a fixed seed keeps the records reproducible.
RECORD_SEED = 0
_RESULT_PREFIX = "Ergebnis:"


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action, the log line it came from (None: derived or not from a log)
    and the events it caused."""

    line: int | None
    action: Action
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Mismatch:
    """Where (log line) and why a round does not replay exactly; `action` is the action
    the engine refused, if that is the reason."""

    line: int
    reason: str
    action: Action | None = None


@dataclass(frozen=True, slots=True)
class RoundReplay:
    """A `.tch` round replayed: the one-hand `game` as far as it went, the steps applied,
    and the verdict (`mismatch` None = exact)."""

    source: str | None
    round: BswRound
    game: Game
    opening: tuple[Event, ...]
    steps: tuple[Step, ...]
    result_line: int | None
    mismatch: Mismatch | None

    @property
    def exact(self) -> bool:
        return self.mismatch is None

    @property
    def scores(self) -> tuple[int, int] | None:
        """Our score of the hand [seats 0+2, seats 1+3], None if the hand did not end."""
        if not self.game.hand_results:
            return None
        first, second = self.game.hand_results[0].scores
        return first, second

    @property
    def logged(self) -> tuple[int, int] | None:
        """The log's `Ergebnis: A - B`, None when the log stops inside the round."""
        return self.round.result

    def place(self, line: int | None = None) -> str:
        """`file:line` of `line` (default: the round's first line)."""
        return f"{self.source or '<log>'}:{self.round.line if line is None else line}"

    def describe_mismatch(self) -> str | None:
        """`file:line: round N: reason`, or None when exact."""
        if self.mismatch is None:
            return None
        return (
            f"{self.place(self.mismatch.line)}: round {self.round.index + 1}: "
            f"{self.mismatch.reason}"
        )


@dataclass(frozen=True, slots=True)
class RecordReplay:
    """One of our saved games replayed: its steps, or the error that stopped it."""

    index: int
    game: Game | None
    opening: tuple[Event, ...] = ()
    steps: tuple[Step, ...] = ()
    error: str | None = None


# --------------------------------------------------------------------------- .tch replay


def _one_hand_variant(variant: str | os.PathLike[str]) -> Variant:
    return load_variant(variant, overrides=ONE_HAND)


def replay_round(
    rnd: BswRound,
    source: str | None = None,
    variant: str | os.PathLike[str] = BSW_VARIANT,
    result_line: int | None = None,
) -> RoundReplay:
    """Replay one round as its own one-hand `Game` of `variant` (a name or TOML path;
    one-hand overrides are added). `result_line` is the line of the round's
    `Ergebnis:` (for the place of a score mismatch); without it the last line of the
    round's history stands in."""
    return _RoundReplayer(rnd, source, _one_hand_variant(variant), result_line).run()


def replay_game(
    log: BswGame,
    variant: str | os.PathLike[str] = BSW_VARIANT,
    result_lines: Sequence[int] = (),
) -> list[RoundReplay]:
    """Replay every round of a parsed log (`result_lines`: the `Ergebnis:` lines, in order)."""
    one_hand = _one_hand_variant(variant)
    return [
        _RoundReplayer(
            rnd,
            log.source,
            one_hand,
            result_lines[rnd.index] if rnd.index < len(result_lines) else None,
        ).run()
        for rnd in log.rounds
    ]


def replay_text(
    text: str, source: str | None = None, variant: str | os.PathLike[str] = BSW_VARIANT
) -> list[RoundReplay]:
    """Parse and replay the text of a `.tch` log. Raises `LogFormatError` naming the line."""
    return replay_game(parse_tch(text, source=source), variant, _result_lines(text))


def replay_file(
    path: str | os.PathLike[str], variant: str | os.PathLike[str] = BSW_VARIANT
) -> list[RoundReplay]:
    """Read, parse and replay a `.tch` file."""
    return replay_text(read_log_text(path), str(path), variant)


def read_log_text(path: str | os.PathLike[str]) -> str:
    """The text of a log file: UTF-8, falling back to Latin-1 for old logs (as `read_tch`)."""
    raw = Path(path).read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _result_lines(text: str) -> list[int]:
    """Line numbers of the `Ergebnis:` lines: the n-th closes round n (numbered as the
    parser numbers lines)."""
    lines = text.removeprefix("\ufeff").splitlines()
    return [n for n, raw in enumerate(lines, start=1) if raw.strip().startswith(_RESULT_PREFIX)]


class _Refused(Exception):
    def __init__(self, mismatch: Mismatch) -> None:
        super().__init__(mismatch.reason)
        self.mismatch = mismatch


class _RoundReplayer:
    def __init__(
        self, rnd: BswRound, source: str | None, variant: Variant, result_line: int | None
    ) -> None:
        self.rnd = rnd
        self.source = source
        self.game = Game(variant, seed=RECORD_SEED, deals=[deal_for_round(rnd)])
        self.opening = tuple(_opening_events(self.game))
        self.result_line = result_line
        self.steps: list[Step] = []
        self.mah_jong_seat: int | None = None  # who owes the wish
        self.top_seat: int | None = None  # who played last: the Dragon's giver

    def run(self) -> RoundReplay:
        try:
            self._pre_play()
            for event in self.rnd.history:
                self._event(event)
            mismatch = self._verdict()
        except _Refused as refused:
            mismatch = refused.mismatch
        return RoundReplay(
            source=self.source,
            round=self.rnd,
            game=self.game,
            opening=self.opening,
            steps=tuple(self.steps),
            result_line=self.result_line,
            mismatch=mismatch,
        )

    # ---- applying

    def _who(self, seat: int) -> str:
        name = self.rnd.names[seat]
        return f"seat {seat} ({name})" if name else f"seat {seat}"

    def _apply(self, action: Action, line: int, what: str, logged: bool = True) -> None:
        if self.game.is_over:
            raise _Refused(
                Mismatch(
                    line,
                    f"{what}, but our hand is already over ({self._result_text()})",
                    action,
                )
            )
        try:
            events = self.game.apply(action)
        except TichuError as error:
            raise _Refused(
                Mismatch(
                    line,
                    f"{what}: the engine refuses {json.dumps(action_to_dict(action))}: {error}",
                    action,
                )
            ) from None
        self.steps.append(Step(line if logged else None, action, tuple(events)))

    def _pre_play(self) -> None:
        rnd, line = self.rnd, self.rnd.line
        for seat in range(len(rnd.first_cards)):
            call = seat in rnd.grand_tichus
            what = f"{self._who(seat)} {'calls' if call else 'declines'} Grand Tichu"
            self._apply(GrandTichu(seat, call), line, what, logged=call)
        for seat in rnd.tichus_before_play:
            self._apply(Tichu(seat), line, f"{self._who(seat)} calls Tichu before the play")
        for seat, pushes in enumerate(rnd.pushes):
            given = ", ".join(f"{card} to {target}" for target, card in pushes.items())
            self._apply(Push(seat, pushes), line, f"{self._who(seat)} pushes {given}")

    def _event(self, event: BswPlay | BswPass | BswWish | BswDragonGift | BswTichu) -> None:
        if isinstance(event, BswPlay):
            cards = " ".join(event.cards)
            phoenix = f" (Phoenix as {event.phoenix})" if event.phoenix else ""
            what = f"{self._who(event.seat)} plays {cards}{phoenix}"
            self._apply(Play(event.seat, list(event.cards), event.phoenix), event.line, what)
            self.top_seat = event.seat
            if "MJ" in event.cards:
                self.mah_jong_seat = event.seat
        elif isinstance(event, BswPass):
            what = f"{self._who(event.seat)} passes"
            self._apply(Pass(event.seat), event.line, what)
        elif isinstance(event, BswWish):
            seat = self.mah_jong_seat
            wished = f"wishes {event.rank}" if event.rank else "wishes nothing"
            if seat is None:
                raise _Refused(Mismatch(event.line, f"a wish ({wished}) without a Mah Jong play"))
            self._apply(Wish(seat, event.rank), event.line, f"{self._who(seat)} {wished}")
            self.mah_jong_seat = None
        elif isinstance(event, BswDragonGift):
            seat = self.top_seat
            if seat is None:
                raise _Refused(Mismatch(event.line, "a Dragon gift before any play"))
            what = f"{self._who(seat)} gives the Dragon trick to seat {event.to}"
            self._apply(GiveTrick(seat, event.to), event.line, what)
        else:
            what = f"{self._who(event.seat)} calls Tichu"
            self._apply(Tichu(event.seat), event.line, what)

    # ---- the end

    def _result_text(self) -> str:
        results = self.game.hand_results
        if not results:
            return "not scored"
        first, second = results[0].scores
        out = ", ".join(str(seat) for seat in results[0].out_order)
        return f"we score {first} - {second}, out order {out}"

    def _state_text(self) -> str:
        """Where an unfinished hand stands: phase, pending decision, who it waits for."""
        seen = self.game.observation(None)
        held = ", ".join(f"{seat}: {size}" for seat, size in enumerate(seen.hand_sizes))
        text = f"phase {seen.phase}, cards held {held}"
        if seen.pending is not None:
            kind = str(seen.pending["kind"]).replace("_", " ")
            text += f", {self._who(int(seen.pending['seat']))} still owes a {kind} decision"
        waiting = ", ".join(self._who(seat) for seat in self.game.waiting_for)
        return f"{text}; waiting for {waiting or 'nobody'}"

    def _verdict(self) -> Mismatch | None:
        rnd = self.rnd
        last = rnd.history[-1].line if rnd.history else rnd.line
        if rnd.result is None:
            state = self._result_text() if self.game.is_over else self._state_text()
            return Mismatch(last, f"the log stops inside the round (no 'Ergebnis:'; {state})")
        line = self.result_line if self.result_line is not None else last
        logged = f"Ergebnis: {rnd.result[0]} - {rnd.result[1]}"
        if not self.game.is_over:
            return Mismatch(
                line,
                f"the log ends the round ({logged}) but our hand is not over: {self._state_text()}",
            )
        results = self.game.hand_results[0]
        if tuple(results.scores) != rnd.result:
            return Mismatch(line, f"{self._result_text()}, but the log says {logged}")
        return None


def _opening_events(game: Game) -> list[Event]:
    """The events of a new game before any action (the start of the first hand), every
    seat's private cards included: the public ones in order, the deal by seat."""
    public = game.events_for(None)
    private: dict[int, Event] = {}
    for player in range(game.players):
        for event in game.events_for(player):
            if event.visible_to is not None:
                private.setdefault(id(event), event)
    started = [e for e in public if isinstance(e, HandStarted)]
    rest = [e for e in public if not isinstance(e, HandStarted)]
    dealt = sorted(private.values(), key=lambda e: getattr(e, "seat", 0))
    return [*started, *dealt, *rest]


# --------------------------------------------------------------------------- our records


def records_json(games: Iterable[Game]) -> str:
    """Several games as one JSON array of `Game.to_json()` records, one per line."""
    return "[\n" + ",\n".join(game.to_json() for game in games) + "\n]\n"


def load_records(text: str) -> list[str]:
    """The saved games of a JSON text: one `Game.to_json()` record, or an array of them.
    Each is returned as JSON text for `Game.from_json`. Raises `InvalidAction`."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise InvalidAction(f"not a saved game: invalid JSON: {error}") from None
    items = data if isinstance(data, list) else [data]
    if not items:
        raise InvalidAction("no saved game: the JSON array is empty")
    return [json.dumps(item) for item in items]


def replay_record(text: str, index: int = 0) -> RecordReplay:
    """Load one saved game with `Game.from_json` and replay its actions step by step on a
    new game, keeping the events of each (for printing)."""
    try:
        saved = Game.from_json(text)
        data = json.loads(text)
        game = Game(saved.variant, seed=saved.seed, deals=data.get("deals") or None)
    except (TichuError, KeyError, TypeError, ValueError) as error:
        return RecordReplay(index, None, error=f"{type(error).__name__}: {error}")
    opening = tuple(_opening_events(game))
    steps = [Step(None, action, tuple(game.apply(action))) for action in saved.actions]
    return RecordReplay(index, game, opening, tuple(steps))


# --------------------------------------------------------------------------- printing


def _card_order(card: Card, phoenix: float) -> tuple[float, int]:
    # As hands are shown: Dragon first, the Phoenix above the Ace (or at the rank it
    # stands for in a combination), Mah Jong and Dog last.
    return (phoenix if card < 8 and card & 3 == PHOENIX else card.rank, int(card))


def _show(cards: Iterable[str], phoenix: str | None = None) -> str:
    """Cards from the highest down; with `phoenix`, the Phoenix beside that rank."""
    stands = RANK_OF_NAME[phoenix] - 0.5 if phoenix is not None else 14.5
    ordered = sorted(parse_cards(list(cards)), key=lambda c: _card_order(c, stands), reverse=True)
    return " ".join(str(card) for card in ordered)


@dataclass
class _Printer:
    """Turns a game's events into readable lines: deal, calls, pushes, one line per
    trick with who played what, and the hand's result."""

    labels: Sequence[str]
    score_lines: Sequence[str]
    show_hands: bool = True
    lines: list[str] = field(default_factory=list)
    dealt: dict[int, list[list[str]]] = field(default_factory=dict)
    grand_tichus: list[int] = field(default_factory=list)
    pushes: dict[int, dict[int, str]] = field(default_factory=dict)
    setup_shown: bool = True
    playing: bool = False
    trick: list[str] = field(default_factory=list)
    tricks: int = 0

    def label(self, seat: int) -> str:
        return self.labels[seat] if seat < len(self.labels) else f"seat {seat}"

    def feed(self, events: Iterable[Event]) -> None:
        for event in events:
            self._event(event)

    def close(self) -> None:
        """Show what is still open (a trick cut short by a mismatch)."""
        self._setup()
        self._trick_line(" (unfinished)")

    def _event(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self.close()
            if self.show_hands:
                self.lines.append(f"  hand {event.hand + 1}, dealer {self.label(event.dealer)}")
            self.dealt, self.grand_tichus, self.pushes = {}, [], {}
            self.setup_shown, self.playing, self.tricks = False, False, 0
        elif isinstance(event, CardsDealt):
            self.dealt.setdefault(event.seat, []).append(event.cards)
        elif isinstance(event, GrandTichuDecided):
            if event.call:
                self.grand_tichus.append(event.seat)
        else:
            self._setup()
            self._play_event(event)

    def _setup(self) -> None:
        if self.setup_shown:
            return
        self.setup_shown = True
        width = max((len(self.label(seat)) for seat in self.dealt), default=0)
        heading = "    deal:"
        for seat in sorted(self.dealt):
            parts = " | ".join(_show(cards) for cards in self.dealt[seat])
            self.lines.append(f"{heading:<10}{self.label(seat):<{width}}  {parts}")
            heading = ""
        if self.grand_tichus:
            called = ", ".join(self.label(seat) for seat in self.grand_tichus)
            self.lines.append(f"    Grand Tichu: {called}")

    def _play_event(self, event: Event) -> None:
        if isinstance(event, TichuCalled):
            if self.playing:
                self.trick.append(f"{event.seat} calls Tichu")
            else:
                self.lines.append(f"    Tichu: {self.label(event.seat)}")
        elif isinstance(event, Pushed):
            if event.cards is not None:
                self.pushes[event.seat] = event.cards
        elif isinstance(event, ExchangeDone):
            self._pushes()
            self.playing = True
            self.lines.append(f"    play ({self.label(event.leader)} leads):")
        elif isinstance(event, Played):
            self.trick.append(self._play_text(event))
        elif isinstance(event, WishMade):
            wish = f"wishes {event.rank}" if event.rank else "wishes nothing"
            self.trick[-1:] = [f"{self.trick[-1]}, {wish}" if self.trick else wish]
        elif isinstance(event, WishFulfilled):
            self.trick[-1:] = [f"{self.trick[-1]} (wish {event.rank} fulfilled)"]
        elif isinstance(event, SeatOut):
            self.trick[-1:] = [f"{self.trick[-1]} (out {ordinal(event.place)})"]
        elif isinstance(event, LeadPassed):
            self._trick_line(f" -> lead to {event.to}")
        elif isinstance(event, TrickWon):
            taker = "takes it" if event.to == event.seat else f"gives it to {event.to}"
            self._trick_line(f" -> {event.seat} {taker} ({event.points} points)")
        elif isinstance(event, HandScored):
            self._trick_line(" (unfinished)")
            self._scored(event)
        elif isinstance(event, MatchOver):
            winners = ", ".join(self.score_lines[w] for w in event.winners)
            self.lines.append(f"  match over: {self._per_line(event.totals)}; won by {winners}")

    @staticmethod
    def _play_text(event: Played) -> str:
        phoenix = event.phoenix if len(event.cards) > 1 else None
        text = f"{event.seat}: {_show(event.cards, phoenix)}"
        if phoenix is not None:
            text += f" (Phoenix as {phoenix})"
        if event.bomb:
            text += " BOMB"
        return text

    def _pushes(self) -> None:
        heading = "    pushes:"
        width = max((len(self.label(seat)) for seat in self.pushes), default=0)
        for seat in sorted(self.pushes):
            given = ", ".join(f"{card} to {to}" for to, card in sorted(self.pushes[seat].items()))
            self.lines.append(f"{heading:<12}{self.label(seat):<{width}}  gives {given}")
            heading = ""

    def _trick_line(self, end: str) -> None:
        if not self.trick:
            return
        self.tricks += 1
        self.lines.append(f"    {self.tricks:>3}. {' · '.join(self.trick)}{end}")
        self.trick = []

    def _per_line(self, values: Sequence[int]) -> str:
        return ", ".join(
            f"{line} {value}" for line, value in zip(self.score_lines, values, strict=True)
        )

    def _scored(self, event: HandScored) -> None:
        out = ", ".join(str(seat) for seat in event.out_order)
        how = (
            "double victory"
            if event.double_victory
            else ("card points " + ", ".join(str(points) for points in event.card_points))
        )
        self.lines.append(f"    result: {self._per_line(event.scores)} (out: {out}; {how})")


def format_round(replay: RoundReplay) -> list[str]:
    """A replayed `.tch` round as readable lines, with its verdict."""
    rnd = replay.round
    labels = [f"{seat} {name}" if name else str(seat) for seat, name in enumerate(rnd.names)]
    printer = _Printer(labels, replay.game.score_lines, show_hands=False)
    printer.lines.append(f"round {rnd.index + 1} ({replay.place()}): {' · '.join(labels)}")
    printer.feed(replay.opening)
    for step in replay.steps:
        printer.feed(e for e in step.events if not isinstance(e, MatchOver))
    printer.close()
    lines = printer.lines
    if replay.logged is not None:
        lines.append(f"    log:    Ergebnis: {replay.logged[0]} - {replay.logged[1]}")
    verdict = replay.describe_mismatch()
    lines.append("    exact" if verdict is None else f"    MISMATCH {verdict}")
    return lines


def format_record(replay: RecordReplay, source: str) -> list[str]:
    """One of our saved games as readable lines."""
    head = f"game {replay.index + 1} ({source})"
    if replay.game is None:
        return [f"{head}: does not load: {replay.error}"]
    game = replay.game
    labels = [f"seat {seat}" for seat in range(game.seats)]
    printer = _Printer(labels, game.score_lines)
    printer.lines.append(
        f"{head}: variant {game.variant.name}, seed {game.seed}, {len(replay.steps)} actions"
    )
    printer.feed(replay.opening)
    for step in replay.steps:
        printer.feed(step.events)
    printer.close()
    if not game.is_over:
        totals = " - ".join(str(score) for score in game.scores)
        waiting = ", ".join(str(seat) for seat in game.waiting_for) or "nobody"
        printer.lines.append(f"  not over: totals {totals}; waiting for {waiting}")
    return printer.lines


# --------------------------------------------------------------------------- command line


def _is_json(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")


def cli_replay(path: str, json_out: str | None = None, verbose: bool = True) -> int:
    """`tichu replay FILE [--json OUT]`: replay a `.tch` log (every round checked against
    its `Ergebnis:`) or our saved game JSON (one record or an array), print it readably
    (`verbose`) and end with a summary line; the mismatches are listed before it.
    `json_out` receives the replayed games as an array of `Game.to_json()` records.
    Returns 0 when everything replays (exactly), else 1."""
    try:
        text = read_log_text(path)
        if _is_json(text):
            return _cli_records(path, text, json_out, verbose)
        replays = replay_text(text, path)
    except (OSError, LogFormatError, InvalidAction) as error:
        print(f"tichu replay: {path}: {error}", file=sys.stderr)
        return 1
    mismatches: list[str] = []
    for replay in replays:
        if verbose:
            print("\n".join(format_round(replay)))
        described = replay.describe_mismatch()
        if described is not None:
            mismatches.append(described)
    if json_out is not None:
        Path(json_out).write_text(records_json(r.game for r in replays), encoding="utf-8")
    for mismatch in mismatches:
        print(f"mismatch: {mismatch}")
    exact = len(replays) - len(mismatches)
    print(f"rounds replayed exactly: {exact}/{len(replays)}")
    return 0 if not mismatches else 1


def _cli_records(path: str, text: str, json_out: str | None, verbose: bool) -> int:
    replays = [replay_record(record, i) for i, record in enumerate(load_records(text))]
    failed = [r for r in replays if r.game is None]
    for replay in replays:
        if verbose or replay.game is None:
            print("\n".join(format_record(replay, path)))
    if json_out is not None:
        games = [r.game for r in replays if r.game is not None]
        Path(json_out).write_text(records_json(games), encoding="utf-8")
    print(f"games replayed: {len(replays) - len(failed)}/{len(replays)}")
    return 0 if not failed else 1
