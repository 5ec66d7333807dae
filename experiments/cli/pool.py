"""Where a resumable run's batches go: ``--workers`` or ``--scheduler``.

Shared by ``canfield sweep`` and ``canfield escalate``, so both say it the
same way.
"""

from __future__ import annotations

from collections.abc import Callable

import click


def pool_options(func: Callable) -> Callable:
    """Add ``--workers`` (local processes) and ``--scheduler`` (a dask cluster)."""
    func = click.option(
        "--scheduler",
        default=None,
        metavar="tcp://HOST:PORT",
        help="Run on this dask.distributed scheduler instead of local processes "
        "(not with --workers).",
    )(func)
    return click.option(
        "--workers", type=int, default=None, help="Local worker processes [default: all cores]."
    )(func)
