"""Compile a checked spec into a :class:`CompiledTrack`: the flat arrays kernels follow.

Layout (progress, shapes) comes from :mod:`simkit.tracks.layout`; this module links the
spaces (straight and drift moves, R-01), ranks them (level, tie-breaks, R-03), places the
features (start, finish, trees, buildings, markers) and checks what needs the laid-out
board: features on the track, buildings off the side, the finish reachable.
"""

from __future__ import annotations

import functools
from collections import deque

import numpy as np

from simkit.errors import TrackError
from simkit.tracks.compiled import (
    F_BUILDING,
    F_CLOSED,
    F_CORNER,
    F_PAST_FINISH,
    F_START_ROW,
    F_TIGHT_INSIDE,
    F_TREE,
    TRIGGER_FLAG,
    CompiledTrack,
)
from simkit.tracks.layout import inside_rank, lay_out
from simkit.tracks.spec import Segment, Spec

LEVEL_TOL = 1e-6  # progress closer than this (in spaces) is level
N_SLOTS = 5  # ST1 numbered start spaces


class _Board:
    """Spaces indexed per (segment, lane), with the links between segments.

    Everything here follows from the segments' shapes alone (:data:`_SHAPE`), so tracks
    that differ only in what stands on their spaces (safety speeds, trees, closed spaces,
    buildings, tight corners, start slots) share one board: a scenario sweeping a corner's
    safety over 10,000 cells lays the track out once, not 10,000 times.
    """

    def __init__(self, segs: tuple[Segment, ...], flag: int):
        self.segs = segs
        self.laid = lay_out(segs)
        self.idx: list[list[list[int]]] = []
        lane, segment, back, front, outline = [], [], [], [], []
        for g, (seg, laid) in enumerate(zip(self.segs, self.laid, strict=True)):
            per_lane = []
            for ln in range(seg.lanes):
                ids = []
                for j in range(len(laid.front[ln])):
                    ids.append(len(lane))
                    lane.append(ln)
                    segment.append(g)
                    back.append(laid.back[ln][j])
                    front.append(laid.front[ln][j])
                    outline.append(laid.outline[ln][j])
                per_lane.append(ids)
            self.idx.append(per_lane)
        self.n = len(lane)
        self.lane = np.array(lane, dtype=np.int16)
        self.segment = np.array(segment, dtype=np.int16)
        self.back = np.array(back, dtype=np.float64)
        self.progress = np.array(front, dtype=np.float64)
        self.outline = np.array(outline, dtype=np.float64).reshape(self.n, 4, 2)
        self.level = _levels(self.progress)
        # cont[g][l]: the lane of segment g+1 that lane l of segment g continues into, or -1.
        self.cont = [[-1] * seg.lanes for seg in self.segs]
        for g in range(1, len(self.segs)):
            for new, old in enumerate(self.segs[g].continues or ()):
                if old >= 0:
                    self.cont[g - 1][old] = new
        self._links(flag)
        self.reachable: set[tuple[bytes, ...]] = set()  # what _check_reachable found open
        for value in vars(self).values():  # shared by every track of this shape
            if isinstance(value, np.ndarray):
                value.setflags(write=False)

    def _links(self, flag: int) -> None:
        """The moves (R-01) and race-order keys (R-03) of an untouched board."""
        n, segs = self.n, self.segs
        self.next_straight = np.array([self.straight(s) for s in range(n)], dtype=np.int32)
        self.drift_left = np.array([self.drift(s, -1) for s in range(n)], dtype=np.int32)
        self.drift_right = np.array([self.drift(s, +1) for s in range(n)], dtype=np.int32)
        self.corner_ids = [seg.index for seg in segs if seg.is_corner]
        corner_start = np.array([self.laid[g].start for g in self.corner_ids], dtype=np.float64)
        self.corners_passed = np.searchsorted(
            np.sort(corner_start), self.back + LEVEL_TOL, side="right"
        ).astype(np.int16)
        self.tie_inside = np.zeros(n, dtype=np.int16)
        self.tie_flag = np.zeros(n, dtype=np.int16)
        for s in range(n):
            g, ln = int(self.segment[s]), int(self.lane[s])
            seg = segs[g]
            if seg.is_corner:
                turn = seg.turn
            else:
                nxt = [c for c in self.corner_ids if c > g]
                turn = segs[nxt[0]].turn if nxt else flag
            self.tie_inside[s] = inside_rank(seg, ln, turn)
            self.tie_flag[s] = inside_rank(seg, ln, flag)

    def space(self, g: int, row: int, ln: int, key: str) -> int:
        """The space at (row, lane) of segment g, or a TrackError naming ``key``."""
        seg = self.segs[g]
        if not 0 <= ln < seg.lanes:
            raise _fail(f"{key} [{row}, {ln}] is off the track: lanes are 0-{seg.lanes - 1}", g)
        rows = len(self.idx[g][ln])
        if not 0 <= row < rows:
            raise _fail(f"{key} [{row}, {ln}] is off the track: lane {ln} has rows 0-{rows - 1}", g)
        return self.idx[g][ln][row]

    def first_ahead(self, g: int, ln: int, level: int) -> int:
        """First space of lane ``ln`` of segment ``g`` (or where it continues) ahead of level."""
        for s in self.idx[g][ln]:
            if self.level[s] > level:
                return s
        if g + 1 < len(self.segs) and self.cont[g][ln] >= 0:
            return self.idx[g + 1][self.cont[g][ln]][0]
        return -1

    def straight(self, s: int) -> int:
        """The next space in the same lane, following it across segment boundaries."""
        g, ln = int(self.segment[s]), int(self.lane[s])
        ids = self.idx[g][ln]
        j = ids.index(s)
        if j + 1 < len(ids):
            return ids[j + 1]
        if g + 1 < len(self.segs) and self.cont[g][ln] >= 0:
            return self.idx[g + 1][self.cont[g][ln]][0]
        return -1

    def drift(self, s: int, side: int, lanes: int = 1) -> int:
        """First space ``lanes`` lanes toward ``side`` (-1 left, +1 right) ahead of s (R-01)."""
        g, ln = int(self.segment[s]), int(self.lane[s])
        t = ln + side * lanes
        if 0 <= t < self.segs[g].lanes:
            found = self.first_ahead(g, t, int(self.level[s]))
            if found >= 0:
                return found
        # Nothing ahead there in this segment (s is at its lane's exit): the move lands
        # beside the lane s continues into, if the next segment has a lane there.
        last = self.idx[g][ln][-1] == s
        if last and g + 1 < len(self.segs) and self.cont[g][ln] >= 0:
            t2 = self.cont[g][ln] + side * lanes
            if 0 <= t2 < self.segs[g + 1].lanes:
                return self.idx[g + 1][t2][0]
        return -1


