"""A run records the code that decides its races (simkit's own files by content, and the
version), and a resume by other code is refused naming what differs (issue 37)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from simkit import _numba_cache
from simkit.errors import RunError
from simkit.games import names
from simkit.runner import inputs, load_scenario, resume, start
from simkit.runner.inputs import of_run, race_code
from simkit.runner.manifest import seal

from .helpers import TINY as SCENARIO
from .helpers import write

PACKAGE = Path(inputs.__file__).resolve().parents[1]
AFRESH = "start the run afresh into another folder (--out), or over this one with --force"


def _package_of(path: Path) -> str | None:
    """The game package a file of simkit lies in, or None."""
    parts = path.relative_to(PACKAGE).parts
    return parts[1] if parts[0] == "games" and len(parts) > 2 else None


def _started(tmp_path: Path) -> Path:
    start(load_scenario(write(tmp_path, SCENARIO)), tmp_path / "r", threads=1)
    return tmp_path / "r"


def _edit_manifest(run: Path, change) -> None:
    m = json.loads((run / "manifest.json").read_text())
    change(m)
    (run / "manifest.json").write_bytes(seal(m))  # a careful edit: the checksum recomputed


@pytest.mark.parametrize("game", ["snowtails", "mushmush", "mush", "mushroomwalk"])
def test_the_record_covers_every_kernel_of_the_game(game):
    """Every module that defines a kernel the game can compile (in its own packages, or
    shared) is in the record of its runs, as it is in numba's cache key."""
    own = inputs.game_packages(game)
    kernels = {
        p
        for p in _numba_cache.kernel_files()
        if "@njit" in p.read_text() and _package_of(p) in (None, *own)
    }
    assert kernels and kernels <= set(race_code(game)), sorted(
        map(str, kernels - set(race_code(game)))
    )


@pytest.mark.parametrize("game", ["snowtails", "mushmush", "mush", "mushroomwalk"])
def test_a_game_imports_no_game_package_outside_its_record(game):
    covered = inputs.game_packages(game)
    for path in race_code(game):
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("simkit.games."):
                package = node.module.split(".")[2]
                if (PACKAGE / "games" / package).is_dir():
                    assert package in covered, f"{path} imports {node.module}"


def test_shipped_data_is_recorded_and_reports_are_not():
    files = {str(p.relative_to(PACKAGE)) for p in race_code("snowtails")}
    for shipped in (
        "tracks/data/tiles.toml",
        "games/snowtails/tracks/nutcracker.toml",
        "games/mushmush/tracks/mm1-old-faithful.toml",  # every preset plays either's tracks
        "games/snowtails/bots.toml",
        "games/snowtails/kernels.py",
        "runner/driver.py",
    ):
        assert shipped in files
    assert not any(f.startswith(("report/", "analysis/", "cli/")) for f in files)
    assert "tracks/picture.py" not in files and "games/mush/rules.py" not in files
    assert not any("tracks/" in str(p) for p in race_code("mush"))  # no board, no tracks
    assert set(names()) >= {"snowtails", "mush"}


def test_a_changed_file_of_simkit_refuses_the_resume_and_the_replay(tmp_path, monkeypatch):
    run = _started(tmp_path)
    real = inputs.code_record
    path = "simkit/rng.py"

    def edited(game):
        return {**real(game), path: "0" * 16}

    monkeypatch.setattr(inputs, "code_record", edited)
    with pytest.raises(RunError) as err:
        resume(run, races=60)
    assert str(err.value) == (
        f"'{run}': simkit's own file '{path}' has changed since the run started, and its "
        f"races were decided by the code it started with; continuing would mix two codes in "
        f"one run: {AFRESH}"
    )
    with pytest.raises(RunError, match="has changed since the run started"), of_run(run):
        pass
    with of_run(run, plays=False) as notices:  # a report plays no race: it is told
        assert notices == [
            f"'{run}': simkit's own file '{path}' has changed since the run started; its "
            "tables stand as that code wrote them"
        ]
    # The remedy: afresh, over the run.
    start(load_scenario(tmp_path / "s.toml"), run, force=True, threads=1)
    assert resume(run, races=60).new_races == 20


def test_another_version_refuses_the_resume(tmp_path):
    run = _started(tmp_path)
    _edit_manifest(run, lambda m: m.update(simkit_version="9.9.9"))
    with pytest.raises(RunError, match=r"^'.*': it was started by simkit 9\.9\.9, and this is "):
        resume(run)


def test_a_run_without_a_code_record_is_not_continued(tmp_path):
    run = _started(tmp_path)
    _edit_manifest(run, lambda m: m.pop("code"))
    with pytest.raises(RunError, match=r"did not record its code, .*; start the run afresh"):
        resume(run)


def test_a_malformed_code_record_is_refused(tmp_path):
    run = _started(tmp_path)
    _edit_manifest(run, lambda m: m["code"].update({"simkit/rng.py": "x"}))
    with pytest.raises(RunError, match=r"its settings do not match its chunks \(code\)"):
        resume(run)
