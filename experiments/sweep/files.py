"""Files of a run folder written so that a reader sees each whole or not at all."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomically(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Let ``write`` fill a temporary file beside ``path``, sync it, then rename
    it into place: a reader sees the whole file or none of it. A part's
    temporary file is one :meth:`.store.RunFolder.lock` clears after a kill."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as fh:
        write(fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def fsync_dir(path: Path) -> None:
    """Sync the folder ``path`` so a rename into it survives a power cut."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def move_aside(path: Path, folder: Path) -> Path:
    """Move the file ``path`` into ``folder`` (made if missing) under a name no
    file there has yet (``NAME``, ``NAME.1``, ...); return where it went."""
    folder.mkdir(exist_ok=True)
    dest = folder / path.name
    copy = 1
    while dest.exists():
        dest = folder / f"{path.name}.{copy}"
        copy += 1
    shutil.move(str(path), dest)
    return dest
