"""``canfield compare``: verdicts against another solver's."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner

from canfield.experiments.bench.compare_baseline import compare
from canfield.experiments.cli import main

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "results" / "bench" / "solver.csv"
BASELINES = sorted((ROOT / "results" / "baselines").glob("solvitaire-exact-*-deals-0-199.csv"))


def _frames():
    ours = pd.DataFrame(
        {
            "profile": ["strict"] * 4,
            "deal": [0, 1, 2, 3],
            "result": ["won", "lost", "unknown", "won"],
            "nodes": [10, 20, 30, 40],
            "seconds": [1.0, 1.0, 1.0, 1.0],
        }
    )
    theirs = pd.DataFrame(
        {
            "deal": [0, 1, 2, 3],
            "profile": ["strict"] * 4,
            "result": ["won", "unknown", "won", "lost"],
            "wall_seconds": [1.0, 1.0, 1.0, 1.0],
            "states": [5, 5, 5, 5],
        }
    )
    return ours, theirs


def test_counts_and_contradictions():
    c = compare(*_frames())
    assert c["deals"] == 4
    assert c["only_ours_decided"] == 1 and c["only_theirs_decided"] == 1
    assert c["contradictions"] == [3]
    assert c["ours_states_per_s"] == 25 and c["theirs_states_per_s"] == 5


def test_cli_exits_1_on_a_contradiction_and_2_on_bad_input(tmp_path):
    ours, theirs = _frames()
    ours.to_csv(tmp_path / "ours.csv", index=False)
    theirs.to_csv(tmp_path / "theirs.csv", index=False)

    def run(*names: str):
        return CliRunner().invoke(main, ["compare", *(str(tmp_path / n) for n in names)])

    res = run("ours.csv", "theirs.csv")
    assert res.exit_code == 1
    assert "contradictions 1 [3]" in res.stdout
    theirs.iloc[:3].to_csv(tmp_path / "agree.csv", index=False)
    res = run("ours.csv", "agree.csv")
    assert res.exit_code == 0 and "contradictions 0" in res.stdout
    (tmp_path / "bad.csv").write_text("deal,result\n0,maybe\n")
    res = run("ours.csv", "bad.csv")
    assert res.exit_code == 2
    assert res.stderr.startswith("error: ") and "lacks the column(s) profile" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_the_committed_benchmark_against_the_committed_baselines():
    """The README's claim, from a clone: on deals 0-199 our 10 s solver decides every
    deal the C++ baseline decides, and no verdict contradicts it."""
    assert [p.name.split("-")[2] for p in BASELINES] == ["hevagames", "strict"]
    ours = pd.read_csv(BENCH)
    for path in BASELINES:
        c = compare(ours, pd.read_csv(path))
        assert c["deals"] == 200, path.name
        assert c["contradictions"] == [] and c["only_theirs_decided"] == 0, (path.name, c)
    # the README's command exits 0 (no contradiction)
    res = CliRunner().invoke(main, ["compare", str(BENCH), *map(str, BASELINES)])
    assert res.exit_code == 0 and "contradictions 0" in res.stdout


HEADER = "deal,profile,result,wall_seconds,states\n"
GOOD = "0,strict,won,1.0,5\n1,strict,lost,1.0,5\n"  # as ours says


def _compare(tmp_path: Path, text: str, name: str = "theirs.csv"):
    """``canfield compare`` of the frames' ours against a baseline reading ``text``."""
    ours, _ = _frames()
    ours.to_csv(tmp_path / "ours.csv", index=False)
    (tmp_path / name).write_text(text)
    return CliRunner().invoke(main, ["compare", str(tmp_path / "ours.csv"), str(tmp_path / name)])


@pytest.mark.parametrize(
    "lines, where, shown",
    [
        ("2,strict,WON,0.1,100\n3,strict,maybe,0.1,100\n4,strict,,,\n", "line 4", "'WON'"),
        ("2,strict,won,0.1,100\n3,strict,,0.1,100\n", "line 5", "no result"),
        ("abc,strict,won,0.1,100\n", "line 4", "'abc'"),
        ("2,strict,won,1,2\n-3,strict,won,0.1,100\n", "line 5", "'-3'"),
        ("2.5,strict,won,0.1,100\n", "line 4", "'2.5'"),
        ("2,nosuch,won,0.1,100\n", "line 4", "unknown profile 'nosuch'"),
    ],
    ids=["results", "empty result", "text deal", "negative deal", "fractional deal", "profile"],
)
def test_a_garbled_line_is_one_error_naming_file_line_and_value(tmp_path, lines, where, shown):
    err = assert_user_error(_compare(tmp_path, HEADER + GOOD + lines, "garbled.csv"))
    assert "garbled.csv" in err and where in err and shown in err


def test_blank_lines_are_skipped_but_counted_in_line_numbers(tmp_path):
    res = _compare(tmp_path, HEADER + GOOD + "\n2,strict,unknown,1,2\n")
    assert res.exit_code == 0 and "strict 3 deals" in res.stdout, res.output
    err = assert_user_error(_compare(tmp_path, HEADER + GOOD + "\n2,strict,maybe,1,2\n"))
    assert "line 5" in err and "'maybe'" in err


@pytest.mark.parametrize(
    "again",
    ["3,strict,won,0.1,100\n", "3,strict,lost,0.1,100\n", "3,strict:draw=3,lost,1,2\n"],
    ids=["agree", "disagree", "profile spelled out"],
)
def test_a_deal_listed_twice_is_bad_input_not_a_contradiction(tmp_path, again):
    """Whether the two lines agree or not: neither an extra deal nor a clash of two solvers."""
    text = HEADER + GOOD + "3,strict,won,0.014,2704\n" + again
    err = assert_user_error(_compare(tmp_path, text, "dup.csv"))
    assert "dup.csv" in err and "deal 3" in err and "(line 4, line 5)" in err
    res = CliRunner().invoke(
        main, ["compare", str(tmp_path / "dup.csv"), str(tmp_path / "dup.csv")]
    )
    assert "dup.csv" in assert_user_error(res)
