"""Command-line input checks shared by the commands: budgets with units,
options given once, inputs checked before the compile, Ctrl-C, the numba cache."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner

from canfield.engine.formats import position_to_text
from canfield.engine.numba_cache import COMPILING_NOTE, source_digest
from canfield.engine.position import Position
from canfield.experiments.cli import main
from canfield.experiments.cli import solve as solve_module
from canfield.experiments.cli.budgets import MEMORY_SIZE, TIME_BUDGET
from canfield.experiments.sweep.spec import MIN_MEMORY_TEXT
from canfield.solver import config

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


# ---- budgets need a unit ----------------------------------------------------------


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["solve", "5", "--budget", "50000"], "a time budget needs a unit: 50000s or 50000m?"),
        (["solve", "5", "--budget", "10"], "--nodes"),
        (["solve", "5", "--memory", "10"], "a memory size needs a unit: 10MB or 10GB?"),
        (["solve", "5", "--memory", "2.5"], "256MB or 2GB"),
        (["bench", "solver", "--budget", "10"], "needs a unit"),
        (["bench", "solver", "--memory", "10"], "needs a unit"),
    ],
)
def test_a_bare_number_budget_is_an_error(args, fragment):
    assert_user_error(run(*args), fragment)


def test_budget_types_read_units_and_numbers_from_python():
    assert TIME_BUDGET.convert("500ms", None, None) == 0.5
    assert TIME_BUDGET.convert("2m", None, None) == 120.0
    assert MEMORY_SIZE.convert("256MB", None, None) == 256 << 20
    assert MEMORY_SIZE.convert(1 << 20, None, None) == 1 << 20  # a default given in bytes


def test_solve_help_names_the_one_memory_default():
    text = run("solve", "--help").output
    assert f"{config.DEFAULT_MEMORY >> 30}GiB" in text and "-p, --profile" in text


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_memory_help_names_the_smallest_table(command):
    # below it a solve took more memory than it was given: it is refused
    text = " ".join(run(command, "--help").output.split())
    assert f"per solve, e.g. 256MB or 2GB; at least {MIN_MEMORY_TEXT}," in text


# ---- an option given twice ----------------------------------------------------------


@pytest.mark.parametrize(
    "args, option",
    [
        (["solve", "--deal", "5", "--deal", "6"], "--deal"),
        (["solve", "5", "-p", "strict", "--profile", "hevagames"], "--profile"),
        (["solve", "5", "--probes", "--no-probes"], "--probes"),
        (["deal", "5", "-p", "strict", "-p", "hevagames"], "--profile"),
        (["replay", "--deal", "0", "--deal", "1", "-"], "--deal"),
        (["bench", "solver", "--budget", "1s", "--budget", "2s"], "--budget"),
    ],
)
def test_an_option_given_twice_is_an_error(args, option):
    assert_user_error(run(*args, input="draw\n"), option, "given more than once")


# ---- every input checked before the compile ---------------------------------------


@pytest.fixture
def no_compile(monkeypatch):
    """Make the solver's warm-up fail the test: the inputs must be refused first."""

    def boom(*_args, **_kwargs):
        raise AssertionError("compiled before checking the inputs")

    monkeypatch.setattr(solve_module, "warm_up", boom)


def test_bad_input_is_refused_before_the_compile(no_compile, tmp_path):
    worry = tmp_path / "worry.txt"
    worry.write_text(position_to_text(Position.from_deal(3, "cardgames")))
    batch = tmp_path / "batch.txt"
    batch.write_text("5\nAS KS\n")
    cases = [
        (["solve", str(2**64)], "deal number"),
        (["solve", "--cards", "AS KS"], "52 cards"),
        (["solve", "--file", str(batch)], f"{batch} line 2: a deal needs 52 cards"),
        (["solve", "--file", str(tmp_path / "none.txt")], "no such file"),
        (["solve", "5", "--pick", "7H"], "only for the selective profile"),
        (["solve", "5", "-p", "selective", "--pick", "KS"], "not one of the five"),
        (["solve", "--position", str(worry), "--pick", "7H"], "--pick is for a deal"),
        (["solve", "--position", str(worry), "--strategy", "layers"], "needs worry=no"),
    ]
    for args, fragment in cases:
        assert_user_error(run(*args), fragment)


def test_the_compiling_message_shows_only_when_the_cache_is_cold(monkeypatch, tmp_path):
    # an empty cache folder: nothing compiled there yet; warm_up itself records
    # the compile (the kernels load from the real cache, so this stays fast)
    from canfield.engine import numba_cache

    monkeypatch.setattr(numba_cache, "_cache_dir", tmp_path)
    first = run("solve", "4", "--nodes", "1000")
    assert first.exit_code == 0, first.output
    assert COMPILING_NOTE in first.stderr
    again = run("solve", "4", "--nodes", "1000")
    assert again.exit_code == 0 and COMPILING_NOTE not in again.stderr, again.stderr


# ---- real processes: Ctrl-C and the numba cache --------------------------------------


@pytest.mark.long(50)
def test_ctrl_c_during_a_cold_compile_is_one_line_and_exit_130(tmp_path):
    env = dict(os.environ, CANFIELD_NUMBA_CACHE=str(tmp_path / "cache"))
    # two packs: the shortest cold compile (about a third of one pack's)
    proc = subprocess.Popen(
        [sys.executable, "-m", "canfield.experiments.cli", "solve", "5", "-p", "double"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
        # as from a terminal: a suite started in the background inherits SIGINT
        # ignored, and an ignored signal stays ignored in the child
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    first = proc.stderr.readline()
    assert first.startswith("compiling the solver"), first
    time.sleep(3)  # well inside the compile (making the position compiles too)
    proc.send_signal(signal.SIGINT)
    # held until the compile ends (numba_cache.interrupts_deferred): raised
    # inside numba's callbacks it printed "Exception ignored ..." and more
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert out == "" and err.splitlines() == [
        "stopping once the compile ends (a compile cannot be cut short)",
        "error: interrupted",
    ], err


def test_an_unwritable_numba_cache_falls_back_with_one_warning(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")  # a directory cannot be made inside a file, even by root
    env = dict(os.environ, CANFIELD_NUMBA_CACHE=str(blocker / "cache"))
    code = "import canfield.engine, numba; print(numba.config.CACHE_DIR)"
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert proc.returncode == 0, proc.stderr
    cache = Path(proc.stdout.strip())
    assert cache.name == source_digest() and cache.is_dir()
    assert cache.is_relative_to(tempfile.gettempdir())
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: cannot write the numba cache")
    assert str(cache) in lines[0]


def test_group_help_lists_every_command_without_importing_it():
    import click as _click

    from canfield.experiments.cli import COMMANDS, SUMMARIES

    assert set(SUMMARIES) == set(COMMANDS)
    ctx = _click.Context(main)
    for name, summary in SUMMARIES.items():
        cmd = main.get_command(ctx, name)
        assert cmd.get_short_help_str(500) == summary, name
    code = (
        "import sys; from canfield.experiments.cli import main; "
        "main(['--help'], standalone_mode=False); "
        "print(sorted(m for m in ('numba', 'pandas', 'matplotlib') if m in sys.modules))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "[]"
    assert "solve" in proc.stdout and "Print the 52 cards of deal N" in proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["bench", "layers", "--budget", "120"],
        ["bench", "layers", "--memory", "8"],
        ["bench", "pruning", "--memory", "268435456"],
    ],
)
def test_every_bench_budget_needs_a_unit(args):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2 and "needs a unit" in res.stderr, res.output
