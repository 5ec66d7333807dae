"""``canfield report`` and ``canfield plot``: where they write, what they warn about."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner
from test_report import make_rows, make_run

from canfield.experiments.cli import main


def run(*args: str, columns: int = 80):
    return CliRunner().invoke(main, list(args), env={"COLUMNS": str(columns)})


@pytest.fixture
def full_run(tmp_path) -> Path:
    return make_run(tmp_path / "run", make_rows(), ("strict", "hevagames"))


@pytest.fixture
def a_file(tmp_path) -> Path:
    path = tmp_path / "a_file"
    path.write_text("not a folder\n")
    return path


def test_report_of_a_file_wants_a_run_folder(a_file, tmp_path):
    assert_user_error(run("report", str(a_file)), "is a file, not a run folder")
    assert_user_error(run("plot", str(a_file), "--out", str(tmp_path / "p")), "not a run folder")
    assert_user_error(
        run("report", str(tmp_path / "nowhere")), "not a run folder: it does not exist"
    )
    assert not (tmp_path / "p").exists()


@pytest.mark.parametrize("option", ["--out", "--plots"])
def test_report_to_an_unwritable_folder_prints_nothing_first(full_run, a_file, option):
    # a folder beneath a file can never be made, whoever runs the test
    assert_user_error(run("report", str(full_run), option, str(a_file / "sub")), option)


def test_plot_to_an_unwritable_folder(full_run, a_file):
    assert_user_error(run("plot", str(full_run), "--out", str(a_file / "sub")), "cannot write")


def test_report_fits_the_terminal_unless_wide(full_run):
    narrow = run("report", str(full_run), columns=80)
    assert narrow.exit_code == 0, narrow.output
    assert max(map(len, narrow.stdout.splitlines())) <= 80
    wide = run("report", str(full_run), "--wide", columns=80)
    assert max(map(len, wide.stdout.splitlines())) > 150
    assert "60.0 .. 80.0" in narrow.stdout and "60.0 .. 80.0" in wide.stdout


def test_report_warns_about_an_unfinished_run(tmp_path):
    half = make_run(tmp_path / "half", make_rows(("strict",)), ("strict", "hevagames"))
    full = make_run(tmp_path / "full", make_rows(("strict",)), ("strict",))
    r = run("report", str(half), str(full), "--out", str(tmp_path / "rep"))
    assert r.exit_code == 0, r.output
    warnings = [line for line in r.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == ["warning: run half holds 10 of 20 rows (unfinished)"]
    assert r.stdout.splitlines()[0] == "runs: half (unfinished: 10 of 20 rows), full"
    assert "Unfinished runs" in (tmp_path / "rep" / "report.md").read_text()


@pytest.mark.parametrize(("text", "kind"), [("[]", "array"), ("3", "number"), ('"x"', "string")])
@pytest.mark.parametrize("command", ["report", "sweep"])
def test_run_json_not_an_object_is_one_error_line(full_run, text, kind, command):
    spec = full_run / "run.json"
    spec.write_text(text + "\n")
    args = ["--deals", "0:10", "--nodes", "1000", "--out"] if command == "sweep" else []
    assert_user_error(run(command, *args, str(full_run)), "run.json is unreadable", f"JSON {kind}")
    assert spec.read_text() == text + "\n"  # left for the user to mend, not replaced


@pytest.mark.parametrize(("text", "kind"), [("[]", "array"), ("null", "null")])
def test_escalate_json_not_an_object_is_one_error_line(full_run, text, kind):
    spec = full_run / "escalate.json"
    spec.write_text(text + "\n")
    assert_user_error(run("report", str(full_run)), "escalate.json is unreadable", f"JSON {kind}")
    assert spec.read_text() == text + "\n"


def test_report_of_a_run_with_no_rows_yet(full_run, tmp_path):
    from canfield.experiments.sweep import RunFolder, SweepSpec

    empty = tmp_path / "empty"
    RunFolder(empty).init(SweepSpec(("strict",), 0, 10, None, 1000, 1 << 24))
    assert_user_error(run("report", str(empty)), "no rows yet in empty")
    assert_user_error(run("plot", str(empty), "--out", str(tmp_path / "p")), "no rows yet")
    assert not (tmp_path / "p").exists()
    # beside a run with rows the tables are made, and the empty one is named unfinished
    result = run("report", str(empty), str(full_run))
    assert result.exit_code == 0, result.output
    assert "runs: empty (unfinished: 0 of 10 rows), run\n" in result.stdout
    assert "warning: run empty holds 0 of 10 rows (unfinished)" in result.stderr
