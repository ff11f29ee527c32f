"""No write, truncation or deletion follows a symbolic link inside a folder simkit writes
(issue 37): a run, report or picture whose parts are links is refused in one line, and the
file or folder the link points to is left as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from simkit.errors import RunError, SimkitError
from simkit.files import claim_file, claim_folder, create_new, write_replacing
from simkit.runner import load_scenario, resume, start

from .helpers import TINY as SCENARIO
from .helpers import write

LINK = "is a symbolic link, and simkit writes through no link in a folder it writes"


@pytest.fixture
def outside(tmp_path) -> Path:
    """A user's folder outside every folder simkit is given: a file and a chunk-named file."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes").write_text("mine")
    (home / "part-00000-000000.parquet").write_text("my own file of that name")
    return home


def _untouched(home: Path) -> None:
    assert sorted(p.name for p in home.iterdir()) == ["notes", "part-00000-000000.parquet"]
    assert (home / "notes").read_text() == "mine"
    assert (home / "part-00000-000000.parquet").read_text() == "my own file of that name"


def _run(tmp_path: Path, out: str, **kwargs) -> None:
    start(load_scenario(write(tmp_path, SCENARIO)), tmp_path / out, **kwargs)


def test_a_lock_made_a_link_is_never_truncated(tmp_path, outside):
    _run(tmp_path, "r")
    lock = tmp_path / "r" / ".simkit-lock"
    lock.unlink()
    lock.symlink_to(outside / "notes")
    with pytest.raises(RunError, match=rf"^'{lock}' {LINK} .*; remove it, then resume"):
        resume(tmp_path / "r")
    _untouched(outside)


def test_a_new_folder_holding_only_a_lock_link_is_refused(tmp_path, outside):
    (tmp_path / "u").mkdir()
    (tmp_path / "u" / ".simkit-lock").symlink_to(outside / "notes")
    with pytest.raises(RunError, match=rf"{LINK} .*; remove it, or choose another --out$"):
        _run(tmp_path, "u")
    _untouched(outside)


@pytest.mark.parametrize("how", ["force", "resume"])
def test_a_table_folder_made_a_link_is_neither_written_nor_cleaned(tmp_path, outside, how):
    _run(tmp_path, "r")
    races = tmp_path / "r" / "races"
    for p in races.iterdir():
        p.unlink()
    races.rmdir()
    races.symlink_to(outside, target_is_directory=True)
    with pytest.raises(RunError, match=rf"^'{races}' {LINK}"):
        if how == "force":
            _run(tmp_path, "r", force=True)
        else:
            resume(tmp_path / "r")
    _untouched(outside)


def test_a_run_folder_named_by_a_link_is_the_users_choice(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "named").symlink_to(tmp_path / "real", target_is_directory=True)
    _run(tmp_path, "named")
    assert (tmp_path / "real" / "manifest.json").is_file()


@pytest.mark.parametrize("name", ["index.html", ".simkit-output", "sub/deeper.png"])
def test_a_report_folder_holding_a_link_is_refused_even_with_force(tmp_path, outside, name):
    site = tmp_path / "site"
    claim_folder(site, "report")
    (site / name).parent.mkdir(parents=True, exist_ok=True)
    (site / name).unlink(missing_ok=True)
    (site / name).symlink_to(outside / "notes")
    with pytest.raises(SimkitError, match=rf"{LINK} .*; remove it, or choose another -o$"):
        claim_folder(site, "report", force=True, option="-o")
    _untouched(outside)


def test_a_picture_named_by_a_link_is_refused_even_with_force(tmp_path, outside):
    link = tmp_path / "mine.png"
    link.symlink_to(outside / "notes")
    with pytest.raises(SimkitError) as err:
        claim_file(link, suffix=".png", force=True, option="-o")
    assert str(err.value) == (
        f"-o '{link}' is a symbolic link, and simkit writes through no link (not even with "
        "--force); remove it, or choose another name"
    )
    _untouched(outside)


def test_a_temporary_name_planted_as_a_link_is_replaced_not_followed(tmp_path, outside):
    planted = tmp_path / f".pic.{os.getpid()}.tmp.png"
    planted.symlink_to(outside / "notes")
    os.close(create_new(planted))
    assert not planted.is_symlink() and planted.read_bytes() == b""
    write_replacing(tmp_path / "pic.png", lambda p: p.write_bytes(b"png"))
    assert (tmp_path / "pic.png").read_bytes() == b"png"
    assert not planted.exists()
    _untouched(outside)


def test_a_named_pipe_in_a_report_folder_is_refused_not_waited_on(tmp_path):
    site = tmp_path / "site"
    claim_folder(site, "report")
    os.mkfifo(site / "completion.png")
    with pytest.raises(SimkitError) as err:
        claim_folder(site, "report", force=True, option="-o")
    assert str(err.value) == (
        f"'{site / 'completion.png'}' is not a regular file (a named pipe), and simkit writes "
        "only regular files in a folder it writes; remove it, or choose another -o"
    )
