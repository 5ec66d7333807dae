"""The ``--budget`` and ``--memory`` options of the solver commands."""

from __future__ import annotations

import click
from canfield.solver import config
from canfield.solver.search import parse_bytes, parse_seconds


def budgets(budget: str, memory: str | None) -> tuple[float, int]:
    """Seconds and table bytes of ``--budget`` and ``--memory``.

    Parameters
    ----------
    budget : str
        A wall-clock budget such as ``10s`` or ``500ms``.
    memory : str or None
        A memory size such as ``2GB``; None for the solver's default.

    Returns
    -------
    tuple of (float, int)

    Raises
    ------
    click.UsageError
        For a budget or size that cannot be read, or a table of more than half
        of this machine's RAM.
    """
    try:
        seconds = parse_seconds(budget)
        mem = parse_bytes(memory) if memory else config.DEFAULT_MEMORY
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if mem > config.QUARTER_RAM * 2:
        raise click.UsageError(
            f"--memory {memory} is more than half of this machine's RAM; pick a smaller table"
        )
    return seconds, mem
