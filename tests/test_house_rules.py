"""The example house-rule plugins of plugins/, played from stacked deals.

Each plugin changes one rule of docs/rules.md through one rule point, and each bundled
``house_*`` variant names one of them; every test plays the same hands under
``standard`` and under the house rule, so the difference is the rule:

- ``stray_dog`` (``tichu_dog_recipients``, S-DOG-1/S-DOG-2): the Dog's lead goes to
  the next seat holding cards, not the partner.
- ``no_early_bombs`` (``tichu_may_bomb``, S-BOMB-3): no bomb out of turn before the
  bomber's first play (HOUSE-EARLY-BOMB).
- ``failed_tichu_no_bonus`` (``tichu_score_hand``, S-SCORE-2/S-SCORE-3): no
  double-victory bonus for a team whose own call failed (HOUSE-NO-BONUS).
- ``triple_runs`` (``tichu_combinations``, S-COMB-2): runs of triples are a kind of
  combination (played in test_triple_runs.py).

Random full matches of these variants, with every invariant checked, are in
test_random_matches.py (it plays every bundled variant).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from scenario import deal, kinds, listed, of_type, pass_, passes, play, refused, tichu, wish

import tichu_core as tc
from tichu_core.rules.loading import resolve_plugin

ROOT = Path(__file__).resolve().parents[1]
# No Grand Tichu phase and no exchange: the hands are as dealt, play starts at once.
QUICK: dict[str, object] = {"calls.grand_tichu": False, "exchange.targets": "none"}
HOUSE_PLUGINS = {
    "house_stray_dog": "stray_dog",
    "house_no_early_bombs": "no_early_bombs",
    "house_failed_tichu_no_bonus": "failed_tichu_no_bonus",
    "house_triple_runs": "triple_runs",
}


def game_of(name: str, hands: list[str], overrides: Mapping[str, object] = QUICK) -> tc.Game:
    return tc.Game(tc.load_variant(name, dict(overrides)), deals=[deal(hands)])


# --------------------------------------------------------------------------- the plugins


@pytest.mark.parametrize(("variant", "plugin"), HOUSE_PLUGINS.items())
def test_a_house_variant_is_standard_plus_its_plugin(variant: str, plugin: str) -> None:
    house, standard = tc.load_variant(variant), tc.load_variant("standard")
    assert house.plugins == ("standard", plugin)
    changed = {"name", "description", "plugins", "source"}
    assert house.model_dump(exclude=changed) == standard.model_dump(exclude=changed)
    module: Any = resolve_plugin(plugin, allow_imports=False)
    assert module.__name__ == f"tichu_core.plugins.{plugin}"


@pytest.mark.parametrize("plugin", sorted(HOUSE_PLUGINS.values()))
def test_a_house_plugin_states_its_rule_and_the_rules_it_changes(plugin: str) -> None:
    """The docstring: a summary line, the rule in a paragraph citing docs/rules.md, and how
    the plugin does it (its hook, its variant file)."""
    module: Any = resolve_plugin(plugin, allow_imports=False)
    summary, rule, how, *rest = (" ".join(part.split()) for part in module.__doc__.split("\n\n"))
    assert not rest
    assert summary.startswith('House rule "')
    assert "Standard Tichu" in rule and "At this table" in rule
    assert any(rule_id in rule for rule_id in ("S-DOG-1", "S-BOMB-3", "S-SCORE-2", "S-COMB-2"))
    (hook,) = [name for name in dir(module) if name.startswith("tichu_")]
    assert f"``{hook}``" in how
    variant = next(name for name, named in HOUSE_PLUGINS.items() if named == plugin)
    assert f"variants/{variant}.toml" in how


@pytest.mark.parametrize(("variant", "plugin"), HOUSE_PLUGINS.items())
def test_docs_show_each_house_plugin_and_variant_as_they_are(variant: str, plugin: str) -> None:
    """docs/plugins.md prints the module and the variant file of every example."""
    docs = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    source = (ROOT / "plugins" / f"{plugin}.py").read_text(encoding="utf-8")
    toml = (ROOT / "variants" / f"{variant}.toml").read_text(encoding="utf-8")
    assert f"`plugins/{plugin}.py`" in docs and f"```python\n{source}```" in docs
    assert f"`variants/{variant}.toml`:\n\n```toml\n{toml}```" in docs


# --------------------------------------------------------------------------- stray dog


STRAY_DOG_HANDS = [
    "DOG Aj 3j 4j 5j 7j 8j 9j Jj Qj Kj 10p 10s 10t",
    "2p 2t 3p 3t 4s 4t 5p 5s 6p 6s 6t 7p 7t PH",
    "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt 2s",
    "8s 8t 9p 9s Ap As At DR Jp Jt Kp Ks Qs Qt",
]


def dog_after_the_partner_went_out(name: str) -> tuple[tc.Game, list[tc.Event]]:
    """Seat 2 goes out first; then its partner, seat 0, wins a trick and leads the Dog."""
    game = game_of(name, STRAY_DOG_HANDS)
    assert game.turn == 2  # S-EX-2: seat 2 holds the Mah Jong
    play(game, 2, "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt")
    wish(game, 2, None)
    passes(game, 3, 0, 1, 2)  # seat 2 collects its own trick by passing (S-TRICK-2)
    play(game, 2, "2s")  # seat 2 is out (S-TRICK-3)
    pass_(game, 3)
    play(game, 0, "Aj")
    passes(game, 1, 3, 0)  # seat 0 collects and leads
    return game, play(game, 0, "DOG")


def test_stray_dog_runs_to_the_next_seat_where_standard_skips_past_the_partner() -> None:
    """S-DOG-2 (standard): the partner is out, so the lead goes to the next seat after
    the partner, seat 3. With the stray Dog it goes to the next seat after the Dog's
    player that holds cards, seat 1 (S-DOG-1 changed)."""
    standard, events = dog_after_the_partner_went_out("standard")
    assert [(e.seat, e.to) for e in of_type(events, "lead_passed")] == [(0, 3)]
    assert standard.turn == 3

    house, events = dog_after_the_partner_went_out("house_stray_dog")
    assert [(e.seat, e.to) for e in of_type(events, "lead_passed")] == [(0, 1)]
    assert house.turn == 1
    assert tc.Pass(1) not in house.legal_actions(1)  # seat 1 leads the next trick
    assert house.observation(None).trick == []  # the Dog forms no trick (S-DOG-1 stands)


# --------------------------------------------------------------------------- no early bombs


BOMB = "5j 5s 5p 5t"
EARLY_BOMB_HANDS = [
    "MJ 3j 4j 6j 7j 8j 9j Qj Kj Aj 2j 3s 4s 6s",
    "2s 2p 2t 3p 3t 4p 4t 6p 6t 7s 7p 7t 8s 8p",
    f"{BOMB} 9s 10j 10s Js Jp Jt 8t 9p DOG PH",
    "9t 10p 10t Jj Qp Qs Qt Kp Ks Kt Ap As At DR",
]


def test_no_bomb_out_of_turn_before_the_first_play() -> None:
    """S-BOMB-3 lets seat 2 bomb the first lead at once; the house rule refuses it until
    seat 2 has played a card (HOUSE-EARLY-BOMB); then it bombs out of turn as usual."""
    standard = game_of("standard", EARLY_BOMB_HANDS)
    play(standard, 0, "3j")
    assert listed(standard, 2, BOMB)  # S-BOMB-3: any seat, any time a trick is open

    house = game_of("house_no_early_bombs", EARLY_BOMB_HANDS)
    play(house, 0, "3j")
    assert not listed(house, 2, BOMB)
    error = refused(house, tc.Play(2, BOMB), "HOUSE-EARLY-BOMB")
    assert "before its first play" in str(error)
    pass_(house, 1)
    play(house, 2, "9s")  # seat 2's first card
    pass_(house, 3)
    play(house, 0, "Qj")
    assert house.turn == 1
    assert listed(house, 2, BOMB)  # out of turn, now that it has played
    events = play(house, 2, BOMB)
    assert kinds(events)[0] == "played"
    assert house.observation(None).top_seat == 2


def test_a_bomb_on_the_own_turn_may_be_the_first_play() -> None:
    """The rule is about bombs out of turn: on its turn a bomb is an ordinary play."""
    house = game_of("house_no_early_bombs", EARLY_BOMB_HANDS)
    play(house, 0, "3j")
    pass_(house, 1)
    assert house.turn == 2
    assert listed(house, 2, BOMB)
    play(house, 2, BOMB)
    assert house.observation(None).top_seat == 2


def test_the_refusal_names_the_house_rule_and_a_seat_that_played_may_still_bomb() -> None:
    """S-BOMB-5 stays the variant's: seat 0 has played, so the house rule defers, and
    the standard rule lets it bomb its own trick while collecting it."""
    house = game_of("house_no_early_bombs", EARLY_BOMB_HANDS)
    play(house, 0, "3j")
    passes(house, 1, 2, 3)
    assert house.turn == 0  # seat 0 collects its own trick by passing (S-TRICK-2)
    assert house.rulebook.may_bomb(house._hand.view, 0) is None
    refusal = house.rulebook.may_bomb(house._hand.view, 3)
    assert refusal is not None and refusal.rule == "HOUSE-EARLY-BOMB"


# --------------------------------------------------------------------------- no bonus


STRAIGHT = "MJ 2j 3s 4p 5t 6j 7s 8p 9t 10j Js Qp Kt"
PAIRS = "2s 2p 3j 3p 4j 4s 5j 5s 6s 6p 7j 7p 8j 8s"
DOUBLE_VICTORY_HANDS = [
    f"DOG {STRAIGHT}",
    "2t 3t 4t 5p 6t 7t 8t 9j 9s 9p 10s 10p 10t PH",
    PAIRS,
    "Jj Jp Jt Qj Qs Qt Kj Ks Kp Aj As Ap At DR",
]


def go_out_first_and_second(game: tc.Game) -> list[tc.Event]:
    """S-END-1: seat 0 leads its straight and the Dog (out first, the lead to seat 2,
    S-DOG-1), seat 2 plays seven pairs in a row (out second): a double victory."""
    play(game, 0, STRAIGHT)
    wish(game, 0, None)
    passes(game, 1, 2, 3, 0)
    play(game, 0, "DOG")
    return play(game, 2, PAIRS)


def double_victory(name: str, caller: int | None, grand: bool = False) -> tc.HandResult:
    """The double victory of seats 0 and 2, with one call: Tichu before the first card
    (S-CALL-1), or Grand Tichu on the first 8 cards (S-DEAL-2)."""
    overrides: dict[str, object] = {"exchange.targets": "none"} if grand else QUICK
    game = game_of(name, DOUBLE_VICTORY_HANDS, overrides)
    if grand:
        for seat in range(4):
            game.apply(tc.GrandTichu(seat, seat == caller))
    elif caller is not None:
        tichu(game, caller)
    events = go_out_first_and_second(game)
    (scored,) = of_type(events, "hand_scored")
    (result,) = game.hand_results
    assert scored.scores == result.scores
    assert result.double_victory and result.out_order[:2] == [0, 2]
    assert result.card_points == [0, 0]  # no cards counted (S-SCORE-2)
    return result


@pytest.mark.parametrize(
    ("caller", "grand", "standard_scores", "house_scores"),
    [
        # Seat 2 calls and goes out second: its call fails (S-SCORE-3) and, at this
        # table, its team's double victory earns no bonus.
        pytest.param(2, False, [200 - 100, 0], [-100, 0], id="partner-tichu-fails"),
        pytest.param(2, True, [200 - 200, 0], [-200, 0], id="partner-grand-tichu-fails"),
        # Seat 0 calls and goes out first: a made call keeps the bonus.
        pytest.param(0, False, [200 + 100, 0], [200 + 100, 0], id="own-tichu-made"),
        # An opponent's failed call changes nothing for the winners.
        pytest.param(1, False, [200, -100], [200, -100], id="opponent-tichu-fails"),
        pytest.param(None, False, [200, 0], [200, 0], id="no-call"),
    ],
)
def test_no_double_victory_bonus_after_a_failed_call_of_the_own_team(
    caller: int | None, grand: bool, standard_scores: list[int], house_scores: list[int]
) -> None:
    """S-SCORE-2 and S-SCORE-3 in standard; HOUSE-NO-BONUS in the house variant."""
    assert double_victory("standard", caller, grand).scores == standard_scores
    assert double_victory("house_failed_tichu_no_bonus", caller, grand).scores == house_scores


ORDINARY_HANDS = [
    "MJ 2s 3p 4t 5s 6p 7t 8s 9p 10t Js Qp Kt PH",
    "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj DOG",
    "2p 3t 4s 5p 6t 7s 8p 9t 10s Jp Qt Ks As DR",
    "2t 3s 4p 5t 6s 7p 8t 9s 10p Jt Qs Kp Ap At",
]


def ordinary_hand_with_a_failed_tichu(name: str) -> tc.HandResult:
    """Seat 0 calls Tichu and goes out second, after seat 1; seat 2 goes out third with
    the Dragon and gives the last trick to seat 3 (S-DRAGON-2)."""
    game = game_of(name, ORDINARY_HANDS)
    tichu(game, 0)
    play(game, 0, "MJ 2s 3p 4t 5s 6p 7t 8s 9p 10t Js Qp Kt")
    wish(game, 0, None)
    play(game, 1, "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj")  # a straight-flush bomb
    passes(game, 2, 3, 0, 1)
    play(game, 1, "DOG")  # seat 1 is out first; its partner leads (S-DOG-1)
    play(game, 3, "2t")
    play(game, 0, "PH")  # seat 0 is out second: its Tichu fails (S-SCORE-3)
    passes(game, 2, 3)
    play(game, 2, "2p 3t 4s 5p 6t 7s 8p 9t 10s Jp Qt Ks As")
    passes(game, 3, 2)
    play(game, 2, "DR")  # seat 2 is out third: the hand is over (S-END-1)
    game.apply(tc.GiveTrick(2, 3))
    (result,) = game.hand_results
    return result


def test_the_no_bonus_rule_leaves_a_hand_without_double_victory_alone() -> None:
    """Without a double victory the house scoring is the standard one: cards counted
    (S-END-2, S-SCORE-1) and seat 0's failed Tichu costs its team 100 (S-SCORE-3)."""
    standard = ordinary_hand_with_a_failed_tichu("standard")
    house = ordinary_hand_with_a_failed_tichu("house_failed_tichu_no_bonus")
    assert not house.double_victory
    assert house.out_order == [1, 0, 2, 3]
    assert house.calls == {0: "tichu"}
    assert house.scores == standard.scores
    assert house.card_points == standard.card_points
    assert sum(house.card_points) == 100
    assert house.scores[0] == house.card_points[0] - 100
