"""What a related profile already proves (docs/relations.md).

Profile ``S`` is *contained* in profile ``L`` when, in every position
reachable under ``S``, every legal move of ``S`` leads to a position (the
same cards in the same places) that ``L`` reaches from the same position by
that move, or by that move followed by a few more (``fill`` and ``draw``:
the reserve fill that ``fill=auto`` makes by itself, the single draws that
make up a draw of three). Then every line of play of ``S`` is one of ``L``
with perhaps moves added, through the same positions, so a win under ``S``
is a win under ``L``, a loss under ``L`` is a loss under ``S``, and the most
cards ``S`` can bank is at most what ``L`` can. One step is of the start,
not the moves: the standard deal is ``selective``'s start when the player
picks deal card 14 (``layout``).

The relation is read from the parsed options alone, one option at a time:
an option may differ only in a direction argued in docs/relations.md (the
argument is named after the option); any other difference, or a different
deal layout, makes the two profiles unrelated. Nothing is guessed.

Functions
---------
relation, unrelated_reason
    Whether one profile is contained in another, and why not.
related_pairs
    Every contained pair among the profiles (or labels) of a run.
contradictions
    Every (deal, smaller, larger) whose rows break a relation.
settled, with_settled
    The unknown rows a related decided row settles, and the rows with those
    verdicts written in.
pair_table
    Per related pair: deals compared, decided under both, contradictions,
    rows settled.
related_sections
    The report's "Related profiles" section.
larger_start, larger_line
    A start and a line of the smaller profile written for the larger.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from canfield.engine.position import Position
from canfield.engine.profiles import OPTION_ORDER, UNLIMITED, Profile, parse_profile

#: The argued option steps, smaller value -> larger value, named after the
#: option: each is one section of docs/relations.md. ``passes`` is ordered by
#: :func:`_passes_contained` (any limit is contained in a larger one and in none).
ORDERS: dict[str, frozenset[tuple[object, object]]] = {
    "draw": frozenset({(3, 1)}),
    "moves": frozenset({("whole", "any")}),
    "space": frozenset({("waste", "any")}),
    "fill": frozenset({("auto", "free")}),
    "worry": frozenset({("no", "yes")}),
    "build": frozenset({("alt", "rank"), ("suit", "rank")}),
    "wrap": frozenset({("base", "ak")}),
}
#: The sequence steps, each with why its reverse relates nothing
#: (docs/relations.md, "Not related"; every other pair of values without an
#: argued order gets "no argued order").
ONE_WAY = {
    "draw": "a draw of 1 is not a sequence of draws of 3",
    "fill": "fill=free leaves an empty column empty, fill=auto fills it at once",
}
#: The steps after which a move of the smaller profile may take the larger
#: more than one move: a draw of three is three draws of one, and the fill
#: that ``fill=auto`` makes inside a move is a move of its own under
#: ``fill=free`` (docs/relations.md, "draw" and "fill").
SEQUENCE_STEPS = frozenset(ONE_WAY)
#: Layouts whose start the larger profile may choose: a ``selective`` player
#: who picks deal card 14 as the base card has the standard deal's start
#: (docs/relations.md, "layout").
LAYOUT_STEPS = frozenset({("standard", "selective")})
#: The deal card (0-based) that the standard layout puts on a foundation:
#: the ``selective`` pick that gives the standard start.
_STANDARD_BASE = 13
#: The name of the relation between two profiles with the same rules.
SAME_RULES = "same rules"


@dataclass(frozen=True)
class Relation:
    """``smaller``'s moves are contained in ``larger``'s (module docstring).

    Attributes
    ----------
    smaller, larger : str
        The two profiles (canonical strings) or run labels.
    arguments : tuple[str, ...]
        The options that differ, each argued in docs/relations.md under its
        name; ``("same rules",)`` when the two play the same game.
    """

    smaller: str
    larger: str
    arguments: tuple[str, ...]

    @property
    def by(self) -> str:
        """The arguments, for a table cell: ``moves+space``."""
        return "+".join(self.arguments)

    @property
    def same_moves(self) -> bool:
        """Whether every line of the smaller is, move for move, one of the larger
        (no sequence step among the arguments)."""
        return not SEQUENCE_STEPS.intersection(self.arguments)


def _passes_contained(small: int, large: int) -> bool:
    # UNLIMITED (0) is the largest value; a finite limit is contained in any
    # limit at least as large
    return large == UNLIMITED or (small != UNLIMITED and small <= large)


def _compare(small: Profile, large: Profile) -> tuple[tuple[str, ...], str | None]:
    """(the argued options that differ, the reason the pair is unrelated or None)."""
    used = []
    if small.layout != large.layout:
        if (small.layout, large.layout) not in LAYOUT_STEPS:
            return (), f"the deals are laid out differently ({small.layout} vs {large.layout})"
        used.append("layout")
    for name in OPTION_ORDER:
        a, b = getattr(small, name), getattr(large, name)
        if a == b:
            continue
        if name == "passes":
            if not _passes_contained(a, b):
                return (), "passes: the smaller profile allows more passes"
        elif (a, b) not in ORDERS.get(name, ()):
            why = ONE_WAY.get(name, "no argued order of these values")
            return (), f"{name}={a} vs {name}={b}: {why}"
        used.append(name)
    return tuple(used) or (SAME_RULES,), None


def relation(smaller: str | Profile, larger: str | Profile) -> Relation | None:
    """The relation "``smaller``'s moves are contained in ``larger``'s", or None.

    Parameters
    ----------
    smaller, larger : str or Profile
        Profile strings as the rows hold them (``strict``, ``hevagames:draw=1``).

    Returns
    -------
    Relation or None
        None when some option differs in a direction not argued in
        docs/relations.md, or the deal layouts differ.

    Raises
    ------
    ProfileError
        If a string is not a profile.
    """
    s, lg = parse_profile(smaller), parse_profile(larger)
    used, why = _compare(s, lg)
    if why is not None:
        return None
    return Relation(s.canonical(), lg.canonical(), used)


def unrelated_reason(smaller: str | Profile, larger: str | Profile) -> str | None:
    """Why ``smaller`` is not contained in ``larger`` (None when it is)."""
    return _compare(parse_profile(smaller), parse_profile(larger))[1]


def related_pairs(profiles: Iterable[str]) -> list[Relation]:
    """Every ordered pair of distinct profiles where the first is contained in the second.

    Two profiles with the same rules (``solvitaire``, ``hevagames:wrap=base``)
    appear in both orders.
    """
    out = []
    for a, b in itertools.permutations(dict.fromkeys(profiles), 2):
        rel = relation(a, b)
        if rel is not None:
            out.append(Relation(a, b, rel.arguments))
    return out


# ---- rows ----------------------------------------------------------------------


def _solver_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """The solver's rows, with a ``unit`` column naming what is compared.

    A blind player's ``lost`` proves nothing, so its rows are left out. The
    unit is the report's ``label`` when there is one (the same profile in two
    runs is then two units, checked against each other), else the profile.
    """
    df = rows
    if "player" in df:
        df = df[df["player"] == "solver"]
    df = df.copy()
    df["unit"] = df["label"] if "label" in df else df["profile"]
    return df


def _unit_pairs(df: pd.DataFrame) -> list[Relation]:
    """The related pairs of units, from their profiles."""
    profile_of = dict(zip(df["unit"].tolist(), df["profile"].tolist(), strict=True))
    out = []
    for a, b in itertools.permutations(profile_of, 2):
        rel = relation(profile_of[a], profile_of[b])
        if rel is not None:
            out.append(Relation(a, b, rel.arguments))
    return out


def _joined(df: pd.DataFrame, rel: Relation) -> pd.DataFrame:
    """The rows of both units on their common deals: columns ``*_s`` and ``*_l``."""
    cols = ["deal", "result", "banked"]
    s = df.loc[df["unit"] == rel.smaller, cols]
    lg = df.loc[df["unit"] == rel.larger, cols]
    return s.merge(lg, on="deal", suffixes=("_s", "_l"))


def _broken(j: pd.DataFrame) -> pd.Series:
    """Which joined rows contradict the relation.

    The smaller profile's banked is a lower bound of its best (exact when
    decided), which is at most the larger's best, which equals the larger's
    banked when decided: so banked under the smaller above a decided
    larger's is impossible. This covers smaller won / larger lost (52 above
    less than 52), and a won smaller against a decided larger below 52.
    """
    return (j["result_l"] != "unknown") & (j["banked_s"] > j["banked_l"])


def _kind(row: pd.Series) -> str:
    if row["result_s"] == "won" and row["result_l"] == "lost":
        return "won under the smaller, lost under the larger"
    return "banked under the smaller above the larger's exact count"


COMPARED_COLUMNS = ["deal", "smaller", "larger", "by"]


def contradictions(rows: pd.DataFrame) -> pd.DataFrame:
    """Every (deal, smaller, larger) where the rows break a relation.

    Parameters
    ----------
    rows : DataFrame
        Sweep rows (``deal``, ``profile``, ``result``, ``banked``; ``label``
        and ``player`` when present, as :func:`experiments.report.load_runs`
        gives them).

    Returns
    -------
    DataFrame
        Columns ``deal, smaller, larger, by, result_smaller, banked_smaller,
        result_larger, banked_larger, kind``; empty when the rows agree.
    """
    df = _solver_rows(rows)
    found = []
    for rel in _unit_pairs(df):
        j = _joined(df, rel)
        bad = j[_broken(j)]
        for _, r in bad.iterrows():
            found.append(
                {
                    "deal": int(r["deal"]),
                    "smaller": rel.smaller,
                    "larger": rel.larger,
                    "by": rel.by,
                    "result_smaller": r["result_s"],
                    "banked_smaller": int(r["banked_s"]),
                    "result_larger": r["result_l"],
                    "banked_larger": int(r["banked_l"]),
                    "kind": _kind(r),
                }
            )
    cols = COMPARED_COLUMNS + [
        "result_smaller",
        "banked_smaller",
        "result_larger",
        "banked_larger",
        "kind",
    ]
    out = pd.DataFrame(found, columns=cols).sort_values(["deal", "smaller", "larger"])
    return out.reset_index(drop=True)


def settled(rows: pd.DataFrame) -> pd.DataFrame:
    """The unknown rows that a related decided row settles.

    A win under the smaller profile settles the larger's unknown row as won;
    a loss under the larger settles the smaller's unknown row as lost. A row
    settled by several related rows appears once per pair.

    Returns
    -------
    DataFrame
        Columns ``deal, smaller, larger, by, unit, settled_as, source``:
        ``unit`` is the profile (or label) whose unknown row is settled,
        ``source`` the one whose decided row settles it (the smaller for a
        win, the larger for a loss).
    """
    df = _solver_rows(rows)
    found = []
    for rel in _unit_pairs(df):
        j = _joined(df, rel)
        won = j[(j["result_s"] == "won") & (j["result_l"] == "unknown")]
        lost = j[(j["result_l"] == "lost") & (j["result_s"] == "unknown")]
        for deals, unit, verdict, source in (
            (won, rel.larger, "won", rel.smaller),
            (lost, rel.smaller, "lost", rel.larger),
        ):
            for deal in deals["deal"]:
                found.append(
                    {
                        "deal": int(deal),
                        "smaller": rel.smaller,
                        "larger": rel.larger,
                        "by": rel.by,
                        "unit": unit,
                        "settled_as": verdict,
                        "source": source,
                    }
                )
    return pd.DataFrame(found, columns=COMPARED_COLUMNS + ["unit", "settled_as", "source"])


def with_settled(rows: pd.DataFrame, found: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows with every unknown row that a related row settles decided.

    A row settled won banks every card of its game (52, or 104 under two
    packs); a row settled lost keeps its banked, a lower bound of its best
    (the larger's count bounds it from above). A column ``settled_by`` names
    the profile (or label) whose row decided it, empty for every other row.

    Parameters
    ----------
    rows : DataFrame
        As for :func:`settled`.
    found : DataFrame, optional
        What :func:`settled` returns for ``rows`` (computed when not given).
    """
    found = settled(rows) if found is None else found
    out = rows.copy()
    out["settled_by"] = ""
    if found.empty:
        return out
    unit = out["label"] if "label" in out else out["profile"]
    solver = out["player"] == "solver" if "player" in out else True
    # a row settled by several related rows takes the first: all agree, or
    # the rows contradict each other and the report says so
    first = found.drop_duplicates(["deal", "unit"], keep="first")
    for deal, name, verdict, source in zip(
        first["deal"], first["unit"], first["settled_as"], first["source"], strict=True
    ):
        at = (out["deal"] == deal) & (unit == name) & solver & (out["result"] == "unknown")
        out.loc[at, "result"] = verdict
        out.loc[at, "settled_by"] = source
        if verdict == "won":
            cards = [parse_profile(p).cards for p in out.loc[at, "profile"]]
            out.loc[at, "banked"] = pd.Series(cards, dtype=out["banked"].dtype).to_numpy()
    return out


