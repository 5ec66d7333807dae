"""The ``--budget``, ``--memory`` and ``--nodes`` options of the solver commands.

On the command line a budget must name its unit: ``--budget 50000`` (meant
as ``--nodes 50000``?) would otherwise be read as 14 hours and ``--memory 10``
as ten bytes. :data:`TIME_BUDGET`, :data:`MEMORY_SIZE` and :data:`NODE_COUNT`
are the click types that say so; :func:`budget_option` and
:func:`memory_option` are the options every solver command shares.

The checks themselves are ``experiments.sweep.spec``'s :func:`read_seconds`,
:func:`read_bytes` and :func:`read_nodes`, which ``canfield sweep`` and
``escalate`` (whose budgets are plain text) and the Python API
(``canfield.solve``, ``canfield.sweep``) use too, so a budget one of them
refuses (NaN, zero, a table below ``MIN_MEMORY``) the others refuse alike.
The Python API also takes plain numbers (seconds, bytes).
"""

from __future__ import annotations

import click

from canfield.experiments.sweep.spec import MIN_MEMORY_TEXT, read_bytes, read_nodes, read_seconds
from canfield.solver import config


def size_text(nbytes: int) -> str:
    """``nbytes`` as the shortest exact ``GiB``/``MiB``/``KiB`` size, e.g. ``1GiB``."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes % scale == 0:
            return f"{nbytes // scale}{unit}"
    return f"{nbytes}B"


#: The default ``--memory`` of ``solve``, ``sweep`` and ``bench``, as text.
DEFAULT_MEMORY_TEXT = size_text(config.DEFAULT_MEMORY)


class WithUnit(click.ParamType):
    """A click type for a budget that must name its unit; a bare number is an error.

    Parameters
    ----------
    name : str
        The metavar in help texts.
    kind : type
        Values already of this type (a default given as a number) pass unchanged.
    read : callable
        Text to value; raises ValueError (or TypeError) with the message the
        user sees.
    """

    def __init__(self, name: str, kind: type, read) -> None:
        self.name = name
        self.kind = kind
        self.read = read

    def convert(self, value, param, ctx):
        if isinstance(value, self.kind):
            return value
        try:
            return self.read(value)
        except (TypeError, ValueError) as exc:
            self.fail(str(exc), param, ctx)


#: ``type=`` of a ``--budget`` option (seconds; ``inf``: no time budget) and of
#: a ``--memory`` option (bytes, at least ``MIN_MEMORY``).
TIME_BUDGET = WithUnit("DURATION", float, read_seconds)
MEMORY_SIZE = WithUnit("SIZE", int, read_bytes)
#: ``type=`` of a ``--nodes`` option: a count, bare or with K, M or G (no unit needed).
NODE_COUNT = WithUnit("N", int, read_nodes)


def budget_option(default: str | None = f"{config.DEFAULT_SECONDS:g}s", help: str | None = None):
    """The ``--budget`` option: a wall-clock budget with a unit, given as seconds."""
    return click.option(
        "--budget",
        type=TIME_BUDGET,
        default=default,
        show_default=default is not None,
        help=help or "Wall-clock budget per solve, e.g. 10s, 500ms or 2m.",
    )


#: What a ``--memory`` option's help says of its values.
MEMORY_HELP = (
    f"e.g. 256MB or 2GB; at least {MIN_MEMORY_TEXT}, the smallest table a search keeps within"
)


def memory_option(help: str = f"Most transposition-table memory per solve, {MEMORY_HELP}."):
    """The ``--memory`` option, defaulting to ``solver.config.DEFAULT_MEMORY``, given as bytes."""
    return click.option(
        "--memory",
        type=MEMORY_SIZE,
        default=DEFAULT_MEMORY_TEXT,
        show_default=True,
        help=help,
    )


def budgets(budget: str, memory: str | None) -> tuple[float, int]:
    """Seconds and table bytes of ``--budget`` and ``--memory`` given as text.

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
        For a budget or size that cannot be read or has no unit, a budget that
        is not a positive duration, or a table below ``MIN_MEMORY`` or of more
        than half of this machine's RAM.
    """
    try:
        return read_seconds(budget), read_bytes(memory) if memory else config.DEFAULT_MEMORY
    except (TypeError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
