"""numba's cache is keyed on all of simkit's sources, so an edit never runs stale kernels."""

import os
import subprocess
import sys
from pathlib import Path

from simkit import _numba_cache


def test_hash_changes_with_any_source_file(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "sub" / "rules.py").write_text("def f():\n    return 1\n")
    before = _numba_cache.source_hash(pkg)
    assert _numba_cache.source_hash(pkg) == before
    (pkg / "sub" / "rules.py").write_text("def f():\n    return 2\n")
    assert _numba_cache.source_hash(pkg) != before


def test_numba_uses_the_hashed_directory(tmp_path):
    code = (
        "import simkit, numba.core.config as c, simkit._numba_cache as n;"
        "print(c.CACHE_DIR); print(n.cache_dir())"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == out[1]
    assert Path(out[0]).parent == tmp_path
    assert Path(out[0]).name == f"simkit-{_numba_cache.source_hash()}"


def test_subprocesses_resolve_to_the_same_directory(tmp_path):
    code = "import simkit, os; print(os.environ['NUMBA_CACHE_DIR'])"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    first = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    env["NUMBA_CACHE_DIR"] = first  # what a child of that process inherits
    second = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert first == second == str(tmp_path / f"simkit-{_numba_cache.source_hash()}")
