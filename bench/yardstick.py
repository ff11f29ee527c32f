"""Snow Tails end to end against the speed yardstick, measured in the same run.

The yardstick (``../shared/yardstick``, or ``SIMKIT_YARDSTICK``: a lean numba race kept
outside the project) gives the speed a simple kernel reaches on the machine at hand;
machines here differ by up to 1.6x from day to day, so simkit's target is a share of it:
``simkit run`` of the demo's first cell (4 greedy sleds on The Nutcracker, ``STUDY``)
``--races N --threads 2``, timed whole (interpreter start, warm cache, tables written;
the median of three runs, as the yardstick's figure is), at >= 40% of the yardstick's
two-thread ``prange`` rate.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RACES = int(os.environ.get("SIMKIT_BENCH_YARDSTICK_RACES", "200000"))
ROOT = Path(__file__).resolve().parents[1]
# The demo's greedy cell alone (scenarios/demo.toml adds a greedy:tuned cell), so the
# yardstick's workload stays the one it was set on.
STUDY = """title = "yardstick: 4 greedy bots on The Nutcracker"
game = "snowtails"
preset = "snowtails"
track = "nutcracker"
players = 4
bots = "greedy"
seed = 1
"""


def _yardstick() -> Path | None:
    path = Path(os.environ.get("SIMKIT_YARDSTICK", ROOT.parent / "shared" / "yardstick"))
    return path if (path / "bench_nb.py").exists() else None


def _yardstick_rate(path: Path) -> float:
    """The yardstick's median two-thread ``prange`` races/s (its README's command)."""
    out = subprocess.run(
        [sys.executable, "bench_nb.py", str(RACES), "3"],
        cwd=path,
        env={**os.environ, "NUMBA_NUM_THREADS": "2"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(re.search(r"prange:.*median (\d+)", out).group(1))


def _simkit_rate(runs: int = 3) -> float:
    """End-to-end races/s of ``simkit run`` on ``STUDY`` at two threads (warm): the
    median of ``runs`` runs, as the yardstick's own figure is the median of its three."""
    simkit = Path(sys.executable).with_name("simkit")
    rates = []
    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        demo = f"{tmp}/yardstick.toml"
        Path(demo).write_text(STUDY)
        warm = [str(simkit), "run", demo, "--races", "100", "--out", f"{tmp}/warm"]
        subprocess.run(warm, check=True, capture_output=True)  # fills numba's cache
        for i in range(runs):
            cmd = [str(simkit), "run", demo, "--races", str(RACES), "--threads", "2"]
            cmd += ["--out", f"{tmp}/run{i}"]
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            rates.append(RACES / (time.perf_counter() - t0))
    return statistics.median(rates)


def main() -> None:
    path = _yardstick()
    if path is None:
        print("yardstick: not found (set SIMKIT_YARDSTICK to its folder); skipped")
        return
    yard = _yardstick_rate(path)
    mine = _simkit_rate()
    print(f"yardstick: {RACES:,} races, 2 threads")
    print(f"  yardstick prange: {yard:10,.0f} races/s")
    print(
        f"  simkit run (4 greedy, nutcracker) --threads 2, end to end: {mine:10,.0f} races/s"
        " (median of 3)"
    )
    print(f"  share of the yardstick: {mine / yard:.0%} (target >= 40%)")
