"""What else a rule does: race length, crashes, dents, eliminations, drama and lead change.

A change that makes the start fair may make races longer or rougher (issue 35: without the
balanced-sled bonus races run 1.4 to 1.6 rounds longer; the tuned S-Bends' median race went
from 9 to 11 rounds). Every answer (a verdict, a comparison, a sweep, a tuning) states these
beside fairness, with intervals, and puts first any that moves beyond its tolerance.

The measures and their tolerances are declared once, in :data:`MEASURES`
(docs/statistics.md "Side effects" lists them):

- race length: the median and the 90th percentile of rounds (the race histogram); a cell's
  interval is the distribution-free order-statistic interval of a quantile (binomial,
  scipy), a difference's the percentile bootstrap over races, paired on common random
  numbers by resampling the joint histogram of the two cells' race lengths;
- crashes, dents and eliminations per race (seat columns summed over a race's seats: wall
  and sled collisions, dents taken, sleds out), where the game has the columns; Student-t
  intervals, a difference paired (scipy's ``ttest_rel``) when the runs kept per-race rows
  and share random numbers, else Welch from the aggregates (a race's total bounded by the
  sum of its seats' spreads, as :func:`simkit.analysis.track.track_summary` does);
- drama and lead change per race (the round measures, docs/statistics.md "Drama"): their
  means over races, differences by Welch (the runs keep their sums, not each race's value).

A difference is **beyond** its tolerance when its whole 95% interval lies beyond it (the
minimum-effect reading of docs/statistics.md, "Across skill levels"), and it is then what
an answer's first screen names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from simkit.analysis.stats import mean_interval, moments, paired_test, t_interval, welch_test

RESAMPLES = 1_000  # bootstrap resamples of a quantile's difference


@dataclass(frozen=True)
class Measure:
    """One side effect: how it is read from a run, its unit and its tolerance."""

    name: str
    words: str  # how a sentence names it: "median race length"
    unit: str
    tolerance: float  # a change within it does not matter (docs/statistics.md)
    quantile: float | None = None  # of the race length in rounds
    columns: tuple[str, ...] = ()  # seat columns summed over a race's seats
    round_measure: str | None = None  # a per-race measure over the rounds (round_measure)


MEASURES: tuple[Measure, ...] = (
    Measure("rounds_median", "median race length", "rounds", 0.5, quantile=0.5),
    Measure("rounds_p90", "90th percentile of race length", "rounds", 1.0, quantile=0.9),
    Measure(
        "crashes",
        "crashes per race",
        "crashes",
        0.5,
        columns=("collisions_wall", "collisions_sled"),
    ),
    Measure("dents", "dents taken per race", "dents", 1.0, columns=("dents_taken",)),
    Measure("eliminations", "eliminations per race", "sleds", 0.05, columns=("eliminated",)),
    Measure("drama", "drama", "share", 0.05, round_measure="drama"),
    Measure("lead_change", "lead change", "share", 0.05, round_measure="lead_change"),
)
BY_NAME = {m.name: m for m in MEASURES}


def _available(results: Any) -> list[Measure]:
    """The measures the run can give: its game's columns, its round measures."""
    sm = results.agg.get("seat_metric")
    seat = set(sm["metric"].unique()) if sm is not None else set()
    rm = getattr(results, "round_measures", None)
    rounds = set(rm["metric"].unique()) if rm is not None and len(rm) else set()
    out = []
    for m in MEASURES:
        if m.columns and not set(m.columns) <= seat:
            continue
        if m.round_measure is not None and m.round_measure not in rounds:
            continue
        out.append(m)
    return out


# --- race length: quantiles of the race histogram -----------------------------------------


def _hist(results: Any, cell: int) -> tuple[np.ndarray, np.ndarray]:
    """(values, counts) of a cell's race length in rounds."""
    h = results.agg["race_hist"]
    h = h[(h["cell"] == cell) & (h["metric"] == "rounds")]
    h = h.groupby("value")["count"].sum().sort_index()
    return h.index.to_numpy(np.float64), h.to_numpy(np.float64)


def _quantile(values: np.ndarray, counts: np.ndarray, q: float) -> np.ndarray:
    """The smallest value whose cumulative share reaches ``q`` (the reports' percentiles),
    along the last axis of ``counts`` (any leading axes: resamples)."""
    cum = np.cumsum(counts, axis=-1)
    share = cum / cum[..., -1:]
    k = (share < q - 1e-12).sum(axis=-1)
    return values[np.minimum(k, len(values) - 1)]


