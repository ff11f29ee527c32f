"""Draw a compiled track the way a player sees the board, optionally with a heat map.

Reports reuse the same drawing: ``values`` colours every space (crashes, dents, overtakes
per space), ``sleds`` marks final positions and ``paths`` traces moves. Figures are made
without pyplot, so they render with Agg, never open a window and need no closing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib import patheffects
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Polygon, Rectangle

from simkit.tracks.compiled import (
    F_CLOSED,
    F_CORNER,
    F_PAST_FINISH,
    F_TIGHT_INSIDE,
    F_TREE,
    F_TRIG_BOTHY,
    F_TRIG_CHAPEL,
    F_TRIG_KENNELS,
    F_TRIG_TAVERN,
    CompiledTrack,
)

SNOW = "#ffffff"
CORNER_SNOW = "#eaf2fb"
BACKGROUND = "#d9e6f2"
LINE = "#4a5560"
WALL = "#1d2630"
TRIGGER_COLOUR = {
    F_TRIG_KENNELS: "#f3d9a4",
    F_TRIG_CHAPEL: "#d8cdf0",
    F_TRIG_BOTHY: "#cfe8cf",
    F_TRIG_TAVERN: "#f5c6c0",
}
BUILDING_STYLE = {
    "kennels": ("#b07a2a", "K"),
    "chapel": ("#6b58a8", "C"),
    "bothy": ("#4f8a4f", "B"),
    "tavern": ("#b4473c", "T"),
}
TOL = 1e-6


def _arc_outline(track: CompiledTrack, s: int, steps: int = 8) -> np.ndarray:
    """The space's outline, with the sides of corner spaces drawn as arcs."""
    bl, br, fr, fl = track.outline[s]
    if not track.flags[s] & F_CORNER:
        return track.outline[s]
    # The turning centre is where the back and front edges (both radial) meet.
    d1, d2 = br - bl, fr - fl
    den = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(den) < 1e-12:
        return track.outline[s]
    t = ((fl - bl)[0] * d2[1] - (fl - bl)[1] * d2[0]) / den
    c = bl + t * d1

    def arc(p, q):
        a0, a1 = np.arctan2(*(p - c)[::-1]), np.arctan2(*(q - c)[::-1])
        da = (a1 - a0 + np.pi) % (2 * np.pi) - np.pi
        r = np.linalg.norm(p - c)
        ang = a0 + da * np.linspace(0, 1, steps)
        return c + r * np.column_stack([np.cos(ang), np.sin(ang)])

    return np.vstack([arc(bl, fl), arc(fr, br)])


def _walls(track: CompiledTrack) -> list:
    """Straight wall pieces across the track: where a lane ends or a new lane starts.

    Only a lane's first and last space in a segment can have one: inside a tight corner
    straight moves are redirected (ST2 G), which draws no wall.
    """
    ns = track.next_straight
    has_pred = np.zeros(track.n_spaces, dtype=bool)
    has_pred[ns[ns >= 0]] = True
    out = []
    for g in np.unique(track.segment):
        on = track.segment == g
        for ln in np.unique(track.lane[on]):
            ids = np.flatnonzero(on & (track.lane == ln))
            first, last = ids[np.argmin(track.progress[ids])], ids[np.argmax(track.progress[ids])]
            if ns[last] < 0:
                out.append((track.outline[last][3], track.outline[last][2]))
            if not has_pred[first]:
                out.append((track.outline[first][0], track.outline[first][1]))
    return out


def _sides(track: CompiledTrack) -> list[np.ndarray]:
    """Arc-following side walls of every lane at the edge of its segment."""
    out = []
    for s in range(track.n_spaces):
        g, ln = track.segment[s], track.lane[s]
        width = track.lane[track.segment == g].max()
        if ln != 0 and ln != width:
            continue
        poly = _arc_outline(track, s)
        half = len(poly) // 2 if track.flags[s] & F_CORNER else 2
        if ln == 0:
            out.append(poly[:half] if track.flags[s] & F_CORNER else poly[[0, 3]])
        if ln == width:
            out.append(poly[half:] if track.flags[s] & F_CORNER else poly[[1, 2]])
    return out


