# simkit: every target sets up .venv/ first, so a fresh clone needs only `make demo` or `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# numba's on-disk cache, kept in the project so `make clean` can drop it.
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache

.PHONY: setup demo test test-all lint format bench reports clean golden

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,distributed]'
	touch $(STAMP)

demo: setup  ## the default study end to end: tables in runs/demo, report in runs/demo/report
	$(BIN)/simkit tracks show --all -o reports/tracks
	$(BIN)/simkit run scenarios/demo.toml --out runs/demo --force
	$(BIN)/simkit report runs/demo -o runs/demo/report
	@echo "tables: runs/demo   report: runs/demo/report/index.html   track pictures: reports/tracks/"

test: setup  ## the fast selection CI runs (slow tests excluded)
	$(BIN)/python -m pytest

test-all: setup  ## every test, slow ones included
	$(BIN)/python -m pytest -m ''

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: setup  ## throughput on this machine, and the ratio against NUMBA_DISABLE_JIT=1
	$(BIN)/python -m bench

golden: setup  ## regenerate golden traces after an intended rule change (review the diff)
	$(BIN)/python -m simkit.games.snowtails.golden

clean:
	rm -rf .numba_cache .pytest_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -not -path './.venv/*' -exec rm -rf {} +
