"""The rulebook checks every answer where it arrives, and says whose answer was wrong.

Each test is a mistake a house-rule author makes, played through a ``Game``: the
answer is refused with a ``PluginError`` whose ``.plugin`` and ``.hook`` name the
plugin and the hook that gave it, whose message says what was expected, and (when
it happens during ``apply``) the game is left exactly as it was. Also here: hook
tracing (``Game(trace=...)``, ``TICHU_TRACE_HOOKS``) and
``Rulebook.implementations()``.

Test plugins are module objects put in ``sys.modules`` under a dotted name and named
by the variant with ``allow_imports=True``, so the engine resolves them like any
plugin module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import pytest
from scenario import plugin_with

import tichu_core as tc
from tichu_core.cardplay.cards import deck_mask, mask_points
from tichu_core.rules import hookspecs
from tichu_core.rules.hookspecs import hookimpl
from tichu_core.rules.rulebook import TRACE_VARIABLE, Rulebook

HOOK_NAMES = sorted(name for name in dir(hookspecs) if name.startswith("tichu_"))

# No Grand Tichu phase and no exchange: the first leader is on turn at once.
QUICK: dict[str, object] = {"calls.grand_tichu": False, "exchange.targets": "none"}
DECK = tc.load_variant("standard").deck_codes


def stacked(*given: str, sizes: tuple[int, ...] = (14, 14, 14, 14)) -> list[list[str]]:
    """A deal for seats 0, 1, …: each gets the cards given for it, then the rest of the
    deck in deck order up to its size."""
    assert sum(sizes) == len(DECK)
    hands = [[str(card) for card in tc.parse_cards(text)] for text in given]
    hands += [[] for _ in range(len(sizes) - len(hands))]
    taken = {code for hand in hands for code in hand}
    rest = [code for code in DECK if code not in taken]
    for hand, size in zip(hands, sizes, strict=True):
        while len(hand) < size:
            hand.append(rest.pop(0))
    return hands


# Seat 0 goes out with a 13-card straight and then the Dog, which gives the lead to
# its partner; seat 2 goes out with seven pairs in a row: a double victory (S-END-1).
STRAIGHT = "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt"
PAIRS = "2s 2p 3j 3p 4j 4s 5j 5s 6s 6p 7j 7p 8j 8s"
DOUBLE_VICTORY = stacked(f"DOG {STRAIGHT}", "", PAIRS)


def play_to_the_last_action(game: tc.Game) -> tc.Action:
    """Plays DOUBLE_VICTORY up to its last action, which ends the hand; returns it."""
    game.apply(tc.Play(0, STRAIGHT))
    game.apply(tc.Wish(0, None))
    for seat in (1, 2, 3, 0):  # seat 0 collects its own trick by passing (S-TRICK-2)
        game.apply(tc.Pass(seat))
    game.apply(tc.Play(0, "DOG"))  # seat 0 is out; the lead goes to seat 2 (S-DOG-1)
    return tc.Play(2, PAIRS)


class Install(Protocol):
    def __call__(self, name: str, *impls: Callable[..., Any]) -> str: ...


@pytest.fixture
def install(monkeypatch: pytest.MonkeyPatch) -> Install:
    """Makes a plugin module ``name`` holding the given hook implementations."""

    def install(name: str, *impls: Callable[..., Any]) -> str:
        plugin_with(monkeypatch, name, *impls)
        return name

    return install


def house(*plugins: str, quick: bool = True) -> tc.Variant:
    """The standard game plus the named plugins (quick: no Grand Tichu, no exchange)."""
    overrides = {**(QUICK if quick else {}), "plugins": ["standard", *plugins]}
    return tc.load_variant("standard", overrides, allow_imports=True)


def snapshot(game: tc.Game) -> tuple[Any, ...]:
    """Everything a caller sees of a game without asking a hook."""
    return (
        game.to_json(),
        [game.observation(player).model_dump() for player in (None, *range(game.players))],
        game.waiting_for,
        len(game.event_log),
        list(game.scores),
        list(game.hand_results),
        game.is_over,
    )


def refused(
    caught: pytest.ExceptionInfo[tc.PluginError], plugin: str, hook: str, expected: str
) -> None:
    """The error names the plugin and the hook and says what was expected."""
    error = caught.value
    assert (error.plugin, error.hook) == (plugin, hook)
    message = str(error)
    assert repr(plugin) in message and hook in message
    assert f"expected {expected}" in message, message


def apply_refused(game: tc.Game, action: tc.Action) -> pytest.ExceptionInfo[tc.PluginError]:
    """Applies ``action``, expecting a PluginError that leaves the game unchanged."""
    before = snapshot(game)
    with pytest.raises(tc.PluginError) as caught:
        game.apply(action)
    assert snapshot(game) == before  # to_json() holds the actions: none was recorded
    return caught


# --------------------------------------------------------------------------- recipients


def test_S_DOG_2_a_dog_recipient_that_is_out_is_refused_not_a_frozen_game(
    install: Install,
) -> None:
    """The house rule sends the Dog's lead to the partner, forgetting that the partner
    may be out. The old engine gave the lead to a seat with no cards and the game froze
    silently; now the answer is refused and nothing happens."""

    @hookimpl
    def tichu_dog_recipients(table: tc.TableView, seat: int) -> list[int]:
        return [(seat + 2) % table.seats]

    plugin = install("club.always_partner", tichu_dog_recipients)
    # Seat 2 holds only the Mah Jong: it leads it and is out at once.
    game = tc.Game(house(plugin), deals=[stacked("DOG Aj", "", "MJ", sizes=(14, 14, 1, 27))])
    game.apply(tc.Play(2, "MJ"))
    game.apply(tc.Wish(2, None))
    game.apply(tc.Pass(3))
    game.apply(tc.Play(0, "Aj"))
    for seat in (1, 3, 0):  # seat 0 collects its trick and leads
        game.apply(tc.Pass(seat))
    assert game.turn == 0
    assert game.observation(None).out_order == [2]

    caught = apply_refused(game, tc.Play(0, "DOG"))

    refused(caught, plugin, "tichu_dog_recipients", "seats that still hold cards")
    assert "[2]" in str(caught.value)  # the answer is shown
    assert game.turn == 0


# --------------------------------------------------------------------------- nobody can act


def test_a_hand_that_never_ends_is_blamed_on_the_plugin_answering_hand_over(
    install: Install,
) -> None:
    """S-END-1 replaced by a rule that never says yes: when the last seat goes out
    nobody can act, and the error names the plugin that answered tichu_hand_over (not
    the one that shortened the deck)."""

    @hookimpl
    def tichu_deck() -> int:
        return deck_mask(1, [code for code in DECK if code not in ("MJ", "2j", "3j", "4j")])

    @hookimpl
    def tichu_hand_over() -> bool:
        return False  # "the hand ends when I say so": never

    deck = install("club.four_cards", tichu_deck)
    never = install("club.never_over", tichu_hand_over)
    game = tc.Game(house(deck, never), deals=[[["MJ"], ["2j"], ["3j"], ["4j"]]])
    game.apply(tc.Play(0, "MJ"))
    game.apply(tc.Wish(0, None))
    game.apply(tc.Play(1, "2j"))
    game.apply(tc.Play(2, "3j"))  # one seat holds cards: the standard hand would be over

    caught = apply_refused(game, tc.Play(3, "4j"))

    error = caught.value
    assert (error.plugin, error.hook) == (never, "tichu_hand_over")
    assert "nobody can act" in str(error) and "not over" in str(error)
    assert repr(never) in str(error)


def test_blame_names_no_plugin_before_the_hook_has_answered() -> None:
    rulebook = Rulebook(tc.load_variant("standard"))
    error = rulebook.blame("tichu_hand_over", "nobody can act")
    assert (error.plugin, error.hook) == (None, "tichu_hand_over")
    assert str(error) == "tichu_hand_over: nobody can act"


# --------------------------------------------------------------------------- wrong answers


def test_a_layout_answered_as_text_is_refused_when_the_game_is_built(install: Install) -> None:
    """T6-1-like layout written as a string of team digits instead of a list."""

    @hookimpl
    def tichu_layout() -> str:
        return "0011"

    plugin = install("club.side_by_side", tichu_layout)
    with pytest.raises(tc.PluginError) as caught:
        tc.Game(house(plugin))
    refused(caught, plugin, "tichu_layout", "a team number 0..3 for each seat")
    assert "'0011'" in str(caught.value)


def test_S_TRICK_2_a_trick_winner_out_of_range_is_refused(install: Install) -> None:
    """ "The trick goes to the seat after its top player", without the modulo: when
    seat 3 is on top the answer is seat 4."""

    @hookimpl
    def tichu_trick_winner(table: tc.TableView) -> int:
        assert table.top_seat is not None
        return table.top_seat + 1

    plugin = install("club.next_takes", tichu_trick_winner)
    game = tc.Game(house(plugin), deals=[stacked("MJ 3j", "", "", "Aj")])
    game.apply(tc.Play(0, "3j"))
    game.apply(tc.Pass(1))
    game.apply(tc.Pass(2))
    game.apply(tc.Play(3, "Aj"))
    for seat in (0, 1, 2):
        game.apply(tc.Pass(seat))

    caught = apply_refused(game, tc.Pass(3))  # seat 3 collects: who takes the trick?

    refused(caught, plugin, "tichu_trick_winner", "a seat 0..3")
    assert "with 4" in str(caught.value)


def test_S_EX_2_a_first_leader_without_cards_is_refused(install: Install) -> None:
    """Three play at a four-seat table (seat 1 is dealt nothing) and the house rule says
    the seat after the dealer leads: seat 1, which has no card to lead."""

    @hookimpl
    def tichu_first_leader(table: tc.TableView) -> int:
        return (table.dealer + 1) % table.seats

    plugin = install("club.after_dealer", tichu_first_leader)
    with pytest.raises(tc.PluginError) as caught:
        tc.Game(house(plugin), deals=[stacked(sizes=(19, 0, 19, 18))])
    refused(caught, plugin, "tichu_first_leader", "a seat that holds cards")


def test_S_SCORE_a_score_per_seat_instead_of_per_score_line_is_refused(
    install: Install,
) -> None:
    """Scoring each seat's won cards gives four numbers; the table has two score lines."""

    @hookimpl
    def tichu_score_hand(table: tc.TableView) -> tc.HandScore:
        return tc.HandScore(scores=[mask_points(pile) for pile in table.piles])

    plugin = install("club.seat_scores", tichu_score_hand)
    game = tc.Game(house(plugin), deals=[DOUBLE_VICTORY])
    last = play_to_the_last_action(game)

    caught = apply_refused(game, last)

    refused(caught, plugin, "tichu_score_hand", "a HandScore with 2 integer scores")
    assert "team 0+2, team 1+3" in str(caught.value)
    assert game.hand_results == [] and game.scores == [0, 0]


