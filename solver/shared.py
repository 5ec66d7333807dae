"""Several cores on one deal: depth-first searches that share one table.

``Solver(strategy="shared", threads=N)`` (``canfield solve --strategy shared
--threads N``) runs ``N`` threads that each run the full depth-first search
of one position over one transposition table: the compiled search releases
the interpreter's lock (numba's ``nogil``), so the threads run on ``N``
cores at once, in one process and one address space. Each thread enters
the positions it expands in the table (``solver.table.tt_visit_shared``)
and skips those any thread entered before, so the threads split the tree
between them as they go: one that reaches a position another is still
searching moves on to the next. Thread ``k`` turns every move list by
``k / N`` of its length (``pruning.shared_mask``), so they start apart.

*Why the answer is a one-core search's.* Winning is reaching a won position,
a question about the positions reachable from the root, not about the order
they are searched in. A thread expands every position it enters (or, out of
budget, says "unknown"), so when every thread has run out of moves, every
position entered has been expanded by one of them, and the positions
entered are closed under the moves that the pruning rules keep: the same
closure one search makes alone. A win is replayed through the engine as
always. A loss is reported only when every thread exhausted its search; one
that stops on a budget makes the answer unknown. Banked is the largest of
the threads' best counts: each cut of rule B1 is made against a count some
thread reached (a real line; between slices every thread takes the largest),
so the best line is kept wherever it runs (the argument of
``docs/solver.md``, with "the best" read as any thread's best). Rule E2 skips a position whose
dominating pointer another thread entered: that thread searches it (or the
answer is unknown).

A thread that runs out of moves while another searches on starts again
from the root as a helper (``pruning.HELPING``): it searches again the
positions entered and not yet finished (``table.FINISHED``), except those
on its own path, and so takes the moves the other thread has not tried yet
along that thread's path. Helping only adds searches, so the argument above
stands; ``docs/solver.md`` ("The shared search") gives it in full.

The threads search in slices of ``SLICE_SECONDS``; between two slices,
with every thread stopped, the table grows as one search's does (within
the memory budget), and a win ends the search.
"""

from __future__ import annotations

import threading
import time

import numpy as np
from numba import njit

from canfield.engine import core
from canfield.engine.position import Position
from canfield.solver import config
from canfield.solver.budgets import rehash_in_time
from canfield.solver.dfs_run import SUMMED, DfsRun, Path, Run, grown_cap
from canfield.solver.macros import SolverBug
from canfield.solver.pruning import HELPING, shared_mask
from canfield.solver.stats import (
    EXHAUSTED,
    RUNNING,
    ST_BEST,
    ST_BESTLEN,
    ST_DEPTH,
    ST_ENTRIES,
    ST_MAXDEPTH,
    ST_NODES,
    TABLE_FULL,
    WON,
)
from canfield.solver.table import key_buffer, new_table, slot_bytes, tt_rehash, tt_slot

#: Seconds the threads search between two looks at them (a win, a full table).
SLICE_SECONDS = 0.1


def _grow(runs: list[DfsRun], max_cap: int) -> None:
    """Rehash the threads' table into a larger one (at most ``max_cap``
    slots), with every thread stopped."""
    table, cap = runs[0].table, runs[0].cap
    new_cap = grown_cap(cap, max_cap)
    new = new_table(new_cap, runs[0].kw)
    tt_rehash(table, new)
    for run in runs:
        run.table, run.cap = new, new_cap
        run.peak_bytes = max(run.peak_bytes, run.table_bytes)
        if run.code == TABLE_FULL:
            run.code = RUNNING  # its kernel makes the child it could not enter again
        if not run.over:
            _find_slots(run)


def _share_best(runs: list[DfsRun]) -> int:
    """Give every thread still searching the largest best count (and its
    line) any thread has reached; return how many counts it raised.

    Rule B1 then cuts against that count: a real line reaches it, which is
    all B1's argument needs (docs/solver.md, "The shared search")."""
    top = max(runs, key=lambda r: int(r.stats[ST_BEST]))
    behind = [r for r in runs if not r.over and int(r.stats[ST_BEST]) < int(top.stats[ST_BEST])]
    if behind:
        best = top.finish()  # its line: built only when some thread takes it
        for r in behind:
            r.seed_best(best)
    return len(behind)


@njit(cache=True)
def _path_slots(table, states, depth, rules, slots):
    """Look up the slot of each position on a path (after a rehash moved them)."""
    key = key_buffer(table)
    for i in range(depth + 1):
        core.canonical_key(states[i], rules, key)
        slots[i] = tt_slot(table, key, rules)
        if slots[i] < 0:
            return False
    return True


def _find_slots(run: DfsRun) -> None:
    depth = int(run.stats[ST_DEPTH])
    if depth >= 0 and not _path_slots(run.table, run.path.states, depth, run.rules, run.path.slots):
        raise SolverBug("a position on a shared search's path is not in its table")


def _start(
    position: Position,
    k: int,
    threads: int,
    prune: int,
    memory: int,
    table: np.ndarray,
    done: DfsRun | None = None,
) -> DfsRun:
    """Thread ``k``'s search from the root; a helper when it takes over from
    ``done``, a search of this thread that ran out of moves (its positions,
    entries and best carry over)."""
    mask = shared_mask(prune, k, threads) | (HELPING if done is not None else 0)
    # the search turns the root's moves as it turns every list below it
    run = DfsRun(position, Path(), mask, memory, table=table, sharers=threads)
    _find_slots(run)
    if done is not None:
        entries = int(done.stats[ST_ENTRIES]) + int(run.stats[ST_ENTRIES])
        run.absorb(done.finish())
        run.stats[ST_ENTRIES] = entries
    return run


