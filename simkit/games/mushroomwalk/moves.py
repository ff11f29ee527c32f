"""``simkit moves`` for Mushroom Walk: every legal action from a position and its outcome.

The outcome is computed by the engine's own kernels (``rules.legal``, ``do_action``,
``end_of_turn``). Where an action makes the player discard to a poison's lower limit, each
choice of discards is its own line. The forest is refilled from ``draw_pile`` when it is
given as a list; from a count, the new card shows as ``?``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from simkit.games.mushroomwalk import layout as L
from simkit.games.mushroomwalk.cards import card_name
from simkit.games.mushroomwalk.rules import (
    discard_card,
    do_action,
    end_of_turn,
    legal,
    winner,
)
from simkit.games.mushroomwalk.state import state_from_json, state_to_json
from simkit.games.mushroomwalk.trace import action_name, describe

_NO_EV = np.zeros((1, L.E_WIDTH), dtype=np.int32)


def _discard_choices(s: np.ndarray, p: int, owed: int) -> list[tuple[int, ...]]:
    """Every multiset of ``owed`` hand cards (as sorted code tuples), built from the counts."""
    b = L.player_base(p) + L.PL_HAND
    held = [(c, int(s[b + c])) for c in range(L.N_SLOTS) if s[b + c] > 0]
    out: list[tuple[int, ...]] = []

    def pick(i: int, left: int, chosen: tuple[int, ...]) -> None:
        if left == 0:
            out.append(chosen)
            return
        if i == len(held):
            return
        code, count = held[i]
        for k in range(min(count, left), -1, -1):
            pick(i + 1, left - k, chosen + (code,) * k)

    pick(0, owed, ())
    return sorted(out)


class Moves:
    """The legal actions of a position and the position each leads to."""

    def __init__(self, position: dict[str, Any], moves: list[dict[str, Any]]):
        self.position = position
        self.moves = moves

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "moves": self.moves}

    def text(self) -> str:
        p = self.position["to_move"]
        lines = [
            f"seat {p} to move; forest {' '.join(self.position['forest'])}; "
            f"decay {' '.join(self.position['decay']) or '-'}; {len(self.moves)} legal actions"
        ]
        for m in self.moves:
            r = m["result"]
            me = r["players"][p]
            end = ""
            if m["ended"]:
                end = "; game over: " + ("draw" if m["winner"] < 0 else f"seat {m['winner']} wins")
            lines.append(f"{m['action']:<8} {m['text']}")
            lines.append(
                f"         -> hand {' '.join(me['hand'] + me['night']) or '-'}; "
                f"sticks {me['sticks']}; score {me['score']}; "
                f"forest {' '.join(r['forest']) or '-'}; decay {' '.join(r['decay']) or '-'}{end}"
            )
        return "\n".join(lines)


def legal_moves(state: Mapping[str, Any]) -> Moves:
    """Every legal action of the seat to move (``to_move``) and its exact outcome."""
    v, s0 = state_from_json(state)
    preset = str(state.get("preset", "mushroomwalk"))
    prm = v.to_kernel()
    p = int(s0[L.S_CUR])
    mask = np.zeros(L.N_ACTIONS, dtype=np.int8)
    legal(s0, p, prm, mask)
    decay_before = [card_name(int(c)) for c in s0[L.S_DECAY : L.S_DECAY + s0[L.S_DECAY_N]]]
    evc = np.zeros(1, dtype=np.int64)
    out = []
    for a in np.flatnonzero(mask):
        s = s0.copy()
        card, n, gain, cost, x1, x2, owed = do_action(s, p, int(a), prm, _NO_EV, evc)
        row = np.zeros(L.E_WIDTH, dtype=np.int32)
        row[[L.E_ACTION, L.E_CARD, L.E_N, L.E_GAIN, L.E_COST, L.E_X1, L.E_X2]] = (
            a, card, n, gain, cost, x1, x2,
        )  # fmt: skip
        text = describe(row, decay_before)
        if x1 >= 0 and int(a) < L.A_DECAY:
            text += f", moon gives {card_name(int(x1))}"
        choices = _discard_choices(s, p, owed) if owed and not s[L.S_ENDED] else [()]
        for choice in choices:
            t = s.copy()
            for c in choice:
                discard_card(t, p, c)
            if not t[L.S_ENDED]:
                end_of_turn(t, p, prm, True, _NO_EV, evc)
                t[L.S_CUR] = 1 - p
            out.append(
                {
                    "action": action_name(int(a)),
                    "text": text,
                    "discard": [card_name(c) for c in choice],
                    "ended": bool(t[L.S_ENDED]),
                    "winner": int(winner(t)) if t[L.S_ENDED] else None,
                    "result": state_to_json(t, v, preset),
                }
            )
            if choice:
                out[-1]["text"] = text + f", discards {' '.join(out[-1]['discard'])}"
    return Moves(state_to_json(s0, v, preset), out)
