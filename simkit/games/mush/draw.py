"""A picture of a MUSH route: boards and zones, trails and links, towns and rough terrain.

Columns run left to right (the boards in race order), trails top to bottom. Solid lines
are main trails, dashed lines the links; lines where an avalanche marker may not lie
(rough terrain at an end, text) are drawn thinner. An optional heat array (one count per
space) shades the spaces, so reports can show where sleds rest or fail.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from simkit.games.mush.route import ROUGH, TOWN, ZONES, Route

_ZONE_COLOUR = {"south": "#fbe9d0", "central": "#e3f0e3", "north": "#dde8f7"}


def _xy(route: Route, v: int) -> tuple[float, float]:
    mask = int(route.trails_mask[v])
    trails = [t for t in range(route.n_trails) if mask >> t & 1]
    return float(route.col[v]), -float(np.mean(trails))


def draw_route(
    route: Route,
    path: str | Path,
    heat: np.ndarray | None = None,
    title: str | None = None,
    sleds: list[list[int]] | None = None,
) -> Path:
    """Draw ``route`` to a PNG at ``path`` (and return the path).

    ``sleds``: for a race picture, each seat's spaces in the order it visited them; its
    trail is drawn in its own colour and its final space marked with its seat number.
    """
    path = Path(path)
    width = max(8.0, route.col.max() * 0.22)
    fig, ax = plt.subplots(figsize=(width, 1.2 + route.n_trails * 1.1))
    for b in route.boards:
        x0, x1 = b.first_col - 0.5, b.first_col + b.length - 0.5
        ax.axvspan(x0, x1, color=_ZONE_COLOUR[ZONES[b.zone]], zorder=0)
        ax.text((x0 + x1) / 2, 0.75, f"{b.name} ({ZONES[b.zone]})", ha="center", fontsize=8)
        ax.axvline(x0, color="#999999", lw=0.6, zorder=1)
    for e in range(route.n_lines):
        (x0, y0), (x1, y1) = _xy(route, int(route.line_from[e])), _xy(route, int(route.out_to[e]))
        ax.plot(
            [x0, x1],
            [y0, y1],
            color="#555555",
            ls="--" if route.line_dashed[e] else "-",
            lw=1.2 if route.line_avalanche[e] else 0.6,
            zorder=2,
        )
    xy = np.array([_xy(route, v) for v in range(route.n_spaces)])
    wild = route.kind != TOWN
    colours = np.where(route.kind == ROUGH, "#8b5a2b", "white")
    if heat is not None and heat.max() > 0:
        shade = plt.cm.Reds(0.15 + 0.85 * heat / heat.max())
        colours = [shade[v] if wild[v] else "white" for v in range(route.n_spaces)]
        colours = np.array(colours, dtype=object)
    for v in np.flatnonzero(wild):
        marker = "^" if route.kind[v] == ROUGH else "o"
        ax.scatter(
            *xy[v], s=28, marker=marker, c=[colours[v]], edgecolors="black", lw=0.5, zorder=3
        )
    for v in np.flatnonzero(~wild):
        ax.scatter(*xy[v], s=70, marker="s", c="#d62728", edgecolors="black", lw=0.6, zorder=4)
        ax.annotate(
            route.town_name[v],
            xy[v],
            xytext=(0, -11),
            textcoords="offset points",
            ha="center",
            fontsize=6,
            rotation=30,
            zorder=5,
        )
    for seat, visited in enumerate(sleds or []):
        pts = xy[visited] + np.array([0.0, 0.08 * (seat - 2.5)])
        colour = plt.cm.tab10(seat % 10)
        ax.plot(pts[:, 0], pts[:, 1], color=colour, lw=1.6, alpha=0.8, zorder=6)
        ax.annotate(
            str(seat),
            pts[-1],
            color="white",
            ha="center",
            va="center",
            fontsize=7,
            bbox={"boxstyle": "circle", "fc": colour, "ec": "black", "lw": 0.5},
            zorder=7,
        )
    ax.set_title(title or f"{route.name}: {route.title}", fontsize=9)
    ax.set_xlim(-1, route.col.max() + 1)
    ax.set_ylim(-route.n_trails + 0.2, 1.0)
    ax.set_yticks(
        [-t for t in range(route.n_trails)], [f"trail {t}" for t in range(route.n_trails)]
    )
    ax.set_xlabel("column (race direction →); ■ town, ▲ rough terrain, - - link")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
