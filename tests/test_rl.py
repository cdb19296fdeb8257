"""The PettingZoo environment (tichu_core.frontends.rl.environment, docs/rl.md).

- PettingZoo's own ``api_test`` passes for every bundled variant (and Grand Seigneur at
  5 and 12 players);
- the same seed and the same actions give the same trajectory;
- the action space: every legal action of random matches has a path of indexes that
  leads back to it, and the actions the masks reach are exactly the legal ones;
- no hidden card is encoded: a second deal that gives the observer the same cards and
  the same history, the other seats' unplayed cards shuffled among them, gives the
  observer the same vectors at every step;
- rewards per hand and per match, render(), and the worked example of docs/rl.md.
"""

from __future__ import annotations

import random
import re
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

import tichu_core as tc
from tichu_core.frontends.rl import actions as rl_actions
from tichu_core.frontends.rl import environment as rl_environment
from tichu_core.frontends.rl.actions import ActionTable, PlayDraft, PushDraft
from tichu_core.frontends.rl.environment import TichuEnv
from tichu_core.frontends.rl.observations import SeatRecord

DOC = Path(__file__).resolve().parents[1] / "docs" / "rl.md"
# The warnings api_test gives every environment whose observation is a dict with an
# action mask (PettingZoo's own board games give them too).
DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)
OTHER_TABLES = {
    "grand_seigneur_5": ("grand_seigneur", 5),
    "grand_seigneur_12": ("grand_seigneur", 12),
}


def tables() -> list[Any]:
    cases = [pytest.param(name, None, id=name) for name in tc.list_variants()]
    cases += [pytest.param(name, players, id=key) for key, (name, players) in OTHER_TABLES.items()]
    return cases


def short(name: str) -> dict[str, object]:
    """A match of a few hands (Threechu: hands come in threes, T3-8)."""
    return {"game.target": 0, "game.hands": 3 if name == "threechu" else 2}


# --- PettingZoo's API test ---------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), tables())
def test_pettingzoo_api_test_passes(name: str, players: int | None) -> None:
    environment = rl_environment.env(variant=name, players=players)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(environment, num_cycles=150)
    unexpected = {
        str(w.message)
        for w in caught
        if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)
        and "compiled module is older" not in str(w.message)  # a stale local build
    }
    assert not unexpected


def test_agents_are_the_players_and_the_controller_acts() -> None:
    env = TichuEnv("threechu", overrides=short("threechu"))
    env.reset(seed=4)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    game = env.game
    seen_dummy = False
    for agent in env.agent_iter(400):
        if env.terminations[agent]:
            env.step(None)
            continue
        seat = env.acting_seat
        assert seat is not None
        assert agent == f"player_{game.controller(seat)}"
        seen_dummy |= game.player_at(seat) is None
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert seen_dummy, "the shuffler acts for the dummy"
    assert TichuEnv("grand_seigneur", players=9).possible_agents[-1] == "player_8"


# --- seeds --------------------------------------------------------------------------------


def trajectory(seed: int, choices: int, steps: int = 300) -> list[tuple[Any, ...]]:
    env = TichuEnv("standard")
    env.reset(seed=seed)
    rng = random.Random(choices)
    seen = []
    for agent in env.agent_iter(steps):
        observation, reward, terminated, _truncated, _ = env.last()
        legal = np.flatnonzero(observation["action_mask"])
        action = None if terminated else int(legal[rng.randrange(len(legal))])
        seen.append((agent, observation["observation"].tobytes(), legal.tobytes(), reward, action))
        env.step(action)
    return seen


def test_the_same_seed_and_actions_give_the_same_trajectory() -> None:
    assert trajectory(seed=11, choices=3) == trajectory(seed=11, choices=3)
    assert trajectory(seed=11, choices=3) != trajectory(seed=12, choices=3)


def test_reset_seeds_the_game_and_takes_stacked_deals() -> None:
    env = TichuEnv("standard")
    env.reset(seed=5)
    assert env.game.seed == 5
    deal = [list(tc.load_variant("standard").deck_codes[14 * s : 14 * s + 14]) for s in range(4)]
    env.reset(seed=5, options={"deals": [deal]})
    assert sorted(env.game.observation(1).hand) == sorted(deal[1][:8])


# --- the action space ------------------------------------------------------------------


def follow(
    table: ActionTable, legal: tc.LegalActions, push: PushDraft | None, path: list[int]
) -> Any:
    """Where a path of indexes leads from a seat's first choice."""
    outcome = table.options(legal, None, push=push)[path[0]]
    for index in path[1:]:
        assert isinstance(outcome, PlayDraft | PushDraft)
        outcome = table.options(legal, outcome)[index]
    return outcome


