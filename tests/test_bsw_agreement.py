"""benchmarks/bsw_agreement.py: the bots are asked at exactly the person's play decisions
that offered a choice, and agreement is counted against the logged action."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from benchscripts import load_script

import tichu_core as tc
from tichu_core.formats import RoundReplay, replay_file, replay_text
from tichu_core.frontends.bots import make_bot

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "bsw"
# One round of 76 plays and passes, one of them Bert's four sevens out of turn.
LOG = DATA / "bomb_out_of_turn.tch"


def _play_lines(text: str) -> list[str]:
    """The play and pass lines of a log's play section (`(s)name: CARDS`, `(s)name passt.`)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "Rundenverlauf" in line)
    return [line for line in lines[start + 1 :] if line.startswith("(")]


Turn = tuple[tc.Game, tc.Action, set[tuple[str, ...]], bool]


def _turns(replay: RoundReplay) -> Iterator[Turn]:
    """Walk the round by hand, independently of the script: before each play or pass of
    the seat the game waits for, the game (live: read it before the next), the logged
    action, the seat's distinct options (a pass, or a play's cards whatever the Phoenix
    reads) and whether it leads (an empty trick)."""
    assert replay.game is not None
    record = json.loads(replay.game.to_json())
    record["actions"] = []
    game = tc.Game.from_json(json.dumps(record))
    for step in replay.steps:
        action = step.action
        if isinstance(action, tc.Play | tc.Pass) and game.waiting_for == [action.seat]:
            options = {
                ("pass",) if isinstance(a, tc.Pass) else tuple(sorted(a.cards.split()))
                for a in game.legal_actions(action.seat)
                if isinstance(a, tc.Play | tc.Pass)
            }
            yield game, action, options, not game.observation(None).trick
        game.apply(action)


class Oracle:
    """Plays what the person played: the logged action, looked up by the observation the
    bot is given (each of a seat's decisions sees a different table). `contrary=True`:
    any other option instead, so that it never agrees."""

    name = "oracle"

    def __init__(self, replays: list[RoundReplay], contrary: bool = False) -> None:
        self.logged: dict[str, tc.Action] = {}
        for replay in replays:
            for game, action, options, _ in _turns(replay):
                if len(options) > 1:
                    key = game.observation(game.controller(action.seat)).model_dump_json()
                    assert key not in self.logged, "two decisions look the same to the bot"
                    self.logged[key] = action
        self.contrary = contrary
        self.asked = 0

    def choose(self, observation: tc.Observation, actions: tc.LegalActions, seat: int) -> tc.Action:
        self.asked += 1
        logged = self.logged[observation.model_dump_json()]

        def same(action: tc.Action) -> bool:
            if isinstance(logged, tc.Pass):
                return isinstance(action, tc.Pass)
            return isinstance(action, tc.Play) and sorted(action.cards.split()) == sorted(
                logged.cards.split()
            )

        plays = [a for a in actions if isinstance(a, tc.Play | tc.Pass)]
        # The same cards with the Phoenix read otherwise where listed: the same choice of
        # cards, which agreement counts as the person's (the reading is the log's, not
        # the player's: the site lists the cards, tichu_core.formats reads the Phoenix).
        reading = getattr(logged, "phoenix", None)
        plays.sort(key=lambda a: getattr(a, "phoenix", None) == reading)
        return next(a for a in plays if same(a) != self.contrary)


def test_bots_are_asked_at_each_play_decision_with_a_choice_and_only_there() -> None:
    agreement = load_script("bsw_agreement")
    replays = replay_file(LOG)
    turns = list(_turns(replays[0]))
    with_choice = [lead for _, _, options, lead in turns if len(options) > 1]
    leads = [lead for lead in with_choice if lead]
    assert len(with_choice) > len(leads) > 0  # the log has both kinds, and forced moves
    assert len(with_choice) < len(turns)

    bots = {name: make_bot(name, 7) for name in ("random", "heuristic")}
    counts, per_bot = agreement.tally_rounds(replays, bots)

    assert counts["rounds"] == counts["exact"] == 1
    # Every play and pass of the log is a turn, except the one bomb out of turn.
    assert counts["out of turn"] == 1
    assert counts["turns"] == len(turns) == len(_play_lines(LOG.read_text())) - 1
    assert counts["counted"] == len(with_choice)
    assert counts["single option"] == len(turns) - len(with_choice)
    assert counts["leads"] == len(leads)
    for tally in per_bot.values():
        assert tally["decisions"] == counts["counted"]
        assert tally["leads"] == len(leads)
        assert tally["leads"] + tally["follows"] == tally["decisions"]
        assert tally["agreed"] == tally["leads agreed"] + tally["follows agreed"]
        assert 0 <= tally["leads agreed"] <= tally["leads"]
        assert 0 <= tally["follows agreed"] <= tally["follows"]
        assert tally["bot passed"] <= tally["could pass"] <= tally["follows"]
        assert tally["person passed"] <= tally["could pass"]


