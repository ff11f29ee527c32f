"""A tuning from start to end: search, confirmation, fitted preset, report.

:func:`start` and :func:`resume` are what ``simkit bots tune`` calls, each holding the
folder's lock throughout (:mod:`simkit.tune.bots.folder`). The confirmation is kept in
``confirmation.json`` once played, so resuming a finished tuning only rewrites the fitted
preset and the report. The fit goes to the tuning's own ``bots.toml`` (:data:`FIT`); playing
it is a step of its own (a scenario's ``bots_file``, or ``--bots-file``), never an edit of
the installed package.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from simkit.errors import RunError
from simkit.files import read_json
from simkit.runner.storage import write_atomic
from simkit.tune import common
from simkit.tune.bots import folder, presets
from simkit.tune.bots import search as tune
from simkit.tune.bots.confirm import Confirmation, confirm
from simkit.tune.bots.folder import CONFIRMATION, FIT


@dataclass(frozen=True)
class Outcome:
    """What a tuning found and where it wrote it."""

    settings: tune.Settings
    state: tune.State
    weights: tuple[float, ...]
    confirmation: Confirmation
    preset: str  # the bot name the fit file plays the fitted weights as, e.g. "greedy:fitted"
    presets_file: Path  # the tuning's own bots.toml
    report: Path


def start(
    s: tune.Settings,
    out: str | Path,
    *,
    force: bool = False,
    threads: int | None = None,
    progress: bool = False,
) -> Outcome:
    """Tune from scratch into ``out`` (``tune.json`` first, so a kill can be resumed).

    ``out`` must be new, empty or a tuning's (``force``: any folder, and a tuning there is
    started again); ``RunError`` otherwise, or if another process writes it.
    """
    out = folder.claim(out, force)
    with folder.lock(out):
        common.refuse_existing(out, force, f"--resume {out}, or --force")  # now it is ours
        tune.create(s, out)
        return _finish(out, threads, progress)


def resume(out: str | Path, *, threads: int | None = None, progress: bool = False) -> Outcome:
    """Continue the tuning in ``out`` from its last generation, then confirm and record."""
    out = Path(out)
    common.require(out)
    with folder.lock(out):
        return _finish(out, threads, progress)


def _finish(out: Path, threads: int | None, progress: bool) -> Outcome:
    s, state = tune.fit(out, threads=threads, progress=progress)
    w = tune.fitted(s, state)
    t = s.tunable
    c = _confirmation(out, s, t.spec(w), t.spec(t.default), threads)
    fit = out / FIT
    presets.record(fit, t.base, s.name, w, provenance(s, state, c))
    from simkit.tune.bots.report import build

    report = build(out / "report", s, state, w, c, fit)
    return Outcome(s, state, w, c, f"{t.base}:{s.name}", fit, report)


def _confirmation(
    out: Path, s: tune.Settings, fitted: str, default: str, threads: int | None
) -> Confirmation:
    """The confirmation played once and kept in ``confirmation.json`` (checked on reading)."""
    path = out / CONFIRMATION
    if path.exists():
        data = read_json(path, lambda msg: RunError(f"'{path}': {msg}"))
        try:
            c = Confirmation(**{k: v for k, v in data.items() if k != "verdict"})
        except (TypeError, AttributeError):
            c = None
        if c is None or (c.bot, c.against) != (fitted, default):
            raise RunError(
                f"'{path}' is not this tuning's confirmation; remove it and resume "
                f"(`simkit bots tune --resume {out}`): the confirmation is played again"
            )
        return c
    c = confirm(s, fitted, default, threads)
    data = json.dumps(c.to_json(), indent=1) + "\n"
    write_atomic(path, data.encode(), f"resume with `simkit bots tune --resume {out}`")
    return c


def provenance(s: tune.Settings, state: tune.State, c: Confirmation) -> dict:
    """What the presets file records beside the weights (docs/bots.md)."""
    g = s.game_obj
    evaluations = len(state.evaluations)
    races = s.races_per_evaluation
    facts = {
        "game": s.game,
        "command": s.command(),
        "seed": s.seed,
        "field": list(s.field),
        "players": s.players if len(s.player_counts) == 1 else list(s.player_counts),
        "preset": s.preset or g.default_preset,
    }
    if g.uses_track:
        tracks = [t or g.default_track for t in s.tracks]
        facts["track"] = tracks[0] if len(tracks) == 1 else tracks
    if s.overrides:
        facts["set"] = dict(s.overrides)
    facts.update(
        {
            "budget": f"{evaluations:,} evaluations x {races:,} races",
            "generations": state.generation,
            "date": datetime.now(UTC).date().isoformat(),
            "confirmation": {
                "against": c.against,
                "races": c.races,
                "share": round(c.share, 4),
                "low": round(c.low, 4),
                "high": round(c.high, 4),
                "verdict": c.verdict,
            },
        }
    )
    if state.stop:
        facts["stopped"] = f"CMA-ES stopped early: {state.stop}"
    return facts
