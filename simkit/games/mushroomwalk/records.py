"""The record layouts Mushroom Walk's kernels share: position, seat, play, event, bot.

Every layout is a numpy record dtype (docs/positions.md): numba reads fields by name and
numpy computes the offsets, so nothing here is numbered by hand but the limits below and
the small enumerations (play kinds, event kinds, stream slots), which are values, not
offsets. Counts per card code are arrays indexed by the codes of :mod:`.cards`.
"""

from __future__ import annotations

import numpy as np

from simkit.games.mushroomwalk.cards import N_CODES, N_KINDS
from simkit.rng import STREAM_BOT, STREAM_DECK, STREAM_SLOTS

MAX_FOREST = 12  # longest forest a variant may lay out
MAX_DECAY = 8  # largest decay pile a variant may allow
MAX_DECK = 200  # most cards a variant's forest deck may hold
N_SEATS = 2
N_SLOTS = N_CODES + 1  # per-code counts include CARD_UNKNOWN (``simkit moves`` positions)

# Random streams of a race (simkit.rng), slots of ``POSITION.rng``: the forest deck, the
# night pile, one bot stream per seat, who starts; ``STREAMS[slot]`` = (stream, sub-stream).
STREAMS = np.array(
    [(STREAM_DECK, 0), (STREAM_DECK, 1), (STREAM_BOT, 0), (STREAM_BOT, 1), (STREAM_SLOTS, 0)],
    dtype=np.int64,
)
R_DECK, R_NIGHT, R_BOT, R_SLOTS = (np.int64(r) for r in (0, 1, 2, 4))  # R_BOT + seat
N_RNG = len(STREAMS)

_I = np.int32


def _record(layout: np.dtype) -> np.dtype:
    """``layout`` (an aligned dtype) with ``np.record`` elements: fields read as attributes
    (``pos.seats[p].hand``) in numba and in plain Python alike (``NUMBA_DISABLE_JIT=1``).
    Records nest the plain layouts (``_SEAT``...): numpy does not align record dtypes."""
    return np.dtype((np.record, layout))


def as_records(arr: np.ndarray) -> np.ndarray:
    """``arr`` (e.g. ``Variant.to_kernel()``) viewed with ``np.record`` elements."""
    return arr.view(np.dtype((np.record, arr.dtype)))


_SEAT = np.dtype(
    [
        ("hand", np.int16, (N_SLOTS,)),  # hand cards per code, night cards included
        ("seen", np.int16, (N_SLOTS,)),  # of those, how many the opponent saw arrive
        ("dish", np.int16, (N_SLOTS,)),  # cards cooked into dishes, their pans included
        ("baskets", _I),
        ("poison", _I),  # poison mushrooms lying in the display
        ("poison_left", _I),  # own turn ends until they go, the current one included
        ("pans", _I),  # empty pans in the display
        ("sticks", _I),
        ("score", _I),
        ("cooked", _I),  # mushrooms cooked, night cards counting double
        ("dishes", _I),
        # counters the tables report
        ("sticks_earned", _I),
        ("sticks_paid", _I),
        ("poison_taken", _I),
        ("pans_taken", _I),
        ("night_taken", _I),
        ("butter_used", _I),
        ("cider_used", _I),
        ("sold", _I),
        ("decay_takes", _I),
        ("discarded", _I),  # hand cards discarded to a poison's lower limit
        ("turns", _I),
        ("turns_stuck", _I),
        ("first_pan_turn", _I),
        ("first_dish_turn", _I),
    ],
    align=True,
)
SEAT = _record(_SEAT)

# A play (GLOSSARY): one decision of the seat to move. ``arg`` is the forest position
# (TAKE), the kind (COOK, SELL) or the card code (DISCARD); ``plain`` and ``night`` the
# plain and night cards of the kind cooked or sold; ``butter``/``cider`` the extras
# added; ``hand_pan`` 1 to cook in a pan played from the hand, 0 in an empty display pan.
_PLAY = np.dtype(
    [(name, np.int64) for name in ("kind", "arg", "plain", "night", "butter", "cider", "hand_pan")],
    align=True,
)
PLAY = _record(_PLAY)
# np.int64 values, not Python ints: numba compiles a helper once per literal int argument.
TAKE, DECAY, COOK, SELL, PAN, DISCARD = (np.int64(k) for k in range(6))

