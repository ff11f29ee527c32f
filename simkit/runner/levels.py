"""Skill levels checked where a study plays them (issue 23 item 3, docs/scenarios.md).

A study's skill levels (``skill = [...]``) are listed weakest first, but a level that is
stronger on one track can be weaker on another (greedy:tuned, fitted on The Nutcracker,
was below greedy on Hairpin Valley at 4 sleds). :func:`check` measures the order in the
study's own setting (game, variant, track, players): each pair of adjacent levels plays the
ladder's balanced design (:func:`simkit.lineups.lineups`: ``A,B,A,B`` and ``B,A,B,A`` at 4
seats, so each level sits in every seat equally often), every lineup of every pair on the
same race keys (common random numbers, so each level also starts from every slot equally
often at every key), and the ladder's code rates them: one Plackett-Luce fit over all the
pairs' races (:func:`simkit.ratings.fit`), bootstrap intervals over race keys, and
each pair's head-to-head share (:func:`simkit.ratings.pair_share`). A level is
``stronger`` than the one below it only when the rating difference and the head-to-head
share both exclude parity (:func:`simkit.ratings.verdict`).

The races are played under a cell key of their own (:data:`LEVELS_KEY`), so they never
replay the study's races. :func:`check_run` checks every setting of a run and returns the
table ``simkit run`` stores as ``levels.parquet`` (:data:`COLUMNS`) and ``simkit.load``
exposes as ``Results.levels``.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from simkit import ratings
from simkit.games import get
from simkit.games.base import Cell
from simkit.games.cells import build_cell
from simkit.lineups import lineups
from simkit.outcomes import decided as decided_races
from simkit.rng import chunk_keys
from simkit.runner.manifest import LEVELS as TABLE
from simkit.runner.tables import parquet_bytes

LEVELS_KEY = np.uint64(0x6C65_7665_6C5F_6F6B)  # "level_ok": the check's own races
DEFAULT_RACES = 1_000  # per lineup: 2,000 a pair of levels (2 lineups at 2 and 4 seats)

# One row per cell of the skill axis (a level in a setting), in cell order.
COLUMNS = {
    "cell": "the cell id of this level in this setting (the cells table's ``cell``)",
    "setting": "0, 1, ...: the grid combination (the cells that differ only in level)",
    "skill": "the level (bot name), as the scenario lists it",
    "level": "its position in the scenario's list, 0 = first (meant to be the weakest)",
    "rung": "its place in the measured order of this setting, 1 = strongest",
    "rating": "Plackett-Luce rating from the check (0 = the mean level of the setting)",
    "low": "rating's 95% interval, low",
    "high": "rating's 95% interval, high",
    "below": "the level listed before it (empty for the first)",
    "diff": "rating difference: this level minus the one below",
    "diff_low": "its 95% interval, low",
    "diff_high": "its 95% interval, high",
    "share": "share of head-to-head comparisons this level won against the one below",
    "share_low": "its 95% interval, low",
    "share_high": "its 95% interval, high",
    "verdict": "stronger, weaker, level, or split (the rating and head to head disagree)",
    "flag": "True when the level is not shown stronger than the one below it here",
    "races": "races the pair with the level below played (every lineup)",
    "sentence": "the finding in words",
}
STRONGER = {"above": "stronger", "below": "weaker", "level": "level", "split": "split"}


@dataclass(frozen=True)
class LevelCheck:
    """The measured order of a setting's levels: :data:`COLUMNS` without ``cell``/``setting``."""

    levels: tuple[str, ...]
    table: pd.DataFrame
    ratings: ratings.Ratings

    @property
    def flagged(self) -> list[str]:
        """Sentences of the levels not shown stronger than the one below them."""
        return list(self.table.loc[self.table["flag"], "sentence"])


def _where(cell: Cell) -> str:
    """The setting in words: track and players (what a sentence says a level was measured on)."""
    track = f"{cell.track}, " if cell.track else ""
    return f"{track}{cell.players} players"


def _sentence(upper: str, lower: str, v: str, diff, share, where: str) -> str:
    est, lo, hi = diff
    d = f"{est:+.3f} [{lo:+.3f}, {hi:+.3f}]"
    s = f"{100 * share[0]:.1f}% [{100 * share[1]:.1f}, {100 * share[2]:.1f}]"
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


