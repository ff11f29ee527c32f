"""Snow Tails bot names, specs and presets: what a seat's bot string means (Python).

``parse_bot`` reads a spec (``random``, a greedy preset such as ``greedy:bold`` or the
fitted ``greedy:tuned`` of the game's ``bots.toml``, ``greedy[w1/w2/...]``, ``search:N``
and its options, ``policy:NAME``) into its ``records.BotSettings`` (kind, weights and a
search's options by name), which ``batch.cell_inputs`` lays out for the kernels. The
greedy weights (``W_*``) and the presets are defined here; what the bots do with them is in
``policy.py`` (``random`` and ``greedy``), ``search.py`` and ``distil.py``, and
``choose.py`` gives each decision to its seat's bot.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

import numpy as np

from simkit.errors import SimkitError
from simkit.games.base import TunableBot
from simkit.games.snowtails.records import (
    BOT_GREEDY,
    BOT_POLICY,
    BOT_RANDOM,
    BOT_SEARCH,
    BotSettings,
)
from simkit.names import closest, did_you_mean

W_PROGRESS = 0  # per board unit of progress
W_INSIDE = 1  # per lane away from the inside for the current/next corner
W_DENT = 2  # per dent taken this turn
W_DENT_SQ = 3  # per unit of (dents after^2 - dents before^2): dents hurt more as they pile up
W_SLED = 4  # for hitting a sled (no refill this turn)
W_HAND = 5  # per distinct canine value left in hand
W_RISK = 6  # per point the slowest next-turn speed exceeds a corner it would then enter
W_DIE = 7  # per point of bonus dice kept for a later turn
W_BUILD = 8  # for adding a kennels' 5 to the deck; a third of it for the bothy (R-27)
W_REPAIR = 9  # for a fifth dent that sends the sled to repair
N_WEIGHTS = 10

W_NAMES = (
    "progress",
    "inside",
    "dent",
    "dent_sq",
    "sled",
    "hand",
    "risk",
    "die",
    "build",
    "repair",
)
GREEDY_PRESETS: dict[str, tuple[float, ...]] = {
    "greedy": (1.0, 0.3, 2.5, 0.3, 1.0, 0.2, 1.5, 0.6, 1.5, 15.0),
    "greedy:cautious": (1.0, 0.3, 4.0, 0.6, 1.5, 0.3, 3.0, 0.8, 1.5, 25.0),
    "greedy:bold": (1.0, 0.2, 1.2, 0.1, 0.5, 0.1, 0.5, 0.4, 1.0, 10.0),
}
# What ``simkit bots tune`` may fit: every weight but progress, which sets the scale.
TUNABLE = TunableBot(
    "greedy",
    W_NAMES,
    GREEDY_PRESETS["greedy"],
    (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    (1.0, 2.0, 10.0, 3.0, 5.0, 2.0, 6.0, 3.0, 6.0, 60.0),
)
PRESETS_FILE = Path(__file__).with_name("bots.toml")  # fitted presets ("greedy:tuned")


def presets_file(game: str) -> Path:
    """A game's fitted presets: ``simkit/games/<game>/bots.toml``. Each game of the family
    keeps its own, because weights fitted for one game's races do not carry over (Snow
    Tails' greedy:tuned loses to greedy in Mush! Mush!, docs/bots.md)."""
    return PRESETS_FILE.parents[1] / game / "bots.toml"


BOT_NAMES = ("random", "greedy", "search", "policy")
SEARCH_BUDGET = 64  # rollouts per card play of ``search`` (docs/rules-snowtails.md: why)
MAX_BUDGET = 100_000  # rollouts per card play of ``search:N``
MAX_HORIZON = 99  # rounds a rollout of ``search:NhH`` plays before it is scored
MAX_CANDIDATES = 8  # search.CANDIDATES, distil.K
POLICY_COEFS = 30  # a distilled policy's coefficients (distil.N_COEF, which checks it)
VALUE0 = N_WEIGHTS + POLICY_COEFS  # then the value a policy carries (search:NhHx, value3)
VALUE_COEFS = 32  # the value's coefficients (value.N_FEATURES3, which checks it)
# Then a policy's tanh layer, where it has one ([policy.NAME.mlp], distil.policy_score):
# its units at MLP0, then units x POLICY_COEFS input weights (unit by unit, the features'
# standardising folded in), units biases and units output weights.
MLP0 = VALUE0 + VALUE_COEFS
MLP_UNITS = 16  # at most


