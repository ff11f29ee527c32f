"""A readable log of one Mushroom Walk game, built from the kernel's event rows."""

from __future__ import annotations

from typing import Any

import numpy as np

from simkit.games.base import Cell
from simkit.games.mushroomwalk import layout as L
from simkit.games.mushroomwalk.cards import NIGHT_BASE, card_name
from simkit.games.mushroomwalk.rules import winner

_KINDS = {
    L.EV_START: "start",
    L.EV_DEAL: "deal",
    L.EV_TURN: "turn",
    L.EV_NIGHT: "night",
    L.EV_POISON: "poison",
    L.EV_DISCARD: "discard",
    L.EV_POISON_END: "poison_end",
    L.EV_STUCK: "stuck",
    L.EV_END: "end",
}


def action_name(a: int) -> str:
    """Short name of an action id: take3, decay, cook9, sell8, pan."""
    if a < L.A_DECAY:
        return f"take{a - L.A_TAKE + 1}"
    if a == L.A_DECAY:
        return "decay"
    if a < L.A_SELL:
        return f"cook{a - L.A_COOK + 2}"
    if a < L.A_PAN:
        return f"sell{a - L.A_SELL + 2}"
    return "pan"


def _cards(codes: np.ndarray) -> list[str]:
    return [card_name(int(c)) for c in codes if c >= 0]


def describe(row: np.ndarray, decay_before: list[str]) -> str:
    """One turn in words (the action and what it gave)."""
    a = int(row[L.E_ACTION])
    card, n, gain, cost = (int(row[i]) for i in (L.E_CARD, L.E_N, L.E_GAIN, L.E_COST))
    x1, x2 = int(row[L.E_X1]), int(row[L.E_X2])
    if a < L.A_DECAY:
        paid = "free" if cost == 0 else f"{cost} stick{'s' if cost > 1 else ''}"
        return f"takes {card_name(card)} from forest position {a + 1} ({paid})"
    if a == L.A_DECAY:
        return f"takes the decay pile: {' '.join(decay_before)}"
    if a < L.A_SELL:
        extras = "".join(f" + {k} {what}" for k, what in ((x1, "butter"), (x2, "cider")) if k > 0)
        return f"cooks {n} mushrooms of rank {card + 2}{extras}: {gain} points"
    if a < L.A_PAN:
        return f"sells {n} mushrooms of rank {card + 2} for {gain} sticks"
    return "puts down a pan"


class Trace:
    """Events of one game (rows of ``layout.E_*``) and its final state."""

    def __init__(self, cell: Cell, key: int, events: np.ndarray, state: np.ndarray):
        self.cell = cell
        self.key = key
        self.events = events
        self.state = state

    def winner(self) -> int:
        """Winning seat, or -1 for a draw."""
        return int(winner(self.state))

    def _public(self, row: np.ndarray) -> dict[str, Any]:
        return {
            "score": [int(row[L.E_SCORE]), int(row[L.E_SCORE + 1])],
            "sticks": [int(row[L.E_STICKS]), int(row[L.E_STICKS + 1])],
            "hand": [int(row[L.E_HAND]), int(row[L.E_HAND + 1])],
            "draw_pile": int(row[L.E_DRAW_LEFT]),
            "forest": _cards(row[L.E_FOREST : L.E_DECAY]),
            "decay": _cards(row[L.E_DECAY : L.E_WIDTH]),
        }

    def to_json(self) -> dict[str, Any]:
        """Events as dicts: kind, turn, seat, action, card, counts, and the public state."""
        rows = []
        decay: list[str] = []
        for row in self.events:
            kind = int(row[L.E_KIND])
            item: dict[str, Any] = {"kind": _KINDS[kind], "turn": int(row[L.E_TURN])}
            item["seat"] = int(row[L.E_SEAT])
            if kind == L.EV_TURN:
                item["action"] = action_name(int(row[L.E_ACTION]))
                item["text"] = describe(row, decay)
            if int(row[L.E_CARD]) >= 0:
                item["card"] = card_name(int(row[L.E_CARD]))
            for name, col in (("n", L.E_N), ("gain", L.E_GAIN), ("cost", L.E_COST)):
                item[name] = int(row[col])
            item.update(self._public(row))
            if kind in (L.EV_TURN, L.EV_START):
                decay = item["decay"]
            rows.append(item)
        v = self.cell.variant
        return {
            "game": "mushroomwalk",
            "variant": {k: list(x) if isinstance(x, tuple) else x for k, x in v.as_dict().items()},
            "bots": list(self.cell.bots),
            "key": self.key,
            "winner": self.winner(),
            "events": rows,
        }

    def text(self) -> str:
        """The game turn by turn, as a player would check it against the book."""
        bots = " vs ".join(f"seat {i} {b}" for i, b in enumerate(self.cell.bots))
        out = [f"Mushroom Walk ({self.cell.variant.deck_size()} cards): {bots}; key {self.key}"]
        decay: list[str] = []
        notes: list[str] = []
        dealt: dict[int, list[str]] = {0: [], 1: []}
        for row in self.events:
            kind = int(row[L.E_KIND])
            seat = int(row[L.E_SEAT])
            card = int(row[L.E_CARD])
            pub = self._public(row)
            if kind == L.EV_DEAL:
                got = card_name(card)
                if int(row[L.E_X1]) >= NIGHT_BASE:
                    got += f"->{card_name(int(row[L.E_X1]))}"
                dealt[seat].append(got)
            elif kind == L.EV_START:
                out.append(f"forest: {' '.join(pub['forest'])}   draw pile {pub['draw_pile']}")
                for p in (0, 1):
                    out.append(f"seat {p} dealt: {' '.join(dealt[p])}")
                out.append(f"seat {seat} starts")
            elif kind == L.EV_NIGHT:
                notes.append(f"moon: takes {card_name(card)}")
            elif kind == L.EV_POISON:
                notes.append(f"poison: hand limit {int(row[L.E_N])}")
            elif kind == L.EV_DISCARD:
                notes.append(f"discards {card_name(card)}")
            elif kind == L.EV_POISON_END:
                notes.append("poison goes to the discard pile")
            elif kind == L.EV_STUCK:
                who = "neither seat" if seat < 0 else f"seat {seat}"
                out.append(f"      {who} cannot act (R-50)")
            elif kind == L.EV_TURN:
                extra = f" [{'; '.join(notes)}]" if notes else ""
                notes = []
                out.append(f"T{int(row[L.E_TURN]):02d} seat {seat} {describe(row, decay)}{extra}")
                out.append(
                    f"      score {pub['score'][0]}:{pub['score'][1]}"
                    f"  sticks {pub['sticks'][0]}:{pub['sticks'][1]}"
                    f"  hand {pub['hand'][0]}:{pub['hand'][1]}"
                    f"  forest {' '.join(pub['forest']) or '-'}"
                    f"  decay {' '.join(pub['decay']) or '-'}  draw {pub['draw_pile']}"
                )
            elif kind == L.EV_END:
                reason = "neither can act (R-50)" if int(row[L.E_N]) else "the forest is empty"
                result = "a draw" if seat < 0 else f"seat {seat} wins"
                out.append(f"end: {reason}; score {pub['score'][0]}:{pub['score'][1]}; {result}")
            if kind in (L.EV_TURN, L.EV_START):
                decay = pub["decay"]
        return "\n".join(out)
