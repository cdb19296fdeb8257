"""Hardening of the last open edges (issue 26, items 6 to 13, and what bots are handed).

`simulate --out` never truncates a file that is not its own, nor reads an endless
"line" of a device; forged action tuples are invalid; a bot cannot change the game
through the objects it is handed; a deep `extends` chain and a file reached through
`extends` that is not a variant are clear errors; a plugin's bad answer is blamed on
it; the chart path, `since`, seeds and descriptions are checked. Each test failed on
the code before its fix."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tichu_core.frontends.cli.commands import main
from tichu_core.frontends.sim.simulate import simulate

SECRET = "hunter2-s3cr3t"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- 6, 7: --out


@pytest.mark.parametrize(
    "text",
    [
        '{"variant": "standard", "seed": 3, "actions": []}',  # a saved game: no final newline
        "notes about a run\n",  # one whole line that is no record
        '{"run": "0123456789ab", "index": 0',  # another run's half-written line
    ],
)
@pytest.mark.parametrize("seed", [None, 5])
def test_out_never_truncates_a_file_that_is_no_simulate_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, seed: int | None
) -> None:
    """Before: the file was cut to nothing as a "half-written last line", exit 0."""
    path = write(tmp_path / "game.json", text)
    code = simulate("standard", 1, seed=seed, out=path, quiet=True)
    err = capsys.readouterr().err
    assert code == 2
    assert "line 1 is not a match record" in err and err.count("\n") == 1
    assert path.read_text(encoding="utf-8") == text


def test_out_still_drops_its_own_half_written_first_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = tmp_path / "whole.jsonl"
    assert simulate("standard", 1, seed=5, out=whole, quiet=True) == 0
    line = whole.read_text(encoding="utf-8")
    cut = write(tmp_path / "cut.jsonl", line[:30])
    capsys.readouterr()
    assert simulate("standard", 1, seed=5, out=cut, quiet=True) == 0
    assert "dropped a half-written last line (30 bytes)" in capsys.readouterr().err
    assert cut.read_text(encoding="utf-8") == line


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/full", "/dev/null"])
def test_out_refuses_a_device(
    device: str, capsys: pytest.CaptureFixture[str], seed: int | None = None
) -> None:
    """Before: /dev/zero and /dev/full were read as one endless "line" (11.6 GB in 8 s)."""
    if not os.path.exists(device):
        pytest.skip(f"no {device} on this system")
    code = simulate("standard", 1, out=device, quiet=True)
    err = capsys.readouterr().err
    assert code == 2
    assert f"--out {device} is not a regular file" in err and err.count("\n") == 1


def test_out_refuses_a_pipe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: `--out /dev/stdout` into a pipe hung (reading the pipe for a first line)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    code = simulate("standard", 1, seed=1, out=fifo, quiet=True)  # returns: never opens it
    assert code == 2
    assert "is not a regular file" in capsys.readouterr().err


def test_out_reads_lines_of_bounded_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A first "line" of 8 MB without a newline is no record: refused, not read whole."""
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"x" * (8 << 20))
    code = simulate("standard", 1, out=path, quiet=True)
    assert code == 2
    assert "line 1 is not a match record" in capsys.readouterr().err
    assert path.stat().st_size == 8 << 20


# --------------------------------------------------------------------------- 13: smaller edges


@pytest.mark.parametrize("where", ["folder", "/dev/full"])
def test_a_chart_path_that_is_no_file_is_refused_before_the_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """Before: every match ran, then saving the chart failed with a traceback."""
    chart = str(tmp_path) if where == "folder" else where
    if not os.path.exists(chart):
        pytest.skip(f"no {chart} on this system")
    code, out, err = run(capsys, "compare", "standard", "threechu", "--games", "2",
                         "--bots", "random", "--chart", chart, "--quiet")  # fmt: skip
    assert code == 2
    assert f"cannot write --chart {chart}: not a regular file" in err
    assert out == ""  # no match was played


