"""simkit's internal kernels are linked once into the kernel Python calls (simkit/_numba_link.py):
same results as numba's own way, no machine code of their own, cached entries still load."""

import json
import os
import subprocess
import sys

import numba
import pytest

from simkit import _numba_link

# A chain of internal kernels under a simkit module name, and a cached entry that calls the
# last: f0 = x + 1, f_k = f_{k-1}(x) * 3 + k (mod 2**31). Prints what the test checks.
_CHAIN = """
import ctypes, json, sys, types
import numpy as np
import simkit.games  # installs the link hook, as every simkit run does
from simkit import _numba_link
from numba import njit

SRC = '''
from numba import njit
@njit(no_cpython_wrapper=True)
def f0(x):
    return x + 1
'''
for k in range(1, 10):
    SRC += f'''
@njit(no_cpython_wrapper=True)
def f{k}(x):
    return (f{k - 1}(x) * 3 + {k}) % 2147483648
'''
SRC += '''
@njit(cache=True)
def entry(xs):
    s = 0
    for x in xs:
        s += f9(x)
    return s
'''
mod = types.ModuleType("simkit.linkcheck")
mod.__file__ = sys.argv[1]
sys.modules[mod.__name__] = mod
open(sys.argv[1], "w").write(SRC)
exec(compile(SRC, sys.argv[1], "exec"), mod.__dict__)
value = int(mod.entry(np.arange(1000, dtype=np.int64)))
compiled = [cres for k in range(10) for cres in getattr(mod, f"f{k}").overloads.values()]
lazy = [bool(getattr(cres.library, "_simkit_lazy", False)) for cres in compiled]
via_c = None  # none compiled when the entry came from the cache
if compiled:  # machine code of an internal kernel asked for after all: emitted on demand
    cres = compiled[-1]
    addr = cres.library.get_pointer_to_function(cres.fndesc.llvm_cfunc_wrapper_name)
    via_c = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)(addr)(5)
print(json.dumps({"installed": _numba_link.installed(), "value": value, "lazy": lazy,
                  "hits": sum(mod.entry.stats.cache_hits.values()), "via_c": via_c}))
"""


def _f9(x: int) -> int:
    v = x + 1
    for k in range(1, 10):
        v = (v * 3 + k) % 2147483648
    return v


def _run(tmp_path, cache, **env) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _CHAIN, str(tmp_path / "linkcheck.py")],
        env={**os.environ, "NUMBA_CACHE_DIR": str(cache), **env},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_installed_exactly_on_tested_numba_versions():
    import simkit.games  # noqa: F401  (installs)

    assert _numba_link.installed() == _numba_link.supported(numba.__version__)
    assert _numba_link.supported("0.68.1") and not _numba_link.supported("0.59.0")


@pytest.mark.skipif(
    not _numba_link.supported(numba.__version__), reason="numba keeps its own way here"
)
def test_same_results_as_numbas_own_linking_and_cache_loads(tmp_path):
    want = sum(_f9(x) for x in range(1000))
    linked = _run(tmp_path, tmp_path / "a")
    assert linked == {
        "installed": True,
        "value": want,
        "lazy": [True] * 10,
        "hits": 0,
        "via_c": _f9(5),
    }
    again = _run(tmp_path, tmp_path / "a")  # the entry's machine code from the cache
    assert again == {"installed": True, "value": want, "lazy": [], "hits": 1, "via_c": None}
    own = _run(tmp_path, tmp_path / "b", SIMKIT_NUMBA_LINK="numba")
    assert own == {
        "installed": False,
        "value": want,
        "lazy": [False] * 10,
        "hits": 0,
        "via_c": _f9(5),
    }


def test_compile_flags_hash_and_compare_as_numbas_own():
    """The faster ``TargetConfig`` hash and equality (``_flags_compare_fast``) give numba's
    own answers: the hash of the sorted option names, equality by every option's value
    (an option set to its default equals one left unset)."""
    from numba.core.compiler import Flags
    from numba.core.targetconfig import TargetConfig

    import simkit.games  # noqa: F401  (installs the patch where the numba version is tested)

    a, b, c, d = Flags(), Flags(), Flags(), Flags()
    a.nrt = True
    b.nrt = True
    c.nrt = False
    d.nrt = True
    d.boundscheck = Flags.options["boundscheck"].default  # set, to its default
    for x in (a, b, c, d):
        assert hash(x) == hash(tuple(sorted({k: getattr(x, k) for k in x.options})))
    assert a == b and a == d and d == a and a != c and c != a
    assert (a == 1) is False and TargetConfig.__eq__(a, 1) is NotImplemented
    assert {(1, a): "x"}[(1, d)] == "x"


def test_record_repr_is_numbas_own_spelled_once():
    """A record type's ``repr`` (``_record_repr_once``) is the text numba's own gives, for
    a record with nested arrays too, and is built once per type."""
    import numpy as np
    from numba import from_dtype
    from numba.core.types import npytypes

    import simkit.games  # noqa: F401  (installs the patch where the numba version is tested)

    if not _numba_link.installed():
        pytest.skip("numba's own way on this numba version")
    dtype = np.dtype([("a", np.int64), ("b", np.float64, (3,)), ("c", np.int32, (2, 2))])
    ty = from_dtype(dtype)
    numba_repr = npytypes.Record.__repr__.__wrapped__
    assert numba_repr is not npytypes.Record.__repr__
    assert repr(ty) == numba_repr(ty)
    assert "NestedArray(int32, (2, 2))" in repr(ty)
    ty.__dict__["_simkit_repr"] = "as built once"
    assert repr(ty) == "as built once"
    del ty.__dict__["_simkit_repr"]


def test_every_kernel_compiles_without_a_c_wrapper():
    """Every simkit kernel is jitted with ``no_cfunc_wrapper=True``: numba otherwise lowers,
    optimises and emits a C-callable wrapper beside each one, which nothing in simkit calls
    (no kernel is passed as a first-class function); without them a cold Snow Tails cell
    compiles in 0.89x the CPU. A source scan finds the modules, so a new one is checked too."""
    import importlib
    from pathlib import Path

    from numba.core.registry import CPUDispatcher

    root = Path(_numba_link.__file__).parent
    modules = sorted(
        ".".join(("simkit", *p.relative_to(root).with_suffix("").parts))
        for p in root.rglob("*.py")
        if "@njit" in p.read_text()
    )
    kernels = [
        (m, name)
        for m in modules
        for name, obj in vars(importlib.import_module(m)).items()
        if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == m
    ]
    if not kernels:
        pytest.skip("the JIT is off")
    assert len(kernels) > 300
    missing = [
        f"{m}.{name}"
        for m, name in kernels
        if not getattr(importlib.import_module(m), name).targetoptions.get("no_cfunc_wrapper")
    ]
    assert missing == []
