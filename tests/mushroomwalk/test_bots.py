"""Bots: spec parsing and strength order on fixed seeds (their information: test_position)."""

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games.cells import build_cell
from simkit.games.mushroomwalk import GAME
from simkit.games.mushroomwalk.bots import parse_bot
from simkit.games.mushroomwalk.records import BOT_LOOKAHEAD
from simkit.rng import race_keys


def test_bot_specs_and_their_errors():
    bot = parse_bot("lookahead:opp=2:cook_at=3:samples=4")[0]
    assert bot["kind"] == BOT_LOOKAHEAD and (bot["opp"], bot["cook_at"]) == (2.0, 3.0)
    assert bot["samples"] == 4.0 and bot["hold"] == 0.95  # lookahead's own default
    for spec, msg in (
        ("smart", "unknown bot 'smart'"),
        ("greedy:opp", "expected NAME=VALUE"),
        ("greedy:speed=1", "expected NAME=VALUE"),
        ("greedy:opp=x", "opp must be a number"),
        ("greedy:opp=99", "opp must be between 0 and 10"),
    ):
        with pytest.raises(SimkitError, match=msg):
            parse_bot(spec)


def _win_share(a, b, n):
    """Share of games bot ``a`` wins against ``b`` (draws half), over both seatings."""
    keys = race_keys(2024, 0, np.arange(n))
    won = 0.0
    for bots, seat in (([a, b], 0), ([b, a], 1)):
        batch = GAME.simulate(build_cell("mushroomwalk", bots=bots), keys)
        fin = batch.seats["finish"]
        draw = batch.races["draw"]
        won += ((fin[:, seat] == 1) & ~draw).sum() + 0.5 * draw.sum()
    return won / (2 * n)


def test_greedy_beats_random_and_lookahead_beats_greedy():
    assert _win_share("greedy", "random", 200) > 0.9
    assert _win_share("lookahead", "greedy", 1000) > 0.65
