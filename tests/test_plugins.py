"""Rule points: every hook documented, answered by the standard rules and used by a game.

The datasette habit (STYLE.md): every hookspec of tichu_core/rules/hookspecs.py appears
in docs/plugins.md with its exact signature, and a test registers a tiny plugin
answering that hook and checks that a game follows the answer. Also here: how a variant
names its plugins (bundled name, entry point, dotted module path only with
``allow_imports``), PluginError, and the worked house-rule examples of docs/plugins.md
(``stray_dog``, and "bombs wait their turn", run from the text of the page).

Test plugins are module objects put in ``sys.modules`` under a dotted name and named
in the variant with ``allow_imports=True``: the engine imports them like any plugin
module. Plugins that must be real files live in tests/plugins_for_tests/ or are
written to a temporary directory.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import re
import sys
import types
from collections.abc import Callable, Iterator
from itertools import count
from pathlib import Path
from typing import Any, Protocol, cast

import pytest
from scenario import plugin_with

import tichu_core as tc
from tichu_core.cardplay.cards import deck_mask, mask_of
from tichu_core.cardplay.combinations import PlayTuple
from tichu_core.game.events import LeadPassed
from tichu_core.rules import answers, hookspecs
from tichu_core.rules import standard as standard_rules
from tichu_core.rules.hookspecs import hookimpl
from tichu_core.rules.loading import ENTRY_POINT_GROUP, locate_plugin, resolve_plugin
from tichu_core.rules.playrules import PlayRules
from tichu_core.rules.rulebook import Rulebook
from tichu_core.rules.table import TableView

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
DOC = ROOT / "docs" / "plugins.md"

HOOK_NAMES = sorted(name for name in dir(hookspecs) if name.startswith("tichu_"))

# No Grand Tichu phase and no exchange: the first leader is on turn at once.
QUICK: dict[str, object] = {"calls.grand_tichu": False, "exchange.targets": "none"}

DECK = tc.load_variant("standard").deck_codes
STRAY_DOG: Any = resolve_plugin("stray_dog", allow_imports=False)  # plugins/stray_dog.py


def stacked(*given: str) -> list[list[str]]:
    """A deal for seats 0, 1, …: each gets the cards given for it, then the rest of the
    deck in deck order up to 14 cards."""
    hands = [[str(card) for card in tc.parse_cards(text)] for text in given]
    hands += [[] for _ in range(4 - len(hands))]
    taken = {code for hand in hands for code in hand}
    rest = [code for code in DECK if code not in taken]
    for hand in hands:
        while len(hand) < 14:
            hand.append(rest.pop(0))
    return hands


# A hand over in eight actions: seat 0 goes out with a 13-card straight and then the
# Dog, which gives the lead to its partner; seat 2 goes out with seven pairs in a row.
STRAIGHT = "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt"
PAIRS = "2s 2p 3j 3p 4j 4s 5j 5s 6s 6p 7j 7p 8j 8s"
DOUBLE_VICTORY = stacked(f"DOG {STRAIGHT}", "", PAIRS)


def lead_straight_then_dog(game: tc.Game) -> list[tc.Event]:
    """Seat 0 leads the straight, wishes nothing, collects it and leads its Dog."""
    game.apply(tc.Play(0, STRAIGHT))
    game.apply(tc.Wish(0, None))
    for seat in (1, 2, 3, 0):  # seat 0 collects its own trick by passing (S-TRICK-2)
        game.apply(tc.Pass(seat))
    return game.apply(tc.Play(0, "DOG"))  # seat 0 is out; the lead goes to seat 2 (S-DOG-1)


def play_double_victory(game: tc.Game) -> list[tc.Event]:
    """S-END-1, S-SCORE-2: seats 0 and 2 go out first and second."""
    lead_straight_then_dog(game)
    return game.apply(tc.Play(2, PAIRS))


# --------------------------------------------------------------------------- test plugins


class GameWith(Protocol):
    def __call__(
        self,
        *impls: Callable[..., Any],
        deal: list[list[str]] | None = None,
        quick: bool = True,
        trace: Callable[[str], None] | None = None,
    ) -> tc.Game: ...


@pytest.fixture
def game_with(monkeypatch: pytest.MonkeyPatch) -> GameWith:
    """A game of ``standard`` plus a plugin module holding the given hook implementations
    (quick: without Grand Tichu phase and exchange)."""
    numbers = count()

    def build(
        *impls: Callable[..., Any],
        deal: list[list[str]] | None = None,
        quick: bool = True,
        trace: Callable[[str], None] | None = None,
    ) -> tc.Game:
        name = f"hook_tests.plugin_{next(numbers)}"
        plugin_with(monkeypatch, name, *impls)
        overrides = {**(QUICK if quick else {}), "plugins": ["standard", name]}
        variant = tc.load_variant("standard", overrides, allow_imports=True)
        return tc.Game(variant, seed=7, deals=[deal] if deal else None, trace=trace)

    return build


@pytest.fixture
def plugins_for_tests(monkeypatch: pytest.MonkeyPatch) -> str:
    """Makes tests/plugins_for_tests importable; returns its package name."""
    monkeypatch.syspath_prepend(str(TESTS))
    return "plugins_for_tests"


def snapshot(game: tc.Game) -> tuple[Any, ...]:
    """Everything a caller can see of a game."""
    return (
        game.to_json(),
        [game.observation(player).model_dump() for player in (None, *range(game.players))],
        [list(game.legal_actions(seat)) for seat in range(game.seats)],
        len(game.events_for(None)),
        list(game.scores),
        list(game.hand_results),
        game.is_over,
    )


# --------------------------------------------------------------------------- documentation


def documented_signature(hook: str) -> str:
    """``def hook(name: Type, …) -> Return`` exactly as hookspecs.py annotates it."""
    signature = inspect.signature(getattr(hookspecs, hook))
    parameters = ", ".join(
        f"{parameter.name}: {parameter.annotation}" for parameter in signature.parameters.values()
    )
    return f"def {hook}({parameters}) -> {signature.return_annotation}"


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def doc_section(heading: str) -> str:
    """The text of a ``## heading`` section of docs/plugins.md, up to the next one."""
    text = doc_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


