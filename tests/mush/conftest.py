"""Shared helpers for the MUSH tests: cells, traces and the positions a trace implies."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games import get
from simkit.games.cells import build_cell
from simkit.games.mush import records as E


@pytest.fixture(scope="session")
def game():
    return get("mush")


def _cell(players=3, bots="greedy", preset=None, **overrides):
    return build_cell("mush", preset=preset, players=players, bots=bots, overrides=overrides)


@pytest.fixture(scope="session")
def make_cell():
    """A function building a validated MUSH cell from players, bots, preset, overrides."""
    return _cell


def _turns(trace):
    """(pos, covered, tokens) arrays after every logged turn, replayed from STATE events."""
    n = trace.cell.players
    pos = np.zeros(n, dtype=np.int64)
    covered = np.zeros(n, dtype=np.int64)
    tokens = np.full(n, trace.cell.variant.start_tokens, dtype=np.int64)
    from simkit.games.mush.route import load_route

    route = load_route(trace.cell.variant.route)
    pos[:] = route.start
    for row in trace.events.tolist():
        if row[1] == E.EV_STATE:
            s = row[2]
            pos[s], covered[s], tokens[s] = row[3], row[4], row[5]
            yield pos.copy(), covered.copy(), tokens.copy()


@pytest.fixture(scope="session")
def turns():
    """A function yielding (pos, covered, tokens) after every turn of a trace."""
    return _turns
