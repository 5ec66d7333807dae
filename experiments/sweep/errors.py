"""The sweep's errors: bad input or a bad run folder, and a crashed row."""

from __future__ import annotations


class SweepError(Exception):
    """Bad sweep input or an inconsistent run folder; the message is one line."""


class SolveFailed(RuntimeError):
    """The solver or a player raised on a (deal, profile): a bug, never a verdict."""
