"""Seeded win-rate sweeps written to a resumable run folder of Parquet parts.

A run folder ``results/runs/NAME`` holds

- ``run.json``: the sweep's arguments (canonical profiles, deal range, budgets,
  memory, toolkit version). Rerunning with other arguments is an error.
- ``parts/part-NNNNN.parquet``: one file per finished batch of deals of one
  profile, written to a temporary name and renamed into place with
  :func:`os.replace`, so a part is visible only once it is complete. A sweep
  killed at any moment loses at most the batches in flight.

Every row is a pure function of (deal, profile, budgets) except its timing
fields (``seconds``, ``peak_table_bytes``) and, with a wall-clock budget, a deal
that finishes close to the budget. Node budgets (``--nodes``) are
deterministic: rows then never depend on the number of workers or on dask.

Players (``--player greedy|random|pimc``; the default ``solver`` is the
perfect-information solver). A player row is one game of
:func:`experiments.play.play_game`: ``result`` is ``won`` or ``lost`` (every
game the player did not win), ``stop_reason`` keeps how the game ended
(``won``, ``blocked``, ``stalled``, ``max_moves``), ``moves`` counts the atomic
moves played, ``player_options`` holds the player's options (``k=16,nodes=2000``
for pimc). Each game is seeded from its deal number alone and pimc solves its
samples under a node budget only, so player rows are deterministic too.
Every run folder holds one player; parts written before the ``player`` column
existed load as ``player='solver'``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import re
import shutil
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from multiprocessing import get_context
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from canfield.engine.profiles import ProfileError, parse_profile
from canfield.engine.version import __version__

#: Columns of a sweep row, in file order.
COLUMNS: tuple[str, ...] = (
    "deal",
    "profile",
    "profile_full",
    "result",
    "banked",
    "seconds",
    "nodes",
    "peak_table_bytes",
    "base_rank",
    "reserve_left",
    "solution_length",
    "budget_seconds",
    "budget_nodes",
    "budget_memory",
    "version",
    "pick",
    "stop_reason",
    "player",
    "player_options",
    "moves",
    "cleared_reserve",
)
#: The columns of parts written before players were added (loaded as the solver's).
LEGACY_COLUMNS: tuple[str, ...] = COLUMNS[:17]
#: ``--player`` values; ``solver`` plays with perfect information.
PLAYERS: tuple[str, ...] = ("solver", "greedy", "random", "pimc")
#: PIMC defaults: samples per decision and node budget per sample.
DEFAULT_PIMC_K = 16
DEFAULT_PIMC_NODES = 2000
#: Columns that may differ between two runs of the same row (machine timing).
TIMING_COLUMNS: tuple[str, ...] = ("seconds", "peak_table_bytes")

SCHEMA = pa.schema(
    [
        ("deal", pa.uint64()),
        ("profile", pa.string()),
        ("profile_full", pa.string()),
        ("result", pa.string()),
        ("banked", pa.int16()),
        ("seconds", pa.float64()),
        ("nodes", pa.int64()),
        ("peak_table_bytes", pa.int64()),
        ("base_rank", pa.int8()),
        ("reserve_left", pa.int8()),
        ("solution_length", pa.int32()),
        ("budget_seconds", pa.float64()),
        ("budget_nodes", pa.int64()),
        ("budget_memory", pa.int64()),
        ("version", pa.string()),
        ("pick", pa.string()),
        ("stop_reason", pa.string()),
        ("player", pa.string()),
        ("player_options", pa.string()),
        ("moves", pa.int32()),
        ("cleared_reserve", pa.bool_()),
    ]
)
assert tuple(SCHEMA.names) == COLUMNS
LEGACY_SCHEMA = pa.schema(list(SCHEMA)[: len(LEGACY_COLUMNS)])

#: Default transposition-table memory per solve; fixed (not derived from the
#: worker count) because it can change a verdict from won to unknown.
DEFAULT_SWEEP_MEMORY = "256MB"
#: How long to wait for a dask scheduler before giving up.
DASK_CONNECT_TIMEOUT = "10s"
PART_RE = re.compile(r"^part-(\d{5,})\.parquet$")
MAX_DEAL = 1 << 64


class SweepError(Exception):
    """Bad sweep input or an inconsistent run folder; the message is one line."""


class SolveFailed(RuntimeError):
    """The solver raised on a (deal, profile): a bug, never a verdict."""


# --------------------------------------------------------------------------- input parsing


def parse_deals(text: str) -> range:
    """Read ``'A:B'`` (deals A..B-1) or ``'N'`` (deal N alone).

    Raises
    ------
    SweepError
        If the text is not a non-empty range of deal numbers in ``0..2**64-1``.
    """
    t = text.strip()
    start_s, colon, stop_s = t.partition(":")
    try:
        start = int(start_s)
        stop = int(stop_s) if colon else start + 1
    except ValueError:
        raise SweepError(f"cannot read a deal range from {text!r} (try 0:200)") from None
    if start < 0 or stop > MAX_DEAL or stop <= start:
        raise SweepError(
            f"bad deal range {text!r}: need 0 <= A < B <= 2**64 in A:B (B is excluded)"
        )
    return range(start, stop)


def split_profiles(text: str) -> list[str]:
    """Split ``--profiles`` on commas, keeping a profile's own option list.

    ``'strict,hevagames:draw=1,worry=yes,cardgames'`` gives three profiles:
    a piece without ``:`` that contains ``=`` continues the previous profile.
    Returns canonical strings, duplicates removed, order kept.

    Raises
    ------
    SweepError
        If a profile is unknown or malformed, or none is given.
    """
    pieces: list[str] = []
    for raw in text.split(","):
        piece = raw.strip()
        if not piece:
            continue
        if "=" in piece and ":" not in piece and pieces:
            sep = "," if pieces[-1].partition(":")[2] else ""
            pieces[-1] += sep + piece
        else:
            pieces.append(piece)
    if not pieces:
        raise SweepError("no profile given (try --profiles strict,hevagames)")
    out: list[str] = []
    for piece in pieces:
        try:
            canon = parse_profile(piece).canonical()
        except ProfileError as exc:
            raise SweepError(str(exc)) from None
        if canon not in out:
            out.append(canon)
    return out


def parse_budget(text: str | None) -> float | None:
    """A wall-clock budget such as ``'10s'`` or ``'500ms'``; ``None`` passes through."""
    if text is None:
        return None
    from canfield.solver.search import parse_seconds

    try:
        return parse_seconds(text)
    except ValueError as exc:
        raise SweepError(str(exc)) from None


def parse_memory(text: str) -> int:
    """A table size such as ``'256MB'``."""
    from canfield.solver.search import parse_bytes

    try:
        return parse_bytes(text)
    except ValueError as exc:
        raise SweepError(str(exc)) from None


# --------------------------------------------------------------------------- the spec


@dataclass(frozen=True)
class SweepSpec:
    """The arguments that define a run; stored as ``run.json``.

    Attributes
    ----------
    profiles : tuple of str
        Canonical profile strings.
    deal_start, deal_stop : int
        Deals ``deal_start .. deal_stop - 1``.
    budget_seconds : float or None
        Wall-clock budget per (deal, profile); ``None`` means none.
    budget_nodes : int or None
        Node budget per (deal, profile); ``None`` means none.
    memory : int
        Transposition-table bytes per solve.
    version : str
        Toolkit version that made the rows.
    player : str
        Who plays: ``solver`` (perfect information) or a blind player, see
        :data:`PLAYERS`. A ``run.json`` without it is the solver's.
    player_options : str
        The player's options, canonical ``key=value`` pairs joined by commas
        (``k=16,nodes=2000`` for pimc, empty for the solver and greedy).
    """

    profiles: tuple[str, ...]
    deal_start: int
    deal_stop: int
    budget_seconds: float | None
    budget_nodes: int | None
    memory: int
    version: str = __version__
    player: str = "solver"
    player_options: str = ""

    @property
    def deals(self) -> range:
        return range(self.deal_start, self.deal_stop)

    def to_json(self) -> dict:
        d = asdict(self)
        d["profiles"] = list(self.profiles)
        d["deals"] = f"{self.deal_start}:{self.deal_stop}"
        return d

    @classmethod
    def from_json(cls, d: dict) -> SweepSpec:
        return cls(
            profiles=tuple(d["profiles"]),
            deal_start=int(d["deal_start"]),
            deal_stop=int(d["deal_stop"]),
            budget_seconds=None if d["budget_seconds"] is None else float(d["budget_seconds"]),
            budget_nodes=None if d["budget_nodes"] is None else int(d["budget_nodes"]),
            memory=int(d["memory"]),
            version=str(d["version"]),
            player=str(d.get("player", "solver")),
            player_options=str(d.get("player_options", "")),
        )

    def differences(self, other: SweepSpec) -> list[str]:
        """Human-readable ``field: this != other`` for each differing field."""
        a, b = self.to_json(), other.to_json()
        keys = (
            "player",
            "player_options",
            "profiles",
            "deals",
            "budget_seconds",
            "budget_nodes",
            "memory",
            "version",
        )
        return [f"{k} {b[k]!r} (run.json) vs {a[k]!r} (now)" for k in keys if a[k] != b[k]]


def make_spec(
    profiles: str,
    deals: str,
    budget: str | None = None,
    nodes: int | None = None,
    memory: str = DEFAULT_SWEEP_MEMORY,
    player: str = "solver",
    pimc_k: int | None = None,
    pimc_nodes: int | None = None,
) -> SweepSpec:
    """Build a :class:`SweepSpec` from command-line strings.

    With neither ``budget`` nor ``nodes`` the budget is 10 s per solve; with
    ``nodes`` alone there is no wall-clock limit, so rows are deterministic.

    A blind ``player`` has no per-deal budget (``budget`` and ``nodes`` are
    refused); ``pimc`` takes ``pimc_k`` samples per decision (default
    :data:`DEFAULT_PIMC_K`) and solves each under ``pimc_nodes`` nodes (default
    :data:`DEFAULT_PIMC_NODES`) and ``memory``. Other players record memory 0.
    """
    if player not in PLAYERS:
        raise SweepError(f"unknown player {player!r} (one of {', '.join(PLAYERS)})")
    rng = parse_deals(deals)
    prof_list = tuple(split_profiles(profiles))
    mem = parse_memory(memory)
    if player != "pimc" and (pimc_k is not None or pimc_nodes is not None):
        raise SweepError("--pimc-k and --pimc-nodes are options of --player pimc")
    if player == "solver":
        if nodes is not None and nodes <= 0:
            raise SweepError(f"a node budget must be positive, got {nodes}")
        seconds = parse_budget(budget)
        if seconds is None and nodes is None:
            seconds = 10.0
        return SweepSpec(
            profiles=prof_list,
            deal_start=rng.start,
            deal_stop=rng.stop,
            budget_seconds=seconds,
            budget_nodes=nodes,
            memory=mem,
        )
    if budget is not None or nodes is not None:
        raise SweepError(
            f"--budget and --nodes are budgets of --player solver; a {player} game has none"
            + (" (use --pimc-nodes for pimc's samples)" if player == "pimc" else "")
        )
    selective = [p for p in prof_list if parse_profile(p).layout == "selective"]
    if selective:
        raise SweepError(
            f"players do not pick a base card yet: {selective[0]} needs --player solver"
        )
    options = ""
    if player == "pimc":
        k = DEFAULT_PIMC_K if pimc_k is None else pimc_k
        n = DEFAULT_PIMC_NODES if pimc_nodes is None else pimc_nodes
        if k <= 0 or n <= 0:
            raise SweepError(f"--pimc-k and --pimc-nodes must be positive, got {k} and {n}")
        options = format_options({"k": k, "nodes": n})
    else:
        mem = 0  # no solver: the table size cannot change a game
    return SweepSpec(
        profiles=prof_list,
        deal_start=rng.start,
        deal_stop=rng.stop,
        budget_seconds=None,
        budget_nodes=None,
        memory=mem,
        player=player,
        player_options=options,
    )


def format_options(options: dict[str, int]) -> str:
    """``{'k': 16, 'nodes': 2000}`` -> ``'k=16,nodes=2000'`` (keys sorted)."""
    return ",".join(f"{k}={options[k]}" for k in sorted(options))


def parse_options(text: str) -> dict[str, int]:
    """Inverse of :func:`format_options`."""
    out: dict[str, int] = {}
    for piece in filter(None, (t.strip() for t in text.split(","))):
        key, _, value = piece.partition("=")
        out[key] = int(value)
    return out


# --------------------------------------------------------------------------- solving


_WARM = False


def warm_up() -> None:
    """Import the solver and compile (or load) its kernels once per process."""
    global _WARM
    if _WARM:
        return
    from canfield.solver.search import solve_deal

    solve_deal(2, "strict", seconds=60.0, nodes=2000, memory=1 << 20)
    _WARM = True


def _worker_init() -> None:
    # Ctrl-C goes to the whole process group; only the parent handles it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_up()


def solve_row(
    deal: int, profile: str, budget_seconds: float | None, budget_nodes: int | None, memory: int
) -> dict:
    """Solve one (deal, profile) and return its row (see :data:`COLUMNS`)."""
    from canfield.solver.search import solve_deal

    seconds = math.inf if budget_seconds is None else budget_seconds
    r = solve_deal(deal, profile, seconds=seconds, nodes=budget_nodes, memory=memory)
    prof = parse_profile(profile)
    return {
        "deal": deal,
        "profile": prof.canonical(),
        "profile_full": prof.full(),
        "result": r.result,
        "banked": r.banked,
        "seconds": r.seconds,
        "nodes": r.nodes,
        "peak_table_bytes": r.peak_table_bytes,
        "base_rank": r.base_rank,
        "reserve_left": r.reserve_left,
        "solution_length": len(r.moves) if r.result == "won" else 0,
        "budget_seconds": budget_seconds,
        "budget_nodes": budget_nodes,
        "budget_memory": memory,
        "version": r.version,
        "pick": r.pick,
        "stop_reason": r.stop_reason,
        "player": "solver",
        "player_options": "",
        "moves": None,
        "cleared_reserve": r.reserve_left == 0,
    }


def make_player(player: str, options: str = "", memory: int = 0):
    """A fresh blind player for ``--player`` and its ``player_options`` string.

    PIMC solves its samples under a node budget only (no clock), so its games
    are deterministic.
    """
    from canfield.experiments.players import GreedyPlayer, PimcPlayer, RandomPlayer

    opts = parse_options(options)
    if player == "greedy":
        return GreedyPlayer()
    if player == "random":
        return RandomPlayer()
    if player == "pimc":
        return PimcPlayer(
            k=opts["k"],
            seconds_per_sample=math.inf,
            nodes_per_sample=opts["nodes"],
            memory=memory or None,
        )
    raise SweepError(f"unknown player {player!r}")


def play_row(deal: int, profile: str, player: str, options: str, memory: int) -> dict:
    """Play one game of ``player`` on (deal, profile) and return its row.

    The game is seeded from the deal number alone (``play_game`` resets the
    player with it), so the row never depends on the batch or the worker.
    """
    from canfield.engine.position import Position
    from canfield.experiments.play import play_game

    prof = parse_profile(profile)
    rec = play_game(deal, profile, make_player(player, options, memory), seed=0)
    won = rec.result == "won"
    return {
        "deal": deal,
        "profile": prof.canonical(),
        "profile_full": prof.full(),
        "result": "won" if won else "lost",
        "banked": rec.banked,
        "seconds": rec.seconds,
        "nodes": None,
        "peak_table_bytes": None,
        "base_rank": int(Position.from_deal(deal, prof).game.base),
        "reserve_left": rec.reserve_left,
        "solution_length": len(rec.moves) if won else 0,
        "budget_seconds": None,
        "budget_nodes": None,
        "budget_memory": memory or None,
        "version": __version__,
        "pick": None,
        "stop_reason": rec.result,
        "player": player,
        "player_options": options,
        "moves": len(rec.moves),
        "cleared_reserve": rec.reserve_left == 0,
    }


def run_batch(
    profile: str,
    deals: Sequence[int],
    budget_seconds: float | None,
    budget_nodes: int | None,
    memory: int,
    player: str = "solver",
    player_options: str = "",
) -> list[dict]:
    """Solve (or play) a batch of deals under one profile (the unit of work sent to
    workers)."""
    warm_up()
    rows = []
    for deal in deals:
        try:
            if player == "solver":
                rows.append(solve_row(int(deal), profile, budget_seconds, budget_nodes, memory))
            else:
                rows.append(play_row(int(deal), profile, player, player_options, memory))
        except Exception as exc:  # noqa: BLE001 - re-raised with the deal named
            raise SolveFailed(
                f"deal {deal} profile {profile}: {type(exc).__name__}: {exc}"
            ) from exc
    return rows


# --------------------------------------------------------------------------- the run folder


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
        try:
            return SweepSpec.from_json(json.loads(self.spec_path.read_text()))
        except FileNotFoundError:
            raise SweepError(f"{self.path} is not a run folder (no run.json)") from None
        except (ValueError, KeyError, TypeError) as exc:
            raise SweepError(f"{self.spec_path} is unreadable: {exc}") from None

    def init(self, spec: SweepSpec) -> None:
        """Create the folder for ``spec`` or check that it matches the existing one."""
        if self.spec_path.exists():
            old = self.read_spec()
            diffs = spec.differences(old)
            if diffs:
                raise SweepError(
                    f"{self.path} was made with other arguments: {'; '.join(diffs)}"
                    " (use another --out, or the same arguments to resume)"
                )
        else:
            if self.path.exists() and any(self.path.iterdir()):
                raise SweepError(f"{self.path} exists, is not empty and has no run.json")
            self.parts_dir.mkdir(parents=True, exist_ok=True)
            _atomic_write_bytes(
                self.spec_path, (json.dumps(spec.to_json(), indent=2) + "\n").encode()
            )
        self.parts_dir.mkdir(parents=True, exist_ok=True)

    # -- lock
    def lock(self) -> None:
        """Take an exclusive lock so two sweeps never write the same folder."""
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
        if not self.parts_dir.is_dir():
            return []
        return sorted(p for p in self.parts_dir.iterdir() if PART_RE.match(p.name))

    def next_part_index(self) -> int:
        nums = [int(PART_RE.match(p.name).group(1)) for p in self.part_files()]
        return max(nums, default=-1) + 1

    def write_part(self, index: int, rows: list[dict]) -> Path:
        """Write ``rows`` as part ``index``, atomically.

        A row without the player keys is the solver's (see :func:`_upgrade_legacy`).
        """
        table = pa.Table.from_pylist([_complete_row(r) for r in rows], schema=SCHEMA)
        return self._write_atomic(table, index)

    def _write_atomic(self, table: pa.Table, index: int) -> Path:
        """Write part ``index`` under a temporary name, sync it, then rename it
        into place, so that a part is visible only once it is complete."""
        final = self.parts_dir / f"part-{index:05d}.parquet"
        tmp = self.parts_dir / f".{final.name}.tmp"
        with open(tmp, "wb") as fh:
            pq.write_table(table, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, final)
        _fsync_dir(self.parts_dir)
        return final

    def check_parts(self) -> list[tuple[Path, str]]:
        """Every damaged part with the reason it cannot be read."""
        bad = []
        for p in self.part_files():
            try:
                _read_part(p)
            except SweepError as exc:
                bad.append((p, str(exc)))
        return bad

    def repair(self) -> list[Path]:
        """Move damaged parts to ``parts/damaged/``; return where they went."""
        moved = []
        for p, _ in self.check_parts():
            self.damaged_dir.mkdir(exist_ok=True)
            dest = self.damaged_dir / p.name
            n = 1
            while dest.exists():
                dest = self.damaged_dir / f"{p.name}.{n}"
                n += 1
            shutil.move(str(p), dest)
            moved.append(dest)
        return moved

    def load(self) -> pd.DataFrame:
        """All rows, one per (deal, profile), sorted.

        Raises
        ------
        SweepError
            If a part is damaged, or two parts hold different rows for the
            same (deal, profile) (timing columns aside).
        """
        frames, names = [], []
        for p in self.part_files():
            frames.append(_read_part(p))
            names.append(p.name)
        if not frames:
            return pa.Table.from_pylist([], schema=SCHEMA).to_pandas()
        for f, name in zip(frames, names, strict=True):
            f["_part"] = name
        df = pd.concat(frames, ignore_index=True)
        return _dedupe(df)

    def done_keys(self) -> set[tuple[int, str]]:
        df = self.load()
        return set(zip(df["deal"].astype("uint64").tolist(), df["profile"], strict=True))

    def compact(self) -> None:
        """Merge all parts into one new part, then delete the old ones.

        A crash in between leaves identical duplicates, which :meth:`load`
        drops; rows are never lost.
        """
        parts = self.part_files()
        if len(parts) < 2:
            return
        df = self.load()
        table = pa.Table.from_pandas(df[list(COLUMNS)], schema=SCHEMA, preserve_index=False)
        self._write_atomic(table, self.next_part_index())
        for p in parts:
            p.unlink()
        _fsync_dir(self.parts_dir)


def _read_part(path: Path) -> pd.DataFrame:
    try:
        table = pq.read_table(path)
    except Exception as exc:  # noqa: BLE001 - any read failure means damage
        why = (str(exc).splitlines() or [""])[0]
        raise SweepError(
            f"damaged part {path}: {type(exc).__name__}: {why}"
            " (rerun the sweep with --repair to move it aside)"
        ) from None
    names = tuple(table.schema.names)
    if names == LEGACY_COLUMNS:
        table = _upgrade_legacy(table.cast(LEGACY_SCHEMA))
    elif names != COLUMNS:
        raise SweepError(
            f"damaged part {path}: unexpected columns (rerun the sweep with --repair to move it"
            " aside)"
        )
    return table.cast(SCHEMA).to_pandas()


def _complete_row(row: dict) -> dict:
    if "player" in row and "cleared_reserve" in row:
        return row
    row = dict(row)
    row.setdefault("player", "solver")
    row.setdefault("player_options", "")
    row.setdefault("moves", None)
    row.setdefault("cleared_reserve", row.get("reserve_left") == 0)
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


def _dedupe(df: pd.DataFrame) -> pd.DataFrame:
    key = ["deal", "profile"]
    dup = df.duplicated(key, keep=False)
    if dup.any():
        compare = [c for c in COLUMNS if c not in TIMING_COLUMNS]
        for (deal, prof), grp in df[dup].groupby(key, sort=False):
            if len(grp[compare].astype(str).drop_duplicates()) > 1:
                parts = ", ".join(sorted(set(grp["_part"])))
                raise SweepError(
                    f"parts {parts} disagree about deal {deal} profile {prof};"
                    " move the wrong one aside"
                )
        df = df.drop_duplicates(key, keep="first")
    df = df.drop(columns="_part").sort_values(key, kind="stable").reset_index(drop=True)
    return df


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def load_run(path: str | os.PathLike) -> pd.DataFrame:
    """Load a run folder's rows (see :meth:`RunFolder.load`)."""
    folder = RunFolder(path)
    folder.read_spec()
    return folder.load()


