"""Side-by-side speed of our engine (``tichu_core``) and the peer engine frohlfing/tichu.

Run it from the repository root with the project's virtual environment::

    .venv/bin/python benchmarks/side_by_side.py --peer /path/to/checkout

or ``make side-by-side PEER=/path/to/checkout`` (docs/performance.md, "Side by side
with frohlfing/tichu"). The peer is imported from the user's own checkout at commit
83e71b0 (https://github.com/frohlfing/tichu); none of its code lives in this project.

Both engines run in this one process, pinned to one core, and follow the method of
``tichu bench`` (tichu_core/frontends/bench/figures.py): the same seeded inputs every run,
each move-generation call timed once, cold, with ``time.perf_counter_ns`` and the
garbage collector off (in MOVE_ROUNDS rounds for either engine, the round with the
lowest median reported; the rounds go round every figure of both engines, so a burst
of the machine's noise lands in one round of several figures, not in all of one). Inputs
are converted to each engine's card notation before any clock starts. Four groups
of figures:

1. move generation on the same hands (median and p90 per call), with a check that both
   engines list the same distinct card sets;
2. random-play hands per second of standard Tichu, in alternating time slices;
3. the size of a mid-hand state and the time to copy it;
4. play-outs (a search's rollouts): mid-hand states copied and played to the end of
   the hand by random bots, in alternating time slices.

The module is importable (``tests/test_side_by_side.py`` loads it by path): our half
and the notation conversion need no peer; everything about the peer goes through
:func:`load_peer`.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import copy
import enum
import gc
import importlib
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable, Iterable, Sequence, Sized
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tichu_core.cardplay.cards import (
    PHOENIX,
    RANK_NAMES,
    deck_mask,
    iter_cards,
    mask_of,
    parse_cards,
)
from tichu_core.cardplay.combinations import recognize
from tichu_core.cardplay.moves import lead_plays, plays
from tichu_core.frontends.bench.figures import play_out, playout_states, timed_calls
from tichu_core.game.actions import GrandTichu, Tichu
from tichu_core.game.match import Game
from tichu_core.variants.loading import load_variant

PEER_COMMIT = "83e71b07f52f87b58c4af0635b74d0f3b548a817"
PEER_URL = "https://github.com/frohlfing/tichu"
CHECKOUT_HELP = (
    "Make a checkout of the peer at commit 83e71b0 outside this project and install "
    "its two dependencies into the project's venv:\n"
    f"    git clone -q {PEER_URL} /tmp/peer-tichu\n"
    "    git -C /tmp/peer-tichu checkout -q 83e71b0\n"
    "    .venv/bin/pip install aiohttp python-dotenv\n"
    "then pass it with --peer /tmp/peer-tichu (or TICHU_PEER=/tmp/peer-tichu), or run\n"
    "    make side-by-side PEER=/tmp/peer-tichu"
)

# The four move-generation figures, in the order their hands are drawn (the order of
# tichu bench, so that with its seed our hands are exactly the bench's hands).
LEAD_RANDOM = "lead, random 14-card hand"
LEAD_PHOENIX = "lead, 14-card hand holding the Phoenix"
LEAD_WORST = "lead, 2..A of one suit + Phoenix"
FOLLOW_FIVES = "follow a pair of 5s, random 14-card hand"
WORST_HAND = "2j 3j 4j 5j 6j 7j 8j 9j 10j Jj Qj Kj Aj PH"
PAIR_OF_FIVES = "5j 5s"
MOVE_SEED = 2024  # tichu bench's seed
GAME_SEED = 7  # tichu bench's seed
MATCH_HANDS = 300  # hands of one of our matches, as in tichu bench
STATE_DECISIONS = 30
# Rounds of every move-generation figure, for either engine; the round with the lowest
# median is reported. A figure's round lasts a fraction of a second, so one burst of
# the virtual machine's noise can move a median by a fifth; the best round is the one
# it spared.
MOVE_ROUNDS = 3
# The peer's rows of the move-generation figures.
PEER_LEAD = "peer"
PEER_CACHED = "peer with its per-hand cache"
PEER_COLD = "peer cold (build_combinations + build_action_space)"


class PeerError(Exception):
    """The peer cannot be used; the message says what to do."""


# --- notation ---------------------------------------------------------------------
#
# The common notation is our canonical card code ("5j", "PH"). The peer writes a card
# as a (value, suit) tuple: values 2..14 for normal cards, 0 Dog, 1 Mah Jong,
# 15 Dragon, 16 Phoenix; suits 0 special, 1 sword, 2 pagoda, 3 jade, 4 star.
# load_peer() checks these numbers against the peer's own definitions.

PEER_SUIT_NUMBERS = {"SPECIAL": 0, "SWORD": 1, "PAGODA": 2, "JADE": 3, "STAR": 4}
# Our suit index (0 jade, 1 sword, 2 pagoda, 3 star) -> the peer's suit number.
_PEER_SUIT_OF_OURS = (3, 1, 2, 4)
_OUR_SUIT_LETTER_OF_PEER = {3: "j", 1: "s", 2: "p", 4: "t"}
_PEER_SPECIALS = {"DOG": (0, 0), "MJ": (1, 0), "DR": (15, 0), "PH": (16, 0)}
_SPECIAL_OF_PEER_VALUE = {value: code for code, (value, _) in _PEER_SPECIALS.items()}

PeerCard = tuple[int, int]


def peer_card_of_code(code: str) -> PeerCard:
    """The peer's (value, suit) of one of our card codes (first deck)."""
    card = parse_cards(code)[0]
    special = _PEER_SPECIALS.get(str(card))
    if special is not None:
        return special
    assert card.suit is not None
    return (card.rank, _PEER_SUIT_OF_OURS[card.suit])


def code_of_peer_card(card: Sequence[int]) -> str:
    """Our canonical code of a peer (value, suit) card."""
    value, suit = int(card[0]), int(card[1])
    if suit == 0:
        return _SPECIAL_OF_PEER_VALUE[value]
    return RANK_NAMES[value] + _OUR_SUIT_LETTER_OF_PEER[suit]


def peer_cards_of_mask(mask: int, lookup: dict[PeerCard, Any] | None = None) -> list[Any]:
    """A hand mask as the peer holds a hand: its cards sorted high to low (its private
    state sorts hands that way when they are set). ``lookup`` maps (value, suit) to the
    peer's own card objects, so that the peer works on the tuples its deck is made of."""
    cards = [peer_card_of_code(str(card)) for card in iter_cards(mask)]
    cards.sort(reverse=True)
    return [lookup[c] for c in cards] if lookup is not None else cards


