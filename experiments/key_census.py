"""What the positions of a hard search differ in: a census of a table's keys.

The depth-first search stores every position it enters as a compact bit
string (``solver/table.py``): the waste pointer, then each column of the
canonical key (its length, its bottom card, one suit choice a card above it
under ``build=alt``), then the header (foundation counts and reserve count in
20 bits, then the redeals and the played-stock mask). This census runs the
search of one deal for a number of positions and counts, over the stored
strings:

* ``distinct``: the positions (each stored once);
* ``without_pointer``: the positions with the waste pointer forgotten
  (how many entries E1 and E2 leave per key);
* ``twin_merged``: the positions with every column card read as a
  (rank, colour) token, suits forgotten: what a search that could not tell
  the two suits of a colour apart on the tableau would store at least (the
  stock, reserve and foundations kept);
* ``column_sets``: the distinct sets of columns (cards and suits);
* ``token_shapes``: the distinct sets of columns as tokens (length and
  bottom rank and colour);
* ``foundation_reserve``: the distinct foundation counts and reserve counts.

With ``--spread`` it prints instead, under any one-pack profile, how the
stored positions spread over reserve counts and cards banked (shares of an
even sample of at most a million of them): where a long proof spends its
positions, for a search run to its end (``--nodes`` above the proof,
``--memory`` to hold it).

Run: ``python -m experiments.key_census --deal 35 --nodes 1000000``.
``docs/findings.md`` ("What the positions of a hard strict search differ
in") has the figures for the hard strict deals.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from functools import partial

import click
import numpy as np

from canfield.engine import core
from canfield.engine.position import Position
from canfield.experiments.sweep.spec import read_bytes
from canfield.solver.dfs_run import DfsRun, Path
from canfield.solver.pruning import prune_mask
from canfield.solver.stats import ST_BEST
from canfield.solver.table import PTR_FIELD

#: Bits of the header's foundation counts and reserve count.
FR_BITS = 20
#: Suits whose cards are red (suit order C D H S).
RED = (1, 2)
#: Choice bits a column card above the bottom stores, by building rule
#: (``engine.core``'s ``BUILD_ALT``, ``BUILD_SUIT``, ``BUILD_RANK``).
CHOICE_BITS = {core.BUILD_ALT: 1, core.BUILD_SUIT: 0, core.BUILD_RANK: 2}
#: Most stored positions ``spread`` reads back (an even sample of them).
SPREAD_SAMPLE = 1_000_000


@dataclass(frozen=True)
class Slot:
    """One stored position, read back from its bit string."""

    pointer: int
    #: per column, in the key's sorted order: (length, bottom card, choices)
    columns: tuple[tuple[int, int, int], ...]
    header: int

    @property
    def foundation_reserve(self) -> int:
        # With all 52 cards in the columns (under worry) the table leaves the
        # header's low part out: the foundations and the reserve are empty.
        if sum(n for n, _, _ in self.columns) == 52:
            return 0
        return self.header & ((1 << FR_BITS) - 1)

    @property
    def reserve_count(self) -> int:
        return self.foundation_reserve >> 16

    @property
    def banked(self) -> int:
        """Cards on the foundations, the dealt base card included."""
        fr = self.foundation_reserve
        return sum((fr >> (4 * suit)) & 15 for suit in range(4))

    def tokens(self) -> tuple[tuple[int, int, bool], ...]:
        """The columns as (length, bottom rank, bottom red), sorted: under
        alternating colours a column's tokens follow from its bottom."""
        out = []
        for n, bottom, _ in self.columns:
            suit, rank = divmod(bottom, 13)
            out.append((n, rank, suit in RED) if n else (0, 0, False))
        return tuple(sorted(out))


def read_slot(row: np.ndarray, kb: int) -> Slot:
    """The fields of a slot's words (``kb`` suit-choice bits a card above a
    column's bottom); the layout is ``solver.table.pack_key``'s."""
    v = int.from_bytes(np.asarray(row, dtype="<u4").tobytes(), "little")
    pointer = (v & ((1 << PTR_FIELD) - 1)) - 1  # the field holds it plus one: 0 is empty
    pos = PTR_FIELD
    columns = []
    for _ in range(core.N_COLS):
        n = (v >> pos) & 63
        pos += 6
        if n == 0:
            columns.append((0, 0, 0))
            continue
        bottom = (v >> pos) & 63
        pos += 6
        width = (n - 1) * kb
        columns.append((n, bottom, (v >> pos) & ((1 << width) - 1)))
        pos += width
    return Slot(pointer, tuple(columns), v >> pos)


def census(position: Position, nodes: int, memory: int = 1 << 30) -> dict[str, float]:
    """Search ``position`` (every pruning rule on, no probes) for ``nodes``
    positions and count the stored strings (see the module doc)."""
    if int(position.game.rules[core.R_BUILD]) != core.BUILD_ALT:
        raise ValueError("the census reads alternating-colour columns only")
    searched, rows = _stored_rows(position, nodes, memory)
    slots = [read_slot(r, 1) for r in rows]
    return {
        **searched,
        "distinct": len({(s.pointer, s.columns, s.header) for s in slots}),
        "without_pointer": len({(s.columns, s.header) for s in slots}),
        "twin_merged": len({(s.pointer, s.tokens(), s.header) for s in slots}),
        "column_sets": len({tuple(sorted(s.columns)) for s in slots}),
        "token_shapes": len({s.tokens() for s in slots}),
        "foundation_reserve": len({s.foundation_reserve for s in slots}),
    }


