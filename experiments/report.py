"""Win-rate tables from sweep rows.

Every table groups by ``label``: the canonical profile, or ``profile@run``
when several run folders hold the same profile. Unknown verdicts (a budget
ran out) are always counted and shown, never folded into lost.

Tables
------
summary
    Per profile: deals, won, lost, unknown; win % over decided deals with a
    95% Wilson interval, and the bounds (not intervals) when every unknown is
    counted lost (lower) or won (upper); mean banked over all deals and over lost deals,
    casino payout (5 per banked card minus 52), each with a 95% t interval.
paired
    Each pair of profiles on their common deals: both won, only A, only B,
    neither (over deals decided under both), McNemar exact and chi-square
    p-values, mean banked difference A - B with a 95% t interval.
by_base
    Win % over decided deals by base rank, per profile.
settled
    When related profiles' decided rows settle unknown rows
    (docs/relations.md): the summary of each profile so settled with those
    verdicts written in, and a line per settled row. The other tables keep
    the rows as run.

When the runs hold a blind player (``--player`` of the sweep, e.g. one run
of the solver and one of greedy on the same profile and deals), labels become
``profile/player`` (plus ``@run`` if still shared), a blind player's games
that did not win are shown as ``not won`` (the rows keep ``lost``: for a
player it proves nothing), and two tables are added; with several players the
paired table keeps only pairs with the same profile or the same player.

players
    Per label: win % over decided deals with a 95% Wilson interval, mean
    banked with a 95% t interval, and how often the reserve was cleared
    (``reserve_left == 0``, with a Wilson interval). For the solver,
    ``reserve_left`` is that of its best line.
gap
    The blindness gap: for each solver label and each player label of the same
    profile, solver win % minus player win % on their common deals, with the
    paired 95% interval of :func:`experiments.stats.paired_diff_ci` (standard
    error from the discordant deals). Deals the solver left unknown are
    excluded from the gap and counted in ``solver_unknown``; so are (never
    expected) unknown player rows, in ``player_unknown``.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from canfield.engine.cards import RANKS
from canfield.engine.profiles import parse_profile
from canfield.engine.scores import CASINO_PER_CARD, CASINO_PRICE
from canfield.experiments.relations import (
    contradictions,
    related_sections,
    settled,
    with_settled,
)
from canfield.experiments.report_estimates import (
    ESTIMATE_TITLES,
    StageCount,
    escalation_display,
    escalation_rows,
    escalation_stages,
    estimates_display,
    estimates_table,
    ladder_untried,
)
from canfield.experiments.stats import (
    mcnemar_chi2,
    mcnemar_exact,
    mean_ci,
    paired_diff_ci,
    wilson,
)
from canfield.experiments.sweep.attempts import AttemptStore, load_escalated
from canfield.experiments.sweep.escalation_spec import read_escalation
from canfield.experiments.sweep.store import RunFolder, SweepError
from canfield.experiments.text_tables import fit_to_width
from canfield.experiments.text_tables import fmt_number as _fmt
from canfield.experiments.view.decisions import DECISIONS_TITLE, decisions_section


@dataclass(frozen=True)
class RunCount:
    """How many rows a run folder holds against how many its ``run.json`` asks
    for, and the stages of its escalation (``escalate.json``) not finished."""

    run: str
    rows: int
    expected: int
    escalation: tuple[StageCount, ...] = ()

    @property
    def unfinished(self) -> bool:
        """Whether the sweep stopped before every (deal, profile) had its row."""
        return self.rows < self.expected

    def warning(self) -> str:
        """One line for the user, e.g. ``run r holds 56 of 200 rows (unfinished)``."""
        return f"run {self.run} holds {self.rows} of {self.expected} rows (unfinished)"

    @property
    def escalation_unfinished(self) -> bool:
        """Whether ``canfield escalate`` stopped before a stage tried all its rows."""
        return bool(self.escalation)

    def escalation_warning(self) -> str:
        """One line for the user, e.g. ``run r escalation: rung 2 (3M nodes)
        tried 4 of 13 rows (unfinished)``."""
        stages = "; ".join(s.text() for s in self.escalation)
        return f"run {self.run} escalation: {stages} (unfinished)"


def load_runs(paths: Iterable[str | os.PathLike], pool: bool = False) -> pd.DataFrame:
    """Load run folders into one frame with ``run`` and ``label`` columns.

    ``run`` is the folder's name, or as much of its path as tells it from
    the other folders of the same name. ``df.attrs["run_counts"]`` holds a
    :class:`RunCount` per folder, so a report can say which runs (or their
    escalations) are unfinished.

    Parameters
    ----------
    paths : iterable of str or path
        The run folders.
    pool : bool
        Label a profile held by several runs with the profile alone, so
        every table counts their deals as one sample (say, deals 0-599 of one
        ladder and 600-999 of another). The runs must hold different deals,
        and none may have sampled its unknown rows (a subsample or a residue
        sample): a sample of one run's hard deals is not a sample of the
        pooled ones. A subsample that holds every pooled run's hard rows
        (the whole stratum, not a sample) is pooled.

    Raises
    ------
    SweepError
        If a path is missing or a file, a folder is given twice (under any
        spelling), is not a run folder or holds a damaged part, or no folder
        holds a row yet; with ``pool``, if two runs hold a deal of one
        profile, or a pooled run sampled its unknowns.
    """
    frames = []
    counts = []
    paths = [str(p) for p in paths]
    names = _run_names(paths)
    escalation: list[dict] = []
    for i, (p, name) in enumerate(zip(paths, names, strict=True)):
        folder = RunFolder(p)
        spec = folder.read_spec()
        rows = folder.load()
        attempts = AttemptStore(p).load()
        df = load_escalated(p, rows, attempts)
        df["run"] = name
        escalated = read_escalation(p)
        escalation += escalation_rows(rows, attempts, name)
        untried = ladder_untried(rows, attempts, escalated)
        # columns read as lists here and below: iterating pandas 3's Arrow
        # strings element by element cost seconds on a 400,000-row run
        keys = zip(df["deal"].astype("int64").tolist(), df["profile"].tolist(), strict=True)
        df["ladder_untried"] = [key in untried for key in keys]
        stages = tuple(s for s in escalation_stages(rows, attempts, escalated) if s.unfinished)
        counts.append(RunCount(name, len(df), len(spec.profiles) * len(spec.deals), stages))
        # Keep the sweep's profile order (run.json), then deal order.
        order = {prof: k for k, prof in enumerate(spec.profiles)}
        df["_order"] = [(i, order.get(prof, len(order))) for prof in df["profile"].tolist()]
        frames.append(df)
    if not frames:
        raise SweepError("no run folder given")
    # a folder with no rows yet is reported as unfinished (run_counts), and
    # its empty frame would turn the others' columns to object in the concat
    frames = [f for f in frames if len(f)]
    if not frames:
        # a sweep not begun, or before its first batch: no table to make
        raise SweepError(
            f"no rows yet in {', '.join(names)}: a sweep writes its rows a batch at a time"
        )
    df = pd.concat(frames, ignore_index=True)
    df = df.sort_values(["_order", "deal"], kind="stable").drop(columns="_order")
    df = df.reset_index(drop=True)
    # A blind player's rows are labelled with it even when it plays alone, so
    # a pimc run never passes for the solver's
    if set(df["player"].tolist()) != {"solver"}:
        base = [
            f"{p}/{pl}" for p, pl in zip(df["profile"].tolist(), df["player"].tolist(), strict=True)
        ]
    else:
        base = df["profile"].tolist()
    df["_base"] = base
    runs_per_label = df.groupby("_base")["run"].nunique()
    shared = set(runs_per_label[runs_per_label > 1].index)
    if pool:
        for b in shared:
            mine = (df["_base"] == b).to_numpy()
            _fold_censuses(df, mine)
            _check_poolable(df[mine], b)
        shared = set()
    df["label"] = [
        f"{b}@{r}" if b in shared else b for b, r in zip(base, df["run"].tolist(), strict=True)
    ]
    df = df.drop(columns="_base")
    df.attrs["run_counts"] = counts
    df.attrs["run_paths"] = paths
    runs, profiles = df["run"].tolist(), df["profile"].tolist()
    labels = dict(zip(zip(runs, profiles, strict=True), df["label"].tolist(), strict=True))
    df.attrs["escalation"] = [e | {"label": labels[e["run"], e["profile"]]} for e in escalation]
    return df


def _fold_censuses(df: pd.DataFrame, mine: np.ndarray) -> None:
    """Make phase-1 rows, in place, of the subsample of each run of the rows
    ``mine`` (one pooled label's) that drew every one of its own hard rows
    and no residue sample.

    Such a subsample is a census, not a sample: it solved the run's whole
    stratum again at a larger budget, as one more rung of the ladder would
    (hevagames-1000-4999 drew its one hard deal, 1250). Its verdicts are
    then the run's phase-1 verdicts, and what it left unknown is hard like
    any other run's unknown row, so the pooled label's stratum is the union
    of the runs' and no run's draw poses as a sample of it.
    """
    # load_escalated gives every run these columns, together
    drawn = df["in_subsample"].fillna(False).astype(bool).to_numpy()
    residue = df["in_residue_sample"].fillna(False).astype(bool).to_numpy()
    hard = (df["phase1_result"] == "unknown").to_numpy()
    runs = df["run"].to_numpy()
    for run in pd.unique(runs[mine & drawn]):
        own = mine & (runs == run)
        if (own & hard & ~drawn).any() or (own & residue).any():
            continue  # a sample of the run's stratum: _check_poolable refuses it
        census = own & drawn
        df.loc[census, "phase1_result"] = df.loc[census, "result"]
        df.loc[census, "in_subsample"] = False


def _check_poolable(g: pd.DataFrame, label: str) -> None:
    """Refuse to pool the runs of ``g`` (one label's rows, censuses folded
    by :func:`_fold_censuses`) into one sample when they share a deal or one
    of them sampled its unknown rows."""
    seen = g.groupby("deal")["run"].unique()
    twice = seen[seen.map(len) > 1]
    if len(twice):
        deal, runs = int(twice.index[0]), list(twice.iloc[0])
        raise SweepError(
            f"--pool: deal {deal} of {label} is in runs {runs[0]} and {runs[1]};"
            " pooled runs must hold different deals"
        )
    for column in ("in_subsample", "in_residue_sample"):
        if column in g:
            sampled = g.loc[g[column].fillna(False).astype(bool), "run"]
            if len(sampled):
                raise SweepError(
                    f"--pool: run {sampled.iloc[0]} sampled its unknown {label} rows;"
                    " a sample of one run's hard deals is not a sample of the pooled ones"
                )


def _run_names(paths: Sequence[str]) -> list[str]:
    """Each run folder's name, lengthened to as many trailing parts of its
    path as tell it from every other folder (``runs/a``, ``other/a``).

    Labels and the paired table key rows by this name: two folders under one
    name would pool their rows as one run's.

    Raises
    ------
    SweepError
        If a path is not a run folder's, or names a folder given before: its
        rows would count twice.
    """
    seen: dict[tuple[int, int], str] = {}
    parts = []
    for p in paths:
        path = Path(p)
        _check_run_path(path)
        # the inode, not the spelling: runs/a, ./runs/a/ and a link to it are one folder
        st = path.stat()
        first = seen.get((st.st_dev, st.st_ino))
        if first is not None:
            as_ = "" if first == p else f", as {first} and {p}"
            raise SweepError(f"the run folder {p} is given twice{as_}: give each folder once")
        seen[st.st_dev, st.st_ino] = p
        # as spelt (made absolute), not resolved: a link keeps the name it was given by
        parts.append(Path(os.path.abspath(path)).parts)
    names = []
    for i, mine in enumerate(parts):
        others = [q for j, q in enumerate(parts) if j != i]
        k = 1
        while k < len(mine) and any(q[-k:] == mine[-k:] for q in others):
            k += 1
        names.append(str(Path(*mine[-k:])))
    return names


def _check_run_path(path: Path) -> None:
    """A missing path or a file is not a run folder: say which, before reading."""
    if not path.exists():
        raise SweepError(f"{path} is not a run folder: it does not exist")
    if not path.is_dir():
        raise SweepError(f"{path} is a file, not a run folder (a folder holding run.json)")


def _several_players(df: pd.DataFrame) -> bool:
    return "player" in df and df["player"].nunique() > 1


def _label_info(df: pd.DataFrame) -> dict[str, tuple[str, str, str]]:
    """label -> (profile, player, player_options) of its first row."""
    player = df["player"] if "player" in df else pd.Series("solver", index=df.index)
    opts = df["player_options"] if "player_options" in df else pd.Series("", index=df.index)
    out: dict[str, tuple[str, str, str]] = {}
    columns = (df["label"], df["profile"], player, opts)
    for lab, prof, pl, op in zip(*(c.tolist() for c in columns), strict=True):
        out.setdefault(lab, (prof, pl, op if isinstance(op, str) else ""))
    return out


def _labels(df: pd.DataFrame) -> list[str]:
    if "label" not in df:
        df["label"] = df["profile"]
    return list(dict.fromkeys(df["label"].tolist()))


def summary_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per profile (see the module docstring). Percentages are 0..100."""
    labels = _labels(df)
    info = _label_info(df)
    rows = []
    for label in labels:
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
        # the player buys every pack in play (two for double)
        price = CASINO_PRICE * parse_profile(info[label][0]).packs
        cas, cas_lo, cas_hi = mean_ci(CASINO_PER_CARD * banked - price)
        rows.append(
            {
                "profile": label,
                "player": info[label][1],
                "deals": n,
                "won": won,
                "lost": lost,
                "unknown": unknown,
                "win_pct": _pct(won, decided),
                "win_lo": 100 * lo,
                "win_hi": 100 * hi,
                "win_pct_unknown_lost": _pct(won, n),
                "win_lo_unknown_lost": 100 * lo_l,
                "win_pct_unknown_won": _pct(won + unknown, n),
                "win_hi_unknown_won": 100 * hi_w,
                "banked_mean": mb,
                "banked_lo": mb_lo,
                "banked_hi": mb_hi,
                "banked_lost_mean": ml,
                "banked_lost_lo": ml_lo,
                "banked_lost_hi": ml_hi,
                "casino_mean": cas,
                "casino_lo": cas_lo,
                "casino_hi": cas_hi,
                "seconds_mean": float(g["seconds"].mean()) if n else math.nan,
                "seconds_max": float(g["seconds"].max()) if n else math.nan,
            }
        )
    return pd.DataFrame(rows)


def paired_table(df: pd.DataFrame, pairs: Sequence[tuple[str, str]] | None = None) -> pd.DataFrame:
    """Paired comparison of profiles on the deals both were run on."""
    labels = _labels(df)
    if pairs is None:
        pairs = list(itertools.combinations(labels, 2))
        if _several_players(df):
            info = _label_info(df)
            pairs = [
                (a, b) for a, b in pairs if info[a][0] == info[b][0] or info[a][1:] == info[b][1:]
            ]
    pairs = list(pairs)
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
        rows.append(
            {
                "a": a,
                "b": b,
                "common_deals": len(common),
                "decided_both": int(decided.sum()),
                "unknown_either": int((~decided).sum()),
                "both": both,
                "only_a": only_a,
                "only_b": only_b,
                "neither": neither,
                "mcnemar_exact_p": mcnemar_exact(only_a, only_b),
                "mcnemar_chi2": chi,
                "mcnemar_chi2_p": p_chi,
                "banked_diff_mean": d,
                "banked_diff_lo": d_lo,
                "banked_diff_hi": d_hi,
            }
        )
    return pd.DataFrame(rows)


def players_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per label when the rows hold a blind player (see the module docstring).

    Empty when every row is the solver's.
    """
    if "player" not in df or set(df["player"]) <= {"solver"}:
        return pd.DataFrame()
    info = _label_info(df)
    rows = []
    for label in _labels(df):
        g = df[df["label"] == label]
        prof, player, opts = info[label]
        n = len(g)
        won = int((g["result"] == "won").sum())
        lost = int((g["result"] == "lost").sum())
        unknown = n - won - lost
        lo, hi = wilson(won, won + lost)
        mb, mb_lo, mb_hi = mean_ci(g["banked"].to_numpy(float))
        cleared = int((g["reserve_left"] == 0).sum())
        c_lo, c_hi = wilson(cleared, n)
        rows.append(
            {
                "label": label,
                "profile": prof,
                "player": player,
                "player_options": opts,
                "deals": n,
                "won": won,
                "lost": lost,
                "unknown": unknown,
                "win_pct": _pct(won, won + lost),
                "win_lo": 100 * lo,
                "win_hi": 100 * hi,
                "banked_mean": mb,
                "banked_lo": mb_lo,
                "banked_hi": mb_hi,
                "cleared_reserve": cleared,
                "cleared_pct": _pct(cleared, n),
                "cleared_lo": 100 * c_lo,
                "cleared_hi": 100 * c_hi,
            }
        )
    return pd.DataFrame(rows)


def gap_table(df: pd.DataFrame) -> pd.DataFrame:
    """The blindness gap: solver wins minus player wins on the same deals.

    For each solver label S and blind-player label P of the same profile, over
    the deals both hold: deals where S is unknown are excluded (counted in
    ``solver_unknown``), as are unknown P rows (``player_unknown``). On the
    ``compared`` deals left, ``only_solver`` and ``only_player`` are the
    discordant deals; the gap is ``(only_solver - only_player) / compared``
    with the paired Wald interval of :func:`experiments.stats.paired_diff_ci`
    (95%, standard error from the discordant pairs), reported in percentage
    points. ``mcnemar_exact_p`` tests gap = 0; ``banked_gap`` is the mean of
    solver banked minus player banked on the compared deals with a t interval.
    """
    if "player" not in df:
        return pd.DataFrame()
    info = _label_info(df)
    labels = _labels(df)
    solvers = [lab for lab in labels if info[lab][1] == "solver"]
    players = [lab for lab in labels if info[lab][1] != "solver"]
    rows = []
    for s_lab in solvers:
        for p_lab in players:
            if info[s_lab][0] != info[p_lab][0]:
                continue
            gs = df[df["label"] == s_lab].set_index("deal")
            gp = df[df["label"] == p_lab].set_index("deal")
            common = gs.index.intersection(gp.index)
            rs, rp = gs.loc[common, "result"], gp.loc[common, "result"]
            s_unknown = rs == "unknown"
            p_unknown = (rp == "unknown") & ~s_unknown
            keep = ~s_unknown & ~p_unknown
            ws, wp = (rs == "won")[keep], (rp == "won")[keep]
            n = int(keep.sum())
            both = int((ws & wp).sum())
            only_s = int((ws & ~wp).sum())
            only_p = int((~ws & wp).sum())
            gap, lo, hi = paired_diff_ci(only_s, only_p, n)
            diff = (
                gs.loc[common, "banked"].to_numpy(float) - gp.loc[common, "banked"].to_numpy(float)
            )[keep.to_numpy()]
            bd, bd_lo, bd_hi = mean_ci(diff)
            rows.append(
                {
                    "profile": info[s_lab][0],
                    "solver": s_lab,
                    "player": p_lab,
                    "common_deals": len(common),
                    "solver_unknown": int(s_unknown.sum()),
                    "player_unknown": int(p_unknown.sum()),
                    "compared": n,
                    "solver_won": both + only_s,
                    "player_won": both + only_p,
                    "both": both,
                    "only_solver": only_s,
                    "only_player": only_p,
                    "neither": n - both - only_s - only_p,
                    "solver_win_pct": _pct(both + only_s, n),
                    "player_win_pct": _pct(both + only_p, n),
                    "gap_pct": 100 * gap,
                    "gap_lo": 100 * lo,
                    "gap_hi": 100 * hi,
                    "gap_se_pct": 100
                    * math.sqrt(max(0.0, only_s + only_p - (only_s - only_p) ** 2 / n))
                    / n
                    if n
                    else math.nan,
                    "mcnemar_exact_p": mcnemar_exact(only_s, only_p),
                    "banked_gap_mean": bd,
                    "banked_gap_lo": bd_lo,
                    "banked_gap_hi": bd_hi,
                }
            )
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
            rows.append(
                {
                    "profile": label,
                    "base_rank": int(base),
                    "base": _rank_name(int(base)),
                    "deals": len(h),
                    "won": won,
                    "lost": lost,
                    "unknown": unknown,
                    "win_pct": _pct(won, won + lost),
                    "win_lo": 100 * lo,
                    "win_hi": 100 * hi,
                }
            )
    return pd.DataFrame(rows)


def _rank_name(base: int) -> str:
    # base_rank is the engine's rank index: 0..12 for A..K.
    return RANKS[base] if 0 <= base < 13 else str(base)


def _pct(k: int, n: int) -> float:
    return 100.0 * k / n if n else math.nan


# --------------------------------------------------------------------------- display


def _ivals(t: pd.DataFrame, mid: str, lo: str, hi: str, digits: int = 1) -> list[str]:
    """A column of ``_ival`` strings from three columns of ``t``."""
    return [_ival(m, a, b, digits) for m, a, b in zip(t[mid], t[lo], t[hi], strict=True)]


def _ival(m: float, lo: float, hi: float, digits: int = 1) -> str:
    if math.isnan(m):
        return "-"
    if math.isnan(lo):
        return _fmt(m, digits)
    return f"{_fmt(m, digits)} [{_fmt(lo, digits)}, {_fmt(hi, digits)}]"


def _pvalue(p: float) -> str:
    # Past about 1,100 discordant pairs the exact p is below the smallest
    # float and comes back as 0.0; "0.00e+00" would claim a p of zero.
    if p == 0.0:
        return "< 1e-300"
    return f"{p:.2e}" if p < 1e-3 else f"{p:.3f}"


def _lost_columns(t: pd.DataFrame) -> dict[str, list]:
    """The ``lost`` count as shown: a blind player's game that did not win
    proves nothing, so its count goes to a ``not won`` column of its own.

    ``t`` has ``lost`` and ``player`` columns (rows without a player are the
    solver's). The stored rows keep ``lost``; only the display differs.
    """
    lost = list(t["lost"])
    player = list(t["player"]) if "player" in t else ["solver"] * len(lost)
    blind = [pl != "solver" for pl in player]
    if not any(blind):
        return {"lost": lost}
    if all(blind):
        return {"not won": lost}
    return {
        "lost": ["-" if b else k for k, b in zip(lost, blind, strict=True)],
        "not won": [k if b else "-" for k, b in zip(lost, blind, strict=True)],
    }


def _has_blind_player(t: pd.DataFrame) -> bool:
    return "player" in t and bool((t["player"] != "solver").any())


def summary_display(s: pd.DataFrame) -> pd.DataFrame:
    """The summary table with intervals formatted as ``x [lo, hi]``.

    The bounds column holds the win % when every unknown deal is counted lost
    and when every one is counted won: bounds, not interval limits.
    """
    blind = _has_blind_player(s)
    lost_word = "lost / not won" if blind else "lost"
    out = pd.DataFrame(
        {
            "profile/player" if blind else "profile": s["profile"],
            "deals": s["deals"],
            "won": s["won"],
            **_lost_columns(s),
            "unknown": s["unknown"],
            "win % (decided) [95% Wilson]": _ivals(s, "win_pct", "win_lo", "win_hi"),
            "win % bounds (unknown=lost .. unknown=won)": [
                f"{_fmt(lo)} .. {_fmt(hi)}"
                for lo, hi in zip(s["win_pct_unknown_lost"], s["win_pct_unknown_won"], strict=True)
            ],
            "mean banked [95%]": _ivals(s, "banked_mean", "banked_lo", "banked_hi", 2),
            f"mean banked, {lost_word} [95%]": _ivals(
                s, "banked_lost_mean", "banked_lost_lo", "banked_lost_hi", 2
            ),
            "casino payout $ [95%]": _ivals(s, "casino_mean", "casino_lo", "casino_hi", 2),
        }
    )
    return out


SETTLED_TITLE = "Win rate with the rows related profiles settle (docs/relations.md)"
SETTLED_LIST_TITLE = "Rows settled by a related profile's row"


def settled_tables(
    df: pd.DataFrame, found: pd.DataFrame | None = None, bad: pd.DataFrame | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What the related profiles' rows settle, per profile and per deal.

    The summary table (:func:`summary_table`) of every label with a settled
    row, over its rows with the settled verdicts written in
    (:func:`experiments.relations.with_settled`), plus ``settled_won`` and
    ``settled_lost``; and one line per settled row (``deal, profile,
    settled_as, by, relation``). Both are empty when nothing is settled, or
    when the rows contradict a relation: then no row of them is trusted.
    ``found`` and ``bad`` are what :func:`experiments.relations.settled` and
    :func:`experiments.relations.contradictions` return for ``df``, computed
    when not given.
    """
    found = settled(df) if found is None else found
    bad = contradictions(df) if bad is None else bad
    if found.empty or not bad.empty:
        return pd.DataFrame(), pd.DataFrame()
    rows = with_settled(df, found)
    if "label" not in rows:
        rows["label"] = rows["profile"]
    by = rows[rows["settled_by"] != ""]
    labels = list(dict.fromkeys(by["label"]))
    table = summary_table(rows[rows["label"].isin(labels)])
    for verdict in ("won", "lost"):
        counts = by[by["result"] == verdict].groupby("label").size()
        table[f"settled_{verdict}"] = [int(counts.get(lab, 0)) for lab in table["profile"]]
    first = found.drop_duplicates(["deal", "unit"], keep="first")
    listed = pd.DataFrame(
        {
            "deal": first["deal"].astype(int),
            "profile": first["unit"],
            "settled_as": first["settled_as"],
            "by": first["source"],
            "relation": first["by"],
        }
    )
    return table, listed.sort_values(["profile", "deal"]).reset_index(drop=True)


def settled_display(table: pd.DataFrame, listed: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The report's sections for :func:`settled_tables` (none when it is empty)."""
    if table.empty:
        return []
    shown = summary_display(table).iloc[:, :8]
    shown.insert(5, "settled won", table["settled_won"].to_numpy())
    shown.insert(6, "settled lost", table["settled_lost"].to_numpy())
    groups = listed.groupby(["profile", "settled_as", "by", "relation"], sort=False)["deal"]
    deals = groups.apply(_deal_list).reset_index(name="deals")
    deals.insert(4, "rows", groups.size().to_numpy())
    return [(SETTLED_TITLE, shown), (SETTLED_LIST_TITLE, deals.rename(columns=_SPACED))]


_SPACED = {"settled_as": "settled as"}
#: deals named per line of the settled rows' table; settled.csv names every one
SETTLED_SHOWN = 12


def _deal_list(deals: pd.Series) -> str:
    shown = ", ".join(str(d) for d in deals.iloc[:SETTLED_SHOWN])
    more = len(deals) - SETTLED_SHOWN
    return shown if more <= 0 else f"{shown} and {more} more (settled.csv)"


def paired_display(p: pd.DataFrame) -> pd.DataFrame:
    """The paired table, formatted."""
    if p.empty:
        return p
    return pd.DataFrame(
        {
            "A": p["a"],
            "B": p["b"],
            "deals": p["common_deals"],
            "unknown in either": p["unknown_either"],
            "both won": p["both"],
            "only A": p["only_a"],
            "only B": p["only_b"],
            "neither": p["neither"],
            "McNemar exact p": [_pvalue(x) for x in p["mcnemar_exact_p"]],
            "chi2 (cc)": [_fmt(x, 2) for x in p["mcnemar_chi2"]],
            "chi2 p": [_pvalue(x) for x in p["mcnemar_chi2_p"]],
            "banked A-B, all common deals (unknown: lower bound) [95%]": _ivals(
                p, "banked_diff_mean", "banked_diff_lo", "banked_diff_hi", 2
            ),
        }
    )


def players_display(t: pd.DataFrame) -> pd.DataFrame:
    """The players table, formatted."""
    if t.empty:
        return t
    return pd.DataFrame(
        {
            "label": t["label"],
            "player": t["player"],
            "options": [o or "-" for o in t["player_options"]],
            "deals": t["deals"],
            "won": t["won"],
            **_lost_columns(t),
            "unknown": t["unknown"],
            "win % (decided) [95% Wilson]": _ivals(t, "win_pct", "win_lo", "win_hi"),
            "mean banked [95%]": _ivals(t, "banked_mean", "banked_lo", "banked_hi", 2),
            "reserve cleared % [95% Wilson]": [
                f"{_ival(m, lo, hi)} ({k}/{n})"
                for m, lo, hi, k, n in zip(
                    t["cleared_pct"],
                    t["cleared_lo"],
                    t["cleared_hi"],
                    t["cleared_reserve"],
                    t["deals"],
                    strict=True,
                )
            ],
        }
    )


def gap_display(g: pd.DataFrame) -> pd.DataFrame:
    """The blindness-gap table, formatted."""
    if g.empty:
        return g
    return pd.DataFrame(
        {
            "solver": g["solver"],
            "player": g["player"],
            "deals": g["common_deals"],
            "excluded (solver unknown)": g["solver_unknown"] + g["player_unknown"],
            "compared": g["compared"],
            "solver won": g["solver_won"],
            "player won": g["player_won"],
            "only solver": g["only_solver"],
            "only player": g["only_player"],
            "solver win %": [_fmt(x) for x in g["solver_win_pct"]],
            "player win %": [_fmt(x) for x in g["player_win_pct"]],
            "gap, points [95% paired]": _ivals(g, "gap_pct", "gap_lo", "gap_hi"),
            "McNemar exact p": [_pvalue(x) for x in g["mcnemar_exact_p"]],
            "banked gap, solver - player, on the compared deals [95%]": _ivals(
                g, "banked_gap_mean", "banked_gap_lo", "banked_gap_hi", 2
            ),
        }
    )


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
    players: pd.DataFrame = field(default_factory=pd.DataFrame)
    gap: pd.DataFrame = field(default_factory=pd.DataFrame)
    run_counts: list[RunCount] = field(default_factory=list)
    related: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    decisions: pd.DataFrame = field(default_factory=pd.DataFrame)
    estimates: pd.DataFrame = field(default_factory=pd.DataFrame)
    escalation: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: :func:`settled_tables`: per profile, and one line per settled row
    settled: pd.DataFrame = field(default_factory=pd.DataFrame)
    settled_rows: pd.DataFrame = field(default_factory=pd.DataFrame)

    def unfinished(self) -> list[RunCount]:
        """The runs that hold fewer rows than their ``run.json`` asks for."""
        return [c for c in self.run_counts if c.unfinished]

    def unfinished_escalations(self) -> list[RunCount]:
        """The runs whose escalation stopped before a stage tried all its rows."""
        return [c for c in self.run_counts if c.escalation_unfinished]

    def _runs_line(self) -> str:
        marks = {c.run: f" (unfinished: {c.rows} of {c.expected} rows)" for c in self.unfinished()}
        for c in self.unfinished_escalations():
            marks[c.run] = marks.get(c.run, "") + " (escalation unfinished)"
        return ", ".join(f"{run}{marks.get(run, '')}" for run in self.runs)

    def sections(self) -> list[tuple[str, pd.DataFrame]]:
        out = [
            ("Win rate per profile", summary_display(self.summary)),
            (
                "Paired comparison (won/lost over deals decided under both)",
                paired_display(self.paired),
            ),
            ("Win % by base rank (decided deals; n? = unknown)", by_base_display(self.by_base)),
        ]
        if not self.players.empty:
            out.append(("Players on the same deals", players_display(self.players)))
        if not self.gap.empty:
            out.append(
                (
                    "Blindness gap: solver win % - player win % on the same deals "
                    "(deals the solver left unknown excluded)",
                    gap_display(self.gap),
                )
            )
        if not self.estimates.empty:
            out += [
                (
                    ESTIMATE_TITLES["win"],
                    estimates_display(self.estimates, "win"),
                ),
                (
                    ESTIMATE_TITLES["banked"],
                    estimates_display(self.estimates, "banked"),
                ),
            ]
        if not self.escalation.empty:
            out.append(
                (
                    "Escalation: rows attempted and decided per rung, seconds per row",
                    escalation_display(self.escalation),
                )
            )
        if not self.decisions.empty:
            out.append((DECISIONS_TITLE, self.decisions))
        return out + self.related + settled_display(self.settled, self.settled_rows)

    def to_text(self, width: int | None = None) -> str:
        """The report as plain text.

        Parameters
        ----------
        width : int, optional
            Characters per line: wider tables are cut into column groups
            (:func:`experiments.text_tables.fit_to_width`). ``None``: full width.
        """
        out = [f"runs: {self._runs_line()}"]
        for title, table in self.sections():
            out += ["", title, "=" * len(title)]
            out.append(fit_to_width(table, width) if not table.empty else "(none)")
        return "\n".join(out)

    def to_markdown(self) -> str:
        out = [
            "# Canfield win rates",
            "",
            f"Runs: {self._runs_line()}.",
            "Intervals are 95%: Wilson for win rates, Student t for means. Unknown "
            "verdicts (budget ran out) are never counted as lost; banked for an unknown "
            "deal, and for a loss settled from a related profile without a search of its "
            "own (`escalate --settle`), is a lower bound.",
        ]
        if not self.estimates.empty:
            out += [
                "",
                "The estimated true win share (and mean banked) over all deals is the "
                "two- or three-phase estimate of docs/statistics.md with its 95% normal "
                "interval (where every deal seen was won, or every one lost, which makes "
                "that interval a point, the exact one-sided no-event bound instead): it "
                "needs a subsample of the deals left unknown (`canfield escalate "
                "--subsample`), and uses a sample of the subsample's residue when one is "
                "solved (`--residue`); without a subsample only the bounds are given. "
                "Rows settled from a related profile (`--settle`) count as decided. Bounds are not "
                "intervals: they count every unknown deal lost (or at its banked) and won "
                "(or at every card: 52, or 104 under double).",
            ]
        if not self.settled.empty:
            out += [
                "",
                "A row left unknown that a related profile's decided row settles "
                "(docs/relations.md) is counted decided only in the last two sections, "
                "not in the tables above it (`canfield escalate --settle` writes such "
                "verdicts into a run, where every table counts them).",
            ]
        if self.unfinished():
            out += ["", "**Unfinished runs**: " + "; ".join(c.warning() for c in self.unfinished())]
        if self.unfinished_escalations():
            out += [
                "",
                "**Unfinished escalations** (rows not yet tried at a rung are not counted "
                "hard): "
                + "; ".join(c.escalation_warning() for c in self.unfinished_escalations()),
            ]
        if not self.players.empty:
            out += [
                "",
                "A blind player's game that did not win is counted under *not won*: "
                "unlike the solver's *lost*, it proves nothing about the deal.",
            ]
        if not self.gap.empty:
            out += [
                "",
                "The blindness gap is a paired difference of proportions: its 95% "
                "interval is gap -+ 1.96 se with se = sqrt(b + c - (b - c)^2 / n) / n, "
                "b and c the deals only the solver and only the player won, n the deals "
                "compared.",
            ]
        for title, table in self.sections():
            out += ["", f"## {title}", ""]
            out.append(to_markdown(table) if not table.empty else "(none)")
        return "\n".join(out) + "\n"

    def write(self, out_dir: str | os.PathLike) -> list[Path]:
        """Write ``report.md`` and ``summary.csv``, ``paired.csv``, ``by_base.csv``
        (plus ``players.csv`` and ``gap.csv`` when the runs hold a blind player,
        ``estimates.csv`` for solver runs, ``escalation.csv`` for escalated ones
        and ``settled.csv``, a line per row a related profile's row settles)."""
        d = Path(out_dir)
        d.mkdir(parents=True, exist_ok=True)
        paths = [d / "report.md", d / "summary.csv", d / "paired.csv", d / "by_base.csv"]
        paths[0].write_text(self.to_markdown())
        self.summary.to_csv(paths[1], index=False)
        self.paired.to_csv(paths[2], index=False)
        self.by_base.to_csv(paths[3], index=False)
        for name, table in (
            ("estimates", self.estimates),
            ("escalation", self.escalation),
            ("players", self.players),
            ("gap", self.gap),
            ("settled", self.settled_rows),
        ):
            if not table.empty:
                paths.append(d / f"{name}.csv")
                table.to_csv(paths[-1], index=False)
        return paths


def build_report(df: pd.DataFrame) -> Report:
    """All tables for the rows ``df`` (from :func:`load_runs`)."""
    counts = list(df.attrs.get("run_counts", []))
    df = df.copy()
    # every folder given, a folder with no rows yet included
    runs = [c.run for c in counts] or (list(dict.fromkeys(df["run"])) if "run" in df else [])
    bad, found = contradictions(df), settled(df)
    settled_by_profile, settled_rows = settled_tables(df, found, bad)
    return Report(
        summary_table(df),
        paired_table(df),
        by_base_table(df),
        runs,
        players_table(df),
        gap_table(df),
        counts,
        related_sections(df, bad, found),
        decisions_section(df.attrs.get("run_paths", [])),
        estimates_table(df),
        pd.DataFrame(df.attrs.get("escalation", [])),
        settled_by_profile,
        settled_rows,
    )


__all__ = [
    "Report",
    "RunCount",
    "build_report",
    "by_base_table",
    "gap_table",
    "load_runs",
    "paired_table",
    "players_table",
    "summary_table",
    "to_markdown",
]
