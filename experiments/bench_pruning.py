"""Pruning on versus off: the same deals solved twice, differences counted.

Every pruning rule must change neither the verdict nor the banked count of a
decided deal (``docs/solver.md``). This benchmark solves a range of deals with
the rules on and off under the same node budget (deterministic) and counts:
deals decided both ways, differences among them (must be 0), contradictions
(won one way, lost the other: must be 0), and the node and time ratios.

Run: ``python -m experiments.bench_pruning --deals 0:300 --nodes 100000``
(every rule off against every rule on), or ``--off B1`` to switch off one
rule alone and keep the others on.
"""

from __future__ import annotations

import argparse
import sys
import time

from canfield.engine.position import Position
from canfield.engine.version import __version__
from canfield.experiments.csv_rows import write_rows
from canfield.solver.search import PRUNING_RULES, Solver, warm_up


def off_rules(off: str) -> bool | list[str]:
    """The ``prune`` argument of the "off" solver: ``all`` or the rules to drop."""
    if off.strip().lower() == "all":
        return False
    drop = {name.strip().upper() for name in off.split(",")}
    unknown = drop - set(PRUNING_RULES)
    if unknown:
        known = ", ".join(["all", *PRUNING_RULES])
        print(f"error: unknown pruning rule {sorted(unknown)} (known: {known})", file=sys.stderr)
        raise SystemExit(2)
    return [name for name in PRUNING_RULES if name not in drop]


def compare(
    profile: str, deals: range, nodes: int, memory: int, off: str = "all"
) -> tuple[dict, list[dict]]:
    on, off_solver = Solver(memory, prune=True), Solver(memory, prune=off_rules(off))
    rows = []
    for d in deals:
        pos = Position.from_deal(d, profile)
        a = on.solve(pos, seconds=1e9, nodes=nodes)
        b = off_solver.solve(pos, seconds=1e9, nodes=nodes)
        rows.append(
            {
                "profile": profile,
                "profile_full": pos.profile.full(),
                "deal": d,
                "budget_nodes": nodes,
                "off": off,
                "version": __version__,
                "on_result": a.result,
                "on_banked": a.banked,
                "on_nodes": a.nodes,
                "on_s": a.seconds,
                "off_result": b.result,
                "off_banked": b.banked,
                "off_nodes": b.nodes,
                "off_s": b.seconds,
            }
        )
    both = [r for r in rows if r["on_result"] != "unknown" and r["off_result"] != "unknown"]
    diffs = [
        r for r in both if (r["on_result"], r["on_banked"]) != (r["off_result"], r["off_banked"])
    ]
    contra = [r for r in rows if {r["on_result"], r["off_result"]} == {"won", "lost"}]
    summary = {
        "profile": profile,
        "off": off,
        "deals": len(rows),
        "decided_both": len(both),
        "decided_on_only": sum(
            r["on_result"] != "unknown" and r["off_result"] == "unknown" for r in rows
        ),
        "decided_off_only": sum(
            r["off_result"] != "unknown" and r["on_result"] == "unknown" for r in rows
        ),
        "differences": len(diffs),
        "contradictions": len(contra),
        "node_ratio_on_off": sum(r["on_nodes"] for r in both)
        / max(1, sum(r["off_nodes"] for r in both)),
        "time_ratio_on_off": sum(r["on_s"] for r in both)
        / max(1e-9, sum(r["off_s"] for r in both)),
    }
    return summary, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profiles", default="strict,hevagames")
    ap.add_argument("--deals", default="0:300")
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--memory", type=int, default=1 << 28)
    ap.add_argument("--off", default="all", help="rules switched off: all, or e.g. B1")
    ap.add_argument("--out", default="results/bench/pruning.csv")
    args = ap.parse_args()
    a, _, b = args.deals.partition(":")
    warm_up()
    all_rows = []
    t0 = time.perf_counter()
    for prof in args.profiles.split(","):
        summary, rows = compare(prof, range(int(a), int(b)), args.nodes, args.memory, args.off)
        all_rows += rows
        print(
            "  ".join(
                f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in summary.items()
            )
        )
    out = write_rows(args.out, all_rows)
    print(f"wall {time.perf_counter() - t0:.0f} s; rows in {out}")


if __name__ == "__main__":
    main()
