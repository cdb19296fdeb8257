"""Reader of Brettspielwelt (BSW) Tichu logs, the `.tch` format, into plain typed data.

This module only reads: it checks that the log is well formed (sections, seats, card
codes, hand sizes, a proper deal) but knows no game rules. Replaying a round through
the engine is the caller's business; `deal_for_round` gives the stacked deal for
`Game(variant, deals=[...])`.

A round of the format, as the site writes it (one line each; trailing blanks ignored):

    ---------------Gr.Tichukarten------------------
    (seat)name CARD x8                  four lines: the first 8 cards of each seat
    ---------------Startkarten------------------
    (seat)name CARD x14                 four lines: all 14 cards, before the exchange
    Grosses Tichu: (seat)name           optional, Grand Tichu calls
    Tichu: (seat)name                   optional, Tichu calls made before play
    Schupfen:
    (seat)name gibt: Name1: CARD - Name2: CARD - Name3: CARD -      four lines
    BOMBE: (seat)name (seat)name        optional, seats holding a bomb after the exchange
    ---------------Rundenverlauf------------------
    (seat)name: CARD CARD ...           a play
    (seat)name passt.                   a pass (also the trick winner collecting it)
    Wunsch:RANK                         the wish of the preceding Mah Jong play
    Drache an: (seat)name               the Dragon trick is given to that seat
    Tichu: (seat)name                   a Tichu call during play
    Ergebnis: A - B                     round score: A = seats 0 and 2, B = seats 1 and 3

Seat numbers are authoritative; names are informative only (they may be missing or
change when a substitute takes a seat). Push targets are given by name: a name is looked
up among the names of the round's two card sections; entries whose name names no single
seat take the seats left over in the site's fixed order giver + 1, giver + 2, giver + 3
(the order of every push line in the real logs), and contradictory names (a seat twice,
or the giver) make the whole line fall back to that order.

The history keeps the log's order with two normalisations: every Mah Jong play is
followed by exactly one `BswWish` (rank None when the log has no `Wunsch:` line for it;
a `Wunsch:` line after intervening `Tichu:` lines is moved up next to its play), and a
Tichu call logged again for a seat that already called is dropped.

A log may end inside its last round (an aborted game): that round is still yielded,
marked `incomplete` ("the log ends after ...") with what the log gave of it. A section
cut short is left empty (`first_cards`, `start_cards` or `pushes` is `()`, never a
partial tuple by seat), and a Mah Jong play the log ends on gets no `BswWish`: its
`Wunsch:` line may be the one missing.

Logs are read as a stream: `iter_tch(path)` and `iter_rounds(lines)` parse one round at
a time from the lines as they are read, so that a log of thousands of rounds never is
in memory whole (`read_tch` and `parse_tch` collect the rounds into a `BswGame`).
"""

from __future__ import annotations

import io
import os
import re
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias, TypeVar

from tichu_core.errors import LogFormatError

__all__ = [
    "BswDragonGift",
    "BswEvent",
    "BswGame",
    "BswPass",
    "BswPlay",
    "BswRound",
    "BswTichu",
    "BswWish",
    "bsw_card",
    "deal_for_round",
    "iter_rounds",
    "iter_tch",
    "parse_tch",
    "phoenix_rank",
    "read_tch",
    "read_tch_lines",
]

SEATS = 4
FIRST_CARDS = 8
HAND_CARDS = 14
PUSHES = SEATS - 1
# The longest line a log may have: a real line holds a name and at most 14 cards. A
# longer one (a file that is no log) is an error rather than a line read whole.
MAX_LINE_BYTES = 1 << 16

