"""Nothing on disk is trusted unverified (issue 16): a damaged or missing file of a run is
named by ``simkit.load`` and ``simkit report`` and simulated again by ``--resume``; a
manifest edited by hand is refused; a full disk or a read-only folder is one line, leaves
no temporary file, and the run resumes once the cause is fixed."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.errors import RunError
from simkit.results import load
from simkit.runner import load_scenario, start, storage
from simkit.runner.manifest import checksum

from .helpers import part_files, write

SCENARIO = """
game = "dicerace"
seed = 5
races = 500
chunk_size = 200
[grid]
players = [2, 3]
"""
FILES = (
    "cells.parquet",
    "races/part-00000-000001.parquet",
    "heat/part-00001-000000.parquet",
    "agg/part-00001-000002.parquet",
)
DAMAGE = {
    "missing": None,
    "emptied": lambda b: b"",
    "truncated": lambda b: b[: len(b) // 2],
    "one byte flipped": lambda b: b[:60] + bytes([b[60] ^ 0x01]) + b[61:],
    "garbage of the same size": lambda b: bytes((i * 7 + 3) % 256 for i in range(len(b))),
}


def _cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _one_error_line(res) -> str:
    """The one ``Error:`` line a failed command ends with (progress lines may come before)."""
    assert res.exit_code == 1, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    errors = [line for line in res.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and res.stderr.endswith(errors[0] + "\n"), res.stderr
    return errors[0]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished run and its files (the reference every repair must give back)."""
    base = tmp_path_factory.mktemp("finished")
    start(load_scenario(write(base, SCENARIO)), base / "run")
    return base / "run", part_files(base / "run")


