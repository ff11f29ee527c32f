"""Plain-text facts about a compiled track, for ``simkit tracks list`` and ``tracks check``."""

from __future__ import annotations

import numpy as np

from simkit.tracks.compiled import (
    F_CLOSED,
    F_PAST_FINISH,
    F_TREE,
    CompiledTrack,
)


def lanes_text(track: CompiledTrack) -> str:
    """Track width: "3", or "3-5" where it changes."""
    widths = [int(track.lane[track.segment == g].max()) + 1 for g in np.unique(track.segment)]
    lo, hi = min(widths), max(widths)
    return str(lo) if lo == hi else f"{lo}-{hi}"


def row_of(track: CompiledTrack, s: int) -> int:
    """The space's row within its lane of its segment (0 = the segment's first)."""
    same = (track.segment == track.segment[s]) & (track.lane == track.lane[s])
    return int(np.sum(same & (track.progress < track.progress[s])))


def list_row(track: CompiledTrack) -> dict:
    """One row of ``simkit tracks list``."""
    return {
        "name": track.name,
        "family": track.family or "-",
        "lanes": lanes_text(track),
        "spaces": track.n_spaces,
        "corners": track.n_corners,
        "title": track.title,
    }


def check_lines(track: CompiledTrack) -> list[str]:
    """The summary ``simkit tracks check`` prints for a valid track."""
    side = {1: "left", -1: "right"}
    lines = [
        f"name      {track.name}",
        f"title     {track.title}",
        f"family    {track.family or '-'}",
        f"lanes     {lanes_text(track)}",
        f"spaces    {track.n_spaces}",
        f"length    {track.finish_progress:.1f} spaces along the centreline to the finish line",
        f"corners   {track.n_corners}",
    ]
    for k in range(track.n_corners):
        g = int(track.corner_segment[k])
        on = track.segment == g
        per_lane = [int(np.sum(on & (track.lane == ln))) for ln in range(track.lane[on].max() + 1)]
        if track.corner_turn[k] < 0:
            per_lane = per_lane[::-1]
        safety = f"safety {track.corner_safety[k]}" if track.corner_safety[k] else "no safety"
        tight = "  tight" if track.corner_tight[k] else ""
        lines.append(
            f"  {k + 1:<2} segment {g:<3} {side[int(track.corner_turn[k])]:<5} "
            f"{safety:<9}  spaces inside to outside {'/'.join(map(str, per_lane))}{tight}"
        )
    slots = " ".join(
        f"{k + 1}:[{row_of(track, int(s))},{int(track.lane[s])}]"
        for k, s in enumerate(track.start_slots)
    )
    lines.append(f"start     ST1 slots [row,lane] {slots}; ST2 start row of {len(track.start_row)}")
    fin = int(track.segment[np.flatnonzero(track.flags & F_PAST_FINISH)[0]])
    runoff = float(track.progress.max() - track.finish_progress)
    lines.append(
        f"finish    segment {fin}, flag on the {side[track.flag_side]}, run-off {runoff:.1f}"
    )
    n_tree = int(np.sum((track.flags & F_TREE) != 0))
    n_closed = int(np.sum((track.flags & F_CLOSED) != 0))
    kinds = ", ".join(b[0] for b in track.buildings) or "none"
    lines.append(
        f"features  {_count(n_tree, 'tree')}, {_count(n_closed, 'closed space')}, "
        f"buildings: {kinds}"
    )
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
