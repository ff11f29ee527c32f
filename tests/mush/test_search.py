"""The search bot (``search:N``): named and checked like the other bots, a pure function of
the race's key, blind to what its seat cannot see, and anchored on greedy's play."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games.mush import kernels as K
from simkit.games.mush import records as R
from simkit.games.mush.bots import DEFAULT_BUDGET, GREEDY, SEARCH, bot_row
from simkit.rng import race_keys
from tests.mush.stepper import Stepper

SEARCHED = (R.PH_TRAIN, R.PH_BID, R.PH_REST)


def test_search_specs():
    row = bot_row("search")
    assert row["kind"] == SEARCH and row["budget"] == DEFAULT_BUDGET
    assert row["reserve"] == bot_row("greedy")["reserve"]  # greedy's parameters elsewhere
    row = bot_row("search:64:reserve=8:margin=1")
    assert (row["budget"], row["reserve"], row["margin"]) == (64, 8, 1)
    assert bot_row("greedy")["kind"] == GREEDY


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:0", "mush: bot 'search:0': the budget must be a whole number of rollouts"),
        ("search:1e3", "mush: bot 'search:1e3': the budget must be a whole number"),
        ("search:9999", "mush: bot 'search:9999': the budget must be a whole number"),
        ("greedy:64", "mush: bot 'greedy:64': expected key=value"),
        ("greedy:margin=1", "mush: bot 'greedy:margin=1': expected key=value"),
        ("search:64:32", "mush: bot 'search:64:32': expected key=value"),
    ],
)
def test_bad_search_specs(spec, message):
    with pytest.raises(SimkitError) as err:
        bot_row(spec)
    assert str(err.value).startswith(message) and err.value.key == "bots"


def _tables(batch):
    return {**batch.seats, **batch.races, **{f"heat {k}": v for k, v in batch.heat.items()}}


def test_a_search_race_is_a_pure_function_of_its_key(game, make_cell):
    """Same tables at 1 and 2 threads, and for a race alone or in a batch."""
    c = make_cell(3, ["search:6", "greedy", "search:4:horizon=0"], route="sprint")
    keys = race_keys(2, 0, np.arange(12))
    one = _tables(game.simulate(c, keys, threads=1))
    two = _tables(game.simulate(c, keys, threads=2))
    part = _tables(game.simulate(c, keys[7:9], threads=1))
    for name, col in one.items():
        assert np.array_equal(col, two[name]), name
        if not name.startswith("heat"):
            assert np.array_equal(col[7:9], part[name]), name


def test_a_search_that_is_never_sure_plays_greedy(game, make_cell):
    """With an unreachable margin every play is greedy's and the race is greedy's, byte for
    byte: the rollouts leave the race, its streams but the bot's own, and its heat alone."""
    keys = race_keys(4, 0, np.arange(6))
    for bots in (["greedy", "random", "greedy"], ["search:8:margin=1e9", "random", "greedy"]):
        got = _tables(game.simulate(make_cell(3, bots, route="sprint"), keys, threads=1))
        if bots[0] == "greedy":
            want = got
    for name, col in want.items():
        assert np.array_equal(col, got[name]), name


def test_search_leaves_greedy_when_sure(game, make_cell):
    """With no margin at all it does leave greedy's play (else the anchor test says nothing)."""
    keys = race_keys(4, 0, np.arange(6))
    greedy = game.simulate(make_cell(3, ["greedy", "random", "greedy"], route="sprint"), keys)
    c = make_cell(3, ["search:8:margin=0", "random", "greedy"], route="sprint")
    got = game.simulate(c, keys)
    assert not all(np.array_equal(got.seats[k], greedy.seats[k]) for k in got.seats)


@pytest.mark.parametrize("key", [3, 17])
def test_search_never_looks_at_hidden_information(game, make_cell, key):
    """At every decision of a whole race, the search seat's play is the same on the real
    position and on the real position with everything its seat cannot see drawn again;
    the seat's legal plays are the same on both, and its play is one of them."""
    c = make_cell(4, ["search:6", "greedy", "random", "search:6:horizon=0"], route="sprint")
    race = Stepper(game, c, key)
    det = np.zeros(1, R.POSITION)
    asked = 0
    while not K.is_over(race.P):
        s = K.to_move(race.P)
        if race.pos["phase"] in SEARCHED:
            K.determinize(race.P, s, np.uint64(key * 1000 + asked + 1), det)
            assert not np.array_equal(det[0]["streams"], race.pos["streams"])
            legal = race.legal()
            assert np.array_equal(race.legal(det), legal)
            play = race.choose()
            assert np.array_equal(race.choose(det), play)
            assert any(np.array_equal(play, r) for r in legal)
            asked += 1
        race.step()
    assert asked > 20


def test_a_cell_without_search_plays_the_same_without_the_search_compiled(
    game, make_cell, monkeypatch
):
    """A cell with no search seat runs ``batch.blocks`` without the search compiled in
    (``choose.search_flag`` is None, numba prunes the branch); forced into the searching
    specialisation, its races are the same."""
    from simkit.games.mush import batch
    from simkit.games.mush.choose import search_flag

    cell = make_cell(3, ["greedy", "random", "greedy"], route="sprint")
    assert search_flag(game.inputs(cell).cell) is None
    assert search_flag(game.inputs(make_cell(2, ["search:4", "greedy"])).cell) is True
    keys = race_keys(5, 0, np.arange(10))
    pruned = _tables(game.simulate(cell, keys, threads=1))
    monkeypatch.setattr(batch, "search_flag", lambda cells: True)
    full = _tables(game.simulate(cell, keys, threads=1))
    if hasattr(batch.blocks, "signatures"):  # both specialisations ran (none with JIT off)
        assert {str(sig[-1]) for sig in batch.blocks.signatures} >= {"none", "bool"}
    for name, col in pruned.items():
        assert np.array_equal(col, full[name]), name
