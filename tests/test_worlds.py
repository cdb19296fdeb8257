"""Sampled worlds (docs/api.md ``tc.sample_world``): a real game that one player cannot tell
from its own, built from that player's events alone, its unseen cards drawn uniformly
among the placements consistent with what it knows (S-WISH-2 passes, GS-6 gifts).
"""

from __future__ import annotations

import itertools
import random
import re
import subprocess
import sys
from collections import Counter

import pytest

import tichu_core as tc
from tichu_core.game import worlds
from tichu_core.game.worlds import _in_order, _same_events, _Sampler

VARIANTS = [
    ("standard", None),
    ("threechu", None),
    ("tientsin", None),
    ("grand_seigneur", {"players": 7}),
    # S-EX-3 (pushes taken back after a Tichu call) and GS-8 (the Great Lord decides).
    ("standard", {"exchange.change_after_tichu": True}),
    ("grand_seigneur", {"players": 7, "game.lord_decides": True}),
]


def random_step(game: tc.Game, rng: random.Random) -> None:
    seat = game.to_act[rng.randrange(len(game.to_act))] if rng.random() < 0.1 else None
    if seat is None:
        seat = game.waiting_for[0]
    actions = game.legal_actions(seat)
    game.apply(actions[rng.randrange(len(actions))])


@pytest.mark.parametrize(("name", "overrides"), VARIANTS)
def test_the_world_shows_the_player_exactly_what_it_was_shown(
    name: str, overrides: dict[str, object] | None
) -> None:
    """Consistency, every few actions of a random match over several hands: the world's
    events for the player are the real ones, and so is its observation (no field
    differs), and the world plays on."""
    variant = tc.load_variant(name, overrides)
    rng = random.Random(11)
    game = tc.Game(variant, seed=5)
    checked = 0
    step = 0
    while not game.is_over and game.hand_index < 2 and step < 400:
        random_step(game, rng)
        step += 1
        if step % 15:
            continue
        player = step // 15 % variant.players
        events = game.events_for(player)
        world = tc.sample_world(variant, player, events, random.Random(step))
        assert _same_events(world.events_for(player), events)
        assert world.observation(player) == game.observation(player)
        assert world.variant is variant and world.hand_index == game.hand_index
        assert world.scores == game.scores
        if not world.is_over:  # a real game: it goes on
            seat = world.waiting_for[0]
            world.apply(world.legal_actions(seat)[0])
        checked += 1
    assert checked >= 8


def test_a_game_may_stand_for_its_variant_and_events() -> None:
    game = tc.Game(tc.load_variant("standard"), seed=2)
    rng = random.Random(1)
    for _ in range(40):
        random_step(game, rng)
    one = tc.sample_world(game, 1, rng=3)
    two = tc.sample_world(game.variant, 1, game.events_for(1), random.Random(3))
    assert one.to_json() == two.to_json()


def test_bad_input_is_refused() -> None:
    game = tc.Game(tc.load_variant("standard"), seed=2)
    with pytest.raises(tc.TichuError):
        tc.sample_world(game, 4)
    with pytest.raises(tc.TichuError):
        tc.sample_world(game.variant, 0, [])
    with pytest.raises(tc.TichuError):  # a record that does not start with its hand
        tc.sample_world(game.variant, 0, game.events_for(0)[1:])


# --------------------------------------------------------------------------- no leak


def dealt(game: tc.Game, hand: int = 0) -> list[list[str]]:
    """The stacked deal of a hand, read from the referee's log (every seat's cards)."""
    deal: list[list[str]] = [[] for _ in range(game.seats)]
    for event in game.event_log:
        if event.hand == hand and event.type == "cards_dealt":
            deal[event.seat] += event.cards
    return deal


