"""The attack table (bench/attacks.toml): its fast cases play in every ``make test`` (the whole
table is ``make attacks``), and the table is well formed: every step and check it names
exists, it covers the categories issue 37 found untried, and docs/reliability.md shows the
outcome of every case it holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench import attacks
from bench import attacks_steps as steps

CASES = attacks.load()
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The folder the cases play in."""
    return tmp_path_factory.mktemp("attacks")


@pytest.mark.parametrize("case", [c for c in CASES if c.fast], ids=lambda c: c.name)
def test_a_fast_case_ends_as_expected(base, case):
    row = attacks.play(case, base / re.sub(r"\W+", "-", case.name), base)
    assert (row.outcome, row.ok) == (case.expect, True), row.note


def test_every_step_and_check_named_exists_and_every_case_is_unique():
    names = [c.name for c in CASES]
    assert len(set(names)) == len(names)
    for c in CASES:
        assert c.expect in ("refused", "done"), c.name
        assert bool(c.run) + bool(c.shell) == 1, c.name
        for name, *_ in c.setup:
            assert name in steps.STEPS, f"{c.name}: no step {name}"
        for name, *_ in c.check:
            assert name in steps.CHECKS, f"{c.name}: no check {name}"
        assert c.server in (None, "speaks", "silent", "closes", "http"), c.name


def test_the_table_covers_what_issue_37_found_untried():
    cats = {c.category for c in CASES}
    for cat in ("links", "signals", "efbig", "code", "bots tune", "routes", "dask", "state"):
        assert cat in cats
    signals = {c.signal for c in CASES if c.signal}
    assert signals == {"INT", "TERM", "HUP"}
    assert any(c.fast for c in CASES if c.category == "links")


def test_every_server_is_on_this_machine():
    for c in CASES:
        for word in (*c.run, c.shell or ""):
            for host in re.findall(r"tcp://([^:/\s]+)", word):
                assert host == "127.0.0.1", f"{c.name}: {host}"


def test_the_docs_show_every_case():
    text = (ROOT / "docs" / "reliability.md").read_text()
    table = text.partition(attacks.BEGIN)[2].partition(attacks.END)[0]
    rows = [re.split(r"(?<!\\)\|", line.strip())[1:-1] for line in table.splitlines()]
    shown = {cells[1].strip() for cells in rows if len(cells) == 6}
    missing = [c.name for c in CASES if c.name.replace("|", "\\|") not in shown]
    assert not missing, f"run `make attacks` (missing: {missing[:3]})"
