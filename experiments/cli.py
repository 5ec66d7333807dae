"""The ``canfield`` command line.

``canfield deal``, ``canfield replay`` and ``canfield bench engine`` live here;
other commands plug in without editing this file's logic:

* a command defined elsewhere is listed in :data:`LAZY_COMMANDS` (or
  :data:`LAZY_BENCH_COMMANDS` for ``canfield bench ...``) as
  ``"name": "module:attribute"``; its module is imported only when the command
  is used or listed, so ``canfield deal`` stays fast;
* or a module calls ``main.add_command(cmd)`` / ``bench.add_command(cmd)``.

Bad input never ends in a traceback: the project's user errors (a bad card,
deal, deal number, profile, move or position, a missing file) and click's own
usage errors print **one** ``error: ...`` line on stderr and exit with code 2
(:data:`USER_ERRORS`, :func:`fail`). Any other exception is a bug and keeps
its traceback.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

import click
from canfield.engine.cards import CardError, cards_str, parse_card, parse_deck
from canfield.engine.deals import DealNumberError, deal_cards
from canfield.engine.notation import NotationError, Pick, read_moves
from canfield.engine.position import IllegalMove, Position, PositionError
from canfield.engine.profiles import ProfileError, parse_profile
from canfield.engine.version import __version__

USAGE_EXIT = 2

#: Exceptions that mean "the user gave bad input": one line, exit code 2.
#: Other modules may append their own error classes.
USER_ERRORS: list[type[BaseException]] = [
    CardError,
    DealNumberError,
    ProfileError,
    NotationError,
    IllegalMove,
    PositionError,
]

#: Commands defined in other modules: name -> "module:attribute".
LAZY_COMMANDS: dict[str, str] = {
    "sweep": "canfield.experiments.research_cli:sweep_cmd",
    "report": "canfield.experiments.research_cli:report_cmd",
    "plot": "canfield.experiments.research_cli:plot_cmd",
    "solve": "canfield.experiments.solve_cli:solve_cmd",
}
#: ``canfield bench NAME`` commands defined in other modules.
LAZY_BENCH_COMMANDS: dict[str, str] = {"solver": "canfield.experiments.solve_cli:bench_solver_cmd"}


# click >= 8.2 signals "group called without a command" with this error; it
# prints the help, not an error line
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class UserError(click.ClickException):
    """Bad input: printed as one ``error: ...`` line, exit code 2."""

    exit_code = USAGE_EXIT


def fail(message: str) -> None:
    """Stop the command with one ``error: message`` line and exit code 2."""
    raise UserError(message)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class CanfieldGroup(click.Group):
    """A click group with lazy commands and one-line user errors."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = lazy if lazy is not None else {}

    def _lazy_available(self) -> list[str]:
        names = []
        for name, target in self.lazy.items():
            module = target.split(":", 1)[0]
            if importlib.util.find_spec(module) is not None:
                names.append(name)
        return names

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self._lazy_available()))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        cmd = super().get_command(ctx, name)
        if cmd is None and name in self.lazy:
            module, _, attr = self.lazy[name].partition(":")
            if importlib.util.find_spec(module) is None:
                return None
            cmd = getattr(importlib.import_module(module), attr)
            self.add_command(cmd, name)
        return cmd

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except tuple(USER_ERRORS) as exc:
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
            msg = _one_line(exc.format_message())
            ctx = getattr(exc, "ctx", None)
            if isinstance(exc, click.UsageError) and ctx is not None:
                msg += f" (see '{ctx.command_path} --help')"
            click.echo(f"error: {msg}", err=True)
            sys.exit(exc.exit_code)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=CanfieldGroup, lazy=LAZY_COMMANDS, context_settings={"max_content_width": 100})
@click.version_option(__version__, "--version", prog_name="canfield")
def main() -> None:
    """Canfield solitaire: an exact rules engine, a solver and research tools.

    Profiles (RULES.md section 3): strict (default), hevagames, cardgames,
    cardgames-draw1, solvitaire, storehouse, rainbow, selective, superior,
    optionally with overrides such as strict:draw=1 or cardgames:worry=no.
    """


@main.group(cls=CanfieldGroup, lazy=LAZY_BENCH_COMMANDS)
def bench() -> None:
    """Benchmarks (results go to results/bench/)."""


# ---- helpers -----------------------------------------------------------------


