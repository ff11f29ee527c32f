"""A fitted value of a position for one seat: what ``search:NhHv`` scores a rollout by when
it cuts it after H rounds, instead of the bare race position (``search.py``).

The value is the seat's expected rank utility, (n - place) / (n - 1), with greedy:tuned
playing every sled on to the end: a logistic function of ``N_FEATURES`` things the seat
sees (``FEATURES``: the race order, the progress gaps to the nearest sleds ahead and behind,
how far along the track it is, against the furthest space of the race's track, dents, hand
sizes, speed, and its own cards). It reads no hidden card (an opponent's hand enters only
by its size, which ``observe`` keeps), so every determinization of what the seat cannot
see gets the same value.

``COEF`` was fitted by ``python -m simkit.games.snowtails.value_fit`` (greedy:tuned
races on The Nutcracker, S-Bends and The Long Haul, 2-4 sleds; no Hairpin Valley race, so
the frontier's ground stays unfitted). It lives in this source, not a data file, so numba's
cache (keyed on this file) can never keep a stale fit. Refit rather than edit by hand.

Measured (docs/bots.md, "A fitted value at the horizon"): a small gain at two rounds only.
search:16h2v beats search:16h2 head to head (52.2%) and plays as well as search:16h3 at
about 1.6 times its speed; search:16h3v ties search:16h3, and search:16h1v loses to
search:16h1: fitted on greedy's positions, the value rewards what goes with winning there
(a small early deficit, high cards held), and a search steers to it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.records import N_VALUES, OUT
from simkit.games.snowtails.rules import ahead, canine_count, race_position

N_FEATURES = 12
FEATURES = (
    "constant",
    "place utility (n - race position) / (n - 1)",
    "spaces behind the nearest sled ahead (0: leading), at most 12",
    "spaces ahead of the nearest sled behind (0: last), at most 12",
    "the gap behind times the share of the track covered",
    "the gap ahead times the share of the track covered",
    "share of the track covered",
    "own dents less the others' mean",
    "own hand size less the others' mean",
    "the place utility times the share of the track covered",
    "own speed (the two dogs' values) less the others' mean",
    "own hand's card values, summed (its own cards: the seat sees them)",
)
GAP_CAP = 12.0

# Fitted by ``python -m simkit.games.snowtails.value_fit 3000`` (``FIT``: the data).
COEF = (
    -0.82276, 0.25366, 0.07498, -0.09756, -0.33945, 0.32144,
    -1.28261, -0.30379, -0.02191, 2.91511, -0.03171, 0.04535,
)  # fmt: skip
FIT = (
    "greedy:tuned, 3000 races per ground x 9 grounds (nutcracker, s-bends, long-haul; "
    "2-4 sleds), seed 24, 782,375 rows; held-out log loss 0.6106 (place utility alone 0.6461)"
)


@njit(no_cpython_wrapper=True)
def features(cfg, pos, p, out):
    """``out[:N_FEATURES]`` = what the value reads of ``pos`` for seat ``p``: the board and
    hand sizes only, nothing an opponent hides."""
    n = pos.n_seats
    top = cfg.track_top[pos.race]
    mine = cfg.prog[pos.space[p]] if pos.space[p] >= 0 else 0.0
    behind = GAP_CAP
    ahead_gap = GAP_CAP
    has_ahead = False
    has_behind = False
    dents = 0.0
    hand = 0.0
    speed = 0.0
    others = 0
    for q in range(n):
        if q == p or pos.status[q] == OUT:
            continue
        others += 1
        dents += pos.dents[q]
        hand += canine_count(pos, q)
        speed += pos.left[q] + pos.right[q]
        g = (cfg.prog[pos.space[q]] if pos.space[q] >= 0 else 0.0) - mine
        if g >= 0.0:
            if ahead(cfg, pos, q, p):
                has_ahead = True
                behind = min(behind, g)
            else:
                has_behind = True
                ahead_gap = min(ahead_gap, 0.0)
        else:
            has_behind = True
            ahead_gap = min(ahead_gap, -g)
    if not has_ahead:
        behind = 0.0
    if not has_behind:
        ahead_gap = 0.0
    done = min(1.0, mine / top)
    out[0] = 1.0
    out[1] = (n - race_position(cfg, pos, p)) / (n - 1)
    out[2] = behind
    out[3] = ahead_gap
    out[4] = behind * done
    out[5] = ahead_gap * done
    out[6] = done
    out[7] = pos.dents[p] - (dents / others if others > 0 else 0.0)
    out[8] = canine_count(pos, p) - (hand / others if others > 0 else 0.0)
    out[9] = out[1] * done
    out[10] = pos.left[p] + pos.right[p] - (speed / others if others > 0 else 0.0)
    held = 0.0
    for v in range(N_VALUES):
        held += v * pos.hand[p, v]
    out[11] = held


@njit(no_cpython_wrapper=True)
def value(cfg, pos, p, f):
    """Seat ``p``'s fitted expected rank utility in ``pos`` (``f``: scratch of
    ``N_FEATURES``)."""
    features(cfg, pos, p, f)
    z = 0.0
    for i in range(N_FEATURES):
        z += COEF[i] * f[i]
    return 1.0 / (1.0 + np.exp(-z))


@njit(cache=True)
def seat_value(cfga, positions, j, p, f):
    """``value`` of ``positions[j]`` for seat ``p``, callable from Python (tests, fits);
    ``f`` gets the features."""
    return value(cfga[0], positions[j], p, f)
