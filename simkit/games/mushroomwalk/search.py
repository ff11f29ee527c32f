"""``search:N``: determinized Monte Carlo at the root, a flat information-set search.

For a decision of ``seat`` the bot keeps greedy's best ``max(2, N // WIDTH)`` plays as
candidates and spends about ``N`` rollouts on them by sequential halving (Karnin, Koren &
Somekh 2013): in each of ``ceil(log2(candidates))`` rounds every candidate still in is
played on the same fresh samples of what the seat cannot see (``position.determinize``),
then the better half by mean utility stays. The last candidate left, the best mean over
the most samples, is played. Poison discards stay greedy's (:mod:`.choose`).

A rollout is the candidate played by ``position.apply``, then greedy for both seats for
``horizon`` plays (8 by default; 0: to the end of the game). Its utility for ``seat``: at
the end of the game 1 for a win, 0.5 for a draw, 0 for a loss; at the horizon the
logistic of the margin of lookahead's evaluation (``policy.evaluate``, seat minus
opponent, 5 points of margin for odds of e:1); plus ``margin`` per point of that margin,
so that rollouts that all win or all lose still rank the plays. Measured against
``lookahead`` (docs/rules-mushroomwalk.md "Bots"): rollouts to the end let greedy's weak
play of both seats decide and lose to lookahead; 2-16 plays and an evaluation win.

Why sequential halving and not UCB1: the budget is fixed and only the play chosen
matters (simple regret, which halving is made for), and it evaluates every candidate of a
round on the same samples, so two plays are compared on the same hidden cards and the
same greedy replies; greedy draws no random numbers, so a rollout is a function of its
sample and the play, and that pairing removes most of the noise between plays.

Randomness: one draw from the seat's bot stream per decision seeds every sample of that
decision, so a game stays a pure function of its key. Information: the bot reads the real
position only through ``legal_plays`` and greedy's score of the root plays (the seat's own
hand and the face-up cards, public counts) and through ``determinize``. Speed: samples and
rollouts are record assignments into the caller's ``pool``; nothing is allocated per
rollout (``determinize`` and greedy's evaluation allocate nothing).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mushroomwalk.policy import evaluate, greedy, greedy_score
from simkit.games.mushroomwalk.position import apply, determinize, legal_plays
from simkit.games.mushroomwalk.records import R_BOT
from simkit.games.mushroomwalk.rules import winner
from simkit.rng import STREAM_BOT, next_u64, stream_key

WIDTH = 4  # rollouts of the budget per candidate play: N // WIDTH candidates
_SAMPLES = np.int64(STREAM_BOT)  # the samples' keys: sub-streams of the decision's draw
_SAMPLE, _PLAYED = np.int64(0), np.int64(1)  # pool slots: the sample, the rollout
_SCALE = 5.0  # points of evaluation margin at the horizon that make odds of e:1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _swap(arms, i, j):
    play, prior, total = arms[i].play, arms[i].prior, arms[i].total
    arms[i].play, arms[i].prior, arms[i].total = arms[j].play, arms[j].prior, arms[j].total
    arms[j].play, arms[j].prior, arms[j].total = play, prior, total


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _candidates(pos, seat, prm, bot, plays, n, arms):
    """``arms[:k]``: greedy's best ``k`` plays, best first (ties by list order); return k."""
    for i in range(n):
        arms[i].play = i
        arms[i].prior = greedy_score(pos, seat, plays[i], prm, bot)
        arms[i].total = 0.0
    k = min(n, max(2, bot.budget // WIDTH))
    for r in range(k):
        best = r
        for i in range(r + 1, n):
            a, b = arms[i], arms[best]
            if a.prior > b.prior or (a.prior == b.prior and a.play < b.play):
                best = i
        _swap(arms, r, best)
    return k


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _rollout(pool, prm, bot, seat, tmp, ev, evc):
    """Play ``pool[_PLAYED]`` with greedy for both seats to its end, or ``horizon`` plays
    (0: no limit); ``seat``'s utility."""
    pos = pool[_PLAYED]
    left = bot.horizon if bot.horizon > 0 else 1 << 30
    while pos.ended == 0 and left > 0:
        p = np.int64(pos.mover)
        n = legal_plays(pos, prm, tmp)
        apply(pos, prm, tmp[greedy(pos, p, prm, bot, tmp, n)], ev, evc)
        left -= 1
    if pos.ended == 0:
        diff = evaluate(pos, seat, prm, bot) - evaluate(pos, 1 - seat, prm, bot)
        return 1.0 / (1.0 + np.exp(-diff / _SCALE)) + bot.margin * diff
    w = winner(pos)
    u = 0.5 if w < 0 else (1.0 if w == seat else 0.0)
    return u + bot.margin * (pos.seats[seat].score - pos.seats[1 - seat].score)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _keep_better_half(arms, alive):
    """Sort ``arms[:alive]`` by total utility, best first (stable: ties keep greedy's
    order); return how many stay."""
    for i in range(1, alive):
        j = i
        while j > 0 and arms[j].total > arms[j - 1].total:
            _swap(arms, j, j - 1)
            j -= 1
    return (alive + 1) // 2


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def search(pos, seat, prm, bot, plays, n, pool, tmp, arms, ev, evc):
    """Index in ``plays[:n]`` (``seat``'s legal plays) of the play the search makes.

    Scratch: ``pool`` 2 positions or more, ``tmp`` (plays) and ``arms`` (``records.ARM``)
    ``max_plays(prm)`` rows each; ``ev`` one row (rollouts trace nothing)."""
    k = _candidates(pos, seat, prm, bot, plays, n, arms)
    if k == 1:
        return arms[0].play
    key = next_u64(pos.rng, R_BOT + seat)
    rounds = 0
    while (1 << rounds) < k:
        rounds += 1
    sample = 0
    alive = k
    while alive > 1:
        for _ in range(max(1, bot.budget // (alive * rounds))):
            determinize(pos, seat, stream_key(key, _SAMPLES, np.int64(sample)), pool[_SAMPLE])
            sample += 1
            for a in range(alive):
                pool[_PLAYED] = pool[_SAMPLE]
                apply(pool[_PLAYED], prm, plays[arms[a].play], ev, evc)
                arms[a].total += _rollout(pool, prm, bot, seat, tmp, ev, evc)
        alive = _keep_better_half(arms, alive)
    return arms[0].play
