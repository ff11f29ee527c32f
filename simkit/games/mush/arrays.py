"""The flat arrays a MUSH kernel reads: a route and a variant resolved into integers.

Per space (``sp``, int64, shape (n, S_SIZE)): kind, rest kind, board, zone, moves to the
goal under the variant's finish rule, moves to the next town or goal, the first line of
a shortest path, the skip-Central jump target, goal flag, the town sign's caps, column, start flag.
Per line (``ln``, int64, shape (m, L_SIZE)): from, to, whether an avalanche may lie there.
``out_ptr`` indexes each space's lines; ``weather`` is each board's d6 table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.errors import RouteError
from simkit.games.mush.params import MushParams
from simkit.games.mush.route import TOWN, Route

(
    S_KIND,
    S_REST,
    S_BOARD,
    S_ZONE,
    S_DIST,
    S_TOWN_DIST,
    S_TOWARD,
    S_JUMP,
    S_GOAL,
    S_CAP_DOGS,
    S_CAP_TOKENS,
    S_COL,
    S_START,
) = range(13)
S_SIZE = 13
L_FROM, L_TO, L_AVALANCHE = range(3)
L_SIZE = 3
SKIP_FROM, SKIP_TO = "Nikolai", "Unalakleet"  # text, shortened game 2


@dataclass(frozen=True)
class KernelRoute:
    """A route as the kernel sees it under one variant."""

    sp: np.ndarray
    ln: np.ndarray
    out_ptr: np.ndarray
    weather: np.ndarray


def kernel_route(route: Route, variant: MushParams) -> KernelRoute:
    """Resolve the finish rule, the Central-zone jump and the weather tables into arrays."""
    n = route.n_spaces
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
    town_dist = _next_town(route, goal)
    sp = np.zeros((n, S_SIZE), dtype=np.int64)
    sp[:, S_KIND] = route.kind
    sp[:, S_REST] = route.rest
    sp[:, S_BOARD] = route.board
    sp[:, S_ZONE] = route.zone
    sp[:, S_DIST] = eff
    sp[:, S_TOWN_DIST] = town_dist
    sp[:, S_TOWARD] = route.toward(dist)
    sp[:, S_JUMP] = jump
    sp[:, S_GOAL] = goal
    sp[:, S_CAP_DOGS] = route.cap_dogs
    sp[:, S_CAP_TOKENS] = route.cap_tokens
    sp[:, S_COL] = route.col
    sp[route.start, S_START] = 1
    ln = np.zeros((route.n_lines, L_SIZE), dtype=np.int64)
    ln[:, L_FROM] = route.line_from
    ln[:, L_TO] = route.out_to
    ln[:, L_AVALANCHE] = route.line_avalanche
    zone_tables = (variant.weather_south, variant.weather_central, variant.weather_north)
    weather = np.array(
        [b.weather if b.weather is not None else zone_tables[b.zone] for b in route.boards],
        dtype=np.int64,
    )
    return KernelRoute(sp, ln, route.out_ptr.astype(np.int64), weather)


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
