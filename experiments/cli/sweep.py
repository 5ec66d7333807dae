"""``canfield sweep``: every (deal, profile) solved or played into a run folder.

Bad input (unknown profile, bad range or budget, damaged part, mismatched
run folder) prints one ``error: ...`` line on stderr and exits with code 2; a
player that fails mid-run, one line and exit code 1.
"""

from __future__ import annotations

import sys

import click

from canfield.experiments.cli.budgets import MEMORY_HELP, NODE_COUNT
from canfield.experiments.cli.errors import run_folder_errors
from canfield.experiments.cli.pool import pool_options
from canfield.experiments.sweep import (
    DEFAULT_PIMC_K,
    DEFAULT_PIMC_NODES,
    PLAYERS,
    RunFolder,
    make_spec,
    run_sweep,
)
from canfield.solver.search import ONE_CORE_STRATEGIES


@click.command("sweep")
@click.option(
    "-p",
    "--profiles",
    multiple=True,
    default=("strict",),
    show_default=True,
    help="Profiles, separated by commas or ';', e.g. strict,hevagames. Repeat -p for "
    'profiles with several overrides: -p "storehouse:passes=2,space=any" -p strict.',
)
@click.option("--deals", required=True, help="Deal range A:B (B excluded), e.g. 0:10000.")
@click.option(
    "--budget",
    default=None,
    help="Wall-clock budget per (deal, profile), e.g. 10s. Default 10s, or none "
    "when --nodes is given.",
)
@click.option(
    "--nodes",
    type=NODE_COUNT,
    default=None,
    help="Node budget per (deal, profile), e.g. 50000 or 200K: deterministic results.",
)
@click.option(
    "--memory",
    default=None,
    help="Transposition-table size per solve (per sample for pimc), "
    f"{MEMORY_HELP} [default: 1GiB, or what the run folder recorded].",
)
@click.option(
    "--prune",
    default=None,
    help="Pruning rules (docs/solver.md): all, none, or names such as P1,E1,E2 [default: all].",
)
@click.option(
    "--probes/--no-probes",
    default=None,
    help="First search only the first 2, then 3 moves of each position [default: probes].",
)
@click.option(
    "--strategy",
    # one process a core: the shared search's several processes are for one deal
    type=click.Choice(ONE_CORE_STRATEGIES),
    default=None,
    help="Search strategy, as in canfield solve [default: dfs].",
)
@click.option(
    "--player",
    default="solver",
    show_default=True,
    type=click.Choice(PLAYERS),
    help="Who plays: the perfect-information solver, or a blind player who sees "
    "only the table (greedy, random, pimc).",
)
@click.option(
    "--pimc-k",
    type=int,
    default=None,
    help=f"pimc: positions sampled per decision [default: {DEFAULT_PIMC_K}].",
)
@click.option(
    "--pimc-nodes",
    type=NODE_COUNT,
    default=None,
    help=f"pimc: node budget per sample, deterministic [default: {DEFAULT_PIMC_NODES}].",
)
@pool_options
@click.option(
    "--batch",
    "batch_size",
    type=int,
    default=8,
    show_default=True,
    help="Deals per task and per part file.",
)
@click.option(
    "--out",
    required=True,
    type=click.Path(file_okay=False),
    help="Run folder, e.g. results/runs/NAME.",
)
@click.option("--repair", is_flag=True, help="Move damaged parts to parts/damaged/ and rerun them.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def sweep_cmd(
    profiles: tuple[str, ...],
    deals: str,
    budget: str | None,
    nodes: int | None,
    memory: str | None,
    prune: str | None,
    probes: bool | None,
    strategy: str | None,
    player: str,
    pimc_k: int | None,
    pimc_nodes: int | None,
    workers: int | None,
    scheduler: str | None,
    batch_size: int,
    out: str,
    repair: bool,
    no_progress: bool,
) -> None:
    """Solve (or play, with --player) every (deal, profile) into a resumable run folder
    of Parquet parts.

    Rerunning the same command resumes: finished rows are skipped. Options left
    out on a resume (--memory, --prune, --probes, --strategy) take the values
    the run folder recorded.
    """
    with run_folder_errors(out, f"{player} failed, finished parts are kept"):
        spec = make_spec(
            profiles,
            deals,
            budget,
            nodes,
            memory,
            player,
            pimc_k,
            pimc_nodes,
            prune,
            probes,
            strategy,
            stored=RunFolder(out).stored_spec(),
        )
        summary = run_sweep(
            out,
            spec,
            workers=workers,
            scheduler=scheduler,
            batch_size=batch_size,
            repair=repair,
            progress=not no_progress,
            say=lambda note: click.echo(note, err=True),
        )
    rate = summary.rows_written / summary.seconds * 60 if summary.seconds > 0 else 0.0
    state = (
        "interrupted" if summary.interrupted else ("complete" if summary.complete else "incomplete")
    )
    click.echo(
        f"{state}: {summary.rows_before + summary.rows_written}/{summary.rows_total} rows in "
        f"{out} ({summary.rows_written} new in {summary.seconds:.1f}s, "
        f"{rate:.0f} rows/min)",
        err=True,
    )
    if summary.interrupted:
        sys.exit(130)
