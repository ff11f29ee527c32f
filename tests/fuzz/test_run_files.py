"""Any file of a finished run, damaged any way: ``simkit.load`` names it, and ``--resume``
gives back the exact tables (a damaged manifest is refused instead: nothing can vouch for
the run any more)."""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simkit.errors import RunError
from simkit.results import load
from simkit.runner import load_scenario, start
from tests.fuzz.kit import mutated, one_line_or_success
from tests.runner.helpers import part_files


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    base = tmp_path_factory.mktemp("run")
    (base / "s.toml").write_text(
        'game = "dicerace"\nraces = 90\nchunk_size = 40\nseed = 4\n[grid]\nplayers = [2, 4]\n'
    )
    start(load_scenario(base / "s.toml"), base / "run")
    # The files the manifest vouches for (the input copies and the lock are checked by
    # resume and replay: tests/runner/test_inputs.py)
    names = sorted(
        str(p.relative_to(base / "run"))
        for p in (base / "run").rglob("*.*")
        if p.parent.name != "inputs" and p.name != ".simkit-lock"
    )
    return base / "run", names, part_files(base / "run")


def _same_json(a: bytes, b: bytes) -> bool:
    try:
        return json.loads(a) == json.loads(b)
    except ValueError:
        return False


@given(data=st.data())
def test_a_damaged_run_file_is_named_then_repaired(tmp_path_factory, finished, data):
    run, names, reference = finished
    out = tmp_path_factory.mktemp("d") / "run"
    shutil.copytree(run, out)
    name = data.draw(st.sampled_from(names), label="file")
    original = (out / name).read_bytes()
    damaged = data.draw(st.one_of(st.just(b""), mutated([original])), label="bytes")
    (out / name).write_bytes(damaged)
    if damaged == original or (name == "manifest.json" and _same_json(damaged, original)):
        assert len(load(out).races) == 90 * 6  # unchanged, or only its layout changed
        return
    with pytest.raises(RunError) as info:
        load(out)
    assert f"'{out / name}'" in str(info.value)
    err = one_line_or_success(["run", "--resume", str(out)])
    if name == "manifest.json":
        assert f"'{out / name}'" in err  # refused: start the run again with --force
        return
    assert f"{out / name} was damaged or missing" in err
    assert part_files(out) == reference
