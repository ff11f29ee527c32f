"""The CLI shell: version, help on every command, one meaning per option and short flag,
one --resume contract."""

import os
import subprocess
import sys

import click
from click.testing import CliRunner

from simkit import __version__
from simkit.cli import main


def test_version():
    res = CliRunner().invoke(main, ["--version"])
    assert res.exit_code == 0
    assert res.output == f"simkit, version {__version__}\n"


def _commands(group, prefix=()):
    for name, cmd in group.commands.items():
        yield (*prefix, name), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*prefix, name))


def test_every_command_has_help_text():
    for path, cmd in _commands(main):
        assert cmd.help and len(cmd.help.strip()) > 20, f"'simkit {' '.join(path)}' lacks help"
        res = CliRunner().invoke(main, [*path, "-h"])
        assert res.exit_code == 0, path
        assert "Usage: " in res.output


def test_games_lists_every_registered_game():
    from simkit.games import names

    res = CliRunner().invoke(main, ["games"])
    assert res.exit_code == 0, res.output
    rows = res.output.splitlines()
    assert rows[0].split()[:3] == ["game", "title", "players"]
    assert [r.split()[0] for r in rows[2:]] == names()


def test_race_needs_a_game_and_help_shows_the_games_examples():
    res = CliRunner().invoke(main, ["race"])
    assert res.exit_code == 2
    assert res.output.splitlines()[-1] == (
        "Error: give the game first, `simkit race GAME` (`simkit games` lists them), or "
        "--replay RUN_DIR"
    )
    res = CliRunner().invoke(main, ["race", "snowtail"])
    assert res.exit_code == 2 and "'snowtail' is not one of " in res.output
    assert "'mushroomwalk', 'snowtails'" in res.output
    res = CliRunner().invoke(main, ["race", "-h"])
    examples = res.output.split("Examples from the games:\n")[1].splitlines()
    assert "  simkit race snowtails --seed 7" in examples
    assert all(line.startswith("  simkit race ") for line in examples if line)


# Commands that name one game, and how their usage line shows it: the first argument.
GAME_FIRST = {
    ("race",): "Usage: simkit race [OPTIONS] [GAME]",
    ("variants",): "Usage: simkit variants [OPTIONS] GAME",
    ("ladder",): "Usage: simkit ladder [OPTIONS] [GAME]",
    ("bots", "tune"): "Usage: simkit bots tune [OPTIONS] [GAME] [BOT]",
}
# Old names that still work, hidden from --help: (command, old name) -> the new one.
RENAMED = {
    ("race", "--game"): "GAME",
    ("bots tune", "--budget"): "--evaluations",
    ("serve", "--cap"): "--max-races",
}


def _help(words):
    return CliRunner().invoke(main, [*words, "-h"], prog_name="simkit").output


def test_every_command_that_names_a_game_takes_it_as_its_first_argument():
    seen = set()
    for path, cmd in _every_command(main, click.Context(main)):
        if not any(p.name == "game" for p in cmd.params):
            continue
        seen.add(path)
        args = [p for p in cmd.params if isinstance(p, click.Argument)]
        assert args[0].name == "game", path
        assert _help(path).splitlines()[0] == GAME_FIRST[path]
    assert seen == set(GAME_FIRST)


def test_old_option_names_are_hidden_and_nothing_else_is():
    hidden = {}
    for path, cmd in _every_command(main, click.Context(main)):
        for param in cmd.params:
            if isinstance(param, click.Option) and param.hidden:
                hidden[(" ".join(path), max(param.opts, key=len))] = param
    assert set(hidden) == set(RENAMED)
    for (command, old), new in RENAMED.items():
        text = _help(command.split())
        assert old not in text and new in text, command
    assert sorted(hidden[("race", "--game")].opts) == ["--game", "-g"]
    assert " -g" not in _help(["race"])


def test_budget_counts_the_races_of_simkit_tune_only():
    """One meaning per option: --budget is the races a rules search may play; a bot's
    tuning counts --evaluations."""
    where = {
        " ".join(path)
        for path, cmd in _every_command(main, click.Context(main))
        for param in cmd.params
        if isinstance(param, click.Option) and not param.hidden and "--budget" in param.opts
    }
    assert where == {"tune"}
    assert "Races the search may play in all" in _help(["tune"])


def test_race_takes_the_game_first_and_its_old_option_with_a_notice(monkeypatch):
    import simkit.games
    from tests.runner.dicerace import GAME

    simkit.games.names()  # the real games first, so none is missing afterwards
    monkeypatch.setitem(simkit.games._REGISTRY, "dicerace", GAME)
    new = CliRunner().invoke(main, ["race", "dicerace", "--seed", "1"])
    assert new.exit_code == 0, new.output
    assert new.stdout.startswith("slot: ") and "deprecated" not in new.stderr
    assert CliRunner().invoke(main, ["race", "--seed", "1", "dicerace"]).stdout == new.stdout
    for old in (["--game", "dicerace"], ["-g", "dicerace"], ["dicerace", "-g", "dicerace"]):
        res = CliRunner().invoke(main, ["race", *old, "--seed", "1"], prog_name="simkit")
        assert res.exit_code == 0, res.output
        assert res.stdout == new.stdout
        assert res.stderr.splitlines()[0] == (
            "simkit race: -g/--game is deprecated; write the game first: "
            "simkit race dicerace [OPTIONS]"
        )
    res = CliRunner().invoke(main, ["race", "snowtails", "--game", "dicerace"])
    assert res.exit_code == 2 and res.stdout == ""
    assert res.output.splitlines()[-1] == (
        "Error: GAME 'snowtails' and the old -g/--game 'dicerace' differ; give GAME only"
    )
    res = CliRunner().invoke(main, ["race", "--game", "snowtail"])
    assert res.exit_code == 2 and "'snowtail' is not one of " in res.output


