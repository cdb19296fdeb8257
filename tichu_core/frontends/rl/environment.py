"""A PettingZoo AEC environment for every variant, for reinforcement learning (docs/rl.md).

Needs the optional ``rl`` extra (``pip install tichu[rl]``: pettingzoo, gymnasium,
numpy). It drives :class:`tichu_core.Game` through the public API only.

- Agents are the players (``player_0`` ...); the agent to act is the controller of the
  seat the game waits for (``game.controller(seat)``: the Threechu shuffler acts for
  the dummy).
- :class:`ActionTable` is the variant's fixed action space: every distinct action a
  seat could ever take has an index. Plays of the kinds whose whole-deck enumeration is
  small (singles, pairs, triples, the Dog, bombs) are one index each, by card codes and
  Phoenix reading; full houses, straights and steps are a *shape* (the ranks, the
  kind and the Phoenix reading) followed by one card step per place where the seat's
  legal plays of that shape still differ; a push is one step per card and target.
- :class:`ObservationEncoder` turns ``game.observation(player)`` (and the plays, which
  everyone saw) into one fixed-size float32 vector, seen from the seat the agent acts
  for.
- :class:`TichuEnv` is the environment; :func:`env` wraps it as PettingZoo's own
  environments are wrapped.
"""

from __future__ import annotations

import argparse
import copy
import operator
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

import tichu_core as tc
from tichu_core.frontends.rl.actions import (
    CODE_COUNT,
    CODE_INDEX,
    CODES,
    ActionTable,
    Draft,
    Outcome,
    PlayDraft,
    PushDraft,
)
from tichu_core.frontends.rl.observations import (
    ObservationEncoder,
    SeatRecord,
)

# --------------------------------------------------------------------------- the environment


def load(
    variant: str | tc.Variant,
    players: int | None = None,
    overrides: Mapping[str, Any] | None = None,
    allow_imports: bool = False,
) -> tc.Variant:
    """A variant by name or path (or as given), ``players`` and ``overrides`` applied."""
    changes = dict(overrides or {})
    if players is not None:
        changes["players"] = players
    if isinstance(variant, tc.Variant):
        if changes:
            raise ValueError("overrides need a variant name or path, not a loaded Variant")
        return variant
    return tc.load_variant(variant, overrides=changes or None, allow_imports=allow_imports)


