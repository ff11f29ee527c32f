"""Positions for the Mush! Mush! tests: ST2 states, trees on hand-built tracks."""

from __future__ import annotations

import dataclasses

import numpy as np

from simkit.tracks.compiled import F_TREE, CompiledTrack


def with_trees(track: CompiledTrack, spaces) -> CompiledTrack:
    """A copy of ``track`` with a tree printed on each of ``spaces`` (R-21)."""
    flags = track.flags.copy()
    for s in spaces:
        flags[s] |= F_TREE
    return dataclasses.replace(track, flags=flags)


def sled(space, dogs, hand, die=0, dents=0, colour=None, **more):
    d = {"space": space, "dogs": list(dogs), "hand": list(hand), "die": die, "dents": dents}
    if colour:
        d["colour"] = colour
    d.update(more)
    return d


def state(sleds, turn=0, rnd=2, trees=None, **overrides):
    """An ST2 position (game mushmush, preset mushmush) on the track the test passes."""
    s = {"game": "mushmush", "track": "hand-built", "round": rnd, "turn": turn, "sleds": sleds}
    if trees is not None:
        s["trees"] = list(trees)
    if overrides:
        s["set"] = overrides
    return s


def find_play(result, value, onto):
    for play in result.plays:
        if play["cards"][0] == value and play["onto"] == onto:
            return play
    raise AssertionError(f"no play of {value} onto {onto}")


def lane_index(track: CompiledTrack, s: int) -> tuple[int, int]:
    """(lane, index within the lane) of space ``s`` on an ``st_trackkit`` track."""
    lane = int(track.lane[s])
    return lane, int(np.flatnonzero(track.lane == lane).tolist().index(s))


def engine_play(position, v, mask, pattern, take=0):
    """Seat ``position.turn`` plays ``v`` onto ``mask`` and moves by ``pattern`` (move
    kinds, the colliding attempt last) through the engine's ``position.apply``, to the end
    of the turn (greedy takes its later choices); returns (turn code, position after)."""
    from simkit.games.snowtails.kernels import apply, step
    from simkit.games.snowtails.records import (
        PH_PLAY,
        PL_BITS,
        PL_ENTER,
        PL_KIND,
        PL_MASK,
        PL_NPAT,
        PL_TAKE,
        PL_VALUE,
        WORK,
    )

    cfg = position.cfga[0]
    after = position.positions.copy()
    works = np.zeros(1, dtype=WORK)
    works["halt"] = 1
    play = works["play"][0]
    play[PL_KIND] = PH_PLAY
    play[PL_ENTER] = -1
    play[PL_VALUE] = v
    play[PL_MASK] = mask
    play[PL_BITS] = sum(1 << j for j, kind in enumerate(pattern) if kind == 1)
    play[PL_NPAT] = len(pattern)
    play[PL_TAKE] = take
    apply(after, position.cfga, works)
    if int(after["turns_done"][0]) == 0:
        from simkit.games.snowtails.batch import reach_table

        n = position.track.n_spaces
        reach = reach_table(cfg["tab"][:n].astype(np.int64), cfg["prog"][:n])
        while int(after["turns_done"][0]) == 0:
            step(after, position.cfga, reach, works)
    return int(after["t_code"][0]), after[0]


@dataclasses.dataclass
class Unit:
    """A unit (race or tournament) played with the log on: its final position, result
    record and events, and the joined space table of its tracks."""

    tab: np.ndarray
    cfga: np.ndarray  # the cell record (one-element array, layout.cell_dtype)
    positions: np.ndarray  # the final position (one-element array, layout.POSITION)
    res: np.void  # layout.RESULT
    events: np.ndarray

    @property
    def pos(self) -> np.void:
        return self.positions[0]

    def trees_standing(self) -> np.ndarray:
        """Spaces where a tree still stands (R-21)."""
        from simkit.games.snowtails.records import S_TREE

        ids = self.tab[:, S_TREE]
        return np.array([s for s in np.flatnonzero(ids >= 0) if self.pos["trees"][ids[s]]])


def run_unit(tracks, variant, bots, slots=None, key=1) -> Unit:
    """Play one unit through the position API (tracing on)."""
    from simkit.games.snowtails.batch import cell_inputs
    from simkit.games.snowtails.trace import play_logged

    if not isinstance(tracks, list):
        tracks = [tracks] * variant.races
    slots = slots or tuple(range(1, len(bots) + 1))
    cfga, _ = cell_inputs(tracks, variant, tuple(bots), tuple(slots))
    events, positions, res, _ = play_logged(tracks, variant, tuple(bots), tuple(slots), key)
    tab = cfga["tab"][0, : int(cfga["n_spaces"][0])].astype(np.int64)
    return Unit(tab, cfga, positions, res[0], events)


def race_setup(track, variant, seats):
    """(cell record, position) with sled ``p`` at ``seats[p] = (space, (left, right))``, in
    start order; for race-order tests (``rules.race_order``, ``rules.race_position``)."""
    from simkit.games.snowtails.batch import cell_inputs
    from simkit.games.snowtails.records import OUT, POSITION

    n = len(seats)
    cfga, _ = cell_inputs(track, variant, ("greedy",) * n, tuple(range(1, n + 1)))
    positions = np.zeros(1, dtype=POSITION)
    pos = positions[0]
    pos["n_seats"] = n
    pos["status"][n:] = OUT
    for p, (s, dogs) in enumerate(seats):
        pos["space"][p] = s
        pos["left"][p], pos["right"][p] = dogs
        pos["order"][p] = p + 1
    return cfga, positions
