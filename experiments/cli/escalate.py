"""``canfield escalate``: solve a sweep's unknown rows again, rung by rung, a
seeded subsample of what stays unknown, and a seeded sample of the subsample's
residue (:mod:`canfield.experiments.sweep.escalation`).

Bad input (not a run folder, a player's run, bad ladder text, a rung not
larger than the one before, a contradiction with the recorded escalation)
prints one ``error: ...`` line on stderr and exits with code 2; a solve that
crashes, one line and exit code 1.
"""

from __future__ import annotations

import sys

import click

from canfield.experiments.cli.budgets import MEMORY_HELP
from canfield.experiments.cli.errors import fail, run_folder_errors
from canfield.experiments.cli.pool import pool_options


@click.command("escalate")
@click.argument("run", type=click.Path(file_okay=True))
@click.option(
    "--ladder",
    default=None,
    help="Node budgets (K/M suffixes) of the rungs, e.g. 1M,20M: rung 1 solves every row "
    "the sweep left unknown, rung 2 every row still unknown, and so on. A time rung "
    "such as 10s is allowed but not reproducible.",
)
@click.option(
    "--subsample",
    multiple=True,
    metavar="N|PROFILE=N",
    help="Then solve this many rows per profile, drawn at random from the rows still "
    "unknown after the ladder (needs --seed and --nodes or --budget). Repeat it as "
    "PROFILE=N for a size per profile (--subsample strict=1720 --subsample "
    "hevagames=100); a profile not named is not subsampled.",
)
@click.option(
    "--residue",
    multiple=True,
    metavar="N|PROFILE=N",
    help="The third phase: solve this many rows per profile (or PROFILE=N, as for "
    "--subsample), drawn at random from the finished subsample's rows still unknown "
    "(needs --seed and --nodes or --budget; not together with --subsample).",
)
@click.option(
    "--retry",
    default=None,
    metavar="NODES",
    help="Solve the rows the last sample left unknown (the residue sample's, or the "
    "subsample's before a residue sample is drawn) again with this node budget, e.g. 2G, "
    "larger than this toolkit version's last on it (any budget in a new --turn or with a "
    "version that has not solved the sample), with a table of --memory (default: the "
    "sample's). The sample stays the one drawn, so the estimate keeps its design. In a call "
    "of its own; repeat it to resume.",
)
@click.option(
    "--turn",
    type=click.IntRange(0, 255),
    default=0,
    help="With --retry: search in another order, every move list below the root turned by "
    "TURN 256ths of its length (as 'canfield solve --turn'; as exact). A retry in an "
    "order not yet tried may spend any budget.",
)
@click.option("--seed", type=int, default=None, help="Seed of the subsample's (or residue's) draw.")
@click.option("--nodes", default=None, help="Node budget of the subsample (or residue), e.g. 50M.")
@click.option(
    "--budget", default=None, help="Wall-clock budget of the subsample (or residue), e.g. 120s."
)
@click.option(
    "--settle",
    is_flag=True,
    help="Before each rung not yet begun, settle without a search the rows a related "
    "profile's decided row of the same deal decides (docs/relations.md); recorded, so "
    "later calls keep settling.",
)
@click.option(
    "--memory",
    default=None,
    help="Transposition-table size per solve of this call's new rungs and subsample, "
    f"{MEMORY_HELP} [default: 1GiB, or what the run folder recorded].",
)
@pool_options
@click.option(
    "--batch",
    "batch_size",
    type=int,
    default=4,
    show_default=True,
    help="Rows per task and per attempts part.",
)
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def escalate_cmd(
    run: str,
    ladder: str | None,
    subsample: tuple[str, ...],
    residue: tuple[str, ...],
    retry: str | None,
    turn: int,
    seed: int | None,
    nodes: str | None,
    budget: str | None,
    settle: bool,
    memory: str | None,
    workers: int | None,
    scheduler: str | None,
    batch_size: int,
    no_progress: bool,
) -> None:
    """Solve a sweep's unknown rows again with a ladder of bigger budgets, then
    a seeded subsample of what stays unknown, then (--residue) a seeded sample
    of what the subsample leaves unknown; --retry solves what the last sample
    left unknown again with a bigger budget.

    Every attempt is kept in RUN/attempts/; rerunning the same command resumes.
    With --settle, rows a related profile's row already decides are settled
    without a search (counted: solves saved). `canfield report RUN` then shows
    what each rung decided and, with a subsample, the estimated true win share
    with its 95% interval (docs/statistics.md).
    """
    # the solver's modules load numba: only once the command runs
    from canfield.experiments.sweep.escalation import run_escalation
    from canfield.experiments.sweep.escalation_spec import parse_sizes

    for option, size in (("--subsample", subsample), ("--residue", residue)):
        if size and seed is None:
            fail(f"{option} needs --seed (the draw must be reproducible)")
    if not subsample and not residue and seed is not None:
        fail("--seed is the seed of --subsample or --residue")
    with run_folder_errors(run, "solver failed, finished attempts are kept"):
        sub_sizes = parse_sizes(subsample) if subsample else None
        res_sizes = parse_sizes(residue) if residue else None
        summary = run_escalation(
            run,
            ladder=ladder,
            subsample=None if sub_sizes is None else (sub_sizes, seed),
            sub_nodes=nodes,
            sub_budget=budget,
            memory=memory,
            workers=workers,
            scheduler=scheduler,
            batch_size=batch_size,
            progress=not no_progress,
            say=lambda note: click.echo(note, err=True),
            residue=None if res_sizes is None else (res_sizes, seed),
            settle=settle,
            retry=retry,
            turn=turn,
        )
    for stage in summary.stages:
        saved = f", {stage.settled} settled by a related row: solves saved" if stage.settled else ""
        click.echo(
            f"{stage.label}: {stage.done_before + stage.written}/{stage.rows} rows "
            f"({stage.written} new{saved})",
            err=True,
        )
    state = "interrupted" if summary.interrupted else "complete"
    click.echo(f"{state}: {run} ({summary.seconds:.1f}s)", err=True)
    if summary.interrupted:
        sys.exit(130)
