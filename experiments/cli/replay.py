"""``canfield replay``: a move list played on one deal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from canfield.engine.cards import card_str
from canfield.engine.notation import Move, Pick, read_moves
from canfield.engine.position import IllegalMove, Position
from canfield.engine.profiles import Profile, parse_profile
from canfield.experiments.cli.errors import fail
from canfield.experiments.cli.header import Header, find_header, header_line
from canfield.experiments.cli.options import (
    PROFILE_HELP,
    check_pick,
    parse_pick,
    read_text,
    start_position,
)
from canfield.experiments.cli.sources import Source, cards_source, read_one
from canfield.experiments.relations import (
    larger_line,
    larger_start,
    relation,
    unrelated_reason,
)

_NO_SOURCE = (
    "give one of --deal N, --cards, --file F or --position P, or a move list that "
    "starts with the header 'canfield solve' prints"
)


def _profile(option: str | None, header: Header | None) -> Profile | None:
    """The --profile given, else the header's, else None; the two must agree."""
    if option is None:
        return parse_profile(header.profile) if header is not None else None
    prof = parse_profile(option)
    if header is not None and parse_profile(header.profile) != prof:
        fail(
            f"the move list was solved under profile {header.profile}, not "
            f"{prof.canonical()}; drop --profile or make them agree"
        )
    return prof


def _pick(option: str | None, header: Header | None, entries: list) -> int | None:
    """The base pick of --pick, the header and the move list's 'pick' line, which must agree."""
    picks = []
    if option is not None:
        picks.append((parse_pick(option), f"--pick {option}"))
    if header is not None and header.pick is not None:
        picks.append((parse_pick(header.pick), f"the header's 'pick {header.pick}'"))
    if entries and isinstance(entries[0][2], Pick):
        card = entries.pop(0)[2].card
        picks.append((card, f"the move list's '{Pick(card)}'"))
    for card, what in picks[1:]:
        if card != picks[0][0]:
            fail(f"{picks[0][1]} disagrees with {what}")
    return picks[0][0] if picks else None


def _header_position_path(source: Source, moves_path: str) -> Source:
    """The header's position path, looked up next to the move list when not found as written."""
    if source.position is None or Path(source.position).is_file() or moves_path == "-":
        return source
    beside = Path(moves_path).parent / source.position
    return Source(position=str(beside)) if beside.is_file() else source


def _start(source: Source, prof: Profile | None, pick: int | None, widen: bool = False) -> Position:
    """The start position of ``source`` under ``prof`` (None: a position file's own, or strict).

    With ``widen`` (``prof`` is a move list header's), a position file of a
    profile that ``prof`` contains (docs/relations.md) is read as a position
    of ``prof``: that is how ``replay --as`` writes a line of a position.
    """
    if source.position is not None:
        if pick is not None:
            fail("a base pick is for a deal; a position file has its base already")
        if widen and prof is not None:
            own = source.read_position(None)
            if own.profile != prof and relation(own.profile, prof) is not None:
                return larger_start(own, prof)
        return source.read_position(prof)
    prof = prof if prof is not None else parse_profile(None)
    check_pick(prof, pick)
    return start_position(source.deck(prof.packs), source.deal, prof, pick)


def start_of(
    moves_path: str,
    profile: str | None,
    deal_number: int | None,
    cards: str | None,
    deal_file: str | None,
    position_file: str | None,
    pick: str | None,
) -> tuple[Position, list, Source]:
    """The start position of a move list, its move entries and its source.

    Found from the options and the solve header as ``replay`` documents
    (``canfield view`` and ``analyze`` read move lists the same way). The
    entries are ``read_moves``' triples, a leading ``pick`` line removed.
    """
    given = [x is not None for x in (deal_number, cards, deal_file, position_file)]
    if sum(given) > 1:
        fail("give only one of --deal N, --cards '...', --file F, --position P")
    text = read_text(moves_path)
    header = find_header(text)
    prof = _profile(profile, header)
    if deal_number is not None:
        source = Source(deal=deal_number)
        source.deck()  # checks the range
    elif cards is not None:
        source = cards_source(cards)
    elif deal_file is not None:
        source = read_one(deal_file)
    elif position_file is not None:
        source = Source(position=position_file)
    elif header is not None:
        source = _header_position_path(header.source, moves_path)
    else:
        fail(_NO_SOURCE)
    entries = read_moves(text)
    picked = _pick(pick, header, entries)
    pos = _start(source, prof, picked, widen=header is not None)
    if header is not None and source is not header.source:
        _check_agrees(header, moves_path, pos, prof, picked)
    return pos, entries, source


def play_entries(
    start: Position, entries: list, each: Callable[[int, Move, Position], None] | None = None
) -> list[Position]:
    """The positions along ``entries`` (``read_moves``' triples) from ``start``.

    ``each`` is called with (move number, move, position after it). An
    illegal move or a late ``pick`` stops with one ``error:`` line naming it.
    """
    line = [start]
    for i, (lineno, _text, move) in enumerate(entries, 1):
        if isinstance(move, Pick):
            fail(f"move {i} (line {lineno}): '{move}' is allowed only before the first move")
        try:
            line.append(line[-1].apply(move))
        except IllegalMove as exc:
            fail(f"move {i} ({move}): {exc}")
        if each is not None:
            each(i, move, line[-1])
    return line


