"""The narrowed probes a solve runs first (``config.PROBES``, docs/solver.md).

A probe searches only the first few moves of each position. Its wins are real
(replayed like every line); its exhaustion proves nothing, so it must never
end a solve as lost, and the full search after it must reach the verdict and
banked count it reaches without probes.
"""

from __future__ import annotations

import time

import pytest
from test_solver import replay

from canfield.engine.position import Position
from canfield.solver import config
from canfield.solver.dfs_run import DfsRun, Path
from canfield.solver.macros import expand_macros
from canfield.solver.pruning import WIN_ONLY
from canfield.solver.search import Solver, prune_mask, solve_deal
from canfield.solver.stats import ST_BEST, ST_CUT, ST_NODES

INF = float("inf")


def test_an_exhausted_probe_is_not_a_proof(monkeypatch):
    # strict deal 173 is won, but searching only two moves a position runs
    # out of positions after about 500 without a win
    monkeypatch.setattr(config, "PROBES", ((2, 0.99, 1e9),))
    monkeypatch.setattr(config, "TURN_PROBES", ())  # their exhaustion is a proof
    pos = Position.from_deal(173, "strict")
    r = Solver(1 << 24).solve(pos, seconds=60, nodes=20_000)
    assert (r.result, r.stage) == ("won", "dfs")
    assert replay(173, "strict", r.moves).is_won()
    # the same probe, with almost no nodes left for the full search after it
    short = Solver(1 << 24).solve(pos, seconds=60, nodes=600)
    assert short.result == "unknown" and short.stop_reason == "nodes"
    assert short.nodes <= 600


def test_a_probe_win_replays():
    # hevagames deal 12 is unknown after 10 s of the full search alone; the
    # two-move probe (5% of the budget) wins it in under 200,000 positions
    r = solve_deal(12, "hevagames", seconds=60, nodes=4_000_000)
    assert r.result == "won" and r.stage == "probe2"
    assert replay(12, "hevagames", r.moves).is_won()
    plain = solve_deal(12, "hevagames", seconds=60, nodes=400_000, probes=False)
    assert plain.result == "unknown" and plain.stage == "dfs"


@pytest.mark.parametrize(
    "profile, deals, some_lost, some_probe_win",
    [
        ("strict", range(0, 24), True, True),
        ("hevagames", range(0, 16), True, True),
        ("storehouse", range(0, 24), True, False),  # its wins come in the first slice
        ("strict:draw=1", range(0, 12), False, True),  # draw 1 wins nearly every deal
        ("cardgames", range(0, 12), True, True),  # worry: no B1, the probes still apply
    ],
)
def test_probes_on_and_off_agree(profile, deals, some_lost, some_probe_win):
    on, off = Solver(1 << 26, probes=True), Solver(1 << 26, probes=False)
    both = by_probe = lost = 0
    for deal in deals:
        pos = Position.from_deal(deal, profile)
        a = on.solve(pos, seconds=60, nodes=60_000)
        b = off.solve(pos, seconds=60, nodes=60_000)
        assert a.nodes <= 60_000 and b.nodes <= 60_000
        assert {a.result, b.result} != {"won", "lost"}, (profile, deal)
        assert replay(deal, profile, a.best_line).banked == a.banked
        if a.decided and b.decided:
            both += 1
            assert (a.result, a.banked) == (b.result, b.banked), (profile, deal)
        by_probe += a.result == "won" and a.stage.startswith("probe")
        lost += a.result == "lost"
    assert both >= len(deals) // 2
    assert by_probe > 0 or not some_probe_win, "no probe won: the comparison never used them"
    # a lost deal is proven by the full search (paused for the probes and
    # resumed with their best count, when its first slice did not decide it)
    assert lost > 0 or not some_lost


def test_without_probes_the_search_is_the_plain_depth_first_one():
    # strict deal 19 is proven lost with 8 banked by the full search alone
    r = Solver(probes=False).solve(Position.from_deal(19, "strict"), seconds=120)
    assert (r.result, r.banked, r.stage) == ("lost", 8, "dfs")
    # with probes, a deal the full search's first slice decides is decided
    # before any probe runs: the very same search, position for position
    p = Solver().solve(Position.from_deal(19, "strict"), seconds=120)
    assert (p.result, p.banked, p.stage) == (r.result, r.banked, r.stage)
    assert (p.nodes, p.children, p.cut, p.dominated) == (r.nodes, r.children, r.cut, r.dominated)
    # with a node budget whose first tenth does not decide it, the probes run
    # (their positions are counted) and the resumed full search proves it
    q = Solver().solve(Position.from_deal(19, "strict"), seconds=120, nodes=2_000_000)
    assert (q.result, q.banked, q.stage) == ("lost", 8, "dfs")
    assert q.nodes > r.nodes


