"""``simkit bots tune``: fit a heuristic bot's weights with CMA-ES, resumably (docs/bots.md).

The search runs in the unit cube: each free weight (``lo < hi`` in the game's
:class:`~simkit.games.base.TunableBot`) is scaled to ``[0, 1]`` by its bounds, CMA-ES (the
``cma`` package) starts at the default weights with a step of a fifth of every range and
keeps to the bounds. Each generation's candidates are played against the field on one block
of race keys (:mod:`simkit.tune.bots.design`), and CMA-ES is told the share of head-to-head
comparisons each won. After the budget, the distribution's mean (not the best single
evaluation, whose score is the luckiest of many) is the fitted bot.

A tuning directory holds ``tune.json`` (the settings, written once, with the code that plays
them) and ``state.pkl`` (the optimizer, its random generator and every evaluation so far,
replaced atomically after each generation, sealed to its tuning: :mod:`simkit.tune.bots.folder`).
Killed at any moment, :func:`fit` restarts the generation that was under way and ends exactly
where an uninterrupted run would have; by other code (another simkit, an edited rule) it is
refused, as a run's resume is.
"""

from __future__ import annotations

import json
import math
import shlex
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simkit.errors import SimkitError
from simkit.files import shown
from simkit.games import get
from simkit.games.base import TunableBot
from simkit.games.cells import build_cell
from simkit.outcomes import pair_counts
from simkit.rng import chunk_keys
from simkit.tune import common
from simkit.tune.bots import MAX_BUDGET, MAX_CONFIRM, MAX_RACES, design, folder

SIGMA0 = 0.2  # CMA-ES's first step, as a share of every weight's range
DEFAULT_RACES = 2_000
DEFAULT_BUDGET = 300
DEFAULT_CONFIRM = 10_000
DEFAULT_NAME = "fitted"  # not a preset any game ships: a fit is played beside them
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Settings:
    """What a tuning plays: everything that decides its result, and nothing that does not.

    ``races`` counts the races of one evaluation over all rotations (rounded up to a whole
    number per rotation); ``budget`` counts evaluations (rounded up to whole generations);
    ``confirm`` counts confirmation races per lineup.

    ``players`` and ``track`` may each list several values: the tuning then fits one bot for
    the mix, every (track, players) setting of their product playing an equal share of each
    evaluation's races, and the objective is the worst setting's share: a bot for the mix
    must hold its own in each setting, and a gain in one cannot buy a loss in another (the
    mean of the shares did exactly that: greedy:tuned fitted on it still lost to greedy on
    Hairpin Valley with 4 sleds, docs/bots.md).
    """

    game: str
    bot: str
    field: tuple[str, ...]
    players: int | tuple[int, ...]
    races: int = DEFAULT_RACES
    budget: int = DEFAULT_BUDGET
    seed: int = 0
    preset: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    track: str | tuple[str, ...] | None = None
    name: str = DEFAULT_NAME
    confirm: int = DEFAULT_CONFIRM

    @property
    def player_counts(self) -> tuple[int, ...]:
        return self.players if isinstance(self.players, tuple) else (self.players,)

    @property
    def tracks(self) -> tuple[str | None, ...]:
        return self.track if isinstance(self.track, tuple) else (self.track,)

    @property
    def mix(self) -> list[tuple[str | None, int]]:
        """The (track, players) settings an evaluation plays, tracks varying slowest."""
        return [(t, n) for t in self.tracks for n in self.player_counts]

    @property
    def tunable(self) -> TunableBot:
        return self.game_obj.extras.tunable[self.bot]

    @property
    def game_obj(self) -> Any:
        return get(self.game)

    def keys_per_rotation(self, players: int) -> int:
        """Race keys per rotation at ``players`` seats: an equal share of ``races`` per setting."""
        return math.ceil(self.races / (len(self.mix) * players))

    @property
    def races_per_evaluation(self) -> int:
        return sum(self.keys_per_rotation(n) * n for _, n in self.mix)

    @property
    def free(self) -> list[int]:
        """Indices of the weights the search moves (``lo < hi``)."""
        t = self.tunable
        return [i for i in range(len(t.names)) if t.lo[i] < t.hi[i]]

    def command(self) -> str:
        """The command line that plays exactly this tuning (``--out`` and ``--threads`` aside)."""
        words = ["simkit", "bots", "tune", self.game, self.bot]
        players = ",".join(str(n) for n in self.player_counts)
        words += ["--field", ",".join(self.field), "--players", players]
        words += ["--races", str(self.races), "--evaluations", str(self.budget)]
        words += ["--seed", str(self.seed), "--confirm", str(self.confirm), "--name", self.name]
        if self.preset is not None:
            words += ["--preset", self.preset]
        if self.track is not None:
            words += ["--track", ",".join(self.tracks)]
        for k, v in self.overrides.items():
            words += ["--set", f"{k}={json.dumps(v)}"]
        return shlex.join(words)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["field"] = list(self.field)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        out = {**data, "field": tuple(data["field"])}
        for key in ("players", "track"):
            if isinstance(out.get(key), list):
                out[key] = tuple(out[key])
        return cls(**out)


