"""Where a MUSH sled goes with its movement: the greedy plan and the random walk.

Both return a path of lines (``path_ln``) the engine then walks, rolling for rough
terrain and avalanches as it goes (text, R-46). The greedy plan searches every path
within reach (the route is a forward graph, so this is a small frontier per step) and
scores its end by distance to the goal, minus the expected cost of the risks and tokens
on the way, plus a pull toward towns when the dogs are tired.
"""

from __future__ import annotations

from numba import njit

from simkit.games.mush.arrays import L_TO, S_DIST, S_GOAL, S_JUMP, S_KIND, S_TOWN_DIST
from simkit.games.mush.bots import (
    B_AVAL_AVERSION,
    B_AVAL_BUY,
    B_CAUTION,
    B_KIND,
    B_ROUGH_AVERSION,
    B_ROUGH_BUY,
    B_STRANDED,
    B_TOKEN_VALUE,
    B_TOWN_PULL,
    RANDOM,
)
from simkit.games.mush.route import ROUGH, TOWN
from simkit.rng import below

PLAN_CAP = 1024  # frontier entries per plan; the standard route needs well under 100


@njit(cache=True)
def pass_chance(target, bought):
    """Chance that d6 + bought >= target."""
    need = target - bought
    if need <= 1:
        return 1.0
    if need > 6:
        return 0.0
    return (7 - need) / 6.0


@njit(cache=True)
def _ends_here(sp, v):
    """Movement stops on the goal or on a space that jumps (skip-Central game)."""
    return sp[v, S_GOAL] != 0 or sp[v, S_JUMP] >= 0


@njit(cache=True)
def plan_random(states, bi, sp, ln, out_ptr, occ, pos, m, path_ln):
    """A uniform random walk of up to ``m`` lines, not ending on occupied wilderness."""
    cur = pos
    length = 0
    for _ in range(m):
        a, b = out_ptr[cur], out_ptr[cur + 1]
        if a == b or _ends_here(sp, cur):
            break
        e = a + below(states, bi, b - a)
        path_ln[length] = e
        length += 1
        cur = ln[e, L_TO]
    while length > 0:
        v = ln[path_ln[length - 1], L_TO]
        if occ[v] == 0 or sp[v, S_KIND] == TOWN:
            break
        length -= 1
    return length


@njit(cache=True)
def plan_greedy(
    bp,
    sp,
    ln,
    out_ptr,
    occ,
    aval,
    pos,
    m,
    tokens,
    pv_rough,
    pv_aval,
    full_move,
    tired,
    reach,
    fresh,
    pass_cost,
    path_ln,
    e_sp,
    e_paid,
    e_parent,
    e_line,
    e_step,
    e_blocked,
    e_val,
):
    """Best path of at most ``m`` lines (exactly ``m`` unless blocked, under ``full_move``).

    ``pv_rough``/``pv_aval`` are (target, token cap, marker cost). Returns the path length;
    ``path_ln[:length]`` holds its lines.
    """
    tv = bp[B_TOKEN_VALUE]
    rb = min(int(bp[B_ROUGH_BUY]), tokens, pv_rough[1])
    rough_cost = bp[B_ROUGH_AVERSION] * (1.0 - pass_chance(pv_rough[0], rb)) + rb * tv
    ab = min(int(bp[B_AVAL_BUY]), tokens, pv_aval[1])
    aval_cost = bp[B_AVAL_AVERSION] * (1.0 - pass_chance(pv_aval[0], ab)) + ab * tv
    if tokens >= pv_aval[2]:
        aval_cost = min(aval_cost, pv_aval[2] * tv)  # pay to remove the marker instead
    e_sp[0] = pos
    e_paid[0] = 0
    e_parent[0] = -1
    e_line[0] = -1
    e_step[0] = 0
    e_blocked[0] = 1
    e_val[0] = 0.0
    cnt = 1
    lo = 0
    hi = 1
    for k in range(1, m + 1):
        for i in range(lo, hi):
            u = e_sp[i]
            if _ends_here(sp, u) and i > 0:
                continue
            for e in range(out_ptr[u], out_ptr[u + 1]):
                v = ln[e, L_TO]
                paid = e_paid[i]
                val = e_val[i]
                if aval[e]:
                    val -= aval_cost
                if occ[v] > 0 and sp[v, S_KIND] != TOWN and paid == 0:
                    if tokens < pass_cost:
                        continue  # text: passing occupied wilderness needs the tokens
                    paid = 1
                    val -= pass_cost * tv
                if sp[v, S_KIND] == ROUGH:
                    val -= rough_cost
                e_blocked[i] = 0
                j = -1
                for q in range(hi, cnt):
                    if e_sp[q] == v and e_paid[q] == paid:
                        j = q
                        break
                if j < 0:
                    if cnt >= PLAN_CAP:
                        continue
                    j = cnt
                    cnt += 1
                    e_sp[j] = v
                    e_paid[j] = paid
                    e_step[j] = k
                    e_blocked[j] = 1
                    e_val[j] = -1e300
                if val > e_val[j]:
                    e_val[j] = val
                    e_parent[j] = i
                    e_line[j] = e
        lo = hi
        hi = cnt
        if lo == hi:
            break
    best = 0
    best_score = -1e300
    for i in range(cnt):
        v = e_sp[i]
        if i > 0 and occ[v] > 0 and sp[v, S_KIND] != TOWN:
            continue  # text: one sled per wilderness space
        if full_move and e_step[i] < m and e_blocked[i] == 0 and not _ends_here(sp, v):
            continue
        score = e_val[i] - sp[v, S_DIST]
        if sp[v, S_GOAL] != 0:
            score += 1e6
        if sp[v, S_KIND] == TOWN:
            if tired and i > 0:
                score += bp[B_TOWN_PULL]
        else:  # ending where its tired dogs (but not rested ones) miss the next town
            short = max(0.0, sp[v, S_TOWN_DIST] - bp[B_CAUTION] * reach)
            short -= max(0.0, sp[v, S_TOWN_DIST] - bp[B_CAUTION] * fresh)
            score -= bp[B_STRANDED] * short
        if score > best_score:
            best_score = score
            best = i
    length = e_step[best]
    i = best
    for k in range(length - 1, -1, -1):
        path_ln[k] = e_line[i]
        i = e_parent[i]
    return length


@njit(cache=True)
def plan(
    bp,
    states,
    bi,
    sp,
    ln,
    out_ptr,
    occ,
    aval,
    pos,
    m,
    tokens,
    pv_rough,
    pv_aval,
    full_move,
    tired,
    reach,
    fresh,
    pass_cost,
    path_ln,
    work_i,
    work_f,
):
    """The bot's path for ``m`` moves (random walk or greedy plan)."""
    if bp[B_KIND] == RANDOM:
        return plan_random(states, bi, sp, ln, out_ptr, occ, pos, m, path_ln)
    return plan_greedy(
        bp,
        sp,
        ln,
        out_ptr,
        occ,
        aval,
        pos,
        m,
        tokens,
        pv_rough,
        pv_aval,
        full_move,
        tired,
        reach,
        fresh,
        pass_cost,
        path_ln,
        work_i[0],
        work_i[1],
        work_i[2],
        work_i[3],
        work_i[4],
        work_i[5],
        work_f,
    )
