"""Table memory kept for reuse (``solver.table_memory``): a table on kept
memory is empty, a buffer is reused only when no table or slice of one is
left, the kept bytes stay within their bound, and a solve on reused memory
is the same search as on fresh memory."""

from __future__ import annotations

import time

import numpy as np
import pytest

from canfield.engine.position import Position
from canfield.solver import config, table_memory
from canfield.solver.dfs_run import DfsRun, Path
from canfield.solver.search import Solver, prune_mask
from canfield.solver.stats import ST_NODES
from canfield.solver.table import new_table


@pytest.fixture(autouse=True)
def _fresh_pool(monkeypatch):
    """Each test starts with nothing kept, keeps tables of any size, and
    what it keeps goes with it."""
    monkeypatch.setattr(table_memory, "_kept", [])
    monkeypatch.setattr(config, "TABLE_KEEP_MIN_BYTES", 0)


def test_a_kept_buffer_is_reused_only_when_idle_and_comes_back_empty():
    first = new_table(1000, 0)
    first[:] = 7
    left = first[10:20, 1]  # a slice outlives the table
    del first
    second = new_table(1000, 0)
    assert not np.shares_memory(second, left), "reused while a slice of it was alive"
    assert table_memory.kept_bytes() == (2 * 1000 * 28, 0)
    second_words = second.base
    del second
    assert table_memory.kept_bytes()[1] == 0  # a reference to its buffer is enough
    del second_words
    assert table_memory.kept_bytes()[1] == 1000 * 28
    del left
    third = new_table(1000, 0)  # the first buffer, written with 7s
    assert np.shares_memory(third, table_memory._kept[0])
    assert third.shape == (1000, 7) and third.dtype == np.uint32
    assert not third.any(), "a reused buffer must come back zeroed"
    assert len(table_memory._kept) == 2  # and none was made


def test_a_smaller_table_takes_a_buffer_at_most_twice_its_size():
    big = new_table(4000, 5)
    del big
    smaller = new_table(2500, 5)  # 12,500 words in a 20,000-word buffer
    assert np.shares_memory(smaller, table_memory._kept[0])
    tiny = new_table(100, 5)  # a 100-slot table never holds a 20,000-word buffer
    assert not np.shares_memory(tiny, table_memory._kept[0])
    assert smaller.shape == (2500, 5) and not smaller.any()


def test_the_kept_bytes_stay_within_their_bound(monkeypatch):
    monkeypatch.setattr(config, "TABLE_KEEP_BYTES", 100_000)
    made = [new_table(n, 5) for n in (500, 1000, 2000)]  # 10, 20 and 40 kB
    assert table_memory.kept_bytes()[0] == 70_000
    too_big = new_table(3000, 5)  # 60 kB: over half the bound, never kept
    assert table_memory.kept_bytes()[0] == 70_000
    del made[2]
    # 40 kB idle: let go to make room for 45 kB
    more = new_table(2250, 5)
    assert table_memory.kept_bytes() == (75_000, 0)
    monkeypatch.setattr(config, "TABLE_KEEP_BYTES", 0)
    none = new_table(10, 5)
    assert table_memory.kept_bytes()[0] == 75_000
    del too_big, more, none, made


def test_reusable_says_whether_a_table_would_land_on_kept_memory(monkeypatch):
    """``reusable`` answers for exactly the tables ``new_table`` would put on
    an idle kept buffer: none while the buffer backs a live table or slice,
    none at more than twice the wanted size or outside the kept bounds."""
    nbytes = 1000 * 28  # a 1000-slot build=rank table
    assert not table_memory.reusable(nbytes)  # nothing kept yet
    first = new_table(1000, 0)
    assert not table_memory.reusable(nbytes)  # kept, but busy
    left = first[3:5]
    del first
    assert not table_memory.reusable(nbytes)  # a slice keeps it busy
    del left
    assert table_memory.reusable(nbytes) and table_memory.reusable(600 * 28)
    assert not table_memory.reusable(400 * 28)  # the buffer is over twice that
    assert not table_memory.reusable(1100 * 28)  # too small
    again = new_table(600, 0)  # lands where reusable said
    assert np.shares_memory(again, table_memory._kept[0])
    del again
    monkeypatch.setattr(config, "TABLE_KEEP_BYTES", nbytes)  # over half the bound
    assert not table_memory.reusable(nbytes)