class TichuEnv(AECEnv):  # type: ignore[misc]
    """A whole match of a variant as a PettingZoo AEC environment (docs/rl.md).

    ``variant``: a name, a path or a ``Variant``; ``players`` the table size (Grand
    Seigneur), ``overrides`` any option (``{"game.target": 500}``). Rewards: after each
    hand, the agent's score line minus the mean of its opponents' lines, divided by
    ``hand_reward_scale`` (default 100 where card points count, else seats - 1); at the
    end of the match ``+match_reward`` for a winning line and ``-match_reward`` for the
    others. ``reset(seed=...)`` seeds the game; ``options={"deals": [...]}`` stacks deals.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tichu_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | tc.Variant = "standard",
        *,
        players: int | None = None,
        overrides: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        hand_reward_scale: float | None = None,
        match_reward: float = 1.0,
        allow_imports: bool = False,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        self.variant = load(variant, players, overrides, allow_imports)
        self.render_mode = render_mode
        self.table = ActionTable.of(self.variant)
        self.encoder = ObservationEncoder(self.variant)
        self.seats = self.variant.seats
        if hand_reward_scale is None:
            hand_reward_scale = 100.0 if self.variant.scoring.card_points else self.seats - 1.0
        self.hand_reward_scale = float(hand_reward_scale)
        self.match_reward = float(match_reward)
        self.possible_agents = [f"player_{p}" for p in range(self.variant.players)]
        self.agents: list[str] = []
        observation_space = spaces.Dict(
            {
                "observation": self.encoder.space(),
                "action_mask": spaces.Box(0, 1, (self.table.size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {a: spaces.Discrete(self.table.size) for a in self.possible_agents}
        self._game: tc.Game | None = None
        self.agent_selection = self.possible_agents[0]

    # --- PettingZoo API ----------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> tc.Game:
        """The running match (after ``reset``)."""
        if self._game is None:
            raise RuntimeError("call reset() first")
        return self._game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        deals = (options or {}).get("deals")
        self._game = tc.Game(self.variant, seed=seed, deals=deals)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._record = self._new_record()
        self._draft: Draft | None = None
        self._offer = False
        self._offered: set[int] = set()
        self._seat: int | None = None
        self._legal: tc.LegalActions | None = None
        self._options: dict[int, Outcome] | None = None
        self._push: PushDraft | None = None
        self._advance()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        game = self.game
        player = self.possible_agents.index(agent)
        acting = agent == self.agent_selection and self._seat is not None
        seat = self._seat if acting and self._seat is not None else game.seat_of(player)
        if seat is None:  # a player without a seat this hand: its first controlled seat
            seat = next(s for s in range(self.seats) if game.controller(s) == player)
        observation = game.observation(player)
        vector = self.encoder.encode(
            observation,
            seat,
            self._record,
            acting=acting,
            offer=acting and self._offer,
            draft=self._draft if acting else None,
            table=self.table,
        )
        mask = np.zeros(self.table.size, np.int8)
        if acting:
            mask[list(self.options())] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if not self.agents and self._game is not None:  # after the end: as the wrapper does
            EnvLogger.warn_step_after_terminated_truncated()
            return
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            if not self.agents:
                self._ended()
            return
        if action is None:
            raise ValueError(f"{agent} must act: take an index whose action_mask entry is 1")
        index = operator.index(action)
        options = self.options()
        if index not in options:
            what = self.table.describe(index) if 0 <= index < self.table.size else "out of range"
            raise ValueError(
                f"{agent} may not take action {index} ({what}) now: take an index whose "
                "action_mask entry is 1"
            )
        outcome = options[index]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if isinstance(outcome, PlayDraft | PushDraft):
            self._draft = outcome
        elif outcome is None:
            assert self._seat is not None
            self._offered.add(self._seat)
        else:
            self._apply(outcome)
        self._options = None
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _ended(self) -> None:
        """Every agent has been stepped off: ``agents`` and the dicts are empty, as
        PettingZoo's protocol leaves them, yet ``last()`` (PettingZoo's, which reads the
        dicts for ``agent_selection``, the last agent stepped off) still reports that
        agent: its last observation, no reward, terminated (``_Ended``)."""
        self.terminations = _Ended(True)
        self.truncations = _Ended(False)
        self.rewards = _Ended(0.0)
        self._cumulative_rewards = _Ended(0.0)
        self.infos = _Ended({})

    def render(self) -> str | None:
        """The table as text (every hand shown: for a person watching, not an agent)."""
        text = render_table(self.game, self._seat, self._draft, self.table)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._game = None

    # --- the acting seat -----------------------------------------------------------------

    @property
    def acting_seat(self) -> int | None:
        """The seat ``agent_selection`` decides for (None once the match is over)."""
        return self._seat

    @property
    def offered(self) -> bool:
        """Whether the acting seat is offered a bomb out of turn (``NO_BOMB`` declines)."""
        return self._offer

    @property
    def draft(self) -> Draft | None:
        """The play or push the acting seat is choosing step by step."""
        return self._draft

    def legal_actions(self) -> tc.LegalActions:
        """The game's legal actions of the acting seat."""
        if self._seat is None:
            raise RuntimeError("the match is over: nobody acts")
        if self._legal is None:
            self._legal = self.game.legal_actions(self._seat)
        return self._legal

    def push_start(self) -> PushDraft | None:
        """The empty push draft of the acting seat, in the exchange."""
        if self._push is None and self._seat is not None and self._draft is None:
            legal = self.legal_actions()
            if len(legal) == len(legal.fixed) + len(legal.combinations):
                return None  # no push to make
            player = self.game.controller(self._seat)
            assert player is not None
            self._push = self.table.push_draft(self._seat, self.game.observation(player))
        return self._push

    def options(self) -> dict[int, Outcome]:
        """Every index the acting agent may take now, with what it does."""
        if self._options is None:
            legal = self.legal_actions()
            push = self.push_start() if self._draft is None else None
            self._options = self.table.options(legal, self._draft, offer=self._offer, push=push)
        return self._options

    def action_path(self, action: tc.Action) -> list[int]:
        """The indexes that take ``action`` (a legal action of the acting seat)."""
        return self.table.path(action, self.legal_actions())

    # --- inside --------------------------------------------------------------------------

    def _new_record(self) -> SeatRecord:
        return SeatRecord(np.zeros((self.seats, CODE_COUNT), np.int8))

    def _apply(self, action: tc.Action) -> None:
        game = self.game
        finished = len(game.hand_results)
        game.apply(action)
        self._draft = None
        self._legal = None
        self._push = None
        if isinstance(action, tc.Play):
            row = self._record.played[action.seat]
            for code in action.cards.split():
                row[CODE_INDEX[code]] += 1
            self._offered = set()  # a new top: the other seats may bomb it
        elif isinstance(action, tc.Push):
            self._record.pushes[action.seat] = action.cards
        for result in game.hand_results[finished:]:
            self._reward_hand(result)
            self._record = self._new_record()
            self._offered = set()
        if game.is_over:
            self._reward_match()
            self.terminations = dict.fromkeys(self.agents, True)

    def _lines(self, result: tc.HandResult) -> dict[int, tuple[int, int]]:
        """player -> (its score line, its team) in a finished hand."""
        found = {}
        for seat, player in enumerate(result.players):
            if player is not None:
                team = self.variant.team_of(seat)
                found[player] = (player if self.variant.scoring.per_player else team, team)
        return found

    def _reward_hand(self, result: tc.HandResult) -> None:
        lines = self._lines(result)
        for player, (line, team) in lines.items():
            others = [result.scores[ln] for ln, tm in lines.values() if tm != team]
            margin = result.scores[line] - (sum(others) / len(others) if others else 0.0)
            self.rewards[self.possible_agents[player]] += margin / self.hand_reward_scale

    def _reward_match(self) -> None:
        game = self.game
        winners = set(game.winners)
        for player, (line, _) in self._lines(game.hand_results[-1]).items():
            won = line in winners
            self.rewards[self.possible_agents[player]] += (
                self.match_reward if won else -self.match_reward
            )

    def _advance(self) -> None:
        """Select the next seat to decide, and its agent."""
        game = self.game
        if game.is_over:
            self._seat = None
            return
        if self._draft is not None:
            return
        seat = self._next_offer()
        self._offer = seat is not None
        if seat is None:
            seat = game.waiting_for[0]
        if seat != self._seat:
            self._legal = None
            self._push = None
        self._seat = seat
        player = game.controller(seat)
        assert player is not None
        self.agent_selection = self.possible_agents[player]

    def _next_offer(self) -> int | None:
        """A seat not on turn that may bomb the open trick and was not yet asked since
        its last play (in play order after the seat on turn)."""
        game = self.game
        turn = game.turn
        if turn is None:
            return None
        to_act = game.to_act
        if len(to_act) < 2:
            return None
        waiting = game.waiting_for
        for step in range(1, self.seats):
            seat = (turn + step) % self.seats
            if (
                seat in to_act
                and seat not in waiting
                and seat not in self._offered
                and game.legal_actions(seat).combinations
            ):
                return seat
        return None