@pytest.mark.parametrize("hook", HOOK_NAMES)
def test_every_hook_is_documented_with_its_exact_signature(hook: str) -> None:
    text = doc_text()
    assert f"### `{hook}`" in text, f"docs/plugins.md has no section for {hook}"
    assert documented_signature(hook) in text, (
        f"docs/plugins.md does not show the signature {documented_signature(hook)!r}"
    )


def test_the_docs_document_no_hook_that_does_not_exist() -> None:
    text = doc_text()
    assert set(re.findall(r"^### `(tichu_\w+)`", text, re.MULTILINE)) == set(HOOK_NAMES)
    assert set(re.findall(r"\bdef (tichu_\w+)\(", text)) <= set(HOOK_NAMES)


@pytest.mark.parametrize("hook", HOOK_NAMES)
def test_every_hook_is_firstresult_but_the_composed_one(hook: str) -> None:
    """The docs promise: the first answer that is not None wins, except for the kinds
    of combination, which every plugin changes in turn."""
    composed = hook == "tichu_combinations"
    assert getattr(hookspecs, hook).tichu_spec["firstresult"] is not composed


def public_names(cls: type) -> list[str]:
    return sorted(name for name in vars(cls) if not name.startswith("_"))


def test_every_part_of_the_table_view_is_documented() -> None:
    section = doc_section("The table: `TableView`")
    for name in public_names(TableView):
        assert f"`{name}" in section, f"TableView.{name} is not in docs/plugins.md"


@pytest.mark.parametrize("answer", ["Seating", "Refusal", "HandScore", "Outcome", "Termination"])
def test_every_answer_type_and_field_is_documented(answer: str) -> None:
    section = doc_section("Answers")
    cls = getattr(answers, answer)
    assert f"`{answer}" in section
    if answer == "Termination":
        names = [f"`Termination.{member.name}`" for member in tc.Termination]
    else:
        names = [f"`{field}`" for field in cls.__annotations__]
    for name in names:
        assert name in section, f"{answer}: {name} is not in docs/plugins.md"
    assert getattr(tc, answer) is cls  # importable as the docs show: from tichu_core


def test_the_worked_example_in_the_docs_is_the_bundled_plugin_and_variant() -> None:
    text = doc_text()
    plugin = (ROOT / "plugins" / "stray_dog.py").read_text(encoding="utf-8")
    variant = (ROOT / "variants" / "house_stray_dog.toml").read_text(encoding="utf-8")
    assert f"```python\n{plugin}```" in text
    assert f"```toml\n{variant}```" in text


# --------------------------------------------------------------------------- standard rules


def test_the_standard_rules_are_the_only_plugin_of_the_standard_game() -> None:
    rulebook = Rulebook(tc.load_variant("standard"))
    assert rulebook.plugin_names == ["standard"]
    assert sorted(rulebook.implementations()["standard"]) == HOOK_NAMES


@pytest.mark.parametrize("hook", HOOK_NAMES)
def test_the_standard_rules_implement_every_hook_last(hook: str) -> None:
    """Every rule point has a standard answer, asked after every variant plugin."""
    assert callable(getattr(standard_rules, hook, None)), f"rules/standard.py has no {hook}"
    # The mark sits on the registered plugin's staticmethod (the module may be compiled).
    plugin = locate_plugin("standard", allow_imports=False)[0]
    assert inspect.getattr_static(plugin, hook).tichu_impl["trylast"] is True
    assert getattr(plugin, hook) is getattr(standard_rules, hook)


# S-DRAGON-2 with the standard rules alone: seat 0 goes out second, seat 2 third with the
# Dragon, which ends the hand while the Dragon trick still has to be given away.
STRAIGHT_TO_KING = "MJ 2s 3p 4t 5s 6p 7t 8s 9p 10t Js Qp Kt"
JADE_FLUSH = "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj"
STRAIGHT_TO_ACE = "2p 3t 4s 5p 6t 7s 8p 9t 10s Jp Qt Ks As"
LAST_TRICK_DRAGON = stacked(f"{STRAIGHT_TO_KING} PH", f"{JADE_FLUSH} DOG", f"{STRAIGHT_TO_ACE} DR")
LAST_TRICK_DRAGON_ACTIONS: list[tc.Action] = [
    tc.Play(0, STRAIGHT_TO_KING),
    tc.Wish(0, None),
    tc.Play(1, JADE_FLUSH),  # a bomb out of turn (S-BOMB-1, S-BOMB-3)
    *(tc.Pass(seat) for seat in (2, 3, 0, 1)),
    tc.Play(1, "DOG"),  # seat 1 is out; its partner leads
    tc.Play(3, "2t"),
    tc.Play(0, "PH"),  # seat 0 is out
    *(tc.Pass(seat) for seat in (2, 3)),
    tc.Play(2, STRAIGHT_TO_ACE),
    *(tc.Pass(seat) for seat in (3, 2)),
    tc.Play(2, "DR"),  # seat 2 is out: one seat holds cards, the hand is over
]


def test_the_standard_rules_answer_every_hook_a_game_asks() -> None:
    """The trace of two short standard games: every hook is asked, and ``standard``
    answers it (the trace reports only answers, never a None)."""
    lines: list[str] = []

    def watch(game: tc.Game) -> None:
        for seat in range(game.seats):
            list(game.legal_actions(seat))  # a front end asks every seat

    game = tc.Game(
        tc.load_variant("standard", QUICK), deals=[LAST_TRICK_DRAGON], trace=lines.append
    )
    for action in LAST_TRICK_DRAGON_ACTIONS:
        watch(game)
        game.apply(action)
    game.apply(tc.GiveTrick(2, 1))  # the hand is scored; the next one is dealt
    wish = tc.Game(tc.load_variant("standard"), deals=[stacked("MJ", "2j")], trace=lines.append)
    for seat in range(4):
        wish.apply(tc.GrandTichu(seat, False))
    for seat in range(4):
        ordinary = [code for code in wish.observation(seat).hand if code not in ("MJ", "2j")]
        targets = [(seat + step) % 4 for step in (1, 2, 3)]
        wish.apply(tc.Push(seat, dict(zip(targets, ordinary[:3], strict=True))))
    wish.apply(tc.Play(0, "MJ"))
    wish.apply(tc.Wish(0, "2"))
    watch(wish)  # seat 1 holds the wished 2 (S-WISH-2)

    answered = {
        match.group(1): match.group(2)
        for line in lines
        if (match := re.fullmatch(r"tichu hook (tichu_\w+)\(.*\) -> .* \[(\w+)\]", line))
    }
    assert sorted(answered) == HOOK_NAMES
    assert set(answered.values()) == {"standard"}


