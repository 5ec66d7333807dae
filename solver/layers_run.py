"""The layered search's driver: its memory, budgets and clock.

Internal to :mod:`solver.search`. The compiled layers (:mod:`solver.layers`)
ask for more room when a table, a stack or the log is full, and say when a
layer is done; this module grows or forgets the arrays, keeps the memory
budget, and turns the log back into the best line.
"""

from __future__ import annotations

import numpy as np

from canfield.engine import core
from canfield.engine.position import Position
from canfield.solver import config, layers
from canfield.solver.budgets import rehash_in_time
from canfield.solver.dfs_run import SUMMED, Run, next_chunk, verdict
from canfield.solver.macros import SolverBug
from canfield.solver.stats import EXHAUSTED, N_STATS, RUNNING, ST_BEST, ST_DOMINATED, WON
from canfield.solver.table import grown, new_table, slot_bytes


class LayerMemory:
    """The arrays of the three live layers (a table and a stack each) and the log.

    Each starts small enough that the first allocation keeps within a
    quarter of ``memory`` and doubles on demand.
    """

    def __init__(self, kw: int, memory: int) -> None:
        self.kw = kw
        self.entry = slot_bytes(kw)
        self.row = layers.row_words(kw)
        self.row_bytes = self.row * 8
        small = config.LAYER_START_SLOTS
        while small > 16 and small * (3 * self.entry + 3 * self.row_bytes + 8) > memory // 4:
            small //= 2
        self.small = small
        self.tables = [new_table(small, kw) for _ in range(3)]
        self.stacks = [np.zeros((small, self.row), np.uint64) for _ in range(3)]
        self.log = np.zeros(small, np.int64)
        self.rehash_rate = 0.0  # seconds a slot the last table rehash took

    def used(self) -> int:
        """Bytes the arrays take now."""
        return (
            sum(t.shape[0] for t in self.tables) * self.entry
            + sum(s.shape[0] for s in self.stacks) * self.row_bytes
            + self.log.shape[0] * 8
        )

    def max_entries(self) -> np.ndarray:
        """The most positions each layer's table may hold."""
        return np.array([int(t.shape[0] * config.MAX_LOAD) for t in self.tables], np.int64)

    def grow(self, need: int, memory: int, t0: float, seconds: float) -> str:
        """Double what ``need`` names (``layers.ST_NEED``: 0-2 a table, 3-5 a
        stack, 6 the log), keeping its contents. Returns "" when grown, or,
        changing nothing, "memory" when that would pass ``memory`` bytes and
        "time" when a table's rehash would not end ``seconds`` after ``t0``
        (the depth-first search's guard: a large rehash takes seconds)."""
        if need < 3:
            old = self.tables[need]
            extra = old.shape[0] * self.entry
        elif need < 6:
            old = self.stacks[need - 3]
            extra = old.shape[0] * self.row_bytes
        else:
            old = self.log
            extra = old.shape[0] * 8
        if self.used() + extra > memory:
            return "memory"
        if need < 3:
            new_slots = 2 * old.shape[0]
            if not rehash_in_time(t0, seconds, self.rehash_rate, new_slots, self.entry):
                return "time"
            self.tables[need], self.rehash_rate = grown(old, new_slots, self.kw)
        elif need < 6:
            new = np.zeros((2 * old.shape[0], self.row), np.uint64)
            new[: old.shape[0]] = old
            self.stacks[need - 3] = new
        else:
            self.log = np.zeros(2 * old.shape[0], np.int64)
            self.log[: old.shape[0]] = old
        return ""

    def forget(self, slot: int) -> None:
        """Drop a finished layer's table and stack: nothing reaches it again."""
        self.tables[slot] = new_table(self.small, self.kw)
        self.stacks[slot] = np.zeros((self.small, self.row), np.uint64)


def run_layers(
    position: Position,
    seconds: float,
    nodes: int | None,
    t0: float,
    seed: Run,
    memory: int,
    prune: int,
) -> Run:
    """The layered search (:mod:`solver.layers`) of ``position``.

    Layers of progress are finished in order and forgotten, so memory holds
    three layers and a log of 8 bytes a position.

    Parameters
    ----------
    position : Position
        Where the search starts.
    seconds, nodes : float, int or None
        The solve's time budget (counted from ``t0``) and node budget.
    t0 : float
        ``time.perf_counter()`` when the solve started.
    seed : Run
        The depth-first search's run on its share of the budgets: its best
        banked count starts rule B1 off (the layers alone find large counts
        late) and stands, with its line, unless the layers beat it. Its nodes
        count against the node budget.
    memory : int
        The most bytes the tables, stacks and log may take together.
    prune : int
        The kernel's mask of pruning rules.

    Returns
    -------
    Run
        The answer, with stage ``"layers"``.
    """
    game, rules = position.game.arr, position.game.rules
    mem = LayerMemory(core.key_words(int(rules[core.R_BUILD])), memory)
    tstats = np.zeros((3, N_STATS), np.int64)
    stack_len = np.zeros(3, np.int64)
    stats = np.zeros(layers.N_LSTATS, np.int64)
    layers.layers_root(
        position.state, game, rules, mem.tables[0], tstats[0], mem.stacks[0], stack_len,
        mem.log, stats, prune, int(mem.max_entries()[0]),
    )  # fmt: skip
    if int(seed.stats[ST_BEST]) > int(stats[ST_BEST]):
        stats[ST_BEST] = seed.stats[ST_BEST]
        stats[layers.ST_BESTID] = -1  # the seed's line
    for slot in SUMMED:
        stats[slot] = seed.stats[slot]
    parent_state = np.zeros(core.STATE_LEN, np.uint64)
    parent_info = np.zeros(layers.N_PARENT_INFO, np.int64)
    parent_macros = np.zeros(config.MAX_MACROS, np.int64)
    cur, cur_pi = 0, int(layers.progress(position.state))
    peak = mem.used()
    dominated = 0
    code = WON if position.is_won() else RUNNING
    reason = "solved" if code == WON else ""
    while code != WON:
        if code == layers.GROW:
            reason = mem.grow(int(stats[layers.ST_NEED]), memory, t0, seconds)
            if reason:
                break
            peak = max(peak, mem.used())
        elif code == layers.LAYER_DONE:
            dominated += int(tstats[cur, ST_DOMINATED])
            tstats[cur] = 0
            mem.forget(cur)
            if not stack_len.any():
                code = EXHAUSTED
                break
            cur, cur_pi = (cur + 1) % 3, cur_pi + 1
        chunk, reason = next_chunk(t0, seconds, nodes, stats)
        if reason:
            break
        code = layers.layers_run(
            game, rules, tuple(mem.tables), tstats, tuple(mem.stacks), stack_len,
            mem.max_entries(), mem.log, cur, cur_pi, parent_state, parent_info, parent_macros,
            stats, chunk, prune,
        )  # fmt: skip
        if code == layers.BAD_PROGRESS:
            raise SolverBug("a move changed progress by other than 0, 1 or 2")
    dominated += int(tstats[:, ST_DOMINATED].sum())
    result, reason = verdict(code, reason)
    best_id = int(stats[layers.ST_BESTID])
    if best_id < 0:
        macros = seed.macros
    else:
        macros = layers.in_play_order(position, layers.line_of(mem.log, best_id), rules)
    return Run(
        result=result,
        reason=reason,
        stats=stats,
        macros=macros,
        peak_bytes=max(peak, seed.peak_bytes),
        max_depth=len(macros),
        dominated=dominated + seed.dominated,
        stage="layers",
    )
