# Two entry points a new user needs: `make run` and `make test`. Both build the venv on first use.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean

# the first run installs for one to three minutes: it says so, and pip shows its progress
$(STAMP): pyproject.toml
	@echo "Setting up Quarterdeck in $(VENV) with $(PYTHON): the first time takes one to three minutes."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --progress-bar on --upgrade pip
	@echo "Installing Quarterdeck and what it needs (discord.py, SQLAlchemy, matplotlib, shapely, ...):"
	$(BIN)/pip install --progress-bar on -e '.[dev]'
	touch $(STAMP)
	@echo "Set up: $(VENV) is ready."

run: $(STAMP)
	$(BIN)/python -m bot

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy game render bot cli

pytest: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV)