def _levels(progress: np.ndarray) -> np.ndarray:
    """Race-order keys: ranks of progress, equal within LEVEL_TOL (R-03)."""
    order = np.argsort(progress, kind="stable")
    level = np.empty(len(progress), dtype=np.int32)
    current, last = 0, None
    for s in order:
        if last is not None and progress[s] - last > LEVEL_TOL:
            current += 1
            last = progress[s]
        elif last is None:
            last = progress[s]
        level[s] = current
    return level


def _fail(message: str, g: int | None) -> TrackError:
    """An error about segment ``g``; :func:`compile_board` adds the file."""
    return TrackError(message, segment=g)


# What a segment's board depends on; the rest (safety, tight, trees, closed, buildings,
# slots) stands on its spaces.
_SHAPE = ("kind", "lanes", "continues", "length", "turn", "angle", "radius", "finish")


def _board(spec: Spec) -> _Board:
    """The board of ``spec``'s shape, built once per distinct shape."""
    shape = tuple(tuple(getattr(seg, f) for f in _SHAPE) for seg in spec.segments)
    return _board_of(shape, spec.flag)


@functools.lru_cache(maxsize=64)
def _board_of(shape: tuple[tuple, ...], flag: int) -> _Board:
    segs = tuple(Segment(g, **dict(zip(_SHAPE, s, strict=True))) for g, s in enumerate(shape))
    return _Board(segs, flag)


def compile_board(spec: Spec) -> CompiledTrack:
    """Build every array of the compiled form from a checked spec."""
    try:
        return _compile(spec)
    except TrackError as exc:
        if exc.path is not None or spec.path is None:
            raise
        raise TrackError(exc.reason, path=spec.path, segment=exc.segment) from None