def test_the_dragon_gift_of_the_last_trick_is_a_listed_decision() -> None:
    """S-DRAGON-2: tichu_dragon_recipients answers on the last trick too."""
    game = tc.Game(tc.load_variant("standard", QUICK), deals=[LAST_TRICK_DRAGON])
    for action in LAST_TRICK_DRAGON_ACTIONS:
        game.apply(action)
    assert game.observation(None).pending == {"kind": "give_trick", "seat": 2}
    assert game.waiting_for == [2]  # the gift is still to be made, by seat 2
    assert list(game.legal_actions(2)) == [tc.GiveTrick(2, 1), tc.GiveTrick(2, 3)]


# --------------------------------------------------------------------------- one test per hook

HOOK_CASES: dict[str, Callable[[GameWith], None]] = {}


def uses(hook: str) -> Callable[[Callable[[GameWith], None]], Callable[[GameWith], None]]:
    """Registers the test of ``hook``: it plays a game with a plugin answering it."""

    def register(case: Callable[[GameWith], None]) -> Callable[[GameWith], None]:
        HOOK_CASES[hook] = case
        return case

    return register


@uses("tichu_seats")
def five_seats(game_with: GameWith) -> None:
    """A fifth, empty seat for a dummy. The standard seating fills ``variant.seats``
    seats, so a plugin that changes the seat count also seats the players."""

    @hookimpl
    def tichu_seats() -> int:
        return 5

    @hookimpl
    def tichu_next_hand(previous: TableView | None) -> tc.Seating | None:
        return tc.Seating(players=[0, 1, 2, 3, None], dealer=0) if previous is None else None

    game = game_with(tichu_seats, tichu_next_hand)
    assert game.seats == 5
    assert game.player_at(4) is None
    assert game.controller(4) == 0  # the dealer acts for a dummy seat (T3-1)
    assert game.observation(None).hand_sizes == [14, 14, 14, 14, 0]
    with pytest.raises(tc.DealError, match="4 hands for 5 seats"):
        game_with(tichu_seats, tichu_next_hand, deal=stacked())


@uses("tichu_score_lines")
def named_score_lines(game_with: GameWith) -> None:
    @hookimpl
    def tichu_score_lines() -> list[str]:
        return ["north-south", "east-west"]

    game = game_with(tichu_score_lines)
    assert game.score_lines == ["north-south", "east-west"]
    assert game.observation(0).score_lines == ["north-south", "east-west"]


class SinglesOnly(PlayRules):
    """Combination rules of a house game where only single cards may be played."""

    def plays(self, hand: int, top: PlayTuple | None) -> list[PlayTuple]:
        # a listed play is (kind, length, rank, cards, phoenix)
        return [play for play in super().plays(hand, top) if play[3].bit_count() == 1]


def test_a_play_rules_subclass_keeps_its_state_when_the_kinds_are_composed() -> None:
    """`with_combinations` (the tichu_combinations hook) copies a subclass of PlayRules,
    its own attributes and overrides included, also where PlayRules is compiled."""
    from tichu_core.cardplay.kinds import Combinations

    class Noted(SinglesOnly):
        def __init__(self, rules: Any, note: str) -> None:
            super().__init__(rules)
            self.note = note

    from tichu_core.cardplay.combinations import PAIR

    original = Noted(standard_rules.tichu_play_rules(tc.load_variant("standard")).rules, "mine")
    changed = original.with_combinations(Combinations().without(PAIR))
    assert type(changed) is Noted
    assert changed.note == "mine"
    assert changed.rules is original.rules
    assert changed.combinations == Combinations().without(PAIR)
    assert original.combinations == Combinations()
    hand = mask_of(tc.parse_cards("2j 2s 3j"))
    assert [play[3].bit_count() for play in changed.plays(hand, None)] == [1, 1, 1]


@uses("tichu_play_rules")
def singles_only(game_with: GameWith) -> None:
    """S-COMB-1 restricted: the pair 2j 2s is no longer a legal lead."""

    @hookimpl
    def tichu_play_rules(variant: tc.Variant) -> PlayRules:
        return SinglesOnly(standard_rules.tichu_play_rules(variant).rules)

    game = game_with(tichu_play_rules, deal=stacked("MJ 2j 2s"))
    plays = [action for action in game.legal_actions(0) if action.type == "play"]
    assert plays
    assert all(len(action.cards.split()) == 1 for action in plays)
    with pytest.raises(tc.IllegalAction):
        game.apply(tc.Play(0, "2j 2s"))


@uses("tichu_combinations")
def no_straights(game_with: GameWith) -> None:
    """S-COMB-1 changed: the plugin is given the standard kinds and drops straights;
    the straight is no longer listed nor accepted (composition of several plugins:
    test_triple_runs.py)."""
    from tichu_core.cardplay.kinds import Combinations

    seen: list[Combinations] = []

    @hookimpl
    def tichu_combinations(combinations: Combinations) -> Combinations:
        seen.append(combinations)
        return combinations.without(tc.Kind.STRAIGHT)

    game = game_with(tichu_combinations, deal=stacked("MJ 2j 3s 4p 5t 6j"))
    assert seen == [Combinations()]
    plays = [action.cards for action in game.legal_actions(0) if action.type == "play"]
    assert "6j 5t 4p 3s 2j" not in plays and "6j" in plays
    with pytest.raises(tc.IllegalAction):
        game.apply(tc.Play(0, "2j 3s 4p 5t 6j"))


@uses("tichu_deck")
def deck_without_dog(game_with: GameWith) -> None:
    """S-DECK-1 replaced: a 55-card deck without the Dog."""

    @hookimpl
    def tichu_deck() -> int:
        return deck_mask(1, ["DOG"])

    game = game_with(tichu_deck)
    assert game.observation(None).hand_sizes == [14, 14, 14, 13]
    assert all("DOG" not in game.observation(seat).hand for seat in range(4))
    with pytest.raises(tc.DealError, match="DOG is not"):
        game_with(tichu_deck, deal=stacked())


