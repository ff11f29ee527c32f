"""``simkit moves`` agrees with real races: at every turn of a traced Mush! Mush! race
(round 1 too, with sleds still off the board, ST2 B), the position rebuilt from the event
log gives the race position the engine used (R-04), offers the play the bot made (and the
start-row space it entered on), and one of that play's outcomes ends where the sled ended
with the dice it was left with (R-23, R-24, R-27 tavern)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.snowtails.moves import moves
from simkit.games.snowtails.params import PRESETS
from simkit.games.snowtails.records import (
    EV_BUILDING,
    EV_DIE,
    EV_HAND,
    EV_MOVE,
    EV_PLACE,
    EV_PLAY,
    EV_REJOIN,
    EV_REPAIR,
    EV_START,
    EV_TREE,
    EV_TURN,
    S_TREE,
    T_KENNELS,
)
from simkit.games.snowtails.trace import where_list
from simkit.rng import race_keys
from simkit.tracks import load
from tests.mushmush.mm_kit import run_unit

TRACK = load("mm5-what-goes-up")  # trees and all four buildings
BOTS = ("greedy", "greedy:bold", "random", "greedy:cautious", "greedy")


def turns(u, n):
    """(state before the turn, the play made, end space, dice after) for each turn."""
    v = PRESETS["mushmush"]
    space, dogs, die, fives, slot = {}, {}, {}, {}, {}
    repairing = set()
    trees = set(np.flatnonzero(u.tab[:, S_TREE] >= 0).tolist())
    cur = None
    for e in u.events:
        k, p = int(e[0]), int(e[1])
        if k == EV_START:
            space[p], dogs[p], die[p], fives[p] = int(e[3]), [int(e[5])] * 2, int(e[6]), 2
            slot[p] = int(e[2])
        elif k == EV_TURN:
            if cur is not None:
                yield cur
            cur = None
            rnd, pos, dents = int(e[2]), int(e[3]), int(e[8])
        elif k == EV_HAND:
            # Sleds listed in start order: off the board, that is their race order (ST2 B).
            seats = sorted(range(n), key=lambda q: slot[q])
            sleds = []
            for q in seats:
                s = {"space": space[q] if space[q] >= 0 else None, "dogs": list(dogs[q])}
                s |= {"die": die[q], "fives": fives[q]}
                s["hand"] = [] if q != p else [c for c in range(6) for _ in range(int(e[2 + c]))]
                s["dents"] = dents if q == p else 0
                if q in repairing:
                    s["repairing"] = True
                sleds.append(s)
            state = {"game": "mushmush", "track": TRACK.name, "round": rnd,
                     "turn": seats.index(p), "sleds": sleds, "trees": sorted(trees)}  # fmt: skip
            cur = {"state": state, "pos": pos, "play": None, "end": space[p], "die": die[p]}
            cur["enter"] = None
        elif k == EV_PLACE:
            space[p] = int(e[2])  # ST2 B: it enters the board on this start-row space
            if cur is not None:
                cur["enter"] = cur["end"] = space[p]
        elif k == EV_PLAY:
            dogs[p] = [int(e[4]), int(e[5])]
            if cur is not None:
                cur["play"] = (int(e[2]), where_list(int(e[3])))
        elif k == EV_MOVE:
            space[p] = int(e[3])
            if cur is not None:
                cur["end"] = space[p]
        elif k == EV_DIE:
            die[p] = int(e[3])
            if cur is not None:
                cur["die"] = die[p]
        elif k == EV_TREE:
            trees.discard(int(e[2]))
        elif k == EV_REPAIR:
            repairing.add(p)
            if cur is not None:
                cur = None  # its new hand is drawn from a deck the oracle cannot see
        elif k == EV_REJOIN:
            repairing.discard(p)
        elif k == EV_BUILDING and e[2] == T_KENNELS:
            fives[p] = int(e[3])
    if cur is not None:
        yield cur
    assert v.set_aside == 2


@pytest.mark.parametrize("i", range(3))
def test_every_turn_of_a_race_is_among_the_oracles_outcomes(i):
    key = int(race_keys(31, 0, np.arange(3))[i])
    u = run_unit(TRACK, PRESETS["mushmush"], BOTS, key=key)
    checked = 0
    for t in turns(u, len(BOTS)):
        if t["play"] is None:
            continue
        res = moves(t["state"])
        assert res.race_position == t["pos"]
        value, onto = t["play"]
        (play,) = [
            pl
            for pl in res.plays
            if pl["cards"][0] == value and pl["onto"] == onto and pl["enter"] == t["enter"]
        ]
        ends = {(o["end"], o["die_after"]) for o in play["outcomes"]}
        assert (t["end"], t["die"]) in ends, (t["state"], ends)
        checked += 1
    assert checked >= 20
