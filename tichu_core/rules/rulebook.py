"""The rulebook: one typed method per rule point, every answer checked where it arrives.

The engine never calls a hook by name: it asks the :class:`Rulebook` of its game,
whose methods have the hook's types. Each method asks the plugins newest first
(a variant's own plugins before the built-in standard rules), takes the first
answer that is not None, and checks it: a deal must hand out exactly the deck,
seats must be seats, recipients must hold cards, a score needs one entry per
score line. A plugin that raises, or answers wrongly, becomes a ``PluginError``
that names the plugin and the hook; the engine changes nothing before every
hook of a step has answered, so the game is left as it was.

Tracing: with the environment variable ``TICHU_TRACE_HOOKS`` set (to anything
but "" or "0"), or ``trace=`` given, every hook call is reported with its
answer and the plugin that gave it.
"""

from __future__ import annotations

import difflib
import inspect
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, Final, NoReturn

import pluggy

from tichu_core.cardplay.cards import FIRST_COPY_BITS, SECOND_COPY_BITS
from tichu_core.cardplay.kinds import Combinations, check_house_kind
from tichu_core.cardplay.moves import MoveRules
from tichu_core.errors import PluginError, caused_by
from tichu_core.rules import hookspecs
from tichu_core.rules import standard as standard_rules
from tichu_core.rules.answers import HandScore, Outcome, Refusal, Seating, Termination
from tichu_core.rules.loading import resolve_plugin
from tichu_core.rules.playrules import PlayRules
from tichu_core.rules.table import MAX_SEATS, TableView
from tichu_core.variants.models import Variant

TRACE_VARIABLE = "TICHU_TRACE_HOOKS"
HOOK_NAMES = hookspecs.HOOK_NAMES
COMPOSED_HOOKS = hookspecs.COMPOSED_HOOKS

# (plugin, its function, the argument names it takes; None: every argument of the hook,
# in the hook's order, so that it is called with them positionally).
_Impl = tuple[str, Callable[..., Any], tuple[str, ...] | None]


def _trace_to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def _is_int(value: object) -> bool:
    return type(value) is int  # bool is an int subclass, never a seat or a count


# What a list answer may be. A tuple of types, not ``list | tuple``: compiled, that
# union would be made anew (a ``types.UnionType``) at every check.
_SEQUENCES: Final = (list, tuple)