def pair_table(rows: pd.DataFrame) -> pd.DataFrame:
    """One line per related pair: deals compared, contradictions, rows settled.

    Columns ``smaller, larger, by, deals, decided_both, contradictions,
    larger_settled_won, smaller_settled_lost``.
    """
    return _pair_table(_solver_rows(rows), contradictions(rows), settled(rows))


def _pair_table(df: pd.DataFrame, bad: pd.DataFrame, done: pd.DataFrame) -> pd.DataFrame:
    out = []
    for rel in _unit_pairs(df):
        j = _joined(df, rel)
        here = (done["smaller"] == rel.smaller) & (done["larger"] == rel.larger)
        decided = (j["result_s"] != "unknown") & (j["result_l"] != "unknown")
        broken = (bad["smaller"] == rel.smaller) & (bad["larger"] == rel.larger)
        out.append(
            {
                "smaller": rel.smaller,
                "larger": rel.larger,
                "by": rel.by,
                "deals": len(j),
                "decided_both": int(decided.sum()),
                "contradictions": int(broken.sum()),
                "larger_settled_won": int((here & (done["settled_as"] == "won")).sum()),
                "smaller_settled_lost": int((here & (done["settled_as"] == "lost")).sum()),
            }
        )
    return pd.DataFrame(out)


