"""MUSH (1994): a dice race on a route of towns, with weather, training, fatigue and tokens.

Rules: ``seeds/003_2d1ca65949ad5234.txt`` (a French fragment) and RULINGS R-40..R-47;
what comes from where is in ``docs/rules-mush.md``.
"""

from simkit.games import register
from simkit.games.mush.game import GAME

register(GAME)

__all__ = ["GAME"]