def test_a_chart_that_fails_to_save_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk that fills up while the chart is saved: one line, the table still printed."""
    from tichu_core.frontends.sim import paired

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(paired, "draw_chart", full)
    chart = tmp_path / "c.png"
    code, out, err = run(capsys, "compare", "standard", "threechu", "--games", "2",
                         "--bots", "random", "--chart", str(chart), "--quiet")  # fmt: skip
    assert code == 1
    assert "threechu" in out  # the table of differences
    assert err == f"tichu compare: cannot write --chart {chart}: No space left on device\n"


def test_a_duel_chart_that_fails_to_save_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for tichu duel: one line, exit 1, the table still printed."""
    from tichu_core.frontends.sim import paired

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(paired, "draw_chart", full)
    chart = tmp_path / "d.png"
    code, out, err = run(capsys, "duel", "random", "greedy", "--games", "2", "--set",
                         "game.hands=1", "--chart", str(chart), "--quiet")  # fmt: skip
    assert code == 1
    assert "greedy" in out  # the table of differences
    assert err == f"tichu duel: cannot write --chart {chart}: No space left on device\n"


@pytest.mark.parametrize("since", [-1, -100, 1.5, "1", True, None])
def test_events_for_refuses_a_since_that_is_no_position(since: object) -> None:
    """Before: since=-1 gave the last event (a slice from the end), 1.5 a TypeError."""
    import tichu_core as tc

    game = tc.Game("standard", seed=1)
    with pytest.raises(tc.InvalidAction, match="since must be a position"):
        game.events_for(0, since=since)  # type: ignore[arg-type]
    assert game.events_for(0, since=1) == game.events_for(0)[1:]
    assert game.events_for(0, since=10**6) == []


@pytest.mark.parametrize("command", ["simulate", "demo", "compare"])
@pytest.mark.parametrize("seed", [str(2**63), str(-(2**63) - 1)])
def test_every_command_takes_the_seeds_a_game_takes(
    capsys: pytest.CaptureFixture[str], command: str, seed: str
) -> None:
    """Before: `simulate --seed 2**63` ran (match seeds are derived), `demo` refused it."""
    variants = ["standard", "threechu"] if command == "compare" else []
    code, out, err = (
        run(capsys, command, *variants, "--games", "2", "--seed", seed)[:3]
        if (command != "demo")
        else run(capsys, command, "--seed", seed)
    )
    assert code == 2 and out == ""
    assert "--seed: must be" in err and "Traceback" not in err


def test_a_seed_at_the_edge_of_the_range_is_taken_by_simulate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "1", "--quiet", "--seed", str(2**63 - 1))
    assert code == 0 and f"run seed {2**63 - 1}" in " ".join(out.split())


