"""Settings every test shares: the hypothesis profiles, and numba's cache filled once.

``fast`` (the default, what ``make test`` and CI run) keeps every property test to a few
seconds; ``thorough`` searches much deeper, for a change to rules, tracks or readers:

    SIMKIT_HYPOTHESIS=thorough .venv/bin/python -m pytest tests/tracks

Tests set no example counts of their own, so one switch deepens them all.

Under pytest-xdist (``make test``: ``-n auto``) every worker is a process of its own, and
numba compiles per process: each worker compiled the kernels its files use, the same ones
twice on two cores, and end-to-end tests' ``simkit`` subprocesses compiled them again
when no worker had cached them yet. So before the workers start, the controller compiles
every game's entry kernels into numba's on-disk cache (``warm_numba_cache``: a game's
simulate and trace with its bench cell's bots and with its reference bot, one process per
engine, as many at once as there are workers); workers and subprocesses then load them.
``SIMKIT_WARM=0`` leaves it out.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import simkit.games  # noqa: F401  the games tell the tracks library where their tracks are

_COMMON = {
    "deadline": None,  # kernels compile on first use: a first example may take a minute
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}
settings.register_profile("fast", max_examples=30, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile(os.environ.get("SIMKIT_HYPOTHESIS", "fast"))


_ROOT = Path(__file__).resolve().parent.parent
# Run in a fresh interpreter per engine: the games named on the command line, in order
# (games on one engine share its kernels, so they share a process and compile them once).
_WARM = """
import json, sys
from pathlib import Path
import numpy as np
from simkit.errors import SimkitError
from simkit.games import get
from simkit.games.cells import build_cell
from simkit.rng import race_keys
keys = race_keys(1, 0, np.arange(2))
for name in sys.argv[1:]:
    game = get(name)
    args = dict(game.bench.cell) if game.bench else {}
    bots = [args.pop("bots", None)] + ([game.reference_bot] if game.reference_bot else [])
    for bot in bots:
        cell = build_cell(name, **args, **({"bots": bot} if bot else {}))
        game.simulate(cell, keys, threads=1)
        try:
            game.trace(cell, int(keys[0]))
        except SimkitError:
            pass  # a game without traces
    state = Path("docs/examples") / f"state-{name}.json"  # the doors `simkit moves` steps
    if state.exists():
        game.moves(json.loads(state.read_text()))
"""


def _engines() -> list[list[str]]:
    """Game names grouped by the kernels they compile, the largest group first."""
    from simkit.games import games

    groups: dict[tuple, list[str]] = {}
    for game in games():
        groups.setdefault(tuple(sorted(game.kernels.items())), []).append(game.name)
    return sorted(groups.values(), key=len, reverse=True)


def warm_numba_cache(processes: int) -> float:
    """Compile every game's entry kernels into numba's cache, ``processes`` engines at
    once; returns the wall seconds it took. A failure here is left to the tests to show."""
    start = time.perf_counter()

    def warm(names: list[str]) -> None:
        subprocess.run(
            [sys.executable, "-c", _WARM, *names], cwd=_ROOT, capture_output=True, check=False
        )

    with ThreadPoolExecutor(max(1, processes)) as pool:
        list(pool.map(warm, _engines()))
    return time.perf_counter() - start


def pytest_configure(config) -> None:
    """On xdist's controller, before its workers start: fill numba's cache once."""
    workers = getattr(config.option, "numprocesses", None) or 0
    if (
        workers > 1
        and not hasattr(config, "workerinput")
        and not config.option.collectonly
        and os.environ.get("SIMKIT_WARM", "1") != "0"
    ):
        seconds = warm_numba_cache(workers)
        config._simkit_warm = seconds  # reported in the header


def pytest_report_header(config) -> str | None:
    seconds = getattr(config, "_simkit_warm", None)
    if seconds is None:
        return None
    return f"numba cache filled before the workers started: {seconds:.1f} s"


# -- numba compile seconds per test -------------------------------------------------------
# Every test process records the CPU seconds numba spends compiling (its outermost compiles,
# which hold the ones nested in them) during each test's setup and call; the controller
# lists the tests that compiled most at the end. Compiles in a test's `simkit` subprocesses
# are not counted (they load what the cache holds).
_COMPILING = {"depth": 0, "start": 0.0, "seconds": 0.0}


def _listen_to_compiles() -> None:
    import numba.core.event as ev

    class Compiles(ev.Listener):
        def on_start(self, event) -> None:
            if _COMPILING["depth"] == 0:
                _COMPILING["start"] = time.process_time()
            _COMPILING["depth"] += 1

        def on_end(self, event) -> None:
            _COMPILING["depth"] -= 1
            if _COMPILING["depth"] == 0:
                _COMPILING["seconds"] += time.process_time() - _COMPILING["start"]

    ev.register("numba:compile", Compiles())


_listen_to_compiles()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    item._simkit_compiled = _COMPILING["seconds"]
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    if call.when == "teardown":  # the last report: it carries the test's whole figure
        spent = _COMPILING["seconds"] - getattr(item, "_simkit_compiled", _COMPILING["seconds"])
        if spent > 0:
            item.user_properties.append(("numba_compile_seconds", spent))
    yield


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    spent: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for r in reports:
            for name, value in getattr(r, "user_properties", ()):
                if name == "numba_compile_seconds" and getattr(r, "when", None) == "teardown":
                    spent[r.nodeid] = spent.get(r.nodeid, 0.0) + value
    if not spent:
        return
    tr = terminalreporter
    tr.write_sep("=", f"numba compiled for {sum(spent.values()):.1f} s of CPU in the tests")
    for nodeid, seconds in sorted(spent.items(), key=lambda kv: -kv[1])[:15]:
        tr.write_line(f"{seconds:7.1f} s  {nodeid}")
