"""The answer a page shows after a round: A's and B's verdicts, slots, side effects, words.

Counts come from :func:`simkit.analysis.fairness.fairness_by_slot` and the verdict from
:func:`simkit.analysis.fairness.verdict`, the report's own; only the intervals differ: a
page looks after every round, so each slot's interval is a confidence sequence
(:mod:`simkit.serve.sequential`), valid at every look, at alpha shared by all the slots
of both cells. Side effects are :mod:`simkit.analysis.side_effects`' measures and
differences, paired on the common random numbers A and B share.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from simkit.analysis import side_effects
from simkit.analysis.fairness import FAIR, FEW_DECIDED, UNFAIR, fairness_by_slot, verdict
from simkit.serve.sequential import ALPHA, confidence_sequence, slot_alpha

DECIDED = (FAIR, UNFAIR, FEW_DECIDED)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def answer(results: Any, tolerance: float, alpha: float = ALPHA) -> dict[str, Any]:
    """Everything the page draws, as plain JSON-able values.

    Returns a dict with ``cells`` (per cell: ``label``, ``races``, ``decided``, ``verdict``
    and ``slots``, each slot's ``rate`` with its sequence interval ``low``/``high`` and the
    band ``band_low``/``band_high``), ``decided`` (every cell's verdict settled),
    ``side_effects`` (a line per cell), ``changes`` (B against A in words) and ``alpha``.
    """
    slots = fairness_by_slot(results)
    share = slot_alpha(len(slots), alpha)
    low, high = confidence_sequence(slots["wins"], slots["decided"], share)
    slots = slots.assign(cs_low=low, cs_high=high)
    measures = side_effects.cell_measures(results)
    cells = []
    for cell, part in slots.groupby("cell", sort=True):
        n = int(part["players"].iloc[0])
        races = int(part["races"].sum() // max(n, 1))
        decided = int(part["decided"].sum() // max(n, 1))
        fair = 1.0 / n
        v = verdict(
            part["cs_low"], part["cs_high"], part["fair_rate"], tolerance, decided / max(races, 1)
        )
        cells.append(
            {
                "cell": int(cell),
                "name": "A" if cell == 0 else "B",
                "label": str(part["label"].iloc[0]),
                "players": n,
                "races": races,
                "decided": decided,
                "verdict": v,
                "fair_rate": fair,
                "band_low": fair - tolerance,
                "band_high": fair + tolerance,
                "slots": [
                    {
                        "slot": int(r.slot),
                        "wins": int(r.wins),
                        "decided": int(r.decided),
                        "rate": float(r.win_rate) if r.decided else None,
                        "low": float(r.cs_low),
                        "high": float(r.cs_high),
                    }
                    for r in part.itertuples()
                ],
                "side_effects": side_effects.cell_text(measures, int(cell)),
            }
        )
    return {
        "alpha": alpha,
        "tolerance": tolerance,
        "cells": cells,
        "decided": all(c["verdict"] in DECIDED for c in cells),
        "changes": changes(results, cells) if len(cells) == 2 else [],
    }


def changes(results: Any, cells: list[dict[str, Any]]) -> list[str]:
    """What B changed, in words: the verdicts, the slots that moved most, the side effects
    beyond their tolerances."""
    a, b = cells
    out = [f"B plays {b['label']} where A plays {a['label']}."]
    if a["verdict"] == b["verdict"]:
        out.append(f"Both are {a['verdict']} (±{100 * _tol(a):g} pp).")
    else:
        out.append(f"A is {a['verdict']}; B is {b['verdict']} (±{100 * _tol(a):g} pp).")
    if a["players"] == b["players"]:
        moves = sorted(
            (
                (sb["rate"] - sa["rate"], sa, sb)
                for sa, sb in zip(a["slots"], b["slots"], strict=True)
                if sa["rate"] is not None and sb["rate"] is not None
            ),
            key=lambda m: -abs(m[0]),
        )
        if moves:
            out.append(
                "Slots that moved most: "
                + "; ".join(
                    f"slot {sa['slot']} {_pct(sa['rate'])} -> {_pct(sb['rate'])} "
                    f"({100 * d:+.1f} pp)"
                    for d, sa, sb in moves[:2]
                )
                + "."
            )
    diffs = side_effects.differences(results, [(0, 1)])
    out += side_effects.beyond_sentences(diffs, name_pairs=False)
    return out


def _tol(cell: dict[str, Any]) -> float:
    return float(np.round(cell["band_high"] - cell["fair_rate"], 6))


REPLAYS = 300  # races of each cell replayed for where slots lose (as simkit why --replays)


def where(results: Any, pictures: Path, replays: int = REPLAYS) -> list[dict[str, Any]]:
    """Where each cell's slots gain or lose, and its track with where sleds crash.

    simkit why's own pieces: per cell, the slot furthest from fair
    (:func:`simkit.analysis.ablation.worst_slot`) and the slot at the other end
    (:func:`simkit.analysis.diagnose.other_end`), each with the places where it spends the
    most turns more or fewer than the field (:func:`simkit.analysis.diagnose.sentences`
    over the first ``replays`` races replayed with their seat events,
    :func:`simkit.why.replayed_breakdown`); the picture is the report's
    (:func:`simkit.report.track.track_picture`), written into ``pictures``.

    Returns per cell: ``cell``, ``name`` (A or B), ``replays`` (races replayed, 0 for a game
    without seat events), ``slots`` (the two slots, each ``slot``, ``rate``, ``deviation``
    and ``lines``), ``picture`` (a file name in ``pictures``, or None), ``picture_note`` (what
    it counts, or why there is none) and ``marks`` (its ringed spaces in words).
    """
    from simkit.analysis import diagnose
    from simkit.analysis.ablation import worst_slot
    from simkit.analysis.track import heat_by_space
    from simkit.report.track import track_picture
    from simkit.why import replayed_breakdown

    cells = [int(c) for c in results.cells["cell"]]
    breakdown = replayed_breakdown(results, cells, replays)
    places = breakdown.get("places")
    played = int(breakdown["replays"]["races"].iloc[0]) if "replays" in breakdown else 0
    by_slot = fairness_by_slot(results)
    heat = heat_by_space(results)
    pictures.mkdir(parents=True, exist_ok=True)
    out = []
    for cell in cells:
        name = "A" if cell == 0 else "B"
        part = by_slot[by_slot["cell"] == cell].set_index("slot")
        _, worst, _ = worst_slot(results, [cell])
        slots = []
        for slot in (worst, diagnose.other_end(part.reset_index(), worst)):
            lines = []
            if places is not None and not places.empty:
                lines = diagnose.sentences(places[places["cell"] == cell], slot)
            slots.append(
                {
                    "slot": slot,
                    "rate": float(part.loc[slot, "win_rate"]),
                    "deviation": float(part.loc[slot, "deviation"]),
                    "lines": lines,
                }
            )
        png = f"track-{cell}.png"
        label = results.cells.loc[results.cells["cell"] == cell, "label"].iloc[0]
        drawn = track_picture(results, cell, heat, pictures / png, f"{name}: {label}")
        picture, note, marks = None, "no track or no per-space counts in this run", []
        if drawn is not None:
            why, what, ringed = drawn
            if why is None:
                picture, note = png, f"{what} per 1000 races on each space"
                marks = [
                    f"{r['mark']}: {r['where']} ({r['per_1000_races']:.1f} per 1000 races)"
                    for r in ringed
                ]
            else:
                note = why
        out.append(
            {
                "cell": cell,
                "name": name,
                "replays": played,
                "slots": slots,
                "picture": picture,
                "picture_note": note,
                "marks": marks,
            }
        )
    return out
