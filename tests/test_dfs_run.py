"""A depth-first run paused and resumed searches exactly as one that never
paused (``solver/dfs_run.py``): the probes rely on it."""

from __future__ import annotations

import time

import numpy as np
import pytest

from canfield.engine.position import Position
from canfield.solver import config, stats
from canfield.solver.dfs_run import DfsRun, Path
from canfield.solver.search import prune_mask

BIG = 1 << 28


def _whole(pos: Position) -> DfsRun:
    run = DfsRun(pos, Path(), prune_mask(True), BIG)
    run.advance(time.perf_counter(), 600.0, None, BIG)
    return run


@pytest.mark.parametrize("profile, deal", [("strict", 0), ("strict", 19), ("hevagames", 5)])
def test_slices_of_nodes_and_memory_change_nothing(profile, deal):
    pos = Position.from_deal(deal, profile)
    whole = _whole(pos)
    assert whole.over
    run = DfsRun(pos, Path(16), prune_mask(True), 1 << 16)  # tiny path and table
    t0 = time.perf_counter()
    limit, memory, pauses = 200, 1 << 16, 0
    while not run.over:
        run.advance(t0, 600.0, limit, memory)
        pauses += not run.over
        assert run.reason in ("nodes", "memory", "solved", "exhausted"), run.reason
        limit, memory = limit * 3, memory * 4
    assert pauses >= 2
    a, b = whole.finish(), run.finish()
    assert (a.result, a.reason, a.macros) == (b.result, b.reason, b.macros)
    for slot in (stats.ST_NODES, stats.ST_CHILDREN, stats.ST_BEST, stats.ST_CUT):
        assert whole.stats[slot] == run.stats[slot], slot


def test_a_paused_run_keeps_its_table_within_the_slice():
    pos = Position.from_deal(0, "strict")
    run = DfsRun(pos, Path(), prune_mask(True), 1 << 16)
    run.advance(time.perf_counter(), 600.0, None, 1 << 20)
    assert run.reason == "memory" and not run.over
    assert run.table_bytes <= 1 << 20
    assert run.finish().result == "unknown"


def test_a_larger_best_taken_mid_search_changes_no_verdict():
    # strict deal 43 is lost with 11 banked; after 2,000 positions the search
    # has found 8. Handed the finished search's best (11, with its line) at
    # that point, as the probes hand theirs, it must prove the same loss, in
    # no more positions
    pos = Position.from_deal(43, "strict")
    whole = _whole(pos)
    run = DfsRun(pos, Path(), prune_mask(True), BIG)
    t0 = time.perf_counter()
    run.advance(t0, 600.0, 2_000, BIG)
    assert run.stats[stats.ST_BEST] < 11
    run.seed_best(whole.finish())
    assert run.stats[stats.ST_BEST] == 11
    run.advance(t0, 600.0, None, BIG)
    got = run.finish()
    assert (got.result, int(got.stats[stats.ST_BEST])) == ("lost", 11)
    assert whole.finish().result == "lost"
    assert got.stats[stats.ST_NODES] <= whole.stats[stats.ST_NODES]


def test_a_narrowed_run_that_runs_dry_is_unknown():
    run = DfsRun(Position.from_deal(173, "strict"), Path(), prune_mask(True), BIG, width=2)
    run.advance(time.perf_counter(), 600.0, None, BIG)
    assert run.code == stats.EXHAUSTED  # it did run dry ...
    r = run.finish()
    assert (r.result, r.reason, r.stage) == ("unknown", "probe", "probe2")  # ... and proves nothing
    assert int(np.int64(r.stats[stats.ST_NODES])) < 2_000
    assert config.MAX_MACROS > 2


def test_a_rehash_that_would_pass_the_deadline_is_not_begun(monkeypatch):
    """Under a time budget a full table is not grown when its rehash, at the
    rate the last one took, would end past the deadline: the run stops for
    "time", unknown, with its table as it was, and goes on later as if never
    stopped (the same positions and line as a run that never paused)."""
    import canfield.solver.dfs_run as dfs_run

    asked: list[float] = []

    def every_other(t0: float, seconds: float, rate: float, slots: int, slot_bytes: int) -> bool:
        asked.append(rate * slots)
        return len(asked) % 2 == 0  # the first, third, ... rehash has no room

    pos = Position.from_deal(0, "strict")
    whole = _whole(pos)  # never stopped
    monkeypatch.setattr(dfs_run, "rehash_in_time", every_other)
    run = DfsRun(pos, Path(), prune_mask(True), 1 << 16)
    t0 = time.perf_counter()
    stops = 0
    while True:
        run.advance(t0, 600.0, None, BIG)
        if run.over:
            break
        # stopped at a refused rehash, the table as it was (still full)
        assert run.reason == "time" and len(asked) % 2 == 1
        assert run.code == stats.TABLE_FULL
        assert run.finish().result == "unknown"
        stops += 1
    assert stops >= 2  # the guard fired, and the run resumed after it
    assert asked[0] == 0.0 and all(p > 0 for p in asked[2:])  # predicted once measured
    a, b = whole.finish(), run.finish()
    assert (a.result, a.macros) == (b.result, b.macros)
    assert whole.stats[stats.ST_NODES] == run.stats[stats.ST_NODES]
    from canfield.solver.budgets import rehash_in_time

    now = time.perf_counter()
    assert rehash_in_time(now, 10.0, 0.5, 1, 1) and not rehash_in_time(now - 9.8, 10.0, 0.5, 1, 1)