def twin_game(game: tc.Game, player: int, one: int, two: int) -> tc.Game | None:
    """The same match with a card of seat ``one`` and a card of seat ``two`` swapped
    (cards the player never saw, that no one pushed), if the actions still replay and
    the player's events stay the same: a game the player cannot tell apart."""
    deal = dealt(game)
    pushed = {
        code
        for event in game.event_log
        if event.type == "pushed" and event.cards
        for codes in event.cards.values()
        for code in codes.split()
    }
    played = {code for event in game.event_log if event.type == "played" for code in event.cards}
    for a, b in itertools.product(deal[one], deal[two]):
        if {a, b} & (pushed | played | {"MJ"}) or a[:-1] == b[:-1]:
            continue
        other = [list(cards) for cards in deal]
        other[one][other[one].index(a)] = b
        other[two][other[two].index(b)] = a
        twin = tc.Game(game.variant, seed=game.seed, deals=[other])
        try:
            for action in game.actions:
                twin.apply(action)
        except (tc.IllegalAction, tc.InvalidAction):
            continue
        if _same_events(twin.events_for(player), game.events_for(player)):
            return twin
    return None


@pytest.mark.parametrize(
    ("name", "overrides", "steps"),
    [("standard", None, 30), ("grand_seigneur", {"players": 7}, 20)],
)
def test_two_games_the_player_cannot_tell_apart_give_the_same_world(
    name: str, overrides: dict[str, object] | None, steps: int
) -> None:
    variant = tc.load_variant(name, overrides)
    game = tc.Game(variant, seed=9)
    rng = random.Random(4)
    for _ in range(steps):
        random_step(game, rng)
    twin = twin_game(game, 0, 1, 3)
    assert twin is not None
    assert dealt(twin) != dealt(game)
    for seed in range(3):
        assert (
            tc.sample_world(game, 0, rng=seed).to_json()
            == tc.sample_world(twin, 0, rng=seed).to_json()
        )


# --------------------------------------------------------------------------- no bias

# Chi-square critical values at the 0.01 level, by degrees of freedom.
CHI2_01 = {3: 11.34, 5: 15.09, 9: 21.67, 14: 29.14, 19: 36.19, 29: 49.59, 39: 62.43}


def play(seed: int, actions: int) -> tc.Game:
    """Hand 0 of a standard match with random actions (a seat on turn acts)."""
    rng = random.Random(seed)
    game = tc.Game(tc.load_variant("standard"), seed=seed)
    for _ in range(actions):
        seat = game.waiting_for[0]
        legal = game.legal_actions(seat)
        game.apply(legal[rng.randrange(len(legal))])
    return game


def consistent_placements(game: tc.Game, player: int) -> tuple[list[int], list[tuple[int, ...]]]:
    """Every placement of the player's unseen cards into the other hands (their sizes
    kept) that the engine accepts as a history of the player's events: enumerated
    exactly, each judged by replaying it."""
    events = game.events_for(player)
    sampler = _Sampler(game.variant, player, events, random.Random(0))
    record = sampler.hands[-1]
    structure = sampler._structure(None, record)
    known = sampler._known(record, structure)
    seats = [seat for seat, _ in known.places]
    found = []
    for placement in itertools.product(range(len(seats)), repeat=len(known.pool)):
        if [placement.count(p) for p in range(len(seats))] != known.caps:
            continue
        hands = list(known.hands)
        for card, place in zip(known.pool, placement, strict=True):
            hands[seats[place]] |= 1 << card
        exchanged = sampler._exchange(record, structure, known, hands)
        assert exchanged is not None  # (standard: any placement has an exchange)
        deals, pushes = exchanged
        deal = [
            _in_order(record.dealt[s], deals[s]) if known.deal_known[s] else sorted_cards(deals[s])
            for s in range(game.seats)
        ]
        world = sampler._start(None, 0, deal)
        try:
            for position in range(record.start, record.end):
                action = sampler._action(world, position, pushes)
                if action is not None:
                    world.apply(action)
        except tc.IllegalAction:
            continue
        if _same_events(world.events_for(player), events):
            found.append(tuple(seats[place] for place in placement))
    return known.pool, found


def sorted_cards(mask: int) -> list[int]:
    return [card for card in range(mask.bit_length()) if mask >> card & 1]


