"""Names a user types (games, presets, bots, parameters, keys): the "did you mean" hint.

One helper, so every one-line error that rejects a name offers the closest known one the
same way (``difflib.get_close_matches``), e.g.
``unknown bot 'greedy:tunnd' (known: ...); did you mean 'greedy:tuned'?``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6  # difflib's default: 'greedi' finds 'greedy', 'nope' finds nothing


def closest(name: str, known: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The known name closest to ``name``, or None when none is close enough."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(name: str, known: Iterable[str], cutoff: float = CUTOFF) -> str:
    """``"; did you mean 'x'?"`` to end an error message with, or ``""``."""
    close = closest(name, known, cutoff)
    return f"; did you mean '{close}'?" if close else ""


def unknown(what: str, name: str, known: Iterable[str], prefix: str = "") -> str:
    """``"{prefix}unknown {what} 'name' (known: a, b); did you mean 'a'?"``."""
    known = list(known)
    return f"{prefix}unknown {what} '{name}' (known: {', '.join(known)}){did_you_mean(name, known)}"
