"""The skill axis of a run: which cells are one combination at which level, and what the
level check measured between its levels.

A study with a ``skill`` axis (docs/scenarios.md) plays every combination of its grid once
per skill level; :func:`combinations` puts the cells of one combination side by side. The
level check (:mod:`simkit.runner.levels`, read back as ``Results.levels`` and
``Results.level_pairs``) says per combination which of its players it separated and which
it found of equal strength (:func:`strength_between`), which adjacent levels it did not
find distinct (:func:`not_distinct`) and how the top level stands against the reference
(:func:`certified`). Nothing here tests a verdict: the tests across levels are in
:mod:`simkit.analysis.skill`, their labels and sentences in
:mod:`simkit.analysis.skill_labels`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

# What the level check says of two players in one setting (``strength`` of a test row).
SEPARATED, EQUAL, UNMEASURED = "separated", "equal", "unmeasured"
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


def with_combinations(frame: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    """``frame`` (rows with a ``cell``) with each cell's ``skill``, ``combination`` and the
    combination's ``label`` in place of the cell's."""
    combo = combinations(cells).set_index("cell")
    return frame.assign(
        skill=frame["cell"].map(combo["skill"]),
        combination=frame["cell"].map(combo["combination"]),
        label=frame["cell"].map(combo["label"]),
    )


def strength_between(
    levels: pd.DataFrame | None, pairs: pd.DataFrame | None, cells: pd.DataFrame
) -> dict[int, dict[frozenset, str]]:
    """Per combination, per pair of its bots: ``separated`` or ``equal`` as the level check
    measured them in that setting (:mod:`simkit.runner.levels`): from its pairs table
    (every pair of the setting), else from its per-cell table's comparison with the level
    below (a run checked before pairs were kept). A pair not in them is unmeasured."""
    combo = combinations(cells).set_index("cell")["combination"]
    out: dict[int, dict[frozenset, str]] = {}
    if pairs is not None and len(pairs):
        for r in pairs.itertuples():
            cell = max(r.lower_cell, r.upper_cell)  # the reference plays no cell (-1)
            where = out.setdefault(int(combo[cell]), {})
            where[frozenset((r.lower, r.upper))] = SEPARATED if r.separated else EQUAL
        return out
    if levels is not None and len(levels):
        for r in levels.itertuples():
            if isinstance(r.below, str) and r.below:
                v = SEPARATED if r.verdict in ("stronger", "weaker") else EQUAL
                out.setdefault(int(combo[r.cell]), {})[frozenset((r.below, str(r.skill)))] = v
    return out


def pooled_strength(
    strength: dict[int, dict[frozenset, str]], cells: pd.DataFrame, by: str = "players"
) -> dict[Any, dict[frozenset, str]]:
    """:func:`strength_between` for verdicts pooled over the combinations sharing ``by``
    (a report's per-players table): a pair is separated (or equal) where it is so in every
    combination pooled, else unmeasured."""
    combo = combinations(cells).assign(key=cells[by].to_numpy())
    out: dict[Any, dict[frozenset, str]] = {}
    for key, part in combo.groupby("key", sort=True):
        found: dict[frozenset, set[str]] = {}
        for c in part["combination"].unique():
            for pair, kind in strength.get(int(c), {}).items():
                found.setdefault(pair, set()).add(kind)
        out[key] = {p: k.pop() if len(k) == 1 else UNMEASURED for p, k in found.items()}
    return out


def fields_of(results: Any) -> dict[str, str]:
    """Bot -> the name of the field it plays in (``{field = [...]}`` levels of the run's
    scenario), for the bots of a field only."""
    skill = (getattr(results, "manifest", None) or {}).get("scenario", {}).get("skill", [])
    out = {}
    for entry in skill if isinstance(skill, list) else []:
        if isinstance(entry, dict) and "field" in entry:
            out.update((b, str(entry.get("name", "strong field"))) for b in entry["field"])
    return out


def not_distinct(levels: pd.DataFrame | None, cells: pd.DataFrame) -> dict:
    """Per combination, the adjacent level pairs the level check did not find distinct.

    ``levels`` is the run's level check (``Results.levels``); returns ``{combination:
    {(below, level): its sentence}}`` for the levels it flags (not shown stronger than the
    one below them in that setting), for :func:`sentence`'s ``distinct``.
    """
    if levels is None or levels.empty:
        return {}
    combo = combinations(cells).set_index("cell")["combination"]
    out: dict[int, dict[tuple[str, str], str]] = {}
    for r in levels[levels["flag"].astype(bool)].itertuples():
        if not isinstance(r.below, str) or not r.below:
            continue
        out.setdefault(int(combo[r.cell]), {})[(r.below, str(r.skill))] = str(r.sentence)
    return out


# Certificates of the top level, worst first (simkit.runner.levels: certified).
_CERT_ORDER = ("weaker", "not shown", "as strong", "reference")


def certified(levels: pd.DataFrame | None, cells: pd.DataFrame) -> pd.DataFrame:
    """Per combination: the top level's standing against the reference where it played.

    One row per combination that the level check certified: ``top_level`` (the worst of
    its top bots' certificates: weaker, not shown, as strong, reference), ``reference``,
    ``top_sentence`` (the certificates of the top bots not as strong, or else the one
    that is, in words) and ``top_bots`` (the top level's bots, comma-separated). Empty
    for a run without the check or without a reference.
    """
    cols = ["combination", "reference", "top_level", "top_sentence", "top_bots"]
    if levels is None or "certified" not in levels:
        return pd.DataFrame(columns=cols)
    top = levels[levels["certified"].astype(str) != ""]
    combo = combinations(cells).set_index("cell")["combination"]
    rows = []
    for c, part in top.groupby(top["cell"].map(combo), sort=True):
        rank = part["certified"].map(_CERT_ORDER.index)
        worst = part.loc[rank.idxmin()]
        said = part[rank < _CERT_ORDER.index("as strong")]["ref_sentence"].tolist()
        if not said:
            said = part[part["certified"] == "as strong"]["ref_sentence"].tolist()
        rows.append(
            {
                "combination": int(c),
                "reference": str(worst["reference"]),
                "top_level": str(worst["certified"]),
                "top_sentence": " ".join(said) or str(worst["ref_sentence"]),
                "top_bots": ", ".join(map(str, part["skill"])),
            }
        )
    return pd.DataFrame(rows, columns=cols)
