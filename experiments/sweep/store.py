"""A sweep's run folder: ``run.json``, Parquet parts, the writer's lock, repair
and the upgrade of parts from older versions.

A run folder ``results/runs/NAME`` holds

- ``run.json``: the sweep's arguments (:class:`.spec.SweepSpec`: canonical
  profiles, deal range, budgets, memory, player, toolkit version). Rerunning
  with other arguments is an error.
- ``parts/part-NNNNN.parquet``: one file per finished batch of deals of one
  profile, written to a temporary name and renamed into place with
  :func:`os.replace`, so a part is visible only once it is complete. A sweep
  killed at any moment loses at most the batches in flight. A finished run's
  small parts are merged into parts of at most :data:`COMPACT_ROWS` rows, so
  ``--repair`` of one damaged part solves only that part's rows again.

Every run folder holds one player; parts written before the ``player`` column
existed load as ``player='solver'``, parts written before ``solver_options``
with the solver's default options.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from canfield.experiments.sweep.attempts import load_escalated
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.escalation_spec import ESCALATE_JSON
from canfield.experiments.sweep.files import fsync_dir, move_aside, write_atomically
from canfield.experiments.sweep.schema import (
    COLUMNS,
    LEGACY_COLUMNS,
    LEGACY_SCHEMA,
    PLAYER_COLUMNS,
    PLAYER_SCHEMA,
    SCHEMA,
    TIMING_COLUMNS,
    bad_rows,
)
from canfield.experiments.sweep.spec import SweepSpec, default_solver_options

PART_RE = re.compile(r"^part-(\d{5,})\.parquet$")
#: Most rows :meth:`RunFolder.compact` puts in one part: a damaged part then
#: costs at most this many rows to solve again.
COMPACT_ROWS = 4096


class RunFolder:
    """A sweep's output folder: ``run.json`` plus ``parts/``.

    Parameters
    ----------
    path : path-like
        The folder (created on :meth:`init`).
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.parts_dir = self.path / "parts"
        self.damaged_dir = self.parts_dir / "damaged"
        self._lock_fd: int | None = None

    # -- spec
    @property
    def spec_path(self) -> Path:
        return self.path / "run.json"

    def read_spec(self) -> SweepSpec:
        """The spec of ``run.json``.

        Raises
        ------
        SweepError
            If the folder has no ``run.json`` or it cannot be read.
        """
        try:
            return SweepSpec.from_json(json.loads(self.spec_path.read_text()))
        except FileNotFoundError:
            raise SweepError(f"{self.path} is not a run folder (no run.json)") from None
        except (ValueError, KeyError, TypeError) as exc:
            raise SweepError(f"{self.spec_path} is unreadable: {exc}") from None

    def init(self, spec: SweepSpec) -> None:
        """Create the folder for ``spec`` or check that it matches the existing one.

        Raises
        ------
        SweepError
            If ``run.json`` holds another spec, or the folder is not a run folder
            and not empty.
        """
        self.check(spec)
        if not self.spec_path.exists():
            text = json.dumps(spec.to_json(), indent=2) + "\n"
            with self._writing():
                self.parts_dir.mkdir(parents=True, exist_ok=True)
                write_atomically(self.spec_path, lambda fh: fh.write(text.encode()))
        with self._writing():
            self.parts_dir.mkdir(parents=True, exist_ok=True)

    def check(self, spec: SweepSpec) -> None:
        """Check that ``spec`` may run here (see :meth:`init`), creating nothing."""
        if self.spec_path.exists():
            diffs = spec.differences(self.read_spec())
            if diffs:
                raise SweepError(
                    f"{self.path} was made with other arguments: {'; '.join(diffs)}"
                    " (use another --out, or the same arguments to resume)"
                )
        else:
            self.check_new()

    def stored_spec(self) -> SweepSpec | None:
        """The spec of ``run.json``, or None when the folder has none yet.

        Raises
        ------
        SweepError
            If ``run.json`` exists and cannot be read.
        """
        return self.read_spec() if self.spec_path.exists() else None

    def check_new(self) -> None:
        """Check that a new run can be made here, creating nothing.

        Raises
        ------
        SweepError
            If the path is a file, a folder that is not empty, or a place this
            user cannot write.
        """
        if self.path.exists() and not self.path.is_dir():
            raise SweepError(f"{self.path} is a file, not a run folder")
        if self.path.exists() and any(self.path.iterdir()):
            raise SweepError(f"{self.path} exists, is not empty and has no run.json")
        existing = next((p for p in (self.path, *self.path.parents) if p.exists()), None)
        if existing is not None and not existing.is_dir():
            raise SweepError(f"cannot make the run folder {self.path}: {existing} is a file")
        if existing is not None and not os.access(existing, os.W_OK | os.X_OK):
            raise SweepError(f"cannot write the run folder {self.path}: {existing} is read-only")

    @contextlib.contextmanager
    def _writing(self):
        """Turn a failed write in the folder into one clear :class:`SweepError`."""
        try:
            yield
        except OSError as exc:
            where = exc.filename or self.path
            raise SweepError(
                f"cannot write the run folder {self.path}: {where}: {exc.strerror or exc}"
            ) from None

    # -- lock
    def lock(self) -> None:
        """Take an exclusive lock so two sweeps never write the same folder.

        Raises
        ------
        SweepError
            If another sweep holds the lock.
        """
        with self._writing():
            fd = os.open(self.path / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise SweepError(f"another sweep is writing to {self.path}") from None
        self._lock_fd = fd
        for tmp in self.parts_dir.glob(".*.tmp"):  # left by a killed sweep
            tmp.unlink(missing_ok=True)

    def unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # -- parts
    def part_files(self) -> list[Path]:
        """The finished parts, in order."""
        if not self.parts_dir.is_dir():
            return []
        return sorted(p for p in self.parts_dir.iterdir() if PART_RE.match(p.name))

    def next_part_index(self) -> int:
        numbers = [int(PART_RE.match(p.name).group(1)) for p in self.part_files()]
        return max(numbers, default=-1) + 1

    def write_part(self, index: int, rows: list[dict]) -> Path:
        """Write ``rows`` as part ``index``, atomically.

        A row without the player keys is the solver's (see :func:`_upgrade_legacy`).
        """
        table = pa.Table.from_pylist([_complete_row(r) for r in rows], schema=SCHEMA)
        return self._write_table(table, index)

    def _write_table(self, table: pa.Table, index: int) -> Path:
        """Write part ``index`` so that it is visible only once it is complete."""
        final = self.parts_dir / f"part-{index:05d}.parquet"
        with self._writing():
            write_atomically(final, lambda fh: pq.write_table(table, fh))
        fsync_dir(self.parts_dir)
        return final

    def check_parts(self) -> list[tuple[Path, str]]:
        """Every damaged part with the reason it cannot be read."""
        damaged = []
        for part in self.part_files():
            try:
                _read_part(part)
            except SweepError as exc:
                damaged.append((part, str(exc)))
        return damaged

    def repair(self) -> list[Path]:
        """Move damaged parts to ``parts/damaged/``; return where they went."""
        return [move_aside(part, self.damaged_dir) for part, _ in self.check_parts()]

    def load(self) -> pd.DataFrame:
        """All rows, one per (deal, profile), sorted.

        Raises
        ------
        SweepError
            If a part is damaged, or two parts hold different rows for the
            same (deal, profile) (timing columns aside).
        """
        return _read_parts(self.part_files())

    def compact(self) -> None:
        """Merge the parts of fewer than :data:`COMPACT_ROWS` rows into new
        parts of at most that many (sorted by deal), then delete them.

        Full parts stay as they are, so compacting again changes nothing. A
        crash in between leaves identical duplicates, which :meth:`load` drops;
        rows are never lost.
        """
        small = [p for p in self.part_files() if pq.ParquetFile(p).metadata.num_rows < COMPACT_ROWS]
        if len(small) < 2:
            return
        rows = _read_parts(small)
        index = self.next_part_index()
        for start in range(0, len(rows), COMPACT_ROWS):
            chunk = rows.iloc[start : start + COMPACT_ROWS][list(COLUMNS)]
            table = pa.Table.from_pandas(chunk, schema=SCHEMA, preserve_index=False)
            self._write_table(table, index)
            index += 1
        for part in small:
            part.unlink()
        fsync_dir(self.parts_dir)


def load_run(path: str | os.PathLike) -> pd.DataFrame:
    """Load a run folder's rows (see :meth:`RunFolder.load`), merged with the
    attempts of ``canfield escalate`` when it was escalated
    (:func:`.attempts.load_escalated`, which adds its columns).

    Raises
    ------
    SweepError
        If ``path`` is not a run folder or holds a damaged part.
    """
    folder = RunFolder(path)
    folder.read_spec()
    rows = folder.load()
    if (folder.path / ESCALATE_JSON).exists():
        return load_escalated(path, rows)
    return rows


def _read_parts(parts: list[Path]) -> pd.DataFrame:
    """The rows of ``parts``, one per (deal, profile), sorted (see :meth:`RunFolder.load`)."""
    read = [(part, _read_table(part)) for part in parts]
    if not read:
        return pa.Table.from_pylist([], schema=SCHEMA).to_pandas()
    rows = _dedupe(pd.concat([f.assign(_part=p.name) for p, f in read], ignore_index=True))
    # Values are checked after the parts are matched, so a part that
    # disagrees with another is named beside it; either way no part whose
    # rows a sweep never writes reaches a tally, a report or a compaction.
    for part, frame in read:
        _check_rows(part, frame)
    return rows


def _read_part(path: Path) -> pd.DataFrame:
    """The rows of the part at ``path``, checked like every part :meth:`RunFolder.load` reads.

    Raises
    ------
    SweepError
        If the part cannot be read, has other columns or types, or holds a
        row no sweep writes (see :func:`.schema.bad_rows`).
    """
    rows = _read_table(path)
    _check_rows(path, rows)
    return rows


def _damaged(path: Path, why: str) -> SweepError:
    """The one error of a damaged part: ``--repair`` moves such a part aside."""
    return SweepError(
        f"damaged part {path}: {why} (rerun the sweep with --repair to move it aside)"
    )


def _check_rows(path: Path, rows: pd.DataFrame) -> None:
    why = bad_rows(rows)
    if why is not None:
        raise _damaged(path, why)


def _read_table(path: Path) -> pd.DataFrame:
    """The rows of the part at ``path`` in :data:`.schema.SCHEMA`, upgraded
    from older columns, their values unchecked."""
    try:
        table = pq.read_table(path)
    except Exception as exc:
        why = (str(exc).splitlines() or [""])[0]
        raise _damaged(path, f"{type(exc).__name__}: {why}") from None
    names = tuple(table.schema.names)
    try:
        if names == LEGACY_COLUMNS:
            table = _upgrade_legacy(table.cast(LEGACY_SCHEMA))
            names = PLAYER_COLUMNS
        if names == PLAYER_COLUMNS:
            table = _upgrade_solver_options(table.cast(PLAYER_SCHEMA))
        elif names != COLUMNS:
            raise _damaged(path, "unexpected columns")
        return table.cast(SCHEMA).to_pandas()
    except pa.ArrowException as exc:
        # the right columns holding what their types cannot (a negative deal,
        # text in banked): as damaged as a truncated file
        why = (str(exc).splitlines() or [""])[0]
        raise _damaged(path, f"column {_uncastable(table)}: {why}") from None


def _uncastable(table: pa.Table) -> str:
    """The first column of ``table`` that does not cast to its type in :data:`SCHEMA`."""
    for name in table.schema.names:
        try:
            table.column(name).cast(SCHEMA.field(name).type)
        except (pa.ArrowException, KeyError):
            return name
    return "?"


def _complete_row(row: dict) -> dict:
    """A row dict from before the player columns, completed as the solver's,
    or from before ``solver_options``, completed with the defaults."""
    if "player" in row and "cleared_reserve" in row and "solver_options" in row:
        return row
    row = dict(row)
    row.setdefault("player", "solver")
    row.setdefault("player_options", "")
    row.setdefault("moves", None)
    row.setdefault("cleared_reserve", row.get("reserve_left") == 0)
    row.setdefault("solver_options", default_solver_options(row["player"]))
    return row


def _upgrade_legacy(table: pa.Table) -> pa.Table:
    """A part from before the player columns: the solver's rows."""
    n = table.num_rows
    reserve_left = table.column("reserve_left").to_pylist()
    table = table.append_column("player", pa.array(["solver"] * n, pa.string()))
    table = table.append_column("player_options", pa.array([""] * n, pa.string()))
    table = table.append_column("moves", pa.nulls(n, pa.int32()))
    return table.append_column(
        "cleared_reserve", pa.array([r == 0 for r in reserve_left], pa.bool_())
    )


def _upgrade_solver_options(table: pa.Table) -> pa.Table:
    """A part from before ``solver_options``: every searching row used the defaults."""
    options = [default_solver_options(p) for p in table.column("player").to_pylist()]
    return table.append_column("solver_options", pa.array(options, pa.string()))


def _dedupe(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per (deal, profile) from parts that may overlap (a crash during
    :meth:`RunFolder.compact`); the ``_part`` column names each row's part."""
    key = ["deal", "profile"]
    duplicated = rows.duplicated(key, keep=False)
    if duplicated.any():
        compare = [c for c in COLUMNS if c not in TIMING_COLUMNS]
        for (deal, prof), group in rows[duplicated].groupby(key, sort=False):
            if len(group[compare].astype(str).drop_duplicates()) > 1:
                parts = ", ".join(sorted(set(group["_part"])))
                raise SweepError(
                    f"parts {parts} disagree about deal {deal} profile {prof};"
                    " move the wrong one aside"
                )
        rows = rows.drop_duplicates(key, keep="first")
    return rows.drop(columns="_part").sort_values(key, kind="stable").reset_index(drop=True)
