"""Collection settings for the suite."""

# tests/plugin_package is a house-rule author's own project (the walkthrough of
# docs/plugins.md). Its test needs the package installed: test_plugin_package.py
# installs it into a temporary folder and runs that test there, never here.
collect_ignore = ["plugin_package"]