def card_set_of_mask(mask: int) -> frozenset[str]:
    return frozenset(str(card) for card in iter_cards(mask))


def card_set_of_peer(cards: Iterable[Sequence[int]]) -> frozenset[str]:
    return frozenset(code_of_peer_card(card) for card in cards)


def our_card_sets(found: Iterable[Any]) -> set[frozenset[str]]:
    """Distinct card sets of our plays: a set listed under two Phoenix readings is one.
    A listed play is a tuple (kind, length, rank, cards, phoenix)."""
    return {card_set_of_mask(play[3]) for play in found}


def peer_card_sets(action_space: Iterable[tuple[Sequence[Any], Any]]) -> set[frozenset[str]]:
    """Distinct card sets of a peer action space, without its pass entry (no cards)."""
    return {card_set_of_peer(cards) for cards, _ in action_space if cards}


def first_difference(ours: set[frozenset[str]], peer: set[frozenset[str]]) -> str | None:
    """None when both engines list the same card sets, else what one lists alone."""
    only_ours = sorted(" ".join(sorted(s)) for s in ours - peer)
    only_peer = sorted(" ".join(sorted(s)) for s in peer - ours)
    if not only_ours and not only_peer:
        return None
    parts = []
    if only_ours:
        parts.append(f"only ours ({len(only_ours)}): {only_ours[:3]}")
    if only_peer:
        parts.append(f"only the peer ({len(only_peer)}): {only_peer[:3]}")
    return "; ".join(parts)


# --- timing ---------------------------------------------------------------------


@dataclass
class Timing:
    median_us: float
    p90_us: float
    plays: float  # mean number of plays (peer: without its pass entry)
    samples: int


def best_of_rounds(
    jobs: dict[Any, tuple[Sequence[Any], Callable[[Any], Sized]]], rounds: int = MOVE_ROUNDS
) -> dict[Any, Timing]:
    """Each job's inputs timed once per round, cold (tichu bench's timer, with its untimed
    warm-up of 100 inputs for either engine): the median and the p90 of each job's round
    with the lowest median. The rounds go round the jobs (every job's first round, then
    every job's second, ...), so a slow spell of the machine, which lasts a second or
    two, falls on one round of several jobs rather than on every round of one."""
    best: dict[Any, Timing] = {}
    for _ in range(rounds):
        for key, (inputs, generate) in jobs.items():
            times, sizes = timed_calls(inputs, generate)
            timing = Timing(
                statistics.median(times) / 1000,
                _p90(times) / 1000,
                statistics.fmean(sizes),
                len(times),
            )
            if key not in best or timing.median_us < best[key].median_us:
                best[key] = timing
    return best


def time_each(
    inputs: Sequence[Any], generate: Callable[[Any], Sized], rounds: int = MOVE_ROUNDS
) -> Timing:
    """One job's best round (see :func:`best_of_rounds`)."""
    assert rounds >= 1, "at least one round"
    return best_of_rounds({0: (inputs, generate)}, rounds)[0]


def _p90(values: Sequence[int]) -> float:
    if len(values) < 2:
        return float(values[0])
    return statistics.quantiles(values, n=10, method="inclusive")[8]


# --- our engine: move generation -------------------------------------------------


def seeded_hands(samples: int, seed: int = MOVE_SEED) -> dict[str, list[int]]:
    """The hands of each figure as our masks, drawn as tichu bench draws them."""
    rng = random.Random(seed)
    deck = list(iter_cards(deck_mask(1)))
    random_hands = [mask_of(rng.sample(deck, 14)) for _ in range(samples)]
    without_phoenix = [c for c in deck if c != PHOENIX]
    phoenix_hands = [mask_of([PHOENIX, *rng.sample(without_phoenix, 13)]) for _ in range(samples)]
    pair = parse_cards(PAIR_OF_FIVES)
    rest = [c for c in deck if c not in pair]
    follow_hands = [mask_of(rng.sample(rest, 14)) for _ in range(samples)]
    worst = mask_of(parse_cards(WORST_HAND))
    return {
        LEAD_RANDOM: random_hands,
        LEAD_PHOENIX: phoenix_hands,
        LEAD_WORST: [worst] * samples,
        FOLLOW_FIVES: follow_hands,
    }


def pair_of_fives() -> Any:
    return recognize(mask_of(parse_cards(PAIR_OF_FIVES)))[0]


def our_generator(figure: str) -> Callable[[int], list[Any]]:
    """Our generator of a figure: lead_plays(mask), or plays(mask, top) to follow."""
    if figure == FOLLOW_FIVES:
        top = pair_of_fives()
        return lambda hand: plays(hand, top)
    return lead_plays


def our_move_jobs(
    hands: dict[str, list[int]],
) -> dict[str, tuple[Sequence[Any], Callable[[Any], Sized]]]:
    return {figure: (inputs, our_generator(figure)) for figure, inputs in hands.items()}


def our_move_figures(hands: dict[str, list[int]]) -> dict[str, Timing]:
    return best_of_rounds(our_move_jobs(hands))


# --- our engine: random play ---------------------------------------------------------


class OurPlay:
    """The random-bot loop of tichu bench's game_figures, run in time slices: matches
    of 300 hands, each continued by the next slice, a new seeded match when one ends."""

    def __init__(self, seed: int = GAME_SEED) -> None:
        self.variant = load_variant(
            "standard", overrides={"game.target": 0, "game.hands": MATCH_HANDS}
        )
        self.seed = seed
        self.rng = random.Random(seed)
        self.game: Any = None
        self.hands = 0
        self.decisions = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        """Play until ``seconds`` are up (clock read between decisions); the time counts
        in full, the hands only once finished."""
        draw = self.rng.random
        clock = time.perf_counter
        decisions = 0
        hands = 0
        gc.disable()
        start = clock()
        deadline = start + seconds
        try:
            while True:
                game = self.game
                if game is None or game.is_over:
                    game = self.game = Game(self.variant, seed=self.seed)
                    self.seed += 1
                before = len(game.hand_results)
                # The clock is read every 32 decisions (about 0.2 ms), as the peer's
                # loop reads it once a game: the time counts in full either way.
                while not game.is_over and (decisions & 31 or clock() < deadline):
                    actions = game.legal_actions(game.waiting_for[0])
                    count = len(actions)
                    while True:  # tichu bench's choice (figures._random_choice)
                        action = actions[int(draw() * count)]
                        kind = type(action)
                        if not (kind is Tichu or (kind is GrandTichu and action.call)):
                            break
                    game.apply(action)
                    decisions += 1
                hands += len(game.hand_results) - before
                if not game.is_over:
                    break
        finally:
            elapsed = clock() - start
            gc.enable()
        self.seconds += elapsed
        self.hands += hands
        self.decisions += decisions


