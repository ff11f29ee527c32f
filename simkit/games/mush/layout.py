"""The numbers a MUSH kernel and its readers share: streams, result columns, log events.

``SEAT_STATS``/``K_*`` index a race's seat results, ``RACE_STATS``/``R_*`` its race
results, ``HEAT_KINDS``/``H_*`` its per-space counts, ``EV_*`` the rows of its event log
(round, event, seat, a, b, c, d, e) that ``trace.py`` turns into text.
"""

from __future__ import annotations

MAX_SEATS = 6
WEATHER_SUB = 64  # weather dice: their own sub-stream of STREAM_DICE
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
(
    K_SLOT,
    K_FINISH,
    K_POINTS,
    K_FINISHED,
    K_ELIMINATED,
    K_TRAINING,
    K_INI,
    K_TOKENS,
    K_SPENT,
    K_GAINED,
    K_RESTS,
    K_COVMAX,
    K_COVEND,
    K_SPACES,
    K_TOGO,
    K_ROUGH,
    K_ROUGH_FAIL,
    K_AVAL,
    K_AVAL_FAIL,
    K_REROLLS,
    K_DICE_REMOVED,
    K_DICE_LOST,
    K_AVAL_PLACED,
    K_AVAL_REMOVED,
    K_PASSES,
    K_BID_TOKENS,
    K_BIDS_WON,
) = range(27)
RACE_STATS = ("rounds", "timed_out", "warm_rounds", "mild_rounds", "cold_rounds", "lead_changes")
R_ROUNDS, R_TIMED_OUT, R_WARM, R_MILD, R_COLD, R_LEAD_CHANGES = range(6)
HEAT_KINDS = ("rest", "rough_fail", "avalanche_fail")
H_REST, H_ROUGH_FAIL, H_AVAL_FAIL = range(3)

# Event log rows: (round, event, seat, a, b, c, d, e); see trace.py for their text.
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
) = range(21)
LOG_WIDTH = 8
