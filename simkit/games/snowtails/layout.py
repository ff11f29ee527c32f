"""Flat layouts shared by the Snow Tails kernels and their Python wrappers.

Kernels see a track as one int64 table (one row per space, ``S_*`` columns), the progress
array, the per-corner safety speeds and the start grid; a race's state as a few int64
arrays (``ST_*`` columns per seat). Column indices are layout constants, not rule values:
rule values always arrive as kernel arguments (``params.K_*``).
"""

from __future__ import annotations

import numpy as np

from simkit.tracks.compiled import (
    F_BUILDING,
    F_CLOSED,
    F_PAST_FINISH,
    F_TIGHT_INSIDE,
    F_TREE,
    F_TRIG_BOTHY,
    F_TRIG_CHAPEL,
    F_TRIG_KENNELS,
    F_TRIG_TAVERN,
    CompiledTrack,
)

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
S_TREE = 11  # a tree stands here at the start of each race, when trees are in play
S_TRIG = 12  # building trigger bits T_* (R-27), when buildings have effects
S_SEG = 13  # spec segment (R-29 compares sleds on the same corner)
S_TIGHT_IN = 14  # inside lane of a tight corner
S_FLAG = 15  # ST2 tie-break among level sleds of equal speed, 0 = flag side
S_COLS = 16

# Building trigger bits (S_TRIG).
T_KENNELS = 1
T_CHAPEL = 2
T_BOTHY = 4
T_TAVERN = 8

FAR = 99  # S_DIST when no corner lies ahead in the lane

MAX_RACES = 5  # races of a season or tournament (params.MAX_RACES)

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
ST_POINTS = 22  # points of the race, or of the whole season / tournament
ST_DIE = 23  # bonus dice value, 0 = no bonus available
ST_FIVES = 24  # set-aside 5s not yet added by the kennels
ST_TREES = 25  # trees hit
ST_REPAIRS = 26  # fifth dents repaired
ST_CHAPEL = 27  # building effects used
ST_BOTHY = 28
ST_KENNELS = 29
ST_TAVERN = 30
ST_ORDER = 31  # place in the race's start order, 1 first (ST2 B; ties before moving)
ST_FIRST_SLOT = 32  # start slot of the first race of a season / tournament
ST_RACE_FIN = 33  # MAX_RACES finish positions, one per race
ST_RACE_PTS = ST_RACE_FIN + MAX_RACES  # MAX_RACES points, one per race
ST_COLS = ST_RACE_PTS + MAX_RACES

RACING = 0
FINISHED = 1
OUT = 2
REPAIR = 3  # sitting out a fifth dent until last at the start of a round

# Race-level output columns.
R_ROUNDS = 0
R_LEAD_CHANGES = 1
R_LEADER1_WON = 2
R_TIMED_OUT = 3
R_ELIMINATIONS = 4
R_TREES_LEFT = 5  # trees still standing at the end of the (last) race
R_COLS = 6

# Heat kinds (rows of the heat array).
HEAT_KINDS = (
    "crash_wall",
    "crash_sled",
    "overspeed_dent",
    "elimination",
    "turn_end",
    "tree_hit",
    "repair",
)
H_WALL = 0
H_SLED = 1
H_OVERSPEED = 2
H_OUT = 3
H_TURN_END = 4
H_TREE = 5
H_REPAIR = 6

# Move kinds and collision kinds.
MV_STRAIGHT = 0
MV_DRIFT = 1
MV_BONUS = 2
C_NONE = 0
C_WALL = 1
C_SLED = 2
C_FIFTH = 3  # a tree gave one dent too many: movement stops in its space

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
EV_TREE = 19  # seat, space, dented (1) or past the finish line (0)
EV_DIE = 20  # seat, value before, value after, reason (DIE_*)
EV_REPAIR = 21  # seat, space (fifth dent: sits out, R-25)
EV_REJOIN = 22  # seat, round
EV_BUILDING = 23  # seat, T_* bit, detail (dents dropped, cards discarded, 5s left, dice)
EV_PLACE = 24  # seat, start-row space chosen (ST2 B, round 1)
EV_RACE = 25  # race number (1..), track base space
DENT_OVERSPEED = 0
DENT_WALL = 1
DENT_NO_CANINE = 2
DENT_TREE = 3
DIE_ADJUST = 0  # balanced: set or raised to race position
DIE_USED = 1  # spent on bonus movement
DIE_SLED = 2  # lost a point for hitting a sled
DIE_TAVERN = 3  # tavern +2
DIE_START = 4  # set by start place

# Play masks: bit 0 left dog, bit 1 right dog, bit 2 brake.
M_LEFT = 1
M_RIGHT = 2
M_BRAKE = 4

MAX_SEATS = 8
MAX_DECK = 60
MAX_PATH = 48  # longest movement path: speed 10 plus a bonus of at most the field size
MAX_ROW = 16  # start-row spaces of an ST2 track

# Rows of the per-race start array (one row per race of a season or tournament).
SR_GRID = 0  # MAX_SEATS numbered start spaces, slot 1 first (-1: none)
SR_NROW = MAX_SEATS  # number of start-row spaces
SR_ROW = SR_NROW + 1  # MAX_ROW start-row spaces, left to right
SR_BASE = SR_ROW + MAX_ROW  # first space of the race's track in the joined table
SR_N = SR_BASE + 1  # spaces of the race's track
SR_W = SR_N + 1


def kernel_track(
    track: CompiledTrack, trees: bool = True, buildings: str = "walls"
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays a kernel follows: (space table, progress, corner safety, start slots).

    ``trees`` and ``buildings`` (the variant's R-21 and R-27 settings) decide whether the
    track's trees stand and whether its buildings are walls with effects, walls only, or
    removed (their spaces open track).
    """
    n = track.n_spaces
    tab = np.zeros((n, S_COLS), dtype=np.int64)
    tab[:, S_NEXT] = track.next_straight
    tab[:, S_LEFT] = track.drift_left
    tab[:, S_RIGHT] = track.drift_right
    flags = track.flags.astype(np.uint32)
    walls = F_CLOSED | (F_BUILDING if buildings != "none" else np.uint32(0))
    tab[:, S_BLOCKED] = (flags & walls) != 0
    if trees:
        tab[:, S_TREE] = (flags & F_TREE) != 0
    if buildings == "effects":
        for bit, flag in (
            (T_KENNELS, F_TRIG_KENNELS),
            (T_CHAPEL, F_TRIG_CHAPEL),
            (T_BOTHY, F_TRIG_BOTHY),
            (T_TAVERN, F_TRIG_TAVERN),
        ):
            tab[:, S_TRIG] |= np.where((flags & flag) != 0, bit, 0)
    tab[:, S_SEG] = track.segment
    tab[:, S_TIGHT_IN] = (flags & F_TIGHT_INSIDE) != 0
    tab[:, S_FLAG] = track.tie_flag
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
