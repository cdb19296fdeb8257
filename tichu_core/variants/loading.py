"""Loading variants: finding files, reading TOML, `extends`, overrides and messages.

A variant is loaded by bundled or registered name, or from a `.toml` path. Loading
resolves `extends` chains (deep merge, child keys win, lists replace), applies
dotted-key overrides and validates the result with the models of
`tichu_core.variants.models`, reporting every problem at once as
`FILE: dotted.key: message (got VALUE)`. The JSON Schema of a variant file comes
from the same models.

Files may be untrusted (uploaded to a server): `load_variant(path, confine_to=folder)`
reads only that folder's `.toml` files and the bundled variants, whatever `extends`
says, and names files relative to the folder. In every mode a file that is no variant
(none of its keys is a variant option: a `.env`, a config file) is reported without
any of its contents, so that an `extends` pointing at it cannot echo its secrets.
"""

from __future__ import annotations

import difflib
import importlib.resources
import json
import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from tichu_core.errors import VariantError
from tichu_core.variants.checks import CombinationProblems, show_value
from tichu_core.variants.models import MAX_PLAYERS, MIN_PLAYERS, Variant, VariantFile

__all__ = [
    "check_variant_file",
    "dump_schema_json",
    "list_variants",
    "load_variant",
    "parse_overrides",
    "register_variant_path",
    "variant_schema",
]

# --------------------------------------------------------------------------- locating files

_BUNDLED_PACKAGE = "tichu_core.variants.bundled"
# The most files an `extends` chain may have, the file loaded included (docs/variants.md).
MAX_EXTENDS_DEPTH = 32
# The most tables and arrays a value may nest, a file's own table included: the
# deepest option is three levels down (`deck.copies_by_players."7"`); anything far
# deeper is no variant, and would exhaust Python's stack in the recursion that merges
# tables and writes messages (docs/variants.md).
MAX_NESTING = 16
_REGISTERED: dict[str, Path] = {}
_VARIANT_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


def _bundled_dir() -> Traversable:
    """The bundled variants: package data when installed, else the repository's variants/."""
    try:
        bundled = importlib.resources.files(_BUNDLED_PACKAGE)
        if bundled.joinpath("standard.toml").is_file():
            return bundled
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parents[2] / "variants"


def _bundled_files() -> dict[str, Traversable]:
    directory = _bundled_dir()
    if not directory.is_dir():
        return {}
    return {
        entry.name.removesuffix(".toml"): entry
        for entry in directory.iterdir()
        if entry.name.endswith(".toml") and entry.is_file()
    }


def register_variant_path(name: str, path: str | os.PathLike[str]) -> None:
    """Make a variant file loadable by name (for plugins shipping their own variants)."""
    file = Path(path)
    if not _VARIANT_NAME.fullmatch(name):
        raise VariantError(f"cannot register variant {name!r}: use letters, digits, _ and -")
    if name in _bundled_files():
        raise VariantError(f"cannot register variant {name!r}: a bundled variant has that name")
    registered = _REGISTERED.get(name)
    if registered is not None and registered.resolve() != file.resolve():
        raise VariantError(
            f"cannot register variant {name!r} as {file}: already registered as {registered}"
        )
    if not file.is_file():
        raise VariantError(f"cannot register variant {name!r}: {file}: file not found")
    _REGISTERED[name] = file


def list_variants() -> list[str]:
    """Names `load_variant` accepts: the bundled variants and those plugins registered."""
    return sorted(set(_bundled_files()) | set(_REGISTERED))


@dataclass(frozen=True)
class _Confinement:
    """The folder a confined load may read (besides the bundled variants), resolved."""

    folder: Path

    def admits(self, file: Path) -> bool:
        # Resolved first: `..` and symbolic links are judged by where they lead.
        resolved = file.resolve()
        if resolved.is_relative_to(self.folder):
            return True
        bundled = _bundled_dir()
        return isinstance(bundled, Path) and resolved.is_relative_to(bundled.resolve())

    def label(self, file: Path) -> str:
        """A file named relative to the folder: messages reveal nothing of the disk."""
        resolved = file.resolve()
        if resolved.is_relative_to(self.folder):
            return resolved.relative_to(self.folder).as_posix()
        return f"bundled:{resolved.stem}"


def _confinement(folder: str | os.PathLike[str]) -> _Confinement:
    path = Path(folder)
    if not path.is_dir():
        problem = f"confine_to: {os.fspath(folder)}: not a folder"
        raise VariantError(problem, [problem])
    return _Confinement(path.resolve())


