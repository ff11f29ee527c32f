"""Many races at once: a parallel loop over blocks of races, one kernel call per batch.

Races are split into blocks independent of the thread count; each ``prange`` iteration
plays one block with its own scratch arrays and its own row of heat counts, so results
are bit-identical for any number of threads (DESIGN §4).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from simkit.games.base import COMMON_RACE_COLUMNS, COMMON_SEAT_COLUMNS, Batch, Column
from simkit.games.snowtails.bots import bot_arrays, progress_with_reach
from simkit.games.snowtails.engine import new_scratch, play_race
from simkit.games.snowtails.layout import (
    EV_WIDTH,
    FINISHED,
    HEAT_KINDS,
    MAX_ROW,
    MAX_SEATS,
    OUT,
    R_COLS,
    R_ELIMINATIONS,
    R_LEAD_CHANGES,
    R_LEADER1_WON,
    R_ROUNDS,
    R_TIMED_OUT,
    R_TREES_LEFT,
    S_CP,
    S_LEFT,
    S_NEXT,
    S_RIGHT,
    S_TRIG,
    SR_BASE,
    SR_GRID,
    SR_N,
    SR_NROW,
    SR_ROW,
    SR_W,
    ST_BONUS_USED,
    ST_BOTHY,
    ST_CHAPEL,
    ST_COLL_SLED,
    ST_COLL_WALL,
    ST_COLS,
    ST_DENTS,
    ST_DENTS_TAKEN,
    ST_DIE,
    ST_FIN_ROUND,
    ST_FINISH,
    ST_KENNELS,
    ST_NO_CANINE,
    ST_OUT_ROUND,
    ST_OVERSPEED,
    ST_POINTS,
    ST_RACE_FIN,
    ST_RACE_PTS,
    ST_REPAIRS,
    ST_RESHUFFLES,
    ST_SLOT,
    ST_STATUS,
    ST_TAVERN,
    ST_TREES,
    ST_TURNS,
    kernel_track,
)
from simkit.games.snowtails.params import K_TRIG_KINDS, MAX_RACES, SnowTailsParams
from simkit.tracks.compiled import CompiledTrack

SEAT_COLUMNS: dict[str, Column] = {
    **COMMON_SEAT_COLUMNS,
    "dents_taken": Column("int16", "dent cards taken during the race, all causes", "dents"),
    "overspeed_dents": Column(
        "int16", "dents for crossing corner entry lines above the safety speed (R-15)", "dents"
    ),
    "final_dents": Column("int8", "dents in hand when the race ended (or when out)", "dents"),
    "collisions_wall": Column(
        "int16", "moves into the side of the track, a closed space or a building (R-17)"
    ),
    "collisions_sled": Column("int16", "moves into another sled (R-16)"),
    "bonus_used": Column("int16", "turns on which the balanced-sled bonus was taken (R-14)"),
    "no_canine_turns": Column("int16", "turns begun without a canine card in hand (R-19)"),
    "reshuffles": Column("int8", "times the used cards became a new deck (R-07)"),
    "turns": Column("int16", "turns taken", "turns"),
    "finish_round": Column("int16", "round in which the sled finished, 0 if it did not", "round"),
    "eliminated_round": Column(
        "int16", "round in which a 5th dent took the sled out, 0 if never (R-18)", "round"
    ),
    "trees_hit": Column("int16", "trees the sled crashed through (R-21)"),
    "repairs": Column("int8", "fifth dents repaired, sitting out until last (R-25)"),
    "final_die": Column("int8", "bonus dice showing at the end, 0 if none (R-23)"),
    "chapel_visits": Column("int8", "turns ended at the chapel with dents to drop (R-27)"),
    "bothy_visits": Column("int8", "turns ended at the bothy discarding cards (R-27)"),
    "kennels_fives": Column("int8", "set-aside 5s the kennels added to the deck (R-27)"),
    "tavern_visits": Column("int8", "turns ended at the tavern, dice +2 (R-27)"),
    **{
        f"race{r}_finish": Column(
            "int8", f"finish position in race {r} of a season / tournament, 0 if none"
        )
        for r in range(1, MAX_RACES + 1)
    },
    **{
        f"race{r}_points": Column(
            "int16", f"points scored in race {r} of a season / tournament (R-20, R-28)", "points"
        )
        for r in range(1, MAX_RACES + 1)
    },
}
RACE_COLUMNS: dict[str, Column] = {
    **COMMON_RACE_COLUMNS,
    "lead_changes": Column("int16", "rounds after the first that ended with a new leader"),
    "leader_after_round1_won": Column("bool", "the leader after round 1 finished first"),
    "timed_out": Column("bool", "the race hit the max_rounds guard before every sled was done"),
    "eliminations": Column("int8", "sleds taken out by a 5th dent (R-18)"),
    "trees_left": Column("int16", "trees still standing when the (last) race ended (R-21)"),
}

_SEAT_SOURCE = {
    "slot": ST_SLOT,
    "finish": ST_FINISH,
    "points": ST_POINTS,
    "dents_taken": ST_DENTS_TAKEN,
    "overspeed_dents": ST_OVERSPEED,
    "final_dents": ST_DENTS,
    "collisions_wall": ST_COLL_WALL,
    "collisions_sled": ST_COLL_SLED,
    "bonus_used": ST_BONUS_USED,
    "no_canine_turns": ST_NO_CANINE,
    "reshuffles": ST_RESHUFFLES,
    "turns": ST_TURNS,
    "finish_round": ST_FIN_ROUND,
    "eliminated_round": ST_OUT_ROUND,
    "trees_hit": ST_TREES,
    "repairs": ST_REPAIRS,
    "final_die": ST_DIE,
    "chapel_visits": ST_CHAPEL,
    "bothy_visits": ST_BOTHY,
    "kennels_fives": ST_KENNELS,
    "tavern_visits": ST_TAVERN,
    **{f"race{r}_finish": ST_RACE_FIN + r - 1 for r in range(1, MAX_RACES + 1)},
    **{f"race{r}_points": ST_RACE_PTS + r - 1 for r in range(1, MAX_RACES + 1)},
}
_RACE_SOURCE = {
    "rounds": R_ROUNDS,
    "lead_changes": R_LEAD_CHANGES,
    "leader_after_round1_won": R_LEADER1_WON,
    "timed_out": R_TIMED_OUT,
    "eliminations": R_ELIMINATIONS,
    "trees_left": R_TREES_LEFT,
}


@njit(cache=True, parallel=True)
def _simulate(tab, prog, safety, start, prm, slots, bots, weights, keys, n_blocks, seat_out,
              race_out, heat):  # fmt: skip
    n = keys.shape[0]
    for b in prange(n_blocks):
        lo = b * n // n_blocks
        hi = (b + 1) * n // n_blocks
        (st, hand, disc, deck, occ, trees, states, order, nodes, outs, okeys, plays, pattern,
         pattern2, path) = new_scratch(tab.shape[0])  # fmt: skip
        log = np.zeros((1, EV_WIDTH), np.int64)
        nlog = np.zeros(1, np.int64)
        # Block-local copies of the read-only inputs: every kernel call touches its
        # arguments' reference counts, and threads sharing one array would contend for them.
        tab_b = tab.copy()
        prog_b = prog.copy()
        safety_b = safety.copy()
        start_b = start.copy()
        prm_b = prm.copy()
        slots_b = slots.copy()
        bots_b = bots.copy()
        weights_b = weights.copy()
        heat_b = np.zeros((heat.shape[1], heat.shape[2]), np.int64)
        for r in range(lo, hi):
            play_race(
                tab_b, prog_b, safety_b, start_b, prm_b, slots_b, bots_b, weights_b, keys[r],
                st, hand, disc, deck, occ, trees, states, order, nodes, outs, okeys, plays,
                pattern, pattern2, path, seat_out[r], race_out[r], heat_b, log, nlog, False,
            )  # fmt: skip
        heat[b] = heat_b


def joined_tables(
    tracks: list[CompiledTrack], variant: SnowTailsParams
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One kernel table for the races' tracks: each distinct track once, its space and
    corner indices shifted past the ones before; the start array has a row per race.

    Returns (space table, progress, corner safety, starts); the first track's spaces come
    first, so its heat counts are the first ``tracks[0].n_spaces`` entries.
    """
    parts: dict[str, tuple[int, tuple]] = {}
    base = corners = 0
    tabs, progs, safeties = [], [], []
    for t in tracks:
        if t.name in parts:
            continue
        tab, prog, safety, grid = kernel_track(t, variant.trees, variant.buildings)
        for col in (S_NEXT, S_LEFT, S_RIGHT):
            ok = tab[:, col] >= 0
            tab[ok, col] += base
        tab[:, S_CP] += corners
        parts[t.name] = (base, (t, grid))
        tabs.append(tab)
        progs.append(prog)
        safeties.append(safety)
        base += t.n_spaces
        corners += len(safety)
    starts = np.full((len(tracks), SR_W), -1, dtype=np.int64)
    for r, t in enumerate(tracks):
        b, (track, grid) = parts[t.name]
        for i, s in enumerate(grid[:MAX_SEATS]):
            starts[r, SR_GRID + i] = s + b if s >= 0 else -1
        row = [int(s) + b for s in track.start_row][:MAX_ROW]
        starts[r, SR_NROW] = len(row)
        starts[r, SR_ROW : SR_ROW + len(row)] = row
        starts[r, SR_BASE] = b
        starts[r, SR_N] = track.n_spaces
    return (
        np.ascontiguousarray(np.concatenate(tabs)),
        np.ascontiguousarray(np.concatenate(progs)),
        np.ascontiguousarray(np.concatenate(safeties)),
        starts,
    )