@pytest.mark.parametrize(
    ("seed", "actions", "wish", "placements", "samples"),
    [
        (5, 123, "J", 6, 120),  # no unseen Jack: the wish binds nothing
        (114, 114, "6", 10, 150),  # S-WISH-2: seat 1 passed, so the unseen 6 is seat 2's
        (100, 131, "3", 40, 250),  # S-WISH-2: seat 3 passed: the unseen 3 is not seat 3's
    ],
)
def test_unseen_cards_are_drawn_uniformly_among_the_consistent_placements(
    seed: int, actions: int, wish: str, placements: int, samples: int
) -> None:
    """No bias: late in a hand (few unseen cards) the placements are enumerated exactly;
    the worlds drawn at a fixed seed fall on each about equally often (chi-square at the
    0.01 level over the joint placements), and never on an inconsistent one."""
    game = play(seed, actions)
    assert game.observation(0).wish == wish
    pool, consistent = consistent_placements(game, 0)
    assert len(consistent) == placements
    if wish != "J":  # the wish rules some placements out
        per_card = [Counter(p[i] for p in consistent) for i in range(len(pool))]
        assert any(len(c) < len({s for p in consistent for s in p}) for c in per_card)
    rng = random.Random(2024)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(samples):
        world = tc.sample_world(game, 0, rng=rng)
        hands = world._hand.hands
        seen[tuple(next(s for s in (1, 2, 3) if hands[s] >> card & 1) for card in pool)] += 1
    assert set(seen) <= set(consistent)
    expected = samples / len(consistent)
    chi2 = sum((seen[p] - expected) ** 2 / expected for p in consistent)
    assert chi2 < CHI2_01[len(consistent) - 1], (chi2, seen)


def test_rejection_ends_quickly() -> None:
    """Draws per world over a Grand Seigneur match (GS-6 gifts, the Mah Jong's lead, the
    wish): a few on average, far from the limit where sample_world gives up."""
    variant = tc.load_variant("grand_seigneur", {"players": 7})
    game = tc.Game(variant, seed=3)
    rng = random.Random(1)
    draws = []
    step = 0
    while game.hand_index < 2:
        random_step(game, rng)
        step += 1
        if step % 25 == 0:
            sampler = _Sampler(variant, step % 7, game.events_for(step % 7), random.Random(step))
            sampler.world()
            draws.append(sampler.draws / (game.hand_index + 1))
    assert sum(draws) / len(draws) < 40
    assert max(draws) < worlds.MAX_DRAWS / 20


@pytest.mark.parametrize(("name", "overrides"), VARIANTS[:4])
def test_a_world_sampler_keeps_the_past_and_shows_the_player_its_events(
    name: str, overrides: dict[str, object] | None
) -> None:
    """WorldSampler (the search bot's): every world shows the player exactly its events
    and observation, as sample_world's do, over several hands of one match; the hands
    before the current one are replayed once (each past hand's world is drawn once),
    and a record with another past starts again."""
    variant = tc.load_variant(name, overrides)
    rng = random.Random(11)
    game = tc.Game(variant, seed=5)
    sampler = worlds.WorldSampler(variant, 0)
    replayed: list[int] = []
    real = _Sampler._hand_world

    def counting(self: _Sampler, base: object, record: object, current: bool) -> tc.Game:
        if not current:
            replayed.append(record.index)  # type: ignore[attr-defined]
        return real(self, base, record, current)  # type: ignore[arg-type]

    _Sampler._hand_world = counting  # type: ignore[method-assign]
    try:
        checked = 0
        step = 0
        while not game.is_over and game.hand_index < 3 and step < 600:
            random_step(game, rng)
            step += 1
            if step % 10:
                continue
            events = game.events_for(0)
            world = sampler.sample(events, random.Random(step))
            assert _same_events(world.events_for(0), events)
            assert world.observation(0) == game.observation(0)
            assert world.scores == game.scores and world.hand_index == game.hand_index
            checked += 1
            last = world.hand_index
        assert last >= 2 and checked >= 10
        assert replayed == list(range(last))  # each past hand once
        # Another match's record: the kept past is not used.
        other = tc.Game(variant, seed=6)
        for _ in range(30):
            random_step(other, rng)
        fresh = sampler.sample(other.events_for(0), 1)
        assert _same_events(fresh.events_for(0), other.events_for(0))
        assert replayed[last:] == list(range(other.hand_index))
    finally:
        _Sampler._hand_world = real  # type: ignore[method-assign]