class Rulebook:
    """The rule plugins of one game, asked through typed methods."""

    def __init__(
        self,
        variant: Variant,
        trace: Callable[[str], None] | None = None,
    ) -> None:
        self.variant = variant
        self.manager = pluggy.PluginManager(hookspecs.PROJECT)
        self.manager.add_hookspecs(hookspecs)
        self.plugin_names: list[str] = []
        names = ["standard", *[n for n in variant.plugins if n != "standard"]]
        for name in names:
            plugin = resolve_plugin(name, variant.allow_imports)
            if self.manager.is_registered(plugin):
                continue
            _check_marks(name, plugin)
            try:
                self.manager.register(plugin, name=name)
            except pluggy.PluginValidationError as error:
                # Most often a hook function with a misspelt argument: name the valid ones.
                raise caused_by(_misnamed(name, plugin, error), error) from error
            except Exception as error:
                raise caused_by(
                    PluginError(f"plugin {name!r} cannot be registered: {error}", name), error
                ) from error
            self.plugin_names.append(name)
        try:
            self.manager.check_pending()
        except pluggy.PluginValidationError as error:
            # A misspelt rule point would never be asked: refuse it, with the names meant.
            plugin_name = self.manager.get_name(error.plugin)
            unknown = sorted(
                caller.name
                for caller in self.manager.get_hookcallers(error.plugin) or []
                if not caller.has_spec()
            )
            known = {hook.removeprefix("tichu_"): hook for hook in HOOK_NAMES}
            guesses = []
            for hook in unknown:
                # Matched without the shared prefix, which would make any name look close.
                close = difflib.get_close_matches(hook.removeprefix("tichu_"), known, n=1)
                guesses.append(f"{hook} (did you mean {known[close[0]]}?)" if close else hook)
            what = "an unknown hook" if len(unknown) == 1 else "unknown hooks"
            raise caused_by(
                PluginError(
                    f"plugin {plugin_name!r} implements {what} {', '.join(guesses)}: no rule "
                    "point has that name (the hooks: docs/plugins.md)",
                    plugin=plugin_name,
                    hook=unknown[0] if unknown else None,
                ),
                error,
            ) from error
        self._impls: dict[str, list[_Impl]] = {}
        # Hook -> its argument names, in the order every rulebook method passes them.
        self._arguments: dict[str, tuple[str, ...]] = {}
        for hook in HOOK_NAMES:
            caller = getattr(self.manager.hook, hook)
            arguments = tuple(caller.spec.argnames)
            self._arguments[hook] = arguments
            impls = caller.get_hookimpls()
            for impl in impls:
                if impl.hookwrapper or impl.wrapper:
                    # Rule points are answers, not around-advice: a wrapper's
                    # generator would be taken for the answer.
                    raise PluginError(
                        f"plugin {impl.plugin_name!r} wraps hook {hook}: hook wrappers are "
                        "not supported; answer the hook or return None",
                        plugin=impl.plugin_name,
                        hook=hook,
                    )
            self._impls[hook] = []
            for impl in reversed(impls):
                takes = _argument_names(impl.function, tuple(impl.argnames))
                self._impls[hook].append(
                    (impl.plugin_name, impl.function, None if takes == arguments else takes)
                )
        if trace is None and os.environ.get(TRACE_VARIABLE, "") not in ("", "0"):
            trace = _trace_to_stderr
        self.trace = trace
        # Hook -> the plugin that answered it last (read by `blame` right after an answer).
        self.last_answer: dict[str, str] = {}
        self.seats = self._seats()
        self.players = variant.players
        self.score_lines = self._score_lines()
        self.play_rules = self._play_rules()
        # S-SCORE-1, GS-1: whether tricks carry card points at all (observations and
        # trick events show none where the variant counts none).
        self.card_points: bool = variant.scoring.card_points
        # S-EX-3: a Tichu call in the exchange reopens the caller's push.
        self.change_after_tichu: bool = variant.exchange.change_after_tichu
        self.lord_decides: bool = variant.game.lord_decides  # GS-8
        # (cards dealt, dealer) -> the hand sizes the standard plan deals, largest first:
        # what every deal answer is held to (`_check_hand_sizes`), worked out once.
        self._planned_sizes: dict[tuple[int, int], list[int]] = {}

    def implementations(self) -> dict[str, list[str]]:
        """Plugin name -> the hooks it implements (for ``tichu check`` and docs)."""
        found: dict[str, list[str]] = {name: [] for name in self.plugin_names}
        for hook, impls in self._impls.items():
            for plugin, _, _ in impls:
                found.setdefault(plugin, []).append(hook)
        return found

    def asking_order(self, hook: str) -> list[str]:
        """The plugins implementing ``hook`` in the order they are asked: newest first
        (the first answer that is not None wins), or, for a composed hook
        (``COMPOSED_HOOKS``), oldest first (each changes what the ones before left)."""
        names = [plugin for plugin, _, _ in self._impls[hook]]
        return names[::-1] if hook in COMPOSED_HOOKS else names

    # --- asking --------------------------------------------------------------------------

    def _ask(self, hook: str, *args: Any) -> tuple[str, Any]:
        """The first non-None answer to ``hook`` and the plugin that gave it; ``args``
        are the hook's arguments in its order (hookspecs)."""
        for plugin, function, names in self._impls[hook]:
            answer = self._call(hook, plugin, function, names, args)
            if answer is not None:
                return plugin, answer
        raise PluginError(f"no plugin answered hook {hook}", hook=hook)

    def _call(
        self,
        hook: str,
        plugin: str,
        function: Callable[..., Any],
        names: tuple[str, ...] | None,
        args: tuple[Any, ...],
    ) -> Any:
        """One plugin's answer to ``hook`` (None: it passes); a failure names it."""
        try:
            if names is None:
                answer = function(*args)  # it takes every argument, in the hook's order
            else:
                arguments = self._arguments[hook]
                answer = function(**{name: args[arguments.index(name)] for name in names})
        except PluginError as error:
            # A plugin's own PluginError still names where it came from.
            error.plugin = error.plugin or plugin
            error.hook = error.hook or hook
            raise
        except Exception as error:
            raise caused_by(
                PluginError(
                    f"plugin {plugin!r} failed in hook {hook}: {type(error).__name__}: {error}",
                    plugin=plugin,
                    hook=hook,
                ),
                error,
            ) from error
        if answer is not None:
            if self.last_answer.get(hook) is not plugin:  # a read costs less than a write
                self.last_answer[hook] = plugin
            if self.trace is not None:
                shown = _show_args(dict(zip(self._arguments[hook], args, strict=True)))
                self.trace(f"tichu hook {hook}({shown}) -> {answer!r} [{plugin}]")
        return answer

    @staticmethod
    def _wrong(plugin: str, hook: str, answer: object, expected: str) -> NoReturn:
        raise PluginError(
            f"plugin {plugin!r} answered hook {hook} with {answer!r}: expected {expected}",
            plugin=plugin,
            hook=hook,
        )

    def _seat_list(
        self, hook: str, plugin: str, answer: object, *, empty: bool, holding: TableView | None
    ) -> list[int]:
        """A list of distinct seats (holding cards, when ``holding`` is given)."""
        seats = self.seats
        if not isinstance(answer, _SEQUENCES) or (not answer and not empty):
            self._not_seats(hook, plugin, answer, empty)
        seen = 0  # a bit per seat named so far
        for item in answer:
            if type(item) is not int:  # bool is an int subclass, never a seat
                self._not_seats(hook, plugin, answer, empty)
            seat: int = item  # a machine int from here on, in the compiled build
            if not 0 <= seat < seats or seen >> seat & 1:
                self._not_seats(hook, plugin, answer, empty)
            seen |= 1 << seat
        if holding is not None and not all(holding.holds_cards(s) for s in answer):
            self._wrong(plugin, hook, answer, "seats that still hold cards")
        return list(answer)

    def _not_seats(self, hook: str, plugin: str, answer: object, empty: bool) -> NoReturn:
        what = "a list" if empty else "a non-empty list"
        self._wrong(plugin, hook, answer, f"{what} of distinct seats 0..{self.seats - 1}")

    def _seat(self, hook: str, plugin: str, answer: object) -> int:
        if not _is_int(answer) or not 0 <= answer < self.seats:  # type: ignore[operator]
            self._wrong(plugin, hook, answer, f"a seat 0..{self.seats - 1}")
        return answer  # type: ignore[return-value]

    def _bool(self, hook: str, plugin: str, answer: object) -> bool:
        if not isinstance(answer, bool):
            self._wrong(plugin, hook, answer, "True or False")
        return answer

    def _permission(self, hook: str, plugin: str, answer: object, rule: str) -> Refusal | None:
        """None when allowed, else the refusal (a bare False cites ``rule``)."""
        if answer is True:
            return None
        if answer is False:
            return Refusal(rule, "the variant's rules do not allow it")
        if isinstance(answer, Refusal):
            return answer
        self._wrong(plugin, hook, answer, "True, False or a Refusal")

    # --- the table -----------------------------------------------------------------------

    def _seats(self) -> int:
        plugin, answer = self._ask("tichu_seats", self.variant)
        if not _is_int(answer) or not max(2, self.variant.players) <= answer <= MAX_SEATS:
            self._wrong(
                plugin,
                "tichu_seats",
                answer,
                f"a number of seats from {max(2, self.variant.players)} to {MAX_SEATS}",
            )
        return int(answer)

    def _score_lines(self) -> list[str]:
        plugin, answer = self._ask("tichu_score_lines", self.variant, self.variant.players)
        if (
            not isinstance(answer, list)
            or not answer
            or not all(isinstance(line, str) for line in answer)
        ):
            self._wrong(plugin, "tichu_score_lines", answer, "a non-empty list of names")
        return list(answer)

    def _play_rules(self) -> PlayRules:
        plugin, answer = self._ask("tichu_play_rules", self.variant)
        if not isinstance(answer, PlayRules):
            self._wrong(plugin, "tichu_play_rules", answer, "a PlayRules (or subclass) object")
        combinations = self._combinations()
        if combinations == answer.combinations:
            return answer
        return answer.with_combinations(combinations)

    def _combinations(self) -> Combinations:
        """The kinds of combination, composed: every plugin answering
        ``tichu_combinations`` changes the kinds the ones before it left, in the order
        they were loaded (the standard rules first, then the variant's plugins as
        listed)."""
        hook = "tichu_combinations"
        current = Combinations()
        functions = {plugin: (function, names) for plugin, function, names in self._impls[hook]}
        for plugin in self.asking_order(hook):
            function, names = functions[plugin]
            answer = self._call(hook, plugin, function, names, (self.variant, current))
            if answer is None:
                continue
            if not isinstance(answer, Combinations):
                self._wrong(plugin, hook, answer, "a Combinations (or None)")
            try:
                taken: set[int] = set(answer.standard)
                for house in answer.house:
                    check_house_kind(house, taken)
                    taken.add(house.kind)
            except ValueError as error:
                raise caused_by(
                    PluginError(
                        f"plugin {plugin!r} answered hook {hook} with a bad kind: {error}",
                        plugin=plugin,
                        hook=hook,
                    ),
                    error,
                ) from error
            current = answer
        return current

    # --- deck and deal -------------------------------------------------------------------

    def deck(self) -> int:
        plugin, answer = self._ask("tichu_deck", self.variant)
        if not _is_int(answer) or answer <= 0 or answer >> _CARD_BITS:
            self._wrong(plugin, "tichu_deck", answer, f"a non-empty mask of {_CARD_BITS} card bits")
        return int(answer)

    def next_hand(self, previous: TableView | None) -> Seating:
        hook = "tichu_next_hand"
        plugin, answer = self._ask(hook, self.variant, previous, self.players, self.seats)
        if not isinstance(answer, Seating):
            self._wrong(plugin, hook, answer, "a Seating")
        if (
            not isinstance(answer.players, _SEQUENCES)
            or len(answer.players) != self.seats
            or not all(p is None or _is_int(p) for p in answer.players)
            or sorted(p for p in answer.players if p is not None) != list(range(self.players))
        ):
            self._wrong(
                plugin,
                hook,
                answer,
                f"{self.seats} seats holding each player 0..{self.players - 1} once "
                "(None for a dummy seat)",
            )
        self._seat(hook, plugin, answer.dealer)
        return Seating(players=list(answer.players), dealer=answer.dealer)

    def deal(self, cards: list[int], dealer: int) -> list[list[int]]:
        hook = "tichu_deal"
        plugin, answer = self._ask(hook, self.variant, list(cards), dealer, self.seats)
        if (
            not isinstance(answer, _SEQUENCES)
            or len(answer) != self.seats
            or not all(isinstance(hand, _SEQUENCES) for hand in answer)
            or not _same_cards(answer, cards)
        ):
            self._wrong(
                plugin, hook, answer, f"{self.seats} lists that hold every dealt card exactly once"
            )
        hands = [list(hand) for hand in answer]
        self._check_hand_sizes(plugin, hands, len(cards), dealer)
        return hands

    def _check_hand_sizes(
        self, plugin: str, hands: list[list[int]], dealt: int, dealer: int
    ) -> None:
        """S-DEAL-1, T6-2, GS-3: a plugin's deal gives the hand sizes the variant deals
        (the standard plan's: ``deal.hand_size`` cards a seat, or the whole deck round
        the table), to the seats in any order. The hooks asked next (Grand Tichu, the
        exchange, play) count on those sizes: a deal of 56, 0, 0, 0 cards would
        otherwise be blamed on the first of them that cannot be answered for it. A seat
        with no cards is no error in itself: the standard plan leaves a fifth, dummy seat
        of 4 x 14 cards empty."""
        wanted = self._planned_sizes.get((dealt, dealer))
        if wanted is None:
            planned = standard_rules.tichu_deal(
                self.variant, list(range(dealt)), dealer, self.seats
            )
            wanted = self._planned_sizes[(dealt, dealer)] = sorted(
                (len(hand) for hand in planned), reverse=True
            )
        got = [len(hand) for hand in hands]
        if sorted(got, reverse=True) == wanted:
            return
        size = self.variant.deal.hand_size
        how = (
            f"deal.hand_size = {size}, S-DEAL-1"
            if size
            else "the whole deck round the table, deal.hand_size = 0, T6-2, GS-3"
        )
        raise PluginError(
            f"plugin {plugin!r} answered hook tichu_deal with hands of "
            f"{', '.join(map(str, got))} cards: the variant deals hands of "
            f"{', '.join(map(str, wanted))} cards ({how}), to the seats in any order",
            plugin=plugin,
            hook="tichu_deal",
        )

    def grand_tichu_cards(self, table: TableView, smallest_hand: int) -> int:
        hook = "tichu_grand_tichu_cards"
        plugin, answer = self._ask(hook, self.variant, table)
        if not _is_int(answer) or not 0 <= answer <= smallest_hand:
            self._wrong(plugin, hook, answer, f"a number of cards 0..{smallest_hand}")
        return int(answer)

    def layout(self, table: TableView) -> list[int]:
        hook = "tichu_layout"
        plugin, answer = self._ask(hook, self.variant, table)
        if (
            not isinstance(answer, _SEQUENCES)
            or len(answer) != self.seats
            or not all(_is_int(team) and 0 <= team < self.seats for team in answer)
        ):
            self._wrong(plugin, hook, answer, f"a team number 0..{self.seats - 1} for each seat")
        return list(answer)

    def controllers(self, table: TableView) -> list[int]:
        hook = "tichu_controllers"
        plugin, answer = self._ask(hook, self.variant, table)
        if (
            not isinstance(answer, _SEQUENCES)
            or len(answer) != self.seats
            or not all(_is_int(p) and 0 <= p < self.players for p in answer)
        ):
            self._wrong(plugin, hook, answer, f"a player 0..{self.players - 1} for each seat")
        return list(answer)

    def titles(self, table: TableView) -> dict[int, str]:
        hook = "tichu_titles"
        plugin, answer = self._ask(hook, self.variant, table)
        if not isinstance(answer, dict) or not all(
            _is_int(seat) and 0 <= seat < self.seats and isinstance(title, str) and title
            for seat, title in answer.items()
        ):
            self._wrong(plugin, hook, answer, f"a dict of seats 0..{self.seats - 1} -> a title")
        return dict(answer)

    def visible_seats(self, table: TableView, player: int | None) -> list[int]:
        hook = "tichu_visible_seats"
        plugin, answer = self._ask(hook, self.variant, table, player)
        return self._seat_list(hook, plugin, answer, empty=True, holding=None)

    # --- calls ---------------------------------------------------------------------------

    def may_call(self, table: TableView, seat: int, call: str) -> Refusal | None:
        """None when ``seat`` may make ``call`` now, else why not."""
        plugin, answer = self._ask("tichu_may_call", self.variant, table, seat, call)
        return self._permission("tichu_may_call", plugin, answer, "S-CALL-1")

    # --- exchange ------------------------------------------------------------------------

    def push_targets(self, table: TableView, seat: int) -> dict[int, int]:
        hook = "tichu_push_targets"
        plugin, answer = self._ask(hook, self.variant, table, seat)
        if not isinstance(answer, dict) or not all(
            _is_int(target)
            and 0 <= target < self.seats
            and target != seat
            and _is_int(count)
            and count >= 1
            for target, count in answer.items()
        ):
            self._wrong(
                plugin, hook, answer, "a dict of other seats -> number of cards (at least 1)"
            )
        return dict(answer)

    def forced_push(self, table: TableView, seat: int, held: int) -> dict[int, int]:
        hook = "tichu_forced_push"
        plugin, answer = self._ask(hook, self.variant, table, seat)
        taken = 0
        if not isinstance(answer, dict) or not all(
            _is_int(target) and 0 <= target < self.seats and target != seat and _is_int(mask)
            for target, mask in answer.items()
        ):
            self._wrong(plugin, hook, answer, "a dict of other seats -> card mask")
        for mask in answer.values():
            if mask <= 0 or mask & ~held or mask & taken:
                self._wrong(plugin, hook, answer, f"cards seat {seat} holds, each given once")
            taken |= mask
        return dict(answer)

    # --- play ----------------------------------------------------------------------------

    def first_leader(self, table: TableView) -> int:
        hook = "tichu_first_leader"
        plugin, answer = self._ask(hook, self.variant, table)
        seat = self._seat(hook, plugin, answer)
        if not table.holds_cards(seat):
            self._wrong(plugin, hook, answer, "a seat that holds cards")
        return seat

    def may_bomb(self, table: TableView, seat: int) -> Refusal | None:
        """None when ``seat`` may bomb now (out of turn or on its own trick), else why not."""
        plugin, answer = self._ask("tichu_may_bomb", self.variant, table, seat)
        return self._permission("tichu_may_bomb", plugin, answer, "S-BOMB-3")

    def wish_ranks(self, table: TableView, seat: int) -> list[int]:
        hook = "tichu_wish_ranks"
        plugin, answer = self._ask(hook, self.variant, table, seat)
        if (
            not isinstance(answer, _SEQUENCES)
            or not all(_is_int(rank) and 2 <= rank <= 14 for rank in answer)
            or len(set(answer)) != len(answer)
        ):
            self._wrong(plugin, hook, answer, "a list of distinct rank values 2..14")
        return list(answer)

    def wish_applies(self, table: TableView, seat: int) -> bool:
        hook = "tichu_wish_applies"
        plugin, answer = self._ask(hook, self.variant, table, seat)
        return self._bool(hook, plugin, answer)

    def dog_recipients(self, table: TableView, seat: int) -> list[int]:
        hook = "tichu_dog_recipients"
        if not any(table.holds_cards(other) for other in range(self.seats) if other != seat):
            # No answer could be right: the hand went on when it should have ended.
            raise self.blame(
                "tichu_hand_over",
                f"seat {seat} led the Dog with no other seat holding cards, so nobody can "
                "take the lead: the hand should be over",
            )
        plugin, answer = self._ask(hook, self.variant, table, seat)
        return self._seat_list(hook, plugin, answer, empty=False, holding=table)

    def collect_at_once(self, table: TableView) -> bool:
        hook = "tichu_collect_at_once"
        plugin, answer = self._ask(hook, self.variant, table)
        return self._bool(hook, plugin, answer)

    def trick_winner(self, table: TableView) -> int:
        hook = "tichu_trick_winner"
        plugin, answer = self._ask(hook, self.variant, table)
        return self._seat(hook, plugin, answer)

    def dragon_recipients(self, table: TableView, seat: int) -> list[int]:
        hook = "tichu_dragon_recipients"
        plugin, answer = self._ask(hook, self.variant, table, seat)
        return self._seat_list(hook, plugin, answer, empty=True, holding=None)

    # --- end of hand and match -----------------------------------------------------------

    def hand_over(self, table: TableView) -> bool:
        hook = "tichu_hand_over"
        plugin, answer = self._ask(hook, self.variant, table)
        return self._bool(hook, plugin, answer)

    def score_hand(self, table: TableView) -> HandScore:
        hook = "tichu_score_hand"
        plugin, answer = self._ask(hook, self.variant, table)
        lines = len(self.score_lines)
        if (
            not isinstance(answer, HandScore)
            or not isinstance(answer.scores, _SEQUENCES)
            or len(answer.scores) != lines
            or not all(_is_int(points) for points in answer.scores)
        ):
            self._wrong(
                plugin,
                hook,
                answer,
                f"a HandScore with {lines} integer scores ({', '.join(self.score_lines)})",
            )
        points = answer.card_points
        if (
            not isinstance(points, _SEQUENCES)
            or len(points) not in (0, lines)
            or not all(_is_int(p) for p in points)
        ):
            self._wrong(plugin, hook, answer, f"card_points: none, or {lines} integers")
        if not isinstance(answer.details, dict) or not all(
            isinstance(key, str) for key in answer.details
        ):
            self._wrong(plugin, hook, answer, "details: a dict with text keys")
        return answer

    def match_over(self, totals: Sequence[int], hands_played: int) -> Outcome | None:
        """None while the match goes on, else how it ended."""
        hook = "tichu_match_over"
        plugin, answer = self._ask(hook, self.variant, list(totals), hands_played)
        if answer is False:
            return None
        lines = len(self.score_lines)
        if (
            not isinstance(answer, Outcome)
            or not isinstance(answer.termination, Termination)
            or not isinstance(answer.winners, _SEQUENCES)
            or not answer.winners
            or not all(_is_int(line) and 0 <= line < lines for line in answer.winners)
            or len(set(answer.winners)) != len(answer.winners)
        ):
            self._wrong(
                plugin,
                hook,
                answer,
                f"False or an Outcome(Termination, distinct winning lines 0..{lines - 1})",
            )
        return answer

    def blame(self, hook: str, message: str) -> PluginError:
        """A PluginError for a state ``hook``'s last answer led to (e.g. nobody can act)."""
        plugin = self.last_answer.get(hook)
        return PluginError(
            f"plugin {plugin!r} (hook {hook}): {message}" if plugin else f"{hook}: {message}",
            plugin=plugin,
            hook=hook,
        )