@dataclass(frozen=True)
class _Source:
    """A variant file to read: `label` prefixes its messages, `name` is its default name."""

    resource: Traversable
    label: str
    name: str
    base: Traversable | None  # where a relative `extends` path starts

    @property
    def identity(self) -> str:
        if isinstance(self.resource, Path):
            return str(self.resource.resolve())
        return str(self.resource)


class _Problem(Exception):
    """One problem that stops loading a file; collected, never raised to callers."""


def _is_path(reference: str | os.PathLike[str]) -> bool:
    if isinstance(reference, os.PathLike):
        return True
    return reference.endswith(".toml") or "/" in reference or os.sep in reference


def _locate(
    reference: str | os.PathLike[str],
    base: Traversable | None,
    confined: _Confinement | None = None,
) -> _Source:
    if _is_path(reference):
        given = os.fspath(reference)
        resource: Traversable = Path(given)
        if base is not None and not Path(given).is_absolute():
            resource = base.joinpath(given)
        label = os.path.normpath(str(resource)) if isinstance(resource, Path) else given
        if confined is not None and isinstance(resource, Path):
            # Checked before the file is looked at, so that a confined load cannot
            # even tell whether a file outside the folder exists.
            if not given.endswith(".toml"):
                raise _Problem(f"{given!r}: only .toml files can be read in a confined load")
            if not confined.admits(resource):
                raise _Problem(f"{given!r}: outside the allowed folder (confined load)")
            label = confined.label(resource)
        if not resource.is_file():
            raise _Problem(f"{label}: file not found")
        parent = resource.parent if isinstance(resource, Path) else base
        return _Source(resource, label, Path(given).stem, parent)
    name = str(reference)
    bundled = _bundled_files()
    if name in bundled:
        label = f"bundled:{name}" if confined is not None else str(bundled[name])
        return _Source(bundled[name], label, name, _bundled_dir())
    if name in _REGISTERED and confined is None:
        file = _REGISTERED[name]
        return _Source(file, str(file), name, file.parent)
    # A confined load extends bundled variants only: a registered name may lead anywhere.
    available = sorted(bundled) if confined is not None else list_variants()
    close = difflib.get_close_matches(name, available, n=1)
    hint = f", did you mean {close[0]!r}?" if close else ""
    raise _Problem(f"unknown variant {name!r}{hint} (available: {', '.join(available)})")


_TOML_POSITION = re.compile(r"^(?P<what>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)$")


