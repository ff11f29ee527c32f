"""Which bot takes a decision: the one entry every stepping loop calls (``choose``).

``random`` and ``greedy`` decide in ``policy``; ``search:N`` searches its card plays
(``search.search_play``) and a distilled policy scores greedy's best ones
(``distil.policy_play``); both leave their other decisions to greedy.

A cell with neither passes ``pool=None``: numba prunes the branch on ``pool is not None``
while it compiles that specialisation, so a cold run of greedy cells never compiles the
search (half of a cold Snow Tails compile, ``bench/compile.py``). ``search_flag`` says which
a cell needs. A run that will search in some cell (its level check's reference, say) says so
first (``expect_search``, from ``Game.expect``): from then on every cell of the process
takes the searching specialisation, so its greedy cells do not compile the other one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.distil import policy_play
from simkit.games.snowtails.policy import decide
from simkit.games.snowtails.records import BOT_GREEDY, BOT_POLICY, BOT_SEARCH, PH_PLAY
from simkit.games.snowtails.search import search_play


@njit(no_cpython_wrapper=True)
def choose(cfg, reach, pos, wk, pool, swks):
    """The bot of seat ``pos.to_move`` takes the decision ``pos.phase``: writes ``wk.play``.

    ``pool`` (two positions) and ``swks`` (one work record) are the search's scratch, as
    arrays the caller owns, or both ``None`` where no seat of the cell searches."""
    p = pos.to_move
    kind = cfg.bots[p]
    if pool is not None:  # pruned where the cell has no search seat (``search_flag``)
        if kind == BOT_SEARCH:
            if pos.phase == PH_PLAY:
                search_play(cfg, reach, pos, wk, pool, swks[0])
                return
            kind = BOT_GREEDY
        elif kind == BOT_POLICY:
            if pos.phase == PH_PLAY:
                policy_play(cfg, reach, pos, wk, pool, 1, swks[0], p)
                return
            kind = BOT_GREEDY
    decide(cfg, reach, pos, wk, kind, p)


_EXPECTED = {"search": False}  # a run of this process will search (``expect_search``)


def expect_search() -> None:
    """Compile one specialisation for the rest of the process: the searching one, which a
    run about to play a search or policy seat in some cell needs anyway. Its greedy cells
    then play that one too (the same races, tested), instead of compiling the kernels a
    second time without the search (about 6% of a cold ``simkit run`` of the demo, whose
    level check plays search:64). It stays on: later cells find it compiled."""
    _EXPECTED["search"] = True


def search_flag(cfga: np.ndarray) -> bool | None:
    """``True`` where a seat of the cell (``cfga``, the one-element cell array) searches or
    plays a distilled policy, or once a run expects a search (``expect_search``), else
    ``None``: the kernels take it as the argument that selects their specialisation (with
    ``None``, ``choose`` gets ``pool=None`` and the search is not compiled; a greedy seat
    plays the same either way)."""
    if _EXPECTED["search"]:
        return True
    kinds = cfga["bots"][0]
    return True if bool(np.isin(kinds, (BOT_SEARCH, BOT_POLICY)).any()) else None
