"""Hardening of the entry points: nothing is accepted that cannot be saved, and saves
and JSON are read strictly.

The rule every entry point keeps: whatever ``Game``, ``apply`` and ``load_variant``
accept, ``to_json`` / ``from_json`` restore exactly (same save, same observations);
everything else is refused at the door with a ``TichuError`` (``InvalidAction``,
``VariantError``, ``DealError``) and changes nothing. The first half pins each hole
found (seeds, ``_replace``, unbounded options, saves with missing or repeated keys,
too deep JSON); the second half drives random typed garbage through every entry
point with hypothesis and checks that rule.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tichu_core as tc
from tichu_core.game.actions import show_input
from tichu_core.game.dealing import SEED_MAX, SEED_MIN, seeded_rng
from tichu_core.variants.models import MAX_HANDS, MAX_POINTS, MAX_SEATS, MAX_TARGET

STANDARD = tc.load_variant("standard")
HUGE = 10**5000  # more digits than Python writes as decimal text (4,300)


def nested(depth: int, leaf: Any = 0) -> Any:
    """``leaf`` inside ``depth`` lists, built without recursion."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def everything_seen(game: tc.Game) -> tuple[Any, ...]:
    """What a caller can read of a game: its save, every observation, every event."""
    audiences = [None, *range(game.players)]
    return (
        game.to_json(),
        [game.observation(player) for player in audiences],
        [event.model_dump() for event in game.event_log],
    )


def assert_restores(game: tc.Game) -> None:
    """The save of ``game`` restores it exactly: the same save, the same observations."""
    saved = game.to_json()
    restored = tc.Game.from_json(saved, allow_imports=game.variant.allow_imports)
    assert everything_seen(restored) == everything_seen(game)


def play_randomly(game: tc.Game, steps: int, seed: int) -> tc.Game:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions(rng.choice(game.to_act))
        game.apply(legal[rng.randrange(len(legal))])
    return game


def json_text(value: Any) -> str | None:
    """``value`` as JSON text, None where the json module cannot write it."""
    try:
        return json.dumps(value)
    except (ValueError, RecursionError):
        return None


def save_with(game: tc.Game, **changes: Any) -> str:
    data = json.loads(game.to_json())
    for key, value in changes.items():
        if value is _DELETE:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


_DELETE = object()


# --- 1. nothing accepted that cannot be saved ------------------------------------------


@pytest.mark.parametrize(
    "seed",
    ["abc", "7", 1.5, 7.0, True, False, [7], SEED_MAX + 1, SEED_MIN - 1, 2**70, HUGE],
    ids=show_input,  # pytest's own ids would write HUGE out, which Python refuses
)
def test_a_seed_that_a_save_cannot_hold_is_refused(seed: Any) -> None:
    with pytest.raises(tc.InvalidAction, match="seed"):
        tc.Game(STANDARD, seed=seed)


@pytest.mark.parametrize("seed", [0, 7, -7, SEED_MAX, SEED_MIN])
def test_every_seed_of_the_signed_64_bit_range_is_saved_and_restored(seed: int) -> None:
    game = play_randomly(tc.Game(STANDARD, seed=seed), 30, seed=1)
    assert game.seed == seed and json.loads(game.to_json())["seed"] == seed
    assert_restores(game)


def test_minus_seven_and_seven_deal_different_cards() -> None:
    # random.Random seeds from abs(seed): -7 dealt exactly like 7.
    hands = {seed: tc.Game(STANDARD, seed=seed).observation(0).hand for seed in (7, -7)}
    assert hands[7] != hands[-7]


def test_a_non_negative_seed_deals_as_it_always_did() -> None:
    # Only negative seeds changed: a saved game of a non-negative seed replays the same.
    for seed in (0, 7, 2**48, SEED_MAX):
        assert seeded_rng(seed).getrandbits(64) == random.Random(seed).getrandbits(64)


