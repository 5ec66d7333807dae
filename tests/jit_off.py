"""Rerun part of the suite as plain Python for coverage, and with bounds checks.

Compiled kernels are invisible to ``coverage``, so the kernel lines are only
measured when ``NUMBA_DISABLE_JIT=1`` turns every ``@njit`` into the Python
function it decorates. Python is some hundred times slower than the compiled
kernels, so only a subset runs that way, chosen to visit every kind of kernel
in seconds:

* ``tests/test_rules.py``: hand-built positions for every rule of docs/rules.md, so
  nearly every branch of ``engine/core.py`` (move generation, apply, auto-fill,
  the blocked test, canonical keys) runs, each on a tiny position;
* ``tests/test_core_vs_reference.py``: arbitrary positions, canonical keys and
  one random game (cardgames-draw1: worry and runs), checked against the slow
  reference;
* ``tests/test_kernel.py`` and ``tests/test_bound.py`` on the positions they
  build: the solver's macro-move generator and the banked bound;
* ``tests/test_solver.py`` and ``tests/test_layers.py`` on hand-made cases and a
  few late positions (superior and storehouse; superior for the layers): the
  depth-first search (``solver/dfs_run.py``) and the layered one end to end.
* ``tests/test_double.py``'s brute-force and P1 comparisons and its beam probe:
  the two-pack search on small positions;
* ``tests/test_rainbow.py`` but its whole-deal comparisons and R1's forced
  child (R1 fires in the on/off comparison too): rules R1 and W1;
* ``tests/test_evict.py``'s table test: eviction from a full table.

Left out, because each takes from seconds to many minutes as Python and adds
hardly a line: whole-deal solves, deep games, brute force on tangled or
passes=2 positions, the dominator census; rule B1's whole-deal census and the
bound's late-game brute force run under ``storehouse`` only (each other
profile added 10-90 s as Python and no line; ``storehouse`` alone reaches the
limited-pass pointer rule); and ``NOJIT_DESELECT``, 35 parametrised cases
whose every line the kept ones reach. Chosen with line contexts (which lines
each test alone reaches): 508 s under coverage on one core before, 295 s
after the four slow runs went (the same lines but three of the layered
search's P1 branch, strict late positions, still run compiled), then
``NOJIT_DESELECT`` (no line lost).

The bounds-check run recompiles the kernels with ``NUMBA_BOUNDSCHECK=1`` in a
fresh cache folder, so an index past the end of an array raises instead of
reading or writing a neighbour's memory. Compiling is most of its time (about
30 s of CPU), so it runs only random play under every preset (the engine
kernels) and four late positions through both searches (their tables).

``python tests/jit_off.py`` runs the coverage subset and prints the table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Set in the child runs: a suite started inside one must not start them again.
NESTED = "CANFIELD_IN_JIT_OFF_RUN"

NOJIT_TESTS = [
    "tests/test_rules.py",
    "tests/test_core_vs_reference.py",
    "tests/test_kernel.py",
    "tests/test_bound.py",
    "tests/test_solver.py",
    "tests/test_layers.py",
    "tests/test_double.py",
    "tests/test_rainbow.py",
    "tests/test_evict.py",
    "tests/test_beam.py",
]
# Left out (each takes from several seconds to many minutes as Python, and
# adds no line the rest misses): deep games, brute force on tangled positions
# and late in passes=2 games, the dominator census, the layers' memory budget,
# late positions of cardgames, hevagames and passes=2, and every whole-deal
# solve (tests/test_dfs_run.py, tests/test_probes.py, the deal lists).
NOJIT_SELECT = " or ".join(
    [
        "test_rules",
        "(test_core_vs_reference and (arbitrary or canonical_key or mutations"
        " or (playout_agrees and draw1)))",
        "(test_kernel and not dominators)",
        "(test_bound and not brute_force_best_on_tangled and not (late_in_games and not storehouse)"
        " and not (b1_only and not storehouse))",
        "(test_solver and (few_moves or already_blocked or known_by_hand or only_the_waste"
        " or budget_strings or tiny_budget or table_memory"
        " or (late_positions and (superior or storehouse))))",
        "(test_double and (brute_force_over_the_reference or p1_on_and_off or p1_waits"
        " or beam_probe_wins))",
        "(test_rainbow and not agree_on_deals and not r1_forced_child)",
        "(test_evict and keeps_the_path)",
        "(test_beam and (two_move_position or runs_only_under or width_follows))",
        "(test_layers and (refuse_worry or unknown_strategy or tiny_budget or state_from_key"
        " or (late_positions and superior)))",
    ]
)

# Left out of the no-JIT run by node id: tests of 2 s or more as Python whose
# every line some kept test reaches, found greedily, longest first, from a
# run that switched coverage's context at each test (a context per node id).
# They still run compiled in the suite. A hypothesis test among them took
# 4-140 s as Python from one run to the next.
NOJIT_DESELECT = [
    "tests/test_core_vs_reference.py::test_arbitrary_position_agrees[double:passes=inf]",
    "tests/test_core_vs_reference.py::test_playout_agrees[cardgames-draw1]",
    "tests/test_solver.py::test_solver_matches_brute_force_on_late_positions[superior-16-30000]",
    "tests/test_rainbow.py::test_w1_kernel_agrees_with_the_reference_rules",
    "tests/test_bound.py::test_bound_after_a_move_equals_the_bound_computed_afresh[rainbow]",
    "tests/test_core_vs_reference.py::test_arbitrary_position_agrees[double]",
    "tests/test_bound.py::test_bound_after_a_move_equals_the_bound_computed_afresh[strict:draw=1]",
    "tests/test_bound.py::test_bound_never_rises_and_never_falls_below_banked[rainbow]",
    "tests/test_bound.py::test_kernel_matches_reference_along_random_games[strict:draw=1]",
    "tests/test_bound.py::test_kernel_matches_reference_along_random_games[rainbow]",
    "tests/test_bound.py::test_kernel_matches_reference_along_random_games[strict]",
    "tests/test_bound.py::test_bound_after_a_move_equals_the_bound_computed_afresh[strict]",
    "tests/test_bound.py::test_kernel_matches_reference_along_random_games[selective]",
    "tests/test_bound.py::test_kernel_matches_reference_along_random_games[strict:wrap=base]",
    "tests/test_core_vs_reference.py::test_canonical_key_from_playout[cardgames]",
    "tests/test_bound.py::test_bound_after_a_move_equals_the_bound_computed_afresh[selective]",
    "tests/test_kernel.py::test_macro_children_match_the_engine[cardgames-draw1]",
    "tests/test_core_vs_reference.py::test_canonical_key_from_playout[hevagames]",
    "tests/test_kernel.py::test_macro_children_match_the_engine[strict:draw=1]",
    "tests/test_bound.py::test_bound_never_rises_and_never_falls_below_banked[strict]",
    "tests/test_solver.py::test_solver_matches_brute_force_on_late_positions[storehouse-16-30000]",
    "tests/test_double.py::test_solver_agrees_with_a_brute_force_over_the_reference",
    "tests/test_core_vs_reference.py::test_canonical_key_from_playout[storehouse]",
    "tests/test_core_vs_reference.py::test_canonical_key_from_playout[rainbow]",
    "tests/test_core_vs_reference.py::test_canonical_key_from_playout[strict]",
    "tests/test_bound.py::test_bound_is_at_least_the_brute_force_best_late_in_games[storehouse]",
    "tests/test_core_vs_reference.py::test_arbitrary_position_agrees[cardgames]",
    "tests/test_kernel.py::test_macro_children_match_the_engine[storehouse]",
    "tests/test_kernel.py::test_macro_children_match_the_engine[hevagames]",
    "tests/test_kernel.py::test_macro_children_match_the_engine[solvitaire]",
    "tests/test_rules.py::test_invariants_in_random_play[cardgames-None]",
    "tests/test_core_vs_reference.py::test_arbitrary_position_agrees[double:draw=1,wrap=base]",
    "tests/test_core_vs_reference.py::test_arbitrary_position_agrees[superior:moves=any]",
    "tests/test_kernel.py::test_the_undo_move_is_the_only_child_left_out[hevagames]",
    "tests/test_rules.py::test_invariants_in_random_play[solvitaire-None]",
]

# Compiling is most of this run's time: these few tests reach the engine
# kernels and both searches' tables.
BOUNDSCHECK_TESTS = ["tests/test_rules.py", "tests/test_solver.py", "tests/test_layers.py"]
BOUNDSCHECK_SELECT = (
    "test_invariants_in_random_play or (late_positions and (strict or superior) and not passes)"
)

MEASURED = ["engine/core.py", "solver/*.py"]
# LLVM intrinsics: their code generators run only while numba compiles, so a
# run without the JIT cannot execute them (the shared search is tested compiled)
UNMEASURED = ["solver/atomics.py"]
# Line coverage the no-JIT run reaches (measured when the subset was chosen,
# rounded down a few points): a fall means a kernel lost the tests that ran it.
FLOORS = {
    "engine/core.py": 90.0,
    "solver/bound.py": 95.0,
    "solver/double_dfs.py": 85.0,
    "solver/rank_home.py": 90.0,
    "TOTAL": 85.0,
}


def _pytest(tests: list[str], select: str, deselect: list[str] | None = None) -> list[str]:
    # one process (-n 0 overrides the -n auto of pyproject's addopts): coverage
    # follows no xdist worker, and the outer suite already fills the cores
    args = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *tests]
    for node in deselect or []:
        args += ["--deselect", node]
    return args + (["-k", select] if select else [])


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, NESTED: "1", **extra}


def run_without_jit(workdir: Path) -> tuple[subprocess.CompletedProcess, dict[str, float]]:
    """Run the no-JIT subset under coverage; return the run and the line
    coverage of each measured file in percent (plus ``TOTAL``)."""
    data = workdir / ".coverage"
    report = workdir / "coverage.json"
    include = ",".join(str(ROOT / m) for m in MEASURED)
    cov = [sys.executable, "-m", "coverage"]
    omit = ",".join(str(ROOT / m) for m in UNMEASURED)
    run = [*cov, "run", f"--data-file={data}", f"--include={include}", f"--omit={omit}", "-m"]
    proc = subprocess.run(
        run + _pytest(NOJIT_TESTS, NOJIT_SELECT, NOJIT_DESELECT)[2:],
        cwd=ROOT,
        env=_env(NUMBA_DISABLE_JIT="1"),
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        return proc, {}
    subprocess.run(
        [*cov, "json", f"--data-file={data}", "-o", str(report), "-q"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    summary = json.loads(report.read_text())
    percent = {
        Path(name).resolve().relative_to(ROOT).as_posix(): info["summary"]["percent_covered"]
        for name, info in summary["files"].items()
    }
    percent["TOTAL"] = summary["totals"]["percent_covered"]
    return proc, percent


def run_with_boundscheck(cache: Path) -> subprocess.CompletedProcess:
    """Run the bounds-check subset, compiled afresh into ``cache``."""
    env = _env(NUMBA_BOUNDSCHECK="1", CANFIELD_NUMBA_CACHE=str(cache))
    return subprocess.run(
        _pytest(BOUNDSCHECK_TESTS, BOUNDSCHECK_SELECT),
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )


def coverage_table(percent: dict[str, float]) -> str:
    """One line a file, ``TOTAL`` last."""
    names = sorted(n for n in percent if n != "TOTAL") + ["TOTAL"]
    return "\n".join(f"{n:<20} {percent[n]:5.1f}%" for n in names if n in percent)


def main() -> int:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        proc, percent = run_without_jit(Path(tmp))
    if proc.returncode != 0:
        print(proc.stdout[-4000:], proc.stderr[-4000:], sep="\n")
        return proc.returncode
    print("line coverage with NUMBA_DISABLE_JIT=1:")
    print(coverage_table(percent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
