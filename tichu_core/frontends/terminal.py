"""``tichu play``: one person against bots in the terminal.

At each of your decisions the screen shows your hand, the trick and the table,
then a numbered list of your legal actions. Answer with a number, or type the
action: card codes (``5j 5s``; ``4j 5j 6j 7j PH=8`` to set the Phoenix),
``pass``, ``tichu``; pushes as three codes in target order.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from tichu_core.errors import TichuError
from tichu_core.frontends.bots import GreedyBot
from tichu_core.frontends.render import Transcript, card_text, play_text
from tichu_core.game.actions import Action, Pass, Play, Push, Tichu
from tichu_core.game.match import Game
from tichu_core.game.views import Observation
from tichu_core.variants.models import Variant


def _show(console: Console, view: Observation) -> None:
    console.rule(f"hand {view.hand_index + 1} — {view.phase}")
    sizes = "  ".join(f"seat {s}: {n}" for s, n in enumerate(view.hand_sizes))
    console.print(f"cards held: {sizes}")
    if view.trick:
        console.print("trick:")
        for play in view.trick:
            console.print(Text("  ") + play_text(play["seat"], play["cards"], play["phoenix"]))
    if view.wish:
        console.print(f"[yellow]open wish: {view.wish}[/yellow]")
    for seat, cards in view.hands.items():
        console.print(f"seat {seat} hand: ", card_text(cards))
    scores = ", ".join(f"{n} {s}" for n, s in zip(view.score_lines, view.scores, strict=False))
    console.print(f"scores: {scores}")


def _parse_answer(text: str, seat: int, options: list[Action], push_targets: list[int]) -> Action:
    text = text.strip()
    if text.isdigit() and options:
        return options[int(text) - 1]
    lowered = text.lower()
    if lowered == "pass":
        return Pass(seat)
    if lowered == "tichu":
        return Tichu(seat)
    tokens = text.split()
    if push_targets:
        return Push(seat, dict(zip(push_targets, tokens, strict=True)))
    phoenix = None
    cards = []
    for token in tokens:
        if token.upper().startswith("PH="):
            phoenix = token[3:]
            cards.append("PH")
        else:
            cards.append(token)
    return Play(seat, cards, phoenix)


def play_in_terminal(
    variant: Variant,
    seat: int = 0,
    seed: int | None = None,
    ask: Callable[[str], str] = input,
    console: Console | None = None,
) -> int:
    console = console or Console(highlight=False)
    game = Game(variant, seed=seed)
    me = seat
    bots = {
        p: GreedyBot(random.Random(game.seed).randrange(1 << 30) + p)
        for p in range(variant.players)
        if p != me
    }
    transcript = Transcript(console, game.score_lines, show_private=False)
    transcript.feed(game.events_for(me))
    seen = len(game.events_for(me))
    while not game.is_over:
        waiting = game.waiting_for[0]
        if game.controller(waiting) != me:
            game.apply(bots[game.controller(waiting)].choose(game, waiting))
        else:
            view = game.observation(me)
            _show(console, view)
            actions = game.legal_actions(waiting)
            # Pushes (thousands) are typed as cards; every other action is listed.
            pushing = view.phase == "exchange"
            listed = list(actions.fixed) if pushing else list(actions)
            for number, action in enumerate(listed, start=1):
                console.print(f"  {number:2}. {_describe(action)}")
            targets = list(view.push_targets.get(waiting, {})) if pushing else []
            prompt = (
                f"push one card to each of seats {targets}: "
                if targets
                else "your action (number or cards): "
            )
            try:
                answer = ask(prompt)
            except EOFError:
                console.print("bye")
                return 0
            try:
                game.apply(_parse_answer(answer, waiting, listed, targets))
            except (TichuError, ValueError, IndexError) as error:
                console.print(f"[red]{error}[/red]")
        events = game.events_for(me)
        transcript.feed(events[seen:])
        seen = len(events)
    return 0


def _describe(action: Action) -> str:
    if isinstance(action, Play):
        return action.cards + (f" (Phoenix as {action.phoenix})" if action.phoenix else "")
    fields = {k: v for k, v in action._asdict().items() if k not in ("type", "seat")}
    return action.type + (f" {fields}" if fields else "")
