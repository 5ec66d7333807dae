"""The decorator of the kernels the search runs at every position.

``uncounted`` compiles like ``njit(cache=True)`` but with numba's reference
counting off (its ``_nrt`` target option). Every array view a kernel makes
(``states[d]``, a slice of a move buffer) and every array it hands to a
callee used to be an atomic increment and decrement of its owner's count:
about half of the depth-first search's time on these machines
(``docs/solver.md``, "Speed"). A kernel compiled so must not allocate (numba
refuses to compile one that does), and every array it touches must be owned
by a caller that outlives the call, so the counts have nothing to protect.

The option is numba's own but underscore-named; it is named here only, so a
numba release that renamed it would be mended in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit


def uncounted(fn: Callable[..., Any] | None = None, *, nogil: bool = False) -> Any:
    """``njit(cache=True, nogil=nogil)`` without reference counting; usable
    bare (``@uncounted``) or with options (``@uncounted(nogil=True)``)."""
    jit = njit(cache=True, nogil=nogil, _nrt=False)
    return jit if fn is None else jit(fn)
