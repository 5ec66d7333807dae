"""Report tables and plots on rows whose statistics are worked out by hand."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner

import canfield
from canfield.experiments.cli.report import report_cmd
from canfield.experiments.plots import PLOTS, write_plots
from canfield.experiments.report import (
    build_report,
    by_base_table,
    load_runs,
    paired_table,
    summary_table,
    to_markdown,
)
from canfield.experiments.report_estimates import escalation_display
from canfield.experiments.stats import wilson
from canfield.experiments.sweep import RunFolder, SweepSpec

ROOT = Path(__file__).resolve().parents[1]

# Profile strict: deals 0-5 won, 6-7 lost, 8-9 unknown.
# Profile hevagames: deals 0-2 and 6 won, 3-5 and 7 lost, 8 unknown, 9 won.
RESULTS = {
    "strict": ["won"] * 6 + ["lost"] * 2 + ["unknown"] * 2,
    "hevagames": ["won"] * 3 + ["lost"] * 3 + ["won", "lost", "unknown", "won"],
}
BANKED = {"won": 52, "lost": 10, "unknown": 20}


def make_rows(profiles=("strict", "hevagames")) -> list[dict]:
    rows = []
    for prof in profiles:
        for deal, res in enumerate(RESULTS[prof]):
            rows.append(
                {
                    "deal": deal,
                    "profile": prof,
                    "profile_full": prof + ":...",
                    "result": res,
                    "banked": BANKED[res] + (deal if prof == "hevagames" and res == "lost" else 0),
                    "seconds": 0.01 * (deal + 1),
                    "nodes": 100 * deal,
                    "peak_table_bytes": 1 << 20,
                    "base_rank": deal % 3,
                    "reserve_left": 0,
                    "solution_length": 150 if res == "won" else 0,
                    "budget_seconds": None,
                    "budget_nodes": 1000,
                    "budget_memory": 1 << 24,
                    "version": "0.1.0",
                    "pick": None,
                    "stop_reason": "x",
                }
            )
    return rows


def make_run(path: Path, rows: list[dict], profiles: tuple[str, ...], deals: int = 10) -> Path:
    folder = RunFolder(path)
    folder.init(SweepSpec(profiles, 0, deals, None, 1000, 1 << 24))
    folder.write_part(0, rows)
    return path


@pytest.fixture
def df(tmp_path) -> pd.DataFrame:
    return load_runs([make_run(tmp_path / "run", make_rows(), ("strict", "hevagames"))])


def test_summary_by_hand(df):
    s = summary_table(df).set_index("profile")
    a = s.loc["strict"]
    assert (a["deals"], a["won"], a["lost"], a["unknown"]) == (10, 6, 2, 2)
    assert a["win_pct"] == 75.0  # 6 of 8 decided; unknowns are not lost
    lo, hi = wilson(6, 8)
    assert (a["win_lo"], a["win_hi"]) == pytest.approx((100 * lo, 100 * hi))
    assert a["win_pct_unknown_lost"] == 60.0 and a["win_pct_unknown_won"] == 80.0
    assert a["win_lo_unknown_lost"] == pytest.approx(100 * wilson(6, 10)[0])
    assert a["win_hi_unknown_won"] == pytest.approx(100 * wilson(8, 10)[1])
    assert a["banked_mean"] == pytest.approx((6 * 52 + 2 * 10 + 2 * 20) / 10)  # 37.2
    assert (a["banked_lost_mean"], a["banked_lost_lo"], a["banked_lost_hi"]) == (10, 10, 10)
    assert a["casino_mean"] == pytest.approx(5 * 37.2 - 52)  # 134
    assert a["casino_hi"] - a["casino_mean"] == pytest.approx(
        5 * (a["banked_hi"] - a["banked_mean"])
    )
    b = s.loc["hevagames"]
    assert (b["won"], b["lost"], b["unknown"]) == (5, 4, 1)
    # lost banked: 10+3, 10+4, 10+5, 10+7 -> mean 59/4 = 14.75
    assert b["banked_lost_mean"] == pytest.approx(14.75)


def test_paired_by_hand(df):
    p = paired_table(df).iloc[0]
    assert (p["a"], p["b"], p["common_deals"]) == ("strict", "hevagames", 10)
    # decided under both: deals 0..7; deals 8 and 9 have an unknown
    assert (p["decided_both"], p["unknown_either"]) == (8, 2)
    assert (p["both"], p["only_a"], p["only_b"], p["neither"]) == (3, 3, 1, 1)
    assert p["mcnemar_exact_p"] == pytest.approx(2 * (1 + 4) / 16)  # n=4, k=1
    assert p["mcnemar_chi2"] == pytest.approx((3 - 1 - 1) ** 2 / 4)
    assert p["mcnemar_chi2_p"] == pytest.approx(math.erfc(math.sqrt(0.125)))
    # banked strict - hevagames: deals 3,4,5: 52-13, 52-14, 52-15; deal 6: 10-52;
    # deal 7: 10-17; deal 8: 0; deal 9: 20-52
    diffs = [0, 0, 0, 39, 38, 37, -42, -7, 0, -32]
    assert p["banked_diff_mean"] == pytest.approx(sum(diffs) / 10)


def test_by_base_by_hand(df):
    t = by_base_table(df)
    a = t[t["profile"] == "strict"].set_index("base_rank")
    # base 0: deals 0,3,6,9 -> won, won, lost, unknown
    assert tuple(a.loc[0, ["deals", "won", "lost", "unknown"]]) == (4, 2, 1, 1)
    assert a.loc[0, "win_pct"] == pytest.approx(200 / 3)
    assert a.loc[0, "base"] == "A" and a.loc[2, "base"] == "3"
    # base 2: deals 2,5,8 -> won, won, unknown
    assert tuple(a.loc[2, ["won", "lost", "unknown"]]) == (2, 0, 1)


def test_report_text_markdown_csv(df, tmp_path):
    rep = build_report(df)
    text = rep.to_text()
    assert "75.0 [" in text and "unknown" in text and "McNemar exact p" in text
    md = rep.to_markdown()
    assert md.startswith("# Canfield win rates") and "| profile | deals |" in md
    paths = rep.write(tmp_path / "out")
    # a solver run also gets estimates.csv (true win share: bounds only here)
    assert [p.name for p in paths] == [
        "report.md",
        "summary.csv",
        "paired.csv",
        "by_base.csv",
        "estimates.csv",
    ]
    s = pd.read_csv(paths[1])
    assert list(s["unknown"]) == [2, 1]


def test_markdown_table():
    t = pd.DataFrame({"a": [1, 2], "b": ["x|y", "z"]})
    assert to_markdown(t) == "| a | b |\n|---|---|\n| 1 | x\\|y |\n| 2 | z |"


def test_same_profile_in_two_runs_is_labelled(tmp_path):
    r1 = make_run(tmp_path / "one", make_rows(("strict",)), ("strict",))
    r2 = make_run(tmp_path / "two", make_rows(("strict", "hevagames")), ("strict", "hevagames"))
    df = load_runs([r1, r2])
    assert list(dict.fromkeys(df["label"])) == ["strict@one", "strict@two", "hevagames"]
    assert len(paired_table(df)) == 3


def test_plots_png_and_svg(df, tmp_path):
    paths = write_plots(df, tmp_path / "plots")
    assert sorted(p.name for p in paths) == sorted(
        f"{n}.{e}" for n in PLOTS for e in ("png", "svg")
    )
    for p in paths:
        assert p.stat().st_size > 1000
        if p.suffix == ".png":
            assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for fn in PLOTS.values():
        fig = fn(df)
        ax = fig.axes[0]
        assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()


def test_plots_of_a_profile_with_no_loss(tmp_path):
    # every decided deal won: the upper Wilson bound is 100% and the error
    # bar above it must not come out negative (a crash, once, on 1962 of 1962)
    rows = [dict(r, result="won", banked=52) for r in make_rows(("strict",))]
    many = [dict(r, deal=r["deal"] + 10 * i) for i in range(197) for r in rows[:10]]
    df = load_runs([make_run(tmp_path / "run", many[:1962], ("strict",))])
    paths = write_plots(df, tmp_path / "plots")
    assert len(paths) == 2 * len(PLOTS)


def test_report_cli_on_sample(tmp_path):
    sample = ROOT / "results" / "sample"
    if not (sample / "run.json").exists():
        pytest.skip("no committed sample run")
    res = CliRunner().invoke(
        report_cmd,
        [str(sample), "--out", str(tmp_path / "rep"), "--plots", str(tmp_path / "plots")],
    )
    assert res.exit_code == 0, res.output
    assert "Win rate per profile" in res.stdout and "hevagames" in res.stdout
    assert (tmp_path / "rep" / "report.md").exists()
    assert (tmp_path / "plots" / "winrate.svg").exists()


def test_bounds_column_shows_bounds_not_interval_limits(df, tmp_path):
    # strict: 6 won, 2 lost, 2 unknown of 10 -> 6/10 = 60.0 .. 8/10 = 80.0
    # (the outer Wilson limits would be 31.3 .. 94.3)
    # hevagames: 5 won, 4 lost, 1 unknown -> 5/10 = 50.0 .. 6/10 = 60.0
    shown = build_report(df).sections()[0][1]
    col = shown["win % bounds (unknown=lost .. unknown=won)"]
    assert list(col) == ["60.0 .. 80.0", "50.0 .. 60.0"]
    # 2 of 8 won, none unknown: the bounds coincide at 25.0 (not 7.1 .. 59.1)
    rows = [dict(r, deal=d) for d, r in enumerate(make_rows(("strict",))[:8])]
    rows = [dict(r, result="won" if d < 2 else "lost") for d, r in enumerate(rows)]
    run = RunFolder(tmp_path / "eight")
    run.init(SweepSpec(("strict",), 0, 8, None, 1000, 1 << 24))
    run.write_part(0, rows)
    shown = build_report(load_runs([tmp_path / "eight"])).sections()[0][1]
    assert shown["win % bounds (unknown=lost .. unknown=won)"][0] == "25.0 .. 25.0"
    assert shown["win % (decided) [95% Wilson]"][0].startswith("25.0 [7.1, 59.1]")


def pimc_run(path: Path, results: list[str]) -> Path:
    """A pimc run of strict deals 0.. with the given results."""
    rows = [
        dict(r, deal=d, result=res, banked=52 if res == "won" else 10, player="pimc")
        for d, (r, res) in enumerate(zip(make_rows(("strict",)), results, strict=False))
    ]
    for r in rows:
        r.update(player_options="k=4,nodes=2000", cleared_reserve=False, moves=100)
    folder = RunFolder(path)
    spec = SweepSpec(("strict",), 0, len(results), None, None, 0, player="pimc")
    folder.init(spec)
    folder.write_part(0, rows)
    return path


def test_a_player_run_alone_is_labelled_with_its_player(tmp_path):
    df = load_runs([pimc_run(tmp_path / "pimc", ["won", "lost", "lost"])])
    rep = build_report(df)
    assert list(rep.summary["profile"]) == ["strict/pimc"]
    headline = rep.sections()[0][1]
    assert list(headline.columns[:5]) == ["profile/player", "deals", "won", "not won", "unknown"]
    # a blind player's game that did not win proves nothing: "not won", not "lost"
    assert headline["not won"][0] == 2
    players = dict(rep.sections())["Players on the same deals"]
    assert players["not won"][0] == 2 and "lost" not in players
    assert "not won" in rep.to_markdown()


def test_solver_rows_keep_lost_beside_a_player(tmp_path):
    solver = make_run(tmp_path / "solver", make_rows(("strict",)), ("strict",))
    df = load_runs([solver, pimc_run(tmp_path / "pimc", ["won"] * 3 + ["lost"] * 7)])
    headline = build_report(df).sections()[0][1].set_index("profile/player")
    assert (headline.loc["strict/solver", "lost"], headline.loc["strict/solver", "not won"]) == (
        2,
        "-",
    )
    assert headline.loc["strict/pimc", "not won"] == 7


def test_time_plot_leaves_players_out(tmp_path):
    solver = make_run(tmp_path / "solver", make_rows(("strict",)), ("strict",))
    df = load_runs([solver, pimc_run(tmp_path / "pimc", ["won"] * 10)])
    ax = PLOTS["solve_time_cdf"](df).axes[0]
    curves = [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]
    assert curves == ["strict/solver"]
    alone = load_runs([pimc_run(tmp_path / "pimc2", ["won"] * 3)])
    ax = PLOTS["solve_time_cdf"](alone).axes[0]
    assert not ax.get_lines() and ax.texts[0].get_text() == "no solver rows"


def test_unfinished_run_is_marked(tmp_path):
    # run.json asks for 2 profiles x 10 deals; only strict's 10 rows are there
    run = make_run(tmp_path / "half", make_rows(("strict",)), ("strict", "hevagames"))
    rep = build_report(load_runs([run]))
    assert [c.warning() for c in rep.unfinished()] == ["run half holds 10 of 20 rows (unfinished)"]
    assert rep.to_text().splitlines()[0] == "runs: half (unfinished: 10 of 20 rows)"
    assert "**Unfinished runs**: run half holds 10 of 20 rows" in rep.to_markdown()


def test_text_fits_the_width(df):
    rep = build_report(df)
    wide = rep.to_text()
    assert max(map(len, wide.splitlines())) > 150
    narrow = rep.to_text(width=80)
    assert max(map(len, narrow.splitlines())) <= 80
    # every cell of the wide text is still there, each group labelled by profile
    for cell in ("60.0 .. 80.0", "75.0 [", "McNemar exact p", "casino payout $ [95%]"):
        assert cell in narrow
    summary = narrow.split("Paired comparison")[0]
    assert summary.count("hevagames") >= 3


def shifted_run(path: Path, start: int) -> Path:
    """A strict run over deals ``start`` .. ``start + 9`` with RESULTS' verdicts."""
    rows = [r | {"deal": r["deal"] + start} for r in make_rows(("strict",))]
    folder = RunFolder(path)
    folder.init(SweepSpec(("strict",), start, start + 10, None, 1000, 1 << 24))
    folder.write_part(0, rows)
    return path


