"""Fitting a distilled policy (``distil.py``) to a search bot's choices.

``python -m simkit.games.snowtails.distil_fit collect TEACHER RACES OUT.npz [T@N,...]``
plays ``RACES`` Snow Tails races per (track, sleds) (default ``GROUNDS``: The Nutcracker,
S-Bends, The Long Haul at 2, 3 and 4 sleds, what ``policy:distilled`` was fitted on) with
the search bot ``TEACHER`` in every seat.

``python -m simkit.games.snowtails.distil_fit grounds PRESET TEACHER N RACES DIR [SEED]
[--threads T]`` does the same on ``N`` grounds drawn at random from the fit distribution
(``grounds.fit_grounds``: library tracks neither held out nor validation, tracks derived
from them, 2 sleds to the preset's most) under ``PRESET``, played as that preset's game
(its ``bots.toml``: its greedy:tuned, its policies), one file per ground in ``DIR``
(resumable: a ground whose file exists is skipped; ``T`` processes share them).

Either way, at each of the teacher's card plays with two candidates or more it records
every candidate's ``distil.candidate_features``, which one the search played, the play
itself and the position (so features can be computed again, ``refeature``, without
playing the teacher again). Every collection refuses a held-out ground
(``grounds.refuse``).

``python -m simkit.games.snowtails.distil_fit fit FILE|DIR ...`` fits a conditional logit (a
softmax over each decision's candidates, by Newton's method in numpy, standardised
features, a small ridge) on the decisions of even-numbered races, reports accuracy and log
loss on the odd ones (against greedy's first choice and a uniform pick), refits on all and
prints the coefficients for ``bots.toml``.

``python -m simkit.games.snowtails.distil_fit agree DIR PER BOT ...`` is a screen: on
``PER`` live decisions of each ground file in ``DIR`` (drawn with seed 0, the same for every
bot) it lets each ``BOT`` decide from the saved position and prints how often it plays what
the collection's teacher played, with a Wilson 95% interval and its CPU seconds. The
teacher itself agrees every time (the position carries its random state). Within one
design (the ``search:NhHx`` family) agreement with a stronger teacher ranked the bots as
their ladders against search:64 did; across designs it measures style, not strength
(search:64 agrees least with ``search:64h2xp1``): docs/bots.md, "A fourth look".

A second round (the teacher's rollouts played by the policy, at commit bf925aa, since
removed) did not move the first fit (docs/bots.md); it was collected with
``SIMKIT_NUMBA_LINK=numba``: a fitting kernel that called the search's sampling directly
failed to link numba's ``np.zeros`` under simkit's linker (``_numba_link.py``), and numba's
own linker compiled it (more slowly, same code).
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from simkit._borrow import borrowed
from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.choose import choose
from simkit.games.snowtails.distil import FEATURES, N_FEATURES, K, candidate_features
from simkit.games.snowtails.greedy import top_plays
from simkit.games.snowtails.position import apply, new
from simkit.games.snowtails.records import (
    BOT_SEARCH,
    FINISHED,
    FL_DONE,
    OUT,
    PH_PLAY,
    PLAY_W,
    POSITION,
    WORK,
    kept_positions,
)
from simkit.games.snowtails.search import place_settled

GROUNDS = tuple((t, n) for t in ("nutcracker", "s-bends", "long-haul") for n in (2, 3, 4))
SEED = 2424  # root seed of the teacher's races (simkit.rng.race_keys)
RIDGE = 1e-3
CHUNK = 8  # races per call of the collecting kernel (its decisions' positions in memory)
ROUNDS_CAP = 120  # decisions a seat makes in one race, at most, for the buffers


@njit(cache=True, no_cfunc_wrapper=True)
def _collect(cfga, reach, keys, positions, works, x, m, chosen, race, saved, plays):
    """Decisions of the search seats in the races of ``keys``: candidates' features into
    ``x[d, :m[d]]``, the one played in ``chosen[d]``, the race's index in ``race[d]``, the
    position in ``saved[d]`` and the play in ``plays[d]``; returns how many (at most
    ``len(m)``)."""
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
        new(pos, cfg, wk, keys[r])
        while pos.flow != FL_DONE:
            p = pos.to_move
            # A settled place (every other sled finished or out) is no lesson: every play
            # ends in the same place, so the teacher's choice there is a tie-break, or with
            # a horizon its value's whim (31% of the 5 December collection, search.py).
            search = (
                cfg.bots[p] == BOT_SEARCH and pos.phase == PH_PLAY and not place_settled(pos, p)
            )
            if search and d < len(m):
                saved[d] = pos
            choose(pos, cfg, tables, wk, pool, swks, True)
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
                    plays[d, col] = play[col]
                m[d] = wk.n_top
                chosen[d] = pick
                race[d] = r
                d += 1
            apply(pos, cfg, wk)
    return d


def collect(
    track: str,
    players: int,
    races: int,
    teacher: str,
    seed: int = SEED,
    game: str = "snowtails",
    cell_key: int | None = None,
) -> dict[str, np.ndarray]:
    """The teacher's decisions in ``races`` races of ``game`` on ``track`` with ``players``
    sleds, on the keys ``race_keys(seed, cell_key, ...)`` (``cell_key`` default: the
    sleds): ``x`` features, ``m`` candidates, ``chosen``, ``race``, ``positions`` (as
    bytes) and ``plays``. ``SimkitError`` on a held-out ground."""
    from simkit.games import get
    from simkit.games.cells import build_cell
    from simkit.games.snowtails.batch import cell_slots, unit_tracks
    from simkit.rng import race_keys

    cell = build_cell(game, track=track, players=players, bots=teacher)
    get(game).check_fit(cell, "distil_fit collect")
    cfga, reach = cell_inputs(unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell))
    keys = race_keys(seed, players if cell_key is None else cell_key, np.arange(races))
    cap = CHUNK * players * ROUNDS_CAP
    x = np.zeros((cap, K, N_FEATURES), dtype=np.float32)
    m = np.zeros(cap, np.int64)
    chosen = np.zeros(cap, np.int64)
    race = np.zeros(cap, np.int64)
    saved = np.zeros(cap, dtype=POSITION)
    plays = np.zeros((cap, PLAY_W), np.int64)
    positions = np.zeros(3, dtype=POSITION)
    works = np.zeros(2, dtype=WORK)
    parts: dict[str, list[np.ndarray]] = {
        k: [] for k in ("x", "m", "chosen", "race", "pos", "plays")
    }
    for lo in range(0, races, CHUNK):
        part = keys[lo : lo + CHUNK]
        d = _collect(cfga, reach, part, positions, works, x, m, chosen, race, saved, plays)
        parts["x"].append(x[:d].copy())
        parts["m"].append(m[:d].copy())
        parts["chosen"].append(chosen[:d].copy())
        parts["race"].append(race[:d] + lo)
        parts["pos"].append(saved[:d].view(np.uint8).reshape(d, -1).copy())
        parts["plays"].append(plays[:d].copy())
    return {k: np.concatenate(v) for k, v in parts.items()}


def _ground_work(teacher: str, races: int, seed: int, g, k: int) -> dict[str, np.ndarray]:
    """``collect`` on ground ``g`` (the ``k``-th of a collection: its cell key)."""
    return collect(g.track, g.players, races, teacher, seed=seed, game=g.game, cell_key=k + 1)


@njit(cache=True, no_cfunc_wrapper=True)
def _refeature(cfga, reach, saved, plays, works, scratch, x, m, chosen):
    """``candidate_features`` of every candidate of the positions ``saved`` (greedy's best
    by the prior of the seat to move, as ``distil.seat_candidates``) into ``x`` and ``m``,
    and which of them is ``plays[d]`` into ``chosen`` (-1: none)."""
    cfg = cfga[0]
    wk = works[0]
    rwk = works[1]
    rwk.tracing = 0
    rwk.heat_on = 0
    wk.tracing = 0
    wk.heat_on = 0
    f = np.zeros(N_FEATURES)
    for d in range(len(saved)):
        pos = saved[d]
        p = pos.to_move
        top_plays(cfg, reach, pos, wk, p, p, np.int64(K))
        m[d] = wk.n_top
        chosen[d] = -1
        for c in range(wk.n_top):
            candidate_features(cfg, pos, wk, p, c, scratch, 0, rwk, f)
            for i in range(N_FEATURES):
                x[d, c, i] = f[i]
            same = True
            for col in range(PLAY_W):
                if wk.top[c, col] != plays[d, col]:
                    same = False
            if same and chosen[d] < 0:
                chosen[d] = c


def refeature(path: str | Path, teacher: str) -> dict[str, np.ndarray]:
    """The decisions of a ``grounds`` file with today's features: ``x``, ``m``, ``chosen``
    and ``race``, from its positions and plays (the teacher is not played again; it names
    the seats' prior, which picks the candidates)."""
    from simkit.games.snowtails.batch import cell_slots, unit_tracks
    from simkit.games.snowtails.grounds import ground_of

    data = np.load(path)
    g = ground_of(data)
    cell = g.cell(teacher)
    cfga, reach = cell_inputs(unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell))
    saved = kept_positions(data["pos"])
    n = len(saved)
    x = np.zeros((n, K, N_FEATURES), dtype=np.float32)
    m = np.zeros(n, np.int64)
    chosen = np.zeros(n, np.int64)
    works = np.zeros(2, dtype=WORK)
    scratch = np.zeros(1, dtype=POSITION)
    _refeature(cfga, reach, saved, data["plays"], works, scratch, x, m, chosen)
    return {"x": x, "m": m, "chosen": chosen, "race": data["race"]}


