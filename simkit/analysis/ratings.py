"""A ladder's ratings as the analysis reads them: the races of a run as :class:`Outcomes`,
win rates, head to head, and one sentence per pair of rungs.

The model, the fit and its bootstrap intervals live below the runner, in
:mod:`simkit.ratings` (the runner checks skill levels with them); their names are importable
from here as well.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.outcomes import decided as decided_races
from simkit.ratings import (
    ABOVE,
    ALPHA,
    BELOW,
    BUDGET,
    LEVEL,
    REPLICATES,
    SPLIT,
    Outcomes,
    Ratings,
    fit,
    pair_share,
    verdict,
)
from simkit.stats import wilson_interval

__all__ = [
    "ABOVE",
    "ALPHA",
    "BELOW",
    "BUDGET",
    "LEVEL",
    "REPLICATES",
    "SPLIT",
    "Outcomes",
    "Ratings",
    "compare",
    "fit",
    "head_to_head",
    "outcomes",
    "pair_share",
    "rungs",
    "verdict",
    "win_rates",
]


def outcomes(races: pd.DataFrame, bots: tuple[str, ...]) -> Outcomes:
    """The ladder's races from a run's per-race rows (sorted by cell, race, seat)."""
    players = int(races.groupby(["cell", "race"], sort=False).size().max())
    shape = (-1, players)
    index = {b: i for i, b in enumerate(bots)}
    bot = races["bot"].astype(str).map(index).to_numpy(np.int64).reshape(shape)
    finished = races["finished"].to_numpy(bool).reshape(shape)
    finish = races["finish"].to_numpy(np.int64).reshape(shape)
    place = np.where(finished, finish, 0)
    decided, _ = decided_races(finish, finished)
    key = races["race"].to_numpy(np.int64).reshape(shape)[:, 0]
    return Outcomes(bots, bot, place, key, decided)


def win_rates(o: Outcomes) -> pd.DataFrame:
    """Per bot: seats in decided races, wins, and the win rate per seat (Wilson 95%).

    Chance is 1/players: what every seat would win if the bots played alike.
    """
    bot = o.bot[o.decided]
    place = o.place[o.decided]
    k = len(o.bots)
    seats = np.bincount(bot.ravel(), minlength=k)
    wins = np.bincount(bot[place == 1], minlength=k)
    low, high = wilson_interval(wins, seats)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = wins / seats
    return pd.DataFrame(
        {
            "bot": list(o.bots),
            "seats": seats,
            "wins": wins,
            "win_rate": rate,
            "low": low,
            "high": high,
        }
    )


def head_to_head(o: Outcomes) -> pd.DataFrame:
    """How often each bot finished ahead of each other bot, over decided races.

    A seat is ahead of another when it finished and the other did not, or finished earlier.
    Pairs of seats neither of which finished are not separated and not counted, so
    ``share(A, B) + share(B, A) = 1``. Every pair of seats with different bots counts once;
    with fewer bots than seats a race gives some pairs several comparisons, and the Wilson
    interval, which treats them as independent, is then a little narrow.
    """
    bot = o.bot[o.decided]
    place = o.place[o.decided]
    k = len(o.bots)
    ahead = np.zeros((k, k), np.int64)
    for s in range(o.players):
        for t in range(o.players):
            if s == t:
                continue
            won = (place[:, s] > 0) & ((place[:, t] == 0) | (place[:, s] < place[:, t]))
            np.add.at(ahead, (bot[won, s], bot[won, t]), 1)
    np.fill_diagonal(ahead, 0)
    separated = ahead + ahead.T
    rows = []
    for a in range(k):
        for b in range(k):
            if a != b:
                rows.append((o.bots[a], o.bots[b], ahead[a, b], separated[a, b]))
    out = pd.DataFrame(rows, columns=["bot", "opponent", "ahead", "races"])
    low, high = wilson_interval(out["ahead"], out["races"])
    with np.errstate(invalid="ignore", divide="ignore"):
        out["share"] = out["ahead"] / out["races"]
    out["low"], out["high"] = low, high
    return out


def _pct(share: tuple[float, float, float]) -> str:
    est, lo, hi = share
    return f"{100 * est:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def compare(
    upper: str,
    lower: str,
    diff: tuple[float, float, float],
    share: tuple[float, float, float],
    races: int,
) -> str:
    """The sentence for two bots (``upper`` rated higher): "above" only when the rating
    difference and the head-to-head share both exclude parity (:func:`verdict`); when they
    disagree the sentence says which says what."""
    est, lo, hi = diff
    d = f"rating difference {est:+.3f} [{lo:+.3f}, {hi:+.3f}]"
    if np.isnan(share[0]):
        return f"{upper} and {lower} not separated: no decided race separated them ({d})."
    h = f"head to head {_pct(share)}"
    v = verdict(diff, share)
    if v == ABOVE:
        return f"{upper} above {lower} ({d}; {h})."
    if v == LEVEL:
        return f"{upper} and {lower} not separated at {races:,} races ({d}; {h})."
    if v == BELOW:  # the estimate says upper, both intervals say lower: cannot happen
        return f"{lower} above {upper} ({d}; {h})."
    if lo > 0 and share[2] < 0.5:
        return (
            f"ratings put {upper} above {lower} ({d}); head to head {lower} finishes ahead: "
            f"{upper} {_pct(share)}."
        )
    if lo > 0:
        return (
            f"ratings put {upper} above {lower} ({d}); head to head they are level: {_pct(share)}."
        )
    ahead, behind = (upper, lower) if share[1] > 0.5 else (lower, upper)
    return (
        f"head to head {ahead} finishes ahead of {behind}: {upper} {_pct(share)}; the "
        f"ratings do not separate them ({d})."
    )


def rungs(r: Ratings, o: Outcomes, *, seed: int = 0) -> list[str]:
    """One sentence per adjacent pair of rungs (:func:`compare`).

    The rating interval is that of the difference (from the same bootstrap replicates), not
    the overlap of the two bots' intervals, which would be too cautious; the head-to-head
    share's (:func:`pair_share`) is bootstrapped over the same race keys. A pair is called
    separated only when both exclude parity.
    """
    table = r.table()
    index = {b: i for i, b in enumerate(r.bots)}
    out = []
    for upper, lower in zip(table["bot"], table["bot"].iloc[1:], strict=False):
        a, b = index[upper], index[lower]
        if np.isneginf(r.rating[a]):
            out.append(
                f"{upper} and {lower} not separated: neither finished ahead of another seat "
                "in a decided race."
            )
            continue
        if np.isneginf(r.rating[b]):
            out.append(
                f"{upper} above {lower} ({lower} never finished ahead of another seat in a "
                "decided race)."
            )
            continue
        share = pair_share(o, a, b, seed=seed, replicates=max(len(r.replicates), 2))
        out.append(compare(upper, lower, r.interval(a, b), share, len(o.key)))
    return out
