"""Turns two-sided matches into weighted pairwise comparisons (private helpers).

Every two-sided match adds a fractional win to a comparison matrix ``C``: ``C[i, j]`` gains the
score of agent ``i`` against agent ``j`` and ``C[j, i]`` the score of ``j``. A score is used as a
weight, so a 0.7/0.3 match counts as 0.7 of a win for ``i`` and 0.3 for ``j``. Scores must lie
in ``[0, 1]``. Equal scores are a tie, handled by the tie policy:

* ``"drop"`` (GameBench): the match adds nothing.
* ``"half"`` (Chatbot Arena): the match adds exactly 0.5 each way, whatever the equal scores
  were (a 0/0 or 1/1 result counts as 0.5/0.5 too).

Matches with one side or more than two sides, and self-play matches (the same label on both
sides), add nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from stratbench.rating.data import MatchResult

TIE_POLICIES = ("drop", "half")


def _check_options(alpha: float, ties: str) -> None:
    """Raises ValueError for a non-positive ``alpha`` or an unknown tie policy."""
    if not alpha > 0:
        raise ValueError(
            f"alpha must be > 0 (an unregularised fit has no finite MLE when an agent "
            f"never lost or never won), got {alpha!r}"
        )
    if ties not in TIE_POLICIES:
        raise ValueError(f"ties must be one of {TIE_POLICIES}, got {ties!r}")


def _two_sided(matches: Iterable[MatchResult]) -> list[MatchResult]:
    """Returns the matches that have exactly two sides."""
    return [m for m in matches if len(m.agents) == 2]


def _agent_order(
    matches: Sequence[MatchResult], agents: Sequence[str] | None
) -> tuple[str, ...]:
    """Returns ``agents`` checked against ``matches``, or the sorted agents of ``matches``."""
    seen = {a for m in matches for a in m.agents}
    if agents is None:
        return tuple(sorted(seen))
    order = tuple(agents)
    if len(set(order)) != len(order):
        raise ValueError(f"agents contains duplicates: {order!r}")
    missing = sorted(seen - set(order))
    if missing:
        raise ValueError(f"matches contain agents not in `agents`: {missing}")
    return order


def _contributions(
    matches: Sequence[MatchResult], index: dict[str, int], ties: str
) -> np.ndarray:
    """Returns one row ``(i, j, c_ij, c_ji)`` per two-sided match.

    ``C[i, j] += c_ij`` and ``C[j, i] += c_ji``; a match that adds nothing is ``(0, 0, 0, 0)``.
    Rows are canonical (``i <= j``) so that equal contributions compare equal.
    """
    rows = np.zeros((len(matches), 4))
    for k, m in enumerate(matches):
        (a, b), (sa, sb) = m.agents, m.scores
        if not (0.0 <= sa <= 1.0 and 0.0 <= sb <= 1.0):
            raise ValueError(
                f"pairwise rating needs scores in [0, 1]; match {m.match_id or k} in "
                f"{m.game!r} has {m.scores!r}"
            )
        if a == b:
            continue
        if sa == sb:
            if ties == "drop":
                continue
            sa = sb = 0.5
        i, j = index[a], index[b]
        if i > j:
            i, j, sa, sb = j, i, sb, sa
        rows[k] = (i, j, sa, sb)
    return rows


def _matrix(rows: np.ndarray, n_agents: int) -> np.ndarray:
    """Sums contribution rows into an ``n_agents`` x ``n_agents`` comparison matrix."""
    mat = np.zeros((n_agents, n_agents))
    i, j = rows[:, 0].astype(int), rows[:, 1].astype(int)
    np.add.at(mat, (i, j), rows[:, 2])
    np.add.at(mat, (j, i), rows[:, 3])
    mat[np.diag_indices(n_agents)] = 0.0
    return mat
