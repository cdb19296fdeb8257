"""The bot protocol (docs/bots.md): bots decide from their player's observation and the
seat's legal actions, never from the Game; they are found by name, bundled or through
the entry-point group ``tichu.bots``; and every bot finishes a match of every bundled
variant (the Threechu dummy T3-1, Tientsin's GiveLead T6-4, the Grand Seigneur
exchange GS-6 included)."""

from __future__ import annotations

import re
from collections import Counter
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

import tichu_core as tc
from tichu_core.frontends.bots import bot_names, make_bot, unknown_bot_message
from tichu_core.frontends.bots import registry as bots_module
from tichu_core.frontends.bots.protocol import decide, play_match
from tichu_core.frontends.cli.commands import main


def short(name: str) -> tc.Variant:
    """A short match of a bundled variant: a low target, or its fewest hands."""
    variant = tc.load_variant(name)
    if variant.game.target:
        return tc.load_variant(name, overrides={"game.target": 200})
    return tc.load_variant(name, overrides={"game.hands": 3})


@pytest.mark.parametrize("bot", ["random", "greedy", "heuristic"])
@pytest.mark.parametrize("variant", tc.list_variants())
def test_every_bot_finishes_a_match_of_every_bundled_variant(variant: str, bot: str) -> None:
    """T3-1, T6-4, GS-6: each decision of each variant is taken through the protocol."""
    game = tc.Game(short(variant), seed=11)
    seen: Counter[str] = Counter()
    play_match(
        game,
        [make_bot(bot, player) for player in range(game.players)],
        on_action=lambda action, events: seen.update([action.type]),
    )
    assert game.is_over and game.outcome is not None
    assert seen["play"] and seen["push"]


class Recording:
    """A bot that keeps what it was given, and answers with the first listed action."""

    name = "recording"

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def choose(self, *arguments: Any, **named: Any) -> tc.Action:
        assert not named
        self.calls.append(arguments)
        first: tc.Action = arguments[1][0]
        return first


def test_a_bot_is_given_its_players_observation_and_the_seats_actions_only() -> None:
    """T3-1: the shuffler's bot is asked for the dummy with the shuffler's observation."""
    game = tc.Game(tc.load_variant("threechu", overrides={"game.hands": 3}), seed=2)
    bots = [Recording() for _ in range(game.players)]
    play_match(game, bots)
    assert game.is_over
    dummy_seen = False
    for player, bot in enumerate(bots):
        assert bot.calls
        for observation, actions, seat in bot.calls:
            assert type(observation) is tc.Observation and observation.player == player
            assert isinstance(actions, tc.LegalActions) and len(actions) > 1
            assert type(seat) is int and seat in observation.seats
            dummy_seen |= observation.players[seat] is None
    assert dummy_seen


def test_a_snooping_bot_finds_no_hidden_card_in_what_it_is_given() -> None:
    """The observation and every listed action (its text and JSON form) hold no card of
    another seat's hidden hand (S-EX-1 pushes and the T3-4 face-up dummy included)."""
    hidden_found: list[str] = []
    hidden_sizes: list[int] = []

    class Snoop:
        name = "snoop"

        def __init__(self, game: tc.Game) -> None:
            self._referee = game  # the test's, never given to the bot's decision

        def choose(
            self, observation: tc.Observation, actions: tc.LegalActions, seat: int
        ) -> tc.Action:
            spectator = self._referee.observation(None)
            visible = set(observation.hands)
            hidden = {
                code
                for other in range(len(spectator.hand_sizes))
                if other not in visible
                for code in self._referee_hand(other)
            }
            # What the player gave away it knows (S-EX-1): no secret.
            hidden -= {code for codes in observation.pushed.values() for code in codes.split()}
            hidden_sizes.append(len(hidden))
            given = observation.model_dump_json()
            given += " ".join(str(tc.action_to_dict(action)) for action in actions[:500])
            given += " ".join(str(combination) for combination in actions.combinations)
            words = set(given.replace('"', " ").replace("'", " ").replace(",", " ").split())
            hidden_found.extend(sorted(hidden & words))
            return actions[0]

        def _referee_hand(self, seat: int) -> list[str]:
            player = self._referee.controller(seat)
            return self._referee.observation(player).hands[seat]

    for variant in ("standard", "threechu", "tientsin"):
        game = tc.Game(short(variant), seed=5)
        snoops = [Snoop(game) for _ in range(game.players)]
        for _ in range(400):
            if game.is_over:
                break
            seat = game.waiting_for[0]
            game.apply(decide(snoops[game.controller(seat)], game, seat))
    assert hidden_found == []
    assert sum(1 for size in hidden_sizes if size >= 10) > 100  # secrets there were


