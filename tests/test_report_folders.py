"""``canfield report`` over several run folders, and over escalations left unfinished.

Two folders of one name are told apart by their paths, one folder given twice
(in any spelling) is refused, and an escalation stopped in the middle of a
rung or a sample is flagged like an unfinished sweep, with the rows not yet
tried kept out of the hard stratum.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from cli_errors import assert_user_error
from test_report import make_rows, make_run
from test_report_cli import run
from test_report_estimates import BANKED, RUNG1, SUB, SWEEP, attempt, row

from canfield.experiments.sweep import RunFolder, SweepSpec
from canfield.experiments.sweep.attempts import AttemptStore
from canfield.experiments.sweep.escalation_spec import (
    Budget,
    EscalationSpec,
    Subsample,
    write_escalation,
)

WIN_TITLE = "True win share over all deals"


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open() as fh:
        return list(csv.DictReader(fh))


@pytest.fixture
def two_named_a(tmp_path, monkeypatch) -> tuple[str, str]:
    """``runs/a`` (strict and hevagames) and ``other/a`` (strict, deal 0 lost),
    named relative to the working folder as a user types them."""
    monkeypatch.chdir(tmp_path)
    make_run(tmp_path / "runs" / "a", make_rows(), ("strict", "hevagames"))
    other = make_rows(("strict",))
    other[0] |= {"result": "lost", "banked": 10, "solution_length": 0}
    make_run(tmp_path / "other" / "a", other, ("strict",))
    return "runs/a", "other/a"


def test_two_folders_of_one_name_are_compared_apart(two_named_a, tmp_path):
    r = run("report", *two_named_a, "--out", "rep")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == "runs: runs/a, other/a"
    summary = {s["profile"]: s for s in read_csv(tmp_path / "rep" / "summary.csv")}
    assert list(summary) == ["strict@runs/a", "hevagames", "strict@other/a"]
    assert [summary[k]["deals"] for k in summary] == ["10", "10", "10"]
    paired = read_csv(tmp_path / "rep" / "paired.csv")
    (same,) = [p for p in paired if (p["a"], p["b"]) == ("strict@runs/a", "strict@other/a")]
    # deal 0: won in runs/a, lost in other/a; 1-5 won, 6-7 lost, 8-9 unknown in both
    counts = {k: int(same[k]) for k in ("common_deals", "unknown_either", "both", "only_a")}
    assert counts == {"common_deals": 10, "unknown_either": 2, "both": 5, "only_a": 1}
    assert (int(same["only_b"]), int(same["neither"])) == (0, 2)


@pytest.mark.parametrize("second", ["runs/a", "./runs/a/", "link"])
def test_one_folder_given_twice_is_one_error_line(two_named_a, tmp_path, second):
    (tmp_path / "link").symlink_to(tmp_path / "runs" / "a")
    line = assert_user_error(run("report", "runs/a", second, "--out", "rep"), "given twice")
    assert "runs/a" in line and second in line
    assert not (tmp_path / "rep").exists()


# The run of test_report_estimates (strict, deals 0-19, 14-19 unknown after the
# sweep, 16-19 after rung 1 at 20K), with a second rung of 1M nodes.
RUNG2 = {16: ("unknown", 28), 17: ("unknown", 22), 18: ("unknown", 31), 19: ("won", 52)}


def escalated(path: Path, rung2: dict, subsample: dict | None = None) -> Path:
    """The run at ``path`` with rung 2 (and the subsample) tried on the deals given."""
    folder = RunFolder(path)
    folder.init(SweepSpec(("strict",), 0, 20, None, 1000, 1 << 24))
    folder.write_part(
        0, [row(d, r, b, 1000) for d, (r, b) in enumerate(zip(SWEEP, BANKED, strict=True))]
    )
    store = AttemptStore(path)
    store.write_part(0, [attempt(d, r, b, 20_000, "ladder", 1, 1.0) for d, (r, b) in RUNG1.items()])
    store.write_part(1, [attempt(d, r, b, 10**6, "ladder", 2, 1.0) for d, (r, b) in rung2.items()])
    sample = None
    if subsample is not None:
        sample = Subsample(3, 1, Budget(10**7, None, 1 << 24), {"strict": [16, 17, 18]})
        store.write_part(
            2, [attempt(d, r, b, 10**7, "subsample", 0, 1.0) for d, (r, b) in subsample.items()]
        )
    rungs = (Budget(20_000, None, 1 << 24), Budget(10**6, None, 1 << 24))
    write_escalation(path, EscalationSpec(rungs, sample))
    return path


def warnings(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("warning:")]


def test_an_interrupted_rung_is_flagged_and_its_untried_rows_are_not_hard(tmp_path):
    # rung 2 tried deal 16 only: 17-19 were never given 1M nodes
    esc = escalated(tmp_path / "esc", {16: RUNG2[16]})
    r = run("report", str(esc), "--wide", "--out", str(tmp_path / "rep"))
    assert r.exit_code == 0, r.output
    assert warnings(r) == [
        "warning: run esc escalation: rung 2 (1M nodes) tried 1 of 4 rows (unfinished)"
    ]
    assert r.stdout.splitlines()[0] == "runs: esc (escalation unfinished)"
    (est,) = read_csv(tmp_path / "rep" / "estimates.csv")
    assert (est["hard"], est["ladder_untried"], est["unknown"]) == ("1", "3", "4")
    win = r.stdout.split(WIN_TITLE)[1].split("\n\n")[0]
    assert "1 (+3 not yet tried: ladder unfinished)" in win
    assert "- (ladder unfinished: bounds only)" in win
    assert "**Unfinished escalations**" in (tmp_path / "rep" / "report.md").read_text()
    # the resumed rung tries the rest: no warning, and the stratum is final
    AttemptStore(esc).write_part(
        3, [attempt(d, r, b, 10**6, "ladder", 2, 1.0) for d, (r, b) in RUNG2.items() if d != 16]
    )
    r = run("report", str(esc), "--out", str(tmp_path / "rep"))
    assert r.exit_code == 0, r.output
    assert warnings(r) == [] and r.stdout.splitlines()[0] == "runs: esc"
    (est,) = read_csv(tmp_path / "rep" / "estimates.csv")
    assert (est["hard"], est["ladder_untried"]) == ("3", "0")  # 16-18: rung 2 won 19


def test_an_interrupted_subsample_is_flagged(tmp_path):
    esc = escalated(tmp_path / "esc", RUNG2, subsample={16: SUB[16], 17: SUB[17]})
    r = run("report", str(esc))
    assert r.exit_code == 0, r.output
    assert warnings(r) == [
        "warning: run esc escalation: subsample (10M nodes) tried 2 of 3 rows (unfinished)"
    ]