def our_seeded_game(decisions: int = STATE_DECISIONS, seed: int = GAME_SEED) -> Any:
    """A seeded random game after ``decisions`` decisions of the bench loop."""
    variant = load_variant("standard", overrides={"game.target": 0, "game.hands": MATCH_HANDS})
    game = Game(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        actions = game.legal_actions(game.waiting_for[0])
        while True:
            action = actions[rng.randrange(len(actions))]
            if not (isinstance(action, Tichu) or (isinstance(action, GrandTichu) and action.call)):
                break
        game.apply(action)
    return game


# --- state size -------------------------------------------------------------------

# Code and class-level constants are shared by every state of a program: a state's
# size counts only the data objects it reaches.
_NOT_STATE = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.CodeType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
    types.MethodWrapperType,
    types.GetSetDescriptorType,
    types.MemberDescriptorType,
    enum.Enum,
)


def _reachable(roots: Iterable[object], stop: set[int]) -> dict[int, object]:
    """Every object reached from ``roots`` through gc.get_referents, not entering code,
    classes, enum members or the objects whose ids are in ``stop``."""
    found: dict[int, object] = {}
    pending = [r for r in roots if id(r) not in stop]
    while pending:
        obj = pending.pop()
        key = id(obj)
        if key in found or key in stop or isinstance(obj, _NOT_STATE):
            continue
        found[key] = obj
        pending.extend(gc.get_referents(obj))
    return found


def reachable_ids(roots: Iterable[object]) -> set[int]:
    return set(_reachable(roots, set()))


def deep_size(roots: Iterable[object], shared: set[int] | None = None) -> int:
    """Bytes (sys.getsizeof) of the objects reached from ``roots``, leaving out those
    in ``shared`` (and what is reached only through them)."""
    return sum(sys.getsizeof(obj) for obj in _reachable(roots, shared or set()).values())


@dataclass
class StateFigure:
    copy_median_us: float
    copy_bytes: int  # objects a copy adds: reachable from it, not from the original
    total_bytes: int  # everything the state reaches (ours: less variant and rulebook)
    copies: int
    how: str
    detail: dict[str, int] = field(default_factory=dict)


def time_copies(copy_once: Callable[[], object], copies: int) -> float:
    """Median µs of ``copies`` copies, each timed alone with the gc off."""
    times: list[int] = []
    clock = time.perf_counter_ns
    gc.disable()
    try:
        for _ in range(copies):
            start = clock()
            twin = copy_once()
            times.append(clock() - start)
            del twin
    finally:
        gc.enable()
        gc.collect()
    return statistics.median(times) / 1000


def our_state_figure(copies: int = 1000, decisions: int = STATE_DECISIONS) -> StateFigure:
    game = our_seeded_game(decisions)
    median = time_copies(game.copy, copies)
    twin = game.copy()
    added = deep_size([twin], reachable_ids([game]))
    total = deep_size([game], reachable_ids([game.variant, game.rulebook]))
    return StateFigure(
        median,
        added,
        total,
        copies,
        "game.copy(); total = the Game less its variant and rulebook (shared by design)",
    )


def check_our_copy(decisions: int = STATE_DECISIONS) -> str | None:
    """None when game.copy() is an independent game in the same state."""
    game = our_seeded_game(decisions)
    before = game.to_json()
    twin = game.copy()
    if twin.to_json() != before:
        return "the copy's JSON differs from the original's"
    twin.apply(twin.legal_actions(twin.waiting_for[0])[0])
    if game.to_json() != before:
        return "an action applied to the copy changed the original"
    return None


# --- the peer -----------------------------------------------------------------------


@dataclass
class Peer:
    """The peer's modules and what the harness derived from them."""

    path: Path
    commit: str
    cards: Any  # its src.lib.cards module
    combinations: Any
    game_engine_class: Any
    random_agent_class: Any  # the peer's RandomAgent
    agent_class: Any  # the same with a decision counter (harness code)
    lookup: dict[PeerCard, Any]  # (value, suit) -> the peer's own card tuple
    lead_trick: tuple[Any, int, int]  # the peer's (type, length, rank) of an empty trick
    fives_trick: tuple[Any, int, int]  # ... of a pair of 5s on the table


def peer_commit(path: Path) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as error:
        return f"unknown ({error})"
    return out.stdout.strip()


def _counting_agent(random_agent: type) -> type:
    """The peer's RandomAgent, counting its decisions and able to call a hook at one of
    them (to look at the state mid-hand). The peer's engine awaits these methods."""

    class CountingRandomAgent(random_agent):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.counter = [0]  # a run gives its four agents one shared list
            self.hook: Callable[[int], None] | None = None

        def _count(self) -> None:
            self.counter[0] += 1
            if self.hook is not None:
                self.hook(self.counter[0])

        async def announce(self) -> bool:
            self._count()
            return bool(await super().announce())

        async def schupf(self) -> Any:
            self._count()
            return await super().schupf()

        async def play(self, interruptable: bool = False) -> Any:
            self._count()
            return await super().play(interruptable)

        async def wish(self) -> int:
            self._count()
            return int(await super().wish())

        async def give_dragon_away(self) -> int:
            self._count()
            return int(await super().give_dragon_away())

    return CountingRandomAgent


