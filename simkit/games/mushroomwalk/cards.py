"""The cards of Mushroom Walk and Morels: one data table, card codes and names.

The book's table of kinds (``001_…``, "The cards") is missing from the text; RULINGS.md
("Mushroom Walk and Morels") rebuilds it from the book's own constraints and the published
Morels values. ``KINDS`` below is that table, the single source every preset is built
from. Kernels see cards as small integer codes (``CARD_*``); suits never matter.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Kind(NamedTuple):
    """One mushroom kind: a rank of the ordinary deck and its Morels values."""

    rank: int
    morels_name: str
    cook_points: int
    sell_sticks: int
    walk_cards: int  # Mushroom Walk forest deck (two decks + jokers)
    morels_cards: int  # the book's "Original numbers" variant = Morels' day deck
    night_card: bool  # one card of this rank goes to the night pile
    note: str


_NOTE_MORELS = "Morels value; RULINGS.md card table"
# Rank order is the book's "the rarer the kind, the more it is worth" ("The cards").
KINDS: tuple[Kind, ...] = (
    Kind(2, "honey fungus", 1, 1, 7, 10, True, "7 of the 2s: book 'Building the decks'"),
    Kind(3, "tree ear", 1, 2, 7, 8, True, "3s sell for 2: book 'Tips'; 7 3s: 'Deviations'"),
    Kind(4, "lawyer's wig", 2, 1, 6, 6, True, _NOTE_MORELS),
    Kind(5, "shiitake", 2, 2, 5, 5, True, _NOTE_MORELS),
    Kind(6, "hen of the woods", 3, 1, 5, 5, True, _NOTE_MORELS),
    Kind(7, "fairy ring", 3, 2, 4, 4, True, _NOTE_MORELS),
    Kind(8, "porcini", 3, 3, 4, 4, True, "8s sell for 3: book 'Tips' and the example"),
    Kind(9, "chanterelle", 4, 2, 4, 4, True, "9s cook for 4: book example (4 x 4 = 16)"),
    Kind(10, "morel", 6, 4, 3, 3, False, "3 10s: book 'Building the decks'; no night 10"),
)
N_KINDS = len(KINDS)

# The other cards of the forest deck: (Mushroom Walk, Morels) counts. Book "The cards",
# "Variants: Original numbers" and "Deviations from Morels"; RULINGS.md card table.
OTHER_CARDS: dict[str, tuple[int, int]] = {
    "butter": (4, 3),
    "cider": (4, 3),
    "basket": (4, 5),
    "poison": (4, 5),
    "pan": (12, 11),
    "moon": (8, 8),
}

# Card codes used by the kernels. 0..8 are the mushroom kinds (rank = code + 2). The codes
# are np.int64, not Python ints: numba compiles a helper once per literal int argument.
CARD_BUTTER, CARD_CIDER, CARD_BASKET, CARD_POISON, CARD_PAN, CARD_MOON = (
    np.int64(c) for c in range(N_KINDS, N_KINDS + 6)
)
N_FOREST_CODES = N_KINDS + 6  # codes that can be in the forest deck
NIGHT_BASE = np.int64(N_FOREST_CODES)  # night card of kind k has code NIGHT_BASE + k
N_CODES = N_FOREST_CODES + N_KINDS
CARD_UNKNOWN = np.int64(N_CODES)  # a face-down card of unknown identity (``simkit moves``)

_OTHER_NAMES = ("butter", "cider", "basket", "poison", "pan", "moon")


def card_name(code: int) -> str:
    """Readable name of a card code: '9', 'night9', 'pan', '?'."""
    if 0 <= code < N_KINDS:
        return str(code + 2)
    if CARD_BUTTER <= code <= CARD_MOON:
        return _OTHER_NAMES[code - CARD_BUTTER]
    if NIGHT_BASE <= code < N_CODES:
        return f"night{code - NIGHT_BASE + 2}"
    if code == CARD_UNKNOWN:
        return "?"
    return "-"


NAME_TO_CODE: dict[str, int] = {card_name(c): c for c in range(N_CODES + 1)}
