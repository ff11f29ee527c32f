"""Golden whole races and CLI outputs, checked in under tests/golden/snowtails/.

After an intended rule change: ``make golden``, review the diff, commit it.
"""

from __future__ import annotations

import json

import pytest

from tests.golden.kit import ROOT, CliCase, TraceCase

DIR = ROOT / "tests" / "golden" / "snowtails"
STATE_EXAMPLE = ROOT / "docs" / "examples" / "state-snowtails.json"
MIXED = ("greedy", "random", "greedy:bold", "greedy:cautious", "random")

TRACES = [
    TraceCase(DIR / "nutcracker-4-greedy-s7.json", "snowtails", "nutcracker", ("greedy",) * 4, 7),
    TraceCase(DIR / "nutcracker-5-mixed-s1.json", "snowtails", "nutcracker", MIXED, 1, race=3),
    TraceCase(
        DIR / "hairpins-3-mixed-s2.json",
        "snowtails",
        "hairpins",
        ("greedy:bold", "greedy", "random"),
        2,
        race=5,
    ),
]
CLI = [
    CliCase(DIR / "race-seed7.txt", ("race", "snowtails", "--seed", "7")),
    CliCase(DIR / "moves-example.txt", ("moves", str(STATE_EXAMPLE))),
]
GOLDEN = [*TRACES, *CLI]


@pytest.mark.parametrize("case", TRACES, ids=[c.id for c in TRACES])
def test_golden_trace(case):
    want = json.loads(case.read())
    got = json.loads(case.render())
    assert got["result"] == want["result"]
    assert got == want


@pytest.mark.parametrize("case", CLI, ids=[c.id for c in CLI])
def test_golden_cli_output(case):
    assert case.render() == case.read()
