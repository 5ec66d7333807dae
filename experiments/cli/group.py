"""The click group of ``canfield``: commands loaded on first use, one-line errors."""

from __future__ import annotations

import importlib
import sys

import click
from canfield.experiments.cli.errors import USER_ERRORS, UserError, error_line

# click >= 8.2 signals "group called without a command" with this error; it
# prints the help, not an error line
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class CanfieldGroup(click.Group):
    """A click group whose commands live in modules imported on first use.

    Parameters
    ----------
    lazy : dict
        Command name -> ``"module:attribute"``. A module is imported only when
        its command runs or is listed, so ``canfield deal`` does not load the
        solver, pandas or matplotlib.
    """

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = lazy if lazy is not None else {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        cmd = super().get_command(ctx, name)
        if cmd is None and name in self.lazy:
            module, _, attr = self.lazy[name].partition(":")
            cmd = getattr(importlib.import_module(module), attr)
            self.add_command(cmd, name)
        return cmd

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except USER_ERRORS as exc:
            raise UserError(str(exc)) from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.Abort:
            click.echo("error: aborted", err=True)
            sys.exit(1)
        except _NO_ARGS_IS_HELP as exc:
            exc.show()  # a bare group name prints its help, as click does
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(error_line(exc), err=True)
            sys.exit(exc.exit_code)
        sys.exit(rv if isinstance(rv, int) else 0)
