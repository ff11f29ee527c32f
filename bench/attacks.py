"""The attack table of issue 26, replayed: every case a command line, run in its own
process under a timeout, its outcome classified.

    python -m bench.attacks [--only 6] [--md FILE] [--keep DIR]

Outcomes: ``refused`` (exit 1 or 2, exactly one ``Error:`` line, the last on stderr),
``done`` (exit 0), ``traceback`` (a Python traceback on stderr), ``hang`` (the timeout
ran out: killed), ``file lost`` (a file that existed before the command, other than the
ones the case lets it change, changed or vanished), ``other`` (any other exit). A case
also states what it should end in, and may check more (tables identical to an
uninterrupted run, a notice, the file named); a case that ends otherwise is ``unexpected``.

Cases play Snow Tails on small runs (a warm numba cache makes each a few seconds; a cold
one costs a minute or two once). The full-disk cases mount a small tmpfs in a private mount
namespace (``unshare -m``, root); where that is not possible they are reported as skipped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRACK = ROOT / "simkit" / "games" / "snowtails" / "tracks" / "nutcracker.toml"
LOCK = ".simkit-lock"
TIMEOUT = 60.0  # seconds: a case still running then is a hang
SCENARIO = """game = "snowtails"
track = "trk/mytrack.toml"
players = 2
races = 40
chunk_size = 10
seed = 1
keep = "races"
"""
SPACE = "[track.corner.1.safety]\nlow = 3\nhigh = 5\n"
TUNE = ["--budget", "200", "--min-races", "10", "--max-races", "20", "--confirm", "40"]
TUNE += ["--top", "1"]


@dataclass
class Result:
    rc: int | None  # None: killed at the timeout
    stdout: str
    stderr: str
    seconds: float


@dataclass
class Case:
    point: int
    name: str
    argv: list[str]
    expect: str  # "refused" or "done"
    setup: Callable[[Path], None] | None = None
    check: Callable[[Path, Result], str | None] | None = None  # a problem, or None
    may_change: tuple[str, ...] = ()  # paths (prefixes) the command may write
    shell: str | None = None  # run this shell script instead of argv (tmpfs cases)
    timeout: float = TIMEOUT


@dataclass
class Row:
    case: Case
    outcome: str
    ok: bool
    seconds: float
    note: str = ""
    extra: list[str] = field(default_factory=list)


# --- running ---------------------------------------------------------------------------------


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    env.pop("SIMKIT_CRASH", None)
    return env


def sk(cwd: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 300) -> Result:
    """``simkit ARGS`` in ``cwd``, in a new process (group), killed at ``timeout``."""
    return _run([sys.executable, "-m", "simkit", *args], cwd, env or _env(), timeout)


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> Result:
    t0 = time.monotonic()
    p = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = p.communicate(timeout=timeout)
        rc: int | None = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        rc = None
    return Result(rc, out, err, time.monotonic() - t0)


def _snapshot(folder: Path) -> dict[str, str]:
    """sha256 of every regular file under ``folder`` (FIFOs and devices are not read)."""
    out = {}
    for p in folder.rglob("*"):
        if p.is_file() and not p.is_symlink():
            out[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _classify(res: Result, lost: list[str]) -> str:
    if res.rc is None:
        return "hang"
    if "Traceback (most recent call last)" in res.stderr:
        return "traceback"
    if lost:
        return "file lost"
    if res.rc == 0:
        return "done"
    lines = res.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("Error: ")]
    if res.rc in (1, 2) and len(errors) == 1 and lines[-1].startswith("Error: "):
        return "refused"
    return "other"


def play(case: Case, folder: Path) -> Row:
    folder.mkdir(parents=True)
    (folder / "trk").mkdir()
    shutil.copy(TRACK, folder / "trk" / "mytrack.toml")
    (folder / "s.toml").write_text(SCENARIO)
    (folder / "space.toml").write_text(SPACE)
    try:
        if case.setup:
            case.setup(folder)
    except Exception as exc:  # a setup that fails is reported, not hidden
        return Row(case, "setup failed", False, 0.0, f"{type(exc).__name__}: {exc}")
    before = _snapshot(folder)
    if case.shell is not None:
        res = _run(["sh", "-c", case.shell], folder, _env(), case.timeout)
    else:
        res = sk(folder, *case.argv, timeout=case.timeout)
    after = _snapshot(folder)
    lost = [
        p
        for p, sha in before.items()
        if after.get(p) != sha
        and not any(p.startswith(m) for m in case.may_change)
        and Path(p).name != LOCK  # simkit's own lock: every writer, refused or not, names itself
    ]
    outcome = _classify(res, lost)
    if res.rc is not None and "unshare failed" in res.stderr:
        return Row(case, "skipped", True, res.seconds, "no private mount namespace here")
    problem = case.check(folder, res) if case.check and outcome in ("done", "refused") else None
    ok = outcome == case.expect and problem is None
    error = next((x for x in res.stderr.splitlines() if x.startswith("Error: ")), "")
    note = problem or (f"lost: {', '.join(lost)}" if lost else error[7:])
    if outcome in ("traceback", "other"):
        note = res.stderr.strip().splitlines()[-1] if res.stderr.strip() else f"exit {res.rc}"
    return Row(case, outcome, ok, res.seconds, note.replace(f"{folder}/", ""))


# --- helpers for setups and checks -----------------------------------------------------------


def tables(run: Path) -> dict[str, str]:
    """sha256 of a run's chunk files (not the manifest, whose timings differ)."""
    return {
        str(p.relative_to(run)): hashlib.sha256(p.read_bytes()).hexdigest()
        for t in ("races", "heat", "agg")
        for p in sorted((run / t).glob("*.parquet"))
    }


