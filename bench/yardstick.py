"""Snow Tails end to end against the speed yardstick, measured in the same run.

The yardstick (``../shared/yardstick``, or ``SIMKIT_YARDSTICK``: a lean numba race kept
outside the project) gives the speed a simple kernel reaches on the machine at hand;
machines here differ by up to 1.6x from day to day, so simkit's target is a share of it:
``simkit run`` of the demo's first cell (4 greedy sleds on The Nutcracker, ``STUDY``)
``--races N --threads 2``, timed whole (interpreter start, warm cache, tables written),
at >= 60% of the yardstick's two-thread ``prange`` rate (issue 38; 40% before). The two
alternate, one run each a round, three rounds, and the share is the median of the rounds'
own: timed one after the other (three of each), a change of load on this shared machine
between them moved the share from 50% to 92% within the hour.
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
ROUNDS = 3
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
    """The yardstick's two-thread ``prange`` races/s, one run (its README's command)."""
    out = subprocess.run(
        [sys.executable, "bench_nb.py", str(RACES), "1"],
        cwd=path,
        env={**os.environ, "NUMBA_NUM_THREADS": "2"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(re.search(r"prange:.*median (\d+)", out).group(1))


def _simkit_rate(tmp: str, i: int) -> float:
    """End-to-end races/s of one ``simkit run`` of ``STUDY`` at two threads (warm)."""
    simkit = Path(sys.executable).with_name("simkit")
    cmd = [str(simkit), "run", f"{tmp}/yardstick.toml", "--races", str(RACES), "--threads", "2"]
    cmd += ["--out", f"{tmp}/run{i}"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return RACES / (time.perf_counter() - t0)


def main() -> None:
    path = _yardstick()
    if path is None:
        print("yardstick: not found (set SIMKIT_YARDSTICK to its folder); skipped")
        return
    yard, mine = [], []
    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        Path(f"{tmp}/yardstick.toml").write_text(STUDY)
        simkit = Path(sys.executable).with_name("simkit")
        warm = [str(simkit), "run", f"{tmp}/yardstick.toml", "--races", "100"]
        subprocess.run([*warm, "--out", f"{tmp}/warm"], check=True, capture_output=True)
        for i in range(ROUNDS):  # interleaved: a change of load falls on both alike
            yard.append(_yardstick_rate(path))
            mine.append(_simkit_rate(tmp, i))
    shares = [m / y for m, y in zip(mine, yard, strict=True)]
    print(f"yardstick: {RACES:,} races, 2 threads, {ROUNDS} interleaved rounds")
    print(f"  yardstick prange: {statistics.median(yard):10,.0f} races/s (median)")
    print(
        f"  simkit run (4 greedy, nutcracker) --threads 2, end to end: "
        f"{statistics.median(mine):10,.0f} races/s (median)"
    )
    print(
        f"  share of the yardstick: {statistics.median(shares):.0%} (median of the rounds'"
        f" shares, {min(shares):.0%} to {max(shares):.0%}; target >= 60%)"
    )
