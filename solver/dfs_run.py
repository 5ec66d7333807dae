"""One depth-first run that can pause and resume: its table, counters and path.

Internal to :mod:`solver.search`. The compiled search (:mod:`solver.dfs`)
already works in chunks, and every way it hands back (a chunk done, the table
full, the path too deep) leaves the search where it can go on. So a run can
stop when a slice of the budgets is spent and go on later with larger limits:
a solve pauses its full search after a first slice, runs the narrowed probes
on their own path and table, and resumes it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from canfield.engine import core
from canfield.engine.position import Position
from canfield.solver import config
from canfield.solver.budgets import evict_in_time, nodes_in_time, rehash_in_time
from canfield.solver.dfs import root_setup, search
from canfield.solver.stats import (
    EXHAUSTED,
    N_STATS,
    RUNNING,
    ST_BEST,
    ST_BESTLEN,
    ST_CHILDREN,
    ST_CUT,
    ST_DEAD,
    ST_DEPTH,
    ST_DOMINATED,
    ST_EVICTED,
    ST_HELPED,
    ST_HOMED,
    ST_MAXDEPTH,
    ST_NODES,
    ST_PRUNED,
    TABLE_FULL,
    TOO_DEEP,
    WON,
)
from canfield.solver.table import grown, new_table, slot_bytes, tt_evict

#: Counters that add up across the runs of one solve.
SUMMED = (ST_NODES, ST_CHILDREN, ST_CUT, ST_PRUNED, ST_DEAD, ST_HOMED, ST_HELPED, ST_EVICTED)


@dataclass
class Run:
    """What one search hands back to :meth:`solver.search.Solver.solve`."""

    result: str
    reason: str
    stats: np.ndarray
    macros: list[int]
    peak_bytes: int
    max_depth: int
    dominated: int
    stage: str = "dfs"
    #: positions each thread expanded (``solver.shared``; empty for one)
    parts: tuple[int, ...] = ()


class Path:
    """The path arrays of a depth-first search; doubled on demand."""

    def __init__(self, depth: int | None = None) -> None:
        self._alloc(depth or config.START_DEPTH)

    def _alloc(self, depth: int, moves: int = 0) -> None:
        """(Re)allocate for ``depth`` levels and a move stack of at least
        ``moves`` entries, keeping the contents."""
        old = getattr(self, "states", None)
        moves = max(moves, depth * config.MOVES_PER_LEVEL + config.MAX_MACROS)
        arrays = {
            "states": np.zeros((depth, core.STATE_LEN), np.uint64),
            "mstack": np.zeros(moves, np.int64),
            "mbase": np.zeros(depth, np.int64),
            "nmoves": np.zeros(depth, np.int64),
            "imove": np.zeros(depth, np.int64),
            "ubound": np.zeros(depth, np.int64),
            "best_path": np.zeros(depth, np.int64),
            # the shared search's table slot of each position on the path
            "slots": np.zeros(depth, np.int64),
        }
        for name, new in arrays.items():
            if old is not None:
                prev = getattr(self, name)
                new[: prev.shape[0]] = prev
            setattr(self, name, new)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays in the order the kernels take them (``best_path`` apart)."""
        return self.states, self.mstack, self.mbase, self.nmoves, self.imove, self.ubound

    def grow(self, depth: int | None = None) -> bool:
        """Make room for the search stopped at level ``depth`` (``TOO_DEEP``):
        double the levels when the path has used them up, and the move stack
        when that level's moves would not fit in it. ``None``: double the
        levels. False when the levels would pass ``MAX_DEPTH``.

        Every level keeps its own moves in the one move stack, so a long
        path of levels with many moves fills the stack before the levels
        (hevagames 1250: a path of 868,968 moves, about 10 moves a level).
        Refusing then, as before 0.23.13, stopped a search short of
        ``MAX_DEPTH`` as "depth"."""
        levels, moves = self.states.shape[0], self.mstack.shape[0]
        if depth is None or depth + 2 > levels:
            if levels >= config.MAX_DEPTH:
                return False
            levels = min(2 * levels, config.MAX_DEPTH)
        if depth is not None and self.mbase[depth] + self.nmoves[depth] + config.MAX_MACROS > moves:
            moves *= 2
        self._alloc(levels, moves)
        return True


def grown_cap(cap: int, max_cap: int) -> int:
    """Slots of a full table's next size: each rehash re-inserts every entry,
    so a small table grows fourfold, a large one twofold (never past ``max_cap``)."""
    return min(cap * (4 if cap < config.FAST_GROW_BELOW else 2), max_cap)


