"""Sweeps of blind players (``canfield sweep --player``) and the blindness-gap report."""

from __future__ import annotations

import json
import math

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from canfield.experiments.cli import main
from canfield.experiments.players import PimcPlayer, RandomPlayer
from canfield.experiments.report import (
    build_report,
    gap_display,
    gap_table,
    load_runs,
    players_table,
)
from canfield.experiments.stats import Z95, wilson
from canfield.experiments.sweep.rows import blind_player
from canfield.experiments.sweep.runner import run_sweep
from canfield.experiments.sweep.schema import COLUMNS, LEGACY_SCHEMA, TIMING_COLUMNS
from canfield.experiments.sweep.spec import DEFAULT_PIMC_K, DEFAULT_PIMC_NODES, SweepSpec, make_spec
from canfield.experiments.sweep.store import RunFolder, load_run

DETERMINISTIC = [c for c in COLUMNS if c not in TIMING_COLUMNS]


def sweep(*args: str):
    """``canfield sweep ARGS``, as a user runs it (usage errors one line)."""
    return CliRunner().invoke(main, ["sweep", *args, "--no-progress"])


def frame(df: pd.DataFrame) -> pd.DataFrame:
    return df[DETERMINISTIC].sort_values(["deal", "profile"]).reset_index(drop=True)


# --------------------------------------------------------------------------- sweeps


@pytest.mark.parametrize("player", ["greedy", "random"])
def test_player_sweep_rows_and_resume(tmp_path, player):
    out = tmp_path / player
    args = [
        "--player",
        player,
        "--deals",
        "0:6",
        "--batch",
        "2",
        "--workers",
        "1",
        "--out",
        str(out),
    ]
    res = sweep(*args)
    assert res.exit_code == 0, res.output
    meta = json.loads((out / "run.json").read_text())
    assert (meta["player"], meta["player_options"], meta["deals"]) == (player, "", "0:6")
    df = load_run(out)
    assert list(df.columns) == list(COLUMNS) and len(df) == 6
    assert (df["player"] == player).all() and (df["player_options"] == "").all()
    assert set(df["result"]) <= {"won", "lost"}  # a game not won is lost for the player
    assert set(df["stop_reason"]) <= {"won", "blocked", "stalled", "max_moves"}
    assert ((df["result"] == "won") == (df["stop_reason"] == "won")).all()
    assert (df["moves"] > 0).all() and df["nodes"].isna().all()
    assert (df["cleared_reserve"] == (df["reserve_left"] == 0)).all()
    assert df["budget_seconds"].isna().all() and df["budget_nodes"].isna().all()

    # Lose a part, as a kill mid-sweep does, then resume: only those rows come back.
    run_sweep(
        out, make_spec("strict", "0:6", player=player), workers=1, batch_size=2, progress=False
    )  # compacted already: nothing to do
    folder = RunFolder(out)
    (part,) = folder.part_files()
    kept = pq.read_table(part).to_pandas()
    kept = kept[kept["deal"] >= 2]
    pq.write_table(pa.Table.from_pandas(kept, preserve_index=False), part)
    res = sweep(*args)
    assert res.exit_code == 0 and "complete: 6/6 rows" in res.stderr and "(2 new" in res.stderr
    again = load_run(out)
    assert not again.duplicated(["deal", "profile"]).any()
    pd.testing.assert_frame_equal(frame(again), frame(df))  # games are seeded by deal alone


def test_player_rows_do_not_depend_on_workers(tmp_path):
    spec = make_spec("strict", "0:6", player="random")
    run_sweep(tmp_path / "w1", spec, workers=1, batch_size=4, progress=False)
    run_sweep(tmp_path / "w2", spec, workers=2, batch_size=1, progress=False)
    pd.testing.assert_frame_equal(
        frame(load_run(tmp_path / "w1")), frame(load_run(tmp_path / "w2"))
    )


def test_mismatched_player_is_one_line_exit_2(tmp_path):
    out = tmp_path / "run"
    assert (
        sweep("--player", "greedy", "--deals", "0:2", "--workers", "1", "--out", str(out)).exit_code
        == 0
    )
    res = sweep("--player", "random", "--deals", "0:2", "--workers", "1", "--out", str(out))
    assert res.exit_code == 2
    assert res.stderr.startswith("error: ") and res.stderr.count("\n") == 1
    assert "player 'greedy' (run.json) vs 'random' (now)" in res.stderr
    # the default player is the solver, so a solver rerun is refused too
    res = sweep("--deals", "0:2", "--nodes", "100", "--out", str(out))
    assert res.exit_code == 2 and "player 'greedy' (run.json) vs 'solver'" in res.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--player", "greedy", "--nodes", "10"], "budgets of --player solver"),
        (["--player", "random", "--budget", "1s"], "budgets of --player solver"),
        (["--player", "greedy", "--pimc-k", "4"], "options of --player pimc"),
        (["--player", "pimc", "--pimc-nodes", "0"], "must be a positive whole number"),
        (["--player", "pimc", "--pimc-nodes", "2.5x"], "cannot read a node budget"),
        (["--player", "greedy", "--profiles", "selective"], "needs --player solver"),
    ],
)
def test_bad_player_options(tmp_path, args, message):
    res = sweep(*args, "--deals", "0:2", "--out", str(tmp_path / "r"))
    assert res.exit_code == 2 and message in res.stderr and res.stderr.count("\n") == 1
    assert not (tmp_path / "r").exists()


