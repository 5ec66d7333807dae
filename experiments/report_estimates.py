"""The report's tables of the true win share and mean banked over all deals
(:mod:`canfield.experiments.estimate`) and of the escalation's cost per rung.

estimates
    Per solver label: proven won, proven lost and unknown (counts and % of all
    deals), the won share of decided deals, the bounds (unknown=lost ..
    unknown=won), the hard stratum (unknown after the sweep and the ladder),
    the subsample (solved, residual unknowns) and, with a finished subsample,
    the estimated true win share with its 95% interval in both residual cases
    and their union. The same for mean banked over all deals.
escalation
    Per run, profile and stage (the sweep, each rung, the subsample): rows
    attempted, rows decided there, seconds per row (median, p95, mean): CPU
    seconds of the attempts, solve (wall) seconds of the sweep.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from canfield.engine.profiles import parse_profile
from canfield.experiments.estimate import TwoPhase, mean_banked, win_share
from canfield.experiments.sweep.escalation_spec import nodes_text


def estimates_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per solver label (see the module doc); percentages are 0..100."""
    if df.empty or "phase1_result" not in df:
        return pd.DataFrame()
    rows = []
    for label in dict.fromkeys(df["label"]):
        g = df[df["label"] == label]
        if (g["player"] != "solver").any():
            continue
        hard = g["phase1_result"] == "unknown"
        drawn = int((g["in_subsample"] & hard).sum())
        solved = int((g["subsampled"] & g["in_subsample"] & hard).sum())
        finished = drawn > 0 and solved == drawn
        # an unfinished subsample is not a simple random sample yet: no estimate
        done = (
            (g["subsampled"] & g["in_subsample"]).to_numpy() if finished else np.zeros(len(g), bool)
        )
        won = win_share(g["phase1_result"], g["result"], done)
        # an unknown deal banks at most every card of its game (104 for double)
        cards = parse_profile(g["profile"].iloc[0]).cards
        banked = mean_banked(
            g["phase1_result"], g["result"], g["banked"], done, np.full(len(g), float(cards))
        )
        n = len(g)
        counts = {r: int((g["result"] == r).sum()) for r in ("won", "lost", "unknown")}
        decided = counts["won"] + counts["lost"]
        row = {
            "profile": label,
            "deals": n,
            "cards": cards,
            **{f"proven_{r}" if r != "unknown" else r: k for r, k in counts.items()},
            **{f"{r}_pct": 100 * k / n for r, k in counts.items()},
            "won_share_of_decided_pct": 100 * counts["won"] / decided if decided else math.nan,
            "hard": won.hard,
            "subsample_drawn": drawn,
            "subsample_solved": solved,
            "residual_unknown": won.residual if finished else 0,
        }
        row |= _columns("win", won, 100.0)
        row |= _columns("banked", banked, 1.0)
        rows.append(row)
    return pd.DataFrame(rows)


def _columns(name: str, r: TwoPhase, scale: float) -> dict[str, float]:
    """The bounds and both residual cases of ``r`` as numeric columns."""
    out = {f"{name}_bound_lo": scale * r.bounds[0], f"{name}_bound_hi": scale * r.bounds[1]}
    for case, e in (("low", r.low_case), ("high", r.high_case)):
        out[f"{name}_est_{case}"] = scale * e.value if e else math.nan
        out[f"{name}_lo_{case}"] = scale * e.low if e else math.nan
        out[f"{name}_hi_{case}"] = scale * e.high if e else math.nan
    union = r.union or (math.nan, math.nan)
    out[f"{name}_union_lo"], out[f"{name}_union_hi"] = scale * union[0], scale * union[1]
    return out


def estimates_display(t: pd.DataFrame, name: str) -> pd.DataFrame:
    """The ``win`` or ``banked`` half of :func:`estimates_table`, formatted."""
    if t.empty:
        return t
    pct = name == "win"
    digits = 1 if pct else 2
    unit = " %" if pct else ""
    out = {"profile": t["profile"], "deals": t["deals"]}
    if pct:
        for r, word in (("won", "proven won"), ("lost", "proven lost"), ("unknown", "unknown")):
            key = f"proven_{r}" if r != "unknown" else r
            out[f"{word} (% of all deals)"] = [
                f"{k} ({p:.1f}%)" for k, p in zip(t[key], t[f"{r}_pct"], strict=True)
            ]
        out["won share of decided deals %"] = [_fmt(x, 1) for x in t["won_share_of_decided_pct"]]
    worst, best = ("lost", "won") if pct else ("as banked", _every_card(t))
    out[f"bounds{unit} (unknown={worst} .. unknown={best})"] = [
        f"{_fmt(lo, digits)} .. {_fmt(hi, digits)}"
        for lo, hi in zip(t[f"{name}_bound_lo"], t[f"{name}_bound_hi"], strict=True)
    ]
    out["hard (unknown after sweep+ladder)"] = t["hard"]
    out["subsample: solved of drawn, residual unknown"] = [
        "none" if drawn == 0 else f"{s} of {drawn}, {r} residual"
        for s, drawn, r in zip(
            t["subsample_solved"], t["subsample_drawn"], t["residual_unknown"], strict=True
        )
    ]
    title = "estimated true win share % [95%]" if pct else "estimated mean banked, all deals [95%]"
    out[title] = [_estimate_cell(row, name, digits) for _, row in t.iterrows()]
    return pd.DataFrame(out)


