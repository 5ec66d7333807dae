"""Reading and writing positions: the documented text form and Solvitaire JSON.

Both formats are described in ``docs/formats.md``. Every reader raises
:class:`engine.position.PositionError` (or ``CardError``) with one clear line.
"""

from __future__ import annotations

import json

from canfield.engine.cards import (
    RANKS,
    SUITS,
    CardError,
    card_str,
    parse_card,
    parse_cards,
    rank_of,
)
from canfield.engine.position import Position, PositionError
from canfield.engine.profiles import Profile, parse_profile

_ONE_PACK_JSON = "Solvitaire JSON holds one pack: write a double position in the text form"
_FIELDS = ("profile", "base", "foundations", "reserve", "stock", "waste", "redeals")


def position_to_text(pos: Position) -> str:
    """The documented text form (``docs/formats.md``); round-trips exactly."""
    snap = pos.snapshot()
    packs = pos.profile.packs  # double: two foundations a suit, written C:n C:m ...
    found = " ".join(f"{SUITS[i // packs]}:{n}" for i, n in enumerate(snap["foundations"]))
    lines = [
        f"profile {pos.profile.canonical()}",
        f"base {RANKS[snap['base']]}",
        f"foundations {found}",
        "reserve " + " ".join(card_str(c) for c in snap["reserve"]),
    ]
    for i, col in enumerate(snap["columns"]):
        lines.append(f"T{i + 1} " + " ".join(card_str(c) for c in col))
    lines.append("stock " + " ".join(card_str(c) for c in snap["stock"]))
    lines.append("waste " + " ".join(card_str(c) for c in snap["waste"]))
    lines.append(f"redeals {snap['redeals']}")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _choose_profile(stated: object, given: Profile | str | None) -> Profile:
    """The profile a position is read under: the file's own, or the caller's.

    A file that names its profile is played under it; a caller's profile that
    names another game is a conflict, never a silent override (that once ran
    ``profile hevagames`` files as ``strict``).
    """
    if stated is not None and not isinstance(stated, str):
        raise PositionError(f"the position's profile must be a string, got {stated!r}")
    own = parse_profile(stated) if stated else None
    if given is None:
        return own if own is not None else parse_profile(None)
    asked = given if isinstance(given, Profile) else parse_profile(given)
    if own is not None and own != asked:
        raise PositionError(
            f"the position says profile {own.canonical()} but {asked.canonical()} was asked "
            "for; drop the profile option or make them agree"
        )
    return asked


def read_position(text: str, profile: Profile | str | None = None) -> Position:
    """Read a position file's text: Solvitaire JSON if it starts with ``{``, else the text form.

    Parameters
    ----------
    text : str
        The file's contents.
    profile : Profile or str, optional
        The profile the caller expects. The file's own ``profile`` (line or
        JSON field) is used when present; if both are given they must agree.
    """
    if text.lstrip().startswith("{"):
        return position_from_solvitaire(text, profile)
    return position_from_text(text, profile)


def position_from_text(text: str, profile: Profile | str | None = None) -> Position:
    """Read the text form under the file's ``profile`` line (or ``profile``, which must agree)."""
    fields: dict[str, str] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, rest = line.partition(" ")
        name = name.lower()
        if name not in _FIELDS and name not in ("t1", "t2", "t3", "t4", "t5"):
            raise PositionError(f"line {lineno}: unknown field {name!r}")
        fields[name] = rest.strip()
    prof = _choose_profile(fields.get("profile"), profile)
    if "base" not in fields:
        raise PositionError("the position has no 'base' line")
    base_txt = fields["base"].upper().replace("10", "T")
    if len(base_txt) != 1 or base_txt not in RANKS:
        raise PositionError(f"cannot read base rank {fields['base']!r}")
    packs = prof.packs
    if "t5" in fields and packs == 1:
        raise PositionError(f"a {prof.canonical()} position has four columns: no 'T5' line")
    # a suit's foundations in the order given (two a suit under double)
    per_suit: list[list[int]] = [[] for _ in SUITS]
    for item in fields.get("foundations", "").split():
        suit, _, n = item.partition(":")
        if suit.upper() not in SUITS or not n.isdigit():
            raise PositionError(f"cannot read foundation {item!r} (write it like H:3)")
        per_suit[SUITS.index(suit.upper())].append(int(n))
    counts = []
    for suit, given in zip(SUITS, per_suit, strict=True):
        if len(given) > packs:
            raise PositionError(f"more than {packs} foundation(s) of suit {suit}")
        counts += given + [0] * (packs - len(given))
    try:
        redeals = int(fields.get("redeals", "0"))
    except ValueError:
        raise PositionError(f"cannot read redeals {fields['redeals']!r}") from None
    return Position.from_parts(
        prof,
        base=RANKS.index(base_txt),
        foundations=counts,
        reserve=parse_cards(fields.get("reserve", "")),
        columns=[parse_cards(fields.get(f"t{i}", "")) for i in range(1, 4 + packs)],
        stock=parse_cards(fields.get("stock", "")),
        waste=parse_cards(fields.get("waste", "")),
        redeals=redeals,
    )


