"""A sweep too large to plan is one error line and leaves no folder behind."""

from __future__ import annotations

import pytest
from cli_errors import assert_user_error
from test_cli import run

from canfield.experiments.sweep.runner import MAX_SWEEP_ROWS


@pytest.mark.parametrize(
    ("deals", "profiles", "rows"),
    [
        # past 2**63 deals len() of the range itself overflows
        ("0:18446744073709551616", "strict", "18,446,744,073,709,551,616"),
        # one row over the bound, counted over the profiles
        (f"0:{MAX_SWEEP_ROWS // 2 + 1}", "strict,hevagames", f"{MAX_SWEEP_ROWS + 2:,}"),
    ],
)
def test_a_sweep_too_large_to_plan_is_one_error_line(tmp_path, deals, profiles, rows):
    out = tmp_path / "huge"
    result = run("sweep", "--deals", deals, "-p", profiles, "--nodes", "2000", "--out", str(out))
    assert_user_error(result, f"asks for {rows} rows", "split the deals")
    assert not out.exists()
