"""numba's cache is keyed on every kernel source, so an edit never runs stale kernels."""

import os
import subprocess
import sys
from pathlib import Path

from simkit import _numba_cache


def test_hash_changes_with_any_kernel_source(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "games" / "sub").mkdir(parents=True)
    (pkg / "cli").mkdir()
    (pkg / "rng.py").write_text("x = 1\n")
    (pkg / "games" / "sub" / "rules.py").write_text("def f():\n    return 1\n")
    before = _numba_cache.source_hash(pkg)
    assert _numba_cache.source_hash(pkg) == before
    (pkg / "cli" / "report.py").write_text("y = 2\n")  # no kernel reads the CLI
    assert _numba_cache.source_hash(pkg) == before
    (pkg / "games" / "sub" / "rules.py").write_text("def f():\n    return 2\n")
    assert _numba_cache.source_hash(pkg) != before


def test_every_kernel_module_is_hashed():
    pkg = Path(_numba_cache.__file__).parent
    covered = set(_numba_cache.kernel_files())
    kernels = {p for p in pkg.rglob("*.py") if "@njit" in p.read_text()}
    assert kernels and kernels <= covered, sorted(str(p) for p in kernels - covered)


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
