"""Where the commands write: checked before any work, failures as one line.

A command that writes files (``report --out``, ``plot --out``, ``bench
--out``) checks the place with :func:`writable_dir` or :func:`writable_file`
before it starts, so an hour of benchmarking or a printed report never ends
in a traceback; :func:`writing` turns an ``OSError`` met while writing into
the one ``error: ...`` line of :mod:`.errors`. :func:`writable_file` also
refuses a file that is one of the command's inputs (``solve --position p.txt
--view p.txt`` once replaced the position with HTML), and :func:`json_line` is
the one way a ``--json`` output is printed: strict JSON, a missing value null.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from collections.abc import Iterable, Iterator
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


def _replaces(out: Path, given: Path) -> bool:
    """Would writing ``out`` replace the input ``given`` (or a file inside the
    input folder ``given``)?"""
    try:
        if given.is_dir():
            # a run folder is read whole: none of its files may be written over
            return out.is_file() and given.resolve() in out.resolve().parents
        if out.resolve() == given.resolve():
            return True
        # hard links, or one file under two mount points
        return out.exists() and given.exists() and os.path.samefile(out, given)
    except OSError:
        return False


def refuse_inputs(
    path: str | os.PathLike, option: str, inputs: Iterable[str | os.PathLike | None]
) -> None:
    """Stop with one line when the output ``path`` would replace one of ``inputs``.

    ``inputs`` are the files (or folders) the command reads; None and ``-``
    (stdin) are skipped. Paths are compared resolved, so ``./p.txt`` and
    ``p.txt``, or a symbolic link and its target, are the same file.
    """
    out = Path(path)
    for given in inputs:
        if given is None or str(given) == "-":
            continue
        if _replaces(out, Path(given)):
            what = "a file in the input folder" if Path(given).is_dir() else "the input file"
            fail(
                f"{option} {out} would write over {what} {given}; "
                "give another output file (the input is left as it is)"
            )


def writable_file(
    path: str | os.PathLike,
    option: str,
    inputs: Iterable[str | os.PathLike | None] = (),
) -> Path:
    """Check that the file ``path`` can be written (making its folder); return it.

    An existing file is left as it is until the command writes it. ``inputs``
    are the command's input files and folders: the output may be none of them
    (:func:`refuse_inputs`).
    """
    file = Path(path)
    if file.is_dir():
        fail(f"cannot write to {option} {file}: it is a folder, not a file")
    refuse_inputs(file, option, inputs)
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


def _strict(value):
    """``value`` with every NaN or infinity (pandas' missing value) as None."""
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_strict(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    kind = type(value)
    if kind.__name__ in ("NAType", "NaTType"):  # pandas' missing values
        return None
    if kind.__module__ == "numpy":
        return _strict(value.tolist())  # numpy scalars: json.dumps cannot read them
    return value


def json_line(record: dict) -> str:
    """``record`` as one line of strict JSON (RFC 8259): a NaN or an infinity,
    which ``json.dumps`` would print as the non-JSON ``NaN``, is null."""
    return json.dumps(_strict(record), allow_nan=False, default=str)


__all__ = ["json_line", "refuse_inputs", "writable_dir", "writable_file", "writing"]