def warm_evict(position: Position) -> None:
    """Compile (or load) the eviction kernel on an empty table: a search that
    may evict does so when the clock refuses a rehash, and a compile there
    would land inside a timed solve (a 10 s bench row ran 17.8 s)."""
    kw = core.key_words(int(position.game.rules[core.R_BUILD]))
    states = position.state.reshape(1, -1).copy()
    stats = np.zeros(N_STATS, np.int64)
    tt_evict(new_table(8, kw), states, 0, position.game.rules, stats, config.EVICT_KEEP)


def next_chunk(t0: float, seconds: float, nodes: int | None, stats: np.ndarray) -> tuple[int, str]:
    """Nodes the next kernel call may expand, or a stop reason when a budget is spent."""
    if time.perf_counter() - t0 >= seconds:
        return 0, "time"
    chunk = nodes_in_time(t0, seconds, int(stats[ST_NODES]), config.CHUNK_NODES)
    if nodes is not None:
        left = nodes - int(stats[ST_NODES])
        if left <= 0:
            return 0, "nodes"
        chunk = min(chunk, left)
    return chunk, ""


def verdict(code: int, reason: str) -> tuple[str, str]:
    """Result and stop reason from a kernel's last code."""
    if code == WON:
        return "won", "solved"
    if code == EXHAUSTED:
        return "lost", "exhausted"
    return "unknown", reason or "memory"


