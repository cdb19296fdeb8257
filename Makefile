# Quick start: `make demo` and `make test`. Both build .venv from pyproject.toml
# when it is missing or older than pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tichu demo

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check tichu_core plugins tests
	$(BIN)/ruff format --check tichu_core plugins tests

typecheck: $(STAMP)
	$(BIN)/mypy --strict tichu_core

unit: $(STAMP)
	$(BIN)/tichu check variants/*.toml
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/tichu bench

clean:
	rm -rf $(VENV) build *.egg-info
