"""The wire format of the web table (docs/web.md): reading client messages strictly,
limits, the per-connection rate limit, and the JSON of what a seat may do.

Every client message is one JSON object in one WebSocket text frame, with a ``type``
from :data:`REQUESTS` and only the fields that type takes. Anything else is refused
with a :class:`ProtocolError`, whose ``code`` and message the client gets in an
``error`` reply; a refused message changes nothing.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

import tichu_core as tc

PROTOCOL_VERSION = 1

# type -> (required fields, optional fields); `type` and `id` are allowed in every message.
REQUESTS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "variants": (frozenset(), frozenset()),
    "tables": (frozenset(), frozenset()),
    "create": (frozenset({"variant"}), frozenset({"overrides", "bots"})),
    "sit": (frozenset({"table"}), frozenset({"player", "name"})),
    "resume": (frozenset({"table", "token"}), frozenset({"since"})),
    "watch": (frozenset({"table"}), frozenset({"since"})),
    "bots": (frozenset({"table", "bots", "token"}), frozenset()),
    "move": (frozenset({"table", "token", "player"}), frozenset()),
    "replace": (frozenset({"table", "token", "player"}), frozenset({"bot"})),
    "chat": (frozenset({"token", "text"}), frozenset()),
    "records": (frozenset(), frozenset()),
    "act": (frozenset({"token", "action"}), frozenset({"hand"})),
    "ping": (frozenset(), frozenset()),
}


@dataclass(frozen=True)
class Limits:
    """What one connection, one client (an address) and the whole server may do or
    hold; the server refuses the rest with an error reply (docs/web.md section 5)."""

    max_message_bytes: int = 16 * 1024  # one message's text, UTF-8 encoded
    messages_per_second: float = 20.0  # sustained rate per connection ...
    burst: int = 40  # ... with this many at once
    flood_close: int = 100  # messages dropped in a row (rate limit) before closing
    max_tables: int = 1000  # tables a server holds (created by all clients together)
    max_name_chars: int = 32
    # Replies waiting for one client that does not read them: more drops the connection.
    max_outbox_bytes: int = 4 * 1024 * 1024
    # Everything waiting for all clients together: more drops the slowest readers.
    max_outbox_total: int = 64 * 1024 * 1024
    send_timeout: float = 10.0  # seconds one message may take to go out before a drop
    tables_per_client: int = 20  # tables one address created that are still held
    bots_per_client: int = 60  # bots one address seated at tables still held
    max_target: int = 5000  # the largest game.target a `create` may ask for
    max_hands: int = 50  # the largest game.hands a `create` may ask for
    # Every bot of the server together: each action is committed (fsync) on the event
    # loop, about 5 ms on the machine this was measured on (docs/web.md section 6).
    bot_actions_per_second: float = 50.0
    # One bot decision's time on the bot thread (deciding.py); longer is answered for.
    bot_seconds: float = 10.0
    # Connections one client holds at once (WebSockets and HTTP; every loopback address
    # is one client), of which at most `pending_per_client` have not yet sent a whole
    # request (a newer one closes the oldest); a request's headers must come within
    # `header_seconds` (app.py, ConnectionGuard).
    connections_per_client: int = 100
    # Past events a client may be sent again (a `watch` or `resume` from far back):
    # this many a second, this many at once (a longer history when the allowance is
    # full, which it then owes); up to `history_free` at a time cost nothing (History).
    history_events_per_second: float = 2000.0
    history_burst: int = 20000
    history_free: int = 1000
    pending_per_client: int = 32
    header_seconds: float = 10.0
    # Seconds a person's place waits for the person after the last connection to it is
    # gone, before a bot plays it until the person returns (seating.py).
    away_grace: float = 60.0
    # Finished matches' records kept in the store (records.py): when a match ends, the
    # oldest records beyond this many are deleted (and at the server's start).
    max_records: int = 200

    def public(self) -> dict[str, Any]:
        return asdict(self)


class ProtocolError(Exception):
    """A refused request: ``code`` is machine-readable, the message says what was wrong
    and what would be right; ``rule`` is the docs/rules.md id for an illegal action."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule

    def reply(self, request_id: object = None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "error", "code": self.code, "message": str(self)}
        if self.rule is not None:
            message["rule"] = self.rule
        if request_id is not None:
            message["id"] = request_id
        return message


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    counts = Counter(key for key, _ in pairs)
    repeated = sorted(key for key, count in counts.items() if count > 1)
    if repeated:
        raise ProtocolError("bad_json", f"key {repeated[0]!r} is given more than once")
    return dict(pairs)


