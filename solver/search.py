"""Solve a position: won (with a replayed solution), lost (proof) or unknown.

The public API of the solver. A solve runs the depth-first search
(:mod:`solver.dfs_run`) on a first slice of its budgets, then the narrowed
probes, then the full search again or the layered search
(:mod:`solver.layers_run`); it replays every reported line through the
engine (:func:`solver.macros.expand_macros`) before it returns it.
"unknown" (a budget ran out) is never reported as "lost".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

from canfield.engine import core
from canfield.engine.cards import card_str, parse_cards
from canfield.engine.numba_cache import interrupts_deferred, is_warm, mark_warm
from canfield.engine.position import Position
from canfield.engine.profiles import Profile, parse_profile
from canfield.engine.version import __version__
from canfield.solver import config
from canfield.solver.beam_run import beam_applies, beam_probe, beam_profile
from canfield.solver.budgets import parse_bytes, parse_seconds, slice_limits
from canfield.solver.dfs_run import SUMMED, DfsRun, Path, Run, warm_evict
from canfield.solver.double_run import solve_double, warm_double_rehash
from canfield.solver.layers_run import run_layers
from canfield.solver.macros import SolverBug, expand_macros
from canfield.solver.pruning import PRUNING_RULES, SPIN_SHIFT, WIN_ONLY, prune_mask
from canfield.solver.shared import search_shared
from canfield.solver.stats import (
    EXHAUSTED,
    ST_BEST,
    ST_CHILDREN,
    ST_CUT,
    ST_DEAD,
    ST_EVICTED,
    ST_NODES,
    ST_PRUNED,
    WON,
)
from canfield.solver.table import grown, new_table

# the public API of the solver, importable from here
__all__ = [
    "PRUNING_RULES",
    "STRATEGIES",
    "SolveResult",
    "Solver",
    "SolverBug",
    "expand_macros",
    "parse_bytes",
    "parse_seconds",
    "prune_mask",
    "solve",
    "solve_deal",
    "warm_up",
]


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
    #: table entries forgotten to make room (``Solver(evict=True)``)
    evicted: int = 0
    strategy: str = "dfs"
    stage: str = "dfs"
    #: cores the solve ran on (``solver.portfolio``), and the member that answered
    threads: int = 1
    member: str | None = None
    #: 256ths of every move list below the root the search turned it by (``Solver(turn=...)``)
    turn: int = 0
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


#: Search strategies of :class:`Solver`.
STRATEGIES = ("dfs", "layers", "shared")
#: Those that run on one core: what a sweep (one process a core) may use.
ONE_CORE_STRATEGIES = ("dfs", "layers")


def search_refusal(profile: Profile, strategy: str = "dfs", turn: int = 0) -> str | None:
    """Why ``profile`` cannot be searched with ``strategy`` in order
    ``turn`` (None: it can). One place for the rule, so that a command can
    refuse an option mix before it compiles or writes anything, with the
    words the solver itself would raise.

    Parameters
    ----------
    profile : Profile
        The rules (:func:`canfield.engine.profiles.parse_profile`).
    strategy : str
        ``'dfs'``, ``'shared'`` or ``'layers'``.
    turn : int
        The depth-first search's turned order (0: the usual order).
    """
    if profile.packs == 2:
        if strategy != "dfs":
            return "two packs (double) are searched depth-first only, on one core"
        if turn:
            return (
                "two packs (double) have no turned order: they are searched in the usual order only"
            )
    elif strategy == "layers" and profile.worry == "yes":
        return (
            f"the layered search needs worry=no ({profile.canonical()} lets cards come back, "
            "so progress can fall); use --strategy dfs"
        )
    return None


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
        not decide, pause it and run the probes on shares of the budgets: the
        narrowed ones of ``config.PROBES`` (only the first few moves of every
        position), which end the solve only with a win, and, without a node
        budget, the turned ones of ``config.TURN_PROBES`` (every move, in
        another order), which end it with a win or a proof; then resume it.
        Off, the full search runs alone (a deal its first slice decides is
        decided the same either way).
    threads : int
        ``strategy="shared"`` only: the threads that run the depth-first
        search on one table in shared memory (:mod:`solver.shared`; no
        probes), for one deal on several cores.
    turn : int
        ``strategy="dfs"``, one pack: turn every move list below the root by
        ``turn`` 256ths of its length (0-255; 0 is the usual ordering). Any
        order is as exact: a win is replayed, a loss is the whole tree; but
        another order finds some wins the usual one misses for a long time
        (``docs/solver.md``, "Turned orders").
    evict : bool
        ``strategy="dfs"``: when the full search's table is full at
        ``memory``, forget the entries it has not met lately (never those of
        its path) and go on; False stops as unknown ("memory") instead
        (``docs/solver.md``, "Eviction"). Verdicts are as sound either way;
        the search may meet again what it forgot and search it again.
    """

    def __init__(
        self,
        memory: int = config.DEFAULT_MEMORY,
        prune: bool | str | Iterable[str] = True,
        strategy: str = "dfs",
        probes: bool = True,
        threads: int = 1,
        evict: bool = True,
        turn: int = 0,
    ) -> None:
        self.memory = int(memory)
        self.evict = bool(evict)
        self.threads = int(threads)
        if self.threads < 1 or (self.threads > 1 and strategy != "shared"):
            raise ValueError(f"threads={threads}: only strategy='shared' runs on more than one")
        self.probes = bool(probes)
        self.turn = int(turn)
        if not 0 <= self.turn < 256:
            raise ValueError(f"turn={turn}: a number of 256ths of a move list, 0-255")
        if self.turn and strategy != "dfs":
            raise ValueError(f"turn={turn}: only the depth-first search (strategy='dfs') turns")
        # the depth-first kernel reads the turn from the mask's spin bits,
        # as a thread of the shared search does
        self.prune = prune_mask(prune) | (self.turn << SPIN_SHIFT)
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
        refusal = search_refusal(position.profile, self.strategy, self.turn)
        if refusal is not None:
            raise ValueError(refusal)
        _ensure_warm(self.strategy, position.profile.packs)  # before the clock starts
        if self.probes and self.strategy != "shared" and beam_profile(position.profile):
            warm_beam()  # the beam probe will run: compiled inside the clock it eats the budget
        t0 = time.perf_counter()
        if position.profile.packs == 2:
            return self._solve_double(position, seconds, nodes, t0)
        run = self._search(position, seconds, nodes, t0)
        stats = run.stats
        line, end = expand_macros(position, run.macros)
        banked = int(stats[ST_BEST])
        if end.banked != banked or (run.result == "won" and not end.is_won()):
            raise SolverBug(f"best line replays to {end.banked} banked, search said {banked}")
        seconds_used = time.perf_counter() - t0
        g = position.game
        return SolveResult(
            result=run.result,
            banked=banked,
            moves=line if run.result == "won" else [],
            best_line=line,
            nodes=int(stats[ST_NODES]),
            seconds=seconds_used,
            peak_table_bytes=run.peak_bytes,
            stop_reason=run.reason,
            profile=position.profile.canonical(),
            deal=g.deal_number,
            pick=card_str(g.pick) if g.pick is not None else None,
            base_rank=g.base,
            reserve_left=len(end.reserve()),
            max_depth=run.max_depth,
            pruned=int(stats[ST_PRUNED]),
            dead_ends=int(stats[ST_DEAD]),
            cut=int(stats[ST_CUT]),
            dominated=run.dominated,
            children=int(stats[ST_CHILDREN]),
            evicted=int(stats[ST_EVICTED]),
            strategy=self.strategy,
            stage=run.stage,
            threads=self.threads,
            turn=self.turn,
        )

    def solve_deal(
        self,
        deal: int | str | list[int],
        profile: str | Profile | None = None,
        seconds: float = config.DEFAULT_SECONDS,
        nodes: int | None = config.DEFAULT_NODES,
    ) -> SolveResult:
        """Search deal ``deal`` under ``profile`` within the budgets; a
        ``selective`` deal is its five base picks, each on a share of the
        budgets (:func:`solve_picks`)."""
        return solve_picks(self.solve, deal, profile, seconds, nodes, self.strategy)

    def _solve_double(
        self, position: Position, seconds: float, nodes: int | None, t0: float
    ) -> SolveResult:
        """Two packs: the search of :mod:`solver.double_run` (depth-first only)."""
        r = solve_double(position, seconds, nodes, self.memory, self.prune, self.probes)
        g = position.game
        return SolveResult(
            result=r["result"],
            banked=r["banked"],
            moves=r["line"] if r["result"] == "won" else [],
            best_line=r["line"],
            nodes=r["nodes"],
            seconds=time.perf_counter() - t0,
            peak_table_bytes=r["peak_table_bytes"],
            stop_reason=r["stop_reason"],
            profile=position.profile.canonical(),
            deal=g.deal_number,
            base_rank=g.base,
            reserve_left=len(r["end"].reserve()),
            max_depth=r["max_depth"],
            pruned=r["pruned"],
            dead_ends=r["dead_ends"],
            children=r["children"],
            stage=r["stage"],
        )

    def _search(self, position: Position, seconds: float, nodes: int | None, t0: float) -> Run:
        """The full depth-first search's first slice, then the probes, then
        the full search again from where it paused (or the layers)."""
        if self.strategy == "shared":
            return search_shared(
                position, self.threads, t0, seconds, nodes, self.memory, self.prune
            )
        layered = self.strategy == "layers"
        first = config.LAYER_DFS_SHARE if layered else config.DFS_FIRST_SHARE
        limits = slice_limits(t0, seconds, nodes, self.memory, first)
        # the layers never resume it: size its table for its share alone
        memory, size_for = (limits[2], limits[1]) if layered else (self.memory, nodes)
        main = DfsRun(position, self._main_path, self.prune, memory, size_for=size_for)
        main.advance(t0, *limits)
        probe = None
        if self.probes and (config.PROBES or config.TURN_PROBES) and not main.over:
            probe = self._probes(position, seconds, nodes, t0, main)
        if probe is not None:
            if probe.result in ("won", "lost"):
                return probe
            main.absorb(probe, kept_bytes=main.table_bytes)
        if layered:
            run = main.finish(share=True)
            del main  # its table: the layers need the memory
            if run.result == "unknown":
                # the depth-first share ran out (or its table filled): the layers go on
                run = run_layers(position, seconds, nodes, t0, run, self.memory, self.prune)
            return run
        # eviction only once the search has its whole memory: a slice that
        # fills its share of it pauses, as without eviction
        main.evict = self.evict
        main.advance(t0, seconds, nodes, self.memory)
        return main.finish()

    def _probes(
        self, position: Position, seconds: float, nodes: int | None, t0: float, main: DfsRun
    ) -> Run | None:
        """Run the probes in turn (the beam where it applies, the first
        ``config.TURN_PROBES_FIRST`` turned probes of ``config.TURN_PROBES``,
        the narrowed probes of ``config.PROBES``, the other turned ones), each
        on its share of the time and nodes and on the memory the paused full
        search's table leaves, until one wins or a turned probe, which
        searches every move, proves the loss.
        The answer counts every probe's positions; a verdict also counts the
        full search's first slice. None when the memory budget has no room
        for a probe's table beside the full search's."""
        main_bytes = main.table_bytes
        if self.memory - main_bytes < main.fits(0) * main.entry:
            return None
        # what a solve does only under a time budget alone, so that a node
        # budget (every sweep) still makes the rows it made before: the
        # turned probes, and B1 cutting all that cannot win in the narrowed
        # probes and the beam, which look for wins only (their best counts
        # feed the full search's cut)
        timed = nodes is None
        probe_mask = self.prune | (WIN_ONLY if config.PROBE_CUTS_NO_WIN and timed else 0)
        done = int(main.stats[ST_NODES])
        run: Run | None = None
        if beam_applies(position.game.rules):
            share, most = config.BEAM_SHARE, config.BEAM_MOST_SECONDS
            limits = slice_limits(t0, seconds, nodes, self.memory, share, most)
            beam_nodes = None if nodes is None else max(1, min(limits[1], nodes - done))
            memory = self.memory - main_bytes
            run = beam_probe(position, t0, limits[0], beam_nodes, memory, probe_mask)
            if run.result == "won":
                # the answer: count the paused search's positions too
                for slot in SUMMED:
                    run.stats[slot] += main.stats[slot]
                run.peak_bytes += main_bytes
                return run
        # the short turned probes, the narrowed ones, the long turned ones
        # (the whole width, turned on from the solve's own turn); turned
        # probes only when timed (above), and not under the building rules
        # where they never decided a deal
        own = self.prune & ~(255 << SPIN_SHIFT)
        build = int(position.game.rules[core.R_BUILD])
        turning = timed and build not in config.TURN_PROBE_SKIP_BUILDS
        narrowed = [(w, f, most, probe_mask, None) for w, f, most in config.PROBES]
        turned = [
            (
                config.MAX_MACROS,
                share,
                share * config.TURN_PROBE_SECONDS_PER_SHARE,
                own | (((self.turn + t) % 256) << SPIN_SHIFT),
                f"turn{t}",
            )
            for t, share in (config.TURN_PROBES if turning else ())
        ]
        first = config.TURN_PROBES_FIRST
        kinds = turned[:first] + narrowed + turned[first:]
        for width, fraction, most, prune, stage in kinds:
            limits = slice_limits(t0, seconds, nodes, self.memory, fraction, most)
            # the paused search's table stays; the probe's goes when it ends
            memory = self.memory - main_bytes
            earlier_nodes = 0 if run is None else int(run.stats[ST_NODES])
            probe_nodes = (
                None if nodes is None else max(1, min(limits[1], nodes - done - earlier_nodes))
            )
            probe = DfsRun(
                position, self._probe_path, prune, memory, width, probe_nodes, stage=stage
            )
            if run is None or run.stage == "beam":
                probe.seed_best(main.finish())
            if run is not None:
                probe.absorb(run)  # its best is at least the full search's
            # the probe's counters hold the earlier probes' positions as well
            probe.advance(
                t0, limits[0], None if probe_nodes is None else earlier_nodes + probe_nodes, memory
            )
            if probe.code == WON or (probe.code == EXHAUSTED and width >= config.MAX_MACROS):
                # the answer (a turned probe's exhaustion is a proof: it
                # searched every move): count the paused search too, its
                # table held beside; otherwise the search resumed absorbs it
                probe.absorb(main.finish(), kept_bytes=probe.peak_bytes)
            run = probe.finish()
            if run.result in ("won", "lost"):
                break
        return run


