"""One position as a plain table: what a player sees, ready for JSON.

Built from :meth:`engine.position.Position.snapshot` and a few facts about the
profile, never from the engine module itself, so that the engine's lazy
``Position.draw`` can use it without an import cycle. The number of columns and
foundations is read from the snapshot: nothing here assumes four of each.
"""

from __future__ import annotations

from canfield.engine.cards import SUITS, card_str


def foundation_top(suit: int, count: int, base: int) -> str | None:
    """The top card of a foundation of ``suit`` holding ``count`` cards from ``base``."""
    if count == 0:
        return None
    return card_str(suit * 13 + (base + count - 1) % 13)


def table_of(
    snap: dict,
    *,
    reserve_visible: bool = False,
    passes: int = 0,
    status: str = "playing",
) -> dict:
    """The table of one position.

    Parameters
    ----------
    snap : dict
        :meth:`Position.snapshot` (cards as integers).
    reserve_visible : bool
        The profile deals the whole reserve face up (``superior``).
    passes : int
        The profile's passes (0: unlimited).
    status : str
        ``won``, ``blocked`` or ``playing``.

    Returns
    -------
    dict
        ``base`` (rank index), ``foundations`` (one ``{"suit", "count",
        "top"}`` per foundation, suits in order, a suit's two together for two packs: C C D D ...),
        ``reserve`` (cards bottom first, ``visible``: how many at the top are
        face up), ``columns`` (bottom first), ``stock`` (next card first),
        ``waste`` (bottom first), ``redeals``, ``passes``, ``banked``, ``cards`` (52 or 104),
        ``status``. Cards are strings such as ``"7H"``.
    """
    counts = list(snap["foundations"])
    reserve = [card_str(c) for c in snap["reserve"]]
    return {
        "base": snap["base"],
        "foundations": [
            {
                "suit": SUITS[i * 4 // len(counts)],
                "count": n,
                "top": foundation_top(i * 4 // len(counts), n, snap["base"]),
            }
            for i, n in enumerate(counts)
        ],
        "reserve": reserve,
        "reserve_face_up": len(reserve) if reserve_visible else min(1, len(reserve)),
        "columns": [[card_str(c) for c in col] for col in snap["columns"]],
        "stock": [card_str(c) for c in snap["stock"]],
        "waste": [card_str(c) for c in snap["waste"]],
        "redeals": snap["redeals"],
        "passes": passes,
        "banked": sum(counts),
        "cards": 13 * len(counts),
        "status": status,
    }
