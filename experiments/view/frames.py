"""A deal and a line of moves as frames: every table computed by the engine.

The engine applies a move and the automatic reserve fill it triggers in one
step (``engine.core.apply_move`` ends with ``auto_fill``). A player sees two
things happen, so the fill gets a frame of its own. Its "before the fill"
table is derived from the engine's own pieces, not from a second copy of the
rules: take the engine's position after the move, lift each filled card back
from its column to the reserve with the core's own setters
(:func:`split_fill`), and check that the engine's ``auto_fill`` turns that
back into exactly the engine's position after the move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from canfield.engine.cards import card_str
from canfield.engine.notation import Move
from canfield.engine.position import Position
from canfield.experiments.view.table import table_of
from canfield.experiments.view.words import describe, describe_fill


class FillMismatch(AssertionError):
    """The derived before-fill position does not fill back to the engine's position."""


@dataclass(frozen=True)
class Frame:
    """One step of the view.

    ``kind`` is ``start``, ``move`` or ``fill``; ``moves_played`` counts the
    moves of the line played so far (a fill frame has the count of the move
    that triggered it); ``notation`` and ``words`` describe what led here.
    """

    kind: str
    moves_played: int
    notation: str
    words: str
    table: dict

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "moves": self.moves_played,
            "notation": self.notation,
            "words": self.words,
            "table": self.table,
        }


def table(pos: Position) -> dict:
    """The table of ``pos`` (:func:`.table.table_of` with its profile's facts)."""
    return table_of(
        pos.snapshot(),
        reserve_visible=pos.profile.reserve_visible,
        passes=pos.profile.passes,
        status=pos.status(),
    )


def split_fill(before: Position, move: Move, after: Position) -> tuple[Position, list] | None:
    """The position between ``move`` and the automatic fill it triggered.

    Parameters
    ----------
    before, after : Position
        The engine's positions before and after ``move`` (fill included).
    move : Move
        The move played.

    Returns
    -------
    (Position, list of (column number, card)) or None
        The before-fill position and the fills in the order the engine made
        them; None when the move triggered no fill.

    Raises
    ------
    FillMismatch
        If the engine's ``auto_fill`` does not turn the derived position into
        ``after`` exactly.
    """
    held = len(before.reserve()) - (1 if move.src == "R" else 0)
    left = len(after.reserve())
    if held == left:
        return None
    game, rules = after.game, after.game.rules
    kern = game.core  # engine.core, or engine.core_double for two packs
    s = after.state.copy()
    fills = []
    # the engine fills the empty columns left to right, each from the reserve top
    for card in reversed(game.reserve[left:held]):
        col = next(
            c
            for c in range(kern.N_COLS)
            if kern.col_len(s, c) == 1 and kern.col_card(s, c, 0, rules) == card
        )
        fills.append((col + 1, card_str(card)))
    for col, _ in fills:
        kern.col_pop(s, col - 1, np.int64(1), rules)
    kern.set_res_count(s, held)
    check = s.copy()
    kern.auto_fill(check, game.arr, rules)
    if not np.array_equal(check, after.state):
        raise FillMismatch(f"the fill after {move} does not derive back to the engine's position")
    return Position(game, s), fills


def frames(start: Position, moves: Sequence[Move]) -> list[Frame]:
    """The frames of ``moves`` played from ``start``.

    Raises
    ------
    IllegalMove
        For a move the engine refuses (the caller names it).
    """
    out = [Frame("start", 0, "", "the deal", table(start))]
    pos = start
    for i, move in enumerate(moves, 1):
        after = pos.apply(move)
        words = describe(pos, move)
        split = split_fill(pos, move, after)
        if split is None:
            out.append(Frame("move", i, str(move), words, table(after)))
        else:
            mid, fills = split
            out.append(Frame("move", i, str(move), words, table(mid)))
            text = describe_fill(fills, len(after.reserve()))
            out.append(Frame("fill", i, "fill", text, table(after)))
        pos = after
    return out


def positions(start: Position, moves: Sequence[Move]) -> list[Position]:
    """The engine's position after each prefix of ``moves`` (``start`` first)."""
    out = [start]
    for move in moves:
        out.append(out[-1].apply(move))
    return out
