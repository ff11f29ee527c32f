"""``simkit moves`` for Mushroom Walk: every legal play from a position and its outcome.

The plays and outcomes come from the engine's own position functions
(``position.legal_plays`` and ``apply``, through their doors in :mod:`.kernels`): each
outcome is the position at the next decision, which is the same seat discarding when the
play took a poison mushroom. The forest is refilled from ``draw_pile`` when it is given as
a list; from a count, the new card shows as ``?``.

Positions are read from and written as JSON here (docs/state.md <-> the kernel's position
record: ``state_from_json``, ``state_to_json``), also for tests that set up a position by
hand. Every problem with the input, including a position no game can reach (more copies
of a card than the deck holds, a hand over its limit), is a ``StateError`` naming the key
and the fix.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from simkit.errors import SimkitError, StateError
from simkit.games.mushroomwalk.cards import (
    CARD_BASKET,
    CARD_BUTTER,
    CARD_CIDER,
    CARD_PAN,
    CARD_POISON,
    CARD_UNKNOWN,
    N_FOREST_CODES,
    N_KINDS,
    NAME_TO_CODE,
    NIGHT_BASE,
    card_name,
)
from simkit.games.mushroomwalk.kernels import apply, legal_plays, max_plays, winner
from simkit.games.mushroomwalk.params import PRESETS, MushroomWalkParams
from simkit.games.mushroomwalk.records import EVENT, MAX_DECK, PLAY, POSITION, TAKE, as_records
from simkit.games.mushroomwalk.trace import describe, play_name

_HAND_OK = set(range(N_KINDS)) | {CARD_BUTTER, CARD_CIDER, CARD_PAN}
_NIGHT_OK = set(range(NIGHT_BASE, NIGHT_BASE + N_KINDS)) | {CARD_UNKNOWN}
_FOREST_OK = set(range(N_FOREST_CODES))
_PLAYER_KEYS = {
    "hand",
    "night",
    "pans",
    "baskets",
    "sticks",
    "poison",
    "poison_turns",
    "score",
    "cooked",
    "dishes",
}
_TOP_KEYS = {
    "game",
    "preset",
    "set",
    "to_move",
    "forest",
    "decay",
    "draw_pile",
    "night_pile",
    "players",
}
_ERR = "mushroomwalk state, key"


def _bad(key: str, msg: str) -> StateError:
    """The one-line error about the position's ``key``."""
    return StateError(f"{_ERR} '{key}': {msg}", key=key)


def _card(key: str, name: Any, allowed: set[int]) -> int:
    code = NAME_TO_CODE.get(str(name))
    if code is None or code not in allowed:
        raise _bad(key, f"'{name}' is not a card allowed here")
    return int(code)


def _cards(d: Mapping[str, Any], key: str, allowed: set[int], where: str = "") -> list[int]:
    value = d.get(key, [])
    if not isinstance(value, list):
        raise _bad(f"{where}{key}", "expected a list of card names")
    return [_card(where + key, v, allowed) for v in value]


def _int(d: Mapping[str, Any], key: str, where: str, lo: int, hi: int, default: int = 0) -> int:
    value = d.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _bad(f"{where}{key}", f"expected an integer {lo}..{hi} (got {value!r})")
    return value


def _pile(d: Mapping[str, Any], key: str, allowed: set[int], default: int) -> list[int]:
    """A face-down pile: a list of card names (top first) or a count of unknown cards."""
    if isinstance(d.get(key, default), list):
        return _cards(d, key, allowed)
    return [int(CARD_UNKNOWN)] * _int(d, key, "", 0, MAX_DECK, default)


def variant_of(d: Mapping[str, Any]) -> MushroomWalkParams:
    """The position's variant: ``preset`` plus the overrides in ``set``."""
    try:
        return MushroomWalkParams.resolve(PRESETS, d.get("preset", "mushroomwalk"), d.get("set"))
    except SimkitError as exc:
        key = "preset" if exc.key == "preset" else "set"
        msg = str(exc).removeprefix("mushroomwalk: ")
        raise _bad(key, msg) from exc


