"""A report as a list of blocks, rendered to self-contained HTML and to Markdown.

Keeping the content separate from the two renderings guarantees that ``index.html`` and
``report.md`` say the same thing, and gives escaping exactly one place: every string a
block carries is plain text (labels, bot names and file names come from users) and is
escaped by the renderer, never trusted as markup.
"""

from __future__ import annotations

import base64
import html
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.files import named

GENERATOR = "simkit report"


def prepare(out_dir: Path) -> None:
    """Create ``out_dir``; if it holds an earlier simkit report, remove its PNGs and CSVs.

    A report rebuilt with fewer cells must not leave the old cells' plots behind. Files
    in a folder that is not a simkit report are never touched.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    index = out_dir / "index.html"
    if index.is_file() and f'content="{GENERATOR}"' in index.read_text(errors="replace")[:2000]:
        for old in [*out_dir.glob("*.png"), *out_dir.glob("*.csv")]:
            old.unlink()


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    """Plain text; ``css`` names a style of the HTML page ("lede", "facts", "warning")."""

    text: str
    css: str = ""


@dataclass(frozen=True)
class Verdicts:
    """The answer first: one line per cell, ``(verdict, sentence, detail)`` each.

    ``verdict`` picks the colour (fair, unfair, ...); the sentence is what a reader needs;
    the detail (bots, decided races) follows in smaller type.
    """

    rows: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Table:
    """A table shown in the report; ``csv`` is the file name it is also written to.

    ``collapsed``: shown folded (HTML ``<details>``, its caption as the summary) so the
    page reads top-down; None folds the raw tables, those wider than
    :data:`MAX_OPEN_COLUMNS` columns or longer than :data:`MAX_OPEN_ROWS` rows. The CSV
    always holds every column and row under its own name.
    """

    frame: pd.DataFrame
    csv: str
    caption: str = ""
    collapsed: bool | None = None

    @property
    def folded(self) -> bool:
        if self.collapsed is not None:
            return self.collapsed
        return len(self.frame.columns) > MAX_OPEN_COLUMNS or len(self.frame) > MAX_OPEN_ROWS

    def shown(self) -> pd.DataFrame:
        """The frame as a reader sees it: the verdict columns first, after the names."""
        cols = list(self.frame.columns)
        first = [c for c in ("cell", "label", "combination") if c in cols]
        lead = [c for c in cols if c in VERDICT_COLUMNS or str(c).startswith("verdict ")]
        return self.frame[first + lead + [c for c in cols if c not in first + lead]]


MAX_OPEN_COLUMNS = 10
MAX_OPEN_ROWS = 40
VERDICT_COLUMNS = ("verdict", "across", "across_skill")


def header(column) -> str:
    """A column's name for reading: ``win_rate`` -> ``win rate`` (CSVs keep the name)."""
    return str(column).replace("_", " ")


@dataclass(frozen=True)
class Figure:
    """A PNG written next to the report; embedded in the HTML as base64."""

    png: str
    caption: str


@dataclass
class Document:
    title: str
    blocks: list = field(default_factory=list)

    def add(self, *blocks) -> None:
        self.blocks.extend(blocks)


def fmt(value) -> str:
    """Numbers for reading: 4 significant digits, integers whole, NaN as a dash."""
    if value is None or value is pd.NA:
        return "–"
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, int | np.integer):
        return _whole(int(value))
    if isinstance(value, float | np.floating):
        v = float(value)
        if math.isnan(v):
            return "–"
        if math.isinf(v):
            return "∞" if v > 0 else "-∞"
        if v == int(v) and abs(v) < 1e15:
            return _whole(int(v))
        if abs(v) >= 1e4 and abs(v) < 1e15:
            return f"{v:,.0f}"
        return f"{v:.4g}"
    if isinstance(value, list | tuple | np.ndarray):
        return ", ".join(fmt(x) for x in value)
    return str(value)


