"""Race a track the other way round (ST2 G "Reverse Tracks and Tight Corners").

Every corner raced the wrong way is a tight corner (and a tight corner raced the wrong way
is an ordinary one again); left and right swap, so do lanes and rows. The old run-off
becomes the start and the old start the run-off, with the finish line at the old start
line. A track file says ``reverse_of = "mm1-old-faithful"`` instead of listing segments.
"""

from __future__ import annotations

from dataclasses import replace

from simkit.errors import TrackError
from simkit.tracks.layout import corner_counts
from simkit.tracks.spec import Building, Segment, Spec


def reverse(base: Spec, header: Spec) -> Spec:
    """``base``'s segments raced backwards, under ``header``'s name, title, flag and notes."""
    segs = base.segments
    if segs[-1].is_corner:
        raise TrackError(
            f"cannot reverse '{header.reverse_of}': its last segment becomes the start and "
            "must be a straight",
            path=header.path,
        )
    out = []
    for new_i, g in enumerate(range(len(segs) - 1, -1, -1)):
        seg = segs[g]
        continues = None if new_i == 0 else _inverse_continues(segs[g + 1], seg.lanes)
        out.append(
            replace(
                seg,
                index=new_i,
                kind="start" if new_i == 0 else ("corner" if seg.is_corner else "straight"),
                continues=continues,
                turn=-seg.turn,
                tight=seg.is_corner and not seg.tight,
                finish=g == 0,
                trees=_flip_cells(seg, seg.trees),
                closed=_flip_cells(seg, seg.closed),
                buildings=tuple(_flip_building(seg, b) for b in seg.buildings),
                slots=None,
            )
        )
    return replace(header, segments=tuple(out), reverse_of=base.name)


def _inverse_continues(after: Segment, lanes: int) -> tuple[int, ...]:
    """The lane mapping into a segment of ``lanes`` lanes from ``after`` (raced backwards)."""
    assert after.continues is not None
    cont = [-1] * lanes
    for i, p in enumerate(after.continues):
        if p >= 0:
            cont[lanes - 1 - p] = after.lanes - 1 - i
    return tuple(cont)


def _flip_cells(seg: Segment, cells) -> tuple[tuple[int, int], ...]:
    rows = corner_counts(seg) if seg.is_corner else [seg.length] * seg.lanes
    return tuple((rows[ln] - 1 - r, seg.lanes - 1 - ln) for r, ln in cells)


def _flip_building(seg: Segment, b: Building) -> Building:
    if b.kind == "tavern":
        return replace(b, row=seg.length - 1 - b.row, side=-b.side)
    return replace(b, row=seg.length - 2 - b.row, lane=seg.lanes - 2 - b.lane)
