"""Many units at once: blocks of races on a pool of threads, each stepping positions.

Races are split into blocks independent of the thread count; each block is played by one
``nogil`` kernel call with its own position and work records and its own heat counts, so
results are bit-identical for any number of threads (DESIGN §4). The blocks, the thread
default and the scheduling (threads take blocks as they come free) are every game's:
``simkit.games.blocks.run_blocks``. A race is
stepped as every caller steps it: ``position.new``, then the seat to move's bot ``choose``
and ``position.apply`` until the unit is over.

Why threads and not ``prange``: a parallel kernel costs numba a second optimisation of the
whole engine (10-15 s of CPU on a cold cache, measured), for the same speed.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from simkit._borrow import borrowed
from simkit.errors import SimkitError
from simkit.games.base import COMMON_RACE_COLUMNS, COMMON_SEAT_COLUMNS, Batch, Cell, Column
from simkit.games.blocks import BlockCounts, run_blocks
from simkit.games.round_counts import MEASURES, add_races
from simkit.games.snowtails.bots import N_WEIGHTS, parse_bot
from simkit.games.snowtails.choose import choose, guided_flag, search_flag
from simkit.games.snowtails.params import MAX_RACES, SnowTailsParams
from simkit.games.snowtails.position import apply, new, result
from simkit.games.snowtails.race import count_ranks
from simkit.games.snowtails.reach import reach_table
from simkit.games.snowtails.records import (
    FINISHED,
    FL_DONE,
    HEAT_KINDS,
    MAX_CORNERS,
    MAX_ROW,
    MAX_SEATS,
    MAX_SPACES,
    MAX_TREES,
    MAX_WEIGHTS,
    OUT,
    POSITION,
    RESULT,
    ROUND_CAP,
    S_CP,
    S_LEFT,
    S_NEXT,
    S_RIGHT,
    S_TREE,
    S_TRIG,
    SEAT_SETTINGS,
    WORK,
    BotSettings,
    cell_dtype,
    kernel_track,
)
from simkit.tracks.compiled import CompiledTrack
from simkit.tracks.override import DerivedTrack


# For which variants a column can be non-zero (reports leave it out elsewhere).
def _trees(v: SnowTailsParams) -> bool:
    return v.trees


def _buildings(v: SnowTailsParams) -> bool:
    return v.buildings == "effects"


SEAT_COLUMNS: dict[str, Column] = {
    **COMMON_SEAT_COLUMNS,
    "dents_taken": Column("int16", "dent cards taken during the race, all causes", "dents"),
    "overspeed_dents": Column(
        "int16",
        "dents for crossing corner entry lines above the safety speed (R-15)",
        "dents",
        applies=lambda v: v.safety_speeds,
    ),
    "final_dents": Column("int8", "dents in hand when the race ended (or when out)", "dents"),
    "collisions_wall": Column(
        "int16", "moves into the side of the track, a closed space or a building (R-17)"
    ),
    "collisions_sled": Column("int16", "moves into another sled (R-16)"),
    "bonus_used": Column(
        "int16",
        "turns on which the balanced-sled bonus was taken (R-14)",
        applies=lambda v: v.bonus_rule != "none",
    ),
    "no_canine_turns": Column("int16", "turns begun without a canine card in hand (R-19)"),
    "reshuffles": Column("int8", "times the used cards became a new deck (R-07)"),
    "turns": Column("int16", "turns taken", "turns"),
    "finish_round": Column("int16", "round in which the sled finished, 0 if it did not", "round"),
    "eliminated_round": Column(
        "int16", "round in which a 5th dent took the sled out, 0 if never (R-18)", "round"
    ),
    "trees_hit": Column("int16", "trees the sled crashed through (R-21)", applies=_trees),
    "repairs": Column(
        "int8",
        "fifth dents repaired, sitting out until last (R-25)",
        applies=lambda v: v.fifth_dent == "repair",
    ),
    "final_die": Column(
        "int8",
        "bonus dice showing at the end, 0 if none (R-23)",
        applies=lambda v: v.bonus_rule == "dice",
    ),
    "chapel_visits": Column(
        "int8", "turns ended at the chapel dropping dents (R-27)", applies=_buildings
    ),
    "bothy_visits": Column(
        "int8", "turns ended at the bothy discarding cards (R-27)", applies=_buildings
    ),
    "kennels_fives": Column(
        "int8", "set-aside 5s the kennels added to the deck (R-27)", applies=_buildings
    ),
    "tavern_visits": Column(
        "int8", "turns ended at the tavern, dice +2 (R-27)", applies=_buildings
    ),
    **{
        f"race{r}_finish": Column(
            "int8",
            f"finish position in race {r} of a season / tournament, 0 if none",
            applies=lambda v, r=r: v.races >= r > 1,
        )
        for r in range(1, MAX_RACES + 1)
    },
    **{
        f"race{r}_points": Column(
            "int16",
            f"points scored in race {r} of a season / tournament (R-20, R-28)",
            "points",
            applies=lambda v, r=r: v.races >= r > 1,
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
    "trees_left": Column(
        "int16", "trees still standing when the (last) race ended (R-21)", applies=_trees
    ),
}

# Table column -> field of ``records.RESULT``.
_SEAT_SOURCE = {
    "slot": "slot",
    "finish": "finish",
    "points": "points",
    "dents_taken": "dents_taken",
    "overspeed_dents": "overspeed",
    "final_dents": "dents",
    "collisions_wall": "coll_wall",
    "collisions_sled": "coll_sled",
    "bonus_used": "bonus_used",
    "no_canine_turns": "no_canine",
    "reshuffles": "reshuffles",
    "turns": "turns",
    "finish_round": "fin_round",
    "eliminated_round": "out_round",
    "trees_hit": "trees_hit",
    "repairs": "repairs",
    "final_die": "die",
    "chapel_visits": "chapel",
    "bothy_visits": "bothy",
    "kennels_fives": "kennels",
    "tavern_visits": "tavern",
}
_RACE_SOURCE = {
    "rounds": "total_rounds",
    "lead_changes": "lead_changes",
    "leader_after_round1_won": "won",
    "timed_out": "timed_out",
    "eliminations": "eliminations",
    "trees_left": "trees_left",
}


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _search_scratch(positions, works, search):
    """The search's scratch (all but the first position and work record), or ``None``
    twice where ``search`` is ``None`` (``choose.search_flag``): numba keeps one branch."""
    if search is None:
        return None, None
    return borrowed(positions[1:]), borrowed(works[1:])


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def _block(cfga, reach, keys, lo, hi, results, heat, rounds, positions, works, search, guided):
    """Races ``lo..hi-1`` with one position and one work record, adding to ``heat`` and
    ``rounds`` = (round counts, end counts, counts by seat, measures:
    ``Batch.round_position``, ``Batch.end_position``, ``Batch.seat_position``, one row of
    ``round_counts.MEASURES`` per race; single races only): every decision taken by its
    seat's bot. ``positions`` (three) and ``works`` (two) are arrays the caller owns (a
    record taken from an array allocated here would outlive its memory): the first of
    each for the race, the rest for the search bot's scratch, which ``search`` (``True`` or
    ``None``: ``choose.search_flag``) says whether to compile and use, and ``guided``
    whether with the policy and the values (``choose.guided_flag``)."""
    cfg = cfga[0]
    pos = positions[0]
    wk = works[0]
    wk.tracing = 0
    wk.nlog = 0
    wk.halt = 0
    wk.heat_on = 1
    n = cfg.n_spaces
    for k in range(heat.shape[0]):  # loops: a slice copy costs seconds of compile time
        for s in range(n):
            wk.heat[k, s] = 0
    for r in range(ROUND_CAP):
        for s in range(MAX_SEATS):
            for p in range(MAX_SEATS):
                for f in range(MAX_SEATS + 1):
                    wk.round_counts[r, s, p, f] = 0
                    wk.end_counts[r, s, p, f] = 0
                    wk.seat_counts[r, s, p, f] = 0
    counts, ends, by_seat, measures = rounds
    # Every decision hands these down four calls deep: views without reference counts
    # (simkit/_borrow.py), of arrays the caller holds for the whole block.
    tables = (borrowed(reach[0]), borrowed(reach[1]))
    pool, swks = _search_scratch(positions, works, search)  # made once
    for r in range(lo, hi):
        new(pos, cfg, wk, keys[r])
        while pos.flow != FL_DONE:
            choose(pos, cfg, tables, wk, pool, swks, guided)
            apply(pos, cfg, wk)
        result(pos, cfg, results[r])
        if cfg.races == 1:
            count_ranks(pos, wk, measures[r])
    for k in range(heat.shape[0]):
        for s in range(n):
            heat[k, s] = wk.heat[k, s]
    for r in range(ROUND_CAP):
        for s in range(counts.shape[1]):
            for p in range(counts.shape[2]):
                for f in range(counts.shape[3]):
                    counts[r, s, p, f] = wk.round_counts[r, s, p, f]
                    ends[r, s, p, f] = wk.end_counts[r, s, p, f]
        for s in range(by_seat.shape[1]):
            for p in range(by_seat.shape[2]):
                for f in range(by_seat.shape[3]):
                    by_seat[r, s, p, f] = wk.seat_counts[r, s, p, f]


def joined_tables(tracks: list[CompiledTrack], variant: SnowTailsParams, rec: np.ndarray) -> None:
    """The unit's tracks as one space table in the cell record ``rec``: each distinct track
    once, its space, corner and tree indices shifted past the ones before; start spaces,
    place in the table and trees per race. The first track's spaces come first, so its
    heat counts are the first ``tracks[0].n_spaces`` entries."""
    parts: dict[str, tuple[int, int, int, CompiledTrack, np.ndarray]] = {}
    base = corners = trees = 0
    for t in tracks:
        if t.name in parts:
            continue
        tab, prog, safety, grid = kernel_track(t, variant.trees, variant.buildings)
        n_trees = int((tab[:, S_TREE] >= 0).sum())
        if base + t.n_spaces > MAX_SPACES or corners + len(safety) > MAX_CORNERS:
            raise SimkitError(
                f"snowtails: the unit's tracks hold more than {MAX_SPACES} spaces or "
                f"{MAX_CORNERS} corners",
                key="track",
            )
        if trees + n_trees > MAX_TREES or len(t.start_row) > MAX_ROW:
            raise SimkitError(
                f"snowtails: track '{t.name}' has more than {MAX_TREES} trees or "
                f"{MAX_ROW} start-row spaces",
                key="track",
            )
        for col in (S_NEXT, S_LEFT, S_RIGHT):
            ok = tab[:, col] >= 0
            tab[ok, col] += base
        tab[:, S_CP] += corners
        tab[tab[:, S_TREE] >= 0, S_TREE] += trees
        rec["tab"][0, base : base + t.n_spaces] = tab
        rec["prog"][0, base : base + t.n_spaces] = prog
        rec["safety"][0, corners : corners + len(safety)] = safety
        parts[t.name] = (base, trees, trees + n_trees, t, grid)
        base += t.n_spaces
        corners += len(safety)
        trees += n_trees
    rec["n_spaces"] = base
    rec["n_corners"] = corners
    rec["grid"] = -1
    for r, t in enumerate(tracks):
        b, lo, hi, track, grid = parts[t.name]
        for i, s in enumerate(grid[:MAX_SEATS]):
            rec["grid"][0, r, i] = s + b if s >= 0 else -1
        row = [int(s) + b for s in track.start_row]
        rec["n_row"][0, r] = len(row)
        rec["row"][0, r, : len(row)] = row
        rec["track_base"][0, r] = b
        rec["track_size"][0, r] = track.n_spaces
        rec["track_top"][0, r] = max(1.0, rec["prog"][0, b : b + track.n_spaces].max())
        rec["tree_lo"][0, r] = lo
        rec["tree_hi"][0, r] = hi


def seat_settings(rec: np.ndarray, settings: list[BotSettings]) -> None:
    """Each seat's bot settings into the cell record ``rec`` (a one-element array): every
    field over the seats, under its own name (``records.BotSettings``)."""
    for seat, s in enumerate(settings):
        assert N_WEIGHTS <= len(s.weights) <= MAX_WEIGHTS
        rec["bots"][0, seat] = s.kind
        rec["weights"][0, seat, : len(s.weights)] = s.weights
        for name in SEAT_SETTINGS:
            rec[name][0, seat] = getattr(s, name)


def cell_inputs(
    tracks: CompiledTrack | list[CompiledTrack],
    variant: SnowTailsParams,
    bots: tuple[str, ...],
    slots: tuple[int, ...],
) -> tuple[np.ndarray, np.ndarray]:
    """(cell record as a one-element array, greedy's reach tables): what every kernel reads.

    ``tracks`` has one track per race of the unit (``unit_tracks``).
    """
    if isinstance(tracks, CompiledTrack):
        tracks = [tracks] * variant.races
    rec = np.zeros(1, dtype=cell_dtype(type(variant)))
    params = variant.to_kernel()
    for name in params.dtype.names:
        rec[name] = params[name]
    joined_tables(tracks, variant, rec)
    n = rec["n_spaces"][0]
    tab = rec["tab"][0, :n].astype(np.int64)
    rec["n_seats"] = len(slots)
    rec["slots"][0, : len(slots)] = slots
    seat_settings(rec, [parse_bot(b, variant.game) for b in bots])
    # The greedy bot's bound counts a building's gain only where one stands (T_* bits).
    rec["trig_kinds"] = np.bitwise_or.reduce(tab[:, S_TRIG])
    return rec, reach_table(tab, rec["prog"][0, :n])


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
    cfga, reach = cell_inputs(tracks, variant, bots, slots)
    search, guided = search_flag(cfga), guided_flag(cfga)
    n = len(keys)
    results = np.zeros(n, dtype=RESULT)
    players = len(slots)
    heat = (len(HEAT_KINDS), int(cfga["n_spaces"][0]))
    counts = BlockCounts.new(n, ROUND_CAP, players, max(slots), heat)

    # One position and work set per worker, used for block after block: a block's result
    # does not depend on what they held (``position.new`` clears every field; _block
    # clears its counts), and a fresh 3 MB work set per block cost its pages' faults and
    # zeroing (3% of a run's samples, perf).
    def scratch() -> tuple[np.ndarray, np.ndarray]:
        return np.empty(3, dtype=POSITION), np.empty(2, dtype=WORK)

    def play(b: int, lo: int, hi: int, work: tuple[np.ndarray, np.ndarray]) -> None:
        rows = counts.of_block(b)
        _block(cfga, reach, keys, lo, hi, results, counts.heat[b], rows, *work, search, guided)

    run_blocks(n, play, threads, scratch=scratch)
    batch = to_batch(results, players, counts.heat_total(tracks[0].n_spaces))
    if variant.races == 1:  # the kernel counted rounds; a tournament's standings by race
        counts.into(batch)
    else:
        count_standings(batch, variant.races, max(slots))
    return batch


def standings(seats: dict[str, np.ndarray], races: int) -> np.ndarray:
    """Each seat's standing after each race of a unit (units, races, seats): by points so
    far, ties to the better place in that race, as R-28 / ST2 E rank the whole unit after
    its final race."""
    pts = np.stack([seats[f"race{k}_points"] for k in range(1, races + 1)], axis=2)
    fin = np.stack([seats[f"race{k}_finish"] for k in range(1, races + 1)], axis=2)
    pts = pts.astype(np.int64).cumsum(axis=2)  # (units, seats, races)
    mine, other = pts[:, :, None, :], pts[:, None, :, :]
    better = fin[:, None, :, :] < fin[:, :, None, :]
    ahead = (other > mine) | ((other == mine) & better)
    return (1 + ahead.sum(axis=2)).transpose(0, 2, 1).astype(np.int64)


def count_standings(batch: Batch, races: int, top_slot: int) -> None:
    """A tournament's or season's ``round_position``, ``end_position`` and round measures,
    with its races for rounds: the standing after each race (``standings``)."""
    finish = batch.seats["finish"].astype(np.int64)
    n_units, players = finish.shape
    first = finish == 1
    won = first & batch.seats["finished"].astype(bool)
    decided = (first.sum(axis=1) == 1) & won.any(axis=1)
    counts = np.zeros((races, top_slot, players, players + 1), dtype=np.int64)
    ends = np.zeros_like(counts)
    by_seat = np.zeros((races, players, players, players + 1), dtype=np.int64)
    measures = np.full((n_units, len(MEASURES)), np.nan)
    add_races(
        standings(batch.seats, races),
        np.full(n_units, races, dtype=np.int64),
        batch.seats["slot"].astype(np.int64),
        finish,
        decided,
        counts,
        ends,
        by_seat,
        measures,
    )
    batch.round_position, batch.end_position, batch.seat_position = counts, ends, by_seat
    batch.round_measures = {m: measures[:, j] for j, m in enumerate(MEASURES)}


def to_batch(results: np.ndarray, players: int, heat: np.ndarray) -> Batch:
    """Typed columns from the kernel's result records."""
    seats = {}
    for name, col in SEAT_COLUMNS.items():
        if name == "finished":
            values = results["status"][:, :players] == FINISHED
        elif name == "eliminated":
            values = results["status"][:, :players] == OUT
        elif name.startswith("race") and name[4].isdigit():
            r = int(name[4]) - 1
            field = "race_fin" if name.endswith("finish") else "race_pts"
            values = results[field][:, :players, r]
        else:
            values = results[_SEAT_SOURCE[name]][:, :players]
        seats[name] = values.astype(col.dtype)
    races = {
        name: results[_RACE_SOURCE[name]].astype(col.dtype) for name, col in RACE_COLUMNS.items()
    }
    heat_cols = {kind: heat[i].astype(np.int64) for i, kind in enumerate(HEAT_KINDS)}
    return Batch(seats=seats, races=races, heat=heat_cols)


@functools.lru_cache(maxsize=16)
def load_track(name: str | DerivedTrack) -> CompiledTrack:
    """A compiled track by library name or path, or a derived track (cached: compiling is
    not free)."""
    from simkit.tracks import load

    return load(name)


def unit_tracks(cell: Cell) -> list[CompiledTrack]:
    """The track of each race of the unit (R-28, ST2 E): the cell's track first, then the
    variant's ``race_tracks``, then the cell's track again for races they do not name."""
    v = cell.variant
    names = [cell.track, *v.race_tracks]
    names += [cell.track] * (v.races - len(names))
    return [load_track(n) for n in names]


def cell_slots(cell: Cell) -> tuple[int, ...]:
    """The start slots a cell races from (R-06): its own list, or 1..players."""
    return tuple(cell.slots) if cell.slots is not None else tuple(range(1, cell.players + 1))