def _compile(spec: Spec) -> CompiledTrack:
    segs = spec.segments
    b = _board(spec)
    n = b.n
    next_straight = b.next_straight.copy()
    drift_left = b.drift_left.copy()
    drift_right = b.drift_right.copy()
    flags = np.zeros(n, dtype=np.uint32)
    corner_ids = b.corner_ids
    corners_passed = b.corners_passed

    # Corners: entry lines, tight corners (ST2 G, R-29).
    for g in corner_ids:
        seg = segs[g]
        outward = seg.turn  # lanes count from the left: a left turn's outside is +1
        for ln in range(seg.lanes):
            ids = b.idx[g][ln]
            flags[ids] |= F_CORNER
            if seg.tight and inside_rank(seg, ln, seg.turn) == 0:
                flags[ids] |= F_TIGHT_INSIDE
            if not seg.tight:
                continue
            # Tight corner model (docs/tracks.md): going straight carries the sled one lane
            # outward per step, drifting inward keeps its lane, drifting outward takes two
            # lanes. The last space of each lane exits the corner normally.
            for s in ids[:-1]:
                inward = b.straight(s)
                straight = b.drift(s, outward)
                wide = b.drift(s, outward, 2)
                next_straight[s] = straight
                if outward > 0:
                    drift_left[s], drift_right[s] = inward, wide
                else:
                    drift_left[s], drift_right[s] = wide, inward

    # Start: the ST2 row before the start line, the ST1 numbered grid.
    start = segs[0]
    first_turn = segs[corner_ids[0]].turn if corner_ids else spec.flag
    start_slots = _start_slots(b, start, first_turn)

    # Finish line and run-off.
    finish_g = next(seg.index for seg in segs if seg.finish)
    finish_progress = float(b.laid[finish_g].start)
    flags[b.progress > finish_progress + LEVEL_TOL] |= F_PAST_FINISH

    # Markers, trees, buildings.
    for seg in segs:
        for row, ln in seg.closed:
            flags[b.space(seg.index, row, ln, "closed space")] |= F_CLOSED
    buildings = _buildings(b, segs, flags)
    for seg in segs:
        for row, ln in seg.trees:
            s = b.space(seg.index, row, ln, "tree")
            if flags[s] & F_BUILDING:
                raise _fail(f"tree [{row}, {ln}] is inside a building; move the tree", seg.index)
            if flags[s] & F_CLOSED:
                raise _fail(f"tree [{row}, {ln}] is on a closed space; move the tree", seg.index)
            flags[s] |= F_TREE
    for k, s in enumerate(start_slots):
        if flags[s] & (F_CLOSED | F_BUILDING | F_TREE):
            raise _fail(f"start slot {k + 1} is on a closed space, building or tree", 0)
    # ST2 sleds start on the open spaces of the row before the start line (ST2 B).
    row = [b.idx[0][ln][-1] for ln in range(start.lanes)]
    if any(flags[s] & F_TREE for s in row):
        raise _fail("a tree stands in the start row (the last row of the start); move it", 0)
    start_row = np.array([s for s in row if not flags[s] & F_CLOSED], dtype=np.int32)
    if not len(start_row):
        raise _fail("every space of the start row is closed; open one", 0)
    flags[start_row] |= F_START_ROW

    track = CompiledTrack(
        name=spec.name,
        title=spec.title,
        source=spec.path or "<spec>",
        lane=b.lane,
        segment=b.segment,
        progress=b.progress,
        back=b.back,
        level=b.level,
        next_straight=next_straight,
        drift_left=drift_left,
        drift_right=drift_right,
        corners_passed=corners_passed,
        flags=flags,
        tie_inside=b.tie_inside,
        tie_flag=b.tie_flag,
        centre=b.outline.mean(axis=1),
        outline=b.outline,
        corner_safety=np.array([segs[g].safety for g in corner_ids], dtype=np.int16),
        corner_turn=np.array([segs[g].turn for g in corner_ids], dtype=np.int8),
        corner_tight=np.array([segs[g].tight for g in corner_ids], dtype=bool),
        corner_segment=np.array(corner_ids, dtype=np.int16),
        start_slots=start_slots,
        start_row=start_row,
        finish_progress=finish_progress,
        flag_side=spec.flag,
        buildings=buildings,
        notes=spec.notes,
        segment_kinds=tuple(seg.kind for seg in segs),
        family=spec.family,
    )
    _check_reachable(b, track)
    # Library tracks are cached and shared: nobody may change them in place.
    for value in vars(track).values():
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    return track