def test_a_description_with_a_newline_stays_on_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a registered variant's description "x\\nstandard  4 players  forged"
    printed a second, forged line in `tichu variants`."""
    from tichu_core.variants import loading

    forged = write(tmp_path / "forged.toml",
                   'extends = "standard"\nname = "forged"\n'
                   'description = "x\\nstandard   4 players  forged"\n')  # fmt: skip
    monkeypatch.setitem(loading._REGISTERED, "forged", forged)
    code, out, _ = run(capsys, "variants")
    assert code == 0
    assert "standard   4 players  forged" not in out.splitlines()
    line = next(line for line in out.splitlines() if line.startswith("forged "))
    assert line.endswith("x\\x0astandard   4 players  forged")


# --------------------------------------------------------------------------- 8: forged actions


def _forged(kind: type, *fields: object) -> object:
    return tuple.__new__(kind, fields)  # past every constructor check, as a bot could


def forged_actions() -> list[object]:
    import tichu_core as tc
    from tichu_core.game.actions import PushCards

    return [
        _forged(tc.Tichu, True, "tichu"),  # accepted before: an event for seat 1
        _forged(tc.Tichu, 0),
        _forged(tc.Tichu, 0, "tichu", "extra"),
        _forged(tc.Tichu, "0", "tichu"),
        _forged(tc.Pass, 0, "play"),
        _forged(tc.Pass),
        _forged(tc.GrandTichu, 0, "yes", "grand_tichu"),
        _forged(tc.GrandTichu, 0, 1, "grand_tichu"),
        _forged(tc.Play, 0),
        _forged(tc.Play, 0, 5, None, "play"),
        _forged(tc.Play, 0, "R5", "Z", "play"),
        _forged(tc.Play, 0, "R5", 5, "play"),
        _forged(tc.Play, 0.0, "R5", None, "play"),
        _forged(tc.Wish, 0, 5, "wish"),
        _forged(tc.GiveTrick, 0, "1", "give_trick"),
        _forged(tc.GiveLead, 0, None, "give_lead"),
        _forged(tc.Push, 0, {1: "R5"}, "push"),
        _forged(tc.Push, 0, PushCards({"1": "R5"}), "push"),
        _forged(tc.Push, 0, PushCards({1: 5}), "push"),
    ]


@pytest.mark.parametrize("action", forged_actions(), ids=lambda a: f"{type(a).__name__}{tuple(a)}")
def test_a_forged_action_tuple_is_invalid_and_changes_nothing(action: object) -> None:
    """Before: `tuple.__new__(Tichu, (True, "tichu"))` was applied (and the save then failed
    to load); other shapes raised TypeError or IndexError from inside the engine."""
    import tichu_core as tc

    game = tc.Game("standard", seed=3)
    for _ in range(4):  # every seat declines Grand Tichu: the exchange, calls allowed
        game.apply(tc.GrandTichu(game.waiting_for[0], False))
    before = game.to_json()
    with pytest.raises(tc.InvalidAction, match="not a well-formed"):
        game.apply(action)
    assert game.to_json() == before
    assert tc.Game.from_json(before).to_json() == before


# --------------------------------------------------------------------------- 9: what bots hold

_ATOMS = (int, float, complex, str, bytes, bool, type(None), range)


def _children(thing: object) -> list[object]:
    """What an attribute walk reaches from ``thing`` in one step: items, ``__dict__``
    values and slots (never through classes, functions or modules)."""
    import types

    if isinstance(thing, type | types.ModuleType | types.FunctionType | types.BuiltinFunctionType):
        return []
    if isinstance(thing, types.MethodType):
        return [thing.__self__]
    found: list[object] = []
    if isinstance(thing, dict):
        found += [*thing.keys(), *thing.values()]
    elif isinstance(thing, list | tuple | set | frozenset):
        found += list(thing)
    found += list(getattr(thing, "__dict__", {}).values())
    for cls in type(thing).__mro__:
        for slot in cls.__dict__.get("__slots__", ()):
            if hasattr(thing, slot):
                found.append(getattr(thing, slot))
    return found


def _reachable(start: object, depth: int, stop: tuple[object, ...] = ()) -> dict[int, object]:
    """What an attribute walk of ``depth`` steps reaches from ``start`` (not through ``stop``)."""
    seen: dict[int, object] = {}
    frontier = [start]
    stops = {id(thing) for thing in stop}
    for _ in range(depth):
        step = []
        for thing in frontier:
            for child in _children(thing):
                key = id(child)
                if not isinstance(child, _ATOMS) and key not in seen and key not in stops:
                    seen[key] = child
                    step.append(child)
        frontier = step
    return seen


def _mutable(thing: object) -> bool:
    return not isinstance(thing, tuple | frozenset) and not callable(thing)


def _game_at_a_play(seed: int = 7) -> tuple[object, int]:
    """A standard game in its play phase (random bots got it there), and the seat on turn."""
    import tichu_core as tc
    from tichu_core.frontends.bots import make_bot
    from tichu_core.frontends.bots.protocol import decide

    game = tc.Game("standard", seed=seed)
    bots = [make_bot("random", p) for p in range(4)]
    while game.observation(0).phase != "play" or game.turn is None:
        seat = game.waiting_for[0]
        game.apply(decide(bots[game.controller(seat)], game, seat))
    for _ in range(3):  # into a trick, so that follow plays and passes are listed too
        seat = game.waiting_for[0]
        game.apply(decide(bots[game.controller(seat)], game, seat))
    return game, game.waiting_for[0]


def test_nothing_a_bot_is_handed_shares_a_mutable_object_with_the_game() -> None:
    """Before: `actions._state` was the live hand (`actions._state.hands[seat] |= ...` gave a
    seat 28 cards) and `actions._issued` the referee's table of trusted actions."""
    game, seat = _game_at_a_play()
    actions = game.legal_actions(seat)
    for i in range(len(actions)):  # every action handed out, so the listing records them
        actions[i]
    observation = game.observation(game.controller(seat))
    held = {**_reachable(actions, 6), **_reachable(observation, 6)}
    # (The referee remembers the listing it handed out: what the bot holds, not the game.)
    live = _reachable(game, 10, stop=(actions, observation))
    live[id(game)] = game
    shared = [
        type(thing).__name__ for key, thing in held.items() if key in live and _mutable(thing)
    ]
    assert shared == []


