"""The depth-first kernel's speed: positions a second on fixed node budgets.

Each job solves one deal depth-first with every pruning rule on, no probes,
and a table sized for its node budget from the start (so no rehash), and
times the search alone. A node budget fixes which positions are searched, so
two versions of the kernel must return the same statistics vector (positions,
children, cuts, table entries, best banked, depths) and the same best line:
the benchmark checks that across checkouts and repeats and fails if any job
differs, so a speed-up that changed the search cannot pass for one.

With ``baseline`` (the root of another checkout, e.g. ``/work/main``) every
repeat runs both checkouts one after the other, each in a fresh process
whose kernels are already compiled, so the ratio of their medians is
measured under the same load.

With ``--rows START:STOP`` it also solves those deals of the published
``main-10k`` sweep again with its budgets (50,000 positions, probes and all,
every profile) and counts the rows whose result, banked count or positions
differ: the whole solver, not the kernel alone, must give the same rows.

Run: ``python -m experiments.bench.speed --baseline /work/main --rows 0:200``
(``--help`` for the job lists and repeats).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from canfield.engine.version import __version__
from canfield.experiments.bench.csv_rows import write_rows
from canfield.experiments.bench.table import same_rows

#: Hard strict deals and the positions each is searched for.
HARD_DEALS = (12, 35, 64, 141)
HARD_NODES = 3_000_000
#: Strict deals unknown at 50,000 positions in ``main-10k`` (the kind the
#: escalation re-solves), each searched for ``MIX_NODES`` positions.
MIX_DEALS = (0, 1, 6, 7, 9, 13, 19, 24, 25, 26, 28, 34, 36, 38, 39, 42, 43, 57, 63, 65)
MIX_NODES = 1_000_000
PROFILE = "strict"

# The jobs of one repeat, run by ``python -c`` in the checkout measured; it
# uses only what every version of the depth-first search has. One line of
# JSON a job: the statistics vector, a digest of the best line, the seconds.
_WORKER = """
import json, sys, time, zlib
import numpy as np
import canfield
from canfield.engine.position import Position
from canfield.solver import config
from canfield.solver.dfs_run import DfsRun, Path
from canfield.solver.pruning import ALL_RULES
from canfield.solver.search import warm_up
warm_up()
for job in json.loads(sys.argv[1]):
    profile, deal, nodes = job
    pos = Position.from_deal(deal, profile)
    memory = int(nodes / config.MAX_LOAD + 1024) * 64
    run = DfsRun(pos, Path(), ALL_RULES, memory, size_for=nodes)
    c0 = time.process_time()
    t0 = time.perf_counter()
    run.advance(t0, 1e9, nodes, memory)
    sec = time.perf_counter() - t0
    cpu = time.process_time() - c0
    done = run.finish()
    line = zlib.crc32(np.asarray(done.macros, np.int64).tobytes())
    print(json.dumps({"profile": profile, "deal": deal, "nodes_budget": nodes,
        "stats": [int(v) for v in done.stats], "line_crc": line, "result": done.result,
        "seconds": sec, "cpu": cpu, "version": canfield.__version__}), flush=True)