_DEFAULT_SOLVER: Solver | None = None


def solve(
    position: Position,
    seconds: float = config.DEFAULT_SECONDS,
    nodes: int | None = config.DEFAULT_NODES,
    memory: int | None = None,
    prune: bool | str = True,
    strategy: str = "dfs",
    probes: bool = True,
    threads: int = 1,
    evict: bool = True,
    turn: int = 0,
) -> SolveResult:
    """Solve one position with a reused solver (see :class:`Solver`)."""
    global _DEFAULT_SOLVER
    mem = memory or config.DEFAULT_MEMORY
    mask = prune_mask(prune) | (int(turn) << SPIN_SHIFT)
    have = _DEFAULT_SOLVER
    want = (mem, mask, strategy, bool(probes), threads, bool(evict))
    if (
        have is None
        or (
            have.memory,
            have.prune,
            have.strategy,
            have.probes,
            have.threads,
            have.evict,
        )
        != want
    ):
        _DEFAULT_SOLVER = Solver(mem, prune, strategy, probes, threads, evict, turn)
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
    threads: int = 1,
    evict: bool = True,
    turn: int = 0,
) -> SolveResult:
    """Solve a dealt position with a reused solver; for ``selective`` solve all
    five base picks (:meth:`Solver.solve_deal`)."""
    return solve_picks(
        lambda pos, s, n: solve(pos, s, n, memory, prune, strategy, probes, threads, evict, turn),
        deal,
        profile,
        seconds,
        nodes,
        strategy,
    )