def test_decide_takes_the_only_action_without_asking() -> None:
    game = tc.Game(tc.load_variant("standard"), seed=3)
    asked = Recording()
    while len(game.legal_actions(game.waiting_for[0])) != 1:
        seat = game.waiting_for[0]
        game.apply(decide(asked, game, seat))
    before = len(asked.calls)
    seat = game.waiting_for[0]
    assert decide(asked, game, seat) == game.legal_actions(seat)[0]
    assert len(asked.calls) == before


# --------------------------------------------------------------------------- by name


class FirstBot:
    """A bot another package might register: the first listed action."""

    name = "first"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, observation: tc.Observation, actions: tc.LegalActions, seat: int) -> tc.Action:
        first: tc.Action = actions[0]
        return first


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """`first` registered in the entry-point group `tichu.bots` (and a bundled name, which
    stays the bundled bot)."""
    entries = [
        EntryPoint(name="first", value=f"{__name__}:FirstBot", group="tichu.bots"),
        EntryPoint(name="random", value=f"{__name__}:FirstBot", group="tichu.bots"),
        EntryPoint(name="broken", value="no_such_module_here:Bot", group="tichu.bots"),
    ]

    def entry_points(group: str) -> list[EntryPoint]:
        return [entry for entry in entries if entry.group == group]

    monkeypatch.setattr(bots_module, "entry_points", entry_points)


@pytest.mark.usefixtures("registered")
def test_a_bot_registered_in_the_entry_point_group_is_found_by_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bot_names() == [
        "easy",
        "medium",
        "hard",
        "expert",
        "random",
        "greedy",
        "heuristic",
        "heuristic-no-oot",
        "search",
        "search-strong",
        "broken",
        "first",
    ]
    bot = make_bot("first", 7)
    assert isinstance(bot, FirstBot) and bot.seed == 7
    assert type(make_bot("random", 1)).__name__ == "RandomBot"
    game = tc.Game(short("standard"), seed=1)
    play_match(game, [make_bot("first", p) for p in range(4)])
    assert game.is_over
    code = main(["simulate", "--games", "2", "--seed", "1", "--bots", "first,random",
                 "--set", "game.target=200", "--quiet"])  # fmt: skip
    assert code == 0
    assert "first" in capsys.readouterr().out


def test_an_unknown_bot_name_lists_the_known_ones_and_suggests_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    message = unknown_bot_message("heuristc")
    assert message == (
        "unknown bot 'heuristc'; known: easy, medium, hard, expert, random, greedy, "
        "heuristic, heuristic-no-oot, search, search-strong (did you mean 'heuristic'?)"
    )
    assert unknown_bot_message("zzz").endswith(
        "known: easy, medium, hard, expert, random, greedy, heuristic, heuristic-no-oot, "
        "search, search-strong"
    )
    with pytest.raises(ValueError, match="did you mean 'heuristic'"):
        make_bot("heuristc")
    code = main(["simulate", "--bots", "random,heuristc"])
    assert code == 2
    assert "did you mean 'heuristic'?" in capsys.readouterr().err


def test_the_python_examples_of_docs_bots_md_run() -> None:
    """The protocol, the example bot a package would register, and the match loop."""
    docs = Path(__file__).resolve().parents[1] / "docs" / "bots.md"
    namespace: dict[str, Any] = {}
    for block in re.findall(r"```python\n(.*?)```", docs.read_text(), flags=re.S):
        exec(compile(block, str(docs), "exec"), namespace)
    assert namespace["game"].is_over
    cautious = namespace["CautiousBot"]
    game = tc.Game(short("standard"), seed=3)
    play_match(game, [cautious(player) for player in range(game.players)])
    assert game.is_over


@pytest.mark.usefixtures("registered")
def test_a_registered_bot_that_cannot_be_loaded_is_a_clear_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(ValueError, match=r"bot 'broken' \(no_such_module_here:Bot\) cannot be"):
        make_bot("broken")
    code = main(["simulate", "--games", "2", "--bots", "broken", "--workers", "2"])
    captured = capsys.readouterr()
    assert code == 2 and "cannot be loaded" in captured.err and "Traceback" not in captured.err
