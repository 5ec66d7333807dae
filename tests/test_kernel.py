"""The solver's move kernels against the public engine they stand in for.

``gen_macros`` and ``apply_macro`` (``solver/moves.py``) make every child of
a position: the K+ macro moves and the positions they lead to. Their slow
twin here walks the stock with the engine's own ``draw`` and ``redeal``
moves and makes every card move from each stock position, through
``Position.apply``. The two must give the same children.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_bound import dealt, tangled

from canfield.engine import core
from canfield.engine.notation import Move
from canfield.engine.position import Position
from canfield.engine.profiles import PRESETS
from canfield.solver import config
from canfield.solver.macros import macro_atomic
from canfield.solver.moves import apply_macro, builder_masks, gen_macros
from canfield.solver.pruning import canon_stock, dominators


def fast_children(pos: Position, back: int = -1) -> list[tuple[str, tuple]]:
    game, rules = pos.game.arr, pos.game.rules
    out = np.empty(config.MAX_MACROS, np.int64)
    buf = np.empty(core.MAX_MOVES, np.int64)
    scratch = np.empty(config.MAX_MACROS + 64, np.int64)
    builders = np.empty(52, np.uint64)
    builder_masks(game, rules, builders)
    n = gen_macros(pos.state, game, rules, out, buf, scratch, 0, builders, back)
    children = []
    for mac in out[:n]:
        child = pos.state.copy()
        apply_macro(child, int(mac), game, rules)
        move = Move.from_code(int(macro_atomic(int(mac))))
        children.append((str(move), Position(pos.game, child).key()))
    return sorted(children)


def slow_children(pos: Position) -> list[tuple[str, tuple]]:
    """Every card move from every stock position that draws and redeals reach,
    each stock position taken once (the first time, so with fewest redeals)."""
    children = []
    seen = set()
    cur = pos
    while True:
        here = int(core.waste_ptr(cur.state))
        if here in seen:
            break
        seen.add(here)
        stock_moves = []
        for move in cur.legal_moves():
            if move.is_stock:
                stock_moves.append(move)
            elif move.src == "W" or cur is pos:
                children.append((str(move), cur.apply(move).key()))
        if not stock_moves:
            break
        cur = cur.apply(stock_moves[0])
    return sorted(children)


def positions(profile: str, games: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for deal in range(seed, seed + games):
        pos = dealt(deal, profile)
        for _ in range(rng.randrange(20, 200)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.apply(rng.choice(moves))
            if rng.random() < 0.15:
                out.append(pos)
    return out


# double has its own move kernel (solver/double_dfs.py), tested in tests/test_double.py
ONE_PACK = sorted(p for p in PRESETS if PRESETS[p].packs == 1)


@pytest.mark.parametrize("profile", ONE_PACK + ["strict:passes=2", "strict:draw=1"])
def test_macro_children_match_the_engine(profile):
    checked = 0
    for pos in positions(profile, games=5, seed=3):
        assert fast_children(pos) == slow_children(pos), pos.show()
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("profile", ["strict", "storehouse", "rainbow", "superior"])
def test_macro_children_match_the_engine_on_tangled_positions(profile):
    for seed in range(40):
        pos = tangled(profile, seed)
        assert fast_children(pos) == slow_children(pos), pos.show()


@pytest.mark.parametrize("profile", ["strict", "hevagames"])
def test_the_undo_move_is_the_only_child_left_out(profile):
    # after a column move that leaves its source non-empty, the reverse move
    # leads back to the parent; the search passes it as ``back`` and it alone
    # is dropped
    dropped = 0
    for pos in positions(profile, games=6, seed=5):
        for move in pos.legal_moves():
            if move.src.startswith("T") and move.dst.startswith("T"):
                src = int(move.src[1]) - 1
                if move.count >= len(pos.columns()[src]):
                    continue
                child = pos.apply(move)
                back = Move(move.dst, move.src, move.count)
                full = fast_children(child)
                kept = fast_children(child, back.code())
                gone = [c for c in full if c not in kept]
                assert [name for name, _ in gone] == [str(back)]
                assert gone[0][1] == pos.key()
                dropped += 1
    assert dropped >= 5


def reach(pos: Position) -> set[int]:
    """Waste pointers that draws and redeals alone bring ``pos`` to."""
    seen = set()
    cur = pos
    while int(core.waste_ptr(cur.state)) not in seen:
        seen.add(int(core.waste_ptr(cur.state)))
        steps = [m for m in cur.legal_moves() if m.is_stock]
        if not steps:
            break
        cur = cur.apply(steps[0])
    return seen


@pytest.mark.parametrize("profile", ["strict", "hevagames", "strict:draw=1"])
def test_dominators_are_exactly_the_pointers_that_reach_more(profile):
    # rule E2: pointer q dominates pointer p of the same position when every
    # waste position p reaches, q reaches too. Pointers are compared as the
    # search stores them: E1 puts every on-cycle pointer at 0.
    checked = 0
    for pos in positions(profile, games=6, seed=9):
        canon = pos.state.copy()
        canon_stock(canon, pos.game.arr, pos.game.rules)
        p = int(core.waste_ptr(canon))
        mask = int(dominators(canon, pos.game.arr, pos.game.rules))
        live = [i for i in range(len(pos.game.stock)) if not core.stock_removed(pos.state, i)]
        for q in [0] + [i + 1 for i in live]:
            other = canon.copy()
            core.set_waste_ptr(other, q)
            canon_stock(other, pos.game.arr, pos.game.rules)
            if int(core.waste_ptr(other)) != q:
                continue  # not a pointer the search stores (E1 maps it to 0)
            mine = reach(Position(pos.game, canon))
            theirs = reach(Position(pos.game, other))
            assert bool(mask >> q & 1) == (mine <= theirs), (pos.show(), p, q)
            checked += 1
    assert checked >= 50


def test_search_loops_count_no_references():
    """The three search loops and the callees they make at every position are
    compiled with numba's reference counting off (``engine/uncounted.py``): the atomic
    counts of their array views took about half the search's time
    (docs/solver.md, "Speed"). Dropping the option would still give the same
    search, only slower, so nothing else would notice."""
    from numba import config as numba_config

    from canfield.solver import bound, dfs, double_dfs, layers, pruning, rank_home

    if numba_config.DISABLE_JIT:
        pytest.skip("plain Python functions (NUMBA_DISABLE_JIT): nothing is compiled")
    kernels = [
        dfs._search_loop,
        double_dfs._run_loop,
        double_dfs._gen_macros,
        double_dfs.tt_insert,
        layers._layers_loop,
        core.apply_move,
        core.col_move,
        core.auto_fill,
        pruning.canon_stock,
        pruning.dominators,
        bound._decode,
        bound._settle,
        rank_home.buried_builders_home,
    ]
    counting = [k.py_func.__name__ for k in kernels if k.targetoptions.get("_nrt", True)]
    assert not counting, f"compiled with reference counting: {counting}"
