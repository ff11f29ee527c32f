"""Routes as data: the shipped line-up (R-40, text) and errors that name file and space."""

from pathlib import Path

import numpy as np
import pytest

from simkit.errors import RouteError
from simkit.games.mush.route import REST_KINDS, ROUGH, TOWN, ZONES, load_route, route_names


def test_shipped_routes():
    assert route_names() == ["sprint", "standard"]


def test_standard_line_up_is_the_texts():
    r = load_route("standard")
    # text, last section: Anchorage, Finger Lake, Ophir/Anvik, Koyuk, Nome, left to right
    assert [b.name for b in r.boards] == [
        "Anchorage",
        "Finger Lake",
        "Ophir/Anvik",
        "Koyuk",
        "Nome",
    ]
    assert [ZONES[b.zone] for b in r.boards] == ["south", "south", "central", "north", "north"]
    assert r.n_trails == 3
    assert r.town_name[r.start] == "Anchorage" and r.town_name[r.finish] == "Nome"
    assert REST_KINDS[r.rest[r.start]] == "start"
    for name in ("Nikolai", "Unalakleet"):  # text: the two special rest towns
        v = r.town(name)
        assert REST_KINDS[r.rest[v]] == "checkpoint"
        assert r.trails_mask[v] == 0b111  # every trail passes through (skip-Central game)
    others = [v for v in range(r.n_spaces) if r.kind[v] == TOWN and r.rest[v] == 3]
    assert len(others) > 20
    # about 25 spaces per board per trail
    assert all(b.length == 25 for b in r.boards)


def test_avalanche_lines_avoid_rough_terrain():
    # text: a marker may lie on any line except one partly or wholly in rough terrain
    r = load_route("standard")
    touches_rough = (r.kind[r.line_from] == ROUGH) | (r.kind[r.out_to] == ROUGH)
    assert np.array_equal(r.line_avalanche, ~touches_rough)
    assert r.line_dashed.sum() == 44


def test_lines_go_forward_so_every_path_ends():
    r = load_route("standard")
    assert (r.col[r.out_to] > r.col[r.line_from]).all()


GOOD = """
name = "mini"
start = "Start"
finish = "End"
[[boards]]
name = "B1"
zone = "south"
trails = ["S.^.E", "S...E"]
links = [[0, 1, 1, 2]]
[boards.towns]
S = { name = "Start", rest = "start" }
E = { name = "End", rest = "none" }
"""


def _write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "r.toml"
    p.write_text(text)
    return str(p)


def test_a_user_route_loads(tmp_path):
    r = load_route(_write(tmp_path, GOOD))
    assert r.n_spaces == 8 and r.n_lines == 9
    assert r.describe(2) == "board 'B1' trail 1 column 1"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'zone = "south"',
            'zone = "west"',
            "board 'B1': zone must be one of south, central, north (got 'west')",
        ),
        (
            '"S.^.E", "S...E"',
            '"S.^.E", "S..x.E"',
            "board 'B1': trail 1 has 6 columns, trail 0 has 5",
        ),
        (
            '"S.^.E", "S...E"',
            '"S.^.E", "S.*.E"',
            "board 'B1' trail 1 column 2: unknown character '*' (use . ^ - or a town letter)",
        ),
        (
            '"S.^.E", "S...E"',
            '"S.^.E", "S.Q.E"',
            "board 'B1' trail 1 column 2: town letter 'Q' is not in [towns]",
        ),
        (
            "[[0, 1, 1, 2]]",
            "[[0, 2, 1, 1]]",
            "board 'B1' links[0]: links go forward: column 1 must be after column 2",
        ),
        ("[[0, 1, 1, 2]]", "[[0, 1, 2, 2]]", "board 'B1' links[0]: no space at trail 2 column 2"),
        ('finish = "End"', 'finish = "Nome"', "has no town 'Nome'"),
        ('"S.^.E", "S...E"', '"S.^.E", "S..-E"', None),
        (
            '"S.^.E", "S...E"',
            '"S.^..", "S...E"',
            "board 'B1' trail 0 column 2: cannot reach the finish 'End' from here",
        ),
        (
            'rest = "start"',
            'rest = "inn"',
            "board 'B1' town 'S': rest must be one of none, start, checkpoint, town (got 'inn')",
        ),
        (
            'zone = "south"',
            'zone = "south"\nzones = 1',
            "board 'B1': unknown key 'zones' (allowed: links, name, towns, trails, weather, zone)",
        ),
    ],
)
def test_route_errors_name_the_file_and_the_space(tmp_path, old, new, message):
    path = _write(tmp_path, GOOD.replace(old, new))
    if message is None:  # a gap in a trail is fine
        load_route(path)
        return
    with pytest.raises(RouteError) as err:
        load_route(path)
    sep = ", " if message.startswith("board") else ": "
    assert str(err.value) == f"route '{path}'{sep}{message}"


def test_unknown_route_name():
    with pytest.raises(RouteError, match="unknown route 'nowhere' \\(shipped: sprint, standard"):
        load_route("nowhere")


def test_bad_toml(tmp_path):
    path = _write(tmp_path, "name = ")
    with pytest.raises(RouteError, match=f"route '{path}': not valid TOML"):
        load_route(path)
