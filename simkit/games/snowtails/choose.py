"""Which bot takes a decision: the one entry every stepping loop calls (``choose``).

``random`` and ``greedy`` decide in ``policy``; ``search:N`` searches its card plays
(``search.search_play``) and a distilled policy scores greedy's best ones
(``distil.policy_play``); both leave their other decisions to greedy.

A cell with neither passes ``pool=None``: numba prunes the branch on ``pool is not None``
while it compiles that specialisation, so a cold run of greedy cells never compiles the
search (half of a cold Snow Tails compile, ``bench/compile.py``). ``search_flag`` says which
a cell needs. Likewise ``guided_flag``: a cell whose searches are all model-free (search:N,
search:NhH) passes ``guided=None`` and compiles neither the distilled policy nor the fitted
values (12% of a cold run of the demo, whose level check plays search:64). A run that will
search in some cell (its level check's reference, say) says so first (``expect_search``,
from ``Game.expect``): from then on every cell of the process takes the specialisation that
run needs, so its greedy cells do not compile another one.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from simkit.games.snowtails.distil import policy_play
from simkit.games.snowtails.policy import decide
from simkit.games.snowtails.records import BOT_GREEDY, BOT_POLICY, BOT_SEARCH, PH_PLAY
from simkit.games.snowtails.search import search_play


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def choose(pos, cfg, reach, wk, pool, swks, guided):
    """The bot of seat ``pos.to_move`` takes the decision ``pos.phase``: writes ``wk.play``.

    ``pool`` (two positions) and ``swks`` (one work record) are the search's scratch, as
    arrays the caller owns, or both ``None`` where no seat of the cell searches; ``guided``
    ``None`` where no seat plays a policy or searches with a prior or a value
    (``guided_flag``), else ``True``."""
    p = pos.to_move
    kind = cfg.bots[p]
    if pool is not None:  # pruned where the cell has no search seat (``search_flag``)
        if kind == BOT_SEARCH:
            if pos.phase == PH_PLAY:
                search_play(cfg, reach, pos, wk, pool, swks[0], guided)
                return
            kind = BOT_GREEDY
        elif guided is not None and kind == BOT_POLICY:  # pruned where no seat is guided
            if pos.phase == PH_PLAY:
                policy_play(cfg, reach, pos, wk, pool, 1, swks[0], p)
                return
            kind = BOT_GREEDY
    decide(cfg, reach, pos, wk, kind, p)


# A run of this process will search (``expect_search``), and with a policy or a value.
_EXPECTED = {"search": False, "guided": False}


def expect_search(guided: bool = False) -> None:
    """Compile one specialisation for the rest of the process: the searching one (with the
    policy and the values where ``guided``), which a run about to play a search or policy
    seat in some cell needs anyway. Its other cells then play that one too (the same races,
    tested), instead of compiling the kernels a second time (about 6% of a cold ``simkit
    run`` of the demo, whose level check plays search:64). It stays on: later cells find
    it compiled."""
    _EXPECTED["search"] = True
    _EXPECTED["guided"] = _EXPECTED["guided"] or guided


if os.environ.get("SIMKIT_ONE_KERNEL") == "1":
    # A process that will play every kind of bot (the test suite's processes, which set it)
    # compiles the one specialisation with everything, once, instead of three.
    expect_search(guided=True)


def _searches(kind):
    """A bot kind (or an array of them) that needs the search's scratch."""
    return (kind == BOT_SEARCH) | (kind == BOT_POLICY)


def _guided(kind, prior, value):
    """A bot (or arrays of bots' settings) that plays a distilled policy or searches with a
    prior or a value."""
    return (kind == BOT_POLICY) | ((kind == BOT_SEARCH) & ((prior > 0) | (value != 0)))


def searches(settings) -> bool:
    """Whether a seat's bot (``records.BotSettings``) searches or plays a policy: what
    ``search_flag`` compiles in."""
    return bool(_searches(settings.kind))


def guided(settings) -> bool:
    """Whether a seat's bot (``records.BotSettings``) plays a distilled policy or searches
    with a prior or a value: what ``guided_flag`` compiles in."""
    return bool(_guided(settings.kind, settings.prior, settings.value))


def guided_flag(cfga: np.ndarray) -> bool | None:
    """``True`` where a seat of the cell (``cfga``) plays a distilled policy or searches with
    a prior or a value, or once a run expects one (``expect_search``), else ``None``: the
    kernels' ``guided`` argument (with ``None`` the search compiles neither the policy nor
    the values; a model-free search plays the same either way)."""
    if _EXPECTED["guided"]:
        return True
    c = cfga[0]
    return True if bool(_guided(c["bots"], c["prior"], c["value"]).any()) else None


def search_flag(cfga: np.ndarray) -> bool | None:
    """``True`` where a seat of the cell (``cfga``, the one-element cell array) searches or
    plays a distilled policy, or once a run expects a search (``expect_search``), else
    ``None``: the kernels take it as the argument that selects their specialisation (with
    ``None``, ``choose`` gets ``pool=None`` and the search is not compiled; a greedy seat
    plays the same either way)."""
    if _EXPECTED["search"]:
        return True
    return True if bool(_searches(cfga["bots"][0]).any()) else None
