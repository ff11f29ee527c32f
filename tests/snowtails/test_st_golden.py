"""Golden whole races and CLI outputs, checked in under tests/golden/snowtails/.

After an intended rule change: ``make golden`` (or
``.venv/bin/python -m simkit.games.snowtails.golden``), review the diff, commit it.
"""

from __future__ import annotations

import json

import pytest

from simkit.games.snowtails.golden import CASES, CLI_CASES, GOLDEN, cli_output, trace_case


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_golden_trace(case):
    stem, track, bots, seed, race = case
    want = json.loads((GOLDEN / f"{stem}.json").read_text())
    got = json.loads(json.dumps(trace_case(track, bots, seed, race)))
    assert got["result"] == want["result"]
    assert got == want


@pytest.mark.parametrize("case", CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_golden_cli_output(case):
    name, args = case
    assert cli_output(args) == (GOLDEN / name).read_text()
