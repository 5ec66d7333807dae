"""The variant presets' solver behaviour: selective's budget split, and rule
E3 (limited passes: an earlier pointer of the same pass dominates)."""

from __future__ import annotations

import random

import pytest

from canfield.engine import core
from canfield.engine.position import Position
from canfield.solver.pruning import PRUNING_RULES, dominators
from canfield.solver.search import Solver, solve_deal, warm_up

NODES = 1_500


def test_selective_picks_share_the_node_budget():
    """Five picks together never search more positions than the budget, and
    the split is reproducible (it depends only on the earlier picks' nodes)."""
    warm_up()  # compiling inside a pick's share of the seconds would cut it short
    checked = cut_short = 0
    for deal in range(0, 12):
        r = solve_deal(deal, "selective", seconds=60, nodes=NODES, memory=1 << 24)
        assert r.nodes <= NODES, (deal, r.nodes)
        checked += 1
        if r.result == "unknown":
            cut_short += 1
            # every pick ran, on its share of the budget
            assert len(r.picks) == 5, (deal, r.picks)
        again = solve_deal(deal, "selective", seconds=60, nodes=NODES, memory=1 << 24)
        assert (again.result, again.banked, again.nodes, again.picks) == (
            r.result,
            r.banked,
            r.nodes,
            r.picks,
        )
    assert checked == 12
    # the budget must bite, or the test shows nothing
    assert cut_short >= 2, cut_short


# ---- rule E3: limited passes, an earlier pointer of the same pass dominates ----
LIMITED = ["storehouse", "rainbow:passes=3", "strict:passes=2"]


def _positions(profile: str, games: int, seed: int) -> list[Position]:
    """Positions along seeded random playouts (mostly card moves)."""
    rng = random.Random(seed)
    out = []
    for deal in range(seed, seed + games):
        pos = Position.from_deal(deal, profile)
        for _ in range(rng.randrange(20, 120)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.apply(rng.choice(moves))
            if rng.random() < 0.2:
                out.append(pos)
    return out


def _reach_in_pass(pos: Position) -> set[int]:
    """Waste pointers that draws alone (no redeal) bring ``pos`` to."""
    seen = set()
    while True:
        seen.add(int(core.waste_ptr(pos.state)))
        if not pos.stock():
            return seen
        pos = pos.apply("draw")


@pytest.mark.parametrize("profile", LIMITED)
def test_e3_dominators_are_exactly_the_earlier_pointers_of_the_pass(profile):
    """Bit q of the mask is set exactly when the same position at pointer q
    reaches, by draws alone, every pointer this one reaches."""
    checked = dominated = 0
    for pos in _positions(profile, games=5, seed=11):
        mask = int(dominators(pos.state, pos.game.arr, pos.game.rules))
        mine = _reach_in_pass(pos)
        live = [i for i in range(len(pos.game.stock)) if not core.stock_removed(pos.state, i)]
        for q in [0] + [i + 1 for i in live]:
            other = pos.state.copy()
            core.set_waste_ptr(other, q)
            theirs = _reach_in_pass(Position(pos.game, other))
            assert bool(mask >> q & 1) == (mine <= theirs), (pos.show(), q)
            checked += 1
            dominated += q != int(core.waste_ptr(pos.state)) and bool(mask >> q & 1)
    assert checked >= 50 and dominated >= 10, (checked, dominated)


def test_e3_on_and_off_agree_on_deals():
    """All rules against all but E3, on storehouse (passes=3) and strict:passes=2."""
    others = [r for r in PRUNING_RULES if r != "E3"]
    on = Solver(1 << 26, prune=True, probes=False)
    off = Solver(1 << 26, prune=others, probes=False)
    both = fired = differ = 0
    for profile in ("storehouse", "strict:passes=2"):
        for deal in range(8):
            pos = Position.from_deal(deal, profile)
            a = on.solve(pos, seconds=60, nodes=30_000)
            b = off.solve(pos, seconds=60, nodes=30_000)
            assert {a.result, b.result} != {"won", "lost"}, (profile, deal)
            if a.decided and b.decided:
                both += 1
                assert (a.result, a.banked) == (b.result, b.banked), (profile, deal)
            assert b.dominated == 0  # E2 is off under limited passes
            fired += a.dominated
            differ += a.nodes != b.nodes
    assert both >= 8 and fired > 0 and differ > 0, (both, fired, differ)
