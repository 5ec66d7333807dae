"""Where the commands write: checked before any work, failures as one line.

A command that writes files (``report --out``, ``plot --out``, ``bench
--out``) checks the place with :func:`writable_dir` or :func:`writable_file`
before it starts, so an hour of benchmarking or a printed report never ends
in a traceback; :func:`writing` turns an ``OSError`` met while writing into
the one ``error: ...`` line of :mod:`.errors`.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from canfield.experiments.cli.errors import fail


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _make_dir(folder: Path, what: str) -> None:
    """Make ``folder`` and write a file in it; ``what`` names the output in the message."""
    if folder.exists() and not folder.is_dir():
        fail(f"cannot write to {what}: {folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # a real write: permission bits say nothing to root or on a read-only mount
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        fail(f"cannot write to {what}: {_reason(exc)}")


def writable_dir(path: str | os.PathLike, option: str) -> Path:
    """Make the folder ``path`` (and its parents) and check a file can be written in it.

    Parameters
    ----------
    path : path-like
        The folder.
    option : str
        The option that named it, for the message (``--out``).

    Returns
    -------
    Path
        The folder.
    """
    folder = Path(path)
    _make_dir(folder, f"{option} {folder}")
    return folder


def writable_file(path: str | os.PathLike, option: str) -> Path:
    """Check that the file ``path`` can be written (making its folder); return it.

    An existing file is left as it is until the command writes it.
    """
    file = Path(path)
    if file.is_dir():
        fail(f"cannot write to {option} {file}: it is a folder, not a file")
    _make_dir(file.parent, f"{option} {file}")
    if file.exists() and not os.access(file, os.W_OK):
        fail(f"cannot write to {option} {file}: permission denied")
    return file


@contextlib.contextmanager
def writing(what: str | os.PathLike) -> Iterator[None]:
    """Turn an ``OSError`` raised inside the block into one ``error:`` line about ``what``."""
    try:
        yield
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else f" {what}"
        fail(f"cannot write{where}: {_reason(exc)}")


__all__ = ["writable_dir", "writable_file", "writing"]