def read_text(path: str) -> str:
    """The text of ``path`` (``-`` for stdin); a missing file is a user error."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"no such file: {path}")
    except IsADirectoryError:
        fail(f"{path} is a directory, not a file")
    except UnicodeDecodeError:
        fail(f"{path} is not a text file")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}")
    raise AssertionError("unreachable")


def _strip_comments(text: str) -> str:
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def _parse_pick(text: str | None) -> int | None:
    return None if text is None else parse_card(text)


def _check_pick(profile, pick: int | None) -> None:
    if pick is not None and profile.layout != "selective":
        fail(f"a base pick is only for the selective profile, not {profile.canonical()}")


def _start(deal_cards_list, number, profile, pick) -> Position:
    """The dealt position, with a clear message when selective lacks a pick."""
    if profile.layout == "selective" and pick is None:
        five = cards_str(deal_cards_list[13:18])
        fail(f"selective needs a base pick: one of {five} (use --pick CARD)")
    deal = number if number is not None else deal_cards_list
    return Position.from_deal(deal, profile, pick=pick)


PROFILE_HELP = "Rule profile, e.g. strict, hevagames, cardgames:worry=no."


# ---- deal ----------------------------------------------------------------------


@main.command()
@click.argument("number", metavar="N", type=int)
@click.option("--profile", "-p", default="strict", show_default=True, help=PROFILE_HELP)
@click.option("--show", is_flag=True, help="Also print the dealt position.")
@click.option("--pick", metavar="CARD", help="Base card for the selective profile.")
def deal(number: int, profile: str, show: bool, pick: str | None) -> None:
    """Print the 52 cards of deal N (0 <= N < 2^64), top of the deck first."""
    prof = parse_profile(profile)
    picked = _parse_pick(pick)
    _check_pick(prof, picked)
    cards = deal_cards(number)
    if show:
        pos = _start(cards, number, prof, picked)  # may fail: print nothing then
        click.echo(cards_str(cards))
        click.echo(pos.show())
    else:
        click.echo(cards_str(cards))


# ---- replay --------------------------------------------------------------------


@main.command()
@click.argument("moves_path", metavar="MOVES")
@click.option("--profile", "-p", default="strict", show_default=True, help=PROFILE_HELP)
@click.option("--deal", "deal_number", type=int, metavar="N", help="Deal number.")
@click.option("--cards", metavar="CARDS", help="The deal as 52 card tokens, top first.")
@click.option("--file", "deal_file", metavar="F", help="A file holding one deal as 52 tokens.")
@click.option("--show", is_flag=True, help="Print every position along the way.")
@click.option("--pick", metavar="CARD", help="Base card for the selective profile.")
def replay(
    moves_path: str,
    profile: str,
    deal_number: int | None,
    cards: str | None,
    deal_file: str | None,
    show: bool,
    pick: str | None,
) -> None:
    """Replay a move list (RULES.md section 6) on one deal and report the result.

    MOVES is a file of moves, one per line, or - for stdin. A first line
    'pick CARD' chooses the base card under the selective profile. Ends with a
    line such as 'banked 17/52  blocked' (won, blocked or playing); an illegal
    move stops with 'error: move 7 (T1>T2x3): <reason>' and exit code 2.
    """
    prof = parse_profile(profile)
    given = [x is not None for x in (deal_number, cards, deal_file)]
    if sum(given) != 1:
        fail("give exactly one of --deal N, --cards '...', --file F")
    if deal_number is not None:
        deck = deal_cards(deal_number)
    elif cards is not None:
        deck = parse_deck(cards)
    else:
        deck = parse_deck(_strip_comments(read_text(deal_file)))

    entries = read_moves(read_text(moves_path))
    picked = _parse_pick(pick)
    if entries and isinstance(entries[0][2], Pick):
        file_pick = entries.pop(0)[2].card
        if picked is not None and picked != file_pick:
            fail(f"--pick {pick} disagrees with the move list's '{Pick(file_pick)}'")
        picked = file_pick
    _check_pick(prof, picked)
    pos = _start(deck, deal_number, prof, picked)

    if show:
        click.echo("start")
        click.echo(pos.show())
    for i, (lineno, _text, move) in enumerate(entries, 1):
        if isinstance(move, Pick):
            fail(f"move {i} (line {lineno}): '{move}' is allowed only before the first move")
        try:
            pos = pos.apply(move)
        except IllegalMove as exc:
            fail(f"move {i} ({move}): {exc}")
        if show:
            click.echo()
            click.echo(f"{i}. {move}")
            click.echo(pos.show())
    if show:
        click.echo()
    click.echo(f"banked {pos.banked}/52  {pos.status()}")


# ---- bench ---------------------------------------------------------------------


@bench.command("engine")
@click.option(
    "--seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=2.0,
    show_default=True,
    help="Rough time per measurement.",
)
@click.option(
    "--out",
    metavar="FILE",
    default=None,
    help="Result file, .json or .csv [default: results/bench/engine.json].",
)
@click.option(
    "--pool",
    "pool_size",
    type=click.IntRange(min=1),
    default=300,
    show_default=True,
    help="Positions per profile.",
)
@click.option(
    "--reps",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Repetitions; the median is reported.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the pool.")
@click.option("--no-reference", is_flag=True, help="Do not time tests/reference_rules.py.")
def bench_engine_cmd(
    seconds: float, out: str | None, pool_size: int, reps: int, seed: int, no_reference: bool
) -> None:
    """Positions expanded per second: numba core vs pure Python (strict, hevagames)."""
    from canfield.experiments.bench_engine import run

    run(
        seconds=seconds,
        out=out,
        pool_size=pool_size,
        seed=seed,
        reps=reps,
        reference=not no_reference,
        echo=click.echo,
    )


if __name__ == "__main__":
    main(prog_name="canfield")
