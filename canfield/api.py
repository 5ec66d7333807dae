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

Budgets are written as on the command line, with their unit (``"10s"``,
``"2m"``; ``"256MB"``; ``"20K"`` positions), or given as numbers (seconds;
bytes; positions). A node budget (``nodes=``) makes a solve deterministic:
the same answer on any machine.

Arguments are checked as the command line checks its options, by the same
functions (``canfield.experiments.sweep.spec.read_seconds``, ``read_bytes``,
``read_nodes``; ``experiments.cli.options.pick_refusal``): a bad one raises
ValueError (a bad value) or TypeError (a wrong type) naming the argument and
what it may be, before anything is solved. Profiles, cards and deal numbers
raise the engine's errors, which are ValueErrors too.
"""

from __future__ import annotations

import numbers
import os
import reprlib
from collections.abc import Callable, Iterable, Sequence

import pandas as pd

from canfield.engine.cards import parse_card
from canfield.engine.position import Position
from canfield.engine.profiles import Profile, parse_profile
from canfield.experiments.cli.options import pick_refusal
from canfield.experiments.report import Report, build_report, load_runs
from canfield.experiments.sweep import RunFolder, SweepError, SweepSummary, make_spec, run_sweep
from canfield.experiments.sweep import load_run as _load_run
from canfield.experiments.sweep.spec import (
    parse_deals,
    read_bytes,
    read_nodes,
    read_seconds,
    split_profiles,
)
from canfield.solver.budgets import unset_seconds
from canfield.solver.search import STRATEGIES, SolveResult, prune_mask, solve_deal
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


def _shown(value: object) -> str:
    """``value`` for a message: its type and a short repr."""
    return f"{type(value).__name__} {reprlib.repr(value)}"


def _is_int(value: object) -> bool:
    """An int (numpy's too), not a bool: ``deal(True)`` is a mistake, not deal 1."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_text(value: object) -> bool:
    """Text: a profile string or a pruning rule's name."""
    return isinstance(value, str)


def _listed(value: object, kind: Callable[[object], bool]) -> list | None:
    """``value``'s items as a list when it is a collection (not text) of
    items that pass ``kind``, else None."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        return None
    items = list(value)
    return items if all(kind(item) for item in items) else None


def _deal_arg(number: object, name: str) -> int | str | list[int]:
    """A deal as :meth:`Position.from_deal` reads it, or a TypeError naming ``name``.

    Without this check a float or None ended in ``'float' object is not
    iterable`` from deep in the engine.
    """
    if isinstance(number, str):
        return number
    if _is_int(number):
        return int(number)  # numpy's ints are no ``int`` to the engine
    cards = _listed(number, _is_int)
    if cards is not None:
        return [int(c) for c in cards]
    raise TypeError(
        f"{name} must be a deal number (an int), the deal's cards as text "
        f"('8S JH 9C ...') or a sequence of card indices (ints); not {_shown(number)}"
    )


def _profile(profile: object) -> Profile:
    """The profile of ``profile=`` (text, a Profile or None for strict)."""
    if profile is not None and not isinstance(profile, str | Profile):
        raise TypeError(
            f"profile must be a profile string such as 'strict' or 'hevagames:draw=1'; "
            f"not {_shown(profile)}"
        )
    return parse_profile(profile)


def _prune(prune: object) -> bool | str | list[str]:
    """``prune=`` as the solver reads it: True, False or rule names.

    ``"all"`` and ``"none"`` read as ``canfield solve --prune`` reads them.

    Raises
    ------
    TypeError
        If it is neither a bool, text, nor a sequence of rule names.
    ValueError
        If it names an unknown rule.
    """
    if isinstance(prune, bool):
        return prune
    if isinstance(prune, str):
        rules: bool | str | list[str] = {"all": True, "none": False}.get(
            prune.strip().lower(), prune
        )
    elif (names := _listed(prune, _is_text)) is not None:
        rules = names
    else:
        raise TypeError(
            "prune must be True (every rule), False (none), 'all', 'none' or rule names "
            f"such as 'P1,E1' or ['P1', 'E1'] (docs/solver.md); not {_shown(prune)}"
        )
    try:
        prune_mask(rules)
    except ValueError as exc:
        raise ValueError(f"prune: {exc}") from None
    return rules


def _flag(value: object, name: str) -> bool:
    """A bool argument: any non-empty text is true, so ``probes="no"`` would
    turn the probes on; refuse all but a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {_shown(value)}")
    return value


def deal(
    number: int | str | Sequence[int], profile: str = "strict", pick: str | None = None
) -> Position:
    """The dealt position of a deal.

    Parameters
    ----------
    number : int, str or sequence of int
        A deal number (``0 <= number < 2**64``), or the 52 cards top first as
        tokens (``"8S JH 9C ..."``) or card indices.
    profile : str
        A profile string such as ``"strict"`` or ``"strict:draw=1"``.
    pick : str, optional
        ``selective`` only (it must be given there): the base card chosen, one
        of the five the deal offers, e.g. ``"5H"``.

    Returns
    -------
    Position
        Immutable; ``legal_moves()``, ``apply(move)``, ``status()``, ``show()``.

    Raises
    ------
    TypeError
        If ``number``, ``profile`` or ``pick`` has a wrong type.
    ValueError
        For an unknown profile, a bad deal number or card, a ``pick`` under a
        profile that deals its base card, or a selective deal without one.
    """
    prof = _profile(profile)
    card = None
    if pick is not None:
        if not isinstance(pick, str):
            raise TypeError(f"pick must be a card such as '5H', not {_shown(pick)}")
        card = parse_card(pick)
        # as --pick: a pick the profile has no use for was once ignored unseen
        refusal = pick_refusal(prof, card)
        if refusal is not None:
            raise ValueError(f"pick: {refusal}")
    return Position.from_deal(_deal_arg(number, "number"), prof, pick=card)


def solve(
    target: int | str | Sequence[int] | Position,
    profile: str | None = None,
    budget: str | float | None = None,
    nodes: int | str | None = None,
    memory: str | int | None = None,
    prune: bool | str | Sequence[str] = True,
    strategy: str = "dfs",
    probes: bool = True,
) -> SolveResult:
    """Solve a deal or a position with perfect information.

    Parameters
    ----------
    target : int, str, sequence of int or Position
        A deal number, a deal's 52 card tokens or card indices, or a position.
    profile : str, optional
        The rule profile (default ``strict``). For a position it must agree
        with the position's own profile.
    budget : str or float, optional
        Wall-clock budget: ``"10s"``, ``"500ms"``, ``"2m"`` (text needs its
        unit) or a number of seconds, positive; ``"inf"`` or ``math.inf`` for
        none (default: 10 s, or none when ``nodes`` is given).
    nodes : int or str, optional
        Node budget, a positive whole number: ``20_000``, or text as
        ``--nodes`` reads it (``"20000"``, ``"20K"``, ``"1.5M"``). Without
        ``budget`` the solve is then deterministic.
    memory : str or int, optional
        Transposition-table memory: ``"256MB"``, ``"2GB"`` (text needs its
        unit) or a whole number of bytes; at least 1 MiB (the smallest table
        every search keeps within), at most half of this machine's RAM
        (default 1 GiB).
    prune : bool, str or sequence of str
        As ``canfield solve --prune``: True or ``"all"`` (every rule), False
        or ``"none"``, or rule names (``"P1,E1"`` or ``["P1", "E1"]``;
        ``docs/solver.md``).
    strategy : str
        As ``canfield solve --strategy``: ``"dfs"``, ``"layers"`` or ``"shared"``.
    probes : bool
        As ``canfield solve --probes/--no-probes``; a bool, not text.

    Returns
    -------
    SolveResult
        ``result`` is ``"won"`` (``moves`` is a solution, replayed through the
        engine), ``"lost"`` (a proof) or ``"unknown"`` (a budget ran out;
        never a loss). ``banked`` is exact when decided, else a lower bound.

    Raises
    ------
    TypeError
        If an argument has a wrong type (``nodes=1.5`` is a ValueError).
    ValueError
        For a budget that is not positive (zero, negative, NaN), a memory size
        out of range, an unknown profile, pruning rule or strategy, a bad deal,
        or a ``profile`` that disagrees with the position's.
    """
    count = None if nodes is None else read_nodes(nodes, "nodes")
    seconds = unset_seconds(count) if budget is None else read_seconds(budget, "budget")
    mem = None if memory is None else read_bytes(memory, "memory")
    rules, probing = _prune(prune), _flag(probes, "probes")
    if not isinstance(strategy, str) or strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}; not {_shown(strategy)}")
    if isinstance(target, Position):
        asked = _profile(profile) if profile is not None else target.profile
        if asked != target.profile:
            raise ValueError(
                f"the position is {target.profile.canonical()}, not {asked.canonical()}"
            )
        return _solve_position(target, seconds, count, mem, rules, strategy, probing)
    prof = _profile(profile).canonical()
    return solve_deal(
        _deal_arg(target, "target"), prof, seconds, count, mem, rules, strategy, probing
    )


