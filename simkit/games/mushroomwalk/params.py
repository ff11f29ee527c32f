"""Mushroom Walk's variant parameters and its two presets (Mushroom Walk, Morels numbers).

Card counts and values come from the one table in :mod:`.cards` (``KINDS``,
``OTHER_CARDS``); each per-kind parameter is a column of it, so a variant can change one
kind's value without restating the rest. Sources: the book is ``001_3be794a22b0ef5b2.txt``
(sections in quotes), rulings are RULINGS.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from simkit.errors import ParamError
from simkit.games.mushroomwalk.cards import (
    CARD_BASKET,
    CARD_BUTTER,
    CARD_CIDER,
    CARD_MOON,
    CARD_PAN,
    CARD_POISON,
    KINDS,
    N_KINDS,
    OTHER_CARDS,
)
from simkit.games.mushroomwalk.records import MAX_DECAY, MAX_DECK, MAX_FOREST
from simkit.params import Variant, param

_TABLE = "RULINGS.md card table (Morels values)"
WHO_STARTS = ("random", "alternate", "seat0")  # R-51; kernels read the index


def _column(attr: str) -> tuple[int, ...]:
    return tuple(int(getattr(k, attr)) for k in KINDS)


@dataclass(frozen=True)
class MushroomWalkParams(Variant):
    """Every rule value of Mushroom Walk that a variant may change."""

    game: ClassVar[str] = "mushroomwalk"

    # --- the card table (one entry per kind, ranks 2..10) ---
    cook_points: tuple = param(
        _column("cook_points"),
        "points per cooked mushroom, ranks 2..10",
        lo=0,
        hi=50,
        length=N_KINDS,
        source=_TABLE + "; 9s = 4 from the book's example",
    )
    sell_sticks: tuple = param(
        _column("sell_sticks"),
        "sticks per sold mushroom, ranks 2..10",
        lo=0,
        hi=20,
        length=N_KINDS,
        source=_TABLE + "; 3s = 2, 8s = 3 from 'Tips'",
    )
    mushroom_cards: tuple = param(
        _column("walk_cards"),
        "forest-deck cards per kind, ranks 2..10",
        lo=0,
        hi=20,
        length=N_KINDS,
        source="'Building the decks' + RULINGS.md card table",
    )
    night_cards: tuple = param(
        _column("night_card"),
        "night-pile cards per kind (1 = yes), ranks 2..10",
        lo=0,
        hi=1,
        length=N_KINDS,
        source="'Building the decks': one each of 2..9",
    )
    butter_cards: int = param(
        OTHER_CARDS["butter"][0], "butter cards", lo=0, hi=20, source="RULINGS.md card table"
    )
    cider_cards: int = param(
        OTHER_CARDS["cider"][0], "cider cards", lo=0, hi=20, source="RULINGS.md card table"
    )
    basket_cards: int = param(
        OTHER_CARDS["basket"][0], "basket cards", lo=0, hi=20, source="'Deviations from Morels'"
    )
    poison_cards: int = param(
        OTHER_CARDS["poison"][0],
        "poison mushroom cards",
        lo=0,
        hi=20,
        source="'Deviations from Morels'",
    )
    pan_cards: int = param(
        OTHER_CARDS["pan"][0],
        "pan cards in the forest deck",
        lo=0,
        hi=30,
        source="'Deviations from Morels'",
    )
    moon_cards: int = param(
        OTHER_CARDS["moon"][0], "moon cards", lo=0, hi=20, source="RULINGS.md card table"
    )
    # --- setup ---
    starting_pans: int = param(
        1, "empty pans each player starts with (spare cards)", lo=0, hi=5, source="'Setup' 1"
    )
    deal: int = param(
        3, "cards dealt to each player from the draw pile", lo=0, hi=10, source="'Setup' 5"
    )
    who_starts: str = param(
        "random",
        "starting player: random per race, alternate by race index, or always seat 0",
        choices=WHO_STARTS,
        source="R-51",
    )
    # --- forest ---
    forest_size: int = param(
        8, "face-up forest cards", lo=1, hi=MAX_FOREST, source="'Overview', 'Setup' 2"
    )
    stick_costs: tuple = param(
        (0, 0, 1, 2, 3, 4, 5, 6),
        "sticks to take each forest position, next to the decay pile first",
        lo=0,
        hi=20,
        length=(1, MAX_FOREST),
        source="'Playing a turn' 1",
    )
    decay_size: int = param(
        4, "most cards in the decay pile", lo=1, hi=MAX_DECAY, source="'After every turn' 1"
    )
    # --- hand ---
    hand_limit: int = param(8, "hand limit (night cards count)", lo=1, hi=30, source="'Your hand'")
    basket_bonus: int = param(
        2, "extra hand limit per basket in the display", lo=0, hi=10, source="'Your hand'"
    )
    poison_limit: int = param(
        4,
        "hand limit after taking poison (plus the basket bonus)",
        lo=0,
        hi=30,
        source="'The poison mushroom'",
    )
    poison_turns: int = param(
        1,
        "own turns after the taking turn that the lower limit lasts",
        lo=0,
        hi=10,
        source="'The poison mushroom'",
    )
    # --- cooking and selling ---
    min_cook: int = param(
        3, "fewest mushrooms of a kind in a dish", lo=1, hi=20, source="'Playing a turn' 3"
    )
    min_sell: int = param(
        2, "fewest mushrooms of a kind to sell", lo=1, hi=20, source="'Playing a turn' 4"
    )
    night_multiplier: int = param(
        2, "mushrooms a night card counts as", lo=1, hi=5, source="'Your hand'"
    )
    butter_per: int = param(
        4, "mushrooms needed per butter", lo=1, hi=20, source="'Playing a turn' 3"
    )
    butter_points: int = param(3, "points per butter", lo=0, hi=50, source="'End of the game'")
    cider_per: int = param(
        5, "mushrooms needed per cider", lo=1, hi=20, source="'Playing a turn' 3"
    )
    cider_points: int = param(5, "points per cider", lo=0, hi=50, source="'End of the game'")

    def check(self) -> None:
        if self.deal > self.hand_limit:
            raise ParamError(
                f"mushroomwalk.deal={self.deal} does not fit hand_limit={self.hand_limit}; "
                "deal at most hand_limit cards",
                key="deal",
            )
        if self.poison_limit > self.hand_limit:
            raise ParamError(
                f"mushroomwalk.poison_limit={self.poison_limit} must not exceed "
                f"hand_limit={self.hand_limit} (it is the lower limit)",
                key="poison_limit",
            )
        if len(self.stick_costs) != self.forest_size:
            raise ParamError(
                f"mushroomwalk.stick_costs must have forest_size={self.forest_size} entries "
                f"(got {len(self.stick_costs)})",
                key="stick_costs",
            )
        if self.deck_size() < self.forest_size:
            raise ParamError(
                f"mushroomwalk: the forest deck has {self.deck_size()} cards, fewer than "
                f"forest_size={self.forest_size}; raise the card counts",
                key="mushroom_cards",
            )
        if self.deck_size() > MAX_DECK:
            raise ParamError(
                f"mushroomwalk: the forest deck has {self.deck_size()} cards, more than "
                f"{MAX_DECK}; lower the card counts",
                key="mushroom_cards",
            )

    def forest_counts(self) -> tuple[int, ...]:
        """Forest-deck cards per card code (mushrooms 0..8, then butter..moon)."""
        other = {
            CARD_BUTTER: self.butter_cards,
            CARD_CIDER: self.cider_cards,
            CARD_BASKET: self.basket_cards,
            CARD_POISON: self.poison_cards,
            CARD_PAN: self.pan_cards,
            CARD_MOON: self.moon_cards,
        }
        return tuple(self.mushroom_cards) + tuple(other[c] for c in sorted(other))

    def deck_size(self) -> int:
        """Cards in the forest deck (81 for Mushroom Walk, 84 for Morels numbers)."""
        return sum(self.forest_counts())


def _other(index: int) -> dict[str, int]:
    return {f"{name}_cards": counts[index] for name, counts in OTHER_CARDS.items()}


PRESETS: dict[str, MushroomWalkParams] = {
    # The book as written: two decks and jokers, 81 forest cards.
    "mushroomwalk": MushroomWalkParams(),
    # "Variants: Original numbers": Morels' own day deck, 84 cards.
    "morels": MushroomWalkParams(mushroom_cards=_column("morels_cards"), **_other(1)),
}