def load_peer(path: str | os.PathLike[str]) -> Peer:
    """Import the peer from the user's checkout at ``path`` (its directory goes on
    sys.path, its package is ``src``). Raises PeerError with what to do."""
    root = Path(path).expanduser().resolve()
    if not (root / "src" / "lib" / "combinations.py").is_file():
        raise PeerError(f"no frohlfing/tichu checkout at {root}.\n{CHECKOUT_HELP}")
    loaded = sys.modules.get("src")
    if loaded is not None and Path(getattr(loaded, "__file__", "") or "").parent.parent != root:
        raise PeerError(f"another package named 'src' is already imported ({loaded!r})")
    commit = peer_commit(root)
    # The peer's logger opens DATA_PATH/logs/app.log at import; a fresh checkout has no
    # data/ folder, and the checkout is not ours to write into.
    if "DATA_PATH" not in os.environ:
        data = tempfile.mkdtemp(prefix="tichu-peer-data-")
        os.makedirs(os.path.join(data, "logs"))
        os.environ["DATA_PATH"] = data
        atexit.register(shutil.rmtree, data, True)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        config = importlib.import_module("src.config")
        # What its bin/run_arena.py sets before the engine.
        config.LOG_LEVEL = "WARNING"  # type: ignore[attr-defined]
        cards = importlib.import_module("src.lib.cards")
        combinations = importlib.import_module("src.lib.combinations")
        game_engine = importlib.import_module("src.game_engine")
        random_agent = importlib.import_module("src.players.random_agent")
    except ImportError as error:
        raise PeerError(
            f"importing the peer from {root} failed: {error}.\n"
            "Its modules need aiohttp and python-dotenv in this interpreter:\n"
            f"    {sys.executable} -m pip install aiohttp python-dotenv\n{CHECKOUT_HELP}"
        ) from error
    except Exception as error:  # its modules run code at import (config, logger)
        raise PeerError(f"importing the peer from {root} failed: {error!r}") from error
    suits = {member.name: int(member) for member in cards.CardSuit}
    specials = {
        "DOG": cards.CARD_DOG,
        "MJ": cards.CARD_MAH,
        "DR": cards.CARD_DRA,
        "PH": cards.CARD_PHO,
    }
    if suits != PEER_SUIT_NUMBERS or any(
        tuple(map(int, card)) != _PEER_SPECIALS[code] for code, card in specials.items()
    ):
        raise PeerError(
            f"the peer's card notation is not the one this harness converts to "
            f"(suits {suits}); is the checkout at {PEER_COMMIT[:7]}?"
        )
    kinds = combinations.CombinationType
    return Peer(
        path=root,
        commit=commit,
        cards=cards,
        combinations=combinations,
        game_engine_class=game_engine.GameEngine,
        random_agent_class=random_agent.RandomAgent,
        agent_class=_counting_agent(random_agent.RandomAgent),
        lookup={(int(v), int(s)): (v, s) for v, s in cards.deck},
        lead_trick=(kinds.PASS, 0, 0),
        fives_trick=(kinds.PAIR, 2, 5),
    )


# --- the peer: move generation -------------------------------------------------------


def peer_generators(peer: Peer, figure: str) -> dict[str, Callable[[list[Any]], Any]]:
    """What the peer runs for a figure. Leading, its bot needs build_combinations(hand)
    (its per-hand step) and build_action_space (its per-decision step) for an empty
    trick; following, the per-decision step alone on the cached combinations, and the
    two steps together (cold)."""
    build = peer.combinations.build_combinations
    space = peer.combinations.build_action_space
    if figure != FOLLOW_FIVES:
        trick = peer.lead_trick
        return {PEER_LEAD: lambda hand: space(build(hand), trick, 0)}
    trick = peer.fives_trick
    return {
        PEER_CACHED: lambda combis: space(combis, trick, 0),
        PEER_COLD: lambda hand: space(build(hand), trick, 0),
    }


@dataclass
class MoveFigure:
    name: str
    ours: Timing
    peer: dict[str, Timing]
    check: str  # "OK" or the first difference
    card_sets: float  # mean distinct card sets a hand (ours; the peer's too when OK)


def peer_move_jobs(
    peer: Peer, figure: str, masks: list[int]
) -> dict[str, tuple[Sequence[Any], Callable[[Any], Sized]]]:
    """The peer's timed calls of a figure, by label, on its own card notation (converted
    before any clock starts)."""
    # Each sample its own list: build_combinations sorts the hand it is given in place.
    hands = [peer_cards_of_mask(mask, peer.lookup) for mask in masks]
    build = peer.combinations.build_combinations
    jobs: dict[str, tuple[Sequence[Any], Callable[[Any], Sized]]] = {}
    for label, generate in peer_generators(peer, figure).items():
        if label == PEER_CACHED:
            inputs: list[Any] = [build(list(hand)) for hand in hands]  # not timed
        else:
            inputs = [list(hand) for hand in hands]
        jobs[label] = (inputs, generate)
    return jobs


def peer_move_figure(
    peer: Peer,
    figure: str,
    masks: list[int],
    ours: Timing,
    reference: list[set[frozenset[str]]],
    timings: dict[str, Timing] | None = None,
) -> MoveFigure:
    """A figure side by side: ``timings`` are the peer's (by label) when timed already
    beside ours (see `main`), else they are timed here."""
    if timings is None:
        timings = best_of_rounds(peer_move_jobs(peer, figure, masks))
    for timing in timings.values():
        # The pass entry the peer lists when following is not a play.
        timing.plays -= 1 if figure == FOLLOW_FIVES else 0
    hands = [peer_cards_of_mask(mask, peer.lookup) for mask in masks]
    build = peer.combinations.build_combinations
    check = "OK"
    generate = next(iter(peer_generators(peer, figure).values()))
    for index, (mask, hand) in enumerate(zip(masks, hands, strict=True)):
        source = build(list(hand)) if figure == FOLLOW_FIVES else list(hand)
        difference = first_difference(reference[index], peer_card_sets(generate(source)))
        if difference is not None:
            codes = " ".join(sorted(card_set_of_mask(mask)))
            check = f"MISMATCH in sample {index} (hand {codes}): {difference}"
            break
    card_sets = statistics.fmean(len(sets) for sets in reference)
    return MoveFigure(figure, ours, timings, check, card_sets)


# --- the peer: random play -------------------------------------------------------------


class PeerPlay:
    """Whole games of the peer's engine with four of its random agents, each game run
    the way its arena runs one (bin/run_arena.py -> src/arena.py: asyncio.run of a new
    GameEngine's run_game_loop). A game is the peer's smallest unit of play, so slices
    end at the first game end after their time is up.

    Timed play uses the peer's own RandomAgent: a counting wrapper costs it about 3%.
    Its games are seeded, so a replay with counting agents (``counting=True``) makes
    the same decisions and counts them."""

    def __init__(self, peer: Peer, seed: int = GAME_SEED, counting: bool = False) -> None:
        self.peer = peer
        self.first_seed = self.seed = seed
        self.counter = [0]
        agent_class = peer.agent_class if counting else peer.random_agent_class
        self.agents = [agent_class(name=f"Random_{i}", seed=seed + i) for i in range(4)]
        if counting:
            for agent in self.agents:
                agent.counter = self.counter
        self.games = 0
        self.rounds = 0
        self.decisions = 0
        self.seconds = 0.0

    async def _game(self, seed: int, on_engine: Callable[[Any], None] | None = None) -> Any:
        engine = self.peer.game_engine_class(f"Game_{seed}", default_agents=self.agents, seed=seed)
        if on_engine is not None:
            on_engine(engine)
        return await engine.run_game_loop()

    def play_game(self, on_engine: Callable[[Any], None] | None = None) -> Any:
        pub = asyncio.run(self._game(self.seed, on_engine))
        self.seed += 1
        # Its game loop logs and swallows its own errors; a game that did not end failed.
        if pub is None or not pub.is_game_over:
            raise RuntimeError("the peer's game loop ended without finishing the game")
        return pub

    def run(self, seconds: float) -> None:
        clock = time.perf_counter
        rounds = games = 0
        gc.disable()
        start = clock()
        try:
            while True:
                pub = self.play_game()
                games += 1
                rounds += pub.round_counter
                if clock() - start >= seconds:
                    break
        finally:
            elapsed = clock() - start
            gc.enable()
        self.seconds += elapsed
        self.games += games
        self.rounds += rounds

    def count_decisions(self) -> None:
        """Replay the games played so far with counting agents (not timed)."""
        replay = PeerPlay(self.peer, self.first_seed, counting=True)
        rounds = sum(replay.play_game().round_counter for _ in range(self.games))
        if rounds != self.rounds:
            raise RuntimeError(
                f"the peer's replay played {rounds} rounds, not {self.rounds}: "
                "its games are not reproducible, its decisions cannot be counted"
            )
        self.decisions = replay.counter[0]


