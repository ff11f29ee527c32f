"""The vocabulary of ``bench/attacks.toml``: the steps that set a case up, the checks made
after it, and the servers a Dask case talks to.

A step or a check is a list in the data file, ``[name, arg, ...]``, run in the case's folder
(``Ctx.folder``): ``["simkit", "run", "s.toml", "--out", "ref"]`` runs simkit there and
requires it to succeed, ``["link", "run/races", "home"]`` makes ``run/races`` a symbolic
link to the user's ``home/``. Each function's docstring is its entry in the vocabulary.
Every server a case talks to is started here, on 127.0.0.1, and stopped with the case.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRACK = ROOT / "simkit" / "games" / "snowtails" / "tracks" / "nutcracker.toml"
SCENARIO = """game = "snowtails"
track = "trk/mytrack.toml"
players = 2
races = 40
chunk_size = 10
seed = 1
keep = "races"
"""
SPACE = "[track.corner.1.safety]\nlow = 3\nhigh = 5\n"
HOME = {"notes": "mine\n", "part-00000-000000.parquet": "my own file of that name\n"}


@dataclass
class Result:
    rc: int | None  # None: killed at the timeout
    stdout: str
    stderr: str
    seconds: float


@dataclass
class Ctx:
    """What a case's steps and checks see: its folder, its environment, what they left."""

    folder: Path
    env: dict[str, str]
    port: int | None = None  # the case's server, if any
    edited: dict[Path, bytes] = field(default_factory=dict)  # package files to put back
    first: Result | None = None  # an interrupted command's own result (signal cases)


def environment(package: Path | None = None) -> dict[str, str]:
    """The environment every command runs in: this simkit (or a copy of its package)."""
    env = {**os.environ, "PYTHONPATH": str(package or ROOT), "COLUMNS": "100"}
    env.pop("SIMKIT_CRASH", None)
    return env


def run(
    argv: list[str],
    cwd: Path,
    env: dict[str, str],
    timeout: float,
    *,
    signal_at: tuple[str, float | str] | None = None,
) -> Result:
    """``argv`` in ``cwd``, in a session of its own, killed at ``timeout``; with
    ``signal_at`` (a signal's name, and seconds or a file to wait for), sent that signal
    then, as a terminal would (SIGINT not ignored, as it is in a background job)."""
    t0 = time.monotonic()
    p = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    if signal_at is not None:
        name, when = signal_at
        _wait_for(p, cwd, when, t0 + timeout)
        if p.poll() is None:
            p.send_signal(getattr(signal, f"SIG{name}"))
    try:
        out, err = p.communicate(timeout=max(0.1, timeout - (time.monotonic() - t0)))
        rc: int | None = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        rc = None
    return Result(rc, out, err, time.monotonic() - t0)


def _wait_for(p: subprocess.Popen, cwd: Path, when: float | str, deadline: float) -> None:
    if isinstance(when, int | float):
        time.sleep(when)
        return
    while not (cwd / when).exists() and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)


def simkit(ctx: Ctx, *args: str, timeout: float = 600, **kw) -> Result:
    """``simkit ARGS`` in the case's folder and environment."""
    return run([sys.executable, "-m", "simkit", *args], ctx.folder, ctx.env, timeout, **kw)


def must(res: Result) -> None:
    if res.rc != 0:
        raise RuntimeError(res.stderr.strip().splitlines()[-1] if res.stderr else res.rc)


def lay_out(folder: Path) -> None:
    """A case's folder: a scenario, a track file, a space file, and the user's home."""
    folder.mkdir(parents=True)
    (folder / "trk").mkdir()
    shutil.copy(TRACK, folder / "trk" / "mytrack.toml")
    (folder / "s.toml").write_text(SCENARIO)
    (folder / "space.toml").write_text(SPACE)
    (folder / "home").mkdir()
    for name, text in HOME.items():
        (folder / "home" / name).write_text(text)


# --- steps -----------------------------------------------------------------------------------


def step_simkit(ctx: Ctx, *args: str) -> None:
    """``["simkit", ARGS...]``: run simkit; it must succeed."""
    must(simkit(ctx, *args))


def step_crash(ctx: Ctx, *args: str) -> None:
    """``["crash", ARGS...]``: run simkit killed (SIGKILL) after its second chunk."""
    res = run(
        [sys.executable, "-m", "simkit", *args],
        ctx.folder,
        {**ctx.env, "SIMKIT_CRASH": "2:agg"},
        600,
    )
    if res.rc == 0:
        raise RuntimeError("the run was not killed")


