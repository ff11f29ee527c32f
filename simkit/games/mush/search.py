"""``search:N``: determinized Monte Carlo at the root, a flat information-set search.

For a decision it searches, the bot lists its candidate plays (``_arms``), greedy's
first, and runs sequential halving (Karnin, Koren & Somekh 2013) over the others, the
challengers: in each of ceil(log2 challengers) rounds greedy's play and every challenger
still in play each take the same fresh determinizations (``position.determinize``: dice,
weather and the bids it has not seen, sampled anew), each followed by greedy for every
seat for ``horizon`` rounds or to the end, and the worse half of the challengers is
dropped. A round gives each play ``N // (rounds * plays in it)`` rollouts, at least one:
about ``N`` in all. Sharing determinizations compares the plays on the same luck (common
random numbers), so each challenger's gain over greedy's play is a paired mean.

It plays the last challenger only if that gain is above ``margin`` standard errors (its
spread taken as at least ``SD_FLOOR``), else greedy's play. Why not simply the best mean:
measured on the standard route, most decisions' plays differ by 0.01 to 0.1 in utility
while one rollout's spread is 0.2 to 0.45, so at these budgets the best mean is mostly
luck; a search that played it bid 36 tokens a race where greedy bids 3 and finished a
full place worse (docs/rules-mush.md, Bots). Anchored on greedy, it leaves greedy's play
only where a rollout says clearly that another is better (resting with an option greedy
undervalues is the common case).

Utility: the seat's finish position scaled to 1 (first) .. 0 (last), not a win. A win is
what the ladder counts in MUSH (only the winner finishes), but it says nothing in the three
rollouts in four a seat loses, while the rank scores every rollout and is highest for the
winner. A rollout stopped at its horizon is ranked as the book ranks a race stopped early:
by moves still to go.

What it searches (``searched``): the training (R-44, once a race), the bid (R-47) and
resting or racing in a town, with the rest option (text, Repos; R-45). Everything else
(the path, rerolls, markers, dice removal, tokens bought for a roll, paying to pass) it
plays as greedy with its own parameters: those answer local questions greedy's rules
already weigh, and a path has too many candidates for a flat search at these budgets.

It reads the real position only through ``determinize`` (its bot stream is its own mind:
one draw per decision keys that decision's rollouts), so its choice is the same on any
position its seat cannot tell apart, and a race stays a pure function of its key. The
rollouts play on ``work.sim`` with ``work.step`` and ``work.rec``: nothing is allocated.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush.heuristic import heuristic
from simkit.games.mush.plays import counted_plays
from simkit.games.mush.position import apply, determinize, is_over, to_move
from simkit.games.mush.records import I_BOT, MAX_ARMS, PH_BID, PH_REST, PH_TRAIN, PLAY_WIDTH
from simkit.rng import GOLDEN, mix64, next_u64

# The spread assumed, at least, for a rollout's utility gain over greedy's play: measured
# 0.17 to 0.47 on the standard route (4 sleds), so few rollouts never look sure by luck.
SD_FLOOR = 0.25


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def searched(phase):
    """Whether a search bot searches the decision of this phase (see the module doc)."""
    return phase in (PH_TRAIN, PH_BID, PH_REST)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def search(bp, pos, prm, cell, rt, seat, work, play):
    """Write into ``play.row`` the play search bot ``bp`` makes for ``seat``, the seat to
    move, with about ``bp.budget`` rollouts."""
    base = next_u64(pos.streams, I_BOT + seat)  # the one draw of this decision
    work.rec.logging = 0
    work.rec.n_events = 0
    k = _arms(bp, pos, prm, cell, rt, seat, base, work)
    rounds = 1
    while (1 << rounds) < k - 1:
        rounds += 1
    alive = k - 1  # challengers in play; greedy's play (arm 0) plays every round
    used = 0
    for a in range(k):
        work.sums[a] = 0.0
        work.squares[a] = 0.0
        work.alive[a] = 1
    for _ in range(rounds if k > 1 else 0):
        b = max(1, int(bp.budget) // (rounds * (alive + 1)))
        for i in range(b):
            key = _key(base, used + i)
            u0 = _rollout(bp, pos, prm, cell, rt, seat, key, np.int64(0), work)
            for a in range(1, k):
                if work.alive[a]:
                    d = _rollout(bp, pos, prm, cell, rt, seat, key, a, work) - u0
                    work.sums[a] += d
                    work.squares[a] += d * d
        used += b
        keep = (alive + 1) // 2
        while alive > keep:
            work.alive[_worst(work, k)] = 0
            alive -= 1
    best = 0
    if k > 1:
        w = _worst(work, k)  # the one challenger left
        gain = work.sums[w] / used
        sd = max(np.sqrt(max(work.squares[w] / used - gain * gain, 0.0)), SD_FLOOR)
        if gain > bp.margin * sd / np.sqrt(used):
            best = w
    for c in range(PLAY_WIDTH):
        play.row[c] = work.arms[best, c]


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _key(base, i):
    """The key of determinization ``i`` of a decision whose draw was ``base``."""
    return mix64(base + np.uint64(i + 1) * GOLDEN)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _arms(bp, pos, prm, cell, rt, seat, base, work):
    """Fill ``work.arms`` with the candidate plays and return how many: the seat's legal
    plays (``legal_plays``' own list of them; the same on every determinization: its own
    plays depend on nothing hidden),
    greedy's first, so a search that cannot tell them apart plays greedy. Bids stop at one
    more than the richest rival holds (a higher bid wins nothing more, R-47), and at
    ``MAX_ARMS`` plays (bids of 0 .. 7 tokens on the standard route)."""
    determinize(pos, seat, _key(base, np.int64(-1)), work.sim)
    heuristic(bp, work.sim[0], prm, cell, rt, seat, work, work.step)
    n = min(counted_plays(work.sim[0], prm, rt, work.arms), MAX_ARMS)
    if work.sim[0].phase == PH_BID:
        most = 0
        for o in range(work.sim[0].n):
            if o != seat:
                most = max(most, work.sim[0].tokens[o])
        n = min(n, most + 2)
    g = work.step.row
    at = n - 1  # greedy's play not among them (a bid above the cap): it takes the last row
    for j in range(n):
        same = True
        for c in range(PLAY_WIDTH):
            same = same and work.arms[j, c] == g[c]
        if same:
            at = j
            break
    for c in range(PLAY_WIDTH):
        work.arms[at, c] = work.arms[0, c]
        work.arms[0, c] = g[c]
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _worst(work, k):
    """The challenger in play with the lowest gain over greedy's play (ties: the later)."""
    w = -1
    for a in range(1, k):
        if work.alive[a] and (w < 0 or work.sums[a] <= work.sums[w]):
            w = a
    return w


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _rollout(bp, pos, prm, cell, rt, seat, key, a, work):
    """Arm ``a`` on determinization ``key`` of ``pos``, then greedy (``bp``'s parameters) for
    every seat to the end, or for ``bp.horizon`` more rounds (0: no limit); the seat's
    utility, 1 for first .. 0 for last."""
    determinize(pos, seat, key, work.sim)
    for c in range(PLAY_WIDTH):
        work.step.row[c] = work.arms[a, c]
    apply(work.sim[0], prm, rt, work.step, work.rec)
    stop = pos.round_no + int(bp.horizon) if bp.horizon > 0 else 1 << 40
    while not is_over(work.sim[0]) and work.sim[0].round_no <= stop:
        s = to_move(work.sim[0])
        heuristic(bp, work.sim[0], prm, cell, rt, s, work, work.step)
        apply(work.sim[0], prm, rt, work.step, work.rec)
    return _utility(work.sim[0], rt, seat)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _utility(pos, rt, seat):
    """1 for first .. 0 for last: the finish position, or for a race not over, the rank the
    book gives a race stopped before anyone reached the goal (moves still to go, ties by
    slot: ``rounds.finish``)."""
    n = pos.n
    if is_over(pos):
        return (n - pos.stats[seat].finish) / (n - 1)
    ahead = 0
    mine = rt.sp[pos.space[seat]].dist
    for o in range(n):
        d = rt.sp[pos.space[o]].dist
        if o != seat and (d < mine or (d == mine and pos.stats[o].slot < pos.stats[seat].slot)):
            ahead += 1
    return (n - 1 - ahead) / (n - 1)
