"""The bundled variant files (package data: tichu_core.variants.bundled)."""