# id(variant) -> (that variant, its rulebook): see `rulebook_for`.
_SHARED: dict[int, tuple[Variant, Rulebook]] = {}
_SHARED_LIMIT = 16


def rulebook_for(variant: Variant) -> Rulebook:
    """The rulebook of ``variant``, shared by every game made from that very (frozen)
    variant object: rules hold no game state, and making a rulebook costs about a
    millisecond (pluggy's registration), as much as a few hundred decisions. Not shared
    while hooks are traced (``TICHU_TRACE_HOOKS``): each game then reports its own."""
    if os.environ.get(TRACE_VARIABLE, "") not in ("", "0"):
        return Rulebook(variant)
    entry = _SHARED.get(id(variant))
    if entry is not None and entry[0] is variant:
        return entry[1]
    rulebook = Rulebook(variant)
    if len(_SHARED) >= _SHARED_LIMIT:
        del _SHARED[next(iter(_SHARED))]  # the oldest
    _SHARED[id(variant)] = (variant, rulebook)
    return rulebook


# Every card bit a mask may hold (two copies of each card): a wider deck is no deck.
_CARD_BITS: Final = (FIRST_COPY_BITS | SECOND_COPY_BITS).bit_length()


def _same_cards(hands: Sequence[Sequence[object]], cards: list[int]) -> bool:
    """Whether ``hands`` together hold exactly ``cards`` (distinct card numbers), each once."""
    size = 0
    for card in cards:
        if card >= size:
            size = card + 1
    wanted = [False] * size
    for card in cards:
        wanted[card] = True
    count = 0
    for hand in hands:
        given_cards: list[object] = hand if isinstance(hand, list) else list(hand)
        for given in given_cards:
            # Card numbers index a list of flags: no wide masks to build (a deal has 56+).
            if type(given) is not int or not 0 <= given < size or not wanted[given]:
                return False
            wanted[given] = False  # dealt: a second copy of it is refused
            count += 1
    return count == len(cards)


