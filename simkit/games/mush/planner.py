"""Where a MUSH sled goes with its movement: the greedy plan and the random walk.

Both write a move play (``P_MOVE``, length, lines) for the mover; the position then walks
it, rolling for rough terrain and avalanches as it goes (text, R-46). The greedy plan
searches every path within reach (the route is a forward graph, so this is a small
frontier per step) and scores its end by distance to the goal, minus the expected cost of
the risks and tokens on the way, plus a pull toward towns when the dogs are tired.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush.bots import RANDOM
from simkit.games.mush.records import I_BOT, P_MOVE, PLAN_CAP, PLAY_PATH
from simkit.games.mush.route import ROUGH, TOWN
from simkit.games.mush.rules import blocked, ends_move, has_marker, pass_chance
from simkit.rng import below


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def plan_random(pos, prm, rt, out):
    """A uniform random walk of up to ``moves`` lines over the lines it may take (passing
    a sled only with the tokens to pay), not ending on occupied wilderness."""
    s = pos.mover
    cur = pos.turn_from
    can_pay = pos.tokens[s] >= prm.pass_cost
    length = 0
    for _ in range(pos.moves):
        if ends_move(rt, cur):
            break
        k = np.int64(0)  # not a literal 0: numba would compile ``below`` for it too
        for e in range(rt.sp[cur].out_lo, rt.sp[cur].out_hi):
            k += can_pay or not blocked(pos, rt, rt.ln[e].to)
        if k == 0:
            break
        pick = below(pos.streams, I_BOT + s, k)
        for e in range(rt.sp[cur].out_lo, rt.sp[cur].out_hi):
            if can_pay or not blocked(pos, rt, rt.ln[e].to):
                if pick == 0:
                    out[PLAY_PATH + length] = e
                    break
                pick -= 1
        cur = rt.ln[out[PLAY_PATH + length]].to
        length += 1
    while length > 0 and blocked(pos, rt, rt.ln[out[PLAY_PATH + length - 1]].to):
        length -= 1
    out[0] = P_MOVE
    out[1] = length
    out[2] = 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def plan_greedy(bp, pos, prm, rt, tired, reach, fresh, work, out):
    """Best path of at most ``moves`` lines (exactly that many unless blocked, under
    ``full_move``): every (space, paid to pass) state reached at each step, kept with its
    best value, then the best end."""
    s = pos.mover
    m = pos.moves
    tokens = pos.tokens[s]
    tv = bp.token_value
    rb = min(int(bp.rough_buy), tokens, prm.rough_token_max)
    rough_cost = bp.rough_aversion * (1.0 - pass_chance(prm.rough_target, rb)) + rb * tv
    ab = min(int(bp.aval_buy), tokens, prm.avalanche_token_max)
    aval_cost = bp.aval_aversion * (1.0 - pass_chance(prm.avalanche_target, ab)) + ab * tv
    if tokens >= prm.avalanche_cost:
        aval_cost = min(aval_cost, prm.avalanche_cost * tv)  # pay to remove the marker instead
    w = work
    w.e_sp[0] = pos.turn_from
    w.e_paid[0] = 0
    w.e_parent[0] = -1
    w.e_line[0] = -1
    w.e_step[0] = 0
    w.e_blocked[0] = 1
    w.e_val[0] = 0.0
    cnt = np.int64(1)  # not a literal 1: numba would compile ``_best_end`` for it too
    lo = 0
    hi = 1
    for k in range(1, m + 1):
        for i in range(lo, hi):
            u = w.e_sp[i]
            if ends_move(rt, u) and i > 0:
                continue
            for e in range(rt.sp[u].out_lo, rt.sp[u].out_hi):
                v = rt.ln[e].to
                paid = w.e_paid[i]
                val = w.e_val[i]
                if has_marker(pos, prm, e):
                    val -= aval_cost
                if paid == 0 and blocked(pos, rt, v):
                    if tokens < prm.pass_cost:
                        continue  # text: passing occupied wilderness needs the tokens
                    paid = 1
                    val -= prm.pass_cost * tv
                if rt.sp[v].kind == ROUGH:
                    val -= rough_cost
                w.e_blocked[i] = 0
                j = -1
                for q in range(hi, cnt):
                    if w.e_sp[q] == v and w.e_paid[q] == paid:
                        j = q
                        break
                if j < 0:
                    if cnt >= PLAN_CAP:
                        continue
                    j = cnt
                    cnt += 1
                    w.e_sp[j] = v
                    w.e_paid[j] = paid
                    w.e_step[j] = k
                    w.e_blocked[j] = 1
                    w.e_val[j] = -1e300
                if val > w.e_val[j]:
                    w.e_val[j] = val
                    w.e_parent[j] = i
                    w.e_line[j] = e
        lo = hi
        hi = cnt
        if lo == hi:
            break
    best = _best_end(bp, pos, prm, rt, cnt, tired, reach, fresh, w)
    length = w.e_step[best]
    i = best
    for k in range(length - 1, -1, -1):
        out[PLAY_PATH + k] = w.e_line[i]
        i = w.e_parent[i]
    out[0] = P_MOVE
    out[1] = length
    out[2] = 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _best_end(bp, pos, prm, rt, cnt, tired, reach, fresh, w):
    """The frontier entry whose end scores best (see the module doc)."""
    m = pos.moves
    best = 0
    best_score = -1e300
    for i in range(cnt):
        v = w.e_sp[i]
        if i > 0 and blocked(pos, rt, v):
            continue  # text: one sled per wilderness space
        if prm.full_move and w.e_step[i] < m and w.e_blocked[i] == 0 and not ends_move(rt, v):
            continue
        score = w.e_val[i] - rt.sp[v].dist
        if rt.sp[v].goal != 0:
            score += 1e6
        if rt.sp[v].kind == TOWN:
            if tired and i > 0:
                score += bp.town_pull
        else:  # ending where its tired dogs (but not rested ones) miss the next town
            short = max(0.0, rt.sp[v].town_dist - bp.caution * reach)
            short -= max(0.0, rt.sp[v].town_dist - bp.caution * fresh)
            score -= bp.stranded * short
        if score > best_score:
            best_score = score
            best = i
    return best


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def plan(bp, pos, prm, rt, tired, reach, fresh, work, out):
    """The bot's move play (random walk or greedy plan)."""
    out[:] = 0
    if bp.kind == RANDOM:
        plan_random(pos, prm, rt, out)
    else:
        plan_greedy(bp, pos, prm, rt, tired, reach, fresh, work, out)
