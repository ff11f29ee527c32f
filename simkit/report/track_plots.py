"""The report's track picture: a count on every space of the track, as a PNG.

:func:`track_heat` draws a track with a value per space (crashes per 1000 races in the
balance report, :func:`simkit.report.track.track_picture`) and labelled marks, its colour
scale ending at the worst space before the finish line (:func:`heat_scale`); it says why
when the track cannot be drawn. The track itself is drawn by :mod:`simkit.tracks`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simkit.errors import SimkitError
from simkit.report.plots import DPI


def track_heat(
    path: Path,
    track: str,
    values: np.ndarray,
    title: str,
    what: str,
    marks: list[tuple[int, str]] | None = None,
) -> str | None:
    """The track picture with per-space counts and labelled ``marks`` (space, label), e.g.
    the hot spaces of the report's table; returns why not when it cannot be drawn.

    The colour scale runs from 0 to the largest count before the finish line
    (:func:`heat_scale`): the run-off past the line, where finished sleds pile up, would
    otherwise set the scale and leave the real hazards dark. Run-off spaces above it show
    the top colour.
    """
    try:
        fig = heat_figure(track, values, title, what, marks)
    except _NoPicture as exc:
        return str(exc)
    import matplotlib.pyplot as plt

    try:
        fig.savefig(path, dpi=DPI, bbox_inches="tight")
    finally:
        plt.close(fig)
    return None


class _NoPicture(Exception):
    """Why a track picture cannot be drawn (the report says so instead)."""


def heat_scale(values: np.ndarray, past: np.ndarray) -> float:
    """The top of a heat picture's colour scale: the largest count on a space before the
    finish line (``past`` marks the spaces beyond it), or of every space if none is."""
    values = np.asarray(values, dtype=np.float64)
    before = values[~np.asarray(past, dtype=bool)]
    top = float(np.nanmax(before)) if before.size else 0.0
    if top <= 0:
        top = float(np.nanmax(values)) if values.size else 0.0
    return top if top > 0 else 1.0


def heat_figure(
    track: str,
    values: np.ndarray,
    title: str,
    what: str,
    marks: list[tuple[int, str]] | None = None,
):
    """The figure of :func:`track_heat` (the caller saves and closes it)."""
    try:
        from simkit import tracks
        from simkit.tracks.compiled import F_PAST_FINISH
    except ImportError:
        raise _NoPicture("the track module is not available in this installation") from None
    try:
        compiled = tracks.load(track)
    except SimkitError as exc:  # a run may name a track file that has moved since
        raise _NoPicture(f"track '{track}' could not be loaded ({exc})") from None
    if not hasattr(tracks, "draw"):
        raise _NoPicture("this installation cannot draw tracks")
    import matplotlib

    matplotlib.use("Agg", force=False)

    full = np.zeros(compiled.n_spaces)
    full[: min(len(values), len(full))] = values[: len(full)]
    top = heat_scale(full, (compiled.flags & F_PAST_FINISH) != 0)
    with matplotlib.rc_context({"text.parse_math": False}):
        try:
            fig = tracks.draw(
                compiled, values=full, title=title, value_label=what, marks=marks or ()
            )
        except (ImportError, TypeError, ValueError) as exc:
            raise _NoPicture(f"the track picture could not be drawn ({exc})") from None
    for ax in fig.axes:
        for coll in ax.collections:
            if coll.get_array() is not None:
                coll.set_clim(0.0, top)
    return fig
