"""The one-pack beam probe's driver: budgets, its table and its answer.

Internal to :mod:`solver.search`, which runs it among the probes of a solve
where ``config.BEAM_BUILDS`` names the profile's building rule. Its answer
is a :class:`solver.dfs_run.Run` like a narrowed depth-first probe's: "won"
with the line of macro moves to the win, or "unknown" (``"probe"``) with
the line to the most-banked position it kept; never "lost".
"""

from __future__ import annotations

import time

import numpy as np

from canfield.engine import core
from canfield.engine.position import Position, rules_array
from canfield.engine.profiles import Profile
from canfield.solver import config
from canfield.solver.beam import (
    AT_BEST_DEPTH,
    AT_BEST_INDEX,
    AT_DEPTH,
    AT_LEN,
    beam,
    beam_start,
)
from canfield.solver.budgets import nodes_in_time
from canfield.solver.dfs_run import SUMMED, Run
from canfield.solver.double_beam import line_of
from canfield.solver.stats import N_STATS, RUNNING, ST_BEST, ST_BESTLEN, ST_MAXDEPTH, ST_NODES, WON
from canfield.solver.table_memory import zeroed


def beam_applies(rules: np.ndarray) -> bool:
    """Whether a solve under ``rules`` runs the beam probe: under the
    building rules of ``config.BEAM_BUILDS`` or the space rules of
    ``config.BEAM_FILLS``."""
    return (
        int(rules[core.R_BUILD]) in config.BEAM_BUILDS
        or int(rules[core.R_FILL]) in config.BEAM_FILLS
    )


def beam_profile(profile: Profile) -> bool:
    """Whether a solve under ``profile`` runs this beam probe (one pack;
    two packs have a beam of their own, ``solver.double_beam``)."""
    return profile.packs == 1 and beam_applies(rules_array(profile))


def beam_cascade(rules: np.ndarray) -> tuple:
    """The beams a probe under ``rules`` runs: ``config.BEAM_CASCADE`` under
    the building rules of ``config.BEAM_BUILDS``, else
    ``config.BEAM_FREE_CASCADE``."""
    if int(rules[core.R_BUILD]) in config.BEAM_BUILDS:
        return config.BEAM_CASCADE
    return config.BEAM_FREE_CASCADE


def beam_bytes(width: int) -> int:
    """Bytes of scratch a beam ``width`` positions wide holds: two depths of
    positions, the line arrays of every depth and the candidate children
    (:func:`solver.beam.beam`), besides its table."""
    per = 2 * core.STATE_LEN * 8 + 2 * config.BEAM_DEPTH * 8 + 3 * 8 * config.MAX_MACROS
    return width * per


