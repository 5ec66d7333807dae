"""The report's tables of the true win share and mean banked over all deals
(:mod:`canfield.experiments.estimate`) and of the escalation's cost per rung.

estimates
    Per solver label: proven won, proven lost and unknown (counts and % of all
    deals), the won share of decided deals, the bounds (unknown=lost ..
    unknown=won), the hard stratum (unknown after the sweep and the ladder;
    rows an unfinished ladder has not tried at every rung are counted apart, in
    ``ladder_untried``, and leave no estimate),
    the subsample (solved, still unknown after it), the residue sample of the
    third phase (solved, still unknown after it) and, with a finished
    subsample (and residue sample, when one is drawn), the estimated true win
    share with its 95% interval in both residual cases and their union, and
    how many phases it used. The same for mean banked over all deals.
escalation
    Per run, profile and stage (the sweep, each rung, the subsample, the
    residue sample, each retry of a sample): rows searched, rows decided there by the search, rows
    settled from a related profile's row without a search (solves saved), seconds
    per searched row (median, p95, mean) and hours in all: CPU seconds of the
    attempts, solve (wall) seconds of the sweep.

An interrupted ``canfield escalate`` leaves a stage (a rung, a sample, a
retry) with rows not yet tried: :func:`escalation_stages` counts them, for the
report's warning, and :func:`ladder_untried` names the rows the ladder has not
tried at every rung, which the estimates table keeps out of the hard stratum.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from canfield.engine.profiles import parse_profile
from canfield.experiments.estimate import TwoPhase, mean_banked, win_share
from canfield.experiments.sweep.attempts import RELATION_PREFIX
from canfield.experiments.sweep.escalation import stage_plans
from canfield.experiments.sweep.escalation_spec import EscalationSpec, nodes_text
from canfield.experiments.sweep.spec import parse_solver_options
from canfield.experiments.text_tables import fmt_number as _fmt

#: The report's section titles of the two estimate tables.
ESTIMATE_TITLES = {
    "win": "True win share over all deals (two- or three-phase estimate, docs/statistics.md)",
    "banked": "Mean banked over all deals (two- or three-phase estimate, docs/statistics.md)",
}


Row = tuple[int, str]


@dataclass(frozen=True)
class StageCount:
    """How many of the rows one escalation stage is to try it has tried.

    ``todo`` is None for a sample recorded in ``escalate.json`` but not drawn
    yet (its rows are not known).
    """

    stage: str
    tried: int
    todo: int | None

    @property
    def unfinished(self) -> bool:
        """Whether some row of the stage has no attempt yet."""
        return self.todo is None or self.tried < self.todo

    def text(self) -> str:
        """E.g. ``rung 2 (3M nodes) tried 4 of 13 rows``."""
        if self.todo is None:
            return f"{self.stage} not drawn yet"
        return f"{self.stage} tried {self.tried} of {self.todo} rows"


def ladder_untried(
    rows: pd.DataFrame, attempts: pd.DataFrame, spec: EscalationSpec | None
) -> set[Row]:
    """The (deal, profile) rows still unknown after every attempt that a rung
    of the ladder was to try and has not: not "unknown after the ladder" yet.

    Parameters
    ----------
    rows : DataFrame
        The sweep's rows (:meth:`.sweep.store.RunFolder.load`).
    attempts : DataFrame
        The run's attempts (:meth:`.sweep.attempts.AttemptStore.load`).
    spec : EscalationSpec or None
        The run's ``escalate.json``; None when it was never escalated.
    """
    if spec is None:
        return set()
    untried: set[Row] = set()
    for stage in stage_plans(spec, rows, attempts):
        if stage.phase == "ladder":
            todo = {(d, p) for p, deals in stage.todo.items() for d in deals}
            untried |= todo - stage.tried(attempts)
    # a row some later attempt decided is no longer unknown, tried or not
    decided = attempts[attempts["result"] != "unknown"]
    return untried - set(
        zip(decided["deal"].astype("int64").tolist(), decided["profile"].tolist(), strict=True)
    )


def escalation_stages(
    rows: pd.DataFrame, attempts: pd.DataFrame, spec: EscalationSpec | None
) -> list[StageCount]:
    """Every stage ``escalate.json`` asks for (each rung, the subsample, the
    residue sample, each retry), with how many of its rows it has tried
    (the stages as the escalation itself plans them,
    :func:`.sweep.escalation.stage_plans`).

    Parameters are those of :func:`ladder_untried`.
    """
    if spec is None:
        return []
    return [
        StageCount(
            f"{stage.label} ({stage.budget.text()})",
            len(stage.tried(attempts)),
            None if stage.todo is None else stage.size(),
        )
        for stage in stage_plans(spec, rows, attempts)
    ]


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
        in_sub = (g["subsampled"] & g["in_subsample"] & hard).to_numpy()
        left = in_sub & (g["phase2_result"] == "unknown").to_numpy()
        res_drawn = int((g["in_residue_sample"].to_numpy() & left).sum())
        res_solved = int((g["in_residue_sample"] & g["residue_solved"]).to_numpy()[left].sum())
        if res_drawn > res_solved:
            finished = False  # an unfinished residue sample is not a random sample yet
        # a row a rung has not tried yet is not hard: the stratum is not final
        untried = int((g["ladder_untried"] & hard).sum()) if "ladder_untried" in g else 0
        if untried:
            finished = False
        # an unfinished subsample is not a simple random sample yet: no estimate
        done = in_sub if finished else np.zeros(len(g), bool)
        third = (g["in_residue_sample"] & g["residue_solved"]).to_numpy() if res_drawn else None
        phases = {"phase2": g["phase2_result"].to_numpy(), "residue": third}
        won = win_share(g["phase1_result"], g["result"], done, **phases)
        banked = mean_banked(
            g["phase1_result"], g["result"], g["banked"], done, g["banked_upper"], **phases
        )
        # an unknown deal banks at most every card of its game (104 for double)
        cards = parse_profile(g["profile"].iloc[0]).cards
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
            "hard": won.hard - untried,
            "ladder_untried": untried,
            "subsample_drawn": drawn,
            "subsample_solved": solved,
            "subsample_residual": int(left.sum()),
            "residue_drawn": res_drawn,
            "residue_solved": res_solved,
            "residual_unknown": won.residual if finished else 0,
            "phases": won.phases if won.low_case is not None else 0,
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
                f"{k} ({_fmt(p, 1)}%)" for k, p in zip(t[key], t[f"{r}_pct"], strict=True)
            ]
        out["won share of decided deals %"] = [_fmt(x, 1) for x in t["won_share_of_decided_pct"]]
    worst, best = ("lost", "won") if pct else ("as banked", _every_card(t))
    out[f"bounds{unit} (unknown={worst} .. unknown={best})"] = [
        f"{_fmt(lo, digits)} .. {_fmt(hi, digits)}"
        for lo, hi in zip(t[f"{name}_bound_lo"], t[f"{name}_bound_hi"], strict=True)
    ]
    untried = t["ladder_untried"] if "ladder_untried" in t else [0] * len(t)
    out["hard (unknown after sweep+ladder)"] = [
        h if u == 0 else f"{h} (+{u} not yet tried: ladder unfinished)"
        for h, u in zip(t["hard"], untried, strict=True)
    ]
    out["subsample (phase 2): solved of drawn, still unknown"] = [
        "none" if drawn == 0 else f"{s} of {drawn}, {r} still unknown"
        for s, drawn, r in zip(
            t["subsample_solved"], t["subsample_drawn"], t["subsample_residual"], strict=True
        )
    ]
    out["residue sample (phase 3): solved of drawn, still unknown"] = [
        "none" if drawn == 0 else f"{s} of {drawn}, {r} still unknown"
        for s, drawn, r in zip(
            t["residue_solved"], t["residue_drawn"], t["residual_unknown"], strict=True
        )
    ]
    out["phases"] = ["-" if k == 0 else str(k) for k in t["phases"]]
    title = "estimated true win share % [95%]" if pct else "estimated mean banked, all deals [95%]"
    out[title] = [_estimate_cell(row, name, digits) for _, row in t.iterrows()]
    return pd.DataFrame(out)


def _every_card(t: pd.DataFrame) -> str:
    """Every card of the tables' games: ``52``, or ``52/104`` beside double."""
    return "/".join(str(c) for c in sorted(set(t["cards"])))