def _every_card(t: pd.DataFrame) -> str:
    """Every card of the tables' games: ``52``, or ``52/104`` beside double."""
    return "/".join(str(c) for c in sorted(set(t["cards"])))


def _estimate_cell(row: pd.Series, name: str, digits: int) -> str:
    if math.isnan(row[f"{name}_est_low"]):
        if row["hard"] > 0 and row["subsample_drawn"] > row["subsample_solved"]:
            return "- (subsample unfinished: bounds only)"
        return "- (no subsample: bounds only)"

    def case(c: str) -> str:
        return (
            f"{_fmt(row[f'{name}_est_{c}'], digits)} "
            f"[{_fmt(row[f'{name}_lo_{c}'], digits)}, {_fmt(row[f'{name}_hi_{c}'], digits)}]"
        )

    if row["residual_unknown"] == 0:
        return case("low")
    worst, best = ("lost", "won") if name == "win" else ("as banked", str(row["cards"]))
    return (
        f"residual={worst}: {case('low')}; residual={best}: {case('high')}; "
        f"union [{_fmt(row[f'{name}_union_lo'], digits)}, {_fmt(row[f'{name}_union_hi'], digits)}]"
    )


def escalation_rows(rows: pd.DataFrame, attempts: pd.DataFrame, run: str) -> list[dict]:
    """The escalation table's rows of one run folder (see the module doc)."""
    if attempts.empty:
        return []
    out = []
    for prof in dict.fromkeys(rows["profile"]):
        g = rows[rows["profile"] == prof]
        out.append(
            _stage_row(run, prof, "sweep", g["budget_nodes"].iloc[0], g["result"], g["seconds"])
        )
        a = attempts[attempts["profile"] == prof]
        for (phase, rung), s in a.groupby(["phase", "rung"], sort=False):
            stage = f"rung {rung}" if phase == "ladder" else "subsample"
            out.append(
                _stage_row(
                    run,
                    prof,
                    stage,
                    s["budget_nodes"].iloc[0],
                    s["result"],
                    s["cpu_seconds"],
                    s["budget_seconds"].iloc[0],
                )
            )
    return out


def _stage_row(run, prof, stage, nodes, results, seconds, budget_seconds=None) -> dict:
    secs = np.asarray(seconds, dtype=float)
    has_nodes = nodes is not None and not (isinstance(nodes, float) and math.isnan(nodes))
    return {
        "run": run,
        "profile": prof,
        "stage": stage,
        "budget": nodes_text(int(nodes)) + " nodes" if has_nodes else f"{budget_seconds:g}s",
        "rows": len(secs),
        "decided": int((np.asarray(results) != "unknown").sum()),
        "seconds_median": float(np.median(secs)) if len(secs) else math.nan,
        "seconds_p95": float(np.percentile(secs, 95)) if len(secs) else math.nan,
        "seconds_mean": float(secs.mean()) if len(secs) else math.nan,
        "seconds_kind": "wall (solve)" if stage == "sweep" else "CPU",
    }


def escalation_display(t: pd.DataFrame) -> pd.DataFrame:
    """The escalation table, formatted."""
    if t.empty:
        return t
    return pd.DataFrame(
        {
            "profile": t["label"],
            "stage": t["stage"],
            "budget": t["budget"],
            "rows attempted": t["rows"],
            "decided here": [
                f"{d} ({100 * d / r:.1f}%)" if r else "0"
                for d, r in zip(t["decided"], t["rows"], strict=True)
            ],
            "s/row median": [_fmt(x, 3) for x in t["seconds_median"]],
            "s/row p95": [_fmt(x, 3) for x in t["seconds_p95"]],
            "s/row mean": [_fmt(x, 3) for x in t["seconds_mean"]],
            "seconds": t["seconds_kind"],
        }
    )


def _fmt(x: float, digits: int) -> str:
    return "-" if x is None or math.isnan(x) else f"{x:.{digits}f}"


__all__ = [
    "escalation_display",
    "escalation_rows",
    "estimates_display",
    "estimates_table",
]
