"""Escalation: solve a finished sweep's unknown rows again with bigger budgets.

``canfield escalate RUN --ladder 1M,20M`` solves every row the sweep left
unknown at 1M nodes (rung 1), then every row still unknown at 20M (rung 2);
``--subsample N --seed S --nodes 50M`` then solves a seeded simple random
subsample of N of the rows still unknown after the whole ladder, per profile
(or ``--subsample strict=1720 --subsample hevagames=100``: a size per
profile), with one big budget: the second phase of the estimator of
:mod:`canfield.experiments.estimate`. ``--residue L --seed S --nodes 200M``
then solves a seeded sample of L of the subsample's rows still unknown (its
residue), per profile, with a much bigger budget: the third phase.
``--retry 2G`` solves the rows the last sample left unknown (the residue
sample's, or the subsample's before a residue sample is drawn) again with a
bigger node budget: the sample is the one drawn, so the estimate keeps its
design and only fewer of its rows stay unknown.

``--settle`` makes every later rung first settle, without a search, the rows
a related profile's decided row of the same deal already decides
(:func:`canfield.experiments.relations.settled`): a win under the smaller
profile is a win under the larger, a loss under the larger a loss under the
smaller. Settled rows are attempts of their rung (``stop_reason``
``relation:<profile>``, 0 nodes), so the estimator counts them decided in
phase 1. Settling applies from the first rung not begun when it was first
asked for (recorded in ``escalate.json``), never to the subsample or residue.

The run folder records what was asked in ``escalate.json`` (the rungs with
their budgets and table size, and the subsample: size, seed, budget, table
size and, once drawn, its deals) and every attempt in ``attempts/``
(:mod:`.attempts`); the sweep's own parts are never rewritten. Rerunning the
same command resumes: finished attempts are skipped, a torn attempts part is
set aside and its attempts made again. Rungs may be added to a ladder until a
subsample is drawn: the subsample's stratum is "unknown after every rung", so a
later rung would change it, and is refused.

Node budgets make every attempt, hence every loaded row, the same on any
machine and any number of workers; a time rung (``10s``) is allowed but is not
reproducible.

Each phase (the ladder, the subsample, the residue sample) gets its attempts
from one toolkit version, the one that began it (recorded in
``escalate.json``): a resume or a new rung under another version is refused,
while a phase not begun yet may be begun by a newer one, which it records (as
the sweep records its own).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from canfield.engine.profiles import parse_profile
from canfield.experiments.sweep.attempts import AttemptStore
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.escalation_settle import settle_rows
from canfield.experiments.sweep.escalation_spec import (
    ESCALATE_JSON,
    Budget,
    EscalationSpec,
    Subsample,
    check_same_version,
    merged_spec,
    nodes_text,
    parse_ladder,
    parse_nodes,
    read_escalation,
    write_escalation,
)
from canfield.experiments.sweep.progress import ResultTally, SweepProgress
from canfield.experiments.sweep.rows import run_batch, warm_up_for
from canfield.experiments.sweep.runner import (
    batch_beam,
    batch_packs,
    check_run_args,
    chunk_batches,
    connect_dask,
    execute,
    needs_compile,
)
from canfield.experiments.sweep.spec import (
    DEFAULT_SWEEP_MEMORY,
    parse_budget,
    parse_memory,
    parse_solver_options,
    with_turn,
)
from canfield.experiments.sweep.store import RunFolder
from canfield.solver.beam_run import beam_profile
from canfield.solver.search import search_refusal


def attempt_batch(profile: str, deals: Sequence[int], *args) -> list[dict]:
    """:func:`.rows.run_batch` (same arguments), recording each solve's CPU
    time in ``cpu_seconds``: the escalation's unit of work.

    Raises
    ------
    SolveFailed
        If the solver raised on a deal (named in the message).
    """
    # once, before the first solve's clock starts
    prof = parse_profile(profile)
    warm_up_for(args[3], args[5], (prof.packs,), beam_profile(prof))
    rows = []
    for deal in deals:
        cpu0 = time.process_time()
        rows += run_batch(profile, (deal,), *args)
        rows[-1]["cpu_seconds"] = time.process_time() - cpu0
    return rows


@dataclass
class Stage:
    """What one rung (or the subsample) did in one call."""

    label: str
    rows: int
    done_before: int
    written: int = 0
    #: rows of ``written`` settled from a related profile's row: solves saved
    settled: int = 0


@dataclass
class EscalationSummary:
    """What one call of :func:`run_escalation` did."""

    stages: list[Stage] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False
    set_aside: list[Path] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.interrupted and all(
            s.done_before + s.written >= s.rows for s in self.stages
        )


def run_escalation(
    run: str | os.PathLike,
    ladder: str | None = None,
    subsample: tuple[int | dict[str, int], int] | None = None,
    sub_nodes: str | None = None,
    sub_budget: str | None = None,
    memory: str | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    batch_size: int = 4,
    progress: bool = True,
    say: Callable[[str], None] | None = None,
    residue: tuple[int, int] | None = None,
    settle: bool = False,
    retry: str | None = None,
    turn: int = 0,
) -> EscalationSummary:
    """Run (or resume) the escalation of the sweep in ``run`` (see the module doc).

    Every argument is checked before anything is written.

    Parameters
    ----------
    run : path-like
        A finished sweep's run folder (solver rows).
    ladder : str, optional
        Rungs, e.g. ``'1M,20M'`` (node budgets, K/M suffixes) or ``'10s'``.
    subsample : (int or dict, int), optional
        Rows per profile (one number, or ``{profile: rows}``: a profile not
        named draws none) and seed of the second phase.
    sub_nodes, sub_budget : str, optional
        The budget of the subsample (or of the residue sample): nodes
        (``'50M'``) or a time (``'120s'``), one of them.
    memory : str, optional
        Table size of this call's new rungs and subsample (default: the
        solver's default, or what ``escalate.json`` recorded).
    workers, scheduler, batch_size, progress, say
        As for :func:`.runner.run_sweep`.
    residue : (int or dict, int), optional
        Rows per profile (as ``subsample``) and seed of the third phase, drawn from the finished
        subsample's rows still unknown; not together with ``subsample``.
    settle : bool
        Settle rows from related profiles' rows from the first rung not yet
        begun on (recorded: later calls keep settling).
    retry : str, optional
        A node budget (``'2G'``): solve the rows the last sample left unknown
        again with it (a table of ``memory``, or the sample's own), after
        every recorded stage; not together with ``subsample`` or ``residue``.
    turn : int
        With ``retry``: the depth-first search's turned order (0-255 256ths of
        every move list, ``Solver(turn=...)``; 0 the usual order). A retry in
        an order not yet tried may spend any budget.

    Raises
    ------
    SweepError
        On bad arguments, a folder that is not a finished solver sweep, a
        contradiction with ``escalate.json``, or an unreachable scheduler.
    SolveFailed
        If a solve crashed; the attempts finished before it are kept.
    """
    check_run_args(batch_size, workers, scheduler)
    folder = RunFolder(run)
    if not folder.path.is_dir():
        what = "a file" if folder.path.exists() else "missing"
        raise SweepError(f"{folder.path} is not a run folder: it is {what}")
    sweep = folder.read_spec()
    if sweep.player != "solver":
        raise SweepError(
            f"{folder.path} holds games of the {sweep.player} player: escalate re-solves a "
            "solver sweep's unknown rows"
        )
    stored = read_escalation(run)
    memory_bytes = parse_memory(memory) if memory is not None else None
    default_memory = memory_bytes if memory_bytes is not None else DEFAULT_SWEEP_MEMORY
    if ladder is not None:
        rungs = parse_ladder(ladder, default_memory)
        if stored is not None:
            # --memory is the table of this call's new rungs: recorded ones keep theirs
            old = stored.ladder
            rungs = [
                replace(r, memory=old[i].memory) if i < len(old) else r for i, r in enumerate(rungs)
            ]
    else:
        rungs = []
    if subsample is not None and residue is not None:
        raise SweepError(
            "--subsample and --residue share --seed and --nodes: give one per call "
            "(the residue sample after the subsample is finished)"
        )
    if retry is not None and (subsample is not None or residue is not None):
        raise SweepError(
            "--retry solves a finished sample's rows still unknown again: give it in a call "
            "of its own, after the sample is solved"
        )
    if subsample is None and residue is None and (sub_nodes or sub_budget) is not None:
        raise SweepError("--nodes and --budget are the budget of --subsample or --residue")
    if turn and retry is None:
        raise SweepError("--turn is the order of a --retry: give it with --retry")
    if not 0 <= turn < 256:
        raise SweepError(f"--turn {turn}: a number of 256ths of a move list, 0-255")
    if turn and parse_solver_options(sweep.solver_options)["strategy"] != "dfs":
        raise SweepError("--turn turns the depth-first search: this sweep used another strategy")
    for name in _retried_profiles(stored) if turn else ():
        # refused here, not by the first solve's crash after the compile and a rung of work
        refusal = search_refusal(parse_profile(name), "dfs", turn)
        if refusal is not None:
            raise SweepError(f"--turn: {refusal}")
    retry_arg = None if retry is None else (parse_nodes(retry), memory_bytes, turn)
    old_sub = stored.subsample if stored is not None else None
    sub = _subsample_arg(subsample, sub_nodes, sub_budget, memory_bytes, old_sub, "--subsample")
    old_res = stored.residue if stored is not None else None
    res = _subsample_arg(residue, sub_nodes, sub_budget, memory_bytes, old_res, "--residue")
    if not rungs and sub is None and res is None and retry is None:
        raise SweepError("nothing to do: give --ladder, --subsample, --residue or --retry")
    sub, res = (_named_sizes(s, sweep.profiles) for s in (sub, res))
    sweep_budget = Budget(sweep.budget_nodes, sweep.budget_seconds, sweep.memory)
    spec = merged_spec(stored, rungs, sub, sweep_budget, res, retry_arg)
    rows = folder.load()
    expected = len(sweep.profiles) * len(sweep.deals)
    if len(rows) < expected:
        raise SweepError(
            f"the sweep in {folder.path} is unfinished ({len(rows)} of {expected} rows): "
            "finish it first (the unknown rows of the whole range form the stratum)"
        )
    client = connect_dask(scheduler) if scheduler else None
    try:
        folder.lock()
        try:
            return _run(
                folder,
                spec,
                rows,
                sweep.solver_options,
                workers,
                client,
                batch_size,
                progress,
                say,
                settle,
            )
        finally:
            folder.unlock()
    finally:
        if client is not None:
            client.close()


def _retried_profiles(stored: EscalationSpec | None) -> list[str]:
    """The profiles a ``--retry`` would solve: those of the last sample drawn
    (the residue's, else the subsample's); none when no sample is drawn (the
    retry is refused later, with its own message)."""
    if stored is None:
        return []
    sample = stored.residue if stored.residue is not None else stored.subsample
    if sample is None or sample.deals is None:
        return []
    return list(sample.deals)


def _named_sizes(sample: Subsample | None, profiles: Sequence[str]) -> Subsample | None:
    """``sample`` with each named size keyed by the run's own name of its
    profile (``strict`` and ``strict:draw=3`` name one profile).

    Raises
    ------
    SweepError
        If a name is not a profile, or not one of the run's.
    """
    if sample is None or isinstance(sample.size, int):
        return sample
    canonical = {parse_profile(p).canonical(): p for p in profiles}
    sizes = {}
    for name, size in sample.size.items():
        try:
            ours = canonical.get(parse_profile(name).canonical())
        except ValueError as exc:
            raise SweepError(f"sample size for {name!r}: {exc}") from None
        if ours is None:
            raise SweepError(
                f"sample size for {name!r}: the run's profiles are {', '.join(profiles)}"
            )
        if ours in sizes:
            raise SweepError(f"the sample size of {ours!r} is given twice")
        sizes[ours] = size
    return replace(sample, size=sizes)


def _subsample_arg(
    subsample: tuple[int | dict[str, int], int] | None,
    sub_nodes: str | None,
    sub_budget: str | None,
    memory: int | None,
    old: Subsample | None,
    option: str,
) -> Subsample | None:
    """The subsample (``option`` ``--subsample``) or residue sample (``--residue``) asked for."""
    if subsample is None:
        return None
    size, seed = subsample
    sizes = size.values() if isinstance(size, dict) else (size,)
    if not sizes or min(sizes) <= 0:
        raise SweepError(f"{option} must be positive, got {size}")
    if seed < 0:
        raise SweepError(f"--seed must be 0 or more, got {seed}")
    if (sub_nodes is None) == (sub_budget is None):
        raise SweepError(f"{option} needs one budget: --nodes (e.g. 50M) or --budget (e.g. 120s)")
    if old is not None:
        memory = old.budget.memory  # a recorded subsample keeps its table
    elif memory is None:
        memory = DEFAULT_SWEEP_MEMORY
    budget = (
        Budget(parse_nodes(sub_nodes), None, memory)
        if sub_nodes is not None
        else Budget(None, parse_budget(sub_budget), memory)
    )
    return Subsample(size, seed, budget)


def _run(
    folder: RunFolder,
    spec: EscalationSpec,
    rows: pd.DataFrame,
    solver_options: str,
    workers: int | None,
    client,
    batch_size: int,
    progress: bool,
    say: Callable[[str], None] | None,
    settle: bool = False,
) -> EscalationSummary:
    """:func:`run_escalation` once the folder is locked."""
    t0 = time.perf_counter()
    store = AttemptStore(folder.path)
    store.clear_temporary()
    summary = EscalationSummary(set_aside=store.set_aside_damaged())
    if say is not None:
        for path in summary.set_aside:
            say(f"note: set aside the torn attempts part {path}; its attempts are made again")
    attempts = store.load()
    _check_versions(spec, rows, attempts)
    if spec.residue is not None and spec.residue.deals is None:
        _check_subsample_finished(spec, attempts)
    if settle and spec.settle_from is None:
        begun = set(attempts.loc[attempts["phase"] == "ladder", "rung"].astype(int))
        first = next(k for k in range(1, len(spec.ladder) + 2) if k not in begun)
        spec = replace(spec, settle_from=first)
    write_escalation(folder.path, spec)
    profiles = list(dict.fromkeys(rows["profile"]))
    local_workers = workers or os.cpu_count() or 1
    part_index = store.next_part_index()
    compiled = False

    def stage(
        label: str,
        phase: str,
        rung: int,
        budget: Budget,
        todo: dict[str, list[int]],
        settling: bool = False,
        options: str = solver_options,
    ):
        nonlocal part_index, attempts, compiled
        made = attempts[(attempts["phase"] == phase) & (attempts["rung"] == rung)]
        done = _keys(made)
        left = {p: [d for d in todo.get(p, []) if (d, p) not in done] for p in profiles}
        total = sum(len(v) for v in todo.values())
        record = Stage(label, total, total - sum(len(v) for v in left.values()))
        summary.stages.append(record)
        if settling and any(left.values()):
            found = settle_rows(rows, attempts, left, rung)
            if found:
                store.write_part(part_index, found)
                part_index += 1
                record.written += len(found)
                record.settled = len(found)
                attempts = pd.concat([attempts, pd.DataFrame(found)], ignore_index=True)
                gone = {(r["deal"], r["profile"]) for r in found}
                left = {p: [d for d in v if (d, p) not in gone] for p, v in left.items()}
        batches = chunk_batches(left, batch_size)
        if not batches:
            return
        tally = ResultTally(profiles, made[made["profile"].isin(profiles)])
        bar = SweepProgress(total, record.done_before, label, tally) if progress else None
        new: list[dict] = []

        def finished(batch_rows: list[dict]) -> None:
            nonlocal part_index
            for row in batch_rows:
                row["phase"], row["rung"] = phase, rung
            store.write_part(part_index, batch_rows)
            part_index += 1
            record.written += len(batch_rows)
            new.extend(batch_rows)
            tally.add(batch_rows)
            if bar is not None:
                bar.add(batch_rows)

        args = (budget.seconds, budget.nodes, budget.memory, "solver", "", options)
        compile_here = (
            not compiled
            and client is None
            and needs_compile("solver", options, say, batch_packs(batches), batch_beam(batches))
        )
        compiled = True
        try:
            execute(batches, args, finished, local_workers, client, attempt_batch, compile_here)
        finally:
            if bar is not None:
                bar.close()
            if new:
                attempts = pd.concat([attempts, pd.DataFrame(new)], ignore_index=True)

    def retries(sample: Subsample, phase: str, name: str) -> None:
        for k, again in enumerate(sample.retries, start=1):
            todo = still_unknown(attempts, phase, sample.deals or {}, k)
            turned = f", turn {again.turn}" if again.turn else ""
            label = f"escalate {name} retry {k} ({again.budget.text()}{turned})"
            options = with_turn(solver_options, again.turn)
            stage(label, phase, k, again.budget, todo, options=options)

    try:
        for k, rung in enumerate(spec.ladder, start=1):
            unknown = _unknown_after(rows, attempts, k - 1)
            settling = spec.settle_from is not None and k >= spec.settle_from
            label = f"escalate rung {k} ({rung.text()})"
            stage(label, "ladder", k, rung, unknown, settling)
        sub = spec.subsample
        if sub is not None:
            if sub.deals is None:
                hard = _unknown_after(rows, attempts, len(spec.ladder))
                sub = replace(sub, deals=draw_subsample(hard, sub.size, sub.seed))
                spec = replace(spec, subsample=sub)
                write_escalation(folder.path, spec)
            label = f"escalate subsample ({sub.budget.text()})"
            stage(label, "subsample", 0, sub.budget, sub.deals)
            retries(sub, "subsample", "subsample")
        res = spec.residue
        if res is not None:
            if res.deals is None:
                res = replace(res, deals=draw_subsample(_residue_of(attempts), res.size, res.seed))
                spec = replace(spec, residue=res)
                write_escalation(folder.path, spec)
            stage(
                f"escalate residue sample ({res.budget.text()})",
                "residue",
                0,
                res.budget,
                res.deals,
            )
            retries(res, "residue", "residue sample")
    except KeyboardInterrupt:
        summary.interrupted = True
    summary.seconds = time.perf_counter() - t0
    return summary


def _unknown_after(rows: pd.DataFrame, attempts: pd.DataFrame, rungs: int) -> dict[str, list[int]]:
    """Profile -> the deals (ascending) still unknown after the sweep and the
    first ``rungs`` rungs of the ladder."""
    ladder = attempts[(attempts["phase"] == "ladder") & (attempts["rung"] <= rungs)]
    solved = _keys(ladder[ladder["result"] != "unknown"])
    out: dict[str, list[int]] = {}
    unknown = rows[rows["result"] == "unknown"]
    for deal, prof in zip(
        unknown["deal"].astype("int64").tolist(), unknown["profile"], strict=True
    ):
        if (deal, prof) not in solved:
            out.setdefault(prof, []).append(deal)
    return {p: sorted(d) for p, d in out.items()}


@dataclass(frozen=True)
class StagePlan:
    """One stage of an escalation: a rung of the ladder, or a sample's solve
    (rung 0) or retry (rung k), with the rows it is to try.

    ``todo`` is None for a sample recorded in ``escalate.json`` and not drawn
    yet (its rows are not known).
    """

    label: str
    phase: str
    rung: int
    budget: Budget
    version: str
    todo: dict[str, list[int]] | None

    def tried(self, attempts: pd.DataFrame) -> set[tuple[int, str]]:
        """The rows of ``todo`` that have an attempt of this stage."""
        made = attempts[(attempts["phase"] == self.phase) & (attempts["rung"] == self.rung)]
        want = {(d, p) for p, deals in (self.todo or {}).items() for d in deals}
        return _keys(made) & want

    def size(self) -> int:
        """How many rows the stage is to try (0 while not drawn)."""
        return sum(len(deals) for deals in (self.todo or {}).values())


def stage_plans(
    spec: EscalationSpec, rows: pd.DataFrame, attempts: pd.DataFrame
) -> list[StagePlan]:
    """Every stage ``spec`` asks for, in the order they are run, with the rows
    each is to try given the ``attempts`` made so far: rung ``k`` the rows
    still unknown after the sweep and rungs below it, a sample its drawn
    deals, retry ``k`` those no earlier solve of the sample decided. Both an
    escalation (which resumes what is untried) and a report (which says what
    is) read the stages from here."""
    out = [
        StagePlan(
            f"rung {k}", "ladder", k, budget, spec.version, _unknown_after(rows, attempts, k - 1)
        )
        for k, budget in enumerate(spec.ladder, start=1)
    ]
    for label, phase, sample in (
        ("subsample", "subsample", spec.subsample),
        ("residue sample", "residue", spec.residue),
    ):
        if sample is None:
            continue
        out.append(StagePlan(label, phase, 0, sample.budget, sample.version, sample.deals))
        if sample.deals is None:
            continue
        for k, again in enumerate(sample.retries, start=1):
            todo = still_unknown(attempts, phase, sample.deals, k)
            out.append(StagePlan(f"{label} retry {k}", phase, k, again.budget, again.version, todo))
    return out


def _check_versions(spec: EscalationSpec, rows: pd.DataFrame, attempts: pd.DataFrame) -> None:
    """Refuse, before anything is written, to add attempts to a phase that
    another toolkit version began (``escalate.json``) or whose attempts
    another version made: a finished phase may be followed by a new one
    under a newer version, an unfinished one is resumed by its own.

    Raises
    ------
    SweepError
        Naming the phase and the version that must resume it.
    """
    for stage in stage_plans(spec, rows, attempts):
        if stage.todo is None:
            check_same_version(stage.version, f"its {stage.label}, in {ESCALATE_JSON}")
            continue
        if len(stage.tried(attempts)) == stage.size():
            continue
        check_same_version(stage.version, f"its {stage.label}, in {ESCALATE_JSON}")
        # the ladder is one phase; a sample's first solve and each retry, one each
        phase_rows = attempts[attempts["phase"] == stage.phase]
        if stage.phase != "ladder":
            phase_rows = phase_rows[phase_rows["rung"] == stage.rung]
        for made_by in sorted(set(phase_rows["version"].astype(str))):
            check_same_version(made_by, f"its {stage.label}, in its attempts")


def _check_subsample_finished(spec: EscalationSpec, attempts: pd.DataFrame) -> None:
    """Refuse to draw the residue sample before every subsample row is solved.

    Raises
    ------
    SweepError
        If the subsample was never drawn or is unfinished.
    """
    sub = spec.subsample
    if sub is None or sub.deals is None:
        raise SweepError(
            "--residue samples the subsample's rows still unknown: the subsample is not drawn "
            "yet (run --subsample first)"
        )
    made = attempts[attempts["phase"] == "subsample"]
    done = _keys(made)
    drawn = sum(len(v) for v in sub.deals.values())
    solved = sum((d, p) in done for p, v in sub.deals.items() for d in v)
    if solved < drawn:
        raise SweepError(
            f"the subsample is unfinished ({solved} of {drawn} rows solved): resume it with "
            "the same --subsample, --seed and budget first"
        )
    for k, again in enumerate(sub.retries, start=1):
        if _untried(made[made["rung"] == k], still_unknown(attempts, "subsample", sub.deals, k)):
            raise SweepError(
                f"the subsample's retry {k} ({again.budget.text()}) is unfinished: resume it "
                f"with --retry {nodes_text(again.budget.nodes)} first"
            )


def _residue_of(attempts: pd.DataFrame) -> dict[str, list[int]]:
    """Profile -> the subsample's deals still unknown after their solve and
    every retry (ascending)."""
    made = attempts[attempts["phase"] == "subsample"]
    drawn: dict[str, list[int]] = {}
    for deal, prof in zip(made["deal"].astype("int64").tolist(), made["profile"], strict=True):
        drawn.setdefault(prof, []).append(deal)
    return still_unknown(attempts, "subsample", drawn, None)


def still_unknown(
    attempts: pd.DataFrame, phase: str, deals: dict[str, list[int]], before: int | None
) -> dict[str, list[int]]:
    """Profile -> those of ``deals`` (ascending, each once) that no attempt of
    ``phase`` with a rung below ``before`` (every rung: None) decided."""
    made = attempts[attempts["phase"] == phase]
    if before is not None:
        made = made[made["rung"] < before]
    solved = _keys(made[made["result"] != "unknown"])
    out = {p: sorted({d for d in v if (d, p) not in solved}) for p, v in deals.items()}
    return {p: v for p, v in out.items() if v}


def _keys(frame: pd.DataFrame) -> set[tuple[int, str]]:
    """The (deal, profile) pairs of ``frame``'s rows."""
    return set(zip(frame["deal"].astype("int64").tolist(), frame["profile"], strict=True))