# --------------------------------------------------------------------------- the sweep


Batch = tuple[str, tuple[int, ...]]


def plan_batches(spec: SweepSpec, done: set[tuple[int, str]], batch_size: int) -> list[Batch]:
    """The batches still to run, deal-major so all profiles progress together."""
    todo: dict[str, list[int]] = {p: [] for p in spec.profiles}
    for deal in spec.deals:
        for prof in spec.profiles:
            if (deal, prof) not in done:
                todo[prof].append(deal)
    per_profile = {
        p: [tuple(ds[i : i + batch_size]) for i in range(0, len(ds), batch_size)]
        for p, ds in todo.items()
    }
    out: list[Batch] = []
    longest = max((len(b) for b in per_profile.values()), default=0)
    for i in range(longest):
        for p in spec.profiles:
            if i < len(per_profile[p]):
                out.append((p, per_profile[p][i]))
    return out


@dataclass
class SweepSummary:
    """What one call of :func:`run_sweep` did."""

    rows_before: int
    rows_written: int
    rows_total: int
    parts_written: int
    seconds: float
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        return self.rows_before + self.rows_written >= self.rows_total


class _Tally:
    """Running per-profile won/decided counts for the progress bar."""

    def __init__(self, profiles: Iterable[str], df: pd.DataFrame) -> None:
        self.counts = {p: {"won": 0, "lost": 0, "unknown": 0} for p in profiles}
        for prof, res in zip(df["profile"], df["result"], strict=True):
            if prof in self.counts:
                self.counts[prof][res] += 1

    def add(self, rows: list[dict]) -> None:
        for r in rows:
            self.counts[r["profile"]][r["result"]] += 1

    def postfix(self) -> str:
        """``profile win%`` over decided deals, with ``+N?`` unknowns."""
        out = []
        for p, c in self.counts.items():
            decided = c["won"] + c["lost"]
            pct = f"{100 * c['won'] / decided:.1f}%" if decided else "-"
            out.append(f"{p} {pct}" + (f" +{c['unknown']}?" if c["unknown"] else ""))
        return " | ".join(out)


