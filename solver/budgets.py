"""The budgets of a solve: reading them from text, and slicing them.

A solve has a time budget (seconds), a node budget (positions expanded) and
a memory budget (bytes); its stages each run on a slice of them.
"""

from __future__ import annotations

import re
import time

from canfield.solver import config


def unset_seconds(nodes: int | None) -> float:
    """The time budget of a solve given none: no clock when it has a node
    budget (as in a sweep: the answer is then the same on any machine,
    however loaded), else ``config.DEFAULT_SECONDS``."""
    return float("inf") if nodes is not None else config.DEFAULT_SECONDS


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
    except (ValueError, OverflowError):  # OverflowError: 'infGB'
        raise ValueError(f"cannot read a memory size from {text!r} (try 2GB)") from None
    if value <= 0:
        raise ValueError(f"a memory budget must be positive, got {text!r}")
    return value


# a number with nothing after it: a budget whose unit was left out
_BARE_NUMBER = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$")


def is_bare_number(text: str) -> bool:
    """Whether ``text`` is a number written alone (signed, with a point or an
    exponent; not ``nan`` or ``inf``): a budget without its unit, or a list
    line meant as a deal number."""
    return _BARE_NUMBER.match(text) is not None


def seconds_of(text: str | float) -> float:
    """Seconds of a command-line time budget such as ``10s``, ``500ms`` or ``2m``.

    Raises
    ------
    ValueError
        For a bare number (no unit) or text that is not a time budget.
    """
    if isinstance(text, str) and is_bare_number(text):
        raise ValueError(
            f"a time budget needs a unit: {text.strip()}s or {text.strip()}m? "
            "(write it like 10s, 500ms, 2m; a node budget is --nodes)"
        )
    return parse_seconds(text)


def bytes_of(text: str | int) -> int:
    """Bytes of a command-line memory size such as ``256MB`` or ``2GB``
    (how large a table may be is ``experiments.sweep.spec.read_bytes``'s check).

    Raises
    ------
    ValueError
        For a bare number (no unit) or text that is not a size.
    """
    if isinstance(text, str) and is_bare_number(text):
        raise ValueError(
            f"a memory size needs a unit: {text.strip()}MB or {text.strip()}GB? "
            "(write it like 256MB or 2GB)"
        )
    return parse_bytes(text)


def slice_limits(
    t0: float,
    seconds: float,
    nodes: int | None,
    memory: int,
    fraction: float,
    most: float = float("inf"),
) -> tuple[float, int | None, int]:
    """Limits for a slice of the budgets of a solve started at ``t0``.

    Parameters
    ----------
    t0 : float
        ``time.perf_counter()`` when the solve started.
    seconds, nodes, memory : float, int or None, int
        The solve's whole budgets.
    fraction : float
        The slice's share of each.
    most : float
        The most seconds the slice may spend.

    Returns
    -------
    tuple
        The time limit (seconds after ``t0``: ``fraction`` of the budget
        counted from now, at most ``most``, never past the whole budget), the
        node limit and the memory limit. With no time budget (``seconds``
        infinite) there is no time limit either, so a node budget alone keeps
        a solve the same on every machine.
    """
    now = time.perf_counter() - t0
    end = min(seconds, now + min(seconds * fraction, most))
    if seconds == float("inf"):
        end = seconds
    cap = None if nodes is None else max(1, int(nodes * fraction))
    return end, cap, max(1 << 16, int(memory * fraction))


def nodes_in_time(t0: float, seconds: float, done: int, chunk: int) -> int:
    """The next chunk of a search under a time budget: ``chunk`` positions, or
    fewer when the time left holds fewer at the rate so far.

    A kernel call runs to its chunk's end before Python reads the clock again,
    so a full chunk begun just before the deadline ends the solve late by a
    chunk's time (a tenth of a second for two packs).

    Parameters
    ----------
    t0, seconds : float
        ``time.perf_counter()`` when the solve started, and its time limit
        after ``t0`` (infinite: no time limit, and the chunk is unchanged, so
        a node budget keeps a search the same on every machine).
    done : int
        Positions this search has expanded since ``t0``; the rate it gives
        is a lower bound when other stages of the solve ran first, which only
        makes the chunk smaller.
    chunk : int
        The largest chunk.
    """
    if seconds == float("inf") or done <= 0:
        return chunk
    elapsed = time.perf_counter() - t0
    if elapsed <= 0:
        return chunk
    fits = int(done / elapsed * max(0.0, seconds - elapsed)) + 1
    return max(min(config.MIN_CHUNK_NODES, chunk), min(chunk, fits))


def rehash_in_time(t0: float, seconds: float, rate: float, new_slots: int, slot_bytes: int) -> bool:
    """Whether a rehash into a table of ``new_slots`` slots of ``slot_bytes``
    each ends before the time limit ``seconds`` after ``t0``: a large table
    takes seconds, and a search that grows it just before the deadline
    overruns the budget by that much and expands nothing with it.

    A new slot is taken to cost ``rate`` seconds (what a slot of the last
    rehash took; 0 before the first), and at least
    ``config.REHASH_SECONDS_PER_BYTE`` a byte: a small table is often made
    of memory the process already holds, while a large one is fresh memory
    whose every page faults in when first written, so the last rehash's rate
    can under-predict the next one many times over (``docs/solver.md``,
    "Keeping to a time budget").
    """
    per_slot = max(rate, slot_bytes * config.REHASH_SECONDS_PER_BYTE)
    return _ends_in_time(t0, seconds, new_slots * per_slot)


def evict_in_time(t0: float, seconds: float, table_bytes: int) -> bool:
    """Whether evicting from a full table of ``table_bytes`` (two passes over
    it, ``solver.table.tt_evict``) ends before the time limit ``seconds``
    after ``t0``, at ``config.EVICT_SECONDS_PER_BYTE`` a byte."""
    return _ends_in_time(t0, seconds, table_bytes * config.EVICT_SECONDS_PER_BYTE)


def _ends_in_time(t0: float, seconds: float, cost: float) -> bool:
    """Whether work of ``cost`` seconds begun now ends before ``seconds`` after ``t0``."""
    return time.perf_counter() - t0 + cost < seconds
