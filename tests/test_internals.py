"""Engine internals whose mistakes would not show in a rule test."""

from __future__ import annotations

import tichu_core as tc
from tichu_core.game.construction import make_event, played_event, trick_won_event
from tichu_core.game.events import EVENT_TYPES, Played, TrickWon
from tichu_core.game.hand import STATE_FIELDS


def _state(hand: object, leave_out: frozenset[str] = frozenset()) -> dict[str, object]:
    """A hand state's attributes by name (a compiled HandState has no ``__dict__``)."""
    return {name: getattr(hand, name) for name in STATE_FIELDS if name not in leave_out}


def test_clone_copies_every_attribute_of_the_hand_state() -> None:
    """STATE_FIELDS is every attribute (seen where the class runs as plain Python, with
    an instance dict), and a clone has each of them equal to the original's."""
    game = tc.Game("standard", seed=4)
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    hand = game._hand
    if hasattr(hand, "__dict__"):
        assert sorted(vars(hand)) == sorted(STATE_FIELDS)
    twin = hand.clone()
    assert _state(twin, frozenset({"_view"})) == _state(hand, frozenset({"_view"}))
    assert twin.hands is not hand.hands
    # `restore` puts every attribute back (as `apply` does when a rule fails).
    before = {  # the lists that change in place (hands, events), copied
        name: value[:] if isinstance(value, list) else value for name, value in _state(hand).items()
    }
    game.apply(game.legal_actions(game.waiting_for[0])[0])
    hand.restore(twin)
    assert _state(hand, frozenset({"_view"})) == {
        name: value for name, value in before.items() if name != "_view"
    }


def test_the_next_action_never_changes_the_snapshot_taken_before_it() -> None:
    """apply() is atomic only if the snapshot shares nothing the action changes in place:
    over whole random hands of several variants, each snapshot still equals a deep copy
    of itself taken before the action."""
    import copy
    import random

    # The game's rules, and a view made on demand:
    shared = frozenset({"rulebook", "rules", "_view"})
    for name in ("standard", "threechu", "tientsin", "grand_seigneur"):
        game = tc.Game(name, seed=11)
        rng = random.Random(5)
        for _ in range(400):
            if game.is_over:
                break
            snapshot = game._hand.clone()
            frozen = {key: copy.deepcopy(value) for key, value in _state(snapshot, shared).items()}
            seat = game.waiting_for[0]
            actions = game.legal_actions(seat)
            game.apply(actions[rng.randrange(len(actions))])
            now = _state(snapshot, shared)
            assert now == frozen, name


def test_hand_snapshot_is_independent_of_the_original() -> None:
    game = tc.Game("standard", seed=3)
    before = game._hand.clone()
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    assert before.hands != game._hand.hands
    assert all(decided is None for decided in before.grand_tichu)


def test_fast_events_equal_validated_events() -> None:
    fields = {"hand": 0, "seat": 1, "cards": ["5j"], "combination": "single", "rank": 5.0}
    fast = make_event(Played, dict(fields))
    assert fast == Played(**fields)
    assert fast.model_dump() == Played(**fields).model_dump()


def test_the_builders_of_the_commonest_events_make_the_validated_event_field_for_field() -> None:
    """played_event and trick_won_event write their dicts by hand: same fields, same
    order (a dump's order), same values as the validated model."""
    played = played_event(2, 1, ["5j", "5r"], "pair", 5.0, None, False)
    expected = Played(hand=2, seat=1, cards=["5j", "5r"], combination="pair", rank=5.0)
    won = trick_won_event(2, 1, 3, 10, ["Kj", "5r"])
    expected_won = TrickWon(hand=2, seat=1, to=3, points=10, cards=["Kj", "5r"])
    for fast, validated in ((played, expected), (won, expected_won)):
        assert fast == validated
        assert list(fast.__dict__) == list(type(validated).model_fields)
        assert fast.model_dump_json() == validated.model_dump_json()
        assert fast.model_fields_set == set(type(validated).model_fields)


def test_every_event_type_has_a_distinct_type_tag() -> None:
    tags = [event_type.model_fields["type"].default for event_type in EVENT_TYPES]
    assert len(tags) == len(set(tags))


def test_push_choices_list_every_distinct_push_once_with_two_decks() -> None:
    """S-EX-1 with two decks: a code held twice may go to two targets; no push twice."""
    import random
    from itertools import permutations

    from tichu_core.cardplay.cards import cards_of, deck_mask, iter_cards, mask_of
    from tichu_core.game.legality import PushChoices

    rng = random.Random(3)
    deck = list(iter_cards(deck_mask(2, ["DOG", "DOG", "MJ"])))
    for size in (5, 8, 14, 16):
        hand = mask_of(rng.sample(deck, size))
        choices = PushChoices(hand, {1: 1, 2: 1, 3: 1})
        listed = [tuple(sorted(choices.cards(i).items())) for i in range(len(choices))]
        codes = [str(card) for card in cards_of(hand)]
        every = {tuple(zip([1, 2, 3], p, strict=True)) for p in permutations(codes, 3)}
        assert len(listed) == len(set(listed)) == len(every)
        assert set(listed) == every
        assert all(dict(push) in choices for push in every)