def related_sections(
    rows: pd.DataFrame, bad: pd.DataFrame | None = None, done: pd.DataFrame | None = None
) -> list[tuple[str, pd.DataFrame]]:
    """The report's "Related profiles" section, and a contradiction list if any.

    The section has a line per related pair and a last line totalling them
    (its ``deals`` is the row pairs compared). A contradiction means a solver
    or engine bug (or damaged rows): the title says ``CONTRADICTION`` in
    capitals and a second table lists every one. The report's exit code
    stays 0 (docs/relations.md says why). ``bad`` and ``done`` are what
    :func:`contradictions` and :func:`settled` return for ``rows``, computed
    when not given.
    """
    bad = contradictions(rows) if bad is None else bad
    done = settled(rows) if done is None else done
    pairs = _pair_table(_solver_rows(rows), bad, done)
    if pairs.empty:
        return [("Related profiles: no two profiles of the runs are related", pairs)]
    # one leading "pair" column: a table cut to the terminal's width repeats it
    shown = pairs.drop(columns=["smaller", "larger"])
    shown.insert(0, "pair", pairs["smaller"] + " <= " + pairs["larger"])
    total = shown.drop(columns=["pair", "by"]).sum()
    shown.loc[len(shown)] = {"pair": f"all {len(pairs)} pairs", "by": "", **total}
    if bad.empty:
        distinct = len(done.drop_duplicates(["deal", "unit"]))
        head = f"Related profiles: no contradiction; {distinct} unknown rows settled"
        return [(head, shown)]
    return [
        (f"Related profiles: CONTRADICTION in {len(bad)} row pairs (listed below)", shown),
        ("CONTRADICTION: rows that break a relation (a solver or engine bug)", bad),
    ]


