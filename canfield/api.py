"""The toolkit from Python: deals, positions, solves, sweeps and reports.

Everything here is re-exported by :mod:`canfield`, so a notebook needs only
``import canfield``::

    import canfield

    pos = canfield.deal(5)                       # the dealt position (strict)
    [str(m) for m in pos.legal_moves()]          # moves in the RULES notation
    pos = pos.apply("draw")
    r = canfield.solve(5, budget="2s")           # won, lost or unknown
    r.result, r.banked, r.moves[:3]

    canfield.sweep("runs/demo", profiles=["strict", "hevagames"], deals=range(20), nodes=20_000)
    df = canfield.load_run("runs/demo")          # one row per (deal, profile)
    print(canfield.report("runs/demo").to_text())  # the tables of `canfield report`

Budgets are written as on the command line (``"10s"``, ``"2m"``; ``"256MB"``)
or given as numbers (seconds; bytes). A node budget (``nodes=``) makes a solve
deterministic: the same answer on any machine.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

import pandas as pd

from canfield.engine.position import Position
from canfield.engine.profiles import parse_profile
from canfield.experiments.report import Report, build_report, load_runs
from canfield.experiments.sweep import RunFolder, SweepSummary, make_spec, run_sweep
from canfield.experiments.sweep import load_run as _load_run
from canfield.solver.budgets import unset_seconds
from canfield.solver.search import SolveResult, parse_bytes, parse_seconds, solve_deal
from canfield.solver.search import solve as _solve_position

__all__ = [
    "Position",
    "SolveResult",
    "Report",
    "deal",
    "solve",
    "sweep",
    "load_run",
    "report",
]


def deal(number: int | str | Sequence[int], profile: str = "strict", pick: str | None = None):
    """The dealt position of a deal.

    Parameters
    ----------
    number : int, str or sequence of int
        A deal number (``0 <= number < 2**64``), or the 52 cards top first as
        tokens (``"8S JH 9C ..."``) or card indices.
    profile : str
        A profile string such as ``"strict"`` or ``"strict:draw=1"``.
    pick : str, optional
        ``selective`` only: the base card chosen, e.g. ``"5H"``.

    Returns
    -------
    Position
        Immutable; ``legal_moves()``, ``apply(move)``, ``status()``, ``show()``.
    """
    from canfield.engine.cards import parse_card

    return Position.from_deal(number, profile, pick=parse_card(pick) if pick else None)


def _seconds(budget: str | float | None, nodes: int | None) -> float:
    if budget is None:
        return unset_seconds(nodes)
    return float(budget) if isinstance(budget, int | float) else parse_seconds(budget)


def _bytes(memory: str | int | None) -> int | None:
    if memory is None:
        return None
    return int(memory) if isinstance(memory, int) else parse_bytes(memory)


def solve(
    target: int | str | Position,
    profile: str | None = None,
    budget: str | float | None = None,
    nodes: int | None = None,
    memory: str | int | None = None,
    prune: bool | str = True,
    strategy: str = "dfs",
    probes: bool = True,
) -> SolveResult:
    """Solve a deal or a position with perfect information.

    Parameters
    ----------
    target : int, str or Position
        A deal number, a deal's 52 card tokens, or a position.
    profile : str, optional
        The rule profile (default ``strict``). For a position it must agree
        with the position's own profile.
    budget : str or float, optional
        Wall-clock budget: ``"10s"``, ``"2m"`` or seconds (default: 10 s, or
        none when ``nodes`` is given).
    nodes : int, optional
        Node budget; without ``budget`` the solve is then deterministic.
    memory : str or int, optional
        Transposition-table memory, ``"2GB"`` or bytes (default 1 GiB).
    prune, strategy, probes
        As ``canfield solve --prune/--strategy/--probes`` (``docs/solver.md``).

    Returns
    -------
    SolveResult
        ``result`` is ``"won"`` (``moves`` is a solution, replayed through the
        engine), ``"lost"`` (a proof) or ``"unknown"`` (a budget ran out;
        never a loss). ``banked`` is exact when decided, else a lower bound.
    """
    seconds, mem = _seconds(budget, nodes), _bytes(memory)
    if isinstance(target, Position):
        asked = parse_profile(profile) if profile is not None else target.profile
        if asked != target.profile:
            raise ValueError(
                f"the position is {target.profile.canonical()}, not {asked.canonical()}"
            )
        return _solve_position(target, seconds, nodes, mem, prune, strategy, probes)
    return solve_deal(target, profile, seconds, nodes, mem, prune, strategy, probes)


def sweep(
    out: str | os.PathLike,
    profiles: str | Iterable[str] = "strict",
    deals: str | range = "0:100",
    budget: str | None = None,
    nodes: int | None = None,
    memory: str | None = None,
    workers: int | None = None,
    progress: bool = False,
) -> SweepSummary:
    """Solve every (deal, profile) into a resumable run folder.

    Parameters
    ----------
    out : path-like
        The run folder; calling again with the same arguments resumes it.
    profiles : str or iterable of str
        Profile strings (a list keeps overrides with commas intact).
    deals : str or range
        ``"START:STOP"`` or a ``range`` with step 1.
    budget, nodes, memory
        Per-solve budgets as in :func:`solve` (with neither, 10 s a solve).
    workers : int, optional
        Local processes (default: every core).
    progress : bool
        Show a progress bar.
    """
    if isinstance(deals, range):
        if deals.step != 1:
            raise ValueError("deals must be a range with step 1")
        deals = f"{deals.start}:{deals.stop}"
    names = [profiles] if isinstance(profiles, str) else list(profiles)
    stored = RunFolder(out).stored_spec()  # options left out resume as recorded
    spec = make_spec(names, deals, budget=budget, nodes=nodes, memory=memory, stored=stored)
    return run_sweep(out, spec, workers=workers, progress=progress)


def load_run(path: str | os.PathLike) -> pd.DataFrame:
    """A run folder's rows as a DataFrame, one row per (deal, profile)."""
    return _load_run(path)


def report(*runs: str | os.PathLike) -> Report:
    """The tables of ``canfield report`` for one or more run folders.

    ``.to_text()`` is the text report, ``.write(folder)`` writes it with its
    CSV files; the tables are DataFrames on the returned object (``summary``,
    ``paired``, ``by_base``, ``players``, ``gap``).
    """
    return build_report(load_runs(runs))
