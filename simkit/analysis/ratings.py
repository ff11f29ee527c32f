"""Bot ratings from finish orders: Plackett-Luce fitted by choix, bootstrap intervals.

The model (Plackett-Luce; with two players it is Bradley-Terry): bot b has a strength
``exp(rating_b)``, and the next finisher of a race is chosen from the seats not yet placed
with probability proportional to strength. So ``P(A ahead of B) = 1 / (1 + exp(rating_B -
rating_A))`` and ratings are on a log scale, centred on the mean bot (0).

What enters the fit (docs/ladder.md): only *decided races* (GLOSSARY), those with a single
winner who finished. Their finishers, in finish order, each make one top-1 choice over the
seats not yet placed; seats that did not finish (eliminated, or stopped by a guard) are an
unordered tail, placed behind every finisher but not among themselves. This is exactly the
Plackett-Luce likelihood of a partial ranking, fitted by ``choix.ilsr_top1``. Undecided
races (every sled out, a draw) say nothing about who plays better and are left out.

Intervals: a bootstrap over race keys. Under common random numbers race ``i`` of every lineup
shares its deals and dice, so the races with one key are resampled together and the pairing
stays intact. Each replicate is refitted with choix; the 95% interval is the percentile
interval of the replicates. Beyond ``budget`` choices a replicate draws m < n keys and its
deviations from the full fit are scaled by sqrt(m / n) (the m-out-of-n bootstrap, Bickel,
Götze & van Zwet 1997), so fitting time stays bounded however many races a ladder has.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit.analysis.stats import wilson_interval
from simkit.runner.tables import decided as decided_races

ALPHA = 1e-3  # choix's regularisation: a bot that wins nothing in a replicate stays finite
REPLICATES = 200
BUDGET = 4_000  # top-1 choices per bootstrap replicate (about 0.03 s of choix each)


@dataclass(frozen=True)
class Outcomes:
    """Every race of a ladder as arrays (one row per race of a lineup).

    Attributes:
        bots: the rated bots; indices into this tuple are used below.
        bot: (races, seats) bot index of every seat.
        place: (races, seats) finish position of seats that finished, 0 for the rest.
        key: (races,) race index: the common-random-numbers key the lineups share.
        decided: (races,) a single winner who finished.
    """

    bots: tuple[str, ...]
    bot: np.ndarray
    place: np.ndarray
    key: np.ndarray
    decided: np.ndarray

    @property
    def players(self) -> int:
        return self.bot.shape[1]


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


def _choices(o: Outcomes) -> tuple[list[tuple[int, list[int]]], np.ndarray]:
    """Top-1 choices of the decided races (choix's format) and each one's race key.

    Finishers are taken in finish order while their positions are distinct; a tie ends the
    ordered part (the tied seats join the unordered tail).
    """
    data: list[tuple[int, list[int]]] = []
    keys: list[int] = []
    for r in np.flatnonzero(o.decided):
        place, bot = o.place[r], o.bot[r]
        order = sorted((p, s) for s, p in enumerate(place) if p > 0)
        left = list(range(len(place)))
        for i, (p, s) in enumerate(order):
            if i + 1 < len(order) and order[i + 1][0] == p:
                break
            left.remove(s)
            if not left:
                break
            data.append((int(bot[s]), [int(bot[t]) for t in left]))
            keys.append(int(o.key[r]))
    return data, np.asarray(keys, np.int64)


def _fit(n: int, data: list, start: np.ndarray | None = None) -> np.ndarray:
    import choix

    return choix.ilsr_top1(n, data, alpha=ALPHA, initial_params=start, tol=1e-5)


@dataclass(frozen=True)
class Ratings:
    """A fitted ladder: ratings, their bootstrap replicates and how they were drawn.

    A bot that never finished ahead of another seat in a decided race has no finite
    maximum-likelihood rating: it is -inf, below every other bot, with no interval.
    """

    bots: tuple[str, ...]
    rating: np.ndarray  # (bots,) full-data fit; 0 = the mean of the rated bots
    replicates: np.ndarray  # (replicates, bots) deviations from ``rating``, already scaled
    keys_drawn: int  # m: race keys drawn per replicate
    keys: int  # n: race keys with a decided race
    choices: int

    def interval(self, a: int, b: int | None = None) -> tuple[float, float, float]:
        """Rating of bot ``a`` (or the difference ``a - b``): estimate and 95% interval."""
        est = self.rating[a] - (0.0 if b is None else self.rating[b])
        if not np.isfinite(est) or np.isnan(est):
            return float(est), float(est), float(est)
        dev = self.replicates[:, a] - (0.0 if b is None else self.replicates[:, b])
        lo, hi = np.quantile(dev, [0.025, 0.975])
        return float(est), float(est + lo), float(est + hi)

    def table(self) -> pd.DataFrame:
        """One row per bot, best first: rating with its 95% interval."""
        rows = []
        for b, name in enumerate(self.bots):
            est, lo, hi = self.interval(b)
            rows.append({"bot": name, "rating": est, "low": lo, "high": hi})
        out = pd.DataFrame(rows).sort_values("rating", ascending=False, kind="stable")
        out.insert(0, "rung", np.arange(1, len(out) + 1))
        return out.reset_index(drop=True)


def fit(
    o: Outcomes, *, seed: int = 0, replicates: int = REPLICATES, budget: int = BUDGET
) -> Ratings:
    """Plackett-Luce ratings of the ladder's bots with bootstrap intervals (module docstring).

    Bots that never won a choice are left out of choix's fit (their strength is 0, so they
    drop out of every choice set exactly) and rated -inf; the others are centred on their
    mean. The bootstrap draws from ``numpy.random.default_rng(seed)``: the same seed gives the same
    intervals.
    """
    data, keys = _choices(o)
    k = len(o.bots)
    rated = np.bincount([w for w, _ in data], minlength=k) > 0
    index = np.cumsum(rated) - 1
    data = [(int(index[w]), [int(index[x]) for x in losers if rated[x]]) for w, losers in data]
    keep = [i for i, (_, losers) in enumerate(data) if losers]
    data, keys = [data[i] for i in keep], keys[keep]
    r = int(rated.sum())

    full = _fit(r, data) if r > 1 else np.zeros(r)
    rating = np.full(k, -np.inf)
    rating[rated] = full  # choix centres on the mean
    uniq, cluster = np.unique(keys, return_inverse=True)
    n = len(uniq)
    m = n if len(data) <= budget else max(1, n * budget // len(data))
    scale = np.sqrt(m / n)
    rng = np.random.default_rng(seed)
    reps = np.zeros((replicates, k))
    for b in range(replicates if r > 1 else 0):
        counts = np.bincount(rng.integers(0, n, m), minlength=n)[cluster]
        sample = [data[i] for i in np.repeat(np.arange(len(data)), counts)]
        reps[b, rated] = (_fit(r, sample, full) - full) * scale
    return Ratings(o.bots, rating, reps, m, n, len(data))


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


def rungs(r: Ratings, races: int) -> list[str]:
    """One sentence per adjacent pair of rungs: separated when the interval excludes a tie.

    The interval is that of the rating difference (from the same bootstrap replicates), not
    the overlap of the two bots' intervals, which would be too cautious.
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
        est, lo, hi = r.interval(a, b)
        diff = f"rating difference {est:+.3f} [{lo:+.3f}, {hi:+.3f}]"
        if lo > 0:
            out.append(f"{upper} above {lower} ({diff}).")
        else:
            out.append(f"{upper} and {lower} not separated at {races:,} races ({diff}).")
    return out