def test_pool_counts_runs_of_different_deals_as_one_sample(tmp_path):
    runs = [shifted_run(tmp_path / "low", 0), shifted_run(tmp_path / "high", 10)]
    assert set(load_runs(runs)["label"]) == {"strict@low", "strict@high"}
    pooled = load_runs(runs, pool=True)
    assert set(pooled["label"]) == {"strict"}
    row = summary_table(pooled).set_index("profile").loc["strict"]
    assert (row["deals"], row["won"], row["lost"], row["unknown"]) == (20, 12, 4, 4)
    lo, hi = wilson(12, 16)
    assert math.isclose(row["win_lo"], 100 * lo) and math.isclose(row["win_hi"], 100 * hi)
    result = CliRunner().invoke(report_cmd, [str(r) for r in runs] + ["--pool"])
    assert result.exit_code == 0, result.output
    assert "strict@" not in result.output
    # and from Python
    assert canfield.report(*runs, pool=True).summary["deals"].tolist() == [20]
    assert canfield.report(*runs).summary["deals"].tolist() == [10, 10]


def test_pooled_escalation_stages_name_their_runs():
    stage = {"stage": "sweep", "budget": "50K nodes", "rows": 10, "decided": 8, "settled": 0}
    times = {f"seconds_{k}": 1.0 for k in ("median", "p95", "mean", "total")}
    rows = [
        {"label": lab, "run": run, **stage, **times, "seconds_kind": "CPU", "version": "0.1.0"}
        for lab, run in (("strict", "low"), ("strict", "high"), ("hevagames", "high"))
    ]
    shown = escalation_display(pd.DataFrame(rows))
    # one label from two runs (report --pool) tells its stages apart; one run alone does not
    assert shown["profile"].tolist() == ["strict (low)", "strict (high)", "hevagames"]