def reachable(table: ActionTable, legal: tc.LegalActions, outcome: Any) -> list[Any]:
    """Every action a draft (or an outcome) leads to, by every path."""
    if isinstance(outcome, PlayDraft | PushDraft):
        return [
            action
            for step in table.options(legal, outcome).values()
            for action in reachable(table, legal, step)
        ]
    return [outcome]


def check_choices(env: TichuEnv, rng: random.Random, whole_exchange: bool) -> bool:
    """At a first choice: every legal action round-trips, and the masks reach exactly the
    legal actions (the exchange's pushes by every path only when ``whole_exchange``).
    Returns whether the pushes were enumerated."""
    table, legal, push = env.table, env.legal_actions(), env.push_start()
    options = env.options()
    plays = len(legal.fixed) + len(legal.combinations)
    pushes = len(legal) - plays
    sample = list(legal[:plays])
    if pushes:
        sample += [legal[plays + rng.randrange(pushes)] for _ in range(12)]
    for action in sample:
        path = env.action_path(action)
        assert follow(table, legal, push, path) == action, (action, path)
        for index in path[1:]:
            assert table.card <= index < table.size or table.push <= index < table.flat
    if pushes and not whole_exchange:
        return False
    found = [a for step in options.values() for a in reachable(table, legal, step)]
    expected = set(legal) | ({None} if env.offered else set())
    assert set(found) == expected, set(found) ^ expected
    if not pushes:  # one path per play (a push's cards may be chosen in any order)
        assert len(found) == len(expected)
    return bool(pushes)


@pytest.mark.parametrize(("name", "players"), tables())
def test_every_legal_action_round_trips_and_the_masks_are_exact(
    name: str, players: int | None
) -> None:
    for seed in (1, 2):
        env = TichuEnv(name, players=players, overrides=short(name))
        env.reset(seed=seed)
        rng = random.Random(seed)
        exchanges = 0
        for _agent in env.agent_iter(5_000):
            observation, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            mask = observation["action_mask"]
            assert mask.dtype == np.int8 and set(np.flatnonzero(mask)) == set(env.options())
            if env.draft is None:
                exchanges += check_choices(env, rng, whole_exchange=exchanges == 0)
            env.step(rng.choice(list(env.options())))
        assert env.game.is_over


def test_a_house_rule_kind_is_played_through_its_shape() -> None:
    """house_triple_runs (a plugin's kind): a shape by number of cards, then cards."""
    variant = tc.load_variant(
        "house_triple_runs",
        overrides={
            "deal.grand_tichu_after": 0,
            "calls.grand_tichu": False,
            "exchange.targets": "none",
        },
    )
    runs = ["3j", "3s", "3p", "4j", "4s", "4p", "5j", "5s", "5p"]
    deck = [c for c in variant.deck_codes if c not in [*runs, "MJ"]]
    deal = [["MJ", *runs, *deck[:4]], deck[4:18], deck[18:32], deck[32:46]]
    env = TichuEnv(variant)
    env.reset(seed=1, options={"deals": [deal]})
    assert env.acting_seat == 0
    legal = env.legal_actions()
    runs_of_six = [a for a in legal if isinstance(a, tc.Play) and len(a.cards.split()) == 6]
    assert tc.Play(0, "3j 3s 3p 4j 4s 4p") in runs_of_six
    check_choices(env, random.Random(0), whole_exchange=True)
    path = env.action_path(tc.Play(0, "4j 4s 4p 5j 5s 5p"))
    assert env.table.describe(path[0]) == "play a house rule's kind, 6 cards"
    assert len(path) == 2  # 333444 or 444555: one card step tells them apart
    for index in path:
        env.step(index)
    assert env.game.observation(0).trick[-1]["cards"][0] == "5p"


def test_the_space_sizes_are_those_of_the_docs() -> None:
    text = DOC.read_text()
    for name, seats, size, _ in rl_environment.describe_spaces(
        [tc.load_variant(n) for n in ("standard", "threechu", "tientsin", "grand_seigneur")]
    ):
        row = re.search(rf"^\| `{name}` \| {seats} \| ([\d,]+) \|", text, flags=re.M)
        assert row, f"docs/rl.md has no row for {name}"
        assert int(row.group(1).replace(",", "")) == size, name


def test_an_illegal_index_is_refused_with_the_game_unchanged() -> None:
    env = TichuEnv("standard")
    env.reset(seed=3)
    before = env.game.to_json()
    with pytest.raises(ValueError, match="action_mask"):
        env.step(ActionTable.PASS)  # nobody passes in the Grand Tichu phase
    assert env.game.to_json() == before


# --- no hidden card ------------------------------------------------------------------


