"""The ``canfield`` command line.

:func:`main` is the group; each command lives in a module named for it
(``deal``, ``replay``, ``solve``, ``sweep``, ``escalate``, ``report``, ``plot``,
``bench``, ``compare``, ``view``, ``analyze``) and is imported only when it runs or is listed, so
``canfield deal`` stays fast. Shared pieces: :mod:`.errors` (the one error
policy: one ``error: ...`` line, exit code 2), :mod:`.group` (the lazy group; options given twice,
Ctrl-C), :mod:`.options` (options of ``deal``, ``replay`` and ``solve``),
:mod:`.sources` (the deal or position a result came from, ``--file`` lists),
:mod:`.header` (the header line of ``solve``'s output that ``replay`` reads) and
:mod:`.budgets` (time and memory budgets, with units, of the solver commands).
"""

from __future__ import annotations

import click

from canfield.engine.version import __version__
from canfield.experiments.cli.group import CanfieldGroup

#: Command name -> "module:attribute" of its click command.
COMMANDS: dict[str, str] = {
    "deal": "canfield.experiments.cli.deal:deal_cmd",
    "replay": "canfield.experiments.cli.replay:replay_cmd",
    "solve": "canfield.experiments.cli.solve:solve_cmd",
    "sweep": "canfield.experiments.cli.sweep:sweep_cmd",
    "escalate": "canfield.experiments.cli.escalate:escalate_cmd",
    "report": "canfield.experiments.cli.report:report_cmd",
    "plot": "canfield.experiments.cli.plot:plot_cmd",
    "bench": "canfield.experiments.cli.bench:bench",
    "compare": "canfield.experiments.cli.compare:compare_cmd",
    "view": "canfield.experiments.cli.view:view_cmd",
    "analyze": "canfield.experiments.cli.analyze:analyze_cmd",
}

#: Command name -> its one-line help, so ``canfield --help`` imports no
#: command module (tests/test_cli_inputs.py keeps them equal to the commands').
SUMMARIES: dict[str, str] = {
    "deal": "Print the 52 cards of deal N (104 under double), top of the deck first.",
    "replay": "Replay a move list (docs/rules.md section 6) on one deal or position and "
    "report the result.",
    "solve": "Solve deal N, or deals or positions: won (with a solution), lost (proof) or unknown.",
    "sweep": "Solve (or play, with --player) every (deal, profile) into a resumable run "
    "folder of Parquet parts.",
    "escalate": "Solve a sweep's unknown rows again with a ladder of bigger budgets, then "
    "a seeded subsample of what stays unknown, then (--residue) a seeded sample of what the "
    "subsample leaves unknown; --retry solves what the last sample left unknown again with a "
    "bigger budget.",
    "report": "Win-rate tables for one or more run folders.",
    "plot": "Plots (PNG and SVG) for one or more run folders.",
    "bench": "Benchmarks (results go to results/runs/bench/; --publish: results/bench/).",
    "compare": "Our solver's verdicts against other solvers', deal by deal.",
    "view": "Write a line of moves as one HTML file to step through in a browser.",
    "analyze": "Solve the position after every move of a played line: where was the game lost?",
}


@click.group(
    cls=CanfieldGroup,
    lazy=COMMANDS,
    summaries=SUMMARIES,
    context_settings={"max_content_width": 100},
)
@click.version_option(__version__, "--version", prog_name="canfield")
def main() -> None:
    """Canfield solitaire: an exact rules engine, a solver and research tools.

    Profiles (docs/rules.md section 3): strict (default), hevagames, cardgames,
    cardgames-draw1, solvitaire, storehouse, rainbow, selective, superior,
    double (two packs), optionally with overrides such as strict:draw=1 or cardgames:worry=no.
    """


__all__ = ["main"]
