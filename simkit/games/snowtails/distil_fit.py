"""Fitting ``policy:distilled`` (``distil.py``) to the search bot's choices:
``python -m simkit.games.snowtails.distil_fit collect TEACHER RACES OUT.npz`` then
``python -m simkit.games.snowtails.distil_fit fit OUT.npz [...]``.

``collect`` plays ``RACES`` races per (track, sleds) of ``GROUNDS`` (The Nutcracker,
S-Bends, The Long Haul at 2, 3 and 4 sleds: never Hairpin Valley, the frontier's ground)
with the search bot ``TEACHER`` in every seat, and at each of its card plays with two
candidates or more records every candidate's ``distil.candidate_features`` and which one
the search played. ``fit`` fits a conditional logit (a softmax over each decision's
candidates, by Newton's method in numpy, standardised features, a small ridge) on the
decisions of even-numbered races, reports accuracy and log loss on the odd ones (against
greedy's first choice and a uniform pick), refits on all and prints the ``bots.toml``
entry.

The teacher may be any search bot. A second round (the teacher's rollouts played by the
policy, at commit bf925aa, since removed) did not move the fit (docs/bots.md); it was
collected with ``SIMKIT_NUMBA_LINK=numba``: a fitting kernel that called the search's
sampling directly failed to link numba's ``np.zeros`` under simkit's linker
(``_numba_link.py``), and numba's own linker compiled it (more slowly, same code).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from simkit._borrow import borrowed
from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.choose import choose
from simkit.games.snowtails.distil import FEATURES, N_FEATURES, K, candidate_features
from simkit.games.snowtails.position import apply, new
from simkit.games.snowtails.records import BOT_SEARCH, FL_DONE, PH_PLAY, PLAY_W, POSITION, WORK

GROUNDS = tuple((t, n) for t in ("nutcracker", "s-bends", "long-haul") for n in (2, 3, 4))
SEED = 2424  # root seed of the teacher's races (simkit.rng.race_keys)
RIDGE = 1e-3


@njit(cache=True)
def _collect(cfga, reach, keys, positions, works, x, m, chosen, race):
    """Decisions of the search seats in the races of ``keys``: candidates' features into
    ``x[d, :m[d]]``, the one played in ``chosen[d]``, the race's index in ``race[d]``;
    returns how many (at most ``len(m)``)."""
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
    f = np.zeros(N_FEATURES)
    d = 0
    for r in range(len(keys)):
        new(cfg, pos, wk, keys[r])
        while pos.flow != FL_DONE:
            p = pos.to_move
            search = cfg.bots[p] == BOT_SEARCH and pos.phase == PH_PLAY
            choose(cfg, tables, pos, wk, pool, swks)
            if search and wk.n_top > 1 and d < len(m):
                pick = -1
                for c in range(wk.n_top):
                    same = True
                    for col in range(PLAY_W):
                        if wk.top[c, col] != wk.play[col]:
                            same = False
                    if same:
                        pick = c
                        break
                play = wk.play.copy()
                swks[0].tracing = 0
                swks[0].heat_on = 0
                for c in range(wk.n_top):
                    candidate_features(cfg, pos, wk, p, c, pool, 1, swks[0], f)
                    for i in range(N_FEATURES):
                        x[d, c, i] = f[i]
                for col in range(PLAY_W):
                    wk.play[col] = play[col]
                m[d] = wk.n_top
                chosen[d] = pick
                race[d] = r
                d += 1
            apply(cfg, pos, wk)
    return d


def collect(track: str, players: int, races: int, teacher: str, seed: int = SEED):
    """(features, candidates, chosen, race) of the teacher's decisions in ``races`` races."""
    from simkit.games.cells import build_cell
    from simkit.games.snowtails.batch import cell_slots, unit_tracks
    from simkit.rng import race_keys

    cell = build_cell("snowtails", track=track, players=players, bots=teacher)
    cfga, reach = cell_inputs(unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell))
    keys = race_keys(seed, players, np.arange(races))
    cap = races * players * 40
    x = np.zeros((cap, K, N_FEATURES), dtype=np.float32)
    m = np.zeros(cap, np.int64)
    chosen = np.zeros(cap, np.int64)
    race = np.zeros(cap, np.int64)
    positions = np.zeros(3, dtype=POSITION)
    works = np.zeros(2, dtype=WORK)
    d = _collect(cfga, reach, keys, positions, works, x, m, chosen, race)
    return x[:d], m[:d], chosen[:d], race[:d]


