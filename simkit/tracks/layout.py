"""Lay a checked spec's segments out into spaces: progress along the centreline and shapes.

The model (DESIGN §2, docs/tracks.md): a straight of length n gives every lane n spaces of
length 1, level with their neighbours. A corner of angle θ and inner radius r gives lane k
counted from the inside the radius r+k+½ and max(1, round(θ·(r+k+½))) spaces spread evenly
over the corner, so inside lanes have fewer, longer spaces. Progress is measured along the
segment's centreline (radius r + lanes/2 on a corner): space j of n in a lane has its front
edge at corner_start + (j+1)/n · L_centre.

Drawing geometry follows a turtle along the centreline. Lanes that continue across a width
change keep their place on the board, so the centreline shifts sideways there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simkit.tracks.spec import Segment


@dataclass
class LaidSegment:
    """The spaces of one segment, lane by lane (lane 0 = leftmost), back to front."""

    start: float  # progress of the entry line
    end: float  # progress of the exit line
    back: list[list[float]]
    front: list[list[float]]
    outline: list[list[np.ndarray]]  # per lane, per space: (4, 2) BL, BR, FR, FL


def corner_counts(seg: Segment) -> list[int]:
    """Spaces per lane (lane numbered from the left) of a corner segment."""
    theta = math.radians(seg.angle)
    out = []
    for lane in range(seg.lanes):
        k = lane if seg.turn > 0 else seg.lanes - 1 - lane  # counted from the inside
        out.append(max(1, round(theta * (seg.radius + k + 0.5))))
    return out


def inside_rank(seg: Segment, lane: int, turn: int) -> int:
    """Lane counted from the inside of a ``turn`` (+1 left, -1 right)."""
    return lane if turn > 0 else seg.lanes - 1 - lane


class _Turtle:
    """Position and heading of the current segment's centreline entry point."""

    def __init__(self) -> None:
        self.pos = np.array([0.0, 0.0])
        self.head = np.array([0.0, 1.0])  # the track starts heading up the page

    @property
    def left(self) -> np.ndarray:
        return np.array([-self.head[1], self.head[0]])

    def shift(self, lateral: float) -> None:
        self.pos = self.pos + self.left * lateral

    def straight_point(self, s: float, lat: float) -> np.ndarray:
        return self.pos + self.head * s + self.left * lat

    def corner_point(self, seg: Segment, phi: float, lat: float) -> np.ndarray:
        """Point at turned angle ``phi`` and lateral offset ``lat`` (toward the left)."""
        rc = seg.radius + seg.lanes / 2
        centre = self.pos + self.left * rc * seg.turn
        rho = rc - lat * seg.turn
        u0 = -self.left * seg.turn  # from the turning centre out to the entry point
        a = phi * seg.turn
        c, s = math.cos(a), math.sin(a)
        u = np.array([c * u0[0] - s * u0[1], s * u0[0] + c * u0[1]])
        return centre + u * rho


def _lateral_shift(prev: Segment, seg: Segment) -> float:
    """How far left the new centreline lies from the old one, keeping continuing lanes put."""
    assert seg.continues is not None
    i = next(i for i, p in enumerate(seg.continues) if p >= 0)
    p = seg.continues[i]
    old_lat = (prev.lanes - 1) / 2 - p  # lateral of the continuing lane in the old frame
    new_lat = (seg.lanes - 1) / 2 - i
    return old_lat - new_lat


def lay_out(segments: tuple[Segment, ...]) -> list[LaidSegment]:
    """Progress and outline of every space of every segment."""
    turtle = _Turtle()
    progress = 0.0
    laid: list[LaidSegment] = []
    prev: Segment | None = None
    for seg in segments:
        if prev is not None:
            turtle.shift(_lateral_shift(prev, seg))
        w = seg.lanes
        backs, fronts, outlines = [], [], []
        if seg.is_corner:
            theta = math.radians(seg.angle)
            length = theta * (seg.radius + w / 2)
            for lane, n in enumerate(corner_counts(seg)):
                lat_l, lat_r = (w - 1) / 2 - lane + 0.5, (w - 1) / 2 - lane - 0.5
                b = [progress + j / n * length for j in range(n)]
                f = [progress + (j + 1) / n * length for j in range(n)]
                shapes = []
                for j in range(n):
                    p0, p1 = theta * j / n, theta * (j + 1) / n
                    pts = [
                        turtle.corner_point(seg, p0, lat_l),
                        turtle.corner_point(seg, p0, lat_r),
                        turtle.corner_point(seg, p1, lat_r),
                        turtle.corner_point(seg, p1, lat_l),
                    ]
                    shapes.append(np.array(pts))
                backs.append(b)
                fronts.append(f)
                outlines.append(shapes)
            end_pos = turtle.corner_point(seg, theta, 0.0)
            a = theta * seg.turn
            c, s = math.cos(a), math.sin(a)
            h = turtle.head
            turtle.head = np.array([c * h[0] - s * h[1], s * h[0] + c * h[1]])
            turtle.pos = end_pos
        else:
            length = float(seg.length)
            for lane in range(w):
                lat_l, lat_r = (w - 1) / 2 - lane + 0.5, (w - 1) / 2 - lane - 0.5
                backs.append([progress + j for j in range(seg.length)])
                fronts.append([progress + j + 1 for j in range(seg.length)])
                outlines.append(
                    [
                        np.array(
                            [
                                turtle.straight_point(j, lat_l),
                                turtle.straight_point(j, lat_r),
                                turtle.straight_point(j + 1, lat_r),
                                turtle.straight_point(j + 1, lat_l),
                            ]
                        )
                        for j in range(seg.length)
                    ]
                )
            turtle.pos = turtle.straight_point(length, 0.0)
        laid.append(LaidSegment(progress, progress + length, backs, fronts, outlines))
        progress += length
        prev = seg
    return laid
