"""The sweep's progress bar: rows done, the running win % per profile, and an
ETA only once rows arrive (a first compile or a first batch says nothing about
the rate).
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd
from tqdm import tqdm

#: The bar before the first new rows: no rate, no ETA.
_WAITING_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]"


class ResultTally:
    """Running per-profile won/lost/unknown counts for the progress bar."""

    def __init__(self, profiles: Iterable[str], rows: pd.DataFrame) -> None:
        self.counts = {p: {"won": 0, "lost": 0, "unknown": 0} for p in profiles}
        for prof, result in zip(rows["profile"], rows["result"], strict=True):
            if prof in self.counts:
                self.counts[prof][result] += 1

    def add(self, rows: list[dict]) -> None:
        for row in rows:
            self.counts[row["profile"]][row["result"]] += 1

    def postfix(self) -> str:
        """``profile win%`` over decided deals, with ``+N?`` unknowns."""
        shown = []
        for prof, count in self.counts.items():
            decided = count["won"] + count["lost"]
            pct = f"{100 * count['won'] / decided:.1f}%" if decided else "-"
            shown.append(f"{prof} {pct}" + (f" +{count['unknown']}?" if count["unknown"] else ""))
        return " | ".join(shown)


class SweepProgress:
    """A tqdm bar on stderr that shows its ETA only from the first new rows on.

    Until then it shows the rows already done and the time spent; at the first
    rows it is replaced by a bar whose clock starts there, so the rate never
    counts the compile or the workers' start.
    """

    def __init__(self, total: int, done: int, label: str, tally: ResultTally) -> None:
        self.total, self.done, self.label, self.tally = total, done, label, tally
        self._started = False
        self._bar = tqdm(
            total=total,
            initial=done,
            unit="row",
            dynamic_ncols=True,
            desc=label,
            bar_format=_WAITING_FORMAT,
            leave=False,
        )
        self._bar.set_postfix_str(self.tally.postfix())

    def add(self, rows: list[dict]) -> None:
        """Count finished ``rows`` (already added to the tally)."""
        self.done += len(rows)
        if not self._started:
            self._started = True
            self._bar.close()
            self._bar = tqdm(
                total=self.total,
                initial=self.done,
                unit="row",
                dynamic_ncols=True,
                smoothing=0.05,
                desc=self.label,
            )
            self._bar.set_postfix_str(self.tally.postfix())
            return
        self._bar.set_postfix_str(self.tally.postfix(), refresh=False)
        self._bar.update(len(rows))

    def close(self) -> None:
        self._bar.close()

    def __str__(self) -> str:
        """The bar's line as it shows now."""
        return str(self._bar)
