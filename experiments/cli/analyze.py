"""``canfield analyze``: where a played game's fate changed.

Two inputs. A move list (as ``canfield replay`` reads it) on one deal or
position: every position of the line is solved and the table, the turn and
(``--view``) an HTML step-through with the fate strip are printed or written.
Or a sweep's run folder of blind-player games (``--deals A:B``): each stored
game is analysed, the rows merged into ``RUN/analysis.csv`` (one row per game
and budget, :func:`.decisions.write_rows`) and the table of losing decisions by
kind printed (the players' report shows it too).
"""

from __future__ import annotations

import math
from pathlib import Path

import click

from canfield.experiments.cli.budgets import TIME_BUDGET, memory_option
from canfield.experiments.cli.errors import fail
from canfield.experiments.cli.outputs import json_line, writable_file, writing
from canfield.experiments.cli.played import PlayedLine, line_options, read_line
from canfield.experiments.view.fate import DEFAULT_NODES, Analysis, analyse


def _print_text(line: PlayedLine, a: Analysis) -> None:
    budget = f"{a.budget_nodes} nodes" if a.budget_nodes else ""
    if a.budget_seconds is not None:
        budget += f"{', ' if budget else ''}{a.budget_seconds:g} s"
    click.echo(f"# {line.title()}  {len(a.points)} positions  budget {budget} per position")
    click.echo(f"{'move':>5}  {'played':<9} {'fate':<9} {'bankable':>8}  how")
    for p in a.points:
        played = a.moves[p.moves - 1] if p.moves else "(deal)"
        bank = f"{p.banked}" if p.exact else f">={p.banked}"
        word = {"won": "winnable", "lost": "lost", "unknown": "unknown"}[p.fate]
        click.echo(f"{p.moves:>5}  {played:<9} {word:<9} {bank:>8}  {p.how}")
    click.echo(f"# {a.turn.text()}")
    click.echo(f"# {a.seconds:.1f} s, toolkit {a.version}")


def _analyse_run(run: Path, deals: str, profile: str | None, budget, as_json: bool) -> None:
    # imported here: only this mode needs the sweep's store and pandas
    from canfield.experiments.sweep.games import load_games
    from canfield.experiments.sweep.spec import SweepError, parse_deals
    from canfield.experiments.text_tables import fit_to_width
    from canfield.experiments.view.decisions import kinds_table, write_rows
    from canfield.experiments.view.games import analyse_games

    try:
        wanted = parse_deals(deals)
    except SweepError as exc:
        fail(str(exc))
    games = load_games(run)
    if games.empty:
        fail(f"{run} holds no stored games (a blind player's sweep stores them in games/)")
    games = games[[int(d) in wanted for d in games["deal"]]]
    if profile is not None:
        from canfield.engine.profiles import parse_profile

        games = games[games["profile"] == parse_profile(profile).canonical()]
    if games.empty:
        fail(f"{run} holds no stored game for deals {deals}")
    seconds, nodes, memory = budget
    rows = analyse_games(games, seconds, nodes, memory)
    with writing(run):
        path = write_rows(run, rows)
    if as_json:
        for row in rows.to_dict("records"):
            click.echo(json_line(row))
    else:
        click.echo(fit_to_width(kinds_table(rows), None))
    click.echo(f"wrote {path}", err=True)


@click.command("analyze")
@click.argument("moves_path", metavar="MOVES|RUN")
@line_options
@click.option(
    "--deals",
    metavar="A:B",
    help="RUN only: the stored games of deals A..B-1; their rows are written to RUN/analysis.csv.",
)
@click.option(
    "--nodes",
    type=click.IntRange(min=1),
    default=DEFAULT_NODES,
    show_default=True,
    help="Node budget per position (deterministic).",
)
@click.option(
    "--budget",
    type=TIME_BUDGET,
    default=None,
    help="Also a wall-clock budget per position, e.g. 2s [default: none].",
)
@memory_option()
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print JSON: one object (with RUN, one a line per game, as in RUN/analysis.csv).",
)
@click.option(
    "--view",
    "view_out",
    metavar="FILE.html",
    help="Also write the HTML step-through with the winnable/lost strip.",
)
def analyze_cmd(
    moves_path: str,
    deals: str | None,
    nodes: int,
    budget: float | None,
    memory: int,
    as_json: bool,
    view_out: str | None,
    **deal_options,
) -> None:
    """Solve the position after every move of a played line: where was the game lost?

    MOVES is a move list as 'canfield replay' reads it. Each position is solved
    with the budget; the output names the first move after which the deal
    could no longer be won (only when both sides are proven), a move that still
    won there, and the most cards bankable after each move. Unknown stays
    unknown. Writes nothing but --view.

    With a run folder RUN of a blind player's sweep and --deals, every stored
    game is analysed and the losing moves counted by kind, a table row per
    profile, player and budget. Writes RUN/analysis.csv (in the run folder;
    'canfield report RUN' shows its table): one row per game and budget, each
    with its budget (budget_nodes, budget_seconds, budget_memory), profile_full
    and toolkit version. A game analysed again at the same budget replaces its
    row; rows at other budgets are kept beside it, never counted together.
    """
    seconds = math.inf if budget is None else budget
    run = Path(moves_path)
    if run.is_dir():
        if not (run / "run.json").is_file():
            fail(f"{run} is a folder but not a sweep's run folder (no run.json)")
        if deals is None:
            fail("a run folder needs --deals A:B (the stored games to analyse)")
        others = {k: v for k, v in deal_options.items() if k != "profile" and v is not None}
        if view_out or others:
            fail("a run folder takes --deals and --profile, not a deal, position or --view")
        budget = (seconds, nodes, memory)
        _analyse_run(run, deals, deal_options["profile"], budget, as_json)
        return
    if deals is not None:
        fail("--deals is for a run folder; MOVES is a move list")
    line = read_line(moves_path, **deal_options)
    inputs = line.inputs(moves_path, deal_options)
    out = writable_file(view_out, "--view", inputs) if view_out else None
    a = analyse(line.start, line.moves, seconds, nodes, memory)
    if as_json:
        click.echo(json_line({**a.to_json(), "source": line.source.to_json()}))
    else:
        _print_text(line, a)
    if out is not None:
        from canfield.experiments.view.html import view_page, write

        page = view_page(line.start, line.moves, line.title(), a.fates(), a.turn.text())
        with writing(out.parent):
            write(out, page)
        click.echo(f"wrote {out}", err=True)
