"""Fitting the values of ``value.py``.

``python -m simkit.games.snowtails.value_fit [RACES] [2]`` plays ``RACES`` greedy:tuned Snow
Tails races per (track, sleds) of ``GROUNDS`` (The Nutcracker, S-Bends, The Long Haul at 2,
3 and 4 sleds: never Hairpin Valley, the first frontier's ground) and fits ``COEF`` (with
``2``: ``COEF2``, the second value's features).

``python -m simkit.games.snowtails.value_fit grounds PRESET N RACES DIR [SEED] [--threads
T]`` plays ``RACES`` races of the preset's game's greedy:tuned on each of ``N`` grounds
drawn from the fit distribution (``grounds.fit_grounds``) into one file per ground in
``DIR`` (resumable), keeping the positions, so any feature set can be fitted on them
later; ``python -m simkit.games.snowtails.value_fit fit DIR [SET]`` fits the features of
set ``SET`` (1, 2 or 3: ``FEATURES``, ``FEATURES2``, ``FEATURES3``; default 3) on such
files, holding out every other race for the log loss.

Rows: ``value.features`` (or the set's) for every sled still racing at the first decision
of each round, each labelled with that sled's final rank utility (none from a race the
engine guard ended: ``max_rounds``, docs/statistics.md "Decided races"); a logistic regression of
the label (a share in [0, 1]: quasi-binomial, by iteratively reweighted least squares in
numpy) on the features. Every collection refuses a held-out ground (``grounds.refuse``).

Greedy:tuned plays the data because it is what plays every rollout on past the horizon: the
value estimates what the uncut rollout would have scored, without its noise or its cost.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import numpy as np
from numba import njit

from simkit._borrow import borrowed
from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.choose import choose
from simkit.games.snowtails.position import apply, new
from simkit.games.snowtails.records import FL_DONE, POSITION, RACING, WORK, kept_positions
from simkit.games.snowtails.value import (
    COEF,
    COEF2,
    FEATURES,
    FEATURES2,
    FEATURES3,
    N_FEATURES,
    N_FEATURES2,
    N_FEATURES3,
    features,
    features2,
    seat_features,
)

GROUNDS = tuple((t, n) for t in ("nutcracker", "s-bends", "long-haul") for n in (2, 3, 4))
SEED = 24  # root seed of the fitting races (simkit.rng.race_keys)
SETS = {1: (FEATURES, N_FEATURES), 2: (FEATURES2, N_FEATURES2), 3: (FEATURES3, N_FEATURES3)}
CHUNK = 10  # races per call of the collecting kernel (their positions in memory)
ROWS_CAP = 150  # rows a seat gives in one race, at most, for the buffers


@njit(cache=True, no_cfunc_wrapper=True)
def _collect(cfga, reach, keys, positions, works, x, y, second, saved, seats, race):
    """Rows of (features, final rank utility) from the races of ``keys``, the position in
    ``saved``, the seat in ``seats`` and the race's index in ``race``; returns how many
    were written (at most ``len(y)``). With ``second``: ``features2``."""
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
    for r in range(len(keys)):
        new(pos, cfg, wk, keys[r])
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
                        saved[rows] = pos
                        race[rows] = r
                        rows += 1
            choose(pos, cfg, tables, wk, pool, swks, True)
            apply(pos, cfg, wk)
        if pos.timed_out != 0:
            # Ended by the engine guard, not the rules (a repairing sled on the only way out
            # of a tight corner, docs/rules-mushmush.md): its ranks are where the guard left
            # the sleds, and its rounds of sleds that never move again would fill the rows.
            rows = first
            continue
        n = pos.n_seats
        for i in range(first, rows):
            y[i] = (n - pos.race_fin[seats[i], 0]) / (n - 1)
    return rows


def collect(
    track: str,
    players: int,
    races: int,
    bot: str = "greedy:tuned",
    second: bool = False,
    game: str = "snowtails",
    seed: int = SEED,
    cell_key: int | None = None,
    keep: bool = False,
):
    """(features, labels) of ``races`` races of ``bot`` on ``track`` with ``players`` sleds
    (``features2`` with ``second``), on the keys ``race_keys(seed, cell_key, ...)``
    (default: the sleds); with ``keep``, a dict that adds the positions (as bytes), the
    seats and the races. ``SimkitError`` on a held-out ground."""
    from simkit.games import get
    from simkit.games.cells import build_cell
    from simkit.games.snowtails.batch import cell_slots, unit_tracks
    from simkit.rng import race_keys

    cell = build_cell(game, track=track, players=players, bots=bot)
    get(game).check_fit(cell, "value_fit")
    cfga, reach = cell_inputs(unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell))
    keys = race_keys(seed, players if cell_key is None else cell_key, np.arange(races))
    cap = min(races, CHUNK) * players * ROWS_CAP
    x = np.zeros((cap, N_FEATURES2 if second else N_FEATURES))
    y = np.zeros(cap)
    saved = np.zeros(cap, dtype=POSITION)
    seats = np.zeros(cap, np.int64)
    race = np.zeros(cap, np.int64)
    positions = np.empty(3, dtype=POSITION)
    works = np.empty(2, dtype=WORK)
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("x", "y", "pos", "seat", "race")}
    for lo in range(0, races, CHUNK):
        part = keys[lo : lo + CHUNK]
        k = _collect(cfga, reach, part, positions, works, x, y, second, saved, seats, race)
        parts["x"].append(x[:k].copy())
        parts["y"].append(y[:k].copy())
        if keep:
            parts["pos"].append(saved[:k].view(np.uint8).reshape(k, -1).copy())
            parts["seat"].append(seats[:k].copy())
            parts["race"].append(race[:k] + lo)
    if not keep:
        return np.concatenate(parts["x"]), np.concatenate(parts["y"])
    return {k: np.concatenate(v) for k, v in parts.items()}


def _ground_work(races: int, seed: int, g, k: int) -> dict[str, np.ndarray]:
    """``collect`` on ground ``g`` (the ``k``-th of a collection: its cell key), kept."""
    got = collect(g.track, g.players, races, game=g.game, seed=seed, cell_key=k + 1, keep=True)
    return {"y": got["y"], "pos": got["pos"], "seat": got["seat"], "race": got["race"]}


def refeature(path: str | Path, which: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features of set ``which``, labels, races) of a ``grounds`` file."""
    from simkit.games.snowtails.batch import cell_slots, unit_tracks
    from simkit.games.snowtails.grounds import ground_of

    data = np.load(path)
    g = ground_of(data)
    cell = g.cell("greedy:tuned")
    cfga, _ = cell_inputs(unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell))
    saved = kept_positions(data["pos"])
    x = np.zeros((len(saved), SETS[which][1]))
    seat_features(cfga, saved, data["seat"], which, x)
    return x, data["y"], data["race"]


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
    se = np.sqrt(np.abs(np.diag(np.linalg.pinv(h))) * disp)  # pinv: a feature the rules fix
    return beta, se