def spread(
    position: Position, nodes: int, memory: int = 1 << 30, sample: int = SPREAD_SAMPLE
) -> dict:
    """Search ``position`` as :func:`census` does and give the shares (in %)
    of the stored positions by reserve count (``reserve``) and by cards
    banked (``banked``), read from an even sample of at most ``sample``.
    Unlike the census it reads every one-pack building rule."""
    if position.profile.packs != 1:
        raise ValueError("the census reads one-pack positions only")
    kb = CHOICE_BITS[int(position.game.rules[core.R_BUILD])]
    searched, rows = _stored_rows(position, nodes, memory)
    picked = rows[:: max(1, -(-len(rows) // sample))]
    slots = [read_slot(r, kb) for r in picked]
    reserve = Counter(s.reserve_count for s in slots)
    banked = Counter(s.banked for s in slots)
    n = len(slots)
    return {
        **searched,
        "stored": len(rows),
        "sampled": n,
        "reserve": {k: 100 * v / n for k, v in sorted(reserve.items())},
        "banked": {k: 100 * v / n for k, v in sorted(banked.items())},
    }


def _stored_rows(position: Position, nodes: int, memory: int) -> tuple[dict, np.ndarray]:
    """Run the depth-first search (every rule, no probes) and return what it
    searched and the table's occupied rows."""
    run = DfsRun(position, Path(), prune_mask(True), memory)
    started = time.perf_counter()
    run.advance(started, float("inf"), nodes, memory)
    seconds = time.perf_counter() - started
    searched = {
        "searched": int(run.stats[0]),
        "seconds": seconds,
        "result": run.finish().result,
        "best": int(run.stats[ST_BEST]),
    }
    return searched, run.table[run.table[:, 0] != 0]


def census_command(deals: tuple[int, ...], profile: str, nodes: int):
    """The ``--deal``/``--profile``/``--nodes`` command of a census script,
    with these defaults."""

    def wrap(f):
        f = click.option("--nodes", type=click.IntRange(min=1), default=nodes, show_default=True)(f)
        f = click.option("--profile", default=profile, show_default=True)(f)
        f = click.option("--deal", "deals", type=int, multiple=True, default=deals)(f)
        return click.command()(f)

    return wrap


def census_or_fail(count, deal: int, profile: str, nodes: int) -> dict[str, float]:
    """``count(position, nodes)`` of the deal; a profile it cannot read is
    one error line."""
    try:
        return count(Position.from_deal(deal, profile), nodes)
    except ValueError as exc:  # an unknown profile, or columns the census cannot read
        raise click.ClickException(str(exc)) from None


@census_command((35, 6, 110), "strict", 1_000_000)
@click.option("--spread", "by_spread", is_flag=True, help="Shares by reserve and banked instead.")
@click.option("--memory", default="1GB", show_default=True, help="Table memory, e.g. 3GB.")
def main(deals: tuple[int, ...], profile: str, nodes: int, by_spread: bool, memory: str) -> None:
    """Print the census of each deal's search."""
    try:
        table_bytes = read_bytes(memory, "--memory")
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    for deal in deals:
        if by_spread:
            _echo_spread(deal, profile, nodes, table_bytes)
            continue
        c = census_or_fail(partial(census, memory=table_bytes), deal, profile, nodes)
        ratios = (
            f"{c['distinct'] / c['without_pointer']:.2f}",
            f"{c['distinct'] / c['twin_merged']:.2f}",
        )
        click.echo(
            f"{profile} {deal}: {c['searched']:,} positions ({c['result']}, {c['seconds']:.1f} s), "
            f"{c['distinct']:,} stored; without the pointer {c['without_pointer']:,} "
            f"(x{ratios[0]}); twin-merged {c['twin_merged']:,} (x{ratios[1]}); "
            f"{c['column_sets']:,} column sets, {c['token_shapes']:,} token shapes, "
            f"{c['foundation_reserve']} foundation/reserve states"
        )


def _echo_spread(deal: int, profile: str, nodes: int, memory: int) -> None:
    """Two lines a deal: the shares by reserve count, then by cards banked."""
    c = census_or_fail(partial(spread, memory=memory), deal, profile, nodes)

    def shares(d: dict[int, float]) -> str:
        return ", ".join(f"{k}: {v:.1f}%" for k, v in d.items())

    click.echo(
        f"{profile} {deal}: {c['searched']:,} positions ({c['result']}, {c['seconds']:.1f} s), "
        f"{c['stored']:,} stored, {c['sampled']:,} read; reserve count {shares(c['reserve'])}"
    )
    click.echo(f"{profile} {deal}: banked {shares(c['banked'])}")


if __name__ == "__main__":
    main()