def _order_interval(values: np.ndarray, counts: np.ndarray, q: float) -> tuple[float, float]:
    """The distribution-free 95% interval of a quantile: the order statistics whose ranks the
    binomial (n, q) puts around it (scipy.stats.binom; as ``scipy.stats.quantile_test``)."""
    n = int(counts.sum())
    if n < 2:
        return np.nan, np.nan
    lo_rank = int(sps.binom.ppf(0.025, n, q))  # 1-based order statistics l, u
    hi_rank = int(sps.binom.ppf(0.975, n, q)) + 1
    cum = np.cumsum(counts)
    lo = values[min(np.searchsorted(cum, max(lo_rank, 1)), len(values) - 1)]
    hi = values[min(np.searchsorted(cum, min(hi_rank, n)), len(values) - 1)]
    return float(lo), float(hi)


def _paired_quantiles(
    a: np.ndarray, b: np.ndarray, qs: Sequence[float], seed: int
) -> list[tuple[float, float, float]]:
    """Per quantile: b's minus a's, with a 95% percentile bootstrap over races, the same
    races drawn for both (a multinomial resample of the pairs' joint histogram)."""
    pairs, counts = np.unique(np.stack([a, b], axis=1), axis=0, return_counts=True)
    n = counts.sum()
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(n, counts / n, size=RESAMPLES).astype(np.float64)
    out = []
    for q in qs:
        diffs = []
        est = []
        for col, weights in ((0, counts), (1, counts)):
            vals, inverse = np.unique(pairs[:, col], return_inverse=True)
            onto = np.zeros((len(pairs), len(vals)))
            onto[np.arange(len(pairs)), inverse] = 1.0
            diffs.append(_quantile(vals, draws @ onto, q))
            est.append(float(_quantile(vals, weights.astype(np.float64) @ onto, q)))
        d = diffs[1] - diffs[0]
        out.append((est[1] - est[0], float(np.quantile(d, 0.025)), float(np.quantile(d, 0.975))))
    return out


def _unpaired_quantile(ha, hb, q: float, seed: int) -> tuple[float, float, float]:
    """b's quantile minus a's from two independent histograms, with a percentile bootstrap."""
    rng = np.random.default_rng(seed)
    boots = []
    for values, counts in (ha, hb):
        n = int(counts.sum())
        draws = rng.multinomial(n, counts / n, size=RESAMPLES).astype(np.float64)
        boots.append(_quantile(values, draws, q))
    d = boots[1] - boots[0]
    est = float(_quantile(hb[0], hb[1], q) - _quantile(ha[0], ha[1], q))
    return est, float(np.quantile(d, 0.025)), float(np.quantile(d, 0.975))


# --- sums over a race's seats --------------------------------------------------------------


def _per_race(results: Any, cell: int, columns: tuple[str, ...]) -> pd.Series | None:
    """The columns summed over each race's seats, by race index (None: no per-race rows)."""
    races = getattr(results, "races", None)
    if races is None:
        return None
    part = races[races["cell"] == cell]
    return part.groupby("race")[list(columns)].sum().sum(axis=1).astype(np.float64)


def _from_aggregates(results: Any, cell: int, columns: tuple[str, ...]) -> tuple[float, ...]:
    """(races, mean, sd) of the per-race total from the aggregates: the sd bounded by the sum
    of the seats' spreads (conservative, as the track summary bounds a per-sled mean)."""
    sm = results.agg["seat_metric"]
    part = sm[(sm["cell"] == cell) & sm["metric"].isin(columns)]
    players = float(results.cells.set_index("cell").at[cell, "players"])
    sf = results.agg["slot_finish"]
    races = float(sf.loc[sf["cell"] == cell, "count"].sum() / players)
    _, sd = moments(part["n"], part["sum"], part["sumsq"])
    mean = float(part["sum"].sum() / races) if races else np.nan
    return races, mean, float(np.nansum(sd))


def _round_measure(results: Any, cell: int, name: str) -> tuple[float, float, float]:
    """(races, mean, sd) of a per-race round measure."""
    rm = results.round_measures
    row = rm[(rm["cell"] == cell) & (rm["metric"] == name)][["n", "sum", "sumsq"]].sum()
    mean, sd = moments(row["n"], row["sum"], row["sumsq"])
    return float(row["n"]), float(mean), float(sd)


# --- one cell -------------------------------------------------------------------------------