_SUITS = {"B": "p", "G": "j", "R": "t", "S": "s"}  # blue pagoda, green jade, red star, black sword
_RANKS = {str(n): str(n) for n in range(2, 11)} | {"B": "J", "D": "Q", "K": "K", "A": "A"}
_SPECIALS = {"Dr": "DR", "Ph": "PH", "Hu": "DOG", "Ma": "MJ"}
_RANK_VALUES = {rank: value for value, rank in enumerate(_RANKS.values(), start=2)}
_VALUE_RANKS = {value: rank for rank, value in _RANK_VALUES.items()}
_MAH_JONG_VALUE = 1

_SECTION = re.compile(r"^-{3,}\s*(Gr\.Tichukarten|Startkarten|Rundenverlauf)\s*-{3,}$")
_SEAT_PREFIX = re.compile(r"^\((\d+)\)")
_SEAT_REF = re.compile(r"(?:^|(?<=\s))\((\d+)\)(\S*)")
_RESULT = re.compile(r"^Ergebnis:\s*(-?\d+)\s+-\s+(-?\d+)$")
_FIRST_HEADER = "Gr.Tichukarten"
_START_HEADER = "Startkarten"
_PLAY_HEADER = "Rundenverlauf"
_T = TypeVar("_T")


# --------------------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class BswPlay:
    """A play of one or more cards. `phoenix`: the rank the Phoenix stands for in a
    combination of 2+ cards (None when no Phoenix or a Phoenix single)."""

    seat: int
    cards: tuple[str, ...]
    phoenix: str | None
    line: int


@dataclass(frozen=True, slots=True)
class BswPass:
    """A pass; the trick's top player also logs one when it collects the trick."""

    seat: int
    line: int


@dataclass(frozen=True, slots=True)
class BswWish:
    """The wish after a Mah Jong play; `rank` None = wished nothing (no `Wunsch:` line,
    in which case `line` is the Mah Jong play's line)."""

    rank: str | None
    line: int


@dataclass(frozen=True, slots=True)
class BswDragonGift:
    """The Dragon trick goes to seat `to`."""

    to: int
    line: int


@dataclass(frozen=True, slots=True)
class BswTichu:
    """A Tichu call logged inside the play history."""

    seat: int
    line: int


BswEvent: TypeAlias = BswPlay | BswPass | BswWish | BswDragonGift | BswTichu


@dataclass(frozen=True, slots=True)
class BswRound:
    """One round (hand) of a log. Tuples indexed by seat: `names`, `first_cards` (8 each),
    `start_cards` (14 each, before the exchange), `pushes` (target seat -> card given).
    `tichus_before_play`: Tichu calls logged before the play history section.
    `bomb_holders`: seats the site marked with `BOMBE:` after the exchange.
    `result`: (seats 0+2, seats 1+3), None when the log stops before the round's end;
    `result_line`: the line of its `Ergebnis:` (None with `result`).
    `incomplete`: None, or where the log ends inside this round ("the log ends after the
    14 cards (Startkarten)"); then a section the log cut short is `()`.
    `last_line`: the round's last line in the log (its `Ergebnis:` when complete)."""

    index: int
    names: tuple[str | None, ...]
    first_cards: tuple[tuple[str, ...], ...]
    start_cards: tuple[tuple[str, ...], ...]
    grand_tichus: tuple[int, ...]
    tichus_before_play: tuple[int, ...]
    pushes: tuple[dict[int, str], ...]
    history: tuple[BswEvent, ...]
    result: tuple[int, int] | None
    line: int
    bomb_holders: tuple[int, ...] = field(default=())
    result_line: int | None = None
    incomplete: str | None = None
    last_line: int | None = None


@dataclass(frozen=True, slots=True)
class BswGame:
    """A whole log: its rounds in order; `source` names where it was read from."""

    rounds: tuple[BswRound, ...]
    source: str | None


# --------------------------------------------------------------------------- cards