def _plant(listing: object, forged: object, entry: tuple[object, ...], meaning: object) -> None:
    """Tell the listing, every way a bot could, that ``forged`` is one of its actions."""
    for thing in [listing, *_reachable(listing, 3).values()]:
        if isinstance(thing, dict) and type(thing).__name__ != "PushCards":
            thing[id(forged)] = entry
    for cls in type(listing).__mro__:
        for slot in cls.__dict__.get("__slots__", ()):
            if slot == "_first":
                setattr(listing, slot, forged)
            elif slot.endswith("meaning"):
                setattr(listing, slot, meaning)
            elif slot.endswith("index"):
                setattr(listing, slot, 0)


def test_a_play_planted_in_a_listing_is_refused() -> None:
    """Before: an entry planted in `actions._issued` made `apply` accept a card the seat did
    not hold, and that save no longer loaded."""
    import tichu_core as tc
    from tichu_core.cardplay.cards import card_of_code

    game, seat = _game_at_a_play()
    held = set(game.observation(game.controller(seat)).hands[seat])
    codes = ["DR", "PH", "MJ", *(f"{rank}{suit}" for rank in "23456789" for suit in "jspt")]
    stranger = next(code for code in codes if code not in held)
    forged = tc.Play(seat, stranger)  # a single the seat does not hold
    meaning = (1, 1, 14, 1 << int(card_of_code(stranger)), 0)  # a play tuple: a single
    before = game.to_json()
    for shape in range(3):
        actions = game.legal_actions(seat)
        assert any(isinstance(a, tc.Play) for a in actions)
        state = getattr(actions, "_state", None)  # what the listing held before the fix
        entry = [(forged, state, meaning), (forged, 0), (forged, meaning)][shape]
        _plant(actions, forged, entry, meaning)
        with pytest.raises((tc.InvalidAction, tc.IllegalAction)):
            game.apply(forged)
        assert game.to_json() == before


class _Sly(str):
    """Text that claims to equal anything: what a field of a forged tuple can be."""

    __hash__ = str.__hash__

    def __eq__(self, other: object) -> bool:
        return True


def test_a_forged_tuple_equal_to_a_listed_action_is_refused() -> None:
    """`apply` skips its checks for an action the referee listed (Referee.listed), so that
    path must trust the referee's own objects, never equality: `(1, 0, "grand_tichu")`
    equals the listed decline of seat 1 (0 == False), `(True, False, "grand_tichu")` too
    (True == 1), and a play whose cards are a str subclass equals the listed play, planted
    in the listing where the referee looks. Each is refused as forged."""
    import tichu_core as tc

    game = tc.Game("standard", seed=3)
    listing = game.legal_actions(1)
    decline = listing[0]
    assert decline == tc.GrandTichu(1, False)
    before = game.to_json()
    for forged in (
        _forged(tc.GrandTichu, 1, 0, "grand_tichu"),
        _forged(tc.GrandTichu, True, False, "grand_tichu"),
    ):
        assert forged == decline
        with pytest.raises(tc.InvalidAction, match="not a well-formed"):
            game.apply(forged)
        assert game.to_json() == before

    game, seat = _game_at_a_play()
    before = game.to_json()
    listing = game.legal_actions(seat)
    play = listing[len(listing.fixed)]  # the listing's first play, at index 0 of its plays
    assert isinstance(play, tc.Play)
    sly = _forged(tc.Play, seat, _Sly(play.cards), play.phoenix, "play")
    assert sly == play
    _plant(listing, sly, (sly, 0), None)
    with pytest.raises(tc.InvalidAction, match="not a well-formed"):
        game.apply(sly)
    assert game.to_json() == before
    game.apply(play)  # the listed play itself is still taken
    assert game.actions[-1] == play


