"""Bots: the policies that choose a seat's play, drift pattern, bonus and discards.

``random`` picks uniformly among the legal plays (value and where the cards go), then a
uniformly random drift pattern (each of the C(speed, drift) patterns equally likely) and
takes an available bonus with probability 1/2; discards are uniform among its canine cards.

``greedy`` looks one turn ahead: for every legal play it finds every distinct movement
outcome (``movement.outcomes``: each end space, collision and bonus choice) and scores the
resulting position (``_score``). Discards keep variety: drop a copy of the value held most.
For speed it skips the search of a play whose upper bound on any outcome's score (from the
track's reach table, ``progress_with_reach``) cannot beat the best found: the choice is the
one the full search would make.

Mush! Mush! decisions (ST2): the bonus dice distance is part of the outcome search (every
distance 1..dice, R-23) and scored with the value of a dice kept for later; ending a turn
on a building's trigger space is scored by what the building gives (R-27); trees cost
their dents like any other, so a path through a tree is taken only when it scores best.
Greedy always uses the chapel and tavern, adds a kennels' 5 while one is set aside, and at
the bothy discards its 0s and any copies beyond two of a value; an experienced sled
(ST2 A.5) starts on 3s. ``random`` chooses each of these uniformly (bothy: each card with
probability 1/2), a start-row space uniformly among the free ones, and a bonus distance
uniformly in 0..dice.

Bots see only what a player sees: the board, every sled's dogs, brake, dents and bonus
dice, and their own hand. Neither looks at any deck's order (their own included) nor at
other hands.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.layout import (
    C_FIFTH,
    C_SLED,
    C_WALL,
    MV_DRIFT,
    MV_STRAIGHT,
    S_CP,
    S_DIST,
    S_LEFT,
    S_NEXT,
    S_NSAFE,
    S_PAST,
    S_RIGHT,
    S_TIE,
    S_TRIG,
    ST_DENTS,
    ST_FIVES,
    ST_SPACE,
    T_BOTHY,
    T_CHAPEL,
    T_KENNELS,
    T_TAVERN,
)
from simkit.games.snowtails.movement import (
    O_BONUS,
    O_COLL,
    O_END,
    O_OVER,
    O_TD,
    outcomes,
    pattern_of,
)
from simkit.games.snowtails.params import (
    K_BONUS_RULE,
    K_BRAKE_ON,
    K_DENT_LIMIT,
    K_DENTS_PAST,
    K_DIE_MAX,
    K_FIFTH_DENT,
    K_SAFETY,
    K_SLED_DIE_LOSS,
    K_TREE_DENTS,
    K_TRIG_KINDS,
    K_WALL_DENTS,
    MAX_VALUE,
)
from simkit.games.snowtails.rules import BONUS_DICE, list_plays, play_effect, popcount3
from simkit.rng import below

BOT_RANDOM = 0
BOT_GREEDY = 1

# Greedy weights (one row per seat).
W_PROGRESS = 0  # per board unit of progress
W_INSIDE = 1  # per lane away from the inside for the current/next corner
W_DENT = 2  # per dent taken this turn
W_DENT_SQ = 3  # per unit of (dents after^2 - dents before^2): dents hurt more as they pile up
W_SLED = 4  # for hitting a sled (no refill this turn)
W_HAND = 5  # per distinct canine value left in hand
W_RISK = 6  # per point the slowest next-turn speed exceeds a corner it would then enter
W_DIE = 7  # per point of bonus dice kept for a later turn
W_BUILD = 8  # for adding a kennels' 5 to the deck; a third of it for the bothy (R-27)
W_REPAIR = 9  # for a fifth dent that sends the sled to repair
N_WEIGHTS = 10

GREEDY_PRESETS: dict[str, tuple[float, ...]] = {
    "greedy": (1.0, 0.3, 2.5, 0.3, 1.0, 0.2, 1.5, 0.6, 1.5, 15.0),
    "greedy:cautious": (1.0, 0.3, 4.0, 0.6, 1.5, 0.3, 3.0, 0.8, 1.5, 25.0),
    "greedy:bold": (1.0, 0.2, 1.2, 0.1, 0.5, 0.1, 0.5, 0.4, 1.0, 10.0),
}
START_PAIR = 3  # the pair an experienced greedy sled starts on (ST2 A.5)
BOT_NAMES = ("random", "greedy")
ELIMINATED = -1.0e6
REACH = 17  # moves covered by the reach table: speed (at most 10) plus bonus (at most 6)
CORNERS = 4  # corner entry lines told apart by the reach table: 0, 1, 2, 3 or more
SIDES = 3  # reach table moves: straight only, or with drifts to the left, or to the right
BOUND_MARGIN = 1e-6  # far above rounding in scores of a few hundred


def progress_with_reach(tab: np.ndarray, prog: np.ndarray) -> np.ndarray:
    """Progress per space, followed by the reach table the greedy bot bounds plays with.

    Entry ``n + ((s * REACH + k) * SIDES + side) * CORNERS + j`` is the most progress of
    any space within ``k`` moves of space ``s`` that lies ``j`` corner entry lines past
    ``s`` (the last column: ``j`` or more), -inf if none does. Moves are straight ahead,
    and for ``side`` 1 or 2 also drifts to the left or right (walls and sleds ignored).
    No outcome of a play moving ``k`` spaces at most, drifting only to its side, ends
    further along than that, and one that crosses ``j`` lines takes at least their
    overspeed dents (R-15). Where the track's tie-break column could raise a score
    (negative values) the bound is infinite; if a move could cross a line backwards, lines
    are not told apart.
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
    for col in (S_NEXT, S_LEFT, S_RIGHT):
        ok = tab[:, col] >= 0
        if (cp[tab[ok, col]] < cp[ok]).any():
            reach[..., 0] = reach.max(axis=3)
            reach[..., 1:] = -np.inf
    if (tab[:, S_TIE] < 0).any():
        reach[:] = np.inf
    return np.concatenate([prog, reach.ravel()])