def agreement(paths: list[str], per: int, bot: str) -> tuple[int, int, float]:
    """(agreeing, decisions, CPU seconds): how often ``bot``, deciding from each saved
    position, plays the teacher's play, on ``per`` live decisions a ground file (drawn with
    seed 0, so every bot meets the same ones)."""
    import time

    from simkit.games.snowtails import kernels
    from simkit.games.snowtails.batch import cell_slots, unit_tracks
    from simkit.games.snowtails.grounds import files, ground_of

    rng = np.random.default_rng(0)
    positions = np.zeros(1, dtype=POSITION)
    works = np.zeros(1, dtype=WORK)
    same = total = 0
    start = time.process_time()
    for path in files(paths):
        data = np.load(path)
        saved = kept_positions(data["pos"])
        idx = np.flatnonzero(live(saved))
        pick = np.sort(rng.choice(idx, min(per, len(idx)), replace=False))
        cell = ground_of(data).cell(bot)
        cfga, reach = cell_inputs(unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell))
        for d in pick:
            positions[0] = saved[d]
            kernels.choose(positions, cfga, reach, works)
            same += bool((works[0]["play"] == data["plays"][d]).all())
            total += 1
    return same, total, time.process_time() - start


def _probs(x, valid, beta):
    z = x @ beta
    z = np.where(valid, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def _log_softmax(scores, valid):
    """Each decision's log probabilities of its candidates (``valid``) from their scores."""
    z = np.where(valid, scores, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def _loglik(xs, valid, chosen, beta):
    lp = _log_softmax(xs @ beta, valid)
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


@dataclass(frozen=True)
class Mlp:
    """A small nonlinear scorer of candidates (:func:`fit_mlp`): a candidate's score is
    ``w2 . tanh(((f - mu) / sd) @ w1 + b1)``, in logits like the linear policy's."""

    w1: np.ndarray  # (features, hidden)
    b1: np.ndarray  # (hidden,)
    w2: np.ndarray  # (hidden,)
    mu: np.ndarray  # (features,)
    sd: np.ndarray  # (features,)

    def scores(self, x: np.ndarray) -> np.ndarray:
        """Each candidate's score, ``x`` (decisions, candidates, features)."""
        return np.tanh(((x - self.mu) / self.sd) @ self.w1 + self.b1) @ self.w2


def fit_mlp(x, m, chosen, hidden: int = 32, iters: int = 600, ridge: float = 1e-4) -> Mlp:
    """A conditional logit whose score is one hidden layer of ``hidden`` tanh units over the
    standardised features (:class:`Mlp`), fitted by scipy's L-BFGS on the mean log loss plus
    ``ridge`` times the squared weights, from small random weights (seed 0). What a linear
    score cannot say, a candidate's features in combination, it can."""
    from scipy.optimize import minimize

    valid = np.arange(x.shape[1])[None, :] < m[:, None]
    mu = x[valid].mean(axis=0)
    sd = x[valid].std(axis=0)
    sd[sd < 1e-9] = 1.0
    z = np.where(valid[..., None], (x - mu) / sd, 0.0)
    n, f = len(chosen), z.shape[2]
    rows = np.arange(n)

    def split(th):
        return th[: f * hidden].reshape(f, hidden), th[f * hidden : -hidden], th[-hidden:]

    def objective(th):
        w1, b1, w2 = split(th)
        h = np.tanh(z @ w1 + b1)
        lp = _log_softmax(h @ w2, valid)
        loss = -lp[rows, chosen].mean()
        g = np.exp(lp)
        g[rows, chosen] -= 1.0
        g /= n  # the mean log loss's gradient in each score
        gh = g[..., None] * w2 * (1.0 - h**2)
        grad = np.concatenate(
            [
                np.einsum("nkf,nkh->fh", z, gh).ravel(),
                gh.sum(axis=(0, 1)),
                np.einsum("nk,nkh->h", g, h),
            ]
        )
        return loss + ridge * float(th @ th), grad + 2.0 * ridge * th

    th = np.random.default_rng(0).normal(0.0, 0.1, f * hidden + 2 * hidden)
    th = minimize(objective, th, jac=True, method="L-BFGS-B", options={"maxiter": iters}).x
    w1, b1, w2 = split(th)
    return Mlp(w1, b1, w2, mu, sd)


def mlp_toml(mlp: Mlp, name: str) -> str:
    """``[policy.NAME.mlp]`` for a game's ``bots.toml``: the layer with its features'
    standardising folded into the weights (``distil.policy_score`` reads raw features)."""
    w1 = mlp.w1 / mlp.sd[:, None]
    b1 = mlp.b1 - mlp.mu @ w1

    def row(v) -> str:
        return "[" + ", ".join(f"{float(a):.9g}" for a in v) + "]"

    rows = ",\n".join(f"  {row(u)}" for u in w1.T)
    return (
        f"[policy.{name}.mlp]\nunits = {len(b1)}\nw1 = [\n{rows},\n]\n"
        f"b1 = {row(b1)}\nw2 = {row(mlp.w2)}\n"
    )


def mlp_scores(x, m, chosen, mlp: Mlp) -> tuple[float, float]:
    """(accuracy, log loss) of ``mlp`` on these decisions, as :func:`scores`."""
    valid = np.arange(x.shape[1])[None, :] < m[:, None]
    lp = _log_softmax(mlp.scores(x), valid)
    rows = np.arange(len(chosen))
    return float(np.mean(np.argmax(lp, axis=1) == chosen)), float(-lp[rows, chosen].mean())


def scores(x, m, chosen, beta):
    """(accuracy, log loss) of the coefficients ``beta`` on these decisions."""
    valid = np.arange(x.shape[1])[None, :] < m[:, None]
    pick = np.argmax(np.where(valid, x @ beta, -np.inf), axis=1)
    return float(np.mean(pick == chosen)), -_loglik(x, valid, chosen, beta)


def live(saved: np.ndarray) -> np.ndarray:
    """Per kept position (``records.kept_positions``): whether the seat to move still had a
    place to play for, i.e. not ``search.place_settled`` (another sled still racing)."""
    status = saved["status"]
    seats = np.arange(status.shape[1])[None, :]
    p = saved["to_move"][:, None]
    other = (seats < saved["n_seats"][:, None]) & (seats != p)
    racing = (status != FINISHED) & (status != OUT)
    return (other & racing).any(axis=1) | (np.take_along_axis(status, p, axis=1)[:, 0] == OUT)


def load(paths: list[str], teacher: str | None = None):
    """(x, m, chosen, race) of every decision of the files or folders ``paths``; with
    ``teacher``, features computed again from the positions (``refeature``). Race indices
    are made distinct between files. Decisions on a settled place (:func:`live`), which
    collections before 5 December kept, are left out wherever the file has positions."""
    xs, ms, cs, rs = [], [], [], []
    from simkit.games.snowtails.grounds import files

    for path in files(paths):
        data = np.load(path)
        if teacher is not None and "pos" in data:
            parts = [refeature(path, teacher)]
        elif "x" in data:
            parts = [{k: data[k] for k in ("x", "m", "chosen", "race")}]
        else:  # the first collections: one array per (track, sleds), x0, m0, c0, r0, ...
            parts = []
            i = 0
            while f"x{i}" in data:
                parts.append(
                    {
                        "x": data[f"x{i}"],
                        "m": data[f"m{i}"],
                        "chosen": data[f"c{i}"],
                        "race": data[f"r{i}"],
                    }
                )
                i += 1
        if "pos" in data:  # a grounds file: one part, and the positions to tell live ones
            keep = live(kept_positions(data["pos"]))
            parts = [{k: v[keep] for k, v in parts[0].items()}]
        for part in parts:
            width = part["x"].shape[2]
            x = np.zeros((len(part["m"]), K, N_FEATURES))
            x[:, :, :width] = part["x"]
            xs.append(x)
            ms.append(part["m"])
            cs.append(part["chosen"])
            rs.append(part["race"] + 2 * (1 << 20) * len(rs))  # distinct, parity kept
    return np.concatenate(xs), np.concatenate(ms), np.concatenate(cs), np.concatenate(rs)


def report(x, m, c, r) -> np.ndarray:
    """Fit on the even races, print the odd ones' accuracy and log loss, refit on all and
    print the coefficients; returns them."""
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
    return beta


def main(argv: list[str]) -> int:
    threads = 1
    if "--threads" in argv:
        i = argv.index("--threads")
        threads = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2 :]
    if argv[0] == "collect":
        teacher, races, out = argv[1], int(argv[2]), argv[3]
        grounds = GROUNDS
        if len(argv) > 4:
            grounds = tuple(
                (t, int(n)) for t, _, n in (g.partition("@") for g in argv[4].split(","))
            )
        parts = {}
        for i, (track, players) in enumerate(grounds):
            got = collect(track, players, races, teacher)
            print(f"  {track:11s} {players} sleds: {len(got['m']):,} decisions", flush=True)
            for short, key in (("x", "x"), ("m", "m"), ("c", "chosen"), ("r", "race")):
                parts[f"{short}{i}"] = got[key]
        np.savez_compressed(out, teacher=teacher, races=races, **parts)
        return 0
    if argv[0] == "grounds":
        from simkit.games.snowtails.grounds import collect_into, fit_grounds

        preset, teacher, n, races, out = argv[1], argv[2], int(argv[3]), int(argv[4]), argv[5]
        seed = int(argv[6]) if len(argv) > 6 else SEED
        work = functools.partial(_ground_work, teacher, races, seed)
        collect_into(out, fit_grounds(preset, n, seed), work, threads)
        return 0
    if argv[0] == "mlp":
        x, m, c, r = load([argv[1]])
        hidden = int(argv[2]) if len(argv) > 2 else 32
        iters = int(argv[3]) if len(argv) > 3 else 600
        keep = c >= 0
        x, m, c, r = x[keep], m[keep], c[keep], r[keep]
        train = r % 2 == 0
        beta = fit(x[train], m[train], c[train])
        acc, loss = scores(x[~train], m[~train], c[~train], beta)
        print(f"{len(m):,} decisions; held out: linear accuracy {acc:.3f}, log loss {loss:.4f}")
        mlp = fit_mlp(x[train], m[train], c[train], hidden, iters)
        acc, loss = mlp_scores(x[~train], m[~train], c[~train], mlp)
        print(f"  {hidden} tanh units: accuracy {acc:.3f}, log loss {loss:.4f}", flush=True)
        if len(argv) > 4:
            np.savez(argv[4], **dataclasses.asdict(mlp))
        print(mlp_toml(mlp, "NAME"))
        return 0
    if argv[0] == "agree":
        from simkit.stats import wilson_interval

        path, per = argv[1], int(argv[2])
        for bot in argv[3:]:
            k, n, cpu = agreement([path], per, bot)
            lo, hi = wilson_interval(k, n)
            print(
                f"{bot:40s} agrees {k / n:.1%} [{100 * lo:.1f}, {100 * hi:.1f}]"
                f" of {n:,} decisions ({cpu:.1f} s CPU)",
                flush=True,
            )
        return 0
    report(*load(argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
