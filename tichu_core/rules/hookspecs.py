"""Rule points: the pluggy hook specifications of the engine.

Project name and entry-point group: ``tichu``. Hooks are called with keyword
arguments. Every hook here is ``firstresult``: plugins are asked newest first
(a variant's own plugins before the built-in standard rules), and the first
answer that is not None wins, so a variant replaces a rule by answering and
leaves it alone by returning None. The standard rules
(:mod:`tichu_core.standard_rules`) answer every hook.

``state`` is the running :class:`tichu_core.hand.HandState`: read it, do not
change it (the engine changes state only after every hook of a step has
answered, so a failing plugin leaves the game as it was).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from tichu_core.game.hand import HandScore, HandState
    from tichu_core.rules.playrules import PlayRules
    from tichu_core.variants.models import Variant

PROJECT = "tichu"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec(firstresult=True)
def tichu_seats(variant: Variant) -> int | None:
    """Number of seats at the table (Threechu: 4 seats for 3 players)."""


@hookspec(firstresult=True)
def tichu_deck(variant: Variant) -> int | None:
    """Deck construction (S-DECK-1, GS-2): the card mask the hand is dealt from."""


@hookspec(firstresult=True)
def tichu_deal(
    variant: Variant, cards: list[int], dealer: int, seats: int
) -> list[list[int]] | None:
    """Deal plan: the shuffled ``cards`` split per seat, each list in dealing order.

    Hands may differ in size (T6-2, GS-3); every card must be dealt.
    """


@hookspec(firstresult=True)
def tichu_grand_tichu_cards(variant: Variant, state: HandState) -> int | None:
    """How many of its dealt cards each seat holds when Grand Tichu is decided
    (S-DEAL-2, T6-2); 0 skips the Grand Tichu phase."""


@hookspec(firstresult=True)
def tichu_layout(variant: Variant, state: HandState) -> list[int] | None:
    """Seat/team layout: the team of each seat for this hand (partners share a team)."""


@hookspec(firstresult=True)
def tichu_controllers(variant: Variant, state: HandState) -> list[int] | None:
    """The player who acts for each seat (T3-1: the shuffler acts for the dummy)."""


@hookspec(firstresult=True)
def tichu_push_targets(variant: Variant, state: HandState, seat: int) -> list[int] | None:
    """Passing targets: the seats ``seat`` gives one card each (S-EX-1, T3-3, T6-3)."""


@hookspec(firstresult=True)
def tichu_may_call(variant: Variant, state: HandState, seat: int, call: str) -> bool | None:
    """Grand Tichu/Tichu permission (``call`` is "grand_tichu" or "tichu") for a seat this
    hand, before the per-moment rules (first card played, one call per seat) apply."""


@hookspec(firstresult=True)
def tichu_play_rules(variant: Variant) -> PlayRules | None:
    """Combination recognition and comparison, and legal-play generation: an object
    with the interface of :class:`tichu_core.playrules.PlayRules`."""


@hookspec(firstresult=True)
def tichu_wish_applies(variant: Variant, state: HandState, seat: int) -> bool | None:
    """The wish obligation: whether the open wish binds ``seat`` on its turn (T3-6)."""


@hookspec(firstresult=True)
def tichu_first_leader(variant: Variant, state: HandState) -> int | None:
    """Who leads the first trick (S-EX-2: the Mah Jong holder)."""


@hookspec(firstresult=True)
def tichu_dog_recipients(variant: Variant, state: HandState, seat: int) -> list[int] | None:
    """Dog recipient: the seats that may take the lead after ``seat`` plays the Dog
    (one seat: it leads at once; several: ``seat`` chooses with GiveLead)."""


@hookspec(firstresult=True)
def tichu_dragon_recipients(variant: Variant, state: HandState, seat: int) -> list[int] | None:
    """Dragon recipient: the seats ``seat`` may give its Dragon trick to
    (empty list: no gift, the winner keeps it)."""


@hookspec(firstresult=True)
def tichu_trick_winner(variant: Variant, state: HandState) -> int | None:
    """Trick winner: the seat that takes the trick now being collected."""


@hookspec(firstresult=True)
def tichu_hand_over(variant: Variant, state: HandState) -> bool | None:
    """End-of-hand test, asked each time a seat goes out (S-END-1, T6-5, GS-8)."""


@hookspec(firstresult=True)
def tichu_score_hand(variant: Variant, state: HandState) -> HandScore | None:
    """End-of-hand scoring: what the hand adds to each score line."""


@hookspec(firstresult=True)
def tichu_score_lines(variant: Variant, players: int) -> list[str] | None:
    """The names of the score lines (teams, or players and a dummy)."""


@hookspec(firstresult=True)
def tichu_match_over(variant: Variant, totals: list[int], hands_played: int) -> list[int] | None:
    """Match end: an empty list while the match goes on, else the winning score lines
    (S-GAME-1)."""


@hookspec(firstresult=True)
def tichu_next_hand(variant: Variant, previous: HandState | None, players: int) -> Any:
    """Next dealer and seating: a :class:`tichu_core.hand.Seating` for the next hand
    (``previous`` is None for the first hand)."""


@hookspec(firstresult=True)
def tichu_visible_seats(variant: Variant, state: HandState, player: int | None) -> list[int] | None:
    """Observation redaction: the seats whose hands ``player`` may see
    (None: a spectator). Only seats, never cards: the engine builds the view."""
