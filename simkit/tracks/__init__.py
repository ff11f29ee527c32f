"""Snow Tails family tracks: TOML specs, the compiler, the shipped library and pictures.

A track is a data file (docs/tracks.md); :func:`load` turns a library name or a path into
a :class:`CompiledTrack`, the flat arrays the engines race on (DESIGN §2).

Example:
    >>> import simkit.games  # the games tell the library which tracks they ship
    >>> from simkit import tracks
    >>> t = tracks.load("nutcracker")
    >>> t.n_corners
    6
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simkit.errors import TrackError
from simkit.tracks import override
from simkit.tracks.compiled import CompiledTrack
from simkit.tracks.library import TrackInfo, compile_spec, library
from simkit.tracks.library import load as _load_file

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["CompiledTrack", "TrackError", "TrackInfo", "compile_spec", "draw", "library", "load"]


def load(name_or_path: str | override.DerivedTrack) -> CompiledTrack:
    """A library track by name (``"nutcracker"``) or a track file by path (``"my.toml"``),
    or either with changed parts (a :class:`.override.DerivedTrack`, or its name
    ``"nutcracker?corner.1.safety=6"``).

    Raises:
        TrackError: unknown name, unreadable file, or an invalid spec.
    """
    track = override.as_track(name_or_path)
    if isinstance(track, override.DerivedTrack):
        return override.load(track)
    return _load_file(str(track))


def draw(track: CompiledTrack, **kwargs) -> Figure:
    """Draw a track with matplotlib; see :func:`simkit.tracks.picture.draw_track` for options.

    matplotlib is imported only here, so engines that load tracks do not pay for it.
    """
    from simkit.tracks.picture import draw_track

    return draw_track(track, **kwargs)
