"""The one small interface through which a game plugs into runner, tables and reports.

DESIGN §1: a game supplies its variant parameters, its per-race result columns and a batch
kernel. Runner, seeding, storage, analysis and reports are shared and know games only
through this interface.

Seeding contract (DESIGN §4): the runner computes one root key per race with
:func:`simkit.rng.race_key` ``(run_seed, cell_key, race_index)`` and hands the keys to
``simulate``. A game derives every random number of a race from its key (streams in
:mod:`simkit.rng`), including the start-slot assignment (R-06), so a race replays exactly
from ``(run_seed, cell_key, race_index)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from simkit.errors import SimkitError, StateError
from simkit.params import Variant
from simkit.tracks.override import DerivedTrack, as_track


@dataclass(frozen=True)
class Column:
    """A result column: numpy dtype, unit and meaning (``docs/tables.md`` is built from these).

    ``applies`` says for which variants the column can be non-zero (e.g. trees hit only
    where a variant has trees); reports leave a column out of a cell where it returns
    False. None means every variant.
    """

    dtype: str
    doc: str
    unit: str = ""
    applies: Callable[[Variant], bool] | None = None


# Columns every game fills for every (race, seat); the runner adds cell, race and seat.
COMMON_SEAT_COLUMNS: dict[str, Column] = {
    "slot": Column("int8", "start slot (1-based; 1 = best placed by the book)"),
    "finish": Column(
        "int8",
        "finish position (1-based); unique within a race unless the game allows a draw",
    ),
    "points": Column("int16", "points for the finish position under the variant's table"),
    "finished": Column("bool", "crossed the finish line"),
    "eliminated": Column("bool", "left the race early (e.g. a 5th dent in Snow Tails)"),
}

# Columns every game fills once per race.
COMMON_RACE_COLUMNS: dict[str, Column] = {
    "rounds": Column("int16", "rounds played until the race ended", "rounds"),
}


@dataclass(frozen=True)
class Cell:
    """One combination of a scenario (GLOSSARY: cell): what ``simulate`` is asked to play.

    Attributes:
        game: the game's name.
        variant: the game's parameter object (a preset plus overrides).
        track: a track name or path for games raced on a track, else None; a track with
            changed parts is a ``DerivedTrack`` (a name with ``?`` given here becomes one).
        players: number of seats.
        bots: one bot spec per seat, e.g. ``("greedy", "greedy", "random")``.
        slots: the start slots in use (R-06); the n seats take them in a random order per
            race. None means slots 1..players.
        cell_id: the cell's stable index in its scenario.
    """

    game: str
    variant: Variant
    track: str | DerivedTrack | None
    players: int
    bots: tuple[str, ...]
    slots: tuple[int, ...] | None = None
    cell_id: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "track", as_track(self.track))


@dataclass
class Batch:
    """What ``simulate`` returns for a batch of races.

    ``seats[name]`` has shape (n_races, players) for every seat column, ``races[name]``
    shape (n_races,), ``heat[kind]`` shape (n_spaces,) summed over the batch (empty for
    games without a board).

    ``round_position`` (optional, int64, shape (round cap, highest slot, players,
    players + 1)) counts, summed over the batch like ``heat``, how often a seat that
    started in slot ``s`` was in race position ``p`` at the end of round ``r`` and then
    finished ``f``: element ``[r - 1, s - 1, p - 1, f]``, with
    ``f = 0`` for every seat of a race that was not decided (no single winner who
    finished). Race position is the order the game ranks seats by at that moment (R-03
    for Snow Tails); a seat already finished or out keeps its final rank. A race adds one
    count per seat for each round it played, up to the cap; later rounds are not counted.
    Games without rounds leave it None. docs/tables.md ("round_position") is the contract.

    ``end_position`` (optional, same shape) counts the same (race, seat) pairs by rounds
    before the race's last round instead: element ``[k, s - 1, p - 1, f]``, ``k = 0`` the
    last round. ``seat_position`` (optional, shape (round cap, players, players,
    players + 1)) counts the same by seat instead of start slot, element ``[r - 1, seat,
    p - 1, f]``: with the cell's bot per seat, curves per bot. ``round_measures``
    (optional) maps each name of ``simkit.games.round_counts.MEASURES`` to one float per
    race, NaN where undefined (docs/statistics.md, "Drama, lead changes, uncertainty and
    stability").
    """

    seats: dict[str, np.ndarray]
    races: dict[str, np.ndarray]
    heat: dict[str, np.ndarray] = field(default_factory=dict)
    round_position: np.ndarray | None = None
    end_position: np.ndarray | None = None
    seat_position: np.ndarray | None = None
    round_measures: dict[str, np.ndarray] = field(default_factory=dict)


def race_rows(batch: Batch, i: int = 0) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    """Race ``i`` of ``batch`` as Python values: each seat column's list (one per seat) and
    each race column's value, the rows a table holds (a trace's ``rows``)."""
    seats = {name: col[i].tolist() for name, col in batch.seats.items()}
    return seats, {name: col[i].item() for name, col in batch.races.items()}


@dataclass(frozen=True)
class RuleElement:
    """A rule that may favour some start slots over others, and how to switch it off.

    ``off`` is the parameter's value without the rule (or, for a rule without a neutral
    form, such as a tie-break, its alternative), or a function of the variant giving it
    (a per-slot table of zeros). A report's "try next" sweeps these; the
    game says which rules they are, the analysis measures what each is worth.
    """

    key: str
    off: Any
    what: str  # the rule in a reader's words, with its source: "extra start cards (R-11)"
    # Whether the rule acts in a cell at all beyond its parameter (trees on a track
    # without trees do not); None: wherever the parameter differs from ``off``.
    acts: Callable[[Cell], bool] | None = None
    # The track part it switches off wholesale ("trees", "safety", "buildings"): each tree,
    # safety speed or building is an element of its own, which a diagnosis names first
    # when the rule as a whole explains no more than it.
    covers: str | None = None

    def value(self, variant: Variant) -> Any:
        """The parameter's value with the rule switched off, for ``variant``."""
        return self.off(variant) if callable(self.off) else self.off

    def applies(self, cell: Cell) -> bool:
        """Whether switching the rule off changes ``cell``: the parameter differs from its
        off value, is read under the cell's rules (its ``when``) and the rule acts there."""
        import dataclasses

        v = cell.variant
        fields = {f.name: f for f in dataclasses.fields(v)}
        if self.key not in fields or getattr(v, self.key) == self.value(v):
            return False
        when = fields[self.key].metadata.get("when") or {}
        if any(getattr(v, k, None) != w for k, w in when.items()):
            return False
        return self.acts is None or self.acts(cell)


