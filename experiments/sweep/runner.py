"""Run (or resume) a sweep: plan the batches still to do, run them in local
worker processes or on a dask cluster, write each finished batch as a part and
show the progress.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from canfield.engine.numba_cache import COMPILING_NOTE
from canfield.engine.profiles import parse_profile
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.games import store_games
from canfield.experiments.sweep.progress import ResultTally, SweepProgress
from canfield.experiments.sweep.rows import run_batch, warm_up_for
from canfield.experiments.sweep.spec import (
    MAX_LISTED_DEALS,
    SEARCHING_PLAYERS,
    SweepSpec,
    parse_solver_options,
)
from canfield.experiments.sweep.store import RunFolder
from canfield.experiments.sweep.workers import Batch, BatchArgs, OnRows, Task, run_local
from canfield.solver.beam_run import beam_profile
from canfield.solver.search import is_compiled

#: How long to wait for a dask scheduler before giving up.
DASK_CONNECT_TIMEOUT = "10s"


#: Most rows one run folder may plan (deals times profiles): its batches are
#: listed in memory before the first is run. The same bound as a listed
#: deal set's; main-100k, the largest published run, has 400,000.
MAX_SWEEP_ROWS = MAX_LISTED_DEALS


def plan_batches(spec: SweepSpec, done: set[tuple[int, str]], batch_size: int) -> list[Batch]:
    """The batches still to run, deal-major so all profiles progress together."""
    todo: dict[str, list[int]] = {p: [] for p in spec.profiles}
    for deal in spec.deals:
        for prof in spec.profiles:
            if (deal, prof) not in done:
                todo[prof].append(deal)
    return chunk_batches(todo, batch_size)


def chunk_batches(todo: dict[str, list[int]], batch_size: int) -> list[Batch]:
    """Cut each profile's deals (in the order given) into batches of at most
    ``batch_size``, interleaved profile by profile so all progress together."""
    per_profile = {
        prof: [tuple(deals[i : i + batch_size]) for i in range(0, len(deals), batch_size)]
        for prof, deals in todo.items()
    }
    batches: list[Batch] = []
    longest = max((len(b) for b in per_profile.values()), default=0)
    for i in range(longest):
        for prof in todo:
            if i < len(per_profile[prof]):
                batches.append((prof, per_profile[prof][i]))
    return batches


@dataclass
class SweepSummary:
    """What one call of :func:`run_sweep` did."""

    rows_before: int
    rows_written: int
    rows_total: int
    seconds: float
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        return self.rows_before + self.rows_written >= self.rows_total


def run_sweep(
    out: str | os.PathLike,
    spec: SweepSpec,
    workers: int | None = None,
    scheduler: str | None = None,
    batch_size: int = 8,
    repair: bool = False,
    progress: bool = True,
    compact: bool = True,
    say: Callable[[str], None] | None = None,
) -> SweepSummary:
    """Run (or resume) a sweep into the run folder ``out``.

    Every argument is checked, and the scheduler reached, before anything is
    written or compiled: bad input leaves no folder behind.

    Parameters
    ----------
    out : path-like
        The run folder.
    spec : SweepSpec
        The sweep's arguments; must match ``run.json`` if the folder exists.
    workers : int, optional
        Local worker processes (default: all cores). ``1`` solves in this process.
    scheduler : str, optional
        A dask.distributed scheduler address (``tcp://HOST:PORT``) to run on
        instead of local processes; not with ``workers``.
    batch_size : int
        Deals per task (and per part file).
    repair : bool
        Move damaged parts to ``parts/damaged/`` instead of failing.
    progress : bool
        Show a tqdm progress bar on stderr.
    compact : bool
        Merge small parts once the sweep is complete (see :meth:`RunFolder.compact`).
    say : callable, optional
        Takes one-line notes for the user (such as a first compile's wait).

    Returns
    -------
    SweepSummary

    Raises
    ------
    SweepError
        On bad arguments, a mismatched, damaged or unwritable run folder, or an
        unreachable scheduler.
    SolveFailed
        If a row crashed; the parts finished before it are kept.
    """
    check_run_args(batch_size, workers, scheduler)
    check_sweep_size(spec)
    folder = RunFolder(out)
    folder.check(spec)
    client = connect_dask(scheduler) if scheduler else None
    try:
        folder.init(spec)
        folder.lock()
        try:
            return _run(folder, spec, workers, client, batch_size, repair, progress, compact, say)
        finally:
            folder.unlock()
    finally:
        if client is not None:
            client.close()


def _run(
    folder: RunFolder,
    spec: SweepSpec,
    workers: int | None,
    client,
    batch_size: int,
    repair: bool,
    progress: bool,
    compact: bool,
    say: Callable[[str], None] | None,
) -> SweepSummary:
    """:func:`run_sweep` once the folder is made and locked."""
    t0 = time.perf_counter()
    if repair:
        folder.repair()
    existing = folder.load()
    done = {
        (deal, prof)
        for deal, prof in zip(
            existing["deal"].astype("uint64").tolist(), existing["profile"], strict=True
        )
        if prof in spec.profiles and deal in spec.deals
    }
    total = len(spec.deals) * len(spec.profiles)
    batches = plan_batches(spec, done, batch_size)
    summary = SweepSummary(len(done), 0, total, 0.0)
    tally = ResultTally(spec.profiles, existing)
    label = "sweep" if spec.player == "solver" else f"sweep {spec.player}"
    part_index = folder.next_part_index()
    args: BatchArgs = (
        spec.budget_seconds,
        spec.budget_nodes,
        spec.memory,
        spec.player,
        spec.player_options,
        spec.solver_options,
    )
    local_workers = workers or os.cpu_count() or 1
    compile_here = (
        bool(batches)
        and client is None
        and needs_compile(
            spec.player, spec.solver_options, say, batch_packs(batches), batch_beam(batches)
        )
    )
    bar = SweepProgress(total, len(done), label, tally) if progress and batches else None

    def finished(rows: list[dict]) -> None:
        nonlocal part_index
        store_games(folder.path, part_index, rows)  # a blind player's moves, for analyze
        folder.write_part(part_index, rows)
        part_index += 1
        summary.rows_written += len(rows)
        tally.add(rows)
        if bar is not None:
            bar.add(rows)

    try:
        execute(batches, args, finished, local_workers, client, compile_here=compile_here)
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        if bar is not None:
            bar.close()
    summary.seconds = time.perf_counter() - t0
    if compact and summary.complete and not summary.interrupted:
        folder.compact()
    return summary


def check_run_args(batch_size: int, workers: int | None, scheduler: str | None) -> None:
    """Check ``--batch``, ``--workers`` and ``--scheduler`` of a command that runs batches.

    Raises
    ------
    SweepError
        If a count is not positive, or both workers and a scheduler are given.
    """
    if batch_size <= 0:
        raise SweepError(f"--batch must be positive, got {batch_size}")
    if workers is not None and workers <= 0:
        raise SweepError(f"--workers must be positive, got {workers}")
    if workers is not None and scheduler:
        raise SweepError("--workers counts local processes; with --scheduler the cluster's run")


def check_sweep_size(spec: SweepSpec) -> None:
    """Check that the sweep's rows can be planned: its batches are listed in
    memory, so a range of a trillion deals would fill it (and ``len`` of a
    range past 2**63 deals cannot even be taken).

    Raises
    ------
    SweepError
        If the deals times the profiles exceed ``MAX_SWEEP_ROWS``.
    """
    deals = spec.deals
    count = deals.stop - deals.start if isinstance(deals, range) else len(deals)
    rows = count * len(spec.profiles)
    if rows > MAX_SWEEP_ROWS:
        raise SweepError(
            f"the sweep asks for {rows:,} rows ({count:,} deals x {len(spec.profiles)} "
            f"profile(s)); one run folder holds at most {MAX_SWEEP_ROWS:,}: split the deals"
        )


def execute(
    batches: list[Batch],
    args: BatchArgs,
    finished: OnRows,
    local_workers: int,
    client=None,
    task: Task = run_batch,
    compile_here: bool = False,
) -> None:
    """Run ``task(profile, deals, *args)`` on every batch: on the dask cluster
    of ``client``, in this process (one local worker) or in local worker
    processes, giving each batch's rows to ``finished`` as they arrive.

    ``compile_here`` compiles the kernels first in this process, so that the
    workers load them from numba's cache instead of compiling them each.
    """
    if compile_here or (batches and client is None and local_workers == 1):
        warm_up_for(args[3], args[5], batch_packs(batches), batch_beam(batches))
    if not batches:
        return
    if client is not None:
        run_dask(client, batches, args, finished, task)
    elif local_workers == 1:
        for prof, deals in batches:
            finished(task(prof, deals, *args))
    else:
        run_local(local_workers, batches, args, finished, task)


def batch_packs(batches: list[Batch]) -> set[int]:
    """The pack counts (1, or 2 for ``double``) of the profiles of ``batches``."""
    return {parse_profile(prof).packs for prof, _ in batches}


def batch_beam(batches: list[Batch]) -> bool:
    """Whether a profile of ``batches`` runs the one-pack beam probe."""
    return any(beam_profile(parse_profile(prof)) for prof, _ in batches)


def needs_compile(
    player: str,
    solver_options: str,
    say: Callable[[str], None] | None,
    packs: Iterable[int] = (1,),
    beam: bool = False,
) -> bool:
    """True (after saying so) when ``player`` runs the solver and numba's
    cache does not hold the kernels of its ``solver_options`` for games of
    each of ``packs`` packs yet (with ``beam``, the one-pack beam probe's too)."""
    if player not in SEARCHING_PLAYERS:
        return False
    strategy = parse_solver_options(solver_options)["strategy"]
    if all(is_compiled(strategy, n, beam) for n in set(packs)):
        return False
    if say is not None:
        say(COMPILING_NOTE)
    return True


def connect_dask(address: str):
    """A dask client of the scheduler at ``address``.

    Raises
    ------
    SweepError
        If dask.distributed is missing, or the scheduler cannot be reached.
    """
    try:
        # optional: only the cluster extra installs dask
        from distributed import Client
    except ImportError:
        raise SweepError("--scheduler needs dask.distributed: pip install distributed") from None
    try:
        return Client(address, timeout=DASK_CONNECT_TIMEOUT)
    except (OSError, ValueError, TypeError) as exc:
        why = " ".join(str(exc).split()) or type(exc).__name__
        raise SweepError(
            f"cannot reach the dask scheduler {address!r} (expected tcp://HOST:PORT): {why}"
        ) from None


def run_dask(
    client, batches: list[Batch], args: BatchArgs, finished: OnRows, task: Task = run_batch
) -> None:
    """Run ``task(profile, deals, *args)`` for each batch on the dask cluster of
    ``client``, giving each batch's rows to ``finished`` as they arrive."""
    from distributed import as_completed

    futures = []
    try:
        futures = [client.submit(task, prof, deals, *args, pure=False) for prof, deals in batches]
        for future in as_completed(futures):
            finished(future.result())
    except BaseException:
        client.cancel(futures)
        raise