def test_blind_player_by_name():
    pimc = blind_player("pimc")
    assert isinstance(pimc, PimcPlayer)
    # the sweep's defaults: a node budget and no clock, so games are deterministic
    assert (pimc.k, pimc.nodes, pimc.seconds) == (DEFAULT_PIMC_K, DEFAULT_PIMC_NODES, math.inf)
    bench = blind_player("pimc", k=4, nodes_per_sample=None, seconds_per_sample=0.02, seed=3)
    assert (bench.k, bench.nodes, bench.seconds, bench.seed) == (4, None, 0.02, 3)
    assert isinstance(blind_player("random", seed=5), RandomPlayer)
    assert blind_player("random", seed=5).seed == 5
    with pytest.raises(ValueError, match="unknown player 'solver'"):
        blind_player("solver")


def test_pimc_sweep_tiny_budget(tmp_path):
    out = tmp_path / "pimc"
    res = sweep(
        "--player",
        "pimc",
        "--pimc-k",
        "2",
        "--pimc-nodes",
        "0.1K",
        "--deals",
        "0:2",
        "--memory",
        "16MB",
        "--workers",
        "1",
        "--out",
        str(out),
    )
    assert res.exit_code == 0, res.output
    meta = json.loads((out / "run.json").read_text())
    assert (meta["player"], meta["player_options"]) == ("pimc", "k=2,nodes=100")
    df = load_run(out)
    assert len(df) == 2 and (df["player"] == "pimc").all()
    assert (df["player_options"] == "k=2,nodes=100").all()
    assert (df["budget_memory"] == 16 << 20).all()
    res = sweep(
        "--player",
        "pimc",
        "--pimc-k",
        "3",
        "--pimc-nodes",
        "100",
        "--deals",
        "0:2",
        "--memory",
        "16MB",
        "--out",
        str(out),
    )
    assert res.exit_code == 2 and "player_options 'k=2,nodes=100'" in res.stderr


def test_legacy_run_folder_is_the_solver(tmp_path):
    """A run made before --player existed loads as the solver's and resumes."""
    out = tmp_path / "old"
    spec = make_spec("strict", "0:3", nodes=2000, memory="16MB")
    meta = {k: v for k, v in spec.to_json().items() if not k.startswith("player")}
    (out / "parts").mkdir(parents=True)
    (out / "run.json").write_text(json.dumps(meta))
    rows = [legacy_row(d, "won" if d == 0 else "lost") for d in (0, 1)]
    pq.write_table(
        pa.Table.from_pylist(rows, schema=LEGACY_SCHEMA), out / "parts" / "part-00000.parquet"
    )
    df = load_run(out)
    assert list(df["player"]) == ["solver", "solver"] and list(df["cleared_reserve"]) == [
        True,
        False,
    ]
    s = run_sweep(out, spec, workers=1, progress=False)
    assert (s.rows_before, s.rows_written) == (2, 1)
    df = load_run(out)
    assert list(df["deal"]) == [0, 1, 2] and (df["player"] == "solver").all()


# --------------------------------------------------------------------------- report

# Strict deals 0-9. Solver: 0-5 won, 6-7 lost, 8-9 unknown.
# Greedy: 0, 1, 6, 8 won, the rest lost; reserve cleared on its wins and on deal 7.
SOLVER = ["won"] * 6 + ["lost"] * 2 + ["unknown"] * 2
GREEDY_WINS = {0, 1, 6, 8}


def legacy_row(deal: int, result: str) -> dict:
    return {
        "deal": deal,
        "profile": "strict",
        "profile_full": "strict:...",
        "result": result,
        "banked": 52 if result == "won" else 20,
        "seconds": 0.1,
        "nodes": 10,
        "peak_table_bytes": 1,
        "base_rank": 0,
        "reserve_left": 0 if result == "won" else 3,
        "solution_length": 100 if result == "won" else 0,
        "budget_seconds": None,
        "budget_nodes": 2000,
        "budget_memory": 16 << 20,
        "version": "0.1.0",
        "pick": None,
        "stop_reason": "x",
    }


def greedy_row(deal: int) -> dict:
    won = deal in GREEDY_WINS
    row = legacy_row(deal, "won" if won else "lost")
    row.update(
        banked=52 if won else 10,
        reserve_left=0 if won or deal == 7 else 5,
        nodes=None,
        budget_nodes=None,
        budget_memory=None,
        stop_reason="won" if won else "blocked",
        player="greedy",
        player_options="",
        moves=80,
        cleared_reserve=won or deal == 7,
    )
    return row