def _untried(made: pd.DataFrame, todo: dict[str, list[int]]) -> bool:
    """Whether some row of ``todo`` has no attempt in ``made``."""
    done = _keys(made)
    return any((d, p) not in done for p, deals in todo.items() for d in deals)


def draw_subsample(
    hard: dict[str, list[int]], size: int | dict[str, int], seed: int
) -> dict[str, list[int]]:
    """A simple random subsample of ``size`` deals (all when fewer) of each
    profile's ``hard`` deals: ``numpy.random.default_rng(seed).choice`` over the
    deals in ascending order, a fresh generator per profile, returned sorted.
    ``size`` may be one per profile (``{profile: size}``; a profile not named
    draws none)."""
    out = {}
    for prof, deals in hard.items():
        ordered = np.array(sorted(deals), dtype=np.int64)
        want = size if isinstance(size, int) else size.get(prof, 0)
        take = min(want, len(ordered))
        picked = np.random.default_rng(seed).choice(len(ordered), size=take, replace=False)
        out[prof] = sorted(int(d) for d in ordered[picked])
    return out


__all__ = [
    "EscalationSummary",
    "Stage",
    "StagePlan",
    "attempt_batch",
    "draw_subsample",
    "run_escalation",
    "stage_plans",
    "still_unknown",
]
