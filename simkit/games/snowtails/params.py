"""Snow Tails family variant parameters: every knob of the rules, with the books' defaults.

One engine plays the Snow Tails family (DESIGN §1). Snow Tails (ST1) and Mush! Mush! (ST2)
are two presets of one dataclass, ``snowtails`` and ``mushmush``; every rule on which the
books differ is a parameter of its own, so the rules can be mixed (ST1 rules on an ST2
track, ST2 with a brake, ST2 without bonus dice). ``docs/rules-mushmush.md`` lists each
difference and its parameter. Options that no code implements are not offered.

Sources: ST1 = ``002_68b12fdd004c4f12.txt``, ST2 = ``000_5b9c8f35afea07d2.txt`` (the
section is named) and ``RULINGS.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from simkit.errors import ParamError
from simkit.params import Variant, param

MAX_VALUE = 5  # canine card values are 0..MAX_VALUE (ST2 decks have 0s)
MAX_SLOTS = 8  # per-slot tables cover ST2's 8 start places
MAX_RACES = 5  # races in one season or tournament
BONUS_RULES = ("position", "none", "dice")
START_RULES = ("grid", "row")
FIFTH_DENT = ("out", "repair")
RACE_END = ("all", "round")
TIE_BREAKS = ("inside", "speed")
BUILDING_RULES = ("effects", "walls", "none")
NEXT_START = ("reverse", "random")


@dataclass(frozen=True)
class SnowTailsParams(Variant):
    """The rules of one Snow Tails family variant (defaults: the ST1 book plus RULINGS)."""

    game = "snowtails"

    deck: tuple = param(
        (0, 4, 4, 4, 4, 4),
        "canine cards in each sled's deck, by value 0..5",
        lo=0,
        hi=20,
        length=MAX_VALUE + 1,
        source="R-10, R-22",
    )
    hand_size: int = param(
        5, "cards in hand after refilling (dents count)", lo=1, hi=10, source="ST1 Game Play 3"
    )
    dogs_start: int = param(
        3, "value both dogs show before any card is played", lo=0, hi=5, source="ST1 Setup"
    )
    dogs_from_deck: bool = param(
        False,
        "the starting dogs are two cards of that value taken from the deck (else printed)",
        source="ST2 A.5",
    )
    experienced: bool = param(
        False,
        "each sled chooses its starting pair (equal, non-zero) from its deck",
        source="ST2 A.5, R-22",
    )
    set_aside: int = param(
        0,
        "5s removed from each deck at set-up, for the kennels to add back",
        lo=0,
        hi=4,
        source="ST2 A.5, R-22",
    )
    start_rule: str = param(
        "grid",
        "grid: numbered start spaces; row: any space before the start line, in start order",
        choices=START_RULES,
        source="ST1 Setup, ST2 B, R-06",
    )
    brake_start: int = param(3, "brake value at the start", lo=0, hi=5, source="ST1 Setup")
    extra_cards: tuple = param(
        (0, 0, 0, 1, 2),
        "extra starting cards by start slot 1..",
        lo=0,
        hi=5,
        length=(5, MAX_SLOTS),
        source="R-11",
        favours="higher",  # R-11 gives the back slots the extra cards
    )
    max_cards: int = param(3, "most cards of one value played in a turn", lo=1, hi=3, source="R-12")
    brake: bool = param(True, "cards may be played onto the brake", source="R-12")
    bonus_rule: str = param(
        "position",
        "balanced-sled bonus: race position (ST1), none, or bonus dice (ST2)",
        choices=BONUS_RULES,
        source="R-14, R-23",
    )
    bonus_dice_start: tuple = param(
        (1, 1, 2, 2, 3, 3, 4, 4),
        "bonus dice start values by start slot 1.. (bonus_rule = dice)",
        lo=0,
        hi=6,
        length=(2, MAX_SLOTS),
        source="R-23",
        favours="higher",  # slots further back start with higher bonus dice
        when={"bonus_rule": "dice"},
    )
    bonus_dice_max: int = param(
        6, "highest value the bonus dice is set or raised to", lo=1, hi=6, source="ST2 B.2, R-23"
    )
    bonus_first_round: bool = param(
        False,
        "bonus (ST1) or bonus dice adjustment (ST2) allowed in the race's first round",
        source="R-14, R-23",
    )
    safety_speeds: bool = param(
        True, "corner entry lines give dents above their safety speed", source="R-15"
    )
    wall_dents: int = param(1, "dents for hitting the side of the track", lo=0, hi=5, source="R-17")
    sled_collision_refill: bool = param(
        False, "refill the hand after hitting a sled (else only discard)", source="R-16, R-24"
    )
    sled_collision_die: int = param(
        0, "bonus dice points lost for hitting a sled", lo=0, hi=6, source="R-24"
    )
    trees: bool = param(
        True,
        "the track's trees are in play (else removed before the race)",
        source="R-21",
        kernel=False,  # acts on the track table (layout.kernel_track)
    )
    tree_dents: int = param(1, "dents for entering a tree's space", lo=0, hi=5, source="R-21")
    buildings: str = param(
        "walls",
        "the track's buildings: effects (ST2 F), walls only, or none (removed)",
        choices=BUILDING_RULES,
        source="ST2 F, R-27",
        kernel=False,  # acts on the track table (layout.kernel_track)
    )
    no_canine_dent: bool = param(
        True, "a turn begun without canine cards takes a dent", source="R-19"
    )
    dent_limit: int = param(
        4, "dents a sled can hold; one more is the fifth dent", lo=0, hi=10, source="R-18, R-25"
    )
    fifth_dent: str = param(
        "out",
        "one dent too many: out of the race (ST1) or repair and rejoin when last (ST2)",
        choices=FIFTH_DENT,
        source="R-18, R-25",
    )
    two_sled_second: bool = param(
        False,
        "with repair: in a 2-sled race the fifth dent ends the race, that sled 2nd",
        source="R-25",
    )
    dents_past_finish: bool = param(
        True, "dents are still taken past the finish line", source="R-18, R-26"
    )
    race_end: str = param(
        "all",
        "all: race until every sled is done (ST1); round: the round someone crosses ends it",
        choices=RACE_END,
        source="R-05",
    )
    tie_break: str = param(
        "inside",
        "level sleds: inside of the corner (ST1), or faster then flag side (ST2)",
        choices=TIE_BREAKS,
        source="R-03",
    )
    tight_corner_order: bool = param(
        False,
        "on a tight corner, sleds in its inside lane go first",
        source="ST2 G, R-29",
    )
    points: tuple = param(
        (5, 3, 2, 1, 0, 0, 0, 0),
        "season points by finish position 1..",
        lo=0,
        hi=100,
        length=(5, MAX_SLOTS),
        source="R-20, R-28",
    )
    races: int = param(
        1,
        "races in one simulated unit: 1, or a season / tournament (points summed)",
        lo=1,
        hi=MAX_RACES,
        source="ST1 Racing Season, ST2 E, R-28",
    )
    race_tracks: tuple = param(
        (),
        "tracks of races 2.. of a season or tournament (empty: the cell's track again)",
        length=(0, MAX_RACES - 1),
        source="ST2 E",
        elem="str",
        kernel=False,  # the unit's tracks are joined into one table (batch.joined_tables)
    )
    carry_decks: bool = param(
        False,
        "decks, dogs and kennels' 5s carry over between races (else a fresh set-up)",
        source="ST2 E, R-28",
    )
    next_start: str = param(
        "random",
        "start order of the next race: reverse finishing order, or random",
        choices=NEXT_START,
        source="ST2 E.5, R-28",
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
        g = self.game
        total = sum(self.deck)
        if total < 1 or total > 60:
            raise ParamError(f"{g}.deck must hold 1 to 60 cards (got {total})", key="deck")
        if self.set_aside > self.deck[MAX_VALUE]:
            raise ParamError(
                f"{g}.set_aside is {self.set_aside} but the deck holds {self.deck[MAX_VALUE]} 5s",
                key="set_aside",
            )
        pair_missing = self.dogs_start == 0 or self.deck[self.dogs_start] < 2
        if self.dogs_from_deck and not self.experienced and pair_missing:
            raise ParamError(
                f"{g}.dogs_from_deck needs two cards of dogs_start = {self.dogs_start} "
                "(non-zero) in the deck",
                key="dogs_from_deck",
            )
        if self.experienced and not self.dogs_from_deck:
            raise ParamError(
                f"{g}.experienced needs dogs_from_deck = true (ST2 A.5)", key="experienced"
            )
        if self.races == 1 and self.race_tracks:
            raise ParamError(f"{g}.race_tracks needs races > 1", key="race_tracks")
        if len(self.race_tracks) > self.races - 1:
            raise ParamError(
                f"{g}.race_tracks names {len(self.race_tracks)} tracks for "
                f"{self.races - 1} later races",
                key="race_tracks",
            )


MUSHMUSH = dict(
    # Every setting on which Mush! Mush! differs from Snow Tails (docs/rules-mushmush.md).
    deck=(2, 4, 4, 4, 4, 2),
    dogs_start=2,  # ST2 A.5: two 2s from the deck
    dogs_from_deck=True,
    brake=False,  # ST2 B.1: no brake
    brake_start=0,
    max_cards=2,  # ST2 B.1: one card onto one dog, or two equal cards one on each
    set_aside=2,  # ST2 A.5: both 5s wait for the kennels
    start_rule="row",  # ST2 B: any space before the start line, random start order
    extra_cards=(0, 0, 0, 0, 0, 0, 0, 0),
    bonus_rule="dice",  # R-23 (set at set-up, so usable in round 1; adjusted from round 2)
    safety_speeds=False,  # ST2 has no safety speeds
    sled_collision_refill=True,
    sled_collision_die=1,
    no_canine_dent=False,  # ST1 "Special Rule" only
    buildings="effects",  # ST2 F, R-27
    fifth_dent="repair",
    two_sled_second=True,
    dents_past_finish=False,
    race_end="round",  # R-05, ST2 D
    tie_break="speed",  # R-03, ST2 "Race Order"
    tight_corner_order=True,
    points=(10, 7, 5, 4, 3, 2, 1, 0),
    carry_decks=True,
    next_start="reverse",
)


class MushMushParams(SnowTailsParams):
    """The same knobs under the ``mushmush`` game's name (error messages say which game)."""

    game = "mushmush"


def presets(cls: type[SnowTailsParams]) -> dict[str, SnowTailsParams]:
    """The family's presets as ``cls`` objects: the two books, and their tournaments."""
    return {
        "snowtails": cls(),
        "snowtails-season": cls(races=3),
        "mushmush": cls(**MUSHMUSH),
        "mushmush-tournament": cls(**MUSHMUSH, races=3),
    }


PRESETS: dict[str, SnowTailsParams] = presets(SnowTailsParams)
