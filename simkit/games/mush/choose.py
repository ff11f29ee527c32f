"""The play a MUSH seat's bot makes: ``choose``, the one call the race loop, traces and
``simkit moves`` make (Python through ``kernels.choose``).

``random`` and ``greedy`` follow their rules (``heuristic.py``); ``search`` searches the
decisions ``search.searched`` names and plays greedy elsewhere (``search.py``).

A cell with no search seat passes ``searching=None``: numba prunes the branch on it while
it compiles that specialisation, so a cold run of greedy cells never compiles the search
(most of a cold MUSH compile, ``bench/compile.py``). ``search_flag`` says which a cell
needs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush.bots import SEARCH
from simkit.games.mush.heuristic import heuristic
from simkit.games.mush.search import search, searched


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def choose(bp, pos, prm, cell, rt, seat, work, play, searching):
    """Write into ``play.row`` the play bot ``bp`` makes for ``seat``, the seat to move;
    ``work`` is the caller's ``records.WORK`` scratch; ``searching`` is ``True`` where a
    seat of the cell searches, else ``None`` (``search_flag``)."""
    if searching is not None:  # noqa: SIM102 (its own branch, so numba prunes it)
        if bp.kind == SEARCH and searched(pos.phase):
            search(bp, pos, prm, cell, rt, seat, work, play)
            return
    heuristic(bp, pos, prm, cell, rt, seat, work, play)


def search_flag(cells: np.ndarray) -> bool | None:
    """``True`` where a seat of the cell (``cells``: the one-element cell array) searches,
    else ``None``: the kernels take it as the argument that selects their specialisation
    (with ``None`` the search is not compiled; a greedy seat plays the same either way)."""
    return True if bool((cells["bots"][0]["kind"] == SEARCH).any()) else None