@pytest.mark.parametrize(
    ("action", "field", "value"),
    [
        (tc.GrandTichu(0, False), "call", "yes"),
        (tc.GrandTichu(0, False), "call", 1),  # equal to True, but no bool
        (tc.GrandTichu(0, False), "seat", True),  # equal to seat 1, but no int
        (tc.GrandTichu(0, False), "seat", 1.0),
        (tc.GrandTichu(0, False), "type", "tichu"),
        (tc.GrandTichu(0, False), "colour", "red"),
        (tc.Tichu(0), "seat", HUGE),
        (tc.Play(0, "2j"), "cards", "Xx"),
        (tc.Play(0, "2j"), "phoenix", "1"),
        (tc.Push(0, {1: "2j", 2: "3j", 3: "4j"}), "cards", {1: 2}),
        (tc.Wish(0, None), "rank", "Z"),
        (tc.GiveTrick(0, 1), "to", None),
        (tc.GiveLead(0, 2), "to", False),
        (tc.Pass(0), "seat", "0"),
    ],
    ids=show_input,
)
def test_replace_checks_the_new_value(action: tc.Action, field: str, value: Any) -> None:
    """The named tuple's own _replace built the tuple without __new__: a call of "yes"
    or seat True went into apply and into a save that could not be read back."""
    with pytest.raises(tc.InvalidAction):
        action._replace(**{field: value})


def test_replace_and_make_build_canonical_actions() -> None:
    play = tc.Play(0, "2j")._replace(cards="3j, 2j", phoenix=None)
    assert play == tc.Play(0, "2j 3j") and play.cards == "3j 2j"
    assert tc.GrandTichu(0, False)._replace(call=True) == tc.GrandTichu(0, True)
    assert tc.Wish(0, None)._replace(rank="q").rank == "Q"
    assert tc.Play._make([1, "ph", None, "play"]) == tc.Play(1, "PH")
    with pytest.raises(tc.InvalidAction):
        tc.Play._make([0, "Xx", None, "play"])
    with pytest.raises(tc.InvalidAction):
        tc.Tichu(0, "pass")  # type: ignore[arg-type]


def test_a_replaced_action_applies_and_restores() -> None:
    game = tc.Game(STANDARD, seed=3)
    game.apply(tc.GrandTichu(1, True)._replace(seat=0, call=False))
    assert game.actions == [tc.GrandTichu(0, False)]
    assert_restores(game)


BOUNDED = [
    ("calls.tichu_points", MAX_POINTS),
    ("calls.grand_tichu_points", MAX_POINTS),
    ("scoring.double_victory", MAX_POINTS),
    ("game.target", MAX_TARGET),
    ("game.hands", MAX_HANDS),
    ("calls.max_per_team", 2 * MAX_SEATS),
]


@pytest.mark.parametrize(("key", "maximum"), BOUNDED)
def test_every_integer_option_has_an_upper_bound(key: str, maximum: int) -> None:
    """calls.tichu_points = 10**5000 loaded, and then to_json failed."""
    for value in (maximum + 1, 2**64, HUGE):
        with pytest.raises(tc.VariantError, match=rf"{key}: must be at most {maximum} "):
            tc.load_variant("standard", overrides={key: value})
    game = play_randomly(tc.Game(tc.load_variant("standard", {key: maximum}), seed=5), 40, 5)
    assert_restores(game)


@pytest.mark.parametrize(
    "key", ["deal.hand_size", "deal.grand_tichu_after", "exchange.rank_cards", "teams.size"]
)
def test_card_counts_and_team_sizes_are_bounded_too(key: str) -> None:
    # The combination checks refuse these as well; the bound says it first, plainly.
    value: Any = [113] if key == "exchange.rank_cards" else 10**30
    maximum = MAX_SEATS if key == "teams.size" else 112
    with pytest.raises(tc.VariantError, match=rf"{key}(\[0\])?: must be at most {maximum} "):
        tc.load_variant("standard", overrides={key: value})


def test_deals_that_are_no_list_of_deals_are_a_deal_error() -> None:
    for deals in (5, 1.5, True, "2j 3j", {"0": []}, [None], [[None] * 4], [[[HUGE]] * 4]):
        with pytest.raises(tc.DealError):
            tc.Game(STANDARD, seed=1, deals=deals)  # type: ignore[arg-type]


# --- 2. saved games and JSON ------------------------------------------------------------


