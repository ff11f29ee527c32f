"""The records Snow Tails kernels read and write, and the constants that name their parts.

Three record types (``docs/positions.md``), each laid out by numpy from named fields:

- ``POSITION``: the whole state of a unit (a race, or a season / tournament) at a decision:
  every seat's sled, cards and counters, the trees standing, the round and turn, and the
  states of the random streams still to draw from. Copy one with ``array[j] = pos``.
- ``cell_dtype(variant)``: everything read-only a unit needs: the variant's parameters
  (``Variant.kernel_dtype``), the seats' bots (each ``BotSettings`` field over the seats),
  the start slots, and the joined table of the unit's tracks (``kernel_track``, one row
  per space; ``S_*`` name its columns).
- ``WORK``: scratch of one thread: the movement search, the chosen play, the event log of
  a traced race and the heat counts of a batch.

Column indices of the space table, the search scratch and a play row are constants of
this module (counted out in one place each); rule values always come from the records.
Codes kernels pass to one another are ``np.int64``, not ``int``: numba compiles a function
again for every literal ``int`` it is called with (measured: ``log`` 39 times).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields

import numpy as np

from simkit.games.snowtails.params import MAX_RACES, MAX_SLOTS, MAX_VALUE, SnowTailsParams
from simkit.params import record_dtype
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

# Space table columns (one row per space of the joined table).
(
    S_NEXT,  # next space straight ahead, -1 = side/end of track
    S_LEFT,  # drift-left target, -1 = side of track
    S_RIGHT,  # drift-right target
    S_BLOCKED,  # closed space or building: entering it is a collision
    S_LEVEL,  # race-order key
    S_TIE,  # ST1 tie-break among level spaces, 0 = inside
    S_CP,  # corner entry lines at or behind the back edge
    S_PAST,  # front edge past the finish line
    S_DIST,  # straight moves until the next corner entry line is crossed (bot evaluation)
    S_NSAFE,  # safety speed of that next corner, 0 = none (bot evaluation)
    S_LANE,
    S_TREE,  # index of the tree printed here, -1 = none or trees not in play
    S_TRIG,  # building trigger bits T_* (R-27), when buildings have effects
    S_SEG,  # spec segment (R-29 compares sleds on the same corner)
    S_TIGHT_IN,  # inside lane of a tight corner
    S_FLAG,  # ST2 tie-break among level sleds of equal speed, 0 = flag side
) = (np.int64(c) for c in range(16))
S_COLS = 16

# Building trigger bits (S_TRIG).
T_KENNELS = np.int64(1)
T_CHAPEL = np.int64(2)
T_BOTHY = np.int64(4)
T_TAVERN = np.int64(8)

FAR = 99  # S_DIST when no corner lies ahead in the lane
ZERO = np.int64(0)  # for constant arguments of kernels (see the module docstring)
NONE = np.int64(-1)
ONE = np.int64(1)
RACING_ONLY = np.int64(1)  # rules.race_order: sleds still racing (not finished or repairing)
IN_RACE = np.int64(0)  # rules.race_order: every sled not out

MAX_SEATS = MAX_SLOTS  # sleds in one race (ST2: up to 8)
N_VALUES = MAX_VALUE + 1  # canine card values 0..5
MAX_DECK = 60  # cards in one sled's deck (params: deck holds 1 to 60)
MAX_PATH = 48  # longest movement path: speed 10 plus a bonus of at most the field size
MAX_ROW = 16  # start-row spaces of an ST2 track
MAX_SPACES = 4096  # spaces of a unit's tracks joined (a library track has 150-430)
MAX_CORNERS = 64  # corners of a unit's tracks joined
MAX_TREES = 128  # trees of a unit's tracks joined
# per seat: greedy's bots.N_WEIGHTS, a policy's (distil.py), its value's, its tanh layer's
# (bots.MLP0: 1 + 16 x 32 numbers at most)
MAX_WEIGHTS = 72 + 1 + 16 * 32
N_STREAMS = 1 + 2 * MAX_SEATS  # random streams: start order, a deck per seat, a bot per seat

# Bot kinds (the cell's ``bots``).
BOT_RANDOM = np.int64(0)
BOT_GREEDY = np.int64(1)
BOT_SEARCH = np.int64(2)
BOT_POLICY = np.int64(3)  # a policy distilled from search (distil.py)

# Sled status.
RACING = np.int64(0)
FINISHED = np.int64(1)
OUT = np.int64(2)
REPAIR = np.int64(3)  # sitting out a fifth dent until last at the start of a round

# Decisions (``pos.phase``): what the seat ``pos.to_move`` is to choose. NONE: the unit is over.
PH_NONE = np.int64(0)
PH_PLAY = np.int64(1)  # cards, where they go, drift pattern, bonus, and in round 1 the start space
PH_DISCARD = np.int64(2)  # one canine card, down to the hand size (ST1 Game Play 5, R-16)
PH_BOTHY = np.int64(3)  # canine cards to discard at the bothy
PH_KENNELS = np.int64(4)  # add a set-aside 5 to the draw deck or not
PH_PAIR = np.int64(5)  # an experienced sled's starting pair (ST2 A.5)
PH_CHAPEL = np.int64(6)  # drop every dent at the chapel or not

# A play: one int64 row. ``PL_KIND`` is the phase it answers; for PH_BOTHY the counts by
# value fill columns PL_COUNTS.. (N_VALUES of them).
PL_KIND, PL_ENTER, PL_VALUE, PL_MASK, PL_BITS, PL_NPAT, PL_TAKE = (np.int64(c) for c in range(7))
PL_COUNTS = np.int64(1)
PLAY_W = int(max(PL_TAKE, PL_COUNTS + N_VALUES - 1)) + 1

# Play masks: bit 0 left dog, bit 1 right dog, bit 2 brake.
M_LEFT = np.int64(1)
M_RIGHT = np.int64(2)
M_BRAKE = np.int64(4)

# Move kinds and collision kinds.
MV_STRAIGHT = np.int64(0)
MV_DRIFT = np.int64(1)
MV_BONUS = np.int64(2)
C_NONE = np.int64(0)
C_WALL = np.int64(1)
C_SLED = np.int64(2)
C_FIFTH = np.int64(3)  # a tree gave one dent too many: movement stops in its space

# What a turn did (``pos.t_code``).
T_DONE = np.int64(0)
T_OUT = np.int64(1)  # a fifth dent took the sled out
T_REPAIR = np.int64(2)  # a fifth dent sent it to repair
T_SECOND = np.int64(3)  # a fifth dent in a 2-sled race: the race is over, this sled 2nd

# Where the unit's flow stands between decisions (``pos.flow``).
FL_SETUP = np.int64(0)  # setting up race ``pos.race`` from seat ``pos.setup_seat``
FL_ROUND = np.int64(1)  # a round is about to start
FL_TURN = np.int64(2)  # turn ``pos.turn_i`` of the round is about to start
FL_STAGE = np.int64(3)  # the end of the current turn, from stage ``pos.stage``
FL_DONE = np.int64(4)  # the unit is over

# Stages of the end of a turn after movement (R-27 / ST2 F order, then ST1 Game Play 5).
TS_CHAPEL = np.int64(0)
TS_BOTHY = np.int64(1)
TS_REFILL = np.int64(2)
TS_DISCARD = np.int64(3)
TS_KENNELS = np.int64(4)
TS_TAVERN = np.int64(5)

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
H_WALL, H_SLED, H_OVERSPEED, H_OUT, H_TURN_END, H_TREE, H_REPAIR = (
    np.int64(h) for h in range(len(HEAT_KINDS))
)

# Trace events: one int64 row each, the kind in column 0 (see ``trace.py`` for the fields).
EV_WIDTH = 10
EV_START = np.int64(1)  # seat, slot, space, cards dealt
EV_ROUND = np.int64(2)  # round
EV_TURN = np.int64(3)  # seat, round, race position, space, left, right, brake, dents
EV_HAND = np.int64(4)  # seat, count of each value 0..5
EV_NO_CANINE = np.int64(5)  # seat
EV_STALL = np.int64(6)  # seat (no canine card even after drawing: no play)
EV_PLAY = np.int64(7)  # seat, value, mask, left, right, brake, speed, drift (right minus left)
EV_MOVE = np.int64(8)  # seat, from, to, move kind
EV_COLLIDE = np.int64(9)  # seat, collision kind, space, kind of the move attempted
EV_BONUS = np.int64(10)  # seat, size, taken
EV_DENT = np.int64(11)  # seat, reason, corner, safety speed, speed, dents after
EV_OUT = np.int64(12)  # seat, space
EV_KEEP = np.int64(13)  # seat, space (5th dent after crossing the finish line: stays, R-18)
EV_DRAW = np.int64(14)  # seat, value
EV_DISCARD = np.int64(15)  # seat, value
EV_RESHUFFLE = np.int64(16)  # seat, cards in the new deck
EV_FINISH = np.int64(17)  # seat, finish position, round
EV_END = np.int64(18)  # rounds, timed out
EV_TREE = np.int64(19)  # seat, space, dented (1) or past the finish line (0)
EV_DIE = np.int64(20)  # seat, value before, value after, reason (DIE_*)
EV_REPAIR = np.int64(21)  # seat, space (fifth dent: sits out, R-25)
EV_REJOIN = np.int64(22)  # seat, round
EV_BUILDING = np.int64(23)  # seat, T_* bit, detail (dents dropped, cards discarded, 5s left, dice)
EV_PLACE = np.int64(24)  # seat, start-row space chosen (ST2 B, round 1)
EV_RACE = np.int64(25)  # race number (1..), track base space
DENT_OVERSPEED = np.int64(0)
DENT_WALL = np.int64(1)
DENT_NO_CANINE = np.int64(2)
DENT_TREE = np.int64(3)
DIE_ADJUST = np.int64(0)  # balanced: set or raised to race position
DIE_USED = np.int64(1)  # spent on bonus movement
DIE_SLED = np.int64(2)  # lost a point for hitting a sled
DIE_TAVERN = np.int64(3)  # tavern +2
DIE_START = np.int64(4)  # set by start place

# Per-seat fields of a position (each an int64 array over seats), and the rest.
SEAT_FIELDS = (
    "space",  # -1 until it enters the board (ST2 B)
    "left",  # value showing on the left dog
    "right",
    "brake",
    "lcard",  # 1 when a real card lies on the left dog (the start value is printed)
    "rcard",
    "dents",
    "status",  # RACING, FINISHED, OUT or REPAIR
    "deckn",  # cards left in the draw deck (drawn from the top, index deckn - 1)
    "slot",
    "fin_round",
    "out_round",
    "out_seq",  # order of elimination, 1 = first out
    "finish",  # final finish position
    "dents_taken",
    "overspeed",
    "coll_wall",
    "coll_sled",
    "bonus_used",
    "turns",
    "reshuffles",
    "no_canine",
    "points",  # points of the race, or of the whole season / tournament
    "die",  # bonus dice value, 0 = no bonus available
    "fives",  # set-aside 5s not yet added by the kennels
    "trees_hit",
    "repairs",  # fifth dents repaired
    "chapel",  # building effects used
    "bothy",
    "kennels",
    "tavern",
    "order",  # place in the race's start order, 1 first (ST2 B; ties before moving)
    "first_slot",  # start slot of the first race of a season / tournament
    "still",  # own card plays in a row that left the sled on its space (policy.STILL_TURNS)
    "unseen",  # in an observation (``position.observe``): cards in hand the observer cannot see
)
UNIT_FIELDS = (
    "n_seats",
    "race",  # race of the unit being played, 0-based
    "rnd",  # round of that race
    "flow",  # FL_*
    "phase",  # PH_*: the decision ``to_move`` has to take
    "to_move",  # seat to decide, -1 when the unit is over
    "setup_seat",  # FL_SETUP: the next seat to set up
    "deal",  # FL_SETUP: cards dealt to that seat (for its start event)
    "turn_i",  # index of the current turn in ``turn_order``
    "round_n",  # turns in this round
    "stage",  # FL_STAGE: TS_*
    "t_pos",  # race position of the seat on turn (R-04, at the start of its turn)
    "t_trig",  # building triggers where its movement ended
    "t_refill",  # it draws up to the hand size at the end of its turn
    "t_end",  # the space where its movement ended
    "t_code",  # T_*: what the last turn did
    "turns_done",  # turns ended in the unit (``WORK.halt`` stops after each)
    "n_out",  # sleds out of this race so far
    "next_rank",
    "leader",
    "leader1",  # leader after round 1 of the first race
    "second",  # R-25 two-sled race: the seat that took a fifth dent, else -1
    "over",  # this race has ended
    "lead_changes",
    "timed_out",
    "eliminations",
    "won",  # the leader after round 1 of the first race won it
    "total_rounds",
)
# Seat fields added since positions were first kept in files (``kept_positions``), last last.
SEAT_FIELDS_ADDED = ("still",)  # 5 December


def _position_layout(seat_fields: tuple[str, ...]) -> np.dtype:
    return record_dtype(
        [(name, np.int64, (MAX_SEATS,)) for name in seat_fields]
        + [(name, np.int64) for name in UNIT_FIELDS]
        + [
            ("turn_order", np.int64, (MAX_SEATS,)),  # the round's turns
            ("race_fin", np.int64, (MAX_SEATS, MAX_RACES)),
            ("race_pts", np.int64, (MAX_SEATS, MAX_RACES)),
            ("hand", np.int64, (MAX_SEATS, N_VALUES)),  # canine cards held, by value
            ("disc", np.int64, (MAX_SEATS, N_VALUES)),  # used cards, by value
            ("deck", np.int64, (MAX_SEATS, MAX_DECK)),  # draw deck, bottom first
            ("trees", np.int64, (MAX_TREES,)),  # 1 while the tree stands
            ("rng", np.uint64, (N_STREAMS,)),
        ]
    )


POSITION = _position_layout(SEAT_FIELDS)


def kept_positions(raw: np.ndarray) -> np.ndarray:
    """Positions kept in a file as raw bytes, one row each (``distil_fit`` and ``value_fit``
    collections), as ``POSITION`` records. A file written before a seat field of
    ``SEAT_FIELDS_ADDED`` reads with that field 0, as a position of then would have it."""
    from numpy.lib import recfunctions

    raw = np.ascontiguousarray(raw)
    for k in range(len(SEAT_FIELDS_ADDED) + 1):
        gone = SEAT_FIELDS_ADDED[len(SEAT_FIELDS_ADDED) - k :]
        layout = _position_layout(tuple(f for f in SEAT_FIELDS if f not in gone))
        if raw.shape[-1] == layout.itemsize:
            kept = raw.view(layout).reshape(-1)
            return kept if k == 0 else recfunctions.require_fields(kept, POSITION)
    raise ValueError(
        f"kept positions of {raw.shape[-1]} bytes: not a Snow Tails position of any layout "
        f"simkit has written ({POSITION.itemsize} bytes today)"
    )


# Search scratch: node rows (moves made, drifts made, space, parent node, move kind, tree
# dents so far, drift bits of the moves to it) and outcome rows of ``movement.outcomes``.
N_M, N_D, N_SPACE, N_PARENT, N_KIND, N_TD, N_BITS = (np.int64(c) for c in range(7))
N_COLS = 7
(
    O_END,  # space where the sled stops
    O_COLL,  # C_*
    O_BONUS,  # bonus distance moved (0: none)
    O_NODE,  # search node of the last move made (path reconstruction)
    O_ATTEMPT,  # kind of the move that collided (-1 if none)
    O_OVER,  # overspeed dents for this outcome
    O_SPEED,  # speed including any bonus taken
    O_TD,  # dents from trees entered
) = (np.int64(c) for c in range(8))
O_COLS = 8
# What a card play does (``rules.play_effect``), one row per play of ``WORK.plays``:
# written once per search of greedy's (``bound._effects``) and read by its bounds and search.
FX_LEFT, FX_RIGHT, FX_BRAKE, FX_SPEED, FX_DRIFT, FX_DCOL, FX_BONUS = (np.int64(c) for c in range(7))
FX_COLS = 7
MAX_NODES = 16384  # search nodes of one turn: far above the ~35 plays x ~200 nodes worst case
MAX_OUTS = 4096
MAX_PLAYS = 64  # card plays of one hand (6 values x 7 masks)
MAX_TOP = 32  # candidate plays greedy.top_plays keeps
ROUND_CAP = 64  # rounds recorded in Batch.round_position (a race on the library tracks: ~15)
LOG_CAP = 4096  # events of one decision's consequences (a traced race drains it each step)
RECALL = 2048  # greedy card plays a search's rollouts remember (search.py; a power of two)
RECALL_READS = 44  # spaces one of them may have read (more: it is not remembered)
RECALL_W = 8 + RECALL_READS // 2  # a remembered play's row: reads' count, play, reads

WORK = record_dtype(
    [
        ("nodes", np.int64, (MAX_NODES, N_COLS)),
        ("outs", np.int64, (MAX_OUTS, O_COLS)),
        ("okeys", np.int64, (MAX_PLAYS, 6)),  # searched (speed, drift, side, bonus) -> outs
        ("plays", np.int64, (MAX_PLAYS, 2)),  # card plays (value, mask)
        ("effects", np.int64, (MAX_PLAYS, FX_COLS)),  # greedy._top_from: each play's FX_*
        ("bounds", np.float64, (MAX_PLAYS,)),
        ("border", np.int64, (MAX_PLAYS,)),
        ("pattern", np.int64, (MAX_PATH,)),
        ("path", np.int64, (MAX_PATH,)),
        ("order", np.int64, (2 * MAX_SEATS,)),  # race order, and sorting scratch
        ("counts", np.int64, (N_VALUES,)),
        ("found", np.int64, (3,)),  # movement search: nodes used, outcomes used, first outcome
        ("play", np.int64, (PLAY_W,)),  # the play to apply
        # greedy.top_plays: the best plays found, best first, and where they came from
        ("top", np.int64, (MAX_TOP, PLAY_W)),
        ("top_score", np.float64, (MAX_TOP,)),
        ("top_i", np.int64, (MAX_TOP,)),  # card play (wk.plays row) and outcome (wk.outs row)
        ("top_o", np.int64, (MAX_TOP,)),
        ("top_entry", np.int64, (MAX_TOP,)),  # the start-row space searched (ST2 B)
        ("n_top", np.int64),
        ("n_entry", np.int64),
        ("entering", np.int64),  # the sled searched is entering the board
        # search.search_play: each candidate's summed results, tries, and those still in
        ("sums", np.float64, (MAX_TOP,)),
        ("tries", np.int64, (MAX_TOP,)),
        ("alive", np.int64, (MAX_TOP,)),
        # search._recall: greedy's card plays in the rollouts, one row each (search.py)
        ("recall_key", np.int64, (RECALL, 2)),  # apart from the rows: cheap to clear
        ("recall", np.int64, (RECALL, RECALL_W)),
        ("recall_mask", np.int64),  # this search's slots: the first recall_mask + 1 of them
        ("reading", np.int64),  # 1: movement.note keeps the spaces a search reads
        ("n_reads", np.int64),
        ("reads", np.int64, (RECALL_READS,)),
        ("stamp", np.int64),  # this search's mark in ``seen``
        ("seen", np.int32, (MAX_SPACES,)),  # the last search that noted each space
        ("occ_stamp", np.int64),  # search._mark's mark in ``occ``
        ("occ", np.int32, (MAX_SPACES,)),  # the spaces a sled blocks: those holding the mark
        ("tracing", np.int64),  # 1: log events
        ("nlog", np.int64),  # events logged (past LOG_CAP they are counted, not kept)
        ("log", np.int64, (LOG_CAP, EV_WIDTH)),
        ("halt", np.int64),  # 1: stop advancing when a turn ends (the state oracle)
        ("heat_on", np.int64),  # 1: count heat and who is where after each round
        ("heat", np.int64, (len(HEAT_KINDS), MAX_SPACES)),
        ("ranks", np.int64, (ROUND_CAP, MAX_SEATS)),  # race position after each round
        # Batch.round_position: [round - 1, slot - 1, position - 1, finish (0: undecided)]
        ("round_counts", np.int64, (ROUND_CAP, MAX_SEATS, MAX_SEATS, MAX_SEATS + 1)),
        # Batch.end_position: the same, by rounds before the race's last one
        ("end_counts", np.int64, (ROUND_CAP, MAX_SEATS, MAX_SEATS, MAX_SEATS + 1)),
        # Batch.seat_position: by seat instead of start slot
        ("seat_counts", np.int64, (ROUND_CAP, MAX_SEATS, MAX_SEATS, MAX_SEATS + 1)),
    ]
)


@dataclass(frozen=True)
class BotSettings:
    """What a seat's bot name says (``bots.parse_bot``), and what the kernels read of it:
    the cell record holds each field over the seats (``kind`` as ``bots``, ``weights`` as
    ``weights``, every other field under its own name, ``SEAT_SETTINGS``). A search's
    options are those of its name ``search:NhH[v|w]pLcMsSgG`` (search.py); 0 where the
    name leaves one out, and for every bot but ``search``."""

    kind: int  # BOT_*
    weights: tuple[float, ...]  # greedy's (bots.W_*), then a distilled policy's (distil.py)
    rollouts: int = 0  # N: rollouts per card play
    horizon: int = 0  # H: rounds a rollout plays before it is scored (0: to the seat's finish)
    value: int = (
        0  # a cut rollout scored by: 0 race position, 1 value (v), 2 value2 (w), 3 value3 (x)
    )
    prior: int = 0  # L: the distilled policy's prior weight in hundredths (0: no prior)
    candidates: int = 0  # M: plays a search with a prior compares (0: ``candidates_cut``)
    stop: int = 0  # S: a lead in hundredths that stops the search (0: none)
    gate: int = 0  # G: a prior lead in hundredths that skips the search (0: none)


# The per-seat settings beyond the kind and the weights, each a field of the cell record.
SEAT_SETTINGS = tuple(f.name for f in fields(BotSettings) if f.name not in ("kind", "weights"))
_KERNEL_TYPE = {"int": np.int64, "float": np.float64}

# The cell record: the variant's fields, then these.
CELL_FIELDS = [
    ("n_seats", np.int64),
    ("slots", np.int64, (MAX_SEATS,)),  # start slots in use
    ("bots", np.int64, (MAX_SEATS,)),  # BotSettings.kind per seat (BOT_*)
    ("weights", np.float64, (MAX_SEATS, MAX_WEIGHTS)),  # BotSettings.weights per seat
    *(
        (f.name, _KERNEL_TYPE[f.type], (MAX_SEATS,))
        for f in fields(BotSettings)
        if f.name in SEAT_SETTINGS
    ),
    ("trig_kinds", np.int64),  # T_* bits of the buildings on the unit's tracks
    ("n_spaces", np.int64),
    ("n_corners", np.int64),
    ("safety", np.int64, (MAX_CORNERS,)),  # corner safety speeds
    ("grid", np.int64, (MAX_RACES, MAX_SEATS)),  # numbered start spaces by slot, -1 none
    ("n_row", np.int64, (MAX_RACES,)),  # start-row spaces (ST2 B)
    ("row", np.int64, (MAX_RACES, MAX_ROW)),
    ("track_base", np.int64, (MAX_RACES,)),  # first space of the race's track in the table
    ("track_size", np.int64, (MAX_RACES,)),  # spaces of the race's track
    ("track_top", np.float64, (MAX_RACES,)),  # its furthest progress, at least 1 (value.py)
    ("tree_lo", np.int64, (MAX_RACES,)),  # the race's trees are tree_lo..tree_hi-1
    ("tree_hi", np.int64, (MAX_RACES,)),
    ("tab", np.int64, (MAX_SPACES, S_COLS)),
    ("prog", np.float64, (MAX_SPACES,)),  # progress per space (bot evaluation)
]


@functools.cache
def cell_dtype(params: type[SnowTailsParams] = SnowTailsParams) -> np.dtype:
    """The cell record: the variant's kernel fields, then ``CELL_FIELDS``."""
    variant = params.kernel_dtype()
    fields = [(name, variant.fields[name][0]) for name in variant.names]
    return record_dtype(fields + CELL_FIELDS)


