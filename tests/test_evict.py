"""Eviction from a full table (``solver.table.tt_evict``, ``Solver(evict=True)``).

A full table forgets the entries the search has not met since the last
eviction (and, when that is too few, an even spread of the others), never a
position of the search's path; the search goes on and stays exhaustive, so
its verdicts and banked counts are those of a table large enough for the
whole search. These tests check the table after an eviction entry by entry,
and whole solves with a table far too small against solves with a big one.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from canfield.engine import core
from canfield.engine.position import Position
from canfield.solver.search import Solver
from canfield.solver.stats import N_STATS, ST_ENTRIES, ST_EVICTED
from canfield.solver.table import (
    PACK_WORDS,
    VISITED,
    new_table,
    tt_evict,
    tt_slot,
    tt_visit,
)


def _positions(profile: str, wanted: int, seed: int) -> list[Position]:
    """``wanted`` different positions met in random play."""
    rng = random.Random(seed)
    seen: dict[bytes, Position] = {}
    deal = seed
    while len(seen) < wanted:
        pos = Position.from_deal(deal, profile)
        for _ in range(rng.randrange(30, 200)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.apply(rng.choice(moves))
            seen.setdefault(_key(pos).tobytes(), pos)
        deal += 1
    return list(seen.values())[:wanted]


def _key(pos: Position) -> np.ndarray:
    kw = core.key_words(int(pos.game.rules[core.R_BUILD]))
    key = np.zeros(kw + PACK_WORDS, np.uint64)
    core.canonical_key(pos.state, pos.game.rules, key)
    return key


def _found(table, pos: Position) -> bool:
    return tt_slot(table, _key(pos), pos.game.rules) >= 0


@pytest.mark.parametrize("profile", ["strict", "rainbow"])
def test_eviction_keeps_the_path_and_those_met_again_and_every_survivor_is_found(profile):
    pool = _positions(profile, 600, seed=3)
    game, rules = pool[0].game.arr, pool[0].game.rules
    kw = core.key_words(int(rules[core.R_BUILD]))
    table = new_table(800, kw)
    stats = np.zeros(N_STATS, np.int64)
    for pos in pool:
        assert tt_visit(table, _key(pos), pos.state, game, rules, False, 800, stats) == 1
    path = [pool[i] for i in (5, 77, 301, 590)]
    states = np.array([p.state for p in path])
    # every entry was just entered (VISITED): an even spread of half of them goes
    gone = tt_evict(table, states, len(path) - 1, rules, stats, 0.5)
    assert 250 <= gone <= 350
    assert stats[ST_ENTRIES] == 600 - gone and stats[ST_EVICTED] == gone
    kept = [p for p in pool if _found(table, p)]
    assert len(kept) == 600 - gone  # every survivor is found from its home slot
    assert all(_found(table, p) for p in path)
    nw = table.shape[1]
    assert not any(table[i, nw - 1] & VISITED for i in range(800) if table[i, 0])
    # meet a third of the survivors again; the next eviction takes the rest
    again = kept[::3]
    for pos in again:
        assert tt_visit(table, _key(pos), pos.state, game, rules, False, 800, stats) == 0
    gone2 = tt_evict(table, states, len(path) - 1, rules, stats, 0.5)
    left = [p for p in pool if _found(table, p)]
    on_path = {_key(p).tobytes() for p in path}
    assert {_key(p).tobytes() for p in left} == {_key(p).tobytes() for p in again} | on_path
    assert gone2 == len(kept) - len(left) > 0
    # a table holding nothing but the path has nothing to give
    only_path = new_table(64, kw)
    stats = np.zeros(N_STATS, np.int64)
    for pos in path:
        tt_visit(only_path, _key(pos), pos.state, game, rules, False, 64, stats)
    assert tt_evict(only_path, states, len(path) - 1, rules, stats, 0.5) == 0
    assert all(_found(only_path, p) for p in path)


# deals whose search needs a table larger than the 4 MiB given (strict 0
# about 13 MiB: too small for eviction to save it within the budget)
CASES = [("strict", 9), ("rainbow", 9), ("superior", 0), ("strict", 0), ("hevagames", 6)]


def test_a_table_too_small_with_eviction_decides_as_a_big_one():
    inf, nodes, memory = float("inf"), 1_500_000, 4 << 20
    rescued = 0
    for profile, deal in CASES:
        pos = Position.from_deal(deal, profile)
        big = Solver(memory=1 << 30).solve(pos, inf, nodes)
        small = Solver(memory=memory, evict=True).solve(pos, inf, nodes)
        without = Solver(memory=memory, evict=False).solve(pos, inf, nodes)
        assert big.decided, (profile, deal)
        assert small.peak_table_bytes <= memory
        # eviction never turns a verdict over, and a decided search is exact
        if small.decided:
            assert (small.result, small.banked) == (big.result, big.banked), (profile, deal)
        else:
            assert small.stop_reason == "nodes" and small.banked <= big.banked
        if small.decided and without.stop_reason == "memory":
            assert small.evicted > 0
            rescued += 1
    # the table filled and eviction decided what a full table leaves unknown
    assert rescued >= 3
