"""Tables depend only on (scenario, seed): not on threads, chunk size or backend."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.cells import build_cell
from simkit.rng import race_keys

from .helpers import assert_same_tables, part_files, run

SCENARIO = """
game = "dicerace"
seed = 11
races = 700
[grid]
players = [2, 4]
bonus = [false, true]
"""


def test_threads_and_chunk_sizes_give_identical_tables_and_bytes(tmp_path):
    a = run(tmp_path, "chunk_size = 700\n" + SCENARIO, "a", threads=1)
    b = run(tmp_path, "chunk_size = 256\n" + SCENARIO, "b", threads=2)
    run(tmp_path, "chunk_size = 256\n" + SCENARIO, "c", threads=1)
    assert len(a.races) == 700 * (2 + 2 + 4 + 4)
    assert_same_tables(a, b)
    assert b.manifest["chunks_total"] == 4 * 3 and len(b.manifest["chunks_done"]) == 12
    # the same chunks give the same files, byte for byte, whatever the threads
    files_b, files_c = part_files(tmp_path / "b"), part_files(tmp_path / "c")
    assert list(files_b) == list(files_c) and len(files_b) == 1 + 3 * 4 * 3
    assert files_b == files_c


def test_a_race_replays_alone_from_its_key(tmp_path):
    res = run(tmp_path, SCENARIO, "a")
    cell = build_cell("dicerace", players=4, overrides={"bonus": True}, cell_id=3)
    batch = cell_game().simulate(cell, race_keys(11, 0, np.array([5, 699])))
    rows = res.races[(res.races.cell == 3) & res.races.race.isin([5, 699])]
    for name in ("slot", "finish", "points", "sixes", "eliminated"):
        assert rows[name].to_numpy().tolist() == batch.seats[name].reshape(-1).tolist(), name
    assert rows["rounds"].to_numpy()[::4].tolist() == batch.races["rounds"].tolist()


def cell_game():
    from simkit.games import get

    return get("dicerace")


def test_common_random_numbers_pair_cells(tmp_path):
    crn = run(tmp_path, SCENARIO, "crn")
    own = run(tmp_path, "crn = false\n" + SCENARIO, "own")
    r = crn.races
    # cells 2 and 3 differ only in the bonus rule: the same start slots and (mostly) results
    assert (r[r.cell == 2].slot.to_numpy() == r[r.cell == 3].slot.to_numpy()).all()
    o = own.races
    assert (o[o.cell == 2].slot.to_numpy() != o[o.cell == 3].slot.to_numpy()).any()
    assert (crn.cells.cell_key == 0).all() and (own.cells.cell_key != 0).all()
    assert crn.cells.cell_key.dtype == np.uint64


def test_local_cluster_gives_identical_tables(tmp_path, monkeypatch):
    pytest.importorskip("dask.distributed")
    from pathlib import Path

    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", here)  # spawned workers import the test game from here
    text = "chunk_size = 200\n" + SCENARIO
    a = run(tmp_path, text, "a")
    b = run(tmp_path, text, "b", dask="local")
    assert_same_tables(a, b)
    assert part_files(tmp_path / "a") == part_files(tmp_path / "b")


@pytest.mark.slow
def test_existing_cluster_and_precision_target_match_local(tmp_path, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    from pathlib import Path

    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    text = (
        'game = "dicerace"\nseed = 3\nchunk_size = 100\n[grid]\nplayers = [2, 6]\n'
        "[precision]\nwidth = 0.1\nmax_races = 3000\n"
    )
    a = run(tmp_path, text, "a")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        b = run(tmp_path, text, "b", dask=cluster.scheduler_address)
    assert a.manifest["races_done"] == b.manifest["races_done"]
    assert part_files(tmp_path / "a") == part_files(tmp_path / "b")


def test_dask_missing_is_a_clear_error(monkeypatch):
    import sys

    from simkit.errors import RunError
    from simkit.runner.backends import DaskBackend

    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    with pytest.raises(RunError) as info:
        DaskBackend("local")
    assert str(info.value) == "--dask needs dask.distributed: install simkit[distributed]"


@pytest.mark.slow
def test_lost_worker_costs_only_its_chunks(tmp_path, monkeypatch):
    """SIGKILL a Dask worker mid-run: the scheduler reruns its chunks, tables are unchanged."""
    import os
    import signal
    import threading
    import time
    from pathlib import Path

    distributed = pytest.importorskip("dask.distributed")
    from simkit.results import load
    from simkit.runner import load_scenario, start

    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    text = (
        'game = "dicerace"\nseed = 9\nraces = 40000\nchunk_size = 2000\nplayers = 6\n'
        "[set]\nlength = 200\n"
    )
    ref = run(tmp_path, text, "ref")
    sc = load_scenario(tmp_path / "ref.toml")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cl,
        distributed.Client(cl) as client,
    ):
        errors = []

        def go():
            try:
                start(sc, tmp_path / "b", dask=cl.scheduler_address)
            except Exception as exc:  # reported below
                errors.append(exc)

        worker = threading.Thread(target=go)
        worker.start()
        while len(list((tmp_path / "b" / "agg").glob("part-*"))) < 2:
            time.sleep(0.05)
        pid = sorted(client.run(os.getpid).values())[0]
        os.kill(pid, signal.SIGKILL)
        at_kill = len(list((tmp_path / "b" / "agg").glob("part-*")))
        worker.join(timeout=300)
    assert not errors and at_kill < 20  # the worker died mid-run
    assert_same_tables(load(tmp_path / "b"), ref)
    assert part_files(tmp_path / "b") == part_files(tmp_path / "ref")


def test_bad_dask_address_is_a_clear_error(tmp_path):
    pytest.importorskip("dask.distributed")
    from simkit.errors import RunError
    from simkit.runner.backends import DaskBackend

    with pytest.raises(RunError) as info:
        DaskBackend("foo:bar")
    assert str(info.value).startswith("cannot reach the Dask scheduler at foo:bar (")
    assert str(info.value).endswith("); give the tcp://HOST:PORT of a Dask scheduler, or local")