@pytest.fixture(scope="module")
def played() -> str:
    return play_randomly(tc.Game(STANDARD, seed=11), 40, seed=11).to_json()


def test_deep_nesting_is_invalid_not_a_recursion_error(played: str) -> None:
    game = tc.Game.from_json(played)
    deep = "[" * 100_000 + "]" * 100_000
    for text in (deep, played[:-1] + ',"extra":' + deep + "}"):
        with pytest.raises(tc.InvalidAction, match="deep"):
            tc.Game.from_json(text)
    before = everything_seen(game)
    for action in (deep, '{"type": "pass", "seat": 0, "x": ' + deep + "}"):
        with pytest.raises(tc.InvalidAction, match="deep"):
            game.apply(action)
    # a Python dict nested as deeply (its repr alone would overflow the stack)
    with pytest.raises(tc.InvalidAction, match="deep"):
        game.apply({"type": "play", "seat": 0, "cards": nested(100_000)})
    assert everything_seen(game) == before


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("deals", [None]),
        ("deals", None),
        ("deals", [[["2j"]]]),  # one hand for four seats: was a DealError
        ("deals", [[[1, 2]] * 4]),  # card numbers: a save holds card codes
        ("version", True),  # equal to 1, but no int
        ("version", 1.0),
        ("seed", True),
        ("seed", 2**64),
        ("seed", -(2**63) - 1),
        ("actions", None),
        ("actions", _DELETE),
        ("deals", _DELETE),
        ("seed", _DELETE),
        ("variant", _DELETE),
        ("comment", "a key the format does not have"),
    ],
)
def test_a_save_with_a_missing_or_mistyped_key_is_invalid(
    played: str, key: str, value: Any
) -> None:
    game = tc.Game.from_json(played)
    with pytest.raises(tc.InvalidAction):
        tc.Game.from_json(save_with(game, **{key: value}))


def test_a_repeated_key_is_invalid_in_an_action_and_in_a_save(played: str) -> None:
    """json.loads lets the last of two equal keys win: `"seat":0,"seat":1` was seat 1."""
    game = tc.Game(STANDARD, seed=1)
    before = everything_seen(game)
    with pytest.raises(tc.InvalidAction, match="more than once"):
        game.apply('{"type":"grand_tichu","seat":0,"call":false,"seat":1}')
    with pytest.raises(tc.InvalidAction, match="more than once"):
        tc.action_from_json('{"type":"pass","seat":0,"seat":1}')
    assert everything_seen(game) == before
    for twice in ('"seed":11,', '"players":4,', '"type":"grand_tichu",'):
        assert twice in played
        with pytest.raises(tc.InvalidAction, match="more than once"):
            tc.Game.from_json(played.replace(twice, twice * 2, 1))


def test_push_targets_have_one_spelling() -> None:
    """ "01" and "1" would both name seat 1: a repeated key in disguise."""
    for cards in (
        {"01": "2j"},
        {" 1": "2j"},
        {"+1": "2j"},
        {"\u0661": "2j"},
        {"1": "2j", "01": "3j"},
    ):
        with pytest.raises(tc.InvalidAction, match="push targets"):
            tc.action_from_json({"type": "push", "seat": 0, "cards": cards})


@pytest.mark.parametrize("text", ["NaN", '{"type":"pass","seat":NaN}', b"\xff", 12, None, ["x"]])
def test_non_json_is_invalid(text: Any) -> None:
    with pytest.raises(tc.InvalidAction):
        tc.Game.from_json(text)
    with pytest.raises(tc.InvalidAction):
        tc.action_from_json(text)


# --- random typed garbage through every entry point --------------------------------------

