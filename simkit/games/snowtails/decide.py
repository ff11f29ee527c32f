"""Which bot takes a decision: the one entry every stepping loop calls (``choose``).

``random`` and ``greedy`` decide in ``bots``; ``search:N`` searches its card plays
(``search.search_play``) and a distilled policy scores greedy's best ones
(``distil.policy_play``); both leave their other decisions to greedy.
"""

from __future__ import annotations

from numba import njit

from simkit.games.snowtails.bots import decide
from simkit.games.snowtails.distil import policy_play
from simkit.games.snowtails.layout import BOT_GREEDY, BOT_POLICY, BOT_SEARCH, PH_PLAY
from simkit.games.snowtails.search import search_play


@njit(no_cpython_wrapper=True)
def choose(cfg, reach, pos, wk, pool, swks):
    """The bot of seat ``pos.to_move`` takes the decision ``pos.phase``: writes ``wk.play``.

    ``pool`` (two positions) and ``swks`` (one work record) are the search's scratch, as
    arrays the caller owns."""
    p = pos.to_move
    kind = cfg.bots[p]
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