def peer_state_figure(
    peer: Peer, copies: int = 1000, decisions: int = STATE_DECISIONS
) -> StateFigure:
    """The peer's state (its PublicState and the four PrivateStates) at its agents'
    ``decisions``-th decision of a seeded game, copied with copy.deepcopy (it has no
    copy method of its own)."""
    play = PeerPlay(peer, counting=True)
    engines: list[Any] = []
    result: list[StateFigure] = []

    def at_decision(count: int) -> None:
        if count != decisions or result:
            return
        engine = engines[0]
        state = (engine.public_state, engine.private_states)
        median = time_copies(lambda: copy.deepcopy(state), copies)
        twin = copy.deepcopy(state)
        added = deep_size(twin, reachable_ids(state))
        total = deep_size(state)
        # What only the per-hand caches reach: the total less the state without them.
        cache_ids = {id(priv._combination_cache) for priv in engine.private_states}
        caches = total - deep_size(state, cache_ids)
        result.append(
            StateFigure(
                median,
                added,
                total,
                copies,
                "copy.deepcopy of its public state and 4 private states",
                {"of which the per-hand combination caches": caches},
            )
        )

    for agent in play.agents:
        agent.hook = at_decision
    play.play_game(on_engine=engines.append)
    if not result:
        raise RuntimeError(f"the peer's game took fewer than {decisions} decisions")
    return result[0]


# --- play-outs ---------------------------------------------------------------------

PLAYOUT_STATES = 200  # mid-hand states per engine
PLAYOUT_EVERY = 23  # a state at every 23rd ordinary turn of the play phase


class OurPlayouts:
    """tichu bench's play-outs (figures.play_out: ``copy(playout=True)`` and random
    play to the end of the hand), over the same states again and again, in slices."""

    def __init__(self, states: int = PLAYOUT_STATES, seed: int = GAME_SEED) -> None:
        self.states = playout_states(states, seed, PLAYOUT_EVERY)
        self.rng = random.Random(seed)
        self.next = 0
        self.playouts = 0
        self.steps = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        clock = time.perf_counter
        states, rng = self.states, self.rng
        gc.disable()
        start = clock()
        try:
            while clock() - start < seconds:
                self.steps += play_out(states[self.next], rng)
                self.next = (self.next + 1) % len(states)
                self.playouts += 1
        finally:
            self.seconds += clock() - start
            gc.enable()


def peer_playout_states(
    peer: Peer, count: int = PLAYOUT_STATES, every: int = PLAYOUT_EVERY, seed: int = GAME_SEED
) -> list[Any]:
    """The peer's mid-hand states: its PublicState and four PrivateStates, deep-copied at
    every ``every``-th ordinary turn (an on-turn ``play`` call of its agents) of seeded
    random games, as they stand when the turn's player is asked."""
    states: list[Any] = []
    turns = [0]
    while len(states) < count:
        play = PeerPlay(peer, seed=seed, counting=True)
        engines: list[Any] = []

        def hook(_: int, engines: list[Any] = engines) -> None:
            if len(states) >= count or not engines:
                return
            pub = engines[0].public_state
            priv = engines[0].private_states[pub.current_turn_index]
            # An ordinary turn: the game asks the player on turn, holding cards.
            if not priv.hand_cards or pub.is_round_over:
                return
            turns[0] += 1
            if turns[0] % every == 0:
                states.append(copy.deepcopy((pub, engines[0].private_states)))

        for agent in play.agents:
            original = agent.play

            async def on_turn(
                interruptable: bool = False, agent: Any = agent, original: Any = original
            ) -> Any:
                if interruptable:  # the engine's ordinary ask (bombs are asked without)
                    hook(0)
                return await original(interruptable)

            agent.play = on_turn
        play.play_game(on_engine=engines.append)
        seed += 1
    return states


