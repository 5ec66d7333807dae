"""Solve a position: won (with a replayed solution), lost (proof) or unknown.

The compiled depth-first search lives in :mod:`solver.kernel`; this module
owns its memory, budgets and clock, expands macro moves back into atomic
notation, and replays every reported line through the engine before it
returns it. "unknown" (a budget ran out) is never reported as "lost".
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

import numpy as np
from canfield.engine import core
from canfield.engine.cards import card_str
from canfield.engine.notation import Move
from canfield.engine.position import Position
from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.solver import config, kernel, layers
from canfield.solver.dfs_run import SUMMED, DfsRun, Path, Run, new_table, next_chunk, verdict


class SolverBug(RuntimeError):
    """A line the solver produced did not replay: never expected."""


@dataclass
class SolveResult:
    """What a solve found. ``banked`` is exact for won and lost, a lower bound
    for unknown; ``best_line`` reaches it (the solution, when won)."""

    result: str
    banked: int
    moves: list[str]
    best_line: list[str]
    nodes: int
    seconds: float
    peak_table_bytes: int
    stop_reason: str
    profile: str
    deal: int | None = None
    pick: str | None = None
    base_rank: int = 0
    reserve_left: int = 13
    max_depth: int = 0
    pruned: int = 0
    dead_ends: int = 0
    cut: int = 0
    dominated: int = 0
    children: int = 0
    strategy: str = "dfs"
    stage: str = "dfs"
    version: str = __version__
    picks: dict[str, dict] = field(default_factory=dict)

    @property
    def decided(self) -> bool:
        return self.result in ("won", "lost")

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("best_line")
        if self.result != "won":
            d["moves"] = []
        return d


def parse_seconds(text: str | float | int) -> float:
    """``'10s'``, ``'250ms'``, ``'2m'`` or a number of seconds."""
    if isinstance(text, int | float):
        return float(text)
    t = text.strip().lower()
    for suffix, scale in (("ms", 1e-3), ("s", 1.0), ("m", 60.0), ("h", 3600.0)):
        if t.endswith(suffix):
            t, mult = t[: -len(suffix)], scale
            break
    else:
        mult = 1.0
    try:
        value = float(t) * mult
    except ValueError:
        raise ValueError(f"cannot read a time budget from {text!r} (try 10s or 500ms)") from None
    if value <= 0:
        raise ValueError(f"a time budget must be positive, got {text!r}")
    return value


def parse_bytes(text: str | int) -> int:
    """``'2GB'``, ``'512MB'``, ``'64k'`` or a number of bytes."""
    if isinstance(text, int):
        return text
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    mult = 1
    if t and t[-1] in scale:
        mult, t = scale[t[-1]], t[:-1]
    try:
        value = int(float(t) * mult)
    except ValueError:
        raise ValueError(f"cannot read a memory size from {text!r} (try 2GB)") from None
    if value <= 0:
        raise ValueError(f"a memory budget must be positive, got {text!r}")
    return value


#: Search strategies of :class:`Solver`.
STRATEGIES = ("dfs", "layers")

PRUNING_RULES = {
    "P1": kernel.P1_HOME,
    "E1": kernel.E1_CYCLE,
    "E2": kernel.E2_POINTER,
    "B1": kernel.B1_BOUND,
}


def prune_mask(prune: bool | str | Iterable[str]) -> int:
    """The kernel's mask for ``prune``: True (every rule), False (none), or rule
    names from ``docs/solver.md`` (``"P1,B1"`` or ``["P1", "B1"]``)."""
    if prune is True:
        return kernel.ALL_RULES
    if prune is False:
        return 0
    names = prune.split(",") if isinstance(prune, str) else list(prune)
    mask = 0
    for name in names:
        name = name.strip().upper()
        if not name:
            continue
        if name not in PRUNING_RULES:
            known = ", ".join(PRUNING_RULES)
            raise ValueError(f"unknown pruning rule {name!r} (known: {known})")
        mask |= PRUNING_RULES[name]
    return mask


class Solver:
    """A reusable solver: allocates its stack once, grows its table on demand.

    Parameters
    ----------
    memory : int
        Most bytes the transposition table may use (the layered search: its
        tables, stacks and log together).
    prune : bool
        Use the proven pruning rules of ``docs/solver.md`` (off only for tests).
    strategy : str
        ``"dfs"`` (depth-first; finds wins fast) or ``"layers"`` (finishes
        layers of progress in order and forgets them: proofs in less memory;
        not with ``worry``). ``docs/solver.md`` compares them.
    probes : bool
        When the full search's first tenth (``config.DFS_FIRST_SHARE``) does
        not decide, pause it and run the narrowed probes of ``config.PROBES``:
        each searches only the first few moves of every position, on a share
        of the budgets, and ends the solve only with a win; then resume it.
        Off, the search is exactly 0.3.0's.
    """

    def __init__(
        self,
        memory: int = config.DEFAULT_MEMORY,
        prune: bool | str | Iterable[str] = True,
        strategy: str = "dfs",
        probes: bool = True,
    ) -> None:
        self.memory = int(memory)
        self.probes = bool(probes)
        self.prune = prune_mask(prune)
        if strategy not in STRATEGIES:
            raise ValueError(
                f"unknown search strategy {strategy!r} (known: {', '.join(STRATEGIES)})"
            )
        self.strategy = strategy
        self._main_path = Path()
        self._probe_path = Path()

    def solve(
        self,
        position: Position,
        seconds: float = config.DEFAULT_SECONDS,
        nodes: int | None = config.DEFAULT_NODES,
    ) -> SolveResult:
        """Search ``position`` within the budgets."""
        t0 = time.perf_counter()
        if self.strategy == "layers" and int(position.game.rules[core.R_WORRY]):
            raise ValueError(
                "the layered search needs worry=no (with worry, progress can fall); "
                "use the depth-first search"
            )
        run = self._search(position, seconds, nodes, t0)
        stats = run.stats
        line, end = expand_macros(position, run.macros)
        banked = int(stats[kernel.ST_BEST])
        if end.banked != banked or (run.result == "won" and not end.is_won()):
            raise SolverBug(f"best line replays to {end.banked} banked, search said {banked}")
        seconds_used = time.perf_counter() - t0
        g = position.game
        return SolveResult(
            result=run.result,
            banked=banked,
            moves=line if run.result == "won" else [],
            best_line=line,
            nodes=int(stats[kernel.ST_NODES]),
            seconds=seconds_used,
            peak_table_bytes=run.peak_bytes,
            stop_reason=run.reason,
            profile=position.profile.canonical(),
            deal=g.deal_number,
            pick=card_str(g.pick) if g.pick is not None else None,
            base_rank=g.base,
            reserve_left=len(end.reserve()),
            max_depth=run.max_depth,
            pruned=int(stats[kernel.ST_PRUNED]),
            dead_ends=int(stats[kernel.ST_DEAD]),
            cut=int(stats[kernel.ST_CUT]),
            dominated=run.dominated,
            children=int(stats[kernel.ST_CHILDREN]),
            strategy=self.strategy,
            stage=run.stage,
        )

    def _search(self, position: Position, seconds: float, nodes: int | None, t0: float) -> Run:
        """The full depth-first search's first slice, then the probes, then
        the full search again from where it paused (or the layers)."""
        layered = self.strategy == "layers"
        first = config.LAYER_DFS_SHARE if layered else config.DFS_FIRST_SHARE
        limits = _slice(t0, seconds, nodes, self.memory, first)
        # the layers never resume it: size its table for its share alone
        memory, size_for = (limits[2], limits[1]) if layered else (self.memory, nodes)
        main = DfsRun(position, self._main_path, self.prune, memory, size_for=size_for)
        main.advance(t0, *limits)
        probe = None
        if self.probes and config.PROBES and not main.over:
            probe = self._probes(position, seconds, nodes, t0, main)
        if probe is not None:
            if probe.result == "won":
                return probe
            main.absorb(probe, held=main.table_bytes)
        if layered:
            run = main.finish(share=True)
            del main  # its table: the layers need the memory
            if run.result == "unknown":
                # the depth-first share ran out (or its table filled): the layers go on
                run = self._run_layers(position, seconds, nodes, t0, run)
            return run
        main.advance(t0, seconds, nodes, self.memory)
        return main.finish()

    def _probes(
        self, position: Position, seconds: float, nodes: int | None, t0: float, main: DfsRun
    ) -> Run | None:
        """Run the probes of ``config.PROBES`` in turn, each on its share of
        the time and nodes and on the memory the paused full search's table
        leaves, until one wins.
        The answer counts every probe's positions; a win also counts the full
        search's first slice. None when the memory budget has no room for a
        probe's table beside the full search's."""
        held = main.table_bytes
        if self.memory - held < main.fits(0) * main.entry:
            return None
        done = int(main.stats[kernel.ST_NODES])
        run: Run | None = None
        for width, fraction, most in config.PROBES:
            limits = _slice(t0, seconds, nodes, self.memory, fraction, most)
            # the paused search's table stays; the probe's goes when it ends
            memory = self.memory - held
            prev = 0 if run is None else int(run.stats[kernel.ST_NODES])
            own = None if nodes is None else max(1, min(limits[1], nodes - done - prev))
            probe = DfsRun(position, self._probe_path, self.prune, memory, width, own)
            if run is None:
                probe.seed_best(main.finish())
            else:
                probe.absorb(run)  # its best is at least the full search's
            # the probe's counters hold the earlier probes' positions as well
            probe.advance(t0, limits[0], None if own is None else prev + own, memory)
            if probe.code == kernel.WON:
                # the answer: count the paused search too, its table held beside
                probe.absorb(main.finish(), held=probe.peak_bytes)
            run = probe.finish()
            if run.result == "won":
                break
        return run

    def _run_layers(  # noqa: C901
        self, position: Position, seconds: float, nodes: int | None, t0: float, seed: Run
    ) -> Run:
        """The layered search (:mod:`solver.layers`): layers of progress are
        finished in order and forgotten, so memory holds three layers and a
        log of 8 bytes a position.

        ``seed`` is the depth-first search's run on its share of the budgets:
        its best banked count starts rule B1 off (the layers alone find large
        counts late) and stands, with its line, unless the layers beat it. Its
        nodes count against the node budget."""
        game, rules = position.game.arr, position.game.rules
        kw = core.key_words(int(rules[core.R_BUILD]))
        entry = (kw + 2) * 8
        row = layers.row_words(kw)
        row_bytes = row * 8
        small = config.LAYER_START_SLOTS
        # start small enough that the first allocation keeps within the budget
        while small > 16 and small * (3 * entry + 3 * row_bytes + 8) > self.memory // 4:
            small //= 2
        tables = [new_table(small, kw) for _ in range(3)]
        works = [np.zeros((small, row), np.uint64) for _ in range(3)]
        log = np.zeros(small, np.int64)
        tstats = np.zeros((3, kernel.N_STATS), np.int64)
        wlen = np.zeros(3, np.int64)
        stats = np.zeros(layers.N_LSTATS, np.int64)
        prune = self.prune

        def max_entries() -> np.ndarray:
            return np.array([int(t.shape[0] * config.MAX_LOAD) for t in tables], np.int64)

        def used() -> int:
            return (
                sum(t.shape[0] for t in tables) * entry
                + sum(w.shape[0] for w in works) * row_bytes
                + log.shape[0] * 8
            )

        layers.layers_root(
            position.state, game, rules, tables[0], tstats[0], works[0], wlen, log, stats,
            prune, int(max_entries()[0]),
        )  # fmt: skip
        if int(seed.stats[kernel.ST_BEST]) > int(stats[kernel.ST_BEST]):
            stats[kernel.ST_BEST] = seed.stats[kernel.ST_BEST]
            stats[layers.ST_BESTID] = -1  # the seed's line
        for slot in SUMMED:
            stats[slot] = seed.stats[slot]
        xstate = np.zeros(core.STATE_LEN, np.uint64)
        xmeta = np.zeros(layers.N_XMETA, np.int64)
        xmacros = np.zeros(config.MAX_MACROS, np.int64)
        cur, cur_pi = 0, int(layers.progress(position.state))
        peak = used()
        dominated = 0
        code = kernel.WON if position.is_won() else kernel.RUNNING
        reason = "solved" if code == kernel.WON else ""
        while code != kernel.WON:
            if code == layers.GROW:
                need = int(stats[layers.ST_NEED])
                if need < 3:
                    old = tables[need]
                    extra = old.shape[0] * entry
                elif need < 6:
                    old = works[need - 3]
                    extra = old.shape[0] * row_bytes
                else:
                    old = log
                    extra = old.shape[0] * 8
                if used() + extra > self.memory:
                    reason = "memory"
                    break
                if need < 3:
                    new = new_table(2 * old.shape[0], kw)
                    kernel.tt_rehash(old, new)
                    tables[need] = new
                elif need < 6:
                    new = np.zeros((2 * old.shape[0], row), np.uint64)
                    new[: old.shape[0]] = old
                    works[need - 3] = new
                else:
                    log = np.zeros(2 * old.shape[0], np.int64)
                    log[: old.shape[0]] = old
                peak = max(peak, used())
            elif code == layers.LAYER_DONE:
                # nothing reaches this layer again: forget it, and free its memory
                dominated += int(tstats[cur, kernel.ST_DOMINATED])
                tstats[cur] = 0
                tables[cur] = new_table(small, kw)
                works[cur] = np.zeros((small, row), np.uint64)
                if not wlen.any():
                    code = kernel.EXHAUSTED
                    break
                cur, cur_pi = (cur + 1) % 3, cur_pi + 1
            chunk, reason = next_chunk(t0, seconds, nodes, stats)
            if reason:
                break
            code = layers.layers_run(
                game, rules, tuple(tables), tstats, tuple(works), wlen, max_entries(), log,
                cur, cur_pi, xstate, xmeta, xmacros, stats, chunk, prune,
            )  # fmt: skip
            if code == layers.BAD_PROGRESS:
                raise SolverBug("a move changed progress by other than 0, 1 or 2")
        dominated += int(tstats[:, kernel.ST_DOMINATED].sum())
        result, reason = verdict(code, reason)
        best_id = int(stats[layers.ST_BESTID])
        if best_id < 0:
            macros = seed.macros
        else:
            macros = layers.in_play_order(position, layers.line_of(log, best_id), rules)
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


def _slice(
    t0: float,
    seconds: float,
    nodes: int | None,
    memory: int,
    fraction: float,
    most: float = float("inf"),
) -> tuple[float, int | None, int]:
    """Limits for a slice of the budgets: ``fraction`` of the time (counted
    from now, at most ``most`` seconds, never past the whole budget), of the
    nodes and of the memory. With no time budget (``seconds`` infinite) there
    is no time limit either, so a node budget alone keeps a solve the same on
    every machine."""
    now = time.perf_counter() - t0
    end = min(seconds, now + min(seconds * fraction, most))
    if seconds == float("inf"):
        end = seconds
    cap = None if nodes is None else max(1, int(nodes * fraction))
    return end, cap, max(1 << 16, int(memory * fraction))


def expand_macros(position: Position, macros: list[int]) -> tuple[list[str], Position]:
    """Turn macro moves into atomic notation, replaying each through the engine.

    Raises :class:`SolverBug` if a move is illegal: every line the solver
    reports has been played move by move by the rules engine.
    """
    out: list[str] = []
    pos = position
    for mac in macros:
        want_p, want_r = (mac >> 20) & 63, (mac >> 26) & 15
        move = Move.from_code(mac & kernel.ATOMIC_MASK)
        guard = 0
        # only a waste move needs the stock turned: the search may have stood
        # for this position by another on the same stock cycle (rule E1)
        while move.src == "W" and (
            int(core.waste_ptr(pos.state)),
            pos.redeals(),
        ) != (want_p, want_r):
            step = Move("draw", "", 0) if pos.stock() else Move("redeal", "", 0)
            pos = _play(pos, step)
            out.append(str(step))
            guard += 1
            if guard > 200:
                raise SolverBug("a macro move's stock position was never reached")
        pos = _play(pos, move)
        out.append(str(move))
    return out, pos


def _play(pos: Position, move: Move) -> Position:
    try:
        return pos.apply(move)
    except ValueError as exc:
        raise SolverBug(f"solver produced an illegal move {move}: {exc}") from None


_DEFAULT_SOLVER: Solver | None = None


def solve(
    position: Position,
    seconds: float = config.DEFAULT_SECONDS,
    nodes: int | None = config.DEFAULT_NODES,
    memory: int | None = None,
    prune: bool | str = True,
    strategy: str = "dfs",
    probes: bool = True,
) -> SolveResult:
    """Solve one position with a shared solver (see :class:`Solver`)."""
    global _DEFAULT_SOLVER
    mem = memory or config.DEFAULT_MEMORY
    mask = prune_mask(prune)
    have = _DEFAULT_SOLVER
    want = (mem, mask, strategy, bool(probes))
    if have is None or (have.memory, have.prune, have.strategy, have.probes) != want:
        _DEFAULT_SOLVER = Solver(mem, prune, strategy, probes)
    return _DEFAULT_SOLVER.solve(position, seconds, nodes)


def solve_deal(
    deal: int | str | list[int],
    profile: str | None = None,
    seconds: float = config.DEFAULT_SECONDS,
    nodes: int | None = config.DEFAULT_NODES,
    memory: int | None = None,
    prune: bool | str = True,
    strategy: str = "dfs",
    probes: bool = True,
) -> SolveResult:
    """Solve a dealt position; for ``selective`` solve all five base picks.

    The selective answer is the best pick: won if any pick wins, lost only if
    every pick is lost, otherwise unknown; ``picks`` holds each pick's verdict.
    """
    prof = parse_profile(profile)
    if prof.layout != "selective":
        pos = Position.from_deal(deal, prof)
        return solve(pos, seconds, nodes, memory, prune, strategy, probes)
    probe = Position.from_deal(deal, "strict")
    five = list(probe.game.deal[13:18])
    t0 = time.perf_counter()
    results = []
    for i, card in enumerate(five):
        left = seconds - (time.perf_counter() - t0)
        share = max(left / (len(five) - i), 1e-3)
        pos = Position.from_deal(deal, prof, pick=card)
        r = solve(pos, share, nodes, memory, prune, strategy, probes)
        results.append(r)
        if r.result == "won":
            break
    rank = {"won": 2, "unknown": 1, "lost": 0}
    best = max(results, key=lambda r: (rank[r.result], r.banked))
    if best.result != "won" and any(r.result == "unknown" for r in results):
        best.result = "unknown"
    if best.pick:
        best.moves = [f"pick {best.pick}"] + best.moves if best.moves else []
        best.best_line = [f"pick {best.pick}"] + best.best_line
    best.picks = {r.pick: {"result": r.result, "banked": r.banked} for r in results}
    best.nodes = sum(r.nodes for r in results)
    best.seconds = time.perf_counter() - t0
    best.peak_table_bytes = max(r.peak_table_bytes for r in results)
    return best


def warm_up(strategy: str = "dfs") -> float:
    """Compile (or load from numba's cache) every kernel of ``strategy``;
    return the seconds it took.

    Solving a two-move position touches every kernel, so the first real solve
    is not charged for compilation.
    """
    t0 = time.perf_counter()
    from canfield.engine.cards import parse_cards

    pos = Position.from_parts(
        "strict",
        base=5,
        foundations=[12, 11, 13, 13],
        reserve=[],
        columns=[parse_cards("5C"), [], [], []],
        stock=[],
        waste=parse_cards("5D 4D"),
    )
    Solver(memory=1 << 20, strategy=strategy).solve(pos, seconds=60)
    return time.perf_counter() - t0