def settings(
    game: str,
    bot: str,
    *,
    field: list[str] | None = None,
    players: int | list[int] | None = None,
    track: str | list[str] | None = None,
    **rest: Any,
) -> Settings:
    """Checked settings: a tunable bot, a field the game accepts, a budget of a generation.

    ``players`` and ``track`` may be lists (a mix, :class:`Settings`); with several player
    counts the field must fit the fewest seats.

    Raises:
        SimkitError: a game without tunable bots, a bot it cannot tune, a field bot or a
            cell the game rejects, a name that is no bare word, a budget below one generation.
    """
    g = get(game)
    if bot not in g.extras.tunable:
        can = ", ".join(g.extras.tunable) or "none"
        raise SimkitError(f"{game}: bot '{bot}' cannot be tuned (tunable: {can})", key="bot")
    counts = [g.default_players] if players is None else players
    counts = counts if isinstance(counts, list) else [counts]
    tracks = track if isinstance(track, list) else [track]
    for key, values in (("players", counts), ("track", tracks)):
        if len(set(values)) != len(values):
            raise SimkitError(f"--{key} names a value twice", key=key)
    s = Settings(
        game,
        bot,
        tuple(field or [bot]),
        counts[0] if len(counts) == 1 else tuple(counts),
        track=tracks[0] if len(tracks) == 1 else tuple(tracks),
        **rest,
    )
    n = min(counts)
    if len(s.field) > n - 1:
        raise SimkitError(
            f"--field names {len(s.field)} bots but {n} players leave {n - 1} seats beside "
            "the tuned bot; name fewer or add --players",
            key="field",
        )
    _check_counts(s)
    name = s.name
    if not name or not all(c.isalnum() or c in "-_" for c in name):
        raise SimkitError(f"--name must be letters, digits, - or _ (got '{name}')", key="name")
    preset = f"{s.tunable.base}:{name}"
    if _plays(s, preset):
        raise SimkitError(
            f"--name {name}: {game} already plays a bot '{preset}' (a preset simkit ships); "
            "choose another --name, so that the fit can be played beside it",
            key="name",
        )
    if not s.free:
        raise SimkitError(f"{game}: every weight of '{bot}' is fixed (lo == hi)", key="bot")
    # One lineup holds every bot of every rotation: the game checks them and the cells.
    for t, n in s.mix:
        lineup = design.rotations(s.tunable.spec(s.tunable.default), s.field, n)[0]
        cell = build_cell(
            game, preset=s.preset, overrides=s.overrides, track=t, players=n, bots=lineup
        )
        g.check_fit(cell, f"simkit bots tune {game} {bot}")  # never a held-out ground
    if s.budget < popsize(s):
        raise SimkitError(
            f"--evaluations {s.budget} is less than one generation of {popsize(s)} evaluations",
            key="budget",
        )
    return s


def _check_counts(s: Settings) -> None:
    """Every count within its bound (the options' and ``tune.json``'s alike)."""
    for key, value, lo, hi in (
        ("races", s.races, 1, MAX_RACES),
        ("evaluations", s.budget, 1, MAX_BUDGET),
        ("confirm", s.confirm, 1, MAX_CONFIRM),
        ("seed", s.seed, 0, MAX_SEED),
    ):
        if not lo <= value <= hi:
            raise SimkitError(f"--{key} must be {lo} to {hi:,} (got {value:,})", key=key)


def _plays(s: Settings, spec: str) -> bool:
    """True if the game already plays the bot ``spec`` (a preset it ships)."""
    try:
        build_cell(s.game, preset=s.preset, overrides=s.overrides, track=s.tracks[0], bots=spec)
    except SimkitError as exc:
        if exc.key == "bots":
            return False
        raise
    return True


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _names(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


# tune.json: each setting, what it must be, and the check; beside them the code it plays.
_RECORD: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "game": ("a game's name", lambda v: isinstance(v, str)),
    "bot": ("a bot's name", lambda v: isinstance(v, str)),
    "field": ("a list of bot names", _names),
    "players": (
        "a number of seats or a list of them",
        lambda v: _whole(v) or (isinstance(v, list) and bool(v) and all(map(_whole, v))),
    ),
    "races": ("a whole number", _whole),
    "budget": ("a whole number", _whole),
    "seed": ("a whole number", _whole),
    "preset": ("a preset's name or null", lambda v: v is None or isinstance(v, str)),
    "overrides": ("a table of parameter values", lambda v: isinstance(v, dict)),
    "track": (
        "a track, a list of tracks or null",
        lambda v: v is None or isinstance(v, str) or _names(v),
    ),
    "name": ("a preset name", lambda v: isinstance(v, str)),
    "confirm": ("a whole number", _whole),
}
CODE_KEYS = ("simkit_version", "code")  # simkit.runner.inputs.code_record