def test_push_choices_with_several_cards_to_one_target_list_every_push_once() -> None:
    """GS-6: a target may get several cards; with two decks, codes held twice. Every
    distinct push (the cards of one target unordered) is listed once, and only those."""
    import random
    from itertools import permutations

    from tichu_core.cardplay.cards import cards_of, deck_mask, iter_cards, mask_of
    from tichu_core.game.legality import PushChoices

    rng = random.Random(5)
    for copies in (1, 2):
        deck = list(iter_cards(deck_mask(copies, [])))
        for size in (4, 8, 14):
            hand = mask_of(rng.sample(deck, size))
            choices = PushChoices(hand, {1: 2, 3: 1})
            listed = [
                tuple((t, tuple(sorted(c.split()))) for t, c in sorted(choices.cards(i).items()))
                for i in range(len(choices))
            ]
            codes = [str(card) for card in cards_of(hand)]
            every = {((1, tuple(sorted(p[:2]))), (3, (p[2],))) for p in permutations(codes, 3)}
            assert len(listed) == len(set(listed)) == len(every)
            assert set(listed) == every
            assert all({t: " ".join(c) for t, c in push} in choices for push in every)
            assert {1: codes[0], 3: codes[1]} not in choices  # too few cards to seat 1


def test_a_seed_deals_the_same_cards_everywhere() -> None:
    """docs/api.md: same seed, same game on any machine. The shuffle is the engine's own, so
    this pinned deal (recorded once) may only change with a deliberate format change."""
    game = tc.Game("standard", seed=7)
    assert game.observation(0).hand == ["Kj", "10j", "8t", "8s", "7j", "6p", "3t", "DOG"]


def test_observations_built_without_validation_equal_validated_ones() -> None:
    """Observations are built from engine values without pydantic's validation: in the
    declared field order, equal to the validated model of the same values."""
    import random

    for name in ("standard", "threechu", "grand_seigneur"):
        game = tc.Game(name, seed=2)
        rng = random.Random(3)
        for _ in range(120):
            for player in [*range(game.players), None]:
                fast = game.observation(player)
                assert list(fast.__dict__) == list(tc.Observation.model_fields)
                assert fast == tc.Observation(**fast.model_dump())
            seat = game.waiting_for[0]
            actions = game.legal_actions(seat)
            game.apply(actions[rng.randrange(len(actions))])


def test_finished_hands_are_freed_without_the_cycle_collector() -> None:
    """A hand's view refers back to it; the game drops the view when the hand is over,
    so simulations that switch the collector off do not keep every hand alive."""
    import gc
    import random

    from tichu_core.game.hand import HandState

    overrides = {"game.target": 0, "game.hands": 6}
    game = tc.Game(tc.load_variant("standard", overrides=overrides), seed=2)
    rng = random.Random(2)
    gc.collect()
    gc.disable()
    try:
        while not game.is_over:
            seat = game.waiting_for[0]
            actions = game.legal_actions(seat)
            game.apply(actions[rng.randrange(len(actions))])
        alive = sum(  # this game's hands (its variant object, so its own rulebook)
            1
            for thing in gc.get_objects()
            if type(thing) is HandState and thing.rulebook is game.rulebook
        )
    finally:
        gc.enable()
    assert len(game.hand_results) == 6
    assert alive <= 2  # the last hand (and a snapshot some frame may still hold)


def _assigned(module: str, method: str, target: str) -> list[str]:
    """The attributes that ``method`` (in tichu_core/game/``module``.py) sets on the
    object named ``target``, read from the source, in order."""
    import ast
    from pathlib import Path

    source = Path(__file__).resolve().parents[1] / "tichu_core" / "game" / f"{module}.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    (function,) = [
        node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == method
    ]
    found = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            attribute = node.targets[0]
        elif isinstance(node, ast.AnnAssign):
            attribute = node.target
        else:
            continue
        if (
            isinstance(attribute, ast.Attribute)
            and isinstance(attribute.value, ast.Name)
            and attribute.value.id == target
        ):
            found.append(attribute.attr)
    return found


def test_clone_and_restore_each_copy_every_state_field() -> None:
    """Read from the source: `clone` sets and `restore` puts back exactly STATE_FIELDS
    (an attribute added to the hand state but missed in one of them fails here)."""
    for name, target in (("clone", "other"), ("restore", "self")):
        assert sorted(_assigned("hand", name, target)) == sorted(STATE_FIELDS), name


