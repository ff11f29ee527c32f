"""Run one race through the position API and keep everything a test wants to look at."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.params import SnowTailsParams
from simkit.games.snowtails.records import (
    FINISHED,
    FL_TURN,
    OUT,
    PH_PLAY,
    POSITION,
    WORK,
)
from simkit.games.snowtails.trace import play_logged


@dataclass
class Finished:
    """A played race: its final position, its result record and its events."""

    pos: np.void  # layout.POSITION
    res: np.void  # layout.RESULT
    events: np.ndarray
    occ: np.ndarray  # sleds blocking each space at the end (derived as the engine does)


def occupancy(pos, variant: SnowTailsParams, n_spaces: int) -> np.ndarray:
    """Sleds blocking each space (``rules.sled_at``, counted)."""
    occ = np.zeros(n_spaces, dtype=np.int64)
    for p in range(int(pos["n_seats"])):
        s, status = int(pos["space"][p]), int(pos["status"][p])
        lifted = status == FINISHED and variant.lift_finished
        if s >= 0 and status != OUT and not lifted:
            occ[s] += 1
    return occ


def run_one(track, variant=None, bots=("greedy",) * 4, slots=None, key=1) -> Finished:
    variant = variant or SnowTailsParams()
    slots = slots or tuple(range(1, len(bots) + 1))
    tracks = [track] * variant.races
    events, positions, res, _ = play_logged(tracks, variant, tuple(bots), tuple(slots), key)
    return Finished(positions[0], res[0], events, occupancy(positions[0], variant, track.n_spaces))


def hand_position(track, variant, n, bots=None):
    """A blank position of ``n`` seats on ``track`` at the start of seat 0's turn in round
    2 (the caller places the sleds): (cell record array, reach table, positions, works)."""
    bots = bots or ("greedy",) * n
    cfga, reach = cell_inputs(track, variant, tuple(bots), tuple(range(1, n + 1)))
    positions = np.zeros(1, dtype=POSITION)
    pos = positions[0]
    pos["n_seats"] = n
    pos["status"][n:] = OUT
    pos["order"][:n] = np.arange(1, n + 1)
    pos["rnd"] = 2
    pos["flow"] = FL_TURN
    pos["phase"] = PH_PLAY
    works = np.zeros(1, dtype=WORK)
    works["tracing"] = 1
    return cfga, reach, positions, works


def sled(space, dogs, brake, hand, dents=0, colour=None, finished=False):
    d = {"space": space, "dogs": list(dogs), "brake": brake, "hand": list(hand), "dents": dents}
    if colour:
        d["colour"] = colour
    if finished:
        d["finished"] = True
    return d


def state(sleds, turn=0, rnd=2, **overrides):
    s = {"game": "snowtails", "track": "hand-built", "round": rnd, "turn": turn, "sleds": sleds}
    if overrides:
        s["set"] = overrides
    return s


def turns_at_one_and_two_threads(bots: tuple[str, ...], seed: int, races: int = 6) -> np.ndarray:
    """Each race's turns with ``bots`` on Hairpin Valley, after checking that one and two
    threads give the same tables (a race is a pure function of its key)."""
    from simkit.games import get
    from simkit.games.cells import build_cell
    from simkit.rng import race_keys

    keys = race_keys(seed, 0, np.arange(races))
    cell = build_cell("snowtails", players=len(bots), track="hairpins", bots=bots)
    one = get("snowtails").simulate(cell, keys, threads=1)
    two = get("snowtails").simulate(cell, keys, threads=2)
    for name in one.seats:
        assert np.array_equal(one.seats[name], two.seats[name]), name
    return one.seats["turns"]