class _Census:
    """Counts the cards a position shows, key by key, against what the variant's decks
    hold, so the key that shows one card too many is the one named."""

    def __init__(self, v: MushroomWalkParams):
        self.total = Counter(dict(enumerate(v.forest_counts())))
        for k in range(N_KINDS):
            self.total[int(NIGHT_BASE) + k] = v.night_cards[k]
        self.total[int(CARD_PAN)] += 2 * v.starting_pans  # spare cards ('Setup' 1)
        self.shown: Counter[int] = Counter()

    def take(self, key: str, codes: list[int]) -> None:
        for code, n in sorted(Counter(codes).items()):
            self.shown[code] += n
            if code != CARD_UNKNOWN and self.shown[code] > self.total[code]:
                raise _bad(
                    key,
                    f"{self.shown[code]} cards '{card_name(code)}' where the decks hold "
                    f"{self.total[code]} (counting the forest, the decay, draw and night "
                    "piles, hands and displays); no game can reach this",
                )


def state_from_json(d: Mapping[str, Any]) -> tuple[MushroomWalkParams, np.ndarray]:
    """The variant and a one-element ``POSITION`` array; ``StateError`` on bad input."""
    unknown = sorted(set(d) - _TOP_KEYS)
    if unknown:
        raise StateError(f"mushroomwalk state: unknown key '{unknown[0]}'", key=unknown[0])
    v = variant_of(d)
    census = _Census(v)
    arr = np.zeros(1, dtype=POSITION)
    pos = arr[0]
    pos["forest"][:] = -1
    pos["decay"][:] = -1
    pos["turn_play"]["kind"] = -1
    pos["outcome"]["card"] = -1
    forest = _cards(d, "forest", _FOREST_OK)
    if not 1 <= len(forest) <= v.forest_size:
        raise _bad(
            "forest",
            f"expected 1 to {v.forest_size} cards (got {len(forest)}); an empty forest means "
            "the game is over",
        )
    census.take("forest", forest)
    decay = _cards(d, "decay", _FOREST_OK)
    if len(decay) > v.decay_size:
        raise _bad("decay", f"at most {v.decay_size} cards (got {len(decay)})")
    census.take("decay", decay)
    pos["forest"][: len(forest)] = forest
    pos["forest_n"] = len(forest)
    pos["decay"][: len(decay)] = decay
    pos["decay_n"] = len(decay)
    if "draw_pile" not in d:
        raise StateError(
            "mushroomwalk state: key 'draw_pile' is missing (a count or a list)", key="draw_pile"
        )
    draw = _pile(d, "draw_pile", _FOREST_OK | {int(CARD_UNKNOWN)}, 0)
    census.take("draw_pile", draw)
    # the pile lies at the end of the deck array, as after the cards above were drawn
    pos["draw"][MAX_DECK - len(draw) :] = draw
    pos["draw_top"] = MAX_DECK - len(draw)
    pos["draw_end"] = MAX_DECK
    players = d.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise _bad("players", "expected a list of 2 players")
    mover = _int(d, "to_move", "", 0, 1)
    shown = 0
    for p, pd in enumerate(players):
        shown += _player(pos["seats"][p], p, pd, v, census, p == mover)
    # every hand card was drawn from the forest deck (so determinize finds room for the
    # opponent's hidden cards before the draw pile's top)
    drawn = len(forest) + len(decay) + len(draw)
    drawn += sum(int(s["hand"][:NIGHT_BASE].sum()) for s in pos["seats"])
    if drawn > v.deck_size():
        raise _bad(
            "draw_pile",
            f"{drawn} forest-deck cards in the forest, decay pile, draw pile and hands where "
            f"the deck holds {v.deck_size()}; no game can reach this",
        )
    night = _pile(d, "night_pile", _NIGHT_OK, max(0, sum(v.night_cards) - shown))
    if len(night) > N_KINDS:
        raise _bad("night_pile", f"at most {N_KINDS} cards")
    census.take("night_pile", night)
    pos["night"][: len(night)] = night
    pos["night_end"] = len(night)
    pos["cur"] = mover
    pos["mover"] = mover
    return v, arr