def test_a_push_planted_in_a_listing_is_refused() -> None:
    """A listed push skips the second judging too (Referee.listed): one the seat cannot
    make, or one whose codes are a str subclass, planted in the listing at the index of a
    listed push, is refused."""
    import tichu_core as tc
    from tichu_core.game.actions import PushCards

    game = tc.Game("standard", seed=3)
    for seat in range(4):
        game.apply(tc.GrandTichu(seat, False))
    before = game.to_json()
    held = set(game.observation(0).hands[0])
    strangers = [f"{rank}{suit}" for rank in "23456789" for suit in "jspt"]
    strangers = [code for code in strangers if code not in held]
    listing = game.legal_actions(0)
    push = listing[len(listing.fixed)]  # index 0 of its pushes
    assert isinstance(push, tc.Push)
    targets = sorted(push.cards)
    stranger = tc.Push(0, dict(zip(targets, strangers, strict=False)))
    sly_cards = PushCards({target: _Sly(codes) for target, codes in push.cards.items()})
    sly = _forged(tc.Push, 0, sly_cards, "push")
    assert sly == push
    for forged in (stranger, sly):
        _plant(listing, forged, (forged, 0), None)
        with pytest.raises((tc.InvalidAction, tc.IllegalAction)):
            game.apply(forged)
        assert game.to_json() == before
    game.apply(push)  # the listed push itself is still taken
    assert game.actions[-1] == push


def test_a_listing_changed_by_a_bot_changes_neither_the_game_nor_what_apply_accepts() -> None:
    import tichu_core as tc

    game, seat = _game_at_a_play()
    actions = game.legal_actions(seat)
    before = game.to_json()
    sizes = game.observation(None).hand_sizes
    listed = list(actions)
    # The bot rewrites the lists the listing holds: its plays, its fixed actions.
    for name in ("_plays", "_fixed"):
        value = getattr(actions, name, None)
        if isinstance(value, list) and value:
            value[:] = [value[0]] * 3
    assert game.to_json() == before and game.observation(None).hand_sizes == sizes
    fresh = game.legal_actions(seat)
    assert list(fresh) == listed  # the referee's own options are intact
    # What apply accepts is what it always did: a listed action, judged if need be.
    game.apply(listed[-1])
    assert tc.Game.from_json(game.to_json()).to_json() == game.to_json()


def test_a_changed_observation_changes_nothing() -> None:
    game, seat = _game_at_a_play()
    before = game.to_json()
    observation = game.observation(game.controller(seat))
    for thing in _reachable(observation, 4).values():
        if isinstance(thing, list | dict):
            thing.clear()
    assert game.to_json() == before
    assert game.observation(game.controller(seat)).hand  # its cards are still there


# --------------------------------------------------------------------------- 10, 11: extends


def _chain(folder: Path, length: int) -> Path:
    """`v0.toml` extends `v1.toml` ... extends `standard`: ``length`` files."""
    for i in range(length):
        parent = f"v{i + 1}.toml" if i + 1 < length else "standard"
        write(folder / f"v{i}.toml", f'extends = "{parent}"\n[game]\ntarget = {100 + i}\n')
    return folder / "v0.toml"


