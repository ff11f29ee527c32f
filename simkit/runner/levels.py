"""Skill levels checked where a study plays them (issues 23 and 34, docs/scenarios.md).

A study's skill levels (``skill = [...]``) are listed weakest first, but a level that is
stronger on one track can be weaker on another (greedy:tuned, fitted on The Nutcracker,
was below greedy on Hairpin Valley at 4 sleds), and a strong bot fitted on some grounds can
be a middle player on others. :func:`check_cell` measures, in the study's own setting (game,
variant, track, players):

- **adjacent levels**: every bot of a level against every bot of the level below;
- **a field's bots** (a level played by several bots, ``{field = [...]}``; GLOSSARY:
  strong field) against each other: players of one level must be of measured equal
  strength, else the weaker one's verdicts are a weaker player's;
- **the reference** (``reference``, by default the game's model-free search,
  ``Game.extras.reference_bot``: search:64 in Snow Tails) against every bot of the top level that
  has not met it already: is the top level as strong as the reference *here*?

Each pair plays the ladder's balanced design (:func:`simkit.lineups.lineups`: ``A,B,A,B``
and ``B,A,B,A`` at 4 seats, so each bot sits in every seat equally often), every lineup of
every pair on the same race keys (common random numbers, so each bot also starts from every
slot equally often at every key), and the ladder's code rates them: one Plackett-Luce fit
over all the pairs' races (:func:`simkit.ratings.fit`), bootstrap intervals over race keys,
and each pair's head-to-head share (:func:`simkit.ratings.pair_share`). A bot is
``stronger`` than another only when the rating difference and the head-to-head share both
exclude parity (:func:`simkit.ratings.verdict`); pairs that did not meet are judged by the
rating difference alone (kind ``rated``). The top level is **as strong as the reference
here** when its head-to-head share's 95% low end is at least :data:`AS_STRONG` (45%);
**weaker** when the share's interval lies below 50% and reaches under 45%; otherwise not
shown either way (more races would tell).

The reference is the costly player, so its pairs are a **group-sequential** test: they
stop at an interim look, after a quarter or a half of ``reference_races`` (:func:`looks`),
once the top-level bot's share at z = 3 (the share plus and minus three bootstrap standard
errors: Haybittle and Peto's boundary) lies wholly at or above 45% or wholly below it
(:func:`settled_early`), and play on otherwise. A
pair played to the end has exactly the races and tables it had without the looks; one
that stopped says so in its sentence, and ``ref_races`` counts the races it played.

The races are played under a cell key of their own (:data:`LEVELS_KEY`), so they never
replay the study's races. A run's check (:mod:`simkit.runner.level_store`) checks every
setting of the run and stores two tables: ``levels.parquet`` (:data:`COLUMNS`, one row per
cell: its rating, its comparison with the level below and, for the top level, its
certificate) and ``level_pairs.parquet`` (:data:`PAIR_COLUMNS`, one row per pair of bots of
a setting); ``simkit.load`` exposes them as ``Results.levels`` and ``Results.level_pairs``.
This module checks one setting and says what it found; storing is level_store's.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simkit import ratings
from simkit.games import get
from simkit.games.base import Cell
from simkit.games.cells import build_cell
from simkit.lineups import lineups
from simkit.outcomes import decided as decided_races
from simkit.rng import chunk_keys

LEVELS_KEY = np.uint64(0x6C65_7665_6C5F_6F6B)  # "level_ok": the check's own races
DEFAULT_RACES = 1_000  # per lineup: 2,000 a pair of bots (2 lineups at 2 and 4 seats)
# The head-to-head share's 95% low end at or above which a bot is as strong as the
# reference where it was measured (issue 34: "not separated below search:64").
AS_STRONG = 0.45
# The reference pair's interim looks (:func:`looks`): after a quarter and a half of its
# races, at z = 3 (Haybittle and Peto's boundary), each only with at least MIN_LOOK races a
# lineup. Two looks at z = 3 add at most 0.27% to either error of the certificate, whose last
# look is the usual 95% interval.
INTERIM = (4, 2)
Z_INTERIM = 3.0
MIN_LOOK = 20

ADJACENT, FIELD, REFERENCE, RATED = "adjacent", "field", "reference", "rated"
# Certificates of a top-level bot against the reference (``certified`` column).
CERT_SAME, CERT_WEAKER, CERT_OPEN, CERT_SELF = "as strong", "weaker", "not shown", "reference"

# One row per cell of the skill axis (a bot of a level in a setting), in cell order.
COLUMNS = {
    "cell": "the cell id of this level in this setting (the cells table's ``cell``)",
    "setting": "0, 1, ...: the grid combination (the cells that differ only in level)",
    "skill": "the bot that plays every seat of the cell, as the scenario lists it",
    "level": "the position of its level in the scenario's list, 0 = first (meant to be the "
    "weakest)",
    "field": "its level's name: the bot itself, or the field's name (``{field = [...]}``)",
    "rung": "its place in the measured order of this setting, 1 = strongest",
    "rating": "Plackett-Luce rating from the check (0 = the mean bot of the setting)",
    "low": "rating's 95% interval, low",
    "high": "rating's 95% interval, high",
    "below": "the bot of the level below it that it compares worst with (empty for the first)",
    "diff": "rating difference: this bot minus that one",
    "diff_low": "its 95% interval, low",
    "diff_high": "its 95% interval, high",
    "share": "share of head-to-head comparisons this bot won against that one",
    "share_low": "its 95% interval, low",
    "share_high": "its 95% interval, high",
    "verdict": "stronger, weaker, level, or split (the rating and head to head disagree)",
    "flag": "True when the bot is not shown stronger than every bot of the level below here",
    "races": "races its pairs with the level below played (every lineup)",
    "sentence": "the finding in words",
    "reference": "the bot the top level is checked against (empty: not checked)",
    "certified": "top level only: as strong (head to head's low end >= 45%), weaker, not "
    "shown, or reference (it is the reference); empty below the top",
    "ref_share": "share of head-to-head comparisons won against the reference",
    "ref_share_low": "its 95% interval, low",
    "ref_share_high": "its 95% interval, high",
    "ref_races": "races the pair with the reference played (every lineup)",
    "ref_planned": "races it would play without an interim look settling it (every lineup): "
    "more than ref_races when the certificate was settled early",
    "ref_sentence": "the certificate in words",
}
# One row per pair of bots of a setting (the reference included).
PAIR_COLUMNS = {
    "setting": "0, 1, ...: the grid combination",
    "kind": "adjacent (levels next to each other), field (two bots of one level), reference "
    "(a top-level bot and the reference), rated (never met: rating difference only)",
    "lower": "one bot: the lower-listed (the reference for kind reference)",
    "upper": "the other bot",
    "lower_cell": "the lower bot's cell in this setting (-1: the reference, which has none)",
    "upper_cell": "the upper bot's cell in this setting",
    "diff": "rating difference upper - lower",
    "diff_low": "its 95% interval, low",
    "diff_high": "its 95% interval, high",
    "share": "share of head-to-head comparisons the upper bot won (NaN: they never met)",
    "share_low": "its 95% interval, low",
    "share_high": "its 95% interval, high",
    "verdict": "above, below, level or split: where the upper bot stands",
    "separated": "True when the verdict is above or below: the two are not of one strength",
    "races": "races the pair played (every lineup; 0 for kind rated)",
    "planned": "races it would play without an interim look (every lineup): more than races "
    "when a reference pair's certificate was settled early",
    "sentence": "the finding in words",
}
STRONGER = {"above": "stronger", "below": "weaker", "level": "level", "split": "split"}
_WORST_FIRST = {"below": 0, "split": 1, "level": 2, "above": 3}


@dataclass(frozen=True)
class LevelCheck:
    """The measured order of a setting's levels: :data:`COLUMNS` and :data:`PAIR_COLUMNS`
    without ``cell``/``setting`` columns of the run."""

    levels: tuple[tuple[str, tuple[str, ...]], ...]
    table: pd.DataFrame
    pairs: pd.DataFrame
    ratings: ratings.Ratings

    @property
    def flagged(self) -> list[str]:
        """Sentences of the bots not shown stronger than the level below them."""
        return list(self.table.loc[self.table["flag"], "sentence"])

    @property
    def uncertified(self) -> list[str]:
        """Sentences of the top-level bots not shown as strong as the reference."""
        t = self.table
        return list(t.loc[t["certified"].isin([CERT_WEAKER, CERT_OPEN]), "ref_sentence"])


def named(levels: Sequence[Any]) -> list[tuple[str, tuple[str, ...]]]:
    """Levels as (name, bots): a bot name is a level of its own; (name, [bots]) a field."""
    out = []
    for level in levels:
        if isinstance(level, str):
            out.append((level, (level,)))
        else:
            name, bots = level
            out.append((str(name), tuple(bots)))
    return out


def plan(
    levels: Sequence[tuple[str, Sequence[str]]], reference: str | None
) -> list[tuple[str, str, str]]:
    """The pairs a setting plays, as (lower, upper, kind), in a fixed order."""
    pairs = []
    for (_, below), (_, above) in itertools.pairwise(levels):
        pairs += [(a, b, ADJACENT) for b in above for a in below]
    for _, bots in levels:
        pairs += [(a, b, FIELD) for a, b in itertools.combinations(bots, 2)]
    if reference is not None and levels:
        met = {frozenset(p[:2]) for p in pairs}
        pairs += [
            (reference, b, REFERENCE)
            for b in levels[-1][1]
            if b != reference and frozenset((reference, b)) not in met
        ]
    return pairs


def setting_text(cell: Cell) -> str:
    """The setting in words: track and players (what a sentence says a level was measured on)."""
    track = f"{cell.track}, " if cell.track else ""
    return f"{track}{cell.players} players"


def _share_text(share) -> str:
    return f"{100 * share[0]:.1f}% [{100 * share[1]:.1f}, {100 * share[2]:.1f}]"


def _sentence(upper: str, lower: str, v: str, diff, share, where: str) -> str:
    est, lo, hi = diff
    d = f"{est:+.3f} [{lo:+.3f}, {hi:+.3f}]"
    if np.isnan(share[0]):
        said = {"above": "stronger than", "below": "weaker than", "level": "level with"}[v]
        return f"{upper} is rated {said} {lower} on {where} (they did not meet): {d}."
    s = _share_text(share)
    if v == "above":
        return f"{upper} is stronger than {lower} on {where}: {d}; head to head {s}."
    if v == "below":
        return f"{upper} is weaker than {lower} on {where}: {d}; head to head {s}."
    if v == "level":
        return (
            f"{upper} is not stronger than {lower} on {where}: they are level, {d}; head "
            f"to head {s}."
        )
    return (
        f"{upper} is not clearly stronger than {lower} on {where}: the rating difference is "
        f"{d} but head to head {s}."
    )


def certificate(share: tuple[float, float, float]) -> str:
    """A bot's standing against the reference from its head-to-head share (module doc)."""
    _, lo, hi = share
    if lo >= AS_STRONG:
        return CERT_SAME
    if hi < 0.5:
        return CERT_WEAKER
    return CERT_OPEN


