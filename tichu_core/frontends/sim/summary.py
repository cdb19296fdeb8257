"""The summary of a run, added up record by record (memory flat: a few numbers per score
line and per player, whatever the number of matches)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tichu_core.frontends.sim.matches import Record
from tichu_core.frontends.text.render import safe_text, termination_text


def _rate(made: int, calls: int) -> str:
    return f"{made}/{calls} {100 * made / calls:.0f}%" if calls else "-"


@dataclass
class Summary:
    """Totals over the records added: per score line and per player."""

    lines: list[str]
    players: int
    bots: list[str]
    matches: int = 0
    hands: int = 0
    actions: int = 0
    wins: list[int] = field(default_factory=list)
    shared_wins: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    card_points: list[int] = field(default_factory=list)
    tichu: list[list[int]] = field(default_factory=list)
    grand_tichu: list[list[int]] = field(default_factory=list)
    bombs: list[int] = field(default_factory=list)
    oot_bombs: list[int] = field(default_factory=list)
    oot_tichu: list[int] = field(default_factory=list)
    first_out: list[int] = field(default_factory=list)
    double_victories: list[int] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        lines, players = len(self.lines), self.players
        self.wins = [0] * lines
        self.shared_wins = [0] * lines
        self.totals = [0] * lines
        self.card_points = [0] * lines
        self.tichu = [[0, 0] for _ in range(players)]
        self.grand_tichu = [[0, 0] for _ in range(players)]
        self.bombs = [0] * players
        self.oot_bombs = [0] * players
        self.oot_tichu = [0] * players
        self.first_out = [0] * players
        self.double_victories = [0] * players

    def add(self, record: Record) -> None:
        self.matches += 1
        self.hands += record["hands"]
        self.actions += record["actions"]
        winners = record["winners"]
        for line in winners:
            (self.wins if len(winners) == 1 else self.shared_wins)[line] += 1
        for line in range(len(self.lines)):
            self.totals[line] += record["totals"][line]
            self.card_points[line] += record["card_points"][line]
        for player in range(self.players):
            for mine, theirs in (
                (self.tichu, record["tichu"]),
                (self.grand_tichu, record["grand_tichu"]),
            ):
                mine[player][0] += theirs[player][0]
                mine[player][1] += theirs[player][1]
            self.bombs[player] += record["bombs"][player]
            self.oot_bombs[player] += record["oot_bombs"][player]
            self.oot_tichu[player] += record["oot_tichu"][player]
            self.first_out[player] += record["first_out"][player]
            self.double_victories[player] += record["double_victories"][player]
        self.endings[record["termination"]] += 1

    def bot_of(self, player: int) -> str:
        return self.bots[player % len(self.bots)]

    def render(self, title: str, elapsed: float, played_hands: int, workers: str) -> Group:
        """The tables and the closing lines (``played_hands`` in ``elapsed`` seconds: the
        hands this invocation played, for the speed)."""
        matches, hands = self.matches, max(self.hands, 1)
        lines = Table(title=safe_text(f"{matches} matches of {title}"))
        for name in ("score line", "wins", "shared wins", "mean final score", "mean per hand"):
            lines.add_column(name, justify="left" if name == "score line" else "right")
        for line, name in enumerate(self.lines):
            lines.add_row(
                safe_text(name),
                str(self.wins[line]),
                str(self.shared_wins[line]),
                f"{self.totals[line] / matches:.1f}" if matches else "-",
                f"{self.totals[line] / hands:.1f}",
            )
        players = Table(
            title="per player (a dummy counts for the player acting for it)",
            caption="double: double victories (S-SCORE-2) when the player went out first; "
            "bombs (n): n of them out of turn",
        )
        for name in ("player", "bot", "Tichu made", "Grand made", "1st out", "double", "bombs"):
            players.add_column(name, justify="left" if name in ("player", "bot") else "right")
        for player in range(self.players):
            players.add_row(
                str(player),
                safe_text(self.bot_of(player)),
                _rate(self.tichu[player][1], self.tichu[player][0]),
                _rate(self.grand_tichu[player][1], self.grand_tichu[player][0]),
                str(self.first_out[player]),
                str(self.double_victories[player]),
                f"{self.bombs[player]} ({self.oot_bombs[player]})",
            )
        endings = ", ".join(
            f"{count} {termination_text(why)}" for why, count in self.endings.most_common()
        )
        speed = played_hands / elapsed if elapsed > 0 else 0.0
        closing = Text(
            f"matches ended: {endings or '-'}\n"
            f"bombs per hand {sum(self.bombs) / hands:.3f}, of them out of turn "
            f"{sum(self.oot_bombs) / hands:.3f}; Tichu calls out of turn per hand "
            f"{sum(self.oot_tichu) / hands:.3f}\n"
            f"{self.hands} hands ({self.hands / max(matches, 1):.1f} per match), "
            f"{self.actions} actions; this run played {played_hands} hands in {elapsed:.1f} s "
            f"({speed:.0f} hands/s, {workers})"
        )
        return Group(lines, players, closing)