def from_record(data: dict[str, Any]) -> Settings:
    """The settings ``tune.json`` holds, each checked as the command line's are; a key of the
    wrong type or unknown is a ``SimkitError`` naming it."""
    for key in data:
        if key not in _RECORD and key not in CODE_KEYS:
            raise SimkitError(f"key {shown(key)} is no setting of simkit bots tune")
    for key, (what, ok) in _RECORD.items():
        if key not in data:
            raise SimkitError(f"key '{key}' is missing")
        if not ok(data[key]):
            raise SimkitError(f"key '{key}' must be {what} (got {shown(data[key])})")
    rest = {k: data[k] for k in ("races", "budget", "seed", "preset", "overrides", "name")}
    return settings(
        data["game"],
        data["bot"],
        field=list(data["field"]),
        players=data["players"],
        track=data["track"],
        confirm=data["confirm"],
        **rest,
    )


def popsize(s: Settings) -> int:
    """CMA-ES's default population for this many free weights: 4 + floor(3 ln n)."""
    return 4 + int(3 * math.log(len(s.free)))


def weights(s: Settings, x: np.ndarray) -> tuple[float, ...]:
    """The weights a point of the unit cube stands for, as the bot name plays them.

    Free weights are ``lo + x * (hi - lo)``, fixed ones their default; every weight is rounded
    as :meth:`TunableBot.spec` writes it, so the weights recorded are the weights played.
    """
    t = s.tunable
    w = list(t.default)
    for k, i in enumerate(s.free):
        w[i] = t.lo[i] + float(np.clip(x[k], 0.0, 1.0)) * (t.hi[i] - t.lo[i])
    return tuple(float(f"{v:.6g}") for v in w)


def start_point(s: Settings) -> np.ndarray:
    """The default weights in the unit cube."""
    t = s.tunable
    return np.array([(t.default[i] - t.lo[i]) / (t.hi[i] - t.lo[i]) for i in s.free]).clip(0, 1)


class Normal:
    """CMA-ES's normal draws from a generator of its own (``cma``'s ``randn`` option).

    Pickled with the optimizer, so a resumed tuning draws what the uninterrupted one would;
    ``cma``'s default draws from numpy's global generator, which a pickle does not keep.
    """

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def __call__(self, *shape: int) -> np.ndarray:
        return self.rng.standard_normal(shape)


@dataclass
class State:
    """The optimizer and what it has seen: what ``state.pkl`` holds."""

    es: Any
    evaluations: list[dict[str, Any]] = field(default_factory=list)
    generations: list[dict[str, Any]] = field(default_factory=list)
    stop: str = ""  # why CMA-ES stopped before the budget, if it did

    @property
    def generation(self) -> int:
        return len(self.generations)


def new_state(s: Settings) -> State:
    import cma

    opts = {
        "bounds": [0.0, 1.0],
        "popsize": popsize(s),
        "randn": Normal(s.seed),
        "seed": np.nan,
        "verbose": -9,
        "verb_log": 0,
        "verb_disp": 0,
    }
    return State(cma.CMAEvolutionStrategy(start_point(s), SIGMA0, opts))


def generations(s: Settings) -> int:
    """Generations the budget pays for, rounded up."""
    return math.ceil(s.budget / popsize(s))


def evaluate(
    s: Settings,
    spec: str,
    keys: np.ndarray,
    threads: int | None,
    *,
    track: str | None = None,
    players: int | None = None,
) -> tuple[int, int]:
    """(comparisons won, lost) by bot ``spec`` against the field, in every rotation on ``keys``.

    At one (track, players) setting of the mix (default: the first).
    """
    t0, n0 = s.mix[0]
    track = t0 if track is None else track
    n = n0 if players is None else players
    ahead = behind = 0
    for r, lineup in enumerate(design.rotations(spec, s.field, n)):
        batch = design.play(s, lineup, keys, threads, track=track, players=n)
        rivals = [j for j in range(n) if j != r]
        a, b = pair_counts(batch.seats["finish"], batch.seats["finished"], [r], rivals)
        ahead, behind = ahead + int(a.sum()), behind + int(b.sum())
    return ahead, behind


