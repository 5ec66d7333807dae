"""The transposition table: bytes per stored position, and the same rows.

Two measurements (``docs/solver.md``, the table):

* **Capacity.** One hard deal is solved depth-first (no probes) with a
  table of each memory size until the table is full (or the deal is
  decided): positions stored, table bytes per position, positions a second
  and the process's peak resident memory. Each solve runs in a fresh
  process, so its peak memory is its own. With ``baseline`` (the root of
  another checkout, e.g. a worktree of the commit before the compact
  table) the same solves run on that checkout's code too, in the same run.
* **Rows.** Deals of the published ``main-10k`` sweep are solved again with
  its budgets (50,000 positions, 64 MiB) and compared with its rows:
  result, banked and positions must all be the same.

Run: ``canfield bench table --sizes 64MB,512MB,2GB --deal 35 --rows 0:200
--baseline ../memory-old``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from canfield.engine.version import __version__
from canfield.experiments.bench.csv_rows import write_rows

#: The published sweep the rows are compared with, from a checkout's root.
MAIN_10K = Path("results", "published", "main-10k")

# one capacity solve, run by ``python -c`` in the checkout measured; it
# uses only the API every version of the solver has
_WORKER = """
import json, resource, sys
import canfield
from canfield.engine.position import Position
from canfield.solver.search import Solver, warm_up
profile, deal, memory, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
warm_up()
r = Solver(memory, probes=False).solve(Position.from_deal(deal, profile), seconds=seconds)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"result": r.result, "banked": r.banked, "nodes": r.nodes,
    "seconds": r.seconds, "table_bytes": r.peak_table_bytes,
    "stop_reason": r.stop_reason, "peak_rss": peak, "version": r.version}))
"""


def capacity(root: Path, profile: str, deal: int, memory: int, seconds: float) -> dict:
    """One capacity solve in a fresh process running the code of checkout ``root``."""
    env = dict(os.environ, PYTHONPATH=str(root))
    args = [sys.executable, "-c", _WORKER, profile, str(deal), str(memory), str(seconds)]
    done = subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the solve in {root} failed: {done.stderr.strip()[-500:]}")
    r = json.loads(done.stdout.strip().splitlines()[-1])
    nodes = max(r["nodes"], 1)
    return {
        "checkout": str(root),
        "code_version": r["version"],
        "profile": profile,
        "deal": deal,
        "budget_memory": memory,
        "budget_seconds": seconds,
        "result": r["result"],
        "stop_reason": r["stop_reason"],
        "banked": r["banked"],
        "positions": r["nodes"],
        "table_bytes": r["table_bytes"],
        "bytes_per_position": round(r["table_bytes"] / nodes, 2),
        "seconds": round(r["seconds"], 2),
        "positions_per_s": round(r["nodes"] / max(r["seconds"], 1e-9)),
        "peak_rss_bytes": r["peak_rss"],
        "version": __version__,
    }


def published_rows(root: Path, deals: range) -> pd.DataFrame:
    """The published ``main-10k`` rows of ``deals``, with the sweep's budgets."""
    spec = json.loads((root / MAIN_10K / "run.json").read_text())
    rows = pd.concat(pd.read_parquet(p) for p in sorted((root / MAIN_10K / "parts").iterdir()))
    rows = rows[rows.deal.isin(list(deals))]
    rows.attrs.update(nodes=spec["budget_nodes"], memory=spec["memory"])
    return rows


def same_rows(root: Path, deals: range, echo=print) -> dict:
    """Solve each published row's deal again; count rows compared and rows that differ."""
    from canfield.solver.search import solve_deal

    want = published_rows(root, deals)
    nodes, memory = want.attrs["nodes"], want.attrs["memory"]
    differ = []
    t0 = time.perf_counter()
    for row in want.itertuples():
        r = solve_deal(int(row.deal), row.profile, float("inf"), nodes, memory)
        if (r.result, r.banked, r.nodes) != (row.result, row.banked, row.nodes):
            differ.append((row.profile, int(row.deal), (row.result, row.banked, row.nodes)))
            echo(
                f"differs: {row.profile} deal {row.deal}: published {differ[-1][2]}, "
                f"now {(r.result, r.banked, r.nodes)}"
            )
    return {
        "rows_compared": len(want),
        "rows_differing": len(differ),
        "profiles": ",".join(sorted(set(want.profile))),
        "deals": f"{deals.start}:{deals.stop}",
        "budget_nodes": nodes,
        "budget_memory": memory,
        "seconds": round(time.perf_counter() - t0, 1),
        "version": __version__,
    }


def bench(
    profile: str,
    deal: int,
    sizes: list[int],
    seconds: float,
    rows: range | None,
    baseline: Path | None,
    out: Path,
    echo=print,
) -> Path:
    """Run the capacity solves (this checkout, then ``baseline``) and the row
    comparison; print each figure and write the capacity rows to ``out``
    (the row comparison to ``out`` with ``-rows`` before its suffix).

    Parameters
    ----------
    profile : str
        Canonical profile of the capacity solves.
    deal : int
        A deal that fills the largest table.
    sizes : list of int
        Table memory of each capacity solve, in bytes.
    seconds : float
        Time budget of each capacity solve (a safety cap).
    rows : range or None
        Deals of ``main-10k`` to solve again, or None for no comparison.
    baseline : Path or None
        Root of another checkout to run the capacity solves on as well.
    out : Path
        The CSV file.
    """
    here = Path(__file__).resolve().parents[2]
    roots = [here] + ([baseline.resolve()] if baseline is not None else [])
    table = []
    for root in roots:
        for size in sizes:
            r = capacity(root, profile, deal, size, seconds)
            table.append(r)
            echo(
                f"{root.name:>12} {size / 2**20:8.0f} MiB: {r['positions']:>12,} positions "
                f"({r['stop_reason']}), {r['bytes_per_position']:6.2f} bytes/position, "
                f"{r['positions_per_s']:>10,} positions/s, peak RSS "
                f"{r['peak_rss_bytes'] / 2**20:,.0f} MiB"
            )
    path = write_rows(out, table)
    echo(f"capacity rows in {path}")
    if rows is not None:
        summary = same_rows(here, rows, echo)
        echo(
            f"main-10k deals {summary['deals']} ({summary['profiles']}): "
            f"{summary['rows_compared']} rows compared, {summary['rows_differing']} differ"
        )
        side = write_rows(out.with_name(out.stem + "-rows" + out.suffix), [summary])
        echo(f"row comparison in {side}")
    return path