def test_a_world_sampler_refuses_a_bad_player() -> None:
    with pytest.raises(tc.TichuError):
        worlds.WorldSampler("standard", 4)
    with pytest.raises(tc.TichuError):
        worlds.WorldSampler(3, 0)  # type: ignore[arg-type]


def test_the_first_lead_tells_where_the_mah_jong_is() -> None:
    """S-EX-2, GS-7: the seat that leads the first trick holds the Mah Jong. The sampler
    asks the first-leader rule which unseen card would make another seat lead and keeps
    it away from there, instead of drawing and replaying until the Mah Jong falls to the
    leader (with six hidden seats, about one draw in six did). In every world the
    leader's hand at the lead held the Mah Jong, and the draws are few."""
    variant = tc.load_variant("grand_seigneur", {"players": 7, "game.hands": 1})
    draws = []
    for seed in range(6):
        game = tc.Game(variant, seed=seed)
        rng = random.Random(seed)
        while not any(isinstance(e, tc.Played) for e in game.events_for(0)):
            seat = game.waiting_for[0]
            actions = game.legal_actions(seat)
            game.apply(actions[rng.randrange(len(actions))])
        lead = next(e for e in game.events_for(0) if isinstance(e, tc.Played))
        for player in range(variant.players):
            if game.controller(lead.seat) == player:
                continue
            sampler = _Sampler(variant, player, game.events_for(player), random.Random(player))
            world = sampler.world()
            assert world.observation(player) == game.observation(player)
            led = world.observation(game.controller(lead.seat)).hands[lead.seat]
            assert "MJ" in led or "MJ" in lead.cards.split()
            draws.append(sampler.draws)
    # Without the leader's rule asked: 6.0 draws a world on these seeds.
    assert sum(draws) / len(draws) < 4.5


# --------------------------------------------------------------------------- bounded work


def brute_deals(
    groups: list[tuple[tuple[int, ...], list[int]]], caps: list[int]
) -> list[tuple[int, ...]]:
    """Every deal (the place of each card, cards in group order), listed one by one."""
    cards = [(card, allowed) for allowed, group in groups for card in group]
    found = []
    for places in itertools.product(*(allowed for _, allowed in cards)):
        if [places.count(place) for place in range(len(caps))] == caps:
            found.append(places)
    return found


def scanned_deal(
    groups: list[tuple[tuple[int, ...], list[int]]], caps: list[int], rng: random.Random
) -> list[list[int]]:
    """The deal drawn the plain way: for each group but the last, one number drawn among
    all deals left, then every share of its cards among its places scanned in order (by
    the first place's count, then the second's ...), each weighing the deals that begin
    with it (counted by listing them); the cards within a share shuffled."""
    room = list(caps)
    placed: list[list[int]] = [[] for _ in caps]
    for number, (allowed, cards) in enumerate(groups):
        later = groups[number + 1 :]
        if number == len(groups) - 1:
            share: tuple[int, ...] = tuple(room[place] for place in allowed)
        else:
            pick = rng.randrange(len(brute_deals(groups[number:], room)))
            shares = [
                split
                for split in itertools.product(*(range(room[p] + 1) for p in allowed))
                if sum(split) == len(cards)
            ]
            for share in shares:
                after = room[:]
                for place, count in zip(allowed, share, strict=True):
                    after[place] -= count
                weight = worlds._multinomial(len(cards), share) * len(brute_deals(later, after))
                if pick < weight:
                    break
                pick -= weight
        order = cards[:]
        rng.shuffle(order)
        offset = 0
        for place, count in zip(allowed, share, strict=True):
            placed[place] += order[offset : offset + count]
            room[place] -= count
            offset += count
    return placed


