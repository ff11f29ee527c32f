"""A route and a variant resolved into the records a MUSH kernel reads.

``kernel_route`` gives the ``ROUTE`` record: one ``SPACE`` per space (kind, rest, board,
moves to the goal under the variant's finish rule, moves to the next town, the first line
of a shortest path, the skip-Central jump, goal flag, the town sign's caps, the lines
leaving it, its board's weather table) and one ``LINE`` per line (where it leads, whether
an avalanche marker may lie on it). ``kernel_cell`` adds the per-cell inputs (``CELL``).
"""

from __future__ import annotations

import numpy as np

from simkit.errors import RouteError
from simkit.games.mush.bots import bot_row
from simkit.games.mush.params import MushParams
from simkit.games.mush.records import CELL, MAX_LINES, MAX_SPACES, ROUTE
from simkit.games.mush.route import TOWN, Route

SKIP_FROM, SKIP_TO = "Nikolai", "Unalakleet"  # text, shortened game 2


def kernel_route(route: Route, variant: MushParams) -> np.ndarray:
    """The one-element ``ROUTE`` array of ``route`` under ``variant``: the finish rule, the
    Central-zone jump and the weather tables resolved per space."""
    n = route.n_spaces
    if n > MAX_SPACES or route.n_lines > MAX_LINES:
        raise RouteError(
            f"has {n} spaces and {route.n_lines} lines; MUSH routes may have at most "
            f"{MAX_SPACES} spaces and {MAX_LINES} lines",
            path=route.path,
        )
    if variant.finish == "nome":
        goal = np.zeros(n, dtype=bool)
        goal[route.finish] = True
    else:  # text, shortened game 1: the race ends at the first North space
        goal = route.zone == 2
        if not goal.any():
            raise RouteError("has no North board (finish = 'first_north')", path=route.path)
    jump = np.full(n, -1, dtype=np.int64)
    if variant.skip_central:  # text, shortened game 2
        src, dst = route.town(SKIP_FROM), route.town(SKIP_TO)
        jump[route.zone == 1] = dst
        jump[src] = dst
        jump[dst] = -1
    dist = route.distances(goal)
    # A sled placed on Unalakleet is as far as Unalakleet: rank and plan by the target.
    eff = np.where(jump >= 0, dist[np.maximum(jump, 0)], dist)
    zone_tables = (variant.weather_south, variant.weather_central, variant.weather_north)
    weather = np.array(
        [b.weather if b.weather is not None else zone_tables[b.zone] for b in route.boards],
        dtype=np.int64,
    )
    rt = np.zeros(1, dtype=ROUTE)
    rt["n_spaces"] = n
    rt["n_lines"] = route.n_lines
    sp = rt["sp"][0, :n]
    sp["kind"] = route.kind
    sp["rest"] = route.rest
    sp["board"] = route.board
    sp["dist"] = eff
    sp["town_dist"] = _next_town(route, goal)
    sp["toward"] = route.toward(dist)
    sp["jump"] = jump
    sp["goal"] = goal
    sp["cap_dogs"] = route.cap_dogs
    sp["cap_tokens"] = route.cap_tokens
    sp["out_lo"] = route.out_ptr[:-1]
    sp["out_hi"] = route.out_ptr[1:]
    sp["weather"] = weather[route.board]
    ln = rt["ln"][0, : route.n_lines]
    ln["to"] = route.out_to
    ln["avalanche"] = route.line_avalanche
    return rt


def kernel_cell(route: Route, rt: np.ndarray, prm: np.ndarray, bots: tuple[str, ...]) -> np.ndarray:
    """The one-element ``CELL`` array of a cell: its bots, start space and training values."""
    cell = np.zeros(1, dtype=CELL)
    cell["n"] = len(bots)
    cell["start"] = route.start
    for s, spec in enumerate(bots):
        cell["bots"][0, s] = bot_row(spec)
    cell["train_value"][0] = _training_values(prm[0], rt[0]["sp"][: route.n_spaces])
    return cell


def _training_values(prm: np.ndarray, sp: np.ndarray) -> list[float]:
    """Expected dog faces per die of each training, summed over the spaces still to race
    (what greedy compares when it chooses training, R-44): the kernels' ``die_value``, the
    same float operations in the same order (so the sums are the same to the last bit)."""
    weather = sp["weather"][(sp["dist"] > 0) & (sp["jump"] < 0)]
    faces, colour, sides = prm["dog_faces"], prm["dice_colour"], prm["die_sides"]
    out = []
    for t in range(3):
        acc = np.zeros(len(weather))
        for f in range(6):
            acc = acc + faces[colour[t * 3 + weather[:, f]]] / sides
        total = 0.0
        for x in (acc / 6.0).tolist():
            total += x
        out.append(total)
    return out


def _next_town(route: Route, goal: np.ndarray) -> np.ndarray:
    """Fewest moves from each space to a town or goal strictly ahead of it."""
    stop = goal | (route.kind == TOWN)
    to_stop = route.distances(stop)  # 0 on towns
    out = np.zeros(route.n_spaces, dtype=np.int64)
    for v in range(route.n_spaces):
        best = 1 << 20
        for e in range(route.out_ptr[v], route.out_ptr[v + 1]):
            best = min(best, to_stop[route.out_to[e]] + 1)
        out[v] = 0 if goal[v] else best
    return out
