"""``simkit bots tune``: fitting a heuristic bot's weights (docs/bots.md).

The bot tuner of :mod:`simkit.tune`, beside the rules tuner (``simkit tune``):
:mod:`simkit.tune.bots.run` starts or resumes a tuning, confirms and records it;
:mod:`simkit.tune.bots.search` fits the weights a game declares tunable (``Game.extras.tunable``)
with CMA-ES on common random numbers, resumably; :mod:`simkit.tune.bots.design` says who
plays whom on which races; :mod:`simkit.tune.bots.confirm` plays the fitted weights against
the defaults head to head on fresh keys; :mod:`simkit.tune.bots.presets` records the fitted
preset, with its provenance, in the tuning's own bots file (and reads such files where a
scenario or ``--bots-file`` names one); :mod:`simkit.tune.bots.folder` keeps the tuning
folder as safe as a run's; :mod:`simkit.tune.bots.report` writes the report.

The bounds of its counts live here, where the command line reads them without importing
the tuner: a rotation's races, and a confirmation lineup's, are one batch held in memory
(as a run's chunk, at most 100,000 races); the budget bounds the evaluations ``state.pkl``
keeps.
"""

MAX_RACES = 200_000  # per evaluation: at most 100,000 per rotation at 2 seats
MAX_CONFIRM = 100_000  # per lineup
MAX_BUDGET = 100_000  # evaluations
