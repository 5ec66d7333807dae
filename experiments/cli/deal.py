"""``canfield deal``: the cards of a numbered deal."""

from __future__ import annotations

import click

from canfield.engine.cards import cards_str
from canfield.engine.deals import deal_cards
from canfield.engine.profiles import parse_profile
from canfield.experiments.cli.options import PROFILE_HELP, check_pick, parse_pick, start_position
from canfield.experiments.cli.outputs import writable_file, writing


@click.command("deal")
@click.argument("number", metavar="N", type=int)
@click.option("--profile", "-p", default="strict", show_default=True, help=PROFILE_HELP)
@click.option("--show", is_flag=True, help="Also print the dealt position.")
@click.option("--pick", metavar="CARD", help="Base card for the selective profile.")
@click.option("--png", "png", metavar="FILE", help="Also draw the dealt position as a PNG.")
@click.option("--svg", "svg", metavar="FILE", help="Also draw the dealt position as an SVG.")
def deal_cmd(
    number: int, profile: str, show: bool, pick: str | None, png: str | None, svg: str | None
) -> None:
    """Print the 52 cards of deal N (104 under double), top of the deck first.

    0 <= N < 2^64. The two-pack profile double deals every card twice.
    """
    prof = parse_profile(profile)
    picked = parse_pick(pick)
    check_pick(prof, picked)
    cards = deal_cards(number, prof.packs)
    pictures = [(writable_file(p, f"--{fmt}"), fmt) for fmt, p in (("png", png), ("svg", svg)) if p]
    if pictures:
        pos = start_position(cards, number, prof, picked)
        drawing = pos.draw(title=f"deal {number}  {prof.canonical()}")
        for path, fmt in pictures:
            with writing(path):
                drawing.save(path, fmt)
            click.echo(f"wrote {path}", err=True)
    if show:
        pos = start_position(cards, number, prof, picked)  # may fail: print nothing then
        click.echo(cards_str(cards))
        click.echo(pos.show())
    else:
        click.echo(cards_str(cards))
