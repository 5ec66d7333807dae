"""Several cores on one deal: depth-first searches that share one table.

``Solver(strategy="shared", threads=N)`` (``canfield solve --strategy shared
--threads N``) forks ``N`` processes that run the full depth-first search of
one position over one transposition table in shared memory. Each enters the
positions it expands in the table (``solver.table.tt_visit_shared``), and
skips those any process entered before, so the processes split the tree
between them as they go: one that reaches a position another is still
searching moves on to the next. The root's moves are dealt out in rotated
order (process ``k`` starts at the ``k``-th share of them), so they start
apart.

*Why the answer is a one-core search's.* Winning is reaching a won position,
a question about the positions reachable from the root, not about the order
they are searched in. A process expands every position it enters (or, out
of budget, says "unknown"), so when every process has run out of moves,
every position entered has been expanded by one of them, and the positions
entered are closed under the moves that the pruning rules keep: the same
closure one search makes alone. A win is replayed through the engine as
always. A loss is reported only when every process exhausted its search;
one process that stops on a budget makes the answer unknown. Banked is the
largest of the processes' best counts: each cut of rule B1 is made against
a count its own process reached (a real line), so the best line is kept
wherever it runs (the argument of ``docs/solver.md``, with "the best" read
as any process's best, which only makes cuts rarer). Rule E2 skips a
position whose dominating pointer another process entered: that process
searches it (or the answer is unknown).
"""

from __future__ import annotations

import mmap
import multiprocessing as mp
import queue
import signal

import numpy as np

from canfield.engine import core
from canfield.engine.position import Position
from canfield.solver.dfs_run import SUMMED, DfsRun, Path, Run
from canfield.solver.pruning import SPIN_SHIFT, shared_mask
from canfield.solver.stats import ST_BEST, ST_BESTLEN, ST_MAXDEPTH, ST_NODES
from canfield.solver.table import slot_words

#: Seconds between checks on the processes while none has answered.
POLL_SECONDS = 0.05


def shared_table(memory: int, kw: int) -> np.ndarray:
    """An empty table of as many slots as ``memory`` holds, in memory that
    processes forked after this call share (anonymous, ``MAP_SHARED``)."""
    words = slot_words(kw)
    cap = min(max(1 << 10, memory // (4 * words)), 1 << 32)
    buf = mmap.mmap(-1, cap * words * 4, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
    return np.frombuffer(buf, np.uint32).reshape(cap, words)


def _worker(run: DfsRun, k: int, t0: float, seconds: float, nodes: int | None, out) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    run.advance(t0, seconds, nodes, run.table_bytes)
    out.put((k, run.finish()))


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
    """The full depth-first search of ``position`` on ``threads`` processes
    and one table of ``memory`` bytes (see the module docstring).

    ``nodes`` is shared out evenly. The answer counts every process's
    positions (``parts`` gives each one's); its line is that of the process
    with the most banked (the winner's when won). ``table`` (from
    :func:`shared_table`, empty) lets a test read the table afterwards.
    """
    if table is None:
        table = shared_table(memory, core.key_words(int(position.game.rules[core.R_BUILD])))
    runs: list[DfsRun] = []
    for k in range(threads):
        # the first run enters the root before any process starts: no race
        mask = shared_mask(prune, k, threads)
        run = DfsRun(position, Path(), mask, memory, table=table, sharers=threads)
        n = int(run.path.nmoves[0])
        turn = (((mask >> SPIN_SHIFT) & 255) * n) >> 8
        if turn:  # as the search turns every list below the root
            at = int(run.path.mbase[0])
            moves = run.path.mstack[at : at + n]
            moves[:] = np.roll(moves, -turn)
        runs.append(run)
    each = None if nodes is None else max(1, nodes // threads)
    ctx = mp.get_context("fork")  # the compiled kernels and the table carry over
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=(run, k, t0, seconds, each, out), daemon=True)
        for k, run in enumerate(runs)
    ]
    for p in procs:
        p.start()
    answers: dict[int, Run] = {}
    try:
        while len(answers) < threads:
            try:
                k, r = out.get(timeout=POLL_SECONDS)
            except queue.Empty:
                dead = [k for k, p in enumerate(procs) if p.exitcode not in (None, 0)]
                if any(k not in answers for k in dead):
                    raise RuntimeError(
                        f"search process {dead[0]} died (exit code {procs[dead[0]].exitcode})"
                    ) from None
                continue
            answers[k] = r
            if r.result == "won":
                break
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join()
    return _pooled(answers, threads, runs[0].table_bytes)


def _pooled(answers: dict[int, Run], threads: int, table_bytes: int) -> Run:
    """One answer from the processes' answers: won if one won, lost only if
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
