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
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from simkit._borrow import borrowed
from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.bots import top_plays
from simkit.games.snowtails.decide import choose
from simkit.games.snowtails.distil import FEATURES, N_FEATURES, K, candidate_features
from simkit.games.snowtails.layout import BOT_SEARCH, FL_DONE, PH_PLAY, PLAY_W, POSITION, WORK
from simkit.games.snowtails.position import apply, new
from simkit.games.snowtails.search import NO_STOP, _sample
from simkit.games.snowtails.turn import bot_stream
from simkit.games.snowtails.value import N_FEATURES as N_VALUE
from simkit.rng import next_u64

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


@njit(cache=True)
def _collect_q(cfga, reach, keys, positions, works, samples, x, m, q, race):
    """Every card play of the races of ``keys`` with two candidates or more: greedy's best
    ``K`` (the seat's prior weights), each tried on the same ``samples`` samples of what the
    seat cannot see, played on to the end with greedy (as ``search:N``'s rollouts, without
    halving: every candidate gets every sample); the features into ``x[d, :m[d]]``, the
    mean results into ``q[d]``. The play with the best mean is played (a flat search);
    returns the decisions written (at most ``len(m)``)."""
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
    swk = swks[0]
    swk.tracing = 0
    swk.heat_on = 0
    swk.halt = 0
    f = np.zeros(N_FEATURES)
    fv = np.zeros(N_VALUE)
    scratch = np.empty(0, POSITION)
    d = 0
    for r in range(len(keys)):
        new(cfg, pos, wk, keys[r])
        while pos.flow != FL_DONE:
            p = pos.to_move
            if pos.phase != PH_PLAY:
                choose(cfg, tables, pos, wk, pool, swks)
                apply(cfg, pos, wk)
                continue
            top_plays(cfg, tables, pos, wk, p, p, np.int64(K))
            n = wk.n_top
            base = next_u64(pos.rng, bot_stream(p))
            best = 0
            if n > 1:
                for c in range(n):
                    wk.alive[c] = c
                    wk.sums[c] = 0.0
                    wk.tries[c] = 0
                for smp in range(samples):
                    _sample(
                        cfg,
                        tables,
                        pos,
                        wk,
                        pool,
                        swk,
                        p,
                        wk.alive,
                        n,
                        np.int64(smp),
                        base,
                        NO_STOP,
                        False,
                        fv,
                        False,
                        scratch,
                    )
                for c in range(n):
                    if wk.sums[c] > wk.sums[best]:
                        best = c
                if d < len(m):
                    for c in range(n):
                        candidate_features(cfg, pos, wk, p, c, pool, 1, swk, f)
                        for i in range(N_FEATURES):
                            x[d, c, i] = f[i]
                        q[d, c] = wk.sums[c] / wk.tries[c]
                    m[d] = n
                    race[d] = r
                    d += 1
            for col in range(PLAY_W):
                wk.play[col] = wk.top[best, col]
            apply(cfg, pos, wk)
    return d


def collect_q(track: str, players: int, races: int, samples: int, seed: int = SEED):
    """(features, candidates, mean results, race) of ``_collect_q``'s decisions."""
    from simkit.games.cells import build_cell
    from simkit.games.snowtails import cell_slots, unit_tracks
    from simkit.rng import race_keys

    cell = build_cell("snowtails", track=track, players=players, bots="search:64")
    cfga, reach = cell_inputs(unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell))
    keys = race_keys(seed, players, np.arange(races))
    cap = races * players * 40
    x = np.zeros((cap, K, N_FEATURES), dtype=np.float32)
    m = np.zeros(cap, np.int64)
    q = np.zeros((cap, K), dtype=np.float32)
    race = np.zeros(cap, np.int64)
    positions = np.zeros(3, dtype=POSITION)
    works = np.zeros(2, dtype=WORK)
    d = _collect_q(cfga, reach, keys, positions, works, samples, x, m, q, race)
    return x[:d], m[:d], q[:d], race[:d]


