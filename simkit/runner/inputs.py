"""The files a run depends on, recorded by content in its folder (docs/reliability.md).

A scenario names its inputs by path (a track file, the original of a reversed track, a
route); a path says nothing of what the file held when the run started. So at start the
runner copies each input into ``inputs/`` of the run folder and lists it in the manifest
(``inputs``: path as the run read it -> sha256, bytes, copy, use). From then on the run's
account of an input is the copy:

- ``--resume``, ``race --replay`` and ``report`` read the copies instead of the paths
  (:func:`simkit.files.replaying`), so a track edited, moved or shadowed by another folder's
  file of the same name after the start changes nothing; each such file is named in one
  line (:func:`replayed`'s notices).
- Files read by a game without :mod:`simkit.files` (a game's presets file, read when bots
  are built) cannot be replayed: they are recorded with ``use = "check"``, and a resume
  after one changed is refused (its bots would no longer play the run's games).

Shipped files (inside the simkit package: library tracks, tiles, routes) are part of the
code, recorded by ``simkit_version``, and not copied; a game's presets file is data, though
it ships (``simkit bots tune`` rewrites it), and is.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from simkit import files
from simkit.errors import RunError, SimkitError
from simkit.games import get
from simkit.runner.manifest import entry as entry  # what the manifest records of an input
from simkit.runner.storage import RunDir

_PACKAGE = Path(__file__).resolve().parents[1]  # the simkit package


def shipped(path: str) -> bool:
    """True for a file inside the simkit package (part of the code, not copied)."""
    try:
        return Path(path).resolve().is_relative_to(_PACKAGE)
    except (OSError, RuntimeError):
        return False


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)


def _named_files(specs: list[dict[str, Any]]) -> list[str]:
    """Paths of existing files named by the cells (track, track base, parameter values).

    Found by value, not by key, so that no game's parameter names appear here; a read
    cached by a game in this process is still found this way.
    """
    out: dict[str, None] = {}
    for spec in specs:
        for key in ("track", "track_base", "params"):
            for s in _strings(spec.get(key)):
                if s.endswith(".toml") and Path(s).is_file():
                    out[str(Path(s))] = None
    return list(out)


def expand_recorded(
    expand: Callable[[], list], game: str, scenario_path: str, scenario_source: bytes | None
) -> tuple[list, dict[str, tuple[bytes, str]]]:
    """``expand()``'s cells and the inputs they read: path -> (bytes, use)."""
    with files.recording() as seen:
        cells = expand()
        for path in _named_files([pc.spec() for pc in cells]):
            if str(Path(path)) not in seen:
                files.read_bytes(path, lambda msg, p=path: SimkitError(f"'{p}': {msg}"))
    out = {p: (data, "read") for p, data in seen.items() if not shipped(p)}
    presets = get(game).bot_presets_file
    if presets is not None and Path(presets).is_file():  # data, though it ships (refits)
        out[str(presets)] = (Path(presets).read_bytes(), "check")
    if scenario_source is not None:
        out[str(Path(scenario_path))] = (scenario_source, "scenario")
    return cells, out


def _sha_of(path: Path, cap: int) -> str | None:
    """sha256 of the regular file at ``path``, or None (missing, not a file, too large)."""
    try:
        data = files.read_bytes(path, SimkitError, cap, replay=False)
    except SimkitError:
        return None
    return hashlib.sha256(data).hexdigest()


@contextlib.contextmanager
def replayed(
    run_path: Path, manifest: dict[str, Any], plays: bool = True, what: str = "run"
) -> Iterator[list[str]]:
    """Read the run's recorded inputs instead of the files on disk inside the block.

    Yields one notice per input whose file on disk differs from the copy (changed, moved,
    gone). ``RunError`` if a copy is damaged, or, when the caller ``plays`` races (a resume,
    a replay), a checked-only input (a presets file) changed; a report plays none, and is
    only told. ``what`` names the record in messages: a run, or a tuning (whose
    ``tune.json`` lists its inputs as a manifest does).
    """
    contents, notices = {}, []
    for path, e in manifest.get("inputs", {}).items():
        copy = run_path / e["copy"]
        try:
            data = files.read_bytes(copy, SimkitError, max(e["bytes"], 1))
        except SimkitError:
            data = b""
        if hashlib.sha256(data).hexdigest() != e["sha256"]:
            raise RunError(
                f"'{copy}': the {what}'s copy of '{path}' is missing or damaged, so the "
                f"content the {what} started with is lost; start the {what} again with --force"
            )
        if e["use"] == "read":
            contents[str(Path(path))] = data
        now = _sha_of(Path(path), files.MAX_BYTES)
        if now == e["sha256"]:
            continue
        if e["use"] == "check" and plays:
            raise RunError(
                f"'{path}' has changed since the {what} started (sha256 {e['sha256'][:12]} "
                f"then, {now[:12] if now else 'no file'} now) and the {what}'s bots read it; "
                f"put back the {what}'s copy ({copy}) to continue, or start the {what} again "
                "with --force"
            )
        uses = {
            "scenario": "the scenario it recorded",
            "space": "the space it recorded",
            "read": f"its copy {copy}",
            "check": "it only to play races, and this command plays none",
        }[e["use"]]
        how = "has changed" if now else "is gone (or no longer a readable file)"
        notices.append(f"'{path}' {how} since the {what} started; the {what} uses {uses}")
    with files.replaying(contents):
        yield notices


@contextlib.contextmanager
def of_run(run_dir: str | Path, plays: bool = True) -> Iterator[list[str]]:
    """:func:`replayed` for the run in ``run_dir`` (``race --replay``; ``report``, which
    ``plays`` no race)."""
    run = RunDir(run_dir)
    with replayed(run.path, run.read_manifest(), plays) as notices:
        yield notices
