"""Options and inputs that ``canfield deal``, ``replay`` and ``solve`` share."""

from __future__ import annotations

import sys
from pathlib import Path

from canfield.engine.cards import cards_str, parse_card
from canfield.engine.position import Position
from canfield.engine.profiles import Profile
from canfield.experiments.cli.errors import fail

PROFILE_HELP = "Rule profile, e.g. strict, hevagames, cardgames:worry=no."


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


def strip_comments(text: str) -> str:
    """``text`` without its ``# ...`` comments."""
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def parse_pick(text: str | None) -> int | None:
    """The card of ``--pick``, or None when it was not given."""
    return None if text is None else parse_card(text)


def pick_refusal(profile: Profile, pick: int | None) -> str | None:
    """Why ``pick`` cannot be given under ``profile`` (one that deals its
    base card), or None when it can: the one rule of ``--pick`` and of the
    Python API's ``pick=``, where it was once ignored without a word."""
    if pick is not None and profile.layout != "selective":
        return f"a base pick is only for the selective profile, not {profile.canonical()}"
    return None


def check_pick(profile: Profile, pick: int | None) -> None:
    """Refuse a base pick under a profile that deals its base card (one
    ``error:`` line, :func:`pick_refusal`)."""
    refusal = pick_refusal(profile, pick)
    if refusal is not None:
        fail(refusal)


def start_position(
    deck: list[int], number: int | None, profile: Profile, pick: int | None
) -> Position:
    """The dealt position, with a clear message when selective lacks a pick."""
    if profile.layout == "selective" and pick is None:
        five = cards_str(deck[13:18])
        fail(f"selective needs a base pick: one of {five} (use --pick CARD)")
    deal = number if number is not None else deck
    return Position.from_deal(deal, profile, pick=pick)