@pytest.fixture
def two_runs(tmp_path) -> pd.DataFrame:
    solver = tmp_path / "solver"
    (solver / "parts").mkdir(parents=True)
    meta = SweepSpec(("strict",), 0, 10, None, 2000, 16 << 20).to_json()
    del meta["player"], meta["player_options"]  # a run from before --player
    (solver / "run.json").write_text(json.dumps(meta))
    pq.write_table(
        pa.Table.from_pylist(
            [legacy_row(d, r) for d, r in enumerate(SOLVER)], schema=LEGACY_SCHEMA
        ),
        solver / "parts" / "part-00000.parquet",
    )
    greedy = RunFolder(tmp_path / "greedy")
    greedy.init(SweepSpec(("strict",), 0, 10, None, None, 0, player="greedy"))
    greedy.write_part(0, [greedy_row(d) for d in range(10)])
    return load_runs([solver, tmp_path / "greedy"])


def test_blindness_gap_by_hand(two_runs):
    g = gap_table(two_runs).iloc[0]
    assert (g["solver"], g["player"]) == ("strict/solver", "strict/greedy")
    assert (g["common_deals"], g["solver_unknown"], g["compared"]) == (10, 2, 8)
    # compared deals 0-7: both won 0,1; only the solver 2,3,4,5; only greedy 6; neither 7
    assert (g["both"], g["only_solver"], g["only_player"], g["neither"]) == (2, 4, 1, 1)
    assert (g["solver_win_pct"], g["player_win_pct"]) == (75.0, 37.5)
    assert g["gap_pct"] == pytest.approx(37.5)  # (4 - 1) / 8
    se = math.sqrt(4 + 1 - (4 - 1) ** 2 / 8) / 8  # 0.24606
    assert g["gap_se_pct"] == pytest.approx(100 * se)
    assert (g["gap_lo"], g["gap_hi"]) == pytest.approx(
        (100 * (0.375 - Z95 * se), 100 * (0.375 + Z95 * se))
    )
    assert (g["gap_lo"], g["gap_hi"]) == pytest.approx((-10.728, 85.728), abs=1e-3)
    assert g["mcnemar_exact_p"] == pytest.approx(2 * (1 + 5) / 32)
    # banked solver - greedy on 0-7: 0, 0, 42 x4, 20 - 52, 20 - 10
    assert g["banked_gap_mean"] == pytest.approx((4 * 42 - 32 + 10) / 8)


def test_players_table_by_hand(two_runs):
    t = players_table(two_runs).set_index("player")
    s, p = t.loc["solver"], t.loc["greedy"]
    assert (s["won"], s["lost"], s["unknown"], s["win_pct"]) == (6, 2, 2, 75.0)
    assert (p["won"], p["lost"], p["unknown"], p["win_pct"]) == (4, 6, 0, 40.0)
    assert (p["win_lo"], p["win_hi"]) == pytest.approx(tuple(100 * x for x in wilson(4, 10)))
    assert p["banked_mean"] == pytest.approx((4 * 52 + 6 * 10) / 10)
    assert (s["cleared_reserve"], p["cleared_reserve"]) == (6, 5)
    assert p["cleared_lo"] == pytest.approx(100 * wilson(5, 10)[0])


def test_the_two_banked_differences_say_which_deals_they_cover(two_runs):
    """The paired table's banked difference covers every common deal (an
    unknown at its lower bound); the gap's covers only the compared deals.
    Both appear for the same pair, with different values, so their labels
    must tell them apart."""
    rep = build_report(two_runs)
    paired = [c for c in rep.sections()[1][1].columns if c.startswith("banked")]
    gap = [c for c in gap_display(rep.gap).columns if c.startswith("banked")]
    assert paired == ["banked A-B, all common deals (unknown: lower bound) [95%]"]
    assert gap == ["banked gap, solver - player, on the compared deals [95%]"]
    g = rep.gap.iloc[0]
    p = rep.paired.iloc[0]
    # same pair (strict solver against greedy), different deal sets, different figures
    assert {p["a"], p["b"]} == {"strict/solver", "strict/greedy"}
    assert (p["common_deals"], g["compared"]) == (10, 8)
    assert abs(p["banked_diff_mean"]) != pytest.approx(g["banked_gap_mean"])


def test_report_shows_players_and_gap(two_runs, tmp_path):
    rep = build_report(two_runs)
    text = rep.to_text()
    assert "Blindness gap" in text and "37.5 [-10.7, 85.7]" in text
    assert "Players on the same deals" in text and "50.0 [23.7, 76.3] (5/10)" in text
    names = [p.name for p in rep.write(tmp_path / "rep")]
    assert names[-2:] == ["players.csv", "gap.csv"]
    assert "se = sqrt(b + c - (b - c)^2 / n) / n" in (tmp_path / "rep" / "report.md").read_text()
    # only same-profile or same-player pairs are compared
    assert len(rep.paired) == 1
