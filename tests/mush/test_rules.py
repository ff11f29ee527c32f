"""Rule helpers of the engine against the text's numbers and its worked examples."""

import numpy as np

from simkit.games.mush import kernels as E
from simkit.games.mush.params import MushParams
from simkit.rng import STREAM_DICE, stream_state

WARM, MILD, COLD = 0, 1, 2


def _allowed(players, taken):
    out = np.zeros(3, dtype=np.int64)
    limits = MushParams().to_kernel()["training_limits"][0]
    E.training_allowed(limits, players, np.array(taken), out)
    return [t for t in range(3) if out[t]]


def test_the_texts_four_player_training_example():
    # text, Entraînement: Peter picks cold; Karsten may pick warm or mild and picks warm;
    # Regina may pick warm or mild and picks mild; Manfred is left with warm only.
    assert _allowed(4, [0, 0, 0]) == [WARM, MILD, COLD]
    assert _allowed(4, [0, 0, 1]) == [WARM, MILD]
    assert _allowed(4, [1, 0, 1]) == [WARM, MILD]
    assert _allowed(4, [1, 1, 1]) == [WARM]
    assert _allowed(4, [2, 1, 1]) == []


def test_two_players_cannot_train_mild():
    assert _allowed(2, [0, 0, 0]) == [WARM, COLD]


def test_rest_options_obey_the_town_sign():
    # text: the sign of each town caps dogs removed and tokens taken in one turn
    assert E.apply_rest(3, 0, 5, 99, 999) == (3, 0)
    assert E.apply_rest(3, 0, 5, 2, 999) == (2, 0)  # sign: at most 2 dogs
    assert E.apply_rest(3, 0, 1, 99, 999) == (1, 0)  # only one dog is covered
    assert E.apply_rest(1, 4, 5, 99, 3) == (1, 3)  # sign: at most 3 tokens


def _stream_with_first_d6(face):
    """A dice stream whose first d6 shows ``face`` (searching seeds, not faking the die)."""
    for root in range(1000):
        st = stream_state(root, STREAM_DICE, 0)
        if E.d6(st.copy(), 0) == face:
            return st
    raise AssertionError("no stream found")


def test_the_texts_rough_terrain_example():
    # text, Passer au travers de terrain accidenté: +2 bought; a 2 makes 4 and passes,
    # a 1 makes 3 and fails (the move then ends: see test_engine).
    p = MushParams()
    die, ok = E.check_roll(_stream_with_first_d6(2), 0, p.rough_target, 2)
    assert (die, ok) == (2, True)
    die, ok = E.check_roll(_stream_with_first_d6(1), 0, p.rough_target, 2)
    assert (die, ok) == (1, False)
    die, ok = E.check_roll(_stream_with_first_d6(3), 0, p.rough_target, 0)
    assert (die, ok) == (3, False)  # without tokens a 3 is not enough


def test_avalanche_needs_a_six():
    p = MushParams()
    assert E.check_roll(_stream_with_first_d6(5), 0, p.avalanche_target, 0)[1] is False
    assert E.check_roll(_stream_with_first_d6(6), 0, p.avalanche_target, 0)[1] is True
    assert E.check_roll(_stream_with_first_d6(2), 0, p.avalanche_target, 4)[1] is True


def test_dog_dice_counts_faces():
    st = stream_state(7, STREAM_DICE, 0)
    assert E.roll_dogs(st.copy(), 0, 8, 6, 6) == 8  # all faces dogs
    assert E.roll_dogs(st.copy(), 0, 8, 0, 6) == 0
    # green dice (4 of 6) average 4/6 a die
    hits = sum(E.roll_dogs(st, 0, 8, 4, 6) for _ in range(3000))
    assert abs(hits / 24000 - 4 / 6) < 0.015
