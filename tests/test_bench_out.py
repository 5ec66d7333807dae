"""``canfield bench``: where results go, and bad places or profiles as one error line."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner

from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.experiments.bench import engine
from canfield.experiments.cli import main

QUICK_ENGINE = ["bench", "engine", "--seconds", "0.05", "--pool", "20", "--reps", "1"]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def cwd(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_engine_writes_a_run_folder_of_the_current_directory(cwd):
    r = run(*QUICK_ENGINE, "--no-reference")
    assert r.exit_code == 0, r.output
    assert json.loads((cwd / "results/runs/bench/engine.json").read_text())["rows"]
    assert not (cwd / "results" / "bench").exists()
    # never beside the module: an installed package lives in site-packages
    assert not (Path(engine.__file__).resolve().parents[1] / "results").exists()


def test_publish_writes_results_bench_of_a_checkout_only(cwd):
    assert_user_error(run(*QUICK_ENGINE, "--publish"), "--publish", "checkout")
    assert not (cwd / "results").exists()
    (cwd / "results" / "bench").mkdir(parents=True)
    r = run(*QUICK_ENGINE, "--no-reference", "--publish")
    assert r.exit_code == 0, r.output
    assert (cwd / "results" / "bench" / "engine.json").is_file()
    assert_user_error(run(*QUICK_ENGINE, "--publish", "--out", "x.json"), "not both")


def test_engine_finds_the_reference_rules_of_the_checkout():
    assert (engine.CHECKOUT / "tests" / "reference_rules.py").is_file()


@pytest.mark.parametrize(
    "name, option", [("pruning", "--nodes"), ("verify", "--nodes"), ("players", "--pimc-nodes")]
)
def test_a_node_count_it_cannot_read_is_one_line(name, option, tmp_path):
    out = tmp_path / "r.csv"
    # the messages of the node-count reader solve and sweep share (a plain
    # int option would refuse "2.5x" too, but in other words, and take "0")
    for text, says in (("2.5x", "cannot read a node budget"), ("0", "positive whole number")):
        assert_user_error(run("bench", name, option, text, "--out", str(out)), option, says)
    assert not out.exists()


@pytest.mark.parametrize("name", ["engine", "solver", "layers", "pruning", "players"])
def test_an_unwritable_out_fails_before_any_work(name, tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    assert_user_error(run("bench", name, "--out", str(blocker / "r.csv")), "cannot write", "--out")
    assert_user_error(run("bench", name, "--out", str(tmp_path)), "is a folder")


def test_profiles_are_split_as_the_sweep_splits_them(tmp_path):
    out = tmp_path / "pruning.csv"
    r = run(
        "bench",
        "pruning",
        "--profiles",
        "storehouse:passes=2,space=any",
        "--deals",
        "0:1",
        "--nodes",
        "0.2K",
        "--out",
        str(out),
    )
    assert r.exit_code == 0, r.output
    with out.open() as fh:
        rows = list(csv.DictReader(fh))
    assert {row["profile"] for row in rows} == {"storehouse:passes=2,space=any"}
    # --nodes reads a suffix as solve, sweep and escalate do
    assert {row["budget_nodes"] for row in rows} == {"200"}
    assert_user_error(
        run("bench", "solver", "--profiles", "strict,nope", "--out", str(out)), "nope"
    )


def test_the_solver_bench_takes_a_list_of_deals(tmp_path):
    """``--deals 3,0:2,3``: deals 3, 0 and 1, in that order, once each."""
    out = tmp_path / "solver.csv"
    r = run("bench", "solver", "--profiles", "strict", "--deals", "3,0:2,3", "--budget", "2s",
            "--out", str(out))  # fmt: skip
    assert r.exit_code == 0, r.output
    with out.open() as fh:
        assert [int(row["deal"]) for row in csv.DictReader(fh)] == [3, 0, 1]


def test_the_solver_bench_counts_the_beam_s_wins_as_a_probe_s():
    """``wins by probes`` counts every win a probe made: the one-pack probes
    (probe2, probe3, the turned turnN) and the beams, not the full searches."""
    from canfield.experiments.bench.solver import summarise

    def row(result: str, stage: str) -> dict:
        return {"result": result, "stage": stage, "seconds": 1.0, "nodes": 10, "banked": 5,
                "peak_table_bytes": 1}  # fmt: skip

    rows = [row("won", "beam"), row("won", "probe3"), row("won", "dfs"), row("unknown", "beam")]
    rows += [
        row("won", "shared2"),
        row("lost", "dfs"),
        row("won", "turn224"),
        row("lost", "turn96"),
    ]
    assert summarise(rows)["won_by_probe"] == 3


def test_a_players_row_carries_its_profile_budget_seed_and_version(tmp_path):
    # the rows had the preset's name only: not the full profile, the budget
    # or the toolkit version that every result row must carry
    out = tmp_path / "players.csv"
    r = run("bench", "players", "-n", "1", "--start", "5", "--profile", "hevagames",
            "--players", "greedy,pimc,solver", "--pimc-k", "1", "--pimc-nodes", "50",
            "--solver-seconds", "2", "--seed", "7", "--stock-unknown",
            "--out", str(out))  # fmt: skip
    assert r.exit_code == 0, r.output
    with out.open() as fh:
        rows = {row["player"]: row for row in csv.DictReader(fh)}
    assert set(rows) == {"greedy", "pimc", "solver"}
    for row in rows.values():
        assert row["profile_full"] == parse_profile("hevagames").full()
        assert row["version"] == __version__ and row["seed"] == "7"
    assert rows["greedy"]["budget"] == ""
    assert rows["pimc"]["budget"] == "k=1,seconds=0.02,nodes=50"
    assert rows["solver"]["budget"] == "seconds=2"
    # --stock-unknown hides the stock from the blind players, never from the solver
    assert [rows[n]["stock_known"] for n in ("greedy", "pimc", "solver")] == ["False"] * 2 + [
        "True"
    ]
