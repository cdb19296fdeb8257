"""A house kind of combination: runs of triples (plugins/triple_runs.py).

The plugin adds one kind through ``tichu_combinations`` and leaves the standard
recognition and move generation alone. Scenario tests play it from stacked deals
under ``standard`` and ``house_triple_runs``; property tests check the listed plays
against a brute-force oracle (every subset of the hand, which the engine never
tries) and the composition of kinds (adding, removing) against the standard plays.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenario import deal, listed, of_type, passes, play, plugin_with, refused

import tichu_core as tc
from tichu_core.cardplay.cards import deck_mask, iter_cards, mask_of, parse_cards
from tichu_core.cardplay.combinations import FIRST_HOUSE_KIND, Kind, PlayTuple, recognize
from tichu_core.cardplay.kinds import Combinations, HouseKind
from tichu_core.cardplay.moves import DEFAULT_MOVE_RULES, plays
from tichu_core.rules.hookspecs import hookimpl
from tichu_core.rules.loading import resolve_plugin
from tichu_core.rules.playrules import PlayRules

triple_runs: Any = resolve_plugin("triple_runs", allow_imports=False)
QUICK: dict[str, object] = {"calls.grand_tichu": False, "exchange.targets": "none"}
HANDS = [
    "MJ 3j 3s 3p 4j 4s 4p 9j 10j Jj Qj Kj Aj 2j",
    "5j 5s 5p 6j 6s 6p 2s 2p 7t 8t PH 10t Jt Qt",
    "7j 7s 7p 8j 8s 8p 9s 9p 9t 10s 10p Js Jp DOG",
    "DR 2t 3t 4t 5t 6t Qs Qp Ks Kp Kt As Ap At",
]


def game_of(name: str) -> tc.Game:
    return tc.Game(tc.load_variant(name, dict(QUICK)), deals=[deal(HANDS)])


def test_a_run_of_triples_is_led_and_beaten_only_by_a_higher_one_or_a_bomb() -> None:
    """S-COMB-2 (standard): 333 444 is no combination. With the house kind it is led;
    555 666 beats it (same length, higher rank, S-COMB-3); 777 888 999 does not (longer);
    a straight flush bombs it (S-BOMB-2)."""
    standard = game_of("standard")
    assert not listed(standard, 0, "3j 3s 3p 4j 4s 4p")
    refused(standard, tc.Play(0, "3j 3s 3p 4j 4s 4p"), "S-COMB-2")

    game = game_of("house_triple_runs")
    assert listed(game, 0, "3j 3s 3p 4j 4s 4p")
    (played,) = of_type(play(game, 0, "3j 3s 3p 4j 4s 4p"), "played")
    assert (played.combination, played.rank) == ("triple_run", 4.0)
    assert listed(game, 1, "5j 5s 5p 6j 6s 6p")
    assert not listed(game, 1, "5j 5s 5p")  # a triple is another kind
    play(game, 1, "5j 5s 5p 6j 6s 6p")
    assert not listed(game, 2, "7j 7s 7p 8j 8s 8p 9s 9p 9t")  # three triples: longer
    refused(game, tc.Play(2, "7j 7s 7p 8j 8s 8p 9s 9p 9t"), "S-COMB-3")
    assert listed(game, 3, "2t 3t 4t 5t 6t")  # a bomb, out of turn (S-BOMB-3)
    (bomb,) = of_type(play(game, 3, "2t 3t 4t 5t 6t"), "played")
    assert bomb.bomb and bomb.combination == "straight_flush"
    passes(game, 0, 1, 2, 3)  # everyone passes; seat 3 collects its trick (S-TRICK-2)
    assert game.turn == 3


def test_the_phoenix_and_specials_never_join_a_run_of_triples() -> None:
    kind = triple_runs.TripleRuns()
    assert kind.recognize(mask_of(parse_cards("3j 3s PH 4j 4s 4p"))) == []
    assert kind.recognize(mask_of(parse_cards("3j 3s 3p 5j 5s 5p"))) == []  # a gap
    assert kind.recognize(mask_of(parse_cards("3j 3s 3p 3t 4j 4s 4p"))) == []  # four 3s
    assert kind.recognize(mask_of(parse_cards("Kj Ks Kp Aj As Ap"))) == [
        (8, 6, 14, mask_of(parse_cards("Kj Ks Kp Aj As Ap")), 0)
    ]


# --------------------------------------------------------------------------- the oracle

ONE_DECK = [card for card in iter_cards(deck_mask(1))]


def oracle_runs(hand: int) -> set[PlayTuple]:
    """Every subset of the hand that reads as a run of triples (brute force)."""
    cards = [1 << card for card in iter_cards(hand) if card >= 8]
    found: set[PlayTuple] = set()
    for size in range(6, len(cards) + 1, 3):
        for chosen in combinations(cards, size):
            mask = sum(chosen)
            by_rank: dict[int, int] = {}
            for bit in chosen:
                rank = (bit.bit_length() - 1) // 8 + 1
                by_rank[rank] = by_rank.get(rank, 0) + 1
            ranks = sorted(by_rank)
            if all(by_rank[r] == 3 for r in ranks) and ranks == list(
                range(ranks[0], ranks[0] + len(ranks))
            ):
                found.add((8, size, ranks[-1], mask, 0))
    return found


rich_hands = st.lists(st.sampled_from(range(2, 9)), min_size=3, max_size=5, unique=True).flatmap(
    lambda ranks: st.permutations(
        [card for card in ONE_DECK if card >= 8 and (card // 8 + 1) in ranks]
    ).map(lambda cards: cards[:14])
)


@settings(max_examples=60, deadline=None)
@given(rich_hands, st.sampled_from(ONE_DECK))
def test_listed_runs_of_triples_are_exactly_the_oracle_s(cards: list[Any], extra: Any) -> None:
    hand = mask_of([*cards[:13], extra])
    kind = triple_runs.TripleRuns()
    listed_runs = kind.lead_plays(hand)
    assert len(listed_runs) == len(set(listed_runs)), "a run listed twice"
    assert set(listed_runs) == oracle_runs(hand)
    for run in listed_runs:
        assert kind.recognize(run[3]) == [run]


@settings(max_examples=60, deadline=None)
@given(rich_hands)
def test_the_play_rules_add_the_kind_to_the_standard_plays(cards: list[Any]) -> None:
    """A lead lists the standard plays and the house kind's; a follow on a run lists
    the higher runs of its length and the bombs; on a standard top, nothing of the
    house kind (it beats nothing else)."""
    hand = mask_of(cards[:14])
    kind = triple_runs.TripleRuns()
    rules = PlayRules(DEFAULT_MOVE_RULES, Combinations().adding(kind))
    standard = plays(hand, None)
    runs = kind.lead_plays(hand)
    assert rules.plays(hand, None) == standard + runs
    top: PlayTuple = (8, 6, 4, mask_of(parse_cards("3j 3s 3p 4j 4s 4p")), 0)
    bombs = [p for p in standard if p[0] >= Kind.FOUR_BOMB]
    higher = [r for r in runs if r[1] == 6 and r[2] > 4]
    assert sorted(rules.plays(hand, top)) == sorted(bombs + higher)
    pair = recognize(mask_of(parse_cards("2j 2s")))[0]
    assert rules.plays(hand, pair) == plays(hand, pair)


def test_a_kind_can_be_removed_and_a_bad_kind_is_refused() -> None:
    hand = mask_of(parse_cards("2j 3s 4p 5t 6j 9s 9p"))
    without = PlayRules(DEFAULT_MOVE_RULES, Combinations().without(Kind.STRAIGHT))
    assert [p for p in without.plays(hand, None) if p[0] == Kind.STRAIGHT] == []
    assert without.plays(hand, None) == [p for p in plays(hand, None) if p[0] != Kind.STRAIGHT]
    assert without.recognize(mask_of(parse_cards("2j 3s 4p 5t 6j")), None) == []

    class Nameless(HouseKind):
        kind = FIRST_HOUSE_KIND

    with pytest.raises(ValueError, match="needs a name"):
        Combinations().adding(Nameless())

    class Clash(HouseKind):
        kind = Kind.PAIR
        name = "clash"

    with pytest.raises(ValueError, match="kind must be"):
        Combinations().adding(Clash())


def test_a_plugin_answering_a_bad_kind_is_a_plugin_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The composed kinds are checked where they arrive: a PluginError names the plugin."""

    @hookimpl
    def tichu_combinations(combinations: Combinations) -> Combinations:
        return Combinations(combinations.standard, ("not a kind",))  # type: ignore[arg-type]

    plugin_with(monkeypatch, "house_bad.kinds", tichu_combinations)
    variant = tc.load_variant(
        "standard", {"plugins": ["standard", "house_bad.kinds"]}, allow_imports=True
    )
    with pytest.raises(tc.PluginError, match=r"house_bad\.kinds.*tichu_combinations"):
        tc.Game(variant)


