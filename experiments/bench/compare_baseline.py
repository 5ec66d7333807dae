"""Our solver's verdicts against another solver's, deal by deal.

Run: ``canfield compare results/bench/solver.csv
results/baselines/solvitaire-exact-strict-deals-0-199.csv ...``

Each baseline CSV has ``deal, profile, result`` (``won``/``lost``/``unknown``)
and optionally ``wall_seconds`` and ``states``; ours is the benchmark CSV of
``canfield bench solver``. For each baseline it prints the verdicts of both,
the deals only one of them decided, and the contradictions (won by one, lost
by the other): a contradiction is a bug in one of the two solvers.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path

import pandas as pd

from canfield.engine.deals import MAX_DEAL
from canfield.engine.profiles import ProfileError, parse_profile

RESULTS = {"won", "lost", "unknown"}
#: The columns both CSVs need.
NEEDED = {"profile", "deal", "result"}
#: The optional columns that :func:`compare` reads as numbers.
NUMBERS = {"wall_seconds", "states", "nodes", "seconds"}


class VerdictsError(ValueError):
    """A verdicts CSV that cannot be read or lacks what a comparison needs."""


def read_verdicts(path: Path) -> pd.DataFrame:
    """The verdicts CSV at ``path``, every line checked.

    A comparison merges the two files on (profile, deal) and counts what
    matched, so a line it cannot key or count is refused rather than
    dropped or counted twice: each line needs a deal number, a profile
    that parses and a result of won, lost or unknown, and names a
    (profile, deal) no other line names. Profiles are compared as their
    canonical names, so ``strict`` and ``strict:draw=3`` are one profile.
    Blank lines are skipped.

    Parameters
    ----------
    path : Path
        Our benchmark CSV or a baseline's.

    Returns
    -------
    pandas.DataFrame
        The file's rows; ``deal`` as ``uint64``, ``profile`` canonical.

    Raises
    ------
    VerdictsError
        If the file cannot be read, lacks a column of ``NEEDED``, has a bad
        line (named with its number, what is wrong, and how many lines are
        bad) or repeats a (profile, deal).
    """
    try:
        # every field as written, so a bad value is shown as it is in the file
        text = pd.read_csv(path, dtype=str, keep_default_na=False)
    except (OSError, ValueError) as exc:
        raise VerdictsError(f"cannot read {path}: {exc}") from None
    missing = NEEDED - set(text.columns)
    if missing:
        raise VerdictsError(f"{path} lacks the column(s) {', '.join(sorted(missing))}")
    lines = _line_numbers(path, len(text))
    deals, profiles, problems = [], [], []
    for i, (deal, prof, result) in enumerate(
        zip(text["deal"], text["profile"], text["result"], strict=True)
    ):
        number, why_deal = _deal(deal)
        canonical, why_profile = _profile(prof)
        deals.append(number)
        profiles.append(canonical)
        why = why_deal or why_profile or _result(result)
        if why:
            problems.append(f"{lines[i]}: {why}")
    if problems:
        more = f" ({len(problems)} bad lines)" if len(problems) > 1 else ""
        raise VerdictsError(f"{path}, {problems[0]}{more}")
    keys = pd.DataFrame({"profile": profiles, "deal": pd.array(deals, dtype="uint64")})
    twice = keys.duplicated(keep=False)
    if twice.any():
        prof, deal = keys[twice].iloc[0]
        same = (keys["profile"] == prof) & (keys["deal"] == deal)
        where = ", ".join(lines[i] for i in keys.index[same])
        raise VerdictsError(f"{path} lists deal {deal} of profile {prof} more than once ({where})")
    df = text.copy()
    df["deal"], df["profile"] = keys["deal"], keys["profile"]
    for column in NUMBERS & set(df.columns):
        # the counts and times compare() sums: a field that is not a number is
        # named, not summed as text
        values = pd.to_numeric(df[column], errors="coerce")  # an empty field: NaN
        bad = values.isna() & (df[column].str.strip() != "")
        if bad.any():
            i = int(bad.to_numpy().nonzero()[0][0])
            raise VerdictsError(
                f"{path}, {lines[i]}: {column} {df[column].iloc[i]!r} is not a number"
            )
        df[column] = values
    return df


def _line_numbers(path: Path, rows: int) -> list[str]:
    """Where each of the CSV's ``rows`` data rows starts: ``line N``, or
    ``row N`` when the text does not split into that many rows."""
    starts = []
    try:
        with open(path, newline="", encoding="utf-8", errors="replace") as fh:
            reader = csv.reader(fh)
            end = 0
            for record in reader:
                # a line of nothing but spaces holds no row (pandas skips it)
                if len(record) > 1 or (record and record[0].strip()):
                    starts.append(end + 1)
                end = reader.line_num
    except (OSError, csv.Error):
        starts = []
    if len(starts) == rows + 1:  # the header, then one start a row
        return [f"line {n}" for n in starts[1:]]
    return [f"row {i + 1}" for i in range(rows)]


def _deal(text: str) -> tuple[int, str | None]:
    """A line's deal number, or why it has none."""
    stripped = text.strip()
    if not stripped:
        return 0, "no deal"
    if stripped.isascii() and stripped.isdigit() and int(stripped) < MAX_DEAL:
        return int(stripped), None
    return 0, f"deal {text!r} is not a deal number (0 to 2^64-1)"