def deal_of(game: tc.Game) -> list[list[str]]:
    """The first hand's deal, per seat in dealing order (from the referee's log)."""
    deal: list[list[str]] = [[] for _ in range(game.seats)]
    for event in game.event_log:
        if event.type == "cards_dealt" and event.hand == 0:
            deal[event.seat] += event.cards  # type: ignore[attr-defined]
    return deal


def random_hand(game: tc.Game, rng: random.Random, limit: int) -> list[tc.Action]:
    """Random actions in the first hand, at most ``limit``; never a wish (a wish would
    oblige a seat according to its hidden cards, which the second deal changes)."""
    while not game.hand_results and len(game.actions) < limit:
        seat = game.waiting_for[0]
        legal = game.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        if isinstance(action, tc.Wish):
            action = tc.Wish(seat, None)
        game.apply(action)
    return game.actions


def second_deal(
    game: tc.Game, actions: list[tc.Action], hidden: set[int], rng: random.Random
) -> list[list[str]]:
    """The same deal, except that the cards the hidden seats never showed (never played
    nor gave away) are shuffled among them, each seat keeping its number of cards and
    the place of every card it showed. The Mah Jong stays: its holder leads (S-EX-2)."""
    deal = deal_of(game)
    showed: dict[int, Counter[str]] = {seat: Counter(["MJ"]) for seat in hidden}
    for action in actions:
        if action.seat in hidden and isinstance(action, tc.Play):
            showed[action.seat].update(action.cards.split())
        elif action.seat in hidden and isinstance(action, tc.Push):
            showed[action.seat].update(c for codes in action.cards.values() for c in codes.split())
    free: list[str] = []
    places: list[tuple[int, int]] = []
    for seat in sorted(hidden):
        keep = Counter(deal[seat]) & showed[seat]
        for place, code in enumerate(deal[seat]):
            if keep[code]:
                keep[code] -= 1
            else:
                free.append(code)
                places.append((seat, place))
    rng.shuffle(free)
    changed = [list(cards) for cards in deal]
    for (seat, place), code in zip(places, free, strict=True):
        changed[seat][place] = code
    return changed


def encodings(
    env: TichuEnv, game: tc.Game, actions: list[tc.Action], player: int
) -> list[tuple[bytes, list[tc.Action]]]:
    """The player's vector (from its own seat) and its seats' legal actions, after each
    action of the first hand."""
    record = SeatRecord(np.zeros((game.seats, rl_actions.CODE_COUNT), np.int8))
    seen = []
    for action in [None, *actions]:
        if action is not None:
            game.apply(action)
            if isinstance(action, tc.Play):
                for code in action.cards.split():
                    record.played[action.seat, rl_actions.CODE_INDEX[code]] += 1
            if isinstance(action, tc.Push):
                record.pushes[action.seat] = action.cards
        if game.hand_results:
            break  # the next hand is dealt from the seed alone
        seat = game.seat_of(player)
        assert seat is not None
        vector = env.encoder.encode(game.observation(player), seat, record)
        own = [s for s in range(game.seats) if game.controller(s) == player]
        seen.append((vector.tobytes(), [a for s in own for a in game.legal_actions(s)[:200]]))
    return seen


@pytest.mark.parametrize(
    ("name", "players", "observer"),
    [
        ("standard", None, 0),
        ("threechu", None, 1),  # the dummy is face up after the exchange (T3-4)
        ("tientsin", None, 3),
        ("grand_seigneur", 7, 2),  # two decks: codes twice
    ],
)
def test_no_hidden_card_is_encoded(name: str, players: int | None, observer: int) -> None:
    env = TichuEnv(name, players=players)
    differs = 0
    for seed in range(3):
        rng = random.Random(seed)
        original = tc.Game(env.variant, seed=seed)
        hidden = {  # seen from the first hand's seats
            seat
            for seat in range(original.seats)
            if original.controller(seat) != observer and original.player_at(seat) is not None
        }
        someone = original.player_at(min(hidden))
        actions = random_hand(original, rng, limit=rng.randrange(30, 80))
        deal = second_deal(original, actions, hidden, rng)
        first = tc.Game(env.variant, seed=seed, deals=[deal_of(original)])
        other = tc.Game(env.variant, seed=seed, deals=[deal])
        mine = encodings(env, first, actions, observer)
        theirs = encodings(env, other, actions, observer)  # raises if the history breaks
        assert mine == theirs
        # The test has teeth: a hidden player's own vectors do change.
        assert someone is not None
        fresh = [tc.Game(env.variant, seed=seed, deals=[d]) for d in (deal_of(original), deal)]
        differs += encodings(env, fresh[0], actions, someone) != encodings(
            env, fresh[1], actions, someone
        )
    assert differs


