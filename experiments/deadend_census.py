"""How often whole-column dead ends prove more than rule B1 (issue #14, item 4).

Under ``moves=whole`` a card ``x`` lying above an earlier card of its own suit
leaves its column only alone, onto a parent (a card it may be built on) that
is a column top. Rule B1 (``solver/bound.py``) already freezes such a link when
every parent of ``x`` is banked, lies below ``x`` or is buried under a frozen
link; it counts a parent in the reserve, stock or waste as always possible.
The one thing the dead-end pattern can add is a parent off the tableau that
can never get onto it (docs/solver.md, "Not done yet, and why"). Such a card
``p`` reaches a column only onto a parent of its own that is a column top, or
into a space; so this census claims, besides B1's links, every card off the
tableau as "never placed" and drops the claims its parents do not justify
(banked, buried, or never placed themselves), as a greatest fixed point with
B1's links. Two readings:

* ``optimistic``: spaces ignored (not sound: an upper bound on the gain);
* ``sound``: the off-tableau claims count only while no column can ever
  empty (every column holds a frozen link and its bottom card's parents can
  never be tops).

``pattern``: as ``optimistic``, but the new kind of parent helps only links
whose "no way home" is the pattern's (an earlier card of the suit below ``x``
in its column). The bound with neither extension must equal the kernel's
(checked on every position). Positions: random builder-favouring games of the
hard strict deals, every fifth position still playing.

Run: ``python -m experiments.deadend_census [--games 10]``.

``--path DEAL`` reads instead the positions the depth-first search of a
strict deal stands on (every rule, no probes): every ``--every`` positions
up to ``--nodes``, the positions of its path at a quarter, half, three
quarters and all of its depth. For each it prints the reserve count, the
cards in the stock and waste, the banked count, B1's bound, the
``optimistic`` and ``sound`` readings, and what a search of ``--sub-nodes``
positions from it banks (``l``: lost, exact; ``w``: won; ``u``: unknown, a
line found). A position whose ``optimistic`` reading is below what its own
search banks shows that reading unsound in a real search; one whose
reading is at most the deal's best while B1's is above is one a sound rule
of that strength would cut. Run: ``python -m experiments.deadend_census
--path 110 --nodes 20000000 --every 2000000`` (docs/findings.md, "What the
path of a long proof holds").
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from canfield.engine import core
from canfield.engine.position import Position
from canfield.solver.bound import WORK_LEN, banked_bound, set_parents
from canfield.solver.dfs_run import DfsRun, Path
from canfield.solver.pruning import prune_mask
from canfield.solver.search import Solver
from canfield.solver.stats import ST_BEST, ST_DEPTH, ST_NODES

#: The hard strict deals (docs/solver.md): long proofs or unknown.
HARD_DEALS = (6, 12, 35, 64, 110, 141)


def census_bound(pos: Position, mode: str) -> int:
    """Most cards ``pos`` can bank by B1, extended as ``mode`` says
    (``b1``, ``optimistic``, ``pattern`` or ``sound``)."""
    game, rules, base = pos.game.arr, pos.game.rules, pos.game.base
    cols = pos.columns()
    found = pos.foundations()
    where = {card: (c, h) for c, col in enumerate(cols) for h, card in enumerate(col)}

    def order(card: int) -> int:
        return (card % 13 - base) % 13

    banked = {card for card in range(52) if order(card) < found[card // 13]}
    parents = {x: [p for p in range(52) if core.builds_on(x, p, game, rules)] for x in range(52)}
    # highest claimed frozen link per column, and the off-tableau "never placed" claims
    hi = [len(col) - 1 if len(col) >= 2 else 0 for col in cols]
    never = {p: mode != "b1" for p in range(52) if p not in where and p not in banked}

    def buried(card: int) -> bool:
        c, h = where[card]
        return hi[c] >= 1 and h < hi[c]

    def stuck(card: int) -> bool:
        return card in where and hi[where[card][0]] >= 1 and where[card][1] <= hi[where[card][0]]

    def no_space() -> bool:
        if mode in ("optimistic", "pattern"):
            return True
        for c, col in enumerate(cols):
            # a column empties only when its bottom card leaves: alone (no link
            # frozen above it) or with the whole column, onto a parent
            if hi[c] < 1:
                return False
            if not all(p in banked or never_top(p, None) for p in parents[col[0]]):
                return False
        return True

    def never_top(p: int, column: int | None) -> bool:
        """``p`` is never a column top outside ``column`` (claims assumed)."""
        if p in banked:
            return True
        if p in where:
            cp, h = where[p]
            return buried(p) or (cp == column and h <= hi[cp])
        return never[p]

    def frozen(x: int, c: int, hx: int, spaces_shut: bool) -> bool:
        su = x // 13
        earlier = [su * 13 + (base + k) % 13 for k in range(found[su], order(x))]
        in_column = any(y in where and where[y][0] == c and where[y][1] < hx for y in earlier)
        if not in_column and not any(stuck(y) for y in earlier):
            return False
        for p in parents[x]:
            if p in banked:
                continue
            if p in where:
                cp, h = where[p]
                if (cp == c and h < hx) or (cp != c and buried(p)):
                    continue
                return False
            if not (never[p] and spaces_shut and (mode != "pattern" or in_column)):
                return False
        return True

    changed = True
    while changed:
        changed = False
        shut = no_space()
        for c, col in enumerate(cols):
            while hi[c] >= 1 and not frozen(col[hi[c]], c, hi[c], shut):
                hi[c] -= 1
                changed = True
        for p in never:
            if never[p] and not all(never_top(q, None) for q in parents[p]):
                never[p] = False
                changed = True
    total = 0
    for su in range(4):
        total += found[su]
        for k in range(found[su], 13):
            if stuck(su * 13 + (base + k) % 13):
                break
            total += 1
    return total


def kernel_bound(pos: Position) -> int:
    ws = np.full(WORK_LEN, -1, np.int64)
    set_parents(ws, pos.game.arr, pos.game.rules)
    return int(banked_bound(pos.state, pos.game.arr, pos.game.rules, ws))


def positions(games: int) -> list[Position]:
    """Every fifth position still playing of ``games`` random games per hard
    deal that build on columns 70% of the time (as ``tests/test_bound.py``)."""
    out = []
    for deal in HARD_DEALS:
        for seed in range(games):
            rng = random.Random(1000 * deal + seed)
            pos = Position.from_deal(deal, "strict")
            for step in range(300):
                moves = pos.legal_moves()
                if not moves:
                    break
                build = [m for m in moves if not m.is_stock and m.dst != "F"]
                pos = pos.apply(rng.choice(build if build and rng.random() < 0.7 else moves))
                if step % 5 == 4 and pos.status() == "playing":
                    out.append(pos)
    return out


def path_sample(deal: int, nodes: int, every: int, sub_nodes: int) -> list[dict]:
    """Positions on the path of strict ``deal``'s depth-first search, every
    ``every`` positions up to ``nodes`` (module docstring), one dict each."""
    pos = Position.from_deal(deal, "strict")
    memory = 4 << 30
    run = DfsRun(pos, Path(), prune_mask(True), memory)
    sub = Solver(1 << 28, probes=False)
    t0 = time.perf_counter()
    rows = []
    while int(run.stats[ST_NODES]) < nodes and not run.over:
        run.advance(t0, float("inf"), min(nodes, int(run.stats[ST_NODES]) + every), memory)
        if run.reason not in ("", "nodes"):
            break  # the table is full: the census stops where the search did
        end = int(run.stats[ST_DEPTH])
        for d in sorted({end // 4, end // 2, 3 * end // 4, end}):
            p = Position(pos.game, run.path.states[d].copy())
            r = sub.solve(p, seconds=3600.0, nodes=sub_nodes)
            rows.append(
                {
                    "nodes": int(run.stats[ST_NODES]),
                    "depth": d,
                    "of": end,
                    "best": int(run.stats[ST_BEST]),
                    "reserve": len(p.reserve()),
                    "off": len(p.stock()) + len(p.waste()),
                    "banked": p.banked,
                    "b1": kernel_bound(p),
                    "optimistic": census_bound(p, "optimistic"),
                    "sound": census_bound(p, "sound"),
                    "sub_result": r.result,
                    "sub_banked": r.banked,
                    "sub_nodes": r.nodes,
                }
            )
    return rows


def _path_main(deal: int, nodes: int, every: int, sub_nodes: int) -> None:
    rows = path_sample(deal, nodes, every, sub_nodes)
    for r in rows:
        print(
            f"{r['nodes']:>12,} depth {r['depth']:>3}/{r['of']:<3} reserve {r['reserve']:>2}"
            f" off {r['off']:>2} banked {r['banked']:>2} B1 {r['b1']:>2}"
            f" optimistic {r['optimistic']:>2} sound {r['sound']:>2}"
            f" search {r['sub_result'][0]}{r['sub_banked']} in {r['sub_nodes']:,}"
            f" (best so far {r['best']})"
        )
    for kind, empty in (("reserve empty", True), ("reserve held", False)):
        part = [r for r in rows if (r["reserve"] == 0) == empty]
        # what a rule of the reading's strength would cut: at most the best
        # so far, where B1 is above it
        cut = [r for r in part if r["optimistic"] <= r["best"] < r["b1"]]
        print(
            f"{kind}: {len(part)} positions, optimistic below B1 in"
            f" {sum(r['optimistic'] < r['b1'] for r in part)}, at most the best so far"
            f" where B1 is above it in {len(cut)} (their searches"
            f" {sum(r['sub_nodes'] for r in cut):,} positions), below what its own search"
            f" banks in {sum(r['optimistic'] < r['sub_banked'] for r in part)}, sound below"
            f" B1 in {sum(r['sound'] < r['b1'] for r in part)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="random games per deal")
    parser.add_argument("--path", type=int, metavar="DEAL", help="read a search's path instead")
    parser.add_argument("--nodes", type=int, default=20_000_000, help="with --path")
    parser.add_argument("--every", type=int, default=2_000_000, help="with --path")
    parser.add_argument("--sub-nodes", type=int, default=1_000_000, help="with --path")
    args = parser.parse_args()
    if args.path is not None:
        if args.path < 0 or min(args.nodes, args.every, args.sub_nodes) < 1:
            raise SystemExit(
                "deadend_census: --path takes a deal number >= 0, and --nodes, --every"
                " and --sub-nodes numbers >= 1"
            )
        _path_main(args.path, args.nodes, args.every, args.sub_nodes)
        return
    sample = positions(args.games)
    lower = dict.fromkeys(("optimistic", "pattern", "sound"), 0)
    cards = dict.fromkeys(lower, 0)
    b1_below_52 = 0
    for pos in sample:
        b1 = census_bound(pos, "b1")
        assert b1 == kernel_bound(pos), pos.show()
        b1_below_52 += b1 < 52
        for mode in lower:
            u = census_bound(pos, mode)
            assert u <= b1, pos.show()
            lower[mode] += u < b1
            cards[mode] += b1 - u
    print(f"{len(sample)} positions of strict deals {HARD_DEALS}; B1 below 52 in {b1_below_52}")
    for mode in lower:
        print(f"{mode}: bound below B1's in {lower[mode]} positions, {cards[mode]} cards in all")


if __name__ == "__main__":
    main()
