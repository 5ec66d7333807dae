"""experiments/deadend_census.py: its B1 twin equals the kernel, and its
sound reading never caps below what the brute force banks."""

from __future__ import annotations

import sys

import pytest
from test_bound import tangled
from test_solver import brute_force

from canfield.experiments.deadend_census import (
    census_bound,
    kernel_bound,
    main,
    path_sample,
    positions,
)


def test_census_b1_is_the_kernel_bound_and_the_readings_nest():
    sample = positions(1)
    below_52 = fired = 0
    for pos in sample:
        b1 = census_bound(pos, "b1")
        assert b1 == kernel_bound(pos), pos.show()
        sound, pattern, optimistic = (
            census_bound(pos, m) for m in ("sound", "pattern", "optimistic")
        )
        # each reading claims at most what the next, looser one claims
        assert optimistic <= pattern <= b1 and optimistic <= sound <= b1, pos.show()
        below_52 += b1 < 52
        fired += optimistic < b1
    assert below_52 >= 1 and fired >= 1, "no position froze a card: the census proves nothing"


def test_the_sound_reading_fires_and_keeps_the_brute_force_best():
    # seed 1381: every column is shut, and the sound reading caps at the
    # brute force's best (10), under B1's 13
    pos = tangled("strict", 1381)
    truth = brute_force(pos, 200_000)
    assert truth is not None
    best = 52 if truth[0] == "won" else truth[1]
    sound = census_bound(pos, "sound")
    assert sound < census_bound(pos, "b1")
    assert sound >= best


def test_a_path_sample_reads_the_search_and_its_readings_nest():
    rows = path_sample(110, 400_000, 200_000, 20_000)
    assert [r["nodes"] for r in rows[:1]] == [200_001]  # the root is a position too
    assert len(rows) >= 4
    for r in rows:
        assert 0 <= r["depth"] <= r["of"] and r["reserve"] + r["off"] + r["banked"] <= 52
        assert r["optimistic"] <= r["b1"] and r["sound"] <= r["b1"], r
        assert r["sub_banked"] >= r["banked"], r
        if r["sub_result"] == "lost":
            # an exhausted search's banked count is exact: no sound bound is below it
            assert r["sound"] >= r["sub_banked"] and r["b1"] >= r["sub_banked"], r
    # the reading the census is about fires on this path (it did on every sample)
    assert sum(r["optimistic"] < r["b1"] for r in rows) >= 1


def test_the_path_command_prints_a_line_a_position_and_refuses_bad_numbers(monkeypatch, capsys):
    args = ["--path", "110", "--nodes", "200000", "--every", "200000", "--sub-nodes", "5000"]
    monkeypatch.setattr(sys, "argv", ["x", *args])
    main()
    lines = capsys.readouterr().out.splitlines()
    assert sum(" B1 " in line and " optimistic " in line for line in lines) >= 2
    assert lines[-2].startswith("reserve empty: ") and lines[-1].startswith("reserve held: ")
    monkeypatch.setattr(sys, "argv", ["x", "--path", "110", "--every", "0"])
    with pytest.raises(SystemExit) as out:
        main()
    assert "--every" in str(out.value) and "\n" not in str(out.value)
