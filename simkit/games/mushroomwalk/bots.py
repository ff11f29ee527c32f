"""Bot specs for Mushroom Walk: ``random``, ``greedy``, ``lookahead``, with parameters.

A spec is a bot name optionally followed by ``:name=value`` pairs, e.g.
``greedy:cook_at=3`` or ``lookahead:opp=1:stick=0.8``. Parameters (all floats):

- ``stick``: points one walking stick is worth (default 0.6)
- ``pan``: points the first pan is worth (4)
- ``cook_at``: greedy cooks a kind once it holds this many (4), or sooner when its hand
  is nearly full or the forest is running out
- ``endgame``: cards left in draw pile + forest below which holdings lose value
  (greedy 16, lookahead 40)
- ``opp``: lookahead's weight on the best card it leaves the opponent (0.5)
- ``incomplete``: value per mushroom of an unfinished set, relative to cooking it (0.6)
- ``hold``: lookahead's value of a complete set kept in hand, relative to cooking it (0.95)
"""

from __future__ import annotations

import numpy as np

from simkit.errors import SimkitError
from simkit.games.mushroomwalk import policy

BOTS = ("random", "greedy", "lookahead")
_KIND = {"random": policy.BOT_RANDOM, "greedy": policy.BOT_GREEDY,
         "lookahead": policy.BOT_LOOKAHEAD}  # fmt: skip
_PARAMS = {
    "stick": (policy.B_STICK, 0.0, 20.0),
    "pan": (policy.B_PAN, 0.0, 50.0),
    "cook_at": (policy.B_COOK_AT, 1.0, 30.0),
    "endgame": (policy.B_ENDGAME, 1.0, 200.0),
    "opp": (policy.B_OPP, 0.0, 10.0),
    "incomplete": (policy.B_INCOMPLETE, 0.0, 1.0),
    "hold": (policy.B_HOLD, 0.0, 1.5),
}


def parse_bot(spec: str) -> tuple[int, np.ndarray]:
    """Bot kind code and parameter vector of one spec; ``SimkitError`` naming the fix."""
    name, *pairs = spec.split(":")
    if name not in _KIND:
        raise SimkitError(f"mushroomwalk: unknown bot '{name}' (known: {', '.join(BOTS)})")
    vec = policy.default_bpar(_KIND[name])
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq or key not in _PARAMS:
            raise SimkitError(
                f"mushroomwalk bot '{spec}': expected NAME=VALUE with NAME one of "
                f"{', '.join(_PARAMS)} (got '{pair}')"
            )
        idx, lo, hi = _PARAMS[key]
        try:
            value = float(raw)
        except ValueError:
            raise SimkitError(f"mushroomwalk bot '{spec}': {key} must be a number") from None
        if not lo <= value <= hi:
            raise SimkitError(f"mushroomwalk bot '{spec}': {key} must be between {lo:g} and {hi:g}")
        vec[idx] = value
    return _KIND[name], vec


def parse_bots(specs: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Kind codes (int64, per seat) and parameters (float64, seats x params)."""
    parsed = [parse_bot(s) for s in specs]
    kinds = np.array([k for k, _ in parsed], dtype=np.int64)
    bpar = np.stack([v for _, v in parsed])
    return kinds, bpar
