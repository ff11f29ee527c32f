"""The ladder report: ratings with intervals, head-to-head matrix, skill depth (docs/ladder.md).

:func:`simkit.analysis.ladder.analyse` fits a ladder run once (the CLI prints from it);
this module only draws: :func:`build` writes that :class:`~simkit.analysis.ladder.Ladder`
into the folder: ``index.html`` (self-contained), ``report.md``, PNGs and a CSV per table,
with the same building blocks as ``simkit report``.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd

from simkit import __version__
from simkit.analysis.ladder import Ladder
from simkit.analysis.ratings_text import ratings_rows
from simkit.ladder import Certificate
from simkit.report.document import Code, Document, Figure, Heading, Paragraph, Table, prepare, write
from simkit.report.plots import save_figure


def command(ladder: Ladder) -> str:
    """The ``simkit ladder`` command that recreates this ladder (from the run's manifest)."""
    m = ladder.results.manifest
    sc = m["scenario"]
    cmd = ["simkit", "ladder", sc["game"], "--bots", ",".join(ladder.bots)]
    cmd += ["--players", str(sc["players"]), "--races", str(sc["races"]), "--seed", str(m["seed"])]
    for key in ("preset", "track"):
        if key in sc:
            cmd += [f"--{key}", str(sc[key])]
    for name, value in sc.get("set", {}).items():
        cmd += ["--set", f"{name}={json.dumps(value, separators=(',', ':'))}"]
    return shlex.join([*cmd, "--out", str(ladder.results.dir)])


def _design(doc: Document, lad: Ladder) -> None:
    k, n = len(lad.bots), lad.outcomes.players
    doc.add(Heading("Design"))
    if k >= n:
        how = (
            f"every set of {n} of the {k} bots, each in its {n} rotations over the seats "
            "(a Latin square per set)"
        )
    else:
        how = f"the {k} rotations of the bots repeated along the {n} seats"
    doc.add(
        Paragraph(
            f"{len(lad.design)} lineups: {how}, so every bot sits in every seat equally often. "
            "Each race's start slots are drawn from its key (R-06) and, under common random "
            "numbers, race i of every lineup draws the same ones along with the same deals "
            "and dice: every bot starts from every slot equally often at every race index, "
            "and the lineups are compared on the same luck. The table counts seats by start "
            "slot over all races."
        )
    )
    races = lad.results.races
    balance = races.groupby(["bot", "slot"], observed=True).size().unstack(fill_value=0)
    balance = balance.reindex(list(lad.bots)).rename(columns=lambda s: f"slot {s}")
    doc.add(Table(balance.reset_index(), "design.csv", "Seats per bot and start slot."))
    lineups = pd.DataFrame(
        {"cell": range(len(lad.design)), "lineup": [", ".join(x) for x in lad.design]}
    )
    doc.add(Table(lineups, "lineups.csv", "Lineups (cells): the bot of each seat, seat 0 first."))


def _ratings(doc: Document, lad: Ladder, out: Path) -> None:
    r = lad.ratings
    undecided = int((~lad.outcomes.decided).sum())
    doc.add(Heading("Ratings"))
    sampled = (
        f"all {r.keys:,} race keys"
        if r.keys_drawn == r.keys
        else f"{r.keys_drawn:,} of the {r.keys:,} race keys, the spread scaled by "
        f"√({r.keys_drawn}/{r.keys}) (m-out-of-n bootstrap)"
    )
    doc.add(
        Paragraph(
            "Plackett-Luce ratings fitted by choix (ilsr_top1): bot b finishes next among the "
            "seats not yet placed with probability proportional to exp(rating b), so "
            "P(A ahead of B) = 1 / (1 + exp(rating B − rating A)); 0 is the mean bot, and a "
            "bot that never finished ahead of another seat is rated −inf. Only "
            f"decided races count ({lad.races - undecided:,} of {lad.races:,}; {undecided:,} "
            "had no single winner who finished and are left out). Within a race the finishers "
            "are ranked in finish order and the seats that did not finish are placed behind "
            "them, unordered. 95% intervals: percentile bootstrap over race keys (every "
            f"lineup's race with one key together), {len(r.replicates)} replicates drawing "
            f"{sampled}, each refitted by choix."
        )
    )
    for sentence in lad.rungs:
        doc.add(Paragraph(sentence))
    shown = pd.DataFrame(ratings_rows(lad.table)).assign(
        **{
            "wins/seat 95%": [
                f"[{100 * lo:.1f}, {100 * hi:.1f}]"
                for lo, hi in zip(lad.table["win_low"], lad.table["win_high"], strict=True)
            ]
        }
    )
    doc.add(
        Table(
            shown,
            "ratings_shown.csv",
            "Ratings (95% bootstrap intervals) and wins per seat in decided races (Wilson "
            f"95%); chance is 1/{lad.outcomes.players} = {100 / lad.outcomes.players:.1f}%.",
            collapsed=False,
        ),
        Table(lad.table, "ratings.csv", "The same, unrounded (rates as fractions)."),
    )
    save_figure(
        lambda fig: _rating_plot(fig, lad.table),
        out / "ratings.png",
        (6.5, 0.6 + 0.45 * len(lad.bots)),
    )
    doc.add(Figure("ratings.png", "Ratings with 95% bootstrap intervals, best at the top."))


def _err(value: pd.Series, low: pd.Series, high: pd.Series) -> list[np.ndarray]:
    """Error bar lengths, never below 0 (a Wilson bound at 0 wins can sit a hair above 0)."""
    v = value.to_numpy(float)
    return [np.clip(v - low.to_numpy(float), 0, None), np.clip(high.to_numpy(float) - v, 0, None)]


def _rating_plot(fig, t: pd.DataFrame) -> None:
    ax = fig.subplots()
    y = np.arange(len(t))[::-1]
    f = np.isfinite(t["rating"]).to_numpy()
    err = _err(t["rating"][f], t["low"][f], t["high"][f])
    ax.errorbar(t["rating"][f], y[f], xerr=err, fmt="o", color="#2b6cb0", capsize=4)
    for yy in y[~f]:
        ax.annotate(
            "−inf: never ahead", (0.01, yy), xycoords=("axes fraction", "data"), va="center"
        )
    ax.axvline(0, color="#718096", lw=1, ls="--")
    ax.set_ylim(-0.6, len(t) - 0.4)
    ax.set_yticks(y, list(t["bot"]))
    ax.set_xlabel("rating (log strength; 0 = mean bot)")
    ax.set_title("Ladder ratings")


def _matrix(lad: Ladder) -> pd.DataFrame:
    h = lad.h2h.set_index(["bot", "opponent"])
    order = list(lad.table["bot"])
    rows = []
    for a in order:
        row = {"bot": a}
        for b in order:
            if a == b:
                row[b] = "–"
                continue
            x = h.loc[(a, b)]
            row[b] = (
                "–" if x["races"] == 0 else f"{x['share']:.1%} [{x['low']:.1%}, {x['high']:.1%}]"
            )
        rows.append(row)
    return pd.DataFrame(rows)


def _head_to_head(doc: Document, lad: Ladder, out: Path) -> None:
    doc.add(Heading("Head to head"))
    doc.add(
        Paragraph(
            "Share of the decided races in which the row's bot finished ahead of the column's "
            "(finished while the other did not, or finished earlier), with Wilson 95% "
            "intervals. Races in which neither finished do not separate the two and are not "
            "counted, so row-column and column-row add up to 100%. In the table per pair, "
            "'model' is the share the ratings predict, 1 / (1 + exp(rating B − rating A)): "
            "where it falls outside the observed share's interval, one number per bot does "
            "not capture how the two differ (e.g. a bot that wins often but crashes often)."
        )
    )
    doc.add(Table(_matrix(lad), "head_to_head_matrix.csv", "Row finished ahead of column."))
    doc.add(Table(lad.h2h, "head_to_head.csv", "The same, one row per ordered pair."))
    order = list(lad.table["bot"])
    share = lad.h2h.pivot(index="bot", columns="opponent", values="share")
    share = share.reindex(index=order, columns=order).to_numpy(float)
    size = (2.4 + 0.9 * len(order), 1.6 + 0.7 * len(order))
    save_figure(lambda fig: _heat(fig, share, order), out / "head_to_head.png", size)
    doc.add(
        Figure("head_to_head.png", "Share of decided races the row finished ahead of the column.")
    )


def _heat(fig, share: np.ndarray, order: list[str]) -> None:
    ax = fig.subplots()
    im = ax.imshow(share, cmap="RdBu", vmin=0, vmax=1)
    for i in range(len(order)):
        for j in range(len(order)):
            if i != j and not np.isnan(share[i, j]):
                ax.text(j, i, f"{share[i, j]:.0%}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(order)), order, rotation=30, ha="right")
    ax.set_yticks(range(len(order)), order)
    ax.set_xlabel("opponent")
    ax.set_title("Row finished ahead of column")
    fig.colorbar(im, ax=ax, fraction=0.046)


def _depth(doc: Document, lad: Ladder, out: Path) -> None:
    t = lad.table
    n = lad.outcomes.players
    best, weakest = t.iloc[0], t.iloc[-1]
    vs = lad.h2h[lad.h2h["opponent"] == weakest["bot"]].set_index("bot").reindex(t["bot"][:-1])
    top = vs.loc[best["bot"]]
    doc.add(Heading("Skill depth"))
    doc.add(
        Paragraph(
            f"The best bot, {best['bot']}, wins {best['win_rate']:.1%} "
            f"[{best['win_low']:.1%}, {best['win_high']:.1%}] of its seats in decided races and "
            f"the weakest, {weakest['bot']}, {weakest['win_rate']:.1%} "
            f"[{weakest['win_low']:.1%}, {weakest['win_high']:.1%}]; pure chance is 1/{n} = "
            f"{1 / n:.1%}. Head to head {best['bot']} finishes ahead of {weakest['bot']} in "
            f"{top['share']:.1%} [{top['low']:.1%}, {top['high']:.1%}] of the decided races "
            "that separate them (chance: 50%)."
        )
    )
    steps = sum(bool(re.match(r"\S+ above \S+ \(", r)) for r in lad.rungs)
    doc.add(
        Paragraph(
            f"{steps} of the {len(lad.rungs)} adjacent pairs of rungs are separated at "
            f"{lad.races:,} races: the ladder has {steps + 1} distinguishable skill levels."
        )
    )

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        x = np.arange(len(t))
        ax1.errorbar(
            x,
            t["win_rate"],
            yerr=_err(t["win_rate"], t["win_low"], t["win_high"]),
            fmt="o",
            color="#2b6cb0",
            capsize=4,
        )
        ax1.axhline(1 / n, color="#c53030", ls="--", lw=1, label=f"chance 1/{n}")
        ax1.set_xticks(x, list(t["bot"]), rotation=30, ha="right")
        ax1.set_ylabel("wins per seat in decided races")
        ax1.set_ylim(0, max(1.05 * float(t["win_high"].max()), 1.5 / n))
        ax1.set_title("Win rate by rung")
        ax1.legend(fontsize=7)
        x2 = np.arange(len(vs))
        ax2.errorbar(
            x2,
            vs["share"],
            yerr=_err(vs["share"], vs["low"], vs["high"]),
            fmt="o",
            color="#2b6cb0",
            capsize=4,
        )
        ax2.axhline(0.5, color="#c53030", ls="--", lw=1, label="chance 50%")
        ax2.set_xticks(x2, list(vs.index), rotation=30, ha="right")
        ax2.set_ylim(-0.02, 1.02)
        ax2.set_ylabel(f"share ahead of {weakest['bot']}")
        ax2.set_title(f"Head to head against the weakest ({weakest['bot']})")
        ax2.legend(fontsize=7)

    save_figure(draw, out / "skill_depth.png", (9.0, 3.6))
    doc.add(
        Figure(
            "skill_depth.png",
            "Skill depth: each rung's wins per seat against chance (left) and how often it "
            "finishes ahead of the weakest bot (right), with Wilson 95% intervals.",
        )
    )


def _facts(doc: Document, lad: Ladder) -> None:
    m = lad.results.manifest
    sc = m["scenario"]
    cells = lad.results.cells
    facts = [
        ("run directory", str(lad.results.dir)),
        ("game", str(sc["game"])),
        ("preset", str(cells["preset"].iloc[0])),
        ("track", str(cells["track"].iloc[0]) if cells["track"].notna().any() else "–"),
        ("players", str(lad.outcomes.players)),
        ("bots", ", ".join(lad.bots)),
        ("lineups", str(len(lad.design))),
        ("races per lineup", f"{sc['races']:,}"),
        ("races in total", f"{lad.races:,}"),
        ("seed", str(m["seed"])),
        ("run status", str(m.get("status", "–"))),
        ("report made with simkit", __version__),
    ]
    doc.add(Heading("Run"))
    doc.add(Table(pd.DataFrame(facts, columns=["item", "value"]), "run.csv", "What was run."))
    if m.get("status") != "complete":
        doc.add(Paragraph("Warning: this run is not complete; the numbers cover the chunks done."))
    doc.add(Paragraph("To reproduce this ladder and its report:"), Code(command(lad)))


def _certificate(doc: Document, cert: Certificate | None) -> None:
    """Under the title: is the top rung as strong as the model-free reference here?"""
    if cert is None:
        doc.add(
            Paragraph(
                "The top rung was not certified against a model-free reference (none named): "
                "how strong the ladder's best is in absolute terms is not measured."
            )
        )
        return
    how = (
        f"measured on {cert.races:,} races of the two in the ladder's setting (mixed "
        "lineups, seats rotated, keys of their own)"
        if cert.races
        else "measured on the ladder's own races"
        if cert.certified != "reference"
        else ""
    )
    rule = "as strong when the head-to-head share's 95% low end is at least 45%"
    text = cert.sentence + (f" ({how}; {rule}.)" if how else "")
    doc.add(Paragraph(text, "warning" if cert.certified in ("weaker", "not shown") else ""))


def build(
    lad: Ladder,
    out_dir: str | Path,
    *,
    title: str | None = None,
    certificate: Certificate | None = None,
) -> Path:
    """Write the ladder report into ``out_dir``; returns the path of ``index.html``.
    ``certificate`` (:func:`simkit.ladder.certify`) opens it: the top rung against the
    reference."""
    out = Path(out_dir)
    prepare(out)
    sc = lad.results.manifest["scenario"]
    doc = Document(title or f"Ladder: {sc['game']}, {lad.outcomes.players} players")
    _certificate(doc, certificate)
    _ratings(doc, lad, out)
    _head_to_head(doc, lad, out)
    _depth(doc, lad, out)
    _design(doc, lad)
    _facts(doc, lad)
    return write(doc, out)
