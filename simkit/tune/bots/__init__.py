"""``simkit bots tune``: fitting a heuristic bot's weights (docs/bots.md).

The bot tuner of :mod:`simkit.tune`, beside the rules tuner (``simkit tune``):
:mod:`simkit.tune.bots.run` starts or resumes a tuning, confirms and records it;
:mod:`simkit.tune.bots.search` fits the weights a game declares tunable (``Game.tunable``)
with CMA-ES on common random numbers, resumably; :mod:`simkit.tune.bots.design` says who
plays whom on which races; :mod:`simkit.tune.bots.confirm` plays the fitted weights against
the defaults head to head on fresh keys; :mod:`simkit.tune.bots.presets` records the fitted
preset, with its provenance, in the game's presets file; :mod:`simkit.tune.bots.report`
writes the report.
"""
