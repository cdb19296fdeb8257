"""Variants: rule options as data, read from TOML files.

- `models`: the pydantic option models, `VariantFile` (one file) and `Variant`
  (the resolved variant the engine reads);
- `checks`: the cross-checks between options (players vs deck, pushes vs seats, ...),
  which read a variant through protocols (models imports checks, never the reverse);
- `loading`: finding bundled and registered files, `extends`, overrides, messages
  and the JSON Schema.

The public names are re-exported here.
"""

from tichu_core.variants.loading import list_variants, load_variant, register_variant_path
from tichu_core.variants.models import (
    BombOptions,
    CallOptions,
    DealOptions,
    DeckOptions,
    DogOptions,
    DragonOptions,
    ExchangeOptions,
    GameOptions,
    ScoringOptions,
    SeatingOptions,
    TeamOptions,
    TrickOptions,
    Variant,
    VariantFile,
    WishOptions,
)

__all__ = [
    "BombOptions",
    "CallOptions",
    "DealOptions",
    "DeckOptions",
    "DogOptions",
    "DragonOptions",
    "ExchangeOptions",
    "GameOptions",
    "ScoringOptions",
    "SeatingOptions",
    "TeamOptions",
    "TrickOptions",
    "Variant",
    "VariantFile",
    "WishOptions",
    "list_variants",
    "load_variant",
    "register_variant_path",
]
