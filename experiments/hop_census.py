"""How many stored positions are one position up to reversible hops.

A *hop* moves a column's top card ``x``, lying on a card ``y``, onto another
column's top ``z`` that accepts ``x`` as ``y`` does (``y`` and ``z`` are
*twins*: the same rank, and the same colour under ``build=alt``). It banks
nothing, touches neither the stock nor the reserve, and empties no column,
and the hop back is legal at once (``y`` is then a top and accepts ``x``):
positions that differ by hops reach each other, so a search could keep one
of them. For the cards of one rank on one kind of twin (*seats*) with at
least one seat free, hops can realise any assignment of those cards to
seats (one free seat lets any arrangement be reached, one hop at a time);
:func:`hop_normal` puts the cards, sorted, on the lowest seats, level by
level until nothing moves, and returns the hops that get there.

This census runs the depth-first search of one deal (every rule, no probes)
for a number of positions, reads the stored strings back (as
:mod:`experiments.key_census` does, for ``build=alt`` and ``build=rank``)
and counts the positions, the positions up to hops (``hop_merged``) and,
for scale, the positions with the column cards' suits forgotten
(``twin_merged``: a relaxation, not an equivalence).

Run: ``python -m experiments.hop_census --profile rainbow --deal 0 --nodes
300000``. ``docs/findings.md`` ("Hops between twin seats") has the figures:
hops merge too few positions to pay for a canonical form in the search.
"""

from __future__ import annotations

import time

import click
import numpy as np

from canfield.engine import core
from canfield.engine.position import Position
from canfield.experiments.key_census import Slot, census_command, census_or_fail, read_slot
from canfield.solver.dfs_run import DfsRun, Path
from canfield.solver.pruning import prune_mask

Columns = list[list[int]]


def slot_columns(slot: Slot, rules: np.ndarray) -> Columns:
    """The cards of a stored slot's columns, bottom first: each column's
    fields written back into a position's column words and read by the
    engine's own ``core.col_card`` (one decoder of the stored choices)."""
    s = np.zeros(core.STATE_LEN, np.uint64)
    out = []
    for n, bottom, choices in slot.columns:
        word = n | (bottom << 6) | (choices << 12)  # the column words' layout
        s[core.COL0] = np.uint64(word & ((1 << 64) - 1))
        s[core.COL0 + 1] = np.uint64(word >> 64)
        out.append([int(core.col_card(s, 0, h, rules)) for h in range(n)])
    return out


def _twin_class(card: int, build: int) -> tuple[int, ...]:
    """Cards that accept the same cards (every column card here accepts one
    rank below it: ``wrap=ak``)."""
    rank = card % 13
    return (rank,) if build == core.BUILD_RANK else (rank, int(card // 13 in (1, 2)))


#: Most passes over the levels: settling one level can change which cards
#: ride on the next (ranks wrap), so a pass may undo another's order; any
#: result is reached by hops, so a cap costs merges, never soundness.
MAX_ROUNDS = 50


def hop_normal(columns: Columns, build: int) -> tuple[Columns, list[tuple[int, int]]]:
    """The columns with hops applied level by level until nothing moves (at
    most ``MAX_ROUNDS`` passes), and the hops ``(from column, to column)``
    in order: each a legal single-card move of a top onto a top that leaves
    its column non-empty."""
    cols = [list(c) for c in columns]
    hops: list[tuple[int, int]] = []
    for _ in range(MAX_ROUNDS):
        levels = {_twin_class(c[-1], build) for c in cols if c}
        levels |= {_twin_class(c[-2], build) for c in cols if len(c) >= 2}
        if not any(_settle(cols, level, build, hops) for level in sorted(levels)):
            break
    return cols, hops


def _settle(cols: Columns, level: tuple[int, ...], build: int, hops: list) -> bool:
    """Put the tops riding on this level's seats, sorted, on its lowest seats
    (a seat: a card of ``level`` that is a column's top, *free*, or lies
    right under it, *occupied*). Needs a free seat; True when a card moved."""
    free = {i for i, c in enumerate(cols) if c and _twin_class(c[-1], build) == level}
    taken = {i for i, c in enumerate(cols) if len(c) >= 2 and _twin_class(c[-2], build) == level}
    if not free or not taken:
        return False
    seat = {i: cols[i][-1] for i in free} | {i: cols[i][-2] for i in taken}
    order = sorted(seat, key=seat.__getitem__)
    riders = sorted(cols[i][-1] for i in taken)
    target = {x: order[k] for k, x in enumerate(riders)}
    moved = False
    while True:
        where = {cols[i][-1]: i for i in taken}
        wrong = [x for x in riders if where[x] != target[x]]
        if not wrong:
            return moved
        x, dst = wrong[0], target[wrong[0]]
        if dst in taken:
            # its seat carries another rider: that one goes to a free seat first
            x, dst = cols[dst][-1], min(free, key=seat.__getitem__)
        src = where[x]
        cols[dst].append(cols[src].pop())
        hops.append((src, dst))
        free, taken = (free - {dst}) | {src}, (taken - {src}) | {dst}
        moved = True


def census(position: Position, nodes: int, memory: int = 1 << 30) -> dict[str, float]:
    """Search ``position`` (every rule, no probes) for ``nodes`` positions and
    count the stored positions, up to hops and with suits forgotten."""
    build = int(position.game.rules[core.R_BUILD])
    if build not in (core.BUILD_ALT, core.BUILD_RANK):
        raise ValueError("the census reads alternating-colour or rank-only columns only")
    kb = 2 if build == core.BUILD_RANK else 1
    run = DfsRun(position, Path(), prune_mask(True), memory)
    started = time.perf_counter()
    run.advance(started, float("inf"), nodes, memory)
    seconds = time.perf_counter() - started
    distinct, merged, twins = set(), set(), set()
    for row in run.table[run.table[:, 0] != 0]:
        slot = read_slot(row, kb)
        cols = slot_columns(slot, position.game.rules)
        rest = (slot.pointer, slot.header)
        distinct.add((*rest, tuple(sorted(map(tuple, cols)))))
        normal, _ = hop_normal(cols, build)
        merged.add((*rest, tuple(sorted(map(tuple, normal)))))
        shape = (tuple(_twin_class(x, build) for x in c) for c in cols)
        twins.add((*rest, tuple(sorted(shape))))
    return {
        "searched": int(run.stats[0]),
        "seconds": seconds,
        "result": run.finish().result,
        "distinct": len(distinct),
        "hop_merged": len(merged),
        "twin_merged": len(twins),
    }


@census_command((0, 9), "rainbow", 300_000)
def main(deals: tuple[int, ...], profile: str, nodes: int) -> None:
    """Print the hop census of each deal's search."""
    for deal in deals:
        c = census_or_fail(census, deal, profile, nodes)
        click.echo(
            f"{profile} {deal}: {c['searched']:,} positions ({c['result']}, "
            f"{c['seconds']:.1f} s), {c['distinct']:,} stored; up to hops "
            f"{c['hop_merged']:,} (x{c['distinct'] / c['hop_merged']:.2f}); suits "
            f"forgotten {c['twin_merged']:,} (x{c['distinct'] / c['twin_merged']:.2f})"
        )


if __name__ == "__main__":
    main()
