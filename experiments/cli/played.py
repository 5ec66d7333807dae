"""The played line that ``canfield view`` and ``canfield analyze`` read.

A move list (a solve's output, a replay file, any moves file) and the deal or
position it was played on, found exactly as ``canfield replay`` finds them:
the same options, the solve header's deal, profile and pick, the same checks
(the helpers are ``replay``'s own). Every move is checked by the engine here,
so an illegal move stops with ``error: move 7 (T1>T2x3): <reason>``.
"""

from __future__ import annotations

from dataclasses import dataclass

import click

from canfield.engine.cards import card_str
from canfield.engine.notation import Move, Pick, read_moves
from canfield.engine.position import IllegalMove, Position
from canfield.experiments.cli.errors import fail
from canfield.experiments.cli.header import find_header
from canfield.experiments.cli.options import PROFILE_HELP, read_text
from canfield.experiments.cli.replay import (
    _check_agrees,
    _header_position_path,
    _pick,
    _profile,
    _start,
)
from canfield.experiments.cli.sources import Source, cards_source, read_one


@dataclass(frozen=True)
class PlayedLine:
    """A start position, the moves played from it, and a title naming both."""

    start: Position
    moves: list[Move]
    source: Source

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


def read_line(
    moves_path: str,
    profile: str | None,
    deal_number: int | None,
    cards: str | None,
    deal_file: str | None,
    position_file: str | None,
    pick: str | None,
) -> PlayedLine:
    """The start position and the checked moves of MOVES (see the module doc)."""
    given = [x is not None for x in (deal_number, cards, deal_file, position_file)]
    if sum(given) > 1:
        fail("give only one of --deal N, --cards '...', --file F, --position P")
    text = read_text(moves_path)
    header = find_header(text)
    prof = _profile(profile, header)
    if deal_number is not None:
        source = Source(deal=deal_number)
        source.deck()  # checks the range
    elif cards is not None:
        source = cards_source(cards)
    elif deal_file is not None:
        source = read_one(deal_file)
    elif position_file is not None:
        source = Source(position=position_file)
    elif header is not None:
        source = _header_position_path(header.source, moves_path)
    else:
        fail(
            "give one of --deal N, --cards, --file F or --position P, or a move list that "
            "starts with the header 'canfield solve' prints"
        )
    entries = read_moves(text)
    picked = _pick(pick, header, entries)
    start = _start(source, prof, picked)
    if header is not None and source is not header.source:
        _check_agrees(header, moves_path, start, prof, picked)
    return PlayedLine(start, checked_moves(start, [(n, m) for n, _t, m in entries]), source)


def checked_moves(start: Position, entries: list[tuple[int, Move | Pick]]) -> list[Move]:
    """The moves of ``entries`` ((line number, move)), each checked by the engine."""
    pos = start
    moves = []
    for i, (lineno, move) in enumerate(entries, 1):
        if isinstance(move, Pick):
            fail(f"move {i} (line {lineno}): '{move}' is allowed only before the first move")
        try:
            pos = pos.apply(move)
        except IllegalMove as exc:
            fail(f"move {i} ({move}): {exc}")
        moves.append(move)
    return moves
