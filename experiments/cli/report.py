"""``canfield report``: win-rate tables of one or more run folders."""

from __future__ import annotations

import shutil

import click

from canfield.experiments.cli import plot
from canfield.experiments.cli.outputs import writable_dir, writing
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
@click.option(
    "--wide",
    is_flag=True,
    help="Print each table whole, not cut into column groups to fit the terminal.",
)
@plot.pool_option
def report_cmd(
    runs: tuple[str, ...], out_dir: str | None, plots_dir: str | None, wide: bool, pool: bool
) -> None:
    """Win-rate tables for one or more run folders.

    A run folder with fewer rows than its run.json asks for is reported as
    unfinished, with a warning on stderr; so is one whose escalation stopped
    before a rung (or sample) tried all its rows. Give each folder once.
    With --pool, runs of one profile over different deals (say deals 0-599
    in one folder and 600-999 in another) are counted as one sample.
    """
    df = plot.load(runs, pool)
    # check every output before the tables are printed: nothing half done
    for option, folder in (("--out", out_dir), ("--plots", plots_dir)):
        if folder:
            writable_dir(folder, option)
    rep = build_report(df)
    for count in rep.unfinished():
        click.echo(f"warning: {count.warning()}", err=True)
    for count in rep.unfinished_escalations():
        click.echo(f"warning: {count.escalation_warning()}", err=True)
    click.echo(rep.to_text(None if wide else shutil.get_terminal_size().columns))
    if out_dir:
        with writing(out_dir):
            written = rep.write(out_dir)
        click.echo(f"wrote {', '.join(str(p) for p in written)}", err=True)
    if plots_dir:
        plot.write(df, plots_dir)
