"""Variant parameter machinery: validation, overrides, descriptions."""

from dataclasses import dataclass

import pytest

from simkit.errors import ParamError
from simkit.params import Variant, param


@dataclass(frozen=True)
class Toy(Variant):
    game = "toy"
    hand_size: int = param(5, "cards in hand", lo=1, hi=10, source="R-11")
    extra: tuple = param((0, 0, 0, 1, 2), "extra cards per slot", lo=0, hi=5, length=5)
    rate: float = param(0.5, "a rate", lo=0.0, hi=1.0)
    bonus: bool = param(True, "bonus on")
    rule: str = param("st1", "which rule", choices=("st1", "st2"))


def test_defaults_are_valid_and_described():
    t = Toy()
    rows = {r["name"]: r for r in t.describe()}
    assert rows["hand_size"] == {
        "name": "hand_size",
        "value": 5,
        "bounds": "1..10",
        "doc": "cards in hand",
        "source": "R-11",
    }
    assert rows["rule"]["bounds"] == "st1|st2"
    assert rows["bonus"]["bounds"] == ""


def test_replace_coerces_lists_and_ints():
    t = Toy().replace(extra=[1, 1, 1, 1, 1], rate=1)
    assert t.extra == (1, 1, 1, 1, 1) and t.rate == 1.0 and isinstance(t.rate, float)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"hand_sise": 4}, "toy: unknown parameter 'hand_sise' (did you mean 'hand_size'?)"),
        ({"hand_size": 11}, "toy.hand_size must be between 1 and 10 (got 11)"),
        ({"hand_size": "5"}, "toy.hand_size must be int (got '5')"),
        ({"hand_size": True}, "toy.hand_size must be int (got True)"),
        ({"extra": [0, 0]}, "toy.extra must have 5 entries (got 2)"),
        ({"extra": [0, 0, 0, 0, 9]}, "toy.extra must be between 0 and 5 (got 9)"),
        ({"extra": 3}, "toy.extra must be a list (got 3)"),
        ({"rule": "st3"}, "toy.rule must be one of 'st1', 'st2' (got 'st3')"),
        ({"bonus": 1}, "toy.bonus must be bool (got 1)"),
    ],
)
def test_bad_values_name_the_parameter_and_the_fix(overrides, message):
    with pytest.raises(ParamError) as err:
        Toy().replace(**overrides)
    assert str(err.value) == message
