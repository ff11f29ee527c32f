"""A stopping rule that stays valid however often the page looks (issue 36).

The page recomputes its verdict after every round of races and stops as soon as it is
decided. Fixed-sample intervals (Wilson) looked at after every round and stopped at the
first decisive look wrongly decide far more often than their nominal 5%: every look is
another chance for chance. A **confidence sequence** is a sequence of intervals that
cover the true win rate at every look at once with probability at least 1 - alpha, so
stopping at any look (the first decisive one included) keeps the 5%.

The one used here is Robbins' normal mixture for a sub-Gaussian mean, as stated by Howard,
Ramdas, McAuliffe and Sekhon, "Time-uniform, nonparametric, nonasymptotic confidence
sequences", Ann. Statist. 49(2), 2021, eq. (14) (normal mixture, two-sided): a win (0/1)
minus its rate is sub-Gaussian with variance proxy 1/4 per race, so with ``S_n`` the wins
minus ``n p`` and ``V_n = n / 4``,

    P(exists n: |S_n| >= sqrt((V_n + rho) * log((V_n + rho) / (rho * alpha^2)))) <= alpha

(the mixture over lambda ~ N(0, 1/rho) of exp(lambda S_n - lambda^2 V_n / 2) is a
nonnegative supermartingale, and Ville's inequality bounds its crossing of 1 / alpha).
``rho`` sets the number of races at which the boundary is tightest; it is chosen for
:data:`TIGHT_AT` decided races. Every slot of every cell gets its own sequence at
alpha / (slots of all cells) (Bonferroni), so the whole page's verdicts are wrong with
probability at most alpha. docs/statistics.md, "Watching races come in", says what it
costs against a fixed-size interval; tests/serve/test_sequential.py checks the error rate
under repeated looks by simulation.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy.optimize import minimize_scalar

ALPHA = 0.05
VARIANCE_PROXY = 0.25  # a 0/1 outcome minus its mean is sub-Gaussian with sigma^2 <= 1/4
TIGHT_AT = 20_000  # decided races at which the boundary is tightest (rho below)


def _radius_sum(v: np.ndarray, rho: float, alpha: float) -> np.ndarray:
    """The normal-mixture boundary on ``|S_n|`` at intrinsic time ``v`` (Howard et al. eq 14)."""
    return np.sqrt((v + rho) * np.log((v + rho) / (rho * alpha * alpha)))


@lru_cache(maxsize=64)
def rho_for(alpha: float, tight_at: int = TIGHT_AT) -> float:
    """The mixture's precision ``rho`` whose boundary is smallest at ``tight_at`` races."""
    v = VARIANCE_PROXY * tight_at
    res = minimize_scalar(
        lambda log_rho: float(_radius_sum(np.float64(v), math.exp(log_rho), alpha)),
        bounds=(math.log(1e-3), math.log(10 * v)),
        method="bounded",
    )
    return math.exp(res.x)


def confidence_sequence(
    wins, n, alpha: float = ALPHA, tight_at: int = TIGHT_AT
) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of the win rate after ``wins`` in ``n`` decided races, valid at every n.

    Vectorised over slots; ``n == 0`` gives (0, 1).
    """
    wins = np.asarray(wins, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    rho = rho_for(float(alpha), int(tight_at))
    with np.errstate(invalid="ignore", divide="ignore"):
        half = _radius_sum(VARIANCE_PROXY * n, rho, alpha) / n
        rate = wins / n
        low = np.where(n > 0, np.clip(rate - half, 0.0, 1.0), 0.0)
        high = np.where(n > 0, np.clip(rate + half, 0.0, 1.0), 1.0)
    return low, high


def slot_alpha(slots: int, alpha: float = ALPHA) -> float:
    """Each slot's share of ``alpha`` when ``slots`` sequences (of all cells) decide at once."""
    return alpha / max(int(slots), 1)


def simulated_error(
    p: float,
    alpha: float = ALPHA,
    streams: int = 2_000,
    looks: int = 100,
    per_look: int = 200,
    seed: int = 0,
) -> float:
    """Share of simulated win/lose streams at rate ``p``, looked at every ``per_look`` races,
    whose confidence sequence misses ``p`` at some look (at most ``alpha`` if valid)."""
    rng = np.random.default_rng(seed)
    wins = rng.binomial(per_look, p, size=(streams, looks)).cumsum(axis=1)
    n = np.broadcast_to(per_look * np.arange(1, looks + 1), wins.shape)
    low, high = confidence_sequence(wins, n, alpha)
    return float(((low > p) | (high < p)).any(axis=1).mean())
