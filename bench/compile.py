"""Cold compile: what a first run costs with an empty numba cache.

Two measurements, each in fresh interpreters with a fresh ``NUMBA_CACHE_DIR``:

- **each game** (``make bench``): CPU seconds of one ``simulate`` of the game's bench cell
  (a few races). Budget: 20 s each.
- **the demo** (``python -m bench.compile demo``): the steps of ``make demo`` as a user
  meets them on a fresh clone (``simkit tracks show --all``, ``simkit run
  scenarios/demo.toml``, ``simkit report``), wall and CPU seconds each, then ``simkit run``
  once more from a second process on the cache the first one filled (what a warm start
  costs, and a check that the cache hits: it should compile nothing). Budget: the run's
  CPU 20 s, the whole 90 s of wall on 2 cores.

In every ``simkit`` step numba's compile events are recorded (``numba.core.event``): the
CPU seconds each jitted function took to compile, less the functions it compiled inside
(type inference compiles a callee when it first meets it), and how many specialisations
(argument types) of it were compiled. simkit's kernels are linked once into the kernel
Python calls (``simkit/_numba_link.py``), so a cached entry's own figure holds the
optimisation and emission of everything beneath it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from simkit.games.base import Game

_ROOT = Path(__file__).resolve().parent.parent
DEMO = "scenarios/demo.toml"
TOP = 25  # kernels listed in the demo's table

_CHILD = """
import json, sys
import numpy as np
import simkit
assert sys.argv[3] == "" or simkit.__file__.startswith(sys.argv[3]), (simkit.__file__, sys.argv[3])
from simkit.games import get
from simkit.games.cells import build_cell
from simkit.rng import race_keys
game, kwargs = sys.argv[1], json.loads(sys.argv[2])
get(game).simulate(build_cell(game, **kwargs), race_keys(1, 0, np.arange(4)), threads=1)
"""


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cold_seconds(game: str, cell: dict, tree: Path | None = None) -> float:
    """User + system CPU seconds of one cold ``simulate`` of ``cell`` of ``game``, with the
    ``simkit`` of ``tree`` when given (``PYTHONPATH``, and run from ``tree``: ``python -c``
    puts the working directory first on the path, where a checkout's own ``simkit`` would
    win; the child checks which one it imported)."""
    before = _children_cpu()
    env = {**os.environ, **({"PYTHONPATH": str(tree)} if tree else {})}
    with tempfile.TemporaryDirectory(prefix="simkit-cold-") as cache:
        subprocess.run(
            [sys.executable, "-c", _CHILD, game, json.dumps(cell), str(tree or "")],
            env={**env, "NUMBA_CACHE_DIR": cache},
            cwd=tree,
            check=True,
            capture_output=True,
        )
    return _children_cpu() - before


def main(games: list[Game]) -> None:
    print("cold compile, empty numba cache, one simulate of 4 races (budget 20 s of CPU each):")
    for game in games:
        print(
            f"  {game.name}: {cold_seconds(game.name, dict(game.extras.bench.cell)):6.1f} s of CPU"
        )


# -- the demo ---------------------------------------------------------------------------


def record_compiles(out: str) -> None:
    """In a ``simkit`` process: record every numba compile into ``out`` (JSON) at exit.

    Rows: function, specialisation (argument types), CPU seconds of its own compile (less
    the compiles nested in it), and the process's CPU seconds in LLVM (numba's llvm lock).
    """
    import atexit

    import numba.core.event as ev

    rows: list[dict] = []
    stack: list[list[float]] = []  # [start, nested] per open compile
    llvm = [0.0, 0.0]  # total, start

    class Compiles(ev.Listener):
        def on_start(self, event) -> None:
            stack.append([time.process_time(), 0.0])

        def on_end(self, event) -> None:
            start, nested = stack.pop()
            spent = time.process_time() - start
            if stack:
                stack[-1][1] += spent
            d = event.data
            f = d["dispatcher"].py_func
            rows.append(
                {
                    "function": f"{f.__module__}.{f.__qualname__}",
                    "args": ", ".join(map(str, d["args"])),
                    "cpu": spent - nested,
                }
            )

    class Llvm(ev.Listener):
        def on_start(self, event) -> None:
            llvm[1] = time.process_time()

        def on_end(self, event) -> None:
            llvm[0] += time.process_time() - llvm[1]

    ev.register("numba:compile", Compiles())
    ev.register("numba:llvm_lock", Llvm())

    def dump() -> None:
        Path(out).write_text(json.dumps({"compiles": rows, "llvm": llvm[0]}))

    atexit.register(dump)


def _simkit_step(args: list[str], cache: str, record: str | None) -> dict:
    """Run ``simkit ARGS`` in a fresh interpreter on ``cache``: wall, CPU, its compiles."""
    hook = f"from bench.compile import record_compiles; record_compiles({record!r})\n"
    code = (
        "import sys\n" + (hook if record else "") + "sys.argv = ['simkit', *sys.argv[1:]]\n"
        "from simkit._entry import main\n"
        "main()\n"
    )
    before, start = _children_cpu(), time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(_ROOT)},
        cwd=_ROOT,
        capture_output=True,
        text=True,
    )
    wall, cpu = time.perf_counter() - start, _children_cpu() - before
    if proc.returncode != 0:
        sys.exit(f"bench.compile: simkit {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    recorded = json.loads(Path(record).read_text()) if record else {"compiles": [], "llvm": 0.0}
    return {"args": args, "wall": wall, "cpu": cpu, **recorded}


def kernel_table(compiles: list[dict], top: int = TOP) -> list[tuple[str, float, int, int]]:
    """Functions by compile CPU: (function, seconds, specialisations, compiles), largest first."""
    seconds: dict[str, float] = defaultdict(float)
    sigs: dict[str, set] = defaultdict(set)
    count: dict[str, int] = defaultdict(int)
    for row in compiles:
        seconds[row["function"]] += row["cpu"]
        sigs[row["function"]].add(row["args"])
        count[row["function"]] += 1
    rows = sorted(seconds, key=lambda f: -seconds[f])
    return [(f, seconds[f], len(sigs[f]), count[f]) for f in rows[:top]]


def demo(tracks: bool = True, warm: bool = True) -> dict:
    """The demo's steps as ``make demo`` plays them, on a fresh cache; prints and returns them."""
    steps = []
    with tempfile.TemporaryDirectory(prefix="simkit-demo-") as tmp:
        cache, out = f"{tmp}/numba", f"{tmp}/demo"
        plan = []
        if tracks:
            plan.append(("tracks show --all", ["tracks", "show", "--all", "-o", f"{tmp}/tracks"]))
        plan.append(("run (empty cache)", ["run", DEMO, "--out", out, "--force"]))
        plan.append(("report", ["report", out, "-o", f"{tmp}/report"]))
        if warm:
            plan.append(("run again (warm cache)", ["run", DEMO, "--out", f"{out}2", "--force"]))
        for i, (name, args) in enumerate(plan):
            step = _simkit_step(args, cache, f"{tmp}/compiles{i}.json")
            step["name"] = name
            steps.append(step)
            print(
                f"  {name:24s} {step['wall']:6.1f} s wall {step['cpu']:6.1f} s CPU"
                f"  ({len(step['compiles'])} compiles,"
                f" {sum(r['cpu'] for r in step['compiles']):.1f} s of CPU in them)",
                flush=True,
            )
    made = [s for s in steps if not s["name"].startswith("run again")]
    print(
        f"  make demo's steps: {sum(s['wall'] for s in made):.1f} s wall,"
        f" {sum(s['cpu'] for s in made):.1f} s CPU (budget: 90 s wall; the run 20 s CPU)"
    )
    run = next(s for s in steps if s["name"].startswith("run (empty"))
    print(f"  the run's compiles by function (CPU s, LLVM {run['llvm']:.1f} s of them):")
    print(f"    {'seconds':>7s} {'specs':>5s} {'compiles':>8s}  function")
    for f, sec, nsig, n in kernel_table(run["compiles"]):
        print(f"    {sec:7.2f} {nsig:5d} {n:8d}  {f}")
    many = [
        (f, n)
        for f, _, n, _ in kernel_table(run["compiles"], top=10**6)
        if n > 1 and not f.startswith("numba.")
    ]
    print(
        "  simkit functions compiled for more than one specialisation: "
        + (", ".join(f"{f} ({n})" for f, n in many) or "none")
    )
    for row in (r for r in run["compiles"] if r["function"] in dict(many)):
        print(f"    {row['function']}({row['args']})")
    return {"steps": steps}


def _cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.compile", description=__doc__)
    parser.add_argument(
        "what", nargs="?", default="all", choices=("all", "games", "demo"), help="what to measure"
    )
    parser.add_argument("--no-tracks", action="store_true", help="leave out `tracks show`")
    parser.add_argument("--no-warm", action="store_true", help="leave out the warm second run")
    parser.add_argument("--json", help="also write the demo's steps and compiles here")
    a = parser.parse_args(argv)
    if a.what in ("all", "games"):
        from simkit.games import games

        main([g for g in games() if g.extras.bench is not None])
    if a.what in ("all", "demo"):
        print(f"make demo's steps, fresh numba cache (load {os.getloadavg()[0]:.1f}):")
        result = demo(tracks=not a.no_tracks, warm=not a.no_warm)
        if a.json:
            Path(a.json).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(_cli(sys.argv[1:]))
