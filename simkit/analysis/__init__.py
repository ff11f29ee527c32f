"""Analysis of run tables: pandas in, pandas out, usable from a notebook (DESIGN §6).

Example:
    >>> import simkit
    >>> from simkit import analysis
    >>> run = simkit.load("runs/fairness")
    >>> analysis.fairness(run)                 # one verdict per cell
    >>> analysis.fairness_by_slot(run)         # win rate, finish, points by start slot
    >>> analysis.track_summary(run)            # race length, dents, collisions per race
    >>> analysis.compare_cells(run, [0, 1])    # differences, paired where races share luck
    >>> analysis.round_measures(run)           # completion, decided round, comeback rate
    >>> analysis.drama_measures(run)           # drama, lead change, uncertainty, stability

docs/statistics.md says which interval and test each number uses.
"""

from simkit.analysis.compare import (
    compare_cells,
    compare_runs,
    pairable,
    paired_difference,
    significance_summary,
)
from simkit.analysis.drama import (
    drama_measures,
    running_by_round,
    uncertainty_by_rounds_left,
    win_by_rounds_left,
)
from simkit.analysis.fairness import fairness, fairness_by_slot, slot_finish_counts, verdict
from simkit.analysis.rounds import (
    comebacks_by_round,
    position_by_bot,
    position_by_slot,
    round_measures,
    win_by_position,
)
from simkit.analysis.track import (
    heat_by_space,
    hot_spaces,
    overspeed_by_corner,
    race_length,
    race_length_summary,
    track_summary,
)

__all__ = [
    "comebacks_by_round",
    "compare_cells",
    "compare_runs",
    "drama_measures",
    "fairness",
    "fairness_by_slot",
    "heat_by_space",
    "hot_spaces",
    "overspeed_by_corner",
    "pairable",
    "paired_difference",
    "position_by_bot",
    "position_by_slot",
    "race_length",
    "race_length_summary",
    "round_measures",
    "running_by_round",
    "significance_summary",
    "slot_finish_counts",
    "track_summary",
    "uncertainty_by_rounds_left",
    "verdict",
    "win_by_position",
    "win_by_rounds_left",
]
