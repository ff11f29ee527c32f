"""The report of ``simkit tune``: the answer, the confirmation, the search, the settings.

Written with the blocks every simkit report uses (``index.html`` self-contained,
``report.md``, PNGs and a CSV per table) into the report folder, beside the confirmation
run's own balance report (``confirmation/``: per-slot fairness of every candidate with
intervals, paired comparisons with the book's values, each candidate's track drawn).
``summary.json`` gives the study index (``make reports``) one line: the best candidate's
verdict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis import side_effects
from simkit.report.document import (
    Document,
    Figure,
    Heading,
    Paragraph,
    Table,
    Verdicts,
    prepare,
    write,
)
from simkit.report.plots import save_figure
from simkit.report.summary import write_summary
from simkit.tune.common import setting_rows, settings_section
from simkit.tune.space import describe
from simkit.tune.study import MAX_REPEATS
from simkit.tune.tuning import Settings, book_values

CONFIRMATION = "confirmation"


def history(study: Any, book: dict[str, Any] | None = None) -> pd.DataFrame:
    """Every trial: its number, state, races, objective at its last rung, candidate (in
    words beside the book's values when ``book`` is given, :func:`simkit.tune.space.describe`)."""
    rows = []
    for t in study.get_trials(deepcopy=False):
        steps = t.intermediate_values
        last = max(steps) if steps else 0
        values = t.values or []
        if len(values) > 1:  # a Pareto front's trial: played in full, no rungs
            last = int(t.user_attrs.get("races", 0)) and _per_cell(t)
        first = values[0] if values else steps.get(last, np.nan)
        rows.append(
            {
                "trial": t.number,
                "state": t.state.name.lower(),
                "races": int(t.user_attrs.get("races", 0)),
                "rung_races": last,
                "objective": first,
                **({"distance": values[1]} if len(values) > 1 else {}),
                "same_as": t.user_attrs.get("same_as", np.nan),
                "stopped": t.user_attrs.get("stopped", ""),
                "candidate": _candidate(t.user_attrs.get("key", ""), book),
            }
        )
    return pd.DataFrame(rows)


def _per_cell(t: Any) -> int:
    """Races per cell a trial played (its counts say, cell by cell)."""
    counts = t.user_attrs.get("counts") or [{}]
    return int(counts[0].get("races", 0))


def _candidate(key: str, book: dict[str, Any] | None) -> str:
    """A trial's candidate (its JSON key) in words, each value beside the book's."""
    if not key or book is None:
        return key
    return describe(json.loads(key), book)


def _plot_history(path: Path, h: pd.DataFrame, s: Settings) -> None:
    def draw(fig):
        ax = fig.add_subplot(1, 1, 1)
        played = h[h["same_as"].isna() & h["objective"].notna()]
        for r in s.rungs:
            part = played[played["rung_races"] == r]
            ax.scatter(part["trial"], part["objective"], s=14, label=f"{r:,} races")
        full = played[played["state"] == "complete"].sort_values("trial")
        if len(full):
            best = full["objective"].cummin()
            label = "best full candidate so far"
            ax.step(full["trial"], best, where="post", color="k", lw=1, label=label)
        ax.set_xlabel("trial")
        ax.set_ylabel("objective at the last rung played")
        ax.set_title("Search history: each candidate at the races it reached")
        ax.legend(loc="upper right", fontsize=8)

    save_figure(draw, path, (8.0, 4.0))


def best_candidate(v: pd.DataFrame) -> int | None:
    """The found candidate with the smallest objective on the confirmation races, among
    those within the goal's bounds there when it has bounds and any is."""
    cands = v[v["role"] == "found"]
    if "within_bounds" in cands and cands["within_bounds"].any():
        cands = cands[cands["within_bounds"]]
    return None if cands.empty else int(cands.sort_values("objective")["candidate"].iloc[0])


def _answer(v: pd.DataFrame, fair: pd.DataFrame, s: Settings) -> tuple[str, str, str]:
    """(verdict, sentence, detail) of the best confirmed candidate."""
    book, k = v.iloc[0], best_candidate(v)
    if k is None:
        return ("no verdict", "The search found no full candidate besides the book's.", "")
    best = v[v["candidate"] == k].iloc[0]
    verdict = str(fair.loc[fair["candidate"] == best["candidate"], "verdict"].iloc[0])
    unit = "pp" if s.objective == "fairness" else "(objective units)"
    sentence = (
        f"Best found: {best['label']}: objective {best['objective']:.2f} "
        f"[{best['low']:.2f}, {best['high']:.2f}] {unit}, against {book['objective']:.2f} "
        f"[{book['low']:.2f}, {book['high']:.2f}] for the book's values; paired difference "
        f"{best['vs_book']:+.2f} [{best['vs_book_low']:+.2f}, {best['vs_book_high']:+.2f}]: "
        f"{best['paired']}."
    )
    if "vs_reference" in v and not np.isnan(best["vs_reference"]):
        ref = v[(v["role"] == "reference")].sort_values("objective").iloc[0]
        sentence += (
            f" Against the best reference, {ref['label']} ({ref['objective']:.2f} "
            f"[{ref['low']:.2f}, {ref['high']:.2f}]): {best['vs_reference']:+.2f} "
            f"[{best['vs_reference_low']:+.2f}, {best['vs_reference_high']:+.2f}], "
            f"{best['against']}."
        )
    refs = v[v["role"] == "reference"].sort_values("objective")
    if len(refs) and refs["objective"].iloc[0] < best["objective"]:
        # The confirmation is the answer: a reference that beat the search's best on the
        # fresh races leads, and the search's best follows as what it is.
        ref = refs.iloc[0]
        verdict = str(fair.loc[fair["candidate"] == ref["candidate"], "verdict"].iloc[0])
        found = sentence.removeprefix("Best found: ")
        sentence = (
            f"Best confirmed: the reference {ref['label']}: objective {ref['objective']:.2f} "
            f"[{ref['low']:.2f}, {ref['high']:.2f}] {unit} on the fresh races, against "
            f"{book['objective']:.2f} [{book['low']:.2f}, {book['high']:.2f}] for the book's "
            f"values. The search's best did not beat it: {found}"
        )
    sentence += f" Start slots {verdict} within 2 pp."
    goal = s.goal()
    if goal.bounds:
        sentence += " " + _bounds_text(v, best, goal)
    detail = f"confirmed on {s.confirm:,} fresh races per cell; objective {s.objective}"
    return verdict, sentence, detail


def _bounds_text(v: pd.DataFrame, best: Any, goal: Any) -> str:
    """Whether the best candidate keeps the goal's bounds on the confirmation's races."""
    from simkit.analysis.side_effects import BY_NAME

    parts = []
    for name, tol in goal.bounds:
        m = BY_NAME[name]
        d, lo, hi = best[f"{name}_change"], best[f"{name}_low"], best[f"{name}_high"]
        parts.append(f"{m.words} {d:+.3g} [{lo:+.3g}, {hi:+.3g}] {m.unit} (bound ±{tol:g})")
    kept = bool(best.get("within_bounds", True))
    found = v[v["role"] == "found"]
    if kept:
        return "Within its bounds against the book's: " + "; ".join(parts) + "."
    n = int(found["within_bounds"].sum()) if "within_bounds" in found else 0
    return (
        "Outside its bounds: "
        + "; ".join(parts)
        + f" ({n} of {len(found)} candidates confirmed keep them)."
    )


def build(report: Path, s: Settings, study: Any, v: pd.DataFrame, results: Any, title: str) -> Path:
    """Write the tuning's report into ``report`` from the confirmation run's ``results``
    and its verdicts ``v``; return its ``index.html``."""
    from simkit.analysis.fairness import fairness
    from simkit.report import build as build_balance

    out = Path(report)
    prepare(out)
    build_balance(results, out / CONFIRMATION, command=s.command())
    per = len(results.cells) // len(v)
    fair = fairness(results).assign(candidate=lambda f: f["cell"] // per)
    fair = fair.groupby("candidate").agg(verdict=("verdict", _worst)).reset_index()
    doc = Document(title if title.lower().startswith("tuning") else f"Tuning: {title}")
    verdict, sentence, detail = _answer(v, fair, s)
    side = candidates_side_effects(results, per, len(v), s.seed)
    doc.add(Heading("Answer"), Verdicts(((verdict, sentence, detail),)))
    if s.goal().pareto:  # the trade, on the first screen too
        doc.add(Paragraph(trade(v, s.goal())))
    best_row = _answer_row(v)
    if best_row is not None and not side.empty:
        mine = side[side["candidate"] == best_row]
        for line in side_effects.beyond_sentences(mine, name_pairs=per > 1):
            doc.add(
                Paragraph(f"Side effects of {v.loc[best_row, 'label']} against the book's: {line}")
            )
    h = history(study, book_values(s.base(), s.search_space().keys))
    played = h[h["same_as"].isna() & (h["state"] != "fail")]
    searched, confirmed = int(played["races"].sum()), _races(results)
    full = int((played["state"] == "complete").sum())
    rungs = ", ".join(f"{r:,}" for r in s.rungs[:-1]) or "none"
    ended = (
        f" The search ended {s.budget - searched:,} races short of its budget of "
        f"{s.budget:,}: the sampler proposed only candidates already played, {MAX_REPEATS} "
        "times in a row (a small space, or a sampler that has settled)."
        if searched + s.rungs[0] * per <= s.budget
        else ""
    )
    doc.add(
        Paragraph(
            f"{len(h):,} candidates proposed by Optuna's {s.sampler} sampler, {len(played):,} "
            f"played (a candidate proposed again is not played again): {full:,} to the full "
            f"{s.max_races:,} races per cell, the rest stopped at a rung of successive "
            f"halving ({rungs} races) or by the budget.{ended} "
            f"{searched:,} races for the search, {confirmed:,} for the confirmation: "
            f"{searched + confirmed:,} races in all."
        )
    )
    shown = v.merge(fair, on="candidate")
    doc.add(Heading("Confirmation"))
    if not side.empty:
        doc.add(
            Table(
                side,
                "side_effects.csv",
                "What each confirmed candidate does to the races against the book's values, on "
                "the same races: race length (median and 90th percentile), crashes, dents and "
                "eliminations per race, drama and lead change, with 95% intervals; beyond = the "
                'whole interval beyond the tolerance (docs/statistics.md "Side effects").',
                True,
            )
        )
    doc.add(
        Paragraph(
            "The book's values, the space's references and the search's best candidates on "
            "fresh races (no candidate played them during the search), every candidate on the "
            "same races: objective with a 95% percentile bootstrap interval over races, and "
            "its paired difference from the book's and from the best reference (negative: "
            "better). 'verdict' is the start-slot fairness verdict "
            f"at 2 pp (docs/statistics.md); the full report of this run, with every slot's "
            f"win rate and interval and each candidate's track, is in {CONFIRMATION}/index.html."
        ),
        Table(shown, "confirmation.csv", "Candidates on the confirmation races."),
    )
    k = best_candidate(v)
    if k is not None:
        _slots(doc, results, per, k)
    if s.goal().pareto:
        _front(doc, out, s, history(study, book_values(s.base(), s.search_space().keys)), v)
    doc.add(Heading("Search"))
    _plot_history(out / "history.png", h, s)
    doc.add(
        Figure(
            "history.png",
            "Each candidate's objective after the last rung it played (colour: races per "
            "cell); the line is the best full candidate so far.",
        ),
        Table(
            played.sort_values(["rung_races", "objective"], ascending=[False, True]).head(20),
            "top_trials.csv",
            "The 20 best candidates of the search, those that played the most races first, by "
            "their objective on the search's races (every trial: history.csv).",
        ),
    )
    h.to_csv(out / "history.csv", index=False)
    if k is not None:
        _best_track(doc, results, per * k, out)
    rows = setting_rows(s.to_json(), skip=("scenario", "space"))
    settings_section(doc, "Settings", [*rows, ("rungs", ", ".join(map(str, s.rungs)))], s.command())
    index = write(doc, out)
    line = {"cell": 0, "label": "best found", "verdict": verdict, "sentence": sentence}
    write_summary(out, doc.title, str(s.scenario.get("description", "")), [line])
    return index


def _answer_row(v: pd.DataFrame) -> int | None:
    """The row of ``v`` the answer leads with: the best found, or a reference that beat it."""
    k = best_candidate(v)
    if k is None:
        return None
    refs = v[v["role"] == "reference"].sort_values("objective")
    best = v[v["candidate"] == k].iloc[0]
    if len(refs) and refs["objective"].iloc[0] < best["objective"]:
        return int(refs["candidate"].iloc[0])
    return k


def candidates_side_effects(results: Any, per: int, n: int, seed: int) -> pd.DataFrame:
    """Each confirmed candidate's side effects against the book's values, cell by cell
    (:func:`simkit.analysis.side_effects.differences`, paired on the confirmation's races)."""
    pairs = [(i, k * per + i) for k in range(1, n) for i in range(per)]
    side = side_effects.differences(results, pairs, seed=seed)
    if side.empty:
        return side
    side.insert(0, "candidate", side["cell"] // per)
    return side


def trade(v: pd.DataFrame, goal: Any) -> str:
    """The front's trade in words, from its confirmed points: what each pp of the objective
    saved costs in the traded measure, between the fairest and the nearest the book."""
    from simkit.analysis.side_effects import BY_NAME

    m = BY_NAME[goal.pareto]
    col = f"{goal.pareto}_change"
    pts = v[v["role"] == "found"].sort_values("objective")
    if pts.empty:
        return "No point of the front was confirmed."
    said = [
        f"{r.label}: objective {r.objective:.2f} [{r.low:.2f}, {r.high:.2f}], {m.words} "
        f"{getattr(r, col):+.3g} {m.unit}"
        for r in pts.itertuples()
    ]
    text = (
        f"The front trades the objective against the {m.words} (its change from the book's, "
        "on the confirmation's races): " + "; ".join(said) + "."
    )
    fairest, nearest = pts.iloc[0], pts.loc[pts[col].abs().idxmin()]
    saved = nearest["objective"] - fairest["objective"]
    cost = abs(fairest[col]) - abs(nearest[col])
    if saved > 0 and cost > 0:
        text += (
            f" From {nearest['label']} to {fairest['label']}, each unit of objective saved "
            f"(pp of worst-slot deviation for fairness) costs about {cost / saved:.2g} "
            f"{m.unit} of {m.words}."
        )
    elif len(pts) > 1:
        text += " The fairest is also the nearest the book: no trade among these points."
    return text


def _front(doc: Document, out: Path, s: Settings, h: pd.DataFrame, v: pd.DataFrame) -> None:
    """The Pareto front: every candidate's two values, the front drawn, the trade named."""
    from simkit.analysis.side_effects import BY_NAME

    goal = s.goal()
    m = BY_NAME[goal.pareto]
    done = h[(h["state"] == "complete") & h["same_as"].isna()]
    doc.add(Heading("Front"))
    doc.add(Paragraph(trade(v, goal)))

    def draw(fig):
        ax = fig.add_subplot(1, 1, 1)
        ax.scatter(done["objective"], done["distance"], s=12, color="#a0aec0", label="candidate")
        pts = done.sort_values(["objective", "distance"])
        best = pts["distance"].cummin()
        front = pts[pts["distance"] <= best]
        ax.step(
            front["objective"],
            front["distance"],
            where="post",
            color="#2b6cb0",
            lw=1.2,
            label="front",
        )
        ax.set_xlabel("objective on the search's races")
        ax.set_ylabel(f"{m.words}: distance from the book's ({m.unit})")
        ax.set_title("Pareto front of the search")
        ax.legend(loc="upper right", fontsize=8)

    save_figure(draw, out / "front.png", (7.0, 4.5))
    doc.add(
        Figure(
            "front.png",
            f"Every candidate of the search: objective against the {m.words}'s distance from "
            "the book's values; the line joins the front (no candidate better in both).",
        )
    )


def _worst(verdicts: pd.Series) -> str:
    order = ["unfair", "inconclusive - need more races", "no verdict - few races decided", "fair"]
    return min(verdicts, key=lambda x: order.index(x) if x in order else len(order))


def _races(results: Any) -> int:
    return int(results.races.groupby("cell")["race"].nunique().sum())


def _slots(doc: Document, results: Any, per: int, k: int) -> None:
    from simkit.analysis.fairness import fairness_by_slot

    by = fairness_by_slot(results)
    keep = ["cell", "label", "slot", "decided", "wins", "win_rate", "win_low", "win_high"]
    first = by[by["cell"] < per][keep]
    best = by[(by["cell"] >= k * per) & (by["cell"] < (k + 1) * per)][keep]
    doc.add(
        Table(
            pd.concat([first, best]),
            "slots.csv",
            "Win rate of every start slot in decided races with its Wilson 95% interval: "
            "the book's values, then the search's best candidate.",
        )
    )


def _best_track(doc: Document, results: Any, cell: int, out: Path) -> None:
    """The best candidate's track (its first cell's), drawn, where the tuning changed it."""
    from simkit.tracks import load
    from simkit.tracks.override import DerivedTrack, as_track
    from simkit.tracks.picture import save_png

    if "track" not in results.cells:
        return
    name = results.cells.set_index("cell").at[cell, "track"]
    if not isinstance(name, str) or not isinstance(as_track(name), DerivedTrack):
        return
    save_png(load(name), out / "best_track.png")
    doc.add(Figure("best_track.png", f"The best candidate's track: {load(name).title}."))