@dataclass(frozen=True)
class BenchSpec:
    """What ``make bench`` times for a game (``bench/``): one cell, at 1 and 2 threads.

    Attributes:
        title: what the row measures, e.g. "4 greedy bots, nutcracker".
        cell: :func:`simkit.games.cells.build_cell` arguments of the cell timed.
        races: races timed (``SIMKIT_BENCH_<NAME>_RACES`` overrides it).
        nojit_races: races timed with ``NUMBA_DISABLE_JIT=1``, for the JIT's gain.
        unit: what a race is called in the printed rows ("races", "games").
        extra: more rows timed at 1 thread: title -> ``build_cell`` arguments.
        runner: the runner's overhead (``simkit run`` against the bare kernel) is measured
            on this game; one game says so.
    """

    title: str
    cell: Mapping[str, Any]
    races: int
    nojit_races: int
    unit: str = "races"
    extra: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    runner: bool = False


@dataclass(frozen=True)
class TunableBot:
    """A heuristic bot whose weights ``simkit bots tune`` may fit (issue 13).

    ``spec(weights)`` is the bot name that plays those weights (``"greedy[1/0.3/...]"``: a
    slash between weights, as commas separate seats' bots); a game accepts such names
    wherever it accepts its bots. Fitted weights ship as a named
    preset in the game's ``bots.toml`` (``Game.extras.bot_presets_file``), with the command, seed,
    field and budget that produced them.
    """

    base: str
    names: tuple[str, ...]
    default: tuple[float, ...]
    lo: tuple[float, ...]
    hi: tuple[float, ...]

    def spec(self, weights: Sequence[float]) -> str:
        return f"{self.base}[{'/'.join(f'{float(w):.6g}' for w in weights)}]"


