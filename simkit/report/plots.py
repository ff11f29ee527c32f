"""The report's pictures of rates, differences and distributions (matplotlib, Agg
backend), each written as a PNG, and the frame every picture module shares.

:func:`save_figure` draws and writes a figure and :func:`legend_below` puts a legend under
the axes; here too: the start slots of a cell and the fairness overview of a sweep, win
rates, forest plots of differences, effects, skill-level pictures and distributions.
Pictures of a race round by round are :mod:`simkit.report.round_plots`', the track picture
:mod:`simkit.report.track_plots`'.

Labels come from users, so text is drawn with mathtext off: a ``$`` in a cell label is a
dollar sign, not a formula that fails to parse.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

DPI = 110
COLUMN_CELLS = 12  # a fairness overview of more cells draws one row per cell
MAX_CELL_PLOTS = 24  # per-cell pictures beyond this would drown the report; CSVs hold all


def save_figure(draw: Callable, path: Path, size: tuple[float, float]) -> Path:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"text.parse_math": False, "font.size": 9}):
        fig = plt.figure(figsize=size, dpi=DPI)
        try:
            draw(fig)
            fig.tight_layout()
            # "tight" keeps legends placed outside the axes (below or beside the data).
            fig.savefig(path, dpi=DPI, bbox_inches="tight")
        finally:
            plt.close(fig)
    return path


def legend_below(ax, ncol: int = 4) -> None:
    """A legend under the axes, where it covers no data."""
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=ncol, fontsize=7, frameon=False)


def slots(path: Path, by_slot: pd.DataFrame, counts: pd.DataFrame, tolerance: float, title: str):
    """Win rate by slot (%, Wilson 95%) inside the fair band; finish shares centred on fair.

    The heat map's colours diverge from the fair share (white): red cells happen more
    often than a fair game would make them, blue ones less, so a flat table looks white.
    Draws (``counts["draws"]``: a shared finish position) get a grey column of their own
    and no position, so each row adds up to 100% and the fair share of a position is
    1/n of the races that were not drawn.
    """
    import matplotlib
    from matplotlib.colors import TwoSlopeNorm

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1]})
        s = by_slot
        fair = 100 * float(s["fair_rate"].iloc[0])
        tol = 100 * tolerance
        x = s["slot"].to_numpy()
        rate = 100 * s["win_rate"].to_numpy(dtype=float)
        ax1.axhspan(fair - tol, fair + tol, color="#c6f6d5", label=f"fair {fair:.3g}% ± {tol:g} pp")
        ax1.axhline(fair, color="#276749", lw=1)
        err = np.clip([rate - 100 * s["win_low"], 100 * s["win_high"] - rate], 0, None)
        ax1.errorbar(
            x, rate, yerr=err, fmt="o", color="#2b6cb0", capsize=4, label="win rate, 95% interval"
        )
        ax1.set_xticks(x)
        ax1.set_xlabel("start slot")
        ax1.set_ylabel("win rate (% of decided races)")
        ax1.set_title("Win rate by start slot")
        legend_below(ax1, 2)
        n = int(s["players"].iloc[0])
        share, names, expected = finish_shares(counts, n)
        placed = np.ma.masked_array(share, mask=np.zeros_like(share, dtype=bool))
        placed.mask[:, n:] = True  # the draw column: grey, not coloured against a fair share
        spread = max(float(np.abs(share[:, :n] - expected).max()), 1.0)
        norm = TwoSlopeNorm(vcenter=expected, vmin=expected - spread, vmax=expected + spread)
        cmap = matplotlib.colormaps["RdBu_r"].with_extremes(bad="#e6e6e6")
        im = ax2.imshow(placed, cmap=cmap, norm=norm, aspect="auto")
        n_slot, n_fin = share.shape
        ax2.set_xticks(range(n_fin), names)
        ax2.set_yticks(range(n_slot), [str(v) for v in counts["slot"]])
        ax2.set_xlabel("finish position")
        ax2.set_ylabel("start slot")
        ax2.set_title("Finish position by start slot (all races)")
        for i in range(n_slot):
            for j in range(n_fin):
                strong = j < n and abs(share[i, j] - expected) > 0.6 * spread
                ax2.text(
                    j,
                    i,
                    f"{share[i, j]:.1f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if strong else "black",
                )
        fig.colorbar(
            im, ax=ax2, fraction=0.046, label=f"% of the slot's races (fair {expected:.3g}%)"
        )
        fig.suptitle(title)

    return save_figure(draw, path, (9.0, 4.0))


def finish_shares(counts: pd.DataFrame, n: int) -> tuple[np.ndarray, list[str], float]:
    """The finish heat map's numbers: % of each slot's races per position (and "draw").

    Returns the shares (one row per slot, columns positions 1..n, then a draw column when
    any race of the group was drawn), the column names and the fair share of a position:
    100/n of the races that were not drawn. Every row adds up to 100, a draw counted once.
    """
    cols = [f"finish_{k}" for k in range(1, n + 1)]
    draws = counts["draws"] if "draws" in counts else pd.Series(0, index=counts.index)
    names = [str(k) for k in range(1, n + 1)]
    if draws.any():
        cols, names = [*cols, "draws"], [*names, "draw"]
    table = counts.assign(draws=draws).reindex(columns=cols, fill_value=0).to_numpy(dtype=float)
    races = np.maximum(table.sum(axis=1, keepdims=True), 1)
    drawn = float(draws.sum()) / float(races.sum()) if races.sum() else 0.0
    return 100 * table / races, names, 100 * (1 - drawn) / n


def overview(path: Path, by_slot: pd.DataFrame, tolerance: float, title: str, best=None):
    """Every cell's slots at a glance: win rate minus fair rate (pp), with 95% intervals.

    The view a sweep needs (e.g. over start-card compensation): the fairest setting is
    the cell whose dots all sit closest to zero, inside the shaded tolerance band; ``best``
    (a cell id) is marked. Up to ``COLUMN_CELLS`` cells stand side by side; more (a
    sweep over every corner at two skill levels) get a row each, their labels wrapped
    and read across, so the picture grows in height instead of squeezing every cell.
    """
    cells = list(dict.fromkeys(by_slot["cell"]))
    slots = sorted(by_slot["slot"].unique())
    labels = by_slot.drop_duplicates("cell").set_index("cell").loc[cells, "label"]
    rows = len(cells) > COLUMN_CELLS
    names = [_wrapped(str(v)) if rows else str(v) for v in labels]
    # Each cell's place: side by side one apart, or in rows as tall as their labels.
    tall = np.array([max(n.count("\n") + 1, 2) / 2 for n in names]) if rows else np.ones(len(cells))
    place = np.cumsum(tall) - tall / 2 if rows else np.arange(len(cells))

    def draw(fig):
        ax = fig.subplots()
        tol = 100 * tolerance
        band, zero, mark = (
            (ax.axvspan, ax.axvline, ax.axhspan) if rows else (ax.axhspan, ax.axhline, ax.axvspan)
        )
        band(-tol, tol, color="#c6f6d5", label=f"tolerance ±{tol:g} pp")
        zero(0, color="#276749", lw=1)
        width = 0.7 / max(len(slots), 1)
        for k, slot in enumerate(slots):
            s = by_slot[by_slot["slot"] == slot].set_index("cell").reindex(cells)
            at = place - 0.35 + width * (k + 0.5)
            dev = 100 * s["deviation"]
            err = np.clip(
                [100 * (s["win_rate"] - s["win_low"]), 100 * (s["win_high"] - s["win_rate"])],
                0,
                None,
            )
            if rows:
                ax.errorbar(dev, at, xerr=err, fmt="o", ms=3, capsize=2, label=f"slot {slot}")
            else:
                ax.errorbar(at, dev, yerr=err, fmt="o", ms=3, capsize=2, label=f"slot {slot}")
        if best in cells:
            i = cells.index(best)
            half = tall[i] / 2 - 0.05
            mark(place[i] - half, place[i] + half, color="#fefcbf", zorder=0, label="fairest cell")
        if rows:
            ax.set_yticks(place, names, fontsize=7)
            ax.set_ylim(tall.sum(), 0)  # the first cell on top
            ax.set_xlabel("win rate − fair rate (pp)")
        else:
            ax.set_xticks(range(len(cells)), names, rotation=30, ha="right")
            ax.set_ylabel("win rate − fair rate (pp)")
        ax.set_title(title)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)

    if rows:
        return save_figure(draw, path, (9.0, 1.2 + 0.26 * tall.sum()))
    return save_figure(draw, path, (max(7.0, 2.0 + 0.9 * len(cells)), 4.4))


def _wrapped(label: str, width: int = 60) -> str:
    """A cell label on lines of about ``width`` characters, broken only between settings
    (a setting such as ``track.corner.1.safety=4`` holds no space)."""
    return "\n".join(textwrap.wrap(label, width, break_long_words=False, break_on_hyphens=False))


def race_length(path: Path, hist: pd.DataFrame, labels: dict, metric: str = "rounds"):
    """Race length distribution, one step line per cell (% of the cell's races); lengths
    are whole numbers, and so are the ticks (no "12.5 rounds")."""
    from matplotlib.ticker import MaxNLocator

    def draw(fig):
        ax = fig.subplots()
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        for cell, part in hist.groupby("cell"):
            ax.step(
                part[metric], 100 * part["share"], where="mid", label=str(labels.get(cell, cell))
            )
        ax.set_xlabel(metric)
        ax.set_ylabel("% of races")
        ax.set_title(f"Race length ({metric})")
        if hist["cell"].nunique() <= 10:
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)

    return save_figure(draw, path, (8.0, 3.4))


def forest(path: Path, rows: pd.DataFrame, title: str, tolerance: float | None = None):
    """Differences with 95% intervals, one panel per metric (units differ).

    Win rates are in percentage points with the tolerance drawn as dashed lines; filled
    dots are significant after the comparison's multiple-comparison correction.
    """
    metrics = list(dict.fromkeys(rows["metric"]))

    def draw(fig):
        sizes = [int((rows["metric"] == m).sum()) for m in metrics]
        axes = fig.subplots(len(metrics), 1, squeeze=False, height_ratios=sizes)[:, 0]
        for ax, metric in zip(axes, metrics, strict=True):
            part = rows[rows["metric"] == metric]
            scale = 100.0 if metric == "win" else 1.0
            names = [
                str(r.label) + ("" if pd.isna(r.slot) else f" · slot {int(r.slot)}")
                for r in part.itertuples()
            ]
            y = np.arange(len(part))[::-1]
            diff = scale * part["diff"].to_numpy(dtype=float)
            err = np.clip(
                [diff - scale * part["low"].to_numpy(float), scale * part["high"] - diff], 0, None
            )
            sig = part["significant"].to_numpy(dtype=bool) if "significant" in part else None
            for mask, face, label in (
                (sig, "#2b6cb0", "significant after correction"),
                (~sig if sig is not None else None, "white", "not significant"),
            ):
                if mask is None or not mask.any():
                    continue
                ax.errorbar(
                    diff[mask],
                    y[mask],
                    xerr=err[:, mask],
                    fmt="o",
                    color="#2b6cb0",
                    mfc=face,
                    capsize=3,
                    label=label,
                )
            ax.axvline(0, color="black", lw=0.8)
            if metric == "win" and tolerance is not None:
                for t in (-100 * tolerance, 100 * tolerance):
                    ax.axvline(t, color="#c53030", ls="--", lw=1)
                ax.plot(
                    [], [], color="#c53030", ls="--", label=f"tolerance ±{100 * tolerance:g} pp"
                )
            ax.set_yticks(y, names)
            ax.set_ylim(-0.7, len(part) - 0.3)
            unit = "win rate, pp" if metric == "win" else metric
            ax.set_xlabel(f"difference in {unit} (95% interval)")
        axes[0].set_title(title)
        handles = {}
        for ax in axes:
            for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
                handles.setdefault(label, h)
        fig.legend(
            handles.values(),
            handles.keys(),
            loc="upper center",
            bbox_to_anchor=(0.5, 0.0),
            ncol=3,
            fontsize=7,
            frameon=False,
        )

    return save_figure(draw, path, (8.0, 1.6 + 0.9 * len(metrics) + 0.28 * len(rows)))


def rates(
    path: Path,
    rows: pd.DataFrame,
    title: str,
    xlabel: str = "win rate",
    threshold: float | None = None,
):
    """Win rates with 95% intervals, one line per row (``name``), a fair mark if given.

    ``rows`` needs ``name``, ``win_rate``, ``win_low``, ``win_high`` and optionally
    ``fair_rate``: the view for "is each training / holding / bot worth its share?".
    ``threshold`` draws a dashed line at that rate.
    """

    def draw(fig):
        ax = fig.subplots()
        y = np.arange(len(rows))[::-1]
        rate = 100 * rows["win_rate"].to_numpy(dtype=float)
        low = 100 * rows["win_low"].to_numpy(dtype=float)
        high = 100 * rows["win_high"].to_numpy(dtype=float)
        err = np.clip([rate - low, high - rate], 0.0, None)  # Wilson bounds may round past p
        ax.errorbar(rate, y, xerr=err, fmt="o", color="#2b6cb0", capsize=3)
        if "fair_rate" in rows:
            ax.scatter(100 * rows["fair_rate"], y, marker="|", s=200, color="#276749", label="fair")
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        if threshold is not None:
            ax.axvline(100 * threshold, color="#c53030", ls="--", lw=1)
            ax.set_xlim(-2, 102)
        ax.set_yticks(y, [str(v) for v in rows["name"]])
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlabel(f"{xlabel}, % (95% Wilson interval)")
        ax.set_title(title)

    return save_figure(draw, path, (8.0, 1.2 + 0.3 * len(rows)))


def distribution(path: Path, hist: pd.DataFrame, labels: dict, metric: str, title: str):
    """Share of each value of ``metric``, one step line per cell."""

    def draw(fig):
        ax = fig.subplots()
        for cell, part in hist.groupby("cell"):
            ax.step(
                part[metric], 100 * part["share"], where="mid", label=str(labels.get(cell, cell))
            )
        ax.set_xlabel(metric)
        ax.set_ylabel("%")
        ax.set_title(title)
        if hist["cell"].nunique() <= 10:
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)

    return save_figure(draw, path, (7.0, 3.4))


def skill_deviation(
    path: Path, rows: pd.DataFrame, levels: list[str], tolerance: float, title: str
):
    """How far the worst slot is from fair (pp, 95% interval) at each skill level.

    ``rows``: one per cell with ``label`` (its combination), ``skill``, ``worst_slot``,
    ``max_deviation``, ``worst_low``, ``worst_high`` and ``fair_rate``. The distance is drawn
    unsigned, so a slot ahead and a slot behind by the same amount sit at the same height
    (with two players they are the same fact); each point names its slot and whether it is
    ahead or behind. One colour per combination, side by side at each level; below the
    dashed tolerance a slot is within the fair band.
    """

    def draw(fig):
        ax = fig.subplots()
        tol = 100 * tolerance
        ax.axhspan(0, tol, color="#c6f6d5", label=f"within ± {tol:g} pp of fair")
        ax.axhline(tol, color="#276749", lw=1, ls="--")
        combos = list(dict.fromkeys(rows["label"]))
        width = 0.6 / max(len(combos), 1)
        for i, (name, part) in enumerate(rows.groupby("label", sort=False)):
            shift = (i - (len(combos) - 1) / 2) * width
            x = np.array([levels.index(s) for s in part["skill"]]) + shift
            fair = part["fair_rate"].to_numpy(float)
            dev = 100 * part["max_deviation"].to_numpy(float)
            sign = np.where(dev < 0, -1.0, 1.0)
            low = 100 * (part["worst_low"].to_numpy(float) - fair) * sign
            high = 100 * (part["worst_high"].to_numpy(float) - fair) * sign
            low, high = np.minimum(low, high), np.maximum(low, high)
            dist = np.abs(dev)
            err = np.clip([dist - low, high - dist], 0.0, None)
            line = ax.errorbar(x, dist, yerr=err, fmt="o-", capsize=3, label=str(name)[:40])
            for xx, yy, slot, sg in zip(x, dist, part["worst_slot"], sign, strict=True):
                ax.annotate(
                    f"slot {slot} {'ahead' if sg > 0 else 'behind'}",
                    (xx, yy),
                    xytext=(5, 0),
                    textcoords="offset points",
                    fontsize=7,
                    color=line[0].get_color(),
                    va="center",
                )
        ax.set_xticks(range(len(levels)), levels)
        ax.set_xlim(-0.6, len(levels) - 0.4)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("skill level (the bot of every seat)")
        ax.set_ylabel("worst slot's distance from fair, pp")
        ax.set_title(title)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)

    return save_figure(draw, path, (8.0, 3.8))


def skill_curve(
    path: Path, rows: pd.DataFrame, tolerance: float, title: str, xlabel: str, rated: bool
):
    """Each slot's distance from fair (pp, Wilson 95%) against the levels' strength.

    ``rows``: one per (level, slot) of one combination with ``x`` (the level's strength, or
    its rank), ``level``, ``slot``, ``deviation``, ``low`` and ``high`` (win-rate interval
    minus the fair rate). One line per slot, so a reader sees how the answer moves as play
    improves; the band is the fair rate ± the tolerance.
    """

    def draw(fig):
        ax = fig.subplots()
        tol = 100 * tolerance
        ax.axhspan(-tol, tol, color="#c6f6d5", label=f"fair ± {tol:g} pp")
        ax.axhline(0, color="#276749", lw=0.8)
        for slot, part in rows.groupby("slot", sort=True):
            part = part.sort_values("x")
            y = 100 * part["deviation"].to_numpy(float)
            err = np.clip(
                [y - 100 * part["low"].to_numpy(float), 100 * part["high"].to_numpy(float) - y],
                0.0,
                None,
            )
            ax.errorbar(part["x"], y, yerr=err, fmt="o-", capsize=3, label=f"slot {slot}")
        levels = rows.drop_duplicates("level").sort_values("x")
        ticks = [
            f"{lv}\n{x:+.2f}" if rated else str(lv)
            for lv, x in zip(levels["level"], levels["x"], strict=True)
        ]
        ax.set_xticks(levels["x"].to_numpy(float), ticks)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("win rate minus fair, pp")
        ax.set_title(title)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)

    return save_figure(draw, path, (7.5, 3.8))


def effects(path: Path, rows: pd.DataFrame, title: str, xlabel: str, top: int = 30):
    """Estimates with 95% intervals as horizontal bars, one row per ``name`` (``diff``,
    ``low``, ``high``), largest first, a line at 0: what a cause or a place is worth."""
    rows = rows.head(top)

    def draw(fig):
        ax = fig.subplots()
        y = np.arange(len(rows))[::-1]
        d = rows["diff"].to_numpy(dtype=float)
        lo, hi = rows["low"].to_numpy(dtype=float), rows["high"].to_numpy(dtype=float)
        colours = np.where(lo > 0, "#2f855a", np.where(hi < 0, "#c53030", "#718096"))
        ax.barh(y, d, color=colours, alpha=0.75)
        ax.errorbar(d, y, xerr=[d - lo, hi - d], fmt="none", ecolor="#1a202c", capsize=2, lw=1)
        ax.axvline(0, color="#1a202c", lw=0.8)
        ax.set_yticks(y)
        ax.set_yticklabels([_wrapped(str(n), 50) for n in rows["name"]], fontsize=7)
        ax.set_xlabel(xlabel)
        ax.set_title(title)

    save_figure(draw, path, (8.0, max(2.5, 0.28 * len(rows) + 1.2)))