@functools.cache
def _profile(text: str) -> tuple[str, str | None]:
    """A line's profile as its canonical name, or why it names none."""
    if not text.strip():
        return "", "no profile"  # parse_profile would read an empty one as strict
    try:
        return parse_profile(text).canonical(), None
    except ProfileError as exc:
        return "", str(exc)


def _result(text: str) -> str | None:
    """Why a line's result is not one of won, lost and unknown, or None."""
    if not text:
        return "no result"
    if text not in RESULTS:
        return f"result {text!r} is not won, lost or unknown"
    return None


def compare(ours: pd.DataFrame, theirs: pd.DataFrame) -> dict:
    """Counts for the deals of ``theirs`` that ``ours`` has under the same profile."""
    m = theirs.merge(ours, on=["profile", "deal"], suffixes=("_theirs", "_ours"))
    a, b = m["result_ours"], m["result_theirs"]
    decided_a, decided_b = a != "unknown", b != "unknown"
    out = {
        "profile": ",".join(sorted(set(m["profile"]))),
        "deals": len(m),
        "ours": a.value_counts().reindex(sorted(RESULTS), fill_value=0).to_dict(),
        "theirs": b.value_counts().reindex(sorted(RESULTS), fill_value=0).to_dict(),
        "only_ours_decided": int((decided_a & ~decided_b).sum()),
        "only_theirs_decided": int((decided_b & ~decided_a).sum()),
        "contradictions": sorted(int(d) for d in m.loc[decided_a & decided_b & (a != b), "deal"]),
    }
    if "states" in theirs and "wall_seconds" in theirs:
        out["theirs_states_per_s"] = float(theirs["states"].sum() / theirs["wall_seconds"].sum())
    if "nodes" in ours and "seconds" in ours:
        mine = ours[ours["profile"].isin(set(m["profile"]))]
        out["ours_states_per_s"] = float(mine["nodes"].sum() / mine["seconds"].sum())
    return out


def summary_line(name: str, c: dict) -> str:
    """One line of :func:`compare`'s counts for the baseline file ``name``."""
    rate = ""
    if "theirs_states_per_s" in c:
        rate = (
            f"; states/s ours {c.get('ours_states_per_s', 0):,.0f}, "
            f"theirs {c['theirs_states_per_s']:,.0f}"
        )
    return (
        f"{name}: {c['profile']} {c['deals']} deals; ours {c['ours']}, theirs "
        f"{c['theirs']}; decided only by us {c['only_ours_decided']}, only by them "
        f"{c['only_theirs_decided']}; contradictions {len(c['contradictions'])} "
        f"{c['contradictions'] or ''}{rate}"
    )
