"""``tichu play``: one person against bots in the terminal.

The person is one player: it acts for every seat that player controls (the
Threechu shuffler also plays the dummy), and keeps playing as the same player
when seats change between hands (Grand Seigneur reseats by rank). Bots play
every other player. The screen shows only what the person may know: the events
of ``game.events_for(player)`` and, at each decision, ``game.observation(player)``:
the cards each seat holds, the calls, the trick, the wish, the hands the player
may see (its own seats', a dummy marked), the scores. Then, depending on the
decision:

- the exchange: one question per target seat, with the number of cards that
  seat gets (``push_targets``): card codes, e.g. ``Ap As 10t``;
- after the Mah Jong, the Dragon or the Dog: a rank to wish for (or ``none``),
  the seat to give the Dragon trick to, the partner to give the lead to;
- otherwise a numbered list of the legal actions: a number, or the action
  typed: card codes (``5j 5s``; ``4j 5j 6j 7j PH=8`` sets the Phoenix),
  ``pass``, ``tichu``.

A bad answer is explained and asked again: nothing is applied that the game
does not accept, so a typo never loses the game. End of input leaves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text

import tichu_core as tc
from tichu_core import Action, Game, LegalActions, Observation, TichuError, Variant
from tichu_core.frontends.bots import Bot, make_bot
from tichu_core.frontends.render import Transcript, card_text, ordinal, play_text

# Observation fields this screen shows in its own words; any other one (a variant's
# titles or ranks, say) is shown as it is, so that nothing the player may know is hidden.
_SHOWN = frozenset(
    {
        "player", "seats", "hand_index", "phase", "dealer", "hand", "hands", "hand_sizes",
        "players", "teams", "titles", "turn", "waiting_for", "trick", "top_seat", "wish", "pending",
        "calls", "grand_tichu_decided", "push_targets", "pushed", "received", "out_order",
        "won_points", "won_cards", "scores", "score_lines", "hands_played",
    }
)  # fmt: skip
_CALLS = {
    "tichu": "Tichu",
    "grand_tichu": "Grand Tichu",
    "grand_tichu+tichu": "Grand Tichu + Tichu",
}
HELP = (
    "answer with a number from the list, or type the action: cards (5j 5s; PH=8 sets "
    "the Phoenix), pass, tichu"
)


class _Leave(Exception):
    """The person's input ended."""


def play_in_terminal(
    variant: Variant,
    seat: int = 0,
    seed: int | None = None,
    ask: Callable[[str], str] = input,
    console: Console | None = None,
    bot: str = "greedy",
) -> int:
    """A new match of ``variant``: the person plays the player at ``seat`` (of the first
    hand), bots named ``bot`` the others. Returns the exit status."""
    console = console or Console(highlight=False)
    game = Game(variant, seed=seed)
    player = game.player_at(seat)
    if player is None:
        people = [s for s in range(game.seats) if game.player_at(s) is not None]
        console.print(
            Text(
                f"seat {seat} is a dummy seat, played by the dealer: choose one of seats "
                f"{', '.join(map(str, people))}",
                style="red",
            )
        )
        return 2
    return play_game(game, player, ask=ask, console=console, bot=bot)


def play_game(
    game: Game,
    player: int,
    ask: Callable[[str], str] = input,
    console: Console | None = None,
    bot: str = "greedy",
) -> int:
    """Play ``game`` (from wherever it stands) to its end: the person is ``player``."""
    return TerminalPlayer(game, player, ask, console or Console(highlight=False), bot).run()


