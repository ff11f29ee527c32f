"""Synthetic runs shaped like real ones (the run-directory contract), with planted effects.

The generator plays no game: it draws finish orders from a Plackett-Luce model whose
strength per start slot is the planted bias, and Snow-Tails-like counts around them.
Common random numbers are honoured: every random draw of race ``r`` comes from a
generator keyed by ``(seed, r)`` only, so cells with the same race index share them and
paired comparisons are correlated the way the engines' are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

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
RACE_COLUMNS = ["rounds", "lead_changes", "leader_after_round1_won"]
HEAT_KINDS = ("crash_wall", "crash_sled", "overspeed_dent")
N_SPACES = 60
POINTS = np.array([5, 3, 2, 1, 0, 0, 0, 0, 0], dtype=np.int16)


def _race_rows(cell: int, spec: dict, races: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    n = spec["players"]
    strength = np.asarray(spec.get("strength", np.zeros(n)), dtype=np.float64)
    rows: dict[str, list] = {k: [] for k in ["race", "seat", *SEAT_COLUMNS, *RACE_COLUMNS]}
    heat = np.zeros((len(HEAT_KINDS), N_SPACES), dtype=np.int64)
    hot = np.exp(-0.5 * ((np.arange(N_SPACES) - 40) / 3.0) ** 2) + 0.05
    hot /= hot.sum()
    for r in range(races):
        g = np.random.default_rng([seed, r])  # CRN: the same draws for every cell
        slots = g.permutation(n) + 1
        noise = g.gumbel(size=n)
        dents = g.poisson(1.2, size=n) + spec.get("extra_dents", 0)
        walls = g.poisson(0.6, size=n)
        sleds = g.poisson(0.4, size=n)
        over = g.binomial(dents, 0.4)
        length = 14 + round(g.normal(0, 2)) + spec.get("extra_rounds", 0)
        lead = int(g.poisson(2.0))
        eliminated = dents >= 5
        score = noise + strength[slots - 1] - 100.0 * eliminated
        order = np.argsort(-score, kind="stable")
        finish = np.empty(n, dtype=np.int8)
        finish[order] = np.arange(1, n + 1)
        leader1_won = int(g.random() < 0.45)
        for s in range(n):
            rows["race"].append(r)
            rows["seat"].append(s)
            rows["slot"].append(slots[s])
            rows["finish"].append(finish[s])
            rows["points"].append(POINTS[finish[s] - 1])
            rows["finished"].append(not eliminated[s])
            rows["eliminated"].append(bool(eliminated[s]))
            rows["dents_taken"].append(dents[s])
            rows["collisions_sled"].append(sleds[s])
            rows["collisions_wall"].append(walls[s])
            rows["overspeed_dents"].append(over[s])
            rows["rounds"].append(length)
            rows["lead_changes"].append(lead)
            rows["leader_after_round1_won"].append(leader1_won)
        for k, total in enumerate((walls.sum(), sleds.sum(), over.sum())):
            heat[k] += g.multinomial(total, hot)
    df = pd.DataFrame(rows)
    df.insert(0, "cell", np.int32(cell))
    bots = spec.get("bots", ["greedy"] * n)
    df.insert(4, "bot", pd.Categorical([bots[s] for s in df["seat"]]))
    dtypes = {
        "race": "int64",
        "seat": "int8",
        "slot": "int8",
        "finish": "int8",
        "points": "int16",
        "dents_taken": "int16",
        "collisions_sled": "int16",
        "collisions_wall": "int16",
        "overspeed_dents": "int16",
        "rounds": "int16",
        "lead_changes": "int16",
        "leader_after_round1_won": "bool",
    }
    return df.astype(dtypes), heat


def aggregate(races: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The contract's aggregate tables computed from per-race rows (as the runner does)."""
    sf = races.groupby(["cell", "slot", "finish"]).size().rename("count").reset_index()
    seat = []
    for m in SEAT_COLUMNS[1:]:
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
    """A run of ``cells`` (dicts: players, label, strength per slot, bots, params)."""
    cell_rows, race_frames, heat_rows = [], [], []
    for c, spec in enumerate(cells):
        n = spec["players"]
        df, heat = _race_rows(c, spec, races, seed)
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
    """Write ``results`` as a run directory in the contract's layout (one chunk per cell)."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "manifest.json").write_text(json.dumps(results.manifest))
    results.cells.to_parquet(path / "cells.parquet", index=False)
    for sub in ("races", "heat", "agg"):
        (path / sub).mkdir(exist_ok=True)
    for c in results.cells["cell"]:
        name = f"part-{int(c):05d}-{0:06d}.parquet"
        if results.races is not None:
            results.races[results.races["cell"] == c].to_parquet(path / "races" / name)
        results.heat[results.heat["cell"] == c].to_parquet(path / "heat" / name)
        parts = []
        for table, df in results.agg.items():
            part = df[df["cell"] == c].copy()
            part.insert(0, "table", table)
            parts.append(part)
        pd.concat(parts, ignore_index=True).to_parquet(path / "agg" / name)
    return path
