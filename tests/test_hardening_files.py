"""Hardening of what reads files: variant files that may be untrusted (`extends` leaving
the folder, a `.env` echoed in an error, the confined load of `load_variant(...,
confine_to=folder)`, docs/variants.md) and `tichu replay` (several files,
`--allow-imports`, a `--json` that is an input or cannot be written, deep JSON, a long
log replayed as a stream, docs/bsw.md). Each test reproduces a problem found in the
hardening review: it failed before the fix."""

from __future__ import annotations

import gc
import json
import os
import tracemalloc
from pathlib import Path

import pytest

from tichu_core import Game, VariantError, load_variant
from tichu_core.errors import InvalidAction, LogFormatError
from tichu_core.formats.bsw import MAX_LINE_BYTES, iter_tch
from tichu_core.formats.bsw_replay import iter_records, replay_record, replay_text
from tichu_core.frontends.cli.commands import main
from tichu_core.frontends.cli.replay import cli_replay
from tichu_core.variants import loading

LOGS = Path(__file__).resolve().parent / "data" / "bsw"
SECRET = "hunter2-s3cr3t"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def problems(name_or_path: str | Path, **options: object) -> list[str]:
    with pytest.raises(VariantError) as caught:
        load_variant(name_or_path, **options)  # type: ignore[arg-type]
    return caught.value.problems


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def log_text(name: str = "collect.tch") -> str:
    return (LOGS / name).read_text(encoding="utf-8")


# --------------------------------------------------------------------------- variant files


def test_extends_to_a_dotenv_never_shows_its_values(tmp_path: Path) -> None:
    """Before: `extends` followed an absolute path or `../` to a `.env` (valid TOML) and
    reported `PASSWORD: unknown key ... (got "hunter2...")`."""
    write(tmp_path / "secrets" / ".env", f'PASSWORD = "{SECRET}"\nDB_USER = "admin"\n')
    by_path = write(tmp_path / "club" / "abs.toml", f'extends = "{tmp_path}/secrets/.env"\n')
    upwards = write(tmp_path / "club" / "up.toml", 'extends = "../secrets/.env"\n')
    for variant in (by_path, upwards):
        found = problems(variant)
        assert found == [
            f"{tmp_path / 'secrets' / '.env'}: not a variant file: none of its keys is a "
            "variant option (its contents are not shown)"
        ]
        assert SECRET not in "\n".join(found) and "PASSWORD" not in "\n".join(found)


def test_a_file_that_is_no_variant_shows_nothing_of_itself(tmp_path: Path) -> None:
    """Loaded directly, or not TOML at all: no key, no value of it in the message."""
    config = write(tmp_path / "config.toml", f'[database]\npassword = "{SECRET}"\n')
    (found,) = problems(config)
    assert found.endswith(
        "not a variant file: none of its keys is a variant option (its contents are not shown)"
    )
    assert SECRET not in found and "password" not in found
    dotenv = write(tmp_path / "plain.toml", f"PASSWORD={SECRET}\n")  # .env syntax: not TOML
    (found,) = problems(dotenv)
    assert found == f"{dotenv}: line 1, column 10: TOML syntax error: Invalid value"


def test_a_faulty_variant_still_shows_what_it_got(tmp_path: Path) -> None:
    """The rule above is about strangers: a variant with mistakes keeps `(got VALUE)`."""
    variant = write(
        tmp_path / "club.toml", 'extends = "standard"\ncolour = "red"\n[game]\ntarget = "500"\n'
    )
    found = problems(variant)
    assert f'{variant}: game.target: expected an integer (got "500")' in found
    assert any(line.startswith(f"{variant}: colour: unknown key") for line in found)


# --------------------------------------------------------------------------- confined loading


def test_confined_load_reads_the_folder_and_bundled_variants(tmp_path: Path) -> None:
    folder = tmp_path / "uploads"
    write(folder / "base.toml", 'extends = "standard"\n[game]\ntarget = 500\n')
    write(folder / "house" / "club.toml", 'extends = "../base.toml"\n[bombs]\nown_trick = false\n')
    variant = load_variant(folder / "house" / "club.toml", confine_to=folder)
    assert variant.game.target == 500 and not variant.bombs.own_trick
    assert variant == load_variant(folder / "house" / "club.toml")  # same rules either way
    assert load_variant("threechu", confine_to=folder) == load_variant("threechu")


