# simkit: every target sets up .venv/ first, so a fresh clone needs only `make demo` or `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# numba's on-disk cache, kept in the project so `make clean` can drop it.
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache

.PHONY: setup demo serve test test-all fuzz attacks planted lint format bench profile reports clean golden

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

serve: setup  ## the live what-if page for the demo study (docs/serve.md): prints its URL on 127.0.0.1
	$(BIN)/simkit serve $(SERVE_OPTS)

# -n auto: one pytest worker per core (numba compiles per process, so the two workers of a
# 2-core machine each compile what their files use); --dist loadfile keeps a file's tests,
# and its module fixtures, in one worker.
test: setup  ## the fast selection CI runs (slow tests excluded), on every core
	$(BIN)/python -m pytest -n auto --dist loadfile

test-all: setup  ## every test, slow ones included
	$(BIN)/python -m pytest -n auto --dist loadfile -m ''

fuzz: setup  ## the readers and the run's files, 1,000 generated inputs each (a few minutes)
	SIMKIT_HYPOTHESIS=thorough $(BIN)/python -m pytest tests/fuzz tests/runner/test_integrity.py

attacks: setup  ## the whole attack table (bench/attacks.toml), its outcomes written into docs/reliability.md (about 15 minutes here); `make test` plays its fast cases
	$(BIN)/python -m bench.attacks --docs docs/reliability.md

planted: setup  ## simkit why's planted-flaw benchmark (bench/planted.toml), its table written into bench/planted-results.csv and docs/diagnosis.md (about 15 minutes here); make test checks its construction
	$(BIN)/python -m bench.planted --threads 1 --out bench/planted-results.csv --docs docs/diagnosis.md

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: setup  ## throughput on this machine, and the ratio against NUMBA_DISABLE_JIT=1
	$(BIN)/python -m bench

profile: setup  ## perf samples by jitted function and the reference-count share: make profile GAME=mush RACES=20000 [CELL='{"bots": "search:8"}']
	$(BIN)/python -m bench.perf $(or $(GAME),snowtails) $(or $(RACES),20000) '$(or $(CELL),{})'

golden: setup  ## regenerate golden traces after an intended rule change (review the diff)
	$(BIN)/python -m tests.golden.regenerate

# The ready-made studies (docs/studies.md), one at a time: scenarios/<study>.toml runs into
# runs/<study> and its report goes to reports/<study>. STUDY_OPTS goes to `simkit run`, e.g.
# make reports STUDY_OPTS="--races 500 --threads 1" for a quick look.
STUDIES := fairness track-library extra-cards bonus safety-speeds compensation \
	mushroomwalk-first-player mushroomwalk-vs-morels mush-training mush-strategies \
	mush-short-games mushmush-fairness mushmush-tracks mushmush-buildings mushmush-trees \
	mushmush-st1-vs-st2 mushmush-compensation mushmush-tournament
STUDY_OPTS ?=
# The tuning studies (docs/studies.md "Tuning studies"): scenarios/tune-<x>.toml searched
# over scenarios/<x>-space.toml, whose [search] table sets the budget, into runs/tune-<x>;
# the report goes to reports/tune-<x>. TUNE_OPTS goes to `simkit tune`, e.g.
# make reports TUNE_OPTS="--threads 1".
TUNINGS := tune-extra-cards tune-extra-cards-greedy tune-extra-cards-strong tune-bonus-dice tune-s-bends
TUNE_OPTS ?=

reports: setup  ## every study in scenarios/ but demo (about an hour here: the search levels and their level checks), then the tuning studies (~13 min): reports/<study>/, reports/index.html
	@set -e; for s in $(STUDIES); do \
	  echo "== $$s"; \
	  $(BIN)/simkit run scenarios/$$s.toml --out runs/$$s --force $(STUDY_OPTS); \
	  $(BIN)/simkit report runs/$$s -o reports/$$s; \
	done
	@set -e; for s in $(TUNINGS); do \
	  echo "== $$s"; \
	  $(BIN)/simkit tune scenarios/$$s.toml --space scenarios/$${s#tune-}-space.toml \
	    --out runs/$$s --force --report reports/$$s $(TUNE_OPTS); \
	done
	$(BIN)/python -m simkit.report.index reports

clean:
	rm -rf .numba_cache .pytest_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -not -path './.venv/*' -exec rm -rf {} +
