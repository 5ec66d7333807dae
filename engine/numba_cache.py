"""Keep numba's on-disk cache true to the source it was compiled from.

numba drops a cached kernel only when the file that defines it changes, not
when a kernel it calls in another file does; the solver's kernels call the
engine's and each other's across files, so an edited callee could leave a
caller running old code from the cache. The cache directory is therefore
named after a digest of every source file that defines kernels: any edit
starts a fresh cache, and an unchanged tree reuses its own.

The directory is ``$CANFIELD_NUMBA_CACHE/<digest>`` (default
``~/.cache/canfield-lab/numba/<digest>``). When it cannot be written, a
directory of the same digest under the system's temporary directory is used,
with one warning on stderr: numba's own fallback (``__pycache__``) would lose
the digest, and with it the protection against stale code.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("engine", "solver")
_ENV = "CANFIELD_NUMBA_CACHE"

#: Minutes a cold compile of the solver's one-pack kernels takes, rounded from
#: the fastest and slowest measured (``canfield solve 5``, empty cache, 2 cores): 48 s
#: of CPU on toolkit 0.11.0's machine; 110 s wall (104 s of CPU) on a slower
#: one in 0.12.0, where 0.11.0's own kernels took 95 s, so most of the range
#: is the machine. Two packs (``double``) compile 37 s more. Most of it is
#: numba inlining the small helpers into the search loop, which is what makes
#: the loop fast (docs/solver.md, "Earlier speed work").
COLD_COMPILE_MINUTES = (1, 2)

#: What ``solve`` and ``sweep`` say before a cold compile.
COMPILING_NOTE = (
    f"compiling the solver (first run only, about {COLD_COMPILE_MINUTES[0]}-"
    f"{COLD_COMPILE_MINUTES[1]} minutes)"
)

# the directory configure() chose
_cache_dir: Path | None = None


def source_digest() -> str:
    """A short digest of every module of the packages with compiled kernels."""
    h = hashlib.sha256()
    for pkg in _PACKAGES:
        for f in sorted((_ROOT / pkg).glob("*.py")):
            h.update(f.name.encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _writable(path: Path) -> str | None:
    """None if ``path`` is (now) a writable directory, else why not."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def configure() -> Path:
    """Point numba's cache at this source tree's own directory (call before
    any kernel is defined); fall back to the temporary directory, with a
    warning, when that one cannot be written."""
    base = os.environ.get(_ENV) or Path.home() / ".cache/canfield-lab/numba"
    digest = source_digest()
    path = Path(base) / digest
    why = _writable(path)
    if why is not None:
        spare = Path(tempfile.gettempdir()) / "canfield-lab-numba"
        if _writable(spare / digest) is None:
            sys.stderr.write(
                f"warning: cannot write the numba cache {path} ({why}); using {spare / digest}\n"
            )
            # processes started from this one (sweep workers) go there at once
            os.environ[_ENV] = str(spare)
            path = spare / digest
        else:
            sys.stderr.write(
                f"warning: cannot write the numba cache {path} ({why}); "
                "compiled kernels will not be kept\n"
            )
    global _cache_dir
    _cache_dir = path
    # numba reads the variable when it is imported; setting it here rather
    # than importing numba keeps `canfield --help` and `canfield deal` fast
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    if "numba" in sys.modules:
        sys.modules["numba"].config.CACHE_DIR = str(path)
    return path


def _marker(tag: str) -> Path:
    return (_cache_dir or configure()) / f"warm-{tag}"


def is_warm(tag: str) -> bool:
    """Whether :func:`mark_warm` recorded ``tag`` in this tree's cache (cheap)."""
    return _marker(tag).exists()


def mark_warm(tag: str) -> None:
    """Record that the kernels of ``tag`` (e.g. a solver strategy) are cached."""
    try:
        _marker(tag).touch()
    except OSError:
        pass  # an unwritable cache: the next run says it compiles again


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold a Ctrl-C back until the block ends, then raise it.

    A ``KeyboardInterrupt`` that lands while numba compiles can be raised
    inside numba's ctypes callback that records a compiled object; the
    callback cannot pass it on, so Python prints "Exception ignored ..." and
    numba fails later with "no compiled object yet", a traceback for a plain
    Ctrl-C. Held back, the interrupt costs at most the rest of the compile
    (``COLD_COMPILE_MINUTES``). A second Ctrl-C is not held: the user insists.
    Outside the main thread signals cannot be handled, and a process that
    ignores Ctrl-C goes on ignoring it, so nothing changes there.
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # e.g. a sweep's worker
    ):
        yield
        return
    caught: list[int] = []

    def hold(signum, frame) -> None:
        if caught:
            raise KeyboardInterrupt
        caught.append(signum)
        sys.stderr.write("stopping once the compile ends (a compile cannot be cut short)\n")

    try:
        previous = signal.signal(signal.SIGINT, hold)
    except ValueError:  # not the main interpreter
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt
