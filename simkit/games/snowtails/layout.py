"""Flat layouts shared by the Snow Tails kernels and their Python wrappers.

Kernels see a track as one int64 table (one row per space, ``S_*`` columns), the progress
array, the per-corner safety speeds and the start grid; a race's state as a few int64
arrays (``ST_*`` columns per seat). Column indices are layout constants, not rule values:
rule values always arrive as kernel arguments (``params.K_*``).
"""

from __future__ import annotations

import numpy as np

from simkit.tracks.compiled import F_BUILDING, F_CLOSED, F_PAST_FINISH, CompiledTrack

# Per-space table columns.
S_NEXT = 0  # next space straight ahead, -1 = side/end of track
S_LEFT = 1  # drift-left target, -1 = side of track
S_RIGHT = 2  # drift-right target
S_BLOCKED = 3  # closed space or building: entering it is a collision
S_LEVEL = 4  # race-order key
S_TIE = 5  # ST1 tie-break among level spaces, 0 = inside
S_CP = 6  # corner entry lines at or behind the back edge
S_PAST = 7  # front edge past the finish line
S_DIST = 8  # straight moves until the next corner entry line is crossed (bot evaluation)
S_NSAFE = 9  # safety speed of that next corner, 0 = none (bot evaluation)
S_LANE = 10
S_COLS = 11

FAR = 99  # S_DIST when no corner lies ahead in the lane

# Per-seat state columns (one row per seat).
ST_SPACE = 0
ST_LEFT = 1  # value showing on the left dog
ST_RIGHT = 2
ST_BRAKE = 3
ST_LCARD = 4  # 1 when a real card lies on the left dog (the start value is printed)
ST_RCARD = 5
ST_DENTS = 6
ST_STATUS = 7  # RACING, FINISHED or OUT
ST_DECKN = 8  # cards left in the draw deck (drawn from the top, index DECKN-1)
ST_SLOT = 9
ST_FIN_ROUND = 10
ST_OUT_ROUND = 11
ST_OUT_SEQ = 12  # order of elimination, 1 = first out
ST_FINISH = 13  # final finish position
ST_DENTS_TAKEN = 14
ST_OVERSPEED = 15
ST_COLL_WALL = 16
ST_COLL_SLED = 17
ST_BONUS_USED = 18
ST_TURNS = 19
ST_RESHUFFLES = 20
ST_NO_CANINE = 21
ST_POINTS = 22
ST_COLS = 23

RACING = 0
FINISHED = 1
OUT = 2

# Race-level output columns.
R_ROUNDS = 0
R_LEAD_CHANGES = 1
R_LEADER1_WON = 2
R_TIMED_OUT = 3
R_ELIMINATIONS = 4
R_COLS = 5

# Heat kinds (rows of the heat array).
HEAT_KINDS = ("crash_wall", "crash_sled", "overspeed_dent", "elimination", "turn_end")
H_WALL = 0
H_SLED = 1
H_OVERSPEED = 2
H_OUT = 3
H_TURN_END = 4

# Move kinds and collision kinds.
MV_STRAIGHT = 0
MV_DRIFT = 1
MV_BONUS = 2
C_NONE = 0
C_WALL = 1
C_SLED = 2

# Trace events: one int64 row each, the kind in column 0 (see ``trace.py`` for the fields).
EV_WIDTH = 10
EV_START = 1  # seat, slot, space, cards dealt
EV_ROUND = 2  # round
EV_TURN = 3  # seat, round, race position, space, left, right, brake, dents
EV_HAND = 4  # seat, count of each value 0..5
EV_NO_CANINE = 5  # seat
EV_STALL = 6  # seat (no canine card even after drawing: no play)
EV_PLAY = 7  # seat, value, mask, left, right, brake, speed, drift (right minus left)
EV_MOVE = 8  # seat, from, to, move kind
EV_COLLIDE = 9  # seat, collision kind, space, kind of the move attempted
EV_BONUS = 10  # seat, size, taken
EV_DENT = 11  # seat, reason, corner, safety speed, speed, dents after
EV_OUT = 12  # seat, space
EV_KEEP = 13  # seat, space (5th dent after crossing the finish line: stays, R-18)
EV_DRAW = 14  # seat, value
EV_DISCARD = 15  # seat, value
EV_RESHUFFLE = 16  # seat, cards in the new deck
EV_FINISH = 17  # seat, finish position, round
EV_END = 18  # rounds, timed out
DENT_OVERSPEED = 0
DENT_WALL = 1
DENT_NO_CANINE = 2

# Play masks: bit 0 left dog, bit 1 right dog, bit 2 brake.
M_LEFT = 1
M_RIGHT = 2
M_BRAKE = 4

MAX_SEATS = 5
MAX_DECK = 60
MAX_PATH = 48  # longest movement path: speed 10 plus a bonus of at most the field size


def kernel_track(track: CompiledTrack) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays a kernel follows: (space table, progress, corner safety, start slots)."""
    n = track.n_spaces
    tab = np.zeros((n, S_COLS), dtype=np.int64)
    tab[:, S_NEXT] = track.next_straight
    tab[:, S_LEFT] = track.drift_left
    tab[:, S_RIGHT] = track.drift_right
    flags = track.flags.astype(np.uint32)
    tab[:, S_BLOCKED] = (flags & (F_CLOSED | F_BUILDING)) != 0
    tab[:, S_LEVEL] = track.level
    tab[:, S_TIE] = track.tie_inside
    tab[:, S_CP] = track.corners_passed
    tab[:, S_PAST] = (flags & F_PAST_FINISH) != 0
    tab[:, S_LANE] = track.lane
    safety = track.corner_safety.astype(np.int64)
    cp = tab[:, S_CP]
    for s in range(n):
        tab[s, S_DIST] = FAR
        c = cp[s]
        if c >= len(safety):
            continue
        cur, steps = s, 0
        while cur >= 0 and steps < FAR:
            if cp[cur] > c:
                tab[s, S_DIST] = steps
                tab[s, S_NSAFE] = safety[c]
                break
            cur = int(tab[cur, S_NEXT])
            steps += 1
    progress = np.ascontiguousarray(track.progress, dtype=np.float64)
    start = np.ascontiguousarray(track.start_slots, dtype=np.int64)
    return tab, progress, safety, start
