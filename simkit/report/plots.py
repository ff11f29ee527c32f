"""The report's pictures (matplotlib, Agg backend), each written as a PNG.

Labels come from users, so text is drawn with mathtext off: a ``$`` in a cell label is a
dollar sign, not a formula that fails to parse.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.errors import SimkitError

DPI = 110


def _save(draw: Callable, path: Path, size: tuple[float, float]) -> Path:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"text.parse_math": False, "font.size": 9}):
        fig = plt.figure(figsize=size, dpi=DPI)
        try:
            draw(fig)
            fig.tight_layout()
            fig.savefig(path, dpi=DPI)
        finally:
            plt.close(fig)
    return path


def slots(path: Path, by_slot: pd.DataFrame, counts: pd.DataFrame, tolerance: float, title: str):
    """Win rate by slot with Wilson error bars and the fairness band; finish heat map."""

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1]})
        s = by_slot
        fair = float(s["fair_rate"].iloc[0])
        x = s["slot"].to_numpy()
        ax1.axhspan(fair - tolerance, fair + tolerance, color="#c6f6d5", label="fair band")
        ax1.axhline(fair, color="#276749", lw=1)
        err = [s["win_rate"] - s["win_low"], s["win_high"] - s["win_rate"]]
        ax1.errorbar(
            x,
            s["win_rate"],
            yerr=err,
            fmt="o",
            color="#2b6cb0",
            capsize=4,
            label="win rate (95% Wilson)",
        )
        ax1.set_xticks(x)
        ax1.set_xlabel("start slot")
        ax1.set_ylabel("win rate")
        ax1.set_title("Win rate by start slot")
        ax1.legend(loc="best", fontsize=7)
        n = int(s["players"].iloc[0])
        table = counts[[f"finish_{k}" for k in range(1, n + 1)]].to_numpy(dtype=float)
        share = table / table.sum(axis=1, keepdims=True)
        im = ax2.imshow(share, cmap="Blues", vmin=0, aspect="auto")
        n_slot, n_fin = share.shape
        ax2.set_xticks(range(n_fin), [str(i + 1) for i in range(n_fin)])
        ax2.set_yticks(range(n_slot), [str(v) for v in counts["slot"]])
        ax2.set_xlabel("finish position")
        ax2.set_ylabel("start slot")
        ax2.set_title("Finish position by start slot")
        for i in range(n_slot):
            for j in range(n_fin):
                ax2.text(
                    j,
                    i,
                    f"{share[i, j]:.2f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if share[i, j] > 0.6 * share.max() else "black",
                )
        fig.colorbar(im, ax=ax2, fraction=0.046, label="share of the slot's races")
        fig.suptitle(title)

    return _save(draw, path, (9.0, 3.6))


def overview(path: Path, by_slot: pd.DataFrame, tolerance: float, title: str):
    """Every cell's slots at a glance: win rate minus fair rate, with 95% intervals.

    The view a sweep needs (e.g. over start-card compensation): the fairest setting is
    the cell whose dots all sit closest to zero, inside the shaded tolerance band.
    """
    cells = list(dict.fromkeys(by_slot["cell"]))
    slots = sorted(by_slot["slot"].unique())

    def draw(fig):
        ax = fig.subplots()
        ax.axhspan(-tolerance * 100, tolerance * 100, color="#c6f6d5", label="tolerance")
        ax.axhline(0, color="#276749", lw=1)
        width = 0.7 / max(len(slots), 1)
        for k, slot in enumerate(slots):
            s = by_slot[by_slot["slot"] == slot].set_index("cell").reindex(cells)
            x = np.arange(len(cells)) - 0.35 + width * (k + 0.5)
            dev = 100 * s["deviation"]
            err = [100 * (s["win_rate"] - s["win_low"]), 100 * (s["win_high"] - s["win_rate"])]
            ax.errorbar(x, dev, yerr=err, fmt="o", ms=3, capsize=2, label=f"slot {slot}")
        labels = by_slot.drop_duplicates("cell").set_index("cell").loc[cells, "label"]
        ax.set_xticks(range(len(cells)), [str(v) for v in labels], rotation=30, ha="right")
        ax.set_ylabel("win rate − 1/players (percentage points)")
        ax.set_title(title)
        ax.legend(fontsize=7, ncol=min(len(slots) + 1, 5))

    return _save(draw, path, (max(6.0, 1.0 + 0.9 * len(cells)), 4.2))


def race_length(path: Path, hist: pd.DataFrame, labels: dict, metric: str = "rounds"):
    """Race length distribution, one step line per cell (share of the cell's races)."""

    def draw(fig):
        ax = fig.subplots()
        for cell, part in hist.groupby("cell"):
            ax.step(part[metric], part["share"], where="mid", label=str(labels.get(cell, cell)))
        ax.set_xlabel(metric)
        ax.set_ylabel("share of races")
        ax.set_title(f"Race length ({metric})")
        if hist["cell"].nunique() <= 10:
            ax.legend(fontsize=7)

    return _save(draw, path, (7.0, 3.4))


def forest(path: Path, rows: pd.DataFrame, title: str):
    """Paired differences with 95% intervals: one panel per metric (units differ)."""
    metrics = list(dict.fromkeys(rows["metric"]))

    def draw(fig):
        sizes = [int((rows["metric"] == m).sum()) for m in metrics]
        axes = fig.subplots(len(metrics), 1, squeeze=False, height_ratios=sizes)[:, 0]
        for ax, metric in zip(axes, metrics, strict=True):
            part = rows[rows["metric"] == metric]
            names = [
                str(r.label) + ("" if pd.isna(r.slot) else f" · slot {int(r.slot)}")
                for r in part.itertuples()
            ]
            y = np.arange(len(part))[::-1]
            err = [part["diff"] - part["low"], part["high"] - part["diff"]]
            ax.errorbar(part["diff"], y, xerr=err, fmt="o", color="#2b6cb0", capsize=3)
            ax.axvline(0, color="black", lw=0.8)
            ax.set_yticks(y, names)
            ax.set_ylim(-0.7, len(part) - 0.3)
            ax.set_xlabel(f"difference in {metric} vs baseline (95% paired interval)")
        axes[0].set_title(title)

    return _save(draw, path, (8.0, 1.0 + 0.9 * len(metrics) + 0.28 * len(rows)))


def track_heat(path: Path, track: str, values: np.ndarray, title: str, what: str) -> str | None:
    """The track picture with per-space counts; returns why not when it cannot be drawn."""
    try:
        from simkit import tracks
    except ImportError:
        return "the track module is not available in this installation"
    try:
        compiled = tracks.load(track)
    except SimkitError as exc:  # a run may name a track file that has moved since
        return f"track '{track}' could not be loaded ({exc})"
    if not hasattr(tracks, "draw"):
        return "this installation cannot draw tracks"
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    full = np.zeros(compiled.n_spaces)
    full[: min(len(values), len(full))] = values[: len(full)]
    with matplotlib.rc_context({"text.parse_math": False}):
        try:
            fig = tracks.draw(compiled, values=full, title=title, value_label=what)
        except (ImportError, TypeError, ValueError) as exc:
            return f"the track picture could not be drawn ({exc})"
        try:
            fig.savefig(path, dpi=DPI, bbox_inches="tight")
        finally:
            plt.close(fig)
    return None


def rates(path: Path, rows: pd.DataFrame, title: str, xlabel: str = "win rate"):
    """Win rates with 95% intervals, one line per row (``name``), a fair mark if given.

    ``rows`` needs ``name``, ``win_rate``, ``win_low``, ``win_high`` and optionally
    ``fair_rate``: the view for "is each training / holding / bot worth its share?".
    """

    def draw(fig):
        ax = fig.subplots()
        y = np.arange(len(rows))[::-1]
        rate = rows["win_rate"].to_numpy(dtype=float)
        low, high = rows["win_low"].to_numpy(dtype=float), rows["win_high"].to_numpy(dtype=float)
        err = np.clip([rate - low, high - rate], 0.0, None)  # Wilson bounds may round past p
        ax.errorbar(rate, y, xerr=err, fmt="o", color="#2b6cb0", capsize=3)
        if "fair_rate" in rows:
            ax.scatter(rows["fair_rate"], y, marker="|", s=200, color="#276749", label="fair")
            ax.legend(fontsize=7)
        ax.set_yticks(y, [str(v) for v in rows["name"]])
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlabel(f"{xlabel} (95% Wilson interval)")
        ax.set_title(title)

    return _save(draw, path, (8.0, 1.2 + 0.3 * len(rows)))


def distribution(path: Path, hist: pd.DataFrame, labels: dict, metric: str, title: str):
    """Share of each value of ``metric``, one step line per cell."""

    def draw(fig):
        ax = fig.subplots()
        for cell, part in hist.groupby("cell"):
            ax.step(part[metric], part["share"], where="mid", label=str(labels.get(cell, cell)))
        ax.set_xlabel(metric)
        ax.set_ylabel("share")
        ax.set_title(title)
        if hist["cell"].nunique() <= 10:
            ax.legend(fontsize=7)

    return _save(draw, path, (7.0, 3.4))
