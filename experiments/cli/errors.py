"""The command line's one error policy.

Bad input never ends in a traceback: the project's user errors (a bad card,
deal, deal number, profile, move or position, a missing file; see
:func:`user_errors`) and click's own usage errors print **one**
``error: ...`` line on stderr and exit with :data:`USAGE_EXIT`. A command
stops on bad input with :func:`fail`. Any other exception is a bug and keeps
its traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import click

#: Exit code of bad input.
USAGE_EXIT = 2


def user_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean "the user gave bad input": one line, exit code 2.

    Imported on first use: the engine loads numba, which ``canfield --help``
    and the group itself do not need.
    """
    from canfield.engine.cards import CardError
    from canfield.engine.deals import DealNumberError
    from canfield.engine.notation import NotationError
    from canfield.engine.position import IllegalMove, PositionError
    from canfield.engine.profiles import ProfileError

    return (CardError, DealNumberError, ProfileError, NotationError, IllegalMove, PositionError)


def __getattr__(name: str):
    # USER_ERRORS, for modules that load the engine anyway
    if name == "USER_ERRORS":
        return user_errors()
    raise AttributeError(name)


def _takes_deal(ctx: click.Context | None) -> bool:
    """Whether the command of ``ctx`` takes a deal number as its argument."""
    command = getattr(ctx, "command", None)
    params = getattr(command, "params", ())
    return any(isinstance(p, click.Argument) and p.name == "number" for p in params)


def error_line(exc: click.ClickException) -> str:
    """``exc`` as the one ``error: ...`` line the user sees.

    A usage error names the command's help, so the user knows where to look.
    """
    msg = " ".join(exc.format_message().split())
    ctx = getattr(exc, "ctx", None)
    name = getattr(exc, "option_name", "") or ""
    if isinstance(exc, click.NoSuchOption) and name[1:2].isdigit() and _takes_deal(ctx):
        # a negative number read as an option: what the user meant was a deal
        msg = f"{name} is not an option; a deal number must be in 0..2^64-1"
    if isinstance(exc, click.UsageError) and ctx is not None:
        msg += f" (see '{ctx.command_path} --help')"
    return f"error: {msg}"


class UserError(click.ClickException):
    """Bad input: printed as one ``error: ...`` line, exit code 2 unless told."""

    exit_code = USAGE_EXIT

    def __init__(self, message: str, exit_code: int = USAGE_EXIT) -> None:
        super().__init__(message)
        self.exit_code = exit_code

    def show(self, file=None) -> None:
        # also when a command runs outside the canfield group (tests, embedding)
        click.echo(error_line(self), file=file, err=True)


def fail(message: str, code: int = USAGE_EXIT) -> NoReturn:
    """Stop the command with one ``error: message`` line and exit ``code``.

    Parameters
    ----------
    message : str
        What was wrong, for the user.
    code : int
        Exit code: :data:`USAGE_EXIT` for bad input, 1 for a run that failed.
    """
    raise UserError(message, code)


@contextmanager
def run_folder_errors(folder: object, failed: str) -> Iterator[None]:
    """How a resumable run (sweep, escalation) ends when it cannot finish.

    A bad run folder or argument is one ``error:`` line (exit 2); a solve
    that crashed is one line, ``failed`` followed by the cause (exit 1);
    Ctrl-C outside the run's own loop says the same command resumes it
    (exit 130), since every finished part is already on disk.
    """
    from canfield.experiments.sweep.errors import SolveFailed, SweepError

    try:
        yield
    except SweepError as exc:
        fail(str(exc))
    except SolveFailed as exc:
        fail(f"{failed}: {exc}", code=1)
    except KeyboardInterrupt:
        click.echo(f"interrupted: {folder} (the same command resumes it)", err=True)
        sys.exit(130)
