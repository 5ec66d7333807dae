"""Plots of sweep rows (matplotlib object API, no GUI), each saved as PNG and SVG.

- ``winrate``: win % over decided deals per profile with 95% Wilson intervals;
- ``banked``: distribution of cards banked per profile;
- ``solve_time_cdf``: cumulative distribution of the solver's time to a
  verdict per profile (blind players' rows left out: their times are game
  lengths);
- ``winrate_by_base``: win % by base rank per profile, with intervals;
- ``true_share``: per profile, the proven bounds (unknown counted lost ..
  won), the won share of decided deals, and, where an escalation's subsample
  makes one (``docs/statistics.md``), the estimated true share of all deals
  with its 95% interval in both residual cases.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from canfield.engine.cards import RANKS
from canfield.engine.profiles import parse_profile
from canfield.experiments.report import by_base_table, summary_table
from canfield.experiments.report_estimates import estimates_table
from canfield.experiments.text_tables import fmt_number

FORMATS = ("png", "svg")


def _labels(df: pd.DataFrame) -> list[str]:
    if "label" not in df:
        df = df.assign(label=df["profile"])
    return list(dict.fromkeys(df["label"]))


def plot_winrate(df: pd.DataFrame) -> Figure:
    """Bar chart of win % (decided deals) per profile with Wilson intervals."""
    s = summary_table(df)
    fig = Figure(figsize=(max(5.0, 1.4 * len(s) + 2), 4.5))
    ax = fig.subplots()
    x = np.arange(len(s))
    y = s["win_pct"].to_numpy(float)
    err = np.vstack([y - s["win_lo"].to_numpy(float), s["win_hi"].to_numpy(float) - y])
    ax.bar(x, y, color="tab:blue", alpha=0.8)
    ax.errorbar(x, y, yerr=err, fmt="none", ecolor="black", capsize=6)
    for xi, yi, u in zip(x, y, s["unknown"], strict=True):
        note = f"{yi:.1f}%" + (f"\n{u} unknown" if u else "")
        ax.annotate(
            note,
            (xi, 0),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=8,
            color="white",
        )
    ax.set_xticks(x, s["profile"], rotation=15, ha="right")
    ax.set_ylim(0, 100)
    ax.set_ylabel("win % of decided deals (95% Wilson interval)")
    ax.set_xlabel("profile/player" if (s["player"] != "solver").any() else "profile")
    ax.set_title(f"Canfield win rate per profile ({int(s['deals'].max()) if len(s) else 0} deals)")
    fig.tight_layout()
    return fig


def plot_banked(df: pd.DataFrame) -> Figure:
    """Histogram (step) of cards banked, one line per profile."""
    fig = Figure(figsize=(7, 4.5))
    ax = fig.subplots()
    every = max(parse_profile(p).cards for p in df["profile"].unique()) if len(df) else 52
    bins = np.arange(0, every + 2) - 0.5
    for label in _labels(df):
        b = df.loc[df.get("label", df["profile"]) == label, "banked"].to_numpy(float)
        ax.hist(
            b,
            bins=bins,
            histtype="step",
            linewidth=1.5,
            label=label,
            weights=np.full(b.size, 100.0 / max(b.size, 1)),
        )
    ax.set_xlabel(
        f"cards banked ({'52 or 104' if every > 52 else '52'} = won; a lower bound when unknown)"
    )
    ax.set_ylabel("% of deals")
    ax.set_title("Cards banked per deal")
    ax.set_xlim(-1, every + 1)
    ax.legend()
    fig.tight_layout()
    return fig


def plot_time_cdf(df: pd.DataFrame) -> Figure:
    """Share of deals decided (won or lost) within a time, per profile (log time axis).

    Unknown deals never count as decided, so a curve ends at the decided share.
    Only the solver's rows are drawn: a blind player's time is the length of
    its game, not the time to a verdict.
    """
    fig = Figure(figsize=(7, 4.5))
    ax = fig.subplots()
    if "player" in df:
        df = df[df["player"] == "solver"]
    if df.empty:
        ax.text(0.5, 0.5, "no solver rows", ha="center", va="center", transform=ax.transAxes)
    for label in _labels(df):
        g = df[df.get("label", df["profile"]) == label]
        t = np.sort(g.loc[g["result"] != "unknown", "seconds"].to_numpy(float))
        if len(g) == 0:
            continue
        t = np.maximum(np.concatenate([t[:1], t]), 1e-5)
        y = 100.0 * np.arange(0, t.size) / len(g)
        ax.step(t, y, where="post", label=label)
    budget = df["budget_seconds"].dropna()
    if len(budget):
        ax.axvline(float(budget.iloc[0]), color="grey", linestyle="--", label="time budget")
    ax.set_xscale("log")
    ax.set_xlabel("solver time (s, log scale)")
    ax.set_ylabel("% of deals decided (won or lost) within time")
    ax.set_ylim(0, 100)
    ax.set_title("Solver's time to a verdict, cumulative (unknowns never decided)")
    if ax.get_legend_handles_labels()[0]:
        ax.legend()
    fig.tight_layout()
    return fig


def plot_by_base(df: pd.DataFrame) -> Figure:
    """Win % (decided) by base rank, one line per profile, with Wilson intervals."""
    t = by_base_table(df)
    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    labels = list(dict.fromkeys(t["profile"])) if len(t) else []
    width = 0.8 / max(len(labels), 1)
    for i, label in enumerate(labels):
        g = t[t["profile"] == label]
        x = g["base_rank"].to_numpy(float) + (i - (len(labels) - 1) / 2) * width
        y = g["win_pct"].to_numpy(float)
        err = np.vstack([y - g["win_lo"].to_numpy(float), g["win_hi"].to_numpy(float) - y])
        ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, label=label)
    ax.set_xticks(range(13), list(RANKS))
    ax.set_xlabel("base rank (first foundation card)")
    ax.set_ylabel("win % of decided deals (95% Wilson)")
    ax.set_ylim(0, 100)
    ax.set_title("Win rate by base rank")
    if labels:
        ax.legend()
    fig.tight_layout()
    return fig


def plot_true_share(df: pd.DataFrame) -> Figure:
    """Per profile: what is proven, what the decided deals say, and the estimate.

    The grey bar runs from the proven won share (every unknown deal lost) to
    the share with every unknown deal won; the open circle is the won share
    of the decided deals (biased where the unknown deals differ); the black
    line and dots are the estimated true share of all deals with residual
    unknowns lost and won, the line their union of 95% intervals. Profiles
    whose escalation has no finished subsample show the bounds alone.
    """
    s = summary_table(df)
    est = estimates_table(df)
    est = est.set_index("profile") if not est.empty else est
    fig = Figure(figsize=(max(5.5, 1.5 * len(s) + 2), 4.8))
    ax = fig.subplots()
    x = np.arange(len(s))
    lo, hi = s["win_pct_unknown_lost"].to_numpy(float), s["win_pct_unknown_won"].to_numpy(float)
    ax.bar(x, hi - lo, bottom=lo, width=0.5, color="0.82", label="proven bounds")
    ax.plot(x, s["win_pct"], "o", mfc="none", mec="tab:blue", label="won share of decided deals")
    shown = False
    for xi, label in zip(x, s["profile"], strict=True):
        if est.empty or label not in est.index or np.isnan(est.at[label, "win_union_lo"]):
            continue
        e = est.loc[label]
        ax.vlines(xi, e["win_union_lo"], e["win_union_hi"], color="black", lw=2.5)
        cases = sorted({e["win_est_low"], e["win_est_high"]})
        ax.plot([xi] * len(cases), cases, "k_", ms=14, mew=2.5)
        low, high = fmt_number(e["win_est_low"]), fmt_number(e["win_est_high"])
        text = (low if low == high else f"{low}..{high}") + (
            f" [{fmt_number(e['win_union_lo'])}, {fmt_number(e['win_union_hi'])}]"
        )
        ax.annotate(
            text,
            (xi, e["win_union_hi"]),
            xytext=(8, 0),
            textcoords="offset points",
            fontsize=8,
            va="center",
        )
        shown = True
    if shown:
        ax.plot([], [], "k-", lw=2.5, label="estimated true share, 95% (both residual cases)")
    span = np.concatenate([lo, hi])
    span = span[np.isfinite(span)]
    bottom = max(0.0, 5 * np.floor(span.min() / 5) - 5) if len(span) else 0.0
    ax.set_ylim(bottom, 100)
    ax.set_xticks(x, s["profile"], rotation=15, ha="right")
    ax.set_ylabel("win % of all deals")
    ax.set_xlabel("profile")
    ax.set_title(f"Winnable share ({int(s['deals'].max()) if len(s) else 0:,} deals)")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


PLOTS = {
    "winrate": plot_winrate,
    "banked": plot_banked,
    "solve_time_cdf": plot_time_cdf,
    "winrate_by_base": plot_by_base,
    "true_share": plot_true_share,
}


def write_plots(df: pd.DataFrame, out_dir: str | os.PathLike) -> list[Path]:
    """Draw every plot in :data:`PLOTS` and save each as PNG and SVG."""
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, fn in PLOTS.items():
        fig = fn(df)
        for fmt in FORMATS:
            path = d / f"{name}.{fmt}"
            fig.savefig(path, dpi=120)
            paths.append(path)
    return paths