@pytest.mark.parametrize(
    ("card_points", "details", "expected"),
    [
        ([10, 20, 30, 40], {}, "card_points: none, or 2 integers"),
        ([0, 100], {1: "seat one"}, "details: a dict with text keys"),
    ],
)
def test_S_SCORE_card_points_per_seat_or_details_without_text_keys_are_refused(
    install: Install, card_points: list[int], details: dict[Any, Any], expected: str
) -> None:
    """Card points are one per score line (or none); details are reported as JSON, so
    their keys are text."""

    @hookimpl
    def tichu_score_hand(table: tc.TableView) -> tc.HandScore:
        return tc.HandScore(scores=[0, 0], card_points=card_points, details=details)

    plugin = install("club.odd_score", tichu_score_hand)
    game = tc.Game(house(plugin), deals=[DOUBLE_VICTORY])
    last = play_to_the_last_action(game)
    caught = apply_refused(game, last)
    refused(caught, plugin, "tichu_score_hand", expected)


def test_S_SCORE_a_plugin_s_details_are_reported_with_the_hand(install: Install) -> None:
    @hookimpl
    def tichu_score_hand(table: tc.TableView) -> tc.HandScore:
        return tc.HandScore(scores=[0, 0], details={"rule": "club scoring"})

    game = tc.Game(house(install("club.details", tichu_score_hand)), deals=[DOUBLE_VICTORY])
    events = game.apply(play_to_the_last_action(game))
    (scored,) = [event for event in events if event.type == "hand_scored"]
    assert scored.details == {"rule": "club scoring"}
    assert game.hand_results[0].details == {"rule": "club scoring"}