"""


def run_jobs(root: Path, jobs: list[tuple[str, int, int]]) -> list[dict]:
    """Run ``jobs`` (profile, deal, node budget) in a fresh process on the
    code of checkout ``root``; one result dict a job."""
    env = dict(os.environ, PYTHONPATH=str(root))
    args = [sys.executable, "-c", _WORKER, json.dumps(jobs)]
    done = subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the jobs in {root} failed: {done.stderr.strip()[-800:]}")
    return [json.loads(line) for line in done.stdout.strip().splitlines()]


def full_profile(profile: str) -> str:
    """The full profile string of ``profile`` (every option spelt out)."""
    from canfield.engine.position import Position

    return Position.from_deal(0, profile).profile.full()


def same_search(a: dict, b: dict) -> bool:
    """Whether two runs of one job searched the same positions (statistics
    vector, best line and verdict all equal). A version with more statistics
    slots than the other (0.9.0 added the shared search's) must leave them 0."""
    n = min(len(a["stats"]), len(b["stats"]))
    extra = a["stats"][n:] + b["stats"][n:]
    same = (a["stats"][:n], a["line_crc"], a["result"]) == (
        b["stats"][:n],
        b["line_crc"],
        b["result"],
    )
    return same and not any(extra)


def bench(
    jobs: list[tuple[str, int, int]],
    repeats: int,
    baseline: Path | None,
    out: Path,
    echo=print,
) -> list[dict]:
    """Time ``jobs`` ``repeats`` times on this checkout (and on ``baseline``,
    interleaved), check every run of a job searched the same positions, print
    the medians and write one row a job and checkout to ``out``.

    Raises
    ------
    RuntimeError
        When two runs of a job differ: the search was changed.
    """
    here = Path(__file__).resolve().parents[2]
    roots = ([baseline.resolve()] if baseline is not None else []) + [here]
    seen: dict[tuple[str, int, int], dict] = {}
    times: dict[tuple[str, tuple[str, int, int]], list[float]] = {}
    cpus: dict[tuple[str, tuple[str, int, int]], list[float]] = {}
    for rep in range(repeats):
        for root in roots:
            for r in run_jobs(root, jobs):
                job = (r["profile"], r["deal"], r["nodes_budget"])
                first = seen.setdefault(job, r)
                if not same_search(first, r):
                    raise RuntimeError(f"{job} searched differently in {root} (repeat {rep})")
                times.setdefault((str(root), job), []).append(r["seconds"])
                cpus.setdefault((str(root), job), []).append(r["cpu"])
            total = sum(statistics.median(cpus[(str(root), j)]) for j in jobs)
            echo(f"repeat {rep + 1}/{repeats} {root}: {total:.2f} CPU s (medians so far)")
    rows = []
    for root in roots:
        for job in jobs:
            secs = times[(str(root), job)]
            cpu = cpus[(str(root), job)]
            nodes = seen[job]["stats"][0]
            rows.append(
                {
                    "checkout": str(root),
                    "profile": job[0],
                    "profile_full": full_profile(job[0]),
                    "deal": job[1],
                    "budget_nodes": job[2],
                    "positions": nodes,
                    "children": seen[job]["stats"][8],
                    "result": seen[job]["result"],
                    "repeats": len(secs),
                    "median_s": round(statistics.median(secs), 3),
                    "min_s": round(min(secs), 3),
                    "positions_per_s": round(nodes / max(statistics.median(secs), 1e-9)),
                    "median_cpu_s": round(statistics.median(cpu), 3),
                    "positions_per_cpu_s": round(nodes / max(statistics.median(cpu), 1e-9)),
                    "version": __version__,
                }
            )
    for root in roots:
        mine = [r for r in rows if r["checkout"] == str(root)]
        for group, deals in (("hard", HARD_DEALS), ("mix", None)):
            sel = [
                r for r in mine if (r["deal"] in deals if deals else r["deal"] not in HARD_DEALS)
            ]
            if not sel:
                continue
            pos = sum(r["positions"] for r in sel)
            # rounded medians of tiny jobs may be 0
            sec = max(sum(r["median_s"] for r in sel), 1e-3)
            cpu = max(sum(r["median_cpu_s"] for r in sel), 1e-3)
            echo(
                f"{root.name:>8} {group:>4}: {pos:>11,} positions, {sec:7.2f} s "
                f"({pos / sec:>9,.0f}/s), {cpu:7.2f} CPU s ({pos / cpu:>9,.0f}/CPU s)"
            )
    if baseline is not None:
        for col in ("median_s", "median_cpu_s"):
            old = max(sum(r[col] for r in rows if r["checkout"] == str(roots[0])), 1e-3)
            new = sum(r[col] for r in rows if r["checkout"] == str(here))
            echo(f"{col} ratio this/baseline: {new / old:.3f}")
        echo("every job searched the same positions in both checkouts")
    write_rows(out, rows)
    echo(f"rows in {out}")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", type=Path, help="root of another checkout to time too")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--hard-nodes", type=int, default=HARD_NODES)
    ap.add_argument("--mix-nodes", type=int, default=MIX_NODES, help="0: no mix jobs")
    ap.add_argument("--mix", type=int, default=len(MIX_DEALS), help="mix deals to run")
    ap.add_argument("--out", type=Path, default=Path("results", "runs", "bench", "speed.csv"))
    ap.add_argument("--rows", help="main-10k deals START:STOP to solve again and compare")
    ap.add_argument("--no-timing", action="store_true", help="only the --rows comparison")
    a = ap.parse_args(argv)
    if a.repeats < 1 or a.hard_nodes < 1 or a.mix_nodes < 0 or not 0 <= a.mix <= len(MIX_DEALS):
        print(
            "error: --repeats and --hard-nodes must be positive, --mix-nodes >= 0, "
            f"--mix 0..{len(MIX_DEALS)}",
            file=sys.stderr,
        )
        return 2
    if a.baseline is not None and not (a.baseline / "engine" / "core.py").is_file():
        print(f"error: {a.baseline} is not a checkout of this project", file=sys.stderr)
        return 2
    rows = None
    if a.rows is not None:
        try:
            start, stop = (int(x) for x in a.rows.split(":"))
            rows = range(start, stop)
        except ValueError:
            print(f"error: --rows wants START:STOP, not {a.rows!r}", file=sys.stderr)
            return 2
    jobs = [(PROFILE, d, a.hard_nodes) for d in HARD_DEALS]
    if a.mix_nodes:
        jobs += [(PROFILE, d, a.mix_nodes) for d in MIX_DEALS[: a.mix]]
    try:
        if not a.no_timing:
            bench(jobs, a.repeats, a.baseline, a.out)
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if rows is not None:
        here = Path(__file__).resolve().parents[2]
        summary = same_rows(here, rows)
        print(
            f"main-10k deals {summary['deals']} ({summary['profiles']}): "
            f"{summary['rows_compared']} rows compared, {summary['rows_differing']} differ"
        )
        write_rows(a.out.with_name(a.out.stem + "-rows" + a.out.suffix), [summary])
        return 1 if summary["rows_differing"] else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
