"""The layered search (``Solver(strategy="layers")``) against the depth-first
search, the brute force and the argument it rests on."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from test_solver import brute_force, late_positions

from canfield.engine import core
from canfield.engine.cards import card_str, parse_card
from canfield.engine.position import Position
from canfield.solver import config
from canfield.solver.layers import progress, state_from_key
from canfield.solver.search import Solver, solve_deal


@pytest.fixture
def layers_only(monkeypatch):
    """No depth-first share and no probes first: the layered kernel does all the work."""
    monkeypatch.setattr(config, "LAYER_DFS_SHARE", 0.0)
    monkeypatch.setattr(config, "PROBES", ())
    monkeypatch.setattr(config, "TURN_PROBES", ())


NO_WORRY = ["strict", "hevagames", "strict:passes=2", "superior", "storehouse", "rainbow"]


@pytest.mark.parametrize("profile", NO_WORRY + ["strict:draw=1", "solvitaire"])
def test_progress_never_falls_and_rises_by_at_most_two(profile):
    # the layers rest on this: without worry no move lowers progress, and a
    # card move raises it by 0, 1 or 2 (stock turns leave it alone)
    rng = random.Random(7)
    steps = {0: 0, 1: 0, 2: 0}
    for deal in range(12):
        pos = Position.from_deal(deal, profile)
        for _ in range(150):
            moves = pos.legal_moves()
            if not moves:
                break
            for move in moves:
                step = int(progress(pos.apply(move).state)) - int(progress(pos.state))
                assert step in (0, 1, 2), (pos.show(), str(move), step)
                assert step == 0 or not move.is_stock, (pos.show(), str(move))
                steps[step] += 1
            pos = pos.apply(rng.choice(moves))
    assert min(steps.values()) > 0, steps


@pytest.mark.parametrize(
    "profile, cap",
    [("strict", 60_000), ("hevagames", 60_000), ("strict:passes=2", 60_000), ("superior", 30_000)],
)
def test_layers_match_brute_force_on_late_positions(profile, cap, layers_only):
    compared = 0
    for pos in late_positions(profile, 12, seed=len(profile) + 3):
        truth = brute_force(pos, cap)
        if truth is None:
            continue
        for prune in (True, False):
            # a node cap, not the clock: the first solve may compile (test_solver)
            r = Solver(memory=1 << 26, prune=prune, strategy="layers").solve(
                pos, seconds=3600, nodes=5_000_000
            )
            assert (r.result, r.banked) == truth, (pos.show(), prune, r.result, r.banked, truth)
        compared += 1
    assert compared >= 4


@pytest.mark.parametrize(
    "profile, deals, least",
    [
        ("strict", range(24), 2),
        ("hevagames", range(24), 1),
        ("superior", range(24), 1),
        ("strict:passes=2", range(12), 8),
        ("storehouse", range(12), 6),  # passes=3: 6 of deals 0-11 lost
        ("rainbow", range(8), 1),
    ],
)
@pytest.mark.parametrize("share", [0.0, 0.1])
def test_layers_and_depth_first_agree_on_deals(profile, deals, least, share, monkeypatch):
    # the layered search must prove what the depth-first one proves, with the
    # same banked count; alone (share 0) it finds wins late, so a won deal may
    # stay unknown; after a depth-first share, the share's best seeds rule B1
    monkeypatch.setattr(config, "LAYER_DFS_SHARE", share)
    dfs, lay = Solver(1 << 27), Solver(1 << 27, strategy="layers")
    lost = 0
    for deal in deals:
        pos = Position.from_deal(deal, profile)
        a = dfs.solve(pos, seconds=60, nodes=400_000)
        b = lay.solve(pos, seconds=60, nodes=400_000 if a.result == "lost" else 20_000)
        assert {a.result, b.result} != {"won", "lost"}, (profile, deal)
        if a.decided and b.decided:
            assert (a.result, a.banked) == (b.result, b.banked), (profile, deal)
        if a.result == "lost":
            assert (b.result, b.banked) == ("lost", a.banked), (profile, deal)
            lost += 1
    assert lost >= least, lost


def test_layers_prove_within_their_memory_budget(layers_only):
    # strict deal 19 is lost in 338,822 positions: the layered search proves it
    # in 16 MiB (tables, stacks and log), as the depth-first search does with
    # its compact table (about 7.6 MiB; before it, about 56 MiB: docs/solver.md)
    pos = Position.from_deal(19, "strict")
    budget = 16 << 20
    lay = Solver(budget, strategy="layers").solve(pos, seconds=60)
    dfs = Solver(budget).solve(pos, seconds=60)
    assert (lay.result, lay.banked) == ("lost", 8) == (dfs.result, dfs.banked)
    assert lay.peak_table_bytes <= budget and dfs.peak_table_bytes <= budget


def test_layers_memory_budget_gives_unknown(layers_only):
    r = Solver(1 << 20, strategy="layers").solve(Position.from_deal(19, "strict"), seconds=60)
    assert (r.result, r.stop_reason) == ("unknown", "memory")
    assert r.peak_table_bytes <= 1 << 20


def test_layers_tiny_budget_is_unknown_never_lost(layers_only):
    r = Solver(strategy="layers").solve(Position.from_deal(19, "strict"), seconds=60, nodes=50)
    assert (r.result, r.stop_reason) == ("unknown", "nodes")
    assert r.nodes <= 50


@pytest.mark.parametrize("deal, profile", [(2, "strict"), (5, "storehouse"), (0, "hevagames")])
def test_layers_win_replays(deal, profile, layers_only):
    # start some way before the end of a depth-first solution: the layered
    # search must win too, with a line that replays through the engine
    pos = Position.from_deal(deal, profile)
    won = Solver().solve(pos, seconds=60)
    assert won.result == "won"
    for line in won.moves[: len(won.moves) - 60]:
        pos = pos.apply(line)
    # the layered search expands positions with their columns sorted; the
    # line must be mapped back to these columns, so start out of that order
    key = np.zeros(9 if profile == "rainbow" else 5, np.uint64)
    core.canonical_key(pos.state, pos.game.rules, key)
    in_key_order = np.zeros(core.STATE_LEN, np.uint64)
    state_from_key(key, in_key_order)
    assert not np.array_equal(in_key_order, pos.state)
    r = Solver(strategy="layers").solve(pos, seconds=60)
    assert (r.result, r.banked) == ("won", 52)
    end = pos
    for line in r.moves:
        end = end.apply(line)
    assert end.is_won()


def test_layers_refuse_worry():
    with pytest.raises(ValueError, match="worry"):
        Solver(strategy="layers").solve(Position.from_deal(0, "cardgames"), seconds=1)


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="strategy"):
        Solver(strategy="bfs")


def test_layers_for_selective_try_the_picks_in_order_until_one_wins():
    # selective deal 9: the first pick (7D) is not won on its share of 60,000
    # positions, a later one is; the answer is that pick's, and each pick's
    # verdict is the layered search's of that pick alone, on its share (an
    # equal part of what the picks before it left)
    r = solve_deal(9, "selective", seconds=60, nodes=60_000, strategy="layers")
    five = [card_str(c) for c in Position.from_deal(9, "strict").game.deal[13:18]]
    tried = list(r.picks)
    assert tried == five[: len(tried)] and len(tried) >= 2
    assert (r.strategy, r.result, r.moves[0]) == ("layers", "won", f"pick {tried[-1]}")
    used = 0
    for i, card in enumerate(tried):
        pos = Position.from_deal(9, "selective", pick=parse_card(card))
        share = (60_000 - used) // (5 - i)
        alone = Solver(strategy="layers").solve(pos, seconds=60, nodes=share)
        assert r.picks[card] == {"result": alone.result, "banked": alone.banked}
        used += alone.nodes
    assert r.picks["7D"]["result"] != "won"
    assert r.nodes == used <= 60_000


@pytest.mark.parametrize("profile", ["strict", "rainbow", "storehouse", "hevagames"])
def test_state_from_key_gives_the_same_position_with_columns_sorted(profile):
    rng = random.Random(3)
    checked = 0
    for deal in range(6):
        pos = Position.from_deal(deal, profile)
        for _ in range(80):
            key = np.zeros(9 if profile == "rainbow" else 5, np.uint64)
            core.canonical_key(pos.state, pos.game.rules, key)
            back = Position(pos.game, np.zeros(core.STATE_LEN, np.uint64))
            state_from_key(key, back.state)
            assert sorted(back.columns()) == sorted(pos.columns())
            assert (back.foundations(), back.reserve(), back.waste(), back.stock()) == (
                pos.foundations(),
                pos.reserve(),
                pos.waste(),
                pos.stock(),
            )
            assert back.key() == pos.key()
            checked += 1
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.apply(rng.choice(moves))
    assert checked >= 100


def test_a_timed_layered_search_counts_its_rehash_by_the_new_tables_bytes(layers_only, monkeypatch):
    """The layered search asks the depth-first search's rehash guard before
    it doubles a layer's table: with a rehash priced at a second a byte, the
    first full table is not grown and the solve stops for "time", unknown,
    long before its budget; priced as configured, the same solve grows its
    tables and proves the loss."""
    from canfield.solver import layers_run

    asked: list[int] = []
    guard = layers_run.rehash_in_time

    def counted(t0, seconds, rate, new_slots, slot_bytes):
        asked.append(new_slots * slot_bytes)
        return guard(t0, seconds, rate, new_slots, slot_bytes)

    monkeypatch.setattr(layers_run, "rehash_in_time", counted)
    pos = Position.from_deal(19, "strict")
    budget = 600.0  # far more than a cold compile and the search take
    free = Solver(1 << 26, strategy="layers").solve(pos, seconds=budget)
    assert (free.result, free.banked) == ("lost", 8)
    assert asked and min(asked) > 0  # the guard was asked, with the new table's bytes
    asked.clear()
    monkeypatch.setattr(config, "REHASH_SECONDS_PER_BYTE", 1.0)
    t0 = time.perf_counter()
    priced = Solver(1 << 26, strategy="layers").solve(pos, seconds=budget)
    assert (priced.result, priced.stop_reason) == ("unknown", "time")
    assert len(asked) == 1  # refused at the first full table
    assert time.perf_counter() - t0 < budget  # stopped by the guard, not the clock