def search_shared(
    position: Position,
    threads: int,
    t0: float,
    seconds: float,
    nodes: int | None,
    memory: int,
    prune: int,
    table: np.ndarray | None = None,
) -> Run:
    """The full depth-first search of ``position`` on ``threads`` threads
    and one table of ``memory`` bytes (see the module docstring).

    ``nodes`` is shared out evenly. The answer counts every thread's
    positions (``parts`` gives each one's); its line is that of the thread
    with the most banked (the winner's when won). ``table`` (from
    :func:`solver.table.new_table`, empty) lets a test read it afterwards.
    """
    kw = core.key_words(int(position.game.rules[core.R_BUILD]))
    max_cap = min(max(1 << 10, memory // slot_bytes(kw)), 1 << 32)
    if table is None:
        start = config.START_SLOTS
        if nodes is not None:
            start = max(start, int((nodes + 2) / config.MAX_LOAD) + 1)
        table = new_table(min(start, max_cap), kw)
    # the first run enters the root before any thread starts: no race
    runs = [_start(position, k, threads, prune, memory, table) for k in range(threads)]
    each = None if nodes is None else max(1, nodes // threads)
    rate = 0.0  # seconds a slot of the last rehash took (as DfsRun.advance keeps it)
    while time.perf_counter() - t0 < seconds:
        # a slice on every thread still searching; its own budgets stop a thread
        live = [r for r in runs if not r.over and r.reason in ("", "time")]
        if not live:
            break
        # the room left in the table, dealt out: it grows when the whole table
        # is full, not when one thread's half is
        room = int(runs[0].cap * config.MAX_LOAD) - sum(int(r.stats[ST_ENTRIES]) for r in runs)
        for r in live:
            r.entry_limit = int(r.stats[ST_ENTRIES]) + max(0, room) // len(live)
        end = min(seconds, time.perf_counter() - t0 + SLICE_SECONDS)
        failed: list[BaseException] = []
        workers = [
            threading.Thread(target=_advance, args=(r, failed, t0, end, each, r.table_bytes))
            for r in live
        ]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        if failed:
            # a thread that raised would otherwise only print, and the solve
            # would answer from the threads left
            raise failed[0]
        if any(r.code == WON for r in live):
            break
        _share_best(runs)
        if any(r.code == TABLE_FULL for r in live):
            if runs[0].cap >= max_cap:
                break  # each full thread says "memory"
            new_cap = grown_cap(runs[0].cap, max_cap)
            if not rehash_in_time(t0, seconds, rate, new_cap, runs[0].entry):
                for r in runs:
                    if r.reason == "memory":
                        r.reason = "time"  # a rehash that would end past the deadline
                break
            started = time.perf_counter()
            _grow(runs, max_cap)
            rate = (time.perf_counter() - started) / runs[0].cap
            for r in runs:
                if r.reason == "memory":
                    r.reason = ""
        if any(not r.over and r.reason in ("", "time") for r in runs):
            for k, r in enumerate(runs):
                if r.code == EXHAUSTED:
                    # out of moves while another searches on: help it
                    runs[k] = _start(position, k, threads, prune, memory, runs[0].table, r)
    answers = {k: run.finish() for k, run in enumerate(runs)}
    return _pooled(answers, threads, max(r.peak_bytes for r in answers.values()))


def _advance(run: DfsRun, failed: list[BaseException], *limits) -> None:
    """``run.advance(*limits)`` on a thread; what it raises goes to ``failed``."""
    try:
        run.advance(*limits)
    except BaseException as exc:  # handed to the caller, which raises it
        failed.append(exc)


def _pooled(answers: dict[int, Run], threads: int, table_bytes: int) -> Run:
    """One answer from the threads' answers: won if one won, lost only if
    every one exhausted its search, else unknown; positions summed."""
    won = [r for r in answers.values() if r.result == "won"]
    if won:
        best = won[0]
        result, reason = "won", best.reason
    else:
        best = max(answers.values(), key=lambda r: int(r.stats[ST_BEST]))
        lost = len(answers) == threads and all(r.result == "lost" for r in answers.values())
        result = "lost" if lost else "unknown"
        stops = [r.reason for r in answers.values() if r.result != "lost"]
        reason = "exhausted" if lost else (stops[0] if stops else "time")
    stats = best.stats.copy()
    for slot in SUMMED:
        stats[slot] = sum(int(r.stats[slot]) for r in answers.values())
    stats[ST_MAXDEPTH] = max(int(r.stats[ST_MAXDEPTH]) for r in answers.values())
    stats[ST_BESTLEN] = len(best.macros)
    return Run(
        result=result,
        reason=reason,
        stats=stats,
        macros=best.macros,
        peak_bytes=table_bytes,
        max_depth=int(stats[ST_MAXDEPTH]),
        dominated=sum(r.dominated for r in answers.values()),
        stage=f"shared{threads}",
        parts=tuple(int(answers[k].stats[ST_NODES]) if k in answers else 0 for k in range(threads)),
    )