def kernel_track(
    track: CompiledTrack, trees: bool = True, buildings: str = "walls"
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays a kernel follows: (space table, progress, corner safety, start slots).

    ``trees`` and ``buildings`` (the variant's R-21 and R-27 settings) decide whether the
    track's trees stand and whether its buildings are walls with effects, walls only, or
    removed (their spaces open track). Trees are numbered in space order from 0.
    """
    n = track.n_spaces
    tab = np.zeros((n, S_COLS), dtype=np.int64)
    tab[:, S_NEXT] = track.next_straight
    tab[:, S_LEFT] = track.drift_left
    tab[:, S_RIGHT] = track.drift_right
    flags = track.flags.astype(np.uint32)
    walls = F_CLOSED | (F_BUILDING if buildings != "none" else np.uint32(0))
    tab[:, S_BLOCKED] = (flags & walls) != 0
    tab[:, S_TREE] = -1
    if trees:
        at = np.flatnonzero((flags & F_TREE) != 0)
        tab[at, S_TREE] = np.arange(len(at))
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


# What a finished unit leaves for the tables (``position.result``): per seat, then per unit.
RESULT_SEAT = (
    "slot",
    "finish",
    "points",
    "status",
    "dents",
    "dents_taken",
    "overspeed",
    "coll_wall",
    "coll_sled",
    "bonus_used",
    "no_canine",
    "reshuffles",
    "turns",
    "fin_round",
    "out_round",
    "trees_hit",
    "repairs",
    "die",
    "chapel",
    "bothy",
    "kennels",
    "tavern",
)
RESULT_UNIT = ("total_rounds", "lead_changes", "won", "timed_out", "eliminations", "trees_left")
RESULT = record_dtype(
    [(name, np.int64, (MAX_SEATS,)) for name in RESULT_SEAT]
    + [(name, np.int64, (MAX_SEATS, MAX_RACES)) for name in ("race_fin", "race_pts")]
    + [(name, np.int64) for name in RESULT_UNIT]
)