def check_cell(
    cell: Cell,
    levels: Sequence[str],
    *,
    races: int = DEFAULT_RACES,
    seed: int = 0,
    threads: int | None = None,
    replicates: int | None = None,
    plays: dict[str, str] | None = None,
) -> LevelCheck:
    """Measure the order of ``levels`` (weakest first) in ``cell``'s setting.

    ``cell`` gives the game, variant, track, players and start slots (its bots are
    replaced); ``races`` counts races per lineup, each pair of adjacent levels playing the
    ladder's lineups of the two (2 at 2 and 4 seats). Same seed, same table, at any threads.
    ``plays`` maps a level to the bot its cells play, where the two differ (a fit of the
    scenario's ``bots_file`` is played by its weights).
    """
    plays = plays or {}
    replicates = ratings.REPLICATES if replicates is None else replicates
    levels = tuple(levels)
    index = {b: i for i, b in enumerate(levels)}
    g = get(cell.game)
    keys = chunk_keys(seed, LEVELS_KEY, 0, races)
    bot, place, key, decided, pair_races = [], [], [], [], []
    for lower, upper in itertools.pairwise(levels):
        design = lineups([lower, upper], cell.players)
        for lineup in design:
            c = dataclasses.replace(cell, bots=tuple(plays.get(b, b) for b in lineup))
            batch = g.simulate(c, keys, threads, race_indices=np.arange(races))
            finish, finished = batch.seats["finish"], batch.seats["finished"]
            bot.append(np.tile([index[b] for b in lineup], (races, 1)))
            place.append(np.where(finished, finish, 0))
            key.append(np.arange(races))
            decided.append(decided_races(finish, finished)[0])
        pair_races.append(races * len(design))
    o = ratings.Outcomes(
        levels,
        np.concatenate(bot).astype(np.int64),
        np.concatenate(place).astype(np.int64),
        np.concatenate(key).astype(np.int64),
        np.concatenate(decided),
    )
    r = ratings.fit(o, seed=seed, replicates=replicates)
    where = _where(cell)
    order = {b: i + 1 for i, b in enumerate(r.table()["bot"])}
    rows = []
    for i, level in enumerate(levels):
        est, lo, hi = r.interval(i)
        row: dict[str, Any] = {
            "skill": level,
            "level": i,
            "rung": order[level],
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
        }
        if i > 0:
            lower = levels[i - 1]
            diff = r.interval(i, i - 1)
            share = ratings.pair_share(o, i, i - 1, seed=seed, replicates=replicates)
            v = ratings.verdict(diff, share)
            row.update(
                below=lower,
                diff=diff[0],
                diff_low=diff[1],
                diff_high=diff[2],
                share=share[0],
                share_low=share[1],
                share_high=share[2],
                verdict=STRONGER[v],
                flag=v != ratings.ABOVE,
                races=pair_races[i - 1],
                sentence=_sentence(level, lower, v, diff, share, where),
            )
        rows.append(row)
    return LevelCheck(levels, pd.DataFrame(rows), r)


def check(
    game: str,
    levels: Sequence[str],
    *,
    preset: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    track: str | None = None,
    players: int | None = None,
    races: int = DEFAULT_RACES,
    seed: int = 0,
    threads: int | None = None,
    replicates: int | None = None,
) -> LevelCheck:
    """:func:`check_cell` for a setting given as ``simkit ladder`` takes it.

    Raises:
        SimkitError: a setting or a level the game rejects.
    """
    for level in levels:
        build_cell(
            game, preset=preset, overrides=overrides, track=track, players=players, bots=level
        )
    cell = build_cell(game, preset=preset, overrides=overrides, track=track, players=players)
    return check_cell(cell, levels, races=races, seed=seed, threads=threads, replicates=replicates)


def check_run(
    cells: Sequence[Any],
    levels: Sequence[str],
    *,
    races: int = DEFAULT_RACES,
    seed: int = 0,
    threads: int | None = None,
) -> pd.DataFrame:
    """Every setting of a run with a skill axis: the table of :data:`COLUMNS`, in cell order.

    ``cells`` are the run's planned cells (:func:`simkit.runner.expand`); the skill axis
    varies fastest, so each setting is a block of ``len(levels)`` neighbours, and its first
    cell gives the setting.
    """
    k = len(levels)
    parts = []
    for setting, first in enumerate(range(0, len(cells), k)):
        block = cells[first : first + k]
        plays = {pc.skill: pc.cell.bots[0] for pc in block}
        found = check_cell(
            block[0].cell, levels, races=races, seed=seed, threads=threads, plays=plays
        )
        t = found.table
        t.insert(0, "setting", setting)
        t.insert(0, "cell", [pc.cell.cell_id for pc in block])
        parts.append(t)
    return table(pd.concat(parts, ignore_index=True))


def table(frame: pd.DataFrame) -> pd.DataFrame:
    """The stored table's columns and dtypes (:data:`COLUMNS`)."""
    out = frame[list(COLUMNS)].copy()
    for name in ("cell", "setting", "level", "rung"):
        out[name] = out[name].astype("int32")
    out["races"] = out["races"].astype("int64")
    out["flag"] = out["flag"].astype(bool)
    return out.reset_index(drop=True)


def store(
    run: Any,
    scenario: Any,
    cells: Sequence[Any],
    manifest: dict[str, Any],
    *,
    threads: int | None = None,
    progress: bool = False,
) -> None:
    """Check the levels of a finished run with a skill axis into ``levels.parquet``.

    What ``simkit run`` calls once every chunk is written: nothing without a skill axis, with
    ``check_levels = false``, or when the run already holds the table (a resumed run). The
    file is listed in ``manifest`` with its sha256 like every table of the run.
    """
    if not scenario.skill or not scenario.check_levels or TABLE in manifest["files"]:
        return
    if progress:
        settings = len(cells) // len(scenario.skill)
        pairs = settings * (len(scenario.skill) - 1)
        print(
            f"checking the order of the skill levels in {settings} setting(s): {pairs} "
            f"pair(s) of adjacent levels, {scenario.check_races:,} races per lineup",
            file=sys.stderr,
            flush=True,
        )
    found = check_run(
        cells, scenario.skill, races=scenario.check_races, seed=scenario.seed, threads=threads
    )
    data = parquet_bytes(pa.Table.from_pandas(found, preserve_index=False))
    run.write(TABLE, data, manifest)