def _deal_range(deals: object) -> str:
    """``deals=`` of :func:`sweep` as ``"A:B"``, checked.

    Raises
    ------
    TypeError
        If it is not text, an int, a range or a sequence of ints.
    ValueError
        If it names no deal, deals out of ``0..2**64-1``, a range whose step
        is not 1, or a list that is not consecutive: a run folder records one
        range of deals.
    """
    if isinstance(deals, str):
        text = deals
    elif _is_int(deals):
        text = str(int(deals))
    elif isinstance(deals, range):
        if deals.step != 1:
            raise ValueError("deals must be a range with step 1")
        text = f"{deals.start}:{deals.stop}"
    elif (listed := _listed(deals, _is_int)) is not None:
        if not listed:
            raise ValueError("deals names no deal")
        first = int(listed[0])
        if [int(d) for d in listed] != list(range(first, first + len(listed))):
            raise ValueError(
                "deals must be consecutive deal numbers in order (a run folder records one "
                f"range A:B); got {reprlib.repr(listed)}"
            )
        text = f"{first}:{first + len(listed)}"
    else:
        raise TypeError(
            "deals must be 'A:B' (deals A to B-1), a deal number, a range or a list of "
            f"consecutive deal numbers; not {_shown(deals)}"
        )
    try:
        parse_deals(text)
    except SweepError as exc:
        raise ValueError(f"deals: {exc}") from None
    return text