class _Ended(dict[str, Any]):
    """An empty dict of an ended match (its agents all stepped off) that answers the
    lookup of any agent with the value of the end (a fresh copy): PettingZoo's
    ``last()`` reads ``terminations[agent_selection]`` and its like."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value

    def __missing__(self, agent: str) -> Any:
        return copy.copy(self.value)


def env(**kwargs: Any) -> Any:
    """A :class:`TichuEnv` in PettingZoo's order-enforcing wrapper (``kwargs`` as for it)."""
    return wrappers.OrderEnforcingWrapper(TichuEnv(**kwargs))


# --------------------------------------------------------------------------- render


def render_table(game: tc.Game, acting: int | None, draft: Draft | None, table: ActionTable) -> str:
    """The table as text: every seat's cards, calls and place, the trick and the scores."""
    public = game.observation(None)
    lines = [
        f"{game.variant.name}: hand {public.hand_index + 1}, {public.phase}"
        + (f", wish {public.wish}" if public.wish else "")
        + "  scores "
        + ", ".join(
            f"{name} {score}" for name, score in zip(game.score_lines, public.scores, strict=True)
        )
    ]
    for seat in range(game.seats):
        player = public.players[seat]
        controller = game.controller(seat)
        view = game.observation(controller) if controller is not None else public
        cards = " ".join(view.hands.get(seat, ()))
        marks = [
            "to act" if seat == acting else "",
            public.calls.get(seat, ""),
            f"out {public.out_order.index(seat) + 1}" if seat in public.out_order else "",
            "dealer" if seat == public.dealer else "",
        ]
        who = "dummy" if player is None else f"player_{player}"
        lines.append(
            f"  seat {seat} {who:<9} [{public.hand_sizes[seat]:>2}] {cards}"
            + "".join(f"  ({m})" for m in marks if m)
        )
    if public.trick:
        plays = "  ".join(f"{p['seat']}: {' '.join(p['cards'])}" for p in public.trick)
        lines.append(f"  trick  {plays}")
    if public.pending is not None:
        lines.append(f"  pending {public.pending['kind']} of seat {public.pending['seat']}")
    if isinstance(draft, PlayDraft):
        chosen = " ".join(CODES[c] for c in draft.chosen)
        lines.append(f"  choosing {table.describe(draft.shape)}: {chosen}")
    elif isinstance(draft, PushDraft):
        given = {k + 1: " ".join(CODES[c] for c in codes) for k, codes in enumerate(draft.given)}
        lines.append(f"  pushing (by offset) {given}")
    if game.is_over:
        lines.append(f"  match over: winners {[game.score_lines[w] for w in game.winners]}")
    return "\n".join(lines)


