"""Ladders (GLOSSARY: ladder): bots played against each other on the runner, then rated.

A ladder is an ordinary run: :func:`scenario` turns the bots into a generated scenario whose
``[grid] bots`` lists the lineups of a balanced design (:func:`lineups`), with common random
numbers on, for :func:`simkit.runner.start` to play (chunks, resume, progress, Dask);
:func:`resume` finishes an interrupted ladder. :mod:`simkit.analysis.ladder` fits the
ratings from its tables and :mod:`simkit.report.ladder` draws the report. docs/ladder.md
explains the design.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from simkit.errors import SimkitError
from simkit.games import get
from simkit.games.cells import build_cell
from simkit.lineups import bots_of, lineup_count, lineups
from simkit.runner import RunSummary, Scenario
from simkit.runner import resume as _resume
from simkit.runner.scenario import MAX_CELLS, MAX_PLAYERS
from simkit.runner.scenario_file import parse

DEFAULT_RACES = 2_000  # per lineup: 4 Snow Tails bots rated to about ±0.03 (docs/ladder.md)
CHUNK = 1_000  # races per chunk: a slow bot's ladder resumes without losing much
WHERE = "simkit ladder"  # how a generated scenario names itself in errors and manifests


def scenario(
    game: str,
    bots: Sequence[str],
    *,
    players: int | None = None,
    races: int = DEFAULT_RACES,
    seed: int = 0,
    preset: str | None = None,
    track: str | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Scenario:
    """The generated scenario of a ladder, checked by the game like any cell.

    ``overrides`` are variant parameters on top of the preset, as a scenario's ``[set]``.

    Raises:
        SimkitError: fewer than two bots, a bot named twice, or a cell the game rejects
            (unknown bot, players out of range, track of a game without a board).
    """
    g = get(game)
    if len(set(bots)) != len(bots):
        twice = next(b for b in bots if list(bots).count(b) > 1)
        raise SimkitError(f"ladder: bot '{twice}' is named twice in --bots", key="bots")
    if len(bots) < 2:
        raise SimkitError(
            f"ladder: --bots needs at least two bots to rate against each other "
            f"(got {','.join(bots) or 'none'}; known: {', '.join(g.bots)})",
            key="bots",
        )
    n = g.default_players if players is None else players
    if not isinstance(n, int) or not 1 <= n <= MAX_PLAYERS:
        raise SimkitError(f"ladder: --players must be 1 to {MAX_PLAYERS} (got {n})", key="players")
    count = lineup_count(len(bots), n)
    if count > MAX_CELLS:  # counted, not built: 200 bots at 4 seats would be 258 million
        raise SimkitError(
            f"ladder: {len(bots)} bots at {n} players make {count:,} lineups, more than "
            f"{MAX_CELLS:,}; rate fewer bots at once (e.g. the strongest few, then the rest "
            "against the best of them)",
            key="bots",
        )
    design = lineups(bots, n)
    for b in bots:
        build_cell(game, preset=preset, overrides=overrides, track=track, players=n, bots=b)
    data: dict[str, Any] = {
        "title": f"Ladder: {', '.join(bots)} ({n} players)",
        "game": game,
        "players": n,
        "grid": {"bots": [list(lineup) for lineup in design]},
        "races": races,
        "seed": seed,
        "crn": True,
        "keep": "races",
        "heat": False,
        "chunk_size": min(CHUNK, races),
        "set": dict(overrides or {}),
    }
    if preset is not None:
        data["preset"] = preset
    if track is not None:
        data["track"] = track
    return parse(data, WHERE)


def design_of(manifest: dict[str, Any]) -> list[tuple[str, ...]]:
    """The lineups of the ladder run with this manifest; ``SimkitError`` if it is no ladder."""
    sc = manifest.get("scenario", {})
    grid = sc.get("grid", {})
    design = [tuple(b) for b in grid.get("bots", []) if isinstance(b, list)]
    players = sc.get("players")
    if (
        not design
        or set(grid) != {"bots"}
        or not sc.get("crn")
        or design != lineups(bots_of(design), players)
    ):
        raise SimkitError("not a ladder run (make one with `simkit ladder GAME --bots A,B`)")
    return design


def recorded_bootstrap(manifest: dict[str, Any]) -> int | None:
    """The ``--bootstrap`` the ladder was started with (None: a ladder of an older simkit,
    which recorded none)."""
    value = (manifest.get("options") or {}).get("bootstrap")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def reference_of(sc: Scenario, reference: str | None) -> str | None:
    """The ladder's reference: ``--reference BOT``, the game's (``Game.extras.reference_bot``) when
    not given, None for ``none``; checked in the ladder's setting like its bots."""
    g = get(sc.game)
    if reference is None:
        reference = g.extras.reference_bot
    if reference is None or reference == "none":
        return None
    build_cell(
        sc.game,
        preset=sc.axes.get("preset"),
        overrides=sc.overrides or None,
        track=sc.axes.get("track"),
        players=sc.axes.get("players"),
        bots=reference,
    )
    return reference


def uncertified_text(game: str) -> str:
    """What the ladder says of its top rung without a reference."""
    if get(game).extras.reference_bot is None:
        return (
            f"top rung not certified: {game} names no reference player (--reference BOT "
            "certifies against one)."
        )
    return "top rung not certified (--reference none)."