def must(res: Result) -> None:
    if res.rc != 0:
        raise RuntimeError(res.stderr.strip().splitlines()[-1] if res.stderr else res.rc)


def killed_run(folder: Path, out: str = "run") -> None:
    """A run of s.toml killed (SIGKILL) after its second chunk, and the reference run."""
    must(sk(folder, "run", "s.toml", "--out", "ref", "--threads", "1"))
    env = {**_env(), "SIMKIT_CRASH": "2:agg"}
    res = sk(folder, "run", "s.toml", "--out", out, "--threads", "1", env=env)
    if res.rc == 0:
        raise RuntimeError("the run was not killed")


def edit_track(path: Path) -> None:
    path.write_text(path.read_text().replace('tile = "corner-a"', 'tile = "corner-b"', 1))


def same_as_ref(run: str = "run") -> Callable[[Path, Result], str | None]:
    def check(folder: Path, res: Result) -> str | None:
        if tables(folder / run) != tables(folder / "ref"):
            return "tables differ from the uninterrupted run"
        if "has changed since" not in res.stderr and "is gone" not in res.stderr:
            return "no notice of the changed input"
        return None

    return check


def says(text: str) -> Callable[[Path, Result], str | None]:
    def check(folder: Path, res: Result) -> str | None:
        return None if text in res.stderr + res.stdout else f"does not say {text!r}"

    return check


def fifo(name: str) -> Callable[[Path], None]:
    def setup(folder: Path) -> None:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(folder / name)

    return setup


def both(*steps: Callable[[Path], None]) -> Callable[[Path], None]:
    def setup(folder: Path) -> None:
        for step in steps:
            step(folder)

    return setup


def finished(out: str = "run", scenario: str = "s.toml") -> Callable[[Path], None]:
    return lambda folder: must(sk(folder, "run", scenario, "--out", out))


def user_file(path: str, text: str = "mine") -> Callable[[Path], None]:
    def setup(folder: Path) -> None:
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)

    return setup


def write(path: str, text: str) -> Callable[[Path], None]:
    return user_file(path, text)


def forge_manifest(folder: Path) -> None:
    """Change the seed and recompute every sum: a careful forgery (docs/reliability.md)."""
    sys.path.insert(0, str(ROOT))
    from simkit.runner.manifest import seal

    path = folder / "run" / "manifest.json"
    m = json.loads(path.read_text())
    m["seed"] = m["scenario"]["seed"] = 99
    path.write_bytes(seal(m))


