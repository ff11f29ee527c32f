"""The bots do what their names say: greedy (so every rollout) crosses the finish line
rather than stop short of it to save dents that cost nothing there (R-18, R-26)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.kernels import apply, choose
from simkit.games.snowtails.layout import (
    WORK,
)
from simkit.games.snowtails.oracle import moves, parse_state
from simkit.tracks.compiled import F_PAST_FINISH
from tests.snowtails.st_helpers import sled, state
from tests.snowtails.st_trackkit import build, space


def _greedy_end(st, track, bot):
    """The space greedy's play from ``st`` ends on (carried out by the engine)."""
    pos = parse_state(st, track)
    n = pos.n_seats
    slots = tuple(range(1, n + 1))
    cfga, reach = cell_inputs([track] * pos.variant.races, pos.variant, (bot,) * n, slots)
    positions = pos.positions.copy()
    works = np.zeros(1, dtype=WORK)
    choose(cfga, reach, positions, works)
    play = works["play"][0].copy()
    works = np.zeros(1, dtype=WORK)
    works["halt"] = 1
    works["play"][0] = play
    apply(cfga, positions, works)
    return int(positions[0]["space"][0])


@pytest.mark.parametrize("rules", [{}, {"dents_past_finish": False}])
@pytest.mark.parametrize("bot", ["greedy", "greedy:tuned", "greedy:cautious"])
@pytest.mark.parametrize("dents", [0, 1, 2])
def test_greedy_crosses_the_finish_line_rather_than_save_dents(rules, bot, dents):
    # The finish line (progress 8) lies just into a corner of safety speed 3. From
    # progress 4 a play of speed 5 crosses it with two overspeed dents; greedy used to
    # charge them and stop short of the line on a slower play (R-18: dents taken past the
    # line cannot cost the finish; R-26: none are taken).
    t = build([("straight", 6), ("corner", "L", 90, 4, 3), ("straight", 8)], width=3, finish=8.0)
    st = state([sled(space(t, 1, 3), (2, 2), 0, [2, 3, 1, 1, 1], dents=dents)], **rules)
    res = moves(st, t)
    assert any(all(o["past_finish"] for o in p["outcomes"]) for p in res.plays)
    end = _greedy_end(st, t, bot)
    assert t.flags[end] & F_PAST_FINISH