# What a turn's main play did, for traces and ``simkit moves``: the card taken (or the
# kind), cards or mushrooms moved, points or sticks gained, sticks paid, the night card a
# moon gave (-1: none).
_OUTCOME = np.dtype(
    [(name, np.int64) for name in ("card", "n", "gain", "cost", "night")], align=True
)
OUTCOME = _record(_OUTCOME)

_POSITION = np.dtype(
    [
        ("seats", _SEAT, (N_SEATS,)),
        ("draw", np.int8, (MAX_DECK,)),  # the forest deck; draw_top..draw_end-1 remain
        ("draw_top", _I),
        ("draw_end", _I),
        ("night", np.int8, (N_KINDS,)),  # the night pile; night_top..night_end-1 remain
        ("night_top", _I),
        ("night_end", _I),
        ("forest", np.int8, (MAX_FOREST,)),  # position 0 is next to the decay pile
        ("forest_n", _I),
        ("decay", np.int8, (MAX_DECAY,)),  # oldest first
        ("decay_n", _I),
        ("discard", np.int16, (N_SLOTS,)),  # the discard pile, face up, per code
        ("turn", _I),  # turns begun so far
        ("cur", _I),  # whose turn it is (a stuck seat keeps it while the other plays, R-50)
        ("mover", _I),  # the seat whose decision it is; -1 once the game is over
        ("ended", _I),
        ("end_reason", _I),  # 0 the forest is empty, 1 neither seat can act
        ("starter", _I),
        ("turn_play", _PLAY, (1,)),  # the current (or last) turn's main play
        ("outcome", _OUTCOME, (1,)),  # and what it did
        ("rng", np.uint64, (N_RNG,)),
    ],
    align=True,
)
POSITION = _record(_POSITION)

# One row per game of the batch kernel besides the seats' records.
_RACE = np.dtype(
    [(name, np.int64) for name in ("winner", "turns", "end_reason", "starter")], align=True
)
RACE = _record(_RACE)

# Bot parameters (see :mod:`.bots` for their meaning); ``kind`` is one of BOT_*.
_BOT_PARAMS = ("stick", "pan", "cook_at", "endgame", "opp", "incomplete", "hold", "samples")
_BOT = np.dtype(
    [("kind", np.int64), ("budget", np.int64), ("horizon", np.int64)]
    + [(name, np.float64) for name in (*_BOT_PARAMS, "margin")],
    align=True,
)
BOT = _record(_BOT)
BOT_RANDOM, BOT_GREEDY, BOT_LOOKAHEAD, BOT_SEARCH = (np.int64(k) for k in range(4))

# The search bot's root plays (:mod:`.search`): the play's index in the list of legal
# plays, greedy's score of it (the order candidates are kept in) and the sum of the
# rollouts' utilities.
_ARM = np.dtype([("play", np.int64), ("prior", np.float64), ("total", np.float64)], align=True)
ARM = _record(_ARM)

# Trace events: a snapshot of the public position after each.
_EVENT = np.dtype(
    [
        ("kind", np.int64),
        ("turn", np.int64),
        ("seat", np.int64),
        ("card", np.int64),
        ("n", np.int64),
        ("play", _PLAY, (1,)),  # EV_TURN: the turn's main play
        ("outcome", _OUTCOME, (1,)),  # EV_TURN: what it did
        ("score", _I, (N_SEATS,)),
        ("sticks", _I, (N_SEATS,)),
        ("hand", _I, (N_SEATS,)),
        ("draw_left", _I),
        ("forest_n", _I),
        ("decay_n", _I),
        ("forest", np.int8, (MAX_FOREST,)),
        ("decay", np.int8, (MAX_DECAY,)),
    ],
    align=True,
)
EVENT = _record(_EVENT)
EVENT_KINDS = ("start", "deal", "turn", "night", "poison", "discard", "poison_end", "stuck", "end")
EV_START, EV_DEAL, EV_TURN, EV_NIGHT, EV_POISON, EV_DISCARD, EV_POISON_END, EV_STUCK, EV_END = (
    np.int64(k) for k in range(len(EVENT_KINDS))
)
