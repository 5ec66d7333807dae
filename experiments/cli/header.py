"""The header line of ``canfield solve``'s output, written and read back.

``# deal 7  profile hevagames  won  banked 52/52``: the deal (``deal N``,
``cards ...`` or ``position FILE``, after ``file F  line N`` for a line of a
``--file`` list), ``profile P``, ``pick CARD`` under selective, the verdict
and the banked count, separated by two spaces. It starts with ``#``, so the
whole output replays as a move list, and ``canfield replay`` takes the deal
or position, profile and pick from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from canfield.engine.profiles import parse_profile
from canfield.experiments.cli.errors import fail
from canfield.experiments.cli.sources import Source

_SEP = re.compile(r" {2,}")
_FIRST_KEYS = ("deal", "cards", "position", "file")


@dataclass(frozen=True)
class Header:
    """What a solve header says about the game its moves were found in."""

    source: Source
    profile: str
    pick: str | None = None


def header_line(source: Source, profile: str, pick: str | None, result: str, banked: int) -> str:
    """The header line of one solve result."""
    fields = [source.label(), f"profile {profile}"]
    if pick:
        fields.append(f"pick {pick}")
    total = 52 * parse_profile(profile).packs
    return "# " + "  ".join([*fields, result, f"banked {banked}/{total}"])


def _parse(line: str) -> Header | None:
    if not line.startswith("# "):
        return None
    pairs = [seg.partition(" ")[::2] for seg in _SEP.split(line[2:].strip())]
    fields: dict[str, str] = {}
    for key, value in pairs:
        fields.setdefault(key, value.strip())
    if pairs[0][0] not in _FIRST_KEYS or "profile" not in fields:
        return None
    number = fields.get("deal")
    if number is not None and not number.isdigit():
        fail(f"cannot read the deal number of the solve header {line.strip()!r}")
    line_no = fields.get("line")
    source = Source(
        deal=int(number) if number is not None else None,
        cards=fields.get("cards"),
        position=fields.get("position"),
        file=fields.get("file"),
        line=int(line_no) if line_no and line_no.isdigit() else None,
    )
    if sum(x is not None for x in (source.deal, source.cards, source.position)) != 1:
        fail(f"the solve header {line.strip()!r} names no deal or position")
    return Header(source, fields["profile"], fields.get("pick"))


def find_header(text: str) -> Header | None:
    """The solve header of a move list, or None when it has none.

    Raises
    ------
    UserError
        When the list holds more than one solve's output.
    """
    headers = [h for h in map(_parse, text.splitlines()) if h is not None]
    if len(headers) > 1:
        fail(f"the move list holds {len(headers)} solve results; replay one at a time")
    return headers[0] if headers else None
