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

A second value, ``value2`` (``search:NhHw``), reads the same twelve features and what the
seat's next turn risks from its own hand and the board (``FEATURES2``: the slowest and
fastest speeds it can play, their excess over the next corner's safety speed where they
reach it, the distance to that corner, its dents against the limit), fitted the same way
(``value_fit RACES 2``, ``FIT2``). Hairpin Valley, 2 sleds, against search:64 (2,000 races
a seed): search:8h2wp3@policy:distilled 52.3% (seed 11) and 52.3% over seeds 3-6, where
search:8h2vp3 made 50.9% and 49.3% (docs/bots.md); search:8h1wp3 38.5% (seed 11;
search:8h1vp3 36.0%).

A third set of features, ``features3`` (the second's and bonus dice, trees ahead, sleds in
repair, the field's size), is fitted per game on many grounds (``value_fit grounds`` then
``value_fit fit DIR 3``) and kept as data: a ``[policy.NAME]`` of a game's ``bots.toml``
carries its coefficients (``value``), which ``value3`` reads from the seat's weights row
for ``search:NhHx@policy:NAME`` (docs/bots.md, "The frontier on held-out grounds").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.bots import VALUE_COEFS
from simkit.games.snowtails.distil import VALUE0, _fastest_next, over_corner
from simkit.games.snowtails.records import N_VALUES, OUT, REPAIR, S_DIST, S_NEXT, S_NSAFE
from simkit.games.snowtails.rules import ahead, canine_count, race_position, tree_at
from simkit.games.snowtails.score import _distinct, _slowest_next

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


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _logistic(coef, f):
    """The logistic function of the coefficients ``coef`` times the features ``f``."""
    z = 0.0
    for i in range(len(coef)):
        z += coef[i] * f[i]
    return 1.0 / (1.0 + np.exp(-z))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def value(cfg, pos, p, f):
    """Seat ``p``'s fitted expected rank utility in ``pos`` (``f``: scratch of
    ``N_FEATURES``)."""
    features(cfg, pos, p, f)
    return _logistic(COEF, f)


@njit(cache=True, no_cfunc_wrapper=True)
def seat_value(cfga, positions, j, p, f):
    """``value`` of ``positions[j]`` for seat ``p``, callable from Python (tests, fits);
    ``f`` gets the features."""
    return value(cfga[0], positions[j], p, f)


# A second value (``search:NhHw``): the first twelve features and what the seat's next turn
# risks, which the first value does not see (``features2``). Its coefficients: ``COEF2``.
FEATURES2 = (
    *FEATURES,
    "slowest speed playable next turn (own hand, distil's feature)",
    "that slowest speed over the next corner's safety speed, where it reaches it",
    "fastest speed playable next turn",
    "that fastest speed over the next corner's safety speed, where it reaches it",
    "straight moves to the next corner's entry line, at most 12",
    "own dents",
    "own dents at the limit less one or more (one more dent: repair)",
    "the slowest speed's excess times own dents",
    "own speed now (dogs less brake)",
    "distinct values in own hand",
    "speed now over the next corner's safety speed, where it reaches it",
    "own dents times the share of the track covered",
    "the fastest next-turn speed times the share of the track covered",
    "the most dents of an opponent still racing",
)
N_FEATURES2 = len(FEATURES2)
# Fitted by ``python -m simkit.games.snowtails.value_fit 3000 2`` (``FIT2``: the data).
COEF2 = (
    -1.23363, 0.41277, 0.04366, -0.02539, -0.29941, 0.20358, -2.61123, -0.28588, -0.01044,
    3.56138, -0.05698, 0.04013, 0.03955, 0.27487, -0.03481, 0.00642, 0.01899, -0.25041,
    -0.78219, -0.08691, 0.05753, 0.07871, -0.01903, 0.52631, 0.12072, 0.07374,
)  # fmt: skip
FIT2 = (
    "greedy:tuned, 3000 races per ground x 9 grounds (nutcracker, s-bends, long-haul; "
    "2-4 sleds), seed 24, 781,510 rows; held-out log loss 0.5863 (the first value's "
    "features refitted on the same rows 0.5889, COEF as shipped 0.5920, place utility "
    "alone 0.6258)"
)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def features2(cfg, pos, p, out):
    """``out[:N_FEATURES2]`` = what the second value reads of ``pos`` for seat ``p``:
    ``features`` and the seat's next-turn risk from its own hand and the board (never an
    opponent's hand or a deck)."""
    features(cfg, pos, p, out)
    top = cfg.track_top[pos.race]
    s = pos.space[p]
    mine = cfg.prog[s] if s >= 0 else 0.0
    done = min(1.0, mine / top)
    slowest = _slowest_next(pos, p, pos.left[p], pos.right[p], pos.brake[p], cfg.brake != 0)
    fastest = _fastest_next(pos, p)
    lim = cfg.tab[s, S_NSAFE] if s >= 0 else 0
    dist = cfg.tab[s, S_DIST] if s >= 0 else GAP_CAP
    risk = over_corner(slowest, lim, dist)
    over = over_corner(fastest, lim, dist)
    now = max(pos.left[p] + pos.right[p] - pos.brake[p], 0)
    dents = pos.dents[p]
    most = 0
    for q in range(pos.n_seats):
        if q != p and pos.status[q] != OUT:
            most = max(most, pos.dents[q])
    out[12] = slowest
    out[13] = risk
    out[14] = fastest
    out[15] = over
    out[16] = min(dist, GAP_CAP)
    out[17] = dents
    out[18] = 1.0 if dents >= cfg.dent_limit - 1 else 0.0
    out[19] = risk * dents
    out[20] = now
    out[21] = _distinct(pos, p)
    out[22] = over_corner(now, lim, dist)
    out[23] = dents * done
    out[24] = fastest * done
    out[25] = most


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def value2(cfg, pos, p, f):
    """Seat ``p``'s expected rank utility in ``pos`` by the second value (``COEF2``; ``f``:
    scratch of ``N_FEATURES2``)."""
    features2(cfg, pos, p, f)
    return _logistic(COEF2, f)


