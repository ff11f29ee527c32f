"""The kernels' shape (simkit/_numba_link.py): Python calls only the cached doors of
``kernels.py`` and the batch entry; every other kernel is internal, compiled only into them."""

import importlib
import pkgutil

import pytest
from numba.core.dispatcher import Dispatcher

import simkit.games.mushroomwalk as package

ENTRIES = {("batch", "play_games")}  # besides every door of kernels.py


def _kernels():
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, Dispatcher) and obj.py_func.__module__ == module.__name__:
                yield info.name, name, obj


def test_only_the_doors_and_the_batch_entry_are_cached():
    kernels = list(_kernels())
    if not kernels:
        pytest.skip("the JIT is off")
    for module, name, k in kernels:
        cached = type(k._cache).__name__ != "NullCache"
        internal = bool(k.targetoptions.get("no_cpython_wrapper"))
        door = module == "kernels" or (module, name) in ENTRIES
        assert (cached, internal) == (door, not door), f"{module}.{name}"
