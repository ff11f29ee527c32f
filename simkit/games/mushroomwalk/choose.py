"""Each decision to the bot of the seat to move: ``random``, ``greedy``, ``lookahead``, ``search``.

Bots read only what their seat may see (``position.observe``) and draw only from their
seat's bot stream, so a game stays a pure function of its key whatever bots play it. The
heuristic bots are in :mod:`.policy`, the search bot in :mod:`.search`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mushroomwalk.policy import greedy, lookahead
from simkit.games.mushroomwalk.position import legal_plays
from simkit.games.mushroomwalk.records import (
    BOT_GREEDY,
    BOT_LOOKAHEAD,
    BOT_RANDOM,
    DISCARD,
    R_BOT,
)
from simkit.games.mushroomwalk.search import search
from simkit.rng import below


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def choose(pos, prm, bots, plays, pool, tmp, arms, ev, evc):
    """Index in ``plays`` (filled here by ``legal_plays``) of the play the bot of the seat
    to move makes. Scratch: ``pool`` 3 positions, ``tmp`` and ``arms`` (``records.ARM``)
    ``max_plays(prm)`` rows each; ``ev`` a one-row event array (nothing traced)."""
    seat = np.int64(pos.mover)
    bot = bots[seat]
    n = legal_plays(pos, prm, plays)
    if bot.kind == BOT_RANDOM:
        return below(pos.rng, R_BOT + seat, n)
    # every bot but random discards to a poison as greedy does: drop the card its
    # evaluation misses least (docs/rules-mushroomwalk.md "Bots")
    if bot.kind == BOT_GREEDY or plays[0].kind == DISCARD:
        return greedy(pos, seat, prm, bot, plays, n)
    if bot.kind == BOT_LOOKAHEAD:
        return lookahead(pos, seat, prm, bot, plays, n, pool, tmp, ev, evc)
    return search(pos, seat, prm, bot, plays, n, pool, tmp, arms, ev, evc)