def test_pool_refuses_a_deal_held_by_two_runs(tmp_path):
    runs = [str(shifted_run(tmp_path / "a", 0)), str(shifted_run(tmp_path / "b", 5))]
    assert len(load_runs(runs)) == 20  # without --pool the two are reported side by side
    assert_user_error(
        CliRunner().invoke(report_cmd, [*runs, "--pool"]),
        "--pool: deal 5 of strict is in runs a and b; pooled runs must hold different deals",
    )


def test_plot_pool_draws_the_pooled_runs_and_refuses_shared_deals(tmp_path):
    from canfield.experiments.cli.plot import plot_cmd

    low, high = shifted_run(tmp_path / "low", 0), shifted_run(tmp_path / "high", 10)
    out = tmp_path / "plots"
    result = CliRunner().invoke(plot_cmd, [str(low), str(high), "--pool", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(list(out.glob("*.png"))) == len(PLOTS)
    clash = shifted_run(tmp_path / "clash", 5)
    result = CliRunner().invoke(plot_cmd, [str(low), str(clash), "--pool", "--out", str(out)])
    assert_user_error(result, "--pool: deal 5 of strict")


def test_a_p_value_below_the_smallest_float_is_not_printed_as_zero(tmp_path):
    # 1,200 deals that strict loses and hevagames wins: the exact McNemar p is
    # 2 / 2**1200, below the smallest float, so the table has 0.0 in it
    rows = []
    for prof, res in (("strict", "lost"), ("hevagames", "won")):
        base = make_rows((prof,))[0]
        rows += [dict(base, deal=d, result=res, banked=BANKED[res]) for d in range(1200)]
    df = load_runs([make_run(tmp_path / "run", rows, ("strict", "hevagames"), 1200)])
    p = paired_table(df).iloc[0]
    assert (p["only_a"], p["only_b"]) == (0, 1200)
    assert p["mcnemar_exact_p"] == 0.0
    rep = build_report(df)
    for text in (rep.to_text(), rep.to_markdown()):
        assert "< 1e-300" in text and "0.00e+00" not in text
