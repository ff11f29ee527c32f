"""Where each seat of a replayed race gained or lost, from the trace's event log (issue 35).

A report says a slot is unfair; a designer asks where it gains or loses against the field.
The run's tables count crashes and dents per space, not per seat, so this replays races
(the same position and the same ``choose``/``apply`` as the batch: a replay's results are
the table's) and writes what the log records, seat by seat, as one table
(:func:`seat_events`); ``simkit.analysis.diagnose`` adds it up by slot, place and round.

Each event row: ``race``, ``seat``, ``slot``, ``round``, ``space`` (where it happened; -1
off the board, before entering from the start row), ``corner`` (0-based, overspeed dents
only, else -1), ``kind`` and ``count``. Kinds named like a seat column add up to it, race
by race (a test checks): ``overspeed_dents`` (R-15), ``dents_taken``, ``collisions_wall``
and ``collisions_sled`` (R-16, R-17), ``bonus_used`` (R-14), ``turns``. The others have no
column:

- ``turns``: one per turn, where it began (a seat column too: a seat's turns add up to it),
  so a slot that spends more turns than the field in a corner loses time there;
- ``blocked_moves``: moves a collision took from a turn's speed (R-02);
- ``places``: race positions gained over a turn, from the seat's position at the start of
  its turn to the start of its next turn (R-04; its start slot's rank before the first,
  its finish position after the last), so a seat's places add up to its slot's rank minus
  its finish position;
- ``tie_breaks_won`` / ``tie_breaks_lost``: at the end of a round, sleds level by the
  track's level lines (R-03) in the next round's turn order, which follows the race order:
  the earlier won the tie-break.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
import pandas as pd

from simkit.errors import SimkitError
from simkit.games.base import Cell
from simkit.games.snowtails.batch import cell_slots, unit_tracks
from simkit.games.snowtails.records import (
    C_SLED,
    C_WALL,
    DENT_OVERSPEED,
    EV_BONUS,
    EV_COLLIDE,
    EV_DENT,
    EV_MOVE,
    EV_PLAY,
    EV_TURN,
)
from simkit.games.snowtails.trace import run_logged
from simkit.tracks.compiled import F_PAST_FINISH

EVENT_COLUMNS = ("race", "seat", "slot", "round", "space", "corner", "kind", "count")


def _race_events(race: int, events: np.ndarray, slots: np.ndarray, finish: np.ndarray, track):
    """The event rows of one race (see the module's docstring)."""
    rows: list[tuple] = []
    order: dict[int, list[int]] = defaultdict(list)  # round -> seats in turn order
    turns: dict[int, list[tuple[int, int, int]]] = defaultdict(list)  # seat -> (round, pos, space)
    end_space: dict[tuple[int, int], int] = {}  # (round, seat) -> space after its turn
    rank = {int(s): k for k, s in enumerate(sorted(slots), start=1)}
    seat = rnd = -1
    space = {}
    speed = moves = bonus = 0
    blocked = False

    def close_turn() -> None:
        if seat >= 0 and blocked:
            lost = max(0, speed + bonus - moves)
            if lost:
                rows.append((race, seat, slots[seat], rnd, start, -1, "blocked_moves", lost))
        if seat >= 0:
            end_space[(rnd, seat)] = space.get(seat, start)

    start = -1
    for row in events:
        kind = int(row[0])
        if kind == EV_TURN:
            close_turn()
            seat, rnd, pos, start = int(row[1]), int(row[2]), int(row[3]), int(row[4])
            space[seat] = start
            order[rnd].append(seat)
            turns[seat].append((rnd, pos, start))
            speed = moves = bonus = 0
            blocked = False
            rows.append((race, seat, slots[seat], rnd, start, -1, "turns", 1))
        elif seat < 0:
            continue
        elif kind == EV_PLAY:
            speed = int(row[7])
        elif kind == EV_MOVE:
            moves += 1
            space[int(row[1])] = int(row[3])
        elif kind == EV_BONUS and int(row[3]):
            bonus = int(row[2])
            rows.append(
                (race, int(row[1]), slots[int(row[1])], rnd, space[seat], -1, "bonus_used", 1)
            )
        elif kind == EV_COLLIDE:
            what = "collisions_sled" if int(row[2]) == C_SLED else "collisions_wall"
            if int(row[2]) in (C_SLED, C_WALL):
                rows.append((race, int(row[1]), slots[int(row[1])], rnd, int(row[3]), -1, what, 1))
                blocked = True
        elif kind == EV_DENT:
            p, taken = int(row[1]), int(row[7])
            at = space.get(p, -1)
            rows.append((race, p, slots[p], rnd, at, -1, "dents_taken", taken))
            if int(row[2]) == DENT_OVERSPEED:
                rows.append((race, p, slots[p], rnd, at, int(row[3]), "overspeed_dents", taken))
    close_turn()
    # Places over each turn: its start position to the next turn's (slot rank, finish).
    for p, seq in turns.items():
        before = rank[int(slots[p])]
        for j, (r, _, at) in enumerate(seq):
            after = seq[j + 1][1] if j + 1 < len(seq) else int(finish[p])
            if before != after:
                rows.append((race, p, slots[p], r, at, -1, "places", before - after))
            before = after
    # Tie-breaks at each round's end: level sleds in the next round's turn order.
    past = (track.flags & F_PAST_FINISH) != 0
    for r in list(order):
        nxt = order.get(r + 1, [])
        level: dict[int, list[int]] = defaultdict(list)
        for p in nxt:
            s = end_space.get((r, p), -1)
            if 0 <= s < track.n_spaces and not past[s]:
                level[int(track.level[s])].append(p)
        for group in level.values():
            for i, winner in enumerate(group):  # ``group`` is in turn order: earlier wins
                for loser in group[i + 1 :]:
                    s = end_space[(r, winner)]
                    rows.append((race, winner, slots[winner], r, s, -1, "tie_breaks_won", 1))
                    s = end_space[(r, loser)]
                    rows.append((race, loser, slots[loser], r, s, -1, "tie_breaks_lost", 1))
    return rows


def seat_events(
    cell: Cell, keys: np.ndarray, race_indices: np.ndarray | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Replay each race of ``keys`` with the log on: (events, seats).

    ``events`` has the columns :data:`EVENT_COLUMNS`; ``seats`` one row per race and seat:
    ``race``, ``seat`` and every seat column of the game, as the run's races table has them.
    ``race`` is ``race_indices`` (default 0, 1, ...).
    """
    v = cell.variant
    if v.races != 1:
        raise SimkitError(
            f"a breakdown replays single races; this cell plays a unit of {v.races} races "
            "(a season or tournament)",
            key="races",
        )
    tracks = unit_tracks(cell)
    slots = cell_slots(cell)
    idx = np.arange(len(keys)) if race_indices is None else np.asarray(race_indices)
    rows: list[tuple] = []
    seat_rows: list[dict[str, Any]] = []
    for race, key in zip(idx, keys, strict=True):
        events, batch = run_logged(tracks, v, cell.bots, slots, int(key))
        seats = {k: a[0] for k, a in batch.seats.items()}
        rows += _race_events(int(race), events, seats["slot"], seats["finish"], tracks[0])
        for p in range(cell.players):
            seat_rows.append(
                {"race": int(race), "seat": p, **{k: a[p].item() for k, a in seats.items()}}
            )
    events = pd.DataFrame(rows, columns=list(EVENT_COLUMNS))
    events = events.astype({"slot": "int64", "count": "int64"})
    return events, pd.DataFrame(seat_rows)