def beam_width(seconds: float, nodes: int | None, memory: int) -> int:
    """The beam's width: its node budget (or, under a time budget alone, the
    positions ``config.BEAM_RATE`` a second would make in its time) over
    ``config.BEAM_LAYERS``, at least ``config.BEAM_MIN_WIDTH``, its scratch
    within ``config.BEAM_MEMORY_SHARE`` of ``memory``."""
    budget = nodes if nodes is not None else int(seconds * config.BEAM_RATE)
    width = max(config.BEAM_MIN_WIDTH, budget // config.BEAM_LAYERS)
    room = int(memory * config.BEAM_MEMORY_SHARE) // beam_bytes(1)
    return max(1, min(width, room))


def beam_table_slots(
    seconds: float, nodes: int | None, width: int, table_bytes: int, kw: int
) -> int:
    """Slots of each beam's table: room (``config.MAX_LOAD`` of them) for its
    node budget and a depth more, or under a time budget alone for what
    ``config.BEAM_TABLE_RATE`` positions a second would make in ``seconds``;
    a power of two, at least 4,096, doubled only while ``table_bytes`` holds
    it (``kw`` key words and a used flag a slot)."""
    want = nodes if nodes is not None else int(max(seconds, 0.0) * config.BEAM_TABLE_RATE)
    slots = 1 << 12
    while slots * config.MAX_LOAD < want + width and (2 * slots) * (8 * kw + 1) <= table_bytes:
        slots *= 2
    return slots


def beam_probe(
    position: Position, t0: float, until: float, nodes: int | None, memory: int, prune: int
) -> Run:
    """Run the beams of :func:`beam_cascade` from ``position`` in turn
    (each scoring positions by its own weights, with its own kin cap, its
    own share of the width and a table of its own) until one wins, ``until``
    seconds after ``t0``, ``nodes`` positions in all or the last one's end.

    Parameters
    ----------
    position : Position
        The root.
    t0, until : float
        ``time.perf_counter()`` when the solve started, and the seconds
        after it the probe must stop by (infinite: no time limit).
    nodes : int or None
        The most positions its beams may keep together (None: no node limit).
    memory : int
        The bytes its table and scratch may take together.
    prune : int
        The kernel's mask of pruning rules (P1, E1 and W1 shape its moves;
        with B1 and ``WIN_ONLY`` it keeps out positions that cannot win).
    """
    g = position.game
    kw = core.key_words(int(g.rules[core.R_BUILD]))
    seconds = until - (time.perf_counter() - t0)
    width = beam_width(seconds, nodes, memory)
    table_bytes = max(memory - beam_bytes(width), 1 << 16)
    slots = beam_table_slots(seconds, nodes, width, table_bytes, kw)
    # on table memory: a beam's arrays are as large as a table, made and dropped each solve
    keys = zeroed((slots, kw), np.uint64)
    used = zeroed(slots, np.bool_)
    room = int(slots * config.MAX_LOAD) - 1
    layer = zeroed((width, core.STATE_LEN), np.uint64)
    nxt = zeroed(layer.shape, layer.dtype)
    parent = zeroed((config.BEAM_DEPTH, width), np.int64)
    macs = zeroed(parent.shape, parent.dtype)
    at = np.zeros(AT_LEN, np.int64)
    total = np.zeros(N_STATS, np.int64)
    best, best_line = -1, []
    code, reason = RUNNING, "probe"
    for weights, kin_cap, share in beam_cascade(g.rules):
        # a narrower beam keeps the first rows of the scratch (still C-ordered)
        wide = max(min(config.BEAM_MIN_WIDTH, width), int(width * share))
        spent = int(total[ST_NODES])
        if (nodes is not None and spent >= nodes) or time.perf_counter() - t0 >= until:
            break
        limit = room if nodes is None else min(nodes - spent, room)
        used[:] = False  # each beam its own table: its own scoring finds other positions
        stats = np.zeros(N_STATS, np.int64)
        start = beam_start(position.state, g.rules, layer, keys, used, at, stats)
        code = WON if start else RUNNING
        w = np.array(weights, np.int64)
        while code == RUNNING:
            done = int(stats[ST_NODES])
            if done >= limit:
                reason = "probe" if nodes is not None and spent + done >= nodes else "memory"
                break
            if at[AT_DEPTH] >= config.BEAM_DEPTH or time.perf_counter() - t0 >= until:
                break
            pause = done + nodes_in_time(t0, until, spent + done, config.CHUNK_NODES)
            code = beam(
                layer[:wide], nxt[:wide], at, g.arr, g.rules, np.int64(prune), w, pause, limit,
                keys, used, parent, macs, stats, np.int64(kin_cap),
            )  # fmt: skip
        for slot in SUMMED:
            total[slot] += stats[slot]
        total[ST_MAXDEPTH] = max(
            int(total[ST_MAXDEPTH]), int(stats[ST_MAXDEPTH]), int(at[AT_DEPTH])
        )
        if int(stats[ST_BEST]) > best:
            best = int(stats[ST_BEST])
            best_line = line_of(parent, macs, int(at[AT_BEST_DEPTH]), int(at[AT_BEST_INDEX]))
        if code == WON or reason == "memory":
            break
    total[ST_BEST] = best
    total[ST_BESTLEN] = len(best_line)
    won = code == WON
    # running dry (EXHAUSTED) proves nothing: the answer stays unknown
    return Run(
        result="won" if won else "unknown",
        reason="solved" if won else reason,
        stats=total,
        macros=best_line,
        peak_bytes=keys.nbytes + used.nbytes,
        max_depth=int(total[ST_MAXDEPTH]),
        dominated=0,
        stage="beam",
    )