def bsw_card(token: str) -> str:
    """Our canonical code of a BSW card token (`GB` -> `Jj`, `R10` -> `10t`, `Ma` -> `MJ`).

    Raises `LogFormatError` (without a line) for an unknown token."""
    special = _SPECIALS.get(token)
    if special is not None:
        return special
    suit, rank = _SUITS.get(token[:1]), _RANKS.get(token[1:])
    if suit is None or rank is None:
        raise LogFormatError(
            f"unknown card code {token!r} (expected B/G/R/S + 2..10/B/D/K/A, or Dr Ph Hu Ma)"
        )
    return rank + suit


def _value(code: str) -> int | None:
    """Rank value of one of our codes: 2..14, Mah Jong 1, other specials None."""
    if code == "MJ":
        return _MAH_JONG_VALUE
    if code in ("DOG", "PH", "DR"):
        return None
    return _RANK_VALUES[code[:-1]]


def phoenix_rank(cards: Sequence[str]) -> str | None:
    """The rank the Phoenix stands for in a BSW-listed combination of our card codes.

    BSW lists a combination by falling rank with the Phoenix beside the cards whose rank
    it takes. Pairs and triples: the rank of the other cards. Straights: the rank missing
    inside the run; with no gap, bottom - 1 when the Phoenix is listed last, else top + 1
    (the other end when that one is off the scale: above the Ace, below 2). Steps, and a full
    house of triple + single: the rank of the unpaired card. A full house of two pairs
    (and anything else): by position, the rank of the card listed right after the Phoenix,
    or right before it when it is last. None for no Phoenix, a single Phoenix, or no
    sensible reading.
    """
    if "PH" not in cards or len(cards) < 2:
        return None
    at = list(cards).index("PH")
    values = [_value(code) for i, code in enumerate(cards) if i != at]
    known = [v for v in values if v is not None]
    if len(known) == len(values):
        counts = Counter(known)
        reading = _reading_by_shape(counts, len(cards), at)
        if reading is not None:
            return _VALUE_RANKS.get(reading)
    return _rank_by_position(cards, at)


def _reading_by_shape(counts: Counter[int], size: int, at: int) -> int | None:
    if len(counts) == 1:  # pair, triple (or a malformed same-rank set)
        return next(iter(counts))
    multiplicities = sorted(counts.values())
    if size >= 5 and multiplicities == [1] * (size - 1):
        return _straight_reading(sorted(counts), size, at)
    singles = [value for value, count in counts.items() if count == 1]
    if size == 5 and multiplicities == [1, 3]:  # triple + single: Phoenix pairs the single
        return singles[0]
    if size >= 4 and size % 2 == 0 and multiplicities == [1] + [2] * (len(counts) - 1):
        return singles[0]  # steps: Phoenix completes the unpaired rank
    return None  # two pairs (full house) or no known shape: decided by position


def _straight_reading(values: list[int], size: int, at: int) -> int | None:
    low, high = values[0], values[-1]
    span = high - low + 1
    if span == size:  # one rank missing inside the run: the Phoenix fills it
        return next(v for v in range(low, high + 1) if v not in values)
    if span != size - 1:
        return None
    above = high + 1 if high < max(_VALUE_RANKS) else None
    below = low - 1 if low - 1 >= min(_VALUE_RANKS) else None
    listed_last = at == size - 1
    if listed_last:
        return below if below is not None else above
    return above if above is not None else below


def _rank_by_position(cards: Sequence[str], at: int) -> str | None:
    neighbour = cards[at + 1] if at + 1 < len(cards) else cards[at - 1]
    value = _value(neighbour)
    return _VALUE_RANKS.get(value) if value is not None else None


# --------------------------------------------------------------------------- deal


def deal_for_round(rnd: BswRound) -> list[list[str]]:
    """The stacked deal of a round, per seat in seat order, in dealing order: the 8 Grand
    Tichu cards first, then the 6 others in the order the log lists them."""
    deal = []
    for first, start in zip(rnd.first_cards, rnd.start_cards, strict=True):
        rest = list(start)
        for card in first:
            rest.remove(card)
        deal.append([*first, *rest])
    return deal


# --------------------------------------------------------------------------- parsing