def _copy(finished, tmp_path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(finished[0], out)
    return out


@pytest.mark.parametrize("damage", DAMAGE)
@pytest.mark.parametrize("name", FILES)
def test_a_damaged_file_is_named_and_resume_repairs_it(finished, tmp_path, name, damage):
    out = _copy(finished, tmp_path)
    path = out / name
    if DAMAGE[damage] is None:
        path.unlink()
    else:
        path.write_bytes(DAMAGE[damage](path.read_bytes()))
    with pytest.raises(RunError, match="is damaged or missing") as info:
        load(out)
    assert str(path) in str(info.value)
    line = _one_error_line(_cli("report", out, "-o", tmp_path / "report"))
    assert f"'{path}' is damaged or missing" in line and f"simkit run --resume {out}" in line
    res = _cli("run", "--resume", out)
    assert res.exit_code == 0, res.output
    assert f"{path} was damaged or missing" in res.stderr
    assert part_files(out) == finished[1]
    assert len(load(out).races) == 500 * 2 + 500 * 3


def test_files_the_manifest_does_not_list_are_never_read(finished, tmp_path):
    out = _copy(finished, tmp_path)
    planted = out / "races" / "part-00000-000009.parquet"
    shutil.copy(out / "races" / "part-00000-000000.parquet", planted)
    (out / "agg" / ".part-00000-000001.parquet.99.tmp").write_bytes(b"half")
    assert len(load(out).races) == 2500  # the planted copy would add 400 rows
    res = _cli("run", "--resume", out)
    assert res.exit_code == 0 and "already complete" in res.stdout, res.output
    assert not planted.exists() and not list(out.rglob("*.tmp"))


def _edit(out: Path, change, reseal: bool = False) -> None:
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest = change(manifest) or manifest
    if reseal and isinstance(manifest, dict):
        manifest["checksum"] = checksum(manifest)
    path.write_text(json.dumps(manifest))


def _forget_last_chunk(m: dict) -> None:
    cell, chunk = m["chunks_done"].pop()
    m["races_done"][cell] -= 100 if chunk == 2 else 200
    for table in ("races", "heat", "agg"):
        del m["files"][f"{table}/part-{cell:05d}-{chunk:06d}.parquet"]


def _set(**kw):
    return lambda m: m.update(kw)


EDITS = {
    "seed changed": (_set(seed=6), False, "checksum does not match"),
    "status changed": (_set(status="running"), False, "checksum does not match"),
    "races edited": (_set(races_per_cell=300), False, "checksum does not match"),
    "replaced by a list": (lambda m: [m], False, "not a simkit manifest"),
    "scenario missing": (lambda m: m.pop("scenario") and None, False, "key 'scenario' is missing"),
    "no checksum": (lambda m: m.pop("checksum") and None, False, "has no checksum"),
    "resealed, seed disagrees with the scenario": (
        _set(seed=6),
        True,
        "its settings do not match its chunks (seed 6, its scenario says 5)",
    ),
    "resealed, a chunk dropped": (
        lambda m: m["chunks_done"].pop() and None,
        True,
        "its settings do not match its chunks",
    ),
    "resealed, races done edited": (
        lambda m: m["races_done"].__setitem__(0, 400),
        True,
        "cell 0 has 400 races done, its chunks 500",
    ),
    "resealed, unknown status": (_set(status="done"), True, "status 'done'"),
    "resealed, complete with a chunk missing": (
        lambda m: _forget_last_chunk(m),
        True,
        "complete with 5 of 6 chunks",
    ),
}


@pytest.mark.parametrize("edit", EDITS)
def test_a_manifest_that_cannot_be_trusted_is_refused(finished, tmp_path, edit):
    change, reseal, reason = EDITS[edit]
    out = _copy(finished, tmp_path)
    _edit(out, change, reseal)
    with pytest.raises(RunError, match="simkit will not trust this run") as info:
        load(out)
    assert reason in str(info.value)
    for args in (("run", "--resume", out), ("report", out), ("race", "--replay", out, "--cell", 0)):
        line = _one_error_line(_cli(*args))
        assert f"'{out / 'manifest.json'}'" in line and reason in line
    res = _cli("run", write(tmp_path, SCENARIO), "--out", out, "--force")
    assert res.exit_code == 0, res.output  # --force starts it again
    assert part_files(out) == finished[1]


def _failing_write(monkeypatch, nth: int, error: int):
    """Make the nth file write fail with ``error`` after writing half its bytes."""
    real = storage._write_file
    calls = {"n": 0}

    def write_file(path, data):
        calls["n"] += 1
        if calls["n"] == nth:
            path.write_bytes(data[: len(data) // 2])
            raise OSError(error, os.strerror(error), str(path))
        real(path, data)

    monkeypatch.setattr(storage, "_write_file", write_file)


@pytest.mark.parametrize(
    ("nth", "error", "fix"),
    [
        (6, errno.ENOSPC, "free some space"),  # a chunk file
        (7, errno.ENOSPC, "free some space"),  # the manifest after the first chunk
        (10, errno.EACCES, "make the folder writable or choose another --out"),
    ],
)
def test_a_failing_disk_is_one_line_and_the_run_resumes(
    finished, tmp_path, monkeypatch, nth, error, fix
):
    out = tmp_path / "run"
    _failing_write(monkeypatch, nth, error)
    line = _one_error_line(_cli("run", write(tmp_path, SCENARIO), "--out", out))
    assert f"({os.strerror(error)}); {fix}, then resume with `simkit run --resume {out}`" in line
    assert line.startswith(f"Error: cannot write '{out}")
    assert not list(out.rglob("*.tmp"))
    monkeypatch.undo()
    res = _cli("run", "--resume", out)  # the remedy, as the line gives it
    assert res.exit_code == 0, res.output
    assert part_files(out) == finished[1]


@pytest.mark.parametrize("nth", [1, 2, 3])  # the scenario's copy, cells.parquet, the manifest
def test_a_disk_full_before_the_first_manifest_says_run_again_and_that_works(
    finished, tmp_path, monkeypatch, nth
):
    out = tmp_path / "run"
    scenario = write(tmp_path, SCENARIO)
    _failing_write(monkeypatch, nth, errno.ENOSPC)
    line = _one_error_line(_cli("run", scenario, "--out", out))
    assert line.startswith(f"Error: cannot write '{out}") and line.endswith(
        "(No space left on device); free some space, then run again"
    )
    monkeypatch.undo()
    res = _cli("run", scenario, "--out", out)  # the remedy, as the line gives it: no --force
    assert res.exit_code == 0, res.output
    assert part_files(out) == finished[1]


def _read_only(name: str) -> Path:
    """A path in a folder nobody may write, even root (/sys); skip where there is none."""
    target = Path("/sys") / name
    try:
        target.mkdir()
    except OSError:
        return target
    target.rmdir()
    pytest.skip("/sys is writable here: no read-only folder to try")


def test_a_read_only_folder_is_one_line(tmp_path):
    target = _read_only("simkit-test-run")
    line = _one_error_line(_cli("run", write(tmp_path, SCENARIO), "--out", target))
    assert line.startswith(f"Error: cannot write '{target}' (")
    assert "make the folder writable or choose another --out, then run again" in line


def test_a_report_into_a_read_only_folder_is_one_line(finished, tmp_path):
    target = _read_only("simkit-test-report")
    line = _one_error_line(_cli("report", finished[0], "-o", target))
    assert line.startswith(f"Error: cannot write into '{target}' (")


def test_a_removed_table_folder_says_resume_and_resume_restores_it(finished, tmp_path):
    out = _copy(finished, tmp_path)
    shutil.rmtree(out / "races")
    err = storage.disk_error(out / "races" / "x", FileNotFoundError(errno.ENOENT, "gone"), "go")
    assert str(err).endswith("(gone); its folder was removed while simkit wrote, then go")
    res = _cli("run", "--resume", out)
    assert res.exit_code == 0, res.output
    assert part_files(out) == finished[1]
