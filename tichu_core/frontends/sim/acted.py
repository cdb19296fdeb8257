"""Whether a rule acted: how often B's rules changed what happened in B's matches.

A figure that does not move says nothing unless the rule had the chance to act:
``house_no_early_bombs`` changes nothing where no bot ever holds a bomb before the
first trick. So ``tichu compare`` follows every match of B with a *shadow*: a game
of A on the same stacked deals, to which each action of B's match is applied as
well (front-end code only: the public ``Game`` API, nothing in the engine). While
the two games are in the same position, at every question B's match asks:

- **listed** (the options): the shadow has its own driver, so it asks what A's rules
  would ask. An offer out of turn that A's driver makes and B's does not (a bomb
  before the bomber's first play, under ``house_no_early_bombs``) was *refused*, one
  B makes and A does not was *added*; at a question both ask, the legal actions are
  compared: what A lists and B does not was refused, the reverse added (counted
  once per question, by kind: bomb, play, call, pass, other);
- **forbidden**: an action played in B's match that A's rules refuse;
- **outcome**: an action whose events differ under A (a trick or a lead goes to
  another seat, the match ends at another hand ...), by the first event that differs;
- **scored**: a hand that A's rules score differently (its ``hand_scored`` event).

After *forbidden* or *outcome* the positions differ, and the shadow stops for the
rest of the match (the hands it followed are counted). A hand scored differently
does not stop it: only the match's totals differ, and the shadow follows until its
match ends at another hand than B's (then it stops). So the counts are a lower
bound of how often the rule acted: they are counted while A could follow B.

The first is what the rule allowed (the options), the others what it changed in
play. The cost: the shadow plays every action of B's matches once more and lists the
legal actions of every question twice: engine work, no bot's (about a quarter more
CPU for a compare with the heuristic bot, measured in docs/bots.md; nothing to speak
of with the search bot).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import tichu_core as tc
from tichu_core import Game, Variant
from tichu_core.frontends.bots.driver import BOMB, Chance, Driver
from tichu_core.frontends.sim.matches import Deals, Record

KINDS = ("bomb", "play", "call", "pass", "other")


def kind_of(action: Any) -> str:
    """What an action listed is about, for the counts: a bomb, another play, a call ..."""
    if isinstance(action, tc.Tichu | tc.GrandTichu):
        return "call"
    if isinstance(action, tc.Pass):
        return "pass"
    return "other"


def listing(actions: tc.LegalActions) -> tuple[Counter[Any], set[Any], int]:
    """A listing as its fixed actions, its plays' combinations and its length (pushes
    are thousands: they are compared by number)."""
    return Counter(actions.fixed), set(actions.combinations), len(actions)


class Shadow:
    """A game of variant A following one match of B (see the module's docstring); a
    :class:`~tichu_core.frontends.sim.matches.Witness` of B's match. ``listens``: who
    is offered chances out of turn in B's match (the same players are in A's)."""

    def __init__(self, reference: Variant, seed: int, deals: Deals) -> None:
        self.game: Game | None = Game(reference, seed=seed, deals=deals)
        # A's own questions, out of turn included: where they differ from B's, the
        # rule refused (or added) an offer. Made by `watch`, with B's listeners.
        self.driver = Driver(self.game)
        self._offered: Chance | None = None  # A's offer matched to B's, still open
        self.questions = 0  # questions asked while following
        self.listed = 0  # of them, listed otherwise by B's rules
        self.refused: Counter[str] = Counter()
        self.added: Counter[str] = Counter()
        self.forbidden: Counter[str] = Counter()
        self.outcome: Counter[str] = Counter()  # by the type of the first event that differs
        self.scored = 0
        self.followed = 0  # hands followed to their end

    def watch(self, game: Game, listens: Callable[[int], bool]) -> None:
        """B's match starts; ``listens``: who B's driver offers chances out of turn."""
        assert self.game is not None
        self.driver = Driver(self.game, listens)

    def before(self, game: Game, chance: Chance) -> None:
        shadow = self.game
        if shadow is None:
            return
        if self._offered is not None:  # B let its offer stand: so does A
            self.driver.decline(self._offered)
            self._offered = None
        self.questions += 1
        while True:
            theirs = self.driver.next()
            if theirs is None:  # A's match is over
                self.game = None
                return
            if theirs.seat == chance.seat and theirs.kind == chance.kind:
                break
            if theirs.optional:  # A's rules offer what B's do not
                self.listed += 1
                self.refused["bomb" if theirs.kind == BOMB else "call"] += 1
                self.driver.decline(theirs)
                continue
            if chance.optional:  # B's rules offer what A's do not
                self.listed += 1
                self.added["bomb" if chance.kind == BOMB else "call"] += 1
            return
        if theirs.optional:
            self._offered = theirs
        ours = chance.actions if chance.actions is not None else game.legal_actions(chance.seat)
        listed = theirs.actions if theirs.actions is not None else shadow.legal_actions(chance.seat)
        same_size = len(ours) == len(listed) == len(ours.fixed) == len(listed.fixed)
        if same_size and Counter(ours.fixed) == Counter(listed.fixed):
            return  # the common case, at once: the same fixed decisions
        fixed_b, plays_b, size_b = listing(ours)
        fixed_a, plays_a, size_a = listing(listed)
        refused = {kind_of(a) for a in fixed_a - fixed_b}
        added = {kind_of(a) for a in fixed_b - fixed_a}
        refused |= {"bomb" if c.is_bomb else "play" for c in plays_a - plays_b}
        added |= {"bomb" if c.is_bomb else "play" for c in plays_b - plays_a}
        if not refused and not added and size_a != size_b:  # only the pushes differ
            (refused if size_a > size_b else added).add("other")
        if refused or added:
            self.listed += 1
            self.refused.update(refused)
            self.added.update(added)

    def after(self, action: tc.Action, events: tc.Events) -> None:
        shadow = self.game
        if shadow is None:
            return
        self._offered = None
        try:
            theirs = self.driver.apply(action)
        except (tc.IllegalAction, tc.InvalidAction):
            self.forbidden[_action_kind(action)] += 1
            self.game = None
            return
        for ours, other in zip(events, theirs, strict=False):
            if isinstance(ours, tc.HandScored) and isinstance(other, tc.HandScored):
                self.followed += 1
                same = ours.out_order == other.out_order and ours.card_points == other.card_points
                if not same:
                    self._stop("hand_scored")
                    return
                self.scored += ours.scores != other.scores or ours.details != other.details
            elif isinstance(ours, tc.MatchOver) and isinstance(other, tc.MatchOver):
                continue  # the totals may differ once a hand scored differently
            elif isinstance(ours, tc.MatchOver) or isinstance(other, tc.MatchOver):
                self._stop("match_over")  # one match ends here, the other goes on
                return
            elif type(ours) is not type(other) or ours.__dict__ != other.__dict__:
                self._stop(str(getattr(ours, "type", "event")))
                return
        if len(theirs) != len(events):
            self._stop("events")

    def _stop(self, event: str) -> None:
        """The games part at an event of this type: counted, and no longer followed."""
        self.outcome[event] += 1
        self.game = None

    def counts(self) -> Record:
        return {
            "questions": self.questions,
            "listed": self.listed,
            "refused": dict(self.refused),
            "added": dict(self.added),
            "forbidden": dict(self.forbidden),
            "outcome": dict(self.outcome),
            "scored": self.scored,
            "followed": self.followed,
        }


def _action_kind(action: Any) -> str:
    if isinstance(action, tc.Play):
        return "play"
    return kind_of(action)


def add_counts(total: Record, counts: Record) -> None:
    """Add one match's counts to ``total`` (in place)."""
    for key, value in counts.items():
        if isinstance(value, dict):
            mine = total.setdefault(key, {})
            for name, number in value.items():
                mine[name] = mine.get(name, 0) + number
        else:
            total[key] = total.get(key, 0) + value


def _flat(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict):
        flat: dict[str, Any] = {}
        for key, value in data.items():
            flat |= _flat(value, f"{prefix}{key}.")
        return flat
    return {prefix[:-1]: data}


def rule_differences(first: Variant, second: Variant) -> list[str]:
    """What B's rules change against A's: every option whose value differs (``calls.
    tichu_points: 100 -> 300``) and every plugin one has and the other not."""
    skip = {"name", "description", "source", "allow_imports", "plugins"}
    a = _flat(first.model_dump(mode="json", exclude=skip))
    b = _flat(second.model_dump(mode="json", exclude=skip))
    found = [f"{key}: {a.get(key)} -> {b.get(key)}" for key in a | b if a.get(key) != b.get(key)]
    found += [f"plugin {name}" for name in second.plugins if name not in first.plugins]
    found += [f"no plugin {name}" for name in first.plugins if name not in second.plugins]
    return found
