"""The solver's kernels are compiled before any solve's clock starts, for
one pack and for two (``double``): a compile inside a solve's time budget
would leave it unknown for a reason that has nothing to do with the deal."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from canfield.experiments.sweep import rows, runner
from canfield.solver.search import is_compiled, solve_deal, warm_up


def _fresh(code: str) -> str:
    """What ``code`` prints in a fresh process: kernels another test loaded
    here would hide a miss. The cache is the suite's, so kernels load."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_two_pack_kernels_warm_up_and_are_marked():
    warm_up("dfs", 2)
    assert is_compiled("dfs", 2)
    # warm now: a double deal's time budget goes to the search, not to a compile
    r = solve_deal(3, "double", seconds=30, nodes=2_000, memory=1 << 24)
    assert r.nodes == 2_000 and r.stop_reason == "nodes", (r.nodes, r.stop_reason)


@pytest.mark.parametrize(
    ("profile", "packs", "beam"),
    [("strict", 1, False), ("double", 2, False), ("rainbow", 1, True), ("superior", 1, True)],
)
def test_a_batch_warms_up_the_kernels_of_its_own_pack_count(monkeypatch, profile, packs, beam):
    calls = []
    rows.warm_up_once.cache_clear()
    monkeypatch.setattr(rows, "warm_up", lambda *args: calls.append(args))
    try:
        got = rows.run_batch(profile, [0], None, 50, 1 << 22)
    finally:
        rows.warm_up_once.cache_clear()
    assert calls == [("dfs", packs, beam)]
    assert len(got) == 1 and got[0]["budget_nodes"] == 50


#: A one-pass rainbow deal the beam probe wins within 20,000 positions.
RAINBOW_BEAM_WIN = 2


def test_the_beam_is_compiled_only_for_the_profiles_that_run_it():
    # The beam probe is a third of the one-pack compile and only rank-only
    # building and free spaces run it: a strict warm-up leaves it out, and a
    # rainbow solve after that warms it before its clock starts. A fresh
    # process: a beam another test ran here would hide a miss.
    code = (
        "from canfield.solver import search\n"
        "from canfield.solver.beam import beam\n"
        "search.warm_up('dfs', 1)\n"
        "print(len(beam.signatures), search.BEAM_TAG in search._warm_here)\n"
        "search.solve_deal(0, 'strict', seconds=30, nodes=20_000)\n"
        "search.solve_deal(RAINBOW, 'rainbow', seconds=30, nodes=2_000, probes=False)\n"
        "print(len(beam.signatures), search.BEAM_TAG in search._warm_here)\n"
        "r = search.solve_deal(RAINBOW, 'rainbow', seconds=600, nodes=20_000, memory=1 << 24)\n"
        "print(len(beam.signatures), search.BEAM_TAG in search._warm_here, r.stage)\n"
    ).replace("RAINBOW", str(RAINBOW_BEAM_WIN))
    after_warm_up, after_strict, after_rainbow = _fresh(code).splitlines()[:3]
    # strict never runs the beam, nor does a solve without probes
    assert after_warm_up == after_strict == "0 False"
    # the solve warmed the beam (before its clock: Solver.solve) and the beam ran, and won
    assert after_rainbow.split() == ["1", "True", "beam"], after_rainbow


def test_is_compiled_names_the_beam():
    warm_up("dfs", 1, beam=True)
    assert is_compiled("dfs", 1) and is_compiled("dfs", 1, beam=True)
    assert is_compiled("dfs", 2, beam=True) == is_compiled("dfs", 2)  # two packs have no such beam


def test_a_sweep_compiles_for_every_pack_count_it_will_meet():
    batches = [("strict", [0, 1]), ("double", [0]), ("hevagames", [2])]
    assert runner.batch_packs(batches) == {1, 2}
    assert runner.batch_packs(batches[:1]) == {1}


