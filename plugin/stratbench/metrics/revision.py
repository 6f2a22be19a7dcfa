"""Revision rows of the ``revise`` scaffold, read as AdvGameBench traces: ORR, CSR and the improvement slope.

The scaffold logs one ``revision`` event per critique (``turn``, ``player``,
``index``, ``trigger``: ``illegal`` or ``outcome``, ``negative``,
``changed``). Whether it *improved* is read from what followed: after a
rejected answer, the revised answer was accepted (the player's next
``action`` event of that turn, not ``rejected`` or ``fallback``); after an
outcome, the player's next outcome was not negative (unknown for the last
one). Each row becomes two :class:`~stratbench.core.traces.Round` of an
AdvGameBench trace: the round the feedback came from (won unless negative, a
violation after a rejection, revised after it) and the one after the
revision (its strategy differs when the row changed; won when it improved),
so :func:`~stratbench.metrics.advgame.over_correction_rate_paper` and
:func:`~stratbench.metrics.advgame.correction_success_rate_paper` apply as
they are. Rows whose improvement is unknown count for ORR, not for CSR. The
slope is AdvGameBench's: the OLS slope of the feedback's win indicator (not
negative) on the row index.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from stratbench.core.traces import Round
from stratbench.metrics.advgame import (
    correction_success_rate_paper,
    improvement_slope,
    ols_slope,
    over_correction_rate_paper,
)

REVISION_EVENT = "revision"
"""The transcript event kind of a critique."""

_RESULT_KINDS = ("action", "rejected", "fallback")


@dataclass(frozen=True)
class RevisionRow:
    """One critique, as AdvGameBench's revision rows: index, negative feedback, changed, improved."""

    index: int
    """The player's critique number, from 1."""
    turn: int
    trigger: str
    """``illegal`` (a rejected answer) or ``outcome`` (the game's feedback on the last decision)."""
    negative: bool
    changed: bool
    improved: bool | None
    """The feedback after the revision was good; None where none came."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RevisionRow:
        return cls(int(data["index"]), int(data["turn"]), str(data["trigger"]), bool(data["negative"]),
                   bool(data["changed"]), None if data.get("improved") is None else bool(data["improved"]))


def revision_rows(events: Sequence[dict[str, Any]], player: int) -> list[RevisionRow]:
    """Returns ``player``'s revision rows from a transcript, with ``improved`` read from the later events."""
    rows = []
    for position, event in enumerate(events):
        if event["kind"] != REVISION_EVENT or event.get("player") != player:
            continue
        later = events[position + 1:]
        improved: bool | None = None
        if event["trigger"] == "illegal":
            result = next((e for e in later if e["kind"] in _RESULT_KINDS and e.get("player") == player
                           and e.get("turn") == event["turn"]), None)
            improved = None if result is None else result["kind"] == "action"
        else:
            following = next((e for e in later if e["kind"] == REVISION_EVENT and e.get("player") == player
                              and e["trigger"] == "outcome"), None)
            improved = None if following is None else not following["negative"]
        rows.append(RevisionRow(event["index"], event["turn"], event["trigger"], bool(event["negative"]),
                                bool(event["changed"]), improved))
    return rows


def as_rounds(rows: Iterable[RevisionRow]) -> list[Round]:
    """Returns the AdvGameBench trace of the rows: per row, the round before and the round after the revision."""
    rounds = []
    for row in rows:
        rounds.append(Round(won=not row.negative, cost=0.0, budget=0.0, strategy=0,
                            violation=row.trigger == "illegal", revises_after=True))
        after_won = None if row.improved is None else row.improved
        rounds.append(Round(won=after_won, cost=0.0, budget=0.0, strategy=int(row.changed),
                            violation=row.trigger == "illegal" and row.improved is False))
    return rounds


def revision_metrics(rows: Sequence[RevisionRow]) -> dict[str, Any]:
    """ORR, CSR and slope of some rows, with the counts; NaN (not applicable) becomes None."""
    resolved = [row for row in rows if row.improved is not None]
    before = [Round(won=not row.negative, cost=0.0, budget=0.0) for row in rows]
    values = {
        "over_correction_rate": over_correction_rate_paper(as_rounds(rows)),
        "correction_success_rate": correction_success_rate_paper(as_rounds(resolved)),
        "improvement_slope": improvement_slope(before),
    }
    return {
        "revisions": len(rows),
        "negative": sum(row.negative for row in rows),
        "changed": sum(row.changed for row in rows),
        **{key: None if math.isnan(value) else value for key, value in values.items()},
    }


def pooled_revision_metrics(matches: Iterable[Sequence[RevisionRow]]) -> dict[str, Any]:
    """ORR, CSR and counts over several matches' rows pooled; the slope is one OLS fit on all (index, win) points,
    as :func:`~stratbench.metrics.advgame.aggregate_paper` pools AdvGameBench rounds."""
    groups = [list(rows) for rows in matches]
    rows = [row for group in groups for row in group]
    pooled = revision_metrics(rows)
    slope = ols_slope([0.0 if row.negative else 1.0 for row in rows], [row.index for row in rows])
    return {**pooled, "improvement_slope": slope if rows else None}


def revision_record(events: Sequence[dict[str, Any]], players: Iterable[int]) -> dict[str, dict[str, Any]]:
    """The match record's ``revise`` metric per player that critiqued: its metrics and its rows."""
    found = {}
    for player in players:
        rows = revision_rows(events, player)
        if rows:
            found[str(player)] = {"revise": {**revision_metrics(rows), "rows": [asdict(row) for row in rows]}}
    return found
