"""The sweep's local worker processes: started so that Ctrl-C and the death of
the sweep end them quietly, and torn down without a word after Ctrl-C.

- Ctrl-C reaches the whole process group. Workers are started while the
  parent ignores SIGINT: an ignored signal stays ignored across ``exec``, and
  Python then installs no ``KeyboardInterrupt`` handler, so a worker still
  importing or compiling never prints a traceback; only the parent handles
  Ctrl-C. (A blocked signal mask is not enough: a spawned Python starts with
  SIGINT unblocked.) A Ctrl-C in the milliseconds the workers take to start
  is dropped.
- A worker exits when the sweep that started it dies, even by ``kill -9``
  (``PR_SET_PDEATHSIG`` on Linux, a watchdog thread elsewhere).
- After Ctrl-C the parent terminates the workers and waits for the pool's
  own thread to see them gone; cancelling futures first would make that
  thread fail on them (``InvalidStateError: CANCELLED``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context

from canfield.experiments.sweep.rows import run_batch, warm_up_for

#: A unit of work: one profile and the deals to run under it.
Batch = tuple[str, tuple[int, ...]]
#: The arguments of :func:`.rows.run_batch` after the profile and the deals.
BatchArgs = tuple[float | None, int | None, int, str, str, str]
#: Takes the rows of each finished batch.
OnRows = Callable[[list[dict]], None]
#: Runs one batch: called as ``task(profile, deals, *args)`` (:func:`.rows.run_batch`).
Task = Callable[..., list[dict]]

_PR_SET_PDEATHSIG = 1
#: Seconds between the watchdog's looks at its parent where prctl is missing.
_WATCH_SECONDS = 1.0


def run_local(
    workers: int,
    batches: list[Batch],
    args: BatchArgs,
    finished: OnRows,
    task: Task = run_batch,
) -> None:
    """Run ``task(profile, deals, *args)`` for each of ``batches`` in ``workers``
    fresh processes, giving each batch's rows to ``finished`` in this process as
    they arrive.

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C, once the workers are gone.
    """
    _, _, _, player, _, solver_options = args
    init_args = (os.getpid(), player, solver_options)
    queue: Iterator[Batch] = iter(batches)
    pending: set[Future] = set()
    pool = None
    try:
        with _sigint_ignored():  # the workers start ignoring it (see module doc)
            pool = ProcessPoolExecutor(
                workers,
                mp_context=get_context("spawn"),
                initializer=_worker_init,
                initargs=init_args,
            )
            # A bounded queue, so Ctrl-C never has thousands of tasks to drop;
            # the first ``workers`` submissions start every process.
            for batch in _take(queue, workers * 2):
                pending.add(pool.submit(task, *batch, *args))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                finished(future.result())
                for batch in _take(queue, 1):
                    pending.add(pool.submit(task, *batch, *args))
    except BaseException:
        if pool is not None:
            _tear_down(pool)
        raise
    pool.shutdown(wait=True)


def _take(queue: Iterator[Batch], n: int) -> list[Batch]:
    return [batch for _, batch in zip(range(n), queue, strict=False)]


@contextlib.contextmanager
def _sigint_ignored():
    """Ignore SIGINT while the workers are spawned: they inherit SIG_IGN."""
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _tear_down(pool: ProcessPoolExecutor) -> None:
    """Stop the workers at once and wait until the pool knows they are gone."""
    # a second Ctrl-C must not interrupt the cleanup with a traceback
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()
        pool.shutdown(wait=True)
    finally:
        signal.signal(signal.SIGINT, previous)


def _worker_init(parent: int, player: str, solver_options: str) -> None:
    """Each worker's first call: ignore Ctrl-C, die with ``parent``, compile."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # inherited already; stated for clarity
    die_with_parent(parent)
    warm_up_for(player, solver_options)


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` dies, however it dies.

    Parameters
    ----------
    parent : int
        The process id of the parent, read before this process started: if it
        is already gone, this process exits now.
    """
    if not _set_pdeathsig(signal.SIGTERM):
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # died before prctl took effect
        os._exit(1)


def _set_pdeathsig(sig: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)
