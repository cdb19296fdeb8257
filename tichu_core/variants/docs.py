"""The option tables of docs/variants.md, generated from the variant models.

Each option of :class:`tichu_core.variants.models.VariantFile` is one row: its dotted
key, its type and bounds (from the annotation), its default, the docs/rules.md ids that open
its description and the rest of the description. docs/variants.md holds the tables
between two marker comments; a test regenerates them and compares.

``python -m tichu_core.variants.docs`` prints the tables;
``python -m tichu_core.variants.docs docs/variants.md`` rewrites them in that file.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path
from types import NoneType, UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from annotated_types import Ge, Le
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from tichu_core.variants.models import CardCode, OrderEntry, PlayerCountKey, PluginName, VariantFile

__all__ = ["BEGIN", "END", "main", "option_tables", "with_option_tables"]

REFRESH = "python -m tichu_core.variants.docs docs/variants.md"
BEGIN = f"<!-- option tables: generated from tichu_core.variants.models by `{REFRESH}` -->"
END = "<!-- end of the generated option tables -->"

# Field types whose annotation says less than their validator: (singular, plural).
_NAMED: list[tuple[Any, tuple[str, str]]] = [
    (CardCode, ("card code", "card codes")),
    (OrderEntry, ("special card code or rank", "special card codes and ranks")),
    (PluginName, ("plugin name or dotted module path", "plugin names or dotted module paths")),
]
_RULE_ID = r"[A-Z][A-Z0-9]*(?:-[A-Z0-9*]+)+"
_RULES_PREFIX = re.compile(rf"({_RULE_ID}(?:, {_RULE_ID})*)( \([^)]*\))?: (.*)", re.DOTALL)


def _bounds(metadata: Sequence[Any]) -> str:
    low = high = None
    for item in metadata:
        if isinstance(item, FieldInfo):
            nested = _bounds(item.metadata)
            if nested:
                return nested
        elif isinstance(item, Ge):
            low = item.ge
        elif isinstance(item, Le):
            high = item.le
    if low is not None and high is not None:
        return f" {low}..{high}"
    if low is not None:
        return f" ≥ {low}"
    return ""


def describe_type(annotation: Any, metadata: Sequence[Any] = (), plural: bool = False) -> str:
    """A field type in words: ``int 1..2``, ``array of card codes``, ``"a" \\| "b"``."""
    for named, (one, many) in _NAMED:
        if annotation == named:
            return many if plural else one
    origin = get_origin(annotation)
    arguments = get_args(annotation)
    if origin is Annotated:
        return describe_type(arguments[0], [*arguments[1:], *metadata], plural)
    if origin in (Union, UnionType):
        (present,) = [argument for argument in arguments if argument is not NoneType]
        return describe_type(present, metadata, plural)
    if origin is Literal:
        return " \\| ".join(f'`"{value}"`' for value in arguments)
    if origin is tuple:
        return f"array of {describe_type(arguments[0], plural=True)}"
    if origin is dict:
        key = "player count" if arguments[0] == PlayerCountKey else describe_type(arguments[0])
        return f"table: {key} → {describe_type(arguments[1])}"
    if annotation is bool:
        return "bool"
    if annotation is int:
        return "int" + _bounds(metadata)
    if annotation is str:
        return "str"
    raise TypeError(f"no words for the option type {annotation!r}")


def toml_value(value: Any) -> str:
    """A default as it is written in a TOML file."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items()) + "}"
    raise TypeError(f"no TOML for the default {value!r}")


def _default(field: FieldInfo) -> str:
    value = field.get_default(call_default_factory=True)
    shown = toml_value(value)
    return shown if value is None else f"`{shown}`"


def _rules_and_meaning(description: str) -> tuple[str, str]:
    """The docs/rules.md ids that open a description (with a note in brackets), and the rest."""
    found = _RULES_PREFIX.fullmatch(description)
    if found is None:
        return "", description
    rules, note, meaning = found.groups()
    return rules + (note or ""), meaning[:1].upper() + meaning[1:]


def _sentence(text: str) -> str:
    return text if text.endswith(".") else f"{text}."


def _row(key: str, field: FieldInfo) -> str:
    rules, meaning = _rules_and_meaning(" ".join((field.description or "").split()))
    kind = describe_type(field.annotation, field.metadata)
    cells = [f"`{key}`", kind, _default(field), rules, _sentence(meaning).replace("|", "\\|")]
    return "| " + " | ".join(cells) + " |"


def _table(rows: list[str]) -> list[str]:
    return ["| Key | Type | Default | Rules | Meaning |", "|---|---|---|---|---|", *rows]


def _is_section(field: FieldInfo) -> bool:
    return isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel)


def option_tables() -> str:
    """The Markdown of every option of a variant file: the top-level keys, then one
    table per section (``[deck]``, ``[deal]``, …) in the order of the model."""
    fields = VariantFile.model_fields
    lines = ["### Top level", ""]
    lines += _table([_row(key, field) for key, field in fields.items() if not _is_section(field)])
    for section, field in fields.items():
        if not _is_section(field):
            continue
        model = field.annotation
        assert isinstance(model, type) and issubclass(model, BaseModel)
        summary = (model.__doc__ or "").strip().split(": ", 1)[-1]
        lines += ["", f"### [{section}]", "", summary[:1].upper() + summary[1:], ""]
        lines += _table([_row(f"{section}.{key}", sub) for key, sub in model.model_fields.items()])
    return "\n".join(lines) + "\n"


def with_option_tables(text: str) -> str:
    """``text`` (docs/variants.md) with the part between the markers regenerated."""
    start, end = text.find(BEGIN), text.find(END)
    if start == -1 or end < start:
        raise ValueError(f"the markers {BEGIN!r} and {END!r} are missing")
    return text[: start + len(BEGIN)] + "\n\n" + option_tables() + "\n" + text[end:]


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments:
        print(option_tables(), end="")
        return 0
    for name in arguments:
        path = Path(name)
        text = path.read_text(encoding="utf-8")
        fresh = with_option_tables(text)
        if fresh != text:
            path.write_text(fresh, encoding="utf-8")
        print(f"{path}: {'rewritten' if fresh != text else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
