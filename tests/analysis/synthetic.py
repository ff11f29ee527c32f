"""Synthetic runs shaped like real ones (the run-directory contract), with planted effects.

The generator plays no game: it draws finish orders from a Plackett-Luce model whose
strength per start slot is the planted bias, and Snow-Tails-like counts around them.
Common random numbers are honoured: every random draw of race ``r`` comes from a
generator keyed by ``(seed, r)`` only, so cells with the same race index share them and
paired comparisons are correlated the way the engines' are.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.outcomes import decided as decided_races

try:
    from simkit.results import Results
except ImportError:  # the runner's module has not landed yet: same fields, tests only

    @dataclass
    class Results:  # type: ignore[no-redef]
        dir: Path
        manifest: dict
        cells: pd.DataFrame
        races: pd.DataFrame | None
        heat: pd.DataFrame
        agg: dict[str, pd.DataFrame]


SEAT_COLUMNS = [
    "slot",
    "finish",
    "points",
    "finished",
    "eliminated",
    "dents_taken",
    "collisions_sled",
    "collisions_wall",
    "overspeed_dents",
]
RACE_COLUMNS = ["rounds", "lead_changes", "leader_after_round1_won", "decided"]
# The runner's derived columns (simkit.runner.tables.decided) are seat metrics too.
DERIVED_SEAT = ["win", "decided"]
HEAT_KINDS = ("crash_wall", "crash_sled", "overspeed_dent")
N_SPACES = 60
MAX_SEATS = 8
POINTS = np.array([5, 3, 2, 1, 0, 0, 0, 0, 0], dtype=np.int16)


def _race_rows(cell: int, spec: dict, races: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    n = spec["players"]
    strength = np.asarray(spec.get("strength", np.zeros(n)), dtype=np.float64)
    # Every draw has the same shape whatever the cell, so race r of every cell sees the same
    # numbers (common random numbers); cells only use the first n seat columns.
    g = np.random.default_rng(seed)
    shape = (races, MAX_SEATS)
    slots = np.argsort(g.random(shape)[:, :n], axis=1) + 1
    noise = g.gumbel(size=shape)[:, :n]
    if "own_noise" in spec:  # (seed, weight): part of the luck this cell's own (other bots)
        own_seed, w = spec["own_noise"]
        # Keyed apart from the run's stream: default_rng(own_seed) equal to the run's seed
        # would redraw the very uniforms that placed the slots, and bias slot 1 (a 50%
        # slot then won 75%).
        own = np.random.default_rng([own_seed, 0x0DD]).gumbel(size=shape)[:, :n]
        noise = np.sqrt(1.0 - w) * noise + np.sqrt(w) * own
    dents = g.poisson(1.2, size=shape)[:, :n] + spec.get("extra_dents", 0)
    walls = g.poisson(0.6, size=shape)[:, :n]
    sleds = g.poisson(0.4, size=shape)[:, :n]
    over = np.minimum(dents, g.poisson(0.5, size=shape)[:, :n])
    length = 14 + np.rint(g.normal(0, 2, size=races)).astype(int) + spec.get("extra_rounds", 0)
    lead = g.poisson(2.0, size=races)
    leader1_won = g.random(races) < 0.45
    eliminated = dents >= 5
    score = noise + strength[slots - 1] - 100.0 * eliminated
    finish = np.empty((races, n), dtype=np.int8)
    np.put_along_axis(finish, np.argsort(-score, axis=1), np.arange(1, n + 1, dtype=np.int8), 1)
    decided, won = decided_races(finish, ~eliminated)
    hot = np.exp(-0.5 * ((np.arange(N_SPACES) - 40) / 3.0) ** 2) + 0.05
    heat = np.stack([g.multinomial(x.sum(), hot / hot.sum()) for x in (walls, sleds, over)])
    bots = np.asarray(spec.get("bots", ["greedy"] * n), dtype=object)
    per_race = np.repeat(np.arange(races), n)
    df = pd.DataFrame(
        {
            "cell": np.int32(cell),
            "race": per_race.astype(np.int64),
            "seat": np.tile(np.arange(n, dtype=np.int8), races),
            "bot": pd.Categorical(np.tile(bots, races)),
            "slot": slots.ravel().astype(np.int8),
            "finish": finish.ravel(),
            "points": POINTS[finish.ravel() - 1],
            "finished": ~eliminated.ravel(),
            "eliminated": eliminated.ravel(),
            "dents_taken": dents.ravel().astype(np.int16),
            "collisions_sled": sleds.ravel().astype(np.int16),
            "collisions_wall": walls.ravel().astype(np.int16),
            "overspeed_dents": over.ravel().astype(np.int16),
            "rounds": length[per_race].astype(np.int16),
            "lead_changes": lead[per_race].astype(np.int16),
            "leader_after_round1_won": leader1_won[per_race],
            "win": won.ravel(),
            "decided": decided[per_race],
        }
    )
    return df, heat


def aggregate(races: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The contract's aggregate tables computed from per-race rows (as the runner does)."""
    sf = races.groupby(["cell", "slot", "finish"]).size().rename("count").reset_index()
    seat = []
    for m in SEAT_COLUMNS[1:] + DERIVED_SEAT:
        x = races[m].astype(np.float64)
        g = x.groupby([races["cell"], races["slot"]])
        part = pd.DataFrame(
            {
                "n": g.size(),
                "sum": g.sum(),
                "sumsq": (x * x).groupby([races["cell"], races["slot"]]).sum(),
            }
        ).reset_index()
        part.insert(2, "metric", m)
        seat.append(part)
    one = races[races["seat"] == 0]
    rm, rh = [], []
    for m in RACE_COLUMNS:
        x = one[m].astype(np.float64)
        g = x.groupby(one["cell"])
        part = pd.DataFrame(
            {"n": g.size(), "sum": g.sum(), "sumsq": (x * x).groupby(one["cell"]).sum()}
        ).reset_index()
        part.insert(1, "metric", m)
        rm.append(part)
        h = one.groupby(["cell", m]).size().rename("count").reset_index()
        h = h.rename(columns={m: "value"})
        h.insert(1, "metric", m)
        h["value"] = h["value"].astype(np.int64)
        rh.append(h)
    return {
        "slot_finish": sf,
        "seat_metric": pd.concat(seat, ignore_index=True),
        "race_metric": pd.concat(rm, ignore_index=True),
        "race_hist": pd.concat(rh, ignore_index=True),
    }