def test_a_growing_search_prices_its_rehash_as_warm_only_on_kept_memory(monkeypatch):
    """The depth-first run tells the time guard when the next table lands on
    kept memory: solved twice, the first solve's rehashes find nothing kept
    of their size and the second's find every one kept (counted), and each
    rehash the guard called warm did land on a kept buffer."""
    import canfield.solver.dfs_run as dfs_run

    calls: list[tuple[bool, int]] = []
    guard = dfs_run.rehash_in_time

    def spy(t0, seconds, rate, slots, slot_bytes, warm=False):
        calls.append((bool(warm), slots * slot_bytes))
        return guard(t0, seconds, rate, slots, slot_bytes, warm)

    monkeypatch.setattr(dfs_run, "rehash_in_time", spy)
    monkeypatch.setattr(config, "TABLE_KEEP_BYTES", 256 << 20)
    counted = _Counted()
    monkeypatch.setattr(table_memory, "zeroed_words", counted)

    def run():
        calls.clear()
        counted.made = counted.reused = 0
        # a run with no node budget to size its table for: it grows
        memory = 64 << 20
        dfs = DfsRun(Position.from_deal(6, "strict"), Path(), prune_mask(True), memory)
        dfs.advance(time.perf_counter(), 600.0, 300_000, memory)
        r = dfs.finish()
        return r.result, int(dfs.stats[ST_NODES]), [w for w, _ in calls], counted.reused

    first = run()
    assert len(first[2]) >= 2 and not any(first[2])  # each size new
    second = run()
    assert first[:2] == second[:2]
    assert len(second[2]) >= 2 and all(second[2])  # each size kept by the first solve
    assert second[3] >= len(second[2])  # and each landed on a kept buffer


class _Counted:
    """Stands in for ``zeroed_words`` and counts the calls that return a
    buffer kept before the call."""

    def __init__(self) -> None:
        self.make = table_memory.zeroed_words
        self.made = self.reused = 0

    def __call__(self, n: int) -> np.ndarray:
        # addresses, not references: a reference would keep a buffer busy
        before = {b.ctypes.data for b in table_memory._kept}
        words = self.make(n)
        self.made += 1
        self.reused += words.ctypes.data in before
        return words


def _same_on_reused_memory(monkeypatch, run) -> _Counted:
    """Solve with nothing kept (after a solve that compiles: a compile
    inside a probe's share of the 600 s would stop it for time), then with
    memory kept twice, the second time counted; the rows must match."""
    monkeypatch.setattr(config, "TABLE_KEEP_BYTES", 0)
    run()
    fresh = run()
    monkeypatch.setattr(config, "TABLE_KEEP_BYTES", 256 << 20)
    run()  # leaves the buffers it wrote kept
    counted = _Counted()
    monkeypatch.setattr(table_memory, "zeroed_words", counted)
    assert run() == fresh
    return counted


def test_a_solve_on_reused_memory_is_the_same_search(monkeypatch):
    """Strict deal 6 at 600,000 positions with the probes: the full search
    and each narrowed probe make a table. Solved again, every one of them
    lands on a buffer the first solve wrote; the rows match a solve that
    keeps no memory. The test counts the tables made on reused buffers."""

    def run():
        r = Solver(memory=64 << 20).solve_deal(6, "strict", seconds=600, nodes=600_000)
        return (r.result, r.banked, r.nodes, r.children, r.cut, r.dominated, r.best_line)

    c = _same_on_reused_memory(monkeypatch, run)
    assert c.made >= 3 and c.reused == c.made, f"{c.reused} of {c.made} tables on reused memory"


def test_any_element_type_comes_zeroed_and_aligned_on_kept_memory():
    first = table_memory.zeroed((300, 9), np.uint64)
    first[:] = 5
    del first
    for shape, dtype in (((300, 9), np.uint64), (12_000, np.bool_), ((2, 1300), np.int64)):
        a = table_memory.zeroed(shape, dtype)
        assert a.shape == (shape if isinstance(shape, tuple) else (shape,))
        assert a.dtype == dtype and a.flags["C_CONTIGUOUS"] and a.flags["ALIGNED"]
        assert not a.any()
        del a
    assert len(table_memory._kept) == 1  # each of them took the one buffer


@pytest.mark.parametrize(
    ("profile", "deal", "nodes"),
    [("rainbow", 12, 200_000), ("superior", 6, 200_000)],
)
def test_the_beam_searches_the_same_on_reused_memory(monkeypatch, profile, deal, nodes):
    """The one-pack beam probe's arrays are made on kept memory too
    (``table_memory.zeroed``; rank-only building and free spaces run it):
    solved after a solve that left them written, the rows are those of a
    solve that keeps nothing, and the test counts the arrays made on
    reused buffers."""

    def run():
        r = Solver(memory=64 << 20).solve_deal(deal, profile, seconds=600, nodes=nodes)
        return (r.result, r.banked, r.nodes, r.children, r.stage, r.best_line)

    c = _same_on_reused_memory(monkeypatch, run)
    assert c.reused >= 3, f"{c.reused} of {c.made} arrays on reused memory"
