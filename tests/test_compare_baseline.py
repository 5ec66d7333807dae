"""``canfield compare``: verdicts against another solver's."""

from __future__ import annotations

import pandas as pd
from canfield.experiments.bench.compare_baseline import compare
from canfield.experiments.cli import main
from click.testing import CliRunner


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
