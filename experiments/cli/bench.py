"""``canfield bench NAME``: the benchmarks of :mod:`canfield.experiments.bench`.

Each command reads and checks its options (and that its result file can be
written) here, then runs the benchmark's own module. Results go to
``results/runs/bench/`` of the current directory (git-ignored in a checkout),
another file with ``--out``, or the committed ``results/bench/`` of the
checkout with ``--publish``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import click

from canfield.engine.deals import MAX_DEAL
from canfield.engine.profiles import parse_profile
from canfield.experiments.bench import (
    engine,
    layers,
    players,
    pruning,
    solver,
    table,
    verify,
    view,
)
from canfield.experiments.cli.budgets import (
    MEMORY_SIZE,
    NODE_COUNT,
    TIME_BUDGET,
    WithUnit,
    budgets,
)
from canfield.experiments.cli.errors import fail
from canfield.experiments.cli.outputs import writable_file, writing
from canfield.experiments.play import player_refusal
from canfield.experiments.sweep import SweepError
from canfield.experiments.sweep.spec import (
    MIN_MEMORY_TEXT,
    parse_deal_list,
    parse_deals,
    split_profiles,
)
from canfield.solver import config
from canfield.solver.search import PRUNING_RULES, search_refusal

#: Where a benchmark writes by default, relative to the current directory.
RUNS_BENCH = Path("results", "runs", "bench")
#: The committed results of a checkout, written only with ``--publish``.
PUBLISHED_BENCH = Path("results", "bench")

#: ``type=`` of an option that is one deal number: the engine deals only
#: 0..2**64-1, and a deal outside that must be refused before any solve runs
#: (``bench table`` solves in a child process, whose error was a traceback).
DEAL = click.IntRange(0, MAX_DEAL - 1)


class Seconds(click.FloatRange):
    """A positive number of seconds, never NaN; infinite only if ``infinite``.

    click's FloatRange lets NaN through (every comparison with NaN is false)
    and has no bound against infinity, which a bench turns into an integer
    count or an endless run.
    """

    def __init__(self, infinite: bool = False, most: float | None = None) -> None:
        super().__init__(min=0, max=most, min_open=True)
        self.infinite = infinite

    def convert(self, value, param, ctx):
        rv = super().convert(value, param, ctx)
        if math.isnan(rv):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if math.isinf(rv) and not self.infinite:
            self.fail(f"{value!r}: the seconds must be finite", param, ctx)
        return rv


class FiniteBudget(WithUnit):
    """:data:`TIME_BUDGET`, but finite.

    A NaN budget (``nans``) stopped no solve, yet was written to the results
    as the budget. An infinite one (no time budget, which ``solve`` allows)
    would make a benchmark that may never end: a full table evicts and the
    search goes on, so only the clock bounds a solve here.
    """

    def convert(self, value, param, ctx):
        rv = super().convert(value, param, ctx)
        if math.isnan(rv):
            self.fail(f"a time budget must be a positive duration, got {value!r}", param, ctx)
        if math.isinf(rv):
            self.fail(
                f"a benchmark's time budget must be finite (e.g. 10m), got {value!r}", param, ctx
            )
        return rv


#: ``type=`` of the benchmarks' ``--budget`` options.
BENCH_BUDGET = FiniteBudget(TIME_BUDGET.name, TIME_BUDGET.kind, TIME_BUDGET.read)


def _deals_fit(start: int, count: int, option: str) -> None:
    """Refuse ``count`` deals from ``start`` that run past the last deal,
    before any of them is played (the error came at the first deal past it)."""
    if start + count > MAX_DEAL:
        fail(f"{option}: {count} deals from {start} run past the last deal, 2**64-1")


def _deal_range(text: str, option: str) -> range:
    """``START:STOP`` (or one deal ``N``) of ``option``; a bad range is one line."""
    try:
        return parse_deals(text)
    except SweepError as exc:
        fail(f"{option}: {exc}")


def _deal_list(text: str, option: str) -> Sequence[int]:
    """A range, or deals and ranges joined by commas (``0:10,35``), of ``option``."""
    try:
        return parse_deal_list(text)
    except SweepError as exc:
        fail(f"{option}: {exc}")


def _profiles(text: str) -> list[str]:
    """Canonical profiles of ``--profiles``, split as the sweep splits them."""
    try:
        return split_profiles(text)
    except SweepError as exc:
        fail(str(exc))


def _playable(profile: str) -> str:
    """The canonical ``--profile`` of a benchmark that plays games, refused in
    one line before any game when the players cannot play it."""
    refusal = player_refusal(profile)
    if refusal is not None:
        fail(f"--profile {profile}: {refusal}")
    return parse_profile(profile).canonical()


def output_options(name: str):
    """The ``--out`` and ``--publish`` options of a benchmark whose file is ``name``."""

    def decorate(fn):
        fn = click.option(
            "--publish",
            is_flag=True,
            help=f"Write results/bench/{name} of the checkout in the current directory.",
        )(fn)
        return click.option(
            "--out",
            metavar="FILE",
            default=None,
            help=f"Result file [default: results/runs/bench/{name}].",
        )(fn)

    return decorate


def result_path(
    out: str | None, publish: bool, name: str, inputs: Sequence[str | Path] = ()
) -> Path:
    """The result file of ``--out``/``--publish``, checked writable before any work.

    ``inputs`` are the run folders the benchmark reads: the result may not
    write over a file in them."""
    if out and publish:
        fail("give --out or --publish, not both")
    if publish:
        if not PUBLISHED_BENCH.is_dir():
            fail("--publish writes to results/bench/ of a checkout: run it from its root")
        path = PUBLISHED_BENCH / name
    else:
        path = Path(out) if out else RUNS_BENCH / name
    return writable_file(path, "--out", inputs)


@click.group("bench")
def bench() -> None:
    """Benchmarks (results go to results/runs/bench/; --publish: results/bench/)."""


@bench.command("engine")
@click.option(
    "--seconds",
    # at most a day: a much larger figure overflows the repetition count
    type=Seconds(most=86_400),
    default=2.0,
    show_default=True,
    help="Rough time per measurement, in seconds.",
)
@output_options("engine.json")
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
    seconds: float,
    out: str | None,
    publish: bool,
    pool_size: int,
    reps: int,
    seed: int,
    no_reference: bool,
) -> None:
    """Positions expanded per second: numba core vs pure Python (strict, hevagames).

    The result file is JSON, or CSV if its name ends in .csv.
    """
    path = result_path(out, publish, "engine.json")
    with writing(path):
        engine.run(
            seconds=seconds,
            out=path,
            pool_size=pool_size,
            seed=seed,
            reps=reps,
            reference=not no_reference,
            echo=click.echo,
        )


@bench.command("solver")
@click.option("--profiles", default="strict,hevagames", show_default=True)
@click.option(
    "--deals",
    default="0:200",
    show_default=True,
    help="A range START:STOP, or deals and ranges joined by commas (6,12,35 or 0:10,35).",
)
@click.option(
    "--budget",
    type=BENCH_BUDGET,
    default="10s",
    show_default=True,
    help="Wall-clock budget per solve, e.g. 10s.",
)
@click.option("--memory", help="Table memory per solve (default 1GiB).")
@output_options("solver.csv")
@click.option(
    "--probes/--no-probes", default=True, show_default=True, help="Narrowed probes first."
)
def solver_cmd(
    profiles: str,
    deals: str,
    budget: float,
    memory: str | None,
    out: str | None,
    publish: bool,
    probes: bool,
) -> None:
    """Solve deals per profile; print decided %, times, states/s."""
    seconds, mem = budgets(budget, memory)
    deal_list = _deal_list(deals, "--deals")
    chosen = _profiles(profiles)
    path = result_path(out, publish, "solver.csv")
    with writing(path):
        solver.run_bench(chosen, deal_list, seconds, mem, path, probes)


@bench.command("table")
@click.option(
    "--profile", default="strict", show_default=True, help="Profile of the capacity solves."
)
@click.option(
    "--deal", type=DEAL, default=35, show_default=True, help="A deal that fills the largest table."
)
@click.option(
    "--sizes",
    default="64MB,512MB,2GB",
    show_default=True,
    help=f"Table memory of each capacity solve, comma-separated; each at least {MIN_MEMORY_TEXT}.",
)
@click.option(
    "--budget",
    type=BENCH_BUDGET,
    default="600s",
    show_default=True,
    help="Time cap of each capacity solve.",
)
@click.option(
    "--rows",
    default=None,
    help="Deals START:STOP of the published main-10k sweep to solve again and compare.",
)
@click.option(
    "--baseline",
    type=click.Path(exists=True, file_okay=False),
    default=None,
    help="Root of another checkout (e.g. a worktree of main) to run the capacity solves on too.",
)
@output_options("table.csv")
def table_cmd(
    profile: str,
    deal: int,
    sizes: str,
    budget: float,
    rows: str | None,
    baseline: str | None,
    out: str | None,
    publish: bool,
) -> None:
    """Transposition table: bytes per stored position at several sizes, same rows as main-10k."""
    size_list = []
    for text in (x.strip() for x in sizes.split(",")):
        if not text:
            continue
        try:
            # a size below the solver's smallest table measured that table
            # instead: MEMORY_SIZE refuses it, as --memory does
            size = MEMORY_SIZE.read(text)
        except (ValueError, OverflowError) as exc:  # OverflowError: infMB
            fail(f"--sizes: {exc}")
        size_list.append(size)
    if not size_list:
        fail("--sizes needs at least one size, e.g. 64MB,512MB")
    prof = parse_profile(profile)
    if prof.layout == "selective":
        # refused here: the capacity solves run in a child process, whose
        # error was a traceback after the other sizes' solves
        fail(
            f"--profile {profile}: a capacity solve takes one position, and a selective "
            "deal is five (one per base pick); measure strict, whose search it shares"
        )
    deal_range = _deal_range(rows, "--rows") if rows else None
    # --rows reads the published sweep of the checkout the code runs from
    published = Path(table.__file__).resolve().parents[2] / table.MAIN_10K
    path = result_path(out, publish, "table.csv", [published] if deal_range else [])
    with writing(path):
        table.bench(
            prof.canonical(),
            deal,
            size_list,
            budget,
            deal_range,
            Path(baseline) if baseline else None,
            path,
            click.echo,
        )


@bench.command("layers")
@click.option("--profile", default="strict", show_default=True, help="A profile with worry=no.")
@click.option(
    "--deals",
    default="0,9,19,6,12,64",
    show_default=True,
    help="A range START:STOP, or deals and ranges joined by commas (0,9,19 or 0:10,35).",
)
@click.option(
    "--budget",
    type=BENCH_BUDGET,
    default="120s",
    show_default=True,
    help="Wall-clock budget per solve.",
)
@click.option(
    "--memory", type=MEMORY_SIZE, default="8GB", show_default=True, help="Memory per solve."
)
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
@output_options("layers.csv")
def layers_cmd(
    profile: str,
    deals: str,
    budget: float,
    memory: int,
    dfs_share: float,
    no_probes: bool,
    out: str | None,
    publish: bool,
) -> None:
    """Depth-first against layered search: the same deals, time and peak memory."""
    if not 0 <= dfs_share < 1:
        fail("--dfs-share must be at least 0 and below 1")
    prof = parse_profile(profile)
    deal_list = _deal_list(deals, "--deals")
    if prof.worry == "yes":
        fail("the layered search needs a profile with worry=no")
    refusal = search_refusal(prof, "layers")
    if refusal is not None:
        fail(f"--profile {profile}: {refusal}")
    path = result_path(out, publish, "layers.csv")
    with writing(path):
        layers.bench(prof.canonical(), deal_list, budget, memory, dfs_share, not no_probes, path)


@bench.command("pruning")
@click.option("--profiles", default="strict,hevagames", show_default=True)
@click.option("--deals", default="0:300", show_default=True, help="Range START:STOP.")
@click.option(
    "--nodes",
    type=NODE_COUNT,
    default=100_000,
    show_default=True,
    help="Node budget per solve, e.g. 100000 or 100K.",
)
@click.option(
    "--memory",
    type=MEMORY_SIZE,
    default="256MiB",
    show_default=True,
    help="Table memory per solver.",
)
@click.option(
    "--off", default="all", show_default=True, help="Rules switched off: all, or e.g. B1."
)
@output_options("pruning.csv")
def pruning_cmd(
    profiles: str,
    deals: str,
    nodes: int,
    memory: int,
    off: str,
    out: str | None,
    publish: bool,
) -> None:
    """Pruning on versus off: the same deals solved twice, differences counted.

    With --off RULES the default file is pruning-RULES.csv (e.g. pruning-b1.csv).
    """
    deal_range = _deal_range(deals, "--deals")
    try:
        dropped = pruning.off_rules(off)
    except ValueError as exc:
        fail(str(exc))
    chosen = _profiles(profiles)
    path = result_path(out, publish, _pruning_name(dropped))
    with writing(path):
        pruning.bench(chosen, deal_range, nodes, memory, off, path)


def _pruning_name(kept: bool | list[str]) -> str:
    """``pruning.csv`` with every rule off, else ``pruning-b1.csv`` and so on."""
    if kept is False:
        return "pruning.csv"
    dropped = [rule for rule in PRUNING_RULES if rule not in kept]
    return f"pruning-{'-'.join(dropped).lower()}.csv"


@bench.command("verify")
@click.option(
    "--run",
    "run",
    default="results/published/main-10k",
    show_default=True,
    type=click.Path(exists=True, file_okay=False),
    help="Run folder whose lost rows are re-proven.",
)
@click.option("--profile", default="strict", show_default=True)
@click.option("--deals", default="0:200", show_default=True, help="Range START:STOP.")
@click.option(
    "--also",
    default="",
    metavar="N,N,...",
    help="More deals to solve and, when lost, re-prove (e.g. the long proofs 6,12).",
)
@click.option(
    "--nodes",
    type=NODE_COUNT,
    default=2_000_000,
    show_default=True,
    help="Node budget of every solve and re-proof, e.g. 2M.",
)
@click.option(
    "--memory",
    type=MEMORY_SIZE,
    default="1GiB",
    show_default=True,
    help="Table memory per solve.",
)
@output_options("verify.csv")
def verify_cmd(
    run: str,
    profile: str,
    deals: str,
    also: str,
    nodes: int,
    memory: int,
    out: str | None,
    publish: bool,
) -> None:
    """Lost verdicts re-proven with each pruning rule off: which rules they need.

    Exits 1 when a re-proof contradicts a loss (docs/solver.md).
    """
    deal_range = _deal_range(deals, "--deals")
    try:
        extra = [int(d) for d in also.split(",") if d.strip()]
    except ValueError:
        raise click.UsageError(f"--also takes deal numbers N,N,..., got {also!r}") from None
    # checked here: a bad deal otherwise stopped the bench after the run's
    # lost deals had been solved again
    for d in extra:
        if not 0 <= d < MAX_DEAL:
            fail(f"--also: deal number must be in 0..2^64-1, got {d}")
    prof = _profiles(profile)
    if len(prof) != 1:
        fail("--profile takes one profile")
    try:
        lost = verify.lost_deals(run, prof[0], deal_range)
    except SweepError as exc:
        fail(str(exc))
    if not lost and not extra:
        # an empty re-proof used to end in a traceback from its summary
        fail(
            f"no deal of {deal_range.start}:{deal_range.stop} is lost under {prof[0]} in "
            f"{run}, and --also names none: nothing to re-prove"
        )
    path = result_path(out, publish, "verify.csv", [run])
    with writing(path):
        _, contradictions = verify.bench(run, prof[0], deal_range, extra, nodes, memory, path)
    if contradictions:
        fail(f"{contradictions} re-proof(s) contradict a loss: see {path}", code=1)


@bench.command("players")
@click.option(
    "-n",
    "--deals",
    "count",
    type=click.IntRange(min=1),
    default=50,
    show_default=True,
    help="Deals.",
)
@click.option("--start", type=DEAL, default=0, show_default=True, help="First deal.")
@click.option("--profile", default="strict", show_default=True)
@click.option(
    "--players",
    "names",
    default="greedy,random,pimc,solver",
    show_default=True,
    help="Comma-separated: greedy, random, pimc, solver.",
)
@click.option(
    # at least one sample, as sweep --pimc-k requires
    "--pimc-k",
    type=click.IntRange(min=1),
    default=4,
    show_default=True,
    help="pimc: samples per decision.",
)
@click.option(
    "--pimc-seconds",
    # inf (no clock) only with --pimc-nodes, which then ends each sample
    type=Seconds(infinite=True),
    default=0.02,
    show_default=True,
    help="pimc: seconds per sample (inf: none, with --pimc-nodes).",
)
@click.option(
    "--pimc-nodes", type=NODE_COUNT, default=None, help="pimc: node budget per sample, e.g. 20K."
)
@click.option(
    "--solver-seconds",
    type=Seconds(),
    default=10.0,
    show_default=True,
    help="Solver budget per deal, in seconds.",
)
@click.option(
    "--stock-unknown",
    is_flag=True,
    help="Hide the stock order until the stock has been emptied once.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@output_options("players.csv")
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
    out: str | None,
    publish: bool,
) -> None:
    """Blind players against the solver on the same deals: win %, banked, time."""
    chosen = [name.strip() for name in names.split(",")]
    unknown = [name for name in chosen if name not in players.NAMES]
    if unknown:
        fail(f"unknown player {unknown[0]!r} ({', '.join(players.NAMES)})")
    if math.isinf(pimc_seconds) and pimc_nodes is None:
        fail("--pimc-seconds inf needs --pimc-nodes: a sample would have no limit")
    _deals_fit(start, count, "--start/-n")
    prof = _playable(profile)
    path = result_path(out, publish, "players.csv")
    with writing(path):
        players.bench(
            chosen,
            range(start, start + count),
            prof,
            seed,
            pimc_k,
            pimc_seconds,
            pimc_nodes,
            solver_seconds,
            not stock_unknown,
            path,
        )


@bench.command("view")
@click.option("--start", type=DEAL, default=0, show_default=True, help="First deal.")
@click.option(
    "--solutions",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Deals solved; the longest solution is viewed.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Greedy games analysed.",
)
@click.option("--profile", default="strict", show_default=True)
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True)
@output_options("view.csv")
def view_cmd(
    start: int,
    solutions: int,
    games: int,
    profile: str,
    repeats: int,
    out: str | None,
    publish: bool,
) -> None:
    """The HTML view of a long solution (size, time to write) and analyze's seconds a game."""
    prof = _playable(profile)
    _deals_fit(start, max(solutions, games), "--start")
    path = result_path(out, publish, "view.csv")
    try:
        with writing(path):
            view.bench(start, solutions, games, prof, repeats, path)
    except ValueError as exc:
        fail(str(exc))