@click.command("replay")
@click.argument("moves_path", metavar="MOVES")
@click.option("--profile", "-p", default=None, help=PROFILE_HELP + " Default strict.")
@click.option("--deal", "deal_number", type=int, metavar="N", help="Deal number.")
@click.option("--cards", metavar="CARDS", help="The deal as 52 card tokens, top first.")
@click.option(
    "--file",
    "deal_file",
    metavar="F",
    help="A file as 'solve --file' reads, holding exactly one deal or position.",
)
@click.option(
    "--position",
    "position_file",
    metavar="P",
    help="A position file: the text form or Solvitaire JSON (docs/formats.md).",
)
@click.option("--show", is_flag=True, help="Print every position along the way.")
@click.option("--pick", metavar="CARD", help="Base card for the selective profile.")
@click.option(
    "--as",
    "as_profile",
    metavar="PROFILE",
    help="Write the line out as a line of PROFILE, a profile that contains the "
    "line's own (docs/relations.md: strict as superior, draw 3 as draw 1), "
    "replayed under it, in the output format of 'canfield solve'.",
)
def replay_cmd(
    moves_path: str,
    profile: str | None,
    deal_number: int | None,
    cards: str | None,
    deal_file: str | None,
    position_file: str | None,
    show: bool,
    pick: str | None,
    as_profile: str | None,
) -> None:
    """Replay a move list (docs/rules.md section 6) on one deal or position and report the result.

    MOVES is a file of moves, one per line, or - for stdin. The output of
    'canfield solve' replays as it is: its header names the deal or position,
    the profile and the pick (an option that disagrees is an error). A first
    line 'pick CARD' chooses the base card under the selective profile. Ends
    with a line such as 'banked 17/52  blocked' (won, blocked or playing); an
    illegal move stops with 'error: move 7 (T1>T2x3): <reason>' and exit code 2.

    With --as PROFILE the line, once replayed, is written out as a line of
    PROFILE (each move kept, with the draws or the reserve fill that PROFILE
    needs after it), replayed under PROFILE from the same deal, and printed
    as 'canfield solve' prints a line, so the output replays as it is: a
    strict win becomes a superior win that anyone can check.
    """
    pos, entries, _source = start_of(
        moves_path, profile, deal_number, cards, deal_file, position_file, pick
    )
    if show:
        click.echo("start")
        click.echo(pos.show())

    def print_step(i: int, move: Move, after: Position) -> None:
        click.echo()
        click.echo(f"{i}. {move}")
        click.echo(after.show())

    start = pos
    pos = play_entries(pos, entries, print_step if show else None)[-1]
    if show:
        click.echo()
    if as_profile is None:
        click.echo(f"banked {pos.banked}/{pos.game.n_cards}  {pos.status()}")
        return
    _write_as(start, [str(m) for _n, _t, m in entries], _source, as_profile)


def _write_as(start: Position, moves: list[str], source: Source, text: str) -> None:
    """Print ``moves`` (a line of ``start``'s profile) as a line of profile ``text``."""
    large = parse_profile(text)
    small = start.profile
    if relation(small, large) is None:
        fail(
            f"{small.canonical()} is not contained in {large.canonical()} "
            f"({unrelated_reason(small, large)}): its lines are not lines of it"
        )
    try:
        out = larger_line(start, moves, large)
    except ValueError as exc:  # a table the larger profile misses: a bug, named
        fail(f"cannot write the line for {large.canonical()}: {exc}")
    big = larger_start(start, large)
    final = play_entries(big, [(i, m, m) for i, m in enumerate(out, 1)])[-1]
    pick = big.game.pick
    name = large.canonical()
    status = final.status()
    click.echo(
        header_line(
            source, name, card_str(pick) if pick is not None else None, status, final.banked
        )
    )
    click.echo(
        f"# the line of {small.canonical()} written out for {name} "
        f"(docs/relations.md): {len(out)} moves, {len(out) - len(moves)} added"
    )
    for i, m in enumerate(out, 1):
        click.echo(f"{i:4d}. {m}")
    click.echo(f"# banked {final.banked}/{final.game.n_cards}  {status} under {name}")


def _check_agrees(
    header: Header, moves_path: str, pos: Position, prof: Profile | None, pick: int | None
) -> None:
    """Refuse a deal or position option that is not the one the header names."""
    theirs = _header_position_path(header.source, moves_path)
    if theirs.position is not None and not Path(theirs.position).is_file():
        return  # the file named in the header is gone: nothing to compare with
    if _start(theirs, prof, pick, widen=True) != pos:
        fail(
            f"the move list was solved on {header.source.label()}, not on the deal or "
            "position given; drop the option or make them agree"
        )
