"""Win-rate tables from sweep rows.

Every table groups by ``label``: the canonical profile, or ``profile@run``
when several run folders hold the same profile. Unknown verdicts (a budget
ran out) are always counted and shown, never folded into lost.

Tables
------
summary
    Per profile: deals, won, lost, unknown; win % over decided deals with a
    95% Wilson interval, and the bounds when every unknown is counted lost
    (lower) or won (upper); mean banked over all deals and over lost deals,
    casino payout (5 per banked card minus 52), each with a 95% t interval.
paired
    Each pair of profiles on their common deals: both won, only A, only B,
    neither (over deals decided under both), McNemar exact and chi-square
    p-values, mean banked difference A - B with a 95% t interval.
by_base
    Win % over decided deals by base rank, per profile.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from experiments.stats import mcnemar_chi2, mcnemar_exact, mean_ci, wilson
from experiments.sweep import RunFolder, SweepError

RANKS = "A23456789TJQK"
#: Casino Canfield: the player pays 52 and gets 5 back per card banked.
CASINO_STAKE, CASINO_PER_CARD = 52, 5


def load_runs(paths: Iterable[str | os.PathLike]) -> pd.DataFrame:
    """Load run folders into one frame with ``run`` and ``label`` columns.

    Raises
    ------
    SweepError
        If a folder is not a run folder or holds a damaged part.
    """
    frames = []
    for i, p in enumerate(paths):
        folder = RunFolder(p)
        spec = folder.read_spec()
        df = folder.load()
        df["run"] = Path(p).name
        # Keep the sweep's profile order (run.json), then deal order.
        order = {prof: k for k, prof in enumerate(spec.profiles)}
        df["_order"] = [(i, order.get(prof, len(order))) for prof in df["profile"]]
        frames.append(df)
    if not frames:
        raise SweepError("no run folder given")
    df = pd.concat(frames, ignore_index=True)
    df = df.sort_values(["_order", "deal"], kind="stable").drop(columns="_order")
    df = df.reset_index(drop=True)
    runs_per_profile = df.groupby("profile")["run"].nunique()
    shared = set(runs_per_profile[runs_per_profile > 1].index)
    df["label"] = [f"{p}@{r}" if p in shared else p
                   for p, r in zip(df["profile"], df["run"], strict=True)]
    return df


def _labels(df: pd.DataFrame) -> list[str]:
    if "label" not in df:
        df["label"] = df["profile"]
    return list(dict.fromkeys(df["label"]))


def summary_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per profile (see the module docstring). Percentages are 0..100."""
    rows = []
    for label in _labels(df):
        g = df[df["label"] == label]
        n = len(g)
        won = int((g["result"] == "won").sum())
        lost = int((g["result"] == "lost").sum())
        unknown = int((g["result"] == "unknown").sum())
        decided = won + lost
        lo, hi = wilson(won, decided)
        lo_l, _ = wilson(won, n)
        _, hi_w = wilson(won + unknown, n)
        banked = g["banked"].to_numpy(float)
        mb, mb_lo, mb_hi = mean_ci(banked)
        ml, ml_lo, ml_hi = mean_ci(g.loc[g["result"] == "lost", "banked"].to_numpy(float))
        cas, cas_lo, cas_hi = mean_ci(CASINO_PER_CARD * banked - CASINO_STAKE)
        rows.append({
            "profile": label,
            "deals": n, "won": won, "lost": lost, "unknown": unknown,
            "win_pct": _pct(won, decided), "win_lo": 100 * lo, "win_hi": 100 * hi,
            "win_pct_unknown_lost": _pct(won, n), "win_lo_unknown_lost": 100 * lo_l,
            "win_pct_unknown_won": _pct(won + unknown, n), "win_hi_unknown_won": 100 * hi_w,
            "banked_mean": mb, "banked_lo": mb_lo, "banked_hi": mb_hi,
            "banked_lost_mean": ml, "banked_lost_lo": ml_lo, "banked_lost_hi": ml_hi,
            "casino_mean": cas, "casino_lo": cas_lo, "casino_hi": cas_hi,
            "seconds_mean": float(g["seconds"].mean()) if n else math.nan,
            "seconds_max": float(g["seconds"].max()) if n else math.nan,
        })
    return pd.DataFrame(rows)