@uses("tichu_next_hand")
def first_seating_is_shifted(game_with: GameWith) -> None:
    """S-DEAL-3 replaced for the first hand only: players 2, 3, 0, 1 sit at seats 0..3
    and seat 1 deals; returning None for later hands keeps the standard rule."""

    @hookimpl
    def tichu_next_hand(previous: TableView | None) -> tc.Seating | None:
        return tc.Seating(players=[2, 3, 0, 1], dealer=1) if previous is None else None

    game = game_with(tichu_next_hand, deal=DOUBLE_VICTORY)
    assert [game.player_at(seat) for seat in range(4)] == [2, 3, 0, 1]
    assert game.seat_of(0) == 2
    assert game.observation(None).dealer == 1
    play_double_victory(game)
    assert game.observation(None).dealer == 0  # standard: the first out deals next


@uses("tichu_deal")
def unshuffled_deal(game_with: GameWith) -> None:
    """S-DEAL-1 replaced: the deck is dealt in card order, 14 cards a seat."""

    @hookimpl
    def tichu_deal(cards: list[int], seats: int) -> list[list[int]]:
        ordered = sorted(cards)
        size = len(ordered) // seats
        return [ordered[seat * size : (seat + 1) * size] for seat in range(seats)]

    game = game_with(tichu_deal)
    lowest = tc.parse_cards("DOG MJ PH DR 2j 2s 2p 2t 3j 3s 3p 3t 4j 4s")
    assert set(game.observation(0).hand) == {str(card) for card in lowest}
    assert game.turn == 0  # S-EX-2: seat 0 holds the Mah Jong


@uses("tichu_grand_tichu_cards")
def grand_tichu_on_five_cards(game_with: GameWith) -> None:
    """S-DEAL-2 replaced: Grand Tichu is decided holding 5 cards."""

    @hookimpl
    def tichu_grand_tichu_cards() -> int:
        return 5

    game = game_with(tichu_grand_tichu_cards, quick=False)
    assert game.observation(0).phase == "grand_tichu"
    assert game.observation(None).hand_sizes == [5, 5, 5, 5]
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    assert game.observation(None).hand_sizes == [14, 14, 14, 14]


@uses("tichu_layout")
def partners_side_by_side(game_with: GameWith) -> None:
    """Seats 0+1 against 2+3: the Dog now goes to seat 1 (S-DOG-1 follows the layout)."""

    @hookimpl
    def tichu_layout() -> list[int]:
        return [0, 0, 1, 1]

    game = game_with(tichu_layout, deal=stacked("MJ DOG"))
    assert game.observation(None).teams == [0, 0, 1, 1]
    game.apply(tc.Play(0, "DOG"))
    assert game.turn == 1


@uses("tichu_controllers")
def player_zero_plays_two_seats(game_with: GameWith) -> None:
    @hookimpl
    def tichu_controllers() -> list[int]:
        return [0, 0, 2, 3]

    game = game_with(tichu_controllers)
    assert game.controller(1) == 0
    view = game.observation(0)
    assert view.seats == [0, 1]
    assert sorted(view.hands) == [0, 1]  # standard redaction: the seats a player acts for
    assert game.observation(1).seats == []


@uses("tichu_titles")
def the_dealer_is_called_the_banker(game_with: GameWith) -> None:
    """A title for one seat, shown to every viewer."""

    @hookimpl
    def tichu_titles(table: TableView) -> dict[int, str]:
        return {table.dealer: "banker"}

    game = game_with(tichu_titles)
    assert all(game.observation(player).titles == {0: "banker"} for player in (None, *range(4)))


@uses("tichu_visible_seats")
def player_zero_sees_everything(game_with: GameWith) -> None:
    """Redaction replaced for one player (a coach); the others stay standard."""

    @hookimpl
    def tichu_visible_seats(table: TableView, player: int | None) -> list[int] | None:
        return list(range(table.seats)) if player == 0 else None

    game = game_with(tichu_visible_seats)
    assert sorted(game.observation(0).hands) == [0, 1, 2, 3]
    assert sorted(game.observation(1).hands) == [1]
    assert game.observation(None).hands == {}


@uses("tichu_may_call")
def seat_one_may_not_call_tichu(game_with: GameWith) -> None:
    """S-CALL-1 restricted for one seat and one call; None leaves the rest standard."""

    @hookimpl
    def tichu_may_call(seat: int, call: str) -> tc.Refusal | None:
        if (seat, call) == (1, "tichu"):
            return tc.Refusal("HOUSE-1", "seat 1 is the scorer and does not call Tichu")
        return None

    game = game_with(tichu_may_call, quick=False)
    assert tc.GrandTichu(1, True) in game.legal_actions(1)
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    assert tc.Tichu(0) in game.legal_actions(0)
    assert tc.Tichu(1) not in game.legal_actions(1)
    with pytest.raises(tc.IllegalAction, match="scorer") as caught:
        game.apply(tc.Tichu(1))
    assert caught.value.rule == "HOUSE-1"


@uses("tichu_push_targets")
def two_cards_to_the_partner(game_with: GameWith) -> None:
    """S-EX-1 replaced: each seat gives two cards to its partner and none to the others."""

    @hookimpl
    def tichu_push_targets(table: TableView, seat: int) -> dict[int, int]:
        return dict.fromkeys(table.partners(seat), 2)

    game = game_with(tichu_push_targets, quick=False)
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    assert game.observation(0).push_targets == {0: {2: 2}}
    hand = game.observation(0).hand
    with pytest.raises(tc.IllegalAction, match="gives 2 to seat 2"):
        game.apply(tc.Push(0, {1: hand[0], 2: hand[1], 3: hand[2]}))
    for seat in range(4):
        cards = game.observation(seat).hand[:2]
        game.apply(tc.Push(seat, {(seat + 2) % 4: " ".join(cards)}))
    assert game.observation(None).phase == "play"
    assert game.observation(0).received == {2: game.observation(0).received[2]}
    assert len(game.observation(0).received[2].split()) == 2


