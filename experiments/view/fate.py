"""Where a played line's fate changed: the position after every move, solved.

Each position of the line (the start, then after each move) is solved with a
budget. Its verdict is ``won`` (a winning line exists from here), ``lost``
(proven: none does) or ``unknown`` (the budget ran out). Two sound
inferences, marked ``how="inferred"``, fill in some unknowns:

- a position from which the line later reaches a proven-winnable position is
  winnable itself (the line plus that win is a winning line);
- every position after a proven-lost one is lost (what can be reached from it
  can be reached from the lost position).

And a shortcut, marked ``how="solution"``: when the move played is the first
move of the previous position's winning line, the rest of that line wins from
here, with no search.

The *turn* is the first move after which the deal could no longer be won:
named only when the position before it is winnable and the one after it is
proven lost. When unknowns lie between, the output says between which moves
it lies; ``unknown`` is never read as ``lost``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

from canfield.engine.notation import Move, parse_move
from canfield.engine.position import Position
from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.experiments.view.frames import positions
from canfield.solver.search import solve

#: Default node budget per position: deterministic, and a few tenths of a
#: second for the positions that are hard to decide.
DEFAULT_NODES = 200_000


@dataclass
class Point:
    """One position of the line: after ``moves`` moves (0: the start)."""

    moves: int
    fate: str
    banked: int
    exact: bool
    how: str
    nodes: int = 0
    solution: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        d = asdict(self)
        d["solution"] = d["solution"][:1]  # the next winning move is enough per point
        return d


@dataclass
class Turn:
    """Where the fate changed.

    ``kind``: ``move`` (``move`` is the losing move's number, ``played`` it,
    ``winning`` a move that still won there), ``between`` (the fate changed
    after one of the moves ``first`` .. ``last``; unknowns lie between;
    ``start_unknown`` when not even the start was proven winnable),
    ``dealt_lost`` (no line from the deal wins), ``still_winnable`` (the line
    ends in a winnable position, or won), ``unknown`` (no position proven
    lost, and the last one not proven winnable).
    """

    kind: str
    move: int | None = None
    played: str | None = None
    winning: str | None = None
    first: int | None = None
    last: int | None = None
    start_unknown: bool = False

    def text(self) -> str:
        if self.kind == "move":
            return (
                f"the game was lost by move {self.move} ({self.played}); "
                f"{self.winning} still won there"
            )
        if self.kind == "between" and self.first == 1 and self.start_unknown:
            return (
                f"lost by move {self.last} at the latest; whether the deal itself "
                "could be won is unknown at this budget"
            )
        if self.kind == "between":
            return (
                f"the game was lost by one of moves {self.first}..{self.last} "
                "(the positions between are unknown at this budget)"
            )
        if self.kind == "dealt_lost":
            return "the deal is lost from the start: no move lost it"
        if self.kind == "still_winnable":
            return "the deal was still winnable after the last move"
        after = f" after move {self.first}" if self.first else ""
        return f"unknown: no position was proven lost, and none proven winnable{after}"


@dataclass
class Analysis:
    """A line analysed: one :class:`Point` per position, and the :class:`Turn`."""

    profile: str
    moves: list[str]
    points: list[Point]
    turn: Turn
    budget_nodes: int | None
    budget_seconds: float | None
    memory: int | None
    seconds: float = 0.0
    version: str = __version__

    def to_json(self) -> dict:
        return {
            "profile": self.profile,
            "profile_full": parse_profile(self.profile).full(),
            "moves": len(self.moves),
            "turn": {**asdict(self.turn), "text": self.turn.text()},
            "points": [p.to_json() for p in self.points],
            "budget_nodes": self.budget_nodes,
            "budget_seconds": self.budget_seconds,
            "budget_memory": self.memory,
            "seconds": round(self.seconds, 3),
            "version": self.version,
        }

    def fates(self) -> list[dict]:
        """Per count of moves played: the fate and a line of text, for the view's strip."""
        out = []
        for p in self.points:
            bound = "" if p.exact else "at least "
            word = {"won": "winnable", "lost": "lost", "unknown": "unknown"}[p.fate]
            out.append(
                {
                    "result": p.fate,
                    "text": f"{f'after move {p.moves}' if p.moves else 'at the deal'}: "
                    f"{word} ({p.how}); "
                    f"{bound}{p.banked} cards bankable",
                }
            )
        return out


