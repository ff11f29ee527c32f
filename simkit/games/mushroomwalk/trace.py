"""A readable log of one Mushroom Walk game, built from the kernel's event records."""

from __future__ import annotations

from typing import Any

import numpy as np

from simkit.games.base import Batch, Cell, race_rows
from simkit.games.mushroomwalk.cards import NIGHT_BASE, card_name
from simkit.games.mushroomwalk.records import (
    COOK,
    DECAY,
    DISCARD,
    EV_DEAL,
    EV_DISCARD,
    EV_END,
    EV_NIGHT,
    EV_POISON,
    EV_POISON_END,
    EV_START,
    EV_STUCK,
    EV_TURN,
    EVENT_KINDS,
    SELL,
    TAKE,
)


def play_name(play: Any) -> str:
    """Short unique name of a play: take3, decay, pan, discard:night9, sell8:3,
    sell9:0+n (plain cards sold, + the night card), cook9:2+n:b1:hand (plain cards, the
    night card, butter, cider, and the pan: from the hand or the display)."""
    kind, arg = int(play["kind"]), int(play["arg"])
    if kind == TAKE:
        return f"take{arg + 1}"
    if kind == DECAY:
        return "decay"
    if kind == DISCARD:
        return f"discard:{card_name(arg)}"
    if kind not in (COOK, SELL):
        return "pan"
    cards = f"{arg + 2}:{int(play['plain'])}" + "+n" * int(play["night"])
    if kind == SELL:
        return f"sell{cards}"
    extras = "".join(f":{x}{int(play[f])}" for x, f in (("b", "butter"), ("c", "cider")) if play[f])
    return f"cook{cards}{extras}:{'hand' if play['hand_pan'] else 'display'}"


def _mushrooms(play: Any) -> str:
    rank = int(play["arg"]) + 2
    cards = [str(rank)] * int(play["plain"]) + [f"night{rank}"] * int(play["night"])
    return " ".join(cards)


def describe(play: Any, outcome: Any, decay_before: list[str]) -> str:
    """One play in words (what it did, from its ``records.OUTCOME``)."""
    kind = int(play["kind"])
    card, n, gain, cost = (int(outcome[f]) for f in ("card", "n", "gain", "cost"))
    if kind == TAKE:
        paid = "free" if cost == 0 else f"{cost} stick{'s' if cost > 1 else ''}"
        return f"takes {card_name(card)} from forest position {int(play['arg']) + 1} ({paid})"
    if kind == DECAY:
        return f"takes the decay pile: {' '.join(decay_before)}"
    if kind == COOK:
        extras = "".join(f" + {int(play[f])} {f}" for f in ("butter", "cider") if int(play[f]) > 0)
        pan = "a pan from the hand" if play["hand_pan"] else "a display pan"
        return (
            f"cooks {n} mushrooms of rank {card + 2} ({_mushrooms(play)}){extras} in {pan}: "
            f"{gain} points"
        )
    if kind == SELL:
        return f"sells {n} mushrooms of rank {card + 2} ({_mushrooms(play)}) for {gain} sticks"
    if kind == DISCARD:
        return f"discards {card_name(int(play['arg']))}"
    return "puts down a pan"


def _cards(codes: np.ndarray) -> list[str]:
    return [card_name(int(c)) for c in codes if c >= 0]


class Trace:
    """Events of one game (``records.EVENT``), its final position and its table rows (a
    Batch of one game, as the batch kernel wrote it)."""

    def __init__(
        self, cell: Cell, key: int, events: np.ndarray, position: Any, result: Batch, winner: int
    ):
        self.cell = cell
        self.key = key
        self.events = events
        self.position = position
        self.result = result
        self._winner = winner

    def winner(self) -> int:
        """Winning seat, or -1 for a draw."""
        return self._winner

    def rows(self) -> tuple[dict[str, list[Any]], dict[str, Any]]:
        """The game's table rows, as ``simulate`` writes them: seats and race columns."""
        return race_rows(self.result)

    @staticmethod
    def _public(e: Any) -> dict[str, Any]:
        return {
            "score": [int(x) for x in e["score"]],
            "sticks": [int(x) for x in e["sticks"]],
            "hand": [int(x) for x in e["hand"]],
            "draw_pile": int(e["draw_left"]),
            "forest": _cards(e["forest"]),
            "decay": _cards(e["decay"]),
        }

    def to_json(self) -> dict[str, Any]:
        """Events as dicts: kind, turn, seat, play, card, counts, and the public position."""
        rows = []
        decay: list[str] = []
        for e in self.events:
            kind = int(e["kind"])
            item: dict[str, Any] = {"kind": EVENT_KINDS[kind], "turn": int(e["turn"])}
            item["seat"] = int(e["seat"])
            if kind == EV_TURN:
                play, outcome = e["play"][0], e["outcome"][0]
                item["play"] = play_name(play)
                item["text"] = describe(play, outcome, decay)
                item.update({f: int(outcome[f]) for f in ("gain", "cost")})
            if int(e["card"]) >= 0:
                item["card"] = card_name(int(e["card"]))
            item["n"] = int(e["n"])
            item.update(self._public(e))
            if kind in (EV_TURN, EV_START):
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
        for e in self.events:
            kind, seat, card = int(e["kind"]), int(e["seat"]), int(e["card"])
            pub = self._public(e)
            if kind == EV_DEAL:
                got = card_name(card)
                if int(e["n"]) >= NIGHT_BASE:
                    got += f"->{card_name(int(e['n']))}"
                dealt[seat].append(got)
            elif kind == EV_START:
                out.append(f"forest: {' '.join(pub['forest'])}   draw pile {pub['draw_pile']}")
                for p in (0, 1):
                    out.append(f"seat {p} dealt: {' '.join(dealt[p])}")
                out.append(f"seat {seat} starts")
            elif kind == EV_NIGHT:
                notes.append(f"moon: takes {card_name(card)}")
            elif kind == EV_POISON:
                notes.append(f"poison: hand limit {int(e['n'])}")
            elif kind == EV_DISCARD:
                notes.append(f"discards {card_name(card)}")
            elif kind == EV_POISON_END:
                notes.append("poison goes to the discard pile")
            elif kind == EV_STUCK:
                who = "neither seat" if seat < 0 else f"seat {seat}"
                out.append(f"      {who} cannot act (R-50)")
            elif kind == EV_TURN:
                extra = f" [{'; '.join(notes)}]" if notes else ""
                notes = []
                text = describe(e["play"][0], e["outcome"][0], decay)
                out.append(f"T{int(e['turn']):02d} seat {seat} {text}{extra}")
                out.append(
                    f"      score {pub['score'][0]}:{pub['score'][1]}"
                    f"  sticks {pub['sticks'][0]}:{pub['sticks'][1]}"
                    f"  hand {pub['hand'][0]}:{pub['hand'][1]}"
                    f"  forest {' '.join(pub['forest']) or '-'}"
                    f"  decay {' '.join(pub['decay']) or '-'}  draw {pub['draw_pile']}"
                )
            elif kind == EV_END:
                reason = "neither can act (R-50)" if int(e["n"]) else "the forest is empty"
                result = "a draw" if seat < 0 else f"seat {seat} wins"
                out.append(f"end: {reason}; score {pub['score'][0]}:{pub['score'][1]}; {result}")
            if kind in (EV_TURN, EV_START):
                decay = pub["decay"]
        return "\n".join(out)