@pytest.mark.parametrize("confined", [False, True])
def test_a_deep_extends_chain_is_a_variant_error(tmp_path: Path, confined: bool) -> None:
    """Before: a chain of 1,000 files ended in a RecursionError traceback."""
    from tichu_core import VariantError, load_variant
    from tichu_core.variants.loading import MAX_EXTENDS_DEPTH

    top = _chain(tmp_path, 1000)
    options = {"confine_to": tmp_path} if confined else {}
    with pytest.raises(VariantError) as caught:
        load_variant(top, **options)  # type: ignore[arg-type]
    (problem,) = caught.value.problems
    assert f"extends: a chain of more than {MAX_EXTENDS_DEPTH} files" in problem
    # A chain within the limit loads, every file's options merged (the top one wins).
    deep = _chain(tmp_path / "ok", MAX_EXTENDS_DEPTH - 1)  # and `standard` at its root
    assert load_variant(deep).game.target == 100


def test_check_reports_a_deep_extends_chain_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "check", str(_chain(tmp_path, 1000)))
    assert code == 1 and "Traceback" not in out + err
    assert "extends: a chain of more than" in out


def test_extends_never_shows_the_values_of_the_file_it_reaches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: unconfined, `extends` to a TOML file with one variant key (`name`) among
    others echoed them: `password: unknown key ... (got "hunter2...")`."""
    from tichu_core import VariantError, load_variant

    write(tmp_path / "app" / "settings.toml", f'name = "app"\npassword = "{SECRET}"\nport = 8\n')
    top = write(tmp_path / "up" / "p.toml", 'extends = "../app/settings.toml"\n')
    with pytest.raises(VariantError) as caught:
        load_variant(top)
    shown = "\n".join(caught.value.problems)
    assert SECRET not in shown and "password: unknown key" in shown  # the key, not the value
    for argv in (["check", str(top)], ["demo", "--variant", str(top)]):
        code, out, err = run(capsys, *argv)
        assert code != 0 and SECRET not in out + err and "password" in out + err
    # The file named on the command line itself still shows what it got.
    own = write(tmp_path / "own.toml", 'extends = "standard"\n[game]\ntarget = "500"\n')
    with pytest.raises(VariantError, match=r'game.target: expected an integer \(got "500"\)'):
        load_variant(own)


# --------------------------------------------------------------------------- 12: blame


def _game_with_plugin(
    monkeypatch: pytest.MonkeyPatch,
    seed: int = 0,
    variant: str = "standard",
    overrides: dict[str, object] | None = None,
    **impls: object,
) -> object:
    import sys
    import types

    import tichu_core as tc

    module = types.ModuleType("edge_plugins.under_test")
    for name, impl in impls.items():
        setattr(module, name, impl)
    monkeypatch.setitem(sys.modules, "edge_plugins.under_test", module)
    plugins = [*tc.load_variant(variant).plugins, "edge_plugins.under_test"]
    loaded = tc.load_variant(variant, {**(overrides or {}), "plugins": plugins}, allow_imports=True)
    return tc.Game(loaded, seed=seed)


def _dealt_sizes(game: object) -> list[int]:
    import tichu_core as tc

    started = [e for e in game.event_log if isinstance(e, tc.HandStarted)]  # type: ignore[attr-defined]
    return list(started[-1].hand_sizes)


@pytest.mark.parametrize(
    ("variant", "sizes", "rule"),
    [
        ("standard", "14, 14, 14, 14", "deal.hand_size = 14, S-DEAL-1"),
        (
            "tientsin",
            "10, 10, 9, 9, 9, 9",
            "the whole deck round the table, deal.hand_size = 0, T6-2, GS-3",
        ),
    ],
)
def test_S_DEAL_1_a_deal_of_every_card_to_one_seat_is_the_deal_plugins_error(
    monkeypatch: pytest.MonkeyPatch, variant: str, sizes: str, rule: str
) -> None:
    """Before: blamed on `standard` (its `tichu_grand_tichu_cards` answer, more cards
    than the empty seats hold), not on the plugin whose deal it was."""
    import tichu_core as tc
    from tichu_core.rules.hookspecs import hookimpl

    @hookimpl
    def tichu_deal(cards: list[int], seats: int) -> list[list[int]]:
        return [list(cards)] + [[] for _ in range(seats - 1)]

    with pytest.raises(tc.PluginError) as caught:
        _game_with_plugin(monkeypatch, variant=variant, tichu_deal=tichu_deal)
    error = caught.value
    assert (error.plugin, error.hook) == ("edge_plugins.under_test", "tichu_deal")
    message = str(error)
    empty = ", 0" * (len(sizes.split(",")) - 1)
    assert "\n" not in message and f"with hands of 56{empty} cards" in message
    assert f"the variant deals hands of {sizes} cards ({rule})" in message


def test_S_DEAL_1_a_plugins_deal_of_the_variants_sizes_to_other_seats_is_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not refused: Tientsin's sizes round the table (T6-2) with the two 10-card hands
    at the last seats rather than the dealer's; and, at a table with a fifth seat for a
    dummy, the standard plan's 4 x 14 cards with the first seat the empty one (S-DEAL-1)."""
    import tichu_core as tc
    from tichu_core.rules.hookspecs import hookimpl

    @hookimpl
    def tichu_deal(cards: list[int], seats: int) -> list[list[int]]:
        return sorted((cards[seat::seats] for seat in range(seats)), key=len)

    game = _game_with_plugin(monkeypatch, variant="tientsin", tichu_deal=tichu_deal)
    assert _dealt_sizes(game) == [9, 9, 9, 9, 10, 10]

    @hookimpl
    def tichu_seats() -> int:
        return 5

    @hookimpl
    def tichu_next_hand(previous: object) -> tc.Seating | None:
        return tc.Seating(players=[None, 0, 1, 2, 3], dealer=1) if previous is None else None

    @hookimpl
    def tichu_deal(cards: list[int], seats: int) -> list[list[int]]:
        return [[], *(cards[seat * 14 : (seat + 1) * 14] for seat in range(4))]

    quick = {"calls.grand_tichu": False, "exchange.targets": "none"}  # an empty seat
    game = _game_with_plugin(
        monkeypatch,
        overrides=quick,
        tichu_seats=tichu_seats,
        tichu_next_hand=tichu_next_hand,
        tichu_deal=tichu_deal,
    )
    assert _dealt_sizes(game) == [0, 14, 14, 14, 14]


