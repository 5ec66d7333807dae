"""Where a deal or position came from, and the ``--file`` lists that name them.

``solve --file`` and ``replay --file`` read the same kind of file: one deal or
position a line, each line 52 card tokens, a deal number, or the path of a
position file (``docs/formats.md``; a relative path is looked up from the
working directory, then from the list's folder). ``#`` starts a comment.
Each result names its :class:`Source`, so results match their input lines.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from canfield.engine.cards import CardError, cards_str, parse_deck
from canfield.engine.deals import deal_cards
from canfield.engine.formats import read_position
from canfield.engine.position import Position, PositionError
from canfield.engine.profiles import Profile
from canfield.experiments.cli.errors import fail
from canfield.experiments.cli.options import read_text, strip_comments
from canfield.solver.budgets import is_bare_number


@dataclass(frozen=True)
class Source:
    """One deal or position to play, and where it was named.

    Exactly one of ``deal`` (a deal number), ``cards`` (the 52 cards, top
    first) and ``position`` (a position file's path) is set; ``file`` and
    ``line`` say which line of a ``--file`` list named it.
    """

    deal: int | None = None
    cards: str | None = None
    position: str | None = None
    file: str | None = None
    line: int | None = None

    def label(self) -> str:
        """``deal 7``, ``cards 8S JH ...`` or ``position p.txt``, after ``file F  line N``."""
        parts = [f"file {self.file}", f"line {self.line}"] if self.file is not None else []
        if self.deal is not None:
            parts.append(f"deal {self.deal}")
        elif self.cards is not None:
            parts.append(f"cards {self.cards}")
        else:
            parts.append(f"position {self.position}")
        return "  ".join(parts)

    def to_json(self) -> dict:
        """The fields that are set."""
        return {k: v for k, v in asdict(self).items() if v is not None}

    def deck(self, packs: int = 1) -> list[int] | None:
        """The deal's 52 cards (104 with ``packs=2``); None for a position."""
        if self.deal is not None:
            return deal_cards(self.deal, packs)
        if self.cards is not None:
            return parse_deck(self.cards, _packs_of(self.cards))
        return None

    def read_position(self, profile: Profile | str | None) -> Position:
        """The position file's position, under its own profile (``profile`` must agree)."""
        try:
            return read_position(read_text(str(self.position)), profile)
        except (PositionError, CardError) as exc:
            fail(f"{self.position}: {exc}")


def _packs_of(text: str) -> int:
    """2 for a deal of 104 card tokens (``double``), else 1."""
    return 2 if len(text.replace(",", " ").split()) == 104 else 1


def cards_source(text: str) -> Source:
    """The source of ``--cards TEXT`` (checked: 52 distinct cards, or 104
    holding every card twice for ``double``)."""
    return Source(cards=cards_str(parse_deck(text, _packs_of(text))))


def _line_source(token_text: str, folder: Path | None) -> Source:
    """One line of a list: 52 cards, a deal number or a position file."""
    tokens = token_text.split()
    if len(tokens) > 1:
        return cards_source(token_text)
    name = tokens[0]
    for path in (Path(name), folder / name if folder is not None else None):
        if path is not None and path.is_file():
            return Source(position=str(path))
    if name.isdigit():
        deal_cards(int(name))  # checks the range
        return Source(deal=int(name))
    if is_bare_number(name):
        # -1, +5 or 5.0 meant a deal: say what a deal number is, as --deal does
        raise PositionError(f"{name} is not a deal number (0 to 2^64-1, digits only)")
    raise PositionError(f"no such position file: {name}")


def read_list(path: str, text: str | None = None) -> list[Source]:
    """Every deal and position a ``--file`` list names.

    Parameters
    ----------
    path : str
        The list's path, ``-`` for stdin.
    text : str, optional
        Its text, when already read.

    Raises
    ------
    UserError
        For a line that names no deal or position, with the file and line.
    """
    folder = None if path == "-" else Path(path).parent
    text = read_text(path) if text is None else text
    sources = []
    for lineno, line in enumerate(strip_comments(text).splitlines(), 1):
        if not line.strip():
            continue
        try:
            found = _line_source(line, folder)
        except (CardError, PositionError, ValueError) as exc:
            fail(f"{path} line {lineno}: {exc}")
        sources.append(Source(found.deal, found.cards, found.position, path, lineno))
    return sources


def read_one(path: str) -> Source:
    """The one deal or position of a ``--file`` list (``replay --file``).

    A deal written over several lines (52 tokens in all) is one deal too.
    """
    text = read_text(path)
    if len(strip_comments(text).split()) in (52, 104):
        return cards_source(strip_comments(text))
    sources = read_list(path, text)
    if len(sources) != 1:
        what = "no deal or position" if not sources else f"{len(sources)} deals or positions"
        fail(f"{path} holds {what}; replay takes a file with exactly one")
    return sources[0]
