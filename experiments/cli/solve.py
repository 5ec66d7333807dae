"""``canfield solve``: deals or positions solved with perfect information."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click
from canfield.engine.cards import parse_card
from canfield.engine.formats import read_position
from canfield.engine.position import Position, PositionError
from canfield.engine.profiles import parse_profile
from canfield.experiments.cli.budgets import budgets
from canfield.solver import config
from canfield.solver.search import (
    STRATEGIES,
    SolveResult,
    prune_mask,
    solve,
    solve_deal,
    warm_up,
)


def _solve_line(
    line: str, profile: str | None, seconds: float, nodes, pick, opts: dict
) -> SolveResult:
    """One line of ``--file``: 52 card tokens, or a path to a position file.

    ``profile`` is None unless ``--profile`` was given: a position file then
    plays under its own profile line, and a deal under the default.
    """
    text = line.strip()
    path = Path(text)
    if len(text.split()) == 1 and path.exists():
        return solve(read_position(path.read_text(), profile), seconds, nodes, **opts)
    if len(text.split()) == 1:
        raise PositionError(f"no such position file: {text}")
    profile = parse_profile(profile).canonical()
    if pick is not None:
        pos = Position.from_deal(text, profile, pick=pick)
        return solve(pos, seconds, nodes, **opts)
    return solve_deal(text, profile, seconds, nodes, **opts)


def _print_human(r: SolveResult) -> None:
    # every line but the moves starts with '#', so the whole output replays
    where = f"deal {r.deal}" if r.deal is not None else "position"
    click.echo(f"# {where}  {r.profile}  {r.result}  banked {r.banked}/52")
    if r.pick:
        click.echo(f"# base card picked: {r.pick}")
    if r.result == "won":
        for i, line in enumerate(r.moves, 1):
            click.echo(f"{i:4d}. {line}")
    elif r.result == "unknown":
        click.echo(f"# budget ran out ({r.stop_reason}): unknown, not lost")
    click.echo(
        f"# {r.nodes} nodes, {r.seconds:.3f} s, {r.nodes / max(r.seconds, 1e-9):,.0f} nodes/s, "
        f"{r.children} children, max depth {r.max_depth}, forced home (P1) {r.pruned}, "
        f"cut by bound (B1) {r.cut}, dominated (E2) {r.dominated}, dead ends {r.dead_ends}, "
        f"{'memory' if r.strategy == 'layers' else 'table'} {r.peak_table_bytes / 2**20:.1f} MiB, "
        f"reserve left {r.reserve_left}, strategy {r.strategy}, "
        f"{'found by' if r.decided else 'last stage'} {r.stage}"
    )


@click.command("solve")
@click.option("--deal", "deal", type=str, help="Deal number.")
@click.option("--cards", "cards", help="The 52 cards of a deal, top of the deck first.")
@click.option(
    "--file",
    "file",
    type=click.Path(dir_okay=False),
    help="Deals or positions, one per line (52 tokens or a position file path); - for stdin.",
)
@click.option(
    "--position",
    "position_file",
    type=click.Path(exists=True, dir_okay=False),
    help="One position file: the text form or Solvitaire JSON (docs/formats.md).",
)
@click.option(
    "--profile",
    default=None,
    help="Rule profile (default strict; a position file's own profile line is used if it "
    "has one, and must agree with this).",
)
@click.option("--pick", help="Selective only: solve just this base card.")
@click.option(
    "--budget",
    default=f"{config.DEFAULT_SECONDS:g}s",
    show_default=True,
    help="Wall-clock budget per solve, e.g. 10s or 500ms.",
)
@click.option("--nodes", type=click.IntRange(min=1), help="Node budget per solve.")
@click.option("--memory", help="Most transposition-table memory, e.g. 2GB (default 1GiB).")
@click.option(
    "--prune",
    default="all",
    show_default=True,
    help="Pruning rules (docs/solver.md): all, none, or names such as P1,E1,E2.",
)
@click.option(
    "--strategy",
    type=click.Choice(STRATEGIES),
    default="dfs",
    show_default=True,
    help="dfs: depth-first. layers: depth-first for a tenth of the budget, then "
    "layers of progress finished in order and forgotten: long proofs in less "
    "memory; not with worry (docs/solver.md).",
)
@click.option(
    "--probes/--no-probes",
    default=True,
    show_default=True,
    help="First search only the first 2, then 3 moves of each position, on a "
    "share of the budget, for a fast win; --no-probes searches every move from the start.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per solve.")
def solve_cmd(
    deal,
    cards,
    file,
    position_file,
    profile,
    pick,
    budget,
    nodes,
    memory,
    prune,
    strategy,
    probes,
    as_json,
):
    """Solve deals or positions: won (with a solution), lost (proof) or unknown."""
    parsed = parse_profile(profile)
    prof = parsed.canonical()
    # only an explicit --profile constrains a position file's own profile
    asked = prof if profile is not None else None
    if strategy == "layers" and parsed.worry == "yes":
        raise click.UsageError(
            f"--strategy layers needs worry=no ({prof} lets cards come back, so "
            "progress can fall); use --strategy dfs"
        )
    seconds, mem = budgets(budget, memory)
    rules = {"all": True, "none": False}.get(prune.strip().lower(), prune)
    try:
        prune_mask(rules)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    chosen = [x is not None for x in (deal, cards, file, position_file)]
    if sum(chosen) != 1:
        raise click.UsageError("give exactly one of --deal, --cards, --file or --position")
    pick_card = parse_card(pick) if pick else None
    opts = {"memory": mem, "prune": rules, "strategy": strategy, "probes": probes}
    t0 = time.perf_counter()
    warm_up(strategy)
    compile_s = time.perf_counter() - t0
    if not as_json:
        click.echo(f"# compile/warm-up {compile_s:.2f} s")
    if file is not None:
        stream = sys.stdin if file == "-" else None
        if stream is None and not Path(file).exists():
            raise click.UsageError(f"no such file: {file}")
        lines = (stream or open(file)).read().splitlines()
        for lineno, line in enumerate(lines, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                r = _solve_line(line, asked, seconds, nodes, pick_card, opts)
            except ValueError as exc:
                raise PositionError(f"line {lineno}: {exc}") from None
            if as_json:
                click.echo(json.dumps(r.to_json()))
            else:
                _print_human(r)
        return
    if position_file is not None:
        r = solve(read_position(Path(position_file).read_text(), asked), seconds, nodes, **opts)
    elif deal is not None:
        try:
            number = int(deal)
        except ValueError:
            raise click.UsageError(f"--deal takes a whole number, got {deal!r}") from None
        if pick_card is not None:
            pos = Position.from_deal(number, prof, pick=pick_card)
            r = solve(pos, seconds, nodes, **opts)
        else:
            r = solve_deal(number, prof, seconds, nodes, **opts)
    else:
        if pick_card is not None:
            pos = Position.from_deal(cards, prof, pick=pick_card)
            r = solve(pos, seconds, nodes, **opts)
        else:
            r = solve_deal(cards, prof, seconds, nodes, **opts)
    if as_json:
        click.echo(json.dumps(r.to_json()))
    else:
        _print_human(r)
