"""Where a slot gains or loses against the field (issue 35, docs/diagnosis.md "Breakdown").

A verdict says slot 4 wins 11% of 4-sled races; a designer asks where it loses them. On a
track (the Snow Tails family) the run's races are replayed with the trace on
(``Game.seat_events``: the same races, the same results as the tables) and every turn spent,
place gained, crash, overspeed dent, blocked move, tie-break and bonus is put where it
happened: a corner, a straight, the start row or the run-off, and a round. Turns spent per
place are a sector time: a slot that spends more turns than the field in a corner loses
time there. Per start slot and place the
mean per race is set against the field's (every seat's mean, so a slot that crashes no more
than anyone else there stands at 0), with a Student-t interval of the per-race difference.
Every count adds up: a kind named like a seat column sums to that column over the replayed
races, and a slot's places sum to its start rank minus its finish position
(:func:`totals`, which a test checks against the run's own tables).

Every game, on a track or not, gets the per-round view from the tables themselves: each
slot's mean race position at the end of every round against the middle of the field, and
each seat column's slot mean against the field's (:func:`by_column`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.stats import mean_interval
from simkit.errors import SimkitError

KINDS = (
    "turns",
    "places",
    "collisions_wall",
    "collisions_sled",
    "overspeed_dents",
    "dents_taken",
    "blocked_moves",
    "tie_breaks_won",
    "tie_breaks_lost",
    "bonus_used",
)
WORDS = {
    "turns": "turns spent",
    "places": "places gained since the start",
    "collisions_wall": "wall crashes",
    "collisions_sled": "sled crashes",
    "overspeed_dents": "overspeed dents",
    "dents_taken": "dents",
    "blocked_moves": "moves blocked",
    "tie_breaks_won": "tie-breaks won",
    "tie_breaks_lost": "tie-breaks lost",
    "bonus_used": "bonuses taken",
}
START_ROW = "start row"


def replay(cell: Any, seed: int, cell_key: int, races: range) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The seat events and seat rows of races ``races`` of ``cell`` (a run's cell, with its
    run seed and cell key: the very races the run played)."""
    from simkit.games import get
    from simkit.rng import chunk_keys

    keys = chunk_keys(seed, cell_key, races.start, races.stop)
    return get(cell.game).seat_events(cell, keys, np.arange(races.start, races.stop))


def place_names(track: Any, spaces: np.ndarray, corners: np.ndarray | None = None) -> list[str]:
    """Where each space lies as a player finds it: ``corner 2``, ``straight after corner
    1``, ``start straight``, ``past the finish line``; ``start row`` for a sled not yet on the
    board. An overspeed dent belongs to the corner whose entry line it was for."""
    from simkit.tracks.compiled import F_CORNER, F_PAST_FINISH

    out = []
    spaces = np.asarray(spaces, dtype=np.int64)
    corners = np.full(len(spaces), -1) if corners is None else np.asarray(corners)
    for s, c in zip(spaces, corners, strict=True):
        if c >= 0:
            out.append(f"corner {int(c) + 1}")
        elif not 0 <= s < track.n_spaces:
            out.append(START_ROW)
        elif track.flags[s] & F_PAST_FINISH:
            out.append("past the finish line")
        elif track.flags[s] & F_CORNER:
            out.append(f"corner {int(track.corners_passed[s])}")
        else:
            k = int(track.corners_passed[s])
            out.append(f"straight after corner {k}" if k else "start straight")
    return out


def _order(track: Any) -> list[str]:
    """The places of a track in race order."""
    names = [START_ROW, "start straight"]
    for k in range(1, track.n_corners + 1):
        names += [f"corner {k}", f"straight after corner {k}"]
    return [*names, "past the finish line"]