@dataclass(frozen=True)
class Extras:
    """What the shared layers need from a game besides its rules, so that none of them
    names a game: the entry kernels (compile notices), a track folder (the tracks layer's
    library and families), CLI examples and commands, a report section, the rules a
    report's "try next" may switch off, a benchmark, the bots ``simkit bots tune`` fits and
    the reference strong player. Every part is optional: the defaults are a game without
    it. The "module:function" strings name code the layer imports only when it needs it
    (``simkit.games.import_ref``), so that registering a game imports no report or CLI code.
    """

    # "module:function" of the numba kernels each method compiles on a cold cache, by method
    # ("simulate", "trace"): ``simkit run`` and ``simkit race`` look them up in numba's
    # cache index and say when a first run is about to compile (empty: no notice).
    kernels: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    # The folder of track files (``*.toml``) the game ships, or None; their family is the
    # game's name, and ``simkit tracks list`` shows them.
    track_dir: Path | None = None
    # Command lines for the CLI's help ("simkit race NAME --seed 7"); each command
    # shows the lines that start with its name.
    examples: tuple[str, ...] = ()
    # "module:attribute" of click commands the game adds to ``simkit`` (e.g. its own files).
    commands: tuple[str, ...] = ()
    # What a start slot is in this game, when it is not a place on a start line, as a
    # report says it ("slot k is the k-th sled to choose its training (R-44)"); empty: the
    # GLOSSARY's start position (1 = best placed by the book).
    slots_mean: str = ""
    # Rules that may favour some slots, each with the value that switches it off (empty:
    # none declared); a report's "try next" sweeps them.
    rule_elements: tuple[RuleElement, ...] = ()
    # "module:function" adding the game's own questions to a report, called as
    # ``f(doc, results, out)`` (``simkit.report.document``), or None: the shared sections only.
    report_section: str | None = None
    # What ``make bench`` times (None: the game has no row).
    bench: BenchSpec | None = None
    # Bots ``simkit bots tune`` can fit, by base name (empty: none), and the TOML file the
    # fitted presets are kept in (``[base.preset]`` tables), or None.
    tunable: Mapping[str, TunableBot] = field(default_factory=lambda: MappingProxyType({}))
    bot_presets_file: Path | None = None
    # The model-free reference strong player (issue 34): a study's top skill level and a
    # ladder's top bot are checked against it where they play ("as strong as search:64
    # here"), or None for a game without one.
    reference_bot: str | None = None