# Mapped, not sampled: hypothesis writes out the values a strategy samples from.
HUGE_INTS = st.integers(4301, 5000).map(lambda digits: -(10**digits) if digits % 2 else 10**digits)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-20, 20)
    | st.integers()
    | st.sampled_from([SEED_MAX, SEED_MAX + 1, SEED_MIN, SEED_MIN - 1, 2**64])
    | HUGE_INTS
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["2j", "PH", "DR MJ", "Q", "pass", "play", "push", "1", "01", ""])
)
KEYS = st.sampled_from(["type", "seat", "call", "cards", "phoenix", "rank", "to", "1", "x"])
SHALLOW_GARBAGE = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(KEYS | st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
GARBAGE = SHALLOW_GARBAGE | st.integers(30, 3000).map(nested)

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def stacked_deals(draw: st.DrawFn) -> Any:
    """A list of stacked deals, most whole decks, some spoilt in one place."""
    deals = []
    for _ in range(draw(st.integers(0, 2))):
        codes = draw(st.permutations(STANDARD.deck_codes))
        hands: list[list[Any]] = [list(codes[14 * s : 14 * s + 14]) for s in range(4)]
        spoil = draw(st.sampled_from(["none", "lower", "cards", "garbage", "drop", "again"]))
        seat, index = draw(st.integers(0, 3)), draw(st.integers(0, 13))
        if spoil == "lower":
            hands[seat] = [code.lower() for code in hands[seat]]
        elif spoil == "cards":
            hands[seat] = tc.parse_cards(" ".join(hands[seat]))
        elif spoil == "garbage":
            hands[seat][index] = draw(GARBAGE)
        elif spoil == "drop":
            del hands[seat][index]
        elif spoil == "again":
            hands[seat][index] = hands[(seat + 1) % 4][index]
        deals.append(hands)
    return deals


@SETTINGS
@given(seed=GARBAGE, deals=st.none() | GARBAGE | stacked_deals())
def test_a_new_game_is_refused_or_saved_exactly(seed: Any, deals: Any) -> None:
    try:
        game = tc.Game(STANDARD, seed=seed, deals=deals)
    except tc.TichuError:
        return
    assert_restores(game)


@functools.cache
def position(seed: int, steps: int) -> str:
    """A standard game after random play: Grand Tichu, exchange, play and decisions."""
    return play_randomly(tc.Game(STANDARD, seed=seed), steps, seed).to_json()


@st.composite
def attempts(draw: st.DrawFn, game: tc.Game) -> Any:
    """Something to apply: a legal action, one with a field replaced by garbage, an
    action class called with garbage, its JSON dict or text spoilt, or garbage.
    Returned as a function, so that building it is part of the attempt."""
    seat = draw(st.integers(0, game.seats - 1))
    legal = game.legal_actions(seat)
    action = legal[draw(st.integers(0, len(legal) - 1))] if len(legal) else tc.Pass(seat)
    kind = draw(st.sampled_from(["legal", "replace", "build", "dict", "json", "twice", "raw"]))
    field = draw(st.sampled_from(action._fields))
    junk = draw(GARBAGE)
    if kind == "legal":
        return lambda: action
    if kind == "replace":
        return lambda: action._replace(**{field: junk})
    if kind == "build":
        values = [draw(GARBAGE | st.just(getattr(action, f))) for f in action._fields]
        return lambda: type(action)(*values)
    data = tc.action_to_dict(action)
    change = draw(st.sampled_from(["set", "delete", "keep"]))
    if change == "set":
        data[field] = junk
    elif change == "delete":
        data.pop(field, None)
    if kind == "dict":
        return lambda: data
    text = json_text(data)
    if text is None:  # an int too long to write, or nesting too deep: no JSON to send
        return lambda: data
    if kind == "twice":
        text = text[:-1] + f', "{field}": {json.dumps(getattr(action, field))}' + "}"
    if kind == "raw":
        # As a dict or JSON text, the forms apply reads. (Another object, such as a list
        # holding a huge int, still fails in apply's own "not an action" message:
        # game/match.py, outside this change.)
        raw = junk if isinstance(junk, dict | str) else json_text(junk)
        return lambda: raw
    return lambda: text


@SETTINGS
@given(st.data(), st.integers(0, 5), st.integers(0, 120))
def test_apply_refuses_without_a_trace_or_accepts_what_it_saves(
    data: st.DataObject, seed: int, steps: int
) -> None:
    game = tc.Game.from_json(position(seed, steps))
    before = everything_seen(game)
    attempt = data.draw(attempts(game))
    try:
        game.apply(attempt())
    except tc.TichuError:
        assert everything_seen(game) == before
        return
    assert_restores(game)


OPTION_KEYS = [
    f"{section}.{option}" if section else option
    for section, options in [
        ("", ["players", "name", "description", "plugins"]),
        ("deck", ["copies", "without", "copies_by_players", "without_by_players"]),
        ("deal", ["grand_tichu_after", "hand_size", "first_receiver"]),
        ("calls", ["grand_tichu", "tichu", "max_per_team", "tichu_points", "grand_tichu_points"]),
        ("exchange", ["targets", "first_hand", "rank_cards", "rank_cards_by_players"]),
        ("wish", ["enabled", "phoenix_fulfils", "bomb_instead"]),
        ("teams", ["size", "dummy"]),
        ("scoring", ["card_points", "double_victory", "per_player"]),
        ("game", ["target", "hands"]),
        ("seating", ["by_rank", "direction"]),
    ]
    for option in options
]
PLAUSIBLE = (
    st.integers(0, 20)
    | st.sampled_from([112, 113, 10_000, 10_001, 1_000_000, 1_000_001, 2**63])
    | HUGE_INTS
    | st.sampled_from(["standard", "rank", "none", "partners", "left", "DOG", "stray_dog"])
    | st.lists(st.sampled_from(["DOG", "MJ", "2j", "standard", "stray_dog"]), max_size=3)
    | st.dictionaries(st.sampled_from(["5", "6", "7", "13"]), st.integers(0, 3), max_size=2)
)


@SETTINGS
@given(
    st.dictionaries(
        st.sampled_from(OPTION_KEYS) | st.text(max_size=8), PLAUSIBLE | SHALLOW_GARBAGE, max_size=3
    ),
    st.integers(0, 60),
)
def test_load_variant_refuses_or_gives_a_game_it_saves(
    overrides: dict[str, Any], steps: int
) -> None:
    """Overrides of every option, at and past their bounds, and garbage. Shallow
    garbage only: deeply nested override values still overflow the stack in the
    loader's messages (`variants/checks.show_value`, outside this change)."""
    try:
        variant = tc.load_variant("standard", overrides=overrides)
        game = tc.Game(variant, seed=steps)
    except tc.TichuError:
        return
    assert_restores(play_randomly(game, steps, seed=steps))


def spoil(data: Any, draw: st.DrawFn) -> Any:
    """``data`` (parsed JSON) with one value somewhere replaced, dropped or added."""
    if isinstance(data, dict) and data and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(data)))
        return {**data, key: spoil(data[key], draw)}
    if isinstance(data, list) and data and draw(st.booleans()):
        index = draw(st.integers(0, len(data) - 1))
        return [*data[:index], spoil(data[index], draw), *data[index + 1 :]]
    how = draw(st.sampled_from(["replace", "drop", "add"]))
    if how == "drop" and isinstance(data, dict | list) and data:
        return data[1:] if isinstance(data, list) else dict(list(data.items())[1:])
    if how == "add" and isinstance(data, dict | list):
        junk = draw(GARBAGE)
        return [*data, junk] if isinstance(data, list) else {**data, draw(KEYS): junk}
    return draw(GARBAGE | SCALARS)


@SETTINGS
@given(st.data(), st.integers(0, 3), st.integers(0, 60))
def test_from_json_refuses_a_spoilt_save_or_restores_what_it_read(
    data: st.DataObject, seed: int, steps: int
) -> None:
    text = json_text(spoil(json.loads(position(seed, steps)), data.draw))
    if text is None:  # no such save can be written
        return
    try:
        game = tc.Game.from_json(text)
    except tc.InvalidAction:
        return
    except tc.VariantError as error:  # only a plugin this installation cannot resolve
        assert "plugin" in str(error)
        return
    assert_restores(game)


@SETTINGS
@given(st.one_of(st.text(max_size=40), st.binary(max_size=40), GARBAGE.map(json_text)))
def test_from_json_refuses_any_text_that_is_no_save(text: Any) -> None:
    with pytest.raises(tc.InvalidAction):
        tc.Game.from_json(text)
