"""The compiled form of a Snow Tails family track: flat numpy arrays that kernels follow.

This is the contract between the track compiler (``simkit.tracks.compile``) and the
engines (DESIGN §2). Kernels only follow indices and read flags; all geometry and
validation happens before, in Python.

Spaces are numbered 0..n-1. Every space that exists on the board is a space here,
including closed ones (track markers) and spaces under buildings: entering them is a
collision whose kind the flags tell (R-02). A pointer is -1 only where there is no space
at all: the side of the track, or the end of the run-off.

Per-space arrays (length n):

``lane`` (int16)
    Lane counted from the left in the direction of travel, within its segment.
``segment`` (int16)
    Index of the spec segment the space belongs to.
``progress`` (float64)
    How far along the centreline the space's front edge lies (GLOSSARY: progress).
``back`` (float64)
    The same for the back edge; ``back < progress``.
``level`` (int32)
    Race-order key (R-03): larger is further along; spaces level by the track's level
    lines have equal ``level``. Derived from ``progress`` with a tolerance.
``next_straight`` (int32)
    The next space in the same lane, or -1.
``drift_left`` / ``drift_right`` (int32)
    "The first space in the adjacent lane whose front edge is ahead" of this one's
    (R-01, ST2 B.3), toward that side, or -1 when there is no lane there.
``corners_passed`` (int16)
    Number of corner entry lines at or behind the space's back edge. A move from ``a`` to
    ``b`` crosses the entry lines of corners ``corners_passed[a] .. corners_passed[b]-1``
    (R-15: each crossed line is checked).
``flags`` (uint32)
    Bit set of the ``F_*`` constants below.
``tie_inside`` (int16)
    ST1 tie-break among level spaces (R-03): 0 is the inside of the current corner, or of
    the next corner on a straight, or the flag side on the final straight; larger is
    further out.
``tie_flag`` (int16)
    ST2 tie-break among level spaces of equal speed (R-03): 0 is the lane nearest the
    flag side of the finish line.
``centre`` (float64, shape (n, 2)) and ``outline`` (float64, shape (n, 4, 2))
    Drawing geometry: the space's centre and its four corners (back-left, back-right,
    front-right, front-left) in board units. Kernels never read these.

Per-corner arrays (length k, corners in track order):

``corner_safety`` (int16)
    ST1 safety speed printed on the entry line (R-15); 0 where the spec gives none.
``corner_turn`` (int8)
    +1 for a left turn, -1 for a right turn.
``corner_tight`` (bool)
    Raced the "wrong way" (ST2 G, R-29).
``corner_segment`` (int16)
    The spec segment of the corner.

Start and finish:

``start_slots`` (int32, length 5)
    ST1 numbered start spaces, slot 1 first (slot 1 on the inside of the first corner);
    -1 where the track has no ST1 grid.
``start_row`` (int32)
    ST2 start: the spaces directly before the start line, left to right (spaces closed
    by track markers left out).
``finish_progress`` (float64)
    Progress of the finish line; a space has finished (R-05) iff ``F_PAST_FINISH``.
``flag_side`` (int8)
    +1 when the chequered flag is on the left at the finish, -1 on the right.

Buildings (ST2 F, R-27) are listed in ``buildings`` for drawing, as
``(kind, space indices covered, trigger space indices)``; the kernel reads only flags.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Space flags.
F_CLOSED = np.uint32(1 << 0)  # closed by a track marker: entering it is a collision
F_BUILDING = np.uint32(1 << 1)  # under a building: entering it is a collision
F_TREE = np.uint32(1 << 2)  # a tree stands here at the start of a race (ST2 C, R-21)
F_PAST_FINISH = np.uint32(1 << 3)  # front edge past the finish line
F_START_ROW = np.uint32(1 << 4)  # ST2 start row (directly before the start line)
F_TRIG_KENNELS = np.uint32(1 << 5)  # trigger space of the kennels
F_TRIG_CHAPEL = np.uint32(1 << 6)
F_TRIG_BOTHY = np.uint32(1 << 7)
F_TRIG_TAVERN = np.uint32(1 << 8)
F_TIGHT_INSIDE = np.uint32(1 << 9)  # inside lane of a tight corner
F_CORNER = np.uint32(1 << 10)  # the space lies on a corner segment

BUILDING_KINDS = ("kennels", "chapel", "bothy", "tavern")
TRIGGER_FLAG = {
    "kennels": F_TRIG_KENNELS,
    "chapel": F_TRIG_CHAPEL,
    "bothy": F_TRIG_BOTHY,
    "tavern": F_TRIG_TAVERN,
}


@dataclass(frozen=True)
class CompiledTrack:
    """A track ready for kernels. See the module docstring for every array's meaning."""

    name: str
    title: str
    source: str
    lane: np.ndarray
    segment: np.ndarray
    progress: np.ndarray
    back: np.ndarray
    level: np.ndarray
    next_straight: np.ndarray
    drift_left: np.ndarray
    drift_right: np.ndarray
    corners_passed: np.ndarray
    flags: np.ndarray
    tie_inside: np.ndarray
    tie_flag: np.ndarray
    centre: np.ndarray
    outline: np.ndarray
    corner_safety: np.ndarray
    corner_turn: np.ndarray
    corner_tight: np.ndarray
    corner_segment: np.ndarray
    start_slots: np.ndarray
    start_row: np.ndarray
    finish_progress: float
    flag_side: int
    buildings: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...] = ()
    notes: str = ""
    segment_kinds: tuple[str, ...] = field(default=())
    family: str = ""  # the game whose board the track models (a ``Game.extras.track_dir``), or ""

    @property
    def n_spaces(self) -> int:
        return int(self.lane.shape[0])

    @property
    def n_corners(self) -> int:
        return int(self.corner_safety.shape[0])