def log_loss(y: np.ndarray, mu: np.ndarray) -> float:
    mu = np.clip(mu, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(mu) + (1 - y) * np.log(1 - mu)))


def predict(x: np.ndarray, beta: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(x @ beta)))


def load(paths: list[str], which: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features of set ``which``, labels, races made distinct between files) of the
    ``grounds`` files or folders ``paths``."""
    from simkit.games.snowtails.grounds import files

    xs, ys, rs = [], [], []
    for path in files(paths):
        x, y, r = refeature(path, which)
        xs.append(x)
        ys.append(y)
        rs.append(r + 2 * (1 << 20) * len(rs))  # distinct, parity kept
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(rs)


def report(x: np.ndarray, y: np.ndarray, r: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    """Fit on the even races, print the odd ones' log loss (and the place utility's
    alone, and the first twelve features' and the second value's where the set holds
    them), refit on all and print the coefficients; returns them."""
    half = r % 2 == 0
    test = ~half
    beta, _ = fit(x[half], y[half])
    print(f"{len(y):,} rows; held-out log loss {log_loss(y[test], predict(x[test], beta)):.4f}")
    for k, what in (
        (2, "place utility alone"),
        (N_FEATURES, "the first value's features"),
        (N_FEATURES2, "the second value's features"),
    ):
        if k < x.shape[1]:
            b, _ = fit(x[half][:, :k], y[half])
            print(f"  {what}, refitted: {log_loss(y[test], predict(x[test][:, :k], b)):.4f}")
    if x.shape[1] >= N_FEATURES2:
        shipped = log_loss(y[test], predict(x[test][:, :N_FEATURES2], np.array(COEF2)))
        print(f"  the second value as shipped (COEF2): {shipped:.4f}")
    beta, se = fit(x, y)
    for name, b, s in zip(names, beta, se, strict=True):
        print(f"  {b:+9.4f} (se {s:.4f})  {name}")
    print(f"coef = [{', '.join(f'{b:.6g}' for b in beta)}]")
    return beta


def main(argv: list[str]) -> int:
    """``[RACES] [2]``: fit ``COEF`` (or with ``2``, ``COEF2``: ``features2``); ``grounds
    ...`` and ``fit ...``: the module's docstring."""
    threads = 1
    if "--threads" in argv:
        i = argv.index("--threads")
        threads = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2 :]
    if argv and argv[0] == "grounds":
        from simkit.games.snowtails.grounds import collect_into, fit_grounds

        preset, n, races, out = argv[1], int(argv[2]), int(argv[3]), argv[4]
        seed = int(argv[5]) if len(argv) > 5 else SEED
        work = functools.partial(_ground_work, races, seed)
        collect_into(out, fit_grounds(preset, n, seed), work, threads)
        return 0
    if argv and argv[0] == "fit":
        which = int(argv[2]) if len(argv) > 2 else 3
        report(*load([argv[1]], which), SETS[which][0])
        return 0
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