def _whole(n: int) -> str:
    """Whole numbers: thousands separated from 10,000 up (years and small counts as is)."""
    return f"{n:,}" if abs(n) >= 10_000 else str(n)


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;
max-width:1100px;padding:0 1rem;color:#1d2430;line-height:1.45}
h1{border-bottom:2px solid #2b6cb0;padding-bottom:.3rem}h2{margin-top:2.2rem;color:#2b4a70}
table{border-collapse:collapse;margin:.6rem 0 .3rem;font-size:.86rem}
th,td{border:1px solid #cbd3dd;padding:.2rem .5rem;text-align:right}
th{background:#edf2f7}td.t{text-align:left}.wide{overflow-x:auto}
.caption{font-size:.82rem;color:#4a5568;margin-bottom:1rem}
figure{margin:1rem 0}img{max-width:100%;border:1px solid #e2e8f0}
pre{background:#f7fafc;border:1px solid #e2e8f0;padding:.6rem;overflow-x:auto}
.verdict-fair{color:#276749;font-weight:600}.verdict-unfair{color:#c53030;font-weight:600}
h1{margin-bottom:.4rem}.lede{font-size:1.02rem;margin:.2rem 0}
.facts{font-size:.84rem;color:#4a5568;margin:.2rem 0 .4rem}
.warning{background:#fff5f5;border-left:4px solid #c53030;padding:.3rem .6rem}
ul.verdicts{list-style:none;padding:0;margin:.3rem 0}
ul.verdicts li{margin:.1rem 0;padding:.05rem .5rem;border-left:4px solid #a0aec0;
line-height:1.3}.facts+h2{margin-top:1rem}
ul.verdicts li.v-fair{border-color:#38a169}ul.verdicts li.v-unfair{border-color:#e53e3e}
ul.verdicts li.v-inconclusive{border-color:#d69e2e}ul.verdicts li.v-no{border-color:#718096}
ul.verdicts li.v-robust{border-color:#3182ce}ul.verdicts li.v-skill-dependent{border-color:#d69e2e}
ul.verdicts li.v-undetermined{border-color:#718096}
ul.verdicts li.v-style-dependent{border-color:#805ad5}
.detail{font-size:.8rem;color:#4a5568}
details{margin:.4rem 0}summary{cursor:pointer;font-size:.86rem;color:#2b4a70}
p code{background:#edf2f7;padding:0 .25rem;border-radius:3px;overflow-wrap:anywhere}
"""


def _html_table(t: Table) -> str:
    e = html.escape
    frame = t.shown()
    head = "".join(f"<th>{e(header(c))}</th>" for c in frame.columns)
    rows = []
    for rec in frame.itertuples(index=False):
        cells = []
        for col, v in zip(frame.columns, rec, strict=True):
            text = fmt(v)
            cls = "" if isinstance(v, int | float | np.number) else ' class="t"'
            if col == "verdict" and text in ("fair", "unfair"):
                cls = f' class="t verdict-{text}"'
            cells.append(f"<td{cls}>{e(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    cap = f" {e(t.caption)}" if t.caption else ""
    link = f'<a href="{e(t.csv, quote=True)}">{e(t.csv)}</a>'
    table = (
        f'<div class="wide"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )
    if t.folded:
        size = f"{len(frame)} rows × {len(frame.columns)} columns"
        return (
            f"<details><summary>{cap.strip() or e(t.csv)} ({size}; CSV: {link})</summary>"
            f"{table}</details>"
        )
    return f'{table}<div class="caption">{cap.strip()} (CSV: {link})</div>'


def _html_text(text: str) -> str:
    """Escaped text in which a `command` or `name` between backticks (as Markdown writes
    it) is set as code, instead of showing the backticks."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def to_html(doc: Document, out_dir: Path) -> str:
    """The whole report as one HTML page with its plots embedded (no external files)."""
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="{GENERATOR}">',
        f"<title>{e(doc.title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{e(doc.title)}</h1>",
    ]
    for b in doc.blocks:
        if isinstance(b, Heading):
            parts.append(f"<h{b.level}>{e(b.text)}</h{b.level}>")
        elif isinstance(b, Paragraph):
            cls = f' class="{e(b.css, quote=True)}"' if b.css else ""
            parts.append(f"<p{cls}>{_html_text(b.text)}</p>")
        elif isinstance(b, Verdicts):
            items = []
            for verdict, sentence, detail in b.rows:
                kind = e(verdict.split()[0].rstrip(":"), quote=True)
                extra = f' <span class="detail">{e(detail)}</span>' if detail else ""
                items.append(
                    f'<li class="verdict v-{kind}"><span class="sentence">{e(sentence)}</span>'
                    f"{extra}</li>"
                )
            parts.append(f'<ul class="verdicts">{"".join(items)}</ul>')
        elif isinstance(b, Code):
            parts.append(f"<pre><code>{e(b.text)}</code></pre>")
        elif isinstance(b, Table):
            parts.append(_html_table(b))
        elif isinstance(b, Figure):
            data = base64.b64encode((out_dir / b.png).read_bytes()).decode("ascii")
            parts.append(
                f'<figure><img src="data:image/png;base64,{data}" alt="{e(b.caption, quote=True)}">'
                f'<figcaption class="caption">{e(b.caption)}</figcaption></figure>'
            )
    parts.append("</body></html>")
    return "\n".join(parts)


def _md_text(text: str) -> str:
    """Markdown-safe text: ``<`` and ``>`` become entities, an ``&`` only where it would
    start one (a track's ``s-bends?corner.1.safety=5&corner.2...`` stays readable in the
    Markdown source), and a link's ``](`` is broken, so a name is never markup
    (``[x](javascript:...)`` stays text)."""
    text = re.sub(r"&(?=#?\w+;)", "&amp;", text).replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("\n", " ").replace("](", "]\\(")


def _md_cell(text: str) -> str:
    return _md_text(text).replace("|", "\\|")


def to_markdown(doc: Document) -> str:
    """The report as Markdown, with the PNGs and CSVs referenced by file name."""
    lines = [f"# {_md_text(doc.title)}", ""]
    for b in doc.blocks:
        if isinstance(b, Heading):
            lines += ["#" * b.level + " " + _md_text(b.text), ""]
        elif isinstance(b, Paragraph):
            lines += [_md_text(b.text), ""]
        elif isinstance(b, Verdicts):
            for _, sentence, detail in b.rows:
                lines.append(
                    f"- **{_md_text(sentence)}**" + (f" {_md_text(detail)}" if detail else "")
                )
            lines.append("")
        elif isinstance(b, Code):
            lines += ["```", b.text.replace("```", "'''"), "```", ""]
        elif isinstance(b, Table):
            frame = b.shown()
            cap = _md_text(b.caption) + " " if b.caption else ""
            if b.folded:  # GitHub and most viewers fold it; the tags are ours, not user text
                lines += [f"<details><summary>{cap}({_md_text(b.csv)})</summary>", ""]
            cols = [_md_cell(header(c)) for c in frame.columns]
            lines.append("| " + " | ".join(cols) + " |")
            lines.append("|" + "|".join("---" for _ in cols) + "|")
            for rec in frame.itertuples(index=False):
                lines.append("| " + " | ".join(_md_cell(fmt(v)) for v in rec) + " |")
            if b.folded:
                lines += ["", "</details>"]
            lines += ["", f"{cap}(CSV: [{_md_text(b.csv)}]({b.csv}))", ""]
        elif isinstance(b, Figure):
            lines += [f"![{_md_cell(b.caption)}]({b.png})", "", f"*{_md_text(b.caption)}*", ""]
    return "\n".join(lines)


def write(doc: Document, out_dir: Path) -> Path:
    """Write the CSVs, ``index.html`` and ``report.md`` (PNGs are already in ``out_dir``)."""
    for b in doc.blocks:
        if isinstance(b, Table):
            with named(out_dir / b.csv):
                b.frame.to_csv(out_dir / b.csv, index=False)
    with named(out_dir / "report.md"):
        (out_dir / "report.md").write_text(to_markdown(doc), encoding="utf-8")
    index = out_dir / "index.html"
    with named(index):
        index.write_text(to_html(doc, out_dir), encoding="utf-8")
    return index