@uses("tichu_forced_push")
def the_dragon_goes_to_the_left(game_with: GameWith) -> None:
    """GS-6-like forced exchange: whoever is dealt the Dragon must give it to the next
    seat; no seat chooses anything, so the forced cards move at once."""

    @hookimpl
    def tichu_forced_push(table: TableView, seat: int) -> dict[int, int] | None:
        dragon = mask_of(tc.parse_cards("DR"))
        if table.hands[seat] & dragon:
            return {(seat + 1) % table.seats: dragon}
        return None

    game = game_with(tichu_forced_push, deal=stacked("MJ DR"))
    assert game.observation(None).phase == "play"
    assert "DR" not in game.observation(0).hand
    assert "DR" in game.observation(1).hand
    assert game.observation(1).received == {0: "DR"}
    assert game.observation(None).hand_sizes == [13, 15, 14, 14]


@uses("tichu_first_leader")
def seat_two_leads(game_with: GameWith) -> None:
    """S-EX-2 replaced: seat 2 leads although seat 0 holds the Mah Jong."""

    @hookimpl
    def tichu_first_leader() -> int:
        return 2

    game = game_with(tichu_first_leader, deal=stacked("MJ"))
    assert game.turn == 2
    assert game.observation(None).waiting_for == [2]


@uses("tichu_may_bomb")
def no_bomb_out_of_turn(game_with: GameWith) -> None:
    """S-BOMB-3 restricted: a bomb waits for its player's turn."""

    @hookimpl
    def tichu_may_bomb(table: TableView, seat: int) -> tc.Refusal | None:
        if seat == table.top_seat:
            return None  # its own trick: the standard rule (S-BOMB-5)
        return tc.Refusal("HOUSE-2", "a bomb waits for its player's turn")

    bomb = "5j 5s 5p 5t"
    game = game_with(tichu_may_bomb, deal=stacked("MJ 3j", "", bomb))
    game.apply(tc.Play(0, "3j"))
    assert tc.Play(2, bomb) not in game.legal_actions(2)
    with pytest.raises(tc.IllegalAction, match="waits") as caught:
        game.apply(tc.Play(2, bomb))
    assert caught.value.rule == "HOUSE-2"
    game.apply(tc.Pass(1))
    assert tc.Play(2, bomb) in game.legal_actions(2)  # on its turn, a bomb is a play
    game.apply(tc.Play(2, bomb))


@uses("tichu_wish_ranks")
def no_face_card_wishes(game_with: GameWith) -> None:
    """S-WISH-1 restricted: the Mah Jong may wish for 2..10 only."""

    @hookimpl
    def tichu_wish_ranks() -> list[int]:
        return list(range(2, 11))

    game = game_with(tichu_wish_ranks, deal=stacked("MJ"))
    game.apply(tc.Play(0, "MJ"))
    ranks = [str(rank) for rank in range(2, 11)]
    assert list(game.legal_actions(0)) == [tc.Wish(0, None)] + [tc.Wish(0, r) for r in ranks]
    with pytest.raises(tc.IllegalAction, match="may not wish for J"):
        game.apply(tc.Wish(0, "J"))


@uses("tichu_wish_applies")
def the_wish_binds_nobody(game_with: GameWith) -> None:
    """S-WISH-2 switched off: seat 1 holds the wished 2 and may still pass."""

    @hookimpl
    def tichu_wish_applies() -> bool:
        return False

    deal = stacked("MJ", "2j")
    for game, may_pass in (
        (game_with(deal=deal), False),
        (game_with(tichu_wish_applies, deal=deal), True),
    ):
        game.apply(tc.Play(0, "MJ"))
        game.apply(tc.Wish(0, "2"))
        assert game.observation(None).wish == "2"
        assert (tc.Pass(1) in game.legal_actions(1)) is may_pass


@uses("tichu_dog_recipients")
def dog_holder_picks_an_opponent(game_with: GameWith) -> None:
    """S-DOG-1 replaced: two recipients, so the Dog's player decides with GiveLead (E-1)."""

    @hookimpl
    def tichu_dog_recipients(seat: int) -> list[int]:
        return [(seat + 1) % 4, (seat + 3) % 4]

    game = game_with(tichu_dog_recipients, deal=stacked("MJ DOG"))
    game.apply(tc.Play(0, "DOG"))
    assert list(game.legal_actions(0)) == [tc.GiveLead(0, 1), tc.GiveLead(0, 3)]
    game.apply(tc.GiveLead(0, 3))
    assert game.turn == 3


@uses("tichu_collect_at_once")
def the_trick_is_taken_when_the_others_passed(game_with: GameWith) -> None:
    """S-TRICK-2 by the other reading: the trick is taken as soon as everybody else
    passed; the top seat does not pass once more (and cannot be bombed then)."""

    @hookimpl
    def tichu_collect_at_once() -> bool:
        return True

    game = game_with(tichu_collect_at_once, deal=stacked("MJ 3j"))
    game.apply(tc.Play(0, "3j"))
    game.apply(tc.Pass(1))
    game.apply(tc.Pass(2))
    events = game.apply(tc.Pass(3))
    assert [event.type for event in events] == ["passed", "trick_won"]
    assert game.observation(None).won_cards == [1, 0, 0, 0]
    assert game.turn == 0
    assert tc.Pass(0) not in game.legal_actions(0)  # seat 0 leads the next trick


@uses("tichu_trick_winner")
def trick_to_the_next_seat(game_with: GameWith) -> None:
    """The trick goes to the seat after its top player, who then leads."""

    @hookimpl
    def tichu_trick_winner(table: TableView) -> int:
        assert table.top_seat is not None
        return (table.top_seat + 1) % table.seats

    game = game_with(tichu_trick_winner, deal=stacked("MJ 3j"))
    game.apply(tc.Play(0, "3j"))
    for seat in (1, 2, 3, 0):
        game.apply(tc.Pass(seat))
    assert game.observation(None).won_cards == [0, 1, 0, 0]
    assert game.turn == 1


