"""The escalation's attempts: each re-solve of a sweep row with a bigger budget,
stored beside the sweep's parts and merged into the loaded rows.

``canfield escalate`` (:mod:`.escalation`) writes ``RUN/attempts/part-NNNNN.parquet``:
one file per finished batch of attempts, written atomically like the sweep's
parts (which it never rewrites). An attempt is a sweep row (:data:`.schema.SCHEMA`)
plus

- ``phase``: ``ladder`` (rung ``rung`` = 1, 2, ... of the ladder),
  ``subsample`` (rung 0), the second phase of :mod:`canfield.experiments.estimate`,
  or ``residue`` (rung 0), its third phase;
- ``cpu_seconds``: CPU time of the worker process during the solve.

A row *settled* from a related profile's decided row (``escalate --settle``,
docs/relations.md) is an attempt too, made without a search: ``stop_reason``
is ``relation:<the related profile>``, and ``nodes``, ``budget_nodes`` and
``cpu_seconds`` are 0. (No new column: parts written before settling existed
load as they are, and so do the new ones with older code.)

:func:`merge_attempts` makes the loaded rows: one per (deal, profile), whose
verdict columns are those of the attempt that decided it (the sweep's own row
when the sweep did), or, for a row still unknown, those of the attempt with the
most cards banked (the latest of equals), plus the columns of
:data:`ESCALATION_COLUMNS`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from canfield.engine.profiles import parse_profile
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.escalation_spec import read_escalation
from canfield.experiments.sweep.files import fsync_dir, move_aside, write_atomically
from canfield.experiments.sweep.schema import SCHEMA, TIMING_COLUMNS, bad_rows

#: The columns of an attempt: a sweep row's, then the escalation's own.
ATTEMPT_SCHEMA = pa.schema(
    [*SCHEMA, ("phase", pa.string()), ("rung", pa.int16()), ("cpu_seconds", pa.float64())]
)
ATTEMPT_COLUMNS: tuple[str, ...] = tuple(ATTEMPT_SCHEMA.names)
#: Attempt columns that may differ between two runs of the same attempt.
ATTEMPT_TIMING_COLUMNS: tuple[str, ...] = (*TIMING_COLUMNS, "cpu_seconds")
#: The phases, in the order their attempts were made.
PHASES: tuple[str, ...] = ("ladder", "subsample", "residue")
#: ``stop_reason`` of an attempt settled from a related profile's row (no search).
RELATION_PREFIX = "relation:"
#: Columns :func:`merge_attempts` adds to the loaded rows.
ESCALATION_COLUMNS: tuple[str, ...] = (
    "attempts",  # escalation attempts made on the row (0: the sweep's row alone)
    # 'sweep', 'ladder', 'subsample', 'residue', 'relation:<profile>' (settled
    # from a related profile's row, no search), or '' while unknown
    "decided_by",
    "decided_rung",  # 0 for the sweep, k for ladder rung k, -1 otherwise
    "decided_nodes",  # node budget of the solve that decided it (<NA>: none or undecided)
    "decided_seconds",  # wall-clock budget of that solve (NaN: none or undecided)
    "phase1_result",  # result after the sweep and the ladder: the estimator's stratum
    "in_subsample",  # drawn into the second phase's subsample
    "subsampled",  # its subsample attempt is done
    "phase2_result",  # result after the subsample too: 'unknown' is the residue
    "in_residue_sample",  # drawn into the third phase's sample of the residue
    "residue_solved",  # its residue attempt is done
    # a proven upper bound of banked: banked when decided by a search, the
    # related row's banked when a related profile settled it lost, 52 while unknown
    "banked_upper",
)
_PART = "part-{:05d}.parquet"


class AttemptStore:
    """The ``attempts/`` folder of a run folder.

    Parameters
    ----------
    run : path-like
        The run folder.
    """

    def __init__(self, run: str | Path) -> None:
        self.path = Path(run) / "attempts"
        self.damaged_dir = self.path / "damaged"

    def part_files(self) -> list[Path]:
        """The finished parts, in order."""
        if not self.path.is_dir():
            return []
        return sorted(p for p in self.path.glob("part-*.parquet") if p.stem[5:].isdigit())

    def next_part_index(self) -> int:
        return max((int(p.stem[5:]) for p in self.part_files()), default=-1) + 1

    def clear_temporary(self) -> None:
        """Delete the temporary files a killed escalation left (never a finished part)."""
        for tmp in self.path.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)

    def write_part(self, index: int, rows: list[dict]) -> Path:
        """Write the attempts ``rows`` as part ``index``, atomically."""
        self.path.mkdir(parents=True, exist_ok=True)
        table = pa.Table.from_pylist(rows, schema=ATTEMPT_SCHEMA)
        final = self.path / _PART.format(index)
        write_atomically(final, lambda fh: pq.write_table(table, fh))
        fsync_dir(self.path)
        return final

    def set_aside_damaged(self) -> list[Path]:
        """Move the parts that cannot be read (torn) to ``attempts/damaged/``:
        their attempts are made again. Returns where they went."""
        moved = []
        for part in self.part_files():
            try:
                _read(part)
            except SweepError:
                moved.append(move_aside(part, self.damaged_dir))
        return moved

    def load(self) -> pd.DataFrame:
        """Every attempt, one per (phase, rung, deal, profile), in the order made.

        Raises
        ------
        SweepError
            If a part cannot be read (``canfield escalate`` sets it aside and
            makes its attempts again).
        """
        read = [(p, _read(p, check=False)) for p in self.part_files()]
        if not read:
            return pa.Table.from_pylist([], schema=ATTEMPT_SCHEMA).to_pandas()
        rows = pd.concat([frame for _, frame in read], ignore_index=True)
        # a batch is only written once; equal keys can only come from a part
        # copied by hand: keep the first, unless the two disagree
        key = ["phase", "rung", "deal", "profile"]
        twice = rows[rows.duplicated(key, keep=False)]
        compare = [c for c in ATTEMPT_COLUMNS if c not in ATTEMPT_TIMING_COLUMNS]
        if len(twice[compare].astype(str).drop_duplicates()) > len(twice.drop_duplicates(key)):
            raise SweepError(
                f"two attempts parts in {self.path} disagree about the same attempt;"
                " move the wrong one aside"
            )
        # values after the match, so a part that disagrees with another is
        # named as such (as the sweep's parts are); the checks are row by row,
        # so the whole frame is sound exactly when every part is, and one pass
        # over it is much cheaper than a pass a part (a ladder holds hundreds)
        if _why(rows) is not None:
            for part, frame in read:
                _check(part, frame)
        rows = rows.drop_duplicates(key, keep="first")
        order = rows["phase"].map({p: i for i, p in enumerate(PHASES)})
        return (
            rows.assign(_order=order)
            .sort_values(["_order", "rung", "profile", "deal"], kind="stable")
            .drop(columns="_order")
            .reset_index(drop=True)
        )


def _read(path: Path, check: bool = True) -> pd.DataFrame:
    """The attempts of the part at ``path``; with ``check``, its values too
    (:func:`_check`)."""
    try:
        table = pq.read_table(path)
    except Exception as exc:
        why = (str(exc).splitlines() or [""])[0]
        raise SweepError(f"damaged attempts part {path}: {type(exc).__name__}: {why}") from None
    if tuple(table.schema.names) != ATTEMPT_COLUMNS:
        raise SweepError(f"damaged attempts part {path}: unexpected columns")
    try:
        rows = table.cast(ATTEMPT_SCHEMA).to_pandas()
    except pa.ArrowException as exc:
        why = (str(exc).splitlines() or [""])[0]
        raise SweepError(f"damaged attempts part {path}: {why}") from None
    if check:
        _check(path, rows)
    return rows


def _why(rows: pd.DataFrame) -> str | None:
    """What is wrong with the first attempt of ``rows`` no escalation
    writes, or None."""
    why = bad_rows(rows)
    odd = sorted(set(rows["phase"]) - set(PHASES), key=str)
    if why is None and odd:
        why = f"phase {odd[0]!r} is not one of {', '.join(PHASES)}"
    return why


def _check(path: Path, rows: pd.DataFrame) -> None:
    """As for the sweep's parts: a row no escalation writes is damage, which
    ``canfield escalate`` sets aside and makes again, not a row to tally."""
    why = _why(rows)
    if why is not None:
        raise SweepError(f"damaged attempts part {path}: {why}")


def merge_attempts(
    rows: pd.DataFrame,
    attempts: pd.DataFrame,
    subsample: dict[str, list[int]] | None = None,
    residue: dict[str, list[int]] | None = None,
) -> pd.DataFrame:
    """The sweep's ``rows`` with the ``attempts`` made on them (see the module doc).

    Parameters
    ----------
    rows : DataFrame
        The sweep's rows (:meth:`.store.RunFolder.load`).
    attempts : DataFrame
        The attempts (:meth:`AttemptStore.load`), in the order made.
    subsample, residue : dict, optional
        Profile -> the deals drawn into the subsample, and into the residue sample.

    Returns
    -------
    DataFrame
        One row per (deal, profile) of ``rows``, in their order, with the
        columns of ``rows`` and :data:`ESCALATION_COLUMNS`.
    """
    out = rows.copy()
    decided = out["result"] != "unknown"
    out["attempts"] = 0
    out["decided_by"] = ["sweep" if d else "" for d in decided]
    out["decided_rung"] = [0 if d else -1 for d in decided]
    out["decided_nodes"] = out["budget_nodes"].where(decided).astype("Int64")
    out["decided_seconds"] = out["budget_seconds"].where(decided).astype(float)
    out["phase1_result"] = out["result"]
    chosen = {c: out[c].tolist() for c in rows.columns}
    extra = {c: out[c].tolist() for c in ESCALATION_COLUMNS if c in out}
    where = {
        key: i
        for i, key in enumerate(zip(out["deal"].tolist(), out["profile"].tolist(), strict=True))
    }
    done: dict[str, set] = {"subsample": set(), "residue": set()}
    # plain lists, grouped by hand: a DataFrame group and a named tuple per
    # attempt cost minutes on a 100,000-deal run's 65,000 escalated rows
    made = {c: attempts[c].tolist() for c in attempts.columns}
    groups: dict[tuple[int, str], list[int]] = {}
    for j, key in enumerate(zip(made["deal"], made["profile"], strict=True)):
        groups.setdefault((int(key[0]), key[1]), []).append(j)
    for key, group in groups.items():
        i = where.get(key)
        if i is None:
            continue
        extra["attempts"][i] = len(group)
        for phase, keys in done.items():
            if any(made["phase"][j] == phase for j in group):
                keys.add(key)
        if chosen["result"][i] != "unknown":
            continue  # decided by the sweep: later attempts (none expected) change nothing
        best_banked = chosen["banked"][i]
        pick = None
        for j in group:
            if made["result"][j] != "unknown":
                pick = j
                break
            if made["banked"][j] >= best_banked:
                best_banked, pick = made["banked"][j], j
        if pick is None:
            continue
        for col in rows.columns:
            chosen[col][i] = made[col][pick]
        if made["result"][pick] != "unknown":
            phase, reason = made["phase"][pick], made["stop_reason"][pick]
            settled = str(reason or "").startswith(RELATION_PREFIX)
            extra["decided_by"][i] = reason if settled else phase
            extra["decided_rung"][i] = int(made["rung"][pick]) if phase == "ladder" else -1
            extra["decided_nodes"][i] = made["budget_nodes"][pick]
            extra["decided_seconds"][i] = made["budget_seconds"][pick]
            if phase == "ladder":
                extra["phase1_result"][i] = made["result"][pick]
    for col in rows.columns:
        merged = pd.Series(chosen[col], index=out.index)
        try:
            out[col] = merged.astype(rows[col].dtype)
        except (TypeError, ValueError):  # e.g. a time rung's missing node budget
            out[col] = merged
    for col, values in extra.items():
        out[col] = pd.Series(values, index=out.index).astype(out[col].dtype)
    keys = list(zip(out["deal"].astype("int64").tolist(), out["profile"].tolist(), strict=True))
    for col, solved, drawn in (
        ("subsample", "subsampled", subsample),
        ("residue_sample", "residue_solved", residue),
    ):
        picked = {(int(d), p) for p, deals in (drawn or {}).items() for d in deals}
        out[f"in_{col}"] = [k in picked for k in keys]
        out[solved] = [k in done[col.split("_")[0]] for k in keys]
    # a row the residue sample decided was still unknown after phase 2
    out["phase2_result"] = out["result"].where(out["decided_by"] != "residue", "unknown")
    out["banked_upper"] = _banked_upper(out, dict(zip(keys, out["banked"].tolist(), strict=True)))
    return out


def _banked_upper(out: pd.DataFrame, banked: dict[tuple[int, str], int]) -> list[int]:
    """The ``banked_upper`` column (see :data:`ESCALATION_COLUMNS`): a loss
    settled from the larger profile bounds banked by the larger's (exact) count
    (docs/relations.md), the row's own best line being only a lower bound."""
    upper = []
    # every card of the game: 52, or 104 for two packs
    cards = {p: parse_profile(p).cards for p in set(out["profile"].tolist())}
    for deal, profile, result, by, own in zip(
        out["deal"].astype("int64").tolist(),
        out["profile"].tolist(),
        out["result"].tolist(),
        out["decided_by"].tolist(),
        out["banked"].tolist(),
        strict=True,
    ):
        if result == "unknown":
            upper.append(cards[profile])
        elif result == "lost" and by.startswith(RELATION_PREFIX):
            # the related row is in the run escalate settled it from; without it
            # (rows edited by hand) every card of the game is still a bound
            upper.append(banked.get((deal, by[len(RELATION_PREFIX) :]), cards[profile]))
        else:
            upper.append(int(own))
    return upper


def load_escalated(
    run: str | os.PathLike, rows: pd.DataFrame, attempts: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The sweep's ``rows`` of ``run`` merged with its attempts
    (:func:`.attempts.merge_attempts`); without escalation every row is its
    sweep row, with the escalation's columns at their sweep values.
    ``attempts``, when the caller has read ``AttemptStore(run).load()``
    already, saves reading the parts again.

    Raises
    ------
    SweepError
        If ``escalate.json`` or an attempts part is damaged.
    """
    spec = read_escalation(run)
    if attempts is None:
        attempts = AttemptStore(run).load()
    sub = spec.subsample.deals if spec is not None and spec.subsample is not None else None
    res = spec.residue.deals if spec is not None and spec.residue is not None else None
    return merge_attempts(rows, attempts, sub, res)