def test_a_deck_mask_beyond_the_cards_is_the_plugins_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: `(1 << 200) - 1` raised OverflowError from inside the engine."""
    import tichu_core as tc
    from tichu_core.rules.hookspecs import hookimpl

    @hookimpl
    def tichu_deck(variant: object) -> int:
        return (1 << 200) - 1

    with pytest.raises(tc.PluginError) as caught:
        _game_with_plugin(monkeypatch, tichu_deck=tichu_deck)
    assert (caught.value.plugin, caught.value.hook) == ("edge_plugins.under_test", "tichu_deck")


@pytest.mark.parametrize("seed", range(40))
def test_a_hand_that_never_ends_is_the_end_of_hand_plugins_error(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Before: in 2 of these 40 seeds the never-ending hand was blamed on `standard`'s
    `tichu_dog_recipients` (the last seat holding cards led the Dog)."""
    import tichu_core as tc
    from tichu_core.frontends.bots import make_bot
    from tichu_core.frontends.bots.protocol import play_match
    from tichu_core.rules.hookspecs import hookimpl

    @hookimpl
    def tichu_hand_over(variant: object, table: object) -> bool:
        return False

    game = _game_with_plugin(monkeypatch, seed, tichu_hand_over=tichu_hand_over)
    with pytest.raises(tc.PluginError) as caught:
        play_match(game, [make_bot("random", p) for p in range(4)])  # type: ignore[arg-type]
    assert caught.value.plugin == "edge_plugins.under_test"
    assert caught.value.hook == "tichu_hand_over"


def test_the_command_line_seed_range_is_the_games() -> None:
    from tichu_core.game.dealing import SEED_MAX, SEED_MIN

    parse = __import__("tichu_core.frontends.cli.commands", fromlist=["_seed"])._seed
    assert parse(str(SEED_MIN)) == SEED_MIN and parse(str(SEED_MAX)) == SEED_MAX
