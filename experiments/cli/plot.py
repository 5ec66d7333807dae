"""``canfield plot``: the plots of one or more run folders."""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from canfield.experiments.cli.errors import fail
from canfield.experiments.cli.outputs import writable_dir, writing
from canfield.experiments.report import load_runs
from canfield.experiments.sweep import SweepError

#: The RUNS argument of ``plot`` and ``report``: one or more run folders.
runs_argument = click.argument("runs", nargs=-1, required=True, type=click.Path())
#: The --pool option of ``plot`` and ``report``.
pool_option = click.option(
    "--pool",
    is_flag=True,
    help="Count runs of one profile over different deals as one sample "
    "(no run may have sampled its unknowns).",
)


def load(runs: tuple[str, ...], pool: bool = False) -> pd.DataFrame:
    """The rows of the run folders ``runs``; a bad folder is a user error."""
    try:
        return load_runs(runs, pool)
    except SweepError as exc:
        fail(str(exc))


def write(df: pd.DataFrame, out_dir: str) -> None:
    """Write the plots of ``df`` to ``out_dir`` and say so on stderr."""
    # matplotlib takes most of a second to import: only when plots are drawn,
    # not whenever `canfield --help` lists this command
    from canfield.experiments.plots import write_plots

    with writing(out_dir):
        paths = write_plots(df, Path(out_dir))
    click.echo(f"wrote {len(paths)} plot files to {out_dir}", err=True)


@click.command("plot")
@runs_argument
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder for the PNG and SVG files.",
)
@pool_option
def plot_cmd(runs: tuple[str, ...], out_dir: str, pool: bool) -> None:
    """Plots (PNG and SVG) for one or more run folders."""
    df = load(runs, pool)
    writable_dir(out_dir, "--out")
    write(df, out_dir)
