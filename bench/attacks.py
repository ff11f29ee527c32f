"""The attack table (issues 26 and 37), replayed: the cases are data (``bench/attacks.toml``),
this is the runner. Every case is a command line run in its own process, in its own folder,
under a timeout, and its outcome classified.

    python -m bench.attacks [--only CATEGORY] [--fast] [--md FILE] [--docs FILE] [--keep DIR]

Outcomes: ``refused`` (exit 1, 2 or 130 with exactly one ``Error:`` line, the last on
stderr), ``done`` (exit 0), ``traceback`` (a Python traceback on stderr, also from a command
a signal stopped), ``hang`` (the timeout ran out: killed), ``file lost`` (a file that existed
before the command, other than those the case lets it change, changed or vanished: the
user's ``home/`` beside every case, which links point into, and the installed package
itself), ``other`` (any other exit). A case also states what it should end in and may check
more (``bench/attacks_steps.py``); one that ends otherwise is not as expected. A case marked
``mix`` is a resume that must not mix inputs or code: not as expected, it counts as one.

``make attacks`` runs every case and writes the table into docs/reliability.md (``--docs``);
``make test`` runs the ``fast`` ones (tests/test_attacks.py). The full-disk cases mount a
small tmpfs in a private mount namespace (``unshare -m``, root); elsewhere they are skipped.
Cases that edit simkit's own files do so in a copy of the package, made once per session.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import attacks_steps as steps

DATA = Path(__file__).with_name("attacks.toml")
KINDS = ("refused", "done", "traceback", "hang", "file lost", "other", "skipped", "setup failed")
LOCK = ".simkit-lock"  # every writer, refused or not, stamps its pid there
SK = f"{sys.executable} -m simkit"
TUNE = ["--budget", "200", "--min-races", "10", "--max-races", "20", "--confirm", "40"]
TUNE += ["--top", "1"]
BEGIN = "<!-- BEGIN ATTACKS (make attacks) -->"
END = "<!-- END ATTACKS -->"
# Values too long to write out in the data file, named there in braces.
WORDS = {
    "{BOTS200}": ",".join(["greedy", *[f"search:{i}" for i in range(1, 200)]]),
    "{DIGITS5000}": "9" * 5000,
    "{GRID100}": str(list(range(100))),
}


@dataclass
class Case:
    category: str
    name: str
    expect: str  # "refused" or "done"
    run: list[str] = field(default_factory=list)  # simkit's arguments
    shell: str | None = None  # or a shell script ({SK} is simkit)
    setup: list[list[Any]] = field(default_factory=list)
    check: list[list[Any]] = field(default_factory=list)
    may_change: list[str] = field(default_factory=list)  # path prefixes it may write
    timeout: float = 60.0
    fast: bool = False  # in make test's subset
    mix: bool = False  # a resume that must not mix inputs or code
    package: bool = False  # commands run a copy of the package the case may edit
    server: str | None = None  # a non-Dask server on 127.0.0.1 ({port})
    signal: str | None = None  # INT, TERM, HUP: sent to the command ...
    at: float | str = 0.0  # ... after these seconds, or once this file exists
    then: list[str] = field(default_factory=list)  # and then this command is the case's
    tmpfs: str | None = None  # the shell script runs with a tmpfs of this size at ./small
    beside: list[str] = field(default_factory=list)  # a writer running while the case runs
    wait: str = "run/manifest.json"  # ... which has written this file first


@dataclass
class Row:
    case: Case
    outcome: str
    ok: bool
    seconds: float
    note: str = ""


def load(path: Path = DATA) -> list[Case]:
    """The cases of the data file, placeholders expanded."""
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    return [Case(**{k: _expand(v) for k, v in entry.items()}) for entry in data["case"]]


def _expand(value: Any) -> Any:
    if isinstance(value, str):
        for word, text in WORDS.items():
            value = value.replace(word, text)
        return value.replace("{SK}", SK).replace("{TUNE}", " ".join(TUNE))
    if isinstance(value, list):
        out: list[Any] = []
        for v in value:
            out += TUNE if v == "{TUNE}" else [_expand(v)]
        return out
    return value


# --- playing a case ------------------------------------------------------------------------------


def _package(base: Path) -> Path:
    """A copy of the simkit package for the cases that edit it (made once, reused)."""
    root = base / "package"
    if not root.exists():
        skip = shutil.ignore_patterns("__pycache__")
        shutil.copytree(steps.ROOT / "simkit", root / "simkit", ignore=skip)
    return root


def _snapshot(folder: Path) -> dict[str, str]:
    """sha256 of every regular file under ``folder`` (FIFOs, devices, links are not read;
    nor Python's own byte-code caches)."""
    out = {}
    for p in folder.rglob("*"):
        if p.is_file() and not p.is_symlink() and "__pycache__" not in p.parts:
            out[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def classify(res: steps.Result, lost: list[str]) -> str:
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
    if res.rc in (1, 2, 130) and len(errors) == 1 and lines[-1].startswith("Error: "):
        return "refused"
    return "other"


def _tmpfs(size: str, script: str) -> str:
    """``script`` in a private mount namespace with a ``size`` tmpfs at ./small."""
    return (
        "mkdir -p small && unshare -m sh -c '"
        f"mount -t tmpfs -o size={size} tmpfs small || exit 99; {script}'"
        " || { rc=$?; [ $rc = 99 ] && echo 'unshare failed' >&2; exit $rc; }"
    )


def _beside(case: Case) -> str:
    """The case's command while another writer (``beside``) runs into the same folder."""
    first = " ".join([SK, *case.beside])
    return (
        f"{first} >first.out 2>first.err & pid=$!; "
        f"while [ ! -f {case.wait} ] && kill -0 $pid 2>/dev/null; do sleep 0.2; done; "
        f"{' '.join([SK, *case.run])}; rc=$?; wait $pid; echo $? >first.rc; exit $rc"
    )


def _command(case: Case, ctx: steps.Ctx) -> steps.Result:
    """Run the case's command (or script); a signal case's follow-up is its result."""
    args = [a.replace("{port}", str(ctx.port)) for a in case.run]
    if case.beside:
        return steps.run(["sh", "-c", _beside(case)], ctx.folder, ctx.env, case.timeout)
    if case.shell is not None:
        script = _tmpfs(case.tmpfs, case.shell) if case.tmpfs else case.shell
        return steps.run(["sh", "-c", script], ctx.folder, ctx.env, case.timeout)
    if case.signal is None:
        return steps.simkit(ctx, *args, timeout=case.timeout)
    ctx.first = steps.simkit(ctx, *args, timeout=case.timeout, signal_at=(case.signal, case.at))
    return steps.simkit(ctx, *case.then, timeout=case.timeout) if case.then else ctx.first


def play(case: Case, folder: Path, base: Path) -> Row:
    steps.lay_out(folder)
    ctx = steps.Ctx(folder, steps.environment(_package(base) if case.package else None))
    stop = None
    if case.server:
        ctx.port, stop = steps.serve(case.server)
    try:
        try:
            for name, *args in case.setup:
                steps.STEPS[name](ctx, *args)
        except Exception as exc:  # a setup that fails is reported, not hidden
            return Row(case, "setup failed", False, 0.0, f"{type(exc).__name__}: {exc}")
        before = _snapshot(folder)
        package = _snapshot(steps.ROOT / "simkit")  # the installed package, as the command finds it
        res = _command(case, ctx)
        return _judge(case, ctx, res, before, package)
    finally:
        if stop:
            stop()
        for path, data in ctx.edited.items():
            path.write_bytes(data)


def _judge(
    case: Case, ctx: steps.Ctx, res: steps.Result, before: dict[str, str], package: dict[str, str]
) -> Row:
    after = _snapshot(ctx.folder)
    lost = [
        p
        for p, sha in before.items()
        if after.get(p) != sha
        and not any(p.startswith(m) for m in case.may_change)
        and Path(p).name != LOCK
    ]
    if _snapshot(steps.ROOT / "simkit") != package:
        lost.append("the installed simkit package")
    outcome = classify(res, lost)
    if ctx.first is not None and outcome != "hang" and "Traceback (most recent" in ctx.first.stderr:
        outcome = "traceback"
    if res.rc is not None and "unshare failed" in res.stderr:
        return Row(case, "skipped", True, res.seconds, "no private mount namespace here")
    problem = None
    if outcome in ("done", "refused"):
        for name, *args in case.check:
            problem = problem or steps.CHECKS[name](ctx, res, *args)
    ok = outcome == case.expect and problem is None
    error = next((x for x in res.stderr.splitlines() if x.startswith("Error: ")), "")
    note = problem or (f"lost: {', '.join(lost)}" if lost else error[7:])
    if outcome in ("traceback", "other"):
        text = (ctx.first.stderr if ctx.first and outcome == "traceback" else res.stderr).strip()
        note = text.splitlines()[-1] if text else f"exit {res.rc}"
    note = re.sub(r"pid \d+ on \S+\)", "pid N on HOST)", note.replace(f"{ctx.folder}/", ""))
    return Row(case, outcome, ok, res.seconds, note)


# --- the tables -------------------------------------------------------------------------------


def table(rows: list[Row], seconds: bool = True) -> str:
    head = "| category | case | expected | outcome | as expected |" + (" s |" if seconds else "")
    lines = [head + " says |", "|---" * (6 + seconds) + "|"]
    for r in rows:
        note = r.note.replace("|", "\\|")[:140]
        s = f" {r.seconds:.1f} |" if seconds else ""
        yes = "yes" if r.ok else "**no**"
        lines.append(
            f"| {r.case.category} | {r.case.name} | {r.case.expect} | {r.outcome} | {yes} |{s}"
            f" {note} |"
        )
    return "\n".join(lines)


def by_category(rows: list[Row]) -> str:
    """Outcomes counted per category, in the data file's order."""
    lines = ["| category | cases | " + " | ".join(KINDS[:6]) + " | as expected |"]
    lines.append("|---" * (len(KINDS[:6]) + 3) + "|")
    for cat in dict.fromkeys(r.case.category for r in rows):
        mine = [r for r in rows if r.case.category == cat]
        n = [str(sum(r.outcome == k for r in mine)) for k in KINDS[:6]]
        ok = sum(r.ok for r in mine)
        lines.append(f"| {cat} | {len(mine)} | " + " | ".join(n) + f" | {ok} |")
    return "\n".join(lines)


def counts(rows: list[Row]) -> str:
    """The one line the issue's "done when" reads."""
    n = {k: sum(r.outcome == k for r in rows) for k in KINDS}
    mixed = sum(r.case.mix and not r.ok for r in rows)
    bad = sum(not r.ok for r in rows)
    return (
        f"{len(rows)} cases: {n['traceback']} tracebacks, {n['hang']} hangs, "
        f"{n['file lost']} files outside the given folder touched, {mixed} resumes that mix "
        f"inputs; {n['refused']} refused, {n['done']} done"
        + (f", {n['skipped']} skipped" if n["skipped"] else "")
        + (f", {n['setup failed']} setups failed" if n["setup failed"] else "")
        + f"; {len(rows) - bad} of {len(rows)} as expected"
    )


def rewrite_docs(path: Path, rows: list[Row]) -> None:
    """Replace the generated part of ``path`` (between :data:`BEGIN` and :data:`END`)."""
    text = path.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    body = f"**{counts(rows)}.**\n\n{by_category(rows)}\n\n{table(rows, seconds=False)}\n"
    path.write_text(f"{head}{BEGIN}\n\n{body}\n{END}{tail}")


# --- the command ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", help="only the cases of this category")
    ap.add_argument("--fast", action="store_true", help="only the fast cases (make test's)")
    ap.add_argument("--md", type=Path, help="also write the tables to this Markdown file")
    ap.add_argument("--docs", type=Path, help="rewrite the generated table of this file")
    ap.add_argument("--keep", type=Path, help="play the cases in this folder and keep it")
    args = ap.parse_args(argv)
    cases = [
        c
        for c in load()
        if (not args.only or c.category in args.only) and (c.fast or not args.fast)
    ]
    base = args.keep or Path(tempfile.mkdtemp(prefix="simkit-attacks-"))
    rows = []
    for i, case in enumerate(cases):
        row = play(case, base / f"{i:03d}", base)
        rows.append(row)
        print(
            f"{case.category:>10} {row.outcome:<12} {'ok ' if row.ok else 'NO '} "
            f"{row.seconds:5.1f}s  {case.name}: {row.note[:100]}",
            flush=True,
        )
    text = f"{by_category(rows)}\n\n{table(rows)}\n\n{counts(rows)}\n"
    print(f"\n{text}")
    if args.md:
        args.md.write_text(text)
    if args.docs:
        rewrite_docs(args.docs, rows)
    if args.keep is None:
        shutil.rmtree(base, ignore_errors=True)
    return 1 if any(not r.ok for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