def collect(track: str, players: int, races: int, teacher: str, seed: int = SEED):
    """(features, candidates, chosen, race) of the teacher's decisions in ``races`` races."""
    from simkit.games.cells import build_cell
    from simkit.games.snowtails import cell_slots, unit_tracks
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


def fit_q(x, m, q, ridge: float = RIDGE):
    """Least squares of each candidate's mean result on its features, both less their
    decision's means (only differences within a decision matter to an argmax); a ridge of
    ``ridge`` per decision on standardised features. Coefficients on the raw features."""
    valid = np.arange(x.shape[1])[None, :] < m[:, None]
    w = valid / m[:, None]
    xd = x - np.einsum("nk,nkf->nf", w, x)[:, None, :]
    qd = q - (w * q).sum(axis=1)[:, None]
    xd = xd[valid]
    qd = qd[valid]
    sd = xd.std(axis=0)
    sd[sd < 1e-9] = 1.0
    xs = xd / sd
    h = xs.T @ xs + ridge * len(m) * np.eye(x.shape[2])
    return np.linalg.solve(h, xs.T @ qd) / sd


def regret(x, m, q, beta):
    """(mean result of the pick by ``beta``, of greedy's first, of the best candidate by
    its own mean: an optimistic bound, the means being noisy)."""
    valid = np.arange(x.shape[1])[None, :] < m[:, None]
    pick = np.argmax(np.where(valid, x @ beta, -np.inf), axis=1)
    rows = np.arange(len(m))
    best = np.where(valid, q, -np.inf).max(axis=1)
    return float(q[rows, pick].mean()), float(q[:, 0].mean()), float(best.mean())


def _load(paths, target):
    xs, ms, ts, rs = [], [], [], []
    for path in paths:
        data = np.load(path)
        i = 0
        while f"x{i}" in data:
            xs.append(data[f"x{i}"].astype(np.float64))
            ms.append(data[f"m{i}"])
            ts.append(data[f"{target}{i}"].astype(np.float64))
            rs.append(data[f"r{i}"])
            i += 1
    return np.concatenate(xs), np.concatenate(ms), np.concatenate(ts), np.concatenate(rs)


def main_q(paths: list[str]) -> int:
    x, m, q, r = _load(paths, "q")
    train = r % 2 == 0
    test = ~train
    beta = fit_q(x[train], m[train], q[train])
    got, first, best = regret(x[test], m[test], q[test], beta)
    agree = float(
        np.mean(
            np.argmax(
                np.where(
                    np.arange(x.shape[1])[None, :] < m[test][:, None], x[test] @ beta, -np.inf
                ),
                axis=1,
            )
            == 0
        )
    )
    print(
        f"{len(m):,} decisions ({int(train.sum()):,} fitted, {int(test.sum()):,} held out); "
        f"held out, mean result of the pick {got:.4f}, greedy's first {first:.4f}, best by "
        f"its own noisy mean {best:.4f}; picks greedy's first in {agree:.3f}"
    )
    beta = fit_q(x, m, q)
    for name, b in zip(FEATURES, beta, strict=True):
        print(f"  {b:+10.5f}  {name}")
    print(f"coef = [{', '.join(f'{b:.6g}' for b in beta)}]")
    return 0


def main(argv: list[str]) -> int:
    if argv[0] == "fit-q":
        return main_q(argv[1:])
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
    if argv[0] == "collect-q":
        samples, races, out = int(argv[1]), int(argv[2]), argv[3]
        grounds = tuple((t, int(n)) for t, _, n in (g.partition("@") for g in argv[4].split(",")))
        parts = {}
        for i, (track, players) in enumerate(grounds):
            x, m, q, r = collect_q(track, players, races, samples)
            print(f"  {track:11s} {players} sleds: {len(m):,} decisions", flush=True)
            parts[f"x{i}"], parts[f"m{i}"], parts[f"q{i}"], parts[f"r{i}"] = x, m, q, r
        np.savez_compressed(out, samples=samples, races=races, **parts)
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