def certificate_text(bot: str, reference: str, cert: str, share, where: str) -> str:
    """The certificate in words, as a report's first screen states it."""
    if cert == CERT_SELF:
        return f"{bot} is the reference player itself."
    s = _share_text(share)
    if cert == CERT_SAME:
        return f"{bot} is as strong as {reference} on {where}: head to head {s}."
    if cert == CERT_WEAKER:
        return (
            f"{bot} is weaker than {reference} on {where}: head to head {s}; these are a "
            "weaker player's verdicts."
        )
    return (
        f"{bot} is not shown as strong as {reference} on {where}: head to head {s} reaches "
        f"below {100 * AS_STRONG:g}%; more check races (reference_races) would tell."
    )


def _rated_verdict(diff) -> str:
    _, lo, hi = diff
    return ratings.ABOVE if lo > 0 else ratings.BELOW if hi < 0 else ratings.LEVEL


def check_cell(
    cell: Cell,
    levels: Sequence[Any],
    *,
    races: int = DEFAULT_RACES,
    seed: int = 0,
    threads: int | None = None,
    replicates: int | None = None,
    reference: str | None = None,
    reference_races: int | None = None,
    plays: dict[str, str] | None = None,
) -> LevelCheck:
    """Measure the order of ``levels`` (weakest first) in ``cell``'s setting.

    ``cell`` gives the game, variant, track, players and start slots (its bots are
    replaced); ``levels`` are bot names, or (name, bots) for a field. ``races`` counts races
    per lineup of every pair but the reference's, which plays ``reference_races`` (default
    ``races``). Same seed, same tables, at any threads. ``plays`` maps a bot to the bot its
    cells play, where the two differ (a fit of the scenario's ``bots_file`` is played by its
    weights).
    """
    plays = plays or {}
    replicates = ratings.REPLICATES if replicates is None else replicates
    levels = named(levels)
    bots = [b for _, members in levels for b in members]
    if reference is not None and reference not in bots:
        bots.append(reference)
    index = {b: i for i, b in enumerate(bots)}
    g = get(cell.game)
    g.expect([plays.get(b, b) for b in bots])  # one kernel for every lineup (Game.expect)
    pairs = plan(levels, reference)
    most = max([races] + ([reference_races] if reference_races else []))
    keys = chunk_keys(seed, LEVELS_KEY, 0, most)
    bot, place, key, decided, played = [], [], [], [], {}
    for lower, upper, kind in pairs:
        n = (reference_races or races) if kind == REFERENCE else races
        design = lineups([lower, upper], cell.players)
        parts: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in design]
        done = 0
        for look in looks(n) if kind == REFERENCE else (n,):
            for lineup, got in zip(design, parts, strict=True):
                c = dataclasses.replace(cell, bots=tuple(plays.get(b, b) for b in lineup))
                batch = g.simulate(c, keys[done:look], threads, race_indices=np.arange(done, look))
                got.append((batch.seats["finish"], batch.seats["finished"]))
            done = look
            if look < n and settled_early(
                _outcomes(bots, _rows(index, design, parts)), upper, lower, seed
            ):
                break
        for whole, part in zip(
            (bot, place, key, decided), _rows(index, design, parts), strict=True
        ):
            whole.extend(part)
        played[(lower, upper)] = (kind, done * len(design), n * len(design))
    o = _outcomes(bots, (bot, place, key, decided))
    r = ratings.fit(o, seed=seed, replicates=replicates)
    where = setting_text(cell)
    rows = []
    for x, y in itertools.combinations(bots, 2):
        lower, upper = (x, y) if (x, y) in played or (y, x) not in played else (y, x)
        kind, n, planned = played.get((lower, upper), (RATED, 0, 0))
        diff = r.interval(index[upper], index[lower])
        if kind == RATED:
            share = (np.nan, np.nan, np.nan)
            v = _rated_verdict(diff)
        else:
            share = ratings.pair_share(
                o, index[upper], index[lower], seed=seed, replicates=replicates
            )
            v = ratings.verdict(diff, share)
        rows.append(
            {
                "kind": kind,
                "lower": lower,
                "upper": upper,
                "diff": diff[0],
                "diff_low": diff[1],
                "diff_high": diff[2],
                "share": share[0],
                "share_low": share[1],
                "share_high": share[2],
                "verdict": v,
                "separated": v in (ratings.ABOVE, ratings.BELOW),
                "races": n,
                "planned": planned,
                "sentence": _sentence(upper, lower, v, diff, share, where) + _early(n, planned),
            }
        )
    found = pd.DataFrame(rows, columns=[c for c in PAIR_COLUMNS if "cell" not in c][1:])
    return LevelCheck(tuple(levels), _per_bot(levels, found, r, reference, where), found, r)


