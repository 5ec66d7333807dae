"""Several cores on one deal: a portfolio of complete, exact searches.

``canfield solve --threads N`` runs ``N`` differently organised searches of
the same position at once, each in a process of its own with ``1/N`` of the
memory budget and the whole time and node budgets; the first to decide
gives the answer and the others are stopped. Each member is a complete,
exact search (``docs/solver.md``): a win it reports is replayed through the
engine, a loss is a proof, and banked on a loss is the maximum over the
whole search, so any member's verdict and banked are those of any other,
and of a one-core solve. Only positions, time and the line found differ.
When every member runs out of budget the answer is unknown, with the
largest banked count any member found (a lower bound, as always).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import signal
from collections.abc import Callable
from dataclasses import replace

from canfield.solver.search import SolveResult

#: The members a portfolio may use, in the order it adds them after the
#: solve as asked: (name, strategy, probes). ``layers`` needs worry=no.
CANDIDATES = (
    ("dfs", "dfs", True),
    ("dfs-no-probes", "dfs", False),
    ("layers", "layers", True),
)
#: Seconds between checks on the members while none has answered.
POLL_SECONDS = 0.2


def cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def members(threads: int, strategy: str, probes: bool, worry: bool) -> list[tuple[str, dict]]:
    """The ``threads`` members of a portfolio: the solve as asked, then the others.

    Returns
    -------
    list of (name, options)
        Each member's name and its ``strategy``/``probes`` options.

    Raises
    ------
    ValueError
        When there are fewer distinct members than ``threads``.
    """
    usable = [c for c in CANDIDATES if not (worry and c[1] == "layers")]
    asked = next(
        (c for c in usable if (c[1], c[2]) == (strategy, probes)),
        (f"{strategy}{'' if probes else '-no-probes'}", strategy, probes),
    )
    chosen = [asked] + [c for c in usable if c != asked]
    if threads > len(chosen):
        raise ValueError(
            f"--threads {threads}: this profile has {len(chosen)} different searches to run "
            f"at once ({', '.join(c[0] for c in chosen)})"
        )
    return [(name, {"strategy": s, "probes": p}) for name, s, p in chosen[:threads]]


def _member(run: Callable[[dict], SolveResult], opts: dict, index: int, out) -> None:
    """A member process: solve, hand the answer back (the parent handles Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out.put((index, run(opts)))


def solve_portfolio(
    run: Callable[[dict], SolveResult], chosen: list[tuple[str, dict]], memory: int
) -> SolveResult:
    """Run ``run(options)`` for every member at once; the first decided answer wins.

    Parameters
    ----------
    run : callable
        Solves the position with the options given (``strategy``, ``probes``,
        ``memory``); called in a forked process, so it may be a closure.
    chosen : list of (name, options)
        The members, from :func:`members`.
    memory : int
        The whole memory budget; each member gets an equal share.

    Returns
    -------
    SolveResult
        The deciding member's answer (or, all unknown, the one with the most
        banked), with ``threads`` and ``member`` set.
    """
    share = max(1 << 16, memory // len(chosen))
    if len(chosen) == 1:
        name, opts = chosen[0]
        return replace(run({**opts, "memory": share}), threads=1, member=name)
    ctx = mp.get_context("fork")  # the parent's compiled kernels carry over
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_member, args=(run, {**opts, "memory": share}, i, out), daemon=True)
        for i, (_, opts) in enumerate(chosen)
    ]
    for p in procs:
        p.start()
    answers: dict[int, SolveResult] = {}
    try:
        while len(answers) < len(procs):
            try:
                i, r = out.get(timeout=POLL_SECONDS)
            except queue.Empty:
                dead = [i for i, p in enumerate(procs) if p.exitcode not in (None, 0)]
                if any(i not in answers for i in dead):
                    raise RuntimeError(
                        f"portfolio member {chosen[dead[0]][0]} died (exit code "
                        f"{procs[dead[0]].exitcode})"
                    ) from None
                continue
            answers[i] = r
            if r.decided:
                break
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join()
    decided = [i for i, r in answers.items() if r.decided]
    if decided:
        best = decided[0]
    else:
        best = max(answers, key=lambda i: (answers[i].banked, -i))
    return replace(answers[best], threads=len(chosen), member=chosen[best][0])
