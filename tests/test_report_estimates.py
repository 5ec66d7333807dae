"""The report's true-win-share, mean-banked and escalation tables on a small
escalated run, with every figure worked out by hand from the formula of
docs/statistics.md.

The run: strict, deals 0..19 at 1,000 nodes. The sweep: 0-9 won, 10-13 lost,
14-19 unknown. Rung 1 (20K nodes) on 14-19: 14 won, 15 lost, 16-19 unknown.
The subsample (seed-drawn, here written by hand): 16, 17, 19 at 1M nodes:
16 won, 17 lost, 19 still unknown (a residual unknown); 18 is not drawn.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner

from canfield.experiments.cli.report import report_cmd
from canfield.experiments.report import (
    _check_poolable,
    _fold_censuses,
    build_report,
    load_runs,
)
from canfield.experiments.report_estimates import ESTIMATE_TITLES
from canfield.experiments.sweep import RunFolder, SweepSpec
from canfield.experiments.sweep.attempts import AttemptStore
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.escalation_spec import (
    Budget,
    EscalationSpec,
    Subsample,
    write_escalation,
)

Z = 1.959963984540054
SWEEP = ["won"] * 10 + ["lost"] * 4 + ["unknown"] * 6
BANKED = [52] * 10 + [10, 12, 14, 16] + [20, 21, 22, 23, 24, 25]
RUNG1 = {
    14: ("won", 52),
    15: ("lost", 18),
    16: ("unknown", 26),
    17: ("unknown", 21),
    18: ("unknown", 30),
    19: ("unknown", 27),
}
SUB = {16: ("won", 52), 17: ("lost", 19), 19: ("unknown", 33)}
CPU = {14: 0.5, 15: 1.0, 16: 2.0, 17: 3.0, 18: 4.0, 19: 6.0}


def row(deal: int, result: str, banked: int, nodes: int) -> dict:
    return {
        "deal": deal,
        "profile": "strict",
        "profile_full": "strict:...",
        "result": result,
        "banked": banked,
        "seconds": 0.01,
        "nodes": nodes // 2,
        "peak_table_bytes": 1 << 20,
        "base_rank": 0,
        "reserve_left": 0,
        "solution_length": 100 if result == "won" else 0,
        "budget_seconds": None,
        "budget_nodes": nodes,
        "budget_memory": 1 << 24,
        "version": "0.5.0",
        "pick": None,
        "stop_reason": "x",
    }


def attempt(deal, result, banked, nodes, phase, rung, cpu) -> dict:
    r = row(deal, result, banked, nodes) | {"phase": phase, "rung": rung, "cpu_seconds": cpu}
    return r | {
        "player": "solver",
        "player_options": "",
        "moves": None,
        "cleared_reserve": True,
        "solver_options": "prune=all,probes=on,strategy=dfs",
    }


@pytest.fixture
def run(tmp_path) -> Path:
    path = tmp_path / "esc"
    folder = RunFolder(path)
    folder.init(SweepSpec(("strict",), 0, 20, None, 1000, 1 << 24))
    folder.write_part(
        0, [row(d, r, b, 1000) for d, (r, b) in enumerate(zip(SWEEP, BANKED, strict=True))]
    )
    store = AttemptStore(path)
    store.write_part(
        0, [attempt(d, r, b, 20_000, "ladder", 1, CPU[d]) for d, (r, b) in RUNG1.items()]
    )
    store.write_part(
        1, [attempt(d, r, b, 10**6, "subsample", 0, 10 * CPU[d]) for d, (r, b) in SUB.items()]
    )
    write_escalation(
        path,
        EscalationSpec(
            (Budget(20_000, None, 1 << 24),),
            Subsample(3, 1, Budget(10**6, None, 1 << 24), {"strict": [16, 17, 19]}),
        ),
    )
    return path


def by_hand(decided: list[float], n_hard: int, sub: list[float]) -> tuple[float, float, float]:
    """The estimate and its 95% interval, in plain arithmetic."""
    n_d, m = len(decided), len(sub)
    n = n_d + n_hard
    w_d, w_k = n_d / n, n_hard / n
    mean_d, mean_k = sum(decided) / n_d, sum(sub) / m
    s2_d = sum((x - mean_d) ** 2 for x in decided) / (n_d - 1)
    s2_k = sum((x - mean_k) ** 2 for x in sub) / (m - 1)
    y = w_d * mean_d + w_k * mean_k
    s2 = w_d * s2_d + w_k * s2_k + w_d * (mean_d - y) ** 2 + w_k * (mean_k - y) ** 2
    v = s2 / n + w_k**2 * (1 / m - 1 / n_hard) * s2_k
    return y, y - Z * math.sqrt(v), y + Z * math.sqrt(v)


def test_loaded_rows_say_who_decided(run):
    df = load_runs([run]).set_index("deal")
    assert df.loc[14, "decided_by"] == "ladder" and df.loc[14, "decided_nodes"] == 20_000
    assert df.loc[16, "decided_by"] == "subsample" and df.loc[16, "result"] == "won"
    assert df.loc[16, "phase1_result"] == "unknown"  # the stratum stays that of phase 1
    assert (df.loc[19, "result"], df.loc[19, "banked"]) == ("unknown", 33)  # best banked seen
    assert df.loc[18, "banked"] == 30 and not df.loc[18, "in_subsample"]
    assert list(df["attempts"][14:]) == [1, 1, 2, 2, 1, 2]


def test_win_share_and_banked_by_hand(run):
    t = build_report(load_runs([run])).estimates.iloc[0]
    # final: won 0-9, 14, 16 = 12; lost 10-13, 15, 17 = 6; unknown 18, 19 = 2
    assert (t["proven_won"], t["proven_lost"], t["unknown"]) == (12, 6, 2)
    assert t["won_share_of_decided_pct"] == pytest.approx(100 * 12 / 18)
    assert (t["win_bound_lo"], t["win_bound_hi"]) == pytest.approx((60.0, 70.0))
    assert (t["hard"], t["subsample_drawn"], t["subsample_solved"], t["residual_unknown"]) == (
        4,
        3,
        3,
        1,
    )
    decided = [1.0] * 10 + [0.0] * 4 + [1.0, 0.0]  # phase 1: the sweep and rung 1
    low = by_hand(decided, 4, [1.0, 0.0, 0.0])  # deal 19 lost
    high = by_hand(decided, 4, [1.0, 0.0, 1.0])  # deal 19 won
    assert [t["win_est_low"], t["win_lo_low"], t["win_hi_low"]] == pytest.approx(
        [100 * x for x in low]
    )
    assert [t["win_est_high"], t["win_lo_high"], t["win_hi_high"]] == pytest.approx(
        [100 * x for x in high]
    )
    banked = [52.0] * 10 + [10, 12, 14, 16] + [52, 18]
    b_low = by_hand(banked, 4, [52, 19, 33])  # deal 19 at its best banked seen
    b_high = by_hand(banked, 4, [52, 19, 52])
    assert [t["banked_est_low"], t["banked_lo_low"], t["banked_hi_low"]] == pytest.approx(b_low)
    assert [t["banked_est_high"], t["banked_hi_high"]] == pytest.approx([b_high[0], b_high[2]])
    # banked bounds: all 20 deals, the unknown 18 and 19 as banked (30, 33) or 52
    known = sum(banked) + 52 + 19
    assert (t["banked_bound_lo"], t["banked_bound_hi"]) == pytest.approx(
        ((known + 30 + 33) / 20, (known + 52 + 52) / 20)
    )


def test_display_labels_each_figure(run):
    rep = build_report(load_runs([run]))
    sections = dict(rep.sections())
    win = sections[ESTIMATE_TITLES["win"]]
    cell = win["estimated true win share % [95%]"][0]
    low = by_hand([1.0] * 10 + [0.0] * 4 + [1.0, 0.0], 4, [1.0, 0.0, 0.0])
    assert cell.startswith(f"residual=lost: {100 * low[0]:.1f} [{100 * low[1]:.1f}, ")
    assert "residual=won: " in cell and "union [" in cell
    assert win["won share of decided deals %"][0] == "66.7"
    assert win["bounds % (unknown=lost .. unknown=won)"][0] == "60.0 .. 70.0"
    assert win["proven won (% of all deals)"][0] == "12 (60.0%)"
    assert (
        win["subsample (phase 2): solved of drawn, still unknown"][0] == "3 of 3, 1 still unknown"
    )
    assert win["residue sample (phase 3): solved of drawn, still unknown"][0] == "none"
    assert win["phases"][0] == "2"
    esc = sections["Escalation: rows attempted and decided per rung, seconds per row"]
    esc = esc.set_index("stage")
    assert esc.loc["rung 1", "rows attempted"] == 6 and esc.loc["rung 1", "decided here"] == (
        "2 (33.3%)"
    )
    assert esc.loc["rung 1", "s/row median"] == "2.500"  # of 0.5, 1, 2, 3, 4, 6
    assert esc.loc["rung 1", "s/row mean"] == f"{16.5 / 6:.3f}"
    assert esc.loc["subsample", "hours in all"] == f"{(20 + 30 + 60) / 3600:.3f}"  # 10x CPU
    assert esc.loc["subsample", "rows attempted"] == 3 and esc.loc["subsample", "budget"] == (
        "1M nodes"
    )
    assert esc.loc["sweep", "decided here"] == "14 (70.0%)"


def test_unfinished_subsample_gives_bounds_only(run):
    # deal 19's subsample attempt is not done yet: no estimate, only bounds
    store = AttemptStore(run)
    store.part_files()[1].unlink()
    store.write_part(
        1, [attempt(d, r, b, 10**6, "subsample", 0, 1.0) for d, (r, b) in SUB.items() if d != 19]
    )
    rep = build_report(load_runs([run]))
    t = rep.estimates.iloc[0]
    assert math.isnan(t["win_est_low"]) and t["subsample_solved"] == 2
    shown = dict(rep.sections())[ESTIMATE_TITLES["win"]]
    assert shown["estimated true win share % [95%]"][0] == "- (subsample unfinished: bounds only)"


def test_report_cli_writes_estimates_and_escalation(run, tmp_path):
    r = CliRunner().invoke(report_cmd, [str(run), "--out", str(tmp_path / "rep"), "--wide"])
    assert r.exit_code == 0, r.output
    assert "estimated true win share" in r.output and "Escalation" in r.output
    assert (tmp_path / "rep" / "estimates.csv").exists()
    assert (tmp_path / "rep" / "escalation.csv").exists()
    assert "won share of decided deals" in (tmp_path / "rep" / "report.md").read_text()


# --------------------------------------------------------------------------- three phases
#
# strict, deals 0..29 at 1,000 nodes, no ladder: 0-11 won, 12-15 lost, 16-29
# unknown (14 hard). The subsample (8 drawn, 1M nodes): 16..23; 16 won, 17 lost,
# 18-23 still unknown (the residue, 6). The residue sample (4 drawn, 50M
# nodes): 18 won, 19 lost, 21 won, 23 still unknown.

SUB3 = {16: ("won", 52), 17: ("lost", 19), **{d: ("unknown", 12 + d) for d in range(18, 24)}}
RES3 = {18: ("won", 52), 19: ("lost", 25), 21: ("won", 52), 23: ("unknown", 40)}
RES_CPU = {18: 100.0, 19: 200.0, 21: 300.0, 23: 400.0}


@pytest.fixture
def run3(tmp_path) -> Path:
    path = tmp_path / "esc3"
    folder = RunFolder(path)
    folder.init(SweepSpec(("strict",), 0, 30, None, 1000, 1 << 24))
    sweep = [("won", 52)] * 12 + [("lost", 10 + i) for i in range(4)]
    sweep += [("unknown", 4 + d) for d in range(16, 30)]
    folder.write_part(0, [row(d, r, b, 1000) for d, (r, b) in enumerate(sweep)])
    store = AttemptStore(path)
    store.write_part(
        0, [attempt(d, r, b, 10**6, "subsample", 0, 5.0) for d, (r, b) in SUB3.items()]
    )
    store.write_part(
        1, [attempt(d, r, b, 50 * 10**6, "residue", 0, RES_CPU[d]) for d, (r, b) in RES3.items()]
    )
    budget = Budget(10**6, None, 1 << 24)
    write_escalation(
        path,
        EscalationSpec(
            (),
            Subsample(8, 1, budget, {"strict": list(range(16, 24))}),
            residue=Subsample(4, 2, Budget(50 * 10**6, None, 1 << 24), {"strict": list(RES3)}),
        ),
    )
    return path


def by_hand3(decided, n_hard, sub2, n_res, res):
    """The three-phase estimate of docs/statistics.md (2b), in plain arithmetic."""

    def mean(xs):
        return sum(xs) / len(xs)

    def var(xs):
        return sum((x - mean(xs)) ** 2 for x in xs) / (len(xs) - 1)

    n_d, m_d, l_3 = len(decided), len(sub2), len(res)
    n, m = n_d + n_hard, m_d + n_res
    w_d, w_k, r = n_d / n, n_hard / n, n_res / m
    y_k = (1 - r) * mean(sub2) + r * mean(res)
    s2_hard = (1 - r) * var(sub2) + r * var(res)
    s2_hard += (1 - r) * (mean(sub2) - y_k) ** 2 + r * (mean(res) - y_k) ** 2
    y = w_d * mean(decided) + w_k * y_k
    s2 = w_d * var(decided) + w_k * s2_hard
    s2 += w_d * (mean(decided) - y) ** 2 + w_k * (y_k - y) ** 2
    v = s2 / n + w_k**2 * ((1 / m - 1 / n_hard) * s2_hard + r**2 * (1 / l_3 - 1 / n_res) * var(res))
    return y, y - Z * math.sqrt(v), y + Z * math.sqrt(v)


def test_three_phase_report_by_hand(run3, tmp_path):
    rep = build_report(load_runs([run3]))
    t = rep.estimates.iloc[0]
    # final: won 0-11, 16, 18, 21 = 15; lost 12-15, 17, 19 = 6; unknown 9
    assert (t["proven_won"], t["proven_lost"], t["unknown"]) == (15, 6, 9)
    assert (t["hard"], t["subsample_drawn"], t["subsample_solved"]) == (14, 8, 8)
    assert (t["subsample_residual"], t["residue_drawn"], t["residue_solved"]) == (6, 4, 4)
    assert (t["residual_unknown"], t["phases"]) == (1, 3)
    decided = [1.0] * 12 + [0.0] * 4
    low = by_hand3(decided, 14, [1.0, 0.0], 6, [1.0, 0.0, 1.0, 0.0])
    high = by_hand3(decided, 14, [1.0, 0.0], 6, [1.0, 0.0, 1.0, 1.0])
    assert [t["win_est_low"], t["win_lo_low"], t["win_hi_low"]] == pytest.approx(
        [100 * x for x in low]
    )
    assert [t["win_est_high"], t["win_lo_high"], t["win_hi_high"]] == pytest.approx(
        [100 * x for x in high]
    )
    assert (t["win_union_lo"], t["win_union_hi"]) == pytest.approx((100 * low[1], 100 * high[2]))
    banked = [52.0] * 12 + [10, 11, 12, 13]
    b_low = by_hand3(banked, 14, [52, 19], 6, [52, 25, 52, 40])
    b_high = by_hand3(banked, 14, [52, 19], 6, [52, 25, 52, 52])
    assert [t["banked_est_low"], t["banked_lo_low"], t["banked_hi_low"]] == pytest.approx(b_low)
    assert [t["banked_est_high"], t["banked_lo_high"], t["banked_hi_high"]] == pytest.approx(b_high)
    sections = dict(rep.sections())
    win = sections[ESTIMATE_TITLES["win"]]
    assert (
        win["subsample (phase 2): solved of drawn, still unknown"][0] == "8 of 8, 6 still unknown"
    )
    assert win["residue sample (phase 3): solved of drawn, still unknown"][0] == (
        "4 of 4, 1 still unknown"
    )
    assert win["phases"][0] == "3"
    cell = win["estimated true win share % [95%]"][0]
    assert cell.startswith(f"residual=lost: {100 * low[0]:.1f} [{100 * low[1]:.1f}, ")
    assert f"union [{100 * low[1]:.1f}, {100 * high[2]:.1f}]" in cell
    esc = sections["Escalation: rows attempted and decided per rung, seconds per row"]
    res = esc.set_index("stage").loc["residue sample"]
    assert (res["budget"], res["rows attempted"], res["decided here"]) == (
        "50M nodes",
        4,
        "3 (75.0%)",
    )
    assert res["s/row median"] == "250.000" and res["s/row mean"] == "250.000"
    r = CliRunner().invoke(report_cmd, [str(run3), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    csv = (tmp_path / "rep" / "estimates.csv").read_text().splitlines()[0].split(",")
    assert {"residue_drawn", "residue_solved", "subsample_residual", "phases"} <= set(csv)


def test_unfinished_residue_sample_gives_bounds_only(run3):
    store = AttemptStore(run3)
    store.part_files()[1].unlink()
    store.write_part(
        1,
        [attempt(d, r, b, 50 * 10**6, "residue", 0, 1.0) for d, (r, b) in RES3.items() if d != 23],
    )
    rep = build_report(load_runs([run3]))
    t = rep.estimates.iloc[0]
    assert math.isnan(t["win_est_low"]) and (t["residue_drawn"], t["residue_solved"]) == (4, 3)
    shown = dict(rep.sections())[ESTIMATE_TITLES["win"]]
    assert shown["estimated true win share % [95%]"][0] == (
        "- (residue sample unfinished: bounds only)"
    )


def test_a_settled_row_counts_decided_in_its_rung(run):
    """Deal 18 (hard, not drawn) settled lost at rung 2 from a related profile:
    phase 1 decided it; the escalation table counts it settled, not searched."""
    settled = attempt(18, "lost", 30, 0, "ladder", 2, 0.0) | {
        "stop_reason": "relation:hevagames",
        "nodes": 0,
    }
    AttemptStore(run).write_part(2, [settled])
    rep = build_report(load_runs([run]))
    df = load_runs([run]).set_index("deal")
    assert (df.loc[18, "decided_by"], df.loc[18, "phase1_result"]) == ("relation:hevagames", "lost")
    assert df.loc[18, "banked_upper"] == 52  # the related row is not in this run: 52 bounds it
    t = rep.estimates.iloc[0]
    assert (t["hard"], t["subsample_drawn"]) == (3, 3)
    decided = [1.0] * 10 + [0.0] * 4 + [1.0, 0.0, 0.0]
    low = by_hand(decided, 3, [1.0, 0.0, 0.0])
    assert [t["win_est_low"], t["win_lo_low"], t["win_hi_low"]] == pytest.approx(
        [100 * x for x in low]
    )
    esc = dict(rep.sections())["Escalation: rows attempted and decided per rung, seconds per row"]
    rung2 = esc.set_index("stage").loc["rung 2"]
    assert (rung2["rows attempted"], rung2["settled by a related row (solves saved)"]) == (0, 1)


def test_the_true_share_plot_draws_bounds_decided_share_and_estimate(run, tmp_path):
    from canfield.experiments.plots import plot_true_share

    df = load_runs([run])
    ax = plot_true_share(df).axes[0]
    # the grey bar: 60% proven (unknown=lost) up to 70% (unknown=won)
    (bar,) = ax.patches
    assert (bar.get_y(), bar.get_y() + bar.get_height()) == pytest.approx((60.0, 70.0))
    # the open circle: 12 won of 18 decided
    circle = next(line for line in ax.lines if line.get_marker() == "o")
    assert list(circle.get_ydata()) == pytest.approx([100 * 12 / 18])
    # the estimate: the union of both residual cases' intervals, and both cases
    decided = [1.0] * 10 + [0.0] * 4 + [1.0, 0.0]
    low = by_hand(decided, 4, [1.0, 0.0, 0.0])
    high = by_hand(decided, 4, [1.0, 0.0, 1.0])
    (union,) = ax.collections
    (seg,) = union.get_segments()
    assert sorted(seg[:, 1]) == pytest.approx([100 * low[1], 100 * high[2]])
    cases = next(line for line in ax.lines if line.get_marker() == "_")
    assert sorted(cases.get_ydata()) == pytest.approx([100 * low[0], 100 * high[0]])


def test_the_true_share_plot_of_an_unfinished_subsample_shows_bounds_only(run):
    from canfield.experiments.plots import plot_true_share

    store = AttemptStore(run)
    store.part_files()[1].unlink()
    store.write_part(
        1, [attempt(d, r, b, 10**6, "subsample", 0, 1.0) for d, (r, b) in SUB.items() if d != 19]
    )
    ax = plot_true_share(load_runs([run])).axes[0]
    assert len(ax.patches) == 1 and not ax.collections
    assert not [line for line in ax.lines if line.get_marker() == "_"]


def test_pool_refuses_a_run_that_sampled_its_unknowns(run, tmp_path):
    # a second strict run over deals 20-29: different deals, no escalation
    other = tmp_path / "other"
    folder = RunFolder(other)
    folder.init(SweepSpec(("strict",), 20, 30, None, 1000, 1 << 24))
    folder.write_part(0, [row(d, "won", 52, 1000) for d in range(20, 30)])
    assert set(load_runs([run, other])["label"]) == {"strict@esc", "strict@other"}
    assert_user_error(
        CliRunner().invoke(report_cmd, [str(run), str(other), "--pool"]),
        "--pool: run esc sampled its unknown strict rows;"
        " a sample of one run's hard deals is not a sample of the pooled ones",
    )


def test_pool_folds_a_census_into_phase_1_and_refuses_a_sample():
    # run a's subsample drew its one hard row (deal 2): a census, whose
    # verdict becomes phase 1, so a's rows pool with b's, whose hard row
    # (deal 4) no run drew; one more undrawn hard row in a, or a residue
    # sample in a, makes a's draw a sample of its stratum again: refused
    g = pd.DataFrame(
        {
            "deal": [1, 2, 3, 4, 5],
            "run": ["a", "a", "b", "b", "a"],
            "result": ["won", "won", "lost", "unknown", "lost"],
            "phase1_result": ["won", "unknown", "lost", "unknown", "lost"],
            "in_subsample": [False, True, False, False, False],
            "in_residue_sample": [False, False, False, False, False],
        }
    )
    mine = np.ones(len(g), bool)
    folded = g.copy()
    _fold_censuses(folded, mine)
    changed = (folded != g).any(axis=1)
    assert changed.tolist() == [False, True, False, False, False]
    assert (folded.loc[1, "phase1_result"], folded.loc[1, "in_subsample"]) == ("won", False)
    assert folded.loc[3, "phase1_result"] == "unknown"  # b's hard row stays hard
    _check_poolable(folded, "strict")
    # a census only of the rows of the label being pooled
    other = g.copy()
    _fold_censuses(other, np.array([False, False, True, True, False]))
    assert other.equals(g)
    for change in ({"phase1_result": "unknown"}, {"in_residue_sample": True}):
        bad = g.copy()
        for column, value in change.items():
            bad.loc[4, column] = value
        _fold_censuses(bad, mine)
        assert bad.loc[1, "in_subsample"]  # not folded
        with pytest.raises(SweepError, match="sampled its unknown strict rows"):
            _check_poolable(bad, "strict")