def _profile_names(profiles: object) -> list[str]:
    """``profiles=`` of :func:`sweep` as canonical profile strings, checked."""
    names = [profiles] if isinstance(profiles, str) else _listed(profiles, _is_text)
    if names is None:
        raise TypeError(
            "profiles must be a profile string ('strict,hevagames') or a list of them, "
            f"not {_shown(profiles)}"
        )
    if not any(n.strip() for n in names):
        raise ValueError("profiles names no profile (try 'strict' or ['strict', 'hevagames'])")
    try:
        return split_profiles(names)
    except SweepError as exc:
        raise ValueError(f"profiles: {exc}") from None


def sweep(
    out: str | os.PathLike,
    profiles: str | Iterable[str] = "strict",
    deals: str | int | range | Sequence[int] = "0:100",
    budget: str | float | None = None,
    nodes: int | str | None = None,
    memory: str | int | None = None,
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
    deals : str, int, range or sequence of int
        ``"START:STOP"`` (``STOP`` excluded), one deal number, a ``range``
        with step 1, or a list of consecutive deal numbers.
    budget, nodes, memory
        Per-solve budgets, written and checked as in :func:`solve` (with
        neither ``budget`` nor ``nodes``, 10 s a solve; ``budget="inf"`` is
        none, recorded as None).
    workers : int, optional
        Local processes, at least 1 (default: every core).
    progress : bool
        Show a progress bar.

    Raises
    ------
    TypeError, ValueError
        For a bad argument, as :func:`solve` says, before any folder is made.
    SweepError
        If ``out`` holds a run made with other arguments, or is no run folder.
    """
    names, deal_text = _profile_names(profiles), _deal_range(deals)
    seconds = None if budget is None else read_seconds(budget, "budget")
    count = None if nodes is None else read_nodes(nodes, "nodes")
    mem = None if memory is None else read_bytes(memory, "memory")
    if workers is not None:
        if not _is_int(workers):
            raise TypeError(f"workers must be a whole number or None, not {_shown(workers)}")
        if workers < 1:
            raise ValueError(f"workers must be at least 1 (None: every core), got {workers}")
        workers = int(workers)
    stored = RunFolder(out).stored_spec()  # options left out resume as recorded
    spec = make_spec(names, deal_text, budget=seconds, nodes=count, memory=mem, stored=stored)
    return run_sweep(out, spec, workers=workers, progress=progress)


def load_run(path: str | os.PathLike) -> pd.DataFrame:
    """A run folder's rows as a DataFrame, one row per (deal, profile)."""
    return _load_run(path)


def report(*runs: str | os.PathLike, pool: bool = False) -> Report:
    """The tables of ``canfield report`` for one or more run folders.

    ``.to_text()`` is the text report, ``.write(folder)`` writes it with its
    CSV files; the tables are DataFrames on the returned object (``summary``,
    ``paired``, ``by_base``, ``players``, ``gap``). ``pool=True`` is the
    command's ``--pool``: runs of one profile over different deals count as
    one sample (``docs/statistics.md``, *Pooled runs*).
    """
    return build_report(load_runs(runs, pool))