def read_tch(path: str | os.PathLike[str]) -> BswGame:
    """Read and parse a `.tch` file (as `read_tch_lines` decodes it) into all its rounds."""
    return BswGame(rounds=tuple(iter_tch(path)), source=str(path))


def iter_tch(path: str | os.PathLike[str]) -> Iterator[BswRound]:
    """The rounds of a `.tch` file, each parsed as soon as its lines are read: memory
    holds one round, however long the log. A `LogFormatError` comes when its round is
    reached (the rounds before it have been yielded)."""
    return iter_rounds(read_tch_lines(path))


def read_tch_lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of a `.tch` file, read one at a time (each with its line break). A line
    is UTF-8, or Latin-1 where it is not (old logs); a leading byte-order mark is dropped.
    A line longer than `MAX_LINE_BYTES` is a `LogFormatError`."""
    with open(path, "rb") as file:
        number = 0
        while raw := file.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                raise LogFormatError(
                    f"line longer than {MAX_LINE_BYTES} bytes: not a Brettspielwelt log",
                    line=number,
                )
            if number == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                yield raw.decode("latin-1")


def parse_tch(text: str, source: str | None = None) -> BswGame:
    """Parse the text of a `.tch` log. Raises `LogFormatError` naming the line."""
    # newline="\n": pieces end at "\n" only; `_Lines` splits them as str.splitlines does.
    return BswGame(rounds=tuple(iter_rounds(io.StringIO(text, newline="\n"))), source=source)


def iter_rounds(lines: Iterable[str]) -> Iterator[BswRound]:
    """Parse a log given as its lines (pieces of its text, each ending at a line break,
    such as a file's lines), one round at a time; lines are numbered as
    `str.splitlines` numbers the whole text. Raises `LogFormatError` naming the line."""
    cursor = _Lines(lines)
    index = 0
    while not cursor.at_end():
        yield _RoundParser(cursor, index).parse()
        index += 1
    if index == 0:
        raise LogFormatError(
            f"empty log: expected a round starting with a {_FIRST_HEADER} section", line=1
        )


class _Lines:
    """Cursor over the non-blank lines of text read piece by piece, keeping 1-based line
    numbers; it holds only the lines of the piece being read."""

    def __init__(self, pieces: Iterable[str]) -> None:
        self._pieces = iter(pieces)
        self._ready: deque[tuple[int, str]] = deque()
        self._numbered = 0  # lines numbered so far
        self._started = False
        self._done = False

    def _fill(self) -> None:
        while not self._ready and not self._done:
            piece = next(self._pieces, None)
            if piece is None:
                self._done = True
                return
            if not self._started:
                piece = piece.removeprefix("\ufeff")
                self._started = True
            # A piece without its break (an item of a list of lines) is still one line.
            for raw in piece.splitlines() or [""]:
                self._numbered += 1
                if raw.strip():
                    self._ready.append((self._numbered, raw.strip()))

    def at_end(self) -> bool:
        self._fill()
        return not self._ready

    def peek(self) -> tuple[int, str] | None:
        self._fill()
        return self._ready[0] if self._ready else None

    def take(self) -> tuple[int, str]:
        """The next line; `_LogEnded` when there is none (the log ends inside a round)."""
        if self.peek() is None:
            raise _LogEnded
        return self._ready.popleft()


class _LogEnded(Exception):
    """The log ends inside a round: the round is yielded as incomplete."""


def _section(text: str) -> str | None:
    match = _SECTION.match(text)
    return match.group(1) if match else None


def _section_line(name: str) -> str:
    return f"'---------------{name}------------------'"


def _card(token: str, line: int) -> str:
    try:
        return bsw_card(token)
    except LogFormatError as error:
        raise LogFormatError(str(error), line=line) from None


def _seat(digits: str, line: int) -> int:
    seat = int(digits)
    if not 0 <= seat < SEATS:
        raise LogFormatError(f"seat {seat} out of range 0..{SEATS - 1}", line=line)
    return seat


def _split_seat(text: str, line: int, expected: str) -> tuple[int, str]:
    """`(seat)rest` -> (seat, rest)."""
    match = _SEAT_PREFIX.match(text)
    if match is None:
        raise LogFormatError(f"expected {expected}, got {text!r}", line=line)
    return _seat(match.group(1), line), text[match.end() :]


def _seat_refs(text: str, line: int, expected: str) -> list[int]:
    """Seats of a `(seat)name (seat)name ...` list."""
    refs = list(_SEAT_REF.finditer(text))
    if not refs or not text.startswith("("):
        raise LogFormatError(f"expected {expected}, got {text!r}", line=line)
    return [_seat(ref.group(1), line) for ref in refs]


def _name(text: str) -> str | None:
    return text.strip() or None


def _wish_rank(text: str, line: int) -> str:
    rank = _RANKS.get(text.strip())
    if rank is None:
        raise LogFormatError(
            f"bad wish {text.strip()!r}: expected 'Wunsch:' and a rank 2..10, B, D, K or A",
            line=line,
        )
    return rank


def _by_seat(per_seat: dict[int, _T]) -> tuple[_T, ...]:
    """A section's values in seat order; `()` for a section the log cut short."""
    if len(per_seat) != SEATS:
        return ()
    return tuple(per_seat[seat] for seat in range(SEATS))


class _RoundParser:
    def __init__(self, lines: _Lines, index: int) -> None:
        self.lines = lines
        self.index = index
        self.names: dict[int, list[str]] = {seat: [] for seat in range(SEATS)}
        self.grand_tichus: list[int] = []
        self.tichus: list[int] = []
        self.bomb_holders: list[int] = []
        self.pushes: dict[int, dict[int, str]] | None = None
        self.history: list[BswEvent] = []
        self.open_mah_jong: int | None = None  # history index of a play awaiting its wish
        self.result_line: int | None = None
        self.first: dict[int, tuple[str, ...]] = {}
        self.start: dict[int, tuple[str, ...]] = {}
        # Where the round has got to, for an incomplete round: "the log ends after ...".
        self.reached = f"the round's heading {_section_line(_FIRST_HEADER)}"
        self.last_line = 0
        self.play_lines = 0

    def parse(self) -> BswRound:
        header_line = self._expect_section(_FIRST_HEADER, "the start of a round")
        result: tuple[int, int] | None = None
        incomplete: str | None = None
        try:
            first, first_lines = self._card_block(FIRST_CARDS, f"the first {FIRST_CARDS} cards")
            self.first = first
            self.reached = f"the first {FIRST_CARDS} cards ({_FIRST_HEADER})"
            self._expect_section(_START_HEADER, f"after the {_FIRST_HEADER} cards")
            self.reached = f"the heading {_section_line(_START_HEADER)}"
            start, start_lines = self._card_block(HAND_CARDS, f"the {HAND_CARDS} cards")
            self._check_deal(first, first_lines, start, start_lines)
            self.start = start
            self.reached = f"the {HAND_CARDS} cards ({_START_HEADER})"
            self._pre_play(start)
            result = self._play()
        except _LogEnded:
            incomplete = f"the log ends after {self.reached}"
        return BswRound(
            index=self.index,
            names=tuple(self._seat_name(seat) for seat in range(SEATS)),
            first_cards=_by_seat(self.first),
            start_cards=_by_seat(self.start),
            grand_tichus=tuple(self.grand_tichus),
            tichus_before_play=tuple(self.tichus),
            pushes=_by_seat(self.pushes or {}),
            history=tuple(self.history),
            result=result,
            line=header_line,
            bomb_holders=tuple(self.bomb_holders),
            result_line=self.result_line,
            incomplete=incomplete,
            last_line=self.last_line,
        )

    def _take(self) -> tuple[int, str]:
        line, text = self.lines.take()
        self.last_line = line
        return line, text

    # ---- cards

    def _expect_section(self, name: str, where: str) -> int:
        line, text = self._take()
        if _section(text) != name:
            raise LogFormatError(
                f"missing section: expected {_section_line(name)} ({where}), got {text!r}",
                line=line,
            )
        return line

    def _card_block(
        self, size: int, what: str
    ) -> tuple[dict[int, tuple[str, ...]], dict[int, int]]:
        """Four `(seat)name cards` lines: cards and line number per seat."""
        block: dict[int, tuple[str, ...]] = {}
        lines: dict[int, int] = {}
        for _ in range(SEATS):
            line, text = self._take()
            seat, rest = _split_seat(text, line, f"a card line '(seat)name' + {size} cards")
            if seat in block:
                raise LogFormatError(f"seat {seat} listed twice in this card section", line=line)
            name, cards = self._name_and_cards(rest, size, line)
            if name is not None:
                self.names[seat].append(name)
            if len(cards) != size:
                raise LogFormatError(
                    f"seat {seat}: expected {size} cards, found {len(cards)}", line=line
                )
            block[seat] = cards
            lines[seat] = line
            self.reached = f"{what} of {len(block)} of the {SEATS} seats"
        return block, lines

    @staticmethod
    def _name_and_cards(rest: str, size: int, line: int) -> tuple[str | None, tuple[str, ...]]:
        tokens = rest.split()
        glued_name = bool(tokens) and not rest[:1].isspace()
        if glued_name and len(tokens) == size:
            try:  # no name at all and the first card right after the seat: '(0)BB S9 ...'
                return None, tuple(_card(token, line) for token in tokens)
            except LogFormatError:
                pass
        if glued_name:
            return tokens[0], tuple(_card(token, line) for token in tokens[1:])
        return None, tuple(_card(token, line) for token in tokens)

    @staticmethod
    def _check_deal(
        first: dict[int, tuple[str, ...]],
        first_lines: dict[int, int],
        start: dict[int, tuple[str, ...]],
        start_lines: dict[int, int],
    ) -> None:
        """Every card dealt once; each seat's first 8 among its 14."""
        seen: set[str] = set()
        for seat in sorted(start, key=start_lines.__getitem__):
            line = start_lines[seat]
            doubled = sorted(card for card in set(start[seat]) if start[seat].count(card) > 1)
            doubled += sorted(seen & set(start[seat]))
            if doubled:
                raise LogFormatError(
                    f"card {doubled[0]} dealt twice (seat {seat} in {_START_HEADER})", line=line
                )
            seen |= set(start[seat])
        for seat in sorted(first, key=first_lines.__getitem__):
            missing = sorted(set(first[seat]) - set(start[seat]))
            if missing or len(set(first[seat])) != FIRST_CARDS:
                raise LogFormatError(
                    f"seat {seat}: its first {FIRST_CARDS} cards are not {FIRST_CARDS} distinct "
                    f"cards of its {HAND_CARDS} on line {start_lines[seat]} "
                    f"(not among them: {' '.join(missing) or 'none'})",
                    line=first_lines[seat],
                )

    def _seat_name(self, seat: int) -> str | None:
        names = self.names[seat]
        return names[-1] if names else None

    # ---- calls and exchange

    def _pre_play(self, start: dict[int, tuple[str, ...]]) -> None:
        while True:
            line, text = self._take()
            section = _section(text)
            if section == _PLAY_HEADER:
                if self.pushes is None:
                    raise LogFormatError(
                        f"missing section: expected 'Schupfen:' before {_section_line(section)}",
                        line=line,
                    )
                self.reached = f"the heading {_section_line(_PLAY_HEADER)}, before any play"
                return
            if section is not None:
                raise LogFormatError(
                    f"missing section: expected {_section_line(_PLAY_HEADER)}, got {text!r}",
                    line=line,
                )
            if text.startswith("Grosses Tichu:"):
                refs = _seat_refs(text.removeprefix("Grosses Tichu:").strip(), line, "(seat)")
                self.grand_tichus.extend(s for s in refs if s not in self.grand_tichus)
                self.reached = f"the call {text!r}, {self._exchange_stage()}"
            elif text.startswith("Tichu:"):
                refs = _seat_refs(text.removeprefix("Tichu:").strip(), line, "(seat)")
                self.tichus.extend(s for s in refs if s not in self.tichus)
                self.reached = f"the call {text!r}, {self._exchange_stage()}"
            elif text.startswith("BOMBE:"):
                refs = _seat_refs(text.removeprefix("BOMBE:").strip(), line, "(seat)")
                self.bomb_holders.extend(s for s in refs if s not in self.bomb_holders)
                self.reached = f"the line {text!r}, {self._exchange_stage()}"
            elif text == "Schupfen:":
                if self.pushes is not None:
                    raise LogFormatError("second 'Schupfen:' section in one round", line=line)
                self.reached = "'Schupfen:', before the push lines of the exchange"
                self.pushes = self._pushes(start)
                self.reached = f"the exchange ({SEATS} push lines)"
            else:
                raise LogFormatError(
                    "unknown line before the play history: expected 'Grosses Tichu:', "
                    f"'Tichu:', 'Schupfen:', 'BOMBE:' or {_section_line(_PLAY_HEADER)}, "
                    f"got {text!r}",
                    line=line,
                )

    def _exchange_stage(self) -> str:
        return "before the exchange" if self.pushes is None else "after the exchange"

    def _pushes(self, start: dict[int, tuple[str, ...]]) -> dict[int, dict[int, str]]:
        pushes: dict[int, dict[int, str]] = {}
        expected = "a push line '(seat)name gibt: Name: CARD - Name: CARD - Name: CARD -'"
        for _ in range(SEATS):
            line, text = self._take()
            giver, rest = _split_seat(text, line, expected)
            _, marker, entries_text = rest.partition("gibt:")
            if not marker:
                raise LogFormatError(f"expected {expected}, got {text!r}", line=line)
            if giver in pushes:
                raise LogFormatError(f"seat {giver} pushes twice", line=line)
            entries = [e for e in entries_text.strip().removesuffix("-").split(" - ") if e.strip()]
            if len(entries) != PUSHES:
                raise LogFormatError(
                    f"seat {giver}: expected {PUSHES} pushes, found {len(entries)}", line=line
                )
            targets: list[str | None] = []
            cards: list[str] = []
            for entry in entries:
                target_name, colon, token = entry.rpartition(":")
                if not colon or not token.strip():
                    raise LogFormatError(
                        f"bad push {entry.strip()!r}: expected 'Name: CARD'", line=line
                    )
                card = _card(token.strip(), line)
                if card not in start[giver] or card in cards:
                    raise LogFormatError(
                        f"seat {giver} pushes {card}, not one of its {HAND_CARDS} cards "
                        "(or pushed twice)",
                        line=line,
                    )
                targets.append(_name(target_name))
                cards.append(card)
            seats = self._push_targets(giver, targets)
            pushes[giver] = dict(sorted(zip(seats, cards, strict=True)))
            self.reached = f"{len(pushes)} of the {SEATS} push lines of the exchange"
        return pushes

    def _push_targets(self, giver: int, names: list[str | None]) -> list[int]:
        """Seats of the push targets. A name resolves through the round's card lines when
        it names exactly one seat. Unresolved entries take the remaining seats in the
        site's order: giver + 1, giver + 2, giver + 3 (as in every line of the real logs).
        If resolved names contradict each other or name the giver, names are ignored."""
        order = [(giver + step) % SEATS for step in range(1, SEATS)]
        owners: dict[str, set[int]] = {}
        for seat, seat_names in self.names.items():
            for seat_name in seat_names:
                owners.setdefault(seat_name, set()).add(seat)
        resolved: list[int | None] = []
        for name in names:
            seats = owners.get(name, set()) if name is not None else set()
            resolved.append(next(iter(seats)) if len(seats) == 1 else None)
        named = [seat for seat in resolved if seat is not None]
        if giver in named or len(set(named)) != len(named):
            return order
        free = iter(seat for seat in order if seat not in named)
        return [seat if seat is not None else next(free) for seat in resolved]

    # ---- play history

    def _play(self) -> tuple[int, int]:
        while (item := self.lines.peek()) is not None:
            line, text = item
            if _section(text) == _FIRST_HEADER:
                raise LogFormatError(
                    f"missing result: expected 'Ergebnis: A - B' before the next round, got "
                    f"{text!r}",
                    line=line,
                )
            self._take()
            if text.startswith("Ergebnis:"):
                self._close_wish()
                self.result_line = line
                return self._result(text, line)
            self._history_line(text, line)
            self.play_lines += 1
            lines = f"{self.play_lines} line{'s' if self.play_lines > 1 else ''}"
            self.reached = f"{lines} of play, the last {text!r}"
        # The log stops inside this round. A Mah Jong play left open gets no wish: its
        # `Wunsch:` line may be the first line missing.
        raise _LogEnded

    def _history_line(self, text: str, line: int) -> None:
        if text.startswith("Wunsch:"):
            if self.open_mah_jong is None:
                raise LogFormatError("'Wunsch:' without a Mah Jong play before it", line=line)
            rank = _wish_rank(text.removeprefix("Wunsch:"), line)
            self.history.insert(self.open_mah_jong + 1, BswWish(rank, line))
            self.open_mah_jong = None
            return
        if text.startswith("Tichu:"):
            for seat in _seat_refs(text.removeprefix("Tichu:").strip(), line, "(seat)"):
                if not self._called(seat):  # the site may log one call twice
                    self.history.append(BswTichu(seat, line))
            return
        self._close_wish()
        if text.startswith("Drache an:"):
            refs = _seat_refs(text.removeprefix("Drache an:").strip(), line, "(seat)name")
            if len(refs) != 1:
                raise LogFormatError("'Drache an:' must name exactly one seat", line=line)
            self.history.append(BswDragonGift(refs[0], line))
            return
        expected = "a play '(seat)name: CARDS', a pass '(seat)name passt.' or 'Ergebnis: A - B'"
        if not text.startswith("("):
            raise LogFormatError(
                f"unknown line in the play history: expected {expected}, got {text!r}", line=line
            )
        seat, rest = _split_seat(text, line, expected)
        if rest == "passt." or rest.endswith(" passt."):
            self.history.append(BswPass(seat, line))
            return
        _, colon, cards_text = rest.rpartition(":")
        tokens = cards_text.split()
        if not colon or not tokens:
            raise LogFormatError(f"expected {expected}, got {text!r}", line=line)
        cards = tuple(_card(token, line) for token in tokens)
        self.history.append(BswPlay(seat, cards, phoenix_rank(cards), line))
        if "MJ" in cards:
            self.open_mah_jong = len(self.history) - 1

    def _called(self, seat: int) -> bool:
        return seat in self.tichus or any(
            isinstance(event, BswTichu) and event.seat == seat for event in self.history
        )

    def _close_wish(self) -> None:
        """A Mah Jong play with no `Wunsch:` line wished nothing."""
        if self.open_mah_jong is not None:
            play = self.history[self.open_mah_jong]
            self.history.insert(self.open_mah_jong + 1, BswWish(None, play.line))
            self.open_mah_jong = None

    @staticmethod
    def _result(text: str, line: int) -> tuple[int, int]:
        match = _RESULT.match(text)
        if match is None:
            raise LogFormatError(
                f"bad result line {text!r}: expected 'Ergebnis: A - B' with whole numbers",
                line=line,
            )
        return int(match.group(1)), int(match.group(2))
