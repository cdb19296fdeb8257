"""A plugin module a variant names by dotted path; tests/test_plugins.py checks that a
game refuses to import it without allow_imports (so importing it is an error)."""

raise RuntimeError("hook_never_imported was imported without allow_imports")