def test_a_large_rehash_counts_its_fresh_memory_even_when_the_last_one_was_quick():
    """A rehash's time is taken as at least ``REHASH_SECONDS_PER_BYTE`` a
    byte of the new table: a first rehash (no rate yet, predicted 0 s) or
    one after a quick small rehash is refused near the deadline when its
    table is large (a 384 MiB two-pack table took 2.5 s here), and allowed
    when it is small or the time left holds it."""
    from canfield.solver.budgets import rehash_in_time

    big, small = 384 << 20, 1 << 20
    assert big * config.REHASH_SECONDS_PER_BYTE > 1.5 > small * config.REHASH_SECONDS_PER_BYTE
    now = time.perf_counter()
    slot = 28  # bytes a slot: a build=rank one-pack table
    assert not rehash_in_time(now - 8.5, 10.0, 0.0, big // slot, slot)  # 1.5 s left: refused
    low = 0.04 / (big // slot)  # a rate that predicts a tenth of the floor
    assert not rehash_in_time(now - 8.5, 10.0, low, big // slot, slot)  # refused
    assert rehash_in_time(now - 8.5, 10.0, 0.0, small // slot, slot)
    assert rehash_in_time(now, 10.0, 0.0, big // slot, slot)
    high = 2.0 / (small // slot)
    assert not rehash_in_time(now - 8.5, 10.0, high, small // slot, slot)  # a measured rate counts


def test_a_chunk_shrinks_to_what_the_time_left_holds():
    from canfield.solver.budgets import nodes_in_time

    now = time.perf_counter()
    # no time limit, or nothing done yet: the whole chunk (node budgets stay exact)
    assert nodes_in_time(now - 1.0, float("inf"), 10**6, 50_000) == 50_000
    assert nodes_in_time(now - 1.0, 10.0, 0, 50_000) == 50_000
    # 1 s spent at 100,000 a second with 9 s left: the whole chunk fits
    assert nodes_in_time(now - 1.0, 10.0, 100_000, 50_000) == 50_000
    # 9.9 s spent at 100,000 a second: about 10,000 fit in the 0.1 s left
    assert 5_000 < nodes_in_time(now - 9.9, 10.0, 990_000, 50_000) < 12_000
    # past the deadline, never below the smallest chunk (or the chunk asked)
    assert nodes_in_time(now - 11.0, 10.0, 10**6, 50_000) == config.MIN_CHUNK_NODES
    assert nodes_in_time(now - 11.0, 10.0, 10**6, 500) == 500


def test_a_timed_search_counts_its_rehash_by_the_new_tables_bytes(monkeypatch):
    """``DfsRun`` asks the rehash guard with the new table's bytes: with a
    rehash priced at a second a byte, the first full table is not grown and
    the run stops there for "time", unknown, long before its budget."""
    budget = 600.0  # far more than a cold compile and the search take
    monkeypatch.setattr(config, "REHASH_SECONDS_PER_BYTE", 1.0)
    run = DfsRun(Position.from_deal(0, "strict"), Path(), prune_mask(True), 1 << 16)
    first = run.table_bytes
    t0 = time.perf_counter()
    run.advance(t0, budget, None, BIG)
    assert (run.reason, run.code) == ("time", stats.TABLE_FULL)
    assert run.finish().result == "unknown" and run.peak_bytes == first
    assert time.perf_counter() - t0 < budget  # stopped by the guard, not the clock


def test_a_search_the_clock_will_not_let_grow_evicts_and_goes_on(monkeypatch):
    """With a rehash priced at a second a byte every growth is refused; a run
    that may evict then forgets entries in the table it has and searches on,
    to the verdict and banked count of a run with room to spare, its table
    never grown. Without eviction, or with eviction priced past the
    deadline, it stops for "time" at its first full table."""
    pos = Position.from_deal(0, "strict")  # lost in about 495,000 positions
    whole = _whole(pos).finish()
    budget = 600.0  # far more than the search takes
    monkeypatch.setattr(config, "REHASH_SECONDS_PER_BYTE", 1.0)
    small = 1 << 23  # 8 MiB: about 300,000 entries, short of the search
    run = DfsRun(pos, Path(), prune_mask(True), small, evict=True)
    first = run.table_bytes
    t0 = time.perf_counter()
    run.advance(t0, budget, None, BIG)
    got = run.finish()
    assert run.stats[stats.ST_EVICTED] > 0  # the table filled and forgot
    assert (got.result, got.reason) == ("lost", "exhausted")
    assert got.stats[stats.ST_BEST] == whole.stats[stats.ST_BEST]
    assert run.peak_bytes == first  # never grown: the clock refused each time
    for evict, price in ((False, config.EVICT_SECONDS_PER_BYTE), (True, 1.0)):
        monkeypatch.setattr(config, "EVICT_SECONDS_PER_BYTE", price)
        run = DfsRun(pos, Path(), prune_mask(True), small, evict=evict)
        run.advance(time.perf_counter(), budget, None, BIG)
        assert (run.reason, run.code) == ("time", stats.TABLE_FULL)
        assert run.stats[stats.ST_EVICTED] == 0 and run.finish().result == "unknown"


def test_an_eviction_is_begun_only_when_it_ends_before_the_deadline():
    from canfield.solver.budgets import evict_in_time

    now = time.perf_counter()
    gib = 1 << 30  # about 4 s at the configured price
    assert gib * config.EVICT_SECONDS_PER_BYTE > 2.0
    assert evict_in_time(now, 10.0, gib) and evict_in_time(now - 8.5, 10.0, 1 << 20)
    assert not evict_in_time(now - 8.5, 10.0, gib)  # 1.5 s left: refused