def test_S_DEAL_3_a_seating_with_a_player_twice_is_refused_at_the_next_hand(
    install: Install,
) -> None:
    """ "The last one out moves to seat 0": the author forgot to move the player sitting
    there, so player 2 sits twice and player 0 not at all."""

    @hookimpl
    def tichu_next_hand(previous: tc.TableView | None) -> tc.Seating | None:
        if previous is None:
            return None  # the first hand: standard seating
        last = previous.players[previous.out_order[-1]]
        return tc.Seating(players=[last, *previous.players[1:]], dealer=0)

    plugin = install("club.last_moves_up", tichu_next_hand)
    game = tc.Game(house(plugin), deals=[DOUBLE_VICTORY])
    last = play_to_the_last_action(game)

    caught = apply_refused(game, last)

    refused(caught, plugin, "tichu_next_hand", "4 seats holding each player 0..3 once")
    assert "players=[2, 1, 2, 3]" in str(caught.value)
    assert game.hand_index == 0


def test_S_EX_1_push_targets_naming_the_pushing_seat_are_refused(install: Install) -> None:
    """ "One card to every seat" written without leaving out the seat itself."""

    @hookimpl
    def tichu_push_targets(table: tc.TableView) -> dict[int, int]:
        return dict.fromkeys(range(table.seats), 1)

    plugin = install("club.one_each", tichu_push_targets)
    game = tc.Game(house(plugin, quick=False), seed=1)
    for seat in range(3):
        game.apply(tc.GrandTichu(seat, False))

    # The exchange is planned once every seat has decided on Grand Tichu.
    caught = apply_refused(game, tc.GrandTichu(3, False))

    refused(caught, plugin, "tichu_push_targets", "a dict of other seats -> number of cards")
    assert "{0: 1, 1: 1, 2: 1, 3: 1}" in str(caught.value)


