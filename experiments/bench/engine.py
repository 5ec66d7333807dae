"""Engine benchmark: positions expanded per second by the numba core.

To *expand* a position is to generate all its legal moves and apply each one
to a copy (:func:`expand_pool`). For the ``strict`` and ``hevagames``
profiles this script

1. builds a pool of positions by random legal playouts from seeded deals
   (``random.Random(seed)``: the pool is the same on every run);
2. compiles the core (or loads it from numba's cache) and reports the time of
   that first call separately;
3. times the numba core over the whole pool, several repetitions, and reports
   the median rate;
4. times the same expansion in pure Python through the public API
   (``Position.legal_moves`` + ``Position.apply``), and through the slow
   oracle ``tests/reference_rules.py`` (``ref_legal_moves`` + ``ref_apply``)
   when that file exists and imports.

The table is printed and written as JSON (or CSV if ``--out`` ends in
``.csv``), by default to ``results/runs/bench/engine.json`` of the current
directory. Run it as ``canfield bench engine``.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np
from numba import njit

from canfield.engine import core
from canfield.engine.position import Position
from canfield.engine.version import __version__

#: The checkout this module sits in (``experiments/bench/`` is two folders
#: down); it holds ``tests/reference_rules.py``, an installed package does not.
CHECKOUT = Path(__file__).resolve().parents[2]
#: The default result file, relative to the current directory: never beside
#: this module, which an install puts in site-packages.
DEFAULT_OUT = Path("results", "runs", "bench", "engine.json")
PROFILES = ("strict", "hevagames")
TARGET = 1_000_000  # positions expanded per second, one core


@njit(cache=True)
def expand_pool(states, games, rules, reps):
    """Expand every position of a pool ``reps`` times.

    To expand is to generate all legal moves and apply each to a copy.
    Returns the number of children made, so the work cannot be elided.
    """
    buf = np.empty(core.MAX_MOVES, np.int64)
    t = np.empty(core.STATE_LEN, np.uint64)
    total = 0
    check = np.uint64(0)
    for _ in range(reps):
        for i in range(states.shape[0]):
            s = states[i]
            game = games[i]
            n = core.legal_moves(s, game, rules, buf)
            for j in range(n):
                t[:] = s
                core.apply_move(t, buf[j], game, rules)
                check ^= t[0]
            total += n
    return total + np.int64(check & np.uint64(0))


@njit(cache=True)
def _count_children(states, games, rules):
    buf = np.empty(core.MAX_MOVES, np.int64)
    total = 0
    for i in range(states.shape[0]):
        total += core.legal_moves(states[i], games[i], rules, buf)
    return total


def build_pool(profile: str, size: int, seed: int) -> list[Position]:
    """``size`` positions met in random legal playouts from seeded deals.

    Each playout starts from a deal number drawn from ``random.Random(seed)``,
    plays up to 200 uniformly random legal moves and keeps the positions at
    up to five random steps, so the pool mixes openings and middle games.
    """
    rng = random.Random(f"{seed}:{profile}")
    pool: list[Position] = []
    buf = np.empty(core.MAX_MOVES, np.int64)
    while len(pool) < size:
        pos = Position.from_deal(rng.randrange(2**64), profile)
        game, state = pos.game, pos.state.copy()
        length = rng.randrange(1, 200)
        keep = set(rng.sample(range(length), min(5, length)))
        for step in range(length):
            n = core.legal_moves(state, game.arr, game.rules, buf)
            if n == 0:
                break
            core.apply_move(state, buf[rng.randrange(n)], game.arr, game.rules)
            if step in keep and len(pool) < size:
                pool.append(Position(game, state.copy()))
    return pool


def _median_rate(run: Callable[[], None], count: int, reps: int) -> tuple[float, list[float]]:
    """Time ``run`` ``reps`` times; return the median of ``count / seconds``."""
    rates = []
    for _ in range(reps):
        t0 = time.perf_counter()
        run()
        rates.append(count / (time.perf_counter() - t0))
    return statistics.median(rates), rates


def _load_reference():
    """``tests/reference_rules.py`` as a module, or the reason it is not there."""
    path = CHECKOUT / "tests" / "reference_rules.py"
    if not path.exists():
        return None, "tests/reference_rules.py not found"
    if "reference_rules" in sys.modules:
        mod = sys.modules["reference_rules"]
    else:
        try:
            spec = importlib.util.spec_from_file_location("reference_rules", path)
            mod = importlib.util.module_from_spec(spec)
            sys.modules["reference_rules"] = mod  # dataclasses look their module up
            spec.loader.exec_module(mod)
        except Exception as exc:  # an optional comparison: any failure is reported, not raised
            sys.modules.pop("reference_rules", None)
            return None, f"tests/reference_rules.py does not import: {type(exc).__name__}: {exc}"
    missing = [n for n in ("RefState", "ref_legal_moves", "ref_apply") if not hasattr(mod, n)]
    if missing:
        return None, "tests/reference_rules.py lacks " + ", ".join(missing)
    return mod, ""


def _ref_states(ref, pool: list[Position]):
    return [ref.ref_from_snapshot(pos.profile, pos.snapshot()) for pos in pool]


def bench_profile(
    profile: str, pool_size: int, seed: int, seconds: float, reps: int, ref
) -> tuple[list[dict], dict]:
    """Rows for one profile: numba core, Position API and (if given) the reference."""
    pool = build_pool(profile, pool_size, seed)
    states = np.stack([p.state for p in pool])
    games = np.stack([p.game.arr for p in pool])
    rules = pool[0].game.rules
    n = len(pool)

    fresh = not expand_pool.signatures
    t0 = time.perf_counter()
    expand_pool(states[:1], games[:1], rules, 1)
    first_call = time.perf_counter() - t0
    children = int(_count_children(states, games, rules))

    # calibrate so that one repetition lasts about seconds / reps
    inner = 1
    while True:
        t0 = time.perf_counter()
        expand_pool(states, games, rules, inner)
        dt = time.perf_counter() - t0
        if dt >= 0.02 or inner >= 1 << 20:
            break
        inner *= 4
    inner = max(1, int(inner * (seconds / reps) / dt))
    rate, rates = _median_rate(lambda: expand_pool(states, games, rules, inner), n * inner, reps)
    rows = [_row(profile, "numba core (expand_pool)", rate, rates, children / n, n * inner)]
    numba_rate = rate

    def py_sweep() -> None:
        for pos in pool:
            for m in pos.legal_moves():
                pos.apply(m)

    sweeps = _python_sweeps(py_sweep, seconds, reps)
    rate, rates = _median_rate(py_sweep, n, sweeps)
    rows.append(_row(profile, "Python: Position.legal_moves + apply", rate, rates, children / n, n))

    if ref is not None:
        ref_pool = _ref_states(ref, pool)

        def ref_sweep() -> None:
            for st in ref_pool:
                for m in ref.ref_legal_moves(st):
                    ref.ref_apply(st, m)

        sweeps = _python_sweeps(ref_sweep, seconds, reps)
        rate, rates = _median_rate(ref_sweep, n, sweeps)
        rows.append(
            _row(profile, "reference: ref_legal_moves + ref_apply", rate, rates, children / n, n)
        )
    for row in rows:
        row["speedup_of_numba"] = numba_rate / row["positions_per_s"]
    if not fresh:
        how = "already compiled in this process"
    elif expand_pool.stats.cache_hits and not expand_pool.stats.cache_misses:
        how = "loaded from numba's on-disk cache"
    else:
        how = "compiled"
    info = {
        "profile": profile,
        "first_call_s": first_call,
        "first_call": how,
        "mean_moves": children / n,
    }
    return rows, info


def _python_sweeps(sweep: Callable[[], None], seconds: float, reps: int) -> int:
    """How many sweeps fit in ``seconds`` (at least 1, at most ``reps``)."""
    t0 = time.perf_counter()
    sweep()
    dt = time.perf_counter() - t0
    return max(1, min(reps, int(seconds / max(dt, 1e-9))))


def _row(profile, impl, rate, rates, mean_moves, per_rep) -> dict:
    return {
        "profile": profile,
        "implementation": impl,
        "positions_per_s": rate,
        "children_per_s": rate * mean_moves,
        "repetitions": len(rates),
        "positions_per_repetition": per_rep,
        "rates": rates,
    }


def run(
    seconds: float = 2.0,
    out: str | os.PathLike | None = None,
    pool_size: int = 300,
    seed: int = 0,
    reps: int = 5,
    reference: bool = True,
    echo: Callable[[str], None] = print,
) -> dict:
    """Run the benchmark, print the table and write the result file.

    Parameters
    ----------
    seconds : float
        Rough time spent on each (profile, implementation) measurement.
    out : path, optional
        Result file: ``.json`` (default :data:`DEFAULT_OUT`) or ``.csv``.
    pool_size : int
        Positions in each profile's pool.
    seed : int
        Seed of the deals and playouts that build the pools.
    reps : int
        Repetitions; the median rate is reported.
    reference : bool
        Also time ``tests/reference_rules.py`` when it imports.
    echo : callable
        Where the table goes.

    Returns
    -------
    dict
        ``meta`` (machine, versions, pool) and ``rows`` (one per profile and
        implementation).
    """
    # NaN passes ``seconds <= 0``, and NaN or inf seconds end in a count of
    # repetitions that is no integer, after the pools were built
    if not (0 < seconds < math.inf) or pool_size < 1 or reps < 1:
        raise ValueError(
            "seconds (finite), pool size and repetitions must be positive, got "
            f"{seconds}, {pool_size} and {reps}"
        )
    ref, ref_note = _load_reference() if reference else (None, "not requested")
    rows, infos = [], []
    for profile in PROFILES:
        r, info = bench_profile(profile, pool_size, seed, seconds, reps, ref)
        rows += r
        infos.append(info)
    meta = {
        "version": __version__,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "threads": 1,
        "pool_size": pool_size,
        "seed": seed,
        "seconds": seconds,
        "reps": reps,
        "target_positions_per_s": TARGET,
        "first_call": infos,
        "reference": ref_note or "timed",
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    result = {"meta": meta, "rows": rows}
    for line in format_table(result):
        echo(line)
    path = Path(out) if out else DEFAULT_OUT
    write(result, path)
    echo(f"wrote {path}")
    return result


def format_table(result: dict) -> list[str]:
    meta = result["meta"]
    lines = [
        f"engine benchmark: pool of {meta['pool_size']} positions per profile (seed "
        f"{meta['seed']}), median of {meta['reps']} repetitions, one thread",
        f"{'profile':<10} {'implementation':<40} {'positions/s':>13} {'moves/s':>13} "
        f"{'numba x':>8}",
    ]
    for r in result["rows"]:
        lines.append(
            f"{r['profile']:<10} {r['implementation']:<40} {r['positions_per_s']:>13,.0f} "
            f"{r['children_per_s']:>13,.0f} {r['speedup_of_numba']:>8,.0f}"
        )
    for info in meta["first_call"]:
        lines.append(
            f"first call ({info['profile']}): {info['first_call_s']:.2f} s "
            f"({info['first_call']}); "
            f"{info['mean_moves']:.1f} legal moves per position"
        )
    best = min(
        r["positions_per_s"] for r in result["rows"] if r["implementation"].startswith("numba")
    )
    verdict = "meets" if best >= meta["target_positions_per_s"] else "MISSES"
    lines.append(f"target {meta['target_positions_per_s']:,} positions/s: numba core {verdict} it")
    if meta["reference"] != "timed":
        lines.append(f"reference: {meta['reference']}")
    return lines


def write(result: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".csv":
        fields = [k for k in result["rows"][0] if k != "rates"]
        with path.open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
            w.writeheader()
            w.writerows(result["rows"])
    else:
        path.write_text(json.dumps(result, indent=2) + "\n")
