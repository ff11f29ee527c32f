"""MUSH bot specs: ``random``, ``greedy`` and ``search``, with parameters, as one record per
seat.

A spec is ``name`` or ``name:key=value:...`` (e.g. ``greedy:reserve=8:train=cold``; colons
because the CLI splits seats on commas); ``search`` may take its budget first,
``search:64``. ``bot_row`` turns it into a ``BOT`` record whose fields are ``kind``,
``budget`` and every name of ``BOT_PARAMS``; the kernels read them by name
(``bp.reserve``). What each bot does with them is in ``policy.py``, ``heuristic.py`` and
``search.py``; a search bot plays greedy, with its parameters, where it does not search.
"""

from __future__ import annotations

import numpy as np

from simkit.errors import SimkitError
from simkit.names import did_you_mean, unknown

BOT_KINDS = ("random", "greedy", "search")
RANDOM, GREEDY, SEARCH = 0, 1, 2
# Rollouts per searched decision of ``search`` without a budget: search:32 and search:64
# are not separated on the ladder at 2,000 races a lineup (docs/rules-mush.md, Bots).
DEFAULT_BUDGET = 32
MAX_BUDGET = 4096

# name: (random default, greedy default, doc)
BOT_PARAMS: dict[str, tuple[float, float, str]] = {
    "reserve": (0.0, 4.0, "tokens kept back from optional spends (not from rolls)"),
    "token_value": (0.5, 0.5, "an action token's worth in spaces"),
    "dog_value": (1.0, 1.0, "an uncovered dog's worth in spaces (rest options, bonus die)"),
    "rest_at": (8.0, 2.0, "covered dogs at which it rests when in a town"),
    "rest_to": (0.0, 1.0, "once resting, rests until covered dogs are at most this"),
    "start_rest": (0.0, 0.0, "rounds it rests in the start town first (gaining tokens)"),
    "caution": (0.0, 0.35, "rests if caution x reach of its dogs < distance to next town"),
    "town_pull": (0.0, 2.0, "spaces it gives up to end a move in a town when tired"),
    "rough_aversion": (0.0, 2.0, "spaces a sure rough-terrain failure is worth avoiding"),
    "aval_aversion": (0.0, 3.0, "spaces a sure avalanche failure is worth avoiding"),
    "rough_buy": (1.0, 2.0, "tokens bought on a rough-terrain roll (capped by the rules)"),
    "aval_buy": (2.0, 4.0, "tokens bought on an avalanche roll (capped by the rules)"),
    "bid": (2.0, 1.0, "tokens bid for the order of play (random: most it bids)"),
    "bid_range": (0.0, 3.0, "bids only when a rival is within this many spaces"),
    "harass_within": (0.0, 20.0, "harasses a leader this close to the finish"),
    "harass_dice": (1.0, 1.0, "dice it removes from a leader's roll"),
    "reroll_gap": (0.0, 2.0, "rerolls dog dice this far from the expected count"),
    "avalanches": (1.0, 1.0, "1: places and removes avalanche markers, 0: never"),
    "train": (-1.0, -1.0, "training it picks if allowed: warm, mild, cold or best"),
    "p": (0.1, 0.0, "random: chance of each optional token spend"),
    "p_rest": (0.3, 0.0, "random: chance of resting when in a town"),
    "stranded": (0.0, 3.0, "spaces lost per space a move's end lies beyond its dogs' reach"),
}
# search's own parameters besides its budget, name: (default, doc); elsewhere it takes
# greedy's defaults above. Both defaults measured (docs/rules-mush.md, Bots).
SEARCH_PARAMS: dict[str, tuple[float, str]] = {
    "margin": (2.0, "standard errors a play must gain over greedy's to replace it"),
    "horizon": (12.0, "rounds a rollout plays before it is ranked (0: to the end)"),
}
_FIELDS = [("kind", np.float64), ("budget", np.float64)] + [
    (k, np.float64) for k in (*BOT_PARAMS, *SEARCH_PARAMS)
]
BOT = np.dtype((np.record, np.dtype(_FIELDS, align=True)))  # see records.record
_TRAIN_NAMES = {"warm": 0.0, "mild": 1.0, "cold": 2.0, "best": -1.0}


def bot_row(spec: str) -> np.ndarray:
    """The ``BOT`` record (a 0-d array) of a spec such as ``greedy:reserve=8:train=cold`` or
    ``search:64``."""
    name, *pairs = spec.split(":")
    if name not in BOT_KINDS:
        raise SimkitError(unknown("bot", name, BOT_KINDS, prefix="mush: "), key="bots")
    kind = BOT_KINDS.index(name)
    row = np.zeros((), dtype=BOT)
    row["kind"] = kind
    for key, (rnd, grd, _doc) in BOT_PARAMS.items():
        row[key] = rnd if kind == RANDOM else grd
    known = dict(BOT_PARAMS)
    if kind == SEARCH:
        known.update(SEARCH_PARAMS)
        for key, (default, _doc) in SEARCH_PARAMS.items():
            row[key] = default
        row["budget"] = DEFAULT_BUDGET
        if pairs and "=" not in pairs[0]:
            row["budget"] = _budget(spec, pairs.pop(0))
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq or key not in known:
            names = ", ".join(known)
            raise SimkitError(
                f"mush: bot '{spec}': expected key=value with key one of {names}"
                + did_you_mean(key, known),
                key="bots",
            )
        if key == "train":
            if raw not in _TRAIN_NAMES:
                raise SimkitError(
                    f"mush: bot '{spec}': train must be warm, mild, cold or best", key="bots"
                )
            row[key] = _TRAIN_NAMES[raw]
            continue
        try:
            value = float(raw)
        except ValueError:
            raise SimkitError(
                f"mush: bot '{spec}': {key} must be a number (got '{raw}')", key="bots"
            ) from None
        if value < 0:
            raise SimkitError(f"mush: bot '{spec}': {key} must be >= 0 (got {raw})", key="bots")
        row[key] = value
    return row


def _budget(spec: str, raw: str) -> int:
    """The rollouts per decision of ``search:N``, checked."""
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_BUDGET:
        raise SimkitError(
            f"mush: bot '{spec}': the budget must be a whole number of rollouts from 1 to "
            f"{MAX_BUDGET} (e.g. search:{DEFAULT_BUDGET})",
            key="bots",
        )
    return int(raw)