def _read_toml(source: _Source) -> dict[str, Any]:
    # A syntax error shows tomllib's description, line and column: tomllib quotes no
    # value of the file (at most an illegal control character), so even a file that is
    # no variant at all (a `.env`) shows nothing of its contents here.
    try:
        data = source.resource.read_bytes()
    except OSError as exc:
        raise _Problem(f"{source.label}: cannot read: {exc.strerror or exc}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Problem(f"{source.label}: not UTF-8 text (byte {exc.start})") from exc
    try:
        return tomllib.loads(text)
    except RecursionError:  # tomllib reads nested arrays and inline tables by recursion
        raise _Problem(
            f"{source.label}: values nested too deeply to read (a variant's nest at most "
            f"{MAX_NESTING} levels)"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_POSITION.match(str(exc))
        where = f"line {found['line']}, column {found['column']}: " if found else ""
        what = found["what"] if found else str(exc)
        raise _Problem(f"{source.label}: {where}TOML syntax error: {what}") from exc


def _is_variant_file(raw: Mapping[str, Any]) -> bool:
    """Whether a parsed TOML file is a variant file, possibly a faulty one: empty, or
    with at least one variant option at the top (a `.env` or a config file has none).
    The keys of a resolved `Variant` count too: a file stating them is a variant file
    that says too much (`allow_imports` is the caller's to give), not a stranger."""
    known = VariantFile.model_fields.keys() | Variant.model_fields.keys()
    return not raw or any(key in known for key in raw)


def _load_chain(
    top: _Source, problems: list[str], confined: _Confinement | None = None
) -> tuple[list[tuple[_Source, dict[str, Any]]], bool]:
    """The files of an `extends` chain, root first, and whether the whole chain loaded
    (followed in a loop, at most MAX_EXTENDS_DEPTH files: no recursion to exhaust)."""
    chain: list[tuple[_Source, dict[str, Any]]] = []  # top first
    identities: set[str] = set()
    source = top
    complete = True
    while True:
        try:
            raw = _read_toml(source)
        except _Problem as problem:
            problems.append(str(problem))
            complete = False
            break
        if not _is_variant_file(raw):
            # Neither its keys nor its values are shown: they may be anybody's secrets.
            problems.append(
                f"{source.label}: not a variant file: none of its keys is a variant option "
                "(its contents are not shown)"
            )
            complete = False
            break
        deep = _deep_key(raw)
        if deep is not None:  # keys only: a file reached through extends shows no value
            problems.append(f"{source.label}: {deep}: nested more than {MAX_NESTING} levels deep")
            complete = False
            break
        chain.append((source, raw))
        identities.add(source.identity)
        parent_ref = raw.get("extends")
        if not isinstance(parent_ref, str):
            complete = parent_ref is None  # else the file's own validation reports the type
            break
        try:
            parent = _locate(parent_ref, source.base, confined)
        except _Problem as problem:
            problems.append(f"{source.label}: extends: {problem}")
            complete = False
            break
        if parent.identity in identities:
            loop = " -> ".join(member.label for member, _ in chain)
            problems.append(
                f"{source.label}: extends: cycle {loop} -> {parent.label} "
                f"(got {show_value(parent_ref)})"
            )
            complete = False
            break
        if len(chain) == MAX_EXTENDS_DEPTH:
            problems.append(
                f"{source.label}: extends: a chain of more than {MAX_EXTENDS_DEPTH} files "
                f"(from {top.label})"
            )
            complete = False
            break
        source = parent
    return chain[::-1], complete


# --------------------------------------------------------------------------- messages


def _section_of(model: type[BaseModel], key: str) -> type[BaseModel] | None:
    """The options model of `model.key` when that key is a section table."""
    field = model.model_fields.get(key)
    annotation = field.annotation if field is not None else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _allowed_keys(loc: tuple[int | str, ...], root: type[BaseModel]) -> list[str] | None:
    model: type[BaseModel] | None = root
    for part in loc:
        model = _section_of(model, str(part)) if model is not None else None
    return list(model.model_fields) if model is not None else None


def _dotted(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        if part == "[key]":
            continue
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


_OVERRIDES = "overrides"  # the label of problems in load_variant(overrides=...)
_TYPE_MESSAGES = {
    "int_type": "expected an integer",
    "bool_type": "expected true or false",
    "string_type": "expected a string",
    "tuple_type": "expected an array",
    "list_type": "expected an array",
    "dict_type": "expected a table",
    "model_type": "expected a table",
    "model_attributes_type": "expected a table",
}


def _message(error: ErrorDetails, root: type[BaseModel], hidden: frozenset[str]) -> str:
    kind, loc = error["type"], error["loc"]
    ctx = error.get("ctx", {})
    if kind == "extra_forbidden":
        allowed = [key for key in _allowed_keys(loc[:-1], root) or [] if key not in hidden]
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        if close:
            return f"unknown key, did you mean {close[0]!r}?"
        return f"unknown key (allowed: {', '.join(allowed)})"
    if loc and loc[-1] == "[key]":
        return f"not a player count {MIN_PLAYERS}..{MAX_PLAYERS}"
    if kind in _TYPE_MESSAGES:
        return _TYPE_MESSAGES[kind]
    if kind == "literal_error":
        return f"expected {ctx['expected']}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx['ge']}"
    if kind == "less_than_equal":
        return f"must be at most {ctx['le']}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "value_error":
        return str(ctx["error"])
    return error["msg"]


def _describe(
    label: str, error: ErrorDetails, root: type[BaseModel], show_values: bool = True
) -> str:
    where = _dotted(error["loc"]) or "(top level)"
    hidden = frozenset({"extends"} if label == _OVERRIDES else ())
    message = _message(error, root, hidden)
    if not show_values:
        return f"{label}: {where}: {message} (its value is not shown)"
    return f"{label}: {where}: {message} (got {show_value(error['input'])})"


# --------------------------------------------------------------------------- merging


def _too_deep(value: object, levels: int) -> bool:
    """Whether ``value`` nests tables or arrays more than ``levels`` deep (a scalar is 0
    deep, ``[1]`` 1): counted without recursion, and a value that holds itself is too
    deep."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            inner: Iterable[object] = item.values()
        elif isinstance(item, list | tuple):
            inner = item
        else:
            continue
        if depth >= levels:
            return True
        stack.extend((child, depth + 1) for child in inner)
    return False


def _deep_key(raw: Mapping[str, Any]) -> str | None:
    """The dotted key (at most three parts) of a value of a file's table that nests more
    than MAX_NESTING levels, the table itself counted; None if none does."""
    for key, value in raw.items():
        levels = MAX_NESTING - 1
        if not _too_deep(value, levels):
            continue
        path = [str(key)]
        while isinstance(value, Mapping) and len(path) < 3:
            levels -= 1
            inner = next(((k, v) for k, v in value.items() if _too_deep(v, levels)), None)
            if inner is None:
                break
            path.append(str(inner[0]))
            value = inner[1]
        return ".".join(path)
    return None


def _merge(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge of TOML tables: `top`'s keys win, tables merge, arrays replace."""
    merged = dict(base)
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        elif isinstance(value, Mapping):
            merged[key] = _merge({}, value)
        else:
            merged[key] = value
    return merged


def _prune(raw: Mapping[str, Any], loc: tuple[int | str, ...]) -> dict[str, Any]:
    """`raw` without the option an error is about, so the remaining options can still be
    checked together: the error's key down to its option (never into a list or a table
    value such as deck.copies_by_players)."""
    pruned = dict(raw)
    head, model = str(loc[0]), _section_of(VariantFile, str(loc[0]))
    if model is not None and len(loc) > 1 and isinstance(pruned.get(head), Mapping):
        section = dict(pruned[head])
        section.pop(str(loc[1]), None)
        pruned[head] = section
    else:
        pruned.pop(head, None)
    return pruned


def _checked(
    label: str, raw: dict[str, Any], problems: list[str], show_values: bool = True
) -> dict[str, Any]:
    """Validate one file (or the overrides) on its own; return it without its bad options.
    Without ``show_values`` (a file reached through `extends`, which may be any TOML file
    that happens to hold a variant key) messages name the keys, never their values."""
    try:
        VariantFile.model_validate(raw)
    except ValidationError as exc:
        for error in exc.errors():
            problems.append(_describe(label, error, VariantFile, show_values))
            if error["loc"]:
                raw = _prune(raw, error["loc"])
    return raw


def _leaf_keys(raw: Mapping[str, Any], prefix: str = "") -> Iterable[str]:
    for key, value in raw.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from _leaf_keys(value, dotted + ".")
        else:
            yield dotted


def _overrides_table(overrides: Mapping[str, object], problems: list[str]) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for key, value in overrides.items():
        parts = key.split(".") if isinstance(key, str) else []
        if not parts or not all(parts):
            problems.append(f"overrides: {key!r}: not a dotted key such as 'game.target'")
            continue
        if parts[0] == "extends":
            problems.append(
                f"overrides: extends: cannot be overridden; load that variant instead "
                f"(got {show_value(value)})"
            )
            continue
        if _too_deep(value, MAX_NESTING - len(parts)):
            problems.append(
                f"overrides: {key}: nested more than {MAX_NESTING} levels deep "
                f"(got {show_value(value)})"
            )
            continue
        node = table
        for depth, part in enumerate(parts[:-1]):
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                clash = ".".join(parts[: depth + 1])
                problems.append(f"overrides: {key}: clashes with the override of {clash!r}")
                break
        else:
            if isinstance(value, Mapping):
                value = _merge(node.get(parts[-1], {}), value)
            node[parts[-1]] = value
    return table


# --------------------------------------------------------------------------- loading


def load_variant(
    name_or_path: str | os.PathLike[str],
    overrides: Mapping[str, object] | None = None,
    *,
    allow_imports: bool = False,
    confine_to: str | os.PathLike[str] | None = None,
) -> Variant:
    """Load a bundled or registered variant by name, or a `.toml` file by path.

    `extends` chains are merged, then `overrides` (dotted keys such as
    `{"game.target": 500, "players": 7}`) are applied. Raises `VariantError` listing
    every problem. `allow_imports` is only recorded: this function imports no plugin.

    `confine_to` (a folder) loads an untrusted file: the file and every file its
    `extends` chain names must be `.toml` files inside that folder (after `..` and
    symbolic links are resolved), or bundled variants by name; registered variants
    are not available; messages name files relative to the folder. A confined load
    never allows imports (`allow_imports=True` with it is a `ValueError`).
    """
    confined = None
    if confine_to is not None:
        if allow_imports:
            raise ValueError("load_variant: a confined load cannot allow imports")
        confined = _confinement(confine_to)
    problems: list[str] = []
    try:
        top = _locate(name_or_path, None, confined)
    except _Problem as problem:
        raise VariantError(str(problem), [str(problem)]) from None
    chain, complete = _load_chain(top, problems, confined)

    merged: dict[str, Any] = {}
    for source, raw in chain:
        checked = _checked(source.label, raw, problems, show_values=source is top)
        checked.pop("extends", None)
        if source is not top:
            checked.pop("name", None)  # a variant is named by its own file
        merged = _merge(merged, checked)
    from_files = merged  # the files' options alone: whose problem is whose (below)
    overridden: set[str] = set()
    if overrides:
        table = _checked(_OVERRIDES, _overrides_table(overrides, problems), problems)
        merged = _merge(merged, table)
        overridden.update(_leaf_keys(table))

    variant: Variant | None = None
    if complete:
        merged.setdefault("name", top.name)
        merged["source"] = os.fspath(name_or_path) if _is_path(name_or_path) else str(name_or_path)
        merged["allow_imports"] = allow_imports
        try:
            variant = Variant.model_validate(merged)
        except ValidationError as exc:
            identity = {key: merged[key] for key in ("name", "source", "allow_imports")}
            files_only = {**from_files, **identity}
            problems.extend(_combination_messages(exc, top.label, overridden, files_only))
    if problems or variant is None:
        raise VariantError("\n".join(problems), problems)
    return variant


def _combination_keys(raw: dict[str, Any]) -> set[str]:
    """The keys of the combination problems of `raw` (a resolved variant's options)."""
    try:
        Variant.model_validate(raw)
    except ValidationError as exc:
        return {
            key
            for error in exc.errors()
            if isinstance(found := error.get("ctx", {}).get("error"), CombinationProblems)
            for key, _, _ in found.problems
        }
    return set()


def _combination_messages(
    exc: ValidationError, label: str, overridden: set[str], files_only: dict[str, Any]
) -> list[str]:
    """Messages for the resolved variant: a problem is the file's, unless an override set
    its key (or a table holding it) or the files alone (`files_only`) do not have it:
    `players = 5` over standard breaks `teams.size`, which no override named."""
    in_files = _combination_keys(files_only) if overridden else set()
    messages = []
    for error in exc.errors():
        found = error.get("ctx", {}).get("error")
        if not isinstance(found, CombinationProblems):
            messages.append(_describe(label, error, Variant))
            continue
        for key, message, value in found.problems:
            parts = key.split(".")
            prefixes = {".".join(parts[:n]) for n in range(1, len(parts) + 1)}
            ours = prefixes & overridden or (overridden and key not in in_files)
            where = _OVERRIDES if ours else label
            messages.append(f"{where}: {key}: {message} (got {show_value(value)})")
    return messages


def check_variant_file(path: str | os.PathLike[str], *, allow_imports: bool = False) -> Variant:
    """Load one variant file (always as a path, never as a name), for `tichu check`."""
    return load_variant(Path(path), allow_imports=allow_imports)


def parse_overrides(assignments: Iterable[str]) -> dict[str, object]:
    """`["game.target=500", "exchange.targets=rank"]` -> overrides for `load_variant`.

    A value is read as TOML (`500`, `true`, `["DOG"]`); anything else is a string.
    """
    overrides: dict[str, object] = {}
    for assignment in assignments:
        key, sep, text = assignment.partition("=")
        if not sep or not key.strip():
            raise VariantError(f"overrides: {assignment!r}: expected KEY=VALUE")
        try:
            value: object = tomllib.loads(f"value = {text.strip()}")["value"]
        except tomllib.TOMLDecodeError:
            value = text.strip()
        except ValueError:
            # Valid TOML, but an integer of more digits than Python converts.
            digits = sum(char.isdigit() for char in text)
            problem = f"overrides: {key.strip()}: too large a number ({digits} digits)"
            raise VariantError(problem, [problem]) from None
        except RecursionError:  # tomllib reads nested arrays and inline tables by recursion
            problem = (
                f"overrides: {key.strip()}: nested too deeply to read (a variant's values "
                f"nest at most {MAX_NESTING} levels)"
            )
            raise VariantError(problem, [problem]) from None
        overrides[key.strip()] = value
    return overrides


def variant_schema() -> dict[str, Any]:
    """The JSON Schema of a variant file (`extends` included), from the models."""
    schema = VariantFile.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **schema,
        "title": "tichu variant file",
    }


def dump_schema_json() -> str:
    return json.dumps(variant_schema(), indent=2) + "\n"
