"""Counter-based random numbers for kernels (DESIGN §4).

Every random number a race uses is a pure function of ``(run seed, cell key, race index,
stream, sub-stream, counter)``. Nothing depends on threads, chunking or call order across
races, so any race can be replayed alone and tables are identical for any thread count or
backend.

The generator is SplitMix64 used as a counter-based generator: draw ``n`` of a stream with
key ``k`` is ``mix(k + n * GOLDEN)``. A stream's state is one ``uint64`` (its key advanced
by the counter), kept by kernels in a small ``uint64`` array, one slot per stream.

Streams separate the kinds of randomness so that two variants run on the same seeds see
the same deals and rolls (common random numbers): deck shuffles and dice use
``STREAM_DECK``/``STREAM_DICE`` per seat, bot decisions ``STREAM_BOT`` per seat, start-slot
assignment ``STREAM_SLOTS``.

numba's own ``np.random`` is never used in kernels: it is not reproducible under ``prange``.

Every key is derived in this module and nowhere else: runners, tuners, the level check,
replays and ``simkit race`` call :func:`chunk_keys`, :func:`race_keys` or
:func:`single_race_key`, and a cell's key is 0 under common random numbers, else
:func:`content_key` of the cell (or a constant of its own for the tuners' and the level
check's races).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numba
import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)

# np.int64, not int: numba compiles a kernel again for every literal int argument.
STREAM_SLOTS = np.int64(0)
STREAM_DECK = np.int64(1)
STREAM_BOT = np.int64(2)
STREAM_DICE = np.int64(3)

if numba.config.DISABLE_JIT:  # pragma: no cover - exercised by the un-jitted benchmark/tests
    # Without the JIT these functions run on numpy scalars, whose wrapping uint64
    # arithmetic (the point of the algorithm) would otherwise warn on every call.
    np.seterr(over="ignore")


@njit(cache=True, inline="always", no_cfunc_wrapper=True)
def mix64(z):
    """SplitMix64's finaliser: a bijective avalanche of a uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, no_cfunc_wrapper=True)
def race_key(run_seed, cell_key, race_index):
    """The root key of one race: a pure function of run seed, cell key and race index.

    Arguments may be Python ints up to 2**64-1 only when wrapped in ``np.uint64`` (numba
    types a bare Python int as int64). Runners pass ``cell_key = 0`` for every cell when
    cells share random numbers (the default, so variant comparisons are paired), or a
    per-cell key otherwise.
    """
    k = mix64(np.uint64(run_seed) + GOLDEN)
    k = mix64(k ^ (np.uint64(cell_key) * _M1 + GOLDEN))
    return mix64(k ^ (np.uint64(race_index) * _M2 + GOLDEN))


@njit(cache=True, no_cfunc_wrapper=True)
def stream_key(root, stream, sub):
    """Key of sub-stream ``sub`` (e.g. a seat) of stream kind ``stream`` within a race."""
    s = np.uint64(stream) * np.uint64(1 << 20) + np.uint64(sub)
    return mix64(np.uint64(root) ^ mix64(s * GOLDEN + _ONE))


@njit(cache=True, inline="always", no_cfunc_wrapper=True)
def next_u64(states, i):
    """Next 64 random bits from stream ``i`` of ``states`` (advances it)."""
    s = states[i] + GOLDEN
    states[i] = s
    return mix64(s)


@njit(cache=True, no_cfunc_wrapper=True)
def below(states, i, n):
    """Uniform integer in ``[0, n)`` from stream ``i``, without modulo bias (n >= 1)."""
    un = np.uint64(n)
    threshold = (_ZERO - un) % un
    while True:
        r = next_u64(states, i)
        if r >= threshold:
            return np.int64(r % un)


@njit(cache=True, no_cfunc_wrapper=True)
def uniform(states, i):
    """Uniform float in ``[0, 1)`` with 53 random bits from stream ``i``."""
    return np.float64(next_u64(states, i) >> _S11) * (1.0 / 9007199254740992.0)


@njit(cache=True, no_cfunc_wrapper=True)
def coin(states, i):
    """0 or 1 with equal chances from stream ``i`` (``below(states, i, 2)``)."""
    return below(states, i, np.int64(2))


@njit(cache=True, no_cfunc_wrapper=True)
def shuffle(states, i, arr, lo, hi):
    """Fisher-Yates shuffle of ``arr[lo:hi]`` in place, from stream ``i``."""
    for k in range(hi - 1, lo, -1):
        j = lo + below(states, i, k - lo + 1)
        t = arr[k]
        arr[k] = arr[j]
        arr[j] = t


@njit(cache=True, no_cfunc_wrapper=True)
def _fill_race_keys(run_seed, cell_key, races, out):
    for i in range(out.shape[0]):
        out[i] = race_key(run_seed, cell_key, np.uint64(races[i]))


def race_keys(run_seed: int, cell_key: int, race_indices: np.ndarray) -> np.ndarray:
    """Root keys of the races ``race_indices`` of the cell with ``cell_key``:
    ``race_key(run_seed, cell_key, race)`` for each (Python-side, for runners, tuners and
    tests)."""
    races = np.asarray(race_indices, dtype=np.int64)
    out = np.empty(len(races), dtype=np.uint64)
    _fill_race_keys(np.uint64(run_seed), np.uint64(cell_key), races, out)
    return out


def chunk_keys(seed: int, cell_key: int, lo: int, hi: int) -> np.ndarray:
    """Root keys of races lo..hi-1: ``race_key(seed, cell_key, race)`` for each (a chunk
    of a run's cell, a generation of a tuning)."""
    return race_keys(seed, cell_key, np.arange(lo, hi, dtype=np.int64))


def single_race_key(run_seed: int, race_index: int, cell_key: int = 0) -> int:
    """The root key of race ``race_index`` played alone (``simkit race``).

    ``simkit race --seed`` gives the key a run with this seed gives that race in a cell with
    ``cell_key = 0`` (the shared random numbers every cell has by default), so a race played
    alone is one of a run's; ``simkit race --replay`` passes the run's recorded cell key.
    """
    return int(race_keys(run_seed, cell_key, [race_index])[0])


def content_key(content: dict[str, Any]) -> int:
    """A cell key from a cell's content (JSON data), for cells that do not share random
    numbers (``crn = false``): the first 8 bytes, little-endian, of the BLAKE2b digest of
    its canonical JSON (sorted keys), so equal content gives equal races in any run."""
    digest = hashlib.blake2b(json.dumps(content, sort_keys=True).encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "little")


def stream_state(root: int, stream: int, sub: int) -> np.ndarray:
    """A one-stream state array (Python-side convenience for tests and traces)."""
    return np.array([stream_key(np.uint64(root), stream, sub)], dtype=np.uint64)
