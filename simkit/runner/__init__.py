"""The Monte Carlo runner: scenario files in, resumable parquet tables out (DESIGN §4, §5, §7).

``load_scenario`` validates a scenario file, ``expand`` turns it into cells, ``start`` and
``resume`` run it into a run directory, and ``aggregate`` computes the aggregate tables
from per-race rows (what ``keep = "aggregates"`` stores). ``simkit.load`` reads a run.
"""

from simkit.runner.driver import RunSummary, resume, start
from simkit.runner.grid import PlannedCell, expand
from simkit.runner.replay import replay_cell
from simkit.runner.scenario import Scenario
from simkit.runner.scenario_file import load as load_scenario
from simkit.runner.tables import aggregate

__all__ = [
    "PlannedCell",
    "RunSummary",
    "Scenario",
    "aggregate",
    "expand",
    "load_scenario",
    "replay_cell",
    "resume",
    "start",
]
