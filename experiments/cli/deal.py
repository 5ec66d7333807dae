"""``canfield deal``: the cards of a numbered deal."""

from __future__ import annotations

import click

from canfield.engine.cards import cards_str
from canfield.engine.deals import deal_cards
from canfield.engine.profiles import parse_profile
from canfield.experiments.cli.options import PROFILE_HELP, check_pick, parse_pick, start_position


@click.command("deal")
@click.argument("number", metavar="N", type=int)
@click.option("--profile", "-p", default="strict", show_default=True, help=PROFILE_HELP)
@click.option("--show", is_flag=True, help="Also print the dealt position.")
@click.option("--pick", metavar="CARD", help="Base card for the selective profile.")
def deal_cmd(number: int, profile: str, show: bool, pick: str | None) -> None:
    """Print the 52 cards of deal N (0 <= N < 2^64), top of the deck first."""
    prof = parse_profile(profile)
    picked = parse_pick(pick)
    check_pick(prof, picked)
    cards = deal_cards(number)
    if show:
        pos = start_position(cards, number, prof, picked)  # may fail: print nothing then
        click.echo(cards_str(cards))
        click.echo(pos.show())
    else:
        click.echo(cards_str(cards))
