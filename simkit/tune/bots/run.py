"""A tuning from start to end: search, confirmation, fitted preset, report.

:func:`start` and :func:`resume` are what ``simkit bots tune`` calls. The confirmation is
kept in ``confirmation.json`` once played, so resuming a finished tuning only rewrites the
preset and the report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from simkit.errors import SimkitError
from simkit.runner.storage import write_atomic
from simkit.tune.bots import presets
from simkit.tune.bots import search as tune
from simkit.tune.bots.confirm import Confirmation, confirm

CONFIRMATION = "confirmation.json"


@dataclass(frozen=True)
class Outcome:
    """What a tuning found and where it wrote it."""

    settings: tune.Settings
    state: tune.State
    weights: tuple[float, ...]
    confirmation: Confirmation
    preset: str  # the bot name that now plays the fitted weights, e.g. "greedy:tuned"
    presets_file: Path
    report: Path


def start(
    s: tune.Settings,
    out: str | Path,
    *,
    force: bool = False,
    threads: int | None = None,
    progress: bool = False,
) -> Outcome:
    """Tune from scratch into ``out`` (``tune.json`` first, so a kill can be resumed)."""
    tune.create(s, Path(out), force)
    return resume(out, threads=threads, progress=progress)


def resume(out: str | Path, *, threads: int | None = None, progress: bool = False) -> Outcome:
    """Continue the tuning in ``out`` from its last generation, then confirm and record."""
    out = Path(out)
    s, state = tune.fit(out, threads=threads, progress=progress)
    w = tune.fitted(s, state)
    t = s.tunable
    path = out / CONFIRMATION
    if path.is_file():
        c = Confirmation(
            **{k: v for k, v in json.loads(path.read_text()).items() if k != "verdict"}
        )
    else:
        c = confirm(s, t.spec(w), t.spec(t.default), threads)
        data = json.dumps(c.to_json(), indent=1) + "\n"
        write_atomic(path, data.encode(), f"resume with --resume {out}")
    target = s.game_obj.bot_presets_file
    if target is None:
        raise SimkitError(f"{s.game} keeps no bot presets file (Game.bot_presets_file)")
    presets.record(target, t.base, s.name, w, provenance(s, state, c))
    from simkit.tune.bots.report import build

    report = build(out / "report", s, state, w, c)
    return Outcome(s, state, w, c, f"{t.base}:{s.name}", Path(target), report)


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