def synthetic_run(
    cells: list[dict[str, Any]],
    *,
    races: int = 2000,
    seed: int = 7,
    keep: str = "races",
    directory: Path | str = "synthetic",
) -> Results:
    """A run of ``cells`` (dicts: players, label, strength per slot, bots, params; optional
    ``races`` and ``seed`` of its own, and ``own_noise`` = (seed, weight): that share of the
    luck drawn from the cell's own stream, as bots that play differently decorrelate races)."""
    cell_rows, race_frames, heat_rows = [], [], []
    for c, spec in enumerate(cells):
        n = spec["players"]
        df, heat = _race_rows(c, spec, spec.get("races", races), spec.get("seed", seed))
        race_frames.append(df)
        bots = spec.get("bots", ["greedy"] * n)
        cell_rows.append(
            {
                "cell": c,
                "game": "snowtails",
                "preset": "snowtails",
                "track": spec.get("track", "nutcracker"),
                "players": n,
                "bots": ",".join(bots),
                "slots": ",".join(str(s) for s in range(1, n + 1)),
                "cell_key": 0,
                "label": spec.get("label", f"players={n}"),
                **spec.get("params", {}),
            }
        )
        for k, kind in enumerate(HEAT_KINDS):
            for space in np.flatnonzero(heat[k]):
                heat_rows.append((c, kind, int(space), int(heat[k, space])))
    all_races = pd.concat(race_frames, ignore_index=True)
    all_races["bot"] = all_races["bot"].astype(str).astype("category")
    cells_df = pd.DataFrame(cell_rows).astype({"cell": "int32", "players": "int8"})
    cells_df["cell_key"] = cells_df["cell_key"].astype("uint64")
    heat_df = pd.DataFrame(heat_rows, columns=["cell", "kind", "space", "count"])
    heat_df = heat_df.astype({"cell": "int32", "kind": "category", "space": "int32"})
    manifest = {
        "simkit_version": "0.1.0",
        "scenario": {"game": "snowtails", "races": races},
        "scenario_path": "scenarios/synthetic.toml",
        "seed": seed,
        "crn": True,
        "chunk_size": races,
        "chunks_total": len(cells),
        "chunks_done": list(range(len(cells))),
        "races_per_cell": races,
        "keep": keep,
        "timings": {},
        "status": "complete",
    }
    return Results(
        dir=Path(directory),
        manifest=manifest,
        cells=cells_df,
        races=all_races if keep == "races" else None,
        heat=heat_df,
        agg=aggregate(all_races),
    )