def test_the_vector_shows_the_hands_the_observation_shows() -> None:
    env = TichuEnv("threechu", overrides=short("threechu"))
    env.reset(seed=2)
    blocks = env.encoder.blocks
    for _agent in env.agent_iter(600):
        observation, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        seat = env.acting_seat
        assert seat is not None
        view = env.game.observation(env.game.controller(seat))
        vector = observation["observation"]
        hand = vector[blocks["hand"].slice]
        assert Counter({rl_actions.CODES[i]: int(c) for i, c in enumerate(hand) if c}) == Counter(
            view.hands[seat]
        )
        others = vector[blocks["hands"].slice].reshape(env.seats - 1, rl_actions.CODE_COUNT)
        for offset in range(1, env.seats):
            other = (seat + offset) % env.seats
            shown = Counter(
                {rl_actions.CODES[i]: int(c) for i, c in enumerate(others[offset - 1]) if c}
            )
            assert shown == Counter(view.hands.get(other, []))
        env.step(int(np.flatnonzero(observation["action_mask"])[-1]))


# --- rewards and render --------------------------------------------------------------


def test_rewards_are_the_hand_margins_and_the_match_result() -> None:
    """Per hand: own team's score minus the other's, / 100; at the end +-1 (standard)."""
    env = TichuEnv("standard", overrides={"game.target": 0, "game.hands": 2})
    env.reset(seed=8)
    rng = random.Random(8)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, _, _ = env.last()
        total[agent] += reward
        if terminated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    game = env.game
    margin = sum(r.scores[0] - r.scores[1] for r in game.hand_results) / 100
    for player, agent in enumerate(env.possible_agents):
        team = player % 2
        result = 1.0 if team in game.winners else -1.0
        assert total[agent] == pytest.approx((1 - 2 * team) * margin + result)


def test_render_shows_the_table() -> None:
    env = TichuEnv("standard", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str)
    assert "grand_tichu" in text and "seat 3 player_3" in text and "(to act)" in text
    hand = env.game.observation(0).hand
    assert " ".join(hand) in text


# --- docs/rl.md --------------------------------------------------------------------------


def test_the_worked_example_of_the_docs_runs() -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", DOC.read_text(), flags=re.M | re.S)
    assert blocks, "docs/rl.md has no python example"
    namespace: dict[str, Any] = {}
    for block in blocks:
        block = re.sub(r"^EPISODES = \d+", "EPISODES = 2", block, flags=re.M)  # briefly
        exec(compile(block, str(DOC), "exec"), namespace)


def test_the_speed_command_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """Speed is measured and reported, never asserted (docs/api.md)."""
    rl_environment.main(["--seconds", "0.2", "standard", "grand_seigneur:5"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("standard") and "2021 actions" in lines[0]
    assert "steps/s" in lines[1]


# --- after the end ------------------------------------------------------------------------


@pytest.mark.parametrize("wrapped", [False, True], ids=["bare", "wrapped"])
def test_after_the_end_last_reports_the_ended_match_and_step_only_warns(wrapped: bool) -> None:
    """PettingZoo's loop steps every terminated agent off with ``None``; then ``agents``
    is empty (the environment is done) and ``last()`` still reports the current agent,
    ``agent_selection``: its last observation, no reward, terminated. Before: ``last()``
    raised ``KeyError: 'player_2'`` (the dicts had lost that agent), and so did a bare
    environment's ``step()``. A ``step()`` after the end is PettingZoo's warning, as the
    order-enforcing wrapper gives it, and changes nothing."""
    kwargs: dict[str, Any] = {
        "variant": "standard",
        "overrides": {"game.target": 0, "game.hands": 1},
    }
    table = rl_environment.env(**kwargs) if wrapped else TichuEnv(**kwargs)
    table.reset(seed=3)
    finals: dict[str, bool] = {}
    for agent in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            finals[agent] = True
            table.step(None)
            continue
        table.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert sorted(finals) == table.possible_agents and table.agents == []
    assert table.terminations == table.truncations == table.rewards == table.infos == {}
    last_agent = table.agent_selection
    observation, reward, terminated, truncated, info = table.last()
    assert (reward, terminated, truncated, info) == (0.0, True, False, {})
    assert not observation["action_mask"].any()
    assert np.array_equal(observation["observation"], table.observe(last_agent)["observation"])
    saved = table.unwrapped.game.to_json()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        table.step(None)
    assert table.agents == [] and table.unwrapped.game.to_json() == saved
    assert table.last()[2] is True
    table.reset(seed=4)  # and a new match as usual
    assert table.agents == table.possible_agents
    assert table.terminations == dict.fromkeys(table.agents, False)
    assert "player_9" not in table.terminations
