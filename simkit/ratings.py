"""Bot ratings from finish orders: Plackett-Luce fitted by choix, bootstrap intervals.

Below the runner, which checks skill levels with them (:mod:`simkit.runner.levels`), and
below the analysis of a ladder (:mod:`simkit.analysis.ratings` adds win rates, head to
head and the sentences).

The model (Plackett-Luce; with two players it is Bradley-Terry): bot b has a strength
``exp(rating_b)``, and the next finisher of a race is chosen from the seats not yet placed
with probability proportional to strength. So ``P(A ahead of B) = 1 / (1 + exp(rating_B -
rating_A))`` and ratings are on a log scale, centred on the mean bot (0).

What enters the fit (docs/ladder.md): only *decided races* (GLOSSARY), those with a single
winner who finished. Their finishers, in finish order, each make one top-1 choice over the
seats not yet placed; seats that did not finish (eliminated, or stopped by a guard) are an
unordered tail, placed behind every finisher but not among themselves. This is exactly the
Plackett-Luce likelihood of a partial ranking, fitted by ``choix.ilsr_top1``. Undecided
races (every sled out, a draw) say nothing about who plays better and are left out.

Intervals: a bootstrap over race keys. Under common random numbers race ``i`` of every lineup
shares its deals and dice, so the races with one key are resampled together and the pairing
stays intact. Each replicate is refitted (choix's I-LSR, on choices counted: ``_fit``);
the 95% interval is the percentile interval of the replicates. Beyond ``budget`` choices a
replicate draws m < n keys and its deviations from the full fit are scaled by sqrt(m / n)
(the m-out-of-n bootstrap, Bickel, Götze & van Zwet 1997), which keeps the intervals those
of a bounded sample however many races a ladder has.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit.outcomes import pair_counts
from simkit.stats import bootstrap, share_ratio

ALPHA = 1e-3  # choix's regularisation: a bot that wins nothing in a replicate stays finite
REPLICATES = 200
BUDGET = 4_000  # top-1 choices per bootstrap replicate: m-out-of-n beyond it (docstring)
TOL = 1e-5  # I-LSR's convergence: L1 change of the centred ratings, per bot (choix's test)
MAX_ITER = 100  # I-LSR iterations before it gives up (choix's default)


@dataclass(frozen=True)
class Outcomes:
    """Every race of a ladder as arrays (one row per race of a lineup).

    Attributes:
        bots: the rated bots; indices into this tuple are used below.
        bot: (races, seats) bot index of every seat.
        place: (races, seats) finish position of seats that finished, 0 for the rest.
        key: (races,) race index: the common-random-numbers key the lineups share.
        decided: (races,) a single winner who finished.
    """

    bots: tuple[str, ...]
    bot: np.ndarray
    place: np.ndarray
    key: np.ndarray
    decided: np.ndarray

    @property
    def players(self) -> int:
        return self.bot.shape[1]


def _choices(o: Outcomes) -> tuple[list[tuple[int, list[int]]], np.ndarray]:
    """Top-1 choices of the decided races (choix's format) and each one's race key.

    Finishers are taken in finish order while their positions are distinct; a tie ends the
    ordered part (the tied seats join the unordered tail).
    """
    data: list[tuple[int, list[int]]] = []
    keys: list[int] = []
    for r in np.flatnonzero(o.decided):
        place, bot = o.place[r], o.bot[r]
        order = sorted((p, s) for s, p in enumerate(place) if p > 0)
        left = list(range(len(place)))
        for i, (p, s) in enumerate(order):
            if i + 1 < len(order) and order[i + 1][0] == p:
                break
            left.remove(s)
            if not left:
                break
            data.append((int(bot[s]), [int(bot[t]) for t in left]))
            keys.append(int(o.key[r]))
    return data, np.asarray(keys, np.int64)


def _counted(n: int, data: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct top-1 choices of ``data`` (a winner and the multiset of its losers):
    their winners (u,), their losers as counts per bot (u, n), and which distinct choice
    each of ``data`` is (len(data),). A ladder has few: its bots in a race's seats."""
    rows = np.zeros((len(data), n + 1), np.int64)
    for i, (winner, losers) in enumerate(data):
        rows[i, 0] = winner
        rows[i, 1:] = np.bincount(losers, minlength=n)
    distinct, which = np.unique(rows, axis=0, return_inverse=True)
    return distinct[:, 0], distinct[:, 1:].astype(float), which.reshape(-1)


def _fit(
    winners: np.ndarray,
    losers: np.ndarray,
    counts: np.ndarray,
    start: np.ndarray | None = None,
    tol: float = TOL,
    max_iter: int = MAX_ITER,
) -> np.ndarray:
    """``choix.ilsr_top1`` (I-LSR, Maystre & Grossglauser 2015) on choices counted rather
    than listed: each distinct choice (``_counted``) enters the Markov chain's rates
    ``counts`` times at once, which is the sum choix forms one choice at a time, so the
    estimate is choix's (tests/ladder/test_ratings.py holds the two together). choix
    loops over every choice in Python on every iteration of every replicate; this is one
    matrix product an iteration, and a bootstrap replicate only changes ``counts``. choix's
    own stationary distribution, transforms and convergence test do the rest."""
    from choix.convergence import NormOfDifferenceTest
    from choix.utils import exp_transform, log_transform, statdist

    n = losers.shape[1]
    won = np.zeros((len(winners), n))
    won[np.arange(len(winners)), winners] = 1.0
    converged = NormOfDifferenceTest(tol, order=1)
    params = start
    for _ in range(max_iter):
        weights = np.ones(n) if params is None else exp_transform(params)
        rate = counts / (losers @ weights + weights[winners])
        chain = ALPHA + losers.T @ (rate[:, None] * won)  # chain[loser, winner]
        chain -= np.diag(chain.sum(axis=1))
        params = log_transform(statdist(chain))
        if converged(params):
            return params
    raise RuntimeError(f"ratings: I-LSR did not converge after {max_iter} iterations")


@dataclass(frozen=True)
class Ratings:
    """A fitted ladder: ratings, their bootstrap replicates and how they were drawn.

    A bot that never finished ahead of another seat in a decided race has no finite
    maximum-likelihood rating: it is -inf, below every other bot, with no interval.
    """

    bots: tuple[str, ...]
    rating: np.ndarray  # (bots,) full-data fit; 0 = the mean of the rated bots
    replicates: np.ndarray  # (replicates, bots) deviations from ``rating``, already scaled
    keys_drawn: int  # m: race keys drawn per replicate
    keys: int  # n: race keys with a decided race
    choices: int

    def interval(self, a: int, b: int | None = None) -> tuple[float, float, float]:
        """Rating of bot ``a`` (or the difference ``a - b``): estimate and 95% interval."""
        est = self.rating[a] - (0.0 if b is None else self.rating[b])
        if not np.isfinite(est) or np.isnan(est):
            return float(est), float(est), float(est)
        dev = self.replicates[:, a] - (0.0 if b is None else self.replicates[:, b])
        lo, hi = np.quantile(dev, [0.025, 0.975])
        return float(est), float(est + lo), float(est + hi)

    def table(self) -> pd.DataFrame:
        """One row per bot, best first: rating with its 95% interval."""
        rows = []
        for b, name in enumerate(self.bots):
            est, lo, hi = self.interval(b)
            rows.append({"bot": name, "rating": est, "low": lo, "high": hi})
        out = pd.DataFrame(rows).sort_values("rating", ascending=False, kind="stable")
        out.insert(0, "rung", np.arange(1, len(out) + 1))
        return out.reset_index(drop=True)


def fit(
    o: Outcomes, *, seed: int = 0, replicates: int = REPLICATES, budget: int = BUDGET
) -> Ratings:
    """Plackett-Luce ratings of the ladder's bots with bootstrap intervals (module docstring).

    Bots that never won a choice are left out of choix's fit (their strength is 0, so they
    drop out of every choice set exactly) and rated -inf; the others are centred on their
    mean. The bootstrap draws from ``numpy.random.default_rng(seed)``: the same seed gives the same
    intervals.
    """
    data, keys = _choices(o)
    k = len(o.bots)
    rated = np.bincount([w for w, _ in data], minlength=k) > 0
    index = np.cumsum(rated) - 1
    data = [(int(index[w]), [int(index[x]) for x in losers if rated[x]]) for w, losers in data]
    keep = [i for i, (_, losers) in enumerate(data) if losers]
    data, keys = [data[i] for i in keep], keys[keep]
    r = int(rated.sum())

    winners, losers, which = _counted(r, data)
    once = np.bincount(which, minlength=len(winners)).astype(float)
    full = _fit(winners, losers, once) if r > 1 else np.zeros(r)
    rating = np.full(k, -np.inf)
    rating[rated] = full  # choix centres on the mean
    uniq, cluster = np.unique(keys, return_inverse=True)
    n = len(uniq)
    m = n if len(data) <= budget else max(1, n * budget // len(data))
    scale = np.sqrt(m / n) if n else 0.0  # no decided race: every bot unrated, no replicate
    rng = np.random.default_rng(seed)
    reps = np.zeros((replicates, k))
    for b in range(replicates if r > 1 else 0):
        drawn = np.bincount(rng.integers(0, n, m), minlength=n)[cluster]  # per choice
        counts = np.bincount(which, weights=drawn, minlength=len(winners))
        reps[b, rated] = (_fit(winners, losers, counts, full) - full) * scale
    return Ratings(o.bots, rating, reps, m, n, len(data))


def pair_share(
    o: Outcomes,
    a: int,
    b: int,
    *,
    seed: int = 0,
    replicates: int = REPLICATES,
    z: float | None = None,
) -> tuple[float, float, float]:
    """How often bot ``a``'s seats finished ahead of bot ``b``'s: share and 95% interval.

    As :func:`simkit.analysis.ratings.head_to_head` counts it (decided races; a pair
    neither of which finished is not separated), but the interval is a percentile bootstrap
    over race keys (scipy), as for the ratings: every lineup's race with one key is
    resampled together, which keeps a race's correlated pairs and the common-random-numbers
    pairing intact (Wilson, which treats every pair as independent, is too narrow when a bot
    fills several seats).
    With ``z`` the interval is the share plus and minus ``z`` times the same bootstrap's
    standard error instead (clipped to [0, 1]): the level check's interim looks at z = 3
    (:mod:`simkit.runner.levels`), a level a few hundred resamples cannot reach by
    percentiles.
    NaN when no pair was separated.
    """
    ahead = np.zeros(len(o.key), np.int64)
    behind = np.zeros(len(o.key), np.int64)
    finished = o.place > 0
    finish = np.where(finished, o.place, 0)
    for lineup in np.unique(o.bot, axis=0):
        rows = np.flatnonzero((o.bot == lineup).all(axis=1))
        mine, theirs = np.flatnonzero(lineup == a), np.flatnonzero(lineup == b)
        if not (len(mine) and len(theirs)):
            continue
        f, fd = finish[rows], finished[rows]
        x, y = pair_counts(f, fd, mine, theirs)
        ok = o.decided[rows]
        ahead[rows], behind[rows] = x * ok, y * ok
    uniq, cluster = np.unique(o.key, return_inverse=True)
    ahead = np.bincount(cluster, ahead, len(uniq))
    behind = np.bincount(cluster, behind, len(uniq))
    total = ahead.sum() + behind.sum()
    if total == 0:
        return float("nan"), float("nan"), float("nan")
    est = float(ahead.sum() / total)
    if np.count_nonzero(ahead + behind) < 2:
        return est, est, est
    boot = bootstrap((ahead, behind), share_ratio, seed, resamples=replicates, paired=True)
    if z is not None:
        half = z * float(boot.standard_error)
        return est, max(0.0, est - half), min(1.0, est + half)
    ci = boot.confidence_interval
    return est, float(ci.low), float(ci.high)


ABOVE, BELOW, LEVEL, SPLIT = "above", "below", "level", "split"


def verdict(diff: tuple[float, float, float], share: tuple[float, float, float]) -> str:
    """Where bot A stands against bot B on both measures: ``above``, ``below``, ``level``,
    or ``split`` (the two disagree).

    ``diff`` is the rating difference A - B with its interval, ``share`` the share of
    head-to-head comparisons A won with its interval. ``above`` needs both intervals to
    exclude parity upwards (the difference above 0 and the share above 50%), ``below`` both
    downwards, ``level`` neither; anything else is ``split``. One rating per bot can disagree
    with head to head when a bot wins often and crashes often: the ratings then weigh whole
    finish orders, the share only the pairs that met.
    """
    _, dlo, dhi = diff
    _, slo, shi = share
    d = 1 if dlo > 0 else -1 if dhi < 0 else 0
    h = 1 if slo > 0.5 else -1 if shi < 0.5 else 0
    if np.isnan(slo):
        h = 0
    if d == h:
        return {1: ABOVE, -1: BELOW, 0: LEVEL}[d]
    return SPLIT
