"""Every size has an upper bound checked before any work (docs/scenarios.md, docs/tracks.md):
the inputs that once kept simkit busy for minutes or asked for gigabytes are one line now,
and control characters in a user's keys come back escaped."""

from __future__ import annotations

import pytest

from tests.fuzz.kit import one_line_or_success


def _line(tmp_path, name: str, text: str, *command: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return one_line_or_success([*command, str(path)])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "races = 1000000000000000000000000000000\n",
            "key 'races': must be an integer from 1 to 1_000_000_000",
        ),
        ("chunk_size = 3000000000\n", "key 'chunk_size': must be an integer from 1 to 100_000"),
        ("[precision]\nwidth = 0.1\nmax_races = 10000000000\n", "key 'precision.max_races'"),
        ("players = 100000\n", "key 'players': must be an integer from 1 to 64"),
        (
            "[grid]\n" + "".join(f"p{i} = [{', '.join(map(str, range(12)))}]\n" for i in range(6)),
            "key 'grid': 12 x 12 x 12 x 12 x 12 x 12 = 2,985,984 cells, more than 10,000",
        ),
        ("[grid]\nplayers = [" + ", ".join(map(str, range(2, 20002))) + "]\n", "20,000 cells"),
    ],
)
def test_scenario_sizes_are_bounded(tmp_path, text, message):
    err = _line(tmp_path, "s.toml", 'game = "dicerace"\n' + text, "scenario", "check")
    assert message in err


def test_a_huge_grid_is_refused_before_its_values_are_read(tmp_path):
    # 855,360 cells: the grid a fuzzer found to keep `scenario check` busy past a minute.
    text = 'game = "snowtails"\n[grid]\n'
    text += "hand_size = [" + ", ".join(["5"] * 99) + "]\n"
    text += "players = [" + ", ".join(map(str, range(90))) + "]\n"
    text += "bots = [" + ", ".join(['"greedy"'] * 96) + "]\n"
    err = _line(tmp_path, "s.toml", text, "scenario", "check")
    assert "855,360 cells, more than 10,000" in err


def test_a_long_wide_start_is_refused_before_it_is_laid_out(tmp_path):
    text = (
        'name = "long"\n[[segment]]\ntype = "start"\nlanes = 12\nlength = 10000\n'
        '[[segment]]\ntype = "finish"\nlength = 3\n'
    )
    err = _line(tmp_path, "t.toml", text, "tracks", "check")
    assert "segment 0: 'length' must be between 1 and" in err


@pytest.mark.parametrize(
    ("name", "command", "text"),
    [
        ("s.toml", ("scenario", "check"), 'game = "dicerace"\nx = ' + "[" * 100_000),
        ("t.toml", ("tracks", "check"), "x = " + "[" * 100_000),
        ("r.toml", ("routes", "check"), "x = " + "[" * 100_000),
        ("m.json", ("moves",), "[" * 100_000),
        ("m.json", ("moves",), '{"a":' * 100_000),
    ],
)
def test_deep_nesting_is_one_line(tmp_path, name, command, text):
    err = _line(tmp_path, name, text, *command)
    assert "nested deeper than 32 levels" in err or "not valid" in err


@pytest.mark.parametrize(
    ("name", "command"),
    [("s.toml", ("scenario", "check")), ("t.toml", ("tracks", "check")),
     ("r.toml", ("routes", "check")), ("m.json", ("moves",))],
)  # fmt: skip
def test_bytes_that_are_not_utf8_are_one_line(tmp_path, name, command):
    path = tmp_path / name
    path.write_bytes(b'name = "caf\xe9"\n')
    err = one_line_or_success([*command, str(path)])
    assert "not UTF-8 text (byte 0xe9 at offset 11); save it as UTF-8" in err


def test_control_characters_in_keys_come_back_escaped(tmp_path):
    err = _line(tmp_path, "s.toml", 'game = "dicerace"\n"\\u001b[2Jgone\\u202e" = 1\n',
                "scenario", "check")  # fmt: skip
    assert "key '\\x1b[2Jgone\\u202e': unknown key" in err


def test_a_file_larger_than_the_cap_is_not_read(tmp_path):
    path = tmp_path / "big.toml"
    path.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    err = one_line_or_success(["scenario", "check", str(path)])
    assert "larger than 1,048,576 bytes" in err