def solve_picks(
    solve_one: Callable[[Position, float, int | None], SolveResult],
    deal: int | str | list[int],
    profile: str | Profile | None,
    seconds: float,
    nodes: int | None,
    strategy: str = "dfs",
) -> SolveResult:
    """Solve the dealt position with ``solve_one(position, seconds, nodes)``;
    for ``selective``, each of the five base picks in turn.

    The selective answer is the best pick: won if any pick wins, lost only if
    every pick is lost, otherwise unknown; ``picks`` holds each pick's verdict.
    The time and the node budget are split alike: each pick gets an equal
    share of what the picks before it left, so the five together stay within
    both budgets (and a node budget keeps the rows reproducible: a pick's
    share depends only on the positions the earlier picks searched).
    """
    prof = parse_profile(profile)
    if prof.layout != "selective":
        return solve_one(Position.from_deal(deal, prof), seconds, nodes)
    # the five cards of the deal that may be picked as the base
    five = list(Position.from_deal(deal, "strict").game.deal[13:18])
    # the five picks share one clock: a warm-up inside the first pick's
    # solve would come out of the other picks' shares
    refusal = search_refusal(prof, strategy)
    if refusal is not None:
        raise ValueError(refusal)  # before a warm-up that may take a minute
    _ensure_warm(strategy, prof.packs)
    t0 = time.perf_counter()
    results = []
    for i, card in enumerate(five):
        left = seconds - (time.perf_counter() - t0)
        share = max(left / (len(five) - i), 1e-3)
        node_share = _node_share(nodes, sum(r.nodes for r in results), len(five) - i)
        r = solve_one(Position.from_deal(deal, prof, pick=card), share, node_share)
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