def looks(n: int) -> tuple[int, ...]:
    """Races a lineup a reference pair has played at each of its looks: a quarter and a half
    of ``n`` (:data:`INTERIM`, each only with at least :data:`MIN_LOOK` races), then ``n``."""
    return (*sorted({n // d for d in INTERIM if MIN_LOOK <= n // d < n}), n)


def settled_early(o: ratings.Outcomes, bot: str, reference: str, seed: int = 0) -> bool:
    """Whether ``bot``'s certificate against ``reference`` is settled at an interim look:
    its share's interval at z = 3 (:data:`Z_INTERIM`, from the standard error of
    ``ratings.REPLICATES`` bootstrap resamples drawn with ``seed``) lies wholly at or above
    :data:`AS_STRONG` (as strong) or wholly below it (weaker). Not merely below 50%, as
    the last look's "weaker" asks: a share between 45% and 50% is as strong once enough
    races narrow its interval (:func:`certificate` ranks that first), so only one wholly
    below 45% is settled as weaker before the end. Either way the certificate of the races
    played, at 95%, is the one the look settled."""
    _, lo, hi = ratings.pair_share(
        o, o.bots.index(bot), o.bots.index(reference), seed=seed, z=Z_INTERIM
    )
    return bool(lo >= AS_STRONG or hi < AS_STRONG)


def _rows(index, design, parts) -> tuple[list, list, list, list]:
    """The races one pair has played (``parts``: per lineup of ``design``, the finish and
    finished arrays of each look, in order), per lineup: bots, places, keys, decided."""
    bot, place, key, decided = [], [], [], []
    for lineup, got in zip(design, parts, strict=True):
        finish = np.concatenate([f for f, _ in got])
        finished = np.concatenate([d for _, d in got])
        bot.append(np.tile([index[b] for b in lineup], (len(finish), 1)))
        place.append(np.where(finished, finish, 0))
        key.append(np.arange(len(finish)))
        decided.append(decided_races(finish, finished)[0])
    return bot, place, key, decided


def _outcomes(bots, rows) -> ratings.Outcomes:
    """:class:`ratings.Outcomes` of ``bots`` from lists of rows (:func:`_rows`)."""
    bot, place, key, decided = rows
    return ratings.Outcomes(
        tuple(bots),
        np.concatenate(bot).astype(np.int64),
        np.concatenate(place).astype(np.int64),
        np.concatenate(key).astype(np.int64),
        np.concatenate(decided),
    )


def _early(n: int, planned: int) -> str:
    """What a sentence adds for a pair an interim look settled."""
    if n >= planned:
        return ""
    return f" An interim look (z = 3) settled it after {n:,} of its {planned:,} races."


def _per_bot(
    levels: list[tuple[str, tuple[str, ...]]],
    pairs: pd.DataFrame,
    r: ratings.Ratings,
    reference: str | None,
    where: str,
) -> pd.DataFrame:
    """:data:`COLUMNS` (without cell and setting) from the pairs of one setting."""
    order = {b: i + 1 for i, b in enumerate(r.table()["bot"])}
    by = {(p.lower, p.upper): p for p in pairs.itertuples()}
    met = {frozenset((p.lower, p.upper)): p for p in pairs.itertuples()}
    rows = []
    for k, (name, members) in enumerate(levels):
        for bot in members:
            est, lo, hi = r.interval(r.bots.index(bot))
            row: dict[str, Any] = {
                "skill": bot,
                "level": k,
                "field": name,
                "rung": order[bot],
                "rating": est,
                "low": lo,
                "high": hi,
                "below": "",
                "diff": np.nan,
                "diff_low": np.nan,
                "diff_high": np.nan,
                "share": np.nan,
                "share_low": np.nan,
                "share_high": np.nan,
                "verdict": "",
                "flag": False,
                "races": 0,
                "sentence": "",
                "reference": reference or "",
                "certified": "",
                "ref_share": np.nan,
                "ref_share_low": np.nan,
                "ref_share_high": np.nan,
                "ref_races": 0,
                "ref_planned": 0,
                "ref_sentence": "",
            }
            if k > 0:
                mine = [by[(a, bot)] for a in levels[k - 1][1]]
                worst = min(mine, key=lambda p: (_WORST_FIRST[p.verdict], p.share_low))
                row.update(
                    below=worst.lower,
                    diff=worst.diff,
                    diff_low=worst.diff_low,
                    diff_high=worst.diff_high,
                    share=worst.share,
                    share_low=worst.share_low,
                    share_high=worst.share_high,
                    verdict=STRONGER[worst.verdict],
                    flag=any(p.verdict != ratings.ABOVE for p in mine),
                    races=sum(p.races for p in mine),
                    sentence=worst.sentence,
                )
            if reference is not None and k == len(levels) - 1:
                row.update(_certify(bot, reference, met, where))
            rows.append(row)
    return pd.DataFrame(rows, columns=[c for c in COLUMNS if c not in ("cell", "setting")])


def _certify(bot: str, reference: str, met: dict, where: str) -> dict[str, Any]:
    """The certificate columns of a top-level bot against the reference."""
    if bot == reference:
        said = certificate_text(bot, bot, CERT_SELF, (), where)
        return {"certified": CERT_SELF, "ref_sentence": said}
    p = met[frozenset((bot, reference))]
    # The share as the top-level bot's, whichever way round the pair was listed.
    share = (p.share, p.share_low, p.share_high)
    if p.upper != bot:
        share = (1 - p.share, 1 - p.share_high, 1 - p.share_low)
    cert = certificate(share)
    return {
        "certified": cert,
        "ref_share": share[0],
        "ref_share_low": share[1],
        "ref_share_high": share[2],
        "ref_races": int(p.races),
        "ref_planned": int(p.planned),
        "ref_sentence": certificate_text(bot, reference, cert, share, where)
        + _early(int(p.races), int(p.planned)),
    }


def check(
    game: str,
    levels: Sequence[Any],
    *,
    preset: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    track: str | None = None,
    players: int | None = None,
    races: int = DEFAULT_RACES,
    seed: int = 0,
    threads: int | None = None,
    replicates: int | None = None,
    reference: str | None = None,
    reference_races: int | None = None,
) -> LevelCheck:
    """:func:`check_cell` for a setting given as ``simkit ladder`` takes it.

    Raises:
        SimkitError: a setting or a level the game rejects.
    """
    for _, bots in named(levels):
        for bot in (*bots, *([reference] if reference else [])):
            build_cell(
                game, preset=preset, overrides=overrides, track=track, players=players, bots=bot
            )
    cell = build_cell(game, preset=preset, overrides=overrides, track=track, players=players)
    return check_cell(
        cell,
        levels,
        races=races,
        seed=seed,
        threads=threads,
        replicates=replicates,
        reference=reference,
        reference_races=reference_races,
    )
