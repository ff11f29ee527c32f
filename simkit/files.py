"""The one guarded way simkit reads a file it is given: scenarios, tracks, routes, positions
(``simkit moves``) and run manifests.

Whatever a file holds, reading it ends in parsed data or in one :class:`SimkitError` line
from the caller's ``error`` factory (which names the file): missing or unreadable, larger
than the cap, not UTF-8, not valid TOML or JSON, or nested deeper than :data:`MAX_DEPTH`.
The size cap bounds the time any parser and any later check can take; anything that is not a
regular file (a FIFO, a device, a socket) is refused before a byte is read, so no reader
waits on one. :func:`shown` quotes a user's value for a message; :func:`one_line` makes any
message one printable line.

Every file read here can be recorded and replayed by content (:mod:`simkit.runner.inputs`):
inside :func:`recording`, each file read is remembered with its bytes; inside
:func:`replaying`, a file that was recorded is read from the recording, not from the disk,
so a resumed run reads the inputs its start read, whatever happened to them since.

Where simkit writes (below "where simkit writes"), no write, truncation or deletion follows
a symbolic link: a folder it writes into is refused if it holds one (:func:`refuse_links`),
a file it is asked to write is refused if it is one (:func:`claim_file`), and every file is
written under a new temporary name (:func:`create_new`: ``O_EXCL | O_NOFOLLOW``), then
renamed, which replaces a name and never what a link points to.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import stat
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from simkit.errors import SimkitError

MAX_BYTES = 1 << 20  # 1 MiB: far more than any hand-written scenario, track, route or position
MAX_DEPTH = 32  # tables and lists inside one another
SHOWN_CHARS = 60  # of a user's value quoted in a message
LINE_CHARS = 600  # of one error line

ErrorFactory = Callable[[str], SimkitError]


# What the reads of this process record and replay: a file's path as given -> its bytes.
_recordings: list[dict[str, bytes]] = []
_replayed: dict[str, bytes] = {}


@contextlib.contextmanager
def recording() -> Iterator[dict[str, bytes]]:
    """Remember every file read inside the block: path (as given) -> the bytes read."""
    seen: dict[str, bytes] = {}
    _recordings.append(seen)
    try:
        yield seen
    finally:  # by identity: nested recordings of the same reads hold equal dicts
        del _recordings[next(i for i, r in enumerate(_recordings) if r is seen)]


@contextlib.contextmanager
def replaying(contents: dict[str, bytes]) -> Iterator[None]:
    """Inside the block, a read of a path in ``contents`` returns its recorded bytes.

    Process-wide (not per thread): a run's chunks are played on worker threads.
    """
    before = dict(_replayed)
    _replayed.update(contents)
    try:
        yield
    finally:
        _replayed.clear()
        _replayed.update(before)


def replayed_contents() -> dict[str, bytes]:
    """What :func:`replaying` answers now (for a worker process to answer the same)."""
    return dict(_replayed)


def replayed(path: str | Path) -> bool:
    """True if a read of ``path`` is answered by a recording (:func:`replaying`)."""
    return str(Path(path)) in _replayed


def read_bytes(
    path: str | Path, error: ErrorFactory, max_bytes: int = MAX_BYTES, *, replay: bool = True
) -> bytes:
    """The file's bytes, at most ``max_bytes`` read; a recorded file's recorded bytes
    (unless ``replay`` is false: what the disk holds now)."""
    key = str(Path(path))
    data = _replayed.get(key) if replay else None
    if data is None:
        data = _read_regular(Path(path), error, max_bytes)
    if len(data) > max_bytes:
        raise error(f"larger than {max_bytes:,} bytes; is it the right file?")
    for seen in _recordings:
        seen[key] = data
    return data


def _read_regular(p: Path, error: ErrorFactory, max_bytes: int) -> bytes:
    """Up to ``max_bytes + 1`` bytes of ``p``; refused unless it is a regular file.

    Opened without blocking and checked on the open descriptor: opening a FIFO for
    reading would otherwise wait for a writer forever.
    """
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise error("file not found") from None
    except IsADirectoryError:
        raise error("is a folder, not a file") from None
    except OSError as exc:
        raise error(f"cannot read it ({exc.strerror or exc})") from None
    # Checked before the descriptor is wrapped: Python's file object refuses a folder
    # itself, with an error naming the descriptor's number ("cannot use '3'").
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise error("is a folder, not a file")
        raise error(f"is not a regular file (a {_kind(mode)}); give a file")
    with open(fd, "rb") as fh:
        try:
            return fh.read(max_bytes + 1)
        except OSError as exc:
            raise error(f"cannot read it ({exc.strerror or exc})") from None


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def read_text(path: str | Path, error: ErrorFactory, max_bytes: int = MAX_BYTES) -> str:
    """The file's text, read as UTF-8; at most ``max_bytes`` are ever read."""
    return _decoded(read_bytes(path, error, max_bytes), error)


