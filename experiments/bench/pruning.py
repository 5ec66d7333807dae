"""Pruning on versus off: the same deals solved twice, differences counted.

Every pruning rule must change neither the verdict nor the banked count of a
decided deal (``docs/solver.md``). This benchmark solves a range of deals with
the rules on and off under the same node budget (deterministic) and counts:
deals decided both ways, differences among them (must be 0), contradictions
(won one way, lost the other: must be 0), and the node and time ratios.

Run: ``canfield bench pruning --deals 0:300 --nodes 100000``
(every rule off against every rule on), or ``--off B1`` to switch off one
rule alone and keep the others on.
"""

from __future__ import annotations

import time
from pathlib import Path

from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.experiments.bench.csv_rows import write_rows
from canfield.solver.search import PRUNING_RULES, Solver, warm_up


def off_rules(off: str) -> bool | list[str]:
    """The ``prune`` argument of the "off" solver: ``all`` or the rules to drop.

    Raises
    ------
    ValueError
        For a rule name the solver does not know.
    """
    if off.strip().lower() == "all":
        return False
    drop = {name.strip().upper() for name in off.split(",")}
    unknown = drop - set(PRUNING_RULES)
    if unknown:
        known = ", ".join(["all", *PRUNING_RULES])
        raise ValueError(f"unknown pruning rule {sorted(unknown)} (known: {known})")
    return [name for name in PRUNING_RULES if name not in drop]


def compare(
    profile: str, deals: range, nodes: int, memory: int, off: str = "all"
) -> tuple[dict, list[dict]]:
    """Solve ``deals`` with the rules on and with ``off`` off; the summary and the rows."""
    on, off_solver = Solver(memory, prune=True), Solver(memory, prune=off_rules(off))
    rows = []
    full = parse_profile(profile).full()
    for d in deals:
        # solve_deal: a selective deal is its five base picks, each on a share
        a = on.solve_deal(d, profile, seconds=1e9, nodes=nodes)
        b = off_solver.solve_deal(d, profile, seconds=1e9, nodes=nodes)
        rows.append(
            {
                "profile": profile,
                "profile_full": full,
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


def bench(
    profiles: list[str], deals: range, nodes: int, memory: int, off: str, out: str | Path
) -> Path:
    """Compare pruning on and off for each profile, print the summaries, write the rows.

    Returns
    -------
    Path
        The CSV file written.
    """
    warm_up()
    all_rows = []
    t0 = time.perf_counter()
    path = Path(out)
    for prof in profiles:
        summary, rows = compare(prof, deals, nodes, memory, off)
        all_rows += rows
        # written after every profile: a long run stopped early keeps what it did
        path = write_rows(out, all_rows)
        print(
            "  ".join(
                f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in summary.items()
            )
        )
    print(f"wall {time.perf_counter() - t0:.0f} s; rows in {path}")
    return path