@njit(cache=True, no_cfunc_wrapper=True)
def seat_value2(cfga, positions, j, p, f):
    """``value2`` of ``positions[j]`` for seat ``p``, callable from Python (tests, fits)."""
    return value2(cfga[0], positions[j], p, f)


# A third set of features (``features3``), for values fitted on many grounds under either
# rules preset (value_fit ``grounds``): the second value's and what the Mush! Mush! rules
# and the wider tracks add: bonus dice, trees ahead, sleds in repair, the field's size.
FEATURES3 = (
    *FEATURES2,
    "bonus dice held (R-23)",
    "trees standing in own lane within the next 8 straight moves (R-21)",
    "straight moves to the nearest of them, at most 12",
    "opponents sitting out a repair (R-25)",
    "sleds in the race",
    "the place utility times the sleds in the race",
)
N_FEATURES3 = len(FEATURES3)
assert N_FEATURES3 == VALUE_COEFS  # bots.py lays the weights row out without this module
TREE_LOOK = 8  # straight moves ``features3`` looks ahead for trees


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def features3(cfg, pos, p, out):
    """``out[:N_FEATURES3]`` = ``features2`` and the third set's own (``FEATURES3``): the
    board, the seat's own dice and the field, nothing an opponent hides. Where the rules
    have no safety speeds (R-15: Mush! Mush!) the next corner's excess speeds are 0 and
    its distance ``GAP_CAP``, as if no corner were ahead."""
    features2(cfg, pos, p, out)
    if cfg.safety_speeds == 0:
        out[13] = 0.0
        out[15] = 0.0
        out[16] = GAP_CAP
        out[19] = 0.0
        out[22] = 0.0
    s = pos.space[p]
    trees = 0
    first = GAP_CAP
    k = 0
    while s >= 0 and k < TREE_LOOK:
        s = cfg.tab[s, S_NEXT]
        k += 1
        if s >= 0 and tree_at(cfg, pos, s):
            trees += 1
            first = min(first, float(k))
    repairing = 0
    for q in range(pos.n_seats):
        if q != p and pos.status[q] == REPAIR:
            repairing += 1
    out[26] = pos.die[p]
    out[27] = trees
    out[28] = first
    out[29] = repairing
    out[30] = pos.n_seats
    out[31] = out[1] * pos.n_seats


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def value3(cfg, pos, p, f, wr):
    """Seat ``p``'s expected rank utility in ``pos`` by the value a policy carries
    (``search:NhHx``): ``features3`` and the coefficients in row ``wr`` of ``cfg.weights``
    from column ``distil.VALUE0`` (a game's ``bots.toml``, ``[policy.NAME] value``; ``f``:
    scratch of ``N_FEATURES3``)."""
    features3(cfg, pos, p, f)
    z = 0.0
    for i in range(N_FEATURES3):
        z += cfg.weights[wr, VALUE0 + i] * f[i]
    return 1.0 / (1.0 + np.exp(-z))


@njit(cache=True, no_cfunc_wrapper=True)
def seat_value3(cfga, positions, j, p, wr, f):
    """``value3`` of ``positions[j]`` for seat ``p`` by row ``wr``'s value (tests)."""
    return value3(cfga[0], positions[j], p, f, wr)


@njit(cache=True, no_cfunc_wrapper=True)
def seat_features(cfga, positions, seats, which, out):
    """The value features of set ``which`` (1, 2 or 3: ``features``, ``features2``,
    ``features3``) of ``positions[d]`` for seat ``seats[d]`` into ``out[d]`` (fits)."""
    cfg = cfga[0]
    f = np.zeros(N_FEATURES3)
    for d in range(len(positions)):
        if which == 1:
            features(cfg, positions[d], seats[d], f)
        elif which == 2:
            features2(cfg, positions[d], seats[d], f)
        else:
            features3(cfg, positions[d], seats[d], f)
        for i in range(out.shape[1]):
            out[d, i] = f[i]
