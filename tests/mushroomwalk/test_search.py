"""The search bot: its spec, what it reads, its randomness, its cost and its strength."""

import os
import subprocess
import sys

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games.cells import build_cell
from simkit.games.mushroomwalk import GAME
from simkit.games.mushroomwalk.bots import DEFAULT_BUDGET, parse_bot
from simkit.games.mushroomwalk.kernels import determinize
from simkit.games.mushroomwalk.params import PRESETS
from simkit.games.mushroomwalk.records import BOT_SEARCH, DISCARD, POSITION, R_BOT
from simkit.rng import next_u64, race_keys
from tests.mushroomwalk.mw_helpers import Game, key_of, plays_of

BOOK = PRESETS["mushroomwalk"]


def test_search_specs_and_their_errors():
    bot = parse_bot("search")[0]
    assert bot["kind"] == BOT_SEARCH and bot["budget"] == DEFAULT_BUDGET
    bot = parse_bot("search:16:horizon=0:margin=0")[0]
    assert (bot["budget"], bot["horizon"], bot["margin"]) == (16, 0, 0.0)
    assert parse_bot("search:cook_at=3")[0]["budget"] == DEFAULT_BUDGET
    for spec, msg in (
        ("search:0", "budget after 'search:' must be a whole number of rollouts from 1 to 4096"),
        ("search:5000", "from 1 to 4096 \\(got '5000'\\)"),
        ("search:1.5", "got '1.5'"),
        ("search:many", "got 'many'"),
        ("search:16:32", "expected NAME=VALUE"),
        ("search:16:horizon=2.5", "horizon must be a whole number"),
    ):
        with pytest.raises(SimkitError, match=msg) as err:
            parse_bot(spec)
        assert err.value.key == "bots" and "\n" not in str(err.value)
    with pytest.raises(SimkitError, match="search:64") as err:
        build_cell("mushroomwalk", bots=["search:x", "greedy"])
    assert err.value.key == "bots"


@pytest.mark.parametrize("seed", [3, 8])
def test_search_reads_only_what_its_seat_sees(seed):
    # at every decision of whole games: the search's play on the real position is its play
    # on a sample of everything its seat cannot see; and the seat's plays are the same on
    # the sample, so the search may take its root plays from either
    g = Game(BOOK, ("search:16", "search:16:horizon=0"), key_of(seed))
    other = np.zeros(1, dtype=POSITION)
    decisions = 0
    while not g.pos["ended"]:
        seat = np.int64(g.pos["mover"])
        determinize(g.positions, seat, np.uint64(seed * 1000 + decisions), other, 0)
        assert np.array_equal(plays_of(g.prma, other), plays_of(g.prma, g.positions))
        a = g.choice()
        real = g.positions.copy()  # after the choice's draw from the seat's stream
        g.positions[0] = other[0]
        assert g.choice() == a
        g.positions[:] = real
        g.apply(g.legal()[a])
        decisions += 1
    assert decisions > 30


def test_search_draws_once_from_its_own_stream_per_decision():
    g = Game(BOOK, ("search:16", "greedy"), key_of(5))
    searched = 0
    while not g.pos["ended"]:
        before = g.pos["rng"].copy()
        n = len(g.legal())
        i = g.choice()
        want = before.copy()
        if g.pos["mover"] == 0 and n > 1 and g.legal()[0]["kind"] != DISCARD:
            next_u64(want, R_BOT)
            searched += 1
        assert np.array_equal(g.pos["rng"], want)
        g.apply(g.legal()[i])
    assert searched > 10


def _tables(bots, keys, threads):
    return GAME.simulate(build_cell("mushroomwalk", bots=bots), keys, threads=threads)


def test_search_results_do_not_depend_on_threads_or_chunks():
    keys = race_keys(11, 0, np.arange(60))
    bots = ["search:8", "lookahead"]
    whole = _tables(bots, keys, 1)
    for got in (
        _tables(bots, keys, 2),
        _tables(bots, keys[:25], 1),  # the first chunk
    ):
        rows = len(got.races["turns"])
        for name in GAME.seat_columns:
            assert np.array_equal(got.seats[name], whole.seats[name][:rows]), name
        for name in GAME.race_columns:
            assert np.array_equal(got.races[name], whole.races[name][:rows]), name


def _win_share(a, b, n):
    """Share of games bot ``a`` wins against ``b`` (draws half), over both seatings."""
    keys = race_keys(2024, 0, np.arange(n))
    won = 0.0
    for bots, seat in (([a, b], 0), ([b, a], 1)):
        batch = GAME.simulate(build_cell("mushroomwalk", bots=bots), keys)
        fin, draw = batch.seats["finish"], batch.races["draw"]
        won += ((fin[:, seat] == 1) & ~draw).sum() + 0.5 * draw.sum()
    return won / (2 * n)


def test_search_beats_greedy_and_lookahead():
    # measured on these seeds: search:16 beats greedy in 95% of games, search:32 beats
    # lookahead in 57% (1,000 games: about 1.6 points of standard error)
    assert _win_share("search:16", "greedy", 200) > 0.85
    assert _win_share("search:32", "lookahead", 500) > 0.53


ALLOCATIONS = """
import numpy as np
from numba.core.runtime import rtsys
from simkit.games.cells import build_cell
from simkit.games.mushroomwalk import GAME
from simkit.rng import race_keys
keys = race_keys(3, 0, np.arange(4))
for bot in ("greedy", "search:4", "search:64", "search:64:horizon=0"):
    before = rtsys.get_allocation_stats().alloc
    GAME.simulate(build_cell("mushroomwalk", bots=[bot, "greedy"]), keys, threads=1)
    print(rtsys.get_allocation_stats().alloc - before)
"""


def test_rollouts_allocate_nothing():
    # numba's runtime counts its allocations (NUMBA_NRT_STATS=1, read at start-up): a batch
    # with the search bot allocates its scratch once, as a greedy batch does, whatever the
    # budget, so neither samples nor rollouts allocate
    env = {**os.environ, "NUMBA_NRT_STATS": "1"}
    res = subprocess.run(
        [sys.executable, "-c", ALLOCATIONS], env=env, capture_output=True, text=True, check=True
    )
    counts = [int(line) for line in res.stdout.split()]
    assert len(counts) == 4 and counts[0] > 0
    assert counts == [counts[0]] * 4