def _estimate_cell(row: pd.Series, name: str, digits: int) -> str:
    if math.isnan(row[f"{name}_est_low"]):
        if row.get("ladder_untried", 0) > 0:
            return "- (ladder unfinished: bounds only)"
        if row["hard"] > 0 and row["subsample_drawn"] > row["subsample_solved"]:
            return "- (subsample unfinished: bounds only)"
        if row["residue_drawn"] > row["residue_solved"]:
            return "- (residue sample unfinished: bounds only)"
        return "- (no subsample: bounds only)"

    def case(c: str) -> str:
        return (
            f"{_fmt(row[f'{name}_est_{c}'], digits)} "
            f"[{_fmt(row[f'{name}_lo_{c}'], digits)}, {_fmt(row[f'{name}_hi_{c}'], digits)}]"
        )

    # banked's two cases also differ where a related profile settled a loss
    # (its banked is bounded, not known: docs/statistics.md)
    same = all(row[f"{name}_{k}_low"] == row[f"{name}_{k}_high"] for k in ("est", "lo", "hi"))
    if row["residual_unknown"] == 0 and same:
        return case("low")
    worst, best = ("lost", "won") if name == "win" else ("as banked", str(row["cards"]))
    return (
        f"residual={worst}: {case('low')}; residual={best}: {case('high')}; "
        f"union [{_fmt(row[f'{name}_union_lo'], digits)}, {_fmt(row[f'{name}_union_hi'], digits)}]"
    )


