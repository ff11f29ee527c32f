"""``simkit serve``'s time to an answer, warm (issue 36 item 4: a ±1 pp verdict for 4
greedy:tuned sleds on The Nutcracker within 10 s on 2 cores).

Each change is played as the page plays it (:class:`simkit.serve.pages.Pages`, rounds of
2,000 races a cell through the runner, the answer after every round) from the moment it is
made until the page's answer is decided, at tolerance ±1 pp. The kernels are compiled and
the modules imported by a first, untimed change. Then a question that cannot decide,
played to 40,000 races a cell: what a long question costs. Then the stopping rule's error rate under
repeated looks, simulated (:func:`simkit.serve.sequential.simulated_error`; the test holds
it to 5%).

    python -m bench.serve            # make bench runs it last
"""

from __future__ import annotations

import statistics
import tempfile
import time
import tomllib
from dataclasses import replace
from pathlib import Path

import numba

DEMO = Path(__file__).resolve().parents[1] / "scenarios" / "demo.toml"
CHANGES = ("track.corner.1.safety = 4", "track.corner.2.safety = 4", "hand_size = 6")
REPEATS = 3
LONG = 40_000  # races a cell of the long question


def _time_to_answer(pages, page, setting) -> tuple[float, int, str]:
    pages.play(page, setting)
    t0 = time.perf_counter()
    while page.status in ("queued", "playing"):
        time.sleep(0.01)
    verdicts = "/".join(c["verdict"] for c in (page.answer or {}).get("cells", []))
    return time.perf_counter() - t0, page.races, f"{page.status}: {verdicts}"


def main() -> None:
    from simkit.serve.pages import Pages
    from simkit.serve.sequential import simulated_error
    from simkit.serve.study import Setting, base_of, with_inputs

    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    base = Setting(base_of(tomllib.loads(DEMO.read_text())))
    print(
        f"serve: time from a change to a ±1 pp answer, 4 greedy:tuned sleds on The Nutcracker, "
        f"{threads} threads, warm (rounds of {base.races_per_round:,} races a cell)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        pages = Pages(Path(tmp), base, threads=threads)
        try:
            page = pages.new()
            warm = with_inputs(base, change="hand_size = 5", skill="greedy:tuned", tolerance=0.01)
            _time_to_answer(pages, page, warm)
            for change in CHANGES:
                setting = with_inputs(base, change=change, skill="greedy:tuned", tolerance=0.01)
                runs = [_time_to_answer(pages, page, setting) for _ in range(REPEATS)]
                secs = statistics.median(r[0] for r in runs)
                print(
                    f"  {change:28s} median {secs:5.1f} s of {REPEATS} "
                    f"({runs[0][1]:,} races a cell; {runs[0][2]})"
                )
            # A question that cannot decide (A's slot 1, about 33%, sits on the edge of a
            # ±7.8 pp band): what LONG races a cell cost, reading and answering included.
            long = with_inputs(base, change=CHANGES[-1], skill="greedy:tuned", tolerance=0.078)
            long = replace(long, max_races=LONG)
            secs, races, said = _time_to_answer(pages, page, long)
            print(
                f"  {races:,} races a cell of an undecidable question: {secs:5.1f} s ({said}; "
                f"{2 * races / secs:,.0f} races/s of A and B, answers included)"
            )
        finally:
            pages.close()
    for p in (0.25, 0.5):
        rate = simulated_error(p)
        print(
            f"  stopping rule: missed a win rate of {p:g} at some look in {rate:.2%} of "
            "2,000 simulated streams (looks every 200 races to 20,000; nominal 5%)"
        )


if __name__ == "__main__":
    main()