def kernel_inputs(
    tracks: CompiledTrack | list[CompiledTrack],
    variant: SnowTailsParams,
    bots: tuple[str, ...],
    slots: tuple[int, ...],
) -> tuple:
    """Everything ``play_race`` needs besides the key and scratch, as kernel arrays.

    ``tracks`` has one track per race of the unit (``unit_tracks``). The progress
    array carries the greedy bot's reach table after its one entry per space
    (``bots.progress_with_reach``).
    """
    if isinstance(tracks, CompiledTrack):
        tracks = [tracks] * variant.races
    tab, prog, safety, starts = joined_tables(tracks, variant)
    kinds, weights = bot_arrays(bots)
    prm = variant.to_kernel()
    # The greedy bot's bound counts a building's gain only where one stands (T_* bits).
    prm[K_TRIG_KINDS] = np.bitwise_or.reduce(tab[:, S_TRIG])
    return (
        tab,
        progress_with_reach(tab, prog),
        safety,
        starts,
        prm,
        np.asarray(slots, dtype=np.int64),
        kinds,
        weights,
    )


def run_batch(
    tracks: CompiledTrack | list[CompiledTrack],
    variant: SnowTailsParams,
    bots: tuple[str, ...],
    slots: tuple[int, ...],
    keys: np.ndarray,
    threads: int | None = None,
) -> Batch:
    """Play one unit (race, season or tournament) per root key; typed result columns.

    Heat counts are those on the first race's track (the cell's track).
    """
    if isinstance(tracks, CompiledTrack):
        tracks = [tracks] * variant.races
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    inputs = kernel_inputs(tracks, variant, bots, slots)
    n, players = len(keys), len(slots)
    n_blocks = max(1, min(n, 64))
    seat_out = np.zeros((n, players, ST_COLS), dtype=np.int64)
    race_out = np.zeros((n, R_COLS), dtype=np.int64)
    heat = np.zeros((n_blocks, len(HEAT_KINDS), inputs[0].shape[0]), dtype=np.int64)
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        if n > 0:
            # Blocks go to whichever thread is free (races differ in length and other
            # processes may hold a core); results do not depend on which thread plays a block.
            with numba.parallel_chunksize(1):
                _simulate(*inputs, keys, n_blocks, seat_out, race_out, heat)
    finally:
        numba.set_num_threads(before)
    return to_batch(seat_out, race_out, heat.sum(axis=0)[:, : tracks[0].n_spaces])


def to_batch(seat_out: np.ndarray, race_out: np.ndarray, heat: np.ndarray) -> Batch:
    """Typed columns from the kernel's int64 rows."""
    seats = {}
    for name, col in SEAT_COLUMNS.items():
        if name == "finished":
            values = seat_out[:, :, ST_STATUS] == FINISHED
        elif name == "eliminated":
            values = seat_out[:, :, ST_STATUS] == OUT
        else:
            values = seat_out[:, :, _SEAT_SOURCE[name]]
        seats[name] = values.astype(col.dtype)
    races = {
        name: race_out[:, _RACE_SOURCE[name]].astype(col.dtype)
        for name, col in RACE_COLUMNS.items()
    }
    heat_cols = {kind: heat[i].astype(np.int64) for i, kind in enumerate(HEAT_KINDS)}
    return Batch(seats=seats, races=races, heat=heat_cols)
