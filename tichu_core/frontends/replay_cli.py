"""`tichu replay FILE`: replays a Brettspielwelt `.tch` log or our saved games
(`tichu_core.formats.bsw_replay`) and prints them through the event `Transcript`, one
line per trick, each `.tch` round with its verdict against the log.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from tichu_core.errors import InvalidAction, LogFormatError
from tichu_core.formats.bsw_replay import (
    RecordReplay,
    RoundReplay,
    load_records,
    read_log_text,
    records_json,
    replay_record,
    replay_text,
    seat_label,
)
from tichu_core.frontends.render import Transcript
from tichu_core.game.events import HandStarted, MatchOver

EXACT_STYLE = "green"
WRONG_STYLE = "bold red"


def _say(console: Console, line: str, style: str = "") -> None:
    # Text, not markup: names from a log may hold brackets.
    console.print(Text(line, style=style), soft_wrap=True)


def show_round(replay: RoundReplay, console: Console) -> None:
    """A replayed `.tch` round: its seats, the hand as far as it went, the log's result
    and the verdict."""
    rnd = replay.round
    seats = " · ".join(
        f"{seat} {name}" if name else str(seat) for seat, name in enumerate(rnd.names)
    )
    _say(console, f"round {rnd.index + 1} ({replay.place()}): {seats}")
    transcript = Transcript(
        console,
        replay.game.score_lines,
        labels=[seat_label(rnd.names, seat) for seat in range(len(rnd.names))],
        by_trick=True,
    )
    # The round's line stands for the hand's heading (the log names no dealer), and its
    # one-hand game ending is no match ending.
    for events in (replay.opening, *(step.events for step in replay.steps)):
        transcript.feed(e for e in events if not isinstance(e, HandStarted | MatchOver))
    transcript.close()
    if replay.logged is not None:
        _say(console, f"  log:    Ergebnis: {replay.logged[0]} - {replay.logged[1]}")
    verdict = replay.describe_mismatch()
    if verdict is None:
        _say(console, "  exact", EXACT_STYLE)
    else:
        _say(console, f"  MISMATCH {verdict}", WRONG_STYLE)


def show_record(replay: RecordReplay, source: str, console: Console) -> None:
    """One of our saved games replayed, or why it does not load."""
    head = f"game {replay.index + 1} ({source})"
    if replay.game is None:
        _say(console, f"{head}: does not load: {replay.error}", WRONG_STYLE)
        return
    game = replay.game
    _say(
        console,
        f"{head}: variant {game.variant.name}, seed {game.seed}, {len(replay.steps)} actions",
    )
    transcript = Transcript(console, game.score_lines, by_trick=True)
    transcript.feed(replay.opening)
    for step in replay.steps:
        transcript.feed(step.events)
    transcript.close()
    if not game.is_over:
        totals = " - ".join(str(score) for score in game.scores)
        waiting = ", ".join(str(seat) for seat in game.waiting_for) or "nobody"
        _say(console, f"  not over: totals {totals}; waiting for {waiting}")


def cli_replay(path: str, json_out: str | None = None, verbose: bool = True) -> int:
    """`tichu replay FILE [--json OUT] [--quiet]`: replay a `.tch` log (every round checked
    against its `Ergebnis:`) or our saved game JSON (one record or an array), print it
    (`verbose`) and end with a summary line; the mismatches are listed before it.
    `json_out` receives the replayed games as an array of `Game.to_json()` records.
    Returns 0 when everything replays (exactly), else 1."""
    console = Console(highlight=False, soft_wrap=True)
    try:
        text = read_log_text(path)
        if _is_json(text):
            return _cli_records(path, text, json_out, verbose, console)
        replays = replay_text(text, path)
    except (OSError, LogFormatError, InvalidAction) as error:
        print(f"tichu replay: {path}: {error}", file=sys.stderr)
        return 1
    mismatches: list[str] = []
    for replay in replays:
        if verbose:
            show_round(replay, console)
        described = replay.describe_mismatch()
        if described is not None:
            mismatches.append(described)
    if json_out is not None:
        Path(json_out).write_text(records_json(r.game for r in replays), encoding="utf-8")
    for mismatch in mismatches:
        _say(console, f"mismatch: {mismatch}", WRONG_STYLE)
    exact = len(replays) - len(mismatches)
    _say(console, f"rounds replayed exactly: {exact}/{len(replays)}")
    return 0 if not mismatches else 1


def _is_json(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")


def _cli_records(
    path: str, text: str, json_out: str | None, verbose: bool, console: Console
) -> int:
    replays = [replay_record(record, i) for i, record in enumerate(load_records(text))]
    failed = [r for r in replays if r.game is None]
    for replay in replays:
        if verbose or replay.game is None:
            show_record(replay, path, console)
    if json_out is not None:
        games = [r.game for r in replays if r.game is not None]
        Path(json_out).write_text(records_json(games), encoding="utf-8")
    _say(console, f"games replayed: {len(replays) - len(failed)}/{len(replays)}")
    return 0 if not failed else 1