@uses("tichu_dragon_recipients")
def dragon_trick_to_the_partner(game_with: GameWith) -> None:
    """S-DRAGON-1 replaced: the Dragon trick may only go to the partner."""

    @hookimpl
    def tichu_dragon_recipients(table: TableView, seat: int) -> list[int]:
        return table.partners(seat)

    game = game_with(tichu_dragon_recipients, deal=stacked("MJ DR"))
    game.apply(tc.Play(0, "DR"))
    for seat in (1, 2, 3, 0):
        game.apply(tc.Pass(seat))
    assert list(game.legal_actions(0)) == [tc.GiveTrick(0, 2)]
    game.apply(tc.GiveTrick(0, 2))
    assert game.observation(None).won_points == [0, 0, 25, 0]


@uses("tichu_hand_over")
def hand_ends_with_the_first_out(game_with: GameWith) -> None:
    """S-END-1 replaced: the hand ends as soon as one seat is out."""

    @hookimpl
    def tichu_hand_over(table: TableView) -> bool:
        return bool(table.out_order)

    game = game_with(tichu_hand_over, deal=DOUBLE_VICTORY)
    lead_straight_then_dog(game)
    assert [result.out_order for result in game.hand_results] == [[0, 1, 2, 3]]
    assert game.hand_index == 1


@uses("tichu_score_hand")
def flat_scores(game_with: GameWith) -> None:
    """S-SCORE-2 replaced: the double victory scores what the plugin says."""

    @hookimpl
    def tichu_score_hand() -> tc.HandScore:
        return tc.HandScore(scores=[7, 3])

    game = game_with(tichu_score_hand, deal=DOUBLE_VICTORY)
    play_double_victory(game)
    assert game.hand_results[0].scores == [7, 3]
    assert game.scores == [7, 3]


@uses("tichu_match_over")
def one_hand_match(game_with: GameWith) -> None:
    """S-GAME-1 replaced: the first hand decides the match."""

    @hookimpl
    def tichu_match_over(totals: list[int]) -> tc.Outcome:
        leaders = tuple(line for line, total in enumerate(totals) if total == max(totals))
        return tc.Outcome(tc.Termination.VARIANT_RULE, leaders)

    game = game_with(tichu_match_over, deal=DOUBLE_VICTORY)
    events = play_double_victory(game)
    assert game.is_over
    assert game.winners == [0]
    assert game.outcome is not None
    assert game.outcome.termination is tc.Termination.VARIANT_RULE
    assert events[-1].type == "match_over"


def test_every_hook_has_a_game_test() -> None:
    assert sorted(HOOK_CASES) == HOOK_NAMES


@pytest.mark.parametrize("hook", HOOK_NAMES)
def test_a_game_follows_a_plugin_answering(hook: str, game_with: GameWith) -> None:
    case = HOOK_CASES.get(hook)
    if case is None:
        pytest.fail(f"no test plays a game with a plugin answering {hook}")
    case(game_with)


# --------------------------------------------------------------------------- hook wrappers


WRAPPER_MARKERS = [
    pytest.param(hookimpl(wrapper=True), id="wrapper"),
    pytest.param(hookimpl(hookwrapper=True), id="hookwrapper"),
]


@pytest.mark.parametrize("marker", WRAPPER_MARKERS)
def test_a_hook_wrapper_is_refused_when_the_game_is_built(
    marker: Callable[[Callable[..., Any]], Callable[..., Any]], game_with: GameWith
) -> None:
    """The rulebook asks for answers; a wrapper's generator is not one."""

    def tichu_first_leader() -> Any:
        leader = yield
        return (leader + 1) % 4

    with pytest.raises(tc.PluginError, match="not supported") as caught:
        game_with(marker(tichu_first_leader))
    assert (caught.value.plugin, caught.value.hook) == ("hook_tests.plugin_0", "tichu_first_leader")


# --------------------------------------------------------------------------- the worked examples


def lead_passed(events: list[tc.Event]) -> list[tuple[int, int]]:
    """(from seat, to seat) of each ``lead_passed`` event (S-DOG-1)."""
    return [(event.seat, event.to) for event in events if isinstance(event, LeadPassed)]


def lead_the_dog(variant: str) -> tuple[tc.Game, list[tc.Event]]:
    """Seat 0 holds the Mah Jong and the Dog; nobody calls, everybody pushes three
    ordinary cards, and seat 0 leads the Dog."""
    game = tc.Game(variant, seed=11, deals=[stacked("MJ DOG")])
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    for seat in range(4):
        ordinary = [code for code in game.observation(seat).hand if code not in ("MJ", "DOG")]
        targets = [(seat + step) % 4 for step in (1, 2, 3)]
        game.apply(tc.Push(seat, dict(zip(targets, ordinary[:3], strict=True))))
    assert game.turn == 0  # S-EX-2: seat 0 holds the Mah Jong
    return game, game.apply(tc.Play(0, "DOG"))


def test_stray_dog_gives_the_lead_to_the_next_player_not_the_partner() -> None:
    """S-DOG-1 in the standard game; the house rule of docs/plugins.md changes it."""
    standard, events = lead_the_dog("standard")
    assert lead_passed(events) == [(0, 2)]
    assert standard.turn == 2

    house, events = lead_the_dog("house_stray_dog")
    assert lead_passed(events) == [(0, 1)]
    assert house.turn == 1
    assert tc.Pass(1) not in house.legal_actions(1)  # seat 1 leads the next trick
    assert any(action.type == "play" for action in house.legal_actions(1))
    restored = tc.Game.from_json(house.to_json())  # the variant names the plugin: it comes back
    assert restored.turn == 1
    assert restored.to_json() == house.to_json()


class Table:
    """The two attributes ``TableView.next_active`` reads, for testing a plugin alone."""

    def __init__(self, hands: list[int]) -> None:
        self.seats = len(hands)
        self.hands = hands


def test_stray_dog_skips_a_seat_that_is_out() -> None:
    """The plugin is a plain function: it can be tested on a made-up table."""
    table = TableView(cast(Any, Table([0b1, 0b10, 0b100, 0b1000])))
    assert STRAY_DOG.tichu_dog_recipients(table=table, seat=0) == [1]
    table = TableView(cast(Any, Table([0b1, 0, 0b100, 0b1000])))  # seat 1 out: seat 2 is next
    assert STRAY_DOG.tichu_dog_recipients(table=table, seat=0) == [2]
    table = TableView(cast(Any, Table([0b1, 0, 0, 0])))  # only seat 0 holds cards
    assert STRAY_DOG.tichu_dog_recipients(table=table, seat=0) == [0]
    table = TableView(cast(Any, Table([0, 0, 0, 0])))  # nobody: no answer
    assert STRAY_DOG.tichu_dog_recipients(table=table, seat=0) is None