def paired_table(df: pd.DataFrame, pairs: Sequence[tuple[str, str]] | None = None
                 ) -> pd.DataFrame:
    """Paired comparison of profiles on the deals both were run on."""
    labels = _labels(df)
    pairs = list(pairs) if pairs is not None else list(itertools.combinations(labels, 2))
    rows = []
    for a, b in pairs:
        ga = df[df["label"] == a].set_index("deal")
        gb = df[df["label"] == b].set_index("deal")
        common = ga.index.intersection(gb.index)
        ra, rb = ga.loc[common, "result"], gb.loc[common, "result"]
        decided = (ra != "unknown") & (rb != "unknown")
        wa, wb = (ra == "won")[decided], (rb == "won")[decided]
        both = int((wa & wb).sum())
        only_a = int((wa & ~wb).sum())
        only_b = int((~wa & wb).sum())
        neither = int((~wa & ~wb).sum())
        chi, p_chi = mcnemar_chi2(only_a, only_b)
        diff = ga.loc[common, "banked"].to_numpy(float) - gb.loc[common, "banked"].to_numpy(float)
        d, d_lo, d_hi = mean_ci(diff)
        rows.append({
            "a": a, "b": b, "common_deals": len(common),
            "decided_both": int(decided.sum()), "unknown_either": int((~decided).sum()),
            "both": both, "only_a": only_a, "only_b": only_b, "neither": neither,
            "mcnemar_exact_p": mcnemar_exact(only_a, only_b),
            "mcnemar_chi2": chi, "mcnemar_chi2_p": p_chi,
            "banked_diff_mean": d, "banked_diff_lo": d_lo, "banked_diff_hi": d_hi,
        })
    return pd.DataFrame(rows)


def by_base_table(df: pd.DataFrame) -> pd.DataFrame:
    """Win % over decided deals by base rank, one row per (profile, base rank)."""
    rows = []
    for label in _labels(df):
        g = df[df["label"] == label]
        for base in sorted(g["base_rank"].unique()):
            h = g[g["base_rank"] == base]
            won = int((h["result"] == "won").sum())
            lost = int((h["result"] == "lost").sum())
            unknown = int((h["result"] == "unknown").sum())
            lo, hi = wilson(won, won + lost)
            rows.append({
                "profile": label, "base_rank": int(base), "base": _rank_name(int(base)),
                "deals": len(h), "won": won, "lost": lost, "unknown": unknown,
                "win_pct": _pct(won, won + lost), "win_lo": 100 * lo, "win_hi": 100 * hi,
            })
    return pd.DataFrame(rows)


def _rank_name(base: int) -> str:
    # base_rank is the engine's rank index: 0..12 for A..K.
    return RANKS[base] if 0 <= base < 13 else str(base)


def _pct(k: int, n: int) -> float:
    return 100.0 * k / n if n else math.nan


# --------------------------------------------------------------------------- display


def _fmt(x: float, digits: int = 1) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _ival(m: float, lo: float, hi: float, digits: int = 1) -> str:
    if math.isnan(m):
        return "-"
    if math.isnan(lo):
        return _fmt(m, digits)
    return f"{_fmt(m, digits)} [{_fmt(lo, digits)}, {_fmt(hi, digits)}]"


def _pvalue(p: float) -> str:
    return f"{p:.2e}" if p < 1e-3 else f"{p:.3f}"


def summary_display(s: pd.DataFrame) -> pd.DataFrame:
    """The summary table with intervals formatted as ``x [lo, hi]``."""
    out = pd.DataFrame({
        "profile": s["profile"], "deals": s["deals"], "won": s["won"], "lost": s["lost"],
        "unknown": s["unknown"],
        "win % (decided) [95% Wilson]": [
            _ival(m, lo, hi) for m, lo, hi in zip(s["win_pct"], s["win_lo"], s["win_hi"],
                                                   strict=True)],
        "win % bounds (unknown=lost .. unknown=won)": [
            f"{_fmt(lo)} .. {_fmt(hi)}" for lo, hi in zip(s["win_lo_unknown_lost"],
                                                         s["win_hi_unknown_won"], strict=True)],
        "mean banked [95%]": [
            _ival(m, lo, hi, 2) for m, lo, hi in zip(s["banked_mean"], s["banked_lo"],
                                                      s["banked_hi"], strict=True)],
        "mean banked, lost [95%]": [
            _ival(m, lo, hi, 2) for m, lo, hi in zip(s["banked_lost_mean"], s["banked_lost_lo"],
                                                      s["banked_lost_hi"], strict=True)],
        "casino payout $ [95%]": [
            _ival(m, lo, hi, 2) for m, lo, hi in zip(s["casino_mean"], s["casino_lo"],
                                                      s["casino_hi"], strict=True)],
    })
    return out


