"""Variant parameter machinery: validation, overrides, descriptions."""

from dataclasses import dataclass

import numpy as np
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


@dataclass(frozen=True)
class Sized(Variant):
    game = "sized"
    table: tuple = param((1, 2), "per-slot values", lo=0, hi=9, length=(2, 4))
    weights: tuple = param((0.5, 1.5), "weights", lo=0.0, hi=2.0, length=2)
    name: str = param("x", "a file name", kernel=False)


def test_kernel_layout_is_computed_from_the_fields():
    dt = Toy.kernel_dtype()
    assert dt.names == ("hand_size", "extra", "rate", "bonus", "rule")
    assert dt["extra"].shape == (5,) and dt["rate"].base == np.float64
    rec = Toy().replace(rule="st2", extra=[1, 2, 3, 4, 5]).to_kernel()
    assert rec.shape == (1,) and rec["rule"][0] == 1 and list(rec["extra"][0]) == [1, 2, 3, 4, 5]
    # A tuple whose length varies carries its length; free text stays out of the kernel.
    assert Sized.kernel_dtype().names == ("table", "table_n", "weights")
    rec = Sized(table=(7, 8, 9)).to_kernel()
    assert list(rec["table"][0]) == [7, 8, 9, 0] and rec["table_n"][0] == 3


def test_free_text_needs_kernel_false():
    @dataclass(frozen=True)
    class Bad(Variant):
        game = "bad"
        path: str = param("a.toml", "a path")

    with pytest.raises(TypeError, match="kernel=False"):
        Bad.kernel_dtype()


def _changed(v):
    """{field: v with that field changed to another legal value} where one exists."""
    import dataclasses

    out = {}
    for f in dataclasses.fields(v):
        m, value = f.metadata, getattr(v, f.name)
        if not m.get("kernel", True):
            continue
        if m.get("choices") is not None:
            cands = [c for c in m["choices"] if c != value]
        elif isinstance(value, bool):
            cands = [not value]
        elif isinstance(value, tuple):
            hi = m.get("hi")
            cands = [tuple(hi if hi is not None and x != hi else x for x in value)] if value else []
        else:
            cands = [x for x in (m.get("hi"), m.get("lo")) if x is not None and x != value]
        for c in cands:
            try:
                out[f.name] = v.replace(**{f.name: c})
                break
            except ParamError:  # a cross-field check refused this value
                continue
    return out


def test_every_kernel_field_of_every_game_round_trips():
    from simkit.games import get, names

    checked = 0
    for game in names():
        for v in get(game).presets.values():
            for w in [v, *_changed(v).values()]:
                rec = Variant.to_kernel(w)
                back = type(w).from_kernel(rec)
                assert back == {k: getattr(w, k) for k in back}, (game, w)
                checked += 1
    assert checked > 50


def test_errors_carry_the_parameter_they_are_about():
    with pytest.raises(ParamError) as bad:
        Toy().replace(hand_size=99)
    assert bad.value.key == "hand_size"
    with pytest.raises(ParamError) as unknown:
        Toy().replace(hand_sise=5)
    assert unknown.value.key == "hand_sise" and "did you mean 'hand_size'" in str(unknown.value)
    with pytest.raises(ParamError) as preset:
        Toy.resolve({"book": Toy()}, "nope")
    assert preset.value.key == "preset"
    assert Toy.resolve({"book": Toy()}, "book", {"rate": 1}).rate == 1.0
