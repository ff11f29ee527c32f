"""The text's own numbers as MUSH parameters, the presets, and the kernel vector."""

import pytest

from simkit.errors import ParamError, SimkitError
from simkit.games.mush import params as P
from simkit.games.mush.params import PRESETS, MushParams

# text, Entraînement: most sleds per training for each player count
TRAINING_TABLE = {2: (1, 0, 1), 3: (1, 1, 1), 4: (2, 1, 1), 5: (2, 2, 1), 6: (2, 2, 2)}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_training_limits_are_the_texts_table(players):
    assert MushParams().limits(players) == TRAINING_TABLE[players]


def test_rest_options_nikolai_unalakleet_vs_other_towns():
    v = MushParams()
    # text, Repos: Nikolai/Unalakleet: 2 dogs | 4 tokens | 1 dog + 2 tokens
    assert list(zip(v.rest_checkpoint[::2], v.rest_checkpoint[1::2], strict=True)) == [
        (2, 0),
        (0, 4),
        (1, 2),
    ]
    # any other town: 3 dogs | 6 tokens | 2 dogs + 2 tokens | 1 dog + 4 tokens
    assert list(zip(v.rest_town[::2], v.rest_town[1::2], strict=True)) == [
        (3, 0),
        (0, 6),
        (2, 2),
        (1, 4),
    ]
    assert v.rest_start_tokens == 1  # Anchorage: one token a turn


def test_token_costs_and_caps_are_the_texts():
    v = MushParams()
    assert v.start_tokens == 20
    assert v.reroll_cost == 3
    assert (v.reduce_cost, v.reduce_max_dice) == (2, 3)  # 2 a die, at most 6 tokens
    assert v.pass_cost == 4
    assert (v.rough_target, v.rough_token_max) == (4, 2)  # +1 a token, at most +2
    assert (v.avalanche_target, v.avalanche_token_max) == (6, 4)  # a 6; at most +4
    assert v.avalanche_cost == 5
    assert v.dogs == 8


def test_rulings_defaults():
    v = MushParams()
    assert v.dog_faces == (4, 3, 2) and v.die_sides == 6
    assert v.dice_colour == (0, 1, 2, 1, 0, 1, 2, 1, 0)  # match green, 1 step red
    assert v.bonus_table == (-1, 0, 0, 1, 1, 2)
    assert v.weather_central[4] == P.COLD  # text's example: a 5 on the Central table is cold


def test_presets_are_the_texts_short_games():
    assert set(PRESETS) == {"mush", "mush-short-north", "mush-skip-central"}
    short = PRESETS["mush-short-north"]
    assert short.finish == "first_north"
    assert all(short.limits(n)[P.COLD] == 0 for n in range(2, 7))  # nobody trains for cold
    assert all(sum(short.limits(n)) >= n for n in range(2, 7))
    assert PRESETS["mush-skip-central"].skip_central


def test_kernel_record():
    v = MushParams().replace(reroll_cost=7, rest_town=[1, 1])
    k = v.to_kernel()
    assert k.shape == (1,) and "route" not in k.dtype.names  # the route is compiled apart
    assert k["reroll_cost"][0] == 7
    assert k["rest_town_n"][0] == 2 and list(k["rest_town"][0, :2]) == [1, 1]
    assert list(k["weather_north"][0]) == list(v.weather_north)
    assert list(k["training_limits"][0]) == list(v.training_limits)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"rest_town": [1, 2, 3]}, "mush.rest_town must list (dogs, tokens) pairs (an even count)"),
        ({"dog_faces": [7, 3, 2]}, "mush.dog_faces must be at most die_sides=6 (got [7, 3, 2])"),
        ({"finish": "paris"}, "mush.finish must be one of 'nome', 'first_north' (got 'paris')"),
    ],
)
def test_bad_parameters(overrides, message):
    with pytest.raises(ParamError) as err:
        MushParams().replace(**overrides)
    assert str(err.value) == message


def test_limits_must_seat_everyone(make_cell):
    with pytest.raises(ParamError, match="allow 2 trainings for 3 players"):
        make_cell(players=3, training_limits=[1, 0, 1, 1, 0, 1, 2, 1, 1, 2, 2, 1, 2, 2, 2])


def test_mush_has_no_track_and_no_slot_choice():
    with pytest.raises(SimkitError, match="mush: slots are the order of choosing training"):
        from simkit.games.cells import build_cell

        build_cell("mush", players=3, slots=[1, 2, 5])


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("smart", "mush: unknown bot 'smart' (known: random, greedy, search)"),
        ("greedy:reserv=3", "mush: bot 'greedy:reserv=3': expected key=value with key one of"),
        ("greedy:reserve=x", "mush: bot 'greedy:reserve=x': reserve must be a number (got 'x')"),
        (
            "greedy:train=hot",
            "mush: bot 'greedy:train=hot': train must be warm, mild, cold or best",
        ),
        ("greedy:bid=-1", "mush: bot 'greedy:bid=-1': bid must be >= 0 (got -1)"),
    ],
)
def test_bad_bot_specs(spec, message):
    from simkit.games.mush.bots import bot_row

    with pytest.raises(SimkitError) as err:
        bot_row(spec)
    assert str(err.value).startswith(message)


def test_bot_spec_sets_its_parameters():
    from simkit.games.mush.bots import GREEDY, bot_row

    row = bot_row("greedy:reserve=8:train=cold")
    assert row["kind"] == GREEDY and row["reserve"] == 8 and row["train"] == 2
