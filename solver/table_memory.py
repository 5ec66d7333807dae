"""Table memory a process keeps between tables, so a new table need not fault in fresh pages.

A solve makes many tables: the full search's grows by rehashing into a new
one four or two times larger, and every probe starts its own and grows it
the same way. Each new table was a fresh ``np.zeros``, whose pages the
kernel maps and zeroes on first touch. On the virtual machines these
figures come from that first touch is slow: a 10 s strict solve spent 0.5-0.8
s of system time faulting in its tables (the rehash into a 167 MB table
alone took about 0.5 s), and each probe paid again for the sizes the one
before it had just freed (``docs/solver.md``, *Speed*, *Table memory kept
for reuse*).

So the buffers behind tables are kept, up to ``config.TABLE_KEEP_BYTES`` in
all, and a new table takes an idle one of about its size, zeroed in place
(already mapped, that is a plain memory write). A buffer is idle when
nothing but this module refers to it: every table made from it is a numpy
view, and a view holds a reference to its buffer, so CPython's reference
count says exactly when the last table, or any slice of one, is gone.
A table's contents never depend on where its memory came from: the search
is the same position for position.
"""

from __future__ import annotations

import sys
import threading

import numpy as np

from canfield.solver import config

_lock = threading.Lock()
#: The kept buffers (1-D ``uint32``); each is idle or backs live tables.
_kept: list[np.ndarray] = []
# what sys.getrefcount says of an idle buffer read as ``_kept[i]``: the
# list's reference and the argument's
_IDLE_REFS = 2


def _idle(i: int) -> bool:
    return sys.getrefcount(_kept[i]) <= _IDLE_REFS


def zeroed_words(n: int) -> np.ndarray:
    """``n`` zeroed 32-bit words for a table, from a kept idle buffer when
    one of ``n`` to ``2 n`` words exists.

    A new buffer is kept if, after letting idle buffers go (largest first),
    the kept buffers stay within ``config.TABLE_KEEP_BYTES``; a buffer
    larger than half of it is never kept (a long solve's gigabyte tables
    would stay resident after it ends), nor one below
    ``config.TABLE_KEEP_MIN_BYTES`` (small blocks come back from the C
    heap without new pages anyway).

    Parameters
    ----------
    n : int
        Words wanted.

    Returns
    -------
    ndarray
        ``n`` zeroed ``uint32`` words (a view of a kept buffer, or a buffer
        of its own).
    """
    most = config.TABLE_KEEP_BYTES
    nbytes = 4 * n
    if nbytes > most // 2 or nbytes < config.TABLE_KEEP_MIN_BYTES:
        return np.zeros(n, np.uint32)
    with _lock:
        fit = -1
        for i in range(len(_kept)):
            size = _kept[i].shape[0]
            if n <= size <= 2 * n and _idle(i) and (fit < 0 or size < _kept[fit].shape[0]):
                fit = i
        if fit >= 0:
            words = _kept[fit][:n]
            words.fill(0)
            return words
        # room for a new buffer: let idle ones go, largest first
        total = sum(b.nbytes for b in _kept)
        for i in sorted(range(len(_kept)), key=lambda i: -_kept[i].shape[0]):
            if total + nbytes <= most:
                break
            if _idle(i):
                total -= _kept[i].nbytes
                _kept[i] = None  # type: ignore[call-overload]
        _kept[:] = [b for b in _kept if b is not None]
        words = np.zeros(n, np.uint32)
        if total + nbytes <= most:
            _kept.append(words)
        return words


def zeroed(shape: int | tuple[int, ...], dtype: type | np.dtype) -> np.ndarray:
    """A zeroed C-ordered array of ``shape`` and ``dtype`` on table memory
    (:func:`zeroed_words`): for the other large arrays a solve makes and
    drops (the one-pack beam's layers and its table). The two-pack search
    does not use it: its beam's width follows the rate it measures, which
    was tuned on fresh pages (``docs/solver.md``, *Table memory kept for
    reuse*).

    Parameters
    ----------
    shape : int or tuple of int
        The array's shape.
    dtype : numpy dtype
        Its element type.

    Returns
    -------
    ndarray
        Zeros, on a view of a kept buffer when one was idle.
    """
    dt = np.dtype(dtype)
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    count = int(np.prod(dims, dtype=np.int64))
    # whole 64-bit words, so that any element type's view of them is aligned
    words = zeroed_words(2 * -(-count * dt.itemsize // 8))
    return words.view(dt)[:count].reshape(dims)


def kept_bytes() -> tuple[int, int]:
    """Bytes of the kept buffers: in all, and idle now."""
    with _lock:
        total = sum(b.nbytes for b in _kept)
        idle = sum(_kept[i].nbytes for i in range(len(_kept)) if _idle(i))
    return total, idle