def run_sweep(
    out: str | os.PathLike,
    spec: SweepSpec,
    workers: int | None = None,
    scheduler: str | None = None,
    batch_size: int = 8,
    repair: bool = False,
    progress: bool = True,
    compact: bool = True,
    on_part: Callable[[Path], None] | None = None,
) -> SweepSummary:
    """Run (or resume) a sweep into the run folder ``out``.

    Parameters
    ----------
    out : path-like
        The run folder.
    spec : SweepSpec
        The sweep's arguments; must match ``run.json`` if the folder exists.
    workers : int, optional
        Local worker processes (default: all cores). ``1`` solves in this process.
    scheduler : str, optional
        A dask.distributed scheduler address (``tcp://HOST:PORT``); overrides
        ``workers``.
    batch_size : int
        Deals per task (and per part file).
    repair : bool
        Move damaged parts to ``parts/damaged/`` instead of failing.
    progress : bool
        Show a tqdm progress bar on stderr.
    compact : bool
        Merge the parts into one file once the sweep is complete.
    on_part : callable, optional
        Called with each part's path after it is written (used by tests).

    Returns
    -------
    SweepSummary
    """
    if batch_size <= 0:
        raise SweepError(f"--batch must be positive, got {batch_size}")
    if workers is not None and workers <= 0:
        raise SweepError(f"--workers must be positive, got {workers}")
    folder = RunFolder(out)
    folder.init(spec)
    folder.lock()
    t0 = time.perf_counter()
    try:
        if repair:
            folder.repair()
        existing = folder.load()
        done = {
            (d, p)
            for d, p in zip(
                existing["deal"].astype("uint64").tolist(), existing["profile"], strict=True
            )
            if p in spec.profiles and d in spec.deals
        }
        total = len(spec.deals) * len(spec.profiles)
        batches = plan_batches(spec, done, batch_size)
        summary = SweepSummary(len(done), 0, total, 0, 0.0)
        tally = _Tally(spec.profiles, existing)
        bar = _make_bar(
            total,
            len(done),
            progress,
            "sweep" if spec.player == "solver" else f"sweep {spec.player}",
        )
        part_index = folder.next_part_index()

        def finished(rows: list[dict]) -> None:
            nonlocal part_index
            path = folder.write_part(part_index, rows)
            part_index += 1
            summary.parts_written += 1
            summary.rows_written += len(rows)
            tally.add(rows)
            if bar is not None:
                bar.set_postfix_str(tally.postfix(), refresh=False)
                bar.update(len(rows))
            if on_part is not None:
                on_part(path)

        args = (
            spec.budget_seconds,
            spec.budget_nodes,
            spec.memory,
            spec.player,
            spec.player_options,
        )
        try:
            if not batches:
                pass
            elif scheduler:
                _run_dask(scheduler, batches, args, finished)
            elif (workers or os.cpu_count() or 1) == 1:
                warm_up()
                for prof, deals in batches:
                    finished(run_batch(prof, deals, *args))
            else:
                _run_local(workers or os.cpu_count() or 1, batches, args, finished)
        except KeyboardInterrupt:
            summary.interrupted = True
        finally:
            if bar is not None:
                bar.close()
        summary.seconds = time.perf_counter() - t0
        if compact and summary.complete and not summary.interrupted:
            folder.compact()
        return summary
    finally:
        folder.unlock()


