"""Snow Tails variant parameters: every knob of the rules, with the book's defaults.

One engine plays the Snow Tails family (DESIGN §1): the book's rules are the preset
``snowtails``; Mush! Mush! will be a second preset of the same dataclass once its rules are
implemented. Options that no code implements are not offered (no dead options).

Sources: ``002_68b12fdd004c4f12.txt`` (ST1, the section is named) and ``RULINGS.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.errors import ParamError
from simkit.params import Variant, param

MAX_VALUE = 5  # canine card values are 0..MAX_VALUE (ST2 decks have 0s)
MAX_SLOTS = 8  # per-slot tables may cover ST2's 8 start places
BONUS_RULES = ("position", "none")

# Offsets into the flat int64 vector kernels receive (``to_kernel``).
K_HAND = 0
K_DOGS = 1
K_BRAKE0 = 2
K_MAX_CARDS = 3
K_BRAKE_ON = 4
K_BONUS_RULE = 5  # index into BONUS_RULES
K_BONUS_R1 = 6
K_SAFETY = 7
K_WALL_DENTS = 8
K_SLED_REFILL = 9
K_NO_CANINE_DENT = 10
K_DENT_LIMIT = 11
K_POINTS_ELIM = 12
K_MAX_ROUNDS = 13
K_DECK_TOTAL = 14
K_LIFT_FINISHED = 15
K_DECK = 16  # MAX_VALUE + 1 counts, by card value
K_EXTRA = K_DECK + MAX_VALUE + 1  # MAX_SLOTS extra start cards, by slot
K_POINTS = K_EXTRA + MAX_SLOTS  # MAX_SLOTS points, by finish position
K_LEN = K_POINTS + MAX_SLOTS


@dataclass(frozen=True)
class SnowTailsParams(Variant):
    """The rules of one Snow Tails variant (defaults: the ST1 book plus RULINGS)."""

    game = "snowtails"

    deck: tuple = param(
        (0, 4, 4, 4, 4, 4),
        "canine cards in each sled's deck, by value 0..5",
        lo=0,
        hi=20,
        length=MAX_VALUE + 1,
        source="R-10",
    )
    hand_size: int = param(
        5, "cards in hand after refilling (dents count)", lo=1, hi=10, source="ST1 Game Play 3"
    )
    dogs_start: int = param(
        3, "value both dogs show before any card is played", lo=0, hi=5, source="ST1 Setup"
    )
    brake_start: int = param(3, "brake value at the start", lo=0, hi=5, source="ST1 Setup")
    extra_cards: tuple = param(
        (0, 0, 0, 1, 2),
        "extra starting cards by start slot 1..",
        lo=0,
        hi=5,
        length=(5, MAX_SLOTS),
        source="R-11",
    )
    max_cards: int = param(3, "most cards of one value played in a turn", lo=1, hi=3, source="R-12")
    brake: bool = param(True, "cards may be played onto the brake", source="R-12")
    bonus_rule: str = param(
        "position",
        "balanced-sled bonus: race position, or no bonus",
        choices=BONUS_RULES,
        source="R-14",
    )
    bonus_first_round: bool = param(False, "bonus allowed in the race's first round", source="R-14")
    safety_speeds: bool = param(
        True, "corner entry lines give dents above their safety speed", source="R-15"
    )
    wall_dents: int = param(1, "dents for hitting the side of the track", lo=0, hi=5, source="R-17")
    sled_collision_refill: bool = param(
        False, "refill the hand after hitting a sled (else only discard)", source="R-16"
    )
    no_canine_dent: bool = param(
        True, "a turn begun without canine cards takes a dent", source="R-19"
    )
    dent_limit: int = param(
        4, "dents a sled can hold; one more takes it out", lo=0, hi=10, source="R-18"
    )
    points: tuple = param(
        (5, 3, 2, 1, 0),
        "season points by finish position 1..",
        lo=0,
        hi=100,
        length=(5, MAX_SLOTS),
        source="R-20",
    )
    points_eliminated: bool = param(
        False,
        "sleds out of the race score their position's points",
        source="docs/rules-snowtails.md",
    )
    lift_finished: bool = param(
        True,
        "finished sleds leave the board at the end of their round (else they block the run-off)",
        source="docs/rules-snowtails.md",
    )
    max_rounds: int = param(
        200,
        "engine guard: a race still running after this many rounds ends",
        lo=10,
        hi=1000,
        source="engine",
    )

    def check(self) -> None:
        total = sum(self.deck)
        if total < 1 or total > 60:
            raise ParamError(f"snowtails.deck must hold 1 to 60 cards (got {total})")

    def to_kernel(self) -> np.ndarray:
        """The flat int64 vector kernels read, at the ``K_*`` offsets of this module."""
        v = np.zeros(K_LEN, dtype=np.int64)
        v[K_HAND] = self.hand_size
        v[K_DOGS] = self.dogs_start
        v[K_BRAKE0] = self.brake_start
        v[K_MAX_CARDS] = self.max_cards
        v[K_BRAKE_ON] = self.brake
        v[K_BONUS_RULE] = BONUS_RULES.index(self.bonus_rule)
        v[K_BONUS_R1] = self.bonus_first_round
        v[K_SAFETY] = self.safety_speeds
        v[K_WALL_DENTS] = self.wall_dents
        v[K_SLED_REFILL] = self.sled_collision_refill
        v[K_NO_CANINE_DENT] = self.no_canine_dent
        v[K_DENT_LIMIT] = self.dent_limit
        v[K_POINTS_ELIM] = self.points_eliminated
        v[K_MAX_ROUNDS] = self.max_rounds
        v[K_DECK_TOTAL] = sum(self.deck)
        v[K_LIFT_FINISHED] = self.lift_finished
        v[K_DECK : K_DECK + MAX_VALUE + 1] = self.deck
        v[K_EXTRA : K_EXTRA + len(self.extra_cards)] = self.extra_cards
        v[K_POINTS : K_POINTS + len(self.points)] = self.points
        return v


PRESETS: dict[str, SnowTailsParams] = {"snowtails": SnowTailsParams()}