def bot_arrays(specs: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Kernel arrays for bot specs: kind per seat and greedy weights per seat."""
    kinds = np.zeros(len(specs), dtype=np.int64)
    weights = np.zeros((len(specs), N_WEIGHTS), dtype=np.float64)
    for i, spec in enumerate(specs):
        if spec == "random":
            kinds[i] = BOT_RANDOM
        else:
            kinds[i] = BOT_GREEDY
            weights[i] = GREEDY_PRESETS[spec]
    return kinds, weights


@njit(cache=True, inline="always")
def _distinct(hand, p):
    n = 0
    for v in range(MAX_VALUE + 1):
        if hand[p, v] > 0:
            n += 1
    return n


@njit(cache=True, inline="always")
def _slowest_next(hand, p, left, right, brake, brake_on):
    """The lowest speed the seat could play next turn from the cards it keeps."""
    best = left + right - brake
    found = False
    for v in range(MAX_VALUE + 1):
        if hand[p, v] == 0:
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


@njit(cache=True, inline="always")
def _score(tab, prog, outs, o, dents, prm, w, hq, slowest, die, fives):
    """Position evaluation of outcome ``o`` for a sled holding ``dents`` before the turn.

    ``die`` is the bonus dice on offer this turn (after step 2), ``fives`` the 5s still
    set aside for the kennels.
    """
    end = outs[o, O_END]
    coll = outs[o, O_COLL]
    taken = outs[o, O_OVER] + outs[o, O_TD]
    past = tab[end, S_PAST] != 0
    if coll == C_WALL and (prm[K_DENTS_PAST] != 0 or not past):
        taken += prm[K_WALL_DENTS]  # R-17; none past the finish line with R-26
    room = prm[K_DENT_LIMIT] - dents
    if taken > room or coll == C_FIFTH:
        if not past:
            if prm[K_FIFTH_DENT] != 0:
                return w[W_PROGRESS] * prog[end] - w[W_REPAIR]  # sits out
            return ELIMINATED + prog[end]  # out of the race
        taken = room  # past the finish the sled keeps its place
    after = dents + taken
    sc = w[W_PROGRESS] * prog[end] - w[W_INSIDE] * tab[end, S_TIE]
    trig = tab[end, S_TRIG]
    if trig & T_CHAPEL:
        sc += w[W_DENT] * dents + w[W_DENT_SQ] * dents * dents  # every dent goes
    else:
        sc -= w[W_DENT] * taken + w[W_DENT_SQ] * (after * after - dents * dents)
    if coll == C_SLED:
        sc -= w[W_SLED]
    sc += w[W_HAND] * hq
    lim = tab[end, S_NSAFE]
    if lim > 0 and slowest >= tab[end, S_DIST] and slowest > lim:
        sc -= w[W_RISK] * (slowest - lim)
    if prm[K_BONUS_RULE] == BONUS_DICE:
        kept = die if outs[o, O_BONUS] == 0 else 0  # spent once used
        if coll == C_SLED:
            kept = max(kept - prm[K_SLED_DIE_LOSS], 0)
        if trig & T_TAVERN:
            kept = 2 if kept == 0 else min(kept + 2, prm[K_DIE_MAX])
        sc += w[W_DIE] * kept
    if trig & T_KENNELS and fives > 0:
        sc += w[W_BUILD]
    if trig & T_BOTHY:
        sc += w[W_BUILD] / 3.0
    return sc


@njit(cache=True, inline="always")
def greedy_choice(
    tab, prog, safety, occ, trees, st, hand, p, prm, rnd, pos, w, nodes, outs, keys, plays,
    pattern, floor,
):  # fmt: skip
    """Best play and outcome by ``_score``: (value, mask, pattern length, bonus distance,
    score). Only scores above ``floor`` count (a start space already found as good skips
    the rest); if none is, the score returned is ``floor``.

    The choice is the highest score, ties going to the earliest play in ``list_plays``
    order and then the earliest outcome. Plays are searched in order of an upper bound on
    their scores (``progress_with_reach``), and once no remaining bound can beat the best
    score found, the rest are skipped: the choice is the same as searching every play.
    """
    n_pl = list_plays(hand, p, prm, plays)
    start = st[p, ST_SPACE]
    dents = st[p, ST_DENTS]
    brake_on = prm[K_BRAKE_ON] != 0
    n_spaces = tab.shape[0]
    prunable = True
    for j in range(N_WEIGHTS):
        if w[j] < 0:
            prunable = False  # the bound assumes every penalty lowers the score
    st_cp = tab[start, S_CP]
    n_corners = safety.shape[0]
    use_safety = prm[K_SAFETY] != 0
    room = max(prm[K_DENT_LIMIT] - dents, 0)
    partial = 0
    if prm[K_BONUS_RULE] == BONUS_DICE:
        partial = 2 if prunable and w[W_PROGRESS] > 0 else 1  # movement.outcomes
    fives = st[p, ST_FIVES]
    # Score terms that can raise a score above progress and hand: what the buildings on
    # the unit's tracks give (the chapel also forgives this turn's dents), and, per play,
    # the dice kept (below).
    trig = prm[K_TRIG_KINDS]
    extra = 0.0
    if trig & T_CHAPEL:
        extra += w[W_DENT] * (dents + room) + w[W_DENT_SQ] * dents * dents
    if trig & T_KENNELS and fives > 0:
        extra += w[W_BUILD]
    if trig & T_BOTHY:
        extra += w[W_BUILD] / 3.0
    tavern = 2 if trig & T_TAVERN else 0
    bounds = np.empty(n_pl)
    order = np.empty(n_pl, np.int64)
    for i in range(n_pl):
        v = plays[i, 0]
        mask = plays[i, 1]
        _, _, _, speed, drift, dcol, _, bonus = play_effect(st, p, v, mask, prm, rnd, pos)
        reach = speed + bonus
        b = np.inf
        if prunable and reach < REACH:
            # Every term of the score but progress, dents and hand only lowers it, so no
            # outcome scores above the best, over the corner lines j it may cross, of the
            # progress within reach less the dents crossing them surely costs (at the
            # speed without bonus; R-15, capped at what the sled can still take, R-18),
            # plus the hand term.
            b = -np.inf
            over = 0
            side = 0 if drift == 0 else (1 if dcol == S_LEFT else 2)
            c = st_cp
            for j in range(CORNERS):
                if j > 0:
                    if c < n_corners and use_safety:
                        lim = safety[c]
                        if lim > 0 and speed > lim:
                            over += speed - lim
                    c += 1
                r = prog[n_spaces + ((start * REACH + reach) * SIDES + side) * CORNERS + j]
                if r == np.inf:
                    b = np.inf
                    break
                if r > -np.inf:
                    cand = w[W_PROGRESS] * r - w[W_DENT] * min(over, room)
                    if cand > b:
                        b = cand
            if b < np.inf:
                k = popcount3(mask)
                hand[p, v] -= k
                hq = _distinct(hand, p)
                hand[p, v] += k
                b = b + w[W_HAND] * hq
                if extra > 0.0:
                    b = b + extra
                if partial:
                    b = b + w[W_DIE] * min(bonus + tavern, prm[K_DIE_MAX])
        bounds[i] = b
        j = i
        while j > 0 and bounds[order[j - 1]] < b:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    n_nodes = 0
    n_outs = 0
    n_keys = 0
    best = floor
    best_pl = 0
    best_o = -1
    for j in range(n_pl):
        i = order[j]
        if bounds[i] + BOUND_MARGIN <= best:
            break  # no play left can beat (or tie) the best: the margin covers rounding
        v = plays[i, 0]
        mask = plays[i, 1]
        left, right, brake, speed, drift, dcol, _, bonus = play_effect(
            st, p, v, mask, prm, rnd, pos
        )
        kk = -1
        for q in range(n_keys):
            if (
                keys[q, 0] == speed
                and keys[q, 1] == drift
                and keys[q, 2] == dcol
                and keys[q, 3] == bonus
            ):
                kk = q
                break
        if kk < 0:
            if n_keys >= keys.shape[0]:
                continue
            lo = n_outs
            n_nodes, n_outs = outcomes(
                tab, safety, occ, trees, start, speed, drift, dcol, bonus, partial,
                prm[K_SAFETY], room, prm[K_TREE_DENTS], prm[K_DENTS_PAST], nodes, n_nodes,
                outs, n_outs,
            )  # fmt: skip
            keys[n_keys, 0] = speed
            keys[n_keys, 1] = drift
            keys[n_keys, 2] = dcol
            keys[n_keys, 3] = bonus
            keys[n_keys, 4] = lo
            keys[n_keys, 5] = n_outs
            kk = n_keys
            n_keys += 1
        k = popcount3(mask)
        hand[p, v] -= k
        hq = _distinct(hand, p)
        slowest = _slowest_next(hand, p, left, right, brake, brake_on)
        hand[p, v] += k
        for o in range(keys[kk, 4], keys[kk, 5]):
            sc = _score(tab, prog, outs, o, dents, prm, w, hq, slowest, bonus, fives)
            # Outcomes of one play come in order, so an equal score only wins for an
            # earlier play.
            if sc > best or (sc == best and i < best_pl):
                best = sc
                best_pl = i
                best_o = o
    if best_o < 0:
        return 0, 0, 0, 0, floor
    npat = pattern_of(nodes, outs, best_o, pattern)
    return plays[best_pl, 0], plays[best_pl, 1], npat, outs[best_o, O_BONUS], best


@njit(cache=True)
def random_choice(st, hand, p, prm, rnd, pos, states, stream, plays, pattern):
    """A uniform legal play, a uniform drift pattern, then the bonus: all of it with
    probability 1/2 (R-14), or a distance uniform in 0..dice (R-23). Returns (value, mask,
    pattern length, bonus distance)."""
    n_pl = list_plays(hand, p, prm, plays)
    i = below(states, stream, n_pl)
    v = plays[i, 0]
    mask = plays[i, 1]
    _, _, _, speed, drift, _, _, bonus = play_effect(st, p, v, mask, prm, rnd, pos)
    made = 0
    for j in range(speed):
        left = drift - made
        # Drift now with probability drifts left / moves left: every pattern equally likely,
        # and a sled with as many drifts as moves left must drift (ST1 drift timing).
        if left > 0 and below(states, stream, speed - j) < left:
            pattern[j] = MV_DRIFT
            made += 1
        else:
            pattern[j] = MV_STRAIGHT
    take = 0
    if bonus > 0:
        if prm[K_BONUS_RULE] == BONUS_DICE:
            take = below(states, stream, bonus + 1)
        else:
            take = below(states, stream, 2) * bonus
    return v, mask, speed, take


@njit(cache=True, inline="always")
def discard_choice(kind, hand, p, states, stream):
    """The canine card value seat ``p`` discards to get down to hand size."""
    if kind == BOT_RANDOM:
        total = 0
        for v in range(MAX_VALUE + 1):
            total += hand[p, v]
        r = below(states, stream, total)
        for v in range(MAX_VALUE + 1):
            if r < hand[p, v]:
                return v
            r -= hand[p, v]
    best = -1
    for v in range(MAX_VALUE, -1, -1):
        if hand[p, v] > 0 and (best < 0 or hand[p, v] > hand[p, best]):
            best = v
    return best


@njit(cache=True)
def bothy_choice(kind, hand, p, states, stream, out):
    """Canine cards seat ``p`` discards at the bothy (R-27), as counts by value in ``out``."""
    for v in range(MAX_VALUE + 1):
        out[v] = 0
        if kind == BOT_RANDOM:
            for _ in range(hand[p, v]):
                out[v] += below(states, stream, 2)
        elif v == 0:
            out[v] = hand[p, v]
        elif hand[p, v] > 2:
            out[v] = hand[p, v] - 2


@njit(cache=True)
def kennels_choice(kind, states, stream):
    """Whether seat ``p`` adds a set-aside 5 to its deck at the kennels (R-27)."""
    if kind == BOT_RANDOM:
        return below(states, stream, 2) == 1
    return True


@njit(cache=True)
def start_pair(kind, counts, states, stream):
    """The value of the pair an experienced sled starts on (ST2 A.5): equal, non-zero,
    from the ``counts`` of its deck by value; -1 if it holds no pair."""
    n = 0
    best = -1
    for v in range(1, MAX_VALUE + 1):
        if counts[v] >= 2:
            n += 1
            if best < 0 or abs(v - START_PAIR) < abs(best - START_PAIR):
                best = v
    if n == 0 or kind != BOT_RANDOM:
        return best
    r = below(states, stream, n)
    for v in range(1, MAX_VALUE + 1):
        if counts[v] >= 2:
            if r == 0:
                return v
            r -= 1
    return best
