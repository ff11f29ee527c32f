"""``simkit moves`` for Mushroom Walk: every legal play from a position and its outcome.

The plays and outcomes come from the engine's own position functions
(``position.legal_plays`` and ``apply``, through their doors in :mod:`.kernels`): each
outcome is the position at the next decision, which is the same seat discarding when the
play took a poison mushroom. The forest is refilled from ``draw_pile`` when it is given as
a list; from a count, the new card shows as ``?``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from simkit.games.mushroomwalk.cards import card_name
from simkit.games.mushroomwalk.kernels import apply, legal_plays, max_plays, winner
from simkit.games.mushroomwalk.records import EVENT, PLAY, TAKE, as_records
from simkit.games.mushroomwalk.state import state_from_json, state_to_json
from simkit.games.mushroomwalk.trace import describe, play_name


class Moves:
    """The legal plays of a position and the position each leads to."""

    def __init__(self, position: dict[str, Any], moves: list[dict[str, Any]]):
        self.position = position
        self.moves = moves

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "moves": self.moves}

    def text(self) -> str:
        p = self.position["to_move"]
        lines = [
            f"seat {p} to move; forest {' '.join(self.position['forest'])}; "
            f"decay {' '.join(self.position['decay']) or '-'}; {len(self.moves)} legal plays"
        ]
        width = max([len(m["play"]) for m in self.moves] + [8])
        for m in self.moves:
            r = m["result"]
            me = r["players"][p]
            end = ""
            if m["ended"]:
                end = "; game over: " + ("draw" if m["winner"] < 0 else f"seat {m['winner']} wins")
            elif r["to_move"] == p:
                end = f"; seat {p} again"
            lines.append(f"{m['play']:<{width}} {m['text']}")
            lines.append(
                f"{'':<{width}} -> hand {' '.join(me['hand'] + me['night']) or '-'}; "
                f"sticks {me['sticks']}; score {me['score']}; "
                f"forest {' '.join(r['forest']) or '-'}; decay {' '.join(r['decay']) or '-'}{end}"
            )
        return "\n".join(lines)


def _fields(play: Any) -> dict[str, Any]:
    """A play as JSON: its name's parts, by field."""
    return {f: int(play[f]) for f in PLAY.names}


def legal_moves(state: Mapping[str, Any]) -> Moves:
    """Every legal play of the seat to move (``to_move``) and its exact outcome."""
    v, start = state_from_json(state)
    preset = str(state.get("preset", "mushroomwalk"))
    overrides = state.get("set") or {}
    prma = as_records(v.to_kernel())
    plays = np.zeros(max_plays(prma), dtype=PLAY)
    n = legal_plays(start, prma, plays)
    decay_before = [card_name(int(c)) for c in start[0]["decay"][: start[0]["decay_n"]]]
    no_ev = np.zeros(1, dtype=EVENT)
    evc = np.zeros(1, dtype=np.int64)
    out = []
    for i in range(n):
        play = plays[i]
        after = start.copy()
        apply(after, prma, plays, i, no_ev, evc)
        pos = after[0]
        ended = bool(pos["ended"])
        text = describe(play, pos["outcome"][0], decay_before)
        if play["kind"] == TAKE and pos["outcome"][0]["night"] >= 0:
            text += f", moon gives {card_name(int(pos['outcome'][0]['night']))}"
        out.append(
            {
                "play": play_name(play),
                "fields": _fields(play),
                "text": text,
                "ended": ended,
                "winner": int(winner(after)) if ended else None,
                "result": state_to_json(pos, preset, overrides),
            }
        )
    return Moves(state_to_json(start[0], preset, overrides), out)