def _no_constant(name: str) -> Any:
    raise ProtocolError("bad_json", f"{name} is not a JSON number")


def parse_request(text: str | bytes | None, limits: Limits) -> dict[str, Any]:
    """The client message in ``text``, checked: its size, JSON, ``type`` and field names.
    The fields' values are checked where they are used."""
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "send each message as one JSON text frame")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_message_bytes:
        raise ProtocolError(
            "too_large",
            f"the message has {size} bytes; at most {limits.max_message_bytes} are read",
        )
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except ProtocolError:
        raise
    except (ValueError, RecursionError) as error:
        raise ProtocolError("bad_json", f"the message is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in REQUESTS:
        known = ", ".join(sorted(REQUESTS))
        shown = json.dumps(kind)[:40]
        raise ProtocolError("unknown_type", f"unknown message type {shown}; known: {known}")
    request_id = data.get("id")
    if request_id is not None and not (
        (isinstance(request_id, str) and len(request_id) <= 64)
        or (type(request_id) is int and abs(request_id) < 2**53)
    ):
        raise ProtocolError("bad_message", "'id' is a string of at most 64 characters or an int")
    required, optional = REQUESTS[kind]
    missing = sorted(required - data.keys())
    if missing:
        raise ProtocolError("bad_message", f"{kind!r} needs the field(s) {', '.join(missing)}")
    unknown = sorted(data.keys() - required - optional - {"type", "id"})
    if unknown:
        allowed = ", ".join(sorted(required | optional)) or "none"
        raise ProtocolError(
            "bad_message", f"{kind!r} has no field {unknown[0]!r} (its fields: {allowed})"
        )
    return data


def request_id_of(text: str | bytes | None) -> object:
    """The ``id`` of a message that was refused, if it can be read at all (to echo it)."""
    if not isinstance(text, str) or len(text) > 64 * 1024:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict):
        request_id = data.get("id")
        if (isinstance(request_id, str) and len(request_id) <= 64) or (
            type(request_id) is int and abs(request_id) < 2**53
        ):
            return request_id
    return None


def table_id(data: dict[str, Any]) -> str:
    value = data["table"]
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise ProtocolError("bad_message", "'table' is a table id (a string)")
    return value


def whole_number(data: dict[str, Any], key: str, default: int | None = None) -> int | None:
    value = data.get(key, default)
    if value is None:
        return default
    if type(value) is not int or not 0 <= value < 2**31:
        raise ProtocolError("bad_message", f"{key!r} is a whole number >= 0 (got {value!r:.40})")
    return value


def text_field(data: dict[str, Any], key: str, most: int) -> str | None:
    """A short printable text (a name, a token): control characters are refused."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= most:
        raise ProtocolError("bad_message", f"{key!r} is a text of 1 to {most} characters")
    if not value.isprintable():
        raise ProtocolError("bad_message", f"{key!r} may not hold control characters")
    return value


class RateLimiter:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Any = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.tokens = float(burst)
        self.last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next message is allowed."""
        return 0.0 if self.tokens >= 1.0 else math.ceil((1.0 - self.tokens) / self.rate * 100) / 100


class History:
    """Each client's allowance of past events sent again (a token bucket counted in
    events): a spectator re-watching a long match from event 0 twenty times a second
    would otherwise be sent megabytes each time, on the event loop. A request for up
    to ``history_free`` events is always let through; a longer one takes its events
    from the client's allowance, or, when the allowance is full and the history
    longer, takes all of it and leaves the client owing the rest."""

    def __init__(self, limits: Limits, clock: Any = time.monotonic) -> None:
        self.rate = limits.history_events_per_second
        self.burst = float(limits.history_burst)
        self.free = limits.history_free
        self.clock = clock
        self.allowances: dict[str, tuple[float, float]] = {}  # client -> (events, when)

    def take(self, client: str, events: int) -> float:
        """0 when ``events`` past events may be sent to ``client`` now (they are
        counted), else the seconds to wait."""
        if events <= self.free:
            return 0.0
        now: float = self.clock()
        if len(self.allowances) > 10_000:  # forget the clients whose allowance is full
            self.allowances = {
                key: (left, when)
                for key, (left, when) in self.allowances.items()
                if left + (now - when) * self.rate < self.burst
            }
        left, when = self.allowances.get(client, (self.burst, now))
        left = min(self.burst, left + (now - when) * self.rate)
        if events <= left or left >= self.burst:
            self.allowances[client] = (left - events, now)
            return 0.0
        self.allowances[client] = (left, now)
        return math.ceil((min(events, self.burst) - left) / self.rate * 100) / 100