def test_a_game_adds_its_own_commands():
    from simkit.games import get

    assert "simkit.games.mush.cli:routes" in get("mush").extras.commands
    res = CliRunner().invoke(main, ["routes", "list"])
    assert res.exit_code == 0 and res.output.startswith("name")
    assert "routes" in CliRunner().invoke(main, ["-h"]).output


def test_variants_resolves_presets_like_every_other_command():
    res = CliRunner().invoke(main, ["variants", "mush", "--preset", "nope"])
    assert res.exit_code == 1
    assert (
        res.output
        == "Error: mush: unknown preset 'nope' (known: mush, mush-short-north, mush-skip-central)\n"
    )


def test_the_command_entry_sets_up_the_process_then_runs_the_cli():
    """``python -m simkit`` (and the ``simkit`` script, ``simkit._entry``): OpenBLAS is held
    to one thread unless the caller set it, the collector is on again for the command, and
    the CLI answers."""
    code = (
        "import gc, os, sys; from simkit import _entry; sys.argv = ['simkit', '--version'];\n"
        "try:\n    _entry.main()\nexcept SystemExit:\n"
        "    print(os.environ['OPENBLAS_NUM_THREADS'], gc.isenabled(), gc.get_freeze_count() > 0)"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    lines = out.stdout.splitlines()
    assert lines[0].startswith("simkit, version")
    assert lines[-1] == "1 True True"
    env["OPENBLAS_NUM_THREADS"] = "2"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.splitlines()[-1] == "2 True True"


def _every_command(group, ctx, prefix=()):
    """Every command of ``group`` (through its subgroups), the games' own commands too."""
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        yield (*prefix, name), cmd
        if isinstance(cmd, click.Group):
            yield from _every_command(cmd, click.Context(cmd, parent=ctx), (*prefix, name))


def test_a_short_flag_means_one_long_option_everywhere():
    meaning: dict[str, dict[str, list[str]]] = {}
    for path, cmd in _every_command(main, click.Context(main)):
        for param in cmd.params:
            if not isinstance(param, click.Option):
                continue
            names = [*param.opts, *param.secondary_opts]
            longs = sorted(n for n in names if n.startswith("--"))
            for short in (n for n in names if not n.startswith("--")):
                where = meaning.setdefault(short, {}).setdefault(longs[0], [])
                where.append(" ".join(path))
    clashes = {short: longs for short, longs in meaning.items() if len(longs) > 1}
    assert not clashes, f"short flags with several meanings: {clashes}"
    assert "--output" not in {long for longs in meaning.values() for long in longs}
    assert sorted(meaning["-t"]["--threads"]) == [
        "bots tune",
        "ladder",
        "run",
        "serve",
        "tune",
        "why",
    ]
    assert set(meaning["-p"]) == {"--players"} and set(meaning["-b"]) == {"--bots"}
    assert "-n" not in meaning


def test_an_option_is_declared_in_one_file_of_the_cli():
    """simkit/cli/common.py declares every option two command modules share."""
    import ast
    from pathlib import Path

    import simkit.cli

    files: dict[str, set[str]] = {}
    for source in sorted(Path(simkit.cli.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "option"
            ):
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and str(arg.value).startswith("-"):
                        files.setdefault(arg.value, set()).add(source.name)
    several = {opt: sorted(where) for opt, where in files.items() if len(where) > 1}
    assert not several, f"options declared in several files: {several}"
    for shared in ("--seed", "--out", "--threads", "--force", "--resume", "--players"):
        assert files[shared] == {"common.py"}


def test_every_resume_takes_the_folder_as_its_value(tmp_path):
    """One --resume contract: run, tune, ladder and bots tune take `--resume DIR`."""
    missing = tmp_path / "nothing-here"
    for words, what in (
        (["run"], "a run directory"),
        (["tune"], "a tuning folder"),
        (["ladder"], "a ladder's run directory"),
        (["bots", "tune"], "a tuning directory"),
    ):
        res = CliRunner().invoke(main, [*words, "--resume", str(missing)])
        assert res.exit_code == 2 and f"--resume takes {what} (got '{missing}')" in res.output
        res = CliRunner().invoke(main, [*words, "--resume"])
        assert res.exit_code == 2 and "'--resume' requires an argument" in res.output
        res = CliRunner().invoke(main, [*words, "--resume", str(tmp_path), "--seed", "1"])
        assert res.exit_code == 2 and "--seed cannot be used with --resume" in res.output
