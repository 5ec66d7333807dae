"""Seeded win-rate sweeps written to a resumable run folder of Parquet parts.

One module per job:

- :mod:`.spec`: what a sweep runs (deals, profiles, player, budgets) as a
  :class:`SweepSpec`, read from the command line by :func:`make_spec`;
- :mod:`.schema`: the columns of a row and their Parquet types;
- :mod:`.rows`: one row, solved by the solver or played by a blind player;
- :mod:`.store`: the run folder (``run.json``, parts, lock, repair, upgrades
  of old parts) and :func:`load_run`;
- :mod:`.runner`: :func:`run_sweep`, in local processes or on dask;
- :mod:`.workers`: the local worker processes (Ctrl-C, parent death);
- :mod:`.progress`: the progress bar and its running win %;
- :mod:`.errors`: :class:`SweepError` and :class:`SolveFailed`.

The names below are re-exported so ``from canfield.experiments.sweep import X``
keeps working; code that only reads runs can import :mod:`.store` alone.
"""

from canfield.experiments.sweep.errors import SolveFailed, SweepError
from canfield.experiments.sweep.rows import blind_player, play_row, run_batch, solve_row
from canfield.experiments.sweep.runner import (
    DASK_CONNECT_TIMEOUT,
    SweepSummary,
    plan_batches,
    run_sweep,
)
from canfield.experiments.sweep.schema import (
    COLUMNS,
    LEGACY_COLUMNS,
    LEGACY_SCHEMA,
    SCHEMA,
    TIMING_COLUMNS,
)
from canfield.experiments.sweep.spec import (
    DEFAULT_PIMC_K,
    DEFAULT_PIMC_NODES,
    DEFAULT_SOLVER_OPTIONS,
    DEFAULT_SWEEP_MEMORY,
    MAX_DEAL,
    PLAYERS,
    SweepSpec,
    format_options,
    make_spec,
    parse_budget,
    parse_deals,
    parse_memory,
    parse_options,
    parse_solver_options,
    solver_options,
    split_profiles,
)
from canfield.experiments.sweep.store import RunFolder, load_run

__all__ = [
    "COLUMNS",
    "DASK_CONNECT_TIMEOUT",
    "DEFAULT_PIMC_K",
    "DEFAULT_PIMC_NODES",
    "DEFAULT_SOLVER_OPTIONS",
    "DEFAULT_SWEEP_MEMORY",
    "LEGACY_COLUMNS",
    "LEGACY_SCHEMA",
    "MAX_DEAL",
    "PLAYERS",
    "SCHEMA",
    "TIMING_COLUMNS",
    "RunFolder",
    "SolveFailed",
    "SweepError",
    "SweepSpec",
    "SweepSummary",
    "blind_player",
    "format_options",
    "load_run",
    "make_spec",
    "parse_budget",
    "parse_deals",
    "parse_memory",
    "parse_options",
    "parse_solver_options",
    "plan_batches",
    "play_row",
    "run_batch",
    "run_sweep",
    "solve_row",
    "solver_options",
    "split_profiles",
]