def test_S_CALL_1_a_call_permission_answered_with_a_reason_string_is_refused(
    install: Install,
) -> None:
    """The author answered the reason, not a Refusal: the first question about a Tichu
    call (listing the actions, or the call itself) is refused."""

    @hookimpl
    def tichu_may_call(call: str) -> str | None:
        return "no Tichu at this table" if call == "tichu" else None

    plugin = install("club.no_tichu", tichu_may_call)
    game = tc.Game(house(plugin), seed=1)

    with pytest.raises(tc.PluginError) as caught:
        game.legal_actions(0)
    refused(caught, plugin, "tichu_may_call", "True, False or a Refusal")

    caught = apply_refused(game, tc.Tichu(0))
    refused(caught, plugin, "tichu_may_call", "True, False or a Refusal")


def test_a_may_bomb_answer_that_is_not_a_permission_is_refused(install: Install) -> None:
    """S-BOMB-3: asked whenever a seat could bomb out of turn."""

    @hookimpl
    def tichu_may_bomb() -> int:
        return 0  # meant False

    plugin = install("club.no_bombs", tichu_may_bomb)
    game = tc.Game(house(plugin), deals=[stacked("MJ 3j")])
    game.apply(tc.Play(0, "3j"))
    with pytest.raises(tc.PluginError) as caught:
        game.legal_actions(2)
    refused(caught, plugin, "tichu_may_bomb", "True, False or a Refusal")


def test_GS_5_titles_keyed_by_name_are_refused_when_an_observation_is_built(
    install: Install,
) -> None:
    @hookimpl
    def tichu_titles() -> dict[str, str]:
        return {"north": "Great Lord"}

    plugin = install("club.titles", tichu_titles)
    game = tc.Game(house(plugin), seed=1)
    with pytest.raises(tc.PluginError) as caught:
        game.observation(0)
    refused(caught, plugin, "tichu_titles", "a dict of seats 0..3 -> a title")


