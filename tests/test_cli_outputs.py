"""What the commands write: never over their own inputs, strict JSON, outputs that agree.

- An output file that is one of the command's inputs is refused in one line,
  the input left byte for byte (``solve --position p.txt --view p.txt`` once
  replaced the position with HTML).
- Every ``--json`` output parses as strict JSON: no ``NaN`` (``analyze RUN``
  once printed it for a game whose losing move is not named).
- ``solve``'s output of a lost or unknown deal holds the best line found, so
  ``replay`` ends at the banked count it claims and ``view`` draws the line
  ``--view`` draws.
- ``analyze RUN`` keeps the rows of different budgets apart in
  ``RUN/analysis.csv``, and its help says it writes that file.
"""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner

from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.experiments.cli import main
from canfield.experiments.view.decisions import ANALYSIS_FILE, kinds_table
from canfield.solver import config


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def strict_json(line: str) -> dict:
    """``line`` parsed as RFC 8259 JSON: ``NaN`` and ``Infinity`` are errors."""

    def refuse(name: str):
        raise ValueError(f"not JSON: {name}")

    return json.loads(line, parse_constant=refuse)


@pytest.fixture(scope="module")
def greedy_run(tmp_path_factory):
    """A blind player's sweep of deals 0..2, with its stored games."""
    out = tmp_path_factory.mktemp("greedy") / "run"
    r = run("sweep", "--player", "greedy", "--deals", "0:3", "--out", out)
    assert r.exit_code == 0, r.output
    return out


# ---- no output over an input ----------------------------------------------------


def _refused(result, *inputs) -> None:
    """One ``error:`` line naming the clash, exit 2, and each input unchanged."""
    assert_user_error(result, "would write over")
    for path, before in inputs:
        assert path.read_bytes() == before, f"{path} was written over"


def test_an_output_that_is_an_input_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from canfield.engine.formats import position_to_text
    from canfield.engine.position import Position

    pos = tmp_path / "pos.txt"
    pos.write_text(position_to_text(Position.from_deal(5)))
    solved = tmp_path / "s5.txt"
    r = run("solve", "5", "--nodes", "2000")
    assert r.exit_code == 0
    solved.write_text(r.stdout)
    on_pos = tmp_path / "sp.txt"  # a solve of the position: its header names pos.txt
    on_pos.write_text(run("solve", "--position", "pos.txt", "--nodes", "2000").stdout)
    listed = tmp_path / "list.txt"
    listed.write_text("pos.txt\n")
    saved = {p: p.read_bytes() for p in (pos, solved, on_pos, listed)}

    cases = [
        # the same file under another spelling of its path
        (["solve", "--position", "pos.txt", "--nodes", "2000", "--view", "./pos.txt"], pos),
        (["solve", "--file", "list.txt", "--nodes", "2000", "--view", "pos.txt"], pos),
        (["solve", "--file", "list.txt", "--nodes", "2000", "--view", "list.txt"], listed),
        (["analyze", "s5.txt", "--nodes", "2000", "--view", "s5.txt"], solved),
        (["analyze", "sp.txt", "--nodes", "2000", "--view", str(pos)], pos),
        (["view", "s5.txt", "-o", f"../{tmp_path.name}/s5.txt"], solved),
        (["view", "sp.txt", "-o", "pos.txt"], pos),  # the position the header names
        (["view", "s5.txt", "--position", "pos.txt", "-o", "pos.txt"], pos),
    ]
    for args, clobbered in cases:
        _refused(run(*args), (clobbered, saved[clobbered]))
    for path, before in saved.items():
        assert path.read_bytes() == before
    # a symbolic link to an input is that input
    (tmp_path / "link.txt").symlink_to(pos)
    _refused(run("view", "sp.txt", "-o", "link.txt"), (pos, saved[pos]))
    _refused(
        run("solve", "--position", "pos.txt", "--nodes", "2000", "--view", "link.txt"),
        (pos, saved[pos]),
    )
    # another file is written as before
    r = run("view", "s5.txt", "-o", "s5.html")
    assert r.exit_code == 0 and (tmp_path / "s5.html").is_file()


def test_bench_verify_writes_over_no_file_of_its_run_folder(tmp_path, greedy_run):
    run_dir = tmp_path / "run"
    shutil.copytree(greedy_run, run_dir)
    spec = (run_dir / "run.json").read_bytes()
    r = run("bench", "verify", "--run", run_dir, "--deals", "0:3", "--out", run_dir / "run.json")
    _refused(r, (run_dir / "run.json", spec))


# ---- strict JSON ------------------------------------------------------------------