def _run(coroutine: Any) -> Any:
    """The value of a coroutine that never waits (the peer's agents' decisions): run
    without an event loop, which is cheaper than the peer's own asyncio loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    raise RuntimeError("a peer agent's decision waited for something")


class PeerPlayouts:
    """The peer's play-outs: a ``copy.deepcopy`` of a mid-hand state (its only way to
    copy one) and its own RandomAgents playing to the end of the hand.

    The peer's engine cannot resume a hand: its game loop (GameEngine.run_game_loop)
    is one coroutine from the shuffle to the game's end. So the harness drives the rest
    of the hand itself, over the peer's state objects, asking its agents what its loop
    asks them, in the order of its rules: the bomb holders when a trick lies (from a
    seat its generator draws), the trick to its owner when the turn comes back (the
    Dragon's given away by the owner's ``give_dragon_away``), Tichu at a full hand,
    the play, the wish after the Mah Jong, the next seat (two on after the Dog). It
    leaves out what costs the peer time but changes no state: its assertions,
    logging and broadcasts, the asyncio loop, and the hand's final scoring; so the
    figure is if anything in the peer's favour."""

    def __init__(self, peer: Peer, states: list[Any], seed: int = GAME_SEED) -> None:
        self.peer = peer
        self.states = states
        self.agents = [peer.random_agent_class(name=f"Random_{i}", seed=seed + i) for i in range(4)]
        self.random = importlib.import_module("src.common.rand").Random(seed)
        self.next = 0
        self.playouts = 0
        self.steps = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        clock = time.perf_counter
        gc.disable()
        start = clock()
        try:
            while clock() - start < seconds:
                pub, privs = copy.deepcopy(self.states[self.next])
                self.steps += self.play_out(pub, privs)
                self.next = (self.next + 1) % len(self.states)
                self.playouts += 1
        finally:
            self.seconds += clock() - start
            gc.enable()

    def play_out(self, pub: Any, privs: list[Any]) -> int:
        """The peer's state played by its agents to the hand's end; its decisions."""
        kinds = self.peer.combinations.CombinationType
        cards_module = self.peer.cards
        mah_jong = cards_module.CARD_MAH
        passed = kinds.PASS
        dragon = (kinds.SINGLE, 1, 15)
        dog = (kinds.SINGLE, 1, 0)
        phoenix = (kinds.SINGLE, 1, 16)
        agents = self.agents
        for agent, priv in zip(agents, privs, strict=True):
            agent.pub, agent.priv = pub, priv
        decisions = 0

        def take_trick() -> None:
            nonlocal decisions
            owner = pub.trick_owner_index
            to = owner
            if pub.trick_combination == dragon and not pub.is_double_victory:
                decisions += 1
                to = _run(agents[owner].give_dragon_away())
                pub.dragon_recipient = to
            pub.points[to] += pub.trick_points
            pub.trick_owner_index = -1
            pub.trick_cards = []
            pub.trick_combination = (passed, 0, 0)
            pub.trick_points = 0
            pub.trick_counter += 1

        while not pub.is_round_over:
            turn = pub.current_turn_index
            bomb = None
            if pub.trick_combination[2] > 0 and (
                pub.trick_owner_index == turn or pub.count_hand_cards[turn] > 0
            ):
                first = self.random.integer(0, 4)
                for i in range(4):
                    seat = (first + i) % 4
                    if (
                        seat != turn
                        or (seat == pub.trick_owner_index and pub.trick_combination == dragon)
                    ) and privs[seat].has_bomb:
                        decisions += 1
                        answer = _run(agents[seat].play())
                        if answer[1][0] != passed:
                            bomb = answer
                            pub.current_turn_index = turn = seat
                            break
            if bomb is None and pub.trick_owner_index == turn and pub.trick_combination != dog:
                take_trick()
            if pub.count_hand_cards[turn] > 0:
                if bomb is not None:
                    cards, combination = bomb
                else:
                    if (
                        pub.winner_index == -1
                        and pub.count_hand_cards[turn] == 14
                        and not pub.announcements[turn]
                    ):
                        decisions += 1
                        if _run(agents[turn].announce()):
                            pub.announcements[turn] = 1
                    decisions += 1
                    cards, combination = _run(agents[turn].play(interruptable=True))
                if pub.trick_owner_index == -1:
                    pub.tricks.append([(turn, cards, combination)])
                else:
                    pub.tricks[-1].append((turn, cards, combination))
                if combination[0] != passed:
                    pub.count_hand_cards[turn] -= combination[1]
                    privs[turn].hand_cards = [c for c in privs[turn].hand_cards if c not in cards]
                    pub.trick_owner_index = turn
                    pub.trick_cards = cards
                    if combination == phoenix:
                        if pub.trick_combination[2] == 0:
                            pub.trick_combination = (kinds.SINGLE, 1, 1)
                    else:
                        pub.trick_combination = combination
                    pub.trick_points += cards_module.sum_card_points(cards)
                    pub.played_cards += cards
                    active = pub.count_active_players
                    if pub.count_hand_cards[turn] == 0 and active == 3:
                        pub.winner_index = turn
                    if pub.wish_value > 0 and cards_module.is_wish_in(pub.wish_value, cards):
                        pub.wish_value = 0
                    if pub.count_hand_cards[turn] == 0:
                        if active == 2 and (turn + 2) % 4 == pub.winner_index:
                            pub.is_round_over = True
                            pub.is_double_victory = True
                        elif active == 1:
                            pub.is_round_over = True
                            pub.loser_index = next(
                                s for s in range(4) if pub.count_hand_cards[s] > 0
                            )
                    if pub.is_round_over:
                        take_trick()
                        break
                    if mah_jong in cards:
                        decisions += 1
                        pub.wish_value = _run(agents[turn].wish())
            if pub.trick_combination == dog and pub.trick_owner_index == turn:
                pub.current_turn_index = (turn + 2) % 4
            else:
                pub.current_turn_index = (turn + 1) % 4
        if sum(len(priv.hand_cards) for priv in privs) + len(pub.played_cards) != 56:
            raise RuntimeError("the peer's play-out lost or made cards")
        return decisions


@dataclass
class PlayoutFigure:
    engine: str
    playouts: int
    steps: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds else 0.0

    @property
    def step_us(self) -> float:
        return self.seconds / self.steps * 1e6 if self.steps else 0.0


def alternate(ours: Any, theirs: Any, seconds: float, slice_seconds: float) -> None:
    """Run the two engines' timers in turn, a slice each, until each has run for at least
    ``seconds`` (so that the machine's load falls on both alike)."""
    while ours.seconds < seconds or theirs.seconds < seconds:
        if ours.seconds < seconds:
            ours.run(slice_seconds)
            gc.collect()
        if theirs.seconds < seconds:
            theirs.run(slice_seconds)
            gc.collect()


def playout_slices(
    ours: OurPlayouts, theirs: PeerPlayouts, seconds: float, slice_seconds: float
) -> tuple[PlayoutFigure, PlayoutFigure]:
    """Alternate slices until each engine has played out for at least ``seconds``."""
    alternate(ours, theirs, seconds, slice_seconds)
    return (
        PlayoutFigure("ours", ours.playouts, ours.steps, ours.seconds),
        PlayoutFigure("peer", theirs.playouts, theirs.steps, theirs.seconds),
    )


# --- the whole comparison ---------------------------------------------------------------


@dataclass
class GameFigure:
    engine: str
    hands: int
    seconds: float
    decisions: int
    unit: str  # what was played whole

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    @property
    def us_per_decision(self) -> float:
        return self.seconds / self.decisions * 1e6 if self.decisions else 0.0


def play_slices(
    ours: OurPlay, theirs: PeerPlay, seconds: float, slice_seconds: float
) -> tuple[GameFigure, GameFigure]:
    """Alternate slices until each engine has played at least ``seconds``."""
    alternate(ours, theirs, seconds, slice_seconds)
    theirs.count_decisions()
    return (
        GameFigure("ours", ours.hands, ours.seconds, ours.decisions, f"matches of {MATCH_HANDS}"),
        GameFigure(
            "peer",
            theirs.rounds,
            theirs.seconds,
            theirs.decisions,
            f"{theirs.games} whole games to 1000 points",
        ),
    )