# ---- lines ---------------------------------------------------------------------

#: The moves a sequence step may add after the smaller's move: the draws that
#: finish a draw of three, and the fill of an emptied column from the reserve.
_COMPLETIONS = ("draw", "R>T")
_MAX_ADDED = 2  # a draw of three is the move and two more draws; a fill is one


def _table(pos: Position, keep_redeals: bool) -> dict:
    snap = pos.snapshot()
    if not keep_redeals:  # an unlimited profile keeps no count (docs/relations.md, passes)
        snap.pop("redeals")
    return snap


def _completed(big: Position, target: dict, keep: bool, added: int) -> list[str] | None:
    """The fewest completion moves (at most ``added``) that take ``big`` to ``target``."""
    if _table(big, keep) == target:
        return []
    if added == 0:
        return None
    tails = []
    for m in big.legal_moves():
        text = str(m)
        if text.startswith(_COMPLETIONS):
            rest = _completed(big.apply(m), target, keep, added - 1)
            if rest is not None:
                tails.append([text, *rest])
    return min(tails, key=len) if tails else None


def larger_start(start: Position, larger: str | Profile) -> Position:
    """``start``'s table under ``larger``, with its deal; under a ``selective``
    larger profile from the standard deal, with the pick of deal card 14
    (``layout``). Raises ``PositionError`` if ``larger`` cannot hold it."""
    large = parse_profile(larger)
    game = start.game
    pick = game.pick
    if large.layout == "selective" and pick is None and game.deal is not None:
        pick = game.deal[_STANDARD_BASE]
    snap = start.snapshot()
    if large.passes == UNLIMITED:  # an unlimited profile keeps no count
        snap["redeals"] = 0
    return Position.from_parts(
        large,
        **snap,
        deal=game.deal,
        deal_number=game.deal_number,
        pick=pick if large.layout == "selective" else None,
    )


