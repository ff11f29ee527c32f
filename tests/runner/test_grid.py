"""Grid expansion: counts, order (file order, last key fastest), stable ids, labels, keys."""

from __future__ import annotations

from simkit.runner import expand, load_scenario
from simkit.runner.grid import combinations, format_value

from .helpers import write


def test_combinations_order_last_key_fastest():
    got = combinations({"a": [1, 2], "b": ["x", "y", "z"]})
    assert got == [
        {"a": 1, "b": "x"},
        {"a": 1, "b": "y"},
        {"a": 1, "b": "z"},
        {"a": 2, "b": "x"},
        {"a": 2, "b": "y"},
        {"a": 2, "b": "z"},
    ]
    assert combinations({}) == [{}]


def test_expansion_counts_order_labels(tmp_path):
    text = """
game = "dicerace"
[set]
length = 20
[grid]
players = [2, 4]
bots = ["steady", "bold"]
bonus = [false, true]
"""
    cells = expand(load_scenario(write(tmp_path, text)))
    assert [pc.cell.cell_id for pc in cells] == list(range(8))
    assert [pc.label for pc in cells] == [
        "players=2, bots=steady, bonus=false",
        "players=2, bots=steady, bonus=true",
        "players=2, bots=bold, bonus=false",
        "players=2, bots=bold, bonus=true",
        "players=4, bots=steady, bonus=false",
        "players=4, bots=steady, bonus=true",
        "players=4, bots=bold, bonus=false",
        "players=4, bots=bold, bonus=true",
    ]
    last = cells[-1].cell
    assert (last.players, last.bots, last.variant.bonus, last.variant.length) == (
        4,
        ("bold",) * 4,
        True,
        20,
    )


def test_per_seat_bots_slots_and_presets(tmp_path):
    text = """
game = "dicerace"
players = 3
[grid]
preset = ["classic", "short"]
slots = [[1, 2, 3], [2, 3, 4, 5]]
bots = [["bold", "steady", "steady"], "steady"]
"""
    cells = expand(load_scenario(write(tmp_path, text)))
    assert len(cells) == 8
    assert cells[1].label == "preset=classic, slots=[1,2,3], bots=steady"
    assert cells[0].label == "preset=classic, slots=[1,2,3], bots=bold,steady,steady"
    assert cells[2].slots == (2, 3, 4, 5) and cells[0].slots == (1, 2, 3)
    assert cells[4].cell.variant.length == 12 and cells[4].preset == "short"


def test_unswept_label_is_the_preset_and_slots_default(tmp_path):
    cells = expand(load_scenario(write(tmp_path, 'game = "dicerace"\nplayers = 4\n')))
    assert [pc.label for pc in cells] == ["classic"]
    assert cells[0].slots == (1, 2, 3, 4) and cells[0].cell.slots is None


def test_ids_stable_and_independent_of_races_seed_chunking(tmp_path):
    base = 'game = "dicerace"\n[grid]\nfaces = [4, 6, 8]\nplayers = [2, 3]\n'
    a = expand(load_scenario(write(tmp_path, base, "a.toml")))
    b = expand(
        load_scenario(write(tmp_path, "seed = 5\nraces = 9\nchunk_size = 2\n" + base, "b.toml"))
    )
    assert [(p.cell.cell_id, p.label, p.spec()) for p in a] == [
        (p.cell.cell_id, p.label, p.spec()) for p in b
    ]
    assert a[3].label == "faces=6, players=3"


def test_cell_keys_zero_under_crn_else_distinct_and_content_based(tmp_path):
    text = 'game = "dicerace"\n[grid]\nfaces = [4, 6]\nbonus = [false, true]\n'
    crn = expand(load_scenario(write(tmp_path, text)))
    assert {pc.cell_key for pc in crn} == {0}
    own = expand(load_scenario(write(tmp_path, "crn = false\n" + text)))
    keys = [pc.cell_key for pc in own]
    assert len(set(keys)) == 4 and 0 not in keys
    # reordering the grid changes ids but not a cell's key (it hashes the cell's content)
    swapped = 'crn = false\ngame = "dicerace"\n[grid]\nbonus = [false, true]\nfaces = [4, 6]\n'
    again = expand(load_scenario(write(tmp_path, swapped, "t.toml")))
    assert {(p.cell.variant.faces, p.cell.variant.bonus): p.cell_key for p in again} == {
        (p.cell.variant.faces, p.cell.variant.bonus): p.cell_key for p in own
    }


def test_format_value():
    assert format_value(True) == "true"
    assert format_value((0, 0, 1)) == "[0,0,1]"
    assert format_value(["greedy", "random"]) == "greedy,random"
    assert format_value(0.5) == "0.5"


def test_per_seat_bots_set_the_number_of_seats(tmp_path):
    text = """
game = "dicerace"
[grid]
bots = [["bold", "steady"], ["bold", "bold", "steady", "steady"]]
"""
    cells = expand(load_scenario(write(tmp_path, text)))
    assert [pc.cell.players for pc in cells] == [2, 4]
    assert cells[1].label == "bots=bold,bold,steady,steady"