def paired_display(p: pd.DataFrame) -> pd.DataFrame:
    """The paired table, formatted."""
    if p.empty:
        return p
    return pd.DataFrame({
        "A": p["a"], "B": p["b"], "deals": p["common_deals"],
        "unknown in either": p["unknown_either"],
        "both won": p["both"], "only A": p["only_a"], "only B": p["only_b"],
        "neither": p["neither"],
        "McNemar exact p": [_pvalue(x) for x in p["mcnemar_exact_p"]],
        "chi2 (cc)": [_fmt(x, 2) for x in p["mcnemar_chi2"]],
        "chi2 p": [_pvalue(x) for x in p["mcnemar_chi2_p"]],
        "banked A-B [95%]": [
            _ival(m, lo, hi, 2) for m, lo, hi in zip(p["banked_diff_mean"], p["banked_diff_lo"],
                                                      p["banked_diff_hi"], strict=True)],
    })


def by_base_display(t: pd.DataFrame) -> pd.DataFrame:
    """Win % (decided) by base rank: a row per base, a column per profile."""
    if t.empty:
        return t
    t = t.copy()
    t["cell"] = [
        f"{_fmt(w)} ({won}/{won + lost}{f', {u}?' if u else ''})"
        for w, won, lost, u in zip(t["win_pct"], t["won"], t["lost"], t["unknown"], strict=True)
    ]
    wide = t.pivot(index=["base_rank", "base"], columns="profile", values="cell")
    wide = wide[list(dict.fromkeys(t["profile"]))].reset_index().drop(columns="base_rank")
    wide.columns.name = None
    return wide.fillna("-")


def to_markdown(df: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table (no extra dependency)."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |")
    return "\n".join(lines)


@dataclass
class Report:
    """All tables of a report, raw (numbers) and for display (strings)."""

    summary: pd.DataFrame
    paired: pd.DataFrame
    by_base: pd.DataFrame
    runs: list[str]

    def sections(self) -> list[tuple[str, pd.DataFrame]]:
        return [
            ("Win rate per profile", summary_display(self.summary)),
            ("Paired comparison (won/lost over deals decided under both)",
             paired_display(self.paired)),
            ("Win % by base rank (decided deals; n? = unknown)", by_base_display(self.by_base)),
        ]

    def to_text(self) -> str:
        out = [f"runs: {', '.join(self.runs)}"]
        for title, table in self.sections():
            out += ["", title, "=" * len(title)]
            out.append(table.to_string(index=False) if not table.empty else "(none)")
        return "\n".join(out)

    def to_markdown(self) -> str:
        out = ["# Canfield win rates", "", f"Runs: {', '.join(self.runs)}.",
               "Intervals are 95%: Wilson for win rates, Student t for means. Unknown "
               "verdicts (budget ran out) are never counted as lost; banked for an unknown "
               "deal is a lower bound."]
        for title, table in self.sections():
            out += ["", f"## {title}", ""]
            out.append(to_markdown(table) if not table.empty else "(none)")
        return "\n".join(out) + "\n"

    def write(self, out_dir: str | os.PathLike) -> list[Path]:
        """Write ``report.md`` and ``summary.csv``, ``paired.csv``, ``by_base.csv``."""
        d = Path(out_dir)
        d.mkdir(parents=True, exist_ok=True)
        paths = [d / "report.md", d / "summary.csv", d / "paired.csv", d / "by_base.csv"]
        paths[0].write_text(self.to_markdown())
        self.summary.to_csv(paths[1], index=False)
        self.paired.to_csv(paths[2], index=False)
        self.by_base.to_csv(paths[3], index=False)
        return paths


def build_report(df: pd.DataFrame) -> Report:
    """All tables for the rows ``df`` (from :func:`load_runs`)."""
    df = df.copy()
    runs = list(dict.fromkeys(df["run"])) if "run" in df else []
    return Report(summary_table(df), paired_table(df), by_base_table(df), runs)


__all__ = [
    "Report", "build_report", "by_base_table", "load_runs", "paired_table", "summary_table",
    "to_markdown",
]