def _decoded(data: bytes, error: ErrorFactory) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start]
        raise error(
            f"not UTF-8 text (byte 0x{bad:02x} at offset {exc.start}); save it as UTF-8"
        ) from None


def read_toml(path: str | Path, error: ErrorFactory, max_bytes: int = MAX_BYTES) -> dict:
    """The file parsed as TOML (a table)."""
    return parse_toml(read_bytes(path, error, max_bytes), error)


def parse_toml(data: bytes, error: ErrorFactory) -> dict:
    """``data`` (a file's bytes, as :func:`read_bytes` gives them) parsed as TOML."""
    text = _decoded(data, error)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"not valid TOML ({one_line(str(exc))})") from None
    except RecursionError:
        raise error(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise error(f"not valid TOML ({one_line(str(exc))[:SHOWN_CHARS]})") from None
    _check_depth(data, error)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:SHOWN_CHARS]} is out of range")
    return value


class _Repeated(ValueError):
    """A JSON object names a key twice."""


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when it names a key twice (json keeps the last silently)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _Repeated(f"key {shown(twice)} appears twice in one object; keep one")
    return out


def read_json(path: str | Path, error: ErrorFactory, max_bytes: int = MAX_BYTES) -> Any:
    """The file parsed as JSON; NaN, Infinity, out-of-range numbers and an object naming a
    key twice are refused."""
    text = read_text(path, error, max_bytes)
    try:
        data = json.loads(
            text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_no_repeats
        )
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise error(f"nested deeper than {MAX_DEPTH} levels") from None
    except _Repeated as exc:
        raise error(f"not valid JSON here: {exc}") from None
    except ValueError as exc:
        raise error(f"not valid JSON ({one_line(str(exc))[:SHOWN_CHARS]})") from None
    _check_depth(data, error)
    return data


def _check_depth(data: Any, error: ErrorFactory) -> None:
    """Refuse data nested deeper than MAX_DEPTH (checked without recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_DEPTH:
            raise error(f"nested deeper than {MAX_DEPTH} levels")
        stack.extend((child, depth + 1) for child in children)


def one_line(text: str) -> str:
    """``text`` as one printable line: control and other invisible characters escaped."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def shown(value: Any) -> str:
    """A user's value for a message: its repr, escaped to one line and cut short."""
    text = one_line(repr(value))
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


# --- where simkit writes -------------------------------------------------------------------

MARKER = ".simkit-output"  # in every folder simkit writes into: the kind of output it holds


def resolved(path: str | Path) -> Path:
    """``path`` with ``..`` resolved the way the system will (``nosuch/../u`` is ``u``).

    Every check on an output path is made on this, so that no check looks at one folder
    while the write lands in another. A path without ``..`` is kept as given (messages
    show what the user typed).
    """
    p = Path(path)
    return p.resolve() if ".." in p.parts else p


_FILE_LOCALS = ("filename", "fname", "path")  # what writers call the file they write


def failed_file(exc: OSError) -> str | None:
    """The file a failed write was writing, or None.

    A write to a full disk raises an OSError that names no file (only opening one does),
    and a writer may remove its half-written file (Pillow does). So the file is the error's
    own name, else the innermost frame of the failed call that holds a file name
    (matplotlib's ``fname``, Pillow's ``filename``, simkit's ``path``).
    """
    if exc.filename is not None:
        return str(exc.filename)
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        for name in _FILE_LOCALS:
            value = frame.f_locals.get(name)
            if isinstance(value, str | os.PathLike) and str(value):
                return str(value)
    return None


@contextlib.contextmanager
def named(path: str | Path) -> Iterator[None]:
    """Inside the block, an OSError that names no file (a write to a full disk) names
    ``path``."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(path)
        raise


_NO_LINK = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_LINK


def create_new(path: str | Path) -> int:
    """A descriptor on a new, empty regular file at ``path``: a temporary name simkit writes
    and then renames. Never a file the name already held, nor one a link there points to
    (``O_EXCL``, ``O_NOFOLLOW``): a leftover of the same name (a killed writer's, or a link
    someone put there) is removed first, the name itself and not what a link points to."""
    try:
        return os.open(path, _NEW_FILE, 0o666)
    except FileExistsError:
        os.unlink(path)
        return os.open(path, _NEW_FILE, 0o666)


def _temporary(p: Path) -> Path:
    """A temporary name beside ``p`` that keeps its suffix (writers such as matplotlib read
    the format from it); hidden, and ending ``.tmp`` before the suffix."""
    return p.with_name(f".{p.stem}.{os.getpid()}.tmp{p.suffix}")


def write_replacing(path: str | Path, write: Callable[[Path], Any]) -> None:
    """Write ``path`` by ``write(temporary path)``, then rename it over ``path``: a failed
    write (a full disk) leaves ``path`` as it was (absent, or the file ``--force`` would
    have replaced), and its error names ``path``. The temporary file is made new by
    :func:`create_new` before ``write`` fills it, so no write lands where a link points;
    the rename replaces a name, never what it points to."""
    p = Path(path)
    tmp = _temporary(p)
    try:
        os.close(create_new(tmp))
        write(tmp)
        os.replace(tmp, p)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        if exc.filename is None or str(exc.filename) == str(tmp):
            exc.filename = str(p)
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise


def replace_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` as ``path`` through a new temporary file (:func:`write_replacing`)."""

    def write(tmp: Path) -> None:
        fd = os.open(tmp, os.O_WRONLY | _NO_LINK)
        with open(fd, "wb") as fh:
            fh.write(data)

    write_replacing(path, write)