@functools.cache
def greedy_presets(game: str = "snowtails") -> dict[str, tuple[float, ...]]:
    """The greedy presets: the hand-weighted ones, then the fitted ones of the game's
    ``bots.toml`` (``presets_file``)."""
    presets = dict(GREEDY_PRESETS)
    path = presets_file(game)
    if path.exists():
        with path.open("rb") as fh:
            for name, entry in tomllib.load(fh).get("greedy", {}).items():
                presets[f"greedy:{name}"] = tuple(float(w) for w in entry["weights"])
    return presets


@functools.cache
def policy_presets(game: str = "snowtails") -> dict[str, tuple[float, ...]]:
    """The distilled policies of the game's ``bots.toml`` (``[policy.NAME]``, distil.py):
    each as its weights row, the prior greedy preset's ``N_WEIGHTS`` weights then its
    coefficients, and for a policy that carries a value (``value``: ``value.FEATURES3``'s
    coefficients, ``search:NhHx``) those after ``POLICY_COEFS`` columns of coefficients."""
    out: dict[str, tuple[float, ...]] = {}
    for name, entry in _policies(game).items():
        prior = greedy_presets(game)[entry["prior"]]
        coef = tuple(float(w) for w in entry["coef"])
        if "value" in entry or "mlp" in entry:
            value = tuple(float(w) for w in entry.get("value", ()))
            coef += (0.0,) * (POLICY_COEFS - len(coef)) + value
        if "mlp" in entry:
            where = f"{presets_file(game)} [policy.{name}.mlp]"
            coef += (0.0,) * (VALUE_COEFS - len(value)) + _mlp_row(entry["mlp"], where)
        out[f"policy:{name}"] = prior + coef
    return out


def _policies(game: str) -> dict[str, dict]:
    """The ``[policy.NAME]`` tables of the game's ``bots.toml``, as read."""
    return _policy_tables(presets_file(game))


@functools.cache
def _policy_tables(path: Path) -> dict[str, dict]:
    """Cached by the file's path, so a test that points ``PRESETS_FILE`` elsewhere reads
    that file."""
    if not path.exists():
        return {}
    with path.open("rb") as fh:
        return tomllib.load(fh).get("policy", {})


def _mlp_row(mlp: dict, where: str) -> tuple[float, ...]:
    """A policy's tanh layer as its weights row lays it out from ``MLP0``."""
    units = int(mlp["units"])
    w1 = [float(w) for row in mlp["w1"] for w in row]
    b1, w2 = [float(w) for w in mlp["b1"]], [float(w) for w in mlp["w2"]]
    if not 0 < units <= MLP_UNITS or (len(w1), len(b1), len(w2)) != (
        units * POLICY_COEFS,
        units,
        units,
    ):
        raise ValueError(
            f"{where}: a layer of 1 to {MLP_UNITS} units, each with {POLICY_COEFS} weights in "
            f"w1 and one in b1 and w2 (got units = {units}, {len(w1)}, {len(b1)}, {len(w2)})"
        )
    return (float(units), *w1, *b1, *w2)


def carries_value(policy: str, game: str = "snowtails") -> bool:
    """Whether the distilled ``policy`` (``policy:NAME``) of the game carries a value."""
    return "value" in _policies(game).get(policy.removeprefix("policy:"), {})


