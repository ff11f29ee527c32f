"""Settings every test shares: the hypothesis profiles.

``fast`` (the default, what ``make test`` and CI run) keeps every property test to a few
seconds; ``thorough`` searches much deeper, for a change to rules, tracks or readers:

    SIMKIT_HYPOTHESIS=thorough .venv/bin/python -m pytest tests/tracks

Tests set no example counts of their own, so one switch deepens them all.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

import simkit.games  # noqa: F401  the games tell the tracks library where their tracks are

_COMMON = {
    "deadline": None,  # kernels compile on first use: a first example may take a minute
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}
settings.register_profile("fast", max_examples=30, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile(os.environ.get("SIMKIT_HYPOTHESIS", "fast"))