class TerminalPlayer:
    """One person at the table: shows their view, asks, and applies what they answer."""

    def __init__(
        self, game: Game, player: int, ask: Callable[[str], str], console: Console, bot: str
    ) -> None:
        self.game = game
        self.me = player
        self._ask = ask
        self.console = console
        rng = random.Random(game.seed)
        self.bots: dict[int, Bot] = {
            p: make_bot(bot, rng.randrange(1 << 30)) for p in range(game.players) if p != player
        }
        # The person's own stream is already redacted: the transcript may show every
        # card in it (their dealt, pushed and received cards, a hand turned face up).
        self.transcript = Transcript(
            console,
            game.score_lines,
            show_private=True,
            titles=lambda: self.game.observation(self.me).titles,
        )
        self._seen = 0

    def run(self) -> int:
        game = self.game
        self._catch_up()
        while not game.is_over:
            seat = game.waiting_for[0]
            controller = game.controller(seat)
            if controller != self.me:
                game.apply(self.bots[controller].choose(game, seat))
            else:
                # What the transcript holds back (a deal waiting for its calls) comes
                # before the question.
                self.transcript.close()
                try:
                    self._decide(seat)
                except _Leave:
                    self.console.print("bye")
                    return 0
            self._catch_up()
        return 0

    def _catch_up(self) -> None:
        events = self.game.events_for(self.me, since=self._seen)
        self._seen += len(events)
        self.transcript.feed(events)

    def ask(self, prompt: str) -> str:
        try:
            return self._ask(prompt)
        except EOFError:
            raise _Leave from None

    def _apply(self, action: Action | Callable[[], Action]) -> bool:
        """Apply an action (or build it first); a refusal is explained, never fatal."""
        try:
            self.game.apply(action() if callable(action) else action)
        except (TichuError, ValueError) as error:
            self._explain(str(error))
            return False
        return True

    def _explain(self, message: str) -> None:
        # Text, not markup: messages hold brackets ("seats [1, 3]").
        self.console.print(Text(f"not accepted: {message}", style="red"), soft_wrap=True)

    # --- one decision of a seat the person acts for -----------------------------------

    def _decide(self, seat: int) -> None:
        """Ask until one action of ``seat`` is applied (or the input ends)."""
        view = self.game.observation(self.me)
        actions = self.game.legal_actions(seat)
        show(self.console, view, seat)
        while not self._ask_once(seat, view, actions):
            pass  # explained: the same question again

    def _ask_once(self, seat: int, view: Observation, actions: LegalActions) -> bool:
        """One question for ``seat``'s decision; whether an action was applied."""
        fixed = actions.fixed
        if any(isinstance(a, tc.Wish) for a in fixed):
            return self._wish(seat)
        if any(isinstance(a, tc.GiveTrick | tc.GiveLead) for a in fixed):
            return self._give(seat, view, fixed)
        if seat in view.push_targets and len(actions) > len(fixed) + len(actions.combinations):
            # Pushes are thousands: asked target by target, never listed.
            return self._push(seat, view, fixed)
        return self._choose(seat, view, actions)

    def _choose(self, seat: int, view: Observation, actions: LegalActions) -> bool:
        listed = list(actions)
        for number, action in enumerate(listed, start=1):
            self.console.print(Text(f"  {number:3}. ") + describe(action, view))
        answer = self.ask(f"{self._who(seat, view)}: your action (number, cards, pass, tichu): ")
        return self._apply(lambda: parse_answer(answer, seat, listed))

    def _wish(self, seat: int) -> bool:
        """S-WISH-1: after the Mah Jong."""
        answer = self.ask(
            f"seat {seat} played the Mah Jong: wish for a rank (2..10, J, Q, K, A) or none: "
        ).strip()
        if answer.lower() in ("", "none", "no", "-"):
            return self._apply(tc.Wish(seat, None))
        return self._apply(lambda: tc.Wish(seat, answer))

    def _give(self, seat: int, view: Observation, fixed: list[Action]) -> bool:
        """S-DRAGON-1: the Dragon trick to an opponent; T6-4: the lead to a partner."""
        gifts = [a for a in fixed if isinstance(a, tc.GiveTrick | tc.GiveLead)]
        options = ", ".join(
            f"{a.to} ({self._seat_name(a.to, view)}, {view.hand_sizes[a.to]} cards)" for a in gifts
        )
        if isinstance(gifts[0], tc.GiveTrick):
            question = f"seat {seat} won the trick with the Dragon: give it to seat"
        else:
            question = f"seat {seat} played the Dog: give the lead to seat"
        answer = self.ask(f"{question} {options}: ").strip().removeprefix("seat").strip()
        if not answer.isdigit():
            self._explain(f"answer with a seat number: {', '.join(str(a.to) for a in gifts)}")
            return False
        kind = type(gifts[0])
        return self._apply(lambda: kind(seat, int(answer)))

    def _push(self, seat: int, view: Observation, fixed: list[Action]) -> bool:
        """S-EX-1, GS-6: the cards for each target seat, asked one target at a time with
        the number of cards it gets; a listed action (a Tichu call) may come first."""
        targets = view.push_targets[seat]
        for number, action in enumerate(fixed, start=1):
            self.console.print(Text(f"  {number:3}. ") + describe(action, view))
        if fixed:
            self.console.print("  (or answer with the number of an action above first)")
        left = Counter(view.hands.get(seat, []))
        given: dict[int, str] = {}
        for target, count in sorted(targets.items()):
            while target not in given:
                answer = self.ask(
                    f"seat {seat} pushes to seat {target} ({self._seat_name(target, view)}), "
                    f"{count} card{'s' if count != 1 else ''}: "
                ).strip()
                choice = _fixed_choice(answer, seat, fixed)
                if choice is not None:
                    return self._apply(choice)
                codes = self._push_codes(answer, count, target, left)
                if codes is not None:
                    left -= Counter(codes)
                    given[target] = " ".join(codes)
        return self._apply(lambda: tc.Push(seat, given))

    def _push_codes(
        self, answer: str, count: int, target: int, left: Counter[str]
    ) -> list[str] | None:
        try:
            codes = [str(card) for card in tc.parse_cards(answer.replace(",", " "))]
        except TichuError as error:
            self._explain(str(error))
            return None
        if len(codes) != count:
            self._explain(f"seat {target} gets {count} card(s), not {len(codes)}")
            return None
        missing = Counter(codes) - left
        if missing:
            self._explain(
                f"{' '.join(missing.elements())}: not in the hand (or given to another seat)"
            )
            return None
        return codes

    def _seat_name(self, seat: int, view: Observation) -> str:
        player = view.players[seat]
        if player is None:
            name = "dummy"
        elif player == self.me:
            name = "you"
        else:
            name = f"player {player}"
        if seat not in view.seats and len(set(view.teams)) < len(view.teams):
            # Partners only exist where teams hold more than one seat.
            mine = {view.teams[s] for s in view.seats}
            name += ", partner" if view.teams[seat] in mine else ", opponent"
        return name

    def _who(self, seat: int, view: Observation) -> str:
        return f"seat {seat} (dummy)" if view.players[seat] is None else f"seat {seat}"