def test_house_stray_dog_only_adds_the_plugin() -> None:
    house, standard = tc.load_variant("house_stray_dog"), tc.load_variant("standard")
    assert house.plugins == ("standard", "stray_dog")
    changed = {"name", "description", "plugins", "source"}
    assert house.model_dump(exclude=changed) == standard.model_dump(exclude=changed)


def doc_block(language: str, start: str) -> str:
    """The fenced ``language`` block of docs/plugins.md that starts with ``start``."""
    pattern = rf"```{language}\n({re.escape(start)}.*?)```"
    found = re.search(pattern, doc_text(), re.DOTALL)
    assert found is not None, f"docs/plugins.md has no {language} block starting {start!r}"
    return found.group(1)


@pytest.fixture
def club_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty, importable package ``club_rules`` in a temporary directory (the
    author's own package); its modules are forgotten after the test."""
    package = tmp_path / "club_rules"
    package.mkdir()
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield package
    for name in [name for name in sys.modules if name.split(".")[0] == "club_rules"]:
        del sys.modules[name]


def test_the_bombs_wait_example_in_the_docs_runs(club_rules: Path) -> None:
    """The second worked example, as printed: a module in the author's own package,
    named by its dotted path, loaded with allow_imports. S-BOMB-3 changes."""
    source = doc_block("python", '"""House rule "bombs wait their turn": no bomb out of turn.')
    (club_rules / "bombs_wait.py").write_text(source, encoding="utf-8")
    toml = club_rules.parent / "house_bombs_wait.toml"
    toml.write_text(doc_block("toml", "# house_bombs_wait.toml"), encoding="utf-8")

    bomb = "5j 5s 5p 5t"
    deal = stacked("MJ 3j", "", bomb)
    standard = tc.Game(tc.load_variant("standard", QUICK), deals=[deal])
    standard.apply(tc.Play(0, "3j"))
    assert tc.Play(2, bomb) in standard.legal_actions(2)  # S-BOMB-3: any time

    variant = tc.load_variant(toml, overrides=QUICK, allow_imports=True)
    assert variant.plugins == ("standard", "club_rules.bombs_wait")
    house = tc.Game(variant, deals=[deal])
    house.apply(tc.Play(0, "3j"))
    assert tc.Play(2, bomb) not in house.legal_actions(2)
    with pytest.raises(tc.IllegalAction, match="waits for its player's turn"):
        house.apply(tc.Play(2, bomb))
    house.apply(tc.Pass(1))
    house.apply(tc.Play(2, bomb))  # on its own turn
    assert house.observation(None).top_seat == 2
    # Seat 2 may still bomb its own trick while collecting it, as standard allows.
    for seat in (3, 0, 1):
        house.apply(tc.Pass(seat))
    assert house.turn == 2
    assert house.rulebook.implementations()["club_rules.bombs_wait"] == ["tichu_may_bomb"]


# --------------------------------------------------------------------------- naming plugins


def leader_plugin(name: str, answers: dict[str, int | None]) -> types.ModuleType:
    """A plugin module whose first leader is ``answers[name]`` (None: no answer)."""

    @hookimpl
    def tichu_first_leader() -> int | None:
        return answers[name]

    module = types.ModuleType(name)
    module.tichu_first_leader = tichu_first_leader  # type: ignore[attr-defined]
    return module


def test_the_newest_plugin_is_asked_first_and_none_defers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Plugins later in the list answer before earlier ones; None passes the question on."""
    answers: dict[str, int | None] = {"club.first": 1, "club.second": 2}
    for name in answers:
        monkeypatch.setitem(sys.modules, name, leader_plugin(name, answers))
    overrides = {**QUICK, "plugins": ["standard", "club.first", "club.second"]}
    variant = tc.load_variant("standard", overrides, allow_imports=True)
    deal = stacked("MJ")
    assert tc.Game(variant, deals=[deal]).turn == 2
    answers["club.second"] = None
    assert tc.Game(variant, deals=[deal]).turn == 1
    answers["club.first"] = None
    assert tc.Game(variant, deals=[deal]).turn == 0  # standard: the Mah Jong holder (S-EX-2)


def test_standard_is_asked_last_wherever_the_variant_lists_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "club.first", leader_plugin("club.first", {"club.first": 3}))
    overrides = {**QUICK, "plugins": ["club.first", "standard"]}
    game = tc.Game(tc.load_variant("standard", overrides, allow_imports=True), deals=[stacked()])
    assert game.rulebook.plugin_names == ["standard", "club.first"]
    assert game.turn == 3


def test_a_bundled_plugin_is_found_by_name() -> None:
    variant = tc.load_variant("standard", {"plugins": ["standard", "stray_dog"]})
    assert Rulebook(variant).plugin_names == ["standard", "stray_dog"]
    assert STRAY_DOG.__name__ == "tichu_core.plugins.stray_dog"
    assert resolve_plugin("stray_dog", allow_imports=False) is STRAY_DOG


def installed_entry_point(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> importlib.metadata.EntryPoint:
    """Pretends an installed package registers ``name = value`` in the ``tichu`` group."""
    entry = importlib.metadata.EntryPoint(name, value, ENTRY_POINT_GROUP)
    installed = importlib.metadata.entry_points

    def entry_points(**selection: Any) -> Any:
        found = installed(**selection)
        if selection.get("group") == ENTRY_POINT_GROUP:
            return importlib.metadata.EntryPoints([*found, entry])
        return found

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    return entry


def test_an_entry_point_is_found_by_name_without_allow_imports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An installed package registers ``club_leader = "club_rules.leader"`` in the
    ``tichu`` entry-point group; a variant names it like a bundled plugin."""
    assert ENTRY_POINT_GROUP == "tichu"

    @hookimpl
    def tichu_first_leader() -> int:
        return 3

    module = types.ModuleType("club_rules.leader")
    module.tichu_first_leader = tichu_first_leader  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    installed_entry_point(monkeypatch, "club_leader", "club_rules.leader")
    variant = tc.load_variant("standard", {**QUICK, "plugins": ["standard", "club_leader"]})
    assert not variant.allow_imports
    game = tc.Game(variant)
    assert game.turn == 3
    assert game.rulebook.plugin_names == ["standard", "club_leader"]


def test_an_entry_point_that_fails_to_load_is_a_plugin_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installed_entry_point(monkeypatch, "club_broken", "club_rules_not_installed.plugin")
    variant = tc.load_variant("standard", {"plugins": ["standard", "club_broken"]})
    with pytest.raises(tc.PluginError, match="club_rules_not_installed") as caught:
        tc.Game(variant)
    assert caught.value.plugin == "club_broken"


def test_a_dotted_module_needs_allow_imports_and_is_not_imported(
    tmp_path: Path, plugins_for_tests: str
) -> None:
    """Loading an untrusted variant file runs no foreign code."""
    module = f"{plugins_for_tests}.hook_never_imported"
    path = tmp_path / "untrusted.toml"
    path.write_text(f'extends = "standard"\nplugins = ["standard", "{module}"]\n')
    variant = tc.load_variant(path)  # loading only records the names
    with pytest.raises(tc.VariantError, match="allow_imports=True") as caught:
        tc.Game(variant)
    assert module in str(caught.value)
    assert "--allow-imports" in str(caught.value)
    assert module not in sys.modules


def test_a_dotted_module_is_imported_with_allow_imports(plugins_for_tests: str) -> None:
    module = f"{plugins_for_tests}.hook_raises"
    overrides = {"plugins": ["standard", module]}
    variant = tc.load_variant("standard", overrides, allow_imports=True)
    rulebook = tc.Game(variant).rulebook
    assert rulebook.plugin_names == ["standard", module]
    assert rulebook.implementations()[module] == ["tichu_trick_winner"]


def test_a_dotted_module_that_fails_to_import_is_a_plugin_error(plugins_for_tests: str) -> None:
    module = f"{plugins_for_tests}.hook_never_imported"  # raises when imported
    variant = tc.load_variant("standard", {"plugins": ["standard", module]}, allow_imports=True)
    with pytest.raises(tc.PluginError, match="failed to import") as caught:
        tc.Game(variant)
    assert caught.value.plugin == module


def test_an_unknown_plugin_name_is_a_clear_variant_error() -> None:
    variant = tc.load_variant("standard", {"plugins": ["standard", "stray_dgo"]})
    with pytest.raises(tc.VariantError, match=r"unknown plugin 'stray_dgo'.*entry point.*tichu"):
        tc.Game(variant)
    with pytest.raises(tc.VariantError, match="did you mean 'stray_dog'"):
        tc.Game(variant)


def test_a_misspelt_hook_name_is_refused_when_the_game_is_built(game_with: GameWith) -> None:
    """check_pending(): an implementation of a hook that does not exist is an error."""

    @hookimpl
    def tichu_dog_recipient(seat: int) -> list[int]:
        return [seat]

    with pytest.raises(tc.PluginError, match="tichu_dog_recipient") as caught:
        game_with(tichu_dog_recipient)
    assert caught.value.plugin == "hook_tests.plugin_0"


def test_an_argument_the_hook_does_not_have_is_refused_when_the_game_is_built(
    game_with: GameWith,
) -> None:
    """Hooks used to receive ``state``; they now receive ``table``."""

    @hookimpl
    def tichu_trick_winner(state: Any) -> int:
        return int(state.top_seat)

    with pytest.raises(tc.PluginError, match="state") as caught:
        game_with(tichu_trick_winner)
    assert caught.value.plugin == "hook_tests.plugin_0"


# --------------------------------------------------------------------------- PluginError


def test_a_failing_hook_names_plugin_and_hook_and_leaves_the_game_unchanged(
    plugins_for_tests: str,
) -> None:
    module = f"{plugins_for_tests}.hook_raises"  # fails in tichu_trick_winner
    overrides = {**QUICK, "plugins": ["standard", module]}
    variant = tc.load_variant("standard", overrides, allow_imports=True)
    game = tc.Game(variant, deals=[stacked("MJ 3j")])
    game.apply(tc.Play(0, "3j"))
    for seat in (1, 2, 3):
        game.apply(tc.Pass(seat))
    before = snapshot(game)

    with pytest.raises(tc.PluginError) as caught:
        game.apply(tc.Pass(0))  # seat 0 collects: the engine asks who wins the trick

    error = caught.value
    assert (error.plugin, error.hook) == (module, "tichu_trick_winner")
    assert f"plugin {module!r} failed in hook tichu_trick_winner: RuntimeError" in str(error)
    assert isinstance(error.__cause__, RuntimeError)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "hook", ["tichu_hand_over", "tichu_score_hand", "tichu_match_over", "tichu_next_hand"]
)
def test_a_plugin_failing_at_the_end_of_a_hand_leaves_the_game_unchanged(
    hook: str, game_with: GameWith
) -> None:
    """The last play of a hand runs the trick, scoring, match end and the next deal;
    a failure anywhere in that step undoes all of it."""

    @hookimpl
    def tichu_hand_over(table: TableView) -> None:
        if len(table.out_order) == 2:
            raise ValueError("house rule bug")

    @hookimpl
    def tichu_score_hand() -> None:
        raise ValueError("house rule bug")

    @hookimpl
    def tichu_match_over() -> None:
        raise ValueError("house rule bug")

    @hookimpl
    def tichu_next_hand(previous: TableView | None) -> None:
        if previous is not None:  # the first hand is dealt before any play
            raise ValueError("house rule bug")

    impls = (tichu_hand_over, tichu_score_hand, tichu_match_over, tichu_next_hand)
    failing = {impl.__name__: impl for impl in impls}[hook]
    game = game_with(failing, deal=DOUBLE_VICTORY)
    lead_straight_then_dog(game)
    before = snapshot(game)

    with pytest.raises(tc.PluginError, match=hook) as caught:
        game.apply(tc.Play(2, PAIRS))

    assert caught.value.hook == hook
    assert caught.value.plugin == "hook_tests.plugin_0"
    assert snapshot(game) == before
    assert game.hand_results == []
    game = game_with(deal=DOUBLE_VICTORY)  # the same hand without the plugin ends
    play_double_victory(game)
    assert len(game.hand_results) == 1