def small_problem(seed: int) -> tuple[list[tuple[tuple[int, ...], list[int]]], list[int]]:
    """A few cards, a few places, some cards barred from some places."""
    rng = random.Random(seed)
    places = rng.randint(1, 4)
    caps = [rng.randint(0, 3) for _ in range(places)]
    kinds = [tuple(sorted(rng.sample(range(places), rng.randint(1, places)))) for _ in range(3)]
    groups: dict[tuple[int, ...], list[int]] = {}
    for card in range(sum(caps)):
        allowed = rng.choice(kinds) if rng.random() < 0.5 else tuple(range(places))
        groups.setdefault(allowed, []).append(card)
    return sorted(groups.items(), key=lambda group: (len(group[1]), group[0])), caps


def test_the_deals_are_counted_exactly_and_drawn_as_a_plain_scan_draws_them() -> None:
    """The unseen cards are dealt without listing the deals (their number, and each
    group's share, are counted): on small problems the count is the number of deals
    listed one by one, and the deal drawn is the very one the plain scan over every
    share draws from the same generator (so the draw is exactly as uniform as before,
    and a search bot's worlds are unchanged where the plain way finished)."""
    drawn = 0
    for seed in range(300):
        groups, caps = small_problem(seed)
        listed = brute_deals(groups, caps)
        sizes = tuple((allowed, len(cards)) for allowed, cards in groups)
        assert worlds._count(sizes, tuple(caps)) == len(listed)
        ours = worlds._deal_uniformly(groups, caps, random.Random(seed))
        if not listed:
            assert ours is None
            continue
        assert ours == scanned_deal(groups, caps, random.Random(seed))
        drawn += 1
    assert drawn > 150


def test_past_the_count_limit_the_deal_is_drawn_loosely_and_checked() -> None:
    """A problem whose count would need more states than the limit is drawn from a
    looser one (some bars lifted) and every deal that breaks a bar is drawn again: the
    deals still keep every bar and fall on each consistent deal about equally often
    (chi-square at the 0.01 level)."""
    places = (0, 1, 2, 3)
    groups = [((1, 2), [0]), ((0, 2, 3), [1, 2]), ((1, 3), [3]), (places, [4, 5, 6, 7])]
    caps = [2, 2, 2, 2]
    sizes = tuple((allowed, len(cards)) for allowed, cards in groups)
    assert worlds._largest(sizes, tuple(caps)) > 2
    assert worlds._loosened(sizes, tuple(caps), 2)  # some bars lifted at limit 2
    listed = brute_deals(groups, caps)
    index = {deal: number for number, deal in enumerate(listed)}
    order = [card for _, cards in groups for card in cards]
    rng = random.Random(7)
    seen: Counter[int] = Counter()
    samples = 20 * len(listed)
    for _ in range(samples):
        placed = worlds._deal_uniformly(groups, caps, rng, limit=2)
        assert placed is not None
        where = {card: place for place, cards in enumerate(placed) for card in cards}
        seen[index[tuple(where[card] for card in order)]] += 1  # a consistent deal
    expected = samples / len(listed)
    chi2 = sum((seen[number] - expected) ** 2 / expected for number in range(len(listed)))
    # Chi-square 0.01 critical value for len(listed) - 1 degrees of freedom (Wilson-Hilferty).
    freedom = len(listed) - 1
    critical = freedom * (1 - 2 / (9 * freedom) + 2.326 * (2 / (9 * freedom)) ** 0.5) ** 3
    assert chi2 < critical, (chi2, critical, len(listed))


