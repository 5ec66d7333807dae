"""Run (or resume) a sweep: plan the batches still to do, run them in local
worker processes or on a dask cluster, write each finished batch as a part and
show the progress.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context

import pandas as pd
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.rows import run_batch, warm_up_once
from canfield.experiments.sweep.spec import SweepSpec
from canfield.experiments.sweep.store import RunFolder
from tqdm import tqdm

#: How long to wait for a dask scheduler before giving up.
DASK_CONNECT_TIMEOUT = "10s"

#: A unit of work: one profile and the deals to run under it.
Batch = tuple[str, tuple[int, ...]]
#: The arguments of :func:`.rows.run_batch` after the profile and the deals.
BatchArgs = tuple[float | None, int | None, int, str, str]
#: Takes the rows of each finished batch.
OnRows = Callable[[list[dict]], None]


def plan_batches(spec: SweepSpec, done: set[tuple[int, str]], batch_size: int) -> list[Batch]:
    """The batches still to run, deal-major so all profiles progress together."""
    todo: dict[str, list[int]] = {p: [] for p in spec.profiles}
    for deal in spec.deals:
        for prof in spec.profiles:
            if (deal, prof) not in done:
                todo[prof].append(deal)
    per_profile = {
        prof: [tuple(deals[i : i + batch_size]) for i in range(0, len(deals), batch_size)]
        for prof, deals in todo.items()
    }
    batches: list[Batch] = []
    longest = max((len(b) for b in per_profile.values()), default=0)
    for i in range(longest):
        for prof in spec.profiles:
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


class ResultTally:
    """Running per-profile won/lost/unknown counts for the progress bar."""

    def __init__(self, profiles: Iterable[str], rows: pd.DataFrame) -> None:
        self.counts = {p: {"won": 0, "lost": 0, "unknown": 0} for p in profiles}
        for prof, result in zip(rows["profile"], rows["result"], strict=True):
            if prof in self.counts:
                self.counts[prof][result] += 1

    def add(self, rows: list[dict]) -> None:
        for row in rows:
            self.counts[row["profile"]][row["result"]] += 1

    def postfix(self) -> str:
        """``profile win%`` over decided deals, with ``+N?`` unknowns."""
        shown = []
        for prof, count in self.counts.items():
            decided = count["won"] + count["lost"]
            pct = f"{100 * count['won'] / decided:.1f}%" if decided else "-"
            shown.append(f"{prof} {pct}" + (f" +{count['unknown']}?" if count["unknown"] else ""))
        return " | ".join(shown)


def run_sweep(
    out: str | os.PathLike,
    spec: SweepSpec,
    workers: int | None = None,
    scheduler: str | None = None,
    batch_size: int = 8,
    repair: bool = False,
    progress: bool = True,
    compact: bool = True,
) -> SweepSummary:
    """Run (or resume) a sweep into the run folder ``out``.

    Parameters
    ----------
    out : path-like
        The run folder.
    spec : SweepSpec
        The sweep's arguments; must match ``run.json`` if the folder exists.
    workers : int, optional
        Local worker processes (default: all cores). ``1`` solves in this process.
    scheduler : str, optional
        A dask.distributed scheduler address (``tcp://HOST:PORT``); overrides
        ``workers``.
    batch_size : int
        Deals per task (and per part file).
    repair : bool
        Move damaged parts to ``parts/damaged/`` instead of failing.
    progress : bool
        Show a tqdm progress bar on stderr.
    compact : bool
        Merge the parts into one file once the sweep is complete.

    Returns
    -------
    SweepSummary

    Raises
    ------
    SweepError
        On bad arguments, a mismatched or damaged run folder, or an unreachable
        scheduler.
    SolveFailed
        If a row crashed; the parts finished before it are kept.
    """
    if batch_size <= 0:
        raise SweepError(f"--batch must be positive, got {batch_size}")
    if workers is not None and workers <= 0:
        raise SweepError(f"--workers must be positive, got {workers}")
    folder = RunFolder(out)
    folder.init(spec)
    folder.lock()
    t0 = time.perf_counter()
    try:
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
        bar = _progress_bar(total, len(done), label) if progress else None
        part_index = folder.next_part_index()

        def finished(rows: list[dict]) -> None:
            nonlocal part_index
            folder.write_part(part_index, rows)
            part_index += 1
            summary.rows_written += len(rows)
            tally.add(rows)
            if bar is not None:
                bar.set_postfix_str(tally.postfix(), refresh=False)
                bar.update(len(rows))

        args: BatchArgs = (
            spec.budget_seconds,
            spec.budget_nodes,
            spec.memory,
            spec.player,
            spec.player_options,
        )
        local_workers = workers or os.cpu_count() or 1
        try:
            if not batches:
                pass
            elif scheduler:
                _run_dask(scheduler, batches, args, finished)
            elif local_workers == 1:
                for prof, deals in batches:
                    finished(run_batch(prof, deals, *args))
            else:
                _run_local(local_workers, batches, args, finished)
        except KeyboardInterrupt:
            summary.interrupted = True
        finally:
            if bar is not None:
                bar.close()
        summary.seconds = time.perf_counter() - t0
        if compact and summary.complete and not summary.interrupted:
            folder.compact()
        return summary
    finally:
        folder.unlock()


def _progress_bar(total: int, initial: int, label: str) -> tqdm:
    return tqdm(
        total=total, initial=initial, unit="row", dynamic_ncols=True, smoothing=0.05, desc=label
    )


def _worker_init() -> None:
    # Ctrl-C goes to the whole process group; only the parent handles it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_up_once()


def _run_local(workers: int, batches: list[Batch], args: BatchArgs, finished: OnRows) -> None:
    pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=_worker_init)
    pending: set[Future] = set()
    queue: Iterator[Batch] = iter(batches)
    try:
        # Keep a bounded queue so Ctrl-C never has thousands of tasks to cancel.
        for _ in range(workers * 2):
            batch = next(queue, None)
            if batch is None:
                break
            pending.add(pool.submit(run_batch, *batch, *args))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                finished(future.result())
                batch = next(queue, None)
                if batch is not None:
                    pending.add(pool.submit(run_batch, *batch, *args))
    except BaseException:
        for future in pending:
            future.cancel()
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _run_dask(address: str, batches: list[Batch], args: BatchArgs, finished: OnRows) -> None:
    try:
        # optional: only the cluster extra installs dask
        from distributed import Client, as_completed
    except ImportError:
        raise SweepError("--scheduler needs dask.distributed: pip install distributed") from None
    try:
        client = Client(address, timeout=DASK_CONNECT_TIMEOUT)
    except OSError as exc:
        raise SweepError(f"cannot reach the dask scheduler {address}: {exc}") from None
    futures = []
    try:
        futures = [
            client.submit(run_batch, prof, deals, *args, pure=False) for prof, deals in batches
        ]
        for future in as_completed(futures):
            finished(future.result())
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        client.close()
