"""Whole Mush! Mush! races: invariants that must hold whenever a race stops (hypothesis
draws the track, sleds, bots, key and a round limit, so a race can be cut at any round)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as hs

from simkit.games.snowtails.params import PRESETS
from simkit.games.snowtails.records import (
    EV_BONUS,
    EV_DIE,
    EV_END,
    EV_FINISH,
    EV_HAND,
    EV_MOVE,
    EV_OUT,
    EV_PLACE,
    EV_REJOIN,
    EV_REPAIR,
    EV_ROUND,
    EV_START,
    EV_TREE,
    EV_TURN,
    FINISHED,
    MV_BONUS,
    REPAIR,
    S_BLOCKED,
    S_PAST,
    S_TREE,
)
from simkit.tracks import load
from tests.mushmush.mm_kit import run_unit

# Track 1 (trees), 2 (bothy, tavern), 3 (kennels, chapel), 5 (all four), a tight corner.
TRACKS = {
    n: load(n)
    for n in (
        "mm1-old-faithful",
        "mm2-tighter-than-i-thought",
        "mm3-ever-decreasing-circles",
        "mm5-what-goes-up",
        "mm-lamont-spur",
    )
}
BOTS = ["random", "greedy", "greedy:bold", "greedy:cautious"]
MM = PRESETS["mushmush"]


@hs.composite
def race_case(draw):
    name = draw(hs.sampled_from(sorted(TRACKS)))
    n = draw(hs.integers(2, 8))
    bots = tuple(draw(hs.sampled_from(BOTS)) for _ in range(n))
    key = draw(hs.integers(0, 2**64 - 1))
    rounds = draw(hs.sampled_from([10, 11, 13, 17, 200]))
    experienced = draw(hs.booleans())
    tree_dents = draw(hs.sampled_from([1, 1, 2]))
    return name, bots, key, rounds, experienced, tree_dents


@given(race_case())
def test_mushmush_invariants_at_any_round(case):
    name, bots, key, rounds, experienced, tree_dents = case
    v = MM.replace(max_rounds=rounds, experienced=experienced, tree_dents=tree_dents)
    u = run_unit(TRACKS[name], v, bots, key=key)
    n = len(bots)
    check_finish(u, n, v)
    check_cards(u, n, v)
    check_trees(u)
    check_dice(u, n)
    check_repairs(u)
    check_board(u, n)
    check_race_end(u, n, rounds)


def check_finish(u, n, v):
    # R-05 / ST2 D: every sled is placed, finish positions are a permutation; R-28 points.
    fin = u.res["finish"][:n]
    assert sorted(fin) == list(range(1, n + 1))
    for p in range(n):
        assert u.res["points"][p] == v.points[fin[p] - 1]  # one race


def check_cards(u, n, v):
    # Cards are conserved: draw deck + hand + used + the two on the dogs +
    # the 5s still set aside = the 20 of the deck; kennels never add a third 5 (ST2 F).
    for p in range(n):
        fives_aside = u.pos["fives"][p]
        assert 0 <= fives_aside <= v.set_aside
        deck = u.pos["deck"][p, : u.pos["deckn"][p]]
        dogs = [u.pos["left"][p]] * u.pos["lcard"][p] + [u.pos["right"][p]] * u.pos["rcard"][p]
        held = u.pos["hand"][p].sum() + u.pos["disc"][p].sum()
        total = len(deck) + held + len(dogs) + fives_aside
        assert total == sum(v.deck)
        fives = (deck == 5).sum() + u.pos["hand"][p, 5] + u.pos["disc"][p, 5] + dogs.count(5)
        assert fives + fives_aside == v.deck[5]  # never more than the deck's two


def check_trees(u):
    # trees only ever disappear: each tree hit stood there at the start and is hit
    # once; the trees left are the others.
    hit = [int(e[2]) for e in u.events if e[0] == EV_TREE]
    assert len(hit) == len(set(hit))
    start = np.flatnonzero(u.tab[:, S_TREE] >= 0)
    assert set(hit) <= set(start.tolist())
    assert np.array_equal(u.trees_standing(), np.setdiff1d(start, hit))
    assert u.res["trees_left"] == len(start) - len(hit)


def check_dice(u, n):
    # the bonus dice is always 0..6 and changes only as logged; a
    # bonus moves at most the distance chosen, which is at most the dice.
    die = {}
    moved = taken = 0
    for e in u.events:
        k = e[0]
        if k == EV_START:
            die[int(e[1])] = int(e[6])
        elif k == EV_HAND:
            assert e[8] == die[int(e[1])]
        elif k == EV_DIE:
            assert e[2] == die[int(e[1])] and 0 <= e[3] <= 6
            die[int(e[1])] = int(e[3])
        elif k == EV_TURN:
            assert moved <= taken
            moved = taken = 0
        elif k == EV_MOVE and e[4] == MV_BONUS:
            moved += 1
        elif k == EV_BONUS:
            assert 0 <= e[3] <= e[2] <= 6
            taken = int(e[3])
        assert all(0 <= d <= 6 for d in die.values())
    assert moved <= taken
    for p in range(n):
        assert u.pos["die"][p] == die[p]


def check_repairs(u):
    # a sled sent to repair never moves (or takes a turn) until it rejoins.
    away = set()
    for e in u.events:
        k, p = e[0], int(e[1])
        if k == EV_REPAIR:
            away.add(p)
        elif k == EV_REJOIN:
            assert p in away
            away.discard(p)
        elif k in (EV_MOVE, EV_TURN):
            assert p not in away
    for p in away:
        assert u.pos["status"][p] in (REPAIR, FINISHED)


def check_board(u, n, lift=True):
    # ST2 B: sleds may share a start-row space as they enter in round 1; no move ever ends on
    # a held space, so from round 2 only sleds that have not moved since they entered may
    # still share one (a first move that collides at once leaves a sled where it entered).
    # Never on a closed space or a building. Sleds out of the race leave the board,
    # and so do finished ones with lift_finished.
    where = {}
    gone = set()
    entered = set()  # sleds still on the start-row space they entered on in round 1
    rnd = 0
    for e in u.events:
        k = e[0]
        if k == EV_OUT or (k == EV_FINISH and lift):
            gone.add(int(e[1]))
        elif k == EV_START:
            where[int(e[1])] = int(e[3])
        elif k == EV_PLACE:  # entering the start row in round 1, or rejoining
            where[int(e[1])] = int(e[2])
            (entered.add if rnd == 1 else entered.discard)(int(e[1]))
        elif k == EV_MOVE:
            assert where[int(e[1])] == e[2]
            if e[3] != e[2]:
                entered.discard(int(e[1]))
            where[int(e[1])] = int(e[3])
            assert not u.tab[e[3], S_BLOCKED]
        elif k == EV_ROUND:
            rnd = int(e[1])
        if k == EV_ROUND and e[1] >= 2:
            on = [(s, p) for p, s in where.items() if s >= 0 and p not in gone]
            spaces = [s for s, _ in on]
            for s, p in on:
                if spaces.count(s) > 1:
                    assert p in entered, f"round {e[1]}: sled {p} shares space {s}"
    for p in range(n):
        assert u.pos["space"][p] == where[p]


def check_race_end(u, n, rounds):
    # R-05 / ST2 D: the race ends with the round in which the first sled crosses the line.
    rnd = 0
    crossed = None
    for e in u.events:
        if e[0] == EV_ROUND:
            rnd = int(e[1])
        elif e[0] == EV_MOVE and u.tab[e[3], S_PAST] and crossed is None:
            crossed = rnd
    end = next(int(e[1]) for e in u.events if e[0] == EV_END)
    fin_rounds = {int(e[3]) for e in u.events if e[0] == EV_FINISH}
    if u.res["timed_out"]:
        assert crossed is None and end == rounds
        assert fin_rounds == set()
    elif n == 2 and crossed is None:
        assert fin_rounds == {end}  # a fifth dent in a 2-sled race ends it
    else:
        assert crossed == end and fin_rounds == {end}


@hs.composite
def mixed_case(draw):
    """Mush! Mush! with single rules switched back to Snow Tails' (issue 6: ST2 with a
    brake, without bonus dice, out on the fifth dent...), or Snow Tails with ST2 ones."""
    base = draw(hs.sampled_from(["mushmush", "snowtails"]))
    v = PRESETS[base]
    changes = {}
    if draw(hs.booleans()):
        changes |= {"brake": True, "brake_start": 1, "max_cards": 3}
    changes["bonus_rule"] = draw(hs.sampled_from(["position", "none", "dice"]))
    changes["fifth_dent"] = draw(hs.sampled_from(["out", "repair"]))
    changes["race_end"] = draw(hs.sampled_from(["all", "round"]))
    changes["tie_break"] = draw(hs.sampled_from(["inside", "speed"]))
    changes["buildings"] = draw(hs.sampled_from(["effects", "walls", "none"]))
    changes["trees"] = draw(hs.booleans())
    changes["start_rule"] = "row"
    changes["max_rounds"] = draw(hs.sampled_from([12, 200]))
    if base == "snowtails":
        changes |= {"extra_cards": (0,) * 8, "safety_speeds": False}
    name = draw(hs.sampled_from(sorted(TRACKS)))
    n = draw(hs.integers(2, 6))
    bots = tuple(draw(hs.sampled_from(BOTS)) for _ in range(n))
    return name, v.replace(**changes), bots, draw(hs.integers(0, 2**64 - 1))


@given(mixed_case())
def test_mixed_rules_keep_the_invariants(case):
    # Every rule is its own switch: any mix still conserves cards, keeps the dice in range,
    # never shares a space after round 1 and places every sled once.
    name, v, bots, key = case
    u = run_unit(TRACKS[name], v, bots, key=key)
    n = len(bots)
    assert sorted(u.res["finish"][:n]) == list(range(1, n + 1))
    check_cards(u, n, v)
    check_trees(u)
    if v.bonus_rule == "dice":
        check_dice(u, n)
    check_repairs(u)
    check_board(u, n)
    if not v.trees:
        assert not [e for e in u.events if e[0] == EV_TREE]


def test_a_sled_that_cannot_leave_a_shared_start_space_keeps_sharing_it():
    # ST2 B lets sleds enter on one start-row space; a sled whose first turn moves it
    # nowhere (speed 0 under a brake, or a collision on its first step) stays there, so two
    # sleds may still share it in round 2. Found by test_mixed_rules_keep_the_invariants.
    v = PRESETS["snowtails"].replace(
        deck=(0, 4, 4, 4, 4, 4),
        start_rule="row",
        extra_cards=(0,) * 8,
        safety_speeds=False,
        trees=False,
        max_rounds=12,
    )
    u = run_unit(TRACKS["mm-lamont-spur"], v, ("random",) * 3, key=1471)
    second = next(i for i, e in enumerate(u.events) if e[0] == EV_ROUND and e[1] == 2)
    placed = {int(e[1]): int(e[2]) for e in u.events[:second] if e[0] == EV_PLACE}
    moved = {int(e[1]) for e in u.events[:second] if e[0] == EV_MOVE}
    assert placed[0] == placed[2] and not {0, 2} & moved
    check_board(u, 3)


def test_places_are_the_race_order_when_the_round_ends():
    # ST2 D: positions by race order at the end of the crossing round, past the line
    # included: the first sled across can still be overtaken in that round (the book's
    # example: yellow crosses first, blue passes her and wins).
    from simkit.games.snowtails.kernels import race_order
    from simkit.rng import race_keys

    track = TRACKS["mm1-old-faithful"]
    overtaken = 0
    for key in race_keys(8, 0, np.arange(60)):
        u = run_unit(track, MM, ("greedy", "greedy:bold", "random", "greedy:cautious") * 2,
                     key=int(key))  # fmt: skip
        out = np.zeros(16, dtype=np.int64)
        n = race_order(u.cfga, u.positions, False, out)
        assert [int(u.res["finish"][p]) for p in out[:n]] == list(range(1, 9))
        first = next(int(e[1]) for e in u.events if e[0] == EV_MOVE and u.tab[e[3], S_PAST])
        overtaken += u.res["finish"][first] != 1
    assert overtaken > 0