def _sv_card(card: int) -> str:
    text = card_str(card)
    return ("10" + text[1]) if text[0] == "T" else text


def position_to_solvitaire(pos: Position) -> dict:
    """A Solvitaire deal object: piles list bottom to top (last is the top)."""
    if pos.profile.packs == 2:
        raise PositionError(_ONE_PACK_JSON)
    snap = pos.snapshot()
    base = snap["base"]
    return {
        "tableau piles": [[_sv_card(c) for c in col] for col in snap["columns"]],
        "reserve": [_sv_card(c) for c in snap["reserve"]],
        "foundations": [
            [_sv_card(su * 13 + (base + i) % 13) for i in range(n)]
            for su, n in enumerate(snap["foundations"])
        ],
        # our stock lists the next card first; Solvitaire's top is the last
        "stock": [_sv_card(c) for c in reversed(snap["stock"])],
        "waste": [_sv_card(c) for c in snap["waste"]],
    }


def position_from_solvitaire(data: dict | str, profile: Profile | str | None = None) -> Position:
    """Read a Solvitaire deal object (or its JSON text), under its ``"profile"`` field if any.

    ``foundations`` is four piles (any order), each bottom to top. The base
    rank is the bottom card of any non-empty pile, or an extra ``"base"`` field
    (a rank such as ``"7"``) when every foundation is empty.
    """
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise PositionError(f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise PositionError("a Solvitaire deal is a JSON object")
    if _choose_profile(data.get("profile"), profile).packs == 2:
        raise PositionError(_ONE_PACK_JSON)
    missing = [k for k in ("tableau piles", "foundations") if k not in data]
    if missing:
        raise PositionError("the Solvitaire deal has no " + " and no ".join(map(repr, missing)))

    def pile(value: object, what: str) -> list[int]:
        if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
            raise PositionError(f"{what} must be a list of cards")
        return [parse_card(t) for t in value]

    def cards(key: str) -> list[int]:
        return pile(data.get(key, []), repr(key))

    piles = data["foundations"]
    if not isinstance(piles, list) or len(piles) > 4:
        raise PositionError("'foundations' must be a list of up to four piles")
    counts = [0, 0, 0, 0]
    base = None
    for given in piles:
        # a lone card may stand for a pile of one
        pile_cards = pile(given if isinstance(given, list) else [given], "each foundation pile")
        if not pile_cards:
            continue
        su = pile_cards[0] // 13
        if counts[su]:
            # a second pile of one suit would overwrite the first: its cards
            # would vanish from the position without a word
            raise PositionError(f"more than 1 foundation pile of suit {SUITS[su]}")
        if base is None:
            base = rank_of(pile_cards[0])
        for i, c in enumerate(pile_cards):
            if c != su * 13 + (base + i) % 13:
                raise PositionError(f"foundation pile {card_str(pile_cards[0])}... is not built up")
        counts[su] = len(pile_cards)
    if base is None:
        if "base" not in data:
            raise PositionError('every foundation is empty: give the base rank as "base"')
        try:
            base = rank_of(parse_card(str(data["base"]) + "C"))
        except CardError:
            raise PositionError(f"cannot read base rank {data['base']!r}") from None
    tableau = data["tableau piles"]
    if not isinstance(tableau, list) or len(tableau) != 4:
        raise PositionError("'tableau piles' must hold four piles")
    columns = []
    for given in tableau:
        columns.append(pile(given, "each tableau pile"))
    return Position.from_parts(
        _choose_profile(data.get("profile"), profile),
        base=base,
        foundations=counts,
        reserve=cards("reserve"),
        columns=columns,
        stock=list(reversed(cards("stock"))),
        waste=cards("waste"),
    )