class DfsRun:
    """A depth-first search of ``position``, run slice by slice.

    Parameters
    ----------
    position : Position
        Where the search starts.
    path : Path
        Its path arrays (a run that pauses must not share them with another).
    prune : int
        The kernel's mask of pruning rules.
    width : int
        ``config.MAX_MACROS`` for the full search; a smaller number narrows it
        to a probe, which searches only the first ``width`` moves of each
        position below the root: its exhaustion proves nothing.
    memory : int
        The most bytes its table may take at the start.
    size_for : int or None
        The most positions it may enter, when known: the table starts large
        enough for them (within ``memory``) and never rehashes.
    table : ndarray or None
        A table to search in instead of a new one: shared with the other
        threads of :mod:`solver.shared` (``prune`` then carries
        ``SHARED_TABLE``). The run never grows it (the coordinator does,
        with every thread stopped), and fills at most ``entry_limit`` of it,
        or its ``1 / sharers``.
    sharers : int
        How many runs share ``table``.
    evict : bool
        When the table is full at its most memory, forget its least recently
        visited entries (never the path's) and go on, instead of stopping
        for memory (``solver.table.tt_evict``; not for a shared table).
    stage : str or None
        The name its answer carries (``Run.stage``); by default ``dfs`` for
        the full width and ``probeN`` for a probe ``N`` moves wide.
    """

    def __init__(
        self,
        position: Position,
        path: Path,
        prune: int,
        memory: int,
        width: int = config.MAX_MACROS,
        size_for: int | None = None,
        table: np.ndarray | None = None,
        sharers: int = 1,
        evict: bool = False,
        stage: str | None = None,
    ) -> None:
        self.game, self.rules = position.game.arr, position.game.rules
        full = width >= config.MAX_MACROS
        self.stage = stage or ("dfs" if full else f"probe{width}")
        self.kw = core.key_words(int(self.rules[core.R_BUILD]))
        self.entry = slot_bytes(self.kw)
        self.path, self.prune, self.width = path, prune, width
        self.evict = evict
        want = config.START_SLOTS
        if size_for is not None:
            want = max(want, int((size_for + 2) / config.MAX_LOAD) + 1)
        self.sharers = sharers
        # a shared table's coordinator may set how many entries this run may
        # hold for one slice (its own and its share of the room left)
        self.entry_limit: int | None = None
        if table is None:
            self.cap = min(want, self.fits(memory))
            self.table = new_table(self.cap, self.kw)
        else:
            self.cap, self.table = table.shape[0], table
        self.stats = np.zeros(N_STATS, np.int64)
        root_setup(
            position.state,
            self.game,
            self.rules,
            *path.arrays(),
            self.table,
            self.max_entries(),
            self.stats,
            prune,
        )
        self.code = WON if position.is_won() else RUNNING
        self.reason = "solved" if self.code == WON else ""
        self.peak_bytes = self.table_bytes
        # seconds a slot of the last rehash's new table took: predicts the next
        # rehash, which a time budget may not have room for (0: none made yet)
        self.rehash_rate = 0.0
        # what the runs this one absorbed add to its statistics
        self.absorbed_dominated = 0
        self.absorbed_peak = 0
        self.absorbed_depth = 0

    @property
    def table_bytes(self) -> int:
        return self.cap * self.entry

    def max_entries(self) -> int:
        if self.entry_limit is not None:
            return self.entry_limit
        return int(self.cap * config.MAX_LOAD) // self.sharers

    @property
    def over(self) -> bool:
        """Won, exhausted, or stopped for good (a path past ``MAX_DEPTH``)."""
        return self.code in (WON, EXHAUSTED) or self.reason == "depth"

    def fits(self, memory: int) -> int:
        """Largest table (slots) that ``memory`` bytes hold (any number: the
        table's home slots need no power of two)."""
        return min(max(1 << 10, memory // self.entry), 1 << 32)

    def advance(self, t0: float, seconds: float, nodes: int | None, memory: int) -> None:
        """Search until decided or a limit: ``seconds`` after ``t0``, ``nodes``
        positions (``stats``, absorbed runs included), a table of ``memory``
        bytes. The stop reason is ``self.reason``; a later call with larger
        limits goes on from here."""
        if self.over:
            return
        self.reason = ""
        # a table never shrinks, and a shared one never grows
        max_cap = self.cap if self.sharers > 1 else max(self.cap, self.fits(memory))
        code = self.code
        while code in (RUNNING, TABLE_FULL, TOO_DEEP):
            if code == TOO_DEEP:
                if not self.path.grow(int(self.stats[ST_DEPTH])):
                    self.reason = "depth"
                    break
                code = RUNNING
            if code == TABLE_FULL:
                new_cap = grown_cap(self.cap, max_cap) if self.cap < max_cap else 0
                if new_cap and rehash_in_time(t0, seconds, self.rehash_rate, new_cap, self.entry):
                    self.table, self.rehash_rate = grown(self.table, new_cap, self.kw)
                    self.cap = new_cap
                    self.peak_bytes = max(self.peak_bytes, self.table_bytes)
                elif new_cap:
                    # the clock will not let the table grow: a search that may
                    # evict forgets entries, as at its memory budget, and
                    # spends the time left searching instead of stopping
                    room = self.evict and evict_in_time(t0, seconds, self.table_bytes)
                    if not (room and self._evict()):
                        self.reason = "time"
                        break
                elif not self._evict():
                    self.reason = "memory"
                    break
                code = RUNNING
            chunk, self.reason = next_chunk(t0, seconds, nodes, self.stats)
            if self.reason:
                break
            code = search(
                self.game,
                self.rules,
                *self.path.arrays(),
                self.table,
                self.max_entries(),
                self.stats,
                self.path.best_path,
                self.path.slots,
                chunk,
                self.prune,
                self.width,
            )
        self.code = code
        if code in (WON, EXHAUSTED):
            self.reason = verdict(code, "")[1]

    def _evict(self) -> bool:
        """Free room in the full table by forgetting its least recently
        visited entries (``solver.table.tt_evict``); False when eviction is
        off, the table is shared, or nothing but the path could go."""
        if not self.evict or self.sharers > 1:
            return False
        depth = int(self.stats[ST_DEPTH])
        gone = tt_evict(
            self.table, self.path.states, depth, self.rules, self.stats, config.EVICT_KEEP
        )
        return gone > 0

    def seed_best(self, other: Run) -> None:
        """Take ``other``'s best banked count and line when larger: rule B1
        then cuts against it (sound: a real line reaches that count, and a
        larger best only ever cuts positions that cannot beat it)."""
        if int(other.stats[ST_BEST]) > int(self.stats[ST_BEST]):
            n = len(other.macros)
            while self.path.best_path.shape[0] < n:
                self.path.grow()
            self.stats[ST_BEST] = other.stats[ST_BEST]
            self.stats[ST_BESTLEN] = n
            self.path.best_path[:n] = other.macros

    def absorb(self, other: Run, kept_bytes: int = 0) -> None:
        """Count ``other``'s positions and moves as this run's, and take its
        best; ``kept_bytes`` is memory this run kept while ``other`` ran."""
        for slot in SUMMED:
            self.stats[slot] += other.stats[slot]
        self.absorbed_dominated += other.dominated
        self.absorbed_peak = max(self.absorbed_peak, kept_bytes + other.peak_bytes)
        self.absorbed_depth = max(self.absorbed_depth, other.max_depth)
        self.seed_best(other)

    def finish(self, share: bool = False) -> Run:
        """The run's answer. A probe's exhaustion is unknown (``"probe"``);
        with ``share`` a stop on time or nodes was a planned pause (``"share"``)."""
        result, reason = verdict(self.code, self.reason)
        if self.width < config.MAX_MACROS and result != "won":
            result, reason = "unknown", "probe"  # a narrowed search proves nothing
        elif share and result == "unknown" and reason in ("time", "nodes"):
            reason = "share"
        n = int(self.stats[ST_BESTLEN])
        return Run(
            result=result,
            reason=reason,
            stats=self.stats,
            macros=[int(m) for m in self.path.best_path[:n]],
            peak_bytes=max(self.peak_bytes, self.absorbed_peak),
            max_depth=max(int(self.stats[ST_MAXDEPTH]), self.absorbed_depth),
            dominated=int(self.stats[ST_DOMINATED]) + self.absorbed_dominated,
            stage=self.stage,
        )