def better(ours: float, peer: float, higher_is_better: bool = False) -> str:
    """'ours better by N×' (or the peer's), from two figures of one kind."""
    if ours <= 0 or peer <= 0:
        return "n/a"
    ratio = ours / peer if higher_is_better else peer / ours
    if ratio >= 1:
        return f"ours better by {ratio:.1f}×"
    return f"peer better by {1 / ratio:.1f}×"


COUNTING = """\
What each engine counts:
- Plays ("plays" above: the mean length of what each engine lists). Ours lists every
  distinct play: a straight the Phoenix can extend at either end once per reading
  (4 5 6 7 PH is a straight to 7 and one to 8), a straight flush once, as a bomb. The
  peer lists card sets, some of them more than once (a straight comes out once for
  each way its search goes on below it through ranks the hand holds twice, now and
  then a straight flush too), and puts a pass entry at the head of every action
  space it may pass in (not counted above).
  The check compares distinct card sets, which both must agree on.
- Leading, the peer's bot needs build_combinations(hand) (cached per hand in its
  private state) and build_action_space; both are timed. Ours keeps a small cache
  per hand mask (its rank bytes and bombs), emptied before every timed call: every
  call generates from the hand mask.
- Decisions. Ours: every action applied (Grand Tichu declined by each seat, one push
  of three cards per seat, each play or pass, the wish, giving the Dragon trick, and
  the top seat's pass that collects its trick, S-TRICK-2). Our random bot declines
  every call and acts only when the game waits for it, so it bombs only on its own
  turn. Peer: every call of its agent's announce, schupf, play, wish and
  give_dragon_away: it asks for Grand Tichu once a hand, for Tichu at each turn a
  player still holds 14 cards, and every other holder of a bomb whether to bomb when a
  trick is open; its random agent calls Grand Tichu 1 time in 20 and Tichu 1 in 10,
  bombs out of turn 1 time in 3 when asked, draws from an action space with repeats,
  and the engine collects a trick itself.
- Hands. Ours: matches of 300 hands (no target), only finished hands counted; the
  peer: whole games to 1000 points, counting their rounds. Both run with Python's
  assertions on (the peer's engine asserts its invariants, as its arena does unless
  run with -O). The peer's decisions are counted in an untimed replay of the same
  seeded games (a counting wrapper would slow it down by about 3%).
- State. Ours: the Game (whole match so far: scores, results, the event and action
  logs, the hand, its random generator) less its variant and rulebook, which copies
  share by design; the peer: its public state and four private states, including each
  hand's cached combinations. Sizes are sys.getsizeof summed over the objects reached
  through gc.get_referents, code, classes and enum members left out; CPython 3.11
  keeps an object's attribute values beside it, and those arrays are not counted (for
  both engines). 'A copy adds' counts what the copy reaches that the original does not.
"""


def _timing_row(label: str, timing: Timing) -> str:
    return f"    {label:<52} {timing.median_us:10.1f} {timing.p90_us:10.1f} {timing.plays:8.1f}"


def _ratio_row(label: str, ours: Timing, peer: Timing) -> str:
    return (
        f"      vs {label}: median {better(ours.median_us, peer.median_us)}, "
        f"p90 {better(ours.p90_us, peer.p90_us)}"
    )


def print_move_figures(figures: list[MoveFigure], samples: int) -> None:
    print(
        f"1. move generation: µs per call, each of {samples} seeded hands timed once (cold) "
        f"per round, the best of {MOVE_ROUNDS} rounds' medians, gc off"
    )
    print(f"    {'':<52} {'median':>10} {'p90':>10} {'plays':>8}")
    for figure in figures:
        print(f"  {figure.name}")
        print(_timing_row("ours", figure.ours))
        for label, timing in figure.peer.items():
            print(_timing_row(label, timing))
        for label, timing in figure.peer.items():
            print(_ratio_row(label, figure.ours, timing))
        print(
            f"      check (same distinct card sets in every hand): {figure.check}"
            f" ({figure.card_sets:.1f} distinct card sets a hand)"
        )


def print_game_figures(ours: GameFigure, peer: GameFigure, slice_seconds: float) -> None:
    print(
        "2. random play, standard Tichu with the exchange "
        f"(alternating slices of {slice_seconds:g} s, gc off while playing)"
    )
    print(
        f"    {'':<6} {'hands':>8} {'seconds':>9} {'hands/s':>9} {'decisions':>10} "
        f"{'a hand':>7} {'µs/decision':>12}  played as"
    )
    for figure in (ours, peer):
        print(
            f"    {figure.engine:<6} {figure.hands:>8} {figure.seconds:>9.1f} "
            f"{figure.hands_per_second:>9.1f} {figure.decisions:>10} "
            f"{figure.decisions / max(figure.hands, 1):>7.0f} {figure.us_per_decision:>12.1f}"
            f"  {figure.unit}"
        )
    print(
        f"    hands/s: {better(ours.hands_per_second, peer.hands_per_second, True)}; "
        f"per decision: {better(ours.us_per_decision, peer.us_per_decision)}"
    )


def print_state_figures(ours: StateFigure, peer: StateFigure) -> None:
    print(
        f"3. state after {STATE_DECISIONS} decisions of a seeded random game "
        f"(copy: median of {ours.copies} copies, gc off)"
    )
    print(f"    {'':<6} {'copy µs':>9} {'a copy adds':>12} {'reachable':>10}  how")
    for name, figure in (("ours", ours), ("peer", peer)):
        print(
            f"    {name:<6} {figure.copy_median_us:>9.1f} {figure.copy_bytes:>10} B "
            f"{figure.total_bytes:>8} B  {figure.how}"
        )
        for label, value in figure.detail.items():
            print(f"    {'':<6} {'':>9} {'':>12} {value:>8} B  {label}")
    print(
        f"    copy time: {better(ours.copy_median_us, peer.copy_median_us)}; "
        f"bytes a copy adds: {better(ours.copy_bytes, peer.copy_bytes)}; "
        f"reachable bytes: {better(ours.total_bytes, peer.total_bytes)}"
    )


