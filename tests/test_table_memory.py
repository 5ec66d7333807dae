"""Table memory kept for reuse (``solver.table_memory``): a table on kept
memory is empty, a buffer is reused only when no table or slice of one is
left, the kept bytes stay within their bound, and a solve on reused memory
is the same search as on fresh memory."""

from __future__ import annotations

import numpy as np
import pytest

from canfield.solver import config, table_memory
from canfield.solver.search import Solver
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
