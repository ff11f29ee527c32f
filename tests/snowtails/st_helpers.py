"""Run one race through the kernel and keep everything a test wants to look at."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.games.snowtails.batch import kernel_inputs
from simkit.games.snowtails.engine import new_scratch, play_race
from simkit.games.snowtails.layout import EV_WIDTH, HEAT_KINDS, R_COLS, ST_COLS
from simkit.games.snowtails.params import SnowTailsParams


@dataclass
class Finished:
    st: np.ndarray
    hand: np.ndarray
    disc: np.ndarray
    occ: np.ndarray
    seat_out: np.ndarray
    race_out: np.ndarray
    events: np.ndarray


def run_one(track, variant=None, bots=("greedy",) * 4, slots=None, key=1) -> Finished:
    variant = variant or SnowTailsParams()
    slots = slots or tuple(range(1, len(bots) + 1))
    inputs = kernel_inputs(track, variant, tuple(bots), tuple(slots))
    scratch = new_scratch(track.n_spaces)
    seat_out = np.zeros((len(slots), ST_COLS), dtype=np.int64)
    race_out = np.zeros(R_COLS, dtype=np.int64)
    heat = np.zeros((len(HEAT_KINDS), track.n_spaces), dtype=np.int64)
    log = np.zeros((100_000, EV_WIDTH), dtype=np.int64)
    nlog = np.zeros(1, dtype=np.int64)
    play_race(*inputs, np.uint64(key), *scratch, seat_out, race_out, heat, log, nlog, True)
    assert nlog[0] <= log.shape[0]
    st, hand, disc, _, occ = scratch[:5]
    return Finished(st, hand, disc, occ, seat_out, race_out, log[: nlog[0]].copy())


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
