"""Fitting ``value.COEF``: ``python -m simkit.games.snowtails.value_fit [RACES]``.

Plays ``RACES`` greedy:tuned races per (track, sleds) of ``GROUNDS`` (The Nutcracker,
S-Bends, The Long Haul at 2, 3 and 4 sleds: never Hairpin Valley, the frontier's ground),
records ``value.features`` for every sled still racing at the first decision of each round,
labels each row with that sled's final rank utility, and fits a logistic regression of the
label (a share in [0, 1]: quasi-binomial, by iteratively reweighted least squares in numpy)
on the features. Prints the coefficients, their standard errors, the fit's log loss against
the place utility alone, and the ``COEF`` / ``FIT`` lines to paste into ``value.py``.

Greedy:tuned plays the data because it is what plays every rollout on past the horizon: the
value estimates what the uncut rollout would have scored, without its noise or its cost.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from simkit._borrow import borrowed
from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.choose import choose
from simkit.games.snowtails.position import apply, new
from simkit.games.snowtails.records import FL_DONE, POSITION, RACING, WORK
from simkit.games.snowtails.value import (
    COEF,
    FEATURES,
    FEATURES2,
    N_FEATURES,
    N_FEATURES2,
    features,
    features2,
)

GROUNDS = tuple((t, n) for t in ("nutcracker", "s-bends", "long-haul") for n in (2, 3, 4))
SEED = 24  # root seed of the fitting races (simkit.rng.race_keys)


@njit(cache=True)
def _collect(cfga, reach, keys, positions, works, x, y, second):
    """Rows of (features, final rank utility) from the races of ``keys``; returns how
    many were written (at most ``len(y)``). With ``second``: ``features2``."""
    cfg = cfga[0]
    pos = positions[0]
    wk = works[0]
    wk.tracing = 0
    wk.nlog = 0
    wk.halt = 0
    wk.heat_on = 0
    tables = (borrowed(reach[0]), borrowed(reach[1]))
    pool = borrowed(positions[1:])
    swks = borrowed(works[1:])
    nf = N_FEATURES2 if second else N_FEATURES
    f = np.zeros(nf)
    rows = 0
    seats = np.zeros(len(y), np.int64)
    for r in range(len(keys)):
        new(cfg, pos, wk, keys[r])
        first = rows
        last_round = -1
        while pos.flow != FL_DONE:
            if pos.rnd != last_round and pos.race == 0:
                last_round = pos.rnd
                for p in range(pos.n_seats):
                    if pos.status[p] == RACING and rows < len(y) and pos.space[p] >= 0:
                        if second:
                            features2(cfg, pos, p, f)
                        else:
                            features(cfg, pos, p, f)
                        for i in range(nf):
                            x[rows, i] = f[i]
                        seats[rows] = p
                        rows += 1
            choose(cfg, tables, pos, wk, pool, swks)
            apply(cfg, pos, wk)
        n = pos.n_seats
        for i in range(first, rows):
            y[i] = (n - pos.race_fin[seats[i], 0]) / (n - 1)
    return rows


def collect(track: str, players: int, races: int, bot: str = "greedy:tuned", second: bool = False):
    """(features, labels) of ``races`` races of ``bot`` on ``track`` with ``players`` sleds
    (``features2`` with ``second``)."""
    from simkit.games.cells import build_cell
    from simkit.games.snowtails.batch import cell_slots, unit_tracks
    from simkit.rng import race_keys

    cell = build_cell("snowtails", track=track, players=players, bots=bot)
    cfga, reach = cell_inputs(unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell))
    keys = race_keys(SEED, players, np.arange(races))
    cap = races * players * 40
    x = np.zeros((cap, N_FEATURES2 if second else N_FEATURES))
    y = np.zeros(cap)
    positions = np.empty(3, dtype=POSITION)
    works = np.empty(2, dtype=WORK)
    k = _collect(cfga, reach, keys, positions, works, x, y, second)
    return x[:k], y[:k]


def fit(x: np.ndarray, y: np.ndarray, iters: int = 30) -> tuple[np.ndarray, np.ndarray]:
    """Logistic regression of shares ``y`` on ``x`` (IRLS); (coefficients, standard errors)."""
    beta = np.zeros(x.shape[1])
    for _ in range(iters):
        mu = 1.0 / (1.0 + np.exp(-(x @ beta)))
        w = np.clip(mu * (1.0 - mu), 1e-9, None)
        h = x.T @ (x * w[:, None]) + 1e-6 * np.eye(x.shape[1])
        step = np.linalg.solve(h, x.T @ (y - mu))
        beta += step
        if np.max(np.abs(step)) < 1e-9:
            break
    mu = 1.0 / (1.0 + np.exp(-(x @ beta)))
    w = mu * (1.0 - mu)
    h = x.T @ (x * w[:, None])
    disp = np.sum((y - mu) ** 2 / np.clip(w, 1e-9, None)) / (len(y) - x.shape[1])
    se = np.sqrt(np.diag(np.linalg.inv(h)) * disp)
    return beta, se


def log_loss(y: np.ndarray, mu: np.ndarray) -> float:
    mu = np.clip(mu, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(mu) + (1 - y) * np.log(1 - mu)))


def main(argv: list[str]) -> int:
    """``[RACES] [2]``: fit ``COEF`` (or with ``2``, ``COEF2``: ``features2``)."""
    races = int(argv[0]) if argv else 4000
    second = len(argv) > 1 and argv[1] == "2"
    names, tag = (FEATURES2, "2") if second else (FEATURES, "")
    xs, ys = [], []
    for track, players in GROUNDS:
        x, y = collect(track, players, races, second=second)
        print(f"  {track:11s} {players} sleds: {len(y):,} rows")
        xs.append(x)
        ys.append(y)
    x, y = np.concatenate(xs), np.concatenate(ys)
    half = np.arange(len(y)) % 2 == 0  # every other row held out, for an honest loss
    beta, se = fit(x[half], y[half])
    base, _ = fit(x[half][:, :2], y[half])
    test = ~half
    fitted = log_loss(y[test], 1 / (1 + np.exp(-(x[test] @ beta))))
    alone = log_loss(y[test], 1 / (1 + np.exp(-(x[test][:, :2] @ base))))
    print(f"{len(y):,} rows; held-out log loss {fitted:.4f} (place utility alone {alone:.4f})")
    if second:  # the first value's fit on the same rows (its features: the first twelve)
        old, _ = fit(x[half][:, :N_FEATURES], y[half])
        first = log_loss(y[test], 1 / (1 + np.exp(-(x[test][:, :N_FEATURES] @ old))))
        shipped = log_loss(y[test], 1 / (1 + np.exp(-(x[test][:, :N_FEATURES] @ np.array(COEF)))))
        print(f"  the first value's features refitted: {first:.4f}; COEF as shipped: {shipped:.4f}")
    beta, se = fit(x, y)
    for name, b, s in zip(names, beta, se, strict=True):
        print(f"  {b:+9.4f} (se {s:.4f})  {name}")
    print(f"COEF{tag} = ({', '.join(f'{b:.5f}' for b in beta)})")
    print(
        f'FIT{tag} = "greedy:tuned, {races} races per ground x {len(GROUNDS)} grounds '
        f'(nutcracker, s-bends, long-haul; 2-4 sleds), seed {SEED}, {len(y)} rows"'
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
