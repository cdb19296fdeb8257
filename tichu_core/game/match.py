"""The match: the public ``Game`` API of docs/api.md.

Everything a game does is in :class:`~tichu_core.game.core.GameCore`, which may be
compiled. A compiled method would answer an argument of the wrong type with a bare
``TypeError`` before its body runs, so the core takes its users' input as ``object``
and refuses what is wrong itself (``InvalidAction``, ``VariantError``). ``Game``
adds nothing at run time: it states, for type checkers and readers, the types its
users are meant to pass.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from tichu_core.game.core import GameCore

if TYPE_CHECKING:
    from tichu_core.game.actions import Action
    from tichu_core.game.eventlog import Events
    from tichu_core.game.legality import LegalActions
    from tichu_core.game.views import Observation
    from tichu_core.variants import Variant


class Game(GameCore):
    """A whole match of a variant (docs/api.md ``Game``)."""

    if TYPE_CHECKING:  # the core's methods, with the types meant (see the module docstring)

        def __init__(
            self,
            variant: Variant | str,
            seed: int | None = None,
            deals: Iterable[Sequence[Sequence[str | int]]] | None = None,
            *,
            trace: Callable[[str], None] | None = None,
        ) -> None:
            raise NotImplementedError

        def legal_actions(self, seat: int) -> LegalActions:  # type: ignore[override]
            """Every distinct legal action of ``seat`` now (a lazy sequence)."""
            raise NotImplementedError

        def apply(  # type: ignore[override]
            self, action: Action | dict[str, Any] | str | bytes
        ) -> Events:
            """Apply one action; returns its events (a read-only sequence, built when
            first read). Raises InvalidAction /
            IllegalAction / PluginError and then leaves the game exactly as it was."""
            raise NotImplementedError

        def seat_of(self, player: int) -> int | None:  # type: ignore[override]
            raise NotImplementedError

        def player_at(self, seat: int) -> int | None:  # type: ignore[override]
            raise NotImplementedError

        def controller(self, seat: int) -> int:  # type: ignore[override]
            raise NotImplementedError

        def observation(self, player: int | None) -> Observation:  # type: ignore[override]
            """What ``player`` may know now (None: a spectator)."""
            raise NotImplementedError

        def events_for(  # type: ignore[override]
            self, player: int | None, since: int = 0
        ) -> Events:
            """The events ``player`` may see (None: a spectator), from position
            ``since`` of that player's own stream (an ``Events``, as ``apply`` answers)."""
            raise NotImplementedError

        def copy(self, playout: bool = False) -> Game:  # type: ignore[override]
            """An independent game in exactly this state (see GameCore.copy);
            ``playout=True``: a quiet copy that ends with its hand, for rollouts."""
            raise NotImplementedError

        @classmethod
        def from_json(  # type: ignore[override]
            cls, text: str | bytes, *, allow_imports: bool = False
        ) -> Game:
            """Restore a game saved by :meth:`to_json` (replaying its actions)."""
            raise NotImplementedError
