"""``canfield report``: win-rate tables of one or more run folders."""

from __future__ import annotations

import click
from canfield.experiments.cli import plot
from canfield.experiments.report import build_report


@click.command("report")
@plot.runs_argument
@click.option(
    "--out",
    "out_dir",
    default=None,
    type=click.Path(file_okay=False),
    help="Write report.md and the tables as CSV here.",
)
@click.option(
    "--plots",
    "plots_dir",
    default=None,
    type=click.Path(file_okay=False),
    help="Also write the plots (PNG and SVG) here.",
)
def report_cmd(runs: tuple[str, ...], out_dir: str | None, plots_dir: str | None) -> None:
    """Win-rate tables for one or more run folders."""
    df = plot.load(runs)
    rep = build_report(df)
    click.echo(rep.to_text())
    if out_dir:
        written = rep.write(out_dir)
        click.echo(f"wrote {', '.join(str(p) for p in written)}", err=True)
    if plots_dir:
        plot.write(df, plots_dir)
