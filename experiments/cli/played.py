"""The played line that ``canfield view`` and ``canfield analyze`` read.

A move list (a solve's output, a replay file, any moves file) and the deal or
position it was played on, found exactly as ``canfield replay`` finds them
(:func:`.replay.start_of`): the same options, the solve header's deal,
profile and pick, the same checks. Every move is checked by the engine here,
so an illegal move stops with ``error: move 7 (T1>T2x3): <reason>``.
"""

from __future__ import annotations

from dataclasses import dataclass

import click

from canfield.engine.cards import card_str
from canfield.engine.notation import Move
from canfield.engine.position import Position
from canfield.experiments.cli.options import PROFILE_HELP
from canfield.experiments.cli.replay import play_entries, start_of
from canfield.experiments.cli.sources import Source


@dataclass(frozen=True)
class PlayedLine:
    """A start position, the moves played from it, and a title naming both."""

    start: Position
    moves: list[Move]
    source: Source

    def inputs(self, moves_path: str, deal_options: dict) -> list[str | None]:
        """Every file this line was read from: the move list, a ``--file`` list,
        the position file (given, or named by the solve header); an output may
        be none of them."""
        return [
            moves_path,
            deal_options.get("deal_file"),
            deal_options.get("position_file"),
            self.source.position,
        ]

    def title(self) -> str:
        pick = self.start.game.pick
        picked = f"  pick {card_str(pick)}" if pick is not None else ""
        return f"{self.source.label()}  profile {self.start.profile.canonical()}{picked}"


def line_options(func):
    """The deal options of ``canfield replay``, for a command taking MOVES."""
    for option in reversed(
        [
            click.option("--profile", "-p", default=None, help=PROFILE_HELP + " Default strict."),
            click.option("--deal", "deal_number", type=int, metavar="N", help="Deal number."),
            click.option("--cards", metavar="CARDS", help="The deal as 52 card tokens, top first."),
            click.option(
                "--file",
                "deal_file",
                metavar="F",
                help="A file as 'solve --file' reads, holding exactly one deal or position.",
            ),
            click.option(
                "--position",
                "position_file",
                metavar="P",
                help="A position file: the text form or Solvitaire JSON (docs/formats.md).",
            ),
            click.option("--pick", metavar="CARD", help="Base card for the selective profile."),
        ]
    ):
        func = option(func)
    return func


def read_line(moves_path: str, **deal_options) -> PlayedLine:
    """The start position and the checked moves of MOVES (see the module doc).

    ``deal_options`` are those of :func:`line_options`, as click passes them.
    """
    start, entries, source = start_of(moves_path, **deal_options)
    play_entries(start, entries)  # every move checked by the engine
    return PlayedLine(start, [move for _n, _t, move in entries], source)