def _turn_label(attempts: pd.DataFrame) -> str:
    """', turn T' when a retry's rows searched in a turned order, else ''."""
    if "solver_options" not in attempts:
        return ""
    turns = {parse_solver_options(o)["turn"] for o in attempts["solver_options"].dropna()}
    turns.discard(0)
    return f", turn {', '.join(map(str, sorted(turns)))}" if turns else ""


def escalation_rows(rows: pd.DataFrame, attempts: pd.DataFrame, run: str) -> list[dict]:
    """The escalation table's rows of one run folder (see the module doc)."""
    if attempts.empty:
        return []
    names = {"subsample": "subsample", "residue": "residue sample"}
    out = []
    for prof in dict.fromkeys(rows["profile"]):
        g = rows[rows["profile"] == prof]
        sweep = _stage_row(run, prof, "sweep", g["budget_nodes"].iloc[0], g["result"], g["seconds"])
        out.append(sweep | {"version": _versions(g["version"])})
        a = attempts[attempts["profile"] == prof]
        for (phase, rung), s in a.groupby(["phase", "rung"], sort=False):
            stage = f"rung {rung}" if phase == "ladder" else names[phase]
            if phase != "ladder" and rung > 0:
                stage += f", retry {rung}"
                stage += _turn_label(s)
            by_relation = s["stop_reason"].fillna("").str.startswith(RELATION_PREFIX)
            searched = s[~by_relation]
            budget = s.loc[s["budget_nodes"] != 0, "budget_nodes"]
            row = _stage_row(
                run,
                prof,
                stage,
                budget.iloc[0] if len(budget) else None,
                searched["result"],
                searched["cpu_seconds"],
                s["budget_seconds"].dropna().iloc[0] if s["budget_seconds"].notna().any() else None,
            )
            out.append(
                row | {"settled": int(by_relation.sum()), "version": _versions(s["version"])}
            )
    return out


def _versions(column: pd.Series) -> str:
    """The toolkit versions that made a stage's rows: one, or several joined."""
    return ", ".join(sorted(set(column.astype(str).tolist())))


def _stage_row(run, prof, stage, nodes, results, seconds, budget_seconds=None) -> dict:
    secs = np.asarray(seconds, dtype=float)
    has_nodes = nodes is not None and not (isinstance(nodes, float) and math.isnan(nodes))
    if has_nodes:
        budget = nodes_text(int(nodes)) + " nodes"
    else:
        budget = "-" if budget_seconds is None else f"{budget_seconds:g}s"
    return {
        "run": run,
        "profile": prof,
        "stage": stage,
        "budget": budget,
        "rows": len(secs),
        "decided": int((np.asarray(results) != "unknown").sum()),
        "settled": 0,
        "seconds_median": float(np.median(secs)) if len(secs) else math.nan,
        "seconds_p95": float(np.percentile(secs, 95)) if len(secs) else math.nan,
        "seconds_mean": float(secs.mean()) if len(secs) else math.nan,
        "seconds_total": float(secs.sum()),
        "seconds_kind": "wall (solve)" if stage == "sweep" else "CPU",
    }


def escalation_display(t: pd.DataFrame) -> pd.DataFrame:
    """The escalation table, formatted."""
    if t.empty:
        return t
    # a label pooled from several runs (report --pool) names the run of each stage
    pooled = t.groupby("label")["run"].transform("nunique") > 1
    return pd.DataFrame(
        {
            "profile": [
                f"{label} ({run})" if p else label
                for label, run, p in zip(t["label"], t["run"], pooled, strict=True)
            ],
            "stage": t["stage"],
            "budget": t["budget"],
            "rows attempted": t["rows"],
            "decided here": [
                f"{d} ({_fmt(100 * d / r, 1)}%)" if r else "0"
                for d, r in zip(t["decided"], t["rows"], strict=True)
            ],
            "settled by a related row (solves saved)": t["settled"],
            "s/row median": [_fmt(x, 3) for x in t["seconds_median"]],
            "s/row p95": [_fmt(x, 3) for x in t["seconds_p95"]],
            "s/row mean": [_fmt(x, 3) for x in t["seconds_mean"]],
            "hours in all": [_fmt(x / 3600, 3) for x in t["seconds_total"]],
            "seconds": t["seconds_kind"],
            "toolkit": t["version"] if "version" in t else "-",
        }
    )


__all__ = [
    "ESTIMATE_TITLES",
    "StageCount",
    "escalation_display",
    "escalation_rows",
    "escalation_stages",
    "estimates_display",
    "estimates_table",
    "ladder_untried",
]
