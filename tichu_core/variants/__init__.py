"""Variants: rule options as data, read from TOML files.

- `models`: the pydantic option models, `VariantFile` (one file) and `Variant`
  (the resolved variant the engine reads);
- `checks`: the cross-checks between options (players vs deck, pushes vs seats, ...),
  which read a variant through protocols (models imports checks, never the reverse);
- `loading`: finding bundled and registered files, `extends`, overrides, messages
  and the JSON Schema.

The public names of `models` (its `__all__`: the option models and the limits
MAX_PLAYERS ...) and `loading`'s three functions are re-exported here.
"""

from tichu_core.variants import models
from tichu_core.variants.loading import list_variants, load_variant, register_variant_path
from tichu_core.variants.models import *  # noqa: F403  (the names of its __all__)

__all__ = ["list_variants", "load_variant", "register_variant_path"]
__all__ += models.__all__
