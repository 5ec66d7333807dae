"""Solve a two-pack (``double``) position: the driver of :mod:`solver.double_dfs`
and of the beam probe of :mod:`solver.double_beam`.

Runs the resumable kernels in chunks (checking the clock between them),
grows their stacks and tables on demand within the memory budget, and replays
every line it reports through the engine before returning it. "unknown"
(a budget ran out) is never reported as "lost".
"""

from __future__ import annotations

import time

import numpy as np

from canfield.engine import core, core_double
from canfield.engine.notation import Move
from canfield.engine.position import Position
from canfield.solver import config
from canfield.solver.budgets import nodes_in_time, rehash_in_time
from canfield.solver.double_beam import (
    AT_BEST_DEPTH,
    AT_BEST_INDEX,
    AT_DEPTH,
    AT_LEN,
    AT_N,
    beam,
    beam_start,
    line_of,
)
from canfield.solver.double_dfs import TOO_MANY_MOVES, macro_parts, run, start, tt_rehash
from canfield.solver.macros import SolverBug
from canfield.solver.stats import (
    EXHAUSTED,
    N_STATS,
    RUNNING,
    ST_BEST,
    ST_BESTLEN,
    ST_CHILDREN,
    ST_DEAD,
    ST_ENTRIES,
    ST_MAXDEPTH,
    ST_NODES,
    ST_PRUNED,
    TABLE_FULL,
    TOO_DEEP,
    WON,
)

#: Macro moves one level of the stack has room for.
LEVEL_MOVES = 1024
#: Bytes a table slot takes: the 12-word key and its "used" byte.
SLOT_BYTES = 8 * core_double.KEY_WORDS + 1


class _Stack:
    """The search path: a state, the macro moves and the move index per level."""

    def __init__(self, depth: int) -> None:
        self.states = np.zeros((depth, core_double.STATE_LEN), np.uint64)
        self.moves = np.zeros((depth, LEVEL_MOVES), np.int64)
        self.nmov = np.zeros(depth, np.int64)
        self.idx = np.zeros(depth, np.int64)
        self.best = np.zeros(depth, np.int64)

    def grown(self) -> _Stack:
        new = _Stack(2 * self.states.shape[0])
        n = self.states.shape[0]
        for name in ("states", "moves", "nmov", "idx", "best"):
            getattr(new, name)[:n] = getattr(self, name)
        return new


def _slots_for(entries: int) -> int:
    """A power of two with room for ``entries`` below the load limit."""
    slots = 1 << 12
    while slots * 85 // 100 <= entries:
        slots *= 2
    return slots