def _make_bar(total: int, initial: int, enabled: bool, desc: str = "sweep"):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(
        total=total, initial=initial, unit="row", dynamic_ncols=True, smoothing=0.05, desc=desc
    )


def _run_local(
    workers: int, batches: list[Batch], args: tuple, finished: Callable[[list[dict]], None]
) -> None:
    ctx = get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_worker_init)
    pending: set[Future] = set()
    it: Iterator[Batch] = iter(batches)
    try:
        # Keep a bounded queue so Ctrl-C never has thousands of tasks to cancel.
        for _ in range(workers * 2):
            b = next(it, None)
            if b is None:
                break
            pending.add(pool.submit(run_batch, b[0], b[1], *args))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                finished(fut.result())
                b = next(it, None)
                if b is not None:
                    pending.add(pool.submit(run_batch, b[0], b[1], *args))
    except BaseException:
        for fut in pending:
            fut.cancel()
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _run_dask(
    address: str, batches: list[Batch], args: tuple, finished: Callable[[list[dict]], None]
) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SweepError("--scheduler needs dask.distributed: pip install distributed") from None
    try:
        client = Client(address, timeout=DASK_CONNECT_TIMEOUT)
    except OSError as exc:
        raise SweepError(f"cannot reach the dask scheduler {address}: {exc}") from None
    futures = []
    try:
        futures = [
            client.submit(run_batch, prof, deals, *args, pure=False) for prof, deals in batches
        ]
        for fut in as_completed(futures):
            finished(fut.result())
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        client.close()
