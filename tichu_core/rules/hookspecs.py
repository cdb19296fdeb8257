"""Rule points: the pluggy hook specifications of the engine.

Project name and entry-point group: ``tichu``. Hooks are called with keyword
arguments. Every hook here is ``firstresult``: plugins are asked newest first
(a variant's own plugins before the built-in standard rules), and the first
answer that is not None wins, so a variant replaces a rule by answering and
leaves it alone by returning None. The standard rules
(:mod:`tichu_core.rules.standard`) answer every hook from the variant's options.

The engine calls hooks only through :class:`tichu_core.rules.rulebook.Rulebook`,
which checks every answer where it is received: a wrong answer raises
``PluginError`` naming the plugin and the hook, and the game is unchanged.

``table`` is a :class:`tichu_core.rules.table.TableView`: a read-only view of
the running hand. Answer types live in :mod:`tichu_core.rules.answers`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from tichu_core.cardplay.kinds import Combinations
    from tichu_core.rules.answers import HandScore, Outcome, Refusal, Seating
    from tichu_core.rules.playrules import PlayRules
    from tichu_core.rules.table import TableView
    from tichu_core.variants.models import Variant

PROJECT = "tichu"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# --------------------------------------------------------------------------- the table


@hookspec(firstresult=True)
def tichu_seats(variant: Variant) -> int | None:
    """Number of seats at the table (Threechu: 4 seats for 3 players).

    :param variant: the variant being played.
    :return: at least 2 and at least the number of players.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_score_lines(variant: Variant, players: int) -> list[str] | None:
    """The names of the score lines (teams, or players and a dummy; T3-7).

    :param players: the number of players at the table.
    :return: a non-empty list of names; every hand score has one entry per line.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_play_rules(variant: Variant) -> PlayRules | None:
    """Combination recognition and comparison, and legal-play generation
    (S-COMB-*, S-BOMB-*, S-WISH-2/3/6, GS-4).

    :return: a :class:`tichu_core.rules.playrules.PlayRules` (or a subclass);
        asked once per game, since the engine asks it for every play.
    Stops at first non-None result.
    """


# Hooks every plugin answers in turn, each changing what the ones before it left
# (the others stop at the first answer that is not None).
COMPOSED_HOOKS = frozenset({"tichu_combinations"})


@hookspec
def tichu_combinations(variant: Variant, combinations: Combinations) -> Combinations | None:
    """The kinds of combination the variant plays with, composed by every plugin:
    each is asked in turn (the standard rules first, then the variant's plugins in
    the order listed) with the kinds so far, and answers a changed set or None.

    Add a kind with ``combinations.adding(MyKind())`` (a
    :class:`tichu_core.cardplay.kinds.HouseKind`), drop one with
    ``combinations.without(Kind.STRAIGHT)``. The standard recognition and move
    generation are kept; a house kind lists and reads its own plays and says
    what it beats. Not firstresult: every answer counts.
    """


# --------------------------------------------------------------------------- deck and deal


@hookspec(firstresult=True)
def tichu_deck(variant: Variant) -> int | None:
    """Deck construction (S-DECK-1, GS-2).

    :return: the card mask every hand is dealt from (non-empty).
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_next_hand(
    variant: Variant, previous: TableView | None, players: int, seats: int
) -> Seating | None:
    """Next dealer and seating (S-DEAL-3, T3-8, GS-5).

    :param previous: the hand just finished, None before the first hand.
    :param players: the number of players at the table.
    :param seats: the number of seats (the ``tichu_seats`` answer).
    :return: a :class:`~tichu_core.rules.answers.Seating`: one entry per seat,
        every player seated exactly once, the dealer a seat.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_deal(
    variant: Variant, cards: list[int], dealer: int, seats: int
) -> list[list[int]] | None:
    """Deal plan: the shuffled ``cards`` split per seat, each list in dealing order
    (S-DEAL-1, T6-2, GS-3).

    :param cards: the shuffled deck, as card numbers.
    :return: one list per seat; together exactly ``cards``, each card once; the hands
        of the sizes the variant deals (``deal.hand_size`` each, or the whole deck round
        the table), to the seats in any order.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_grand_tichu_cards(variant: Variant, table: TableView) -> int | None:
    """How many of its dealt cards each seat holds when Grand Tichu is decided
    (S-DEAL-2, T6-2); 0 skips the Grand Tichu phase.

    :return: 0 up to the smallest hand.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_layout(variant: Variant, table: TableView) -> list[int] | None:
    """Seat/team layout: the team of each seat for this hand; partners share a team
    (S-DEAL-1, T3-1, T6-1, GS-1).

    :return: one team number (0, 1, …) per seat.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_controllers(variant: Variant, table: TableView) -> list[int] | None:
    """The player who acts for each seat (T3-1: the shuffler acts for the dummy).

    :return: one player number per seat.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_titles(variant: Variant, table: TableView) -> dict[int, str] | None:
    """The title each seat holds in this hand, shown in observations (GS-5: Great Lord,
    Lord, ..., Wretch, earned by the finishing order of the previous hand).

    :return: seat -> a non-empty title, for the seats that hold one (empty: no titles).
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_visible_seats(variant: Variant, table: TableView, player: int | None) -> list[int] | None:
    """Observation redaction: the seats whose hands ``player`` may see (T3-2, T3-4).

    One rule for every view: observations and events follow it.

    :param player: a player number, or None for a spectator.
    :return: seats (only seats, never cards: the engine builds the view).
    Stops at first non-None result.
    """