def cell_measures(results: Any, cells: Sequence[int] | None = None) -> pd.DataFrame:
    """Every side effect of every cell with its 95% interval.

    Returns:
        One row per (cell, measure): ``label``, ``measure``, ``words``, ``unit``,
        ``value``, ``low``, ``high``, ``races``.
    """
    ids = list(results.cells["cell"] if cells is None else cells)
    labels = results.cells.set_index("cell")["label"]
    rows = []
    for m in _available(results):
        for cell in ids:
            if m.quantile is not None:
                values, counts = _hist(results, cell)
                if not len(counts):
                    continue
                v = float(_quantile(values, counts, m.quantile))
                lo, hi = _order_interval(values, counts, m.quantile)
                n = float(counts.sum())
            elif m.columns:
                x = _per_race(results, cell, m.columns)
                if x is not None:
                    n = float(len(x))
                    v, lo, hi, _ = (float(a) for a in mean_interval(n, x.sum(), (x * x).sum()))
                else:
                    n, v, sd = _from_aggregates(results, cell, m.columns)
                    lo, hi = (float(a) for a in t_interval(v, sd, n))
            else:
                n, v, sd = _round_measure(results, cell, m.round_measure)
                lo, hi = (float(a) for a in t_interval(v, sd, n))
            rows.append(
                {
                    "cell": cell,
                    "label": labels.get(cell, str(cell)),
                    "measure": m.name,
                    "words": m.words,
                    "unit": m.unit,
                    "value": v,
                    "low": lo,
                    "high": hi,
                    "races": int(n),
                }
            )
    cols = ["cell", "label", "measure", "words", "unit", "value", "low", "high", "races"]
    return pd.DataFrame(rows, columns=cols)


# --- differences ----------------------------------------------------------------------------


def _pairable(a: Any, b: Any) -> bool:
    """Race ``i`` of the two runs saw the same random numbers, and both kept per-race rows."""
    if getattr(a, "races", None) is None or getattr(b, "races", None) is None:
        return False
    if a is b:
        return bool(a.manifest.get("crn", True))
    from simkit.analysis.compare import pairable

    return pairable(a, b) is None


def _difference(
    m: Measure, a: Any, ca: int, b: Any, cb: int, paired: bool, seed: int
) -> tuple[float, float, float, float, float]:
    """(value at a, value at b, b - a, low, high) of one measure."""
    if m.quantile is not None:
        ha, hb = _hist(a, ca), _hist(b, cb)
        va, vb = (float(_quantile(h[0], h[1], m.quantile)) for h in (ha, hb))
        if paired:
            ra = a.races[a.races["cell"] == ca].groupby("race")["rounds"].first()
            rb = b.races[b.races["cell"] == cb].groupby("race")["rounds"].first()
            both = ra.index.intersection(rb.index)
            x, y = ra.loc[both].to_numpy(np.float64), rb.loc[both].to_numpy(np.float64)
            d, lo, hi = _paired_quantiles(x, y, [m.quantile], seed)[0]
        else:
            d, lo, hi = _unpaired_quantile(ha, hb, m.quantile, seed)
        return va, vb, d, lo, hi
    if m.columns and paired:
        xa, xb = _per_race(a, ca, m.columns), _per_race(b, cb, m.columns)
        both = xa.index.intersection(xb.index)
        t = paired_test(xa.loc[both].to_numpy(), xb.loc[both].to_numpy())
        return float(xa.mean()), float(xb.mean()), t.diff, t.low, t.high
    if m.columns:
        sa, sb = _from_aggregates(a, ca, m.columns), _from_aggregates(b, cb, m.columns)
    else:
        sa, sb = _round_measure(a, ca, m.round_measure), _round_measure(b, cb, m.round_measure)
    t = welch_test(sa[1], sa[2], sa[0], sb[1], sb[2], sb[0])
    return sa[1], sb[1], t.diff, t.low, t.high


