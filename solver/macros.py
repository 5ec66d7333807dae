"""The K+ macro move: its encoding, and its replay as atomic moves.

A macro move (``docs/solver.md``) is one card move with the draws and
redeals before it folded in: the waste pointer and redeal count to turn the
stock to, then the atomic card move (:mod:`engine.core`'s move code). The
two stock fields sit in the bits where a position's word 0 keeps its waste
pointer and redeal count, so applying a macro copies them across.
"""

from __future__ import annotations

from numba import njit

from canfield.engine import core
from canfield.engine.notation import Move
from canfield.engine.position import Position

ATOMIC_BITS = 20  # bits 0-19: the atomic card move
ATOMIC_MASK = (1 << ATOMIC_BITS) - 1
PTR_SHIFT = 20  # bits 20-25: the waste pointer (as in a position's word 0)
PTR_MASK = 63
REDEALS_SHIFT = 26  # bits 26-29: the redeals spent (as in a position's word 0)
REDEALS_MASK = 15
#: Bits a macro move takes: the layered search's log keeps more above them.
MACRO_BITS = 30
MACRO_MASK = (1 << MACRO_BITS) - 1
#: The stock fields, as a mask of a position's word 0.
STOCK_FIELDS = (PTR_MASK << PTR_SHIFT) | (REDEALS_MASK << REDEALS_SHIFT)


class SolverBug(RuntimeError):
    """A line the solver produced did not replay: never expected."""


@njit(cache=True, inline="always")
def stock_tag(ptr, redeals):
    """The stock fields of a macro move: OR them with an atomic move."""
    return (ptr << PTR_SHIFT) | (redeals << REDEALS_SHIFT)


@njit(cache=True, inline="always")
def macro_atomic(mac):
    """The atomic card move of a macro move."""
    return mac & ATOMIC_MASK


@njit(cache=True, inline="always")
def macro_ptr(mac):
    """The waste pointer a macro move turns the stock to."""
    return (mac >> PTR_SHIFT) & PTR_MASK


@njit(cache=True, inline="always")
def macro_redeals(mac):
    """The redeal count a macro move turns the stock to."""
    return (mac >> REDEALS_SHIFT) & REDEALS_MASK


def expand_macros(position: Position, macros: list[int]) -> tuple[list[str], Position]:
    """Turn macro moves into atomic notation, replaying each through the engine.

    Raises :class:`SolverBug` if a move is illegal: every line the solver
    reports has been played move by move by the rules engine.
    """
    out: list[str] = []
    pos = position
    for mac in macros:
        want = (int(macro_ptr(mac)), int(macro_redeals(mac)))
        move = Move.from_code(int(macro_atomic(mac)))
        turns = 0
        # only a waste move needs the stock turned: the search may have stood
        # for this position by another on the same stock cycle (rule E1)
        while move.src == "W" and (int(core.waste_ptr(pos.state)), pos.redeals()) != want:
            step = Move("draw", "", 0) if pos.stock() else Move("redeal", "", 0)
            pos = _play(pos, step)
            out.append(str(step))
            turns += 1
            if turns > 200:
                raise SolverBug("a macro move's stock position was never reached")
        pos = _play(pos, move)
        out.append(str(move))
    return out, pos


def _play(pos: Position, move: Move) -> Position:
    try:
        return pos.apply(move)
    except ValueError as exc:
        raise SolverBug(f"solver produced an illegal move {move}: {exc}") from None
