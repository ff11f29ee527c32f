"""Whole races: the rules hold at every turn (hypothesis), results replay exactly."""

import json
import os
import subprocess
import sys

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.games.mush import records as E
from simkit.games.mush.arrays import kernel_route
from simkit.games.mush.route import TOWN, load_route
from simkit.rng import race_keys

races = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "bots": st.lists(
            st.sampled_from(["greedy", "random", "greedy:reserve=0:bid=3"]), min_size=6, max_size=6
        ),
        "preset": st.sampled_from(["mush", "mush-short-north", "mush-skip-central"]),
        "route": st.sampled_from(["standard", "sprint"]),
        "key": st.integers(0, 2**64 - 1),
    }
)


def _trace(game, make_cell, r):
    route = r["route"]
    if route == "sprint" and r["preset"] == "mush-skip-central":
        route = "standard"  # the sprint route has no Central zone to skip
    c = make_cell(r["players"], list(r["bots"][: r["players"]]), r["preset"], route=route)
    return c, game.trace(c, r["key"])


@given(races)
def test_rules_hold_after_every_turn(game, make_cell, turns, r):
    c, tr = _trace(game, make_cell, r)
    route = load_route(c.variant.route)
    for pos, covered, tokens in turns(tr):
        wild = pos[route.kind[pos] != TOWN]
        assert len(wild) == len(set(wild.tolist())), "two sleds on one wilderness space"
        assert ((covered >= 0) & (covered <= 8)).all()
        assert (tokens >= 0).all()


@given(races)
def test_rolls_follow_the_rules(game, make_cell, r):
    c, tr = _trace(game, make_cell, r)
    v = c.variant
    ev = tr.events
    covered = np.zeros(c.players, dtype=int)
    lost = np.zeros(c.players, dtype=int)
    bids = {}
    for i, (_, kind, s, a, b, cc, d, _e) in enumerate(ev.tolist()):
        if kind == E.EV_REDUCE:
            lost[a] += b
            assert b * v.reduce_cost == cc
        elif kind == E.EV_ROLL and d == 0:
            assert lost[s] <= v.reduce_max_dice
            assert a == max(0, v.dogs - covered[s] - lost[s])  # a die per uncovered dog
            lost[s] = 0
        elif kind == E.EV_ROUGH:
            assert cc <= v.rough_token_max
            assert bool(d) == (b + cc >= v.rough_target)
            if not d:  # failure ends the movement (text's example)
                assert ev[i + 1, 1] in (E.EV_REROLL, E.EV_BACK, E.EV_COVER)
            elif ev[i + 1, 1] != E.EV_REROLL:  # success: it enters the rough space
                assert ev[i + 1, 1] == E.EV_STEP and ev[i + 1, 4] == a
        elif kind == E.EV_AVAL:
            assert cc <= v.avalanche_token_max
            assert bool(d) == (b + cc >= v.avalanche_target)
            if not d:
                assert ev[i + 1, 1] in (E.EV_REROLL, E.EV_BACK, E.EV_COVER)
        elif kind == E.EV_COVER:
            # text: one dog token after every move, even of 0 spaces (+1 for a crossed dog)
            assert a == min(v.dogs, covered[s] + 1 + b)
            covered[s] = a
        elif kind == E.EV_REROLL:
            assert b == v.reroll_cost and ev[i + 1, 2] == a  # the rolled-again roll follows
        elif kind == E.EV_REST:
            covered[s] -= b
        elif kind == E.EV_BID:
            bids[s] = a
        elif kind == E.EV_ORDER:
            order = [(a >> (3 * (b - 1 - k))) & 7 for k in range(b)]
            assert sorted(order) == list(range(c.players))
            # bidders first, highest first; then the initiative player (who rolled
            # the weather) unless a bidder; the highest bidder gains the extra space
            bidders = [q for q in order if bids.get(q, 0) > 0]
            assert order[: len(bidders)] == sorted(bidders, key=lambda q: -bids[q])
            rest = order[len(bidders) :]
            if rest and s not in bidders:
                assert rest[0] == s
            assert cc == (order[0] if bidders else -1)
            bids = {}


@given(races)
def test_every_game_ends_and_ranks_everyone(game, make_cell, r):
    c, tr = _trace(game, make_cell, r)
    assert tr.events[-1, 1] == E.EV_END
    finishes = (tr.events[:, 1] == E.EV_FINISH).sum()
    assert tr.races["rounds"] <= c.variant.max_rounds
    assert finishes == (0 if tr.races["timed_out"] else 1)
    assert sorted(tr.seats["finish"]) == list(range(1, c.players + 1))
    if finishes:
        winner = int(tr.events[tr.events[:, 1] == E.EV_FINISH][0, 2])
        assert tr.seats["finish"][winner] == 1 and tr.seats["to_go"][winner] == 0
    assert sorted(tr.seats["slot"]) == list(range(1, c.players + 1))