@pytest.mark.parametrize(
    "reference",
    ["{outside}/base.toml", "../outside/base.toml", "sub/../../outside/base.toml"],
)
def test_confined_load_refuses_files_outside_the_folder(tmp_path: Path, reference: str) -> None:
    """Before there was no confined mode: `extends` read any file on the disk. The
    outside file here is a variant with a wrong value: unconfined, it is read and its
    key named (a file reached through `extends` never shows its values, issue 26)."""
    outside = write(tmp_path / "outside" / "base.toml", f'[game]\ntarget = "{SECRET}"\n')
    folder = tmp_path / "uploads"
    (folder / "sub").mkdir(parents=True)
    child = write(folder / "x.toml", f'extends = "{reference.format(outside=outside.parent)}"\n')
    unconfined = problems(child)  # unconfined: it is read, its value not shown
    assert any("base.toml: game.target: expected an integer" in line for line in unconfined)
    assert not any(SECRET in line for line in unconfined)
    (found,) = problems(child, confine_to=folder)
    quoted = reference.format(outside=outside.parent)
    assert found == f"x.toml: extends: '{quoted}': outside the allowed folder (confined load)"
    # Whether the outside file exists is not told either.
    outside.unlink()
    assert problems(child, confine_to=folder) == [found]


def test_confined_load_refuses_a_link_out_of_the_folder(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside.toml", f'[game]\ntarget = "{SECRET}"\n')
    folder = tmp_path / "uploads"
    folder.mkdir()
    (folder / "link.toml").symlink_to(outside)
    child = write(folder / "x.toml", 'extends = "link.toml"\n')
    assert problems(child, confine_to=folder) == [
        "x.toml: extends: 'link.toml': outside the allowed folder (confined load)"
    ]
    assert problems(folder / "link.toml", confine_to=folder) == [
        f"'{folder / 'link.toml'}': outside the allowed folder (confined load)"
    ]


def test_confined_load_reads_only_toml_files(tmp_path: Path) -> None:
    folder = tmp_path / "uploads"
    write(folder / ".env", f'game = "{SECRET}"\n')  # a key of a variant, even
    child = write(folder / "x.toml", 'extends = "./.env"\n')
    assert problems(child, confine_to=folder) == [
        "x.toml: extends: './.env': only .toml files can be read in a confined load"
    ]


def test_confined_load_offers_no_registered_variant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registered name may point anywhere on the disk: not for untrusted files."""
    elsewhere = write(tmp_path / "plugin_dir" / "fancy.toml", 'extends = "standard"\n')
    monkeypatch.setitem(loading._REGISTERED, "fancy", elsewhere)
    folder = tmp_path / "uploads"
    child = write(folder / "x.toml", 'extends = "fancy"\n')
    assert load_variant(child).name == "x"
    (found,) = problems(child, confine_to=folder)
    assert found.startswith("x.toml: extends: unknown variant 'fancy' (available: bsw, ")
    assert "fancy" not in found.split("available:")[1]


def test_confined_messages_name_files_relative_to_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "uploads"
    write(folder / "a.toml", 'extends = "b/b.toml"\n')
    write(folder / "b" / "b.toml", 'extends = "../a.toml"\n[game]\ntargt = 1\n')
    found = problems(folder / "a.toml", confine_to=folder)
    assert found == [
        'b/b.toml: extends: cycle a.toml -> b/b.toml -> a.toml (got "../a.toml")',
        "b/b.toml: game.targt: unknown key, did you mean 'target'? (its value is not shown)",
    ]
    assert all(str(tmp_path) not in line for line in found)


def test_confined_load_is_no_place_for_imports_and_needs_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="a confined load cannot allow imports"):
        load_variant("standard", confine_to=tmp_path, allow_imports=True)
    assert problems("standard", confine_to=tmp_path / "missing") == [
        f"confine_to: {tmp_path / 'missing'}: not a folder"
    ]


# --------------------------------------------------------------------------- tichu replay: --json


def test_replay_never_overwrites_its_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: `tichu replay X.tch --json X.tch` replaced the log with JSON."""
    log = write(tmp_path / "game.tch", log_text())
    (tmp_path / "alias.tch").symlink_to(log)
    monkeypatch.chdir(tmp_path)
    for out in ("game.tch", str(log), "./alias.tch"):
        code, stdout, err = run(capsys, "replay", "game.tch", "--json", out)
        assert code == 2
        assert (
            err == f"tichu replay: --json {out}: is the input game.tch: it would be overwritten\n"
        )
        assert stdout == ""  # refused before anything was replayed
    assert log.read_text(encoding="utf-8") == log_text()


@pytest.mark.parametrize("where", ["missing/out.json", "."])
def test_replay_checks_the_json_path_before_replaying(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """Before: an unwritable `--json` was a traceback after the whole replay."""
    log = write(tmp_path / "game.tch", log_text())
    out = str(tmp_path / where)
    code, stdout, err = run(capsys, "replay", str(log), "--json", out)
    assert code == 2 and stdout == ""
    reason = "is a folder" if where == "." else "cannot write: No such file or directory"
    assert err == f"tichu replay: --json {out}: {reason}\n"


def test_replay_keeps_an_old_json_when_a_log_is_broken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path / "good.tch", log_text())
    broken = write(tmp_path / "broken.tch", log_text().replace("(1)Bert: GD", "(1)Bert: XY"))
    out = write(tmp_path / "out.json", "old\n")
    os.chmod(out, 0o640)
    code, _, err = run(capsys, "replay", str(good), str(broken), "--json", str(out), "--quiet")
    assert code == 1
    assert "unknown card code 'XY'" in err and f"{out} not written" in err
    assert out.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.tch", "good.tch", "out.json"]
    code, _, _ = run(capsys, "replay", str(good), "--json", str(out), "--quiet")
    assert code == 0 and len(json.loads(out.read_text(encoding="utf-8"))) == 1
    assert out.stat().st_mode & 0o777 == 0o640  # replaced, with its permissions


# --------------------------------------------------------------------------- several files, imports


def test_replay_takes_several_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: `tichu replay A B` was a usage error."""
    first = write(tmp_path / "a.tch", log_text("collect.tch"))
    second = write(tmp_path / "b.tch", log_text("dragon_gift.tch"))
    out = tmp_path / "both.json"
    code, stdout, _ = run(capsys, "replay", str(first), str(second), "--quiet", "--json", str(out))
    assert code == 0
    assert stdout.splitlines() == [
        f"{first}: rounds replayed exactly: 1/1",
        f"{second}: rounds replayed exactly: 1/1",
        "files replayed without problems: 2/2",
    ]
    code, stdout, _ = run(capsys, "replay", str(out), str(tmp_path / "none.tch"), "--quiet")
    assert code == 1
    assert stdout.splitlines() == [
        f"{out}: games replayed: 2/2",
        "files replayed without problems: 1/2",
    ]


def test_replay_allow_imports_is_accepted_and_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a saved game naming a plugin module said to pass --allow-imports, and
    `tichu replay --allow-imports` was refused as an unknown argument."""
    write(tmp_path / "house_rules_for_replay" / "__init__.py", "")
    write(
        tmp_path / "house_rules_for_replay" / "quiet.py",
        '"""A house rule that changes nothing."""\n',
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    variant = load_variant(
        "standard", {"plugins": ["standard", "house_rules_for_replay.quiet"]}, allow_imports=True
    )
    saved = write(tmp_path / "game.json", Game(variant, seed=3).to_json())
    code, stdout, _ = run(capsys, "replay", str(saved), "--quiet")
    assert code == 1 and "CLI: --allow-imports" in stdout
    code, stdout, _ = run(capsys, "replay", str(saved), "--quiet", "--allow-imports")
    assert code == 0 and stdout == "games replayed: 1/1\n"


def test_replay_of_deeply_nested_json_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: a RecursionError traceback from the JSON reader."""
    depth = 100_000
    path = write(tmp_path / "deep.json", "[" * depth + "]" * depth)
    code, stdout, err = run(capsys, "replay", str(path))
    assert code == 1 and stdout == ""
    assert err == (
        f"tichu replay: {path}: not a saved game: JSON nested more than 32 levels deep "
        "(a saved game nests a few)\n"
    )


# --------------------------------------------------------------------------- streaming


def test_a_log_is_parsed_round_by_round(tmp_path: Path) -> None:
    """A broken second round: the first is yielded before its error is raised."""
    path = write(tmp_path / "two.tch", log_text() + log_text().replace("Wunsch:K", "Wunsch:Z"))
    rounds = iter_tch(path)
    assert next(rounds).result == (50, 50)
    with pytest.raises(LogFormatError, match="bad wish 'Z'"):
        next(rounds)


def test_an_endless_line_is_an_error_not_a_read(tmp_path: Path) -> None:
    """A file with one huge line (no log) is refused at its first line, whose text is
    not echoed."""
    path = tmp_path / "huge.tch"
    path.write_bytes(b"x" * (MAX_LINE_BYTES + 10))
    with pytest.raises(LogFormatError) as caught:
        next(iter_tch(path))
    assert caught.value.line == 1 and "line longer than" in str(caught.value)
    assert len(str(caught.value)) < 200


def _peak_of_replay(log: Path, out: Path) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        assert cli_replay(str(log), json_out=str(out), verbose=False) == 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_log_is_replayed_in_bounded_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: the whole log, every round's game and the JSON were held until the end
    (a 12.8 MB log of 6,000 rounds took 955 MB). A log of 14 copies of a round against
    one of 2: replayed as a stream, the peak grows by far less per round than keeping a
    replayed round takes (measured on the same round), and stays well below keeping
    them all."""
    small, large = 2, 14
    one_round = log_text()
    peaks = {}
    for rounds in (small, large):
        log = write(tmp_path / f"{rounds}.tch", one_round * rounds)
        peaks[rounds] = _peak_of_replay(log, tmp_path / "out.json")
    assert len(json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))) == large
    capsys.readouterr()
    gc.collect()
    tracemalloc.start()
    try:
        kept = replay_text(one_round * small)
        kept_per_round = tracemalloc.get_traced_memory()[0] // small
    finally:
        tracemalloc.stop()
    assert len(kept) == small and kept_per_round > 50_000
    assert peaks[large] < kept_per_round * large // 2, (peaks, kept_per_round)
    growth_per_round = (peaks[large] - peaks[small]) // (large - small)
    # The engine's plugin managers are cyclic garbage that only the collector frees:
    # some growth remains until it runs (~20 KB a round here, ~35 KB with the collector
    # off, against ~175 KB a kept round takes).
    assert growth_per_round < kept_per_round // 3, (peaks, kept_per_round)


def test_saved_games_are_parsed_one_after_the_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Our records file is parsed a record at a time (a whole array parsed at once took
    ten times its text): the games before a broken one are replayed first."""
    games = tmp_path / "games.json"
    assert cli_replay(str(write(tmp_path / "a.tch", log_text())), json_out=str(games)) == 0
    record = games.read_text(encoding="utf-8").strip().removeprefix("[").removesuffix("]")
    broken = write(tmp_path / "broken.json", f"[{record.strip()},\n{record.strip()},\n{{]")
    capsys.readouterr()
    code, stdout, err = run(capsys, "replay", str(broken), "--quiet")
    assert code == 1 and stdout == ""
    assert err.startswith(f"tichu replay: {broken}: not a saved game: invalid JSON: ")
    assert [r.game is not None for r in map(replay_record, iter_records(record))] == [True]
    two = iter_records(broken.read_text(encoding="utf-8"))
    assert [json.loads(next(two))["format"] for _ in range(2)] == ["tichu-game"] * 2
    with pytest.raises(InvalidAction, match="invalid JSON"):
        next(two)
