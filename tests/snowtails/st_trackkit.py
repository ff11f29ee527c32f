"""A tiny hand-made track builder for engine tests (independent of ``simkit.tracks``).

Tracks are built lane by lane from straights and corners, following DESIGN §2's model:
on a corner, lane k from the inside has max(1, round(angle * (radius + k + 1/2))) spaces
spread over the corner's length, so inside lanes have fewer, longer spaces. A drift goes
to the first space of the neighbouring lane whose front edge is ahead (R-01).
"""

from __future__ import annotations

import math

import numpy as np

from simkit.tracks.compiled import F_CLOSED, F_CORNER, F_PAST_FINISH, CompiledTrack

EPS = 1e-9


def build(
    segments: list[tuple],
    *,
    width: int = 3,
    finish: float | None = None,
    start: list[tuple[int, int]] | None = None,
    closed: list[tuple[int, int]] = (),
    flag_side: int = 1,
    name: str = "test",
) -> CompiledTrack:
    """A compiled track.

    Args:
        segments: ``("straight", n)`` or ``("corner", "L"|"R", degrees, radius, safety)``.
        width: lanes (0 = leftmost).
        finish: progress of the finish line (default: 4 units before the end).
        start: (lane, index within lane) of start slots 1..5 (default: the first rows).
        closed: (lane, index) of closed spaces.
        flag_side: +1 chequered flag on the left, -1 on the right.
    """
    lanes: list[list[list[float]]] = [[] for _ in range(width)]  # [back, front, seg]
    pos = 0.0
    entries, corners = [], []
    for si, seg in enumerate(segments):
        if seg[0] == "straight":
            for lane in lanes:
                for j in range(seg[1]):
                    lane.append([pos + j, pos + j + 1, si])
            pos += seg[1]
        else:
            _, turn, degrees, radius, safety = seg
            theta = math.radians(degrees)
            length = theta * (radius + width / 2)
            entries.append(pos)
            corners.append((turn, safety, si))
            for lane_i, lane in enumerate(lanes):
                k = lane_i if turn == "L" else width - 1 - lane_i
                n = max(1, round(theta * (radius + k + 0.5)))
                for j in range(n):
                    lane.append([pos + length * j / n, pos + length * (j + 1) / n, si])
            pos += length
    if finish is None:
        finish = pos - 4
    index, rows = {}, []
    for li, lane in enumerate(lanes):
        for j, (b, f, si) in enumerate(lane):
            index[(li, j)] = len(rows)
            rows.append((li, j, b, f, si))
    n = len(rows)
    lane_a = np.array([r[0] for r in rows], dtype=np.int16)
    back = np.array([r[2] for r in rows])
    front = np.array([r[3] for r in rows])
    seg_a = np.array([r[4] for r in rows], dtype=np.int16)
    nxt = np.full(n, -1, dtype=np.int32)
    dl = np.full(n, -1, dtype=np.int32)
    dr = np.full(n, -1, dtype=np.int32)
    for s, (li, j, _, f, _) in enumerate(rows):
        if (li, j + 1) in index:
            nxt[s] = index[(li, j + 1)]
        for side, arr in ((-1, dl), (1, dr)):
            other = li + side
            if 0 <= other < width:
                for jj, (_, f2, _) in enumerate(lanes[other]):
                    if f2 > f + EPS:
                        arr[s] = index[(other, jj)]
                        break
    level = np.round(front * 1000).astype(np.int32)
    cp = np.array([sum(1 for e in entries if e <= b + EPS) for b in back], dtype=np.int16)
    tie = np.zeros(n, dtype=np.int16)
    for s, (li, _, _, _, si) in enumerate(rows):
        turn = None
        for ci, (t, _, cseg) in enumerate(corners):
            if cseg == si or (ci >= cp[s] and cseg > si):
                turn = t
                break
        inside_left = flag_side > 0 if turn is None else turn == "L"
        tie[s] = li if inside_left else width - 1 - li
    flags = np.zeros(n, dtype=np.uint32)
    flags[front > finish + EPS] |= F_PAST_FINISH
    for s, (_, _, _, _, si) in enumerate(rows):
        if segments[si][0] == "corner":
            flags[s] |= F_CORNER
    for key in closed:
        flags[index[key]] |= F_CLOSED
    if start is None:
        first_turn = corners[0][0] if corners else "L"
        order = list(range(width)) if first_turn == "L" else list(range(width - 1, -1, -1))
        start, row = [], 1
        while len(start) < 5:
            for li in order:
                if len(start) < 5:
                    start.append((li, row))
            row -= 1
    slots = np.array([index[k] for k in start], dtype=np.int32)
    centre = np.zeros((n, 2))
    outline = np.zeros((n, 4, 2))
    return CompiledTrack(
        name=name,
        title=name,
        source="tests/snowtails/st_trackkit.py",
        lane=lane_a,
        segment=seg_a,
        progress=front,
        back=back,
        level=level,
        next_straight=nxt,
        drift_left=dl,
        drift_right=dr,
        corners_passed=cp,
        flags=flags,
        tie_inside=tie,
        tie_flag=np.where(flag_side > 0, lane_a, width - 1 - lane_a).astype(np.int16),
        centre=centre,
        outline=outline,
        corner_safety=np.array([c[1] for c in corners], dtype=np.int16),
        corner_turn=np.array([1 if c[0] == "L" else -1 for c in corners], dtype=np.int8),
        corner_tight=np.zeros(len(corners), dtype=bool),
        corner_segment=np.array([c[2] for c in corners], dtype=np.int16),
        start_slots=slots,
        start_row=np.zeros(0, dtype=np.int32),
        finish_progress=float(finish),
        flag_side=flag_side,
    )


def space(track: CompiledTrack, lane: int, j: int) -> int:
    """Index of the j-th space of ``lane`` (tracks from ``build`` list lanes in order)."""
    s = np.flatnonzero(track.lane == lane)
    return int(s[j])


def oval(width: int = 3) -> CompiledTrack:
    """A small full race: start straight, two corners, a straight, finish and run-off."""
    return build(
        [
            ("straight", 6),
            ("corner", "L", 90, 1, 4),
            ("straight", 8),
            ("corner", "R", 180, 1, 3),
            ("straight", 10),
            ("corner", "L", 90, 2, 5),
            ("straight", 14),
        ],
        width=width,
        finish=None,
        name="oval",
    )