def _start_slots(nodes: int | None, memory: int) -> int:
    """The first table's slots: room for ``nodes`` positions (a default
    without a node budget), but never more bytes than ``memory`` (the
    smallest table aside), since a table only grows while twice its size
    fits in the budget."""
    slots = _slots_for(min(nodes or config.START_SLOTS, memory // SLOT_BYTES))
    while slots > 1 << 12 and slots * SLOT_BYTES > memory:
        slots //= 2
    return slots


def _work_arrays(nodes: int | None, memory: int) -> tuple[np.ndarray, ...]:
    """A search's first table (keys, used), its statistics and its scratch
    buffers (moves, stock pointers seen)."""
    slots = _start_slots(nodes, memory)
    return (
        np.zeros((slots, core_double.KEY_WORDS), np.uint64),
        np.zeros(slots, np.bool_),
        np.zeros(N_STATS, np.int64),
        np.empty(core.MAX_MOVES, np.int64),
        np.zeros(core_double.MAX_STOCK + 1, np.bool_),
    )


def _timed_grown(keys: np.ndarray, used: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The table rehashed into twice the slots, and the seconds a new slot
    took: what predicts the next rehash (twice as large) under a time budget."""
    started = time.perf_counter()
    new_keys = np.zeros((2 * keys.shape[0], core_double.KEY_WORDS), np.uint64)
    new_used = np.zeros(2 * keys.shape[0], np.bool_)
    tt_rehash(keys, used, new_keys, new_used)
    return new_keys, new_used, (time.perf_counter() - started) / new_used.shape[0]


def warm_double_rehash() -> None:
    """Compile or load the rehash kernel, whose first call's timing would
    otherwise include that (``solver.search.warm_up``)."""
    _timed_grown(np.zeros((2, core_double.KEY_WORDS), np.uint64), np.zeros(2, np.bool_))


def expand(position: Position, macros: list[int]) -> tuple[list[str], Position]:
    """Atomic notation of ``macros`` from ``position``, each move played by the engine."""
    k = position.game.core
    pos = position
    line: list[str] = []
    for mac in macros:
        atomic, turns, ptr, red = (int(v) for v in macro_parts(mac))
        if turns:
            for _ in range(4 * (len(position.game.stock) + 2) * 16):
                if k.waste_ptr(pos.state) == ptr and k.redeals(pos.state) == red:
                    break
                step = "draw" if pos.stock() else "redeal"
                pos = pos.apply(step)
                line.append(step)
            else:
                raise SolverBug(f"the stock never turned to pointer {ptr} after {red} redeals")
        move = Move.from_code(atomic)
        pos = pos.apply(move)
        line.append(str(move))
    return line, pos


def _outcome(
    result: str, reason: str, macros: list[int], stats: np.ndarray, table_bytes: int
) -> dict:
    """What one search or probe hands :func:`solve_double`."""
    return {
        "result": result,
        "stop_reason": reason,
        "macros": macros,
        "banked": int(stats[ST_BEST]),
        "nodes": int(stats[ST_NODES]),
        "children": int(stats[ST_CHILDREN]),
        "pruned": int(stats[ST_PRUNED]),
        "dead_ends": int(stats[ST_DEAD]),
        "max_depth": int(stats[ST_MAXDEPTH]),
        # the table alone, as the one-pack search reports it (the stack is apart)
        "peak_table_bytes": table_bytes,
        "entries": int(stats[ST_ENTRIES]),
    }


def _search(
    position: Position,
    t0: float,
    seconds: float,
    nodes: int | None,
    memory: int,
    prune: int,
    width: int,
) -> dict:
    """One search (a probe when ``width`` > 0) until a verdict or a budget runs out."""
    g = position.game
    stack = _Stack(config.START_DEPTH)
    stack.states[0] = position.state
    keys, used, stats, buf, seen = _work_arrays(nodes, memory)
    args = (g.arr, g.rules, np.int64(prune), stats)
    code = start(stack.states, stack.moves, stack.nmov, stack.idx, keys, used, *args, buf, seen)
    reason = "running"
    rate = 0.0  # seconds a slot of the last rehash took (see :func:`_timed_grown`)
    while code not in (WON, EXHAUSTED):
        if code == TOO_MANY_MOVES:
            reason = "moves"  # a level had no room: never expected, never "lost"
            break
        if code == TOO_DEEP:
            if stack.states.shape[0] * 2 > config.MAX_DEPTH:
                reason = "depth"
                break
            stack = stack.grown()
        elif code == TABLE_FULL:
            if 2 * keys.nbytes + 2 * used.nbytes > memory:
                reason = "memory"
                break
            if not rehash_in_time(t0, seconds, rate, 2 * keys.shape[0], SLOT_BYTES):
                reason = "time"
                break
            keys, used, rate = _timed_grown(keys, used)
        if nodes is not None and stats[ST_NODES] >= nodes:
            reason = "nodes"
            break
        if time.perf_counter() - t0 >= seconds:
            reason = "time"
            break
        done = int(stats[ST_NODES])
        limit = done + nodes_in_time(t0, seconds, done, config.CHUNK_NODES)
        if nodes is not None:
            limit = min(limit, nodes)
        code = run(
            stack.states,
            stack.moves,
            stack.nmov,
            stack.idx,
            keys,
            used,
            *args,
            stack.best,
            limit,
            buf,
            seen,
            np.int64(width),
        )
    result = "won" if code == WON else "lost" if code == EXHAUSTED and width == 0 else "unknown"
    if code in (WON, EXHAUSTED):
        reason = result if result != "unknown" else "probe"
    macros = [int(m) for m in stack.best[: int(stats[ST_BESTLEN])]]
    return _outcome(result, reason, macros, stats, keys.nbytes + used.nbytes)


def _timed_width(t0: float, seconds: float, started: float, kept: int, depth: int, cap: int) -> int:
    """The beam's width for its next depths under a time budget: the positions
    the time left holds at the rate the beam has kept them so far, spread
    over the depths a won line still needs (``config.DOUBLE_BEAM_LAYERS``
    less the depth reached, at least ``config.DOUBLE_BEAM_MIN_DEPTHS_LEFT``)."""
    now = time.perf_counter()
    rate = kept / max(now - started, 1e-6)
    depths = max(config.DOUBLE_BEAM_LAYERS - depth, config.DOUBLE_BEAM_MIN_DEPTHS_LEFT)
    fit = int((t0 + seconds - now) * rate / depths)
    return min(cap, max(config.DOUBLE_BEAM_MIN_WIDTH, fit))


def beam_bytes(width: int) -> int:
    """Bytes of scratch a beam ``width`` positions wide holds: two depths of
    positions, the line arrays of every depth and the candidate children
    (``solver.double_beam.beam``)."""
    depth = 2 * core_double.STATE_LEN * 8 + 2 * config.DOUBLE_BEAM_DEPTH * 8
    return width * (depth + 3 * 8 * core.MAX_MOVES)


def beam_width_cap(width: int, nodes: int | None) -> int:
    """The beam's width cap for a solve: ``width`` (``config.DOUBLE_PROBES``)
    under a time budget, where the width follows the clock; under a node
    budget none but the budget's own (its share over
    ``config.DOUBLE_BEAM_LAYERS``), so a bigger budget in an escalation
    widens the beam instead of leaving its positions to the depth-first
    search, which wins no two-pack deal. Memory caps both
    (:func:`beam_probe`)."""
    return width if nodes is None else max(width, nodes // config.DOUBLE_BEAM_LAYERS)


def beam_probe(
    position: Position,
    t0: float,
    seconds: float,
    nodes: int | None,
    memory: int,
    prune: int,
    width: int,
    weights: tuple[int, ...] | None = None,
) -> dict:
    """The beam probe of :mod:`solver.double_beam` until a win or a budget
    runs out; its end is never "lost". ``width`` is the most positions a
    depth: fewer when the budget is small (``config.DOUBLE_BEAM_LAYERS``).
    ``weights`` score its positions (default ``config.DOUBLE_BEAM_WEIGHTS``)."""
    g = position.game
    per_width = beam_bytes(1)
    # the beam's scratch counts in the memory budget: at most its share
    cap = max(1, min(width, int(memory * config.DOUBLE_BEAM_MEMORY_SHARE) // per_width))
    # under a time budget, the positions the time left makes at the guessed rate
    left = max(seconds - (time.perf_counter() - t0), 0.0)
    budget = nodes if nodes is not None else int(left * config.DOUBLE_BEAM_RATE)
    width = min(cap, max(config.DOUBLE_BEAM_MIN_WIDTH, budget // config.DOUBLE_BEAM_LAYERS))
    # under a time budget alone the width follows the rate measured so far
    # (a node budget keeps it fixed, so rows stay the same on every machine)
    adapt = nodes is None and np.isfinite(seconds)
    started = time.perf_counter()
    rows = cap if adapt else width
    table_memory = memory - beam_bytes(rows)
    keys, used, stats, buf, seen = _work_arrays(nodes, table_memory)
    layer = np.zeros((rows, core_double.STATE_LEN), np.uint64)
    nxt = np.zeros_like(layer)
    parent = np.zeros((config.DOUBLE_BEAM_DEPTH, layer.shape[0]), np.int64)
    macs = np.zeros_like(parent)
    at = np.zeros(AT_LEN, np.int64)
    weights = np.array(config.DOUBLE_BEAM_WEIGHTS if weights is None else weights, np.int64)
    won = beam_start(position.state, g.rules, layer, keys, used, at, stats)
    rate = 0.0  # seconds a slot of the last rehash took (see :func:`_timed_grown`)
    code, reason = (WON, "won") if won else (RUNNING, "running")
    while code == RUNNING:
        if nodes is not None and stats[ST_NODES] >= nodes:
            reason = "nodes"
            break
        room = keys.shape[0] * 85 // 100
        pause = int(stats[ST_NODES]) + config.CHUNK_NODES
        # room for the next chunk and the depth that may end it, if memory allows
        need = pause + width if nodes is None else min(pause + width, nodes)
        if need > room and 2 * keys.nbytes + 2 * used.nbytes <= table_memory:
            if not rehash_in_time(t0, seconds, rate, 2 * keys.shape[0], SLOT_BYTES):
                reason = "time"
                break
            keys, used, rate = _timed_grown(keys, used)
            continue
        if stats[ST_NODES] >= room:
            reason = "memory"
            break
        if at[AT_DEPTH] >= config.DOUBLE_BEAM_DEPTH:
            reason = "depth"
            break
        if time.perf_counter() - t0 >= seconds:
            reason = "time"
            break
        limit = room if nodes is None else min(nodes, room)
        done = int(stats[ST_NODES])
        pause = min(pause, done + nodes_in_time(t0, seconds, done, config.CHUNK_NODES))
        if adapt and stats[ST_NODES] > 0:
            width = _timed_width(t0, seconds, started, int(stats[ST_NODES]), int(at[AT_DEPTH]), cap)
            at[AT_N] = min(at[AT_N], width)  # the layer is best first: keep the best
        code = beam(
            layer[:width], nxt[:width], at, g.arr, g.rules, np.int64(prune), weights, pause,
            limit, keys, used, parent, macs, stats, buf, seen,
            np.int64(config.DOUBLE_BEAM_KIN_CAP),
        )  # fmt: skip
    if code == WON:
        reason = "won"
    elif code == EXHAUSTED:
        reason = "probe"
    macros = line_of(parent, macs, int(at[AT_BEST_DEPTH]), int(at[AT_BEST_INDEX]))
    result = "won" if code == WON else "unknown"
    # the width of the last depths (it follows the clock under a time budget)
    return _outcome(result, reason, macros, stats, keys.nbytes + used.nbytes) | {"width": width}


def beams(
    position: Position,
    t0: float,
    seconds: float,
    nodes: int | None,
    memory: int,
    prune: int,
    width: int,
) -> list[dict]:
    """The beams of ``config.DOUBLE_BEAM_SCORES`` in turn, until one wins:
    each on an equal share of what the ones before it left of the time (to
    ``seconds`` after ``t0``, the solve's start) and of ``nodes``.

    A beam drops positions, so a beam scoring them otherwise keeps others:
    on the 45 deals of 0-199 the first score leaves at 10 s, the four at
    600,000 positions each won 11, the first alone at 2,400,000 won 7
    (``docs/solver.md``, "Two packs"). Each beam answers as
    :func:`beam_probe`: won, or unknown (stage ``beam``)."""
    runs: list[dict] = []
    scores = config.DOUBLE_BEAM_SCORES
    for i, weights in enumerate(scores):
        left = len(scores) - i
        now = time.perf_counter() - t0
        ends = now + max(seconds - now, 0.0) / left
        spent = sum(r["nodes"] for r in runs)
        share = None if nodes is None else max(1, (nodes - spent) // left)
        cap = beam_width_cap(width, share)
        r = beam_probe(position, t0, ends, share, memory, prune, cap, weights)
        r["stage"] = "beam"
        runs.append(r)
        if r["result"] == "won":
            break
    return runs


def solve_double(
    position: Position,
    seconds: float,
    nodes: int | None,
    memory: int,
    prune: int,
    probes: bool = True,
) -> dict:
    """Search ``position`` (two packs) within the budgets: the probes of
    ``config.DOUBLE_PROBES`` first (each ends the solve only with a win),
    then the full search on what they left.

    Returns
    -------
    dict
        ``result`` (won, lost or unknown), ``banked``, ``line`` (atomic moves
        to the best position found: the solution when won) and ``end`` (the
        position it reaches, replayed through the engine), ``stop_reason``,
        ``nodes``, ``children``, ``pruned`` (P1 forced moves), ``dead_ends``,
        ``max_depth``, ``peak_table_bytes`` (the table alone) and
        ``entries`` (positions it holds at the end).
    """
    t0 = time.perf_counter()
    runs: list[dict] = []
    spent = 0
    for kind, width, share in config.DOUBLE_PROBES if probes else ():
        probe_nodes = None if nodes is None else max(1, int(nodes * share))
        if kind == "beam":
            found = beams(position, t0, seconds * share, probe_nodes, memory, prune, width)
        else:
            found = [_search(position, t0, seconds * share, probe_nodes, memory, prune, width)]
            # named as the one-pack search names its stages (``probe2``)
            found[0]["stage"] = f"probe{width}"
        runs += found
        spent += sum(r["nodes"] for r in found)
        if found[-1]["result"] == "won":
            break
    if not runs or runs[-1]["result"] != "won":
        left = None if nodes is None else max(1, nodes - spent)
        runs.append(_search(position, t0, seconds, left, memory, prune, 0) | {"stage": "dfs"})
    last = runs[-1]
    best = max(runs, key=lambda r: (r["result"] == "won", r["banked"]))
    line, end = expand(position, best["macros"])
    if end.banked != best["banked"] or (last["result"] == "won" and not end.is_won()):
        raise SolverBug(f"best line replays to {end.banked} banked, search said {best['banked']}")
    total = {k: sum(r[k] for r in runs) for k in ("nodes", "children", "pruned", "dead_ends")}
    return {
        **total,
        "result": last["result"],
        "banked": best["banked"],
        "line": line,
        "end": end,
        "stop_reason": last["stop_reason"],
        "stage": last["stage"],
        "max_depth": max(r["max_depth"] for r in runs),
        "entries": last["entries"],
        "peak_table_bytes": max(r["peak_table_bytes"] for r in runs),
    }