def _probe(pos: Position, width: int, prune: int) -> DfsRun:
    run = DfsRun(pos, Path(), prune, 1 << 27, width=width)
    run.advance(time.perf_counter(), 600.0, None, 1 << 27)
    return run


def test_a_probe_cuts_what_cannot_win_and_finds_the_same_win_sooner():
    # WIN_ONLY: in a narrowed probe rule B1 cuts every position whose bound
    # is below 52. Every position of a winning line has the bound 52, and a
    # position below 52 has only such positions below it, so the probe
    # meets the positions that can win in the same order: the same winning
    # line, in as many positions or fewer
    sooner = 0
    for deal in (60, 92, 112, 114, 143, 163, 173):  # strict deals a 3-move probe wins
        pos = Position.from_deal(deal, "strict")
        off = _probe(pos, 3, prune_mask(True)).finish()
        on = _probe(pos, 3, prune_mask(True) | WIN_ONLY).finish()
        assert off.result == on.result == "won", deal
        assert on.macros == off.macros, deal
        assert replay(deal, "strict", expand_macros(pos, on.macros)[0]).is_won()
        assert int(on.stats[ST_NODES]) <= int(off.stats[ST_NODES]), deal
        sooner += int(on.stats[ST_NODES]) < int(off.stats[ST_NODES])
    assert sooner >= 5, "the cut never fired: no win came sooner"


def test_the_probes_cut_what_cannot_win_only_under_a_time_budget_alone(monkeypatch):
    # strict deal 120 is won by the 3-move probe: sooner with the cut when
    # the solve has a time budget alone; under a node budget (every sweep)
    # the solve is the one it was without the cut, position for position
    pos = Position.from_deal(120, "strict")
    # the 3-move probe alone: the turned ones run on the clock, and their
    # positions would make the counts differ from run to run
    monkeypatch.setattr(config, "PROBES", ((3, 0.6, 1e9),))
    monkeypatch.setattr(config, "TURN_PROBES", ())
    solves = {}
    for on in (False, True):
        monkeypatch.setattr(config, "PROBE_CUTS_NO_WIN", on)
        timed = Solver(1 << 28).solve(pos, seconds=120)
        counted = Solver(1 << 28).solve(pos, seconds=INF, nodes=3_000_000)
        solves[on] = (timed, counted)
    (timed_off, counted_off), (timed_on, counted_on) = solves[False], solves[True]
    assert (
        (timed_on.result, timed_on.stage)
        == (timed_off.result, timed_off.stage)
        == ("won", "probe3")
    )
    assert timed_on.nodes < timed_off.nodes  # it fired
    assert counted_on.result == counted_off.result == "won"
    assert (counted_on.nodes, counted_on.cut) == (counted_off.nodes, counted_off.cut)
    assert counted_on.moves == counted_off.moves


def test_the_full_search_cuts_only_what_cannot_beat_the_best():
    # a full-width search proves losses and their banked counts: the
    # probes' cut must never reach it, even with the mask bit set
    pos = Position.from_deal(19, "strict")
    plain = _probe(pos, config.MAX_MACROS, prune_mask(True)).finish()
    marked = _probe(pos, config.MAX_MACROS, prune_mask(True) | WIN_ONLY).finish()
    assert (plain.result, int(plain.stats[ST_BEST])) == ("lost", 8)
    assert (marked.result, int(marked.stats[ST_BEST])) == ("lost", 8)
    assert int(marked.stats[ST_NODES]) == int(plain.stats[ST_NODES])
    # the same deal, narrowed: there the bit does cut more (so the equality
    # above is not that of a bit the kernel ignores)
    narrowed = _probe(pos, 3, prune_mask(True) | WIN_ONLY).stats
    bare = _probe(pos, 3, prune_mask(True)).stats
    assert int(narrowed[ST_CUT]) > int(bare[ST_CUT])


def test_layers_after_probes_agree():
    pos = Position.from_deal(0, "strict")
    a = Solver(1 << 26, strategy="layers").solve(pos, seconds=120)
    b = Solver(1 << 26, probes=False).solve(pos, seconds=120)
    assert (a.result, a.banked) == (b.result, b.banked) == ("lost", 12)


def test_a_node_budget_alone_ignores_the_probes_time_caps(monkeypatch):
    # sweeps give only a node budget so that every row is the same on any
    # machine: the probes' time caps must then not apply
    pos = Position.from_deal(12, "hevagames")
    a = Solver(1 << 28).solve(pos, seconds=INF, nodes=4_000_000)
    monkeypatch.setattr(config, "PROBES", tuple((w, f, 0.0) for w, f, _ in config.PROBES))
    b = Solver(1 << 28).solve(pos, seconds=INF, nodes=4_000_000)
    assert (a.result, a.stage) == ("won", "probe2")
    assert (b.result, b.stage, b.nodes) == (a.result, a.stage, a.nodes)