def test_every_json_output_is_strict_json(tmp_path, greedy_run):
    run_dir = tmp_path / "run"
    shutil.copytree(greedy_run, run_dir)
    moves = tmp_path / "m.txt"
    moves.write_text("draw\ndraw\n")
    outputs = {
        "analyze RUN": run("analyze", run_dir, "--deals", "0:3", "--nodes", "3000", "--json"),
        "analyze MOVES": run("analyze", moves, "--deal", "0", "--nodes", "2000", "--json"),
        "solve": run("solve", "1", "--nodes", "2000", "--json"),
        "solve --verify": run("solve", "137", "--nodes", "60000", "--verify", "--json"),
    }
    records = {}
    for name, r in outputs.items():
        assert r.exit_code == 0, (name, r.output)
        records[name] = [strict_json(line) for line in r.stdout.splitlines()]
    games = records["analyze RUN"]
    assert len(games) == 3
    # a game lost between moves names no losing move: null, and move numbers whole
    unnamed = [g for g in games if g["turn"] != "move"]
    assert unnamed and all(g["losing_move"] is None for g in unnamed)
    assert all(isinstance(g["first"], int) for g in unnamed if g["turn"] == "between")
    assert all(g["budget_seconds"] is None and g["budget_nodes"] == 3000 for g in games)
    full = parse_profile("strict").full()
    assert records["analyze MOVES"][0]["profile_full"] == full


# ---- solve: the best line, the budget ---------------------------------------------


def test_solve_output_of_every_verdict_replays_to_its_banked_count(tmp_path):
    """A win prints its solution, as before; a loss or an unknown its best line, so
    replay ends at the banked count of the header and view draws what --view does."""
    for deal, nodes, verdict in (("2", "50000", "won"), ("1", "20000", "unknown")) + (
        ("137", "60000", "lost"),
    ):
        r = run("solve", deal, "--nodes", nodes)
        assert r.exit_code == 0, r.output
        lines = r.stdout.splitlines()
        assert f"  {verdict}  banked " in lines[1]
        claimed = lines[1].rsplit("banked ", 1)[1]  # e.g. 11/52
        label = f"# best line found, not a solution: it ends at banked {claimed}"
        if verdict == "won":
            assert lines[2].strip().startswith("1. ") and "best line" not in r.stdout
        else:
            assert label in lines
        out = tmp_path / f"s{deal}.txt"
        out.write_text(r.stdout)
        back = run("replay", out)
        assert back.exit_code == 0, back.output
        assert back.stdout.split()[:2] == ["banked", claimed], (deal, back.stdout)
        viewed = run("view", out, "-o", tmp_path / "a.html")
        direct = run("solve", deal, "--nodes", nodes, "--view", tmp_path / "b.html")
        drawn = viewed.stderr.strip().splitlines()[-1].split("(")[1]
        assert drawn == direct.stderr.strip().splitlines()[-1].split("(")[1], deal
        assert drawn != "0 moves)"


def test_solve_json_carries_the_budget_full_profile_and_version():
    obj = strict_json(run("solve", "4", "-p", "hevagames", "--nodes", "20000", "--json").stdout)
    assert obj["profile_full"] == parse_profile("hevagames").full()
    assert (obj["budget_nodes"], obj["budget_seconds"]) == (20000, None)
    assert obj["budget_memory"] == config.DEFAULT_MEMORY and obj["version"] == __version__
    obj = strict_json(run("solve", "4", "--budget", "5s", "--memory", "64MB", "--json").stdout)
    assert (obj["budget_nodes"], obj["budget_seconds"]) == (None, 5.0)
    assert obj["budget_memory"] == 64 * 2**20


# ---- analyze RUN: what it writes ---------------------------------------------------


def test_analyze_run_help_says_what_it_writes():
    text = " ".join(run("analyze", "--help").output.split())
    assert "Writes RUN/analysis.csv" in text and "budget" in text


def test_analysis_rows_of_other_budgets_are_kept_and_counted_apart(tmp_path, greedy_run):
    run_dir = tmp_path / "run"
    shutil.copytree(greedy_run, run_dir)
    for nodes in ("3000", "5000", "3000"):  # the last replaces the first's rows
        r = run("analyze", run_dir, "--deals", "0:3", "--nodes", nodes)
        assert r.exit_code == 0, r.output
    rows = pd.read_csv(run_dir / ANALYSIS_FILE)
    assert sorted(rows["budget_nodes"].tolist()) == [3000] * 3 + [5000] * 3
    table = kinds_table(rows)
    assert sorted(table["budget"].str.split(",").str[0]) == ["3000 nodes", "5000 nodes"]
    assert table["games"].tolist() == [3, 3]