def _show_args(kwargs: dict[str, Any]) -> str:
    return ", ".join(
        f"{name}={value!r}" for name, value in kwargs.items() if name not in ("variant", "table")
    )


def _argument_names(function: Callable[..., Any], found: tuple[str, ...]) -> tuple[str, ...]:
    """The parameters a hook function takes, by name. pluggy reads them from a Python
    function's code; a compiled function (the standard rules, where built) has none,
    but states its signature as text, read here without ``inspect`` (whose first use
    costs some 400 KB of parsing machinery)."""
    text = getattr(function, "__text_signature__", None)
    if found or hasattr(function, "__code__") or not isinstance(text, str):
        return found
    names: list[str] = []
    for part in text.strip().removeprefix("(").removesuffix(")").split(","):
        name = part.strip()
        if name.startswith("*") or "=" in name:
            break  # keyword-only or optional from here: pluggy takes positional ones
        if name and name != "/" and not name.startswith("$"):
            names.append(name)
    return tuple(names)


def _misnamed(name: str, plugin: object, error: Exception) -> PluginError:
    """The PluginError of a plugin pluggy refused to register: each hook function that
    takes an argument its hook does not pass, with the arguments the hook passes (and a
    guess at the one meant); pluggy's own words for anything else."""
    problems: list[str] = []
    first_hook: str | None = None
    for hook in HOOK_NAMES:
        function = getattr(plugin, hook, None)
        if not callable(function):
            continue
        passed = [
            parameter
            for parameter in inspect.signature(getattr(hookspecs, hook)).parameters
            if parameter != "self"
        ]
        try:
            taken = list(inspect.signature(function).parameters)
        except (TypeError, ValueError):
            continue
        unknown = [argument for argument in taken if argument not in passed]
        if not unknown:
            continue
        first_hook = first_hook or hook
        guesses = []
        for argument in unknown:
            close = difflib.get_close_matches(argument, passed, n=1)
            guesses.append(
                f"{argument!r} (did you mean {close[0]!r}?)" if close else repr(argument)
            )
        problems.append(
            f"{hook} takes {', '.join(guesses)}, which the hook does not pass; it passes "
            f"{', '.join(passed)} (take any of them, by name, in any order)"
        )
    if not problems:
        return PluginError(f"plugin {name!r} cannot be registered: {error}", name)
    return PluginError(f"plugin {name!r}: {'; '.join(problems)}", plugin=name, hook=first_hook)


def _check_marks(name: str, plugin: object) -> None:
    """A function named like a hook but not marked ``@hookimpl`` would be ignored
    silently (pluggy registers only marked ones): it is refused, named."""
    marker = f"{hookspecs.PROJECT}_impl"
    for attribute in HOOK_NAMES:
        function = getattr(plugin, attribute, None)
        # The mark may sit on a staticmethod around the function (a compiled one).
        holder = inspect.getattr_static(plugin, attribute, None)
        if callable(function) and not (hasattr(function, marker) or hasattr(holder, marker)):
            raise PluginError(
                f"plugin {name!r}: {attribute} is not marked @hookimpl, so it would never "
                "be asked (from tichu_core import hookimpl; put @hookimpl above it)",
                plugin=name,
                hook=attribute,
            )


def move_rules(variant: Variant) -> MoveRules:
    """The options move generation of ``variant`` reads (``tc.move_rules``), as its rules
    set them: the standard rules from the variant's options, or a plugin's answer to
    ``tichu_play_rules``. For front ends that list plays of a hand themselves
    (``tc.legal_plays``), e.g. the RL environment's fixed action space."""
    return rulebook_for(variant).play_rules.rules
