"""The variant presets' solver behaviour: selective's budget split."""

from __future__ import annotations

from canfield.solver.search import solve_deal

NODES = 1_500


def test_selective_picks_share_the_node_budget():
    """Five picks together never search more positions than the budget, and
    the split is reproducible (it depends only on the earlier picks' nodes)."""
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