# --------------------------------------------------------------------------- the screen


def show(console: Console, view: Observation, acting: int) -> None:
    """The table as ``view``'s player sees it, before ``acting`` decides."""
    console.rule(f"hand {view.hand_index + 1} — {view.phase.replace('_', ' ')}")
    seats = []
    for seat, size in enumerate(view.hand_sizes):
        player = view.players[seat]
        name = "dummy" if player is None else "you" if player == view.player else f"player {player}"
        if seat in view.titles:  # GS-5: Great Lord ... Wretch
            name += f" ({view.titles[seat]})"
        facts = [f"{size} card{'s' if size != 1 else ''}"]
        if seat in view.calls:
            facts.append(_CALLS.get(view.calls[seat], view.calls[seat]))
        if seat in view.out_order:
            facts.append(f"out {ordinal(view.out_order.index(seat) + 1)}")
        seats.append(f"{seat} {name}: {', '.join(facts)}")
    console.print(Text("cards held: " + " · ".join(seats)), soft_wrap=True)
    if view.trick:
        console.print("trick:")
        for play in view.trick:
            console.print(Text("  ") + play_text(play["seat"], play["cards"], play["phoenix"]))
    if view.wish:
        console.print(Text(f"open wish: {view.wish}", style="yellow"))
    for seat, cards in sorted(view.hands.items()):
        if not cards:
            continue  # out of the hand
        marks = []
        if view.players[seat] is None:
            marks.append("dummy")
        if seat not in view.seats:
            marks.append("face up")
        label = f"seat {seat}" + (f" ({', '.join(marks)})" if marks else "")
        console.print(Text(f"{label} hand: ") + card_text(cards), soft_wrap=True)
    for target, codes in sorted(view.pushed.items() if view.phase == "exchange" else ()):
        console.print(Text(f"pushed to seat {target}: ") + card_text(codes.split()))
    scores = ", ".join(f"{n} {s}" for n, s in zip(view.score_lines, view.scores, strict=True))
    console.print(Text(f"scores: {scores}"))
    for name, value in view.model_dump(exclude=set(_SHOWN)).items():
        if value not in (None, [], {}):
            console.print(Text(f"{name.replace('_', ' ')}: {value}"))
    who = f"seat {acting}" + (" (dummy)" if view.players[acting] is None else "")
    console.print(Text(f"— {who} to act —", style="bold"))


