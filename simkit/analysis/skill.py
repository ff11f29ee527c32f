"""Verdicts across skill levels: does a verdict hold whoever plays? (issue 13 item 5).

A study with a ``skill`` axis (docs/scenarios.md) plays every combination of its grid once
per skill level. Here the cells of one combination are put side by side and each verdict is
called **robust** when it is the same at every level of the study, **skill-dependent** when
it changes (GLOSSARY). A fairness verdict is compared as the report states it (fair, unfair,
inconclusive, no verdict); a difference between two variants counts as robust when it is
significant after the correction, in the same direction, at every level, and as
skill-dependent when it is significant at some levels and not, or the other way, at others.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

ROBUST = "robust"
DEPENDENT = "skill-dependent"
# Cells columns that are not the combination: its id, its random numbers, its name, its bots.
_NOT_COMBINATION = ("cell", "cell_key", "label", "bots", "skill")


def levels(cells: pd.DataFrame) -> list[str]:
    """The study's skill levels in the scenario's order; empty without a skill axis."""
    if "skill" not in cells:
        return []
    return list(dict.fromkeys(str(s) for s in cells["skill"] if isinstance(s, str)))


def combinations(cells: pd.DataFrame) -> pd.DataFrame:
    """Per cell: its ``skill`` level, its ``combination`` (0, 1, ... in cell order) and that
    combination's ``label``: the cell's label without the level (the preset if nothing else
    is swept)."""
    keys = [c for c in cells.columns if c not in _NOT_COMBINATION]
    ids = cells[keys].astype(str).apply(tuple, axis=1)
    order = {k: i for i, k in enumerate(dict.fromkeys(ids))}

    def bare(row: Any) -> str:
        label = str(row["label"])
        for suffix in (f", skill={row['skill']}", f"skill={row['skill']}"):
            if label.endswith(suffix):
                label = label[: -len(suffix)]
                break
        return label or str(row.get("preset", ""))

    return pd.DataFrame(
        {
            "cell": cells["cell"].to_numpy(),
            "skill": cells["skill"].to_numpy(),
            "combination": ids.map(order).to_numpy(),
            "label": cells.apply(bare, axis=1).to_numpy(),
        }
    )


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def sentence(by_level: dict[str, str]) -> str:
    """Whether one verdict, stated per level (``{level: verdict}``), is robust.

    ``robust: unfair at every skill level (greedy, search:64)`` or ``skill-dependent: unfair
    with greedy, fair with search:64`` (levels grouped by verdict, in the order they come).
    """
    groups: dict[str, list[str]] = {}
    for level, verdict in by_level.items():
        groups.setdefault(verdict, []).append(level)
    if len(groups) == 1:
        verdict = next(iter(groups))
        return f"{ROBUST}: {verdict} at every skill level ({', '.join(by_level)})"
    parts = [f"{v} with {_and(ls)}" for v, ls in groups.items()]
    return f"{DEPENDENT}: {', '.join(parts)}"


def fairness_across(summary: pd.DataFrame, cells: pd.DataFrame, short: dict) -> pd.DataFrame:
    """One row per combination: each level's fairness verdict and whether it is robust.

    Args:
        summary: :func:`simkit.analysis.fairness.fairness` by cell.
        cells: the run's cells table (with its ``skill`` column).
        short: verdict -> the word the report states (``fair``, ``unfair``, ...).

    Returns:
        ``combination``, ``label``, ``players``, one ``verdict <level>`` column per level,
        ``robust`` (bool) and ``across_skill``: the sentence of :func:`sentence`.
    """
    combos = combinations(cells).drop(columns="label").merge(summary, on="cell")
    labels = combinations(cells).groupby("combination")["label"].first()
    rows = []
    for combo, part in combos.groupby("combination", sort=True):
        by_level = {str(r.skill): short[r.verdict] for r in part.itertuples()}
        rows.append(
            {
                "combination": int(combo),
                "label": labels[combo],
                "players": int(part["players"].iloc[0]),
                **{f"verdict {k}": v for k, v in by_level.items()},
                "robust": len(set(by_level.values())) == 1,
                "across_skill": sentence(by_level),
            }
        )
    return pd.DataFrame(rows)


def comparisons_across(table: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    """Whether each difference of a comparison holds at every level (per-level comparisons).

    ``table`` holds :func:`simkit.analysis.compare.compare_cells` rows made within each level
    (baseline and cell of the same level). Rows are matched across levels by (baseline
    combination, combination, metric, slot). Returns one row per match: the labels, ``robust``
    (significant in the same direction at every level), ``skill_dependent`` (significant at
    some levels only, or in opposite directions), ``levels``, ``diff``, ``low``, ``high`` and
    ``significant`` as lists in level order, and the largest adjusted p-value.
    """
    combo = combinations(cells).set_index("cell")
    rank = {level: i for i, level in enumerate(levels(cells))}
    t = table.assign(
        skill=table["cell"].map(combo["skill"]),
        combination=table["cell"].map(combo["combination"]),
        base_combination=table["baseline"].map(combo["combination"]),
        combination_label=table["cell"].map(combo["label"]),
        base_label=table["baseline"].map(combo["label"]),
        slot_key=table["slot"].astype("Int64").astype(str),
    )
    rows = []
    keys = ["base_combination", "combination", "metric", "slot_key"]
    t = t.sort_values("skill", key=lambda s: s.map(rank), kind="stable")
    for _, part in t.groupby(keys, sort=False):
        sig = part["significant"].astype(bool)
        signs = set(part.loc[sig, "diff"].gt(0))
        robust = bool(sig.all()) and len(signs) == 1
        first = part.iloc[0]
        rows.append(
            {
                "baseline_label": first["base_label"],
                "label": first["combination_label"],
                "metric": first["metric"],
                "slot": first["slot"],
                "robust": robust,
                "skill_dependent": bool(sig.any()) and not robust,
                "levels": list(part["skill"]),
                "diff": list(part["diff"]),
                "low": list(part["low"]),
                "high": list(part["high"]),
                "significant": list(sig),
                "p_adjusted": float(part["p_adjusted"].max()),
            }
        )
    return pd.DataFrame(rows)
