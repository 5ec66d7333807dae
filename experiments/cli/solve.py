"""``canfield solve``: deals or positions solved with perfect information."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import click

from canfield.engine.numba_cache import COMPILING_NOTE
from canfield.engine.position import Position
from canfield.engine.profiles import Profile, parse_profile
from canfield.experiments.cli.budgets import NODE_COUNT, budget_option, memory_option
from canfield.experiments.cli.errors import fail, user_errors
from canfield.experiments.cli.header import header_line
from canfield.experiments.cli.options import PROFILE_HELP, check_pick, parse_pick
from canfield.experiments.cli.outputs import json_line, writable_file, writing
from canfield.experiments.cli.sources import Source, cards_source, read_list
from canfield.solver.beam_run import beam_profile
from canfield.solver.budgets import unset_seconds
from canfield.solver.portfolio import cores, members, solve_portfolio
from canfield.solver.search import (
    STRATEGIES,
    SolveResult,
    is_compiled,
    prune_mask,
    search_refusal,
    solve,
    solve_deal,
    warm_up,
)
from canfield.solver.verify import ALL_OFF, Verification, verify_loss


@dataclass(frozen=True)
class _Job:
    """One solve, checked before the solver compiles."""

    source: Source
    profile: Profile
    #: None for a selective deal without --pick: every base pick is solved
    position: Position | None


def _job(source: Source, asked: Profile | None, pick: int | None, strategy: str) -> _Job:
    """The solve of ``source``; ``asked`` is the --profile given, if any."""
    if source.position is not None:
        if pick is not None:
            fail("--pick is for a deal; a position file has its base already")
        pos = source.read_position(asked)
        prof = pos.profile
    else:
        prof = asked if asked is not None else parse_profile(None)
        check_pick(prof, pick)
        deal = source.deal if source.deal is not None else source.cards
        selective_all = prof.layout == "selective" and pick is None
        pos = None if selective_all else Position.from_deal(deal, prof, pick=pick)
    refusal = search_refusal(prof, strategy)
    if refusal is not None:
        fail(refusal)
    return _Job(source, prof, pos)


def _jobs(sources: list[Source], asked: Profile | None, pick: int | None, strategy: str):
    """Every job, or one error line naming the list line that is wrong."""
    jobs = []
    for src in sources:
        try:
            jobs.append(_job(src, asked, pick, strategy))
        except (*user_errors(), click.ClickException) as exc:
            if src.file is None:
                raise
            msg = exc.format_message() if isinstance(exc, click.ClickException) else str(exc)
            fail(f"{src.file} line {src.line}: {msg}")
    return jobs


def _run(job: _Job, seconds: float, nodes: int | None, opts: dict) -> SolveResult:
    if job.position is not None:
        return solve(job.position, seconds, nodes, **opts)
    deal = job.source.deal if job.source.deal is not None else job.source.cards
    return solve_deal(deal, job.profile.canonical(), seconds, nodes, **opts)


def _run_threads(job: _Job, seconds: float, nodes: int | None, opts: dict, threads: int):
    """The solve of ``job`` on ``threads`` cores: one search split over a
    shared table, or a portfolio of exact searches."""
    if opts["strategy"] == "shared":
        return _run(job, seconds, nodes, {**opts, "threads": threads})
    if threads == 1:
        return _run(job, seconds, nodes, opts)
    chosen = _members(job, threads, opts)
    return solve_portfolio(
        lambda member: _run(job, seconds, nodes, {**opts, **member}), chosen, opts["memory"]
    )


def _members(job: _Job, threads: int, opts: dict) -> list[tuple[str, dict]]:
    try:
        return members(threads, opts["strategy"], opts["probes"], job.profile.worry == "yes")
    except ValueError as exc:
        fail(f"{exc}; use fewer threads")


def _print_human(r: SolveResult, source: Source, cards: int) -> None:
    # every line but the moves starts with '#', so the whole output replays:
    # the solution of a win, else the best line found, which replays to the
    # banked count of the header (``cards``: all cards of the game)
    click.echo(header_line(source, r.profile, r.pick, r.result, r.banked))
    if r.result == "won":
        for i, line in enumerate(r.moves, 1):
            click.echo(f"{i:4d}. {line}")
    else:
        if r.result == "unknown":
            click.echo(f"# budget ran out ({r.stop_reason}): unknown, not lost")
        click.echo(f"# best line found, not a solution: it ends at banked {r.banked}/{cards}")
        for i, line in enumerate(r.best_line, 1):
            click.echo(f"{i:4d}. {line}")
    click.echo(
        f"# {r.nodes} nodes, {r.seconds:.3f} s, {r.nodes / max(r.seconds, 1e-9):,.0f} nodes/s, "
        f"{r.children} children, max depth {r.max_depth}, forced home (P1) {r.pruned}, "
        f"cut by bound (B1) {r.cut}, dominated (E2) {r.dominated}, dead ends {r.dead_ends}, "
        + (f"evicted {r.evicted}, " if r.evicted else "")
        + ("memory" if r.strategy == "layers" else "table")
        + f" {r.peak_table_bytes / 2**20:.1f} MiB, "
        f"reserve left {r.reserve_left}, strategy {r.strategy}, "
        f"{'found by' if r.decided else 'last stage'} {r.stage}"
        + (f", threads {r.threads}" if r.threads > 1 else "")
        + (f", answered by member {r.member}" if r.member else "")
        + (f", turned {r.turn}/256" if r.turn else "")
    )


def _warm_up(strategy: str, as_json: bool, packs: int = 1, beam: bool = False) -> None:
    """Compile the kernels for games of ``packs`` packs, and with ``beam`` the
    one-pack beam probe (or load them from the cache), saying so when it is
    slow."""
    if not is_compiled(strategy, packs, beam):
        click.echo(COMPILING_NOTE, err=True)
    t0 = time.perf_counter()
    warm_up(strategy, packs, beam)
    if not as_json:
        click.echo(f"# compile/warm-up {time.perf_counter() - t0:.2f} s")


@click.command("solve")
@click.argument("number", metavar="[N]", type=int, required=False)
@click.option("--deal", "deal", type=int, metavar="N", help="Deal number (the same as N).")
@click.option("--cards", "cards", help="The 52 cards of a deal, top of the deck first.")
@click.option(
    "--file",
    "file",
    type=click.Path(dir_okay=False),
    help="Deals or positions, one a line: 52 cards, a deal number or a position file's "
    "path; - for stdin.",
)
@click.option(
    "--position",
    "position_file",
    type=click.Path(exists=True, dir_okay=False),
    help="One position file: the text form or Solvitaire JSON (docs/formats.md).",
)
@click.option(
    "--profile",
    "-p",
    default=None,
    help=PROFILE_HELP + " Default strict; a position file's own profile is used, "
    "and must agree with this.",
)
@click.option("--pick", metavar="CARD", help="Selective only: solve just this base card.")
@budget_option(
    default=None,
    help="Wall-clock budget per solve, e.g. 10s, 500ms or 2m. Default 10s, or none when "
    "--nodes is given (as in sweep: a node budget alone gives the same result on any machine).",
)
@click.option("--nodes", type=NODE_COUNT, help="Node budget per solve, e.g. 50000 or 15M.")
@memory_option()
@click.option(
    "--prune",
    default="all",
    show_default=True,
    help="Pruning rules (docs/solver.md): all, none, or names such as P1,E1,E2.",
)
@click.option(
    "--strategy",
    type=click.Choice(STRATEGIES),
    default=None,
    help="dfs: depth-first. layers: depth-first for a tenth of the budget, then "
    "layers of progress finished in order and forgotten: long proofs in less "
    "memory; not with worry. shared: --threads threads search depth-first on "
    "one table, splitting one deal's tree (no probes; docs/solver.md). "
    "[default: dfs; shared with --threads above 1, one pack]",
)
@click.option(
    "--probes/--no-probes",
    default=True,
    show_default=True,
    help="First search only the first 2, then 3 moves of each position, on a "
    "share of the budget, for a fast win; --no-probes searches every move from the start.",
)
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Cores for each solve: threads that split one search over one table of "
    "--memory (--strategy shared, the default above 1 thread); with --strategy dfs "
    "or layers, differently ordered exact searches at once, each with an equal share "
    "of --memory, the first to decide answering (docs/solver.md).",
)
@click.option(
    "--evict/--no-evict",
    default=True,
    show_default=True,
    help="--strategy dfs: when the table is full at --memory, forget the entries the "
    "search has not met lately (never its current line) and go on; --no-evict stops "
    "as unknown (memory) instead (docs/solver.md, Eviction).",
)
@click.option(
    "--turn",
    type=click.IntRange(0, 255),
    default=0,
    show_default=True,
    help="--strategy dfs, one pack: turn every move list below the root by TURN 256ths of "
    "its length. Any order is as exact (wins replayed, losses proven); another order "
    "finds some wins the usual one misses for long (docs/solver.md, Turned orders).",
)
@click.option(
    "--verify",
    is_flag=True,
    help="Re-prove a lost verdict with each pruning rule that applies off in turn, then "
    "with all off, within the same budgets; say which rules the proof needed (ran out "
    "without them). A re-proof that contradicts the loss exits 1 (docs/solver.md).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per solve.")
@click.option(
    "--view",
    "view_out",
    metavar="FILE.html",
    help="One deal or position only: also write its solution (or, when not won, the "
    "best line found) as an HTML step-through (see 'canfield view').",
)
def solve_cmd(
    number: int | None,
    deal: int | None,
    cards: str | None,
    file: str | None,
    position_file: str | None,
    profile: str | None,
    pick: str | None,
    budget: float | None,
    nodes: int | None,
    memory: int,
    prune: str,
    strategy: str | None,
    probes: bool,
    threads: int,
    evict: bool,
    turn: int,
    verify: bool,
    as_json: bool,
    view_out: str | None,
) -> None:
    """Solve deal N, or deals or positions: won (with a solution), lost (proof) or unknown.

    Every input is checked before the solver compiles. Each result names its
    deal or position (and --file line); the human output replays as it is:
    'canfield replay FILE' reads the deal, profile and pick from its header and
    plays the solution, or, when not won, the best line found (labelled, not a
    solution), to the banked count of the header. --json adds the budget
    (budget_seconds, budget_nodes, budget_memory) and profile_full, as a
    sweep row names them.
    """
    if budget is None:
        budget = unset_seconds(nodes)
    # only an explicit --profile constrains a position file's own profile
    asked = parse_profile(profile) if profile is not None else None
    rules = {"all": True, "none": False}.get(prune.strip().lower(), prune)
    try:
        prune_mask(rules)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if verify and rules is not True:
        raise click.UsageError("--verify re-proves a solve with every rule on: leave out --prune")
    given = [x is not None for x in (number, deal, cards, file, position_file)]
    if sum(given) != 1:
        raise click.UsageError("give exactly one of N, --deal, --cards, --file or --position")
    if number is not None or deal is not None:
        sources = [Source(deal=number if number is not None else deal)]
    elif cards is not None:
        sources = [cards_source(cards)]
    elif position_file is not None:
        sources = [Source(position=position_file)]
    else:
        sources = read_list(file)
        if not sources:
            fail(f"{file} names no deal or position to solve")
    if threads > cores():
        fail(f"--threads {threads}: this process may use {cores()} core(s)")
    jobs = _jobs(sources, asked, parse_pick(pick), strategy or "dfs")
    if strategy is None:
        # several cores split one search, unless two packs (searched on one core)
        one_pack = all(job.profile.packs == 1 for job in jobs)
        strategy = "shared" if threads > 1 and one_pack else "dfs"
    if turn and (strategy != "dfs" or threads > 1):
        raise click.UsageError("--turn turns the depth-first search on one core: --strategy dfs")
    for job in jobs if turn else ():
        refusal = search_refusal(job.profile, strategy, turn)
        if refusal is not None:
            fail(f"--turn: {refusal}")
    view = _view_target(view_out, jobs, (position_file, file))
    opts = {
        "memory": memory,
        "prune": rules,
        "strategy": strategy,
        "probes": probes,
        "evict": evict,
        "turn": turn,
    }
    used = {strategy}
    if threads > 1 and strategy != "shared":  # members' kernels compiled before they fork
        used |= {m["strategy"] for job in jobs for _, m in _members(job, threads, opts)}
    packs = {job.profile.packs for job in jobs}
    # the beam probe runs only with the probes (Solver.solve warms it if a member needs it)
    beam = probes and any(beam_profile(job.profile) for job in jobs)
    for name in sorted(used, key=lambda s: s != strategy):
        for n in sorted(packs):
            _warm_up(name, as_json, n, beam)
    contradicted = []
    for job in jobs:
        r = _run_threads(job, budget, nodes, opts, threads)
        checked = None
        if verify and r.result == "lost":
            checked = verify_loss(
                job.profile,
                r.banked,
                lambda rules, job=job: _run_threads(
                    job, budget, nodes, {**opts, "prune": rules}, threads
                ),
            )
            if checked.contradictions:
                contradicted.append(f"{job.source.label()}: {', '.join(checked.contradictions)}")
        if as_json:
            extra = {"verify": checked.to_json() if checked else None} if verify else {}
            record = {**r.to_json(), **_budget_fields(job, budget, nodes, memory)}
            click.echo(json_line({**record, "source": job.source.to_json(), **extra}))
        else:
            _print_human(r, job.source, 52 * job.profile.packs)
            if verify:
                _print_verification(r, checked)
        if view is not None:
            _write_view(view, job, r)
    if contradicted:
        fail(
            "--verify: a re-proof with a rule off contradicts the loss (a solver bug): "
            + "; ".join(contradicted),
            code=1,
        )


def _print_verification(r: SolveResult, checked: Verification | None) -> None:
    """The re-proofs of ``--verify``, one '#' line each, then what the proof needed."""
    if checked is None:
        why = "a win is replayed through the engine" if r.result == "won" else "unknown"
        click.echo(f"# verify: {why}; only a lost verdict is re-proven")
        return
    for p in checked.reproofs:
        state = (
            "CONTRADICTION"
            if p.off in checked.contradictions
            else ("needed" if p.needed else "re-proven")
        )
        without = "every rule" if p.off == ALL_OFF else p.off
        click.echo(
            f"# verify: without {without}: {p.result} ({p.stop_reason}), banked {p.banked}, "
            f"{p.nodes} nodes, {p.seconds:.3f} s: {state}"
        )
    all_off = next(p for p in checked.reproofs if p.off == ALL_OFF)
    click.echo(
        f"# verify: the proof needed {', '.join(checked.needed) or 'no single rule'}"
        f"; with every rule off it was {'not ' if all_off.needed else ''}re-proven"
    )


def _budget_fields(job: _Job, seconds: float, nodes: int | None, memory: int) -> dict:
    """The full profile and the budget of a solve, named as a sweep row names them
    (``experiments.sweep.schema``), so a JSON result says what it was solved with."""
    return {
        "profile_full": job.profile.full(),
        "budget_seconds": None if math.isinf(seconds) else seconds,
        "budget_nodes": nodes,
        "budget_memory": memory,
    }


def _view_target(view_out: str | None, jobs: list[_Job], inputs: tuple[str | None, ...]):
    """The checked ``--view`` file, or None; one solve of a known position only.

    ``inputs`` are the files named by options (``--position``, ``--file``); the
    position files a ``--file`` list names are inputs too."""
    if view_out is None:
        return None
    if len(jobs) != 1:
        fail("--view writes one solve; give one deal or position, not a list")
    if jobs[0].position is None:
        fail("--view under selective needs --pick (the base card of the line shown)")
    named = [job.source.position for job in jobs]
    return writable_file(view_out, "--view", [*inputs, *named])


def _write_view(path, job: _Job, r: SolveResult) -> None:
    """Write the solve's line (the solution, else the best line) as the HTML view."""
    from canfield.engine.notation import parse_move
    from canfield.experiments.view.html import view_page, write

    line = r.moves if r.result == "won" else r.best_line
    moves = [parse_move(m) for m in line]
    total = job.position.game.n_cards
    title = f"{job.source.label()}  profile {r.profile}  {r.result}  banked {r.banked}/{total}"
    with writing(path.parent):
        write(path, view_page(job.position, moves, title))
    click.echo(f"wrote {path} ({len(moves)} moves)", err=True)