def _probs(x, valid, beta):
    z = x @ beta
    z = np.where(valid, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def _loglik(xs, valid, chosen, beta):
    z = np.where(valid, xs @ beta, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    lp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(lp[np.arange(len(chosen)), chosen].mean())


def fit(x, m, chosen, iters: int = 50, ridge: float = RIDGE):
    """Conditional logit: coefficients on the raw features (standardised inside), by
    Newton's method with step halving, a ridge of ``ridge`` per decision."""
    valid = np.arange(x.shape[1])[None, :] < m[:, None]
    flat = x[valid]
    mu = flat.mean(axis=0)
    sd = flat.std(axis=0)
    sd[sd < 1e-9] = 1.0
    xs = (x - mu) / sd
    xs[~valid] = 0.0
    n, k, f = xs.shape
    y = np.zeros((n, k))
    y[np.arange(n), chosen] = 1.0
    beta = np.zeros(f)
    flat = xs.reshape(-1, f)

    def objective(b):
        return _loglik(xs, valid, chosen, b) - 0.5 * ridge * float(b @ b)

    for _ in range(iters):
        pr = _probs(xs, valid, beta)
        g = np.einsum("nk,nkf->f", y - pr, xs) - ridge * n * beta
        mean = np.einsum("nk,nkf->nf", pr, xs)
        h = (flat * pr.reshape(-1)[:, None]).T @ flat - mean.T @ mean + ridge * n * np.eye(f)
        step = np.linalg.solve(h, g)
        t = 1.0
        now = objective(beta)
        while objective(beta + t * step) < now and t > 1e-6:
            t /= 2
        beta += t * step
        if np.max(np.abs(t * step)) < 1e-8:
            break
    return beta / sd


def scores(x, m, chosen, beta):
    """(accuracy, log loss) of the coefficients ``beta`` on these decisions."""
    valid = np.arange(x.shape[1])[None, :] < m[:, None]
    pick = np.argmax(np.where(valid, x @ beta, -np.inf), axis=1)
    return float(np.mean(pick == chosen)), -_loglik(x, valid, chosen, beta)


def main(argv: list[str]) -> int:
    if argv[0] == "collect":
        teacher, races, out = argv[1], int(argv[2]), argv[3]
        grounds = GROUNDS
        if len(argv) > 4:
            grounds = tuple(
                (t, int(n)) for t, _, n in (g.partition("@") for g in argv[4].split(","))
            )
        parts = {}
        for i, (track, players) in enumerate(grounds):
            x, m, c, r = collect(track, players, races, teacher)
            print(f"  {track:11s} {players} sleds: {len(m):,} decisions", flush=True)
            parts[f"x{i}"], parts[f"m{i}"], parts[f"c{i}"], parts[f"r{i}"] = x, m, c, r
        np.savez_compressed(out, teacher=teacher, races=races, **parts)
        return 0
    xs, ms, cs, rs = [], [], [], []
    for path in argv[1:]:
        data = np.load(path)
        i = 0
        while f"x{i}" in data:
            xs.append(data[f"x{i}"].astype(np.float64))
            ms.append(data[f"m{i}"])
            cs.append(data[f"c{i}"])
            rs.append(data[f"r{i}"])
            i += 1
    x, m, c, r = np.concatenate(xs), np.concatenate(ms), np.concatenate(cs), np.concatenate(rs)
    keep = c >= 0
    x, m, c, r = x[keep], m[keep], c[keep], r[keep]
    train = r % 2 == 0
    beta = fit(x[train], m[train], c[train])
    test = ~train
    acc, loss = scores(x[test], m[test], c[test], beta)
    first = float(np.mean(c[test] == 0))
    uniform = float(np.mean(np.log(m[test])))
    print(
        f"{len(m):,} decisions ({int(train.sum()):,} fitted, {int(test.sum()):,} held out); "
        f"held out: accuracy {acc:.3f} (greedy's first {first:.3f}), log loss {loss:.4f} "
        f"(uniform {uniform:.4f})"
    )
    beta = fit(x, m, c)
    for name, b in zip(FEATURES, beta, strict=True):
        print(f"  {b:+10.5f}  {name}")
    print(f"coef = [{', '.join(f'{b:.6g}' for b in beta)}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