def _node_share(nodes: int | None, used: int, picks_left: int) -> int | None:
    """The node budget of the next selective pick: an equal share of what is
    left (None: no node budget). At least one position, so a pick always
    starts its search."""
    if nodes is None:
        return None
    return max((nodes - used) // picks_left, 1)


def two_move_position(profile: str) -> Position:
    """A position two cards from a win (three macro moves): small enough to
    run every one-pack kernel fast, compiled or as plain Python."""
    return Position.from_parts(
        profile,
        base=5,
        foundations=[12, 11, 13, 13],
        reserve=[],
        columns=[parse_cards("5C"), [], [], []],
        stock=[],
        waste=parse_cards("5D 4D"),
    )


def warm_up(strategy: str = "dfs", packs: int = 1, beam: bool = False) -> float:
    """Compile (or load from numba's cache) every kernel of ``strategy`` for
    games of ``packs`` packs, and with ``beam`` the beam probe of one pack
    (:func:`warm_beam`; two packs have no such probe, and ignore ``beam``);
    return the seconds it took.

    One pack: solving a two-move position touches every depth-first kernel;
    the layered strategy then searches a few hundred
    positions of deal 0, since the two-move position is decided before its
    layers start. Two packs
    (``double``, searched depth-first whatever the strategy): a few hundred
    positions of deal 0 run every stage (beam, probes, search), none of which
    wins there. Either way the first real solve is not charged for
    compilation, which would otherwise eat its time budget. A Ctrl-C during
    it is raised when it ends
    (:func:`~canfield.engine.numba_cache.interrupts_deferred`).
    """
    t0 = time.perf_counter()
    tag = _warm_tag(strategy, packs)
    # marked first: the solves below must not warm up again
    _warm_here.add(tag)
    try:
        _warm_kernels(strategy, packs, beam)
    except BaseException:
        _warm_here.discard(tag)
        raise
    mark_warm(tag)
    return time.perf_counter() - t0


#: The kernels this process has compiled or loaded, by the tags the numba
#: cache's marks use (:func:`_warm_tag`, ``BEAM_TAG``), so that
#: :meth:`Solver.solve` warms up once a process, outside its clock.
_warm_here: set[str] = set()


def _ensure_warm(strategy: str, packs: int) -> None:
    """:func:`warm_up` for a solve of ``strategy`` over ``packs`` packs,
    unless this process has done it (kernels compiled inside a solve's
    clock eat its budget: a cold cache made an API caller's first solve
    "unknown" that a warm one decides)."""
    if _warm_tag(strategy, packs) not in _warm_here:
        warm_up(strategy, packs)


def _warm_kernels(strategy: str, packs: int, beam: bool) -> None:
    """The body of :func:`warm_up`."""
    # making the position compiles engine kernels too: inside the held block
    with interrupts_deferred():
        # a table's first rehash times itself to predict the next one under a
        # time budget (``solver.budgets.rehash_in_time``): compiling its
        # kernel (a fresh cache) inside that timing made the prediction many
        # times too long, and a bench's first deal stopped for "time" with
        # most of its time left
        if packs == 2:
            warm_double_rehash()
            pos = Position.from_deal(0, "double")
            Solver(memory=1 << 22).solve(pos, seconds=600, nodes=config.WARM_UP_DOUBLE_NODES)
        else:
            kw = core.key_words(0)  # one rehash kernel serves every key width
            grown(new_table(4, kw), 8, kw)
            pos = two_move_position("strict")
            warm_evict(pos)  # the clock's refusal of a rehash evicts instead
            kernels = _kernels(strategy)
            Solver(memory=1 << 20, strategy=kernels).solve(pos, seconds=60)
            if beam:
                warm_beam()
            if kernels == "layers":
                # the two-move position is decided before the layers start
                deal = Position.from_deal(0, "strict")
                Solver(memory=1 << 22, strategy="layers", probes=False).solve(
                    deal, seconds=600, nodes=config.WARM_UP_LAYERS_NODES
                )


def warm_beam() -> None:
    """Compile (or load) the one-pack beam probe's kernels, once a process.

    Only the profiles of ``beam_profile`` (rank-only building, free spaces)
    run it, and its compile is about a third of the one-pack kernels', so
    :func:`warm_up` leaves it out unless asked and :meth:`Solver.solve`
    calls this before its clock starts on such a profile: the beam searches
    a few positions of rainbow deal 0 (the probe runs after the full
    search's first slice, so it is called directly).
    """
    if BEAM_TAG in _warm_here:
        return
    with interrupts_deferred():
        rainbow = Position.from_deal(0, "rainbow")
        beam_probe(rainbow, time.perf_counter(), 60.0, config.WARM_UP_BEAM_NODES, 1 << 24,
                   prune_mask(True))  # fmt: skip
    mark_warm(BEAM_TAG)
    _warm_here.add(BEAM_TAG)


def is_compiled(strategy: str = "dfs", packs: int = 1, beam: bool = False) -> bool:
    """Whether :func:`warm_up` has run for ``strategy``, ``packs`` and ``beam``
    against this source tree's numba cache, so the next one loads the kernels
    instead of compiling."""
    return is_warm(_warm_tag(strategy, packs)) and (not beam or packs == 2 or is_warm(BEAM_TAG))


#: The mark :func:`warm_beam` leaves in the numba cache.
BEAM_TAG = "solve-beam"


def _kernels(strategy: str) -> str:
    """The one-pack strategy whose kernels ``strategy`` runs: the shared
    search's threads run the depth-first ones."""
    return "dfs" if strategy == "shared" else strategy


def _warm_tag(strategy: str, packs: int = 1) -> str:
    """What a warm-up of ``strategy`` over ``packs`` packs is recorded as:
    two packs are searched depth-first whatever the strategy."""
    return "solve-double" if packs == 2 else f"solve-{_kernels(strategy)}"
