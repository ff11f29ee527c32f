"""Settings every test shares: the hypothesis profiles, and numba's compile time per test.

``fast`` (the default, what ``make test`` and CI run) keeps every property test to a few
seconds; ``thorough`` searches much deeper, for a change to rules, tracks or readers:

    SIMKIT_HYPOTHESIS=thorough .venv/bin/python -m pytest tests/tracks

Tests set no example counts of their own, so one switch deepens them all.

Under pytest-xdist (``make test``: ``-n auto``) every worker is a process of its own, and
numba compiles per process into its on-disk cache: a kernel one worker compiled, the other
worker and the tests' ``simkit`` subprocesses load. Nothing compiles ahead of the workers:
filling the cache on the controller first (every game's entry kernels, one process per
engine) cost 81 s of CPU and 45-80 s of wall before the first test and took 33 s of compile
off the workers, since the tests compile other specialisations than a run does (the
``kernels.py`` doors, the searches). Each test process lists the compile CPU per test.
"""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, settings

# -- one Snow Tails family specialisation for the whole suite ----------------------------
# A run compiles the kernels' specialisation its bots need (``choose.search_flag`` and
# ``guided_flag``: greedy cells without the search, model-free searches without the policy
# and the values). The suite plays every kind of bot in every worker and in its ``simkit``
# subprocesses, which would compile all three in many processes; with SIMKIT_ONE_KERNEL
# (set here, before simkit is imported, and inherited by the subprocesses) every process
# plays the one with everything, and finds it in numba's cache once one has compiled it.
# The pruned ones are tested to play the same races (tests/snowtails/test_st_bots.py).
os.environ["SIMKIT_ONE_KERNEL"] = "1"

import simkit.games  # noqa: F401  the games tell the tracks library where their tracks are

_COMMON = {
    "deadline": None,  # kernels compile on first use: a first example may take a minute
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}
settings.register_profile("fast", max_examples=30, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile(os.environ.get("SIMKIT_HYPOTHESIS", "fast"))


# -- numba compile seconds per test -------------------------------------------------------
# Every test process records the CPU seconds numba spends compiling (its outermost compiles,
# which hold the ones nested in them) during each test's setup and call; the controller
# lists the tests that compiled most at the end. Compiles in a test's `simkit` subprocesses
# are not counted (they compile only what no process has put in the cache yet).
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
