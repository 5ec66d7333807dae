"""Our solver's verdicts against another solver's, deal by deal.

Run: ``python -m experiments.compare_baseline results/bench/solver.csv
../shared/baselines/solvitaire-exact-strict-deals-0-199.csv ...``

Each baseline CSV has ``deal, profile, result`` (``won``/``lost``/``unknown``)
and optionally ``wall_seconds`` and ``states``; ours is the benchmark CSV of
``canfield bench solver``. For each baseline it prints the verdicts of both,
the deals only one of them decided, and the contradictions (won by one, lost
by the other): a contradiction is a bug in one of the two solvers.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

RESULTS = {"won", "lost", "unknown"}


def _fail(message: str) -> None:
    """A user's mistake: one line on stderr, exit status 2."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _read(path: Path, need: set[str]) -> pd.DataFrame:
    try:
        df = pd.read_csv(path)
    except (OSError, ValueError) as exc:
        _fail(f"cannot read {path}: {exc}")
    missing = need - set(df.columns)
    if missing:
        _fail(f"{path} lacks the column(s) {', '.join(sorted(missing))}")
    bad = set(df["result"]) - RESULTS
    if bad:
        _fail(f"{path} has results other than won/lost/unknown: {sorted(bad)}")
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ours", type=Path, help="our benchmark CSV (canfield bench solver)")
    ap.add_argument("baselines", type=Path, nargs="+", help="baseline CSVs")
    args = ap.parse_args(argv)
    ours = _read(args.ours, {"profile", "deal", "result"})
    bad = 0
    for path in args.baselines:
        c = compare(ours, _read(path, {"profile", "deal", "result"}))
        rate = ""
        if "theirs_states_per_s" in c:
            rate = (
                f"; states/s ours {c.get('ours_states_per_s', 0):,.0f}, "
                f"theirs {c['theirs_states_per_s']:,.0f}"
            )
        print(
            f"{path.name}: {c['profile']} {c['deals']} deals; ours {c['ours']}, theirs "
            f"{c['theirs']}; decided only by us {c['only_ours_decided']}, only by them "
            f"{c['only_theirs_decided']}; contradictions {len(c['contradictions'])} "
            f"{c['contradictions'] or ''}{rate}"
        )
        bad += len(c["contradictions"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
