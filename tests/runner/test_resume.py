"""A run killed at any point (SIGKILL) resumes to the tables of an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.errors import RunError
from simkit.results import load
from simkit.runner import load_scenario, resume, start
from simkit.runner.manifest import seal

from .helpers import assert_same_tables, part_files, run, write

SCENARIO = """
game = "dicerace"
seed = 5
races = 500
chunk_size = 200
[grid]
players = [2, 3]
"""
# Runs the CLI with the test game registered, as a user's shell would.
_ENTRY = (
    "import sys; import simkit.games; from tests.runner.dicerace import GAME; "
    "simkit.games.register(GAME); from simkit.cli import main; "
    "main(sys.argv[1:], prog_name='simkit')"
)
ROOT = Path(__file__).resolve().parents[2]


def _cli(args: list[str], crash: str | None = None, cwd: Path | None = None):
    env = dict(os.environ, CI="1")
    env.pop("SIMKIT_CRASH", None)
    if crash:
        env["SIMKIT_CRASH"] = crash
    env["PYTHONPATH"] = str(ROOT)  # `tests` imports from the project root
    return subprocess.run(
        [sys.executable, "-c", _ENTRY, *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The uninterrupted run's files, for both keep modes."""
    base = tmp_path_factory.mktemp("ref")
    out = {}
    for keep in ("races", "aggregates"):
        text = f'keep = "{keep}"\n' + SCENARIO
        sc = load_scenario(write(base, text, f"{keep}.toml"))
        start(sc, base / keep)
        out[keep] = part_files(base / keep)
    return out


@pytest.mark.parametrize(
    ("keep", "crash"),
    [
        pytest.param("races", "1:start", marks=pytest.mark.slow),  # before the first file
        ("races", "2:races.tmp"),  # a temp file written, not renamed
        pytest.param("races", "2:heat", marks=pytest.mark.slow),  # races, heat written; agg not
        ("races", "4:agg"),  # chunk 4 complete on disk, the manifest does not know
        ("races", "5:manifest.tmp"),  # while replacing the manifest
        ("aggregates", "3:agg.tmp"),
    ],
)
def test_killed_run_resumes_to_identical_tables(tmp_path, reference, keep, crash):
    scenario = write(tmp_path, f'keep = "{keep}"\n' + SCENARIO)
    out = tmp_path / "run"
    killed = _cli(["run", str(scenario), "--out", str(out)], crash=crash)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    n = int(crash.split(":")[0])
    chunk_on_disk = crash.endswith(":agg") or ":manifest" in crash
    assert len(list((out / "agg").glob("part-*"))) == n - 1 + chunk_on_disk
    assert load(out).manifest["status"] == "running"
    summary = resume(out)
    assert summary.races == 500 * 2 and not summary.already_complete
    assert part_files(out) == reference[keep]
    assert load(out).manifest["status"] == "complete"


def test_killed_twice_then_resumed_from_the_cli(tmp_path, reference):
    scenario = write(tmp_path, SCENARIO)
    out = tmp_path / "run"
    assert _cli(["run", str(scenario), "--out", str(out)], "2:agg.tmp").returncode == -9
    assert _cli(["run", "--resume", str(out)], "2:races").returncode == -9
    done = CliRunner().invoke(main, ["run", "--resume", str(out)])
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith(f"{out}: 1,000 races in 2 cells (")
    assert part_files(out) == reference["races"]
    again = CliRunner().invoke(main, ["run", "--resume", str(out)])
    assert again.output == f"{out}: already complete (1,000 races); nothing to do\n"


def test_precision_target_resumes_to_identical_tables(tmp_path):
    text = (
        'game = "dicerace"\nseed = 2\nchunk_size = 100\n[grid]\nplayers = [2, 6]\n'
        "[precision]\nwidth = 0.1\nmax_races = 3000\n"
    )
    ref = run(tmp_path, text, "ref")
    done = ref.manifest["races_done"]
    # both cells stopped early at a chunk boundary; win rates near 1/2 (2 players) have the
    # widest intervals, so that cell needed more races
    assert all(d % 100 == 0 and d < 3000 for d in done) and done[0] > done[1]
    scenario = write(tmp_path, text)
    out = tmp_path / "run"
    assert _cli(["run", str(scenario), "--out", str(out)], "3:races").returncode == -9
    resume(out)
    assert_same_tables(load(out), ref)
    assert part_files(out) == part_files(tmp_path / "ref")


def test_finished_run_is_never_overwritten_without_force(tmp_path):
    sc = load_scenario(write(tmp_path, SCENARIO))
    start(sc, tmp_path / "run")
    with pytest.raises(RunError) as info:
        start(sc, tmp_path / "run")
    assert str(info.value) == (
        f"'{tmp_path / 'run'}' holds a finished run; use --force to overwrite it "
        "or --out to write elsewhere"
    )
    before = part_files(tmp_path / "run")
    start(sc.with_overrides(seed=6), tmp_path / "run", force=True)
    assert part_files(tmp_path / "run") != before
    assert load(tmp_path / "run").manifest["seed"] == 6


def test_unfinished_run_needs_resume_and_other_dirs_are_refused(tmp_path):
    scenario = write(tmp_path, SCENARIO)
    out = tmp_path / "run"
    start(load_scenario(scenario), out)
    manifest = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_bytes(seal({**manifest, "status": "running"}))
    res = CliRunner().invoke(main, ["run", str(scenario), "--out", str(out)])
    assert res.exit_code == 1
    assert res.output == (
        f"Error: '{out}' holds an unfinished run; continue it with "
        f"`simkit run --resume {out}`, or use --force to start over\n"
    )
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="is not empty and not a simkit run"):
        start(load_scenario(scenario), other, force=True)
    assert (other / "notes.txt").read_text() == "mine"


def test_a_run_killed_before_its_manifest_can_start_again(tmp_path):
    out = tmp_path / "run"
    for table in ("races", "heat", "agg"):
        (out / table).mkdir(parents=True)
    start(load_scenario(write(tmp_path, SCENARIO)), out)
    assert load(out).manifest["status"] == "complete"


def test_too_many_threads_is_a_clear_error(tmp_path):
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    with pytest.raises(RunError) as info:
        start(load_scenario(write(tmp_path, SCENARIO)), tmp_path / "run", threads=most + 1)
    assert str(info.value) == f"--threads {most + 1}: this machine runs at most {most} threads"
    assert not (tmp_path / "run").exists()
