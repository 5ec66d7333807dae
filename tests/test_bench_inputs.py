"""``canfield bench``: bad numbers are one error line (exit 2) before any work.

Every case here used to run: a traceback from a child process (a deal
outside 0..2**64-1), a crash after the pools were built (NaN seconds), a
header-only result file (no deals), or a result of a budget the user never
meant (zero or NaN seconds, a table smaller than the solver ever keeps).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner

from canfield.engine.profiles import parse_profile
from canfield.experiments.bench import engine
from canfield.experiments.cli import main
from canfield.experiments.sweep.spec import MIN_MEMORY as MIN_TABLE_BYTES
from canfield.experiments.sweep.spec import MIN_MEMORY_TEXT as MIN_TABLE_TEXT
from canfield.solver.table import slot_bytes

LAST_DEAL = str(2**64 - 1)
PUBLISHED = Path(__file__).resolve().parents[1] / "results" / "published"
PAST_LAST = str(2**64)


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def refused(out, args, *fragments: str) -> None:
    """``bench ARGS --out OUT`` is one error line naming ``fragments``, and
    writes nothing: the check came before the benchmark started."""
    assert_user_error(run("bench", *args, "--out", str(out)), *fragments)
    assert not out.exists()


@pytest.mark.parametrize(
    "args, option",
    [
        (["table", "--deal", "-1", "--budget", "1s", "--sizes", "1MiB"], "--deal"),
        (["table", "--deal", PAST_LAST, "--budget", "1s", "--sizes", "1MiB"], "--deal"),
        (["players", "--start", "-1", "-n", "1", "--players", "greedy"], "--start"),
        # the last deal is fine, the one after it is not: refused before the
        # first game rather than at the second
        (["players", "--start", LAST_DEAL, "-n", "2", "--players", "greedy"], "--start"),
        (["view", "--start", "-1", "--solutions", "1", "--games", "1"], "--start"),
        (["view", "--start", LAST_DEAL, "--solutions", "2", "--games", "1"], "--start"),
    ],
)
def test_a_deal_outside_0_to_2_64_is_refused_by_its_option(args, option, tmp_path):
    refused(tmp_path / "r.csv", args, option)


@pytest.mark.parametrize("deal", ["-1", PAST_LAST])
def test_verify_checks_also_before_re_proving_the_run(deal, tmp_path):
    # the run folder is not read: --also is checked first
    refused(tmp_path / "r.csv", ["verify", "--run", str(tmp_path), "--also", deal], "--also")


@pytest.mark.parametrize("seconds", ["nan", "inf", "1e300"])
def test_engine_seconds_are_a_positive_finite_number(seconds, tmp_path):
    args = ["engine", "--seconds", seconds, "--pool", "1", "--reps", "1", "--no-reference"]
    refused(tmp_path / "e.json", args, "--seconds")


@pytest.mark.parametrize("seconds", [math.nan, math.inf])
def test_the_engine_bench_refuses_nan_or_inf_seconds_from_python_too(seconds, tmp_path):
    with pytest.raises(ValueError, match="finite"):
        engine.run(seconds=seconds, out=tmp_path / "e.json", pool_size=1, reps=1, reference=False)
    assert not (tmp_path / "e.json").exists()


@pytest.mark.parametrize(
    "args, option",
    [
        (["-n", "0"], "--deals"),
        (["-n", "-1"], "--deals"),
        # the rule of sweep --pimc-k: at least one sample a decision
        (["--pimc-k", "0", "--players", "pimc"], "--pimc-k"),
        (["--pimc-k", "-1", "--players", "pimc"], "--pimc-k"),
        (["--pimc-seconds", "0", "--players", "pimc"], "--pimc-seconds"),
        (["--pimc-seconds", "nan", "--players", "pimc"], "--pimc-seconds"),
        (["--solver-seconds", "0", "--players", "solver"], "--solver-seconds"),
        (["--solver-seconds", "-1", "--players", "solver"], "--solver-seconds"),
        (["--solver-seconds", "nan", "--players", "solver"], "--solver-seconds"),
        (["--solver-seconds", "inf", "--players", "solver"], "--solver-seconds"),
    ],
)
def test_players_numbers_that_make_no_benchmark_are_refused(args, option, tmp_path):
    # one deal unless the case is -n itself (an option given twice is refused)
    one = [] if "-n" in args else ["-n", "1"]
    refused(tmp_path / "p.csv", ["players", *one, *args], option)


def test_pimc_seconds_may_be_inf_only_with_a_node_budget(tmp_path):
    pimc = ["players", "-n", "1", "--players", "pimc", "--pimc-k", "1", "--pimc-seconds", "inf"]
    # without --pimc-nodes a sample would have no limit at all
    refused(tmp_path / "p.csv", pimc, "--pimc-seconds", "--pimc-nodes")
    # with it, inf is "no clock": the node budget ends each sample
    r = run("bench", *pimc, "--pimc-nodes", "10", "--out", str(tmp_path / "p.csv"))
    assert r.exit_code == 0, r.output
    assert len((tmp_path / "p.csv").read_text().splitlines()) == 2  # header, one game


@pytest.mark.parametrize("size", ["1B", "1023KB"])
def test_a_table_size_below_the_smallest_table_is_refused(size, tmp_path):
    args = ["table", "--sizes", f"64MB,{size}", "--budget", "1s"]
    refused(tmp_path / "t.csv", args, "--sizes", MIN_TABLE_TEXT)


def test_the_smallest_table_size_is_said_and_honest():
    assert MIN_TABLE_TEXT in run("bench", "table", "--help").output
    # at least the solver's smallest table (1024 slots of the larger slot,
    # solver/dfs_run.py ``fits``), so every size measured is a table it kept
    assert MIN_TABLE_BYTES >= 1024 * max(slot_bytes(5), slot_bytes(9))


@pytest.mark.parametrize("name", ["table", "layers", "solver"])
@pytest.mark.parametrize("budget", ["nans", "infs"])
def test_a_bench_time_budget_is_finite(name, budget, tmp_path):
    # NaN stopped no solve; with inf a solve whose table fills evicts and
    # goes on, so the benchmark might never end
    args = [name, "--budget", budget, "--deals" if name != "table" else "--deal", "0"]
    refused(tmp_path / "b.csv", args, "--budget")


@pytest.mark.parametrize(
    "args, fragments",
    [
        # the blind players pick no base card and see one pack's cards only;
        # bench view plays greedy games too (it failed after its first figure)
        (["players", "--profile", "selective", "-n", "1"], ["--profile", "base card"]),
        (["players", "--profile", "double", "-n", "1"], ["--profile", "two packs"]),
        (["view", "--profile", "selective", "--games", "1"], ["--profile", "base card"]),
        (["view", "--profile", "double", "--games", "1"], ["--profile", "two packs"]),
        # the search's own rule: two packs are searched depth-first only
        (["layers", "--profile", "double", "--deals", "0"], ["--profile", "depth-first only"]),
        # one position per capacity solve (a traceback from its child process)
        (["table", "--profile", "selective", "--budget", "1s"], ["--profile", "five"]),
    ],
)
def test_a_profile_a_benchmark_cannot_run_is_refused_before_any_work(args, fragments, tmp_path):
    refused(tmp_path / "b.csv", args, *fragments)


def test_verify_with_nothing_to_re_prove_is_one_line(tmp_path):
    # main-10k proves no deal of 1:2 lost under strict (deal 1 is won); the
    # empty summary used to end in a KeyError traceback
    refused(tmp_path / "v.csv", ["verify", "--deals", "1:2", "--nodes", "1000"], "nothing")


def test_selective_deals_are_benchmarked_as_their_five_picks(tmp_path):
    # pruning, layers and verify solved Position.from_deal(deal, "selective"),
    # which has no base card: the pruning bench died at the profile after
    # every other profile's solves, its rows unwritten
    out = tmp_path / "p.csv"
    r = run("bench", "pruning", "--profiles", "strict,selective", "--deals", "0:2",
            "--nodes", "2000", "--out", str(out))  # fmt: skip
    assert r.exit_code == 0, r.output
    rows = pd.read_csv(out)
    sel = rows[rows["profile"] == "selective"]
    assert len(sel) == 2 and (sel["profile_full"] == parse_profile("selective").full()).all()
    assert (sel["on_result"] != "unknown").all()

    out = tmp_path / "l.csv"
    r = run("bench", "layers", "--profile", "selective", "--deals", "0", "--budget", "5s",
            "--memory", "64MB", "--out", str(out))  # fmt: skip
    assert r.exit_code == 0, r.output
    assert set(pd.read_csv(out)["strategy"]) == {"dfs", "layers"}

    # the published variants-2k proves selective deal 109 lost: all five picks
    out = tmp_path / "v.csv"
    r = run("bench", "verify", "--run", str(PUBLISHED / "variants-2k"), "--profile",
            "selective", "--deals", "109:110", "--nodes", "50000", "--out", str(out))  # fmt: skip
    assert r.exit_code == 0, r.output
    rows = pd.read_csv(out)
    assert (rows["result"] == "lost").all() and len(rows) >= 2
    assert rows["banked"].nunique() == 1
