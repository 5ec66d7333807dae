"""The report's number formatting: one figure prints alike by any float path."""

from __future__ import annotations

import math

import pandas as pd

from canfield.experiments.text_tables import fit_to_width, fmt_number


def test_a_tie_prints_alike_whichever_way_it_was_computed():
    # 1017 of 2000 won is 50.85%: the report reaches it as 100 * k / n in one
    # table and as 100 * (k / n) in another; plain formatting splits them.
    a, b = 100 * 1017 / 2000, 100 * (1017 / 2000)
    assert f"{a:.1f}" != f"{b:.1f}"  # the float noise this guards against
    assert fmt_number(a, 1) == fmt_number(b, 1) == "50.9"


def test_every_share_prints_alike_by_both_paths():
    split = 0  # shares that plain formatting prints two ways
    for n in (7, 40, 200, 2000, 100_000):
        for k in range(n + 1):
            a, b = 100 * k / n, 100 * (k / n)
            split += f"{a:.1f}" != f"{b:.1f}" or f"{a:.2f}" != f"{b:.2f}"
            assert fmt_number(a, 1) == fmt_number(b, 1), (k, n)
            assert fmt_number(a, 2) == fmt_number(b, 2), (k, n)
    assert split > 0  # the cases this guards against occur among these shares


def test_missing_figures_print_a_dash():
    assert fmt_number(None) == "-"
    assert fmt_number(math.nan, 2) == "-"
    assert fmt_number(41.2049, 2) == "41.20"


def test_a_wide_table_is_cut_into_labelled_groups():
    t = pd.DataFrame({"profile": ["strict"], **{f"column {i}": ["x" * 20] for i in range(6)}})
    text = fit_to_width(t, 60)
    groups = text.split("\n\n")
    assert len(groups) > 1
    assert all(g.lstrip().startswith("profile") for g in groups)
    assert all(f"column {i}" in text for i in range(6))
