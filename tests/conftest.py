"""Collection settings for the suite."""

import pytest

# tests/plugin_package is a house-rule author's own project (the walkthrough of
# docs/plugins.md). Its test needs the package installed: test_plugin_package.py
# installs it into a temporary folder and runs that test there, never here.
collect_ignore = ["plugin_package"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives the web page in Chromium (it asks for the `browser` fixture) is
    marked `browser`: the Makefile's second, plain-Python pass leaves those out."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
