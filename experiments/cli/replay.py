"""``canfield replay``: a move list played on one deal."""

from __future__ import annotations

import click
from canfield.engine.cards import parse_deck
from canfield.engine.deals import deal_cards
from canfield.engine.notation import Pick, read_moves
from canfield.engine.position import IllegalMove
from canfield.engine.profiles import parse_profile
from canfield.experiments.cli.errors import fail
from canfield.experiments.cli.options import (
    PROFILE_HELP,
    check_pick,
    parse_pick,
    read_text,
    start_position,
    strip_comments,
)


@click.command("replay")
@click.argument("moves_path", metavar="MOVES")
@click.option("--profile", "-p", default="strict", show_default=True, help=PROFILE_HELP)
@click.option("--deal", "deal_number", type=int, metavar="N", help="Deal number.")
@click.option("--cards", metavar="CARDS", help="The deal as 52 card tokens, top first.")
@click.option("--file", "deal_file", metavar="F", help="A file holding one deal as 52 tokens.")
@click.option("--show", is_flag=True, help="Print every position along the way.")
@click.option("--pick", metavar="CARD", help="Base card for the selective profile.")
def replay_cmd(
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
        deck = parse_deck(strip_comments(read_text(deal_file)))

    entries = read_moves(read_text(moves_path))
    picked = parse_pick(pick)
    if entries and isinstance(entries[0][2], Pick):
        file_pick = entries.pop(0)[2].card
        if picked is not None and picked != file_pick:
            fail(f"--pick {pick} disagrees with the move list's '{Pick(file_pick)}'")
        picked = file_pick
    check_pick(prof, picked)
    pos = start_position(deck, deal_number, prof, picked)

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