def swap_chunk(folder: Path) -> None:
    """A races chunk of another run (seed 2) in place of run's, its sum updated."""
    from simkit.runner.manifest import file_entry, seal
    from simkit.runner.storage import parquet_rows

    must(sk(folder, "run", "s.toml", "--out", "other", "--seed", "2"))
    name = sorted((folder / "run" / "races").glob("*.parquet"))[0].name
    data = (folder / "other" / "races" / name).read_bytes()
    (folder / "run" / "races" / name).write_bytes(data)
    path = folder / "run" / "manifest.json"
    m = json.loads(path.read_text())
    m["files"][f"races/{name}"] = file_entry(data, parquet_rows(data))
    path.write_bytes(seal(m))


def tmpfs(size: str, script: str) -> str:
    """``script`` in a private mount namespace with a ``size`` tmpfs at ./small."""
    return (
        "mkdir -p small && unshare -m sh -c '"
        f"mount -t tmpfs -o size={size} tmpfs small || exit 99; {script}'"
        " || { rc=$?; [ $rc = 99 ] && echo 'unshare failed' >&2; exit $rc; }"
    )


SK = f"{sys.executable} -m simkit"


# --- the cases, by point of the issue --------------------------------------------------------


def cases() -> list[Case]:
    c: list[Case] = []
    add = c.append
    tune_args = ["tune", "s.toml", "--space", "space.toml", *TUNE]

    # 1. --resume on the recorded inputs
    add(
        Case(
            1,
            "track edited before resume",
            ["run", "--resume", "run"],
            "done",
            both(killed_run, lambda f: edit_track(f / "trk/mytrack.toml")),
            same_as_ref(),
            may_change=("run/",),
        )
    )
    add(
        Case(
            1,
            "resume from another folder with its own trk/mytrack.toml",
            ["run", "--resume", "../run"],
            "done",
            both(
                killed_run,
                lambda f: (f / "elsewhere/trk").mkdir(parents=True),
                lambda f: shutil.copy(f / "trk/mytrack.toml", f / "elsewhere/trk"),
                lambda f: edit_track(f / "elsewhere/trk/mytrack.toml"),
            ),
            same_as_ref(),
            may_change=("run/",),
        )
    )
    c[-1].argv = ["run", "--resume", "../run"]
    c[-1].shell = f"cd elsewhere && {SK} run --resume ../run"
    add(
        Case(
            1,
            "track deleted before resume",
            ["run", "--resume", "run"],
            "done",
            both(killed_run, lambda f: (f / "trk/mytrack.toml").unlink()),
            same_as_ref(),
            may_change=("run/",),
        )
    )
    add(
        Case(
            1,
            "race --replay after the track changed",
            ["race", "--replay", "ref", "--cell", "0", "--race", "3"],
            "done",
            both(finished("ref"), lambda f: edit_track(f / "trk/mytrack.toml")),
            says("has changed since the run started"),
        )
    )
    add(
        Case(
            1,
            "report after the track changed",
            ["report", "ref", "--out", "site"],
            "done",
            both(finished("ref"), lambda f: edit_track(f / "trk/mytrack.toml")),
            says("has changed since the run started"),
        )
    )
    add(
        Case(
            1,
            "tune --resume after the track changed",
            ["tune", "--resume", "t"],
            "done",
            both(
                lambda f: must(sk(f, *tune_args, "--out", "t")),
                lambda f: edit_track(f / "trk/mytrack.toml"),
            ),
            says("has changed since the tuning started"),
            may_change=("t/",),
            timeout=180,
        )
    )

    # 2. output paths resolved before any check
    add(
        Case(
            2,
            "--out nosuch/../u over a finished run",
            ["run", "s.toml", "--out", "nosuch/../u", "--seed", "9"],
            "refused",
            finished("u"),
        )
    )
    add(
        Case(
            2,
            "--out nosuch/../v over a user's folder",
            ["run", "s.toml", "--out", "nosuch/../v"],
            "refused",
            user_file("v/notes.txt"),
        )
    )
    add(
        Case(
            2,
            "scenario named ...toml",
            ["run", "...toml"],
            "refused",
            both(lambda f: shutil.copy(f / "s.toml", f / "...toml"), user_file("cells.parquet")),
        )
    )
    add(
        Case(
            2,
            "tune of a scenario named ...toml: into runs/tune-.., not outside runs/",
            ["tune", "...toml", "--space", "space.toml", *TUNE],
            "done",
            lambda f: shutil.copy(f / "s.toml", f / "...toml"),
            lambda f, r: None if (f / "runs" / "tune-..").is_dir() else "not in runs/tune-..",
            timeout=180,
        )
    )
    add(
        Case(
            2,
            "report --out nosuch/../site over a user's site",
            ["report", "run", "--out", "nosuch/../site"],
            "refused",
            both(finished(), user_file("site/index.html")),
        )
    )
    add(
        Case(
            2,
            "--out u/./ over a user's folder",
            ["run", "s.toml", "--out", "u/./"],
            "refused",
            user_file("u/cells.parquet"),
        )
    )

    # 3. nothing written into folders or over files that are not simkit's
    add(
        Case(
            3,
            "report into a user's site",
            ["report", "run", "--out", "site"],
            "refused",
            both(finished(), user_file("site/index.html"), user_file("site/report.md")),
        )
    )
    add(
        Case(
            3,
            "compare into a user's site",
            ["compare", "run", "run", "--out", "site"],
            "refused",
            both(finished(), user_file("site/index.html")),
        )
    )
    add(
        Case(
            3,
            "tune --report into a user's folder",
            [*tune_args, "--report", "site"],
            "refused",
            user_file("site/index.html"),
        )
    )
    add(
        Case(
            3,
            "tune --out into a user's folder",
            [*tune_args, "--out", "mine"],
            "refused",
            user_file("mine/notes.txt"),
        )
    )
    add(
        Case(
            3,
            "tune with a user's confirm/",
            [*tune_args, "--out", "t"],
            "refused",
            user_file("t/confirm/notes.txt"),
        )
    )
    add(
        Case(
            3,
            "tune --resume with a user's confirm/: refused before the search",
            ["tune", "--resume", "t"],
            "refused",
            both(
                lambda f: must(sk(f, *tune_args, "--out", "t")),
                lambda f: shutil.rmtree(f / "t" / "confirm"),
                user_file("t/confirm/notes.txt"),
            ),
            says("move them away"),
            timeout=120,
        )
    )
    add(
        Case(
            3,
            "race --png over a user's file",
            ["race", "--game", "snowtails", "--players", "2", "--png", "mine.png"],
            "refused",
            user_file("mine.png"),
        )
    )
    add(
        Case(
            3,
            "tracks show -o over a user's file",
            ["tracks", "show", "nutcracker", "-o", "mine.png"],
            "refused",
            user_file("mine.png"),
        )
    )
    add(
        Case(
            3,
            "tracks show --all -o into a user's folder",
            ["tracks", "show", "--all", "-o", "pics"],
            "refused",
            user_file("pics/a.png"),
        )
    )
    add(
        Case(
            3,
            "ladder --out into a user's folder",
            ["ladder", "snowtails", "--bots", "random,greedy", "--races", "10", "--out", "mine"],
            "refused",
            user_file("mine/notes.txt"),
        )
    )

    # 4. tune on a full disk: the line, then its remedy followed (the last command's exit)
    tune_line = " ".join(tune_args)
    for size, where, remedy, follow in [
        ("100k", "the study's creation", "then run the command again", f"{SK} {tune_line}"),
        ("200k", "the confirmation", "`simkit tune --resume small/t`", f"{SK} tune --resume"),
        ("600k", "the report", "`simkit tune --resume small/t`", f"{SK} tune --resume"),
    ]:
        follow = f"{follow} --out small/t" if "--resume" not in follow else f"{follow} small/t"
        add(
            Case(
                4,
                f"tune fills the disk in {where}; the remedy followed",
                [],
                "done",
                shell=tmpfs(
                    size,
                    f"{SK} {tune_line} --out small/t; mount -o remount,size=50m small; {follow}",
                ),
                check=says(remedy),
                timeout=300,
            )
        )

    # 5. one writer per run folder
    def second_writer(extra: list[str]) -> str:
        first = f"{SK} run s.toml --out run --races 100000 --chunk-size 2000 --threads 1"
        return (
            f"{first} >first.out 2>first.err & pid=$!; "
            "while [ ! -f run/manifest.json ]; do sleep 0.2; done; "
            f"{SK} {' '.join(extra)}; rc=$?; wait $pid; echo $? >first.rc; exit $rc"
        )

    def first_ends_well(folder: Path, res: Result) -> str | None:
        if (folder / "first.rc").read_text().strip() != "0":
            return "the first writer failed"
        m = json.loads((folder / "run" / "manifest.json").read_text())
        if m["seed"] != 1 or m["status"] != "complete":
            return "the first writer's run was replaced"
        return None

    for name, extra in [
        ("second run on the same --out", ["run", "s.toml", "--out", "run"]),
        (
            "second writer --force --seed 99",
            ["run", "s.toml", "--out", "run", "--force", "--seed", "99"],
        ),
        ("--resume while the run is written", ["run", "--resume", "run"]),
        ("ladder on the same --out", ["ladder", "snowtails", "--bots", "random,greedy",
                                      "--races", "10", "--out", "run"]),
        ("report while the run is written (a reader: allowed)", ["report", "run", "--out", "site"]),
    ]:  # fmt: skip
        add(
            Case(
                5,
                name,
                [],
                "done" if "allowed" in name else "refused",
                shell=second_writer(extra),
                may_change=("run/", "first"),
                check=first_ends_well,
                timeout=300,
            )
        )

    # 6. no input hangs, no blow-up
    add(
        Case(
            6,
            "FIFO as scenario (run)",
            ["run", "p.toml", "--out", "x"],
            "refused",
            fifo("p.toml"),
            timeout=10,
        )
    )
    add(
        Case(
            6,
            "FIFO as scenario (scenario check)",
            ["scenario", "check", "p.toml"],
            "refused",
            fifo("p.toml"),
            timeout=10,
        )
    )
    add(
        Case(
            6,
            "FIFO as manifest",
            ["run", "--resume", "run"],
            "refused",
            both(
                finished(), lambda f: (f / "run/manifest.json").unlink(), fifo("run/manifest.json")
            ),
            timeout=10,
        )
    )
    add(Case(6, "FIFO as moves state", ["moves", "p.json"], "refused", fifo("p.json"), timeout=10))
    add(
        Case(
            6,
            "FIFO as space file",
            ["tune", "s.toml", "--space", "p.toml"],
            "refused",
            fifo("p.toml"),
            timeout=10,
        )
    )
    add(
        Case(
            6,
            "FIFO as track (tracks check)",
            ["tracks", "check", "p.toml"],
            "refused",
            fifo("p.toml"),
            timeout=10,
        )
    )
    add(
        Case(
            6,
            "FIFO as track (scenario)",
            ["scenario", "check", "f.toml"],
            "refused",
            both(fifo("p.toml"), write("f.toml", 'game = "snowtails"\ntrack = "p.toml"\n')),
            timeout=10,
        )
    )
    add(
        Case(
            6, "FIFO as route", ["routes", "check", "p.toml"], "refused", fifo("p.toml"), timeout=10
        )
    )
    add(Case(6, "/dev/zero as scenario", ["scenario", "check", "/dev/zero"], "refused", timeout=10))
    bots = ",".join(["greedy", *[f"search:{i}" for i in range(1, 200)]])
    add(
        Case(
            6,
            "ladder of 200 bots",
            ["ladder", "snowtails", "--bots", bots, "--races", "10", "--out", "lad"],
            "refused",
            timeout=20,
        )
    )
    grid = list(range(100))
    add(
        Case(
            6,
            "scenario check of 10,000 derived tracks",
            ["scenario", "check", "g.toml"],
            "done",
            write(
                "g.toml",
                f'game = "snowtails"\ntrack = "nutcracker"\n[grid]\n'
                f"track.corner.1.safety = {grid}\ntrack.corner.2.safety = {grid}\n",
            ),
            timeout=60,
        )
    )

    # 7. no tracebacks
    add(
        Case(
            7,
            "space step = 1e-300",
            ["tune", "s.toml", "--space", "sp.toml"],
            "refused",
            write("sp.toml", "[hand_size]\nlow = 1\nhigh = 9\nstep = 1e-300\n"),
        )
    )
    add(
        Case(
            7,
            "--set hand_size=<5000 digits>",
            ["race", "--game", "snowtails", "--set", "hand_size=" + "9" * 5000],
            "refused",
        )
    )
    add(
        Case(
            7,
            "scenario integer of 5000 digits",
            ["scenario", "check", "d.toml"],
            "refused",
            write("d.toml", 'game = "snowtails"\nraces = ' + "9" * 5000 + "\n"),
        )
    )
    add(Case(7, "tracks show -o x.txt", ["tracks", "show", "nutcracker", "-o", "x.txt"], "refused"))
    add(Case(7, "race --png x.txt", ["race", "--game", "snowtails", "--png", "x.txt"], "refused"))
    add(Case(7, "race --png x.pdfx", ["race", "--game", "snowtails", "--png", "x.pdfx"], "refused"))

    # 8. checked before the work
    refs = "[hand_size]\nlow = 4\nhigh = 8\n" + "[[reference]]\nhand_size = 6\n" * 2
    add(
        Case(
            8,
            "repeated [[reference]]",
            ["tune", "s.toml", "--space", "sp.toml", *TUNE],
            "refused",
            write("sp.toml", refs),
            says("sp.toml"),
            timeout=30,
        )
    )
    for weight in ("1e999", "nan", "1e7", "-inf"):
        add(
            Case(
                8,
                f"--objective '{weight}*fairness'",
                [*tune_args, "--objective", f"{weight}*fairness"],
                "refused",
                timeout=30,
            )
        )
    add(
        Case(
            8,
            "space file with an unknown key",
            ["tune", "s.toml", "--space", "sp.toml"],
            "refused",
            write("sp.toml", "[no_such_rule]\nlow = 1\nhigh = 2\n"),
        )
    )

    # 9. advice that works
    add(
        Case(
            9,
            "run fills the disk before its first manifest; run again",
            [],
            "done",
            shell=tmpfs(
                "12k",
                f"cp -r trk s.toml small/; cd small; {SK} run s.toml --out r; "
                "echo rc=$? >&2; mount -o remount,size=50m .; "
                f"{SK} run s.toml --out r",
            ),
            check=says("then run again"),
        )
    )
    add(
        Case(
            9,
            "report on a full disk names the file",
            [],
            "refused",
            both(finished()),
            shell=tmpfs("200k", f"{SK} report run --out small/site"),
            check=says("small/site/"),
        )
    )
    add(
        Case(
            9,
            "deleted races/ then run --resume",
            ["run", "--resume", "run"],
            "done",
            both(finished(), lambda f: shutil.rmtree(f / "run/races")),
            may_change=("run/",),
        )
    )
    add(
        Case(
            9,
            "damaged ladder chunk: the advice names simkit ladder --resume",
            ["report", "lad"],
            "refused",
            both(
                lambda f: must(
                    sk(
                        f,
                        "ladder",
                        "snowtails",
                        "--bots",
                        "random,greedy",
                        "--races",
                        "20",
                        "--out",
                        "lad",
                    )
                ),
                lambda f: sorted((f / "lad/agg").glob("*.parquet"))[0].write_bytes(b"x"),
            ),
            says("simkit ladder --resume lad"),
        )
    )
    add(
        Case(
            9,
            "ladder --resume keeps --bootstrap",
            [],
            "done",
            shell=f"{SK} ladder snowtails --bots random,greedy --races 20 --out lad "
            f"--bootstrap 50 >a.txt && {SK} ladder --resume lad >b.txt && cmp a.txt b.txt",
            may_change=("lad/",),
        )
    )

    # 10. trust: accidents caught, forgeries documented
    add(
        Case(
            10,
            "manifest edited by hand",
            ["report", "run", "--out", "site"],
            "refused",
            both(
                finished(),
                lambda f: (f / "run/manifest.json").write_text(
                    (f / "run/manifest.json").read_text().replace('"seed": 1', '"seed": 9')
                ),
            ),
        )
    )
    add(
        Case(
            10,
            "manifest edited with recomputed sums (documented: accepted)",
            ["report", "run", "--out", "site"],
            "done",
            both(finished(), forge_manifest),
        )
    )
    add(
        Case(
            10,
            "a chunk of another run with its sum updated",
            ["report", "run", "--out", "s2"],
            "refused",
            both(finished(), swap_chunk),
        )
    )
    link = "[x](javascript:alert(1))"
    add(
        Case(
            10,
            "markdown javascript: link in a title",
            ["report", "run", "--out", "site"],
            "done",
            both(
                write("s2.toml", SCENARIO.replace("game", f'title = "{link}"\ngame', 1)),
                finished("run", "s2.toml"),
            ),
            lambda f, r: (
                "the link is live"
                if "](javascript:" in (f / "site/report.md").read_text()
                else None
            ),
        )
    )
    add(
        Case(
            10,
            "HTML in a title",
            ["report", "run", "--out", "site"],
            "done",
            both(
                write("s2.toml", SCENARIO.replace("game", 'title = "<script>x</script>"\ngame', 1)),
                finished("run", "s2.toml"),
            ),
            lambda f, r: (
                "raw <script>" if "<script>x" in (f / "site/index.html").read_text() else None
            ),
        )
    )
    return c


