"""Move notation (docs/rules.md section 6): reading and writing atomic moves.

``draw``, ``redeal``, ``R>F``, ``W>T2``, ``T1>T2x4``, ``FH>T2``. A line may
carry a comment after ``#`` and, so that a printed solution replays unchanged,
a leading move number such as ``12.``. ``pick 7H`` (selective only) chooses
the base card before the first move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from canfield.engine import core, core_double
from canfield.engine.cards import SUITS, CardError, card_str, parse_card


class NotationError(ValueError):
    """A move that cannot be read."""


@dataclass(frozen=True)
class Move:
    """One atomic move. ``src``: ``R``, ``W``, ``T1``..``T5`` (``T5``: double only), ``FC``..``FS``,
    ``draw`` or ``redeal``; ``dst``: ``F``, ``T1``..``T5`` or ``''``."""

    src: str
    dst: str = ""
    count: int = 1

    def __str__(self) -> str:
        if self.src in ("draw", "redeal"):
            return self.src
        text = f"{self.src}>{self.dst}"
        return text + (f"x{self.count}" if self.count > 1 else "")

    @property
    def is_stock(self) -> bool:
        return self.src in ("draw", "redeal")

    def code(self) -> int:
        """The core's integer encoding."""
        if self.src == "draw":
            return core.encode_move(core.SRC_DRAW, 0, 0)
        if self.src == "redeal":
            return core.encode_move(core.SRC_REDEAL, 0, 0)
        return core.encode_move(_SRC_CODE[self.src], _DST_CODE[self.dst], self.count)

    @classmethod
    def from_code(cls, m: int) -> Move:
        src, dst, count = m & 15, (m >> 4) & 15, m >> 8
        if src == core.SRC_DRAW:
            return cls("draw", "", 0)
        if src == core.SRC_REDEAL:
            return cls("redeal", "", 0)
        return cls(_SRC_NAME[src], _DST_NAME[dst], count)


# the fifth column (double) has its own code, unused by the four-column core
_COL_CODE = {f"T{c + 1}": c for c in range(core.N_COLS)} | {"T5": core_double.COL4_CODE}
_SRC_CODE = {"R": core.SRC_RESERVE, "W": core.SRC_WASTE} | _COL_CODE
_SRC_CODE.update({f"F{s}": core.SRC_FOUND0 + i for i, s in enumerate(SUITS)})
_SRC_NAME = {v: k for k, v in _SRC_CODE.items()}
_DST_CODE = {"F": core.DST_FOUND}
_DST_CODE.update(_COL_CODE)
_DST_NAME = {v: k for k, v in _DST_CODE.items()}

_MOVE_RE = re.compile(r"^(R|W|T[1-5]|F[CDHS])>(F|T[1-5])(?:x(\d+))?$", re.IGNORECASE)
_NUMBER_RE = re.compile(r"^\d+\s*[.:)]?\s+")


@dataclass(frozen=True)
class Pick:
    """``pick 7H``: the base card chosen in Selective Canfield."""

    card: int

    def __str__(self) -> str:
        return f"pick {card_str(self.card)}"


def parse_move(text: str) -> Move | Pick:
    """Read one move; raise :class:`NotationError` with the reason."""
    t = text.strip()
    low = t.lower()
    if low in ("draw", "redeal"):
        return Move(low, "", 0)
    if low.startswith("pick "):
        try:
            return Pick(parse_card(t[5:]))
        except CardError as exc:
            raise NotationError(f"cannot read {t!r}: {exc}") from None
    m = _MOVE_RE.match(t.replace(" ", ""))
    if not m:
        raise NotationError(f"cannot read move {t!r}")
    count = int(m.group(3)) if m.group(3) else 1
    src, dst = m.group(1).upper(), m.group(2).upper()
    if count < 1:
        raise NotationError(f"cannot read move {t!r}: a run has at least one card")
    if count > 1 and not src.startswith("T"):
        raise NotationError(f"cannot read move {t!r}: only a column moves a run")
    if src.startswith("F") and dst == "F":
        raise NotationError(f"cannot read move {t!r}: a foundation card never goes to a foundation")
    if dst == "F" and count > 1:
        raise NotationError(f"cannot read move {t!r}: only single cards go to a foundation")
    if src == dst:
        raise NotationError(f"cannot read move {t!r}: a column cannot move onto itself")
    return Move(src, dst, count)


def read_moves(text: str) -> list[tuple[int, str, Move | Pick]]:
    """Read a move list: one move a line, ``#`` comments, optional numbers.

    Returns ``(line_number, text, move)`` triples; raises :class:`NotationError`
    naming the line.
    """
    out = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        line = _NUMBER_RE.sub("", line)
        try:
            out.append((lineno, line, parse_move(line)))
        except NotationError as exc:
            raise NotationError(f"line {lineno}: {exc}") from None
    return out
