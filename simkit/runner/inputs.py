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
code and not copied; the run records them with the code instead (:func:`code_record`: the
sha256 of every file of the package that decides its races, and ``simkit_version``), and a
resume or replay by other code is refused naming the first file that differs
(:func:`code_change`). A game's shipped presets file is also recorded as a checked input,
whose refusal says where the run's copy is.
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

# What decides a run's races besides its recorded inputs (docs/reliability.md, "The code a
# run started with"): globs of the package's own files, relative to it. The game's own
# package (and those of the classes it derives from: Mush! Mush! plays Snow Tails' engine)
# are added whole, and for a game raced on a track the track compiler, the tiles and every
# game's shipped tracks. Modules that only read, present or report (the CLI, reports,
# analysis, pictures, the manifest and file checks) are left out, so editing them never
# refuses a resume; the driver and the level check are in: they decide which races a run
# plays and what it keeps of them.
RACE_CODE = (
    "_borrow.py",
    "_numba_link.py",
    "games/*.py",
    "lineups.py",
    "outcomes.py",
    "params.py",
    "ratings.py",
    "rng.py",
    "runner/backends.py",
    "runner/driver.py",
    "runner/grid.py",
    "runner/level_store.py",
    "runner/levels.py",
    "runner/scenario.py",
    "runner/scenario_file.py",
    "runner/tables.py",
    "stats.py",
)
TRACK_CODE = ("tracks/**/*",)
NOT_RACE_CODE = ("analysis.py", "cli.py", "draw.py", "picture.py", "report.py", "summary.py")


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
    presets = get(game).extras.bot_presets_file
    if presets is not None and Path(presets).is_file():  # its refusal names the copy
        out[str(presets)] = (Path(presets).read_bytes(), "check")
    if scenario_source is not None:
        out[str(Path(scenario_path))] = (scenario_source, "scenario")
    return cells, out


def game_packages(game: str) -> list[str]:
    """The game packages whose code plays ``game``: its class's and its bases' packages."""
    out = []
    for cls in type(get(game)).__mro__:
        parts = cls.__module__.split(".")
        package = parts[2] if parts[:2] == ["simkit", "games"] and len(parts) > 2 else None
        if package and (_PACKAGE / "games" / package).is_dir() and package not in out:
            out.append(package)
    return out


def race_code(game: str) -> list[Path]:
    """The files of the simkit package that decide a run of ``game``'s races, sorted."""
    from simkit.games import games

    globs = [*RACE_CODE, *(f"games/{name}/**/*" for name in game_packages(game))]
    if get(game).uses_track:
        globs += TRACK_CODE
        for g in games():
            if g.extras.track_dir is not None and Path(g.extras.track_dir).resolve().is_relative_to(
                _PACKAGE
            ):
                globs.append(f"{Path(g.extras.track_dir).resolve().relative_to(_PACKAGE)}/**/*")
    found = {p for pattern in globs for p in _PACKAGE.glob(pattern)}
    return sorted(
        p
        for p in found
        if p.is_file()
        and "__pycache__" not in p.parts
        and p.suffix != ".pyc"
        and p.name not in NOT_RACE_CODE
    )


def code_record(game: str) -> dict[str, str]:
    """What a run records of its code: each :func:`race_code` file, named from the
    package's parent (``simkit/tracks/data/tiles.toml``), by the first 16 hex digits of its
    sha256 (about 2 ms per 100 kB of code)."""
    root = _PACKAGE.parent
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()[:16]
        for p in race_code(game)
    }


def code_change(record: dict[str, Any], game: str, what: str = "run") -> str | None:
    """What differs between the code ``record`` holds (a manifest's ``simkit_version`` and
    ``code``) and this simkit's: the version, or the first file that changed, appeared or
    went, in path order; None if nothing does."""
    from simkit import __version__

    if record.get("simkit_version") != __version__:
        return f"it was started by simkit {record.get('simkit_version')}, and this is {__version__}"
    then, now = record["code"], code_record(game)
    for path in sorted(set(then) | set(now)):
        if then.get(path) != now.get(path):
            how = "is new" if path not in then else "is gone" if path not in now else "has changed"
            return f"simkit's own file '{path}' {how} since the {what} started"
    return None


def refuse_other_code(where: Path, record: dict[str, Any], game: str, what: str = "run") -> None:
    """Refuse to play more races of the run (or tuning) at ``where`` by code other than the
    code it started with (:func:`code_change`), in one line saying how to start afresh."""
    if "code" not in record:
        raise RunError(
            f"'{where}': this {what} was started by a simkit that did not record its code, so "
            f"it cannot be continued without mixing code; start the {what} afresh into "
            "another folder (--out), or over this one with --force"
        )
    change = code_change(record, game, what)
    if change:
        raise RunError(
            f"'{where}': {change}, and its races were decided by the code it started with; "
            f"continuing would mix two codes in one {what}: start the {what} afresh into "
            "another folder (--out), or over this one with --force"
        )


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
    a replay), a checked-only input (a presets file) or the code that decides races
    (:func:`code_change`, when ``manifest`` records it) changed; a report plays none, and
    is only told. ``what`` names the record in messages: a run, or a tuning (whose
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
    if "code" in manifest:
        if plays:
            refuse_other_code(run_path, manifest, manifest["game"], what)
        elif change := code_change(manifest, manifest["game"], what):
            notices.append(f"'{run_path}': {change}; its tables stand as that code wrote them")
    with files.replaying(contents):
        yield notices


@contextlib.contextmanager
def of_run(run_dir: str | Path, plays: bool = True) -> Iterator[list[str]]:
    """:func:`replayed` for the run in ``run_dir`` (``race --replay``; ``report``, which
    ``plays`` no race)."""
    run = RunDir(run_dir)
    with replayed(run.path, run.read_manifest(), plays) as notices:
        yield notices
