"""The layouts a MUSH kernel works on: the position, its inputs, its results and its plays.

Every layout is a numpy record built from names (``docs/positions.md``): kernels read
fields by name (``pos.tokens[s]``, ``sp[v].dist``, ``cell.bots[s].reserve``), and no
offset is numbered by hand. Sizes that must be fixed for one compiled kernel (seats,
markers, the longest move) come from the game's limits and the parameters' bounds.

A position is one ``POSITION`` record: every seat's sled, dogs, tokens and results so far,
the avalanche markers, where the round, turn, rolls and move stand, and the random streams
the race still draws from. Route facts are per space (``SPACE``) and per line (``LINE``);
per-cell inputs (bots, start space, the value of each training) are one ``CELL`` record.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from simkit.games.mush.bots import BOT
from simkit.games.mush.params import MushParams


def record(fields: list) -> np.dtype:
    """An aligned record dtype whose elements are ``np.record`` (fields as attributes, also
    in pure Python under ``NUMBA_DISABLE_JIT``); numba types it as a plain record."""
    return np.dtype((np.record, np.dtype(fields, align=True)))


def _hi(name: str) -> int:
    return next(f.metadata["hi"] for f in dataclasses.fields(MushParams) if f.name == name)


MAX_SEATS = 6
ROUND_CAP = 128  # rounds kept in Batch.round_position and the round measures (a race: ~45)
# A route's records have a fixed capacity, so the whole route is one record passed as one
# pointer (plain arrays cost an atomic reference count per call; see docs/positions.md).
# The standard route has 356 spaces and 405 lines.
MAX_SPACES = 1024
MAX_LINES = 2048
EV_CAP = 256  # events one apply can log (a whole move: at most about 60)
MAX_MARKERS = _hi("avalanche_markers")
# The longest move: a dog face on every die, the best bonus face and the bid's extra space.
MAX_PATH = _hi("dogs") + _hi("bonus_table") + _hi("bid_extra")
PLAN_CAP = 1024  # greedy's frontier entries per plan; the standard route needs under 100
MAX_ARMS = 8  # a search's candidate plays per decision (search.py says which)

# Random streams of a race, one uint64 state each (simkit.rng): the dice of each seat
# (dog dice, bonus die, rough and avalanche rolls), each seat's bot, the weather dice and
# the seating / first-initiative rolls.
WEATHER_SUB = 64  # sub-stream of STREAM_DICE for the weather
I_BOT = MAX_SEATS
I_WEATHER = 2 * MAX_SEATS
I_SLOTS = 2 * MAX_SEATS + 1
N_STREAMS = 2 * MAX_SEATS + 2

SEAT_STATS = (
    "slot",
    "finish",
    "points",
    "finished",
    "eliminated",
    "training",
    "initiative_first",
    "tokens_left",
    "tokens_spent",
    "tokens_gained",
    "rests",
    "dogs_covered_max",
    "dogs_covered_end",
    "spaces",
    "to_go",
    "rough_rolls",
    "rough_fails",
    "avalanche_rolls",
    "avalanche_fails",
    "rerolls",
    "dice_removed",
    "dice_lost",
    "avalanches_placed",
    "avalanches_removed",
    "passes",
    "bid_tokens",
    "bids_won",
)
RACE_STATS = ("rounds", "timed_out", "warm_rounds", "mild_rounds", "cold_rounds", "lead_changes")
STAT = record([(k, np.int64) for k in SEAT_STATS])
RACE = record([(k, np.int64) for k in RACE_STATS])
HEAT_KINDS = ("rest", "rough_fail", "avalanche_fail")
H_REST, H_ROUGH_FAIL, H_AVAL_FAIL = range(len(HEAT_KINDS))

# Route facts per space, resolved under one variant (arrays.py fills them): rt.sp[v].
SPACE = record(
    [
        ("kind", np.int64),  # route.WILD, ROUGH, TOWN
        ("rest", np.int64),  # index into route.REST_KINDS
        ("board", np.int64),
        ("dist", np.int64),  # moves to the goal under the finish rule (at the jump's end)
        ("town_dist", np.int64),  # moves to the next town or goal strictly ahead
        ("toward", np.int64),  # first line of a shortest path to the goal (-1 at the goal)
        ("jump", np.int64),  # skip-Central game: where a sled entering here is put, or -1
        ("goal", np.int64),
        ("cap_dogs", np.int64),  # the town sign: most dogs uncovered by one rest
        ("cap_tokens", np.int64),  # and most tokens taken
        ("out_lo", np.int64),  # lines leaving the space: out_lo <= line < out_hi
        ("out_hi", np.int64),
        ("weather", np.int64, (6,)),  # the d6 weather table of its board
    ],
)
LINE = record([("to", np.int64), ("avalanche", np.int64)])
ROUTE = record(
    [
        ("n_spaces", np.int64),
        ("n_lines", np.int64),
        ("sp", SPACE, (MAX_SPACES,)),
        ("ln", LINE, (MAX_LINES,)),
    ],
)

# What a race leaves besides its result rows: heat counts per space, and (when a trace
# asks for them) the events of the last apply, which the race loop then copies out.
RECORDER = record(
    [
        ("logging", np.int64),
        ("n_events", np.int64),  # may pass EV_CAP: the excess was not kept
        ("events", np.int32, (EV_CAP, 8)),
        ("heat", np.int64, (3, MAX_SPACES)),
        # race position of each seat at the end of each round (simkit.games.round_counts)
        ("ranks", np.int64, (ROUND_CAP, MAX_SEATS)),
    ],
)

CELL = record(
    [
        ("n", np.int64),  # seats
        ("start", np.int64),
        ("train_value", np.float64, (3,)),  # expected dog faces along the route per training
        ("bots", BOT, (MAX_SEATS,)),
    ],
)

POSITION = record(
    [
        ("n", np.int64),  # seats
        ("phase", np.int64),  # PH_*: whose decision, or an automatic step, or over
        ("round_no", np.int64),
        ("ini", np.int64),  # place (around the table) of the initiative player
        ("lead", np.int64),  # leader after the last round (for lead changes)
        ("winner", np.int64),
        ("train_i", np.int64),  # places that have chosen training
        ("ask_i", np.int64),  # who is asked next in a reroll round (0: the roller)
        ("rr", np.int64),  # rerolls of the current roll
        ("bid_i", np.int64),  # seats that have bid this round
        ("bid_winner", np.int64),
        ("turn_j", np.int64),  # index into order
        ("mover", np.int64),
        ("turn_from", np.int64),  # the mover's space when its turn began
        ("threat", np.int64),  # the mover led at the start of its turn, with dice to roll
        ("own_dice", np.int64),  # the mover's uncovered dogs when its turn began
        ("opp_q", np.int64),  # which opponent (1..n-1 clockwise) acts before the roll
        ("pool", np.int64),  # tokens paid this turn to remove the mover's dice
        ("weather", np.int64),
        ("wspace", np.int64),  # the leader's space when the weather was rolled
        ("ndice", np.int64),
        ("colour", np.int64),
        ("faces", np.int64),  # dog faces rolled
        ("bf", np.int64),  # bonus die face, 0 when not rolled
        ("crossed", np.int64),
        ("moves", np.int64),  # spaces the mover may move this turn
        ("plen", np.int64),  # the declared path
        ("step", np.int64),  # lines of the path walked or being entered
        ("stage", np.int64),  # what the walk checks next on the current line
        ("paid", np.int64),  # paid to pass sleds this turn
        ("done", np.int64),  # spaces moved this turn
        ("chk_rough", np.int64),  # the roll under way: 1 rough terrain, 0 avalanche
        ("chk_where", np.int64),  # the rough space, or the avalanche's line
        ("chk_bought", np.int64),
        ("chk_ok", np.int64),
        ("on_board", np.int64),  # avalanche markers on the board
        ("space", np.int64, (MAX_SEATS,)),
        ("covered", np.int64, (MAX_SEATS,)),
        ("tokens", np.int64, (MAX_SEATS,)),
        ("resting", np.int64, (MAX_SEATS,)),
        ("start_rests", np.int64, (MAX_SEATS,)),
        ("bid", np.int64, (MAX_SEATS,)),
        ("seat_at", np.int64, (MAX_SEATS,)),  # seat at each place clockwise (slot - 1)
        ("place", np.int64, (MAX_SEATS,)),
        ("order", np.int64, (MAX_SEATS,)),  # order of play this round
        ("path", np.int64, (MAX_PATH,)),
        ("markers", np.int64, (MAX_MARKERS,)),  # line of each marker, -1 in the box
        ("streams", np.uint64, (N_STREAMS,)),
        ("stats", STAT, (MAX_SEATS,)),
        ("race", RACE),
    ],
)


PHASES = (
    # decisions
    "train",
    "weather_reroll",
    "bid",
    "rest",
    "marker",
    "reduce",
    "dice_reroll",
    "bonus_reroll",
    "move",
    "avalanche",
    "pass",
    "rough",
    "check_reroll",
    # automatic steps
    "start",
    "round",
    "order",
    "turn",
    "race",
    "roll",
    "bonus",
    "walk",
    "turn_end",
    "round_end",
    "end",
    "over",
)
(
    PH_TRAIN,
    PH_WEATHER_RR,
    PH_BID,
    PH_REST,
    PH_MARKER,
    PH_REDUCE,
    PH_DICE_RR,
    PH_BONUS_RR,
    PH_MOVE,
    PH_AVAL,
    PH_PASS,
    PH_ROUGH,
    PH_CHECK_RR,
    A_START,
    A_ROUND,
    A_ORDER,
    A_TURN,
    A_RACE,
    A_ROLL,
    A_BONUS,
    A_WALK,
    A_TURN_END,
    A_ROUND_END,
    A_END,
    PH_OVER,
) = range(len(PHASES))

# A play is one int64 row: kind, a, b, then the lines of a move.
PLAY_KINDS = (
    "none",  # decline: no reroll, no marker; at occupied wilderness: stop
    "train",  # a = 0 warm, 1 mild, 2 cold
    "reroll",  # pay to have the roll rolled again
    "bid",  # a = tokens
    "race",  # race this turn instead of resting
    "rest",  # a = rest option
    "marker",  # a = line the marker comes from (-1: the box), b = line it goes to (-1: off)
    "reduce",  # a = tokens paid toward removing the roller's dice
    "move",  # a = lines, then the lines from column PLAY_PATH
    "buy",  # a = tokens bought (+1 each) for a rough-terrain or avalanche roll
    "pass",  # pay to pass occupied wilderness for the rest of the turn
)
(
    P_NONE,
    P_TRAIN,
    P_REROLL,
    P_BID,
    P_RACE,
    P_REST,
    P_MARKER,
    P_REDUCE,
    P_MOVE,
    P_BUY,
    P_PASS,
) = range(len(PLAY_KINDS))
PLAY_PATH = 3
PLAY_WIDTH = PLAY_PATH + MAX_PATH
PLAY = record([("row", np.int64, (PLAY_WIDTH,))])  # one play, as a record

# A bot's scratch, one per block of races, so no decision allocates: greedy's plan (one
# frontier entry per (space, paid) state and step) and training limits; a search's
# candidate plays (``arms``), their utility sums, the position a rollout plays on, the
# rollout's plays and a recorder whose counts nobody reads (search.py).
WORK = record(
    [
        ("e_sp", np.int64, (PLAN_CAP,)),
        ("e_paid", np.int64, (PLAN_CAP,)),
        ("e_parent", np.int64, (PLAN_CAP,)),
        ("e_line", np.int64, (PLAN_CAP,)),
        ("e_step", np.int64, (PLAN_CAP,)),
        ("e_blocked", np.int64, (PLAN_CAP,)),
        ("e_val", np.float64, (PLAN_CAP,)),
        ("taken", np.int64, (3,)),
        ("allowed", np.int64, (3,)),
        ("arms", np.int64, (MAX_ARMS, PLAY_WIDTH)),
        ("sums", np.float64, (MAX_ARMS,)),
        ("squares", np.float64, (MAX_ARMS,)),
        ("alive", np.int64, (MAX_ARMS,)),
        ("sim", POSITION, (1,)),
        ("step", PLAY),
        ("rec", RECORDER),
    ],
)

# Event log rows (round, event, seat, a, b, c, d, e) of a traced race; trace.py reads them.
EVENTS = (
    "slot",
    "train",
    "weather",
    "bid",
    "order",
    "rest",
    "reduce",
    "roll",
    "bonus",
    "step",
    "pass",
    "rough",
    "avalanche",
    "marker",
    "jump",
    "cover",
    "state",
    "finish",
    "end",
    "back",
    "reroll",
)
(
    EV_SLOT,
    EV_TRAIN,
    EV_WEATHER,
    EV_BID,
    EV_ORDER,
    EV_REST,
    EV_REDUCE,
    EV_ROLL,
    EV_BONUS,
    EV_STEP,
    EV_PASS,
    EV_ROUGH,
    EV_AVAL,
    EV_MARKER,
    EV_JUMP,
    EV_COVER,
    EV_STATE,
    EV_FINISH,
    EV_END,
    EV_BACK,
    EV_REROLL,
) = range(len(EVENTS))
LOG_WIDTH = 8