def test_a_turned_probe_wins_what_the_usual_order_leaves(monkeypatch):
    # strict deal 1 is won, but the usual order is still unknown after
    # 700,000 positions; turned by 224 256ths the full search wins it in
    # 258,044 (docs/solver.md, "Turned probes")
    pos = Position.from_deal(1, "strict")
    plain = Solver(1 << 26, probes=False).solve(pos, seconds=INF, nodes=700_000)
    assert plain.result == "unknown"
    alone = Solver(1 << 26, probes=False, turn=224).solve(pos, seconds=INF, nodes=700_000)
    assert alone.result == "won"
    # as a probe: the narrowed probes left out, the turned one on half the
    # time (turned probes run only without a node budget)
    monkeypatch.setattr(config, "PROBES", ())
    monkeypatch.setattr(config, "TURN_PROBES", ((224, 0.5),))
    r = Solver(1 << 26).solve(pos, seconds=20)
    assert (r.result, r.stage, r.turn) == ("won", "turn224", 0)
    assert replay(1, "strict", r.moves).is_won()
    # a node budget (every sweep) runs no turned probe: 0.19's rows
    rows = Solver(1 << 26).solve(pos, seconds=20, nodes=700_000)
    assert (rows.result, rows.stage, rows.nodes) == ("unknown", "dfs", 700_000)


def test_a_turned_probe_s_exhaustion_is_a_proof(monkeypatch):
    # a turned probe searches every move, so running out of positions proves
    # the loss, with the most banked, as the usual order does
    monkeypatch.setattr(config, "PROBES", ())
    monkeypatch.setattr(config, "TURN_PROBES", ((224, 0.3), (96, 0.3)))
    # a first slice of a few milliseconds: its first chunk (CHUNK_NODES,
    # before it reads the clock) and no more, so these proofs outlast it
    monkeypatch.setattr(config, "DFS_FIRST_SHARE", 1e-4)
    usual = Solver(1 << 26, probes=False)
    probed = Solver(1 << 26)
    by_turn = 0
    for deal in (65, 39, 94, 170, 9, 19):  # lost in 100,000-340,000 positions
        pos = Position.from_deal(deal, "strict")
        a = usual.solve(pos, seconds=INF, nodes=1_000_000)
        assert a.result == "lost" and a.nodes > config.CHUNK_NODES, deal
        b = probed.solve(pos, seconds=30)
        assert (b.result, b.banked) == (a.result, a.banked), deal
        by_turn += b.stage.startswith("turn")
    assert by_turn >= 3, "turned probes proved too few losses: the test barely used them"


def test_the_short_turned_probes_run_first_and_win_what_the_long_ones_leave():
    # superior 35 is unknown at 10 s under 0.20.0's four turned orders (224,
    # 160, 96, 32 at 4% each, after the narrowed probes); turned by 192 it is
    # won in 1,531 positions (docs/solver.md, "Turned probes")
    assert config.TURN_PROBES_FIRST > 0
    short = [t for t, share in config.TURN_PROBES[: config.TURN_PROBES_FIRST]]
    assert 192 in short
    pos = Position.from_deal(35, "superior")
    r = Solver(1 << 26).solve(pos, seconds=10)
    assert (r.result, r.stage) == ("won", "turn192")
    assert replay(35, "superior", r.moves).is_won()


def test_the_probes_run_short_turned_then_narrowed_then_long_turned(monkeypatch):
    import canfield.solver.search as search

    stages = []

    class Logged(search.DfsRun):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            stages.append(self.stage)

    monkeypatch.setattr(search, "DfsRun", Logged)
    monkeypatch.setattr(config, "DFS_FIRST_SHARE", 1e-4)
    # strict 12 is unknown for far longer than these probes run
    Solver(1 << 24).solve(Position.from_deal(12, "strict"), seconds=1.0)
    turned = [f"turn{t}" for t, share in config.TURN_PROBES]
    first = config.TURN_PROBES_FIRST
    assert 0 < first < len(turned)  # short ones before the narrowed probes, long ones after
    narrowed = [f"probe{w}" for w, share, most in config.PROBES]
    assert stages[1:] == turned[:first] + narrowed + turned[first:], stages
    # a node budget (every sweep) runs the narrowed probes alone: 0.19's rows
    stages.clear()
    Solver(1 << 24).solve(Position.from_deal(12, "strict"), seconds=INF, nodes=200_000)
    assert stages[1:] == narrowed, stages
    # under rank-only building (rainbow deal 3: unknown after 3 million
    # positions) the narrowed probes run and no turned one
    assert 2 in config.TURN_PROBE_SKIP_BUILDS
    stages.clear()
    Solver(1 << 24).solve(Position.from_deal(3, "rainbow"), seconds=1.0)
    assert stages[1:] == narrowed, stages