def _player(me: Any, p: int, pd: Any, v: MushroomWalkParams, census: _Census, moving: bool) -> int:
    """Fill seat ``p``'s record; return how many night cards it shows."""
    where = f"players[{p}]."
    if not isinstance(pd, dict):
        raise _bad(f"players[{p}]", "expected an object")
    unknown = sorted(set(pd) - _PLAYER_KEYS)
    if unknown:
        raise StateError(
            f"mushroomwalk state: unknown key '{where}{unknown[0]}'", key=where + unknown[0]
        )
    hand = _cards(pd, "hand", _HAND_OK, where)
    census.take(f"{where}hand", hand)
    night_names = pd.get("night", [])
    if not isinstance(night_names, list):
        raise _bad(f"{where}night", "expected a list of card names")
    full = ["?" if str(n) == "?" else "night" + str(n).removeprefix("night") for n in night_names]
    night = [_card(f"{where}night", n, _NIGHT_OK) for n in full]
    census.take(f"{where}night", night)
    for c in hand + night:
        me["hand"][c] += 1
    for c in night:  # night cards lie face up ('Your hand')
        me["seen"][c] += 1
    me["pans"] = _int(pd, "pans", where, 0, 50)
    me["baskets"] = _int(pd, "baskets", where, 0, 50)
    me["sticks"] = _int(pd, "sticks", where, 0, 1000)
    me["poison"] = _int(pd, "poison", where, 0, 20)
    census.take(f"{where}pans", [int(CARD_PAN)] * int(me["pans"]))
    census.take(f"{where}baskets", [int(CARD_BASKET)] * int(me["baskets"]))
    census.take(f"{where}poison", [int(CARD_POISON)] * int(me["poison"]))
    left = _int(pd, "poison_turns", where, 0, v.poison_turns + 1, 1 if me["poison"] else 0)
    me["poison_left"] = left
    if me["poison"] and not left:
        raise _bad(f"{where}poison_turns", "must be >= 1 with poison")
    me["score"] = _int(pd, "score", where, 0, 10000)
    me["cooked"] = _int(pd, "cooked", where, 0, 1000)
    me["dishes"] = _int(pd, "dishes", where, 0, 100)
    census.take(f"{where}dishes", [int(CARD_PAN)] * int(me["dishes"]))  # a pan each
    me["first_pan_turn"] = -1
    me["first_dish_turn"] = -1
    _check_limit(me, where, v, moving)
    return len(night)


def _check_limit(me: Any, where: str, v: MushroomWalkParams, moving: bool) -> None:
    """'Your hand': never over the limit. Over the poison's lower limit only the seat to
    move, which has just taken the poison and discards next ('The poison mushroom')."""
    held = int(me["hand"].sum())
    bonus = v.basket_bonus * int(me["baskets"])
    if held > v.hand_limit + bonus:
        raise _bad(
            f"{where}hand",
            f"{held} hand cards (night cards included) are over the hand limit "
            f"{v.hand_limit + bonus}; remove {held - v.hand_limit - bonus}",
        )
    if me["poison"] and not moving and held > v.poison_limit + bonus:
        raise _bad(
            f"{where}hand",
            f"{held} hand cards are over the poison's lower limit {v.poison_limit + bonus}; "
            "only the seat to move can be, while it discards",
        )


def state_to_json(pos: Any, preset: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The position in the same JSON form (face-down piles as counts unless all known)."""

    def pile(cards: np.ndarray) -> Any:
        codes = [int(c) for c in cards]
        return len(codes) if CARD_UNKNOWN in codes else [card_name(c) for c in codes]

    out: dict[str, Any] = {"game": "mushroomwalk", "preset": preset}
    if overrides:
        out["set"] = dict(overrides)
    out["to_move"] = int(pos["mover"])
    out["forest"] = [card_name(int(c)) for c in pos["forest"][: pos["forest_n"]]]
    out["decay"] = [card_name(int(c)) for c in pos["decay"][: pos["decay_n"]]]
    out["draw_pile"] = pile(pos["draw"][pos["draw_top"] : pos["draw_end"]])
    out["night_pile"] = pile(pos["night"][pos["night_top"] : pos["night_end"]])
    out["players"] = []
    for p in range(2):
        me = pos["seats"][p]
        hand: list[str] = []
        night: list[str] = []
        for c, n in enumerate(me["hand"]):
            # an unknown card in a hand can only be a night card taken for a moon
            (hand if c < NIGHT_BASE else night).extend([card_name(c)] * int(n))
        fields = ("pans", "baskets", "sticks", "poison", "score", "cooked", "dishes")
        row: dict[str, Any] = {"hand": hand, "night": night}
        row.update({f: int(me[f]) for f in fields})
        row["poison_turns"] = int(me["poison_left"])
        out["players"].append(row)
    return out


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