def describe_spaces(variants: Sequence[tc.Variant]) -> list[tuple[str, int, int, dict[str, int]]]:
    """(name, seats, action space size, sizes of its sections) of each variant (docs)."""
    rows = []
    for variant in variants:
        table = ActionTable.of(variant)
        sections = {name: len(part) for name, part in table.sections().items()}
        rows.append((variant.name, variant.seats, table.size, sections))
    return rows


# --------------------------------------------------------------------------- speed


def steps_per_second(
    variant: str | tc.Variant = "standard",
    *,
    seconds: float = 5.0,
    players: int | None = None,
    seed: int = 0,
) -> float:
    """Decisions per second of random legal play, each an ``env.last()`` (an observation
    encoded, a mask built) and an ``env.step()``; a new match when one ends."""
    env = TichuEnv(variant, players=players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            if not env.agents:
                seed += 1
                env.reset(seed=seed)
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m tichu_core.frontends.rl.environment [VARIANT[:PLAYERS] ...]``: each variant's
    action space and observation sizes, and the steps per second of random play."""
    parser = argparse.ArgumentParser(description="Sizes and speed of the RL environment.")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per variant")
    parser.add_argument(
        "variants",
        nargs="*",
        default=["standard", "threechu", "tientsin", "grand_seigneur:7", "grand_seigneur:12"],
        help="variant names, with :PLAYERS for the table size",
    )
    args = parser.parse_args(argv)
    for spec in args.variants:
        name, _, players = spec.partition(":")
        variant = load(name, int(players) if players else None)
        rate = steps_per_second(variant, seconds=args.seconds)
        print(
            f"{variant.name:<16} {variant.players:>2} players  "
            f"{ActionTable.of(variant).size:>5} actions  "
            f"{ObservationEncoder(variant).size:>5} observation floats  {rate:>7,.0f} steps/s"
        )


if __name__ == "__main__":
    main()