def test_each_wrong_answer_is_blamed_on_its_own_hook(install: Install) -> None:
    """Two plugins, one answering right and one wrong: the blame goes to the wrong one."""

    @hookimpl
    def tichu_wish_ranks() -> list[int]:
        return [2, 3, 4, 5, 6, 7, 8, 9, 10]  # S-WISH-1 restricted: no face card is wished

    @hookimpl
    def tichu_dog_recipients(seat: int) -> list[int]:
        return [seat]  # the Dog's player leads again: allowed, it holds cards

    @hookimpl
    def tichu_dragon_recipients() -> list[str]:
        return ["left", "right"]

    right = install("club.low_wishes", tichu_wish_ranks, tichu_dog_recipients)
    wrong = install("club.dragon_by_name", tichu_dragon_recipients)
    game = tc.Game(house(right, wrong), deals=[stacked("MJ DR DOG")])
    game.apply(tc.Play(0, "DOG"))
    assert game.turn == 0
    game.apply(tc.Play(0, "MJ"))
    assert tc.Wish(0, "J") not in game.legal_actions(0)
    game.apply(tc.Wish(0, None))
    for seat in (1, 2, 3, 0):
        game.apply(tc.Pass(seat))
    game.apply(tc.Play(0, "DR"))
    for seat in (1, 2, 3):
        game.apply(tc.Pass(seat))

    caught = apply_refused(game, tc.Pass(0))

    refused(caught, wrong, "tichu_dragon_recipients", "a list of distinct seats 0..3")


# --------------------------------------------------------------------------- deals


def same_cards_for_everyone(cards: list[int], seats: int) -> list[list[int]]:
    return [cards[:14] for _ in range(seats)]


def a_card_lost(cards: list[int], seats: int) -> list[list[int]]:
    return [cards[seat * 13 : (seat + 1) * 13] for seat in range(seats)]


@pytest.mark.parametrize("plan", [same_cards_for_everyone, a_card_lost])
def test_S_DEAL_1_a_deal_that_is_not_the_deck_is_refused_when_the_game_is_built(
    plan: Callable[[list[int], int], list[list[int]]], install: Install
) -> None:
    @hookimpl
    def tichu_deal(cards: list[int], seats: int) -> list[list[int]]:
        return plan(cards, seats)

    plugin = install("club.deal", tichu_deal)
    with pytest.raises(tc.PluginError) as caught:
        tc.Game(house(plugin), seed=1)
    refused(caught, plugin, "tichu_deal", "4 lists that hold every dealt card exactly once")


@pytest.mark.parametrize("plan", [same_cards_for_everyone, a_card_lost])
def test_S_DEAL_1_a_deal_that_is_not_the_deck_is_refused_at_the_next_hand(
    plan: Callable[[list[int], int], list[list[int]]], install: Install
) -> None:
    """The first hand is stacked; the plugin's deal plan is first asked for the second,
    within the action that ends the first hand, which is then undone."""

    @hookimpl
    def tichu_deal(cards: list[int], seats: int) -> list[list[int]]:
        return plan(cards, seats)

    plugin = install("club.deal", tichu_deal)
    game = tc.Game(house(plugin), seed=1, deals=[DOUBLE_VICTORY])
    last = play_to_the_last_action(game)

    caught = apply_refused(game, last)

    refused(caught, plugin, "tichu_deal", "4 lists that hold every dealt card exactly once")


# ------------------------------------------------------------------- answers of the wrong shape


def test_a_seating_whose_players_are_not_a_list_is_refused(install: Install) -> None:
    @hookimpl
    def tichu_next_hand() -> tc.Seating:
        return tc.Seating(players=4, dealer=0)  # type: ignore[arg-type]

    plugin = install("club.seating", tichu_next_hand)
    with pytest.raises(tc.PluginError) as caught:
        tc.Game(house(plugin))
    assert caught.value.hook == "tichu_next_hand"


def test_an_outcome_whose_termination_is_text_is_refused(install: Install) -> None:
    @hookimpl
    def tichu_match_over() -> tc.Outcome:
        return tc.Outcome("one hand", (0,))  # type: ignore[arg-type]

    plugin = install("club.one_hand", tichu_match_over)
    game = tc.Game(house(plugin), deals=[DOUBLE_VICTORY])
    last = play_to_the_last_action(game)
    with pytest.raises(tc.PluginError) as caught:
        game.apply(last)
    assert caught.value.hook == "tichu_match_over"


def test_a_plugin_that_adds_a_seat_needs_no_seating_of_its_own(install: Install) -> None:
    @hookimpl
    def tichu_seats() -> int:
        return 5

    plugin = install("club.five_seats", tichu_seats)
    assert tc.Game(house(plugin)).seats == 5


# --------------------------------------------------------------------------- tracing


