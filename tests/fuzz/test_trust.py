"""The trust model (docs/reliability.md): a file swapped for another run's, its sha256 and the
manifest's checksum rewritten, passes every checksum; the races-against-aggregates
cross-check still refuses it."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from simkit.errors import RunError
from simkit.results import load
from simkit.runner import load_scenario, start
from simkit.runner.manifest import seal

SCENARIO = 'game = "dicerace"\nraces = 60\nchunk_size = 30\n[grid]\nplayers = [2, 3]\n'


def test_a_races_file_from_another_run_is_refused(tmp_path):
    (tmp_path / "s.toml").write_text(SCENARIO)
    sc = load_scenario(tmp_path / "s.toml")
    start(sc, tmp_path / "a")
    start(sc.with_overrides(seed=7), tmp_path / "b")
    name = "races/part-00000-000001.parquet"
    shutil.copy(tmp_path / "b" / name, tmp_path / "a" / name)
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    data = (tmp_path / "a" / name).read_bytes()
    manifest["files"][name].update(sha256=hashlib.sha256(data).hexdigest(), bytes=len(data))
    (tmp_path / "a" / "manifest.json").write_bytes(seal(manifest))
    with pytest.raises(RunError, match="its per-race rows and its aggregates count different"):
        load(tmp_path / "a")
