"""Bot specs for Mushroom Walk: ``random``, ``greedy``, ``lookahead``, ``search:N``.

A spec is a bot name optionally followed by ``:name=value`` pairs, e.g.
``greedy:cook_at=3`` or ``lookahead:opp=1:stick=0.8``. ``search`` takes its budget (rollouts
per decision) first: ``search:64``, ``search:64:margin=0``; ``search`` alone plays
``DEFAULT_BUDGET``. Its rollouts play greedy with the spec's other parameters.
Parameters (all numbers):

- ``stick``: points one walking stick is worth (default 0.6)
- ``pan``: points the first pan is worth (4)
- ``cook_at``: greedy cooks a kind once it holds this many (4), or sooner when its hand
  is nearly full or the forest is running out
- ``endgame``: cards left in draw pile + forest below which holdings lose value
  (greedy 16, lookahead 40)
- ``opp``: lookahead's weight on the best card it leaves the opponent (0.5)
- ``incomplete``: value per mushroom of an unfinished set, relative to cooking it (0.6)
- ``hold``: lookahead's value of a complete set kept in hand, relative to cooking it (0.95)
- ``samples``: lookahead's samples of the hidden cards for a play that brings a night
  card (8)
- ``horizon``: plays of both seats a search rollout plays before ``evaluate`` scores it
  (whole number; 0: to the end of the game) (8)
- ``margin``: search's utility per point of score margin, added to 1 for a win, 0.5 for a
  draw, 0 for a loss, or at the horizon to the logistic of the evaluation margin (0.01)
"""

from __future__ import annotations

import numpy as np

from simkit.errors import SimkitError
from simkit.games.mushroomwalk.records import (
    BOT,
    BOT_GREEDY,
    BOT_LOOKAHEAD,
    BOT_RANDOM,
    BOT_SEARCH,
)
from simkit.names import unknown

BOTS = ("random", "greedy", "lookahead", "search")
_KIND = dict(zip(BOTS, (BOT_RANDOM, BOT_GREEDY, BOT_LOOKAHEAD, BOT_SEARCH), strict=True))
DEFAULT_BUDGET = 128  # rollouts per decision of ``search`` (docs/rules-mushroomwalk.md "Bots")
MAX_BUDGET = 4096
# name: (lowest, highest) allowed; every field of records.BOT but ``kind`` and ``budget``
PARAMS = {
    "stick": (0.0, 20.0),
    "pan": (0.0, 50.0),
    "cook_at": (1.0, 30.0),
    "endgame": (1.0, 200.0),
    "opp": (0.0, 10.0),
    "incomplete": (0.0, 1.0),
    "hold": (0.0, 1.5),
    "samples": (1.0, 64.0),
    "margin": (0.0, 1.0),
    "horizon": (0.0, 1000.0),
}
_DEFAULTS = {
    "stick": 0.6,
    "pan": 4.0,
    "cook_at": 4.0,
    "endgame": 16.0,
    "opp": 1.0,
    "incomplete": 0.6,
    "hold": 0.9,
    "samples": 8.0,
    "margin": 0.01,
    "horizon": 8.0,
}
_WHOLE = {"horizon"}  # integer fields of records.BOT
# lookahead's own defaults were tuned against greedy
_LOOKAHEAD = {"endgame": 40.0, "opp": 0.5, "hold": 0.95}


def parse_bot(spec: str) -> np.ndarray:
    """The one-element ``records.BOT`` array of one spec; ``SimkitError`` (key ``bots``)
    naming the fix."""
    name, *pairs = spec.split(":")
    if name not in _KIND:
        raise _error(unknown("bot", name, BOTS, prefix="mushroomwalk: "))
    values = {**_DEFAULTS, **(_LOOKAHEAD if name == "lookahead" else {})}
    budget = _budget(spec, pairs) if name == "search" else 0
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq or key not in PARAMS:
            raise _error(
                f"mushroomwalk bot '{spec}': expected NAME=VALUE with NAME one of "
                f"{', '.join(PARAMS)} (got '{pair}')"
            )
        lo, hi = PARAMS[key]
        try:
            value = float(raw)
        except ValueError:
            raise _error(f"mushroomwalk bot '{spec}': {key} must be a number") from None
        if not lo <= value <= hi:
            raise _error(f"mushroomwalk bot '{spec}': {key} must be between {lo:g} and {hi:g}")
        if key in _WHOLE and not value.is_integer():
            raise _error(f"mushroomwalk bot '{spec}': {key} must be a whole number")
        values[key] = value
    rec = np.zeros(1, BOT)
    rec["kind"] = _KIND[name]
    rec["budget"] = budget
    for key, value in values.items():
        rec[key] = value
    return rec


def _budget(spec: str, pairs: list[str]) -> int:
    """``search``'s budget: the first pair when it is a number (taken off ``pairs``)."""
    if not pairs or "=" in pairs[0]:
        return DEFAULT_BUDGET
    raw = pairs.pop(0)
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_BUDGET:
        raise _error(
            f"mushroomwalk bot '{spec}': the budget after 'search:' must be a whole number of "
            f"rollouts from 1 to {MAX_BUDGET} (got '{raw}'), e.g. search:64"
        )
    return int(raw)


def _error(message: str) -> SimkitError:
    return SimkitError(message, key="bots")


def parse_bots(specs: tuple[str, ...]) -> np.ndarray:
    """The ``records.BOT`` array of the seats, one record per spec."""
    return np.concatenate([parse_bot(s) for s in specs])