def score(s: Settings, spec: str, gen: int, threads: int | None) -> tuple[float, int, int]:
    """A candidate's objective in generation ``gen``: its worst share over the mix.

    Every setting plays the generation's block of keys (its own length per player count).
    Returns the objective and the comparisons won and lost over all settings.
    """
    shares, ahead, behind = [], 0, 0
    for t, n in s.mix:
        k = s.keys_per_rotation(n)
        keys = chunk_keys(s.seed, design.TUNE_KEY, gen * k, (gen + 1) * k)
        a, b = evaluate(s, spec, keys, threads, track=t, players=n)
        shares.append(design.share(np.array([a]), np.array([b])))
        ahead, behind = ahead + a, behind + b
    return float(np.min(shares)), ahead, behind


def step(s: Settings, state: State, threads: int | None) -> None:
    """Play one generation and tell CMA-ES how its candidates did."""
    gen = state.generation
    xs = state.es.ask()
    scores = []
    for c, x in enumerate(xs):
        w = weights(s, x)
        score_, ahead, behind = score(s, s.tunable.spec(w), gen, threads)
        scores.append(score_)
        state.evaluations.append(
            {
                "generation": gen,
                "candidate": c,
                "objective": score_,
                "ahead": ahead,
                "behind": behind,
                **dict(zip(s.tunable.names, w, strict=True)),
            }
        )
    # CMA-ES minimises; a candidate with no decided comparison ranks last.
    state.es.tell(xs, [-v if np.isfinite(v) else 0.0 for v in scores])
    mean = weights(s, mean_point(state))
    state.generations.append(
        {
            "generation": gen,
            "races": s.races_per_evaluation * len(xs),
            "best": max(scores),
            "median": float(np.nanmedian(scores)),
            "sigma": float(state.es.sigma),
            **dict(zip(s.tunable.names, mean, strict=True)),
        }
    )


def load(out: Path) -> tuple[Settings, State | None]:
    """The settings of the tuning in ``out`` (checked, and refused if this simkit's code
    differs from the code it started with) and its last saved state (None before generation
    1): ``RunError`` naming the file otherwise."""
    from simkit.runner.inputs import refuse_other_code

    out = Path(out)
    record = common.read_settings(out)
    s = folder.checked(record, out / common.SETTINGS, from_record)
    refuse_other_code(out, record, s.game, "tuning")
    return s, folder.read_state(out)


def create(s: Settings, out: Path) -> None:
    """Write ``tune.json`` (the settings and the code that plays them) into ``out``, after
    removing what an earlier tuning there left (:func:`simkit.tune.bots.folder.clear`)."""
    from simkit import __version__
    from simkit.runner.inputs import code_record

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    folder.clear(out)
    record = {**s.to_json(), "simkit_version": __version__, "code": code_record(s.game)}
    common.write_settings(out, record)


def fit(out: Path, *, threads: int | None = None, progress: bool = False) -> tuple[Settings, State]:
    """Run (or continue) the search in ``out`` until its budget or CMA-ES's own stop."""
    s, state = load(out)
    state = state or new_state(s)
    total = generations(s)
    per = s.races_per_evaluation * popsize(s)
    shown = common.progress_bar(s.game_obj, total * per, state.generation * per, progress)
    try:
        while state.generation < total and not state.stop:
            step(s, state, threads)
            stop = {k: v for k, v in state.es.stop().items() if k != "maxfevals"}
            state.stop = ", ".join(stop)
            folder.write_state(out, state)
            last = state.generations[-1]
            shown.set_postfix_str(f"gen {last['generation'] + 1}/{total} best {last['best']:.3f}")
            shown.update(per)
    finally:
        shown.close()
    return s, state


def mean_point(state: State) -> np.ndarray:
    """CMA-ES's distribution mean in the unit cube (``cma``'s ``result.xfavorite``).

    ``es.mean`` is the mean in ``cma``'s internal coordinates, which its bound
    transformation maps into the bounds: a coordinate at -0.25 there stands for +0.15 here,
    where the candidates are. Clipping ``es.mean`` to the cube instead (as before December
    2026) put such weights at 0, far from every candidate the search scored.
    """
    return np.asarray(state.es.result.xfavorite)


def fitted(s: Settings, state: State) -> tuple[float, ...]:
    """The fitted weights: CMA-ES's mean, which averages out the luck of single evaluations."""
    return weights(s, mean_point(state))
