"""The tuning folder of ``simkit bots tune``, kept as safely as a run folder (issue 37).

- **Whose folder.** A tuning writes only into a folder it creates, an empty one, or one
  holding a bot tuning (:func:`claim`: :func:`simkit.files.claim_folder`); anything else,
  a user's folder or a run, needs ``--force``; a folder holding a tuning needs ``--force``
  to be started again, and links inside are refused (:func:`simkit.files.refuse_links`).
- **One writer.** The process writing a tuning holds the run folder's advisory lock
  (:func:`lock`), so a second ``bots tune`` on the same folder is refused in one line.
- **The state, sealed.** ``state.pkl`` begins with a line naming what it is and a JSON line
  holding the sha256 of the ``tune.json`` it was saved for and of the pickle that follows
  (:func:`write_state`). :func:`read_state` refuses, before unpickling a byte, a file that
  is damaged, of another tuning, or not one simkit saved, with a remedy that works: remove
  it and resume, and the search starts again from its first generation and, being
  deterministic, ends where it would have.
- **The fit.** The fitted preset goes to the tuning's own ``bots.toml`` (:data:`FIT`), which
  a scenario (``bots_file``) or ``--bots-file`` names to play it; simkit never writes into its
  installed package.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from simkit.errors import RunError, SimkitError
from simkit.files import claim_folder, read_bytes, resolved
from simkit.runner.storage import RunDir, write_atomic
from simkit.tune import common

KIND = "bot tuning"  # what the folder's marker says it holds
STATE = "state.pkl"
CONFIRMATION = "confirmation.json"
FIT = "bots.toml"  # the fitted preset, [BOT.NAME], for a scenario's bots_file or --bots-file
_MAGIC = b"simkit bots tune state 1\n"
MAX_STATE_BYTES = 256 << 20  # every evaluation of the largest budget, with room to spare


def claim(out: str | Path, force: bool) -> Path:
    """The folder ``out`` (resolved), made ready for a new tuning, or ``RunError``."""
    out = resolved(out)
    common.refuse_existing(out, force, f"--resume {out}, or --force")
    return claim_folder(out, KIND, force=force, ours=lambda p: (p / common.SETTINGS).is_file())


@contextlib.contextmanager
def lock(out: Path) -> Iterator[None]:
    """Hold the folder's lock (:meth:`simkit.runner.storage.RunDir.lock`) inside the block."""
    with RunDir(out).lock("simkit bots tune"):
        yield


def clear(out: Path) -> None:
    """Remove what an earlier tuning in ``out`` left (``--force``): its state, confirmation
    and fit, which belong to other settings."""
    for name in (STATE, CONFIRMATION, FIT):
        (out / name).unlink(missing_ok=True)


def settings_digest(out: Path) -> str:
    """sha256 of the folder's ``tune.json`` as it is on disk (written once per tuning)."""
    data = read_bytes(out / common.SETTINGS, lambda msg: RunError(f"'{out}': {msg}"))
    return hashlib.sha256(data).hexdigest()


def write_state(out: Path, state: Any) -> None:
    """Save ``state`` atomically as ``state.pkl``, sealed to this tuning (module docstring)."""
    data = pickle.dumps(state)
    head = {
        "tuning": settings_digest(out),
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
    }
    blob = _MAGIC + json.dumps(head).encode() + b"\n" + data
    write_atomic(out / STATE, blob, f"continue with `simkit bots tune --resume {out}`")


def read_state(out: Path) -> Any | None:
    """The state saved in ``out`` (None before the first generation), checked before it is
    unpickled; ``RunError`` naming the file and the remedy otherwise."""
    path = out / STATE
    if not path.exists() and not path.is_symlink():
        return None
    remedy = (
        f"remove it and resume (`simkit bots tune --resume {out}`): the search starts again "
        "from its first generation and ends where it would have"
    )

    def refused(why: str) -> RunError:
        return RunError(f"'{path}' {why}; {remedy}")

    blob = read_bytes(path, lambda msg: refused(f"cannot be used: {msg}"), MAX_STATE_BYTES)
    if not blob.startswith(_MAGIC):
        raise refused(
            "is not a state simkit bots tune saved (damaged, or saved by an older simkit)"
        )
    line, _, data = blob[len(_MAGIC) :].partition(b"\n")
    try:
        head = json.loads(line)
        sealed = (head["tuning"], head["sha256"], head["bytes"])
    except (ValueError, TypeError, KeyError):
        raise refused("is damaged (its first lines are not what simkit writes)") from None
    if (hashlib.sha256(data).hexdigest(), len(data)) != sealed[1:]:
        raise refused("is damaged (its content does not match the sha256 it records)")
    if sealed[0] != settings_digest(out):
        raise refused(f"was saved by another tuning (not the one {common.SETTINGS} describes)")
    try:
        return pickle.loads(data)  # sealed by simkit, for this tuning: the tuner's own file
    except Exception as exc:  # classes this simkit no longer has, or renamed
        raise refused(f"cannot be read by this simkit ({type(exc).__name__})") from None


def checked(data: Any, where: Path, build: Any) -> Any:
    """``build(data)`` (the tuner's settings from ``tune.json``), or one ``RunError`` line
    naming the file and what is wrong, with the remedy."""

    def fail(what: str) -> RunError:
        return RunError(
            f"'{where}': {what}; the tuning cannot be continued: start it again with --force"
        )

    if not isinstance(data, dict):
        raise fail("not the settings of a tuning (a JSON object)")
    try:
        return build(data)
    except SimkitError as exc:
        raise fail(str(exc)) from None