def test_trace_reports_every_answer_with_its_hook_and_plugin() -> None:
    lines: list[str] = []
    game = tc.Game(tc.load_variant("house_stray_dog", QUICK), seed=1, trace=lines.append)
    assert "tichu hook tichu_seats() -> 4 [standard]" in lines
    assert "tichu hook tichu_score_lines(players=4) -> ['team 0+2', 'team 1+3'] [standard]" in (
        lines
    )
    leader = game.turn
    assert f"tichu hook tichu_first_leader() -> {leader} [standard]" in lines
    assert all(line.startswith("tichu hook tichu_") for line in lines)

    lines.clear()
    game = tc.Game(
        tc.load_variant("house_stray_dog", QUICK),
        deals=[stacked("MJ DOG")],
        trace=lines.append,
    )
    lines.clear()
    game.apply(tc.Play(0, "DOG"))
    assert "tichu hook tichu_dog_recipients(seat=0) -> [1] [stray_dog]" in lines


def test_trace_shows_the_wrong_answer_before_the_error(install: Install) -> None:
    @hookimpl
    def tichu_layout() -> str:
        return "0011"

    plugin = install("club.side_by_side", tichu_layout)
    lines: list[str] = []
    with pytest.raises(tc.PluginError):
        tc.Game(house(plugin), trace=lines.append)
    assert lines[-1] == f"tichu hook tichu_layout() -> '0011' [{plugin}]"


def test_TICHU_TRACE_HOOKS_writes_the_trace_to_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert TRACE_VARIABLE == "TICHU_TRACE_HOOKS"
    monkeypatch.setenv("TICHU_TRACE_HOOKS", "1")
    tc.Game("standard", seed=1)
    captured = capsys.readouterr()
    assert "tichu hook tichu_deck() -> " in captured.err
    assert "tichu hook tichu_layout() -> [0, 1, 0, 1] [standard]" in captured.err
    assert captured.out == ""


@pytest.mark.parametrize("value", ["", "0"])
def test_TICHU_TRACE_HOOKS_empty_or_zero_is_off(
    value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TICHU_TRACE_HOOKS", value)
    tc.Game("standard", seed=1)
    assert capsys.readouterr().err == ""


def test_a_trace_callable_wins_over_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TICHU_TRACE_HOOKS", "1")
    lines: list[str] = []
    tc.Game("standard", seed=1, trace=lines.append)
    assert lines
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------------------- implementations


def test_implementations_lists_the_hooks_of_each_plugin() -> None:
    found = Rulebook(tc.load_variant("house_stray_dog")).implementations()
    assert list(found) == ["standard", "stray_dog"]
    assert sorted(found["standard"]) == HOOK_NAMES
    assert found["stray_dog"] == ["tichu_dog_recipients"]


def test_implementations_lists_a_plugin_that_implements_nothing(install: Install) -> None:
    @hookimpl
    def tichu_trick_winner() -> None:
        return None

    @hookimpl
    def tichu_first_leader() -> None:
        return None

    empty = install("club.empty")
    two = install("club.two", tichu_trick_winner, tichu_first_leader)
    found = Rulebook(house(empty, two)).implementations()
    assert found[empty] == []
    assert sorted(found[two]) == ["tichu_first_leader", "tichu_trick_winner"]
    assert Rulebook(house(empty, two)).plugin_names == ["standard", empty, two]


def test_games_of_one_variant_object_share_its_rulebook(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules hold no game state: games made from the same frozen variant object share a
    rulebook (made once); another variant object, a traced game and a traced session
    each get their own."""
    variant = tc.load_variant("standard")
    first, second = tc.Game(variant, seed=1), tc.Game(variant, seed=2)
    assert first.rulebook is second.rulebook
    assert tc.Game(tc.load_variant("standard"), seed=1).rulebook is not first.rulebook
    lines: list[str] = []
    traced = tc.Game(variant, seed=1, trace=lines.append)
    assert traced.rulebook is not first.rulebook and lines
    monkeypatch.setenv(TRACE_VARIABLE, "1")
    assert tc.Game(variant, seed=1).rulebook is not first.rulebook
    # Sharing changes nothing in play: the same seed deals and plays the same.
    monkeypatch.delenv(TRACE_VARIABLE)
    again = tc.Game(variant, seed=1)
    assert again.observation(0) == first.observation(0)
