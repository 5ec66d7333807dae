"""``experiments.bench.speed``: the kernel speed benchmark runs, catches a
changed search, and turns bad options into one error line."""

from __future__ import annotations

import csv

import pytest

from canfield.experiments.bench import speed


def test_a_tiny_job_runs_and_writes_its_row(tmp_path):
    out = tmp_path / "speed.csv"
    rows = speed.bench([("strict", 3, 2000)], 2, None, out, echo=lambda *a: None)
    assert [r["deal"] for r in rows] == [3]
    assert 0 < rows[0]["positions"] <= 2000 and rows[0]["repeats"] == 2
    with out.open() as fh:
        got = list(csv.DictReader(fh))
    assert got[0]["profile"] == "strict" and int(got[0]["budget_nodes"]) == 2000
    assert got[0]["profile_full"].startswith("strict:") and got[0]["version"]


def test_a_changed_search_is_an_error(tmp_path, monkeypatch):
    calls = []

    def fake(root, jobs):
        calls.append(root)
        # the second process "searched" one more child than the first
        return [
            {
                "profile": "strict",
                "deal": 3,
                "nodes_budget": 10,
                "stats": [10, 0, 0, 0, 0, 0, 0, 0, 20 + len(calls), 0, 0],
                "line_crc": 7,
                "result": "unknown",
                "seconds": 0.1,
                "cpu": 0.1,
            }
        ]

    monkeypatch.setattr(speed, "run_jobs", fake)
    with pytest.raises(RuntimeError, match="searched differently"):
        speed.bench([("strict", 3, 10)], 2, None, tmp_path / "s.csv", echo=lambda *a: None)
    assert len(calls) == 2


@pytest.mark.parametrize(
    "args",
    [
        ["--repeats", "0"],
        ["--mix", "99"],
        ["--baseline", "/nonexistent/checkout"],
        ["--rows", "0-200"],
    ],
)
def test_bad_options_are_one_error_line(args, capsys):
    assert speed.main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:")