def step_killed_run(ctx: Ctx, out: str = "run") -> None:
    """``["killed_run", OUT]``: the reference run ``ref`` of s.toml, and one into OUT killed
    after its second chunk."""
    step_simkit(ctx, "run", "s.toml", "--out", "ref", "--threads", "1")
    step_crash(ctx, "run", "s.toml", "--out", out, "--threads", "1")


def step_write(ctx: Ctx, path: str, text: str = "mine") -> None:
    """``["write", PATH, TEXT]``: a file of the user's (folders made as needed)."""
    p = ctx.folder / path
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def step_replace(ctx: Ctx, path: str, old: str, new: str) -> None:
    """``["replace", PATH, OLD, NEW]``: the first OLD in the file becomes NEW (a hand edit)."""
    p = ctx.folder / path
    text = p.read_text()
    if old not in text:
        raise RuntimeError(f"{path} does not hold {old!r}")
    p.write_text(text.replace(old, new, 1))


def step_edit_track(ctx: Ctx, path: str) -> None:
    """``["edit_track", PATH]``: the track's first corner made another tile."""
    step_replace(ctx, path, 'tile = "corner-a"', 'tile = "corner-b"')


def step_mkdir(ctx: Ctx, path: str) -> None:
    """``["mkdir", PATH]``"""
    (ctx.folder / path).mkdir(parents=True, exist_ok=True)


def step_copy(ctx: Ctx, src: str, dst: str) -> None:
    """``["copy", SRC, DST]``"""
    shutil.copy(ctx.folder / src, ctx.folder / dst)


def step_delete(ctx: Ctx, path: str) -> None:
    """``["delete", PATH]``: a file or a whole folder."""
    p = ctx.folder / path
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p)
    else:
        p.unlink()


def step_link(ctx: Ctx, path: str, target: str) -> None:
    """``["link", PATH, TARGET]``: PATH (removed first if it exists) becomes a symbolic link
    to TARGET, both relative to the case's folder."""
    p = ctx.folder / path
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p)
    elif p.exists() or p.is_symlink():
        p.unlink()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.symlink_to(ctx.folder / target)


def step_fifo(ctx: Ctx, path: str) -> None:
    """``["fifo", PATH]``: a named pipe."""
    (ctx.folder / path).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(ctx.folder / path)


def step_truncate(ctx: Ctx, path: str) -> None:
    """``["truncate", PATH]``: the file cut to half its length."""
    p = ctx.folder / path
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def step_damage_first(ctx: Ctx, pattern: str) -> None:
    """``["damage_first", GLOB]``: the first file matching GLOB overwritten with one byte."""
    sorted(ctx.folder.glob(pattern))[0].write_bytes(b"x")


def step_json_set(ctx: Ctx, path: str, key: str, value: str) -> None:
    """``["json_set", PATH, KEY, JSON]``: a JSON file's key set by hand (no checksum made)."""
    p = ctx.folder / path
    data = json.loads(p.read_text())
    data[key] = json.loads(value)
    p.write_text(json.dumps(data, indent=1))


def step_seal(ctx: Ctx, run_dir: str, key: str, value: str) -> None:
    """``["seal", RUN, KEY, JSON]``: the manifest's KEY (and its scenario's, if it has one)
    set, every sum recomputed: a careful forgery (docs/reliability.md)."""
    sys.path.insert(0, str(ROOT))
    from simkit.runner.manifest import seal

    path = ctx.folder / run_dir / "manifest.json"
    m = json.loads(path.read_text())
    m[key] = json.loads(value)
    if key in m["scenario"]:
        m["scenario"][key] = m[key]
    path.write_bytes(seal(m))


def step_swap_chunk(ctx: Ctx) -> None:
    """``["swap_chunk"]``: a races chunk of another run (seed 2) in place of run's, its sum
    updated."""
    sys.path.insert(0, str(ROOT))
    from simkit.runner.manifest import file_entry, seal
    from simkit.runner.storage import parquet_rows

    step_simkit(ctx, "run", "s.toml", "--out", "other", "--seed", "2")
    name = sorted((ctx.folder / "run" / "races").glob("*.parquet"))[0].name
    data = (ctx.folder / "other" / "races" / name).read_bytes()
    (ctx.folder / "run" / "races" / name).write_bytes(data)
    path = ctx.folder / "run" / "manifest.json"
    m = json.loads(path.read_text())
    m["files"][f"races/{name}"] = file_entry(data, parquet_rows(data))
    path.write_bytes(seal(m))


