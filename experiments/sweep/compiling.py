"""Whether the solver's kernels still need compiling, so the sweep can say so
before a silent minute.

numba keeps compiled kernels in ``numba.config.CACHE_DIR`` (set per source
tree by :mod:`canfield.engine.numba_cache`); a tree that has never run the
solver has none there, and its first sweep compiles them.
"""

from __future__ import annotations

from pathlib import Path

import numba

#: About how long a cold compile of the solver takes, in seconds: 22-26 s
#: measured on a busy 2-core machine with ``warm_up()`` and an empty
#: ``CANFIELD_NUMBA_CACHE``; more on a slower one.
COLD_COMPILE_SECONDS = 30

#: A kernel of each strategy whose cache file shows that strategy compiled.
_KERNELS = {"dfs": ("dfs.search-",), "layers": ("dfs.search-", "layers.")}


def solver_is_cached(strategy: str = "dfs") -> bool:
    """True when numba's cache holds the kernels ``strategy`` runs.

    Looks for each kernel's index file (``<module>.<kernel>-<line>.<py>.nbi``)
    in the ``solver_*`` folders of the cache directory.
    """
    cache = Path(numba.config.CACHE_DIR or "")
    if not cache.is_dir():
        return False
    names = [p.name for folder in cache.glob("solver_*") for p in folder.glob("*.nbi")]
    return all(any(n.startswith(k) for n in names) for k in _KERNELS[strategy])
