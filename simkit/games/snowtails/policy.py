"""The ``random`` and ``greedy`` bots: their kernels, and the reach tables greedy bounds
plays with (specs and presets: ``bots.py``; ``choose`` gives each decision to a bot).

``random`` picks uniformly at each decision: a card play among the legal ones (value and
where the cards go), then a uniformly random drift pattern (each of the C(speed, drift)
patterns equally likely), and an available bonus with probability 1/2 (R-14) or a distance
uniform in 0..dice (R-23); a start-row space uniformly among the free ones; a uniformly
chosen card to discard; each card at the bothy with probability 1/2; the chapel and the
kennels each with probability 1/2; a uniformly chosen starting pair; a start-row space
uniformly among them all (ST2 B lets sleds share one).

``greedy`` looks one turn ahead: for every legal play it finds every distinct movement
outcome (``movement.outcomes``: each end space, collision and bonus choice) and scores the
resulting position (``_score``). Discards keep variety: drop a copy of the value held most.
For speed it skips the search of a play whose upper bound on any outcome's score (from the
track's reach table, ``reach_table``) cannot beat the best found: the choice is the one the
full search would make.

Mush! Mush! decisions (ST2): the bonus dice distance is part of the outcome search (every
distance 1..dice, R-23) and scored with the value of a dice kept for later; ending a turn
on a building's trigger space is scored by what the building gives (R-27); trees cost
their dents like any other, so a path through a tree is taken only when it scores best.
Greedy always uses the chapel (dropping its dents) and adds a kennels' 5 while one is set
aside; at the bothy it discards its 0s and any copies beyond two of a value; an
experienced sled (ST2 A.5) starts on 3s. It may share a start-row space in round 1 when
that scores best (ST2 B).

Bots see only what a player sees: the board, every sled's dogs, brake, dents and bonus
dice, and their own hand (``position.observe``). Neither looks at any deck's order (their
own included) nor at other hands.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.bots import (
    N_WEIGHTS,
    W_BUILD,
    W_DENT,
    W_DENT_SQ,
    W_DIE,
    W_HAND,
    W_INSIDE,
    W_PROGRESS,
    W_REPAIR,
    W_RISK,
    W_SLED,
)
from simkit.games.snowtails.movement import outcomes, pattern_bits
from simkit.games.snowtails.params import MAX_VALUE
from simkit.games.snowtails.records import (
    BOT_RANDOM,
    C_FIFTH,
    C_SLED,
    C_WALL,
    FX_BONUS,
    FX_BRAKE,
    FX_DCOL,
    FX_DRIFT,
    FX_LEFT,
    FX_RIGHT,
    FX_SPEED,
    N_VALUES,
    NONE,
    O_BONUS,
    O_COLL,
    O_END,
    O_OVER,
    O_TD,
    ONE,
    PH_BOTHY,
    PH_CHAPEL,
    PH_DISCARD,
    PH_KENNELS,
    PH_PAIR,
    PH_PLAY,
    PL_BITS,
    PL_COUNTS,
    PL_ENTER,
    PL_KIND,
    PL_MASK,
    PL_NPAT,
    PL_TAKE,
    PL_VALUE,
    PLAY_W,
    S_CP,
    S_DIST,
    S_LEFT,
    S_NEXT,
    S_NSAFE,
    S_PAST,
    S_RIGHT,
    S_TIE,
    S_TRIG,
    T_BOTHY,
    T_CHAPEL,
    T_KENNELS,
    T_TAVERN,
    ZERO,
)
from simkit.games.snowtails.rules import (
    BONUS_DICE,
    entry_spaces,
    list_plays,
    pair_count,
    play_effect,
    popcount3,
)
from simkit.games.snowtails.turn import bot_stream
from simkit.rng import below, coin

START_PAIR = 3  # the pair an experienced greedy sled starts on (ST2 A.5)
ELIMINATED = -1.0e6
# A sled whose last STILL_TURNS card plays each left it on its space (``pos.still``) scores
# an outcome that leaves it there again STILL_PENALTY lower: above any dent or repair's
# cost, below going out. Greedy's score is one turn's, so a sled at the end of a lane whose
# every move costs a dent (the side of the track ahead and beside it, a tree on the only
# way out: a tight corner of an ST2 track raced in reverse, ST2 G) waited for a hand that
# cannot come, to the engine guard (docs/rules-snowtails.md, "Engine guard"). Twelve, far
# beyond what play that can still move reaches (the longest run of still plays in a race:
# 5 in 3,000 greedy races on The Nutcracker with 4 sleds, 2 in 1,000 of greedy:tuned's
# under Mush! Mush! rules on What Goes Up with 5), so no other race changes: three
# changed 1 to 5 races in 1,000 on some grounds, and the bench's greedy tables.
STILL_TURNS = 12
STILL_PENALTY = 1000.0
REACH = 17  # straight moves covered by the reach table: speed (at most 10) plus bonus (6)
CORNERS = 4  # corner entry lines told apart by the reach table: 0, 1, 2, 3 or more
SIDES = 3  # order table moves: straight only, or with drifts to the left, or to the right
DRIFTS = 2 * MAX_VALUE + 1  # reach table drift codes: none, 1..5 to the left, 1..5 to the right
BOUND_MARGIN = 1e-6  # far above rounding in scores of a few hundred
NO_LIMIT = 1 << 30  # a corner line's safety speed in the bound where none applies
DRIFT_SCALE = 128  # drift table entries: progress in 1/128 spaces (tracks up to 255 long)
NO_REACH = -32768  # drift table entry for no space within reach: below every other


def reach_table(tab: np.ndarray, prog: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reach tables the greedy bot bounds plays with: (order table, drift table).

    The first (``_order_table``: moves of either kind, in any number) settles which of two
    plays of equal score greedy takes: the one with the higher bound from it (then the
    earlier listed), as when greedy searched its plays in that order. The second
    (``_drift_table``: exactly the play's straight moves and drifts, R-01) bounds tighter:
    greedy searches its own choice in that order and skips more plays (measured: 3.6 of
    the 4.9 plays searched per decision could not win), with every choice the same.

    The drift table is int16 fixed point, each entry rounded up (``_fixed16``), so it
    still bounds every outcome: at a quarter of float64's size it mostly stays in a
    core's cache, where its reads were a third of greedy's bound time (perf; greedy
    races 6% faster than with float32, 10% than float64). The order table stays float64:
    its exact values settle ties.

    Each table ends with one entry per space (``_past_from``): the least progress of a
    space past the finish line on that space's track (the drift table's rounded up, in
    its units), where a move ending there costs no dents (``_score``), so a bound does
    not take them off (``_play_bound``, ``_drift_bounds``).
    """
    key = (tab.tobytes(), np.ascontiguousarray(prog).tobytes(), tab.shape, tab.dtype.str)
    tables = _TABLES.get(key)
    if tables is None:
        while len(_TABLES) >= 16:
            _TABLES.pop(next(iter(_TABLES)))
        past = _past_from(tab, prog)
        order = np.concatenate((_order_table(tab, prog), past))
        drift = _fixed16(_drift_table(tab, prog))
        if drift.size:
            fixed = np.minimum(np.ceil(past * DRIFT_SCALE), -NO_REACH - 1).astype(np.int16)
            drift = np.concatenate((drift, fixed))
        tables = (order, drift)
        _TABLES[key] = tables
    return tables[0].copy(), tables[1].copy()  # callers own theirs (about 10 ms to build)


