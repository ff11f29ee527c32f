"""What both tuners share (simkit.tune.common): the folder guard, tune.json, the verdicts."""

from __future__ import annotations

import json
import math

import pytest

from simkit.errors import RunError
from simkit.tune import common


def test_a_folder_holding_a_tuning_is_refused_without_force(tmp_path):
    common.refuse_existing(tmp_path, False, "anything")  # no tune.json: nothing to refuse
    common.write_settings(tmp_path, {"seed": 3})
    with pytest.raises(RunError) as err:
        common.refuse_existing(tmp_path, False, f"--resume {tmp_path}, or --force")
    assert str(err.value) == (
        f"'{tmp_path}' already holds a tuning; continue it with --resume {tmp_path}, or --force"
    )
    common.refuse_existing(tmp_path, True, "anything")


def test_tune_json_is_written_and_read_back(tmp_path):
    common.write_settings(tmp_path, {"field": ["a", "b"], "seed": 0})
    text = (tmp_path / common.SETTINGS).read_text(encoding="utf-8")
    assert text == json.dumps({"field": ["a", "b"], "seed": 0}, indent=1) + "\n"
    assert common.read_settings(tmp_path) == {"field": ["a", "b"], "seed": 0}


def test_a_folder_without_tune_json_or_its_state_holds_no_tuning(tmp_path):
    message = f"'{tmp_path}' holds no tuning (tune.json missing); start one without --resume"
    with pytest.raises(RunError) as err:
        common.read_settings(tmp_path)
    assert str(err.value) == message
    common.write_settings(tmp_path, {})
    with pytest.raises(RunError) as err:
        common.require(tmp_path, "study.db")
    assert str(err.value) == message
    (tmp_path / "study.db").write_bytes(b"")
    common.require(tmp_path, "study.db")


@pytest.mark.parametrize(
    ("low", "high", "parity", "smaller", "verdict"),
    [
        (0.52, 0.60, 0.5, False, "better"),
        (0.40, 0.48, 0.5, False, "worse"),
        (0.45, 0.55, 0.5, False, "not separated"),
        (-2.0, -0.5, 0.0, True, "better"),
        (0.5, 2.0, 0.0, True, "worse"),
        (-1.0, 1.0, 0.0, True, "not separated"),
        (math.nan, math.nan, 0.5, False, "not separated"),
    ],
)
def test_an_interval_is_separated_from_parity_only_when_it_excludes_it(
    low, high, parity, smaller, verdict
):
    assert common.separated(low, high, parity, smaller_is_better=smaller) == verdict


def test_setting_rows_name_package_files_from_the_package_on_every_machine():
    """A tuning's recorded inputs read the same in every report: a file of the simkit
    package from the package (not this machine's path), each with its use and sha256."""
    from pathlib import Path

    import simkit
    from simkit.tune.common import setting_rows

    presets = Path(simkit.__file__).resolve().parent / "games" / "snowtails" / "bots.toml"
    inputs = {
        str(presets): {"sha256": "ab" * 32, "bytes": 1, "copy": "inputs/x", "use": "check"},
        "scenarios/s.toml": {
            "sha256": "cd" * 32,
            "bytes": 1,
            "copy": "inputs/y",
            "use": "scenario",
        },
    }
    rows = dict(setting_rows({"seed": 3, "inputs": inputs, "space": {}}, skip=("space",)))
    assert rows == {
        "seed": "3",
        "inputs": "scenarios/s.toml (scenario, sha256 cdcdcdcdcdcd); "
        "simkit/games/snowtails/bots.toml (check, sha256 abababababab)",
    }
