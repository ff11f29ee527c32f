"""A policy distilled from the search bot's choices: ``policy:NAME`` (``bots.toml``).

At a card play it takes greedy's best plays with its prior weights (``greedy.top_plays``, up
to ``K`` of them, as ``search:64`` does), scores each by a linear function of
``N_FEATURES`` things the seat sees about the play and where it leaves the sled
(``FEATURES``, ``candidate_features``) and plays the best (ties: the greedier, listed
first). The coefficients are a conditional logit fitted to which of those candidates
``search:64`` chose, on positions of its own races (``distil_fit.py``: expert iteration's
first step, Anthony, Tian & Barber 2017). Its other decisions are greedy's.

A candidate's features come from the play carried out on a copy of the position up to the
end of its movement (``turn.resolve_play``: cards laid, movement, trees, dents,
collisions; nothing drawn, except a repair's new hand, which is never read): the board, the
dogs, the dents and the seat's own hand less the cards it laid. No opponent's hand or any
deck is read, so every determinization of what the seat cannot see gives the same
features (a test checks it).

Alone it is ahead of search:64 in about 31% of 2-sled races at about 100 times its speed;
as the prior of a cheap search (``policy_scores``, ``search:8h2vp3@policy:distilled``,
search.py) it plays as well as search:64 at about 20 times its speed (docs/bots.md,
"Distilling search's choices"). Each game's ``policy:broad`` has the same features fitted
on search:64's choices on many grounds of that game's rules (``distil_fit grounds``,
``grounds.py``), and carries a value (``value3``) for ``search:NhHx`` (docs/bots.md, "The
frontier on held-out grounds").

Weights go in the seat's row of ``cfg.weights``: greedy's ``N_WEIGHTS`` prior weights,
then the ``N_FEATURES`` coefficients from column ``COEF0``, then, for a policy that carries
a value (``search:NhHx``, value.py ``value3``), its coefficients from column ``VALUE0``,
then, for a policy with a tanh layer (``[policy.NAME.mlp]``, ``policy:mlp``), the layer
from column ``MLP0`` (``policy_score``), which then scores the candidates instead of the
coefficients.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.bots import MLP0, MLP_UNITS, N_WEIGHTS, POLICY_COEFS, VALUE0
from simkit.games.snowtails.greedy import top_plays
from simkit.games.snowtails.records import (
    FINISHED,
    MAX_WEIGHTS,
    N_VALUES,
    OUT,
    PL_TAKE,
    PLAY_W,
    RACING,
    S_DIST,
    S_NSAFE,
    S_PAST,
    S_TIE,
    S_TRIG,
)
from simkit.games.snowtails.rules import ahead, race_position
from simkit.games.snowtails.score import _distinct, _slowest_next
from simkit.games.snowtails.turn import resolve_play

K = 8  # candidates: greedy's best eight at most, as search:64 compares (search.CANDIDATES)
COEF0 = N_WEIGHTS  # the coefficients' first column in ``cfg.weights``
GAP_CAP = 12.0
SCORE_FLOOR = -30.0  # greedy's score of a play that puts the sled out is -1e6: capped
FEATURES = (
    "greedy's score of the play (prior weights), at least -30",
    "greedy's first choice",
    "greedy's rank of the play (0: first)",
    "progress gained",
    "progress gained times the share of the track covered after",
    "dents taken",
    "dents after squared less before squared",
    "out of the race or to repair",
    "lane (tie-break index, 0: inside)",
    "hits a sled",
    "hits a wall",
    "speed of the play",
    "distinct values left in hand",
    "cards left in hand",
    "card values left in hand, summed",
    "slowest speed playable next turn",
    "that slowest speed over the next corner's safety speed, where it reaches it",
    "this speed over the next corner's safety speed, where it reaches it",
    "straight moves to the next corner's entry line, at most 12",
    "place utility after the move",
    "spaces behind the nearest sled ahead after the move, at most 12",
    "spaces ahead of the nearest sled behind after the move, at most 12",
    "bonus spaces taken",
    "ends past the finish line",
    "bonus dice kept",
    "place utility after times share covered",
    "dents after times share covered",
    "ends on a building's trigger space",
    "fastest speed playable next turn",
    "the slowest speed's excess over the next corner's safety speed times dents after",
)
N_FEATURES = len(FEATURES)
N_COEF = N_FEATURES
# A policy that carries a value (``[policy.NAME] value``, ``search:NhHx``): its
# coefficients (``value.FEATURES3``) follow the policy's in ``cfg.weights``, from
# ``VALUE0`` (bots.py, which lays the row out without importing this module).
assert N_COEF == POLICY_COEFS and VALUE0 == COEF0 + N_COEF
assert MLP0 + 1 + MLP_UNITS * (N_COEF + 2) <= MAX_WEIGHTS


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def over_corner(speed, lim, dist):
    """How far ``speed`` exceeds the next corner's safety speed ``lim`` (R-15) where it
    reaches that corner, ``dist`` straight moves on; 0 where it stops short, keeps within
    it, or no corner is ahead (``lim`` 0)."""
    if lim > 0 and speed >= dist and speed > lim:
        return float(speed - lim)
    return 0.0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _fastest_next(pos, p):
    """The highest speed seat ``p`` could play next turn from its hand (a card onto either
    dog, or a pair onto both; a brake card only slows); its speed now if the hand is
    empty."""
    left = pos.left[p]
    right = pos.right[p]
    brake = pos.brake[p]
    best = max(left + right - brake, 0)
    for v in range(N_VALUES):
        if pos.hand[p, v] == 0:
            continue
        best = max(best, v + right - brake, left + v - brake)
        if pos.hand[p, v] >= 2:
            best = max(best, 2 * v - brake)
    return best


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def candidate_features(cfg, pos, wk, p, c, scratch, j, rwk, out):
    """``out[:N_FEATURES]``: what the policy reads of candidate ``c`` (row ``wk.top[c]``,
    greedy's score ``wk.top_score[c]``) of seat ``p`` in ``pos``. The play is carried out on
    ``scratch[j]`` (a copy) with the work record ``rwk`` (not tracing), up to the end of
    its movement; only what the seat sees is read."""
    n = pos.n_seats
    tab = cfg.tab
    scratch[j] = pos
    q = scratch[j]
    play = wk.top[c]
    start = pos.space[p]
    was = pos.dents[p]
    resolve_play(cfg, q, rwk, p, play)
    end = q.space[p]
    top = cfg.track_top[pos.race]
    prog0 = cfg.prog[start] if start >= 0 else 0.0
    mine = cfg.prog[end]
    done = min(1.0, mine / top)
    gone = q.status[p] != RACING and q.status[p] != FINISHED
    dents = q.dents[p] if not gone else cfg.dent_limit + 1
    taken = max(dents - was, 0)
    # The hand after the play: the cards laid are gone (``_lay_cards``), nothing drawn yet.
    held = 0
    size = 0
    total = 0
    for v in range(N_VALUES):
        h = pos.hand[p, v] if gone else q.hand[p, v]
        if h > 0:
            held += 1
        size += h
        total += v * h
    if gone:  # a repair discarded and redrew the hand: read the one before the play
        held = _distinct(pos, p)
    speed = max(q.left[p] + q.right[p] - q.brake[p], 0)
    slowest = _slowest_next(q, p, q.left[p], q.right[p], q.brake[p], cfg.brake != 0)
    lim = tab[end, S_NSAFE]
    dist = tab[end, S_DIST]
    risk = over_corner(slowest, lim, dist)
    over = over_corner(speed, lim, dist)
    behind = GAP_CAP
    ahead_gap = GAP_CAP
    has_ahead = False
    has_behind = False
    for o in range(n):
        if o == p or q.status[o] == OUT:
            continue
        g = (cfg.prog[q.space[o]] if q.space[o] >= 0 else 0.0) - mine
        if g >= 0.0 and ahead(cfg, q, o, p):
            has_ahead = True
            behind = min(behind, g)
        else:
            has_behind = True
            ahead_gap = min(ahead_gap, max(-g, 0.0))
    if not has_ahead:
        behind = 0.0
    if not has_behind:
        ahead_gap = 0.0
    place = (n - race_position(cfg, q, p)) / (n - 1) if not gone else 0.0
    out[0] = max(wk.top_score[c], SCORE_FLOOR)
    out[1] = 1.0 if c == 0 else 0.0
    out[2] = c
    out[3] = mine - prog0
    out[4] = (mine - prog0) * done
    out[5] = taken
    out[6] = dents * dents - was * was
    out[7] = 1.0 if gone else 0.0
    out[8] = tab[end, S_TIE]
    out[9] = q.coll_sled[p] - pos.coll_sled[p]
    out[10] = q.coll_wall[p] - pos.coll_wall[p]
    out[11] = speed
    out[12] = held
    out[13] = size
    out[14] = total
    out[15] = slowest
    out[16] = risk
    out[17] = over
    out[18] = min(dist, GAP_CAP)
    out[19] = place
    out[20] = behind
    out[21] = ahead_gap
    out[22] = play[PL_TAKE]
    out[23] = 1.0 if tab[end, S_PAST] != 0 else 0.0
    out[24] = q.die[p]
    out[25] = place * done
    out[26] = dents * done
    out[27] = 1.0 if tab[end, S_TRIG] != 0 else 0.0
    out[28] = _fastest_next(q, p) if not gone else 0.0
    out[29] = risk * dents


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def policy_score(cfg, wr, f):
    """The score of a candidate with features ``f`` by the policy in row ``wr`` of
    ``cfg.weights``: its coefficients times the features, or, for a policy with a tanh
    layer (``[policy.NAME.mlp]``, ``bots.MLP0``: units, then each unit's input weights, the
    biases and the output weights), ``sum_u w2[u] tanh(b1[u] + w1[u] . f)``."""
    units = int(cfg.weights[wr, MLP0])
    z = 0.0
    if units == 0:
        for i in range(N_FEATURES):
            z += cfg.weights[wr, COEF0 + i] * f[i]
        return z
    b1 = MLP0 + 1 + units * N_FEATURES
    w2 = b1 + units
    for u in range(units):
        a = cfg.weights[wr, b1 + u]
        w1 = MLP0 + 1 + u * N_FEATURES
        for i in range(N_FEATURES):
            a += cfg.weights[wr, w1 + i] * f[i]
        z += cfg.weights[wr, w2 + u] * np.tanh(a)
    return z


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def policy_scores(cfg, pos, wk, p, scratch, j, rwk, wr, out):
    """The policy's score (row ``wr``, ``policy_score``) of each of the candidates
    ``wk.top[:wk.n_top]`` of seat ``p`` into ``out``; ``scratch[j]`` and ``rwk`` as
    ``candidate_features``."""
    f = np.zeros(N_FEATURES)
    for c in range(wk.n_top):
        candidate_features(cfg, pos, wk, p, c, scratch, j, rwk, f)
        out[c] = policy_score(cfg, wr, f)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def policy_play(cfg, reach, pos, wk, scratch, j, rwk, wr):
    """The card play of seat ``pos.to_move`` by the distilled policy whose prior weights and
    coefficients are row ``wr`` of ``cfg.weights``: writes ``wk.play``. ``scratch[j]`` is a
    position to carry candidates out on, ``rwk`` a work record (its log is switched off)."""
    p = pos.to_move
    top_plays(cfg, reach, pos, wk, p, wr, np.int64(K))
    best = 0
    if wk.n_top > 1:
        tracing = rwk.tracing
        heat_on = rwk.heat_on
        rwk.tracing = 0
        rwk.heat_on = 0
        f = np.zeros(N_FEATURES)
        top = -np.inf
        for c in range(wk.n_top):
            candidate_features(cfg, pos, wk, p, c, scratch, j, rwk, f)
            z = policy_score(cfg, wr, f)
            if z > top:
                top = z
                best = c
        rwk.tracing = tracing
        rwk.heat_on = heat_on
    for col in range(PLAY_W):
        wk.play[col] = wk.top[best, col]


@njit(cache=True, no_cfunc_wrapper=True)
def seat_candidates(cfga, reach, positions, j, works, scratch, out):
    """Greedy's best plays (prior weights: row ``p`` of the seat to move ``p``) of
    ``positions[j]`` and each one's ``candidate_features`` into ``out[:n]``, callable from
    Python (tests, fits); returns ``n``, the candidates' rows left in ``works[0].top``."""
    cfg = cfga[0]
    pos = positions[j]
    wk = works[0]
    p = pos.to_move
    top_plays(cfg, reach, pos, wk, p, p, np.int64(K))
    rwk = works[1]
    rwk.tracing = 0
    rwk.heat_on = 0
    f = np.zeros(N_FEATURES)
    for c in range(wk.n_top):
        candidate_features(cfg, pos, wk, p, c, scratch, 0, rwk, f)
        for i in range(N_FEATURES):
            out[c, i] = f[i]
    return wk.n_top