def _line_across(track: CompiledTrack, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ends of the line formed by the back edges of the spaces in ``mask``."""
    idx = np.flatnonzero(mask)
    left = idx[np.argmin(track.lane[idx])]
    right = idx[np.argmax(track.lane[idx])]
    return track.outline[left][0], track.outline[right][1]


def draw_track(
    track: CompiledTrack,
    *,
    values: Sequence[float] | np.ndarray | None = None,
    cmap: str = "magma",
    sleds: Sequence[tuple[int, str, str]] | None = None,
    paths: Sequence[tuple[Sequence[int], str]] | None = None,
    ax=None,
    title: str | None = None,
    segments: bool = False,
    value_label: str = "",
    sled_names: Sequence[str] | None = None,
    marks: Sequence[tuple[int, str]] | None = None,
) -> Figure:
    """Draw ``track``: lanes and spaces, corners with safety speeds, start, finish, features.

    Args:
        values: one number per space, drawn as a heat map with a colour bar (NaN: none).
        cmap: matplotlib colour map for ``values``.
        sleds: ``(space, colour, label)`` markers, e.g. final positions of a race.
        paths: ``(spaces, colour)`` polylines through space centres, e.g. a race's moves.
        ax: draw into this axes instead of a new figure.
        title: figure title (default: the track's title and name).
        segments: label every segment with its index (to find one an error names).
        value_label: colour bar label.
        sled_names: legend text per sled marker (default ``sled <label>``); the legend
            sits below the board so it covers nothing.
        marks: ``(space, label)`` rings with a label, e.g. the hot spaces a report lists.

    Returns:
        The matplotlib Figure.
    """
    if values is not None:
        values = np.asarray(values, dtype=float)
        if values.shape != (track.n_spaces,):
            raise ValueError(f"values must have one entry per space ({track.n_spaces})")
    lo, hi = track.outline.reshape(-1, 2).min(axis=0), track.outline.reshape(-1, 2).max(axis=0)
    pad = 2.2
    span = hi - lo + 2 * pad
    if ax is None:
        scale = min(15 / span[0], 11 / span[1], 0.5)
        fig = Figure(figsize=(max(span[0] * scale, 5), max(span[1] * scale, 4) + 0.6))
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    unit = _points_per_unit(fig, ax, span)
    ax.set_facecolor(BACKGROUND)
    ax.set_aspect("equal")
    ax.set_xlim(lo[0] - pad, hi[0] + pad)
    ax.set_ylim(lo[1] - pad, hi[1] + pad)
    ax.set_xticks([])
    ax.set_yticks([])

    polys = [_arc_outline(track, s) for s in range(track.n_spaces)]
    fill = np.where(track.flags & F_CORNER, CORNER_SNOW, SNOW).astype(object)
    for flag, colour in TRIGGER_COLOUR.items():
        fill[(track.flags & flag) != 0] = colour
    fill[(track.flags & F_CLOSED) != 0] = "#9aa3ab"
    ax.add_collection(
        PatchCollection(
            [Polygon(p) for p in polys],
            facecolors=list(fill),
            edgecolors=LINE,
            linewidths=max(0.25, unit * 0.025),
        )
    )
    mappable = None
    if values is not None:
        ok = np.isfinite(values)
        coll = PatchCollection([Polygon(polys[s]) for s in np.flatnonzero(ok)], cmap=cmap)
        coll.set_array(values[ok])
        coll.set_edgecolor(LINE)
        coll.set_linewidth(max(0.25, unit * 0.025))
        ax.add_collection(coll)
        mappable = coll
    ax.add_collection(LineCollection(_sides(track), colors=WALL, linewidths=unit * 0.1))
    ax.add_collection(LineCollection(_walls(track), colors=WALL, linewidths=unit * 0.1))

    _draw_tight(ax, track, polys)
    _draw_level_buds(ax, track)
    _draw_corners(ax, track, unit)
    _draw_start_finish(ax, track, unit)
    _draw_features(ax, track, unit)
    if segments:
        _draw_segment_labels(ax, track, unit)
    for spaces, colour in paths or ():
        pts = track.centre[np.asarray(list(spaces), dtype=int)]
        ax.plot(pts[:, 0], pts[:, 1], "-", color=colour, lw=unit * 0.09, alpha=0.8, zorder=6)
    _draw_marks(ax, track, unit, marks or ())
    _draw_sleds(ax, track, unit, sleds or (), sled_names)
    if mappable is not None:
        fig.colorbar(mappable, ax=ax, shrink=0.7, label=value_label)
    ax.set_title(title if title is not None else f"{track.title}  ({track.name})")
    return fig


# A dark outline keeps white text readable on any marker colour, yellow included.
_OUTLINE = [patheffects.withStroke(linewidth=2.2, foreground=WALL)]


def _draw_sleds(ax, track: CompiledTrack, unit: float, sleds, names) -> None:
    """Sled markers with outlined labels, and a legend of their colours below the board."""
    handles = []
    for k, (space, colour, label) in enumerate(sleds):
        x, y = track.centre[space]
        ax.add_patch(Circle((x, y), 0.45, facecolor=colour, edgecolor=WALL, lw=1.2, zorder=7))
        ax.text(
            x,
            y,
            label,
            ha="center",
            va="center",
            fontsize=max(7.0, unit * 0.34),
            zorder=8,
            color="white",
            fontweight="bold",
            path_effects=_OUTLINE,
        )
        name = names[k] if names is not None else f"sled {label}"
        handles.append(
            ax.scatter([], [], s=80, color=colour, edgecolors=WALL, linewidths=1, label=name)
        )
    if handles:
        ax.legend(
            handles=handles,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.01),
            ncol=min(len(handles), 4),
            fontsize=8,
            frameon=False,
        )


def _draw_marks(ax, track: CompiledTrack, unit: float, marks) -> None:
    """Rings with a label on chosen spaces (the hot spaces of a report's table). A space
    past the finish line gets a dashed grey ring and says so: a crash there costs a sled
    that has finished nothing (R-18, R-26), so it is not a place to change the track."""
    for space, label in marks:
        x, y = track.centre[space]
        past = bool(track.flags[space] & F_PAST_FINISH)
        ax.add_patch(
            Circle(
                (x, y),
                0.6,
                facecolor="none",
                edgecolor="#8a8a8a" if past else "#111111",
                lw=1.2 if past else 1.6,
                linestyle="--" if past else "-",
                zorder=9,
            )
        )
        if past:
            ax.text(
                x,
                y - 0.95,
                "past the finish",
                ha="center",
                va="top",
                fontsize=max(5.5, unit * 0.25),
                color="#4a4a4a",
                zorder=10,
                path_effects=[patheffects.withStroke(linewidth=2.0, foreground="white")],
            )
        ax.text(
            x,
            y,
            label,
            ha="center",
            va="center",
            fontsize=max(7.0, unit * 0.4),
            fontweight="bold",
            color="white",
            zorder=10,
            path_effects=_OUTLINE,
        )


def _points_per_unit(fig: Figure, ax, span: np.ndarray) -> float:
    """Roughly how many points one board unit covers, to size lines and text."""
    w, h = fig.get_size_inches()
    pos = ax.get_position()
    return 72 * min(w * pos.width / span[0], h * pos.height / span[1])


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def _entry_mask(track: CompiledTrack, g: int) -> np.ndarray:
    on = track.segment == g
    first = track.back[on].min()
    return on & (np.abs(track.back - first) < TOL)


def _draw_corners(ax, track: CompiledTrack, unit: float) -> None:
    """Entry lines, the corner's number (from 1, as reports count corners) inside it, and
    the safety speed on a sign outside (R-15)."""
    for k in range(track.n_corners):
        p, q = _line_across(track, _entry_mask(track, int(track.corner_segment[k])))
        inner = _unit(p - q) if track.corner_turn[k] > 0 else _unit(q - p)
        at = (p if track.corner_turn[k] > 0 else q) + inner * 1.0
        ax.text(
            *at,
            f"C{k + 1}",
            ha="center",
            va="center",
            fontsize=max(6.5, unit * 0.42),
            fontweight="bold",
            color="#1d2630",
            zorder=6,
            bbox={"boxstyle": "round,pad=0.2", "fc": "#fdfefe", "ec": "#7f8c99", "lw": 0.6},
        )
        # Only corners with an ST1 safety speed get the red entry line and sign.
        safe = track.corner_safety[k] > 0
        ax.plot(
            *np.column_stack([p, q]),
            color="#c0392b" if safe else "#7f8c99",
            lw=unit * (0.12 if safe else 0.05),
            ls="-" if safe else (0, (3, 2)),
            zorder=4,
            solid_capstyle="butt",
        )
        if not safe:
            continue
        across = _unit(q - p)
        at = q + across * 1.1 if track.corner_turn[k] > 0 else p - across * 1.1
        ax.add_patch(
            Circle(at, 0.62, facecolor="white", edgecolor="#c0392b", lw=unit * 0.12, zorder=5)
        )
        ax.text(
            *at,
            str(int(track.corner_safety[k])),
            ha="center",
            va="center",
            fontsize=unit * 0.55,
            fontweight="bold",
            zorder=6,
        )


BUD_COLOURS = ("#e67e22", "#2e86c1", "#8e44ad", "#27ae60", "#c0392b", "#d4ac0d")


def _draw_level_buds(ax, track: CompiledTrack) -> None:
    """Coloured buds on corner spaces whose front edges are level across lanes, like the
    boards' guides (ST1 "Game Play", ST2 "Race Order")."""
    k = 0
    for g in track.corner_segment:
        on = np.flatnonzero(track.segment == g)
        end = track.level[on].max()
        for lvl in np.unique(track.level[on]):
            ids = on[track.level[on] == lvl]
            if lvl == end or len(ids) < 2:
                continue
            colour = BUD_COLOURS[k % len(BUD_COLOURS)]
            k += 1
            for s in ids:
                _bl, _br, fr, fl = track.outline[s]
                mid = (fr + fl) / 2 - _unit(fl - _bl) * 0.14
                ax.add_patch(Circle(mid, 0.09, facecolor=colour, edgecolor="none", zorder=4))


def _draw_tight(ax, track: CompiledTrack, polys: list) -> None:
    """Hatch the inside lane of tight corners (ST2 G): its sleds move first (R-29)."""
    idx = np.flatnonzero(track.flags & F_TIGHT_INSIDE)
    if len(idx):
        ax.add_collection(
            PatchCollection(
                [Polygon(polys[s]) for s in idx],
                facecolors="none",
                edgecolors="#c0392b",
                hatch="////",
                linewidths=0,
                alpha=0.6,
            )
        )


def _draw_start_finish(ax, track: CompiledTrack, unit: float) -> None:
    """Start line, numbered ST1 start spaces, chequered finish line and its flag."""
    row = track.start_row
    left, right = row[np.argmin(track.lane[row])], row[np.argmax(track.lane[row])]
    p, q = track.outline[left][3], track.outline[right][2]
    ax.plot(
        *np.column_stack([p, q]), color="#1f4e79", lw=unit * 0.14, zorder=4, solid_capstyle="butt"
    )
    for k, s in enumerate(track.start_slots):
        if s < 0:
            continue
        ax.text(
            *track.centre[s],
            str(k + 1),
            ha="center",
            va="center",
            fontsize=unit * 0.55,
            color="#1f4e79",
            fontweight="bold",
            zorder=5,
            bbox={"boxstyle": "circle,pad=0.2", "fc": "#dce9f7", "ec": "#1f4e79", "lw": 0.8},
        )
    finish = ((track.flags & F_PAST_FINISH) != 0) & (track.back <= track.finish_progress + TOL)
    p, q = _line_across(track, finish)
    across = q - p
    ahead_space = np.flatnonzero(finish)[0]
    bl, _br, _fr, fl = track.outline[ahead_space]
    fwd = _unit(fl - bl)
    n = max(2, round(float(np.linalg.norm(across)) / 0.3))
    squares = []
    colours = []
    for i in range(n):
        for j, off in enumerate((-0.3, 0.0)):
            a = p + across * i / n + fwd * off
            b = p + across * (i + 1) / n + fwd * off
            squares.append(Polygon([a, b, b + fwd * 0.3, a + fwd * 0.3]))
            colours.append("black" if (i + j) % 2 else "white")
    ax.add_collection(
        PatchCollection(squares, facecolors=colours, edgecolors="black", linewidths=0.3, zorder=4)
    )
    # The chequered flag: a pole continuing the line beyond the flag side's edge, the flag
    # at its tip pointing down the track (R-03 tie-breaks, R-05).
    end, out = (p, -_unit(across)) if track.flag_side > 0 else (q, _unit(across))
    base, top = end + out * 0.3, end + out * 1.7
    ax.plot(*np.column_stack([base, top]), color=WALL, lw=unit * 0.06, zorder=5)
    cells, ccols = [], []
    for i in range(3):
        for j in range(2):
            a = top - out * (0.25 * (j + 1)) + fwd * (0.25 * i)
            cells.append(Polygon([a, a + fwd * 0.25, a + fwd * 0.25 + out * 0.25, a + out * 0.25]))
            ccols.append("black" if (i + j) % 2 else "white")
    ax.add_collection(
        PatchCollection(cells, facecolors=ccols, edgecolors="black", linewidths=0.3, zorder=5)
    )


def _draw_features(ax, track: CompiledTrack, unit: float) -> None:
    """Trees, buildings with their letters, the tavern beside the track, track markers."""
    for s in np.flatnonzero(track.flags & F_TREE):
        c = track.centre[s]
        ax.add_patch(
            Polygon(
                c + np.array([(-0.3, -0.25), (0.3, -0.25), (0.0, 0.38)]),
                facecolor="#2e7d32",
                edgecolor="#1b4d1e",
                lw=0.5,
                zorder=5,
            )
        )
        ax.add_patch(
            Rectangle(c + np.array([-0.05, -0.38]), 0.1, 0.13, facecolor="#6d4c2f", zorder=5)
        )
    for s in np.flatnonzero(track.flags & F_CLOSED):
        ax.add_patch(
            Circle(track.centre[s], 0.28, facecolor="white", edgecolor="#5f6b75", lw=1.0, zorder=5)
        )
    for kind, cover, trig in track.buildings:
        colour, letter = BUILDING_STYLE[kind]
        if cover:
            cover = np.asarray(cover)
            pts = track.outline[cover].reshape(-1, 2)
            mid = pts.mean(axis=0)
            bl = track.outline[cover[np.lexsort((track.progress[cover], track.lane[cover]))[0]]]
            fwd, right = _unit(bl[3] - bl[0]), _unit(bl[1] - bl[0])
            corners = [
                mid + (sx * right + sy * fwd) * 0.85
                for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
            ]
            at = mid
        else:
            # The tavern's triggers are listed from the side it stands on.
            s0 = trig[0]
            bl, br, fr, fl = track.outline[s0]
            left_side = track.lane[s0] == 0
            edge_mid = (bl + fl) / 2 if left_side else (br + fr) / 2
            out = _unit(edge_mid - track.centre[s0])
            fwd = _unit(fl - bl)
            at = edge_mid + out * 1.0
            corners = [
                at + (sx * out + sy * fwd) * 0.6 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
            ]
        ax.add_patch(Polygon(corners, facecolor=colour, edgecolor=WALL, lw=1.0, zorder=5))
        ax.text(
            *at,
            letter,
            ha="center",
            va="center",
            color="white",
            fontweight="bold",
            fontsize=unit * 0.7,
            zorder=6,
        )


def _draw_segment_labels(ax, track: CompiledTrack, unit: float) -> None:
    """Each segment's index beside its first row, left of the track."""
    for g in np.unique(track.segment):
        mask = _entry_mask(track, int(g))
        p, q = _line_across(track, mask)
        at = p - _unit(q - p) * 0.7
        ax.text(
            *at, str(int(g)), ha="center", va="center", fontsize=unit * 0.4, color="#555", zorder=6
        )


def save_png(track: CompiledTrack, path, *, dpi: int = 130, **kwargs) -> None:
    """Draw ``track`` (options as :func:`draw_track`) and write it as a PNG to ``path``."""
    fig = draw_track(track, **kwargs)
    fig.savefig(path, dpi=dpi, bbox_inches="tight", facecolor="white")
