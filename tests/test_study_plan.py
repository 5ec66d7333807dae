"""The study planner (``experiments/study_plan.py``): the sizes it picks meet
the target, cost no more than any other sizes that meet it, and respect the
rows there are."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner

from canfield.experiments.study_plan import half_width, main, plan

STRICT = dict(p=0.72, n=100_000, w=0.117, r=0.25, c2=6.7, c3=120.0)


def test_the_plan_meets_the_target_at_the_least_cpu():
    got = plan(**STRICT, target=0.005)
    assert got.half_width <= 0.005
    assert got.cpu_seconds == pytest.approx(6.7 * got.m + 120 * got.l)
    # no other (m, l) on a grid around it meets the target for less
    cheaper = [
        (m, l)
        for m in range(got.m - 400, got.m + 401, 5)
        for l in range(max(got.l - 40, 1), got.l + 41)
        if half_width(0.72, 100_000, 0.117, m, 0.25, l) <= 0.005
        and 6.7 * m + 120 * l < got.cpu_seconds - 1e-6
    ]
    assert not cheaper
    # one fewer of either misses it (the sizes are the least, not merely enough)
    assert half_width(0.72, 100_000, 0.117, got.m - 30, 0.25, got.l - 3) > 0.005


def test_the_half_width_is_the_bound_of_the_module_doc():
    # by hand: 1.96 sqrt(p(1-p)/N + w^2 (1/4m + r^2/4l))
    var = 0.72 * 0.28 / 100_000 + 0.117**2 * (0.25 / 1000 + 0.0625 * 0.25 / 50)
    assert half_width(0.72, 100_000, 0.117, 1000, 0.25, 50) == pytest.approx(
        1.959964 * math.sqrt(var), rel=1e-5
    )
    assert half_width(0.72, 100_000, 0.117, 0, 0.25, 50) == math.inf
    assert half_width(0.72, 100_000, 0.117, 100, 0.25, 0) == math.inf
    assert half_width(0.72, 100_000, 0.0, 0, 0.0, 0) == pytest.approx(
        1.959964 * math.sqrt(0.72 * 0.28 / 100_000), rel=1e-5
    )


def test_sizes_stay_within_the_rows_there_are():
    # a hard stratum of 100 deals: all of them, and the residue makes up the rest
    small = plan(p=0.9, n=10_000, w=0.01, r=0.4, c2=5.0, c3=100.0, target=0.006)
    assert small.m == 100 and 0 < small.l <= math.ceil(0.4 * 100)
    assert small.half_width <= 0.006
    assert half_width(0.9, 10_000, 0.01, 100, 0.4, small.l - 1) > 0.006
    # no residue: no third phase
    none = plan(p=0.9, n=100_000, w=0.02, r=0.0, c2=5.0, c3=100.0, target=0.005)
    assert none.l == 0 and none.m > 0 and none.half_width <= 0.005
    # no hard deals: nothing to sample
    assert plan(p=0.9, n=100_000, w=0.0, r=0.0, c2=5, c3=100, target=0.005).m == 0
    with pytest.raises(ValueError, match="phase 1 alone"):
        plan(p=0.5, n=1_000, w=0.1, r=0.2, c2=5, c3=100, target=0.005)
    with pytest.raises(ValueError, match="still too wide"):
        plan(p=0.9, n=10_000, w=0.02, r=0.4, c2=5, c3=100, target=0.006)


def test_the_command_prints_the_plan_and_refuses_in_one_line():
    args = ["--deals", "100000", "--won", "0.72", "--hard", "0.117", "--residue", "0.25"]
    r = CliRunner().invoke(main, [*args, "--c2", "6.7", "--c3", "120"])
    assert r.exit_code == 0 and "half-width 0.500 points" in r.output
    bad = CliRunner().invoke(main, [*args, "--c2", "6.7", "--c3", "120", "--target", "0.1"])
    assert bad.exit_code != 0 and "phase 1 alone" in bad.output


def test_with_the_subsample_solved_the_residue_sample_is_the_least_that_meets_it():
    # main-100k's strict after phase 2: m = 1,600 solved, 30% of it unknown,
    # a win share of 0.2 among its decided rows
    args = dict(p=0.72, n=100_000, w=0.117, r=0.30, c2=9.5, c3=180.0, target=0.005, q=0.2)
    got = plan(**args, m_fixed=1600)
    assert got.m == 1600 and got.half_width <= 0.005
    assert half_width(0.72, 100_000, 0.117, 1600, 0.30, got.l - 1, q=0.2) > 0.005
    assert got.cpu_seconds == pytest.approx(9.5 * 1600 + 180 * got.l)
    # the worst-case share asks for more residue rows than the measured one
    assert plan(**{**args, "q": 0.5}, m_fixed=1600).l > got.l
    with pytest.raises(ValueError, match="subsample of 100 alone"):
        plan(**args, m_fixed=100)
    with pytest.raises(ValueError, match="whole residue"):
        plan(**{**args, "r": 0.6}, m_fixed=800)


def test_the_command_plans_the_residue_beside_a_solved_subsample():
    args = ["--deals", "100000", "--won", "0.72", "--hard", "0.117", "--residue", "0.30"]
    r = CliRunner().invoke(main, [*args, "--c2", "9.5", "--c3", "180", "--subsample", "1600"])
    assert r.exit_code == 0 and r.output.startswith("m = 1600, l = 131:")
    r = CliRunner().invoke(
        main, [*args, "--c2", "9.5", "--c3", "180", "--subsample", "1600", "--q", "0.2"]
    )
    assert r.exit_code == 0 and r.output.startswith("m = 1600, l = 99:")
    bad = CliRunner().invoke(main, [*args, "--c2", "9.5", "--c3", "180", "--subsample", "100"])
    assert bad.exit_code != 0 and "alone is wider" in bad.output


@pytest.mark.parametrize(
    "bad",
    [["--deals", "0"], ["--won", "1.7"], ["--hard", "-0.1"], ["--c3", "0"], ["--target", "-1"]],
)
def test_bad_figures_are_one_line_and_no_traceback(bad):
    args = dict(
        zip(
            ["--deals", "--won", "--hard", "--residue", "--c2", "--c3"],
            ["100000", "0.72", "0.117", "0.30", "9.5", "180"],
            strict=True,
        )
    )
    args[bad[0]] = bad[1]
    r = CliRunner().invoke(main, [x for kv in args.items() for x in kv])
    assert r.exit_code == 2  # click's usage error: one 'Error:' line
    assert "Traceback" not in r.output and bad[0] in r.output
