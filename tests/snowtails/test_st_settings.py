"""A seat's bot settings (``records.BotSettings``): every name form ``parse_bot`` accepts
gives the settings its letters say, and the cell record holds them seat by seat under the
settings' names, as the kernels read them (``search.search_play``: ``cfg.horizon[p]``...)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from simkit.games import get
from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.bots import (
    MAX_BUDGET,
    MAX_CANDIDATES,
    MAX_HORIZON,
    N_WEIGHTS,
    SEARCH_BUDGET,
    greedy_presets,
    parse_bot,
)
from simkit.games.snowtails.records import (
    BOT_GREEDY,
    BOT_POLICY,
    BOT_RANDOM,
    BOT_SEARCH,
    MAX_SEATS,
    SEAT_SETTINGS,
    BotSettings,
)
from simkit.tracks import load

HUNDREDTHS = st.integers(1, 255)  # pL, sS and gG: 1 to 255 hundredths
GAMES = ("snowtails", "mushmush")  # Mush! Mush! has no distilled policy


@st.composite
def greedy_names(draw, game):
    """A greedy bot's name, and the weights it plays with."""
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(greedy_presets(game))))
        return name, greedy_presets(game)[name]
    finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
    weights = tuple(draw(st.lists(finite, min_size=N_WEIGHTS, max_size=N_WEIGHTS)))
    return f"greedy[{'/'.join(repr(w) for w in weights)}]", weights


@st.composite
def search_names(draw, game):
    """A search bot's name in every form the grammar has (``search``, ``search:N``,
    ``search:NhH``, ``v``/``w``, ``pL`` with ``cM``, ``sS``, ``gG`` after it, ``@`` a
    greedy bot or a distilled policy), and the settings it names."""
    policy = game == "snowtails" and draw(st.booleans())  # a prior: pL@policy:distilled
    bare = not policy and draw(st.booleans())  # 'search', 'search@greedy:bold'
    n = SEARCH_BUDGET if bare else draw(st.integers(1, MAX_BUDGET))
    name = "search" if bare else f"search:{n}"
    want = {"rollouts": n}
    if policy or (not bare and draw(st.booleans())):
        want["horizon"] = draw(st.integers(1, MAX_HORIZON))
        want["value"] = draw(st.sampled_from((0, 1, 2)))
        name += f"h{want['horizon']}" + ("", "v", "w")[want["value"]]
    if policy:
        want["prior"] = draw(HUNDREDTHS)
        name += f"p{want['prior']}"
        for letter, field, values in (
            ("c", "candidates", st.integers(2, MAX_CANDIDATES)),
            ("s", "stop", HUNDREDTHS),
            ("g", "gate", HUNDREDTHS),
        ):
            if draw(st.booleans()):
                want[field] = draw(values)
                name += f"{letter}{want[field]}"
        return name + "@policy:distilled", want, parse_bot("policy:distilled").weights
    if draw(st.booleans()):  # rollouts by the game's fitted greedy, or the one named
        guide, weights = draw(greedy_names(game))
        return f"{name}@{guide}", want, weights
    return name, want, parse_bot("greedy:tuned", game).weights  # each game's own fit


@st.composite
def bot_names(draw, game):
    """Any bot name of ``game``, and the settings it names."""
    forms = ["random", "greedy", "search"] + (["policy"] if game == "snowtails" else [])
    form = draw(st.sampled_from(forms))
    if form == "random":
        return "random", BotSettings(BOT_RANDOM, (0.0,) * N_WEIGHTS)
    if form == "greedy":
        name, weights = draw(greedy_names(game))
        return name, BotSettings(BOT_GREEDY, weights)
    if form == "policy":
        return "policy:distilled", BotSettings(BOT_POLICY, parse_bot("policy:distilled").weights)
    name, want, weights = draw(search_names(game))
    return name, BotSettings(BOT_SEARCH, weights, **want)


def in_game(strategy, size=None):
    """(game, what ``strategy(game)`` draws), or a list of 2 to ``size`` of them."""
    return st.sampled_from(GAMES).flatmap(
        lambda game: st.tuples(
            st.just(game),
            strategy(game) if size is None else st.lists(strategy(game), min_size=2, max_size=size),
        )
    )


@given(in_game(search_names))
def test_every_search_name_gives_the_settings_its_letters_say(drawn):
    game, (name, want, weights) = drawn
    assert parse_bot(name, game) == BotSettings(BOT_SEARCH, weights, **want)


@given(in_game(bot_names, MAX_SEATS))
def test_every_bot_name_round_trips_into_the_cell_record(drawn):
    game, seats = drawn
    names = tuple(name for name, _ in seats)
    for name, want in seats:
        assert parse_bot(name, game) == want, name
    slots = tuple(range(1, len(names) + 1))
    variant = get(game).presets[game]  # its game's: fitted presets are per game
    assert variant.game == game
    cfga, _ = cell_inputs(load("hairpins"), variant, names, slots)
    for seat, (name, want) in enumerate(seats):
        assert cfga["bots"][0, seat] == want.kind, name
        row = cfga["weights"][0, seat]
        assert tuple(row[: len(want.weights)]) == want.weights, name
        assert not row[len(want.weights) :].any(), name  # the rest of the row: zeros
        for setting in SEAT_SETTINGS:
            assert cfga[setting][0, seat] == getattr(want, setting), (name, setting)
    for field in ("bots", "weights", *SEAT_SETTINGS):  # seats beyond the field: nothing
        assert not cfga[field][0, len(names) :].any(), field
