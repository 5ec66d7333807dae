"""``canfield compare``: our solver's verdicts against other solvers'."""

from __future__ import annotations

from pathlib import Path

import click

from canfield.experiments.bench.compare_baseline import (
    VerdictsError,
    compare,
    read_verdicts,
    summary_line,
)
from canfield.experiments.cli.errors import fail


@click.command("compare")
@click.argument("ours", type=click.Path(path_type=Path))
@click.argument("baselines", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.pass_context
def compare_cmd(ctx: click.Context, ours: Path, baselines: tuple[Path, ...]) -> None:
    """Our solver's verdicts against other solvers', deal by deal.

    OURS is the CSV of canfield bench solver. Each BASELINES CSV has deal,
    profile, result (won, lost or unknown) and optionally wall_seconds and
    states, one line per (profile, deal). One line per baseline: the verdicts
    of both, the deals only one decided, and the contradictions (won by one,
    lost by the other: a bug in one of the two solvers). Exit code 1 if
    there is a contradiction.
    """
    try:
        mine = read_verdicts(ours)
        theirs = {path: read_verdicts(path) for path in baselines}
    except VerdictsError as exc:
        fail(str(exc))
    bad = 0
    for path, frame in theirs.items():
        c = compare(mine, frame)
        click.echo(summary_line(path.name, c))
        bad += len(c["contradictions"])
    if bad:
        ctx.exit(1)