def test_kinds_from_several_plugins_compose_in_the_order_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """triple_runs adds its kind; a second plugin listed after it sees that kind and
    drops straights: the game has both changes."""
    seen: list[Combinations] = []

    @hookimpl
    def tichu_combinations(combinations: Combinations) -> Combinations:
        seen.append(combinations)
        return combinations.without(tc.Kind.STRAIGHT)

    plugin_with(monkeypatch, "house_more.kinds", tichu_combinations)
    plugins = ["standard", "triple_runs", "house_more.kinds"]
    variant = tc.load_variant("standard", {**QUICK, "plugins": plugins}, allow_imports=True)
    game = tc.Game(variant, deals=[deal(HANDS)])
    assert [h.name for h in seen[0].house] == ["triple_run"]  # asked after triple_runs
    assert listed(game, 0, "3j 3s 3p 4j 4s 4p")
    kinds = game.rulebook.play_rules.combinations
    assert tc.Kind.STRAIGHT not in kinds.standard
    assert [h.name for h in kinds.house] == ["triple_run"]
    straight = mask_of(parse_cards("7t 8t 9j 10t Jt"))
    assert game.rulebook.play_rules.plays(straight, None) == [
        p for p in plays(straight, None) if p[0] != tc.Kind.STRAIGHT
    ]


def test_tichu_plugins_shows_the_composed_hook_oldest_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Composed kinds are asked in load order, the standard rules first (not newest first
    like every other hook), and `tichu plugins` says so."""
    from tichu_core.frontends.cli.commands import main
    from tichu_core.rules.rulebook import Rulebook

    rulebook = Rulebook(tc.load_variant("house_triple_runs"))
    assert rulebook.asking_order("tichu_combinations") == ["standard", "triple_runs"]
    assert rulebook.asking_order("tichu_dog_recipients") == ["standard"]
    assert main(["plugins", "house_triple_runs"]) == 0
    out = capsys.readouterr().out
    assert "tichu_combinations: standard, then triple_runs (composed: every answer counts)" in out