def recorded_reference(
    manifest: dict[str, Any], reference: str | None, races: int | None
) -> tuple[str | None, int]:
    """The reference and its races a resumed ladder certifies with: those given, else those
    it was started with (a ladder of an older simkit recorded none: the game's, at the
    ladder's races per lineup)."""
    options = manifest.get("options") or {}
    sc = manifest["scenario"]
    if reference is None:
        reference = options.get("reference", get(sc["game"]).extras.reference_bot)
    if reference == "none":
        reference = None
    return reference, races or int(options.get("reference_races") or sc["races"])


def resume(
    out: str | Path, *, threads: int | None = None, dask: str | None = None, progress: bool = False
) -> RunSummary:
    """Finish an interrupted ladder run; a finished one is left as it is."""
    from simkit.runner.storage import RunDir

    design_of(RunDir(out).read_manifest())
    return _resume(out, threads=threads, dask=dask, progress=progress)


@dataclass(frozen=True)
class Certificate:
    """The ladder's top rung against the model-free reference where the ladder played
    (issue 34; :mod:`simkit.runner.levels`: as strong when the head-to-head share's 95% low
    end is at least 45%)."""

    bot: str
    reference: str
    certified: str  # as strong, weaker, not shown, reference
    share: float
    low: float
    high: float
    races: int  # races the pair played (0: measured within the ladder, or the bot itself)
    sentence: str


def certify(
    lad: Any,
    reference: str | None,
    *,
    races: int,
    threads: int | None = None,
    progress: bool = False,
) -> Certificate | None:
    """Certify the top rung of the analysed ladder ``lad`` against ``reference`` (None: no
    certificate): from the ladder's own races when the reference is on it, else from a pair
    of the two played in the ladder's setting (the level check's design and keys, ``races``
    per lineup, stopped early where an interim look settles it), stored in the run folder
    (``levels.parquet``, ``level_pairs.parquet``) and read back on a later call asking for as
    many races instead of played again."""
    from simkit.ratings import pair_share
    from simkit.runner.level_store import pair_table, table
    from simkit.runner.levels import (
        CERT_SELF,
        certificate,
        certificate_text,
        check_cell,
        setting_text,
    )
    from simkit.runner.manifest import LEVEL_PAIRS
    from simkit.runner.manifest import LEVELS as TABLE
    from simkit.runner.storage import RunDir
    from simkit.runner.tables import parquet_bytes

    if reference is None:
        return None
    top = str(lad.table["bot"].iloc[0])
    sc = lad.results.manifest["scenario"]
    cell = build_cell(
        sc["game"],
        preset=sc.get("preset"),
        overrides=sc.get("set") or None,
        track=sc.get("track"),
        players=sc["players"],
        bots=reference,
    )
    where = setting_text(cell)
    if top == reference:
        said = certificate_text(top, reference, CERT_SELF, (), where)
        return Certificate(top, reference, CERT_SELF, np.nan, np.nan, np.nan, 0, said)
    o = lad.outcomes
    if reference in o.bots:
        seed = int(lad.results.manifest["seed"])
        share = pair_share(
            o,
            o.bots.index(top),
            o.bots.index(reference),
            seed=seed,
            replicates=max(len(lad.ratings.replicates), 2),
        )
        cert = certificate(share)
        said = certificate_text(top, reference, cert, share, where)
        return Certificate(top, reference, cert, *share, 0, said)
    played = races * len(lineups([reference, top], cell.players))
    levels = getattr(lad.results, "levels", None)
    stored = levels is not None and len(levels) == 1
    # A certificate stored before interim looks has no ref_planned: played again.
    if (
        not stored
        or "ref_planned" not in levels
        or (
            str(levels["skill"].iloc[0]),
            str(levels["reference"].iloc[0]),
            int(levels["ref_planned"].iloc[0]),
        )
        != (top, reference, played)
    ):
        if progress:
            print(
                f"certifying the top rung, {top}, against {reference}: {races:,} races per lineup"
                " at most (it stops once an interim look settles it)",
                file=sys.stderr,
                flush=True,
            )
        found = check_cell(
            cell,
            [top],
            races=races,
            seed=int(lad.results.manifest["seed"]),
            threads=threads,
            reference=reference,
            replicates=len(lad.ratings.replicates),
        )
        levels = table(found.table.assign(cell=0, setting=0))
        pairs = pair_table(found.pairs.assign(setting=0, lower_cell=-1, upper_cell=0))
        run = RunDir(lad.results.dir)
        with run.lock():
            manifest = run.read_manifest()
            for name, frame in ((TABLE, levels), (LEVEL_PAIRS, pairs)):
                data = parquet_bytes(pa.Table.from_pandas(frame, preserve_index=False))
                run.write(name, data, manifest)
            run.write_manifest(manifest)
    r = levels.iloc[0]
    return Certificate(
        top,
        reference,
        str(r["certified"]),
        float(r["ref_share"]),
        float(r["ref_share_low"]),
        float(r["ref_share_high"]),
        int(r["ref_races"]),
        str(r["ref_sentence"]),
    )