def refuse_links(folder: str | Path, remedy: str) -> None:
    """Refuse, in one line ending with ``remedy``, a folder simkit is about to write into
    (a run, a report, a tuning) that holds a symbolic link anywhere inside, or anything
    else that is neither a regular file nor a folder (a named pipe, a device, a socket).

    simkit writes, truncates and deletes by name in its folders (a lock, chunk files,
    unlisted chunks removed on resume, a report's pages); through a link, any of those
    would land on the file or folder it points to, outside; into a named pipe it would wait
    forever, into a device write to it. The folder itself may be a link (the user named
    it); nothing inside it may. Links are not followed while looking.
    """
    top = Path(folder)
    stack = [top]
    while stack:
        try:
            entries = os.scandir(stack.pop())
        except OSError:  # gone, or not a folder: the caller's own checks say so
            continue
        with entries:
            for entry in entries:
                if entry.is_symlink():
                    raise SimkitError(
                        f"'{entry.path}' is a symbolic link, and simkit writes through no link "
                        f"in a folder it writes (it could overwrite or delete what the link "
                        f"points to); {remedy}"
                    )
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif not entry.is_file(follow_symlinks=False):
                    kind = _kind(entry.stat(follow_symlinks=False).st_mode)
                    raise SimkitError(
                        f"'{entry.path}' is not a regular file (a {kind}), and simkit writes "
                        f"only regular files in a folder it writes; {remedy}"
                    )


def _kind_of(folder: Path) -> str | None:
    try:
        return read_text(folder / MARKER, SimkitError, 200).strip() or None
    except SimkitError:
        return None


def claim_folder(
    path: str | Path,
    kind: str,
    *,
    force: bool = False,
    ours: Callable[[Path], bool] | None = None,
    option: str = "--out",
) -> Path:
    """The folder ``path`` (:func:`resolved`), made ready to receive simkit's ``kind`` output.

    A folder may be written into if simkit creates it now, if it is empty, if it holds
    ``kind`` output (its :data:`MARKER` says so, or ``ours(folder)`` recognises output of
    an older simkit), or with ``force``; anything else is the user's, and refused with one
    line. The marker is written before any output, so a folder simkit filled is always
    recognised as its own.
    """
    p = resolved(path)
    if p.exists() or p.is_symlink():
        if not p.is_dir():
            raise SimkitError(f"'{p}' exists and is not a folder; choose another {option}")
        # Before anything inside is read: ``ours`` may read a file through a link.
        refuse_links(p, f"remove it, or choose another {option}")
        try:
            empty = not any(p.iterdir())
        except OSError as exc:
            raise SimkitError(f"cannot read the folder '{p}' ({exc.strerror or exc})") from None
        held = _kind_of(p)
        if not (empty or held == kind or (held is None and ours and ours(p)) or force):
            what = f"a simkit {held}" if held else f"files simkit did not write as a {kind}"
            raise SimkitError(
                f"'{p}' holds {what}; choose another {option}, or add --force to write the "
                f"{kind} there (files of the same names are replaced)"
            )
    try:
        p.mkdir(parents=True, exist_ok=True)
        if _kind_of(p) != kind:
            replace_bytes(p / MARKER, f"{kind}\n".encode())
    except OSError as exc:
        raise SimkitError(
            f"cannot write into '{p}' ({exc.strerror or exc}); choose another {option}"
        ) from None
    return p


def claim_file(path: str | Path, *, suffix: str, force: bool = False, option: str) -> Path:
    """The file ``path`` (:func:`resolved`) that a command is about to write.

    Refused with one line unless it ends in ``suffix`` (the format written), and, when it
    already exists, unless ``force``: simkit never replaces a file it was not asked to. A
    symbolic link is refused even with ``force``.
    """
    p = resolved(path)
    if p.suffix.lower() != suffix:
        raise SimkitError(f"{option} '{p}': give a file name ending in {suffix}")
    if p.is_symlink():
        raise SimkitError(
            f"{option} '{p}' is a symbolic link, and simkit writes through no link (not "
            "even with --force); remove it, or choose another name"
        )
    if p.is_dir():
        raise SimkitError(f"{option} '{p}' is a folder; give a file name ending in {suffix}")
    if p.exists() and not force:
        raise SimkitError(
            f"{option} '{p}' exists; choose another name, or add --force to replace it"
        )
    return p
