"""The study index: ``reports/index.html``, one line per report with its verdict and a link.

Each report folder holds ``summary.json`` (written by :func:`simkit.report.build`); the
index reads those, so it needs no run tables. ``python -m simkit.report.index reports``
(``make reports`` runs it last) rewrites ``reports/index.html`` and ``reports/index.md``.
"""

from __future__ import annotations

import html
import json
import sys
from collections import Counter
from pathlib import Path

from simkit.analysis.skill_labels import LABELS
from simkit.report.document import GENERATOR
from simkit.report.summary import SUMMARY_JSON

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;
max-width:1100px;padding:0 1rem;color:#1d2430;line-height:1.45}
h1{border-bottom:2px solid #2b6cb0;padding-bottom:.3rem}
li{margin:.35rem 0}.v{font-weight:600}.v-unfair{color:#c53030}.v-fair{color:#276749}
.d{font-size:.85rem;color:#4a5568}
"""


def study_line(summary: dict) -> tuple[str, str]:
    """(verdict, sentence) of one study: its single cell's sentence, or a tally of cells."""
    cells = summary.get("cells", [])
    if len(cells) == 1:
        return cells[0]["verdict"], cells[0]["sentence"]
    counts = Counter(c["verdict"] for c in cells)
    worst = "unfair" if counts.get("unfair") else max(counts, key=counts.get, default="")
    tally = ", ".join(f"{n} {v}" for v, n in counts.most_common())
    # On a skill axis every cell repeats its combination's sentence: count combinations.
    across = {c["combination"]: c["across_skill"] for c in cells if "across_skill" in c}
    if across:
        labels = Counter(a.split(":")[0] for a in across.values())
        noun = "verdict" if len(across) == 1 else "verdicts"
        tally += f"; across skill levels, {len(across)} {noun}: " + ", ".join(
            f"{labels.get(k, 0)} {k}" for k in LABELS
        )
    return worst, f"{len(cells)} cells: {tally}."


def studies(folder: Path) -> list[tuple[str, dict]]:
    """(folder name, summary) of every report directly under ``folder``, by name."""
    out = []
    for path in sorted(folder.glob(f"*/{SUMMARY_JSON}")):
        try:
            out.append((path.parent.name, json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, json.JSONDecodeError):
            continue
    return out


def missing(folder: Path, scenarios: Path) -> list[str]:
    """The ready-made studies in ``scenarios`` (every scenario but the demo and the space
    files, as `make reports` names their report folders) with no report in ``folder``."""
    if not scenarios.is_dir():
        return []
    built = {name for name, _ in studies(folder)}
    names = sorted(
        p.stem
        for p in scenarios.glob("*.toml")
        if p.stem != "demo" and not p.stem.endswith("-space")
    )
    return [n for n in names if n not in built]


def write_index(folder: str | Path, scenarios: str | Path = "scenarios") -> Path:
    """Write ``index.html`` and ``index.md`` listing every report in ``folder``, and the
    ready-made studies of ``scenarios`` that have none there (and how to build them)."""
    folder = Path(folder)
    e = html.escape
    items, md = [], ["# simkit studies", ""]
    absent = missing(folder, Path(scenarios))
    for name, summary in studies(folder):
        verdict, sentence = study_line(summary)
        title = str(summary.get("title") or name)
        link = f"{name}/index.html"
        items.append(
            f'<li><a href="{e(link, quote=True)}">{e(title)}</a> '
            f'<span class="v v-{e(verdict.split()[0] if verdict else "", quote=True)}">'
            f"{e(verdict)}</span>: {e(sentence)}"
            f'<div class="d">{e(str(summary.get("description") or ""))}</div></li>'
        )
        md.append(
            f"- [{e(title, quote=False)}]({link}): **{e(verdict, quote=False)}**: "
            f"{e(sentence, quote=False)}"
        )
    lead = f"{len(items)} reports here; each line gives the study's verdict and links to it."
    rest = (
        f"Not built here ({len(absent)}): {', '.join(absent)}. `make reports` runs every "
        "ready-made study and writes its report into this folder (about an hour on 2 cores)."
        if absent
        else ""
    )
    md[2:2] = [lead, ""] + ([rest, ""] if rest else [])
    page = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="generator" content="{GENERATOR}"><title>simkit studies</title>'
        f"<style>{_CSS}</style></head><body><h1>simkit studies</h1>"
        f"<p>{e(lead)}</p>"
        f"<ul>{''.join(items)}</ul>"
        + (f'<p class="d">{e(rest)}</p>' if rest else "")
        + "</body></html>\n"
    )
    index = folder / "index.html"
    index.write_text(page, encoding="utf-8")
    (folder / "index.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    return index


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    print(write_index(*(args or ["reports"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
