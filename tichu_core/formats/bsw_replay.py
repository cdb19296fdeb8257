"""Replaying games through the public `Game` API: Brettspielwelt `.tch` logs (parsed by
`tichu_core.formats.bsw`) and our own saved games, into results that say what each action
did and whether a round matches its log. Printing them is the front end's work
(`tichu_core.frontends.cli.replay`, `tichu replay FILE`).

A `.tch` round is an independent hand (seat 0 need not deal nor hold the Mah Jong), so
each round becomes its own `Game` of the `bsw` variant, ended after that one hand, with
the round's cards as a stacked deal. Every logged line is applied as one of our actions
by the seat that logged it; the decisions the log leaves implicit are derived:

- Grand Tichu: `GrandTichu(seat, True)` for each `Grosses Tichu:` seat, and
  `GrandTichu(seat, False)` for the others; then the `Tichu:` calls logged before the
  play (the engine takes them in the exchange), then the four pushes.
- `(s)name: CARDS` -> `Play(s, cards, phoenix=...)`, the Phoenix reading taken from
  its position (`tichu_core.formats.bsw.phoenix_rank`); out of turn it must be a bomb.
- `(s)name passt.` -> `Pass(s)`; for the trick's top player it is the pass that
  collects the trick (docs/rules.md S-TRICK-2).
- `Wunsch:R` -> `Wish(s, R)` by the seat that played the Mah Jong; a Mah Jong play
  without one -> `Wish(s, None)`, only where the engine asks that seat for a wish (a
  Mah Jong that ends the hand leaves nothing to wish).
- `Drache an: (t)` -> `GiveTrick(s, t)` by the seat that played the Dragon.
- `Tichu: (s)` during play -> `Tichu(s)` at that point (a repeated call is one call).

A round is exact when the engine accepts every action, the hand ends exactly at the
log's `Ergebnis:` line, and our hand score, [seats 0+2, seats 1+3], equals it.
Otherwise the round's `Mismatch` names the log line and the reason.

A round the log ends inside (an aborted game) is `incomplete`: it is neither exact nor
a mismatch. What the log gives of it is still replayed where the engine can: from the
deal on once all 14 cards are logged, and the calls, pushes and play once the exchange
is complete; an action the engine refuses there is a mismatch as in any round.

`iter_replay_file` and `replay_rounds` replay a log as a stream, one round after the
other as it is parsed: a front end that prints or writes each round and lets it go holds
one round at a time, however long the log (`replay_file` and `replay_text` collect the
list). Saved-game JSON is parsed one record at a time (`iter_records`), each checked for
depth before anything recursive reads it.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tichu_core.errors import InvalidAction, TichuError
from tichu_core.formats.bsw import (
    BswDragonGift,
    BswGame,
    BswPass,
    BswPlay,
    BswRound,
    BswTichu,
    BswWish,
    deal_for_round,
    iter_rounds,
    iter_tch,
)
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
from tichu_core.game.events import Event, HandStarted
from tichu_core.game.match import Game
from tichu_core.variants import Variant, load_variant

__all__ = [
    "BSW_VARIANT",
    "ONE_HAND",
    "Mismatch",
    "RecordReplay",
    "RoundReplay",
    "Step",
    "iter_records",
    "iter_replay_file",
    "load_records",
    "read_log_text",
    "records_json",
    "replay_file",
    "replay_game",
    "replay_record",
    "replay_round",
    "replay_rounds",
    "replay_text",
    "seat_label",
]

BSW_VARIANT = "bsw"
# One `.tch` round is one hand: the game ends after it, whatever the scores.
ONE_HAND: dict[str, object] = {"game.target": 0, "game.hands": 1}
# Stacked deals leave nothing to chance; a fixed seed keeps the records reproducible.
RECORD_SEED = 0
# How deeply a saved game's JSON may nest: a record nests about 5 levels (variant tables
# by player count); far deeper is no record, and would exhaust the recursion of the JSON
# reader or of what reads the record after it.
MAX_JSON_DEPTH = 32


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
    and the verdict (`mismatch` None and not `incomplete` = exact). `game` is None only
    for an incomplete round whose log ends before all 14 cards of each seat."""

    source: str | None
    round: BswRound
    game: Game | None
    opening: tuple[Event, ...]
    steps: tuple[Step, ...]
    result_line: int | None
    mismatch: Mismatch | None

    @property
    def incomplete(self) -> str | None:
        """None, or where the log ends inside this round: "the log ends after ..."."""
        if self.round.result is not None:
            return None
        return self.round.incomplete or "the log ends before the round's 'Ergebnis:'"

    @property
    def exact(self) -> bool:
        return self.mismatch is None and self.incomplete is None

    @property
    def scores(self) -> tuple[int, int] | None:
        """Our score of the hand [seats 0+2, seats 1+3], None if the hand did not end."""
        if self.game is None or not self.game.hand_results:
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
        """`file:line: round N: reason`, or None when there is no mismatch."""
        if self.mismatch is None:
            return None
        return (
            f"{self.place(self.mismatch.line)}: round {self.round.index + 1}: "
            f"{self.mismatch.reason}"
        )

    def describe_incomplete(self) -> str | None:
        """`file:line: round N: incomplete: the log ends after ...` (the line: the last
        one of the log), or None when the round is complete."""
        if self.incomplete is None:
            return None
        return (
            f"{self.place(self.round.last_line)}: round {self.round.index + 1}: "
            f"incomplete: {self.incomplete}"
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


def seat_label(names: Sequence[str | None], seat: int) -> str:
    """How a round's seat is named (`BswRound.names`): `seat 3 (Dora)`, or `seat 3` when
    the log has no name for it."""
    name = names[seat]
    return f"seat {seat} ({name})" if name else f"seat {seat}"


def replay_round(
    rnd: BswRound,
    source: str | None = None,
    variant: str | os.PathLike[str] = BSW_VARIANT,
    result_line: int | None = None,
) -> RoundReplay:
    """Replay one round as its own one-hand `Game` of `variant` (a name or TOML path;
    one-hand overrides are added). `result_line` is the line of the round's
    `Ergebnis:` (for the place of a score mismatch); without it the round's own
    `result_line`, and without that the last line of the round's history."""
    line = result_line if result_line is not None else rnd.result_line
    return _replay(rnd, source, _one_hand_variant(variant), line)


def replay_game(
    log: BswGame,
    variant: str | os.PathLike[str] = BSW_VARIANT,
    result_lines: Sequence[int] = (),
) -> list[RoundReplay]:
    """Replay every round of a parsed log (`result_lines`: the `Ergebnis:` lines, in
    order; by default each round's own `result_line`)."""
    one_hand = _one_hand_variant(variant)
    return [
        _replay(
            rnd,
            log.source,
            one_hand,
            result_lines[rnd.index] if rnd.index < len(result_lines) else rnd.result_line,
        )
        for rnd in log.rounds
    ]


def replay_rounds(
    rounds: Iterable[BswRound],
    source: str | None = None,
    variant: str | os.PathLike[str] = BSW_VARIANT,
) -> Iterator[RoundReplay]:
    """Replay rounds one at a time, as `rounds` yields them (the variant is loaded once,
    before the first round). A `LogFormatError` of `rounds` passes through when reached."""
    one_hand = _one_hand_variant(variant)
    for rnd in rounds:
        yield _replay(rnd, source, one_hand, rnd.result_line)


def iter_replay_file(
    path: str | os.PathLike[str], variant: str | os.PathLike[str] = BSW_VARIANT
) -> Iterator[RoundReplay]:
    """Read, parse and replay a `.tch` file round by round (`tichu replay` uses it)."""
    return replay_rounds(iter_tch(path), str(path), variant)


def replay_text(
    text: str, source: str | None = None, variant: str | os.PathLike[str] = BSW_VARIANT
) -> list[RoundReplay]:
    """Parse and replay the text of a `.tch` log. Raises `LogFormatError` naming the line."""
    return list(replay_rounds(iter_rounds(io.StringIO(text, newline="\n")), source, variant))


def replay_file(
    path: str | os.PathLike[str], variant: str | os.PathLike[str] = BSW_VARIANT
) -> list[RoundReplay]:
    """Read, parse and replay a `.tch` file."""
    return list(iter_replay_file(path, variant))


def read_log_text(path: str | os.PathLike[str]) -> str:
    """The text of a log file: UTF-8, falling back to Latin-1 for old logs (as `read_tch`)."""
    raw = Path(path).read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


class _Refused(Exception):
    def __init__(self, mismatch: Mismatch) -> None:
        super().__init__(mismatch.reason)
        self.mismatch = mismatch


def _replay(
    rnd: BswRound, source: str | None, variant: Variant, result_line: int | None
) -> RoundReplay:
    if rnd.start_cards and len(rnd.first_cards) == len(rnd.start_cards):
        return _RoundReplayer(rnd, source, variant, result_line).run()
    # No deal: the log ends before all 14 cards of each seat (the parser gives a complete
    # round all of them; a round built otherwise may lack them).
    mismatch = None
    if rnd.result is not None:
        mismatch = Mismatch(rnd.line, "the round has no deal: the cards of each seat are missing")
    return RoundReplay(source, rnd, None, (), (), result_line, mismatch)


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
            # An incomplete round is replayed once its exchange is complete: before
            # that the calls and pushes are not all known.
            if self.rnd.pushes:
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
        return seat_label(self.rnd.names, seat)

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
            # A wish for nothing is derived (no `Wunsch:` line): it is owed only where the
            # engine asks for one, not after a Mah Jong that ended the hand. A logged wish
            # is always applied (and refused if nobody may wish).
            if event.rank is not None or self._wish_owed(seat):
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

    def _wish_owed(self, seat: int) -> bool:
        pending = self.game.observation(None).pending
        return pending is not None and pending["kind"] == "wish" and pending["seat"] == seat

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
            return None  # incomplete: the log ends inside the round (RoundReplay.incomplete)
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
    Each is returned as JSON text for `Game.from_json`. Raises `InvalidAction`, also for
    JSON nested deeper than `MAX_JSON_DEPTH`."""
    return list(iter_records(text))


def iter_records(text: str) -> Iterator[str]:
    """`load_records` one record at a time: an array's items are parsed one after the
    other, so that only one parsed record is in memory besides the text (a whole array
    of thousands of records, parsed, takes ten times its text). A problem further on
    is raised when it is reached."""
    decoder = json.JSONDecoder()
    at = _blank_end(text, 0)
    if not text.startswith("[", at):
        item, at = _decode(decoder, text, at, nesting=0)
        _expect_end(text, at)
        yield json.dumps(item)
        return
    at = _blank_end(text, at + 1)
    if text.startswith("]", at):
        _expect_end(text, at + 1)
        raise InvalidAction("no saved game: the JSON array is empty")
    while True:
        item, at = _decode(decoder, text, at, nesting=1)
        yield json.dumps(item)
        at = _blank_end(text, at)
        if text.startswith(",", at):
            at = _blank_end(text, at + 1)
        elif text.startswith("]", at):
            _expect_end(text, at + 1)
            return
        else:
            raise _invalid("Expecting ',' delimiter", text, at)


_BLANK = re.compile(r"[ \t\n\r]*")


def _blank_end(text: str, at: int) -> int:
    found = _BLANK.match(text, at)
    return found.end() if found else at


def _invalid(message: str, text: str, at: int) -> InvalidAction:
    error = json.JSONDecodeError(message, text, at)
    return InvalidAction(f"not a saved game: invalid JSON: {error}")


def _expect_end(text: str, at: int) -> None:
    if _blank_end(text, at) != len(text):
        raise _invalid("Extra data", text, _blank_end(text, at))


def _decode(decoder: json.JSONDecoder, text: str, at: int, nesting: int) -> tuple[object, int]:
    """One JSON value at `at` (inside `nesting` arrays), checked for depth."""
    too_deep = InvalidAction(
        f"not a saved game: JSON nested more than {MAX_JSON_DEPTH} levels deep "
        "(a saved game nests a few)"
    )
    try:
        item, end = decoder.raw_decode(text, at)
    except RecursionError:
        # The reader recurses per level: thousands of `[` exhaust it before any check.
        raise too_deep from None
    except ValueError as error:
        raise InvalidAction(f"not a saved game: invalid JSON: {error}") from None
    # Checked before anything recursive (json.dumps, the save reader) walks the data.
    if nesting + json_depth(item) > MAX_JSON_DEPTH:
        raise too_deep
    return item, end


def json_depth(data: object) -> int:
    """How deeply the arrays and objects of parsed JSON nest (a scalar: 0), counted
    without recursion."""
    deepest = 0
    todo: list[tuple[object, int]] = [(data, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, list | dict):
            deepest = max(deepest, depth + 1)
            values = item.values() if isinstance(item, dict) else item
            todo.extend((value, depth + 1) for value in values)
    return deepest


def replay_record(text: str, index: int = 0, *, allow_imports: bool = False) -> RecordReplay:
    """Load one saved game with `Game.from_json` and replay its actions step by step on a
    new game, keeping the events of each (for printing). `allow_imports` lets its variant
    import the plugin modules it names by dotted path (`tichu replay --allow-imports`)."""
    try:
        saved = Game.from_json(text, allow_imports=allow_imports)
        data = json.loads(text)
        game = Game(saved.variant, seed=saved.seed, deals=data.get("deals") or None)
    except (TichuError, KeyError, TypeError, ValueError) as error:
        return RecordReplay(index, None, error=f"{type(error).__name__}: {error}")
    opening = tuple(_opening_events(game))
    steps = [Step(None, action, tuple(game.apply(action))) for action in saved.actions]
    return RecordReplay(index, game, opening, tuple(steps))
