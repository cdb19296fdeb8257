"""The web table: `tichu serve` (docs/web.md)."""