def describe(action: Action, view: Observation) -> Text:
    """A listed action in words (plays as coloured cards)."""
    if isinstance(action, tc.Play):
        return card_text(action.cards.split(), action.phoenix) + (
            Text(f" (Phoenix as {action.phoenix})") if action.phoenix else Text()
        )
    if isinstance(action, tc.GrandTichu):
        return Text("call Grand Tichu" if action.call else "no Grand Tichu")
    if isinstance(action, tc.Tichu):
        return Text("call Tichu")
    if isinstance(action, tc.Pass):
        return Text("pass (take the trick)" if view.top_seat == action.seat else "pass")
    if isinstance(action, tc.Wish):
        return Text(f"wish for {action.rank}" if action.rank else "no wish")
    if isinstance(action, tc.GiveTrick):
        return Text(f"give the trick to seat {action.to}")
    if isinstance(action, tc.GiveLead):
        return Text(f"give the lead to seat {action.to}")
    if isinstance(action, tc.Push):
        return Text(", ".join(f"{codes} to seat {t}" for t, codes in action.cards.items()))
    fields: dict[str, Any] = {
        k: v for k, v in action._asdict().items() if k not in ("type", "seat")
    }
    return Text(f"{action.type} {fields}")


def _fixed_choice(answer: str, seat: int, fixed: list[Action]) -> Action | None:
    """A listed fixed action chosen by number or as ``tichu``, else None."""
    if answer.isdigit() and 1 <= int(answer) <= len(fixed):
        return fixed[int(answer) - 1]
    if answer.lower() == "tichu":
        return tc.Tichu(seat)
    return None


def parse_answer(text: str, seat: int, listed: list[Action]) -> Action:
    """An answer to the list of actions: a number of it, ``pass``, ``tichu``, or cards
    (``PH=8`` for the Phoenix standing for an 8). ValueError/TichuError if malformed."""
    text = text.strip()
    if not text:
        raise ValueError(HELP)
    if text.isdigit():
        number = int(text)
        if not 1 <= number <= len(listed):
            raise ValueError(f"choose a number from 1 to {len(listed)}")
        return listed[number - 1]
    lowered = text.lower()
    if lowered == "pass":
        return tc.Pass(seat)
    if lowered == "tichu":
        return tc.Tichu(seat)
    phoenix = None
    cards = []
    for token in text.replace(",", " ").split():
        if token.upper().startswith("PH="):
            phoenix = token[3:]
            cards.append("PH")
        else:
            cards.append(token)
    return tc.Play(seat, cards, phoenix)
