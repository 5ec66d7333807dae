"""The click group of ``canfield``: commands loaded on first use, one-line errors.

It also refuses an option given twice (``--deal 5 --deal 6`` once solved deal 6
without a word) and turns Ctrl-C into one ``interrupted`` line and exit code
130.
"""

from __future__ import annotations

import importlib
import sys

import click

from canfield.experiments.cli.errors import UserError, error_line, user_errors

#: Exit code of a command stopped by Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPT_EXIT = 130

# click >= 8.2 signals "group called without a command" with this error; it
# prints the help, not an error line
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class CanfieldGroup(click.Group):
    """A click group whose commands live in modules imported on first use.

    Parameters
    ----------
    lazy : dict
        Command name -> ``"module:attribute"``. A module is imported only when
        its command runs, so ``canfield deal`` does not load the solver,
        pandas or matplotlib.
    summaries : dict
        Command name -> its one-line help, listed by ``--help`` without
        importing the command.
    """

    def __init__(
        self,
        *args,
        lazy: dict[str, str] | None = None,
        summaries: dict[str, str] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.lazy = lazy if lazy is not None else {}
        self.summaries = summaries if summaries is not None else {}

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # as click.Group.format_commands, with a stand-in for a command not loaded
        commands = []
        for name in self.list_commands(ctx):
            if name in self.summaries and name not in self.commands:
                cmd = click.Command(name, help=self.summaries[name])
            else:
                cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                commands.append((name, cmd))
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            with formatter.section("Commands"):
                formatter.write_dl([(n, cmd.get_short_help_str(limit)) for n, cmd in commands])

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        cmd = super().get_command(ctx, name)
        if cmd is None and name in self.lazy:
            module, _, attr = self.lazy[name].partition(":")
            cmd = getattr(importlib.import_module(module), attr)
            self.add_command(cmd, name)
        return cmd

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None:
            reject_repeats(cmd, ctx, name or "", rest)
        return name, cmd, rest

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # click would print a blank line and "Aborted!"; one line is enough
            raise UserError("interrupted", INTERRUPT_EXIT) from None
        except Exception as exc:
            if isinstance(exc, user_errors()):
                raise UserError(str(exc)) from None
            raise

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except KeyboardInterrupt:  # while a command was being loaded
            click.echo("error: interrupted", err=True)
            sys.exit(INTERRUPT_EXIT)
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


def reject_repeats(cmd: click.Command, parent: click.Context, name: str, args: list[str]) -> None:
    """Refuse an option of ``cmd`` (or of its subcommand) given more than once.

    click keeps the last value of a repeated single-valued option; here it is
    a usage error. Options that collect values (``multiple``, ``count``) and
    eager ones (``--help``) may repeat. Arguments click cannot parse are left
    for its own parse to report.

    Raises
    ------
    click.UsageError
        Naming the repeated option.
    """
    ctx = cmd.make_context(name, [], parent=parent, resilient_parsing=True)
    try:
        _, rest, order = cmd.make_parser(ctx).parse_args(args=list(args))
    except click.ClickException:
        return
    seen: set[str] = set()
    for param in order:
        single = isinstance(param, click.Option) and not (
            param.multiple or param.count or param.is_eager
        )
        if single and param.name in seen:
            raise click.UsageError(
                f"{' / '.join(param.opts + param.secondary_opts)} given more than once; "
                "give it once",
                ctx,
            )
        seen.add(param.name or "")
    if isinstance(cmd, click.Group) and rest:
        sub = cmd.get_command(ctx, rest[0])
        if sub is not None:
            reject_repeats(sub, ctx, rest[0], rest[1:])
