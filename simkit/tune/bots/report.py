"""The report of a tuning (``simkit bots tune``): the confirmation first, then the search.

Written into ``DIR/report`` with the same blocks as every simkit report: ``index.html``
(self-contained), ``report.md``, the PNGs and a CSV per table; ``evaluations.csv`` holds
every candidate the search played.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.report.document import Document, Figure, Heading, Paragraph, Table, prepare, write
from simkit.report.plots import save_figure
from simkit.tune.common import setting_rows, settings_section


def build(out_dir: Path, s: Any, state: Any, weights: tuple[float, ...], c: Any, fit: Path) -> Path:
    """Write the report of a tuning whose preset went to the bots file ``fit``; return its
    ``index.html``."""
    out = Path(out_dir)
    prepare(out)
    t = s.tunable
    g = s.game_obj
    preset = f"{t.base}:{s.name}"
    doc = Document(f"{preset}: {t.base} fitted for {g.title} ({s.game})")
    gens = pd.DataFrame(state.generations)
    evals = pd.DataFrame(state.evaluations)
    doc.add(Heading("Answer"))
    doc.add(Paragraph(c.sentence(f"{preset} (fitted)", f"{t.base} (its default weights)")))
    races = s.races_per_evaluation
    field = ", ".join(s.field)
    seats = ", ".join(map(str, s.player_counts))
    doc.add(
        Paragraph(
            f"Fitted by CMA-ES over {len(state.evaluations):,} evaluations ({state.generation} "
            f"generations of {len(evals[evals['generation'] == 0]) if len(evals) else 0}) "
            f"of {races:,} races each, against the field {field} with {seats} players"
            + (f" on {', '.join(map(str, s.tracks))}" if s.track is not None else "")
            + ". "
            f"The weights are recorded as [{t.base}.{s.name}] in {fit}; a scenario with "
            f'bots_file = "{fit}" (or a command with --bots-file {fit}) plays them as the '
            f"bot '{preset}'."
            + (f" CMA-ES stopped before the budget: {state.stop}." if state.stop else "")
        )
    )
    _weights(doc, s, weights, out)
    _search(doc, s, gens, evals, out)
    doc.add(Heading("Confirmation"))
    doc.add(
        Paragraph(
            f"{c.races:,} races on keys no generation played ({c.decided:,} decided), in the "
            "ladder's balanced design (every bot in every seat equally often; every lineup on "
            "the same keys, so every bot starts from every slot equally often). Share: of "
            "the pairs of a fitted and a default seat separated in a decided race, the share "
            "the fitted seat finished ahead; 95% percentile bootstrap over race keys."
        )
    )
    doc.add(Table(pd.DataFrame([c.to_json()]), "confirmation.csv", "Head to head."))
    rows = setting_rows(s.to_json())
    settings_section(doc, "Run settings", rows, s.command())
    evals.to_csv(out / "evaluations.csv", index=False)
    return write(doc, out)


def _weights(doc: Document, s: Any, weights: tuple[float, ...], out: Path) -> None:
    t = s.tunable
    table = pd.DataFrame(
        {
            "weight": list(t.names),
            "default": list(t.default),
            "fitted": list(weights),
            "lo": list(t.lo),
            "hi": list(t.hi),
            "fixed": [lo == hi for lo, hi in zip(t.lo, t.hi, strict=True)],
        }
    )
    doc.add(Heading("Weights"))
    doc.add(
        Table(
            table,
            "weights.csv",
            "The fitted weights against the defaults, within the bounds the game declares "
            "(a fixed weight sets the scale and is not searched).",
        )
    )
    free = table[~table["fixed"]].reset_index(drop=True)
    span = (free["hi"] - free["lo"]).to_numpy(float)

    def draw(fig):
        ax = fig.subplots()
        y = np.arange(len(free))[::-1]
        d = (free["default"].to_numpy(float) - free["lo"]) / span
        f = (free["fitted"].to_numpy(float) - free["lo"]) / span
        ax.barh(y + 0.2, d, height=0.4, color="#a0aec0", label="default")
        ax.barh(y - 0.2, f, height=0.4, color="#2b6cb0", label="fitted")
        ax.set_yticks(y, list(free["weight"]))
        ax.set_xlim(0, 1)
        ax.set_xlabel("position within the weight's bounds (0 = lo, 1 = hi)")
        ax.set_title("Weights: fitted against default")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)

    save_figure(draw, out / "weights.png", (7.0, 1.0 + 0.35 * len(free)))
    doc.add(
        Figure(
            "weights.png",
            "Each searched weight's default and fitted value, as a share of its range.",
        )
    )


def _search(doc: Document, s: Any, gens: pd.DataFrame, evals: pd.DataFrame, out: Path) -> None:
    doc.add(Heading("Search"))
    doc.add(
        Paragraph(
            "Objective: the share of head-to-head comparisons the candidate won against the "
            "field seats in decided races (a seat is ahead when it finished and the other did "
            "not, or finished earlier), the candidate played once in every seat on the same "
            "keys. Every candidate of a generation plays the same races; each generation plays "
            "new ones, so the curve is noisy from one generation to the next, and the best "
            "candidate of a generation is the luckiest as well as the best. The fitted "
            "weights are CMA-ES's mean after the last generation."
        )
    )

    def draw(fig):
        ax = fig.subplots()
        ax.scatter(
            evals["generation"] + 1,
            100 * evals["objective"],
            s=6,
            color="#cbd5e0",
            label="candidates",
        )
        ax.plot(gens["generation"] + 1, 100 * gens["median"], color="#2b6cb0", label="median")
        ax.plot(gens["generation"] + 1, 100 * gens["best"], color="#c53030", lw=1, label="best")
        ax.axhline(50, color="#718096", ls="--", lw=1, label="even with the field")
        ax.set_xlabel("generation")
        ax.set_ylabel("comparisons won against the field, %")
        ax.set_title("Objective per generation")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)

    save_figure(draw, out / "objective.png", (7.5, 3.4))
    doc.add(
        Figure(
            "objective.png",
            "Every candidate's objective (grey) and each generation's median and best.",
        )
    )
    doc.add(
        Table(
            gens,
            "generations.csv",
            "Per generation: races played, best and median objective, CMA-ES's step size "
            "(sigma, in shares of each weight's range) and its mean weights after the "
            "generation. evaluations.csv holds every candidate.",
        )
    )
