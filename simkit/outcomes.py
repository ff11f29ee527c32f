"""What a race's finish says: whether it was decided, and who won (GLOSSARY: decided race).

One rule for every game, below the runner (which derives the ``win`` and ``decided``
columns with it) and the analyses, tuners and ladders that count decided races, so none of
them decides by itself what counts as a win.
"""

from __future__ import annotations

import numpy as np


def decided(finish: np.ndarray, finished: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which races are decided, and which seats won them, from (races, seats) arrays.

    A decided race has exactly one seat in finish position 1 and that seat finished; a
    race nobody finished (every sled out, a timed-out MUSH race) or a draw has no winner.
    """
    first = np.asarray(finish) == 1
    won = first & np.asarray(finished, dtype=bool)
    ok = (first.sum(axis=1) == 1) & won.any(axis=1)
    return ok, won & ok[:, None]
