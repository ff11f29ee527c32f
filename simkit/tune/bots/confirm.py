"""The confirmation: fitted weights against the defaults, head to head, on fresh races.

The search's own scores are optimistic (the kept weights are those that did well on the
races they were scored on), so the verdict comes from races no generation played
(:data:`simkit.tune.bots.design.CONFIRM_KEY`). The fitted bot and the default bot play the
ladder's balanced design (:func:`simkit.ladder.lineups`: with 4 seats, ``A,B,A,B`` and
``B,A,B,A``), every lineup on the same keys, so each bot starts from every slot equally
often at every key. The measure is the ladder's head-to-head share: of the pairs of a fitted
and a default seat separated in a decided race, the share the fitted seat finished ahead.
Its 95% interval is a percentile bootstrap over race keys (scipy), which keeps a race's
correlated pairs together.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from simkit.outcomes import decided as decided_races
from simkit.outcomes import pair_counts
from simkit.rng import chunk_keys
from simkit.tune.bots import design
from simkit.tune.common import RESAMPLES, separated


@dataclass(frozen=True)
class Confirmation:
    """The head-to-head result of the fitted bot (``bot``) against the default (``against``)."""

    bot: str
    against: str
    races: int  # races played, over every lineup
    decided: int  # of them, decided
    share: float  # comparisons the fitted bot won, of those separated in decided races
    low: float
    high: float

    @property
    def verdict(self) -> str:
        """``better``, ``worse`` or ``not separated``: where the interval lies against 50%."""
        return separated(self.low, self.high, 0.5, smaller_is_better=False)

    def sentence(self, fitted: str = "the fitted weights", default: str = "the defaults") -> str:
        pct = f"{100 * self.share:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"
        what = {
            "better": "better than the defaults: the interval excludes parity",
            "worse": "worse than the defaults: the interval excludes parity",
            "not separated": "not separated from the defaults: the interval includes 50%",
        }[self.verdict]
        return (
            f"{fitted} finished ahead of {default} in {pct} of head-to-head comparisons in "
            f"decided races ({self.races:,} fresh races, seats rotated): {what}."
        )

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "verdict": self.verdict}


def confirm(s: Any, fitted: str, default: str, threads: int | None = None) -> Confirmation:
    """Play ``fitted`` against ``default`` (bot names) on ``s.confirm`` keys per lineup.

    With a mix of settings every setting's lineups play the same keys, and a key's races in
    all of them are resampled together.
    """
    from simkit.analysis.stats import percentile_interval, share_ratio
    from simkit.ladder import lineups

    keys = chunk_keys(s.seed, design.CONFIRM_KEY, 0, s.confirm)
    ahead = np.zeros(s.confirm, np.int64)
    behind = np.zeros(s.confirm, np.int64)
    decided = lineups_played = 0
    for track, players in s.mix:
        for lineup in lineups([fitted, default], players):
            batch = design.play(s, lineup, keys, threads, track=track, players=players)
            mine = [j for j, b in enumerate(lineup) if b == fitted]
            theirs = [j for j, b in enumerate(lineup) if b == default]
            finish, finished = batch.seats["finish"], batch.seats["finished"]
            a, b = pair_counts(finish, finished, mine, theirs)
            ahead, behind = ahead + a, behind + b
            decided += int(decided_races(finish, finished)[0].sum())
            lineups_played += 1
    est = design.share(ahead, behind)

    ci = percentile_interval(
        (ahead, behind), share_ratio, s.seed, resamples=RESAMPLES, batch=200, paired=True
    )
    return Confirmation(
        fitted, default, s.confirm * lineups_played, decided, est, float(ci.low), float(ci.high)
    )