def write_run_dir(results: Results, path: Path) -> Path:
    """Write ``results`` as a run directory in the contract's layout (one chunk per cell),
    with a manifest that lists every file and carries its checksum, as the runner's does."""
    from simkit.runner.manifest import file_entry, seal
    from simkit.runner.storage import parquet_rows

    path.mkdir(parents=True, exist_ok=True)
    results.cells.to_parquet(path / "cells.parquet", index=False)
    names = ["cells.parquet"]
    for sub in ("races", "heat", "agg"):
        (path / sub).mkdir(exist_ok=True)
    for c in results.cells["cell"]:
        name = f"part-{int(c):05d}-{0:06d}.parquet"
        if results.races is not None:
            results.races[results.races["cell"] == c].to_parquet(path / "races" / name)
            names.append(f"races/{name}")
        results.heat[results.heat["cell"] == c].to_parquet(path / "heat" / name)
        parts = []
        for table, df in results.agg.items():
            part = df[df["cell"] == c].copy()
            part.insert(0, "table", table)
            parts.append(part)
        pd.concat(parts, ignore_index=True).to_parquet(path / "agg" / name)
        names += [f"heat/{name}", f"agg/{name}"]
    m = results.manifest
    n = len(results.cells)
    settings = {"game": "snowtails", "seed": m["seed"], "crn": m["crn"],
                "chunk_size": m["chunk_size"], "keep": m["keep"], "heat": True}  # fmt: skip
    manifest = {
        **m,
        **settings,
        "scenario": {**m["scenario"], **settings},
        "chunks_done": [[int(c), 0] for c in results.cells["cell"]],
        "races_done": [m["races_per_cell"]] * n,
        "precision": None,
        "cells": [{"cell": int(c)} for c in results.cells["cell"]],
        "files": {
            name: file_entry((path / name).read_bytes(), parquet_rows((path / name).read_bytes()))
            for name in names
        },
    }
    (path / "manifest.json").write_bytes(seal(manifest))
    return path


def strength_for(results: Results, kind: str = "separated") -> dict[int, dict[frozenset, str]]:
    """What a level check would have said of every pair of levels of every combination: the
    same ``kind`` (``separated``, ``equal``) everywhere
    (simkit.analysis.skill_levels.strength_between's shape), for synthetic runs that play no
    check."""
    from simkit.analysis.skill_levels import combinations

    combos = combinations(results.cells)
    out: dict[int, dict[frozenset, str]] = {}
    for c, part in combos.groupby("combination"):
        skills = list(part["skill"])
        out[int(c)] = {
            frozenset((a, b)): kind for i, a in enumerate(skills) for b in skills[i + 1 :]
        }
    return out
