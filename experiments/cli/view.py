"""``canfield view``: a line of moves as one self-contained HTML step-through."""

from __future__ import annotations

import click

from canfield.experiments.cli.outputs import writable_file, writing
from canfield.experiments.cli.played import line_options, read_line
from canfield.experiments.view.html import view_page, write


@click.command("view")
@click.argument("moves_path", metavar="MOVES")
@line_options
@click.option(
    "--out",
    "-o",
    "out",
    required=True,
    metavar="FILE.html",
    help="The HTML file to write.",
)
def view_cmd(moves_path: str, out: str, **deal_options) -> None:
    """Write a line of moves as one HTML file to step through in a browser.

    MOVES is a move list as 'canfield replay' reads it (a solve's output replays
    as it is; - for stdin). The file needs no network: buttons, the arrow keys
    and a slider step through the line, every table computed by the engine.
    """
    line = read_line(moves_path, **deal_options)
    path = writable_file(out, "--out", line.inputs(moves_path, deal_options))
    with writing(path.parent):
        write(path, view_page(line.start, line.moves, line.title()))
    click.echo(f"wrote {path} ({len(line.moves)} moves)", err=True)