def larger_line(start: Position, moves: Iterable[str], larger: str | Profile) -> list[str]:
    """A line of ``start``'s (smaller) profile written as a line of ``larger``.

    Each move is kept and, after a sequence step (``draw``, ``fill``), followed
    by the moves that reach the same table under ``larger``: the rest of a draw
    of three, or the reserve fill that ``fill=auto`` makes by itself. Every
    move is applied under both profiles (each raising on an illegal move), so
    the line returned is a line of ``larger`` through every position of the
    given one.

    Parameters
    ----------
    start : Position
        The deal or position under the smaller profile.
    moves : iterable of str
        A line of the smaller profile from ``start`` (its notation).
    larger : str or Profile
        A profile that ``start.profile`` is contained in.

    Returns
    -------
    list of str
        The line under ``larger``; ``moves`` itself when the relation adds no
        moves. Under a ``selective`` larger profile the line follows the pick
        of deal card 14, the standard deal's base card (``layout``).

    Raises
    ------
    ValueError
        If the profiles are not related, or a move of the line reaches a table
        that ``larger`` does not (a bug in the relation's argument).
    """
    rel = relation(start.profile, larger)
    if rel is None:
        raise ValueError(f"{start.profile.canonical()} is not contained in {larger}")
    keep = parse_profile(larger).passes != UNLIMITED
    big = larger_start(start, larger)
    most = 0 if rel.same_moves else _MAX_ADDED  # a containment of moves adds none
    small, out = start, []
    for i, m in enumerate(moves):
        small, big = small.apply(m), big.apply(m)
        added = _completed(big, _table(small, keep), keep, most)
        if added is None:
            raise ValueError(
                f"move {i + 1} ({m}): {big.profile.canonical()} does not reach its table"
            )
        for extra in added:
            big = big.apply(extra)
        out += [m, *added]
    return out


__all__ = [
    "LAYOUT_STEPS",
    "ONE_WAY",
    "ORDERS",
    "Relation",
    "SEQUENCE_STEPS",
    "contradictions",
    "larger_line",
    "larger_start",
    "pair_table",
    "related_pairs",
    "related_sections",
    "relation",
    "settled",
    "unrelated_reason",
    "with_settled",
]
