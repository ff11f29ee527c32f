"""Mushroom Walk positions as JSON (docs/state-mushroomwalk.md) <-> the kernel state array.

Used by ``simkit moves`` and by tests that set up a position by hand. Every problem with
the input is a ``StateError`` naming the key and the fix.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from simkit.errors import SimkitError, StateError
from simkit.games.mushroomwalk import layout as L
from simkit.games.mushroomwalk.cards import (
    CARD_BUTTER,
    CARD_CIDER,
    CARD_PAN,
    CARD_UNKNOWN,
    N_FOREST_CODES,
    N_KINDS,
    NAME_TO_CODE,
    NIGHT_BASE,
    card_name,
)
from simkit.games.mushroomwalk.params import PRESETS, MushroomWalkParams

_HAND_OK = set(range(N_KINDS)) | {CARD_BUTTER, CARD_CIDER, CARD_PAN}
_PLAYER_KEYS = {"hand", "night", "pans", "baskets", "sticks", "poison", "poison_turns",
                "score", "cooked", "dishes"}  # fmt: skip
_TOP_KEYS = {"game", "preset", "set", "to_move", "forest", "decay", "draw_pile",
             "night_pile", "players"}  # fmt: skip


def _card(key: str, name: Any, allowed: set[int] | None = None) -> int:
    code = NAME_TO_CODE.get(str(name))
    if code is None or code == L.N_SLOTS or (allowed is not None and code not in allowed):
        raise StateError(f"mushroomwalk state, key '{key}': '{name}' is not a card allowed here")
    return code


def _cards(d: Mapping[str, Any], key: str, allowed: set[int] | None = None) -> list[int]:
    value = d.get(key, [])
    if not isinstance(value, list):
        raise StateError(f"mushroomwalk state, key '{key}': expected a list of card names")
    return [_card(key, v, allowed) for v in value]


def _int(d: Mapping[str, Any], key: str, where: str, lo: int, hi: int, default: int = 0) -> int:
    value = d.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise StateError(
            f"mushroomwalk state, key '{where}{key}': expected an integer {lo}..{hi} "
            f"(got {value!r})"
        )
    return value


def _pile(d: Mapping[str, Any], key: str, allowed: set[int] | None, default: int) -> list[int]:
    """A face-down pile: a list of card names (top first) or a count of unknown cards."""
    value = d.get(key, default)
    if isinstance(value, list):
        return _cards(d, key, allowed)
    n = _int(d, key, "", 0, L.MAX_DECK, default)
    return [CARD_UNKNOWN] * n


def variant_of(d: Mapping[str, Any]) -> MushroomWalkParams:
    preset = d.get("preset", "mushroomwalk")
    if preset not in PRESETS:
        raise StateError(
            f"mushroomwalk state, key 'preset': unknown preset '{preset}' "
            f"(known: {', '.join(sorted(PRESETS))})"
        )
    overrides = d.get("set", {})
    if not isinstance(overrides, dict):
        raise StateError("mushroomwalk state, key 'set': expected an object of overrides")
    try:
        return PRESETS[preset].replace(**overrides)
    except SimkitError as exc:
        raise StateError(f"mushroomwalk state, key 'set': {exc}") from exc


def state_from_json(d: Mapping[str, Any]) -> tuple[MushroomWalkParams, np.ndarray]:
    """The variant and kernel state array of a position; ``StateError`` on bad input."""
    unknown = sorted(set(d) - _TOP_KEYS)
    if unknown:
        raise StateError(f"mushroomwalk state: unknown key '{unknown[0]}'")
    v = variant_of(d)
    s = np.zeros(L.S_SIZE, dtype=np.int32)
    s[L.S_FOREST : L.S_FOREST + L.MAX_FOREST] = -1
    s[L.S_DECAY : L.S_DECAY + L.MAX_DECAY] = -1
    forest = _cards(d, "forest", set(range(N_FOREST_CODES)))
    if not 1 <= len(forest) <= v.forest_size:
        raise StateError(
            f"mushroomwalk state, key 'forest': expected 1 to {v.forest_size} cards "
            f"(got {len(forest)}); an empty forest means the game is over"
        )
    decay = _cards(d, "decay", set(range(N_FOREST_CODES)))
    if len(decay) > v.decay_size:
        raise StateError(
            f"mushroomwalk state, key 'decay': at most {v.decay_size} cards (got {len(decay)})"
        )
    s[L.S_FOREST : L.S_FOREST + len(forest)] = forest
    s[L.S_FOREST_N] = len(forest)
    s[L.S_DECAY : L.S_DECAY + len(decay)] = decay
    s[L.S_DECAY_N] = len(decay)
    if "draw_pile" not in d:
        raise StateError("mushroomwalk state: key 'draw_pile' is missing (a count or a list)")
    draw = _pile(d, "draw_pile", set(range(N_FOREST_CODES)) | {CARD_UNKNOWN}, 0)
    s[L.S_DRAW : L.S_DRAW + len(draw)] = draw
    s[L.S_DRAW_END] = len(draw)
    players = d.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise StateError("mushroomwalk state, key 'players': expected a list of 2 players")
    shown = 0
    for p, pd in enumerate(players):
        _player(s, p, pd, v)
        shown += sum(1 for _ in pd.get("night", []))
    night_ok = set(range(NIGHT_BASE, NIGHT_BASE + N_KINDS)) | {CARD_UNKNOWN}
    night = _pile(d, "night_pile", night_ok, max(0, sum(v.night_cards) - shown))
    s[L.S_NIGHT : L.S_NIGHT + len(night)] = night
    s[L.S_NIGHT_END] = len(night)
    if len(night) > N_KINDS:
        raise StateError(f"mushroomwalk state, key 'night_pile': at most {N_KINDS} cards")
    s[L.S_CUR] = _int(d, "to_move", "", 0, 1)
    return v, s


def _player(s: np.ndarray, p: int, pd: Any, v: MushroomWalkParams) -> None:
    where = f"players[{p}]."
    if not isinstance(pd, dict):
        raise StateError(f"mushroomwalk state, key 'players[{p}]': expected an object")
    unknown = sorted(set(pd) - _PLAYER_KEYS)
    if unknown:
        raise StateError(f"mushroomwalk state: unknown key '{where}{unknown[0]}'")
    b = L.player_base(p)
    for c in _cards(pd, "hand", _HAND_OK):
        s[b + L.PL_HAND + c] += 1
    night_ok = set(range(NIGHT_BASE, NIGHT_BASE + N_KINDS)) | {CARD_UNKNOWN}
    for name in pd.get("night", []):
        full = "?" if str(name) == "?" else "night" + str(name).removeprefix("night")
        s[b + L.PL_HAND + _card(f"{where}night", full, night_ok)] += 1
    s[b + L.PL_PANS] = _int(pd, "pans", where, 0, 50)
    s[b + L.PL_BASKETS] = _int(pd, "baskets", where, 0, 50)
    s[b + L.PL_STICKS] = _int(pd, "sticks", where, 0, 1000)
    s[b + L.PL_POISON] = _int(pd, "poison", where, 0, 20)
    left = _int(pd, "poison_turns", where, 0, 20, 1 if s[b + L.PL_POISON] else 0)
    s[b + L.PL_POISON_LEFT] = left
    if s[b + L.PL_POISON] and not left:
        raise StateError(f"mushroomwalk state, key '{where}poison_turns': must be >= 1 with poison")
    s[b + L.PL_SCORE] = _int(pd, "score", where, 0, 10000)
    s[b + L.PL_COOKED] = _int(pd, "cooked", where, 0, 1000)
    s[b + L.PL_DISHES] = _int(pd, "dishes", where, 0, 100)
    s[b + L.PL_FIRST_PAN_TURN] = -1
    s[b + L.PL_FIRST_DISH_TURN] = -1


def state_to_json(s: np.ndarray, v: MushroomWalkParams, preset: str) -> dict[str, Any]:
    """The position in the same JSON form (face-down piles as counts unless all known)."""

    def pile(lo: int, top: int, end: int) -> Any:
        codes = [int(c) for c in s[lo + top : lo + end]]
        return len(codes) if CARD_UNKNOWN in codes else [card_name(c) for c in codes]

    out: dict[str, Any] = {"game": "mushroomwalk", "preset": preset}
    out["to_move"] = int(s[L.S_CUR])
    out["forest"] = [card_name(int(c)) for c in s[L.S_FOREST : L.S_FOREST + s[L.S_FOREST_N]]]
    out["decay"] = [card_name(int(c)) for c in s[L.S_DECAY : L.S_DECAY + s[L.S_DECAY_N]]]
    out["draw_pile"] = pile(L.S_DRAW, int(s[L.S_DRAW_TOP]), int(s[L.S_DRAW_END]))
    out["night_pile"] = pile(L.S_NIGHT, int(s[L.S_NIGHT_TOP]), int(s[L.S_NIGHT_END]))
    out["players"] = []
    for p in range(2):
        b = L.player_base(p)
        hand = []
        night = []
        for c in range(L.N_SLOTS):
            for _ in range(int(s[b + L.PL_HAND + c])):
                # an unknown card in a hand can only be a night card taken for a moon
                (hand if c < NIGHT_BASE else night).append(card_name(c))
        out["players"].append(
            {
                "hand": hand,
                "night": night,
                "pans": int(s[b + L.PL_PANS]),
                "baskets": int(s[b + L.PL_BASKETS]),
                "sticks": int(s[b + L.PL_STICKS]),
                "poison": int(s[b + L.PL_POISON]),
                "poison_turns": int(s[b + L.PL_POISON_LEFT]),
                "score": int(s[b + L.PL_SCORE]),
                "cooked": int(s[b + L.PL_COOKED]),
                "dishes": int(s[b + L.PL_DISHES]),
            }
        )
    return out
