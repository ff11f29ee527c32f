"""The play a MUSH seat's bot makes: ``choose``, the one call the race loop, traces and
``simkit moves`` make (Python through ``kernels.choose``).

``random`` and ``greedy`` follow their rules (``heuristic.py``); ``search`` searches the
decisions ``search.searched`` names and plays greedy elsewhere (``search.py``).
"""

from __future__ import annotations

from numba import njit

from simkit.games.mush.bots import SEARCH
from simkit.games.mush.heuristic import heuristic
from simkit.games.mush.search import search, searched


@njit(no_cpython_wrapper=True)
def choose(bp, pos, prm, cell, rt, seat, work, play):
    """Write into ``play.row`` the play bot ``bp`` makes for ``seat``, the seat to move;
    ``work`` is the caller's ``records.WORK`` scratch."""
    if bp.kind == SEARCH and searched(pos.phase):
        search(bp, pos, prm, cell, rt, seat, work, play)
    else:
        heuristic(bp, pos, prm, cell, rt, seat, work, play)