def _solved(pos: Position, seconds: float, nodes: int | None, memory: int | None) -> Point:
    r = solve(pos, seconds, nodes, memory)
    exact = r.result in ("won", "lost")
    return Point(0, r.result, r.banked, exact, "solved", r.nodes, list(r.moves))


def _infer(points: list[Point], cards: int) -> None:
    """Apply the two inferences of the module doc, in place (``cards``: all of the game)."""
    won = [i for i, p in enumerate(points) if p.fate == "won"]
    lost = [i for i, p in enumerate(points) if p.fate == "lost"]
    if won and lost and lost[0] < won[-1]:
        raise AssertionError(
            f"position {won[-1]} is winnable but earlier position {lost[0]} is lost: a solver bug"
        )
    for i in range(won[-1] if won else -1):
        if points[i].fate == "unknown":
            points[i].fate, points[i].how = "won", "inferred"
            points[i].banked, points[i].exact = cards, True
    for i in range(lost[0] + 1 if lost else len(points), len(points)):
        if points[i].fate == "unknown":
            points[i].fate, points[i].how = "lost", "inferred"


def find_turn(points: Sequence[Point], moves: Sequence[str]) -> Turn:
    """The :class:`Turn` of the points (after :func:`_infer`)."""
    fates = [p.fate for p in points]
    if fates[0] == "lost":
        return Turn("dealt_lost")
    if fates[-1] == "won":
        return Turn("still_winnable")
    if "lost" not in fates:
        won = [i for i, f in enumerate(fates) if f == "won"]
        return Turn("unknown", first=won[-1] + 1 if won else None)
    b = fates.index("lost")
    if fates[b - 1] == "won":
        before = points[b - 1]
        winning = before.solution[0] if before.solution else None
        return Turn("move", move=b, played=moves[b - 1], winning=winning)
    won = [i for i in range(b) if fates[i] == "won"]
    return Turn("between", first=(won[-1] + 1) if won else 1, last=b, start_unknown=not won)


def analyse(
    start: Position,
    moves: Sequence[Move],
    seconds: float = math.inf,
    nodes: int | None = DEFAULT_NODES,
    memory: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Solve the position after every move of ``moves`` from ``start``.

    Parameters
    ----------
    start : Position
    moves : sequence of Move
        A legal line from ``start`` (checked by the engine).
    seconds, nodes, memory : optional
        The budget of each position's solve.
    progress : callable, optional
        Called with (positions done, positions) after each one.

    Returns
    -------
    Analysis
    """
    import time

    t0 = time.perf_counter()
    line = positions(start, moves)
    names = [str(m) for m in moves]
    points: list[Point] = []
    for i, pos in enumerate(line):
        prev = points[-1] if points else None
        if prev is not None and prev.fate == "won" and prev.solution:
            if str(parse_move(prev.solution[0])) == names[i - 1]:
                won = Point(i, "won", pos.game.n_cards, True, "solution", 0, prev.solution[1:])
                points.append(won)
                continue
        point = _solved(pos, seconds, nodes, memory)
        point.moves = i
        points.append(point)
        if progress is not None:
            progress(i + 1, len(line))
    _infer(points, start.game.n_cards)
    return Analysis(
        start.profile.canonical(),
        names,
        points,
        find_turn(points, names),
        nodes,
        None if math.isinf(seconds) else seconds,
        memory,
        time.perf_counter() - t0,
    )