def parse_bot(spec: str, game: str = "snowtails") -> BotSettings:
    """The settings (``records.BotSettings``) of a bot name: ``random``, a greedy preset
    (``greedy``, ``greedy:bold``, ``greedy:tuned``...), greedy with explicit weights
    (``greedy[1/0.3/...]``, ``TUNABLE.names`` order), or the search bot ``search:N`` (N
    rollouts per card play; ``search`` alone: ``SEARCH_BUDGET``; ``search:NhH``: rollouts
    cut after H rounds and scored by race position there, search.py; ``search:NhHv``:
    scored there by the fitted value of the position, value.py; ``search:NhHw``: by its
    second value, ``value2``), whose prior,
    rollouts and other decisions are a greedy bot's: ``greedy:tuned`` when fitted, or the
    one named after ``@`` (``search:32@greedy:bold``); with ``pL`` after the horizon a
    distilled policy after ``@`` (``search:8h2vp3@policy:distilled``; ``policy:NAME``,
    distil.py, is also a bot of its own) ranks the candidates and weighs their results by
    L/100 of its score, and its prior greedy preset plays the rollouts (search.py); ``cM``
    after L compares its best M (2 to 8) on one sample each first, ``sS`` after that stops
    once the leader is S/100 ahead (at most N rollouts), and ``gG`` last plays the policy's
    best without a rollout when its prior leads the next play's by G/100 or more.
    Fitted presets are the ``game``'s own. Each number of a search's name goes into the
    settings' field of its letter. ``SimkitError`` (key ``bots``) otherwise."""
    if spec == "random":
        return BotSettings(BOT_RANDOM, (0.0,) * N_WEIGHTS)
    presets = greedy_presets(game)
    if spec in presets:
        return BotSettings(BOT_GREEDY, presets[spec])
    policies = policy_presets(game)
    if spec in policies:
        return BotSettings(BOT_POLICY, policies[spec])
    if spec == "search" or spec.startswith(("search:", "search@")):
        head, _, policy = spec.partition("@")
        budget, cut, horizon = (head.partition(":")[2] or str(SEARCH_BUDGET)).partition("h")
        horizon, _, lam = horizon.partition("p")  # search:NhHpL: the policy as a prior
        lam, gsep, gate = lam.partition("g")  # search:NhHpLgG: no search at a prior lead G/100
        lam, ssep, lead = lam.partition("s")  # search:NhHpLsS: stop at a lead of S/100
        lam, csep, cands = lam.partition("c")  # search:NhHpLcM: M candidates
        valued = cut and horizon.endswith("v")
        valued2 = cut and horizon.endswith("w")  # search:NhHw: the second value
        valued3 = cut and horizon.endswith("x")  # search:NhHx: the value its policy carries
        horizon = horizon[:-1] if valued or valued2 or valued3 else horizon
        if (
            not budget.isdigit()
            or not 1 <= int(budget) <= MAX_BUDGET
            or (cut and (not horizon.isdigit() or not 1 <= int(horizon) <= MAX_HORIZON))
            or (lam and (not lam.isdigit() or not 1 <= int(lam) <= 255))
            or (csep and (not cands.isdigit() or not 2 <= int(cands) <= MAX_CANDIDATES))
            or (ssep and (not lead.isdigit() or not 1 <= int(lead) <= 255))
            or (gsep and (not gate.isdigit() or not 1 <= int(gate) <= 255))
        ):
            raise SimkitError(
                f"{game}: bot '{spec}': the budget is rollouts per decision, "
                f"1 to {MAX_BUDGET} (e.g. search:{SEARCH_BUDGET}), optionally cut at H "
                f"rounds, 1 to {MAX_HORIZON} (e.g. search:16h2), scored there by the fitted "
                f"value with a 'v' (search:16h3v), the second value with a 'w' "
                f"(search:16h1w) or the value its policy carries with an 'x' "
                f"(search:6h2xp3c4@policy:broad), a policy's prior weight 1 to 255 after "
                f"'p', its candidates 2 to {MAX_CANDIDATES} after 'c', a lead that "
                f"stops it, 1 to 255 hundredths, after 's' and a prior lead that skips it, "
                f"1 to 255 hundredths, after 'g' (search:8h2vp3c4s30g20@policy:distilled)",
                key="bots",
            )
        # Its prior, rollouts and small decisions: a greedy bot, the fitted one by default.
        policy = policy or ("greedy:tuned" if "greedy:tuned" in presets else "greedy")
        guide = parse_bot(policy, game)
        if guide.kind != BOT_GREEDY and not (guide.kind == BOT_POLICY and lam):
            raise SimkitError(
                f"{game}: bot '{spec}': a search plays out with a greedy bot, and takes a "
                f"distilled policy as a prior only (e.g. search:8h2vp3@policy:distilled; "
                f"got '{policy}')",
                key="bots",
            )
        # An 'x': the value the policy after @ carries; none without one.
        if valued3 and not (lam and guide.kind == BOT_POLICY and carries_value(policy, game)):
            have = [p for p in policies if carries_value(p, game)]
            raise SimkitError(
                f"{game}: bot '{spec}': an 'x' scores by the value a distilled policy "
                f"carries, the prior after '@' (e.g. search:6h2xp3c4@"
                f"{have[0] if have else 'policy:NAME'}; policies with a value here: "
                f"{', '.join(have) or 'none'})",
                key="bots",
            )
        # The policy ranks and weighs the candidates; greedy plays the rollouts.
        if lam and guide.kind != BOT_POLICY:
            raise SimkitError(
                f"{game}: bot '{spec}': a prior (pL) is a distilled policy's "
                f"(e.g. search:8h2vp3@policy:distilled)",
                key="bots",
            )
        return BotSettings(
            BOT_SEARCH,
            guide.weights,
            rollouts=int(budget),
            horizon=int(horizon or 0),
            value=1 if valued else 2 if valued2 else 3 if valued3 else 0,
            prior=int(lam or 0),
            candidates=int(cands or 0),
            stop=int(lead or 0),
            gate=int(gate or 0),
        )
    if spec.startswith("greedy[") and spec.endswith("]"):
        try:
            weights = tuple(float(x) for x in spec[7:-1].split("/"))
        except ValueError:
            weights = ()
        if len(weights) == N_WEIGHTS and all(np.isfinite(weights)):
            return BotSettings(BOT_GREEDY, weights)
        raise SimkitError(
            f"{game}: bot '{spec}' needs {N_WEIGHTS} numbers ({', '.join(W_NAMES)})",
            key="bots",
        )
    known = ", ".join(
        [
            "random",
            *presets,
            *policies,
            "greedy[w1/w2/...]",
            "search:N",
            "search:NhH",
            "search:NhHv",
            "search:NhHw",
            "search:NhHx@policy:NAME",
            # the cheap strong bots (docs/bots.md), where the game has the policy they name
            *(["search:6h2wp3c4@policy:distilled"] if "policy:distilled" in policies else []),
            *(["search:6h2xp3c4@policy:broad"] if carries_value("policy:broad", game) else []),
        ]
    )
    base, _, name = spec.partition(":")
    if name and base == "greedy":
        # A preset's own name decides ('greedy:tunned' -> 'greedy:tuned'): the shared
        # 'greedy:' would make any preset look close ('greedy:tuned' -> 'greedy:bold' in a
        # game without a fit).
        close = closest(name, [p.partition(":")[2] for p in presets if ":" in p])
        hint = f"; did you mean 'greedy:{close}'?" if close else ""
    else:
        hint = did_you_mean(spec, ["random", *presets, *policies, "search"])
    if not hint and name and base == "greedy":
        hint = (
            f"; fitted presets are per game (docs/bots.md): fit one with "
            f"'simkit bots tune {game} greedy --name {name}', then name its bots file "
            "with --bots-file"
        )
    raise SimkitError(f"{game}: unknown bot '{spec}' (known: {known}){hint}", key="bots")
