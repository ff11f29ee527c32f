"""Where a game's races spend their time, by jitted function: ``perf`` with numba's symbols.

    make profile GAME=snowtails RACES=20000    (python -m bench.perf GAME RACES; Linux perf)
    make profile GAME=snowtails RACES=2000 CELL='{"bots": "search:8", "players": 2}'

perf cannot name numba's machine code by itself. This runs ``GAME.simulate`` of ``RACES``
races at one thread under ``perf record``, recording only the timed run (not the compile
before it), then writes ``/tmp/perf-PID.map``: every function of every simkit kernel, with
its address and size read from the object code numba emitted (an empty numba cache, so
every kernel is compiled in this process), and numba's ``NRT_incref``/``NRT_decref``.
It prints the functions with the most samples and the share in reference counting
(the issue 12 target: under 5%), and keeps ``perf.data`` for ``perf report`` or
``perf annotate``. Each sample also keeps 1 KB of stack (``--call-graph dwarf``): the
return address on top of it tells which kernel called a reference count, see
``docs/positions.md`` "Snow Tails: where a race's time goes".
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

NRT = ("NRT_incref", "NRT_decref")


def _child(game_name: str, races: int, ctl: str, ack: str, over: str) -> None:
    import numpy as np

    from simkit.games import get
    from simkit.games.cells import build_cell
    from simkit.rng import race_keys

    game = get(game_name)
    cell = build_cell(
        game_name, **{**(game.extras.bench.cell if game.extras.bench else {}), **json.loads(over)}
    )
    game.simulate(cell, race_keys(1, 0, np.arange(8)), threads=1)  # compile, unrecorded

    def control(command: str) -> None:
        with open(ctl, "w") as f:
            f.write(command + "\n")
        with open(ack) as f:
            f.readline()

    control("enable")
    game.simulate(cell, race_keys(1, 0, np.arange(races)), threads=1)
    control("disable")
    _write_map(Path(f"/tmp/perf-{os.getpid()}.map"))


def _write_map(path: Path) -> None:
    """Every simkit kernel's functions (from each emitted object) and numba's NRT_* calls."""
    from numba.core.registry import CPUDispatcher
    from numba.core.runtime import rtsys

    rows: set[tuple[int, int, str]] = set()
    for name in NRT:
        rows.add((rtsys.library.get_pointer_to_function(name), 16, name))
    seen: set[int] = set()
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("simkit"):
            continue
        for value in list(vars(module).values()):
            if not isinstance(value, CPUDispatcher):
                continue
            for cres in value.overloads.values():
                lib = cres.library
                obj = getattr(lib, "_compiled_object", None)
                if id(lib) in seen or not obj:
                    continue
                seen.add(id(lib))
                rows |= _symbols(obj, lib, cres.fndesc.mangled_name)
    path.write_text("".join(f"{a:x} {s:x} {n}\n" for a, s, n in sorted(rows)))


def _symbols(obj: bytes, lib, own: str) -> set[tuple[int, int, str]]:
    """(address, size, name) of the functions in one emitted object: ``nm`` gives their
    offsets and sizes, the kernel's own function (whose address numba knows) the base."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        out = subprocess.run(
            ["nm", "-S", "--defined-only", f.name], capture_output=True, text=True, check=True
        ).stdout
    syms = [p for p in (line.split() for line in out.splitlines()) if len(p) == 4]
    funcs = [(int(o, 16), int(s, 16), n) for o, s, t, n in syms if t in "tTwW"]
    base = next((lib.get_pointer_to_function(n) - o for o, _, n in funcs if n == own), None)
    return set() if base is None else {(base + o, s, n) for o, s, n in funcs}


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        _child(argv[1], int(argv[2]), argv[3], argv[4], argv[5])
        return 0
    game = argv[0] if argv else "snowtails"
    races = int(argv[1]) if len(argv) > 1 else 20_000
    over = argv[2] if len(argv) > 2 else "{}"  # JSON over the game's bench cell
    try:
        json.loads(over)
    except json.JSONDecodeError as err:
        print(f"bench.perf: CELL is not JSON ({err}): {over}")
        return 2
    if shutil.which("perf") is None or shutil.which("nm") is None:
        print("bench.perf: needs Linux perf and nm on PATH; skipped")
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="simkit-perf-"))
    ctl, ack, data = tmp / "ctl", tmp / "ack", tmp / "perf.data"
    os.mkfifo(ctl)
    os.mkfifo(ack)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp / "numba")}  # compile here: symbols
    record = ["perf", "record", "-q", f"--control=fifo:{ctl},{ack}", "-D", "-1", "-F", "2000"]
    record += ["--call-graph", "dwarf,1024", "-o", str(data), "--"]
    record += [sys.executable, "-m", "bench.perf", "--child", game, str(races), str(ctl), str(ack)]
    record += [over]
    subprocess.run(record, env=env, check=True)
    report = subprocess.run(
        [
            "perf",
            "report",
            "-i",
            str(data),
            "--no-children",
            "--sort",
            "sym",
            "--stdio",
            "-g",
            "none",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    shares = []
    for line in report.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].endswith("%") and parts[1] == "[.]":
            shares.append((float(parts[0][:-1]), parts[2]))
        elif len(parts) >= 3 and parts[0].endswith("%") and parts[1] == "[k]":
            shares.append((float(parts[0][:-1]), f"[kernel] {parts[2]}"))
    cell = f", cell {over}" if over != "{}" else ""
    print(f"{game}: {races:,} {_unit(game)}{cell} at 1 thread; perf samples by function ({data})")
    for share, name in shares[:15]:
        print(f"  {share:6.2f}%  {_short(name)}")
    nrt = sum(s for s, n in shares if n in NRT)
    print(f"  reference counting (NRT_incref + NRT_decref): {nrt:.1f}% of samples (target < 5%)")
    return 0


def _unit(game: str) -> str:
    from simkit.games import get

    spec = get(game).extras.bench
    return spec.unit if spec else "races"


def _short(symbol: str) -> str:
    """``simkit.games.snowtails.score._score`` from numba's mangled name (best effort)."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, rest = [], symbol[3:]
    while rest and rest[0].isdigit():
        digits = len(rest) - len(rest.lstrip("0123456789"))
        n = int(rest[:digits])
        parts.append(rest[digits : digits + n])
        rest = rest[digits + n :]
    return ".".join(parts) or symbol


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