def differences(
    a: Any, pairs: Sequence[tuple[int, int]], b: Any = None, seed: int = 0
) -> pd.DataFrame:
    """Each side effect of cell ``y`` minus cell ``x`` for every ``(x, y)`` in ``pairs``
    (``x`` a cell of run ``a``, ``y`` of run ``b``, by default the same run), paired where
    the runs allow it.

    Returns:
        One row per (pair, measure): ``baseline``, ``cell``, their labels, ``measure``,
        ``words``, ``unit``, ``baseline_value``, ``value``, ``diff``, ``low``, ``high``,
        ``tolerance``, ``beyond`` (the whole interval beyond the tolerance) and
        ``pairing``.
    """
    b = a if b is None else b
    paired = _pairable(a, b)
    la, lb = a.cells.set_index("cell")["label"], b.cells.set_index("cell")["label"]
    measures = [m for m in _available(a) if m in _available(b)]
    rows = []
    for x, y in pairs:
        if not len(_hist(a, x)[1]) or not len(_hist(b, y)[1]):
            continue  # a cell with no race yet (a run that is not complete)
        for m in measures:
            try:
                va, vb, d, lo, hi = _difference(m, a, x, b, y, paired, seed)
            except (KeyError, ValueError):
                continue
            rows.append(
                {
                    "baseline": x,
                    "cell": y,
                    "baseline_label": la.get(x, str(x)),
                    "label": lb.get(y, str(y)),
                    "measure": m.name,
                    "words": m.words,
                    "unit": m.unit,
                    "baseline_value": va,
                    "value": vb,
                    "diff": d,
                    "low": lo,
                    "high": hi,
                    "tolerance": m.tolerance,
                    "beyond": bool(lo > m.tolerance or hi < -m.tolerance),
                    "pairing": "paired" if paired and m.round_measure is None else "unpaired",
                }
            )
    return pd.DataFrame(rows)


# --- words ----------------------------------------------------------------------------------


def _num(x: float, unit: str) -> str:
    if unit == "rounds":
        return f"{x:g}"
    return f"{x:.2f}" if abs(x) < 10 else f"{x:.1f}"


def cell_text(table: pd.DataFrame, cell: int) -> str:
    """One cell's side effects in a few words: ``races 12 rounds [12, 12] (90%: 14), 2.4
    crashes, 19.1 dents, 0.01 eliminations per race; drama 0.27, lead change 0.23``."""
    t = table[table["cell"] == cell].set_index("measure")
    if t.empty:
        return ""
    parts = []
    if "rounds_median" in t.index:
        r = t.loc["rounds_median"]
        text = f"races {r['value']:g} rounds [{r['low']:g}, {r['high']:g}]"
        if "rounds_p90" in t.index:
            text += f" (90%: {_num(t.loc['rounds_p90', 'value'], 'rounds')})"
        parts.append(text)
    per = [
        f"{_num(t.loc[k, 'value'], '')} {w}"
        for k, w in (("crashes", "crashes"), ("dents", "dents"), ("eliminations", "eliminations"))
        if k in t.index
    ]
    if per:
        parts.append(", ".join(per) + " per race")
    flow = [
        f"{w} {t.loc[k, 'value']:.2f}"
        for k, w in (("drama", "drama"), ("lead_change", "lead change"))
        if k in t.index
    ]
    if flow:
        parts.append(", ".join(flow))
    return "; ".join(parts)


def change_text(r: Any) -> str:
    """A difference in words: ``median race length +2 rounds [+2, +2] (12 -> 14; beyond
    ±0.5)``."""
    unit = "" if r["unit"] == "share" else f" {r['unit']}"
    side = "beyond" if r["beyond"] else "within" if _within(r) else "not separated from"
    tol = f"{side} ±{r['tolerance']:g}"
    if r["unit"] == "rounds":
        return (
            f"{r['words']} {r['diff']:+g}{unit} [{r['low']:+g}, {r['high']:+g}] "
            f"(from {r['baseline_value']:g} to {r['value']:g}; {tol})"
        )
    return (
        f"{r['words']} {r['diff']:+.2f} [{r['low']:+.2f}, {r['high']:+.2f}] "
        f"(from {r['baseline_value']:.2f} to {r['value']:.2f}; {tol})"
    )


def _within(r: Any) -> bool:
    return bool(r["low"] >= -r["tolerance"] and r["high"] <= r["tolerance"])


def beyond_sentences(table: pd.DataFrame, name_pairs: bool = True) -> list[str]:
    """Per compared pair, the side effects beyond their tolerances, and how many are not."""
    lines = []
    if table.empty:
        return lines
    for (_, _), part in table.groupby(["baseline", "cell"], sort=False):
        big = part[part["beyond"]]
        first = part.iloc[0]
        head = f"{first['label']} vs {first['baseline_label']}: " if name_pairs else ""
        rest = len(part) - len(big)
        if big.empty:
            lines.append(
                f"{head}no side effect beyond its tolerance ({rest} measured: "
                + ", ".join(part["words"])
                + ")."
            )
            continue
        lines.append(
            head
            + "; ".join(change_text(r) for r in big.to_dict("records"))
            + (f"; {rest} more not beyond their tolerances." if rest else ".")
        )
    return lines