def test_game_copy_sets_every_attribute_the_game_starts_with() -> None:
    """Read from the source: `GameCore.copy` makes its twin without `__init__` (a
    compiled class has no instance dict to update), so it must set each attribute
    `__init__` sets; one added to the game but missed in `copy` fails here."""
    started = set(_assigned("core", "__init__", "self"))
    assert len(started) >= 20
    assert set(_assigned("core", "copy", "twin")) == started
    # And the twin of a running game reads back every one of them.
    game = tc.Game("standard", seed=5)
    twin = game.copy()
    assert type(twin) is tc.Game
    for name in started:
        assert getattr(twin, name) is not None or getattr(game, name) is None, name


def test_listed_actions_equal_the_validated_actions_of_their_fields() -> None:
    """The referee builds listed plays and pushes without validation (play_action,
    push_action): each equals the action its fields make through the validating
    constructor, of the same class."""
    game = tc.Game("standard", seed=11)
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    listed = game.legal_actions(0)
    first = len(listed.fixed)  # the pushes follow the calls
    for index in (first, (first + len(listed)) // 2, len(listed) - 1):
        push = listed[index]
        assert type(push) is tc.Push
        assert push == tc.Push(push.seat, dict(push.cards))
    while game.waiting_for and game._hand.phase != "play":
        game.apply(game.legal_actions(game.waiting_for[0])[0])
    seat = game.waiting_for[0]
    plays = [a for a in game.legal_actions(seat) if type(a) is tc.Play]
    assert plays
    for play in plays:
        assert play == tc.Play(play.seat, play.cards, play.phoenix)


def test_the_referee_knows_every_action_it_handed_out_for_this_state_only() -> None:
    """Referee.listed: an action taken from the latest listing of a seat for the current
    state skips the second judging in `apply`: a fixed action (call, pass, decision) as
    the very object of the referee's own copy of them, a play as the very object listed
    (the first of a listing is kept on the listing, the others in its table) and checked
    against the referee's own copy of the plays. An equal action built elsewhere, a push,
    or an action of an earlier state is judged again."""
    from tichu_core.game.legality import NOT_LISTED

    game = tc.Game("standard", seed=8)
    referee, hand, version = game._referee, game._hand, game._version
    first_listing, second_listing = game.legal_actions(0), game.legal_actions(1)
    taken = [first_listing[0], first_listing[1], second_listing[1], second_listing[0]]
    for action in taken:
        assert referee.listed(hand, version, action) is not NOT_LISTED, action
    built = tc.GrandTichu(0, False)  # equal to a listed action, not the referee's own object
    assert built == first_listing[0] and referee.listed(hand, version, built) is NOT_LISTED
    assert referee.listed(hand, version, tc.Tichu(0)) is NOT_LISTED  # not among the options
    # One listing kept per seat, the latest (front ends poll the listings).
    for _ in range(50):
        game.legal_actions(2)
    assert [issued is not None for issued in referee._listings[:4]] == [True, True, True, False]
    game.apply(taken[0])
    assert referee.listed(game._hand, game._version, taken[2]) is NOT_LISTED
    game.apply(taken[2])  # still legal for seat 1: judged, then accepted
    assert game.actions[-1] == taken[2]
    built = tc.GrandTichu(2, False)
    assert built in game.legal_actions(2)
    assert referee.listed(game._hand, game._version, built) is NOT_LISTED
    game.apply(built)  # judged, then accepted
    assert game.actions[-1] == built


def test_the_referee_knows_the_pushes_it_handed_out() -> None:
    """A push taken from the seat's latest listing skips the second judging as a play does
    (checked against the referee's own pushes at the index the listing recorded), and
    means the card masks judging it finds; an equal push built by its constructor is
    judged."""
    from tichu_core.game.legality import NOT_LISTED

    game = tc.Game("standard", seed=11)
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    referee, hand, version = game._referee, game._hand, game._version
    listing = game.legal_actions(0)
    first = len(listing.fixed)
    pushes = [listing[index] for index in (first, first + 500, len(listing) - 1)]
    for push in pushes:
        meaning = referee.listed(hand, version, push)
        assert meaning is not NOT_LISTED, push
        assert meaning == referee.judge(hand, version, push)
    built = tc.Push(0, dict(pushes[1].cards))
    assert built == pushes[1] and referee.listed(hand, version, built) is NOT_LISTED
    game.apply(pushes[1])
    assert game.actions[-1] is pushes[1]


def test_a_game_takes_attributes_of_its_users_and_copies_them() -> None:
    """Game is a plain Python class over the compiled core: a front end may hang its
    own attributes on a game, as before, and `copy` carries them."""
    game = tc.Game("standard", seed=6)
    game.table_name = "north"  # type: ignore[attr-defined]
    twin = game.copy()
    assert twin.table_name == "north"  # type: ignore[attr-defined]
    twin.table_name = "south"  # type: ignore[attr-defined]
    assert game.table_name == "north"  # type: ignore[attr-defined]
    # Carrying them never shares the game's own state (plain Python keeps that in the
    # same instance dict).
    twin.apply(twin.legal_actions(0)[0])
    assert game.actions == [] and len(twin.actions) == 1
    assert game._hand is not twin._hand
