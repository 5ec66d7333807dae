"""Our solver's verdicts against another solver's, deal by deal.

Run: ``canfield compare results/bench/solver.csv
results/baselines/solvitaire-exact-strict-deals-0-199.csv ...``

Each baseline CSV has ``deal, profile, result`` (``won``/``lost``/``unknown``)
and optionally ``wall_seconds`` and ``states``; ours is the benchmark CSV of
``canfield bench solver``. For each baseline it prints the verdicts of both,
the deals only one of them decided, and the contradictions (won by one, lost
by the other): a contradiction is a bug in one of the two solvers.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

RESULTS = {"won", "lost", "unknown"}
#: The columns both CSVs need.
NEEDED = {"profile", "deal", "result"}


class VerdictsError(ValueError):
    """A verdicts CSV that cannot be read or lacks what a comparison needs."""


def read_verdicts(path: Path) -> pd.DataFrame:
    """The verdicts CSV at ``path``, checked.

    Raises
    ------
    VerdictsError
        If the file cannot be read, lacks a column of :data:`NEEDED` or holds
        a result other than won, lost and unknown.
    """
    try:
        df = pd.read_csv(path)
    except (OSError, ValueError) as exc:
        raise VerdictsError(f"cannot read {path}: {exc}") from None
    missing = NEEDED - set(df.columns)
    if missing:
        raise VerdictsError(f"{path} lacks the column(s) {', '.join(sorted(missing))}")
    bad = set(df["result"]) - RESULTS
    if bad:
        raise VerdictsError(f"{path} has results other than won/lost/unknown: {sorted(bad)}")
    return df


def compare(ours: pd.DataFrame, theirs: pd.DataFrame) -> dict:
    """Counts for the deals of ``theirs`` that ``ours`` has under the same profile."""
    m = theirs.merge(ours, on=["profile", "deal"], suffixes=("_theirs", "_ours"))
    a, b = m["result_ours"], m["result_theirs"]
    decided_a, decided_b = a != "unknown", b != "unknown"
    out = {
        "profile": ",".join(sorted(set(m["profile"]))),
        "deals": len(m),
        "ours": a.value_counts().reindex(sorted(RESULTS), fill_value=0).to_dict(),
        "theirs": b.value_counts().reindex(sorted(RESULTS), fill_value=0).to_dict(),
        "only_ours_decided": int((decided_a & ~decided_b).sum()),
        "only_theirs_decided": int((decided_b & ~decided_a).sum()),
        "contradictions": sorted(int(d) for d in m.loc[decided_a & decided_b & (a != b), "deal"]),
    }
    if "states" in theirs and "wall_seconds" in theirs:
        out["theirs_states_per_s"] = float(theirs["states"].sum() / theirs["wall_seconds"].sum())
    if "nodes" in ours and "seconds" in ours:
        mine = ours[ours["profile"].isin(set(m["profile"]))]
        out["ours_states_per_s"] = float(mine["nodes"].sum() / mine["seconds"].sum())
    return out


def summary_line(name: str, c: dict) -> str:
    """One line of :func:`compare`'s counts for the baseline file ``name``."""
    rate = ""
    if "theirs_states_per_s" in c:
        rate = (
            f"; states/s ours {c.get('ours_states_per_s', 0):,.0f}, "
            f"theirs {c['theirs_states_per_s']:,.0f}"
        )
    return (
        f"{name}: {c['profile']} {c['deals']} deals; ours {c['ours']}, theirs "
        f"{c['theirs']}; decided only by us {c['only_ours_decided']}, only by them "
        f"{c['only_theirs_decided']}; contradictions {len(c['contradictions'])} "
        f"{c['contradictions'] or ''}{rate}"
    )
