"""The track library the games ship, and loading tracks by name or path.

A game raced on tracks ships its library files in its own package (``Game.extras.track_dir``,
``<name>.toml``); the game's name is their family. The game registry tells this module
which games ship tracks and where (:func:`shelve`). The box tiles (segment presets usable
as ``type = "tile"``) live in ``simkit/tracks/data/tiles.toml``.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simkit.errors import TrackError
from simkit.files import parse_toml, read_bytes, read_toml, replayed
from simkit.tracks.compile import compile_board
from simkit.tracks.compiled import CompiledTrack
from simkit.tracks.reverse import reverse
from simkit.tracks.spec import TYPE_KEYS, Spec, parse

DATA = Path(__file__).parent / "data"
TILES_FILE = DATA / "tiles.toml"

# (family, folder) of every game that ships tracks; the game registry says (shelve).
_NO_SHELVES: Callable[[], Iterable[tuple[str, Path]]] = tuple
_shelves = _NO_SHELVES


@dataclass(frozen=True)
class TrackInfo:
    """A library track: its name (what ``load`` takes), family, title and file."""

    name: str
    family: str
    title: str
    path: str


def _read_toml(path: Path, label: str) -> dict[str, Any]:
    return read_toml(path, lambda msg: TrackError(msg, path=label))


@functools.cache
def tiles() -> dict[str, dict[str, Any]]:
    """Segment presets by name: the Snow Tails box tiles (docs/tracks.md, assumptions)."""
    raw = _read_toml(TILES_FILE, str(TILES_FILE))
    out = {}
    for name, table in raw.get("tile", {}).items():
        entry = {k: v for k, v in table.items() if k not in ("piece", "doc")}
        if entry.get("type") not in TYPE_KEYS:
            raise TrackError(f"tile '{name}' has no valid type", path=str(TILES_FILE))
        out[name] = entry
    return out


@functools.cache
def tile_pieces() -> dict[str, tuple[str, int]]:
    """Tile name -> (box piece it is a side of, how many of that piece the box holds)."""
    raw = _read_toml(TILES_FILE, str(TILES_FILE))
    counts = raw.get("box", {})
    return {
        name: (t["piece"], int(counts[t["piece"]]))
        for name, t in raw.get("tile", {}).items()
        if "piece" in t
    }


def compile_spec(spec: dict, path: str | None = None) -> CompiledTrack:
    """Compile a parsed TOML track spec; ``path`` only names the file in errors.

    Raises:
        TrackError: one line naming the file, the segment and the fix.
    """
    return compile_board(_checked(spec, path))


def _checked(spec: dict, path: str | None) -> Spec:
    """The checked spec, its segments taken from the original when it is a reversed track."""
    parsed = parse(spec, path, tiles(), families())
    return _checked_reverse(parsed, path) if parsed.reverse_of else parsed


def _checked_reverse(parsed: Spec, path: str | None) -> Spec:
    """A reversed track's spec: the original's segments, reversed (ST2 G)."""
    base_path = _find(parsed.reverse_of, relative_to=path)
    base = parse(_read_toml(Path(base_path), base_path), base_path, tiles(), families())
    if base.reverse_of:
        raise TrackError(
            f"'reverse_of' names '{parsed.reverse_of}', itself a reversed track; name the "
            "original instead",
            path=path,
        )
    return reverse(base, parsed)


def load_spec(name_or_path: str) -> Spec:
    """The checked spec of a library track or a track file (what overrides change).

    Read each time (a run records and replays it), checked once per content: a scenario's
    derived tracks all start from the same few bases.
    """
    path = _find(name_or_path)
    data = read_bytes(Path(path), lambda msg: TrackError(msg, path=name_or_path))
    spec = _parsed(data, path, name_or_path)
    return _checked_reverse(spec, path) if spec.reverse_of else spec


@functools.lru_cache(maxsize=64)
def _parsed(data: bytes, path: str, label: str) -> Spec:
    raw = parse_toml(data, lambda msg: TrackError(msg, path=label))
    return parse(raw, path, tiles(), families())


def _find(name_or_path: str, relative_to: str | None = None) -> str:
    """The file of a library track name, or a path (relative to ``relative_to``'s folder)."""
    known = {info.name: info.path for info in library()}
    if name_or_path in known:
        return known[name_or_path]
    path = Path(name_or_path)
    if relative_to is not None and not path.is_absolute():
        path = Path(relative_to).parent / path
    # A run's recorded copy stands for the file (simkit.runner.inputs); anything else on
    # disk that is not a plain file (a folder, a FIFO) is named as such by the reader.
    if path.is_file() or replayed(path) or (path.suffix == ".toml" and path.exists()):
        return str(path)
    close = difflib.get_close_matches(name_or_path, list(known), n=1, cutoff=0.5)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    if _shelves is _NO_SHELVES:
        hint = " (no game has shelved its tracks yet: import simkit.games first)"
    raise TrackError(
        f"unknown track '{name_or_path}'{hint}; `simkit tracks list` shows the library, "
        "or give a path to a .toml file",
        path=relative_to,
    )


def library() -> list[TrackInfo]:
    """Every track the registered games ship, by family (the game's name), then by name."""
    return list(_library())


def shelve(shelves: Callable[[], Iterable[tuple[str, Path]]]) -> None:
    """Tell the library where the games keep their tracks: ``shelves()`` gives (family,
    folder) for every game that ships tracks, in the order to list them.

    The game registry (:mod:`simkit.games`) calls this when it is imported, so the tracks
    layer names no game and imports nothing of the games; until then the library is empty.
    """
    global _shelves
    _shelves = shelves


def families() -> tuple[str, ...]:
    """The games that ship tracks: the values a track's ``family`` may take."""
    return tuple(family for family, _ in _shelves())


def _library() -> tuple[TrackInfo, ...]:
    return _books(tuple((family, Path(folder)) for family, folder in _shelves()))


@functools.cache
def _books(shelves: tuple[tuple[str, Path], ...]) -> tuple[TrackInfo, ...]:
    out = []
    for family, folder in shelves:
        for path in sorted(folder.glob("*.toml"), key=lambda p: p.stem):
            raw = _read_toml(path, str(path))
            out.append(TrackInfo(path.stem, family, str(raw.get("title", path.stem)), str(path)))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _load_library(path: str) -> CompiledTrack:
    return compile_spec(_read_toml(Path(path), path), path)


def load(name_or_path: str) -> CompiledTrack:
    """A library track by name (``"nutcracker"``) or a track file by path (``"my.toml"``).

    A name with changed parts (``"nutcracker?corner.1.safety=6"``) is
    :func:`simkit.tracks.load`'s, which hands it to :mod:`.override`.

    Raises:
        TrackError: unknown name, unreadable file, or an invalid spec.
    """
    known = {info.name: info for info in library()}
    if name_or_path in known:
        return _load_library(known[name_or_path].path)
    path = Path(name_or_path)
    if path.suffix == ".toml" and not (path.exists() or replayed(path)):
        raise TrackError("no such file", path=name_or_path)
    path = Path(_find(name_or_path))
    return compile_spec(_read_toml(path, name_or_path), name_or_path)
