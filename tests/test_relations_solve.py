"""The solver's verdicts never contradict a relation of docs/relations.md.

Deals 0-59 are solved under every profile below with a small node budget,
and :func:`experiments.relations.contradictions` must find nothing among the
related pairs. The test counts, per pair, the deals decided under both
profiles and fails when a pair has none: a pair never compared proves nothing.
"""

from __future__ import annotations

import pandas as pd

import canfield
from canfield.experiments.relations import contradictions, related_pairs, settled

PROFILES = [
    "strict",
    "hevagames",
    "cardgames",
    "solvitaire",
    "strict:passes=2",  # passes, to unlimited
    "storehouse:passes=2",  # passes 2 to 3 (the preset's own)
    "storehouse",
    "superior",  # fill: auto to free (a sequence step)
    "strict:draw=1",  # draw: 3 to 1 (a sequence step)
    "selective",  # layout: the standard start is one of its five
]
DEALS = range(60)
NODES = 3_000


def _rows() -> pd.DataFrame:
    rows = []
    for prof in PROFILES:
        for deal in DEALS:
            r = canfield.solve(deal, profile=prof, nodes=NODES, memory="16MB")
            rows.append({"deal": deal, "profile": prof, "result": r.result, "banked": r.banked})
    return pd.DataFrame(rows)


def test_solver_verdicts_agree_with_every_relation():
    rows = _rows()
    pairs = related_pairs(PROFILES)
    # strict <= hevagames <= cardgames, solvitaire <= both, passes=2 <= strict
    # (and so <= hevagames, cardgames), storehouse:passes=2 <= storehouse;
    # strict and strict:passes=2 <= superior, <= strict:draw=1 and <= selective
    assert len(pairs) == 15, pairs
    bad = contradictions(rows)
    assert bad.empty, bad.to_string()
    done = settled(rows)
    by = rows.set_index(["profile", "deal"])["result"]
    for rel in pairs:
        s = by.loc[rel.smaller].to_numpy()
        lg = by.loc[rel.larger].to_numpy()
        decided = int(((s != "unknown") & (lg != "unknown")).sum())
        n_settled = int(((done["smaller"] == rel.smaller) & (done["larger"] == rel.larger)).sum())
        print(f"{rel.smaller} <= {rel.larger}: {decided} decided under both, {n_settled} settled")
        assert decided > 0, f"{rel.smaller} <= {rel.larger}: no deal decided under both"