# --------------------------------------------------------------------------- calls


@hookspec(firstresult=True)
def tichu_may_call(
    variant: Variant, table: TableView, seat: int, call: str
) -> bool | Refusal | None:
    """Grand Tichu/Tichu permission for ``seat`` now (S-CALL-1, T3-2, GS-1).

    Asked only when the moment allows the call (Grand Tichu: in its phase, undecided;
    Tichu: holding all its cards, before its first card, not yet called).

    :param call: "grand_tichu" or "tichu".
    :return: True, or False / a :class:`~tichu_core.rules.answers.Refusal` saying why not.
    Stops at first non-None result.
    """


# --------------------------------------------------------------------------- exchange


@hookspec(firstresult=True)
def tichu_push_targets(variant: Variant, table: TableView, seat: int) -> dict[int, int] | None:
    """What ``seat`` chooses to give in the exchange (S-EX-1, T3-3, T6-3, GS-6).

    :return: target seat -> number of cards ``seat`` chooses for it (empty: no push).
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_forced_push(variant: Variant, table: TableView, seat: int) -> dict[int, int] | None:
    """Cards the engine takes from ``seat`` for the exchange, not chosen by it (GS-6:
    the best cards go up the ranks).

    :return: target seat -> card mask of cards ``seat`` holds (empty: nothing forced).
    Stops at first non-None result.
    """


# --------------------------------------------------------------------------- play


@hookspec(firstresult=True)
def tichu_first_leader(variant: Variant, table: TableView) -> int | None:
    """Who leads the first trick (S-EX-2: the Mah Jong holder).

    :return: a seat that holds cards.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_may_bomb(variant: Variant, table: TableView, seat: int) -> bool | Refusal | None:
    """Whether ``seat`` may bomb now out of turn, or while its own trick is being
    collected (S-BOMB-3, S-BOMB-4, S-BOMB-5, S-DOG-1).

    :return: True, or False / a :class:`~tichu_core.rules.answers.Refusal` saying why not.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_wish_ranks(variant: Variant, table: TableView, seat: int) -> list[int] | None:
    """The ranks ``seat`` may wish for after playing the Mah Jong (S-WISH-1, E-4).

    :return: rank values 2..14 (empty: no wish is made, no decision is pending).
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_wish_applies(variant: Variant, table: TableView, seat: int) -> bool | None:
    """The wish obligation: whether the open wish binds ``seat`` on its turn
    (S-WISH-2, T3-6).

    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_dog_recipients(variant: Variant, table: TableView, seat: int) -> list[int] | None:
    """Dog recipient: the seats that may take the lead after ``seat`` plays the Dog
    (S-DOG-1, S-DOG-2, T6-4).

    :return: seats holding cards; one seat leads at once, several: ``seat`` chooses
        with ``GiveLead``.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_collect_at_once(variant: Variant, table: TableView) -> bool | None:
    """Whether a trick is collected the moment every other seat has passed (True), or
    the turn returns to its top seat, which collects by passing once more and may
    still be bombed until then (False) (S-TRICK-2). A top seat that is out collects
    at once whatever the answer.

    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_trick_winner(variant: Variant, table: TableView) -> int | None:
    """Trick winner: the seat that takes the trick now being collected (S-TRICK-2).

    :return: a seat.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_dragon_recipients(variant: Variant, table: TableView, seat: int) -> list[int] | None:
    """Dragon recipient: the seats ``seat`` may give its Dragon trick to
    (S-DRAGON-1, S-DRAGON-2, GS-1).

    :return: seats (empty: no gift, the winner keeps the trick).
    Stops at first non-None result.
    """


# --------------------------------------------------------------------------- end of hand and match


@hookspec(firstresult=True)
def tichu_hand_over(variant: Variant, table: TableView) -> bool | None:
    """End-of-hand test, asked each time a seat goes out (S-END-1, T6-5, GS-8).

    A hand that is not over must leave some seat able to act: when nobody can, the
    engine reports the plugin that answered this hook.

    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_score_hand(variant: Variant, table: TableView) -> HandScore | None:
    """End-of-hand scoring: what the hand adds to each score line
    (S-END-2, S-SCORE-*, T3-7, T6-6).

    :return: a :class:`~tichu_core.rules.answers.HandScore` with one score per line.
    Stops at first non-None result.
    """


@hookspec(firstresult=True)
def tichu_match_over(
    variant: Variant, totals: list[int], hands_played: int
) -> Outcome | bool | None:
    """Match end (S-GAME-1, T3-8, GS-8).

    :param totals: the running total of each score line.
    :return: False while the match goes on, else an
        :class:`~tichu_core.rules.answers.Outcome` naming the winning lines.
    Stops at first non-None result.
    """


# Every rule point, by name (the functions above).
HOOK_NAMES = tuple(sorted(name for name in dir() if name.startswith("tichu_")))