def _fixed16(values: np.ndarray) -> np.ndarray:
    """The drift table in 1/``DRIFT_SCALE`` spaces of progress, each entry rounded up
    (so it still bounds every outcome), with ``NO_REACH`` for -inf; empty (greedy then
    bounds with the order table) where an entry is +inf or progress overflows int16."""
    finite = np.isfinite(values)
    if np.isposinf(values).any() or np.abs(values[finite]).max() * DRIFT_SCALE >= -NO_REACH:
        return np.zeros(0, dtype=np.int16)
    out = np.full(values.shape, NO_REACH, dtype=np.int16)
    out[finite] = np.ceil(values[finite] * DRIFT_SCALE)
    return out


_TABLES: dict = {}  # the last few tracks' reach tables, by the bytes of their inputs


def _past_from(tab: np.ndarray, prog: np.ndarray) -> np.ndarray:
    """Per space, the least progress of any space past the finish line (``S_PAST``) on the
    same track (the spaces moves connect), +inf if none. A space of less progress is not
    past the line, so a bound over spaces of at most that progress keeps their dents."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n = tab.shape[0]
    src, dst = [], []
    for col in (S_NEXT, S_LEFT, S_RIGHT):
        s = np.nonzero(tab[:, col] >= 0)[0]
        src.append(s)
        dst.append(tab[s, col])
    src_a, dst_a = np.concatenate(src), np.concatenate(dst)
    graph = coo_matrix((np.ones(src_a.size), (src_a, dst_a)), shape=(n, n))
    _, label = connected_components(graph, directed=True, connection="weak")
    past = tab[:, S_PAST] != 0
    least = np.full(label.max(initial=0) + 1, np.inf)
    np.minimum.at(least, label[past], prog[past])
    return least[label]


def _order_table(tab: np.ndarray, prog: np.ndarray) -> np.ndarray:
    """The first part of ``reach_table``: what settles greedy's ties (and orders the
    search bot's candidates).

    Entry ``((s * REACH + k) * SIDES + side) * CORNERS + j`` is the most progress of any
    space within ``k`` moves of space ``s`` that lies ``j`` corner entry lines past ``s``
    (the last column: ``j`` or more), -inf if none does. Moves are straight ahead, and for
    ``side`` 1 or 2 also drifts to the left or right (walls and sleds ignored). No outcome
    of a play moving ``k`` spaces at most, drifting only to its side, ends further along
    than that, and one that crosses ``j`` lines takes at least their overspeed dents
    (R-15). Where the track's tie-break column could raise a score (negative values) the
    bound is infinite; if a move could cross a line backwards, lines are not told apart.
    """
    n = tab.shape[0]
    cp = tab[:, S_CP]
    reach = np.full((n, REACH, SIDES, CORNERS), -np.inf)
    for side, cols in enumerate(((S_NEXT,), (S_NEXT, S_LEFT), (S_NEXT, S_RIGHT))):
        reach[:, 0, side, 0] = prog
        for k in range(1, REACH):
            reach[:, k, side, 0] = prog  # a collision on the first move leaves it in place
            layer = reach[:, k, side, :]
            for col in cols:
                s = np.nonzero(tab[:, col] >= 0)[0]
                t = tab[s, col]
                d = np.maximum(cp[t] - cp[s], 0)
                for j in range(CORNERS):
                    np.maximum.at(
                        layer, (s, np.minimum(d + j, CORNERS - 1)), reach[t, k - 1, side, j]
                    )
    return _flat(reach, tab)


def _drift_table(tab: np.ndarray, prog: np.ndarray) -> np.ndarray:
    """The second part of ``reach_table``: what greedy searches its own choice by.

    Entry ``((s * REACH + a) * DRIFTS + c) * CORNERS + j`` is the most progress of any
    space a sled on space ``s`` can end on with at most ``a`` straight moves and at most
    ``d`` drifts to one side (drift code ``c``: 0 for none, ``d`` to the left, ``MAX_VALUE
    + d`` to the right), made in any order, that lies ``j`` corner entry lines past ``s``
    (the last column: ``j`` or more); -inf if none does. Walls and sleds are ignored, but
    a drift off the track is not a move: it is a collision, which ends the movement where
    the sled stands (R-02, R-17), as a collision may on any move.

    A play of speed S with drift D makes S - D straight moves and D drifts (R-01), then up
    to its bonus straight (R-14, R-23), and stops early only by a collision: every space it
    can end on is within ``a = S - D + bonus`` straight moves and ``d = D`` drifts, so no
    outcome ends further along than the entry, and one that crosses ``j`` lines takes at
    least their overspeed dents (R-15). Where the track's tie-break column could raise a
    score (negative values) the bound is infinite; if a move could cross a line backwards,
    lines are not told apart.
    """
    n = tab.shape[0]
    cp = tab[:, S_CP]
    reach = np.full((n, REACH, DRIFTS, CORNERS), -np.inf)
    reach[:, :, :, 0] = prog[:, None, None]  # a collision on the first move leaves it here

    def moves(col: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        s = np.nonzero(tab[:, col] >= 0)[0]
        t = tab[s, col]
        return s, t, np.maximum(cp[t] - cp[s], 0)

    def take(layer: np.ndarray, move: tuple, src: np.ndarray) -> None:
        s, t, d = move
        for j in range(CORNERS):  # each s once per j: a plain maximum, not np.maximum.at
            jj = np.minimum(d + j, CORNERS - 1)
            layer[s, jj] = np.maximum(layer[s, jj], src[t, j])

    straight = moves(S_NEXT)
    drifts = {S_LEFT: moves(S_LEFT), S_RIGHT: moves(S_RIGHT)}
    # Budgets in increasing order of a + d, so both smaller budgets are final.
    for total in range(1, 2 * REACH):
        for a in range(min(total, REACH - 1), -1, -1):
            d = total - a
            if d > MAX_VALUE:
                break
            for c, side in ((0, None),) if d == 0 else ((d, S_LEFT), (MAX_VALUE + d, S_RIGHT)):
                layer = reach[:, a, c, :]
                if a > 0:
                    take(layer, straight, reach[:, a - 1, c, :])
                if side is not None:
                    take(layer, drifts[side], reach[:, a, c - 1 if d > 1 else 0, :])
    return _flat(reach, tab)


def _flat(reach: np.ndarray, tab: np.ndarray) -> np.ndarray:
    """A reach table (corner lines last) flattened, after the two cases its bound cannot
    rest on: a move that could cross a line backwards (lines are then not told apart)
    and negative tie-break values, which could raise a score (the bound is then
    infinite)."""
    cp = tab[:, S_CP]
    for col in (S_NEXT, S_LEFT, S_RIGHT):
        ok = tab[:, col] >= 0
        if (cp[tab[ok, col]] < cp[ok]).any():
            reach[..., 0] = reach.max(axis=-1)
            reach[..., 1:] = -np.inf
    if (tab[:, S_TIE] < 0).any():
        reach[:] = np.inf
    return np.ascontiguousarray(reach.ravel())


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _distinct(pos, p):
    n = 0
    for v in range(N_VALUES):
        if pos.hand[p, v] > 0:
            n += 1
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _distinct_after(pos, p, v, mask, held):
    """``_distinct`` once the cards of a play of ``v`` onto ``mask`` have left the hand,
    from ``held``, the count before: one less only if they were all of that value."""
    return held - 1 if pos.hand[p, v] == popcount3(mask) else held


@njit(inline="always", no_cfunc_wrapper=True)
def _slowest_next(pos, p, left, right, brake, brake_on):
    """The lowest speed the seat could play next turn from the cards it keeps."""
    best = left + right - brake
    found = False
    for v in range(N_VALUES):
        if pos.hand[p, v] == 0:
            continue
        nl = min(left, v)
        nr = min(right, v)
        nb = max(brake, v) if brake_on else brake
        if nl == left and nr == right and nb == brake:
            inc = min(v - left, v - right)  # must still play the card somewhere
            if brake_on:
                inc = min(inc, brake - v)
            sp = left + right - brake + inc
        else:
            sp = nl + nr - nb
        if not found or sp < best:
            best = sp
            found = True
    return max(best, 0)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _dice_kept(cfg, wk, o, coll, trig, die):
    """The bonus dice a sled keeps after outcome ``o`` (R-23, R-24, R-27)."""
    kept = die if wk.outs[o, O_BONUS] == 0 else 0  # spent once used
    if coll == C_SLED:
        kept = max(kept - cfg.sled_collision_die, 0)
    if trig & T_TAVERN:
        kept = 2 if kept == 0 else min(kept + 2, cfg.bonus_dice_max)
    return kept


@njit(inline="always", no_cfunc_wrapper=True)
def _score(cfg, wk, o, dents, ws, hq, slowest, die, fives):
    """Position evaluation of outcome ``o`` for a sled holding ``dents`` before the turn.

    ``die`` is the bonus dice on offer this turn (after step 2), ``fives`` the 5s still
    set aside for the kennels. ``ws``: the weights' row as values (``_weights``), which the
    score reads once an outcome.
    """
    tab = cfg.tab
    end = wk.outs[o, O_END]
    coll = wk.outs[o, O_COLL]
    taken = wk.outs[o, O_OVER] + wk.outs[o, O_TD]
    if coll == C_WALL:
        taken += cfg.wall_dents
    room = cfg.dent_limit - dents
    past = tab[end, S_PAST] != 0
    if past:
        # A move that ends past the finish line costs no dents: with R-26 none are taken
        # (turn.take_dents), and without it the ones taken cannot cost the finish (R-18:
        # a fifth leaves the sled where it is) and every dent goes back before the next
        # race (race.py). Charging them made greedy stop short of the line to save one.
        taken = 0
    elif taken > room or coll == C_FIFTH:
        if cfg.fifth_dent != 0:  # sits out
            return ws[W_PROGRESS] * cfg.prog[end] - ws[W_REPAIR]
        return ELIMINATED + cfg.prog[end]  # out of the race
    after = dents + taken
    sc = ws[W_PROGRESS] * cfg.prog[end] - ws[W_INSIDE] * tab[end, S_TIE]
    trig = tab[end, S_TRIG]
    if past:
        pass  # no dents to charge, none worth forgiving (above)
    elif trig & T_CHAPEL:  # every dent goes
        sc += ws[W_DENT] * dents + ws[W_DENT_SQ] * dents * dents
    else:
        sc -= ws[W_DENT] * taken + ws[W_DENT_SQ] * (after * after - dents * dents)
    if coll == C_SLED:
        sc -= ws[W_SLED]
    sc += ws[W_HAND] * hq
    lim = tab[end, S_NSAFE]
    if lim > 0 and slowest >= tab[end, S_DIST] and slowest > lim:
        sc -= ws[W_RISK] * (slowest - lim)
    if cfg.bonus_rule == BONUS_DICE:
        sc += ws[W_DIE] * _dice_kept(cfg, wk, o, coll, trig, die)
    if trig & T_KENNELS and fives > 0:
        sc += ws[W_BUILD]
    if trig & T_BOTHY:
        sc += ws[W_BUILD] / 3.0
    return sc


@njit(inline="always", no_cfunc_wrapper=True)
def _weights(cfg, wr):
    """Row ``wr`` of ``cfg.weights`` as a tuple of values, for ``_score``: read once a search
    instead of once an outcome (an array's elements are read again after every store the
    compiler cannot tell apart from them)."""
    w = cfg.weights
    return (
        w[wr, W_PROGRESS],
        w[wr, W_INSIDE],
        w[wr, W_DENT],
        w[wr, W_DENT_SQ],
        w[wr, W_SLED],
        w[wr, W_HAND],
        w[wr, W_RISK],
        w[wr, W_DIE],
        w[wr, W_BUILD],
        w[wr, W_REPAIR],
    )


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _building_gain(cfg, wr, dents, room, fives):
    """The most the buildings on the unit's tracks can add to a score (``greedy``'s bound):
    the chapel also forgives this turn's dents."""
    trig = cfg.trig_kinds
    extra = 0.0
    if trig & T_CHAPEL:
        extra += (
            cfg.weights[wr, W_DENT] * (dents + room) + cfg.weights[wr, W_DENT_SQ] * dents * dents
        )
    if trig & T_KENNELS and fives > 0:
        extra += cfg.weights[wr, W_BUILD]
    if trig & T_BOTHY:
        extra += cfg.weights[wr, W_BUILD] / 3.0
    return extra


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _play_bound(cfg, order, pos, wk, p, i, wr, room, partial, extra, held):
    """An upper bound on the score of any outcome of card play ``i`` (``wk.plays`` row),
    from the order table of ``reach_table``.

    Every term of the score but progress, dents and hand only lowers it, so no outcome
    scores above the best, over the corner lines j it may cross, of the progress within
    reach less the dents crossing them surely costs (at the speed without bonus; R-15,
    capped at what the sled can still take, R-18), plus the hand term, what buildings give
    and the dice kept. ``held``: the distinct values in the seat's hand (``_distinct``).
    """
    v = wk.plays[i, 0]
    mask = wk.plays[i, 1]
    speed, drift, dcol, bonus = _movement(wk, i)
    start = pos.space[p]
    moves = speed + bonus
    side = 0 if drift == 0 else (1 if dcol == S_LEFT else 2)
    at = ((start * REACH + moves) * SIDES + side) * CORNERS
    if moves >= REACH:
        return np.inf
    past = order[order.shape[0] - order.shape[0] // (REACH * SIDES * CORNERS + 1) + start]
    b = -np.inf
    over = 0
    c = cfg.tab[start, S_CP]
    for j in range(CORNERS):
        if j > 0:
            over += max(speed - _line_limit(cfg, c), 0)
            c += 1
        r = order[at + j]
        if r == np.inf:
            return np.inf
        if r > -np.inf:
            cand = cfg.weights[wr, W_PROGRESS] * r
            if r < past:  # nothing this far is past the finish line: its dents count
                cand -= cfg.weights[wr, W_DENT] * min(over, room)
            if cand > b:
                b = cand
    return b + _bound_rest(cfg, pos, p, v, mask, wr, partial, extra, held, bonus)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _bound_rest(cfg, pos, p, v, mask, wr, partial, extra, held, bonus):
    """The terms of a play's bound besides progress and dents: the hand left, what
    buildings give, and the dice kept (R-23, R-27)."""
    b = cfg.weights[wr, W_HAND] * _distinct_after(pos, p, v, mask, held)
    if extra > 0.0:
        b = b + extra
    if partial:
        tavern = 2 if cfg.trig_kinds & T_TAVERN else 0
        b = b + cfg.weights[wr, W_DIE] * min(bonus + tavern, cfg.bonus_dice_max)
    return b


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _line_limit(cfg, c):
    """The safety speed of corner line ``c`` for the bound: a speed above it costs dents
    (R-15); a huge one where no line or no limit counts."""
    if c < cfg.n_corners and cfg.safety_speeds != 0 and cfg.safety[c] > 0:
        return cfg.safety[c]
    return NO_LIMIT


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _lines_bound(drifts, at, wu, wd, over1, over2, over3, room, past):
    """The best of the drift table's entries ``at`` to ``at + 3`` (0 to 3 or more corner
    lines crossed), each less the dents its lines surely cost (``over1``..``over3``,
    capped at ``room``; none past the finish line, from entry ``past`` on)."""
    b0 = wu * drifts[at]  # NO_REACH scores below b0, so needs no branch
    e1 = drifts[at + 1]
    e2 = drifts[at + 2]
    e3 = drifts[at + 3]
    b1 = wu * e1 - (wd * min(over1, room) if e1 < past else 0.0)
    b2 = wu * e2 - (wd * min(over2, room) if e2 < past else 0.0)
    b3 = wu * e3 - (wd * min(over3, room) if e3 < past else 0.0)
    return max(max(b0, b1), max(b2, b3))


@njit(inline="always", no_cfunc_wrapper=True)
def _drift_bounds(cfg, drifts, pos, wk, p, n_pl, wr, room, partial, extra, held):
    """``_play_bound`` for every card play, from the drift table (``reach_table``): the
    play's exact straight moves and drifts, into ``wk.bounds``. For weight ``W_PROGRESS`` >
    0 and a table that is not empty (``_fixed16``) only. Entries are rounded up, so each
    bound is at least the float64 one.

    A play with a bonus is bounded as the better of its outcomes without the bonus and
    those with it: the first end within its own straight moves and pay their lines'
    dents at its speed; the second end within the bonus's further moves too, but every
    line they cross dents at the speed plus the bonus distance moved (R-14: all of it;
    R-23: one at least, ``partial``; R-15), and they keep no dice but the tavern's
    (R-23, R-27). A bound at its speed alone was loose by those dents: 1.6 of greedy's
    3.5 plays searched per decision were bonus plays that could not win (measured)."""
    start = pos.space[p]
    c = cfg.tab[start, S_CP]
    lim1 = _line_limit(cfg, c)
    lim2 = _line_limit(cfg, c + 1)
    lim3 = _line_limit(cfg, c + 2)
    wu = cfg.weights[wr, W_PROGRESS] / DRIFT_SCALE  # per table unit
    wd = cfg.weights[wr, W_DENT]
    tavern = 2 if cfg.trig_kinds & T_TAVERN else 0  # dice a bonus outcome may keep
    # Entries from this one on may be past the finish line, where dents cost nothing
    # (``_score``; ``reach_table`` keeps it per space after the entries).
    past = drifts[drifts.shape[0] - drifts.shape[0] // (REACH * DRIFTS * CORNERS + 1) + start]
    for i in range(n_pl):
        v = wk.plays[i, 0]
        mask = wk.plays[i, 1]
        speed, drift, dcol, bonus = _movement(wk, i)
        moves = speed - drift  # straight ones
        if moves + bonus >= REACH:  # with the bonus's
            wk.bounds[i] = np.inf
            continue
        code = 0 if drift == 0 else (drift if dcol == S_LEFT else MAX_VALUE + drift)
        at = ((start * REACH + moves) * DRIFTS + code) * CORNERS
        over1 = max(speed - lim1, 0)
        over2 = over1 + max(speed - lim2, 0)
        over3 = over2 + max(speed - lim3, 0)
        rest = _bound_rest(cfg, pos, p, v, mask, wr, partial, extra, held, bonus)
        b = _lines_bound(drifts, at, wu, wd, over1, over2, over3, room, past) + rest
        if bonus > 0:
            fast = speed + (1 if partial else bonus)
            over1 = max(fast - lim1, 0)
            over2 = over1 + max(fast - lim2, 0)
            over3 = over2 + max(fast - lim3, 0)
            if partial:
                kept = min(bonus + tavern, cfg.bonus_dice_max)
                rest += cfg.weights[wr, W_DIE] * (tavern - kept)
            at += bonus * DRIFTS * CORNERS
            b = max(b, _lines_bound(drifts, at, wu, wd, over1, over2, over3, room, past) + rest)
        wk.bounds[i] = b


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _first_of_equals(cfg, order, pos, wk, p, i, wr, room, partial, extra, held, prunable):
    """Whether play ``i``, scoring the same as the play kept from this space, is the one
    greedy takes: the one first in the order of the order table's bounds (ties: the
    earlier listed), which is the play greedy found first when it searched in that order.
    The drift table's order is faster to search; this keeps every choice the same."""
    q = wk.top_i[0]
    if wk.n_top == 0 or wk.top_entry[0] != wk.n_entry or q == i:
        return False
    if not prunable:
        return i < q  # every bound infinite: list order
    bi = _play_bound(cfg, order, pos, wk, p, i, wr, room, partial, extra, held)
    bq = _play_bound(cfg, order, pos, wk, p, q, wr, room, partial, extra, held)
    return bi > bq or (bi == bq and i < q)


@njit(inline="always", no_cfunc_wrapper=True)
def _search_play(cfg, pos, wk, p, i, partial, room, n_keys):
    """The outcomes of card play ``i``: searched, or found among those of an earlier play
    that moves the same (speed, drift, side, bonus). Returns (key row, keys used)."""
    speed, drift, dcol, bonus = _movement(wk, i)
    keys = wk.okeys
    for q in range(n_keys):
        k = keys[q]
        if k[0] == speed and k[1] == drift and k[2] == dcol and k[3] == bonus:
            return q, n_keys
    if n_keys >= keys.shape[0]:
        return -1, n_keys
    lo = wk.found[1]
    outcomes(cfg, pos, wk, pos.space[p], speed, drift, dcol, bonus, partial, room, wk.found)
    keys[n_keys, 0] = speed
    keys[n_keys, 1] = drift
    keys[n_keys, 2] = dcol
    keys[n_keys, 3] = bonus
    keys[n_keys, 4] = lo
    keys[n_keys, 5] = wk.found[1]
    return n_keys, n_keys + 1


@njit(inline="always", no_cfunc_wrapper=True)
def _effects(cfg, pos, wk, p, n_pl):
    """What each card play ``wk.plays[:n_pl]`` of seat ``p`` does (``play_effect``), into
    ``wk.effects``: once a search, for its bounds, its movement searches and its scores,
    which each worked it out again (three times for a play searched)."""
    for i in range(n_pl):
        left, right, brake, speed, drift, dcol, _, bonus = play_effect(
            cfg, pos, p, wk.plays[i, 0], wk.plays[i, 1], pos.rnd, pos.t_pos
        )
        fx = wk.effects[i]
        fx[FX_LEFT] = left
        fx[FX_RIGHT] = right
        fx[FX_BRAKE] = brake
        fx[FX_SPEED] = speed
        fx[FX_DRIFT] = drift
        fx[FX_DCOL] = dcol
        fx[FX_BONUS] = bonus


@njit(inline="always", no_cfunc_wrapper=True)
def _movement(wk, i):
    """How card play ``i`` moves the sled, from ``wk.effects`` (``_effects``): speed,
    drift, the drift's side and the bonus on offer."""
    fx = wk.effects[i]
    return fx[FX_SPEED], fx[FX_DRIFT], fx[FX_DCOL], fx[FX_BONUS]


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _best_bound(wk, n_pl):
    """The card play with the highest bound (ties: the earlier listed): searched first."""
    best = 0
    for i in range(1, n_pl):
        if wk.bounds[i] > wk.bounds[best]:
            best = i
    return best


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _order_above(wk, n_pl, first, bar):
    """After play ``first`` is searched: into ``wk.border[1:]``, the other card plays whose
    bound can still beat (or tie) ``bar``, highest bound first (ties: list order); returns
    1 + their number. The search order is the one a sort of every play by bound would
    give, since a play below the bar now stays below it; but a decision searches about 4
    of its 14 plays (measured), and sorting all of them was a third of the search loop."""
    n = 1
    for i in range(n_pl):
        b = wk.bounds[i]
        if i == first or b + BOUND_MARGIN <= bar:
            continue
        m = n
        while m > 1 and wk.bounds[wk.border[m - 1]] < b:
            wk.border[m] = wk.border[m - 1]
            m -= 1
        wk.border[m] = i
        n += 1
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _keep(wk, k, sc, i, o):
    """Put outcome ``o`` of card play ``i`` (score ``sc``) into the top-``k`` list of the
    current search, ordered by score, then play, then outcome (greedy's tie rule), unless
    ``k`` better ones are there. Returns the score the next candidate must beat."""
    n = wk.n_top
    j = n
    while j > 0 and (
        sc > wk.top_score[j - 1]
        or (
            sc == wk.top_score[j - 1]
            and wk.top_entry[j - 1] == wk.n_entry
            and (i < wk.top_i[j - 1] or (i == wk.top_i[j - 1] and o < wk.top_o[j - 1]))
        )
    ):
        j -= 1
    if j < k:
        last = min(n, k - 1)
        for m in range(last, j, -1):
            wk.top_score[m] = wk.top_score[m - 1]
            wk.top_i[m] = wk.top_i[m - 1]
            wk.top_o[m] = wk.top_o[m - 1]
            wk.top_entry[m] = wk.top_entry[m - 1]
            for c in range(PLAY_W):
                wk.top[m, c] = wk.top[m - 1, c]
        wk.top_score[j] = sc
        wk.top_i[j] = i
        wk.top_o[j] = o
        wk.top_entry[j] = wk.n_entry
        wk.top[j, PL_KIND] = -1  # its play row is written once the search of this space ends
        wk.n_top = min(n + 1, k)
    return wk.top_score[k - 1] if wk.n_top == k else -np.inf


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _top_from(cfg, reach, pos, wk, p, wr, k, floor):
    """The ``k`` best card plays and outcomes by ``_score`` from the sled's space, added to
    the top list (``_keep``); only scores above ``floor`` count.

    Plays are searched in order of an upper bound on their scores (``_play_bound``), and
    once no remaining bound can beat the k-th best score found, the rest are skipped: the
    list is the same as searching every play. For greedy's own choice (``k`` = 1) the bound
    counts the play's drifts (``reach_table``), which skips more plays; of plays scoring
    the same it takes the one the order table's bounds put first (``_first_of_equals``).
    """
    n_pl = list_plays(cfg, pos, p, wk.plays)
    _effects(cfg, pos, wk, p, n_pl)
    dents = pos.dents[p]
    prunable = ONE  # an int64, not a bool: a literal True compiled _first_of_equals twice
    for j in range(N_WEIGHTS):
        if cfg.weights[wr, j] < 0:
            prunable = ZERO  # the bound assumes every penalty lowers the score
    room = max(cfg.dent_limit - dents, 0)
    partial = 0
    if cfg.bonus_rule == BONUS_DICE:
        partial = 2 if prunable and cfg.weights[wr, W_PROGRESS] > 0 else 1  # movement.outcomes
    fives = pos.fives[p]
    extra = _building_gain(cfg, wr, dents, room, fives)
    drifts = k == 1  # greedy's own choice: search in the drift table's order
    held = _distinct(pos, p)
    order = reach[0]
    if prunable and drifts and cfg.weights[wr, W_PROGRESS] > 0.0 and reach[1].shape[0] > 0:
        _drift_bounds(cfg, reach[1], pos, wk, p, n_pl, wr, room, partial, extra, held)
    else:
        for i in range(n_pl):
            b = np.inf
            if prunable:
                b = _play_bound(cfg, order, pos, wk, p, i, wr, room, partial, extra, held)
            wk.bounds[i] = b
    wk.border[0] = _best_bound(wk, n_pl)
    n_order = min(n_pl, 1)
    ordered = n_pl <= 1
    wk.found[0] = 0
    wk.found[1] = 0
    n_keys = ZERO
    bar = floor
    brake_on = cfg.brake != 0
    ws = _weights(cfg, wr)
    here = pos.space[p]
    stuck = wk.entering == 0 and pos.still[p] >= STILL_TURNS  # (STILL_PENALTY)
    j = 0
    while True:
        if j == 1 and not ordered:  # the first play searched: order the rest, once
            n_order = _order_above(wk, n_pl, wk.border[0], bar)
            ordered = True
        if j >= n_order:
            break
        i = wk.border[j]
        j += 1
        if wk.bounds[i] + BOUND_MARGIN <= bar:
            break  # no play left can beat (or tie) the k-th best: the margin covers rounding
        kk, n_keys = _search_play(cfg, pos, wk, p, i, partial, room, n_keys)
        if kk < 0:
            continue
        v = wk.plays[i, 0]
        mask = wk.plays[i, 1]
        fx = wk.effects[i]
        left = fx[FX_LEFT]
        right = fx[FX_RIGHT]
        brake = fx[FX_BRAKE]
        bonus = fx[FX_BONUS]
        hq = _distinct_after(pos, p, v, mask, held)
        n = popcount3(mask)
        pos.hand[p, v] -= n
        slowest = _slowest_next(pos, p, left, right, brake, brake_on)
        pos.hand[p, v] += n
        for o in range(wk.okeys[kk, 4], wk.okeys[kk, 5]):
            sc = _score(cfg, wk, o, dents, ws, hq, slowest, bonus, fives)
            if stuck and wk.outs[o, O_END] == here:
                sc -= STILL_PENALTY
            if sc > bar or (sc == bar and wk.n_top < k):
                bar = max(floor, _keep(wk, k, sc, i, o))
            elif (
                drifts
                and sc == bar
                and _first_of_equals(
                    cfg, order, pos, wk, p, i, wr, room, partial, extra, held, prunable
                )
            ):
                wk.n_top = 0  # k = 1: it replaces the play kept
                bar = max(floor, _keep(wk, k, sc, i, o))
    # The rows of the candidates this space added, while its search tables are still here.
    for m in range(wk.n_top):
        if wk.top_entry[m] == wk.n_entry and wk.top[m, PL_KIND] < 0:
            i = wk.top_i[m]
            npat, bits = pattern_bits(wk, wk.top_o[m])
            row = wk.top[m]
            row[PL_KIND] = PH_PLAY
            row[PL_ENTER] = pos.space[p] if wk.entering != 0 else NONE
            row[PL_VALUE] = wk.plays[i, 0]
            row[PL_MASK] = wk.plays[i, 1]
            row[PL_BITS] = bits
            row[PL_NPAT] = npat
            row[PL_TAKE] = wk.outs[wk.top_o[m], O_BONUS]


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def top_plays(cfg, reach, pos, wk, p, wr, k):
    """The ``k`` best plays of seat ``p`` by greedy's one-turn score with the weights in
    row ``wr`` of ``cfg.weights``,
    from its space, or from each start-row space it may enter on (ST2 B): rows in
    ``wk.top[:wk.n_top]``, scores in ``wk.top_score``, best first. ``k`` = 1 is greedy's
    choice; the search bot takes its candidates from here."""
    wk.n_top = 0
    wk.n_entry = 0
    if pos.space[p] >= 0:
        wk.entering = 0
        _top_from(cfg, reach, pos, wk, p, wr, k, -np.inf)
        return
    wk.entering = 1
    spaces = wk.path  # the start-row spaces (the path is free until the play resolves)
    n = entry_spaces(cfg, pos, spaces)
    for e in range(n):
        wk.n_entry = e
        pos.space[p] = spaces[e]
        # A later space's play replaces an earlier one's only with a higher score.
        floor = wk.top_score[k - 1] if wk.n_top == k else -np.inf
        _top_from(cfg, reach, pos, wk, p, wr, k, floor)
    pos.space[p] = NONE
    wk.entering = 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _set_play(wk, enter, v, mask, bits, npat, take):
    play = wk.play
    play[PL_KIND] = PH_PLAY
    play[PL_ENTER] = enter
    play[PL_VALUE] = v
    play[PL_MASK] = mask
    play[PL_BITS] = bits
    play[PL_NPAT] = npat
    play[PL_TAKE] = take


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _random_play(cfg, pos, wk, p):
    """A uniform card play, a uniform drift pattern, then the bonus: all of it with
    probability 1/2 (R-14), or a distance uniform in 0..dice (R-23); first, off the
    board, a uniform start-row space (ST2 B)."""
    stream = bot_stream(p)
    enter = NONE
    if pos.space[p] < 0:
        n = entry_spaces(cfg, pos, wk.path)
        enter = wk.path[below(pos.rng, stream, n)]
    n_pl = list_plays(cfg, pos, p, wk.plays)
    i = below(pos.rng, stream, n_pl)
    v = wk.plays[i, 0]
    mask = wk.plays[i, 1]
    _, _, _, speed, drift, _, _, bonus = play_effect(cfg, pos, p, v, mask, pos.rnd, pos.t_pos)
    made = 0
    bits = ZERO
    for j in range(speed):
        left = drift - made
        # Drift now with probability drifts left / moves left: every pattern equally likely,
        # and a sled with as many drifts as moves left must drift (ST1 drift timing).
        if left > 0 and below(pos.rng, stream, speed - j) < left:
            bits |= 1 << j
            made += 1
    take = ZERO
    if bonus > 0:
        if cfg.bonus_rule == BONUS_DICE:
            take = below(pos.rng, stream, bonus + 1)
        else:
            take = coin(pos.rng, stream) * bonus
    _set_play(wk, enter, v, mask, bits, speed, take)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _discard(pos, wk, p, kind):
    """The canine card seat ``p`` discards to get down to hand size."""
    hand = pos.hand[p]
    v = -1
    if kind == BOT_RANDOM:
        total = ZERO  # not a literal 0: numba would compile ``below`` for it too
        for c in range(N_VALUES):
            total += hand[c]
        r = below(pos.rng, bot_stream(p), total)
        for c in range(N_VALUES):
            if r < hand[c]:
                v = c
                break
            r -= hand[c]
    else:
        for c in range(N_VALUES - 1, -1, -1):
            if hand[c] > 0 and (v < 0 or hand[c] > hand[v]):
                v = c
    wk.play[PL_KIND] = PH_DISCARD
    wk.play[PL_VALUE] = v


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _bothy(pos, wk, p, kind):
    """The canine cards seat ``p`` discards at the bothy (R-27), as counts by value."""
    wk.play[PL_KIND] = PH_BOTHY
    for v in range(N_VALUES):
        held = pos.hand[p, v]
        n = 0
        if kind == BOT_RANDOM:
            for _ in range(held):
                n += coin(pos.rng, bot_stream(p))
        elif v == 0:
            n = held
        elif held > 2:
            n = held - 2
        wk.play[PL_COUNTS + v] = n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _pair(cfg, pos, wk, p, kind):
    """The value of the pair an experienced sled starts on (ST2 A.5): equal, non-zero."""
    n = ZERO  # not a literal 0: numba would compile ``below`` for it too
    best = -1
    for v in range(1, N_VALUES):
        if pair_count(cfg, v) >= 2:
            n += 1
            if best < 0 or abs(v - START_PAIR) < abs(best - START_PAIR):
                best = v
    if kind == BOT_RANDOM:
        r = below(pos.rng, bot_stream(p), n)
        for v in range(1, N_VALUES):
            if pair_count(cfg, v) >= 2:
                if r == 0:
                    best = v
                    break
                r -= 1
    wk.play[PL_KIND] = PH_PAIR
    wk.play[PL_VALUE] = best


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def decide(cfg, reach, pos, wk, kind, wr):
    """The decision ``pos.phase`` of seat ``pos.to_move`` as bot ``kind`` (random or
    greedy, with the weights in row ``wr`` of ``cfg.weights``) takes it: writes
    ``wk.play``.

    Weights go down the search as a row number, not as an array: every function that
    takes an array counts a reference to it on entry and on return, and greedy's scoring
    runs once per movement outcome (in perf, those calls were 8% of a race)."""
    p = pos.to_move
    phase = pos.phase
    if phase == PH_PLAY:
        if kind == BOT_RANDOM:
            _random_play(cfg, pos, wk, p)
        else:
            top_plays(cfg, reach, pos, wk, p, wr, ONE)
            for c in range(PLAY_W):
                wk.play[c] = wk.top[0, c]
    elif phase == PH_DISCARD:
        _discard(pos, wk, p, kind)
    elif phase == PH_BOTHY:
        _bothy(pos, wk, p, kind)
    elif phase in (PH_KENNELS, PH_CHAPEL):
        # Greedy always drops its dents at the chapel and adds a kennels' 5 (R-27).
        wk.play[PL_KIND] = phase
        wk.play[PL_VALUE] = 1 if kind != BOT_RANDOM else coin(pos.rng, bot_stream(p))
    else:
        _pair(cfg, pos, wk, p, kind)
