"""The MUSH position (docs/positions.md): stepped from Python it is the batch's race, every
bot play is legal, and a seat sees only what it may (observe / determinize)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from simkit.games.mush import kernels as K
from simkit.games.mush import records as R
from simkit.rng import race_keys
from tests.mush.stepper import Stepper

SETTINGS = settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _same_play(row, rows):
    return any(np.array_equal(row, r) for r in rows)


races = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "bots": st.lists(
            st.sampled_from(["greedy", "random", "greedy:reserve=0:bid=3:harass_within=80"]),
            min_size=6,
            max_size=6,
        ),
        "preset": st.sampled_from(["mush", "mush-skip-central"]),
        "full_move": st.booleans(),
        "key": st.integers(0, 2**64 - 1),
    }
)


def _cell(make_cell, r):
    return make_cell(
        r["players"], list(r["bots"][: r["players"]]), r["preset"], full_move=r["full_move"]
    )


def test_a_race_stepped_from_python_is_the_batch_row(game, make_cell):
    """Python loop over legal_plays / choose / apply == the batch kernel, key by key; every
    play a bot makes is one legal_plays lists."""
    c = make_cell(4, ["greedy", "random", "greedy:reserve=0:bid=3", "random"], route="sprint")
    keys = race_keys(3, 0, np.arange(4))
    batch = game.simulate(c, keys, threads=1)
    for i, key in enumerate(keys):
        r = Stepper(game, c, int(key))
        steps = 0
        while not K.is_over(r.P):
            assert _same_play(r.choose(), r.legal())
            r.step()
            steps += 1
        assert K.to_move(r.P) == -1 and steps > 100
        seats, race = r.result(c.players)
        for name in batch.seats:
            assert list(batch.seats[name][i]) == list(seats[name]), name
        for name in batch.races:
            assert batch.races[name][i] == race[name], name


@SETTINGS
@given(races, st.integers(0, 600), st.integers(0, 2**64 - 1))
def test_determinize_keeps_what_the_seat_saw(game, make_cell, r, steps, key2):
    """observe(determinize(pos, s)) == observe(pos, s); only hidden parts change; the seat's
    bot chooses the same play from a determinized position."""
    assume(key2 != r["key"])  # the race's own key would draw the very same streams
    c = _cell(make_cell, r)
    race = Stepper(game, c, r["key"])
    for _ in range(steps):
        if K.is_over(race.P):
            break
        race.step()
    pos = race.pos
    det = np.zeros(1, R.POSITION)
    seen, seen_det = np.zeros(1, R.POSITION), np.zeros(1, R.POSITION)
    for seat in range(c.players):
        K.determinize(race.P, seat, np.uint64(key2), det)
        K.observe(race.P, seat, seen)
        K.observe(det, seat, seen_det)
        assert seen.tobytes() == seen_det.tobytes()
        others = [s for s in range(c.players) if s != seat]
        assert det[0]["streams"][R.I_BOT + seat] == pos["streams"][R.I_BOT + seat]
        assert any(det[0]["streams"][i] != pos["streams"][i] for i in range(c.players))
        assert all(det[0]["streams"][R.I_BOT + s] != pos["streams"][R.I_BOT + s] for s in others)
    s = K.to_move(race.P)
    if s >= 0:
        K.determinize(race.P, s, np.uint64(key2), det)
        assert np.array_equal(race.choose(det), race.choose())
        assert _same_play(race.choose(det), race.legal(det))


def _to_bids(race):
    """Step until some seat has bid and another is still to bid (R-47: secret bids)."""
    for _ in range(5000):
        if race.pos["phase"] == R.PH_BID and race.pos["bid_i"] >= 1:
            return
        race.step()
    pytest.fail("no bidding round reached")


def test_observe_hides_the_bids_made_and_every_stream(game, make_cell):
    c = make_cell(4, ["random"] * 4)
    race = Stepper(game, c, 11)
    _to_bids(race)
    pos = race.pos
    seat = K.to_move(race.P)
    bidders = [pos["seat_at"][(pos["ini"] + j) % 4] for j in range(pos["bid_i"])]
    seen = np.zeros(1, R.POSITION)
    K.observe(race.P, seat, seen)
    for s in range(4):
        want = -1 if s in bidders else pos["bid"][s]
        assert seen[0]["bid"][s] == want  # another seat's bid this round: not seen yet
    keep = np.zeros(R.N_STREAMS, dtype=np.uint64)
    keep[R.I_BOT + seat] = pos["streams"][R.I_BOT + seat]  # only its own bot's stream
    assert np.array_equal(seen[0]["streams"], keep)
    # the tokens do not give the bids away: they are paid when every seat has bid
    assert list(seen[0]["tokens"]) == list(pos["tokens"])
    bid_seen = seen[0].copy()
    bid_seen["bid"] = pos["bid"]
    bid_seen["streams"] = pos["streams"]
    assert bid_seen.tobytes() == pos.tobytes()  # nothing else is hidden


def test_determinize_resamples_the_bids_made(game, make_cell):
    c = make_cell(4, ["random"] * 4)
    race = Stepper(game, c, 11)
    _to_bids(race)
    pos = race.pos
    seat = K.to_move(race.P)
    other = pos["seat_at"][pos["ini"] % 4]
    det = np.zeros(1, R.POSITION)
    seen = set()
    for key in range(40):
        K.determinize(race.P, seat, np.uint64(key), det)
        assert 0 <= det[0]["bid"][other] <= pos["tokens"][other]
        seen.add(int(det[0]["bid"][other]))
    assert len(seen) > 1


def test_random_marker_pick_is_the_listed_play(game, make_cell):
    """Random picks the k-th marker play without listing them: the same order as the list."""
    race = Stepper(game, make_cell(3, "greedy", route="sprint"), 5)
    pos = race.pos
    lines = [x for x in range(int(race.rt["n_lines"])) if race.rt["ln"][x]["avalanche"]]
    pos["markers"][:3] = lines[4], lines[9], -1
    pos["on_board"] = 2
    for only in (-2, lines[9]):
        n = K.marker_plays(race.P, race.inp.prm, race.inp.rt, only, race.out, 0)
        assert n == K.n_marker_plays(race.P, race.inp.prm, race.inp.rt, only)
        for k in range(n):
            src, dst = K.nth_marker_play(race.P, race.inp.prm, race.inp.rt, only, k)
            assert (race.out[k, 0], race.out[k, 1], race.out[k, 2]) == (R.P_MARKER, src, dst)
    free = len(lines) - 2
    assert n == 1 + free  # the marker on lines[9]: off the board or onto any free line