# --- the table ---------------------------------------------------------------------------------


def table(rows: list[Row]) -> str:
    lines = [
        "| # | case | expected | outcome | as expected | s | says |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        note = r.note.replace("|", "\\|")[:140]
        lines.append(
            f"| {r.case.point} | {r.case.name} | {r.case.expect} | {r.outcome} | "
            f"{'yes' if r.ok else '**no**'} | {r.seconds:.1f} | {note} |"
        )
    return "\n".join(lines)


def by_point(rows: list[Row]) -> str:
    """Outcomes counted per point of the issue."""
    kinds = ("refused", "done", "traceback", "hang", "file lost", "other")
    lines = ["| point | cases | " + " | ".join(kinds) + " | as expected |"]
    lines.append("|---" * (len(kinds) + 3) + "|")
    for point in sorted({r.case.point for r in rows}):
        mine = [r for r in rows if r.case.point == point]
        n = [str(sum(r.outcome == k for r in mine)) for k in kinds]
        ok = sum(r.ok for r in mine)
        lines.append(f"| {point} | {len(mine)} | " + " | ".join(n) + f" | {ok} |")
    return "\n".join(lines)


def counts(rows: list[Row]) -> str:
    n = {
        k: sum(r.outcome == k for r in rows)
        for k in (
            "refused",
            "done",
            "traceback",
            "hang",
            "file lost",
            "other",
            "skipped",
            "setup failed",
        )
    }
    bad = sum(not r.ok for r in rows)
    parts = ", ".join(f"{v} {k}" for k, v in n.items() if v)
    return f"{len(rows)} cases: {parts}; {bad} not as expected"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", type=int, action="append", help="only the cases of this point")
    ap.add_argument("--md", type=Path, help="also write the table to this Markdown file")
    ap.add_argument("--keep", type=Path, help="play the cases in this folder and keep it")
    args = ap.parse_args(argv)
    base = args.keep or Path(tempfile.mkdtemp(prefix="simkit-attacks-"))
    rows = []
    for i, case in enumerate(cases()):
        if args.only and case.point not in args.only:
            continue
        row = play(case, base / f"{i:02d}")
        rows.append(row)
        print(
            f"{case.point:>2} {row.outcome:<12} {'ok ' if row.ok else 'NO '} "
            f"{row.seconds:5.1f}s  {case.name}: {row.note[:100]}",
            flush=True,
        )
    text = f"{table(rows)}\n\n{by_point(rows)}\n\n{counts(rows)}\n"
    print()
    print(text)
    if args.md:
        args.md.write_text(text)
    if args.keep is None:
        shutil.rmtree(base, ignore_errors=True)
    bad = [r for r in rows if r.outcome in ("traceback", "hang", "file lost") or not r.ok]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
