"""Budgets on the command line: the one check of a time, memory and node budget
(``experiments.sweep.spec.read_seconds``, ``read_bytes``, ``read_nodes``)
that ``solve``, ``sweep`` and ``escalate`` share with the Python API.

NaN is no budget (it once ran as none and was written to ``run.json`` as
``NaN``, which is not JSON); ``inf`` is no time budget, recorded as null; a
memory budget below the smallest table a search keeps within is refused,
not silently exceeded.
"""

from __future__ import annotations

import json
import math

import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner

from canfield.experiments.cli import main
from canfield.experiments.sweep import make_spec
from canfield.experiments.sweep.spec import (
    MIN_MEMORY,
    MIN_MEMORY_TEXT,
    read_bytes,
    read_nodes,
    read_seconds,
)


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def strict_json(text: str):
    """``text`` as JSON that other tools read: no NaN, no Infinity."""

    def refuse(constant: str):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture
def finished_run(tmp_path):
    """A run folder as escalate reads its arguments: run.json of a solver sweep
    (escalate checks every budget before it looks at the rows)."""
    folder = tmp_path / "run"
    folder.mkdir()
    spec = make_spec("strict", "0:2", nodes=2000, memory="16MB")
    (folder / "run.json").write_text(json.dumps(spec.to_json()))
    return folder


# ---- NaN is never a budget ----------------------------------------------------------


@pytest.mark.parametrize("text", ["nan", "nans", "NaNms", "-nan"])
def test_nan_is_not_a_time_budget(text):
    with pytest.raises(ValueError, match="must be a positive duration"):
        read_seconds(text)
    with pytest.raises(ValueError, match="budget must be a positive duration"):
        read_seconds(math.nan, "budget")


def test_solve_refuses_a_nan_budget():
    assert_user_error(
        run("solve", "9", "--budget", "nan", "--json"), "--budget", "must be a positive duration"
    )


def test_sweep_refuses_a_nan_budget_before_making_its_folder(tmp_path):
    out = tmp_path / "run"
    args = ["--deals", "0:2", "--budget", "nan", "--workers", "1", "--out", str(out)]
    assert_user_error(run("sweep", *args), "--budget must be a positive duration")
    assert not out.exists()


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--ladder", "nans"], "a --ladder rung must be a positive duration"),
        (["--ladder", "20K,nans"], "a --ladder rung must be a positive duration"),
        (["--subsample", "2", "--seed", "1", "--budget", "nan"], "--budget must be a positive"),
        # an escalation records its budgets in escalate.json: none may be infinite
        (["--ladder", "infs"], "a --ladder rung must be a finite duration"),
        (["--subsample", "2", "--seed", "1", "--budget", "inf"], "--budget must be a finite"),
    ],
)
def test_escalate_refuses_a_nan_or_endless_time_budget(finished_run, args, fragment):
    assert_user_error(run("escalate", str(finished_run), *args, "--workers", "1"), fragment)
    assert not (finished_run / "escalate.json").exists()


# ---- inf is no time budget, written as JSON --------------------------------------------


def test_inf_is_no_time_budget():
    assert read_seconds("inf") == math.inf
    assert make_spec("strict", "0:2", budget="inf", nodes=2000).budget_seconds is None
    # given, it is not the default 10 s of a sweep without budgets
    assert make_spec("strict", "0:2", budget="inf").budget_seconds is None


def test_a_sweep_without_a_time_budget_writes_json_and_resumes(tmp_path):
    out = str(tmp_path / "run")
    args = ["--deals", "0:2", "--budget", "inf", "--nodes", "2000", "--workers", "1"]
    first = run("sweep", *args, "--out", out, "--no-progress")
    assert first.exit_code == 0, first.output
    spec = strict_json((tmp_path / "run" / "run.json").read_text())
    assert (spec["budget_seconds"], spec["budget_nodes"]) == (None, 2000)
    again = run("sweep", *args, "--out", out, "--no-progress")
    assert again.exit_code == 0, again.output
    assert "2/2 rows" in again.stderr


# ---- a memory budget holds the smallest table -------------------------------------------


@pytest.mark.parametrize("text", ["1B", "64KB", "1023KB", "0.5MB"])
def test_memory_below_the_smallest_table_is_refused(text):
    with pytest.raises(ValueError, match=f"must be at least {MIN_MEMORY_TEXT}"):
        read_bytes(text)
    assert_user_error(
        run("solve", "9", "--memory", text, "--nodes", "20000"), f"at least {MIN_MEMORY_TEXT}"
    )


def test_sweep_and_escalate_refuse_memory_below_the_smallest_table(tmp_path, finished_run):
    out = tmp_path / "small"
    args = ["--deals", "0:2", "--nodes", "2000", "--memory", "1B", "--out", str(out)]
    assert_user_error(run("sweep", *args), f"--memory must be at least {MIN_MEMORY_TEXT}")
    assert not out.exists()
    args = [str(finished_run), "--ladder", "20K", "--memory", "1KB", "--workers", "1"]
    assert_user_error(run("escalate", *args), f"--memory must be at least {MIN_MEMORY_TEXT}")


def test_the_smallest_memory_budget_is_kept(tmp_path):
    assert read_bytes(MIN_MEMORY_TEXT) == MIN_MEMORY == read_bytes("1MB")
    r = run("solve", "9", "--memory", MIN_MEMORY_TEXT, "--nodes", "20000", "--json")
    assert r.exit_code == 0, r.output
    row = strict_json(r.stdout.splitlines()[-1])
    assert row["budget_memory"] == MIN_MEMORY
    assert 0 < row["peak_table_bytes"] <= MIN_MEMORY


# ---- the shared checks ------------------------------------------------------------------


def test_an_endless_memory_size_is_one_error_line():
    # 'inf' reads as a float that int() cannot hold: it was a traceback
    assert_user_error(
        run("solve", "9", "--memory", "infGB", "--nodes", "20000"), "cannot read a memory size"
    )


@pytest.mark.parametrize(
    "read, value, error, fragment",
    [
        # numbers, as the Python API gives them, once skipped the checks of text
        (read_seconds, 0, ValueError, "must be a positive duration"),
        (read_seconds, -1.0, ValueError, "must be a positive duration"),
        (read_seconds, True, TypeError, "not bool"),
        (read_bytes, 2.5e6 + 0.5, ValueError, "whole number of bytes"),
        (read_bytes, [1], TypeError, "not list"),
        (read_nodes, 0, ValueError, "positive whole number"),
        (read_nodes, 1.5, ValueError, "positive whole number"),
        (read_nodes, math.nan, ValueError, "positive whole number"),
        (read_nodes, None, TypeError, "whole number of positions"),
    ],
)
def test_the_checks_refuse_numbers_with_one_clear_message(read, value, error, fragment):
    with pytest.raises(error, match=fragment):
        read(value)