# --------------------------------------------------------------------------- legal actions


_RANKS = {1: "1", 11: "J", 12: "Q", 13: "K", 14: "A"}
# Ranks in the plural as words ("pair of sevens"): "7s" would read as a card code.
_PLURALS = {
    2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights",
    9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings", 14: "aces",
}  # fmt: skip


def _rank(rank: float) -> str:
    return _RANKS.get(int(rank), str(int(rank)))


def _ranks(rank: float) -> str:
    return _PLURALS.get(int(rank), f"{_rank(rank)}s")


def _label(combination: tc.Combination, name: str) -> str:
    """The combination in the words players use, without its cards: ``single 7``,
    ``pair of nines``, ``straight 5-9`` (from its lowest rank to its highest: the Mah
    Jong counts 1), ``pairs 7-9`` (steps), ``full house, three eights``, ``four bomb of
    sixes`` (the kind's name, as the event has it); a Phoenix reading last: ``, Phoenix
    as 8``. A house rule's kind is described under ``name``, its own (``triple run of
    8``)."""
    kind, length, rank = combination.kind, combination.length, combination.rank
    standard: dict[int, str] = {
        tc.Kind.PAIR: f"pair of {_ranks(rank)}",
        tc.Kind.TRIPLE: f"three {_ranks(rank)}",
        tc.Kind.FULL_HOUSE: f"full house, three {_ranks(rank)}",
        tc.Kind.FOUR_BOMB: f"four bomb of {_ranks(rank)}",
        tc.Kind.DOG: "Dog",
    }
    if kind == tc.Kind.SINGLE:
        specials = {1: "Mah Jong", 15: "Dragon"}
        # A Phoenix single is worth half a rank over what it is played on.
        whole = rank == int(rank)
        words = specials.get(int(rank), f"single {_rank(rank)}") if whole else "Phoenix"
    elif kind in (tc.Kind.STRAIGHT, tc.Kind.STRAIGHT_FLUSH):
        low = int(rank) - length + 1
        name = "straight" if kind == tc.Kind.STRAIGHT else "straight flush"
        words = f"{name} {_rank(low)}\u2013{_rank(rank)}"
        if kind == tc.Kind.STRAIGHT_FLUSH:
            words += " (bomb)"
    elif kind == tc.Kind.STEPS:
        words = f"pairs {_rank(int(rank) - length // 2 + 1)}\u2013{_rank(rank)}"
    elif kind in standard:
        words = standard[kind]
    else:
        described: str = combination.describe(name)
        return described.rsplit(": ", 1)[0]
    if combination.phoenix:
        words += f", Phoenix as {_rank(combination.phoenix)}"
    return words


def legal_for(game: tc.Game, seat: int, observation: tc.Observation) -> dict[str, Any]:
    """What ``seat`` may do now, for the player who acts for it (``observation`` is that
    player's): every fixed action and play as its JSON, and, in the exchange, how many
    cards go to which target and the cards it may choose them from. Pushes are not
    listed (a 14-card hand has 2,184): the client builds one from ``push``."""
    legal = game.legal_actions(seat)
    fixed = legal.fixed
    plays = legal.combinations
    actions: list[dict[str, Any]] = [tc.action_to_dict(action) for action in fixed]
    kind_name = game.rulebook.play_rules.kind_name  # a house kind's name (S-COMB-2)
    for index, combination in enumerate(plays):
        entry = tc.action_to_dict(legal[len(fixed) + index])
        entry["label"] = _label(combination, kind_name(combination.kind))
        entry["bomb"] = bool(combination.is_bomb)
        actions.append(entry)
    push = None
    if len(legal) > len(fixed) + len(plays):
        targets = observation.push_targets.get(seat, {})
        cards = list(observation.hands.get(seat, []))
        player = observation.player
        if player is not None and game.seat_of(player) == seat:
            # GS-6: the cards the rules give on this seat's behalf are not chosen.
            for codes in observation.pushed.values():
                for code in codes.split():
                    if code in cards:
                        cards.remove(code)
        push = {"targets": {str(t): n for t, n in targets.items()}, "cards": cards}
    return {"actions": actions, "push": push}