def step_edit_package(ctx: Ctx, path: str, old: str, new: str) -> None:
    """``["edit_package", PATH, OLD, NEW]``: a file of the case's copy of the simkit package
    (PATH from its parent, ``simkit/...``) edited as a developer would; put back after the
    case."""
    p = Path(ctx.env["PYTHONPATH"]) / path
    data = p.read_bytes()
    if old.encode() not in data:
        raise RuntimeError(f"{path} does not hold {old!r}")
    ctx.edited.setdefault(p, data)
    p.write_bytes(data.replace(old.encode(), new.encode(), 1))


STEPS: dict[str, Callable[..., None]] = {
    name.removeprefix("step_"): fn for name, fn in globals().items() if name.startswith("step_")
}


# --- checks ----------------------------------------------------------------------------------


def chunk_files(run_dir: Path) -> dict[str, str]:
    """sha256 of a run's chunk files (not the manifest, whose timings differ)."""
    return {
        str(p.relative_to(run_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
        for t in ("races", "heat", "agg")
        for p in sorted((run_dir / t).glob("*.parquet"))
    }


def check_same_as_ref(ctx: Ctx, res: Result, run_dir: str = "run") -> str | None:
    """``["same_as_ref", RUN]``: RUN's chunk files are those of the uninterrupted ``ref``."""
    if chunk_files(ctx.folder / run_dir) != chunk_files(ctx.folder / "ref"):
        return "tables differ from the uninterrupted run"
    return None


def check_notice(ctx: Ctx, res: Result) -> str | None:
    """``["notice"]``: a line names an input that changed or went since the start."""
    if "has changed since" not in res.stderr and "is gone" not in res.stderr:
        return "no notice of the changed input"
    return None


def check_says(ctx: Ctx, res: Result, text: str) -> str | None:
    """``["says", TEXT]``: the output (either stream) holds TEXT."""
    return None if text in res.stderr + res.stdout else f"does not say {text!r}"


def check_lacks(ctx: Ctx, res: Result, path: str, text: str) -> str | None:
    """``["lacks", PATH, TEXT]``: the file does not hold TEXT."""
    return f"{path} holds {text!r}" if text in (ctx.folder / path).read_text() else None


def check_exists(ctx: Ctx, res: Result, path: str) -> str | None:
    """``["exists", PATH]``"""
    return None if (ctx.folder / path).exists() else f"no {path}"


def check_first_ends_well(ctx: Ctx, res: Result, run_dir: str = "run") -> str | None:
    """``["first_ends_well", RUN]``: the writer running beside the case ended its run."""
    if (ctx.folder / "first.rc").read_text().strip() != "0":
        return "the first writer failed"
    if (ctx.folder / run_dir / "manifest.json").exists():
        m = json.loads((ctx.folder / run_dir / "manifest.json").read_text())
        if m["seed"] != 1 or m["status"] != "complete":
            return "the first writer's run was replaced"
    return None


def check_interrupted_cleanly(ctx: Ctx, res: Result) -> str | None:
    """``["interrupted_cleanly"]``: the command the signal stopped left no traceback, and
    ended in one ``Error:`` line when it had one to say (SIGINT)."""
    first = ctx.first
    if first is None:
        return "no interrupted command"
    if "Traceback (most recent call last)" in first.stderr:
        return "the interrupted command printed a traceback"
    return None


CHECKS: dict[str, Callable[..., str | None]] = {
    name.removeprefix("check_"): fn for name, fn in globals().items() if name.startswith("check_")
}


# --- servers for --dask ------------------------------------------------------------------------


def serve(kind: str) -> tuple[int, Callable[[], None]]:
    """A server on 127.0.0.1 that is no Dask scheduler: ``speaks`` first in another protocol,
    stays ``silent``, ``closes`` every connection at once, or answers as ``http``. Returns
    its port and what stops it."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held: list[socket.socket] = []

    def loop() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            if kind == "closes":
                conn.close()
                continue
            if kind == "speaks":
                conn.sendall(b"SSH-2.0-OpenSSH_9.0\r\n" * 4)
            elif kind == "http":
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            held.append(conn)

    threading.Thread(target=loop, daemon=True).start()

    def stop() -> None:
        listener.close()
        for conn in held:
            conn.close()

    return listener.getsockname()[1], stop
