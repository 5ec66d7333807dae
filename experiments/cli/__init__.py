"""The ``canfield`` command line.

:func:`main` is the group; each command lives in a module named for it
(``deal``, ``replay``, ``solve``, ``sweep``, ``report``, ``plot``, ``bench``,
``compare``) and is imported only when it runs or is listed, so
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
    "report": "canfield.experiments.cli.report:report_cmd",
    "plot": "canfield.experiments.cli.plot:plot_cmd",
    "bench": "canfield.experiments.cli.bench:bench",
    "compare": "canfield.experiments.cli.compare:compare_cmd",
}


@click.group(cls=CanfieldGroup, lazy=COMMANDS, context_settings={"max_content_width": 100})
@click.version_option(__version__, "--version", prog_name="canfield")
def main() -> None:
    """Canfield solitaire: an exact rules engine, a solver and research tools.

    Profiles (RULES.md section 3): strict (default), hevagames, cardgames,
    cardgames-draw1, solvitaire, storehouse, rainbow, selective, superior,
    optionally with overrides such as strict:draw=1 or cardgames:worry=no.
    """


__all__ = ["main"]
