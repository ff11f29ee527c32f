"""Mixed rules, tournaments and determinism for the Mush! Mush! preset (issue 6)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as hs

from simkit.games.snowtails.batch import run_batch
from simkit.games.snowtails.params import PRESETS
from simkit.games.snowtails.records import (
    EV_BUILDING,
    EV_RACE,
    EV_START,
    EV_TURN,
    T_KENNELS,
)
from simkit.games.snowtails.trace import trace_race
from simkit.rng import race_keys
from simkit.tracks import load
from tests.mushmush.mm_kit import run_unit

BOTS5 = ("greedy", "random", "greedy:bold", "greedy:cautious", "greedy")
MM1 = load("mm1-old-faithful")
NUT = load("nutcracker")
TOURNAMENT_TRACKS = [MM1, load("mm2-tighter-than-i-thought"), load("mm3-ever-decreasing-circles")]
TRACK_NAMES = {t.name: t for t in [*TOURNAMENT_TRACKS, load("mm5-what-goes-up"), NUT]}
TOURNAMENT = PRESETS["mushmush-tournament"].replace(
    race_tracks=("mm2-tighter-than-i-thought", "mm3-ever-decreasing-circles")
)


def _batch(track, variant, keys, threads=2, bots=BOTS5):
    return run_batch(track, variant, bots, tuple(range(1, len(bots) + 1)), keys, threads)


def test_st1_rules_on_an_st2_track():
    # Issue 6 "mixed variants": Snow Tails rules (grid start, brake, position bonus, out on
    # the fifth dent, race until all are done) on Mush! Mush! track 1, 5 sleds, 1,000 races.
    # Track 1's finish line lies 60 spaces on; ST1 sleds average about 5-6 spaces a turn and
    # the race runs until the last sled is done, so 9-18 rounds on average is plausible
    # (measured 12.1 and 12.4 for two seeds; ST1 on the 67-space Nutcracker: 14.6).
    b = _batch(MM1, PRESETS["snowtails"], race_keys(2026, 0, np.arange(1000)))
    rounds = b.races["rounds"]
    assert 9 <= rounds.mean() <= 18 and rounds.min() >= 5 and rounds.max() < 60
    assert b.races["timed_out"].sum() == 0
    assert (np.sort(b.seats["finish"], axis=1) == np.arange(1, 6)).all()
    assert 0 < b.seats["eliminated"].mean() < 0.5  # R-18 takes some sleds out
    assert b.seats["bonus_used"].sum() > 0 and b.seats["repairs"].sum() == 0


def test_st2_rules_on_an_st1_track():
    # The reverse: Mush! Mush! rules on the Nutcracker (no start row there, so the grid:
    # start_rule = "grid"), 1,000 races. The race ends with the round of the first crossing
    # (ST2 D): 67 spaces at 7-9 a turn for the leader, with bonus dice, is 7-10 rounds
    # (measured 8.5 for two seeds), and always shorter than ST1's race to the last sled.
    v = PRESETS["mushmush"].replace(start_rule="grid")
    keys = race_keys(2026, 0, np.arange(1000))
    b = _batch(NUT, v, keys)
    rounds = b.races["rounds"]
    assert 6 <= rounds.mean() <= 11 and rounds.min() >= 5 and rounds.max() <= 20
    assert b.races["timed_out"].sum() == 0
    assert (np.sort(b.seats["finish"], axis=1) == np.arange(1, 6)).all()
    assert b.seats["eliminated"].sum() == 0  # repair, never out
    st1 = _batch(NUT, PRESETS["snowtails"], keys)
    assert rounds.mean() < st1.races["rounds"].mean() - 3


@pytest.mark.parametrize("key", range(12))
def test_tournament_points_starts_and_decks(key):
    # ST2 E / R-28: three races on tracks 1-3; points 10/7/5/4/3/2/1/0 per race, summed;
    # race 2 and 3 start in reverse finishing order; decks carry over; most points win,
    # ties to the better place in the final race.
    n = 3 + key % 6
    bots = ("greedy", "random", "greedy:bold", "greedy:cautious") * 2
    v = TOURNAMENT
    u = run_unit(TOURNAMENT_TRACKS, v, bots[:n], key=int(race_keys(9, 0, np.arange(key + 1))[-1]))
    check_tournament(u, v, n)


@given(
    hs.lists(hs.sampled_from(sorted(TRACK_NAMES)), min_size=3, max_size=3),
    hs.integers(2, 8),
    hs.integers(0, 2**64 - 1),
    hs.booleans(),
)
def test_any_tournament_keeps_its_rules(names, n, key, experienced):
    # The same checks on any three tracks (a track may repeat), 2-8 sleds, either start.
    v = PRESETS["mushmush-tournament"].replace(
        race_tracks=tuple(names[1:]), experienced=experienced
    )
    bots = ("greedy", "random", "greedy:bold", "greedy:cautious") * 2
    u = run_unit([TRACK_NAMES[x] for x in names], v, bots[:n], key=key)
    check_tournament(u, v, n)


def check_tournament(u, v, n):
    """ST2 E / R-28 on a finished tournament unit ``u`` of ``n`` sleds."""
    res = u.res
    fin = res["race_fin"][:n, :3]
    pts = res["race_pts"][:n, :3]
    for r in range(3):
        assert sorted(fin[:, r]) == list(range(1, n + 1))  # every race a permutation
        assert [v.points[f - 1] for f in fin[:, r]] == pts[:, r].tolist()
    assert (pts.sum(axis=1) == res["points"][:n]).all()
    total = res["points"][:n]
    rank = res["finish"][:n]
    assert sorted(rank) == list(range(1, n + 1))
    for p in range(n):
        for q in range(n):
            if rank[p] < rank[q]:
                assert total[p] > total[q] or (total[p] == total[q] and fin[p, 2] < fin[q, 2])
    # Start slots of each race from the events: race r + 1 is the reverse of race r.
    slots = {}
    race = 0
    first_turn = {}
    for e in u.events:
        if e[0] == EV_RACE:
            race = int(e[1])
        elif e[0] == EV_START:
            slots[race, int(e[1])] = int(e[2])
            assert race == 1 or e[4] == 0  # later races deal no new hand: decks carried
            assert e[6] == v.bonus_dice_start[e[2] - 1]  # dice by start slot, each race
        elif e[0] == EV_TURN and (race, int(e[1])) not in first_turn:
            first_turn[race, int(e[1])] = int(e[8])  # dents at the first turn of a race
    for r in (1, 2):
        for p in range(n):
            assert slots[r + 1, p] == n + 1 - fin[p, r - 1]  # last of race r starts first
            assert first_turn.get((r + 1, p), 0) == 0  # dents go back between races
    # Cards carried over: the 20 are all still there after three races, and the kennels
    # added at most the two set-aside 5s over the whole tournament.
    for p in range(n):
        held = u.pos["deckn"][p] + u.pos["hand"][p].sum() + u.pos["disc"][p].sum()
        held += u.pos["lcard"][p] + u.pos["rcard"][p] + u.pos["fives"][p]
        assert held == sum(v.deck)
        kennels = sum(1 for e in u.events if e[0] == EV_BUILDING and e[1] == p
                      and e[2] == T_KENNELS)  # fmt: skip
        assert kennels == v.set_aside - u.pos["fives"][p] <= 2


def test_same_results_on_one_and_two_threads():
    # DESIGN §4: bit-identical for any thread count, single races and tournaments.
    keys = race_keys(11, 0, np.arange(120))
    bots = ("greedy", "random", "greedy:bold", "greedy:cautious", "greedy", "random")
    for track, v in ((MM1, PRESETS["mushmush"]), (TOURNAMENT_TRACKS, TOURNAMENT)):
        a = _batch(track, v, keys, threads=1, bots=bots)
        b = _batch(track, v, keys, threads=2, bots=bots)
        for part in ("seats", "races", "heat"):
            for name, col in getattr(a, part).items():
                assert np.array_equal(col, getattr(b, part)[name]), (part, name)
        assert len({tuple(row) for row in a.seats["finish"]}) > 5


@pytest.mark.parametrize("tournament", [False, True])
def test_trace_agrees_with_the_table(tournament):
    track, v = (TOURNAMENT_TRACKS, TOURNAMENT) if tournament else (MM1, PRESETS["mushmush"])
    keys = race_keys(5, 0, np.arange(4))
    bots = BOTS5
    batch = _batch(track, v, keys, bots=bots)
    for i, key in enumerate(keys):
        tr = trace_race(track, v, bots, (1, 2, 3, 4, 5), int(key), "Mush! Mush!")
        for name in batch.seats:
            assert np.array_equal(tr.result.seats[name][0], batch.seats[name][i]), name
        for name in batch.races:
            assert tr.result.races[name][0] == batch.races[name][i], name
        assert tr.result.seats["turns"][0].sum() == len(tr.turns)
