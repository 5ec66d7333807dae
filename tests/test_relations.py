"""experiments/relations.py on hand-made profiles and rows, and the report section.

The empirical checks of each relation are in ``tests/test_relations_play.py``
(moves, against the core and the reference rules) and
``tests/test_relations_solve.py`` (solver verdicts).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from test_report import make_rows, make_run

from canfield.engine.profiles import CHOICES, OPTION_ORDER, PRESETS
from canfield.experiments.cli.report import report_cmd
from canfield.experiments.relations import (
    ONE_WAY,
    ORDERS,
    SAME_RULES,
    SEQUENCE_STEPS,
    contradictions,
    pair_table,
    related_pairs,
    relation,
    settled,
    unrelated_reason,
    with_settled,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("small", "large", "by"),
    [
        ("strict", "hevagames", ("moves", "space")),
        ("hevagames", "cardgames", ("worry",)),
        ("strict", "cardgames", ("moves", "space", "worry")),
        ("solvitaire", "hevagames", ("wrap",)),
        ("solvitaire", "cardgames", ("worry", "wrap")),
        ("strict:passes=2", "strict:passes=3", ("passes",)),
        ("strict:passes=3", "strict", ("passes",)),
        ("storehouse", "storehouse:passes=inf", ("passes",)),
        ("strict:draw=1,passes=1", "rainbow", ("build",)),
        ("storehouse", "storehouse:build=rank", ("build",)),
        ("superior", "superior:moves=any", ("moves",)),
        ("hevagames:wrap=base", "solvitaire", (SAME_RULES,)),
        ("selective", "selective:worry=yes", ("worry",)),
        ("strict", "strict:draw=1", ("draw",)),
        ("strict", "superior", ("fill",)),
        ("strict", "selective", ("layout",)),
        ("strict:passes=2", "selective:draw=1", ("layout", "draw", "passes")),
        ("cardgames", "cardgames-draw1", ("draw",)),
        (
            "strict:passes=2",
            "hevagames:draw=1,fill=free",
            ("draw", "passes", "moves", "space", "fill"),
        ),
    ],
)
def test_related(small, large, by):
    rel = relation(small, large)
    assert rel is not None and rel.arguments == by
    assert unrelated_reason(small, large) is None
    # only a sequence step makes the larger's line longer than the smaller's
    assert rel.same_moves == (not set(by) & SEQUENCE_STEPS)


@pytest.mark.parametrize(
    ("small", "large", "why"),
    [
        ("hevagames", "strict", "moves=any vs moves=whole"),  # the other way round
        ("strict", "solvitaire", "wrap=ak vs wrap=base"),
        ("solvitaire", "strict", "moves=any vs moves=whole"),
        ("strict:draw=1", "strict", "draw=1 vs draw=3"),
        ("hevagames", "strict:draw=1", "moves=any vs moves=whole"),
        ("superior", "strict", "fill=free vs fill=auto"),
        ("superior", "strict:draw=1", "fill=free vs fill=auto"),
        ("strict", "strict:passes=2", "passes"),
        ("strict:passes=3", "strict:passes=2", "passes"),
        ("strict", "strict:build=suit", "build=alt vs build=suit"),
        ("selective", "strict", "laid out differently"),
        ("storehouse", "selective", "laid out differently"),
        ("storehouse:draw=3,build=alt,passes=inf", "strict", "laid out differently"),
    ],
)
def test_unrelated(small, large, why):
    assert relation(small, large) is None
    assert why in unrelated_reason(small, large)


def test_every_option_is_argued_or_must_be_equal():
    """A new option is unrelated until someone argues its order."""
    for name in OPTION_ORDER:
        assert (name in ORDERS) + (name == "passes") == 1, name
    # the one-way steps name why their reverse relates nothing
    assert set(ONE_WAY) == SEQUENCE_STEPS <= set(ORDERS)
    for name, steps in ORDERS.items():
        for a, b in steps:
            assert a in CHOICES.get(name, (1, 3)) and b in CHOICES.get(name, (1, 3)) and a != b


def test_every_argument_has_its_section_in_the_docs():
    text = (ROOT / "docs" / "relations.md").read_text()
    headings = set(re.findall(r"^### `?(\w+)`?", text, re.M))
    assert set(ORDERS) | {"passes", "layout"} <= headings, headings
    for name in ONE_WAY:
        assert f"`{name}`" in text


PROFILES = [
    *PRESETS,
    "strict:passes=2",
    "strict:passes=3",
    "strict:moves=any",
    "strict:space=any",
    "hevagames:wrap=base",
    "cardgames:wrap=base",
    "strict:draw=1,passes=1",
    "storehouse:passes=2",
    "storehouse:build=rank",
    "superior:moves=any,space=any",
]


def test_the_order_is_transitive_and_antisymmetric():
    pairs = {(r.smaller, r.larger) for r in related_pairs(PROFILES)}
    assert len(pairs) > 20
    for a, b, c in itertools.permutations(PROFILES, 3):
        if (a, b) in pairs and (b, c) in pairs:
            assert (a, c) in pairs, (a, b, c)
    for a, b in pairs:
        if (b, a) in pairs:  # both ways only for the same rules
            assert relation(a, b).arguments == (SAME_RULES,), (a, b)


# ---- rows ----------------------------------------------------------------------


def _row(deal, profile, result, banked, player="solver"):
    return {"deal": deal, "profile": profile, "result": result, "banked": banked, "player": player}


def _frame(rows):
    return pd.DataFrame([_row(*r) for r in rows])


def test_contradictions_by_hand():
    rows = _frame(
        [
            (0, "strict", "won", 52),  # won smaller, lost larger: contradiction
            (0, "hevagames", "lost", 40),
            (1, "strict", "lost", 30),  # banked above the larger's exact count
            (1, "hevagames", "lost", 29),
            (2, "strict", "unknown", 35),  # a lower bound above an exact count
            (2, "hevagames", "lost", 33),
            (3, "strict", "lost", 30),  # fine: smaller lost, larger won
            (3, "hevagames", "won", 52),
            (4, "strict", "lost", 40),  # fine: the larger's count is a lower bound
            (4, "hevagames", "unknown", 20),
            (5, "strict", "won", 52),  # a blind player proves nothing: ignored
            (5, "hevagames", "lost", 30, "greedy"),
            (6, "strict", "won", 52),  # unrelated profiles are not compared
            (6, "solvitaire", "lost", 30),
        ]
    )
    bad = contradictions(rows)
    assert list(bad["deal"]) == [0, 1, 2]
    assert set(bad["smaller"]) == {"strict"} and set(bad["larger"]) == {"hevagames"}
    assert bad.iloc[0]["kind"].startswith("won under the smaller, lost")
    assert bad.iloc[1]["kind"].startswith("banked under the smaller above")
    assert contradictions(rows[~rows["deal"].isin([0, 1, 2])]).empty


def test_settled_by_hand():
    rows = _frame(
        [
            (0, "strict", "won", 52),  # settles hevagames and cardgames as won
            (0, "hevagames", "unknown", 30),
            (0, "cardgames", "unknown", 31),
            (1, "strict", "unknown", 20),  # cardgames lost settles strict, hevagames
            (1, "hevagames", "unknown", 22),
            (1, "cardgames", "lost", 25),
            (2, "strict", "unknown", 20),  # an unknown settles nothing
            (2, "hevagames", "unknown", 20),
            (2, "cardgames", "won", 52),  # a larger's win says nothing of the smaller
        ]
    )
    done = settled(rows)
    got = set(zip(done["deal"], done["unit"], done["settled_as"], done["smaller"], strict=True))
    assert got == {
        (0, "hevagames", "won", "strict"),
        (0, "cardgames", "won", "strict"),
        (1, "strict", "lost", "strict"),
        (1, "hevagames", "lost", "hevagames"),
    }
    t = pair_table(rows).set_index(["smaller", "larger"])
    assert t.loc[("strict", "hevagames"), "larger_settled_won"] == 1
    assert t.loc[("strict", "cardgames"), "larger_settled_won"] == 1
    assert t.loc[("strict", "cardgames"), "smaller_settled_lost"] == 1
    assert t.loc[("hevagames", "cardgames"), "smaller_settled_lost"] == 1
    assert t.loc[("hevagames", "cardgames"), "larger_settled_won"] == 0
    assert (t["deals"] == 3).all() and (t["contradictions"] == 0).all()


def test_settled_rows_are_written_in_with_every_card_of_their_game():
    rows = _frame(
        [
            (0, "strict", "won", 52),  # settles hevagames won: 52
            (0, "hevagames", "unknown", 30),
            (1, "strict", "unknown", 20),  # cardgames lost settles strict lost
            (1, "cardgames", "lost", 25),
            (2, "double", "won", 104),  # two packs: a settled win banks 104
            (2, "double:draw=1", "unknown", 60),
            (3, "strict", "won", 52),  # a blind player's row is never settled
            (3, "hevagames", "unknown", 30, "greedy"),
            (4, "strict", "unknown", 20),  # nothing decides it: stays as it was
            (4, "hevagames", "unknown", 25),
        ]
    )
    out = with_settled(rows)
    got = out.set_index(["deal", "profile", "player"])[["result", "banked", "settled_by"]]
    assert got.loc[(0, "hevagames", "solver")].tolist() == ["won", 52, "strict"]
    assert got.loc[(1, "strict", "solver")].tolist() == ["lost", 20, "cardgames"]
    assert got.loc[(2, "double:draw=1", "solver")].tolist() == ["won", 104, "double"]
    assert got.loc[(3, "hevagames", "greedy")].tolist() == ["unknown", 30, ""]
    assert got.loc[(4, "hevagames", "solver")].tolist() == ["unknown", 25, ""]
    changed = (out["result"] != rows["result"]) | (out["banked"] != rows["banked"])
    assert int(changed.sum()) == 3 == int((out["settled_by"] != "").sum())
    assert "settled_by" not in rows


# ---- the report --------------------------------------------------------------------


def _run_rows(planted: bool) -> list[dict]:
    """strict and hevagames on deals 0-9, consistent unless ``planted``."""
    template = make_rows(("strict",))[0]  # the other columns, as test_report fills them
    rows = []
    for deal in range(10):
        for prof, res, banked in (
            ("strict", "won" if deal < 4 else "unknown", 52 if deal < 4 else 20),
            ("hevagames", "won" if deal < 6 else "lost", 52 if deal < 6 else 30),
        ):
            if planted and deal == 7 and prof == "strict":
                res, banked = "won", 52  # strict won where hevagames lost
            rows.append(
                {**template, "deal": deal, "profile": prof, "result": res, "banked": banked}
            )
    return rows


def _report(tmp_path, planted: bool):
    run = make_run(tmp_path / "run", _run_rows(planted), ("strict", "hevagames"))
    return CliRunner().invoke(report_cmd, [str(run), "--wide", "--out", str(tmp_path / "rep")])


def test_report_names_a_planted_contradiction(tmp_path):
    res = _report(tmp_path, planted=True)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Related profiles: CONTRADICTION in 1 row pairs" in out
    line = next(ln for ln in out.splitlines() if "won under the smaller, lost" in ln)
    assert line.split()[:3] == ["7", "strict", "hevagames"]
    assert "CONTRADICTION" in (tmp_path / "rep" / "report.md").read_text()


def test_a_run_without_related_profiles_says_so(tmp_path):
    rows = [r for r in _run_rows(planted=True) if r["profile"] == "strict"]
    run = make_run(tmp_path / "run", rows, ("strict",))
    out = CliRunner().invoke(report_cmd, [str(run)]).stdout
    assert "Related profiles: no two profiles of the runs are related" in out


def test_report_without_contradiction_says_so(tmp_path):
    out = _report(tmp_path, planted=False).stdout
    assert "CONTRADICTION" not in out
    # strict won on 0-3 (decided under both), unknown on 4-9: hevagames lost
    # on 6-9 settles 4 of them
    assert "Related profiles: no contradiction; 4 unknown rows settled" in out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("strict <= hevagames"))
    assert line.split()[3:] == ["moves+space", "10", "4", "0", "0", "4"]
    total = next(ln for ln in out.splitlines() if ln.strip().startswith("all 1 pairs"))
    assert total.split()[3:] == ["10", "4", "0", "0", "4"]


def test_report_counts_the_settled_rows_beside_the_rows_as_run(tmp_path):
    res = _report(tmp_path, planted=False)
    lines = res.stdout.splitlines()
    # as run: strict 4 won, 6 unknown; with hevagames' losses on 6-9 written in
    start = lines.index("Win rate with the rows related profiles settle (docs/relations.md)")
    row = next(ln for ln in lines[start:] if ln.strip().startswith("strict "))
    assert row.split()[:8] == ["strict", "10", "4", "4", "2", "0", "4", "50.0"]
    listed = lines[lines.index("Rows settled by a related profile's row") :]
    row = next(ln for ln in listed if ln.strip().startswith("strict "))
    assert row.split() == ["strict", "lost", "hevagames", "moves+space", "4", "6,", "7,", "8,", "9"]
    csv = pd.read_csv(tmp_path / "rep" / "settled.csv")
    assert csv["deal"].tolist() == [6, 7, 8, 9]
    assert set(csv["settled_as"]) == {"lost"} and set(csv["by"]) == {"hevagames"}
    # the table as run is the same as before: settled rows are shown apart
    summary = pd.read_csv(tmp_path / "rep" / "summary.csv").set_index("profile")
    assert summary.loc["strict", ["won", "lost", "unknown"]].tolist() == [4, 0, 6]


def test_rows_that_contradict_a_relation_settle_nothing(tmp_path):
    res = _report(tmp_path, planted=True)
    assert "CONTRADICTION" in res.stdout
    assert "Win rate with the rows related profiles settle" not in res.stdout
    assert not (tmp_path / "rep" / "settled.csv").exists()