def totals(events: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Per slot and kind that has a seat column: the events' sum and the column's, and the
    places against start rank minus finish. Every ``diff`` is 0 when the counts add up."""
    rows = []
    kinds = [k for k in KINDS if k in seats.columns]
    got = events.groupby(["slot", "kind"])["count"].sum()
    ranks = {s: k for k, s in enumerate(sorted(seats["slot"].unique()), start=1)}
    rank = seats["slot"].map(ranks)
    for slot, part in seats.groupby("slot"):
        for k in kinds:
            rows.append((slot, k, int(got.get((slot, k), 0)), int(part[k].sum())))
        want = int((rank[part.index] - part["finish"]).sum())
        rows.append((slot, "places", int(got.get((slot, "places"), 0)), want))
    out = pd.DataFrame(rows, columns=["slot", "kind", "events", "seat_total"])
    out["diff"] = out["events"] - out["seat_total"]
    return out


def by_place(events: pd.DataFrame, seats: pd.DataFrame, track: Any) -> pd.DataFrame:
    """Per start slot, place and kind: its mean per race, the field's (per seat) and the
    difference, with a 95% Student-t interval of the per-race difference.

    Returns:
        slot, place, kind, ``words``, ``slot_mean``, ``field_mean``, ``diff``, ``low``,
        ``high``, ``races``; places in race order.
    """
    cols = ["slot", "place", "kind", "words", "slot_mean", "field_mean", "diff", "low", "high"]
    if events.empty:
        return pd.DataFrame(columns=[*cols, "races"])
    ev = events.assign(place=place_names(track, events["space"], events["corner"]))
    races = np.sort(seats["race"].unique())
    players = int(seats.groupby("race").size().max())
    slots = sorted(seats["slot"].unique())
    per = ev.groupby(["race", "slot", "place", "kind"])["count"].sum()
    rows = []
    order = {p: i for i, p in enumerate(_order(track))}
    for (place, kind), part in per.groupby(level=["place", "kind"]):
        table = part.droplevel(["place", "kind"]).unstack("slot", fill_value=0)
        table = table.reindex(index=races, columns=slots, fill_value=0).astype(np.float64)
        field = table.sum(axis=1) / players  # per seat, race by race
        for slot in slots:
            d = table[slot] - field
            m, lo, hi, _ = mean_interval(len(d), d.sum(), (d * d).sum())
            rows.append(
                {
                    "slot": int(slot),
                    "place": place,
                    "kind": kind,
                    "words": WORDS.get(kind, kind),
                    "slot_mean": float(table[slot].mean()),
                    "field_mean": float(field.mean()),
                    "diff": float(m),
                    "low": float(lo),
                    "high": float(hi),
                    "races": len(races),
                }
            )
    out = pd.DataFrame(rows)
    out["_o"] = out["place"].map(order).fillna(len(order))
    out["_k"] = out["kind"].map({k: i for i, k in enumerate(KINDS)}).fillna(len(KINDS))
    return out.sort_values(["slot", "_o", "_k"]).drop(columns=["_o", "_k"]).reset_index(drop=True)


def by_round(events: pd.DataFrame, seats: pd.DataFrame, kind: str = "places") -> pd.DataFrame:
    """Per start slot and round: its mean per race of ``kind`` (places gained, by default)
    against the field's, with a 95% interval of the per-race difference."""
    ev = events[events["kind"] == kind]
    races = np.sort(seats["race"].unique())
    players = int(seats.groupby("race").size().max())
    slots = sorted(seats["slot"].unique())
    rows = []
    for rnd, part in ev.groupby("round"):
        table = part.groupby(["race", "slot"])["count"].sum().unstack("slot", fill_value=0)
        table = table.reindex(index=races, columns=slots, fill_value=0).astype(np.float64)
        field = table.sum(axis=1) / players
        for slot in slots:
            d = table[slot] - field
            m, lo, hi, _ = mean_interval(len(d), d.sum(), (d * d).sum())
            rows.append(
                (int(slot), int(rnd), float(table[slot].mean()), float(m), float(lo), float(hi))
            )
    cols = ["slot", "round", "slot_mean", "diff", "low", "high"]
    return pd.DataFrame(rows, columns=cols)


def by_column(results: Any, cell: int) -> pd.DataFrame:
    """Per start slot and seat column (any game): the slot's mean per race against the
    field's (every seat's), with a 95% interval of the per-race difference. Needs per-race
    rows."""
    races = getattr(results, "races", None)
    if races is None:
        raise SimkitError('a breakdown by column needs per-race rows (keep = "races")')
    part = races[races["cell"] == cell]
    skip = {"cell", "race", "seat", "bot", "slot", "win", "decided"}
    race_cols = set(results.agg["race_metric"]["metric"].unique())
    cols = [
        c
        for c in part.columns
        if c not in skip and c not in race_cols and pd.api.types.is_numeric_dtype(part[c])
    ]
    x = part[["race", "slot", *cols]].astype({c: np.float64 for c in cols})
    field = x.groupby("race")[cols].transform("mean")
    d = x[cols] - field
    d["slot"] = x["slot"]
    rows = []
    for slot, g in d.groupby("slot"):
        for c in cols:
            v = g[c]
            m, lo, hi, _ = mean_interval(len(v), v.sum(), (v * v).sum())
            mean = float(x.loc[g.index, c].mean())
            rows.append((int(slot), c, mean, float(m), float(lo), float(hi)))
    return pd.DataFrame(rows, columns=["slot", "column", "slot_mean", "diff", "low", "high"])


def other_end(by_slot: pd.DataFrame, slot: int) -> int:
    """The slot at the other end of one cell's win rates from ``slot``, its worst: the one
    most ahead of fair, or the one most behind where ``slot`` is most ahead. ``by_slot``:
    that cell's rows of :func:`simkit.analysis.fairness.fairness_by_slot`."""
    ahead = by_slot.sort_values("deviation", ascending=False)["slot"].tolist()
    return int(ahead[0] if ahead[0] != slot else ahead[-1])


def _word(kind: str, diff: float) -> str:
    return f"{abs(diff):.2f} {'more' if diff > 0 else 'fewer'} {WORDS.get(kind, kind)}"


def sentences(table: pd.DataFrame, slot: int, top: int = 3) -> list[str]:
    """Where ``slot`` spends the most turns more or fewer than the field (loses or gains
    time), each with what else happens to it there beyond chance: ``corner 1: 0.12 more
    turns spent [+0.08, +0.16] per race (0.42 more overspeed dents, 0.20 more wall
    crashes)``."""
    mine = table[table["slot"] == slot]
    turns = mine[mine["kind"] == "turns"]
    if turns.empty:
        return []
    out = []
    order = turns["diff"].abs().sort_values(ascending=False).index
    for r in turns.reindex(order).head(top).itertuples():
        here = mine[(mine["place"] == r.place) & ~mine["kind"].isin(["turns", "places"])]
        sure = here[(here["low"] > 0) | (here["high"] < 0)]
        sure = sure.reindex(sure["diff"].abs().sort_values(ascending=False).index).head(3)
        why = ", ".join(_word(k, d) for k, d in zip(sure["kind"], sure["diff"], strict=True))
        out.append(
            f"{r.place}: {_word('turns', r.diff)} [{r.low:+.2f}, {r.high:+.2f}] per race"
            + (f" ({why})" if why else "")
        )
    return out
