"""Keep numba's on-disk cache true to the source it was compiled from.

numba drops a cached kernel only when the file that defines it changes, not
when a kernel it calls in another file does; the solver's kernels call the
engine's and each other's across files, so an edited callee could leave a
caller running old code from the cache. The cache directory is therefore
named after a digest of every source file that defines kernels: any edit
starts a fresh cache, and an unchanged tree reuses its own.

The directory is ``$CANFIELD_NUMBA_CACHE/<digest>`` (default
``~/.cache/canfield-lab/numba/<digest>``).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("engine", "solver")


def source_digest() -> str:
    """A short digest of every module of the packages with compiled kernels."""
    h = hashlib.sha256()
    for pkg in _PACKAGES:
        for f in sorted((_ROOT / pkg).glob("*.py")):
            h.update(f.name.encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def configure() -> Path:
    """Point numba's cache at this source tree's own directory (call before
    any kernel is defined)."""
    base = os.environ.get("CANFIELD_NUMBA_CACHE") or Path.home() / ".cache/canfield-lab/numba"
    path = Path(base) / source_digest()
    numba.config.CACHE_DIR = str(path)
    return path