@given(races)
def test_weather_comes_from_the_leaders_board(game, make_cell, turns, r):
    c, tr = _trace(game, make_cell, r)
    sp = kernel_route(load_route(c.variant.route), c.variant)[0]["sp"]
    pos = np.full(c.players, load_route(c.variant.route).start)
    slot = np.array(tr.seats["slot"])
    for row in tr.events.tolist():
        if row[1] == E.EV_STATE:
            pos[row[2]] = row[3]
        elif row[1] == E.EV_WEATHER:
            d = sp["dist"][pos]
            lead = min(range(c.players), key=lambda s: (d[s], slot[s]))
            assert row[4] == sp["board"][pos[lead]]  # the leader's board's table
            assert row[3] == sp["weather"][pos[lead], row[5] - 1]


def test_trace_is_the_simulated_race(game, make_cell):
    c = make_cell(4, ["greedy", "random", "greedy", "random"])
    keys = race_keys(11, 0, np.arange(3))
    b = game.simulate(c, keys, threads=1)
    for i, key in enumerate(keys):
        tr = game.trace(c, int(key))
        for name, col in b.seats.items():
            assert list(col[i]) == list(tr.seats[name]), name
        for name, col in b.races.items():
            assert col[i] == tr.races[name], name


def test_heat_counts_match_the_seat_counts(game, make_cell):
    c = make_cell(5, "greedy")
    b = game.simulate(c, race_keys(2, 0, np.arange(50)))
    assert b.heat["rest"].sum() == b.seats["rests"].sum() > 0
    assert b.heat["rough_fail"].sum() == b.seats["rough_fails"].sum() > 0
    assert b.heat["avalanche_fail"].sum() == b.seats["avalanche_fails"].sum()


def test_greedy_beats_random_and_games_finish(game, make_cell):
    c = make_cell(4, ["greedy", "random", "random", "random"])
    b = game.simulate(c, race_keys(3, 0, np.arange(200)))
    assert b.seats["points"][:, 0].mean() > 0.8
    assert b.races["timed_out"].mean() < 0.05
    g = game.simulate(make_cell(4, "greedy"), race_keys(3, 0, np.arange(200)))
    assert not g.races["timed_out"].any()
    assert 30 < np.median(g.races["rounds"]) < 90


def test_same_results_on_one_and_two_threads(game, make_cell):
    c = make_cell(4, ["greedy", "random", "greedy", "random"])
    keys = race_keys(5, 0, np.arange(96))
    one = game.simulate(c, keys, threads=1)
    two = game.simulate(c, keys, threads=2)
    for name in one.seats:
        assert np.array_equal(one.seats[name], two.seats[name]), name
    for name in one.races:
        assert np.array_equal(one.races[name], two.races[name]), name
    for name in one.heat:
        assert np.array_equal(one.heat[name], two.heat[name]), name


_NOJIT = """
import json, numpy as np
from simkit.games.cells import build_cell
from simkit.games import get
from simkit.rng import race_keys
bots = ["greedy", "random", "greedy"]
c = build_cell("mush", players=3, bots=bots, overrides={"route": "sprint"})
b = get("mush").simulate(c, race_keys(9, 0, np.arange(3)))
print(json.dumps({k: v.tolist() for k, v in {**b.seats, **b.races}.items()}))
"""


def test_jit_and_pure_python_agree(game, make_cell):
    c = make_cell(3, ["greedy", "random", "greedy"], route="sprint")
    b = game.simulate(c, race_keys(9, 0, np.arange(3)))
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", _NOJIT], env=env, capture_output=True, text=True, check=True
    )
    got = json.loads(out.stdout)
    for name, col in {**b.seats, **b.races}.items():
        assert got[name] == col.tolist(), name


@given(st.integers(0, 2**64 - 1), st.integers(2, 6))
def test_short_games(game, make_cell, turns, key, players):
    # text, shorter games: skip the Central zone (jump to Unalakleet) / end in the North
    c = make_cell(players, "greedy", "mush-skip-central")
    route = load_route("standard")
    tr = game.trace(c, key)
    una, nik = route.town("Unalakleet"), route.town("Nikolai")
    for row in tr.events[tr.events[:, 1] == E.EV_JUMP].tolist():
        assert row[4] == una and (row[3] == nik or route.zone[row[3]] == 1)
    for pos, _, _ in turns(tr):
        assert not (route.zone[pos] == 1).any() and not (pos == nik).any()
    c = make_cell(players, "greedy", "mush-short-north")
    tr = game.trace(c, key)
    assert all(t != 2 for t in tr.seats["training"])  # nobody trains for cold
    end = tr.events[tr.events[:, 1] == E.EV_FINISH]
    assert len(end) == 1 and route.zone[end[0, 3]] == 2
    assert not tr.races["timed_out"]


def test_a_race_does_not_depend_on_its_batch(game, make_cell):
    c = make_cell(3, ["random", "greedy", "greedy"])
    keys = race_keys(8, 0, np.arange(40))
    whole = game.simulate(c, keys)
    part = game.simulate(c, keys[25:31])
    for name in whole.seats:
        assert np.array_equal(whole.seats[name][25:31], part.seats[name]), name