@pytest.mark.parametrize("log", [LOG, DATA / "phoenix_full_house.tch"], ids=lambda p: p.stem)
def test_a_bot_that_plays_what_the_person_played_agrees_every_time(log: Path) -> None:
    # phoenix_full_house.tch: its full house of fives holds the Phoenix, also listed as
    # one of eights (the two logs share a deal: one oracle each).
    agreement = load_script("bsw_agreement")
    replays = replay_file(log)
    oracle = Oracle(replays)
    bots = {"oracle": oracle, "random": make_bot("random", 3)}
    counts, per_bot = agreement.tally_rounds(replays, bots)
    tally, chance = per_bot["oracle"], per_bot["random"]
    assert oracle.asked == tally["decisions"] == counts["counted"] > 0
    assert tally["agreed"] == tally["decisions"]
    assert tally["person passed"] == tally["bot passed"] > 0
    # Paired with the oracle, a bot agrees exactly where it chooses as the oracle does.
    assert 0 < chance["agreed"] < counts["counted"]
    assert chance["same as oracle"] == tally["same as random"] == chance["agreed"]
    assert tally["alone against random"] == counts["counted"] - chance["agreed"]
    assert chance["alone against oracle"] == 0
    lines = agreement.report(counts, per_bot)
    assert any(line.startswith("oracle: agrees 100.0% [") for line in lines)
    assert any(line.startswith("oracle and random: the same choice at") for line in lines)


def test_a_bot_that_never_plays_what_the_person_played_never_agrees() -> None:
    agreement = load_script("bsw_agreement")
    replays = replay_file(LOG)
    counts, per_bot = agreement.tally_rounds(replays, {"contrary": Oracle(replays, contrary=True)})
    assert per_bot["contrary"]["decisions"] == counts["counted"] > 0
    assert per_bot["contrary"]["agreed"] == 0


def test_in_a_match_to_1000_the_same_decisions_are_counted() -> None:
    # --target: the bots are asked in a match the hand does not end; the person's
    # decisions, and what the rules offer at them, are the same.
    agreement = load_script("bsw_agreement")
    replays = replay_file(LOG)
    one_hand, _ = agreement.tally_rounds(replays, {})
    counts, per_bot = agreement.tally_rounds(replays, {"random": make_bot("random", 1)}, 1000)
    assert counts == one_hand
    assert per_bot["random"]["decisions"] == counts["counted"]
    game = agreement.fresh_game(replays[0], 1000)
    for step in replays[0].steps:
        game.apply(step.action)
    assert game.hand_results and not game.is_over
    assert replays[0].game is not None and replays[0].game.is_over


def test_a_round_the_log_ends_inside_is_used_as_far_as_it_is_logged() -> None:
    agreement = load_script("bsw_agreement")
    text = LOG.read_text()
    kept = _play_lines(text)[:20]  # before the bomb out of turn
    cut = text[: text.index(kept[-1]) + len(kept[-1])] + "\n"
    replays = replay_text(cut, source="cut.tch")
    assert replays[0].incomplete is not None and replays[0].mismatch is None
    counts, per_bot = agreement.tally_rounds(replays, {"random": make_bot("random", 1)})
    assert counts["rounds"] == counts["incomplete"] == 1
    assert counts["turns"] == len(kept)
    assert counts["counted"] + counts["single option"] == len(kept)
    assert per_bot["random"]["decisions"] == counts["counted"] > 0


def test_a_round_that_does_not_replay_exactly_is_skipped() -> None:
    # minimal.tch ends its round with `Ergebnis:` before the hand is over: a mismatch.
    agreement = load_script("bsw_agreement")
    replays = replay_file(DATA / "minimal.tch")
    assert replays[0].mismatch is not None
    counts, per_bot = agreement.tally_rounds(replays, {"random": make_bot("random", 1)})
    assert counts["rounds"] == counts["skipped"] == 1
    assert counts["turns"] == 0
    assert per_bot["random"]["decisions"] == 0


def test_the_command_reports_each_bot(capsys: pytest.CaptureFixture[str]) -> None:
    agreement = load_script("bsw_agreement")
    assert agreement.main([str(DATA), "--bots", "random,greedy", "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert "agreement with people: 2 logs of" in out
    assert "random: agrees " in out and "greedy: agrees " in out
    assert "random and greedy: the same choice at" in out


def test_wilson_interval_holds_the_share_and_stays_within_0_and_1() -> None:
    agreement = load_script("bsw_agreement")
    assert agreement.wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert agreement.wilson(10, 10)[1] == pytest.approx(1.0, abs=1e-12)
    low, high = agreement.wilson(50, 100)
    assert 0.40 < low < 0.5 < high < 0.60