TWELVE_SEATS = """
import random, resource
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
import tichu_core as tc
variant = tc.load_variant("grand_seigneur", {"players": 12})
game = tc.Game(variant, seed=0)
rng = random.Random(0)
while game.hand_index < 1 or not any(e.type == "played" and e.hand == 1 for e in game.event_log):
    seat = game.waiting_for[0]
    actions = game.legal_actions(seat)
    game.apply(actions[rng.randrange(len(actions))])
for player in (11, 10, 7, 0):
    world = tc.sample_world(game, player, rng=player)
    assert world.observation(player) == game.observation(player), player
print("worlds ok")
"""


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS bounds memory on Linux")
def test_a_twelve_seat_grand_seigneur_world_fits_in_a_small_memory() -> None:
    """Hand 1 of a 12-seat Grand Seigneur match, at its first lead: player 11 received
    its best cards' worth from a seat (GS-6), which bars 22 unseen cards from that seat;
    listing their shares among the other ten seats took 20 million tuples (a 3 GB limit
    ran out, without one the system killed the process). Counted instead, the worlds of
    four players are drawn in a process limited to 1 GB of address space."""
    done = subprocess.run(
        [sys.executable, "-c", TWELVE_SEATS], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "worlds ok"


# --------------------------------------------------------------------------- forged records


def forged_records() -> list[tuple[str, list[tc.Event]]]:
    """A real record with one event forged: a seat out of range, a value of the wrong
    type or size (as ``model_copy(update=...)`` or ``model_construct`` let anyone make)."""
    game = tc.Game(tc.load_variant("standard"), seed=2)
    rng = random.Random(2)
    while sum(isinstance(e, tc.Played) for e in game.event_log) < 6:
        random_step(game, rng)
    events = list(game.events_for(0))

    def at(kind: type[tc.Event]) -> int:
        return next(i for i, e in enumerate(events) if isinstance(e, kind))

    cases: list[tuple[str, int, dict[str, object]]] = []
    for seat in (4, 99, -5, 2**62, -(2**62), True, "1", None, 1.0):
        cases.append((f"played seat {seat!r}", at(tc.Played), {"seat": seat}))
        cases.append((f"dealt seat {seat!r}", at(tc.CardsDealt), {"seat": seat}))
        cases.append((f"received seat {seat!r}", at(tc.CardsReceived), {"seat": seat}))
        cases.append((f"pushed to {seat!r}", at(tc.Pushed), {"cards": {seat: "2j"}}))
        cases.append((f"received from {seat!r}", at(tc.CardsReceived), {"cards": {seat: "2j"}}))
        cases.append((f"dealer {seat!r}", at(tc.HandStarted), {"dealer": seat}))
        cases.append((f"hand {seat!r}", at(tc.Passed), {"hand": seat}))
    for sizes in ([14, 14, 14], [14] * 5, [14, 14, 14, -1], [14, 14, 14, 2**62], "14", None):
        cases.append((f"hand sizes {sizes!r}", at(tc.HandStarted), {"hand_sizes": sizes}))
    for cards in (None, 5, "Aj", [5], {"a": 1}):
        cases.append((f"played cards {cards!r}", at(tc.Played), {"cards": cards}))
        cases.append((f"dealt cards {cards!r}", at(tc.CardsDealt), {"cards": cards}))
        cases.append((f"received cards {cards!r}", at(tc.CardsReceived), {"cards": cards}))
    records = []
    for name, position, change in cases:
        forged = list(events)
        forged[position] = events[position].model_copy(update=change)
        records.append((name, forged))
    records.append(("an event that is no event", [*events[:5], "played", *events[6:]]))  # type: ignore[list-item]
    return records


def test_a_forged_record_is_refused_with_a_tichu_error() -> None:
    """Before: a ``played`` event for seat 4, 99, -5 or 2**62 raised IndexError from the
    sampler's tables. Every forged value is now a TichuError that names the event."""
    variant = tc.load_variant("standard")
    for name, forged in forged_records():
        for kept in (False, True):
            try:
                if kept:
                    worlds.WorldSampler(variant, 0).sample(forged, 1)
                else:
                    tc.sample_world(variant, 0, forged, 1)
            except tc.TichuError as error:
                assert re.search(r"\bevent \d+", str(error)), (name, str(error))
            except Exception as error:
                pytest.fail(f"{name}: {type(error).__name__}: {error}")
            else:
                pytest.fail(f"{name}: accepted")