class Game:
    """What a game package registers: subclass it (``class MyGame(Game)``) and register an
    instance (``simkit.games.register(GAME)`` in the package's ``__init__``).

    A ``Game`` is the rules interface: the attributes below (required: those without a
    default, ``name`` to ``bots``) and the methods (required: ``simulate``). What the
    shared layers need besides the rules is one plain record, ``extras`` (``Extras``: the
    compile notice's kernels, a track folder, CLI examples and commands, a report section,
    a benchmark, fits, the reference player), whose defaults are a game without those
    parts. ``docs/games.md`` ("Adding a game") walks through both.
    """

    # Required: no default.
    name: str
    title: str
    params: type[Variant]
    presets: Mapping[str, Variant]
    default_preset: str
    max_players: int
    default_players: int
    bots: tuple[str, ...]

    # Optional: the defaults are a game without the part.
    min_players: int = 2
    # Raced on tracks (``Cell.track``), and the track a cell gets when it names none.
    uses_track: bool = False
    default_track: str | None = None
    seat_columns: Mapping[str, Column] = MappingProxyType(COMMON_SEAT_COLUMNS)  # plus own
    race_columns: Mapping[str, Column] = MappingProxyType(COMMON_RACE_COLUMNS)  # plus own
    # Kinds of ``Batch.heat`` counts (none: no board).
    heat_kinds: tuple[str, ...] = ()
    # What the shared layers need besides the rules (compile notices, track folder, CLI,
    # report, bench, fits, reference player): one plain record, defaults a game without
    # them (``Extras``).
    extras: Extras = Extras()

    def construction(self, bot: str) -> str:
        """What ``bot`` is built on, for a strong field's independence (GLOSSARY: strong
        field): two players of one construction (two searches on one policy) are one style
        of play, not two. Default: the bot's kind, its name before ``:``, ``@`` or ``[``."""
        for sep in ":@[":
            bot = bot.partition(sep)[0]
        return bot

    def check_cell(self, cell: Cell) -> None:
        """Raise ``SimkitError`` if the cell cannot be played (default: every cell
        ``simkit.games.cells.build_cell`` accepts can).

        The error's ``key`` names the input to blame, so a scenario can point at its line:
        ``"players"``, ``"bots"``, ``"slots"``, ``"track"`` or a parameter's name.
        """

    def check_fit(self, cell: Cell, what: str = "a fit") -> None:
        """Raise ``SimkitError`` if a fit (``what``: which one, for the message) may not play
        the cell: one of the game's held-out grounds, kept for strength claims (default:
        a game without any)."""

    def expect(self, bots: Iterable[str]) -> None:
        """Told, before a run's first race, every bot it will play (its cells' and its
        level check's reference): a game whose kernels have specialisations by bot may
        compile once for all of them. Never changes a race (default: nothing)."""

    def simulate(
        self,
        cell: Cell,
        keys: np.ndarray,
        threads: int | None = None,
        race_indices: np.ndarray | None = None,
    ) -> Batch:
        """Play one race per root key (``uint64`` array) and return their results.

        ``race_indices`` are the races' indices within the cell (the runner always passes
        them), for the rare rule that depends on the index rather than on chance, such as
        Mushroom Walk's who-starts "alternate" (R-51). Games without such a rule ignore it.
        """
        raise NotImplementedError(f"{type(self).__name__} must define simulate")

    def trace(self, cell: Cell, key: int, race_index: int | None = None) -> Any:
        """Replay the race with root ``key`` (race ``race_index`` of its cell) and return its trace.

        The trace object has ``text() -> str`` (the readable log of ``simkit race``) and
        ``to_json() -> dict``; games on a track also offer ``draw(path)``. Default: a game
        without traces (``SimkitError``).
        """
        raise SimkitError(f"{self.name} cannot replay a race (it has no trace)", key="game")

    def seat_events(
        self, cell: Cell, keys: np.ndarray, race_indices: np.ndarray | None = None
    ) -> tuple[Any, Any]:
        """Replay the races of ``keys`` and say, seat by seat, where each gained or lost:
        (events, seats) as pandas DataFrames, the game's own module documenting their shape
        (``simkit.analysis.diagnose`` adds them up by slot, place and round). Default: a
        game without such a breakdown (``SimkitError``)."""
        raise SimkitError(f"{self.name} has no breakdown by place (no seat events)", key="game")

    def moves(self, state: Mapping[str, Any]) -> Any:
        """Every legal play from the position ``state`` (parsed JSON) and its exact outcome.

        Returns an object with ``text()`` and ``to_json()``; raises ``StateError`` on bad
        input. Default: a game without positions to ask about (``StateError``).
        """
        raise StateError(f"{self.name} has no `simkit moves` (it lists no positions' plays)")
