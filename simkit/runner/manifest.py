"""The run's manifest: what was run, how far it got, and the checksum of every file it wrote.

The manifest is the one account of a run that simkit trusts, and only after checking it:
its ``checksum`` (sha256 of the rest of its content) must match, its shape must be the
one simkit writes, its settings must agree with its scenario, and its chunks with its
cells. Every chunk file and ``cells.parquet`` is listed in ``files`` with its sha256 and
row count, so readers (``simkit.load``, ``simkit report``) and ``--resume`` can tell a
damaged or missing file from a good one (:mod:`simkit.runner.storage`).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from pathlib import Path
from typing import Any

from simkit.errors import RunError
from simkit.files import shown

STATUSES = ("running", "complete")
TABLES = ("races", "heat", "agg")  # write order within a chunk; agg last
CELLS = "cells.parquet"
LEVELS = "levels.parquet"  # the skill levels' measured order (simkit.runner.levels)
LEVEL_PAIRS = "level_pairs.parquet"  # ... and every pair of bots it measured
_PART = re.compile(r"^(races|heat|agg)/part-(\d{5})-(\d{6})\.parquet$")
_SHA = re.compile(r"^[0-9a-f]{64}$")
_CODE_SHA = re.compile(r"^[0-9a-f]{16}$")  # simkit.runner.inputs.code_record
# The run's inputs (simkit.runner.inputs), as the manifest lists them: path -> sha256, bytes,
# copy, use. Uses: replayed; compared only; the scenario file (in the manifest); a tuning's
# space file (in its tune.json).
FOLDER = "inputs"
USES = ("read", "check", "scenario", "space")
_COPY = re.compile(r"^inputs/[0-9a-f]{12}-[A-Za-z0-9._-]{1,80}$")
_TYPES: dict[str, type | tuple[type, ...]] = {
    "simkit_version": str,
    "scenario": dict,
    "scenario_path": str,
    "game": str,
    "seed": int,
    "crn": bool,
    "chunk_size": int,
    "chunks_total": int,
    "chunks_done": list,
    "races_per_cell": int,
    "precision": (dict, type(None)),
    "races_done": list,
    "keep": str,
    "heat": bool,
    "cells": list,
    "timings": dict,
    "status": str,
    "files": dict,
    "checksum": str,
}
# Manifest keys that repeat a scenario setting: the two must agree.
_SETTINGS = {"game": "game", "seed": "seed", "crn": "crn", "chunk_size": "chunk_size",
             "keep": "keep", "heat": "heat"}  # fmt: skip


def part_name(cell: int, chunk: int) -> str:
    return f"part-{cell:05d}-{chunk:06d}.parquet"


def checksum(manifest: dict[str, Any]) -> str:
    """sha256 of the manifest's content without its ``checksum`` key (canonical JSON)."""
    body = {k: v for k, v in manifest.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def seal(manifest: dict[str, Any]) -> bytes:
    """Set the manifest's checksum and return the bytes of ``manifest.json``."""
    manifest["checksum"] = checksum(manifest)
    return json.dumps(manifest, indent=1).encode() + b"\n"


def file_entry(data: bytes, rows: int) -> dict[str, Any]:
    """What the manifest records of one file it lists."""
    return {"sha256": hashlib.sha256(data).hexdigest(), "rows": rows, "bytes": len(data)}


def copy_name(path: str, data: bytes) -> str:
    """The copy's name in the run folder: content hash, then the file's own name."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", Path(path).name)[:80] or "input"
    return f"{FOLDER}/{hashlib.sha256(data).hexdigest()[:12]}-{stem}"


def entry(path: str, data: bytes, use: str) -> dict[str, Any]:
    """What the manifest records of one input."""
    sha = hashlib.sha256(data).hexdigest()
    return {"sha256": sha, "bytes": len(data), "copy": copy_name(path, data), "use": use}


def problem(inputs: Any) -> str | None:
    """What is wrong with a manifest's ``inputs`` (for :func:`check`), or None."""
    if not isinstance(inputs, dict):
        return "inputs"
    for path, e in inputs.items():
        if (
            not isinstance(e, dict)
            or set(e) != {"sha256", "bytes", "copy", "use"}
            or not _SHA.match(str(e["sha256"]))
            or not _COPY.match(str(e["copy"]))
            or e["use"] not in USES
        ):
            return f"input {shown(path)}"
    return None


def code_problem(code: Any) -> str | None:
    """What is wrong with a manifest's ``code`` (the sha256 of each file of simkit that
    decides its races, :func:`simkit.runner.inputs.code_record`), or None."""
    if not isinstance(code, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and _CODE_SHA.match(v) for k, v in code.items()
    ):
        return "code"
    return None


def cell_races(manifest: dict[str, Any], cell: int) -> int:
    """Races cell ``cell`` plays at most: its skill level's own count, or the run's."""
    return manifest["cells"][cell].get("races", manifest["races_per_cell"])


def chunk_races(manifest: dict[str, Any], cell: int, chunk: int) -> int:
    """Races in chunk ``chunk`` of cell ``cell``."""
    size, total = manifest["chunk_size"], cell_races(manifest, cell)
    return max(0, min(size, total - chunk * size))


def check(manifest: Any, where: str) -> dict[str, Any]:
    """``manifest`` if simkit wrote it and nobody changed it since; ``RunError`` otherwise."""

    def fail(what: str) -> RunError:
        return RunError(
            f"'{where}': {what}; simkit will not trust this run: start it again with --force"
        )

    if not isinstance(manifest, dict):
        raise fail(f"not a simkit manifest (a JSON object; got {shown(manifest)})")
    if "checksum" not in manifest:
        raise fail("has no checksum (edited by hand, or written by an older simkit)")
    for key, kind in _TYPES.items():
        if key not in manifest:
            raise fail(f"key '{key}' is missing")
        value = manifest[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise fail(f"key '{key}' has the wrong type (got {shown(value)})")
    if manifest["checksum"] != checksum(manifest):
        raise fail("its checksum does not match its content (edited by hand, or damaged)")
    wrong = (
        _inconsistency(manifest)
        or problem(manifest.get("inputs", {}))
        or code_problem(manifest.get("code", {}))
    )
    if wrong:
        raise fail(f"its settings do not match its chunks ({wrong})")
    return manifest


def _inconsistency(m: dict[str, Any]) -> str | None:
    """What contradicts itself in a manifest whose checksum holds, or None."""
    sc = m["scenario"]
    for key, sc_key in _SETTINGS.items():
        if sc.get(sc_key) != m[key]:
            return f"{key} {shown(m[key])}, its scenario says {shown(sc.get(sc_key))}"
    if m["status"] not in STATUSES:
        return f"status {shown(m['status'])}"
    n, size, total = len(m["cells"]), m["chunk_size"], m["races_per_cell"]
    if size < 1 or total < 1 or len(m["races_done"]) != n:
        return "chunk size, races per cell or races done per cell"
    if not all(isinstance(c, dict) for c in m["cells"]):
        return "cells"
    totals = [cell_races(m, i) for i in range(n)]
    if not all(isinstance(t, int) and not isinstance(t, bool) and t >= 1 for t in totals):
        return "races per cell"
    per_cell = [math.ceil(t / size) for t in totals]
    done: dict[tuple[int, int], None] = {}
    for pair in m["chunks_done"]:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
            or not (0 <= pair[0] < n and 0 <= pair[1] < per_cell[pair[0]])
            or tuple(pair) in done
        ):
            return f"chunk {shown(pair)}"
        done[(pair[0], pair[1])] = None
    for cell in range(n):
        races = sum(chunk_races(m, cell, c) for i, c in done if i == cell)
        if m["races_done"][cell] != races:
            return f"cell {cell} has {shown(m['races_done'][cell])} races done, its chunks {races}"
    want = (
        {"agg"}
        | ({"races"} if m["keep"] == "races" else set())
        | ({"heat"} if m["heat"] else set())
    )
    listed: dict[tuple[int, int], set[str]] = {}
    for name, entry in m["files"].items():
        if not isinstance(entry, dict) or not _SHA.match(str(entry.get("sha256", ""))):
            return f"file {shown(name)}"
        if name in (CELLS, LEVELS, LEVEL_PAIRS):
            continue
        match = _PART.match(name)
        if match is None:
            return f"file {shown(name)}"
        key = (int(match.group(2)), int(match.group(3)))
        listed.setdefault(key, set()).add(match.group(1))
    if set(listed) != set(done) or any(tables != want for tables in listed.values()):
        return "the files listed are not those of the chunks done"
    if m["status"] == "complete" and m["precision"] is None and len(done) != sum(per_cell):
        return f"complete with {len(done)} of {sum(per_cell)} chunks"
    return None
