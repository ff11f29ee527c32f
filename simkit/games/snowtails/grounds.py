"""Where the fitted bots of the Snow Tails family are fitted, chosen and judged: grounds
(GLOSSARY: a track or derived track, a rules preset and a player count).

Three sets, kept apart:

- **held out** (``heldout.toml``): the grounds strength claims are measured on, which no fit
  ever plays. Every fitting entry point (``distil_fit`` collect, ``value_fit``, ``simkit
  bots tune``) calls :func:`refuse` and stops with a one-line error on one of them.
- **validation** (``validation.toml``): the grounds that choose between iterations and
  settings of a fit. No fit plays them either (the samplers here never draw them), but a
  choice made on them makes them no longer unseen, so no final claim rests on them.
- **fit** (:func:`fit_grounds`): what the fits sample from: the library tracks whose family
  is neither held out nor validation (a family: a track and its ``-reversed`` twin), and
  tracks derived from them at random (:func:`derive`: corner safety speeds, straight
  lengths, the width, added trees), under both rules presets, 2 sleds up to what the preset
  allows (5 on the ST1 grid, 8 from the ST2 start row).

A ground's game is its preset's own (``snowtails`` or ``mushmush``): that game's fitted
presets (``bots.toml``: its greedy:tuned plays every rollout, its policy ranks) play there.

Derived tracks are named by their changes (``simkit.tracks.override``), so a name says
exactly which track it is; the held-out and validation files keep the name and, beside
it, the base and seed :func:`derive` made it from (a test checks it still does). Fit
seeds are below ``FIT_SEEDS``; the two files' seeds at or above it, so a fit's derived
track is never one of theirs (and :func:`refuse` compares names besides).
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simkit.errors import SimkitError, TrackError
from simkit.games.base import Cell
from simkit.tracks.override import DerivedTrack, base_and_changes

HERE = Path(__file__).parent
HELD_OUT_FILE = HERE / "heldout.toml"
VALIDATION_FILE = HERE / "validation.toml"
PRESETS = ("snowtails", "mushmush")  # a ground's rules; each the default preset of its game
MAX_PLAYERS = {"snowtails": 5, "mushmush": 8}  # the ST1 grid's 5 spaces, ST2's 8 sleds
FIT_SEEDS = 1_000_000  # derived tracks of fits: seeds below; held out and validation: above
REVERSED = "-reversed"
MIN_LENGTH = 2  # a derived straight's rows, at least
SAFETY = (2, 6)  # a derived corner's safety speed, drawn from this range (both ends in)
STRETCH = (0.5, 1.6)  # a derived straight's length, this factor of the base's
NEW_TREES = 4  # trees a derived track adds, 0 to this many


@dataclass(frozen=True)
class Ground:
    """One ground: ``track`` (a library name or a derived track's name) under ``preset``
    with ``players`` sleds; ``name`` a short label; ``base`` and ``seed`` for a derived
    track (what :func:`derive` made it from), else empty and -1."""

    name: str
    preset: str
    track: str
    players: int
    base: str = ""
    seed: int = -1

    @property
    def game(self) -> str:
        """The game that plays it: the preset's own (whose ``bots.toml`` fits play)."""
        return self.preset

    def cell(self, bots: str | tuple[str, ...]) -> Cell:
        """The ground's cell with ``bots`` (one for every seat, or one per seat)."""
        from simkit.games.cells import build_cell

        return build_cell(self.game, track=self.track, players=self.players, bots=bots)

    def says(self) -> str:
        """The ground as a reader says it: ``mm5-what-goes-up, snowtails rules, 3 sleds``."""
        track = f"{self.base} derived (seed {self.seed})" if self.base else self.track
        return f"{track}, {self.preset} rules, {self.players} sleds"


def family(track: str | DerivedTrack) -> str:
    """The library track a track belongs with: its base less ``-reversed``."""
    base, _ = base_and_changes(track)
    return base.removesuffix(REVERSED)


def _read(path: Path) -> tuple[Ground, ...]:
    with path.open("rb") as fh:
        raw = tomllib.load(fh)
    out = []
    for i, g in enumerate(raw.get("ground", [])):
        where = f"{path.name}, ground {i + 1}"
        missing = [k for k in ("name", "preset", "track", "players") if k not in g]
        if missing:
            raise SimkitError(f"{where}: needs {', '.join(missing)}", key="ground")
        if g["preset"] not in PRESETS:
            raise SimkitError(
                f"{where}: preset must be one of {', '.join(PRESETS)} (got {g['preset']!r})",
                key="ground",
            )
        derived = g.get("derived", {})
        out.append(
            Ground(
                g["name"],
                g["preset"],
                g["track"],
                int(g["players"]),
                derived.get("base", ""),
                int(derived.get("seed", -1)),
            )
        )
    return tuple(out)


@functools.cache
def held_out() -> tuple[Ground, ...]:
    """The held-out grounds (``heldout.toml``), in the file's order."""
    return _read(HELD_OUT_FILE)


@functools.cache
def validation() -> tuple[Ground, ...]:
    """The validation grounds (``validation.toml``), in the file's order."""
    return _read(VALIDATION_FILE)


def by_name(name: str) -> Ground:
    """The held-out or validation ground called ``name``; ``SimkitError`` naming them."""
    grounds = {g.name: g for g in (*held_out(), *validation())}
    if name not in grounds:
        raise SimkitError(f"no ground '{name}' (known: {', '.join(grounds)})", key="ground")
    return grounds[name]


def refuse(cell: Cell, what: str = "a fit") -> None:
    """Stop ``what`` from playing a held-out ground: ``SimkitError`` in one line naming it
    and the file, when ``cell`` has a held-out ground's track, player count and rules (its
    preset's parameters, whichever game of the family plays them). Every fitting entry
    point calls this for each cell it would play (``Game.check_fit``)."""
    from simkit.games.snowtails.params import PRESETS as RULES

    for g in held_out():
        if (cell.track, cell.players) != (g.track, g.players):
            continue
        if asdict(cell.variant) == asdict(RULES[g.preset]):
            raise SimkitError(
                f"{what} may not play {g.name} ({g.says()}): it is a held-out ground "
                f"(simkit/games/snowtails/{HELD_OUT_FILE.name}); fit on other grounds",
                key="track",
            )


def kept_out() -> frozenset[str]:
    """Track families and derived tracks no fit samples: those of the held-out and the
    validation grounds."""
    out = set()
    for g in (*held_out(), *validation()):
        out.add(g.track if g.base else family(g.track))
    return frozenset(out)


def fit_tracks() -> tuple[str, ...]:
    """The library tracks fits play: every one whose family no held-out or validation
    ground uses."""
    import simkit.games  # noqa: F401  (the games shelve their tracks)
    from simkit.tracks.library import library

    out = kept_out()
    return tuple(info.name for info in library() if family(info.name) not in out)


def derive(base: str, seed: int) -> str:
    """A track derived at random from ``base`` (seeded): the name of ``base`` with each
    corner's safety speed redrawn (probability 0.7, from ``SAFETY``; on an ST2 track, whose
    corners have none, that gives them one), each straight's length stretched (0.5, by
    ``STRETCH``), the width changed by one lane (0.5, a track that never changes width, 2
    to 5 lanes) and up to ``NEW_TREES`` trees added on the straights. A change the track
    cannot take (a tree where a building stands, a start grid too narrow for its five
    slots) is dropped: the changes are made one at a time, in the order drawn, each kept
    only if the track with it still compiles."""
    from simkit.tracks.library import load_spec
    from simkit.tracks.override import derived_name, load, tables

    rng = np.random.default_rng([seed, 34])
    spec = load_spec(base)
    segs = tables(spec)
    changes: dict[str, object] = {}
    widths = {s["lanes"] for s in segs}
    width = segs[0]["lanes"]
    if len(widths) == 1 and rng.random() < 0.5:
        width = int(rng.choice([w for w in (width - 1, width + 1) if 2 <= w <= 5]))
        changes["lanes"] = width
    corner = 0
    lengths = {}
    for i, s in enumerate(segs):
        if s["type"] == "corner":
            corner += 1
            if rng.random() < 0.7:
                changes[f"corner.{corner}.safety"] = int(rng.integers(SAFETY[0], SAFETY[1] + 1))
        elif s["type"] == "straight":
            lengths[i] = s["length"]
            if rng.random() < 0.5:
                k = max(MIN_LENGTH, round(s["length"] * rng.uniform(*STRETCH)))
                if k != s["length"]:
                    changes[f"segment.{i}.length"] = k
                    lengths[i] = k
    straights = sorted(lengths)
    added: dict[int, list[list[int]]] = {}
    for _ in range(int(rng.integers(0, NEW_TREES + 1)) if straights else 0):
        i = straights[int(rng.integers(len(straights)))]
        lanes = width if len(widths) == 1 else segs[i]["lanes"]
        cell = [int(rng.integers(lengths[i])), int(rng.integers(lanes))]
        have = added.setdefault(i, [list(t) for t in segs[i].get("trees", [])])
        if cell not in have:
            have.append(cell)
    for i, trees in added.items():
        changes[f"segment.{i}.trees"] = trees
    kept: dict[str, object] = {}
    for key, value in changes.items():  # one at a time, in the order drawn: keep what compiles
        try:
            load(derived_name(base, {**kept, key: value}))
        except TrackError:
            continue
        kept[key] = value
    return derived_name(base, kept)


def fit_grounds(preset: str, n: int, seed: int, derived: float = 0.5) -> list[Ground]:
    """``n`` grounds a fit under ``preset`` plays, drawn at random (seeded): a share
    ``derived`` of them on a track :func:`derive` made from a fit track (seed below
    ``FIT_SEEDS``), the rest on a fit track itself; sleds uniform from 2 to the preset's
    most. None is on a held-out or validation track (:func:`fit_tracks`), and the
    collectors refuse any held-out cell besides (:func:`refuse`)."""
    if preset not in PRESETS:
        raise SimkitError(f"preset must be one of {', '.join(PRESETS)} (got {preset!r})")
    rng = np.random.default_rng([seed, 3434])
    tracks = fit_tracks()
    out = []
    for k in range(n):
        base = tracks[int(rng.integers(len(tracks)))]
        players = int(rng.integers(2, MAX_PLAYERS[preset] + 1))
        if rng.random() < derived:
            s = int(rng.integers(FIT_SEEDS))
            track = derive(base, s)
            g = Ground(f"fit-{k}", preset, track, players, base, s)
        else:
            g = Ground(f"fit-{k}", preset, base, players)
        out.append(g)
    return out


def collect_into(
    out: str | Path,
    grounds: list[Ground],
    work: Callable[[Ground, int], dict[str, np.ndarray]],
    threads: int = 1,
) -> list[Path]:
    """Run ``work(ground, k)`` for the ``k``-th of ``grounds`` and save its arrays with the
    ground as ``out/gNNNN.npz`` (written to a temporary file, then renamed), skipping the
    grounds whose file is there already: a collection stopped at any point resumes where it
    was, losing at most the grounds under way. ``threads`` processes share the grounds.
    Returns the files, in the grounds' order."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    todo = [(k, g) for k, g in enumerate(grounds) if not _file(out, k).exists()]
    jobs = [(out, k, g, work) for k, g in todo]
    if threads > 1 and len(jobs) > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(threads) as pool:
            for line in pool.imap_unordered(_one, jobs):
                print(line, flush=True)
    else:
        for job in jobs:
            print(_one(job), flush=True)
    return [_file(out, k) for k in range(len(grounds))]


def files(paths: list[str]) -> list[Path]:
    """The files of :func:`collect_into` in ``paths`` (files, or folders of them), in order."""
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.glob("g*.npz")) if p.is_dir() else [p])
    return [p for p in out if not p.name.endswith(".tmp.npz")]


def _file(out: Path, k: int) -> Path:
    return out / f"g{k:04d}.npz"


def _one(job: tuple[Path, int, Ground, Callable]) -> str:
    out, k, g, work = job
    arrays = work(g, k)
    path = _file(out, k)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(
        tmp,
        name=g.name,
        preset=g.preset,
        track=g.track,
        players=g.players,
        base=g.base,
        seed=g.seed,
        **arrays,
    )
    tmp.replace(path)
    rows = len(next(iter(arrays.values()))) if arrays else 0
    return f"  {path.name}: {g.says()}: {rows:,} rows"


def ground_of(data: Any) -> Ground:
    """The ground a file of :func:`collect_into` was collected on."""
    return Ground(
        str(data["name"]),
        str(data["preset"]),
        str(data["track"]),
        int(data["players"]),
        str(data["base"]),
        int(data["seed"]),
    )
