"""Snow Tails: the sled race with dog cards, on the compiled tracks (the ``snowtails`` game).

One engine for the Snow Tails family (DESIGN §1), laid out as every game package is
(``docs/games.md``): ``game`` (the ``GAME`` record), ``params`` (variant knobs and presets),
``records`` (the record layouts), ``position`` (the steppable position every caller uses,
over ``race``/``turn``/``movement``/``rules``: numba kernels of every rule), ``bots`` (bot
specs and presets), ``policy`` (the random and greedy bots' kernels), ``choose`` (which bot
decides), ``batch`` (many races on threads), ``kernels`` (Python's doors), ``trace`` (one
race, turn by turn) and ``moves`` (every legal play from a position). Its own: ``search``,
``distil`` and ``value`` (the search bot, its distilled policy and its value). Rules:
``docs/rules-snowtails.md``; positions: ``docs/positions.md``.
"""

from simkit.games import register
from simkit.games.snowtails.game import GAME, SnowTailsGame
from simkit.games.snowtails.params import SnowTailsParams

register(GAME)

__all__ = ["GAME", "SnowTailsGame", "SnowTailsParams"]
