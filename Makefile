# Two entry points a new user needs: `make run` and `make test`. Both build the venv on first use,
# from the versions pinned in constraints.txt (`make lock` moves them to the newest that install).
# Any of Python 3.11 to 3.13 does; the first found is used (or say `make PYTHON=python3.13 run`).
PYTHON ?= $(shell for p in python3.11 python3.12 python3.13; do command -v $$p >/dev/null && { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean lock

# the first run installs for one to three minutes: it says so, and pip shows its progress
$(STAMP): pyproject.toml constraints.txt
	@test -n "$(PYTHON)" || { echo "Quarterdeck needs Python 3.11, 3.12 or 3.13 on the PATH (python3.11, python3.12 or python3.13)."; exit 2; }
	@echo "Setting up Quarterdeck in $(VENV) with $(PYTHON): the first time takes one to three minutes."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --progress-bar on --upgrade pip
	@echo "Installing Quarterdeck and what it needs (discord.py, SQLAlchemy, matplotlib, shapely, ...):"
	$(BIN)/pip install --progress-bar on -c constraints.txt -e '.[dev]'
	touch $(STAMP)
	@echo "Set up: $(VENV) is ready."

run: $(STAMP)
	$(BIN)/python -m bot

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy game render bot cli web

pytest: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# the newest versions of everything that install, written to constraints.txt; then `make clean test`
lock:
	rm -rf .venv-lock
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/pip install --quiet --upgrade pip
	.venv-lock/bin/pip install --progress-bar on -e '.[dev]'
	.venv-lock/bin/pip freeze --exclude-editable | grep -v '^quarterdeck' > constraints.txt
	rm -rf .venv-lock
	@echo "constraints.txt now pins the newest versions; run make clean test before committing it."

clean:
	rm -rf $(VENV)
