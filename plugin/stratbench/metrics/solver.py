"""Move-quality metrics against a solver (SPIN-Bench §4.4), as pure functions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence


def move_rank(scores: Mapping[str, float], chosen: str) -> int:
    """Returns the 0-based rank of ``chosen`` among the moves' solver scores.

    Ties rank best: a move as good as the optimum has rank 0, so "top-1"
    means "optimal". Raises KeyError if ``chosen`` has no score.

    Examples:
        >>> move_rank({"a": 1, "b": 1, "c": 0}, "b")
        0
        >>> move_rank({"a": 1, "b": 0, "c": -1}, "c")
        2
    """
    value = scores[chosen]
    ordered = sorted(scores.values(), reverse=True)
    return ordered.index(value)


def top_k_share(ranks: Sequence[int], k: int) -> float | None:
    """Returns the share of moves whose rank is below ``k`` (None if no moves)."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if not ranks:
        return None
    return sum(1 for r in ranks if r < k) / len(ranks)


def draw_rate(results: Iterable[str]) -> float | None:
    """Returns the share of ``"draw"`` among match results (None if none)."""
    results = list(results)
    if not results:
        return None
    return sum(1 for r in results if r == "draw") / len(results)
