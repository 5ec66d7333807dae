"""``canfield bench NAME``: the benchmarks of :mod:`canfield.experiments.bench`.

Each command reads and checks its options here and runs the benchmark's own
module; results go to ``results/bench/``.
"""

from __future__ import annotations

from pathlib import Path

import click
from canfield.engine.profiles import parse_profile
from canfield.experiments.bench import engine, layers, players, pruning, solver
from canfield.experiments.cli.budgets import budgets
from canfield.experiments.cli.errors import fail
from canfield.solver import config
from canfield.solver.search import parse_bytes, parse_seconds


def _deal_range(text: str, option: str) -> range:
    start, _, stop = text.partition(":")
    try:
        return range(int(start), int(stop))
    except ValueError:
        raise click.UsageError(f"{option} takes START:STOP, got {text!r}") from None


def _profiles(text: str) -> list[str]:
    return [parse_profile(p).canonical() for p in text.split(",") if p.strip()]


@click.group("bench")
def bench() -> None:
    """Benchmarks (results go to results/bench/)."""


@bench.command("engine")
@click.option(
    "--seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=2.0,
    show_default=True,
    help="Rough time per measurement.",
)
@click.option(
    "--out",
    metavar="FILE",
    default=None,
    help="Result file, .json or .csv [default: results/bench/engine.json].",
)
@click.option(
    "--pool",
    "pool_size",
    type=click.IntRange(min=1),
    default=300,
    show_default=True,
    help="Positions per profile.",
)
@click.option(
    "--reps",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Repetitions; the median is reported.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the pool.")
@click.option("--no-reference", is_flag=True, help="Do not time tests/reference_rules.py.")
def engine_cmd(
    seconds: float, out: str | None, pool_size: int, reps: int, seed: int, no_reference: bool
) -> None:
    """Positions expanded per second: numba core vs pure Python (strict, hevagames)."""
    engine.run(
        seconds=seconds,
        out=out,
        pool_size=pool_size,
        seed=seed,
        reps=reps,
        reference=not no_reference,
        echo=click.echo,
    )


@bench.command("solver")
@click.option("--profiles", default="strict,hevagames", show_default=True)
@click.option("--deals", default="0:200", show_default=True, help="Range START:STOP.")
@click.option("--budget", default="10s", show_default=True)
@click.option("--memory", help="Table memory per solve (default 1GiB).")
@click.option(
    "--out", default="results/bench/solver.csv", show_default=True, type=click.Path(dir_okay=False)
)
@click.option(
    "--probes/--no-probes", default=True, show_default=True, help="Narrowed probes first."
)
def solver_cmd(
    profiles: str, deals: str, budget: str, memory: str | None, out: str, probes: bool
) -> None:
    """Solve a range of deals per profile; print decided %, times, states/s."""
    seconds, mem = budgets(budget, memory)
    deal_range = _deal_range(deals, "--deals")
    solver.run_bench(_profiles(profiles), deal_range, seconds, mem, Path(out), probes)


@bench.command("layers")
@click.option("--profile", default="strict", show_default=True, help="A profile with worry=no.")
@click.option(
    "--deals",
    default="0,9,19,6,12,64",
    show_default=True,
    help="A range START:STOP or a list such as 0,9,19.",
)
@click.option("--budget", default="120s", show_default=True, help="Wall-clock budget per solve.")
@click.option("--memory", default="8GB", show_default=True, help="Memory per solve.")
@click.option(
    "--dfs-share",
    type=float,
    default=config.LAYER_DFS_SHARE,
    show_default=True,
    help="Share of the budgets the layered strategy spends depth-first first (0: none).",
)
@click.option(
    "--no-probes",
    is_flag=True,
    help="Leave out the narrowed probes (docs/solver.md) in both strategies.",
)
@click.option("--out", default="results/bench/layers.csv", show_default=True)
def layers_cmd(
    profile: str,
    deals: str,
    budget: str,
    memory: str,
    dfs_share: float,
    no_probes: bool,
    out: str,
) -> None:
    """Depth-first against layered search: the same deals, time and peak memory."""
    if not 0 <= dfs_share < 1:
        fail("--dfs-share must be at least 0 and below 1")
    prof = parse_profile(profile)
    try:
        deal_list = layers.parse_deals(deals)
        seconds, mem = parse_seconds(budget), parse_bytes(memory)
    except ValueError as exc:
        fail(str(exc))
    if prof.worry == "yes":
        fail("the layered search needs a profile with worry=no")
    if not deal_list:
        fail("no deals given")
    layers.bench(prof.canonical(), deal_list, seconds, mem, dfs_share, not no_probes, out)


@bench.command("pruning")
@click.option("--profiles", default="strict,hevagames", show_default=True)
@click.option("--deals", default="0:300", show_default=True, help="Range START:STOP.")
@click.option(
    "--nodes", type=int, default=100_000, show_default=True, help="Node budget per solve."
)
@click.option(
    "--memory", type=int, default=1 << 28, show_default=True, help="Table bytes per solver."
)
@click.option(
    "--off", default="all", show_default=True, help="Rules switched off: all, or e.g. B1."
)
@click.option("--out", default="results/bench/pruning.csv", show_default=True)
def pruning_cmd(profiles: str, deals: str, nodes: int, memory: int, off: str, out: str) -> None:
    """Pruning on versus off: the same deals solved twice, differences counted."""
    deal_range = _deal_range(deals, "--deals")
    try:
        pruning.off_rules(off)
    except ValueError as exc:
        fail(str(exc))
    pruning.bench(profiles.split(","), deal_range, nodes, memory, off, out)


@bench.command("players")
@click.option("-n", "--deals", "count", type=int, default=50, show_default=True, help="Deals.")
@click.option("--start", type=int, default=0, show_default=True, help="First deal.")
@click.option("--profile", default="strict", show_default=True)
@click.option(
    "--players",
    "names",
    default="greedy,random,pimc,solver",
    show_default=True,
    help="Comma-separated: greedy, random, pimc, solver.",
)
@click.option(
    "--pimc-k", type=int, default=4, show_default=True, help="pimc: samples per decision."
)
@click.option(
    "--pimc-seconds", type=float, default=0.02, show_default=True, help="pimc: seconds per sample."
)
@click.option("--pimc-nodes", type=int, default=None, help="pimc: node budget per sample.")
@click.option(
    "--solver-seconds", type=float, default=10.0, show_default=True, help="Solver budget per deal."
)
@click.option(
    "--stock-unknown",
    is_flag=True,
    help="Hide the stock order until the stock has been emptied once.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", default="results/bench/players.csv", show_default=True)
def players_cmd(
    count: int,
    start: int,
    profile: str,
    names: str,
    pimc_k: int,
    pimc_seconds: float,
    pimc_nodes: int | None,
    solver_seconds: float,
    stock_unknown: bool,
    seed: int,
    out: str,
) -> None:
    """Blind players against the solver on the same deals: win %, banked, time."""
    chosen = [name.strip() for name in names.split(",")]
    unknown = [name for name in chosen if name not in players.NAMES]
    if unknown:
        fail(f"unknown player {unknown[0]!r} ({', '.join(players.NAMES)})")
    players.bench(
        chosen,
        range(start, start + count),
        profile,
        seed,
        pimc_k,
        pimc_seconds,
        pimc_nodes,
        solver_seconds,
        not stock_unknown,
        out,
    )
