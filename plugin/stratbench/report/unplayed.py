"""Skipped and errored matches beside a table's rates, so that none leaves a denominator unseen.

A report section builds its rates from scored records. A builder that also
takes ``unscored`` (the protocol's skipped and errored records, see
:func:`stratbench.report.analysis.analyse`) counts them per row with
:func:`unplayed_counts` and shows them beside the rate, or, where the paper
counts a task without an answer as failed (SPIN-Bench's planning), inside it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from stratbench.run.results import ERRORED, SKIPPED, status_of

__all__ = ["NONE", "UNPLAYED", "beside", "subject_agent", "unplayed_counts"]

UNPLAYED = (ERRORED, SKIPPED)
"""The two statuses of a match that was not scored."""
NONE: dict[str, int] = {ERRORED: 0, SKIPPED: 0}
"""The counts of a row without skipped or errored matches (read it, never change it)."""


def unplayed_counts(
    unscored: Iterable[dict[str, Any]], keys: Callable[[dict[str, Any]], Iterable[Hashable]]
) -> dict[Hashable, dict[str, int]]:
    """Counts skipped and errored records per group: ``{key: {"errored": n, "skipped": n}}``.

    Args:
        unscored: Skipped and errored records (others are ignored).
        keys: The groups (table rows) one record counts in, e.g. ``(agent, game)`` per side.

    Examples:
        >>> records = [{"status": "errored", "game": "g"}, {"status": "skipped", "game": "g"},
        ...            {"status": "scored", "game": "g"}]
        >>> unplayed_counts(records, lambda r: [r["game"]])
        {'g': {'errored': 1, 'skipped': 1}}
    """
    counts: dict[Hashable, dict[str, int]] = {}
    for record in unscored:
        status = status_of(record)
        if status not in UNPLAYED:
            continue
        for key in dict.fromkeys(keys(record)):
            counts.setdefault(key, dict.fromkeys(UNPLAYED, 0))[status] += 1
    return counts


def beside(counts: dict[str, int] | None) -> str:
    """Returns ``"2 errored; 1 skipped"`` (only the non-zero parts), or ``""`` when there are none.

    Examples:
        >>> beside({"errored": 2, "skipped": 0})
        '2 errored'
        >>> beside(None)
        ''
    """
    counts = counts or {}
    return "; ".join(f"{counts[status]} {status}" for status in UNPLAYED if counts.get(status))


def subject_agent(record: dict[str, Any]) -> str:
    """Returns the agent label of a record's subject side (a one-sided task's only side)."""
    sides = record.get("sides") or [{}]
    subject = record.get("subject", 0)
    side = sides[subject] if isinstance(subject, int) and 0 <= subject < len(sides) else sides[0]
    return str(side.get("agent", "?"))
