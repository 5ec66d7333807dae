"""A picture of a position with matplotlib (the toolkit's plotting stack).

:func:`draw_table` draws one table (:func:`canfield.experiments.view.table.table_of`)
as a player sees it: the reserve (its top card, the rest face down, and its
count), the stock and the waste, the foundations and the columns. The number
of foundations and columns is read from the table. Each card drawn is
recorded as a :class:`CardBox` (its rectangle in the axes' units), so a test
can check the layout rather than pixels.

The engine's ``Position.draw`` imports this module on first use only; it must
not import ``engine.position`` (that would be an import cycle).
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch

from canfield.experiments.view.table import table_of

#: Card size and gaps, in axes units.
CARD_W, CARD_H = 1.0, 1.4
GAP = 0.25
#: Vertical step between cards of a column, and horizontal step of a fan.
COLUMN_STEP, FAN_STEP = 0.38, 0.3
_SUIT_SYMBOL = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


@dataclass(frozen=True)
class CardBox:
    """One card drawn: ``card`` (``"7H"``), where it lies (``reserve``,
    ``stock``, ``waste``, ``F1``.. for foundations, ``T1``.. for columns), its
    lower-left corner, and whether it is face up."""

    card: str
    where: str
    x: float
    y: float
    face_up: bool


@dataclass
class Drawing:
    """A drawn position: the matplotlib figure and axes, and every card's box."""

    fig: Figure
    ax: Axes
    boxes: list[CardBox] = field(default_factory=list)

    def save(self, path: str | os.PathLike, fmt: str | None = None) -> None:
        """Write the picture as ``fmt`` (``png``, ``svg``; default: from the suffix)."""
        self.fig.savefig(path, format=fmt, bbox_inches="tight", dpi=120)

    def _repr_png_(self) -> bytes:
        # a notebook shows the drawing itself
        buf = io.BytesIO()
        self.fig.savefig(buf, format="png", bbox_inches="tight", dpi=100)
        return buf.getvalue()


def _card(d: Drawing, card: str, where: str, x: float, y: float, face_up: bool) -> None:
    down = "#345577"
    patch = FancyBboxPatch(
        (x, y),
        CARD_W,
        CARD_H,
        boxstyle="round,pad=0,rounding_size=0.08",
        facecolor="white" if face_up else down,
        edgecolor="#222222",
        linewidth=0.8,
        hatch=None if face_up else "//",
    )
    d.ax.add_patch(patch)
    if face_up:
        red = card[1] in "HD"
        rank = "10" if card[0] == "T" else card[0]
        text = f"{rank}{_SUIT_SYMBOL[card[1]]}"
        d.ax.text(
            x + 0.08,
            y + CARD_H - 0.1,
            text,
            va="top",
            ha="left",
            fontsize=10,
            color="#c00000" if red else "#111111",
            fontweight="bold",
        )
    d.boxes.append(CardBox(card, where, x, y, face_up))


def _slot(d: Drawing, x: float, y: float, label: str) -> None:
    patch = FancyBboxPatch(
        (x, y),
        CARD_W,
        CARD_H,
        boxstyle="round,pad=0,rounding_size=0.08",
        facecolor="none",
        edgecolor="#99cc99",
        linestyle="--",
    )
    d.ax.add_patch(patch)
    d.ax.text(x + CARD_W / 2, y - 0.08, label, ha="center", va="top", fontsize=7, color="white")


def draw_table(table: dict, ax: Axes | None = None, title: str | None = None) -> Drawing:
    """Draw ``table`` on ``ax`` (a new figure when None).

    Layout, left to right on the top row: reserve, stock, waste, then the
    foundations; the columns lie below the foundations, left to right.
    """
    n_found, n_cols = len(table["foundations"]), len(table["columns"])
    left = 3 * (CARD_W + GAP) + 2 * FAN_STEP + GAP
    width = left + max(n_found, n_cols) * (CARD_W + GAP)
    longest = max([len(c) for c in table["columns"]] + [1])
    low = -(CARD_H + 0.5) - (longest - 1) * COLUMN_STEP
    if ax is None:
        fig = Figure(figsize=(width * 0.9, (CARD_H + 0.6 - low) * 0.9))
        ax = fig.subplots()
    else:
        fig = ax.figure
    d = Drawing(fig, ax)
    ax.set_facecolor("#0b5d2a")
    top_y = 0.0
    # reserve: the face-down cards as one stack under the face-up top (all up in superior)
    res = table["reserve"]
    up = table["reserve_face_up"]
    _slot(d, 0.0, top_y, f"reserve ({len(res)})")
    for i, c in enumerate(res):
        face_up = i >= len(res) - up
        x = 0.0 if not face_up or up == 1 else (i - (len(res) - up)) * FAN_STEP * 0.5
        _card(d, c, "reserve", x, top_y, face_up)
    sx = CARD_W + GAP
    _slot(d, sx, top_y, f"stock ({len(table['stock'])})")
    if table["stock"]:
        _card(d, table["stock"][0], "stock", sx, top_y, False)
    wx = 2 * (CARD_W + GAP)
    _slot(d, wx, top_y, f"waste ({len(table['waste'])})")
    for i, c in enumerate(table["waste"][-3:]):
        _card(d, c, "waste", wx + i * FAN_STEP, top_y, True)
    for i, f in enumerate(table["foundations"]):
        x = left + i * (CARD_W + GAP)
        _slot(d, x, top_y, f"{f['suit']} {f['count']}")
        if f["top"]:
            _card(d, f["top"], f"F{i + 1}", x, top_y, True)
    col_y = top_y - CARD_H - 0.5
    for i, col in enumerate(table["columns"]):
        x = left + i * (CARD_W + GAP)
        _slot(d, x, col_y, f"column {i + 1}")
        for h, c in enumerate(col):
            _card(d, c, f"T{i + 1}", x, col_y - h * COLUMN_STEP, True)
    ax.set_xlim(-0.2, width)
    ax.set_ylim(low - 0.4, top_y + CARD_H + 0.2)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize=10)
    return d


def draw_snapshot(
    snap: dict,
    *,
    reserve_visible: bool = False,
    passes: int = 0,
    status: str = "playing",
    ax: Axes | None = None,
    title: str | None = None,
) -> Drawing:
    """:func:`draw_table` of a ``Position.snapshot()`` (what ``Position.draw`` calls)."""
    table = table_of(snap, reserve_visible=reserve_visible, passes=passes, status=status)
    return draw_table(table, ax=ax, title=title)