def print_playout_figures(ours: PlayoutFigure, peer: PlayoutFigure, slice_seconds: float) -> None:
    print(
        f"4. play-outs: {PLAYOUT_STATES} mid-hand states of seeded random games per engine, "
        "each copied and played to the end of its hand by random bots, over and over "
        f"(alternating slices of {slice_seconds:g} s, gc off)"
    )
    print(
        f"    {'':<6} {'play-outs':>10} {'seconds':>9} {'per second':>11} "
        f"{'decisions':>10} {'each':>5} {'µs/step':>8}  how"
    )
    how = {
        "ours": "game.copy(playout=True), then legal_actions + apply (tichu bench's loop)",
        "peer": "copy.deepcopy of its 5 state objects, then its RandomAgents (harness loop)",
    }
    for figure in (ours, peer):
        print(
            f"    {figure.engine:<6} {figure.playouts:>10} {figure.seconds:>9.1f} "
            f"{figure.per_second:>11.1f} {figure.steps:>10} "
            f"{figure.steps / max(figure.playouts, 1):>5.0f} {figure.step_us:>8.1f}  "
            f"{how[figure.engine]}"
        )
    print(
        f"    play-outs/s: {better(ours.per_second, peer.per_second, True)}; "
        f"per step: {better(ours.step_us, peer.step_us)}"
    )


def pin_to_core(core: int | None) -> int:
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[0] if core is None else core
    if chosen not in allowed:
        raise SystemExit(f"side_by_side: --core {chosen} is not among the allowed cores {allowed}")
    os.sched_setaffinity(0, {chosen})
    return chosen


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Speed of tichu_core side by side with frohlfing/tichu at 83e71b0."
    )
    parser.add_argument(
        "--peer",
        default=os.environ.get("TICHU_PEER"),
        help="path of a frohlfing/tichu checkout at 83e71b0 (default: $TICHU_PEER)",
    )
    parser.add_argument("--core", type=int, help="the core to pin to (default: first allowed)")
    parser.add_argument("--samples", type=int, default=2000, help="hands per figure")
    parser.add_argument("--seconds", type=float, default=20.0, help="play time per engine")
    parser.add_argument("--slice-seconds", type=float, default=5.0, help="one slice of play")
    parser.add_argument("--copies", type=int, default=1000, help="copies timed per state")
    parser.add_argument("--quick", action="store_true", help="tiny samples, 1 s slices")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args(argv)
    if args.quick:
        args.samples, args.seconds, args.slice_seconds, args.copies = 50, 1.0, 1.0, 50
    for name in ("samples", "copies"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.seconds <= 0 or args.slice_seconds <= 0:
        parser.error("--seconds and --slice-seconds must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.peer:
        print(
            f"side_by_side: where is the peer? Pass --peer PATH.\n{CHECKOUT_HELP}", file=sys.stderr
        )
        return 2
    try:
        peer = load_peer(args.peer)
    except PeerError as error:
        print(f"side_by_side: {error}", file=sys.stderr)
        return 2
    if peer.commit != PEER_COMMIT:
        print(
            f"\n!!! WARNING: the peer checkout {peer.path} is at {peer.commit},\n"
            f"!!! not {PEER_COMMIT}: these figures do not compare with the documented "
            "ones.\n",
            file=sys.stderr,
        )
    core = pin_to_core(args.core)
    started = datetime.now(UTC)
    print(
        f"side by side — ours: tichu_core; peer: frohlfing/tichu @ {peer.commit[:7]} "
        f"({peer.path})\nPython {platform.python_version()} ({sys.implementation.name}), "
        f"{platform.machine()}, pinned to core {core}, {started:%Y-%m-%d %H:%M} UTC"
    )

    hands = seeded_hands(args.samples)
    # Both engines' figures timed round by round together (best_of_rounds): a slow spell
    # of the machine falls on one round of each, not on all rounds of one figure.
    jobs: dict[Any, tuple[Sequence[Any], Callable[[Any], Sized]]] = {}
    for figure, job in our_move_jobs(hands).items():
        jobs[("ours", figure)] = job
        for label, peer_job in peer_move_jobs(peer, figure, hands[figure]).items():
            jobs[("peer", figure, label)] = peer_job
    timed = best_of_rounds(jobs)
    moves: list[MoveFigure] = []
    for figure in hands:
        generate = our_generator(figure)
        reference = [our_card_sets(generate(mask)) for mask in hands[figure]]
        ours = timed[("ours", figure)]
        theirs = {key[2]: timing for key, timing in timed.items() if key[:2] == ("peer", figure)}
        moves.append(peer_move_figure(peer, figure, hands[figure], ours, reference, theirs))
    print_move_figures(moves, args.samples)

    our_game, peer_game = play_slices(OurPlay(), PeerPlay(peer), args.seconds, args.slice_seconds)
    print_game_figures(our_game, peer_game, args.slice_seconds)

    copy_problem = check_our_copy()
    our_state = our_state_figure(args.copies)
    peer_state = peer_state_figure(peer, args.copies)
    print_state_figures(our_state, peer_state)
    if copy_problem:
        print(f"    game.copy() check: {copy_problem}")

    our_playouts, peer_playouts = playout_slices(
        OurPlayouts(),
        PeerPlayouts(peer, peer_playout_states(peer)),
        args.seconds,
        args.slice_seconds,
    )
    print_playout_figures(our_playouts, peer_playouts, args.slice_seconds)
    print()
    print(COUNTING, end="")

    mismatches = [figure.name for figure in moves if figure.check != "OK"]
    if args.json:
        report = {
            "date": started.isoformat(timespec="seconds"),
            "python": platform.python_version(),
            "implementation": sys.implementation.name,
            "machine": platform.machine(),
            "core": core,
            "peer": {"path": str(peer.path), "commit": peer.commit, "expected": PEER_COMMIT},
            "settings": {
                "samples": args.samples,
                "seconds": args.seconds,
                "slice_seconds": args.slice_seconds,
                "copies": args.copies,
                "move_seed": MOVE_SEED,
                "game_seed": GAME_SEED,
                "state_decisions": STATE_DECISIONS,
            },
            "move_generation": [asdict(figure) for figure in moves],
            "random_play": [
                asdict(figure)
                | {
                    "hands_per_second": figure.hands_per_second,
                    "us_per_decision": figure.us_per_decision,
                }
                for figure in (our_game, peer_game)
            ],
            "state": {"ours": asdict(our_state), "peer": asdict(peer_state)},
            "playouts": [
                asdict(figure) | {"per_second": figure.per_second, "us_per_step": figure.step_us}
                for figure in (our_playouts, peer_playouts)
            ],
            "copy_check": copy_problem or "OK",
            "mismatches": mismatches,
        }
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if mismatches or copy_problem:
        print(
            f"\nside_by_side: the engines disagree on {mismatches or 'game.copy()'}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
