"""The counter-based generator: pure functions of their keys, unbiased, jit == no-jit."""

import json
import os
import subprocess
import sys

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit import rng

U64 = st.integers(0, 2**64 - 1)


def _stream(seed, cell, race, kind=rng.STREAM_DECK, sub=0):
    root = rng.race_key(np.uint64(seed), np.uint64(cell), np.uint64(race))
    return np.array([rng.stream_key(np.uint64(root), kind, sub)], dtype=np.uint64)


def test_splitmix64_reference_values():
    # SplitMix64 with state 0: the published first outputs of the reference generator.
    st_ = np.array([0], dtype=np.uint64)
    got = [int(rng.next_u64(st_, 0)) for _ in range(3)]
    assert got == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@given(U64, U64, st.integers(0, 2**40))
def test_race_key_is_a_pure_function(seed, cell, race):
    a = rng.race_key(np.uint64(seed), np.uint64(cell), np.uint64(race))
    b = rng.race_key(np.uint64(seed), np.uint64(cell), np.uint64(race))
    assert a == b


def test_keys_differ_across_races_cells_streams_and_seats():
    keys = set()
    for race in range(50):
        for cell in range(3):
            root = rng.race_key(np.uint64(1), np.uint64(cell), np.uint64(race))
            for kind in (rng.STREAM_DECK, rng.STREAM_BOT, rng.STREAM_DICE):
                for seat in range(5):
                    keys.add(int(rng.stream_key(np.uint64(root), kind, seat)))
    assert len(keys) == 50 * 3 * 3 * 5


def test_below_is_uniform():
    s = _stream(3, 0, 0)
    n = 6
    draws = np.array([rng.below(s, 0, n) for _ in range(60_000)])
    assert draws.min() == 0 and draws.max() == n - 1
    counts = np.bincount(draws, minlength=n)
    expected = len(draws) / n
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 20.5  # 5 dof, p ~ 0.001


@given(st.integers(0, 2**32), st.integers(1, 30))
def test_shuffle_is_a_permutation(seed, n):
    s = _stream(seed, 0, 0)
    arr = np.arange(n + 4, dtype=np.int64)
    rng.shuffle(s, 0, arr, 2, 2 + n)
    assert sorted(arr[2 : 2 + n]) == list(range(2, 2 + n))
    assert list(arr[:2]) == [0, 1] and list(arr[2 + n :]) == list(range(2 + n, n + 4))


def test_uniform_in_unit_interval():
    s = _stream(9, 1, 2)
    u = np.array([rng.uniform(s, 0) for _ in range(10_000)])
    assert u.min() >= 0.0 and u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.01


_SCRIPT = """
import json, numpy as np
from simkit import rng
root = rng.race_key(np.uint64(11), np.uint64(2), np.uint64(5))
s = np.array([rng.stream_key(np.uint64(root), 1, 3)], dtype=np.uint64)
arr = np.arange(20)
rng.shuffle(s, 0, arr, 0, 20)
print(json.dumps([int(rng.next_u64(s, 0)), int(rng.below(s, 0, 7)), arr.tolist()]))
"""


def test_jit_and_pure_python_agree():
    outs = []
    for disable in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable)
        res = subprocess.run(
            [sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, check=True
        )
        assert "Warning" not in res.stderr
        outs.append(json.loads(res.stdout))
    assert outs[0] == outs[1]


def test_chunk_keys_are_race_keys_of_the_range():
    # Pinned: the keys of runs, tunings and level checks (moved here from the runner's
    # backend without changing a number).
    got = rng.chunk_keys(2**63 - 1, 0x636F_6E66_6972_6D21, 5, 8)
    assert [int(k) for k in got] == [0x2452FBA7DC2BCAA0, 0x75FE234998FE1462, 0x9A440A91D0FF03A3]
    assert [int(k) for k in rng.chunk_keys(7, 0, 0, 2)] == [0x3FD7D643EFA1C8F1, 0x5232B04EDD619507]
    each = [int(rng.race_key(np.uint64(7), np.uint64(3), np.uint64(r))) for r in range(10, 14)]
    assert [int(k) for k in rng.chunk_keys(7, 3, 10, 14)] == each
    assert [int(k) for k in rng.race_keys(7, 3, [10, 11, 12, 13])] == each
    assert rng.chunk_keys(7, 3, 4, 4).shape == (0,)


def test_single_race_key_is_the_runs_key_of_that_race():
    assert rng.single_race_key(7, 1) == int(rng.chunk_keys(7, 0, 0, 2)[1])
    big = 2**64 - 5  # a content cell key above int64
    assert rng.single_race_key(7, 12, cell_key=big) == int(rng.chunk_keys(7, big, 12, 13)[0])


def test_content_key_is_a_digest_of_the_canonical_json():
    cell = {"game": "dicerace", "params": {"head_start": [0, 1], "faces": 6}, "players": 2}
    assert rng.content_key(cell) == rng.content_key(dict(reversed(cell.items())))
    pinned = {
        "game": "dicerace",
        "params": {"faces": 6, "head_start": [0, 1]},
        "track": None,
        "players": 2,
        "bots": ["bold", "bold"],
        "slots": None,
    }
    assert rng.content_key(pinned) == 0x16538AFAA5BBA345