def test_the_layered_warm_up_loads_the_layered_kernels():
    # a fresh process (kernels another test ran here would hide a miss); the
    # cache is the suite's, so the kernels load instead of compiling
    code = (
        "from canfield.solver import layers\n"
        "from canfield.solver.search import warm_up\n"
        "warm_up('layers')\n"
        "print(sorted(f.__name__ for f in (layers.layers_root, layers.layers_run)"
        " if f.signatures))\n"
    )
    out = _fresh(code)
    assert out.strip() == "['layers_root', 'layers_run']", out


@pytest.mark.parametrize("packs", [1, 2])
def test_the_warm_up_loads_the_rehash_kernel(packs):
    # a table's first rehash times itself to predict the next one under a
    # time budget: compiling the kernel (a fresh cache) inside that timing
    # made the prediction many times too long, and a bench's first deal
    # stopped for "time" with most of its budget left (strict 0 unknown at
    # 3-4 s of 10 s). A fresh process, as above: a rehash another test ran
    # here would hide a miss.
    where = "table" if packs == 1 else "double_dfs"
    code = (
        f"from canfield.solver.{where} import tt_rehash\n"
        "from canfield.solver.search import warm_up\n"
        f"warm_up('dfs', {packs})\n"
        "print(len(tt_rehash.signatures))\n"
    )
    out = _fresh(code)
    assert int(out.strip()) >= 1, "warm_up left the rehash kernel unloaded"


def test_the_warm_up_loads_the_eviction_kernel_as_a_search_calls_it():
    # a timed search whose rehash the clock refuses evicts instead: a compile
    # of the eviction kernel there ran a 10 s bench row to 17.8 s. A fresh
    # process; after the warm-up a real eviction must add no signature.
    code = (
        "from canfield.solver.table import tt_evict\n"
        "from canfield.solver.search import warm_up\n"
        "from canfield.solver.dfs_run import DfsRun, Path\n"
        "from canfield.solver.pruning import prune_mask\n"
        "from canfield.solver.stats import ST_EVICTED\n"
        "from canfield.engine.position import Position\n"
        "import time\n"
        "warm_up('dfs', 1)\n"
        "n = len(tt_evict.signatures)\n"
        "run = DfsRun(Position.from_deal(0, 'strict'), Path(), prune_mask(True), 1 << 20,"
        " evict=True)\n"
        "run.advance(time.perf_counter(), 600.0, 200_000, 1 << 20)\n"
        "print(n, len(tt_evict.signatures), int(run.stats[ST_EVICTED]) > 0)\n"
    )
    out = _fresh(code)
    assert out.split() == ["1", "1", "True"], out


def test_a_solve_warms_up_its_kernels_once_before_its_clock(monkeypatch):
    # An API caller (a notebook) need not call warm_up: a cold cache made
    # the first solve compile inside its budget and come back unknown. The
    # warm-up is slowed here by a second; the solve's own seconds must not
    # hold it, and each kind of kernels warms up once a process.
    from canfield.solver import search

    calls = []
    real = search.warm_up

    def slow(strategy="dfs", packs=1, beam=False):
        calls.append((strategy, packs))
        time.sleep(1.0)
        return real(strategy, packs, beam)

    monkeypatch.setattr(search, "_warm_here", set())
    monkeypatch.setattr(search, "warm_up", slow)
    # selective's five picks share one clock: the warm-up comes before it
    picks = solve_deal(0, "selective", seconds=600, nodes=20_000)
    first = solve_deal(0, "strict", seconds=600, nodes=20_000)
    solve_deal(1, "hevagames", seconds=600, nodes=20_000)
    solve_deal(2, "strict", seconds=600, nodes=20_000, strategy="shared", threads=2)
    two = solve_deal(3, "double", seconds=600, nodes=2_000, memory=1 << 24)
    solve_deal(4, "double", seconds=600, nodes=2_000, memory=1 << 24)
    # the shared search's threads run the depth-first kernels; two packs their own
    assert calls == [("dfs", 1), ("dfs", 2)], calls
    assert max(picks.seconds, first.seconds, two.seconds) < 1.0, (picks, first, two)
    assert search._warm_here == {"solve-dfs", "solve-double"}
