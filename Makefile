# Quick start: `make demo` and `make test`. Both build .venv from pyproject.toml
# when it is missing or older than pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench side-by-side clean venv

venv: $(STAMP)

# Two installs: the core alone for `make demo` (pluggy, pydantic, rich: what the demo
# plays and prints with), and the core with every extra for `make test` (dev tools, Ray,
# matplotlib, PettingZoo, the web server and Playwright). The editable install compiles
# the hot modules (setup.py, mypyc; the list is in tichu_core/builds.py): editing them
# reinstalls, so the compiled build never lags behind its source.
CORE_STAMP := $(VENV)/.core-installed
COMPILED_MODULES := tichu_core/builds.py $(shell sed -n 's/^    "\(tichu_core\/[^"]*\.py\)",$$/\1/p' tichu_core/builds.py)

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(CORE_STAMP): pyproject.toml setup.py $(COMPILED_MODULES) | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $(CORE_STAMP)

$(STAMP): pyproject.toml setup.py $(COMPILED_MODULES) | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,plots,rl,web]'
	@touch $(STAMP) $(CORE_STAMP)

demo: $(CORE_STAMP)
	$(BIN)/tichu demo

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check tichu_core plugins tests benchmarks
	$(BIN)/ruff format --check tichu_core plugins tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict tichu_core
	# The measuring scripts of docs/ too, so that none rots unseen (their own run).
	$(BIN)/mypy --strict benchmarks

unit: $(STAMP)
	$(BIN)/tichu check variants/*.toml
	@$(BIN)/python -c 'import tichu_core.builds as b; print("hot modules:", "compiled (mypyc)" if b.is_compiled() else "plain Python")'
	$(BIN)/python -m pytest -q
	# The same tests on the plain-Python hot modules (a machine without a C compiler),
	# but those that drive the web page in Chromium: they check the page, which is the
	# same on both builds, and take minutes; the engine under the server is checked on
	# both builds by the web tests without a browser and by every other test.
	TICHU_PURE_PYTHON=1 $(BIN)/python -m pytest -q -m "not browser"

bench: $(STAMP)
	$(BIN)/tichu bench

# Our speed beside frohlfing/tichu at 83e71b0 (docs/performance.md): PEER is a
# checkout of it (default $$TICHU_PEER); its two dependencies go into the venv only.
PEER ?= $(TICHU_PEER)
side-by-side: $(STAMP)
	$(BIN)/python -m pip install --quiet aiohttp python-dotenv
	$(BIN)/python benchmarks/side_by_side.py $(if $(PEER),--peer "$(PEER)") $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info
	find tichu_core -name '*.so' -delete
