"""What a table's parts may see of it (the web table): one small protocol per part.

A :class:`~tichu_core.frontends.web.tables.Table` is helped by parts that it builds
and calls at every change: its stand-ins (seating.py), its bomb window (bombing.py),
its chat (chat.py) and its recorder (records.py). Each part is handed the table, but
sees only the few attributes listed here for it, so that it is read without
tables.py, which imports the parts, never the other way round. ``Table`` and
``Lobby`` have these attributes; mypy checks it where a table passes itself to a part.
"""

from __future__ import annotations

from typing import Protocol

import tichu_core as tc
from tichu_core.frontends.bots import Bot
from tichu_core.frontends.web.protocol import Limits
from tichu_core.frontends.web.store import SeatRecord, StoreWriter, TableRecord, TableStore


class Follower(Protocol):
    """A connection that follows a table: as a player, or as a spectator (None)."""

    player: int | None

    def table_changed(self) -> None: ...


class Placed(Protocol):
    """A table's places (``place_teams``, seating.py)."""

    @property
    def game(self) -> tc.Game | None: ...

    @property
    def players(self) -> int: ...


class Bombed(Protocol):
    """What the bomb window looks at (bombing.py): the last action, who follows."""

    @property
    def version(self) -> int: ...

    @property
    def record(self) -> TableRecord: ...

    @property
    def game(self) -> tc.Game | None: ...

    @property
    def error(self) -> str | None: ...

    @property
    def followers(self) -> set[Follower]: ...


class StoreHolder(Protocol):
    """The lobby's store and the one thread that writes it (chat.py)."""

    @property
    def store(self) -> TableStore: ...

    @property
    def writer(self) -> StoreWriter: ...


class Chatted(Protocol):
    """A table as its chat sees it (chat.py): the names at it and who follows it."""

    @property
    def id(self) -> str: ...

    @property
    def seats(self) -> dict[int, SeatRecord]: ...

    @property
    def followers(self) -> set[Follower]: ...


class RecordsLobby(StoreHolder, Protocol):
    """The lobby as a finished match's record sees it: the store, the games' titles and
    the limits (how many records are kept)."""

    @property
    def titles(self) -> dict[str, str]: ...

    @property
    def limits(self) -> Limits: ...


class Recorded(Placed, Protocol):
    """A table as its recorder sees it (records.py): the match and its places' names."""

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def record(self) -> TableRecord: ...

    @property
    def error(self) -> str | None: ...

    @property
    def seats(self) -> dict[int, SeatRecord]: ...

    @property
    def lobby(self) -> RecordsLobby: ...


class ListingLobby(Protocol):
    """The lobby as the stand-ins see it: its count of changes to the listing (a
    change makes the lobby list its tables again at once)."""

    _generation: int


class Stood(Placed, Protocol):
    """A table as its stand-ins see it (seating.py): the game, the places and who
    follows, the bots playing them, and the table's notice of a change."""

    @property
    def error(self) -> str | None: ...

    @property
    def started(self) -> bool: ...

    @property
    def seats(self) -> dict[int, SeatRecord]: ...

    @property
    def followers(self) -> set[Follower]: ...

    @property
    def bots(self) -> dict[int, Bot]: ...

    @property
    def lobby(self) -> ListingLobby: ...

    def notify(self) -> None: ...

    def start_bots(self) -> None: ...