def _start_slots(b: _Board, start: Segment, turn: int) -> np.ndarray:
    """ST1 grid: the spec's slots, or by default from the inside of the first corner,
    three abreast in the row before the start line and slots 4-5 behind (ST1 Setup)."""
    if start.slots is not None:
        cells = list(start.slots)
    else:
        w, rows = start.lanes, start.length
        per_row = min(3, w)
        if rows * per_row < N_SLOTS:
            per_row = w
        if rows * per_row < N_SLOTS:
            raise _fail(
                f"the start segment has room for {rows * w} of the 5 ST1 start slots; "
                f"give length >= {-(-N_SLOTS // w)} or list 'slots'",
                0,
            )
        inside = sorted(range(w), key=lambda ln: inside_rank(start, ln, turn))
        cells = [(rows - 1 - k // per_row, inside[k % per_row]) for k in range(N_SLOTS)]
    return np.array([b.space(0, row, ln, "start slot") for row, ln in cells], dtype=np.int32)


def _neighbour_rows(b: _Board, g: int, ln: int, row: int) -> tuple[int, int]:
    """The spaces straight behind and straight ahead of (row, ln) on straight g, or -1."""
    ids = b.idx[g][ln]
    ahead = b.straight(ids[row])
    if row > 0:
        behind = ids[row - 1]
    else:
        prev = [p for p, m in enumerate(b.cont[g - 1]) if m == ln] if g > 0 else []
        behind = b.idx[g - 1][prev[0]][-1] if prev else -1
    return behind, ahead


def _buildings(b: _Board, segs: tuple[Segment, ...], flags: np.ndarray) -> tuple:
    """Place buildings (ST2 F, R-27): 2x2 blocks off the side with 8 trigger spaces; the
    tavern beside the track with one trigger row."""
    out = []
    for seg in segs:
        if seg.buildings and seg.kind not in ("straight", "finish"):
            raise _fail(
                "buildings stand on straights only (ST2 F); move it to a straight", seg.index
            )
        for bd in seg.buildings:
            g, w = seg.index, seg.lanes
            if bd.kind == "tavern":
                if bd.row >= seg.length:
                    raise _fail(
                        f"tavern row {bd.row} is off the straight (rows 0-{seg.length - 1})", g
                    )
                # Listed from the side the tavern stands on (pictures read it so).
                lanes = range(w) if bd.side > 0 else range(w - 1, -1, -1)
                trig = [b.idx[g][ln][bd.row] for ln in lanes]
                flags[trig] |= TRIGGER_FLAG["tavern"]
                out.append(("tavern", (), tuple(trig)))
                continue
            if bd.lane < 1 or bd.lane + 1 > w - 2:
                if w < 4:
                    fix = f"it needs a straight of at least 4 lanes (this one has {w})"
                else:
                    ok = "1" if w == 4 else f"1 to {w - 3}"
                    fix = f"give lane {ok} so sleds can pass on both sides"
                raise _fail(
                    f"the {bd.kind} at lane {bd.lane} touches the side of the track; {fix} (ST2 F)",
                    g,
                )
            if bd.row + 1 >= seg.length:
                raise _fail(
                    f"the {bd.kind} at row {bd.row} runs off the straight (rows "
                    f"0-{seg.length - 1}; a building is 2 rows long)",
                    g,
                )
            cover = [b.idx[g][ln][r] for ln in (bd.lane, bd.lane + 1) for r in (bd.row, bd.row + 1)]
            if np.any(flags[cover] & (F_BUILDING | F_CLOSED)):
                raise _fail(f"the {bd.kind} overlaps another building or a closed space", g)
            flags[cover] |= F_BUILDING
            trig = []
            for ln in (bd.lane, bd.lane + 1):
                behind, _ = _neighbour_rows(b, g, ln, bd.row)
                _, ahead = _neighbour_rows(b, g, ln, bd.row + 1)
                trig += [behind, ahead]
            for r in (bd.row, bd.row + 1):
                trig += [b.idx[g][bd.lane - 1][r], b.idx[g][bd.lane + 2][r]]
            trig = [s for s in trig if s >= 0]
            out.append((bd.kind, tuple(cover), tuple(trig)))
    for kind, _cover, trig in out:
        for s in trig:
            if not flags[s] & F_BUILDING:
                flags[s] |= TRIGGER_FLAG[kind]
    return tuple(out)


def _check_reachable(b: _Board, t: CompiledTrack) -> None:
    """Some route of straight and drift moves must lead from the start past the finish."""
    blocked = F_CLOSED | F_BUILDING
    # What the search reads beyond the board: the links (tight corners change them), the
    # blocked spaces and the starts. Tracks of one board often agree on all three.
    key = (
        t.next_straight.tobytes(),
        t.drift_left.tobytes(),
        t.drift_right.tobytes(),
        np.flatnonzero(t.flags & blocked).tobytes(),
        t.start_row.tobytes(),
        t.start_slots.tobytes(),
    )
    if key in b.reachable:
        return
    # Plain lists: indexing numpy arrays one element at a time costs more than the search.
    flags, segment = t.flags.tolist(), t.segment.tolist()
    links = list(
        zip(t.next_straight.tolist(), t.drift_left.tolist(), t.drift_right.tolist(), strict=True)
    )
    seen = [False] * t.n_spaces
    todo = deque(int(s) for s in np.concatenate([t.start_row, t.start_slots]))
    for s in todo:
        seen[s] = True
    furthest = 0  # the furthest segment reached, or holding a closed space in the way
    while todo:
        s = todo.popleft()
        if flags[s] & F_PAST_FINISH:
            if len(b.reachable) < 256:
                b.reachable.add(key)
            return
        furthest = max(furthest, segment[s])
        for nxt in links[s]:
            if nxt < 0 or seen[nxt]:
                continue
            if flags[nxt] & blocked:
                furthest = max(furthest, segment[nxt])
                continue
            seen[nxt] = True
            todo.append(nxt)
    raise _fail(
        "finish unreachable: closed spaces, buildings or ending lanes block every route "
        "here; open a lane",
        furthest,
    )
